// Diff view: two documents compared through POST /api/diff, shown side by side.
// The server formats both documents (keys sorted) and sends segments that align their lines;
// this script lays the rows out lazily (only the rows in view exist in the page), folds
// unchanged runs, and moves between changes with n / p (or F7 / Shift+F7).
// Without JavaScript the page is a plain form: the server renders the change list and the patch.

import { debounce, latestOnly, persist, formatBytes, postLarge, copyText, download, toast, h,
  renderError, DocumentInput, plural } from "./app.js";
import { watchStale } from "./stale.js";

const LIVE_LIMIT = 200_000;     // characters (both sides): compare as you type below this
const KEEP_LIMIT = 2_000_000;   // characters: larger inputs are not kept in session storage
const BIG_LIMIT = 2_000_000;    // characters: a larger file or paste is held in memory
const ROW_H = 20;               // px, must match .drow in diff.css
const CONTEXT = 3;              // unchanged lines shown around a change
const LIST_STEP = 500;          // change-list rows rendered at a time
const PATCH_SHOWN = 200_000;    // characters of the patch shown in the page (copy/download: all)
const MAX_CELL = 2000;          // characters of a line coloured and shown (the title has more)

const SAMPLE_LEFT = `{
  "id": "resp_left_01",
  "model": "provider-a/model-1",
  "temperature": 1.0,
  "output": [
    {
      "type": "message",
      "id": "msg_001",
      "role": "assistant",
      "content": [{"type": "output_text", "text": "Let me look up the weather."}]
    },
    {
      "type": "function_call",
      "id": "fc_001",
      "call_id": "call_A1",
      "name": "get_weather",
      "arguments": "{\\"location\\": \\"Paris\\", \\"days\\": 3}",
      "status": "completed"
    }
  ],
  "usage": {"input_tokens": 328, "output_tokens": 52, "total_tokens": 380}
}
`;

const SAMPLE_RIGHT = `{
  "model": "provider-b/model-1",
  "id": "resp_right_77",
  "temperature": 1,
  "output": [
    {
      "type": "reasoning",
      "id": "rs_001",
      "summary": []
    },
    {
      "type": "message",
      "id": "msg_001",
      "role": "assistant",
      "content": [{"type": "output_text", "text": "Let me look up the weather."}]
    },
    {
      "type": "function_call",
      "id": "fc_001",
      "call_id": "call_B7",
      "name": "get_weather",
      "arguments": "{\\"location\\":\\"Paris\\",\\"days\\":4}",
      "status": "completed"
    }
  ],
  "usage": {"input_tokens": 328, "output_tokens": 61, "total_tokens": 389}
}
`;

const MARKS = { add: "+", del: "−", chg: "~", mvf: "⇄", mvt: "⇄", note: "≈", ign: "·", eq: " " };
const OP_MARK = { add: "+", remove: "−", replace: "~", move: "⇄" };
const KIND_CODE = { eq: 0, add: 1, del: 2, chg: 3, mvf: 4, mvt: 5, note: 6, ign: 7 };
const CODE_KIND = Object.keys(KIND_CODE);

const form = document.getElementById("diff-form");
const summary = document.getElementById("summary");
const viewEl = document.getElementById("diffview");
const optOrder = document.getElementById("ignore_order");
const optKey = document.getElementById("match_key");
const optStrings = document.getElementById("parse_strings");
const optIgnore = document.getElementById("ignore_paths");

document.body.dataset.liveView = "1";

// ------------------------------------------------------------------ the two inputs

function makeSide(name) {
  const input = new DocumentInput({
    textarea: document.getElementById(name), fileInput: document.getElementById(`${name}_file`),
    status: document.getElementById(`${name}-status`), storageKey: `diff:${name}`, what: `${name} document`,
    bigId: `${name}-big`, liveLimit: LIVE_LIMIT, bigLimit: BIG_LIMIT, keepLimit: KEEP_LIMIT,
    largeStatus: "large input: press Ctrl/⌘+Enter or Compare",
    bigHint: "Press Compare (or Ctrl/⌘+Enter).",
    onChange: ({ reason }) => {
      if (reason === "sample" || reason === "swap") return;   // the page runs once both sides are set
      // a file, or a paste too large for the text box, compares at once
      if (reason === "file" || (input.isBig && reason === "paste")) { run(); return; }
      onInput();
    },
  });
  input.name = name;
  return input;
}

