// Validate view: live validation through POST /api/validate; every error listed, clickable
// (marks its line in the document and reveals it in the viewer).  Without JavaScript the page
// is a plain form that the server renders.

import { postJSON, debounce, latestOnly, persist, sizeLine, markInTextarea, renderError, h,
  attachFile, formatBytes, toast } from "./app.js";
import { JsonViewer } from "./viewer.js";

const LIVE_LIMIT = 1_000_000;   // characters (both panes): larger inputs run on Ctrl/⌘+Enter or the button
const BIG_LIMIT = 2_000_000;    // characters: a larger document is held in memory, not in the textarea
                                // (laying out 20 MB in a textarea blocks the tab for seconds)

const EXAMPLES = {
  lookup_order: {
    document: `{
  "order_id": "A-12345",
  "include_items": "yes",
  "refund": 25.00
}
`,
    schema: `{
  "type": "function",
  "name": "lookup_order",
  "description": "Look up an order and its refund status.",
  "strict": true,
  "parameters": {
    "type": "object",
    "properties": {
      "order_id": {
        "type": "string",
        "pattern": "^[A-Z]-\\\\d{4}$",
        "description": "Order number such as A-1234"
      },
      "include_items": {"type": "boolean"}
    },
    "required": ["order_id", "include_items"],
    "additionalProperties": false
  }
}
`,
  },
  draft7: {
    document: `[
  {"sku": "ABC-123", "qty": 2, "price": 19.99},
  {"sku": "abc-9", "qty": 0, "price": 1.005},
  {"qty": 1.0, "price": 5}
]
`,
    schema: `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Order lines",
  "type": "array",
  "minItems": 1,
  "items": {
    "type": "object",
    "properties": {
      "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\\\d{3}$"},
      "qty": {"type": "integer", "minimum": 1},
      "price": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.01}
    },
    "required": ["sku", "qty"],
    "additionalProperties": false
  }
}
`,
  },
  valid: {
    document: `{"location": "Zürich, CH", "unit": "celsius", "days": 3}
`,
    schema: `{
  "type": "function",
  "function": {
    "name": "get_weather",
    "description": "Weather forecast for a place.",
    "strict": true,
    "parameters": {
      "type": "object",
      "properties": {
        "location": {"type": "string", "description": "City and country, e.g. Paris, FR"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
        "days": {"type": "integer", "minimum": 1, "maximum": 10}
      },
      "required": ["location", "unit", "days"],
      "additionalProperties": false
    }
  }
}
`,
  },
};

const form = document.getElementById("validate-form");
const docTa = document.getElementById("document");
const schemaTa = document.getElementById("schema");
const docStatus = document.getElementById("document-status");
const schemaStatus = document.getElementById("schema-status");
const formatBox = document.getElementById("format_assert");
const reviewSel = document.getElementById("review");
const toolSel = document.getElementById("tool");
const toolLabel = document.getElementById("tool-label");
const exampleSel = document.getElementById("example");
const draftEl = document.getElementById("draft");
const summary = document.getElementById("summary");
const viewerEl = document.getElementById("viewer");

document.body.dataset.liveView = "1";

const viewer = new JsonViewer(viewerEl, { label: "Document", filename: "document.json", maxAutoExpandDepth: 3 });
let viewerFor = null;   // the document text the viewer shows

persist(docTa, "validate:document");
persist(schemaTa, "validate:schema");
persist(formatBox, "validate:format_assert");
persist(reviewSel, "validate:review");
attachFile(schemaTa, { fileInput: document.getElementById("schema_file") });

// ------------------------------------------------------------------ large documents: held in memory

let big = null;   // {text, name, size}
const bigPanel = h("div", { class: "bigtext", id: "bigtext", role: "group", "aria-label": "Large document" });
bigPanel.hidden = true;
docTa.after(bigPanel);

function currentDoc() { return big ? big.text : docTa.value; }

function enterBig(text, name, bytes) {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  big = { text, name, size: `${formatBytes(bytes ?? new Blob([text]).size)} · ${lines.toLocaleString("en-US")} lines` };
  docTa.value = "";
  docTa.hidden = true;
  try { sessionStorage.removeItem("workbench:validate:document"); } catch { /* ignore */ }
  bigPanel.replaceChildren(
    h("div", {}, h("strong", {}, name), ` · ${big.size}`),
    h("div", { class: "muted" }, "Held in memory rather than in the text box: laying out this much text would freeze the page. ",
      "Press Validate (or Ctrl/⌘+Enter). Errors are shown in the viewer; it is not kept across a reload."),
    h("div", { class: "toolbar" }, h("button", { type: "button", "data-action": "leave-big", onclick: () => {
      const t = big.text; leaveBig(); docTa.value = t; docTa.dispatchEvent(new Event("input", { bubbles: true }));
    } }, "Edit as text (slow)")));
  bigPanel.hidden = false;
  state.document = { kind: "large" };
  updateStatus();
}

