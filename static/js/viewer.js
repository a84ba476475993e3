// JSON Workbench: the shared read-only JSON viewer.
//
//   import { JsonViewer } from "/static/js/viewer.js";
//   const v = new JsonViewer(el, { onSelect: (node) => {}, maxAutoExpandDepth: 3 });
//   await v.setText(text);          // exact JSON text
//   v.highlight(["/a/0"], "match"); v.reveal("/a/0"); v.expandAll(); v.collapseAll(); v.clear();
//   await v.find("call_123");       // the find box: hits in keys and values, "3 of 41"
//
// The text is read by its own tokenizer: numbers are shown as written (never through a JS
// Number), strings with their escapes as written, duplicate keys both shown.  Nodes live in
// typed arrays (one entry per value, in document order); the rows on screen are a flat list of
// node indices built from the fold state, and only the rows in view get DOM elements (virtual
// scrolling), so a 20 MB document stays usable.  Large texts are read in slices of a few
// milliseconds so input is never blocked for long.
//
// Find (a box in the toolbar, Ctrl/⌘+F inside the viewer, Enter / Shift+Enter for the next /
// previous hit) searches the model, not the page: every key and value as written, folded and
// off-screen ones too, in slices of a few milliseconds; the current hit is unfolded and selected.
//
// For tests: the container carries data-rows (rows in the model) and data-state
// (empty | loading | ready | invalid), data-find-hits and data-find-current (1-based) after a
// search; every row element of a value carries data-pointer.

import { copyText, download, h } from "./dom.js";
import { debounce } from "./http.js";
import { formatBytes, plural } from "./text.js";
import { openRedaction } from "./redact.js";
import { OBJ, ARR, STR, NUM, KIND_NAMES, Model, escapePointerToken, normalizedPath, jsonPointer, splitPointer } from "./jsonmodel.js";

export { escapePointerToken, escapeNormalizedName, normalizedPath, jsonPointer, splitPointer } from "./jsonmodel.js";

const SLICE_MS = 12;          // longest stretch of tokenizing without yielding to the page
const OVERSCAN = 12;          // rows rendered above and below the visible ones
const MAX_SPACER_PX = 8_000_000;  // beyond this the scrollbar maps proportionally onto rows
const MAX_TOKEN_CHARS = 2000; // a longer string is shown cut, with a "… N more" toggle


function yieldToPage() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
    ch.port2.postMessage(0);
  });
}

// ------------------------------------------------------------------ find helpers

/** s.toLowerCase() when that keeps every offset; otherwise character by character. */
function lowerSame(s) {
  const l = s.toLowerCase();
  if (l.length === s.length) return l;
  let out = "";
  for (const ch of s) { const c = ch.toLowerCase(); out += c.length === ch.length ? c : ch; }
  return out;
}

/** Where each node's first token starts (its key, or its value): increasing in node order. */
function tokenStarts(m) {
  if (m.tokStart) return m.tokStart;
  const a = new Int32Array(m.n);
  for (let i = 0; i < m.n; i++) a[i] = m.kS[i] >= 0 ? m.kS[i] : m.vS[i];
  m.tokStart = a;
  return a;
}

/** The node whose key or scalar value holds text[o, o + len), or -1 (punctuation, white space). */
function nodeAt(m, starts, o, len) {
  let lo = 0, hi = m.n - 1;
  if (hi < 0 || starts[0] > o) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= o) lo = mid; else hi = mid - 1;
  }
  const i = lo;
  if (m.kS[i] >= 0 && o >= m.kS[i] && o + len <= m.kE[i]) return i;
  if (m.kind[i] > ARR && o >= m.vS[i] && o + len <= m.vE[i]) return i;
  return -1;
}

/** The end of the token of node i that holds offset o. */
function tokenEnd(m, i, o) {
  return m.kS[i] >= 0 && o < m.kE[i] ? m.kE[i] : m.vE[i];
}

/** Add the viewer's find keys to the page's shortcut list (the `?` dialog), once. */
function listShortcut() {
  const table = document.querySelector("#shortcuts table");
  if (!table || table.querySelector("[data-viewer-find]")) return;
  const rows = table.querySelectorAll("tr");
  const row = h("tr", { "data-viewer-find": "" },
    h("td", {}, h("kbd", {}, "Ctrl"), "/", h("kbd", {}, "⌘"), "+", h("kbd", {}, "F"), " in a viewer"),
    h("td", {}, "find in keys and values (folded ones too); ", h("kbd", {}, "Enter"), " / ", h("kbd", {}, "Shift"), "+", h("kbd", {}, "Enter"), " next / previous"));
  const before = rows.length >= 2 ? rows[rows.length - 2] : null;   // above "?" and "Esc"
  if (before) before.before(row); else table.append(row);
}

// ------------------------------------------------------------------ the viewer

let uid = 0;