const sides = { left: makeSide("left"), right: makeSide("right") };
const bothSides = Object.values(sides);
watchStale({ form, results: [summary, viewEl] });   // a result the input no longer matches is marked at once
for (const el of [optOrder, optKey, optStrings, optIgnore]) persist(el, `diff:${el.id}`);
for (const el of [optOrder, optStrings]) el.addEventListener("change", () => onInput(true));
for (const el of [optKey, optIgnore]) el.addEventListener("input", () => onInput());

for (const b of form.querySelectorAll("[data-action]")) b.hidden = false;
form.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-action]");
  if (!b) return;
  const action = b.dataset.action;
  if (action === "sample") {
    sides.left.setText(SAMPLE_LEFT, { name: "left.json", reason: "sample" });
    sides.right.setText(SAMPLE_RIGHT, { name: "right.json", reason: "sample" });
    run();
  } else if (action === "clear") {
    sides[b.dataset.side].clear();
  } else if (action === "swap") {
    const l = { text: sides.left.text, name: sides.left.sourceName };
    const r = { text: sides.right.text, name: sides.right.sourceName };
    sides.left.setText(r.text, { name: r.name, reason: "swap" });
    sides.right.setText(l.text, { name: l.name, reason: "swap" });
    run();
  }
});

function setStates(state) { for (const s of bothSides) s.setState(state, { soon: true }); }

function onInput(immediate = false) {
  const total = sides.left.text.length + sides.right.text.length;
  if (sides.left.isEmpty || sides.right.isEmpty) {
    liveRun.cancel();
    if (sides.left.isEmpty && sides.right.isEmpty) showEmpty();
    else setStates(null);
    return;
  }
  if (total <= LIVE_LIMIT) {
    setStates({ kind: "busy" });
    if (immediate) run(); else liveRun();
  } else {
    liveRun.cancel();
    setStates({ kind: "large" });
  }
}

form.addEventListener("submit", (e) => { e.preventDefault(); run(); });
document.addEventListener("workbench:run", () => run());

// ------------------------------------------------------------------ running

function options() {
  const body = { ignore_order: optOrder.checked, parse_strings: optStrings.checked };
  const key = optKey.value.trim();
  if (key) body.match_key = key;
  const paths = optIgnore.value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (paths.length) body.ignore_paths = paths;
  return body;
}

const request = latestOnly((signal, body) => postLarge("/api/diff", body, { signal }));
const liveRun = debounce(() => run(), 300);
let runSeq = 0;

async function run() {
  liveRun.cancel();
  const left = sides.left.text; const right = sides.right.text;
  if (!left.trim() || !right.trim()) {
    showMessage(!left.trim() && !right.trim() ? null : `Add the ${!left.trim() ? "left" : "right"} document to compare.`);
    for (const s of bothSides) if (s.state?.kind === "busy") s.setState(null);
    return;
  }
  const mine = ++runSeq;
  setStates({ kind: "busy" });
  const size = left.length + right.length;
  if (size > LIVE_LIMIT || !summary.querySelector(".headline")) {
    summary.replaceChildren(h("div", { class: "headline", id: "headline" }, h("span", { class: "spinner", "aria-hidden": "true" }), ` Comparing ${formatBytes(size)}…`));
  }
  viewEl.setAttribute("aria-busy", "true");
  let res;
  try { res = await request({ left, right, ...options() }); }
  catch (err) { res = { ok: false, status: 0, body: { error: { code: "network", message: String(err) } } }; }
  if (res === undefined || mine !== runSeq) return;
  viewEl.removeAttribute("aria-busy");
  if (res.ok) showResult(res.body);
  else showError(res.body?.error || { code: "unknown", message: `HTTP ${res.status}` });
}