function leaveBig() {
  if (!big) return;
  big = null;
  docTa.hidden = false;
  bigPanel.hidden = true;
  bigPanel.replaceChildren();
}

async function loadDocFile(file) {
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text;
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); }
  catch {
    toast(`${file.name} is not UTF-8 text; invalid bytes are shown as \uFFFD`);
    text = new TextDecoder("utf-8").decode(bytes);
  }
  if (text.length > BIG_LIMIT) { enterBig(text, file.name, bytes.length); go(true); return; }
  leaveBig();
  docTa.value = text;
  docTa.dispatchEvent(new Event("input", { bubbles: true }));
}

const docFile = document.getElementById("document_file");
docFile.addEventListener("change", () => { const f = docFile.files[0]; docFile.value = ""; loadDocFile(f); });
for (const target of [docTa, bigPanel]) {
  target.addEventListener("dragover", (e) => { e.preventDefault(); target.classList.add("drop"); });
  target.addEventListener("dragleave", () => target.classList.remove("drop"));
  target.addEventListener("drop", (e) => {
    target.classList.remove("drop");
    if (e.dataTransfer?.files?.length) { e.preventDefault(); loadDocFile(e.dataTransfer.files[0]); }
  });
}
docTa.addEventListener("paste", (e) => {
  const text = e.clipboardData?.getData("text/plain") ?? "";
  if (text.length <= BIG_LIMIT) return;
  e.preventDefault();
  enterBig(text, "Pasted text");
  go(true);
});

document.getElementById("example-label").hidden = false;
for (const b of form.querySelectorAll("[data-clear]")) {
  b.hidden = false;
  b.addEventListener("click", () => {
    const ta = document.getElementById(b.dataset.clear);
    if (ta === docTa) leaveBig();
    ta.value = "";
    ta.dispatchEvent(new Event("input", { bubbles: true }));
    ta.focus();
  });
}

// ------------------------------------------------------------------ status lines

const state = { document: null, schema: null };  // {kind: ok|error|busy|large, line, column, note}

function statusOf(el, ta, s) {
  el.replaceChildren();
  if (ta === docTa && big) el.append(big.size);
  else if (!ta.value) return;
  else el.append(sizeLine(ta.value));
  if (!s) return;
  let label = null;
  if (s.kind === "ok") label = h("span", { class: "good" }, s.note || "valid JSON");
  else if (s.kind === "error") label = h("span", { class: "bad" }, s.line ? `error at ${s.line}:${s.column}` : (s.note || "error"));
  else if (s.kind === "busy") label = h("span", {}, "checking…");
  else if (s.kind === "large") label = h("span", {}, "large input: press Ctrl/⌘+Enter or Validate");
  if (label) el.append(" · ", label);
}

function updateStatus() {
  statusOf(docStatus, docTa, state.document);
  statusOf(schemaStatus, schemaTa, state.schema);
}

// ------------------------------------------------------------------ running

const request = latestOnly((signal, body) => postJSON("/api/validate", body, { signal }));
const liveRun = debounce(() => go(false), 350);
let runSeq = 0;

function body() {
  const b = { document: currentDoc(), schema: schemaTa.value, format_assert: formatBox.checked };
  if (reviewSel.value === "true") b.review = true;
  else if (reviewSel.value === "false") b.review = false;
  if (!toolLabel.hidden && toolSel.value) b.tool = toolSel.value;
  return b;
}

function onInput(e) {
  if (e && e.target === schemaTa) { toolLabel.hidden = true; toolSel.replaceChildren(); }
  if (e && e.target === docTa && docTa.value) leaveBig();
  if (!currentDoc().trim() || !schemaTa.value.trim()) {
    liveRun.cancel();
    state.document = state.schema = null;
    updateStatus();
    showPlaceholder();
    return;
  }
  if (currentDoc().length + schemaTa.value.length <= LIVE_LIMIT) {
    state.document = state.schema = { kind: "busy" };
    liveRun();
  } else {
    liveRun.cancel();
    state.document = state.schema = { kind: "large" };
  }
  updateStatus();
}
docTa.addEventListener("input", onInput);
schemaTa.addEventListener("input", onInput);
for (const el of [formatBox, reviewSel, toolSel]) el.addEventListener("change", () => go(false));

