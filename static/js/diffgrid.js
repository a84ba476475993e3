// The Diff view's aligned grid: both documents side by side, rows laid out lazily (only the rows
// in view exist in the page), unchanged runs folded, long lines wrapped (rows of their own
// height), the changed characters of a changed line highlighted, JSON inside strings shown as a
// nested block, and each side's line numbers taken from its own input text.

import { h, plural } from "./app.js";

const ROW_H = 20;               // px, one visual line (must match .drow in diff.css)
const CONTEXT = 3;              // unchanged lines shown around a change
const MAX_CELL = 20_000;        // characters of a line shown (the title has the start)
const CHAR_DIFF_MAX = 400;      // characters of a changed middle diffed character by character
const LINE_MAP_LIMIT = 4_000_000; // characters: larger inputs keep the formatted view's numbers

export const MARKS = { add: "+", del: "−", chg: "~", mvf: "⇄", mvt: "⇄", note: "≈", ign: "·", eq: " " };
const KIND_CODE = { eq: 0, add: 1, del: 2, chg: 3, mvf: 4, mvt: 5, note: 6, ign: 7 };
const CODE_KIND = Object.keys(KIND_CODE);

// ------------------------------------------------------------------ line numbers of the input

/** The lines of a valid JSON text's "line events", keyed: the start of every value (a member at
 *  its key) by its JSON Pointer, and the close of every non-empty container by pointer + "\u0001".
 *  Returns Map(key → 1-based line) and, with `perLine`, the key of the first event on each line. */
export function lineEvents(text, perLine = false) {
  const map = new Map();
  const firstKey = perLine ? [] : null;
  let line = 1;
  let pos = 0;
  const n = text.length;
  const stack = [];        // frames: { obj, ptr, idx, key, empty }
  let lastLineSeen = 0;
  const record = (key) => {
    if (!map.has(key)) map.set(key, line);
    if (perLine && lastLineSeen !== line) { firstKey[line - 1] = key; lastLineSeen = line; }
  };
  const childPtr = (f) => f.ptr + "/" + (f.obj ? escapeToken(f.key) : String(f.idx));
  let expectKey = false;
  while (pos < n) {
    const c = text.charCodeAt(pos);
    if (c === 10) { line++; pos++; continue; }
    if (c === 32 || c === 9 || c === 13 || c === 44 || c === 58) { pos++; continue; }  // space , :
    const top = stack[stack.length - 1];
    if (c === 125 || c === 93) {             // } ]
      stack.pop();
      if (!top.empty) record(top.ptr + "\u0001");
      pos++;
      expectKey = stack.length ? stack[stack.length - 1].obj : false;
      continue;
    }
    if (top && top.obj && expectKey) {       // a member's key
      const end = stringEnd(text, pos);
      top.key = JSON.parse(text.slice(pos, end));
      pos = end;
      expectKey = false;
      top.keyLine = line;
      continue;
    }
    // a value
    let ptr = "";
    if (top) {
      top.empty = false;
      if (!top.obj) top.idx++;
      ptr = childPtr(top);
      // a member's event is at its key (the key and value share a line in formatted text)
      if (top.obj && top.keyLine !== line) { const save = line; line = top.keyLine; record(ptr); line = save; }
      else record(ptr);
    } else record("");
    if (c === 123 || c === 91) {             // { [
      stack.push({ obj: c === 123, ptr, idx: -1, key: null, empty: true, keyLine: 0 });
      expectKey = c === 123;
      pos++;
      continue;
    }
    if (c === 34) pos = stringEnd(text, pos);
    else { while (pos < n && !isDelim(text.charCodeAt(pos))) pos++; }
    expectKey = top ? top.obj : false;
  }
  return { map, firstKey, lines: line };
}

function isDelim(c) { return c === 44 || c === 93 || c === 125 || c === 32 || c === 10 || c === 13 || c === 9 || c === 58; }