function showMessage(text) {
  ++runSeq;
  document.getElementById("server-result")?.remove();
  summary.replaceChildren(h("p", { class: "muted", id: "placeholder" }, text || "Paste or open two documents and press Compare. The differences appear here, side by side."));
  viewEl.hidden = true;
  viewEl.replaceChildren();
  grid = null;
}

function showEmpty() {
  setStates(null);
  showMessage(null);
}

function showError(error) {
  document.getElementById("server-result")?.remove();
  viewEl.hidden = true;
  viewEl.replaceChildren();
  grid = null;
  const side = error.field === "left" || error.field === "right" ? sides[error.field] : null;
  for (const s of bothSides) {
    if (s === side) s.showError(error, { select: true });
    else s.setState(side ? { kind: "ok" } : null);
  }
  const parseLike = error.code === "parse_error" || error.code === "too_deep";
  const headline = h("div", { class: "headline bad", id: "headline" },
    parseLike && side ? `The ${side.name} document is not valid JSON` : "Could not compare",
    error.line ? ` · line ${error.line}, column ${error.column}` : "");
  const box = h("div", { id: "error" });
  renderError(box, error, side && !side.isBig ? { onJump: (e) => side.select(e.line, e.column) } : {});
  summary.replaceChildren(headline, box);
}

function headlineText(body) {
  const s = body.summary;
  if (body.equal) return "No differences";
  const parts = [`${s.added} added`, `${s.removed} removed`, `${s.changed} changed`];
  if (s.moved) parts.push(`${s.moved} moved`);
  return `${plural(body.count, "change")}: ${parts.join(", ")}`;
}

// ------------------------------------------------------------------ the result

let grid = null;       // the aligned view currently shown
let result = null;
let current = -1;      // index of the current change

function showResult(body) {
  result = body;
  current = -1;
  for (const s of bothSides) s.setState({ kind: "ok" });
  document.getElementById("server-result")?.remove();
  const o = body.options || {};
  const optionsText = [o.ignore_order ? "array order ignored" : null, o.match_key ? `items matched by ${o.match_key}` : null,
    o.ignore_paths?.length ? `ignoring ${o.ignore_paths.join(", ")}` : null, o.parse_strings ? null : "JSON in strings compared as text"].filter(Boolean);
  const head = h("div", { class: `headline ${body.equal ? "good" : ""}`, id: "headline" }, headlineText(body),
    body.note_count ? h("span", { class: "muted small" }, ` · ${plural(body.note_count, "note")}`) : "");
  const extra = [];
  if (optionsText.length) extra.push(h("div", { class: "muted small" }, optionsText.join(" · ")));
  if (body.truncated) extra.push(h("div", { class: "warn-line" }, `The list shows the first ${body.changes.length.toLocaleString("en-US")} of ${body.count.toLocaleString("en-US")} changes (the patch has all of them).`));
  for (const w of body.warnings || []) {
    extra.push(h("div", { class: "warn-line" }, h("strong", {}, `${w.field}: ${w.code}`), ` ${w.message} at ${w.pointer || "/"} (line ${w.line}, column ${w.column})`));
  }
  summary.replaceChildren(head, ...extra);
  buildView(body);
}

function buildView(body) {
  viewEl.hidden = false;
  const nav = h("div", { class: "toolbar diff-nav" },
    h("button", { type: "button", id: "prev-change", title: "Previous change (p or Shift+F7)", onclick: () => go(-1), disabled: !body.changes.length }, "↑ Previous"),
    h("button", { type: "button", id: "next-change", title: "Next change (n or F7)", onclick: () => go(1), disabled: !body.changes.length }, "↓ Next"),
    h("span", { id: "change-pos", class: "muted", "aria-live": "polite" }, body.changes.length ? `${plural(body.changes.length, "change")} · press n / p to move between them` : ""),
    h("span", { class: "grow" }),
    h("button", { type: "button", id: "expand-all", onclick: () => grid?.unfoldAll() }, "Unfold all"),
    h("span", { class: "legend", "aria-hidden": "true" },
      h("span", { class: "lg k-add" }, "+ added"), h("span", { class: "lg k-del" }, "− removed"),
      h("span", { class: "lg k-chg" }, "~ changed"), h("span", { class: "lg k-mvf" }, "⇄ moved"),
      h("span", { class: "lg k-note" }, "≈ note")));
  const gridEl = h("div", { class: "dgrid", id: "dgrid", tabindex: "0", role: "region",
    "aria-label": "The two documents side by side, formatted with keys sorted and lines aligned" });
  const cols = h("div", { class: "dhead", "aria-hidden": "true" }, h("span", {}, "left"), h("span", {}, "right"));
  const changes = h("div", { class: "changes-panel" });
  const patch = patchPanel(body);
  const notes = notesPanel(body);
  viewEl.replaceChildren(nav, cols, gridEl, changes, ...(notes ? [notes] : []), patch);
  grid = new AlignedGrid(gridEl, body.view, body.changes);
  renderChangeList(changes, body);
  viewEl.dataset.changes = String(body.changes.length);
  viewEl.dataset.current = "-1";
}