exampleSel.addEventListener("change", () => {
  const ex = EXAMPLES[exampleSel.value];
  if (!ex) return;
  leaveBig();
  docTa.value = ex.document;
  schemaTa.value = ex.schema;
  toolLabel.hidden = true;
  toolSel.replaceChildren();
  for (const ta of [docTa, schemaTa]) ta.dispatchEvent(new Event("input", { bubbles: true }));
  liveRun.cancel();
  exampleSel.value = "";
  go(false);
});

form.addEventListener("submit", (e) => { e.preventDefault(); go(true); });
document.addEventListener("workbench:run", () => go(true));

async function go(mark) {
  if (!currentDoc().trim() || !schemaTa.value.trim()) { showPlaceholder(); return; }
  const mine = ++runSeq;
  if (!summary.querySelector(".headline") || currentDoc().length + schemaTa.value.length > LIVE_LIMIT) {
    summary.replaceChildren(h("div", { class: "headline", id: "headline" },
      h("span", { class: "spinner", "aria-hidden": "true" }),
      ` Validating${big ? ` ${formatBytes(big.text.length)}` : ""}…`));
  }
  summary.setAttribute("aria-busy", "true");
  let res;
  try {
    res = await request(body());
  } catch (err) {
    res = { ok: false, status: 0, body: { error: { code: "network", message: String(err) } } };
  }
  if (res === undefined || mine !== runSeq) return;
  summary.removeAttribute("aria-busy");
  if (res.ok) showResult(res.body);
  else showError(res.body?.error || { code: "unknown", message: `HTTP ${res.status}` }, mark);
}

function showPlaceholder() {
  ++runSeq;
  summary.replaceChildren(h("p", { class: "muted", id: "placeholder" },
    "Paste a document and a schema (or a tool definition): every error is listed here with its place in the document."));
  draftEl.textContent = "";
  viewerEl.hidden = true;
}

/** "draft 2020-12", "draft-07". */
function draftLabel(d) { return String(d).startsWith("draft") ? d : `draft ${d}`; }