function stringEnd(text, pos) {
  let i = pos + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return text.length;
    let b = q - 1; let slashes = 0;
    while (text.charCodeAt(b) === 92) { slashes++; b--; }
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

function escapeToken(s) { return s.replace(/~/g, "~0").replace(/\//g, "~1"); }

/** Input line numbers for the view's lines of one side: Int32Array (0: none), or null when the
 *  input is one line (minified) or too large — then the formatted view's numbers are shown. */
export function inputLineNumbers(inputText, viewLines, skip) {
  if (!inputText || inputText.length > LINE_MAP_LIMIT) return null;
  if (inputText.indexOf("\n") < 0 || inputText.trim().indexOf("\n") < 0) return null;
  const kept = [];
  const parts = [];
  for (let i = 0; i < viewLines.length; i++) if (!skip[i]) { kept.push(i); parts.push(viewLines[i]); }
  let input; let view;
  try {
    input = lineEvents(inputText);
    view = lineEvents(parts.join("\n"), true);
  } catch (err) {
    return null;
  }
  const out = new Int32Array(viewLines.length);
  for (let k = 0; k < kept.length; k++) {
    const key = view.firstKey[k];
    const line = key === undefined ? undefined : input.map.get(key);
    if (line !== undefined) out[kept[k]] = line;
  }
  return out;
}

// ------------------------------------------------------------------ changed characters

/** Ranges [start, end) of the characters that differ between two lines, per side. */
export function charDiff(a, b) {
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  const am = a.slice(p, a.length - s); const bm = b.slice(p, b.length - s);
  if (!am.length || !bm.length || am.length > CHAR_DIFF_MAX || bm.length > CHAR_DIFF_MAX) {
    return [am.length ? [[p, a.length - s]] : [], bm.length ? [[p, b.length - s]] : []];
  }
  // longest common subsequence of the middles (at most 400 × 400)
  const n = am.length; const m = bm.length;
  const dp = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * (m + 1) + j] = am.charCodeAt(i) === bm.charCodeAt(j) ? dp[(i + 1) * (m + 1) + j + 1] + 1
        : Math.max(dp[(i + 1) * (m + 1) + j], dp[i * (m + 1) + j + 1]);
    }
  }
  const ra = []; const rb = [];
  const push = (list, i) => { const last = list[list.length - 1]; if (last && last[1] === i) last[1] = i + 1; else list.push([i, i + 1]); };
  let i = 0; let j = 0;
  while (i < n && j < m) {
    if (am.charCodeAt(i) === bm.charCodeAt(j)) { i++; j++; }
    else if (dp[(i + 1) * (m + 1) + j] >= dp[i * (m + 1) + j + 1]) { push(ra, p + i); i++; }
    else { push(rb, p + j); j++; }
  }
  while (i < n) { push(ra, p + i); i++; }
  while (j < m) { push(rb, p + j); j++; }
  return [ra, rb];
}

// ------------------------------------------------------------------ the grid

export class AlignedGrid {
  constructor(el, view, changes, inputs = {}) {
    this.el = el;
    this.left = view.left.split("\n");
    const segs = view.segments;
    // lines that are the same on both sides are sent once (segment [eq, n, n, 1])
    const rightOwn = view.right ? view.right.split("\n") : [];
    let totalR = 0;
    for (const s of segs) totalR += s[2];
    this.right = new Array(totalR);
    { let li = 0; let ro = 0; let k = 0;
      for (const s of segs) {
        if (s[3] === 1) for (let t = 0; t < s[2]; t++) this.right[k++] = this.left[li + t];
        else for (let t = 0; t < s[2]; t++) this.right[k++] = rightOwn[ro++];
        li += s[1];
      } }
    this.nestedSeg = new Uint8Array(segs.length);
    for (const [a, b] of view.nested || []) for (let s = a; s < b; s++) this.nestedSeg[s] = 1;
    let rows = 0;
    for (const s of segs) rows += Math.max(s[1], s[2]);
    this.rowL = new Int32Array(rows);
    this.rowR = new Int32Array(rows);
    this.rowK = new Uint8Array(rows);
    this.rowSeg = new Int32Array(rows);
    this.segStart = new Int32Array(segs.length + 1);
    this.segs = segs;
    const nestedL = new Uint8Array(this.left.length);
    const nestedR = new Uint8Array(this.right.length);
    let r = 0; let l = 0; let rr = 0;
    segs.forEach((s, si) => {
      const [kind, nl, nr] = s;
      const n = Math.max(nl, nr);
      const code = KIND_CODE[kind] ?? 0;
      this.segStart[si] = r;
      if (this.nestedSeg[si]) { nestedL.fill(1, l, l + nl); nestedR.fill(1, rr, rr + nr); }
      for (let k = 0; k < n; k++, r++) {
        this.rowL[r] = k < nl ? l + k : -1;
        this.rowR[r] = k < nr ? rr + k : -1;
        this.rowK[r] = code;
        this.rowSeg[r] = si;
      }
      l += nl; rr += nr;
    });
    this.segStart[segs.length] = r;
    this.rows = rows;
    this.nestedL = nestedL; this.nestedR = nestedR;
    // line numbers: each side's own input where it can be mapped, else the formatted view's
    this.numL = inputLineNumbers(inputs.left, this.left, nestedL);
    this.numR = inputLineNumbers(inputs.right, this.right, nestedR);
    el.dataset.lineNumbers = `${this.numL ? "input" : "view"} ${this.numR ? "input" : "view"}`;
    this.changeOfSeg = new Map();
    changes.forEach((c, i) => {
      for (const s of [c.seg, c.seg_to]) if (s !== undefined && !this.changeOfSeg.has(s)) this.changeOfSeg.set(s, i);
    });
    this.unfolded = new Set();
    this.currentSeg = -1;
    this.currentSegs = new Set();
    const maxNum = (nums, lines) => nums ? nums.reduce((a, b) => Math.max(a, b), 0) : lines.length;
    this.gutter = String(Math.max(maxNum(this.numL, this.left), maxNum(this.numR, this.right))).length + 1;
    el.style.setProperty("--gutter", `${this.gutter}ch`);
    this.spacer = h("div", { class: "dspacer" });
    this.win = h("div", { class: "dwin" });
    this.probe = h("span", { class: "dprobe", "aria-hidden": "true" }, "0".repeat(20));
    el.replaceChildren(this.spacer, this.win, this.probe);
    this.cpl = this.charsPerLine();
    this.buildDisplay();
    this.pending = false;
    el.addEventListener("scroll", () => this.schedule());
    new ResizeObserver(() => {
      const cpl = this.charsPerLine();
      if (cpl !== this.cpl) { this.cpl = cpl; this.layout(); }
      this.schedule();
    }).observe(el);
    el.addEventListener("click", (e) => {
      const fold = e.target.closest("button.fold");
      if (fold) { this.unfold(Number(fold.dataset.seg)); }
    });
    this.render();
  }