function patchPanel(body) {
  const text = body.patch_text;
  const shown = text.length > PATCH_SHOWN ? text.slice(0, PATCH_SHOWN) + "\n…" : text;
  return h("section", { class: "patch-panel", "aria-labelledby": "patch-title" },
    h("div", { class: "toolbar" },
      h("h3", { id: "patch-title" }, `JSON Patch (RFC 6902) · ${plural(body.patch.length, "operation")}`),
      h("span", { class: "grow" }),
      h("button", { type: "button", id: "copy-patch", onclick: () => copyText(text, "Patch copied") }, "Copy patch"),
      h("button", { type: "button", id: "download-patch", onclick: () => download(text, "patch.json") }, "Download patch.json")),
    h("p", { class: "muted small" }, body.patch.length
      ? "Applied to the left document, these operations give the right one" + (body.options?.ignore_order || body.options?.ignore_paths?.length ? " (up to the ignored order and paths)." : ".")
      : "The documents are the same: the patch is empty."),
    h("pre", { class: "output", id: "patch" }, shown));
}

function notesPanel(body) {
  if (!body.notes?.length) return null;
  return h("details", { class: "notes-panel" },
    h("summary", {}, `${plural(body.note_count, "note")}: equal values written differently (not changes)`),
    h("ul", { class: "notes" }, body.notes.map((n) => h("li", {},
      h("span", { class: "mono" }, n.pointer || "/"), n.in_string ? h("span", { class: "mono" }, ` ▸ ${n.inner_pointer || "/"}`) : "",
      `: ${n.message} `, h("span", { class: "mono" }, `${clip(n.left ?? "", 60)} / ${clip(n.right ?? "", 60)}`)))));
}

function clip(s, n) { return s.length > n ? s.slice(0, n) + "…" : s; }

function renderChangeList(container, body) {
  const changes = body.changes;
  container.replaceChildren();
  if (!changes.length) return;
  const table = h("table", { class: "list changes", id: "change-list" },
    h("caption", { class: "sr-only" }, "Changes"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "change"),
      h("th", { scope: "col" }, "pointer"), h("th", { scope: "col" }, "left"), h("th", { scope: "col" }, "right"))));
  const tbody = h("tbody", {});
  table.append(tbody);
  let shown = 0;
  const more = h("button", { type: "button", class: "more" });
  const addRows = () => {
    const end = Math.min(changes.length, shown + LIST_STEP);
    const frag = document.createDocumentFragment();
    for (let i = shown; i < end; i++) frag.append(changeRow(changes[i], i));
    tbody.append(frag);
    shown = end;
    more.hidden = shown >= changes.length;
    more.textContent = `Show ${Math.min(LIST_STEP, changes.length - shown).toLocaleString("en-US")} more of ${(changes.length - shown).toLocaleString("en-US")}`;
  };
  more.addEventListener("click", addRows);
  addRows();
  container.append(h("h3", {}, "Changes"), table, more);
}