function plural(n, one, many) { return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`; }

function where(line, column) { return line ? `line ${line}, column ${column}` : ""; }

/** The pointer the viewer can show: a missing key's parent object. */
function shownPointer(e) {
  return e.at === "parent" ? e.pointer.slice(0, e.pointer.lastIndexOf("/")) : e.pointer;
}

function showResult(r) {
  state.document = { kind: "ok" };
  state.schema = { kind: "ok", note: `${draftLabel(r.draft)}${r.tool ? ` · tool ${r.tool}` : ""}` };
  updateStatus();
  draftEl.textContent = draftLabel(r.draft);
  delete docTa.dataset.errorLine;
  delete schemaTa.dataset.errorLine;

  // tools to choose from (a list or namespace of tools)
  if (r.tools && r.tools.length > 1) {
    const current = r.tool;
    toolSel.replaceChildren(...r.tools.map((t) => h("option", { value: t, selected: t === current }, t)));
    toolLabel.hidden = false;
  } else {
    toolLabel.hidden = true;
  }

  const parts = [];
  const meta = h("span", { class: "muted" }, ` · ${draftLabel(r.draft)}${r.tool ? ` · tool ${r.tool}` : ""}${r.format_assert ? " · format asserted" : ""}`);
  parts.push(h("div", { class: `headline ${r.valid ? "good" : "bad"}`, id: "headline" },
    r.valid ? "Valid" : plural(r.count, "error", "errors"), meta));
  if (r.truncated) parts.push(h("p", { class: "muted" }, `Showing the first ${r.errors.length.toLocaleString("en-US")} of ${r.count.toLocaleString("en-US")} errors.`));
  if (r.errors.length) {
    parts.push(h("ol", { class: "warnings", id: "errors" }, r.errors.map((e, i) => errorItem(e, i))));
  }
  if (r.warnings && r.warnings.length) {
    parts.push(h("p", { class: "muted" }, "Document warnings:"));
    parts.push(h("ul", { class: "warnings", id: "doc-warnings" }, r.warnings.map((w) =>
      h("li", {}, h("strong", {}, w.code), " ", w.message, " ", h("span", { class: "mono" }, `at ${w.pointer || "/"}`),
        w.line ? h("button", { type: "button", class: "jump", onclick: () => markInTextarea(docTa, w.line, w.column) }, "show") : ""))));
  }
  if (r.reviewed) {
    const n = r.review.length;
    parts.push(h("h3", { id: "review-title" }, `Strictness review: ${n ? plural(n, "warning", "warnings") : "nothing left open"}`));
    if (n) parts.push(h("ul", { class: "warnings", id: "review-list" }, r.review.map((w) => reviewItem(w))));
  }
  summary.replaceChildren(...parts);

  viewerEl.hidden = false;
  if (viewerFor !== currentDoc()) {
    viewerFor = currentDoc();
    viewer.setText(viewerFor);
  }
  viewer.highlight([...new Set(r.errors.map(shownPointer))], "error");
}

function errorItem(e, i) {
  const li = h("li", { "data-pointer": e.pointer, "data-line": e.line ?? "", "data-keyword": e.keyword, "data-index": i });
  li.style.borderLeftColor = "var(--bad)";
  li.style.background = "var(--bad-bg)";
  const btn = h("button", { type: "button", class: "jump err-jump", title: "Mark this place in the document",
    onclick: () => jumpToError(e, li) },
    h("strong", { class: "mono" }, e.pointer || "/"));
  li.append(btn, " ", e.message, " ",
    h("span", { class: "muted" }, `(${e.keyword}${e.line ? `, ${where(e.line, e.column)}` : ""}; schema ${e.schema_pointer || "/"})`));
  li.addEventListener("click", (ev) => { if (ev.target === li) jumpToError(e, li); });
  return li;
}

function jumpToError(e, li) {
  for (const other of summary.querySelectorAll("#errors li[aria-current]")) other.removeAttribute("aria-current");
  li.setAttribute("aria-current", "true");
  if (e.line && !big) markInTextarea(docTa, e.line, e.column);
  viewer.reveal(shownPointer(e));
}

function reviewItem(w) {
  return h("li", { "data-pointer": w.pointer, "data-code": w.code },
    h("strong", {}, w.code), " ", w.message, " ", h("span", { class: "mono" }, `at ${w.pointer || "/"}`), " ",
    w.line ? h("button", { type: "button", class: "jump", title: "Mark this place in the schema",
      onclick: () => markInTextarea(schemaTa, w.line, w.column) }, "show in schema") : "");
}

function showError(error, mark) {
  const field = error.field === "schema" ? "schema" : error.field === "document" ? "document" : null;
  const ta = field === "schema" ? schemaTa : docTa;
  const parseLike = error.code === "parse_error" || error.code === "too_deep";
  if (field) {
    state[field] = { kind: "error", line: error.line, column: error.column, note: error.code };
    const other = field === "schema" ? "document" : "schema";
    if (state[other]?.kind === "busy") state[other] = null;
  } else {
    state.document = state.schema = null;
  }
  updateStatus();
  const titles = {
    schema_invalid: "The schema is not a valid schema",
    ref_unresolvable: "A reference does not resolve",
    timeout: "Stopped: took too long",
  };
  const title = parseLike ? `The ${field || "input"} is not valid JSON` : (titles[error.code] || "Could not validate");
  const box = h("div", { id: "error", "data-field": error.field || "", "data-code": error.code });
  renderError(box, error, ta === docTa && big ? {} : { onJump: (e) => markInTextarea(ta, e.line, e.column) });
  if (error.problems && error.problems.length > 1) {
    box.append(h("ul", { class: "muted" }, error.problems.map((p) => h("li", {}, h("span", { class: "mono" }, p.pointer || "/"), " ", p.message))));
  }
  summary.replaceChildren(h("div", { class: "headline bad", id: "headline" }, title), box);
  viewerEl.hidden = true;
  if (field && error.line && !(ta === docTa && big)) {
    ta.dataset.errorLine = String(error.line);
    if (mark) markInTextarea(ta, error.line, error.column);
  }
}

// ------------------------------------------------------------------ start

if (summary.querySelector("#headline")) {
  // the server rendered a result (plain form post): make its entries clickable
  for (const li of summary.querySelectorAll("#errors li")) {
    const line = Number(li.dataset.line);
    if (line) li.addEventListener("click", () => markInTextarea(docTa, line, 1));
  }
  updateStatus();
} else if (currentDoc().trim() && schemaTa.value.trim()) {
  onInput();
} else {
  updateStatus();
}