  /** Characters of a code cell's line at the current width (for the wrapped rows' heights). */
  charsPerLine() {
    const cw = this.probe.getBoundingClientRect().width / 20 || 7.8;
    const total = this.el.clientWidth || 900;
    const cell = total / 2 - (this.gutter + 1) * cw - 12 - 1.6 * 13 - 8;
    return Math.max(10, Math.floor(cell / cw));
  }

  // display list: row indices (>= 0) and folds (-(segment + 1)) of long unchanged runs
  buildDisplay() {
    const segs = this.segs;
    const out = new Int32Array(this.rows + segs.length);
    const segDisp = new Int32Array(segs.length);
    let n = 0;
    segs.forEach((s, si) => {
      const start = this.segStart[si]; const end = this.segStart[si + 1];
      segDisp[si] = n;
      const len = end - start;
      const foldable = (s[0] === "eq" || s[0] === "ign") && !this.unfolded.has(si);
      const head = si === 0 ? 0 : CONTEXT;
      const tail = si === segs.length - 1 ? 0 : CONTEXT;
      if (foldable && len > head + tail + 2) {
        for (let r = start; r < start + head; r++) out[n++] = r;
        out[n++] = -(si + 1);
        for (let r = end - tail; r < end; r++) out[n++] = r;
      } else {
        for (let r = start; r < end; r++) out[n++] = r;
      }
    });
    this.disp = out.subarray(0, n);
    this.segDisp = segDisp;
    this.layout();
  }

  /** Row tops: a row is as tall as its longer side's wrapped text. */
  layout() {
    const n = this.disp.length;
    const top = new Float64Array(n + 1);
    const cpl = this.cpl;
    for (let d = 0; d < n; d++) {
      const v = this.disp[d];
      let lines = 1;
      if (v >= 0) {
        const a = this.rowL[v] >= 0 ? Math.min(MAX_CELL, this.left[this.rowL[v]].length) : 0;
        const b = this.rowR[v] >= 0 ? Math.min(MAX_CELL, this.right[this.rowR[v]].length) : 0;
        const len = a > b ? a : b;
        if (len > cpl) lines = Math.ceil(len / cpl);
      }
      top[d + 1] = top[d] + lines * ROW_H;
    }
    this.top = top;
    const total = top[n];
    this.spacer.style.height = `${total}px`;
    // short results take only the room they need; long ones scroll inside 62% of the window
    this.el.style.height = `${Math.max(120, Math.min(Math.round(window.innerHeight * 0.62), total + 2))}px`;
    this.el.dataset.rows = String(n);
  }

  unfold(si) {
    const top = this.el.scrollTop;
    this.unfolded.add(si);
    this.buildDisplay();
    this.el.scrollTop = top;
    this.render();
  }