function changeRow(c, i) {
  const pointer = [h("code", {}, c.pointer || "/")];
  if (c.in_string) pointer.push(h("span", { class: "muted", title: "inside the JSON held by this string" }, " ▸ "), h("code", {}, c.inner_pointer || "/"));
  if (c.op === "move") pointer.push(" → ", h("code", {}, c.to));
  if (c.right_pointer) pointer.push(h("span", { class: "muted" }, ` (right: ${c.right_pointer})`));
  const cell = (text, side) => h("td", { class: "mono val", title: text && text.length > 120 ? clip(text, 2000) : null },
    text === undefined ? "" : clip(text, 120), c[`${side}_line`] ? h("span", { class: "line-no" }, ` line ${c[`${side}_line`]}`) : "");
  const tr = h("tr", { class: `op-${c.op}`, "data-index": String(i), tabindex: "-1" },
    h("td", {}, String(i + 1)),
    h("td", { class: "op" }, h("span", { class: "mk", "aria-hidden": "true" }, OP_MARK[c.op]), ` ${c.op}`),
    h("td", { class: "ptr" }, h("button", { type: "button", class: "linkish", onclick: () => select(i, true) }, ...pointer)),
    cell(c.left, "left"), cell(c.right, "right"));
  return tr;
}

function go(step) {
  if (!result || !result.changes.length) return;
  const n = result.changes.length;
  let next = current + step;
  if (current === -1) next = step > 0 ? 0 : n - 1;
  if (next < 0 || next >= n) { toast(step > 0 ? "Last change reached" : "First change reached"); return; }
  select(next, false);
}

function select(i, fromList) {
  if (!result || !grid) return;
  current = i;
  viewEl.dataset.current = String(i);
  const c = result.changes[i];
  grid.reveal(c.seg, c.seg_to);
  const pos = document.getElementById("change-pos");
  if (pos) pos.textContent = `change ${i + 1} of ${result.changes.length}: ${c.op} ${c.pointer || "/"}${c.in_string ? " ▸ " + (c.inner_pointer || "/") : ""}`;
  const list = document.getElementById("change-list");
  if (list) {
    list.querySelector('tr[aria-current="true"]')?.removeAttribute("aria-current");
    const row = list.querySelector(`tr[data-index="${i}"]`);
    if (row) {
      row.setAttribute("aria-current", "true");
      if (!fromList) row.scrollIntoView({ block: "nearest" });
    }
  }
  // mark the lines in the inputs
  const side = c.op === "add" ? "right" : "left";
  const line = c[`${side}_line`];
  if (line && fromList) sides[side].select(line, 1);
  if (fromList) document.getElementById("dgrid")?.focus({ preventScroll: true });
}

document.addEventListener("keydown", (e) => {
  if (!result || !grid) return;
  const inField = e.target.closest?.("input, textarea, select, [contenteditable]");
  if (inField || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "F7") { e.preventDefault(); go(e.shiftKey ? -1 : 1); }
  else if (e.key === "n" && !e.shiftKey) { e.preventDefault(); go(1); }
  else if (e.key === "p" && !e.shiftKey) { e.preventDefault(); go(-1); }
});

// ------------------------------------------------------------------ the aligned grid