export class JsonViewer {
  /**
   * @param {HTMLElement} container
   * @param {{onSelect?: Function, maxAutoExpandDepth?: number, indent?: number|string,
   *          filename?: string, label?: string, toolbar?: boolean}} options
   */
  constructor(container, options = {}) {
    this.el = container;
    this.onSelect = options.onSelect || null;
    this.maxAutoExpandDepth = options.maxAutoExpandDepth ?? 3;
    this.filename = options.filename || "document.json";
    this.setIndent(options.indent ?? 2);
    this.id = `jv${++uid}`;
    this.text = "";
    this.m = null;
    this.rows = new Int32Array(0);
    this.rowCount = 0;
    this.sel = -1;
    this.marks = new Map();      // class → Set of nodes
    this.full = new Set();       // nodes whose long string is shown whole
    this.ptrCache = new Map();
    this.pending = [];
    this.gen = 0;
    this.rowH = 0;
    this.from = -1; this.to = -1;
    this.frame = 0;
    this.ready = Promise.resolve();
    this._build(options);
  }

  setIndent(indent) {
    this.indentUnit = indent === "tab" || indent === "\t" ? "\t" : " ".repeat(Math.max(1, Math.min(8, Number(indent) || 2)));
  }

  _build(options) {
    const el = this.el;
    el.classList.add("jv");
    el.replaceChildren();
    const btn = (label, act, title) => h("button", { type: "button", "data-act": act, title }, label);
    this.bar = h("div", { class: "jv-bar toolbar", role: "toolbar", "aria-label": options.label ? `${options.label} viewer` : "JSON viewer" },
      btn("Expand all", "expand", "Unfold every object and array"),
      btn("Collapse all", "collapse", "Fold everything below the top level"),
      h("span", { class: "grow" }),
      btn("Copy all", "copy", "Copy the whole document"),
      btn("Copy redacted…", "redact", "Copy the document with its values replaced by placeholders (keys, structure, lengths and id shapes kept): previewed as a diff first"),
      btn("Download", "download", "Save the whole document as a file"),
      this._findBox());
    this.pathEl = h("code", { class: "jv-path", title: "Normalized path (RFC 9535)" });
    this.ptrEl = h("code", { class: "jv-pointer", title: "JSON Pointer (RFC 6901)" });
    this.selBar = h("div", { class: "jv-sel" },
      h("span", { class: "jv-sel-label" }, "Path"), this.pathEl, btn("Copy path", "copy-path", "Copy the JSONPath of the selected node"),
      h("span", { class: "jv-sel-label" }, "Pointer"), this.ptrEl, btn("Copy pointer", "copy-pointer", "Copy the JSON Pointer of the selected node"),
      btn("Copy value", "copy-value", "Copy the exact JSON of the selected node"));
    this.selBar.hidden = true;
    this.msg = h("div", { class: "jv-msg", role: "status" });
    this.msg.hidden = true;
    this.spacer = h("div", { class: "jv-spacer" });
    this.win = h("div", { class: "jv-win", role: "presentation" });
    this.scroller = h("div", { class: "jv-scroll", tabindex: "0", role: "tree", "aria-label": options.label || "JSON document",
      "aria-multiselectable": "false" }, this.spacer, this.win);
    el.append(this.bar, this.selBar, this.msg, this.scroller);
    this.bar.hidden = options.toolbar === false;
    if (!this.bar.hidden) listShortcut();

    el.addEventListener("click", (e) => this._onClick(e));
    el.addEventListener("keydown", (e) => {
      if (e.target.closest?.(".jv") !== el) return;   // a nested viewer's own keys
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "f" && !this.bar.hidden) {
        e.preventDefault();
        this.findInput.focus();
        this.findInput.select();
      }
    });
    this.scroller.addEventListener("scroll", () => this._schedule());
    this.scroller.addEventListener("keydown", (e) => this._onKey(e));
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this._schedule(true)).observe(this.scroller);
    this._setState("empty");
  }

  _setState(state) {
    this.el.dataset.state = state;
    this.el.dataset.rows = String(this.rowCount);
  }

  // ---------------------------------------------------------------- public API

  /** Show `text`; resolves once it is read and the first rows are on screen. */
  setText(text, options = {}) {
    if (options.indent !== undefined) this.setIndent(options.indent);
    if (options.filename) this.filename = options.filename;
    const gen = ++this.gen;
    this.text = text = String(text ?? "");
    this.m = null; this.raw = null;
    this.sel = -1; this.marks = new Map(); this.full = new Set(); this.ptrCache = new Map();
    this.pending = [];
    this.rowCount = 0; this.from = this.to = -1;
    this._resetFind();
    this.selBar.hidden = true;
    this.msg.classList.remove("bad");
    delete this.el.dataset.selectedPointer; delete this.el.dataset.selectedPath;
    this.win.replaceChildren();
    this.closeNested();
    this._layout();
    if (!text.trim()) { this._message(""); this._setState("empty"); this.ready = Promise.resolve(); return this.ready; }
    this._setState("loading");
    this.ready = this._load(text, gen);
    return this.ready;
  }

  /** Mark the nodes of `pointers` with class `cls` (replacing earlier marks of that class);
   *  their ancestors are unfolded.  Returns how many pointers were found. */
  highlight(pointers, cls = "match") {
    if (!this.m) { this.pending.push(() => this.highlight(pointers, cls)); return 0; }
    const set = new Set();
    let changed = false;
    for (const p of pointers || []) {
      const i = this.m.find(p);
      if (i < 0) continue;
      set.add(i);
      changed = this._expandAncestors(i) || changed;
    }
    if (set.size) this.marks.set(cls, set); else this.marks.delete(cls);
    if (changed) this._rebuild();
    this._render(true);
    return set.size;
  }

  /** Unfold down to `pointer`, scroll to it and select it.  True when it exists. */
  reveal(pointer) {
    if (!this.m) { this.pending.push(() => this.reveal(pointer)); return false; }
    const i = this.m.find(pointer);
    if (i < 0) return false;
    if (this._expandAncestors(i)) this._rebuild();
    this._select(i, { scroll: "center" });
    this.el.scrollIntoView?.({ block: "nearest" });
    return true;
  }

  expandAll() {
    if (!this.m) { this.pending.push(() => this.expandAll()); return; }
    this.m.open.fill(1, 0, this.m.n);
    this._rebuild(); this._keepSelection(); this._render(true);
  }

  collapseAll() {
    if (!this.m) { this.pending.push(() => this.collapseAll()); return; }
    this.m.open.fill(0, 0, this.m.n);
    if (this.m.n) this.m.open[0] = 1;
    if (this.sel > 0) this.sel = this._topAncestor(this.sel);
    this._rebuild(); this._keepSelection(); this._render(true);
  }

  clear() { return this.setText(""); }

  // ---------------------------------------------------------------- JSON inside a string

  /** Does string node i hold a JSON object or array (as tool-call arguments do)?  A cheap look
   *  at the token as written: "{…}" or "[…]"; the nested viewer's own tokenizer decides. */
  _holdsJson(i) {
    const t = this.text, s = this.m.vS[i], e = this.m.vE[i];
    if (e - s < 4) return false;
    let a = s + 1, b = e - 2;
    while (a < b && (t.charCodeAt(a) === 32)) a++;
    while (b > a && (t.charCodeAt(b) === 32)) b--;
    const c = t[a], d = t[b];
    return (c === "{" && d === "}") || (c === "[" && d === "]");
  }

  /** Open the JSON inside string node i as a nested tree below this one, marked "parsed from a
   *  string" (its own viewer: the same exact tokenizer, so numbers stay as written). */
  openNested(i) {
    if (!this.m || this.m.kind[i] !== STR) return null;
    const info = this._select(i, { scroll: "nearest" });
    let inner;
    try { inner = JSON.parse(this.text.slice(this.m.vS[i], this.m.vE[i])); } catch { return null; }
    this.closeNested();
    const box = h("div", { class: "jv-nested-tree" });
    const where = info.pointer === "" ? "the document" : info.pointer;
    this.nested = h("section", { class: "jv-nested", "data-nested-for": info.pointer, "aria-label": `Parsed from the string at ${where}` },
      h("div", { class: "jv-nested-head" },
        h("span", { class: "badge" }, "parsed from a string"),
        h("code", {}, info.path),
        h("span", { class: "muted" }, "— the string's text read as JSON; the document itself is unchanged"),
        h("span", { class: "grow" }),
        h("button", { type: "button", "data-act": "close-nested", title: "Close the nested tree" }, "Close")),
      box);
    this.el.append(this.nested);
    this.nestedViewer = new JsonViewer(box, { label: `Parsed from the string at ${where}`, filename: "parsed.json",
      maxAutoExpandDepth: this.maxAutoExpandDepth });
    this.el.dataset.nested = info.pointer;
    const ready = this.nestedViewer.setText(inner);
    this.nested.scrollIntoView?.({ block: "nearest" });
    return ready;
  }

  closeNested() {
    if (!this.nested) return;
    this.nested.remove();
    this.nested = null; this.nestedViewer = null;
    delete this.el.dataset.nested;
  }

  /** The selected node as given to onSelect, or null. */
  get selected() { return this.sel >= 0 && this.m ? this._nodeInfo(this.sel) : null; }

  // ---------------------------------------------------------------- loading

  async _load(text, gen) {
    const m = new Model(text, this.maxAutoExpandDepth);
    let done = m.step(SLICE_MS);
    while (!done) {
      this._message(h("span", { class: "spinner", "aria-hidden": "true" }), ` Reading ${formatBytes(text.length)}… ${Math.floor(100 * m.pos / text.length)}%`);
      await yieldToPage();
      if (gen !== this.gen) return;
      done = m.step(SLICE_MS);
    }
    if (gen !== this.gen) return;
    if (m.error) { this._showRaw(text, m.error); return; }
    this.m = m;
    this._message("");
    const digits = String(m.lines).length;
    this.el.style.setProperty("--jv-gutter", `${digits + 1}ch`);
    this._rebuild();
    this._setState("ready");
    this._render(true);
    const pending = this.pending; this.pending = [];
    for (const op of pending) op();
    if (this.findInput?.value) this.find(this.findInput.value, { reveal: false });
  }

  _message(...parts) {
    this.msg.replaceChildren(...parts);
    this.msg.hidden = !parts.some((p) => p);
  }

  /** Not JSON: say where, and show the text as plain numbered lines. */
  _showRaw(text, error) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    this.raw = { starts: Int32Array.from(starts), error };
    this.rowCount = starts.length;
    this.el.style.setProperty("--jv-gutter", `${String(starts.length).length + 1}ch`);
    this._message(`Not valid JSON (line ${error.line}, column ${error.column}): ${error.message}. Shown as plain text.`);
    this.msg.classList.add("bad");
    this._setState("invalid");
    this._layout();
    this._render(true);
  }

  // ---------------------------------------------------------------- rows

  _rebuild() {
    const m = this.m;
    const n = m.n, size = m.size, count = m.count, open = m.open, kind = m.kind;
    let rows = this.rows.length ? this.rows : new Int32Array(1024);
    let k = 0;
    const push = (v) => {
      if (k === rows.length) { const bigger = new Int32Array(rows.length * 2); bigger.set(rows); rows = bigger; }
      rows[k++] = v;
    };
    const st = [];
    let i = 0;
    while (i < n) {
      while (st.length && i >= st[st.length - 1] + size[st[st.length - 1]]) push((st.pop() << 1) | 1);
      push(i << 1);
      if (kind[i] <= ARR && count[i] > 0 && open[i]) { st.push(i); i++; } else i += size[i];
    }
    while (st.length) push((st.pop() << 1) | 1);
    this.rows = rows;
    this.rowCount = k;
    this.el.dataset.rows = String(k);
    this.from = this.to = -1;
    this._layout();
  }

  _layout() {
    if (!this.rowH) this._measure();
    const total = this.rowCount * this.rowH;
    this.scaled = total > MAX_SPACER_PX;
    this.spacer.style.height = `${Math.min(total, MAX_SPACER_PX)}px`;
  }

  _measure() {
    const probe = h("div", { class: "jv-row" }, "0");
    this.win.append(probe);
    this.rowH = probe.getBoundingClientRect().height || 0;
    probe.remove();
    if (!this.rowH) this.rowH = 0;  // not laid out yet (hidden): measured again on the next render
  }

  _schedule(force = false) {
    if (force) this.from = this.to = -1;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this._render(); });
  }

  /** Row index at the top of the viewport. */
  _firstRow() {
    const sc = this.scroller, rh = this.rowH;
    if (!this.scaled) return Math.floor(sc.scrollTop / rh);
    const maxScroll = sc.scrollHeight - sc.clientHeight;
    const visible = Math.ceil(sc.clientHeight / rh);
    return maxScroll > 0 ? Math.round((sc.scrollTop / maxScroll) * Math.max(0, this.rowCount - visible)) : 0;
  }

  _render(force = false) {
    if (!this.rowH) { this._measure(); if (!this.rowH) return; this._layout(); }
    if (!this.m && !this.raw) { this.win.replaceChildren(); return; }
    const sc = this.scroller, rh = this.rowH;
    const visible = Math.ceil((sc.clientHeight || 600) / rh) + 1;
    const first = Math.min(this._firstRow(), Math.max(0, this.rowCount - 1));
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(this.rowCount, first + visible + OVERSCAN);
    const top = this.scaled ? sc.scrollTop - (first - from) * rh : from * rh;
    this.win.style.transform = `translateY(${Math.max(0, top)}px)`;
    if (!force && from === this.from && to === this.to) return;
    this.from = from; this.to = to;
    const frag = document.createDocumentFragment();
    for (let r = from; r < to; r++) frag.append(this.raw ? this._rawRow(r) : this._row(r));
    this.win.replaceChildren(frag);
    this._refreshSelection();
  }

  /** Mark the selected row among the rendered ones (no re-render: a text selection survives). */
  _refreshSelection() {
    let active = null;
    for (const row of this.win.children) {
      const v = this.rows[Number(row.dataset.row)];
      const on = !this.raw && this.sel >= 0 && v === this.sel << 1;
      row.classList.toggle("selected", on);
      if (row.hasAttribute("aria-selected")) row.setAttribute("aria-selected", on ? "true" : "false");
      if (on) active = row;
    }
    if (active) this.scroller.setAttribute("aria-activedescendant", active.id);
    else this.scroller.removeAttribute("aria-activedescendant");
  }

  _rawRow(r) {
    const { starts, error } = this.raw;
    const s = starts[r];
    const e = r + 1 < starts.length ? starts[r + 1] - 1 : this.text.length;
    const row = h("div", { class: r + 1 === error.line ? "jv-row error" : "jv-row", "data-row": r, "data-line": r + 1 },
      h("span", { class: "jv-ln", "aria-hidden": "true" }, String(r + 1)),
      h("span", { class: "jv-tog" }));
    const line = this.text.slice(s, Math.min(e, s + MAX_TOKEN_CHARS)).replace(/\r$/, "");
    row.append(line + (e - s > MAX_TOKEN_CHARS ? " …" : ""));
    return row;
  }

  _row(r) {
    const m = this.m, t = this.text;
    const v = this.rows[r], i = v >> 1, closing = (v & 1) === 1;
    const k = m.kind[i];
    const row = document.createElement("div");
    row.id = `${this.id}-r${r}`;
    row.dataset.row = String(r);
    let cls = "jv-row";
    if (i === this.sel) cls += " selected";
    const ln = h("span", { class: "jv-ln", "aria-hidden": "true" }, String(closing ? m.lineEnd[i] : m.line[i]));
    const tog = h("span", { class: "jv-tog", "aria-hidden": "true" });
    row.append(ln, tog, this.indentUnit.repeat(m.depth[i]));
    const p = m.parent[i];
    const comma = p >= 0 && m.idx[i] < m.count[p] - 1;
    if (closing) {
      cls += " jv-close";
      row.dataset.closes = this._pointer(i);
      row.setAttribute("role", "none");
      row.append(h("span", { class: "jv-p" }, k === OBJ ? "}" : "]"));
      if (comma) row.append(h("span", { class: "jv-p" }, ","));
      row.className = cls;
      return row;
    }
    for (const [c, set] of this.marks) if (set.has(i)) cls += ` jv-marked ${c}`;
    if (this.fFlags && this.fFlags[i]) cls += i === this.fNode ? " jv-found jv-found-current" : " jv-found";
    row.className = cls;
    row.dataset.pointer = this._pointer(i);
    row.setAttribute("role", "treeitem");
    row.setAttribute("aria-level", String(m.depth[i] + 1));
    row.setAttribute("aria-selected", i === this.sel ? "true" : "false");
    if (m.kS[i] >= 0) {
      row.append(this._token(i, m.kS[i], m.kE[i], "jv-key"), h("span", { class: "jv-p" }, ": "));
    }
    if (k <= ARR) {
      const n = m.count[i];
      const [o, c] = k === OBJ ? ["{", "}"] : ["[", "]"];
      if (n === 0) {
        row.append(h("span", { class: "jv-p" }, o + c));
      } else if (m.open[i]) {
        tog.textContent = "▾"; tog.classList.add("on");
        row.setAttribute("aria-expanded", "true");
        row.append(h("span", { class: "jv-p" }, o));
      } else {
        tog.textContent = "▸"; tog.classList.add("on");
        row.setAttribute("aria-expanded", "false");
        row.append(h("span", { class: "jv-fold", title: "Unfold" }, `${o}…${c}`),
          h("span", { class: "jv-count" }, ` ${k === OBJ ? plural(n, "key", "keys") : plural(n, "item", "items")}`));
        if (comma) row.append(h("span", { class: "jv-p" }, ","));
        return row;
      }
    } else {
      const cl = k === STR ? "jv-str" : k === NUM ? "jv-num" : "jv-lit";
      row.append(this._token(i, m.vS[i], m.vE[i], cl));
      if (k === STR && this._holdsJson(i)) {
        row.append(h("span", { class: "jv-json", "data-json": String(i), role: "button",
          title: "This string holds JSON: open it as a tree, parsed from the string (Enter)" }, "{…} open as JSON"));
        row.dataset.holdsJson = "";
      }
    }
    if (comma && !(k <= ARR && m.count[i] > 0)) row.append(h("span", { class: "jv-p" }, ","));
    return row;
  }

  /** A token's exact text; a very long one is cut with a "… N more characters" toggle. */
  _token(i, s, e, cls) {
    const span = h("span", { class: cls });
    const marked = this.fFlags && this.fFlags[i];
    if (e - s <= MAX_TOKEN_CHARS || this.full.has(`${i}:${s}`)) {
      if (marked) this._markText(span, this.text.slice(s, e)); else span.textContent = this.text.slice(s, e);
      return span;
    }
    if (marked) this._markText(span, this.text.slice(s, s + MAX_TOKEN_CHARS));
    else span.textContent = this.text.slice(s, s + MAX_TOKEN_CHARS);
    const more = h("span", { class: "jv-more", "data-more": `${i}:${s}`, title: "Show the whole text" },
      `… ${(e - s - MAX_TOKEN_CHARS).toLocaleString("en-US")} more characters`);
    const wrap = h("span", {}, span, more);
    return wrap;
  }

  _pointer(i) {
    if (i === 0) return "";
    let p = this.ptrCache.get(i);
    if (p === undefined) {
      const part = this.m.partOf(i);
      p = this._pointer(this.m.parent[i]) + "/" + (typeof part === "number" ? String(part) : escapePointerToken(part));
      if (this.ptrCache.size > 50000) this.ptrCache.clear();
      this.ptrCache.set(i, p);
    }
    return p;
  }

  _nodeInfo(i) {
    const m = this.m;
    const parts = m.parts(i);
    return {
      pointer: jsonPointer(parts), path: normalizedPath(parts),
      text: this.text.slice(m.vS[i], m.vE[i]), kind: KIND_NAMES[m.kind[i]], line: m.line[i],
      key: m.kS[i] >= 0 ? m.keyOf(i) : null,
    };
  }


  // ---------------------------------------------------------------- find

  _findBox() {
    this.findInput = h("input", { type: "search", class: "jv-find", placeholder: "Find key or value",
      "aria-label": "Find in the document (keys and values, as written)", spellcheck: "false", autocomplete: "off",
      title: "Find in keys and values, folded ones too (Ctrl/⌘+F in the viewer). Enter: next, Shift+Enter: previous, Esc: clear" });
    this.findCount = h("span", { class: "jv-find-count", role: "status", "aria-live": "polite" });
    const nav = (label, act, title) => h("button", { type: "button", "data-act": act, title, "aria-label": title }, label);
    const later = debounce(() => this.find(this.findInput.value), 200);
    this.findInput.addEventListener("input", () => { if (!this.findInput.value) { later.cancel(); this.find(""); } else later(); });
    this.findInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        later.cancel();
        if (this.fQuery !== this.findInput.value) this.find(this.findInput.value).then(() => { if (e.shiftKey) this.findNext(-1); });
        else this.findNext(e.shiftKey ? -1 : 1);
      } else if (e.key === "Escape") {
        e.preventDefault();
        later.cancel();
        if (this.findInput.value) { this.findInput.value = ""; this.find(""); }
        else this.scroller.focus();
      }
    });
    return h("span", { class: "jv-findbar", role: "search" }, this.findInput, this.findCount,
      nav("↑", "find-prev", "Previous match (Shift+Enter)"), nav("↓", "find-next", "Next match (Enter)"));
  }

  _resetFind() {
    this.fGen = (this.fGen || 0) + 1;
    this.fQuery = ""; this.fFlags = null; this.fHits = null; this.fCur = -1; this.fNode = -1; this.fNeedles = null;
    if (this.findCount) this.findCount.textContent = "";
    delete this.el.dataset.findHits; delete this.el.dataset.findCurrent;
  }

  /** Find `query` in every key and value (as written, ignoring case); the first hit (or the
   *  first after the selection) is unfolded and selected unless reveal is false.  Resolves to
   *  the number of hits. */
  async find(query, { reveal = true } = {}) {
    if (this.findInput && this.findInput.value !== query) this.findInput.value = query;
    if (!this.m) {
      this._resetFind();
      this.fQuery = query;
      if (query && this.findCount) this.findCount.textContent = this.raw ? "find needs valid JSON" : "";
      return 0;
    }
    this._resetFind();
    const gen = this.fGen;
    this.fQuery = query;
    if (!query) { this._render(true); return 0; }
    const m = this.m, text = m.text;
    const needles = [lowerSame(query)];
    const escaped = JSON.stringify(query).slice(1, -1);   // as written inside a string: \" \\ \n …
    if (escaped !== query) needles.push(lowerSame(escaped));
    const longest = Math.max(...needles.map((n) => n.length));
    const flags = new Uint8Array(m.n);
    const starts = tokenStarts(m);
    const CH = 1 << 20;
    let t0 = performance.now();
    for (let a = 0; a < text.length; a += CH) {
      const chunk = lowerSame(text.slice(a, Math.min(text.length, a + CH + longest - 1)));
      for (const needle of needles) {
        let k = chunk.indexOf(needle);
        while (k !== -1 && k < CH) {
          const o = a + k;
          const hit = nodeAt(m, starts, o, needle.length);
          if (hit >= 0) { flags[hit] = 1; k = chunk.indexOf(needle, Math.max(k + 1, tokenEnd(m, hit, o) - a)); }
          else k = chunk.indexOf(needle, k + 1);
        }
      }
      if (performance.now() - t0 > SLICE_MS) {
        this.findCount.textContent = `searching… ${Math.floor((100 * a) / text.length)}%`;
        await yieldToPage();
        if (gen !== this.fGen || m !== this.m) return 0;
        t0 = performance.now();
      }
    }
    let count = 0;
    for (let i = 0; i < m.n; i++) count += flags[i];
    const hits = new Int32Array(count);
    for (let i = 0, k = 0; i < m.n; i++) if (flags[i]) hits[k++] = i;
    this.fFlags = flags; this.fHits = hits; this.fNeedles = needles;
    this.el.dataset.findHits = String(count);
    if (!count) {
      this.findCount.textContent = "No matches";
      this._render(true);
      return 0;
    }
    // start at the selection (or the top)
    let cur = 0;
    if (this.sel >= 0) { while (cur < count && hits[cur] < this.sel) cur++; if (cur === count) cur = 0; }
    this.fCur = cur - 1;
    if (reveal) this.findNext(1);
    else { this.findCount.textContent = `${count.toLocaleString("en-US")} match${count === 1 ? "" : "es"}`; this._render(true); }
    return count;
  }

  /** Go to the next (dir 1) or previous (dir -1) hit: unfold it, scroll to it, select it. */
  findNext(dir = 1) {
    const hits = this.fHits;
    if (!hits || !hits.length || !this.m) return false;
    this.fCur = ((this.fCur + dir) % hits.length + hits.length) % hits.length;
    const i = hits[this.fCur];
    this.fNode = i;
    this.findCount.textContent = `${(this.fCur + 1).toLocaleString("en-US")} of ${hits.length.toLocaleString("en-US")}`;
    this.el.dataset.findCurrent = String(this.fCur + 1);
    if (this._expandAncestors(i)) this._rebuild();
    this._select(i, { scroll: "center" });
    this._render(true);
    return true;
  }

  /** Put the text of a token in `span`, with each hit of the search wrapped in <mark>. */
  _markText(span, str) {
    const lower = lowerSame(str);
    const ranges = [];
    for (const needle of this.fNeedles || []) {
      if (!needle) continue;
      for (let k = lower.indexOf(needle); k !== -1; k = lower.indexOf(needle, k + needle.length)) ranges.push([k, k + needle.length]);
    }
    if (!ranges.length) { span.textContent = str; return; }
    ranges.sort((x, y) => x[0] - y[0]);
    let at = 0;
    for (const [a, b] of ranges) {
      if (a < at) continue;
      if (a > at) span.append(str.slice(at, a));
      span.append(h("mark", { class: "jv-hit" }, str.slice(a, b)));
      at = b;
    }
    if (at < str.length) span.append(str.slice(at));
  }

  // ---------------------------------------------------------------- folding and selection

  _expandAncestors(i) {
    let changed = false;
    for (let p = this.m.parent[i]; p >= 0; p = this.m.parent[p]) {
      if (!this.m.open[p]) { this.m.open[p] = 1; changed = true; }
    }
    return changed;
  }

  _topAncestor(i) {
    while (i > 0 && this.m.parent[i] > 0) i = this.m.parent[i];
    return i;
  }

  toggle(i, open) {
    const m = this.m;
    if (!m || m.kind[i] > ARR || m.count[i] === 0) return;
    const want = open === undefined ? !m.open[i] : open;
    if (!!m.open[i] === want) return;
    m.open[i] = want ? 1 : 0;
    if (!want && this.sel > i && this.sel < i + m.size[i]) this.sel = i;
    this._rebuild();
    this._keepSelection();
    this._render(true);
  }

  _rowOf(i) {
    const want = i << 1, rows = this.rows;
    for (let r = 0; r < this.rowCount; r++) if (rows[r] === want) return r;
    return -1;
  }

  _keepSelection() {
    if (this.sel < 0) return;
    const r = this._rowOf(this.sel);
    if (r >= 0) this._scrollToRow(r, "nearest");
  }

  _scrollToRow(r, how = "nearest") {
    const sc = this.scroller, rh = this.rowH || 20;
    const ch = sc.clientHeight;
    if (this.scaled) {
      const visible = Math.ceil(ch / rh);
      const maxScroll = sc.scrollHeight - ch;
      sc.scrollTop = Math.max(0, Math.min(maxScroll, ((r - Math.floor(visible / 2)) / Math.max(1, this.rowCount - visible)) * maxScroll));
    } else {
      const top = r * rh;
      if (how === "center" && (top < sc.scrollTop || top + rh > sc.scrollTop + ch)) sc.scrollTop = Math.max(0, top - ch / 2);
      else if (top < sc.scrollTop) sc.scrollTop = top;
      else if (top + rh > sc.scrollTop + ch) sc.scrollTop = top + rh - ch;
    }
    this._render();
  }

  _select(i, { scroll = "nearest", notify = true } = {}) {
    this.sel = i;
    const info = this._nodeInfo(i);
    this.pathEl.textContent = info.path;
    this.ptrEl.textContent = info.pointer === "" ? '""' : info.pointer;
    this.ptrEl.title = info.pointer === "" ? "JSON Pointer (RFC 6901): the empty pointer, the whole document" : "JSON Pointer (RFC 6901)";
    this.selBar.hidden = false;
    this.el.dataset.selectedPointer = info.pointer;
    this.el.dataset.selectedPath = info.path;
    const r = this._rowOf(i);
    if (r >= 0 && scroll) this._scrollToRow(r, scroll);
    this._refreshSelection();
    if (notify && this.onSelect) this.onSelect(info);
    return info;
  }

  _onClick(e) {
    if (e.target.closest?.(".jv") !== this.el) return;   // inside a nested viewer: its own
    const json = e.target.closest?.(".jv-json");
    if (json) { this.openNested(Number(json.dataset.json)); return; }
    const act = e.target.closest?.("button[data-act]");
    if (act && this.el.contains(act)) { this._action(act.dataset.act); return; }
    const more = e.target.closest?.(".jv-more");
    if (more) { this.full.add(more.dataset.more); this._render(true); return; }
    const row = e.target.closest?.(".jv-row");
    if (!row || !this.win.contains(row) || !this.m) return;
    const v = this.rows[Number(row.dataset.row)], i = v >> 1;
    if (e.target.closest(".jv-tog.on, .jv-fold")) { this.toggle(i); this._select(i, { scroll: "nearest" }); return; }
    if (v & 1) { this._select(i, { scroll: false }); return; }
    this._select(i, { scroll: false });
  }

  _action(act) {
    if (act === "find-next" || act === "find-prev") {
      const q = this.findInput.value;
      if (q && q !== this.fQuery) this.find(q).then(() => { if (act === "find-prev") this.findNext(-1); });
      else this.findNext(act === "find-next" ? 1 : -1);
    } else if (act === "expand") this.expandAll();
    else if (act === "collapse") this.collapseAll();
    else if (act === "copy") copyText(this.text, "Copied the whole document");
    else if (act === "redact") openRedaction({ text: this.text, name: this.filename });
    else if (act === "close-nested") this.closeNested();
    else if (act === "download") download(this.text, this.filename);
    else if (this.sel >= 0 && this.m) {
      const info = this._nodeInfo(this.sel);
      if (act === "copy-path") copyText(info.path, `Copied ${info.path.length > 60 ? "the JSONPath" : info.path}`);
      else if (act === "copy-pointer") copyText(info.pointer, `Copied ${info.pointer === "" ? "the empty pointer" : info.pointer.length > 60 ? "the JSON Pointer" : info.pointer}`);
      else if (act === "copy-value") copyText(info.text, "Copied the value");
    }
  }

  _onKey(e) {
    if (!this.m || !this.rowCount || e.altKey || e.ctrlKey || e.metaKey) return;
    const m = this.m;
    let r = this.sel >= 0 ? this._rowOf(this.sel) : -1;
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / (this.rowH || 20)) - 1);
    const valueRow = (start, dir) => {
      for (let x = start; x >= 0 && x < this.rowCount; x += dir) if (!(this.rows[x] & 1)) return x;
      return -1;
    };
    let target = -1;
    switch (e.key) {
      case "ArrowDown": target = valueRow(r + 1, 1); break;
      case "ArrowUp": target = r < 0 ? valueRow(0, 1) : valueRow(r - 1, -1); break;
      case "PageDown": target = valueRow(Math.min(this.rowCount - 1, r + page), 1); if (target < 0) target = valueRow(this.rowCount - 1, -1); break;
      case "PageUp": target = valueRow(Math.max(0, r - page), -1); if (target < 0) target = valueRow(0, 1); break;
      case "Home": target = valueRow(0, 1); break;
      case "End": target = valueRow(this.rowCount - 1, -1); break;
      case "ArrowRight":
        if (this.sel < 0) { target = valueRow(0, 1); break; }
        if (m.kind[this.sel] <= ARR && m.count[this.sel] > 0) {
          if (!m.open[this.sel]) { this.toggle(this.sel, true); e.preventDefault(); return; }
          target = this._rowOf(this.sel + 1);
        }
        break;
      case "ArrowLeft":
        if (this.sel < 0) break;
        if (m.kind[this.sel] <= ARR && m.open[this.sel] && m.count[this.sel] > 0) { this.toggle(this.sel, false); e.preventDefault(); return; }
        if (m.parent[this.sel] >= 0) target = this._rowOf(m.parent[this.sel]);
        break;
      case "Enter": case " ":
        if (this.sel >= 0 && m.kind[this.sel] === STR && this._holdsJson(this.sel)) { this.openNested(this.sel); e.preventDefault(); return; }
        if (this.sel >= 0) { this.toggle(this.sel); e.preventDefault(); }
        return;
      default: return;
    }
    e.preventDefault();
    if (target >= 0) this._select(this.rows[target] >> 1, { scroll: "nearest" });
  }
}

export default JsonViewer;