  unfoldAll() {
    this.segs.forEach((s, si) => this.unfolded.add(si));
    const seg = this.currentSeg;
    this.buildDisplay();
    if (seg >= 0) this.scrollToSeg(seg); else this.render();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.render(); });
  }

  reveal(seg, other) {
    if (seg === undefined || seg < 0) return;
    this.currentSeg = seg;
    this.currentSegs = new Set(other === undefined ? [seg] : [seg, other]);
    this.scrollToSeg(seg);
  }

  scrollToSeg(seg) {
    const d = this.segDisp[seg];
    const view = this.el.clientHeight || 400;
    this.el.scrollTop = Math.max(0, this.top[d] - Math.round(view / 3));
    this.el.dataset.currentSeg = String(seg);
    this.render();
  }

  firstAt(y) {
    let lo = 0; let hi = this.disp.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.top[mid + 1] <= y) lo = mid + 1; else hi = mid; }
    return lo;
  }

  render() {
    const el = this.el;
    const total = this.disp.length;
    const height = el.clientHeight || 400;
    const first = Math.max(0, this.firstAt(el.scrollTop) - 10);
    const end = el.scrollTop + height;
    let last = first;
    while (last < total && this.top[last] < end) last++;
    last = Math.min(total, last + 10);
    const frag = document.createDocumentFragment();
    for (let d = first; d < last; d++) {
      const v = this.disp[d];
      const row = v < 0 ? this.foldRow(-v - 1) : this.row(v);
      row.style.height = `${this.top[d + 1] - this.top[d]}px`;
      frag.append(row);
    }
    this.win.style.transform = `translateY(${this.top[first]}px)`;
    this.win.replaceChildren(frag);
  }

  foldRow(si) {
    const start = this.segStart[si]; const end = this.segStart[si + 1];
    const head = si === 0 ? 0 : CONTEXT;
    const tail = si === this.segs.length - 1 ? 0 : CONTEXT;
    const hidden = end - start - head - tail;
    return h("div", { class: "drow dfold" },
      h("button", { type: "button", class: "fold", "data-seg": String(si), title: "Show these lines" },
        `⋯ ${plural(hidden, "unchanged line")} — show`));
  }

  row(r) {
    const kind = CODE_KIND[this.rowK[r]];
    const l = this.rowL[r]; const rr = this.rowR[r];
    const seg = this.rowSeg[r];
    const cls = ["drow", `k-${kind}`];
    if (this.currentSegs.has(seg)) cls.push("current");
    if (this.nestedSeg[seg]) cls.push("nested");
    const row = h("div", { class: cls.join(" "), "data-seg": String(seg) });
    const change = this.changeOfSeg.get(seg);
    if (change !== undefined) row.dataset.change = String(change);
    let marks = [null, null];
    if (kind === "chg" && l >= 0 && rr >= 0) marks = charDiff(this.left[l], this.right[rr]);
    row.append(...this.cell(l, this.left, this.numL, this.nestedL, kind, marks[0]),
      ...this.cell(rr, this.right, this.numR, this.nestedR, kind, marks[1]));
    return row;
  }

  cell(line, lines, nums, nested, kind, marks) {
    if (line < 0) return [h("span", { class: "ln" }), h("span", { class: "mk" }), h("span", { class: "code fill", "aria-hidden": "true" })];
    const full = lines[line];
    const text = full.length > MAX_CELL ? full.slice(0, MAX_CELL) : full;
    const mark = MARKS[kind] || " ";
    const code = h("span", { class: "code" });
    if (marks && marks.length) highlight(code, text, marks);
    else colour(code, text);
    if (full.length > MAX_CELL) code.append(h("span", { class: "cut" }, ` … ${(full.length - MAX_CELL).toLocaleString("en-US")} more characters`));
    let num;
    if (nested[line]) num = h("span", { class: "ln nest", title: "JSON inside the string above, expanded (it was compared as JSON)" }, "⤷");
    else num = h("span", { class: "ln" }, nums ? (nums[line] ? String(nums[line]) : "") : String(line + 1));
    return [num, h("span", { class: "mk", "aria-label": kindLabel(kind) }, mark), code];
  }
}

function kindLabel(kind) {
  return { add: "added", del: "removed", chg: "changed", mvf: "moved from here", mvt: "moved here", note: "written differently", ign: "ignored", eq: "" }[kind] || "";
}

function highlight(el, text, ranges) {
  let last = 0;
  for (const [a, b] of ranges) {
    if (a >= text.length) break;
    if (a > last) el.append(text.slice(last, a));
    el.append(h("mark", { class: "dch" }, text.slice(a, Math.min(b, text.length))));
    last = Math.min(b, text.length);
  }
  if (last < text.length) el.append(text.slice(last));
}

const TOKENS = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],])/g;

function colour(el, text) {
  let last = 0;
  TOKENS.lastIndex = 0;
  for (let m = TOKENS.exec(text); m; m = TOKENS.exec(text)) {
    if (m.index > last) el.append(text.slice(last, m.index));
    let cls;
    if (m[1] !== undefined) cls = m[2] !== undefined ? "jv-key" : "jv-str";
    else if (m[3] !== undefined) cls = "jv-num";
    else if (m[4] !== undefined) cls = "jv-lit";
    else cls = "jv-p";
    if (m[1] !== undefined && m[2] !== undefined) {
      el.append(h("span", { class: cls }, m[1]), h("span", { class: "jv-p" }, m[2]));
    } else {
      el.append(h("span", { class: cls }, m[0]));
    }
    last = TOKENS.lastIndex;
  }
  if (last < text.length) el.append(text.slice(last));
}