class AlignedGrid {
  constructor(el, view, changes) {
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
    let rows = 0;
    for (const s of segs) rows += Math.max(s[1], s[2]);
    this.rowL = new Int32Array(rows);
    this.rowR = new Int32Array(rows);
    this.rowK = new Uint8Array(rows);
    this.segStart = new Int32Array(segs.length + 1);
    this.segs = segs;
    let r = 0; let l = 0; let rr = 0;
    segs.forEach((s, si) => {
      const [kind, nl, nr] = s;
      const n = Math.max(nl, nr);
      const code = KIND_CODE[kind] ?? 0;
      this.segStart[si] = r;
      for (let k = 0; k < n; k++, r++) {
        this.rowL[r] = k < nl ? l + k : -1;
        this.rowR[r] = k < nr ? rr + k : -1;
        this.rowK[r] = code;
      }
      l += nl; rr += nr;
    });
    this.segStart[segs.length] = r;
    this.rows = rows;
    this.changeOfSeg = new Map();
    changes.forEach((c, i) => {
      for (const s of [c.seg, c.seg_to]) if (s !== undefined && !this.changeOfSeg.has(s)) this.changeOfSeg.set(s, i);
    });
    this.unfolded = new Set();
    this.currentSeg = -1;
    this.currentSegs = new Set();
    this.gutter = String(Math.max(this.left.length, this.right.length)).length;
    el.style.setProperty("--gutter", `${this.gutter}ch`);
    this.spacer = h("div", { class: "dspacer" });
    this.win = h("div", { class: "dwin" });
    el.replaceChildren(this.spacer, this.win);
    this.buildDisplay();
    this.pending = false;
    el.addEventListener("scroll", () => this.schedule());
    new ResizeObserver(() => this.schedule()).observe(el);
    el.addEventListener("click", (e) => {
      const fold = e.target.closest("button.fold");
      if (fold) { this.unfold(Number(fold.dataset.seg)); }
    });
    this.render();
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
    this.spacer.style.height = `${n * ROW_H}px`;
    // short results take only the room they need; long ones scroll inside 62% of the window
    this.el.style.height = `${Math.max(120, Math.min(Math.round(window.innerHeight * 0.62), n * ROW_H + 2))}px`;
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
    this.el.scrollTop = Math.max(0, d * ROW_H - Math.round(view / 3));
    this.el.dataset.currentSeg = String(seg);
    this.render();
  }

  render() {
    const el = this.el;
    const total = this.disp.length;
    const height = el.clientHeight || 400;
    const first = Math.max(0, Math.floor(el.scrollTop / ROW_H) - 10);
    const last = Math.min(total, Math.ceil((el.scrollTop + height) / ROW_H) + 10);
    const frag = document.createDocumentFragment();
    for (let d = first; d < last; d++) {
      const v = this.disp[d];
      frag.append(v < 0 ? this.foldRow(-v - 1) : this.row(v));
    }
    this.win.style.transform = `translateY(${first * ROW_H}px)`;
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
    let seg = -1;
    // the segment of this row: binary search on segStart
    let lo = 0; let hi = this.segs.length - 1;
    while (lo <= hi) { const mid = (lo + hi) >> 1; if (this.segStart[mid] <= r) { seg = mid; lo = mid + 1; } else hi = mid - 1; }
    const cls = ["drow", `k-${kind}`];
    if (this.currentSegs.has(seg)) cls.push("current");
    const row = h("div", { class: cls.join(" "), "data-seg": String(seg) });
    const change = this.changeOfSeg.get(seg);
    if (change !== undefined) row.dataset.change = String(change);
    row.append(...this.cell(l, this.left, kind), ...this.cell(rr, this.right, kind));
    return row;
  }

  cell(line, lines, kind) {
    if (line < 0) return [h("span", { class: "ln" }), h("span", { class: "mk" }), h("span", { class: "code fill", "aria-hidden": "true" })];
    const text = lines[line];
    const mark = MARKS[kind] || " ";
    const code = h("span", { class: "code" });
    colour(code, text.length > MAX_CELL ? text.slice(0, MAX_CELL) : text);
    if (text.length > MAX_CELL) code.append(h("span", { class: "cut" }, ` … ${(text.length - MAX_CELL).toLocaleString("en-US")} more characters`));
    if (text.length > 120) code.title = text.length > 5000 ? text.slice(0, 5000) + "…" : text;
    return [h("span", { class: "ln" }, String(line + 1)), h("span", { class: "mk", "aria-label": kindLabel(kind) }, mark), code];
  }
}

function kindLabel(kind) {
  return { add: "added", del: "removed", chg: "changed", mvf: "moved from here", mvt: "moved here", note: "written differently", ign: "ignored", eq: "" }[kind] || "";
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

// ------------------------------------------------------------------ start

if (document.getElementById("server-result")) {
  // the server rendered a result (plain form post): keep it until the next run
  setStates({ kind: "ok" });
} else if (document.getElementById("error")) {
  for (const s of bothSides) s.updateStatus();
} else if (!sides.left.isEmpty && !sides.right.isEmpty) {
  if (sides.left.text.length + sides.right.text.length <= LIVE_LIMIT) run();
  else setStates({ kind: "large" });
} else {
  for (const s of bothSides) s.updateStatus();
}
