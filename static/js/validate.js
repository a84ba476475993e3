// Validate view: live validation through POST /api/validate; every error listed, clickable
// (marks its line in the document and reveals it in the viewer).  Without JavaScript the page
// is a plain form that the server renders.

import { answerError, networkAnswer, persist, renderError, h, byIds, busyHeadline, formatBytes,
  DocumentInput, plural, shortList } from "./app.js";
import { JsonViewer } from "./viewer.js";
import { watchStale } from "./stale.js";
import { ViewRuns } from "./runs.js";
import { threshold } from "./thresholds.js";
import { Provisional, PagePass, rowsTable, clipped } from "./provisional.js";
import { jsonPointer } from "./jsonmodel.js";

const LIVE_LIMIT = threshold("live");   // characters (both panes): larger inputs run on Ctrl/⌘+Enter or the button
const BIG_LIMIT = threshold("big");    // characters: a larger document is held in memory, not in the textarea
const WARNINGS_SHOWN = 5;       // document warnings listed before a "show more" button
                                // (laying out 20 MB in a textarea blocks the tab for seconds)
const PROVISIONAL_ROWS = 50;    // items of a large document listed by the page while the server validates

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

const [form, summary, formatBox, reviewSel, toolSel, toolLabel, exampleSel, draftEl, viewerEl] = byIds(
  "validate-form", "summary", "format_assert", "review", "tool", "tool-label", "example", "draft", "viewer");

document.body.dataset.liveView = "1";

const viewer = new JsonViewer(viewerEl, { label: "Document", filename: "document.json", maxAutoExpandDepth: 3 });
// a large document's first items, read by the page (scan.js) while the server validates: no
// verdict, only what is about to be checked; the answer replaces them
const prov = new Provisional(summary, { results: summary });
const pass = new PagePass();
watchStale({ form, results: [summary, prov.box, viewerEl] });   // a result the input no longer matches is marked at once
let viewerFor = null;   // the document text the viewer shows

// ------------------------------------------------------------------ inputs: kept, opened, dropped

/** The schema input's status line names the draft (and tool) once the server has read it. */
class SchemaInput extends DocumentInput {
  _label() {
    const s = this.state;
    return s?.kind === "ok" && s.note ? h("span", { class: "good" }, s.note) : super._label();
  }
}

// runs.markNext: the next error selects its line in the input (paste, file, example…)
const runs = new ViewRuns({ go: () => go(), post: (signal, b) => doc.post("/api/validate", b, { signal }), wait: 350, form });
let target = "document";   // "arguments": validate the parsed arguments of the call item pasted
let lastHint = null;       // the last answer's hint: the document is a function call item
let currentArgs = null;    // the last answer's arguments (target "arguments"), for its error jumps

function onChange({ reason, explicit }) {
  runs.markNext = explicit;
  if (this === schema) { toolLabel.hidden = true; toolSel.replaceChildren(); }
  if (this === doc) { target = "document"; lastHint = null; }
  if (reason === "file" || (this.isBig && reason === "paste")) { runs.live.cancel(); go(); return; }
  if (reason === "sample") return;   // the example runs once both panes are filled
  onInput();
}

const shared = { liveLimit: LIVE_LIMIT, bigLimit: BIG_LIMIT, keepLimit: BIG_LIMIT,
  largeStatus: "large input: press Ctrl/⌘+Enter or Validate" };
const doc = new DocumentInput({
  ...shared, field: "document", storageKey: "validate:document", what: "document",
  bigHint: "Press Validate (or Ctrl/⌘+Enter); errors are shown in the viewer.",
  onChange: (e) => onChange.call(doc, e),
  // a large file: its first items from its bytes (a pass in a worker), before the page decodes it
  onFile: (file) => (file.size > LIVE_LIMIT && !schema.isEmpty ? firstItems(file, { file }) : null),
});
const schema = new SchemaInput({
  ...shared, field: "schema", storageKey: "validate:schema", what: "schema", bigId: "schema-big",
  onChange: (e) => onChange.call(schema, e),
});
const inputs = { document: doc, schema };
persist(formatBox, "validate:format_assert");
persist(reviewSel, "validate:review");

document.getElementById("example-label").hidden = false;
for (const b of form.querySelectorAll("[data-clear]")) {
  b.hidden = false;
  b.addEventListener("click", () => inputs[b.dataset.clear].clear());
}

const bothGiven = () => !doc.isEmpty && !schema.isEmpty;
const isLive = () => doc.text.length + schema.text.length <= LIVE_LIMIT;

function setStates(state) { for (const input of Object.values(inputs)) input.setState(state, { soon: true }); }

// ------------------------------------------------------------------ running

function body() {
  const b = { document: doc.text, schema: schema.text, format_assert: formatBox.checked };
  if (reviewSel.value === "true") b.review = true;
  else if (reviewSel.value === "false") b.review = false;
  if (!toolLabel.hidden && toolSel.value) b.tool = toolSel.value;
  if (target === "arguments") b.target = "arguments";
  return b;
}

function onInput() {
  if (!bothGiven()) {
    runs.live.cancel();
    setStates(null);
    showPlaceholder();
    return;
  }
  if (isLive()) {
    setStates({ kind: "busy" });
    runs.live();
  } else {
    runs.live.cancel();
    setStates({ kind: "large" });
  }
}
for (const el of [formatBox, reviewSel, toolSel]) el.addEventListener("change", () => go());

exampleSel.addEventListener("change", () => {
  const ex = EXAMPLES[exampleSel.value];
  if (!ex) return;
  doc.setText(ex.document, { reason: "sample" });
  schema.setText(ex.schema, { reason: "sample" });
  exampleSel.value = "";
  runs.live.cancel();
  go();
});

async function go() {
  if (!bothGiven()) { showPlaceholder(); return; }
  setStates({ kind: "busy" });
  if (!summary.querySelector(".headline") || !isLive()) {
    summary.replaceChildren(busyHeadline(`Validating${doc.isBig ? ` ${formatBytes(doc.text.length)}` : ""}…`));
  }
  summary.setAttribute("aria-busy", "true");
  const source = doc.isBig && target === "document" ? (doc.file || (doc.text.isWellFormed?.() === false ? null : doc.text)) : null;
  if (!source) { pass.stop(); prov.drop(); }
  else if (pass.source !== source) firstItems(source);   // (a pasted text: the rows come when they come)
  const sending = runs.send(body());
  // a large document: the viewer reads it while the server validates (hidden until the answer),
  // rather than after the answer
  if (doc.isBig && target === "document" && viewerFor !== doc.text) {
    viewerFor = doc.text;
    viewer.setText(viewerFor, { filename: doc.sourceName || "document.json" });
  }
  const got = await sending;
  if (!got) return;
  summary.removeAttribute("aria-busy");
  pass.stop();
  if (got.res.ok) showResult(got.res.body);
  else showError(answerError(got.res), got.mark);
}

/** The first items of a large document (itemsScan, in a worker: a file's bytes or a text), shown
 *  as provisional rows: where each starts and its text — the items the server is about to check,
 *  never a verdict. */
async function firstItems(source, { file = null } = {}) {
  pass.start(source, { mode: "items", maxRows: PROVISIONAL_ROWS, utf8: !file });   // (a File not being chosen now: read strictly already)
  if (file) summary.replaceChildren(busyHeadline(`Reading ${file.name}…`));
  const found = await pass.of(source);
  if (!found || !found.rows.length || pass.source !== source) return;
  if (file && doc.loading !== file) return;   // another input came
  if (file) summary.replaceChildren(busyHeadline(`Validating ${formatBytes(file.size)}…`));
  const where = found.member === null ? "the top-level array" : jsonPointer([found.member]);
  prov.show(`the first ${plural(found.rows.length, "item")} of ${plural(found.count, "item")} in ${where}`,
    "Read by this page from the text while the server checks every item against the schema: no verdict here. "
    + "Its answer replaces these rows (or says where the document is not valid JSON).",
    rowsTable("provisional-items", ["#", "pointer", "at", "item"], found.rows.map((r, n) => [
      String(n + 1), h("code", {}, r.pointer), `line ${r.line}, column ${r.column}`, h("code", { class: "mono" }, clipped(r.json))])),
    { rows: found.rows });
}

function showPlaceholder() {
  runs.drop();
  pass.stop();
  prov.drop();
  summary.removeAttribute("aria-busy");
  summary.replaceChildren(h("p", { class: "muted", id: "placeholder" },
    "Paste a document and a schema (or a tool definition): every error is listed here with its place in the document."));
  draftEl.textContent = "";
  viewerEl.hidden = true;
}

/** "draft 2020-12", "draft-07". */
function draftLabel(d) { return String(d).startsWith("draft") ? d : `draft ${d}`; }

/** A place in the document, or in the arguments string it holds (target "arguments"): named so,
 *  since the tree beside it numbers its own lines. */
function where(line, column) {
  const of = currentArgs?.located_in === "arguments" ? "arguments" : "document";
  return line ? `${of} line ${line}, column ${column}` : "";
}

/** The pointer the viewer can show: a missing key's parent object. */
function shownPointer(e) {
  return e.at === "parent" ? e.pointer.slice(0, e.pointer.lastIndexOf("/")) : e.pointer;
}

function showResult(r) {
  prov.replaced();
  doc.setState({ kind: "ok" });
  schema.setState({ kind: "ok", note: `${draftLabel(r.draft)}${r.tool ? ` · tool ${r.tool}` : ""}` });
  draftEl.textContent = draftLabel(r.draft);

  // tools to choose from (a list or namespace of tools)
  if (r.tools && r.tools.length > 1) {
    // "": the server picks (the tool the call names, else the first); a name: the user's choice
    const asked = r.tool_chosen_by === "request";
    const auto = asked ? "the tool the call names, else the first"
      : `${r.tool} (${r.tool_chosen_by === "call" ? "named by the call" : "the first"})`;
    toolSel.replaceChildren(h("option", { value: "", selected: !asked }, auto),
      ...r.tools.map((t) => h("option", { value: t, selected: asked && t === r.tool }, t)));
    toolLabel.hidden = false;
  } else {
    toolLabel.hidden = true;
  }

  const parts = [];
  const args = r.arguments || null;   // target "arguments": where they came from
  currentArgs = args;
  lastHint = r.hint || null;
  const meta = h("span", { class: "muted" }, ` · ${draftLabel(r.draft)}${r.tool ? ` · tool ${r.tool}` : ""}${r.format_assert ? " · format asserted" : ""}`);
  parts.push(h("div", { class: `headline ${r.valid ? "good" : "bad"}`, id: "headline" },
    r.valid ? "Valid" : plural(r.count, "error", "errors"),
    args ? h("span", { class: "muted" }, ` · the arguments at ${args.pointer}${args.encoded === "string" ? " (parsed from the string)" : ""}`) : "",
    meta));
  if (r.hint) parts.push(callOffer(r.hint, r.tool));
  if (args) parts.push(argumentsNote(args));
  if (r.truncated) parts.push(h("p", { class: "muted" }, `Showing the first ${r.errors.length.toLocaleString("en-US")} of ${r.count.toLocaleString("en-US")} errors.`));
  if (r.errors.length) {
    parts.push(h("ol", { class: "warnings", id: "errors" }, r.errors.map((e, i) => errorItem(e, i))));
  }
  if (r.warnings && r.warnings.length) {
    parts.push(h("p", { class: "muted" }, "Document warnings:"));
    // (a 20 MB log has tens of thousands: only the shown ones are made, or laying them out freezes the tab)
    parts.push(shortList(h("ul", { class: "warnings", id: "doc-warnings" }), r.warnings, { limit: WARNINGS_SHOWN, noun: "warnings",
      render: (w) => h("li", {}, h("strong", {}, w.code), " ", w.message, " ", h("span", { class: "mono" }, `at ${w.pointer || "/"}`),
        w.line ? h("button", { type: "button", class: "jump", onclick: () => doc.select(w.line, w.column) }, "show") : "") }));
  }
  if (r.reviewed) {
    const n = r.review.length;
    parts.push(h("h3", { id: "review-title" }, `Strictness review: ${n ? plural(n, "warning", "warnings") : "nothing left open"}`));
    if (n) parts.push(h("ul", { class: "warnings", id: "review-list" }, r.review.map((w) => reviewItem(w))));
  }
  summary.replaceChildren(...parts);

  viewerEl.hidden = false;
  // the viewer shows the text the errors are placed in: the document, or the arguments string
  const shownText = args && args.located_in === "arguments" ? args.text : doc.text;
  if (viewerFor !== shownText) {
    viewerFor = shownText;
    viewer.setText(viewerFor, { filename: shownText === doc.text ? (doc.sourceName || "document.json") : "arguments.json" });
  }
  viewer.highlight([...new Set(r.errors.map((e) => viewerPointer(e, args)))], "error");
}

/** Where an error sits in the viewer's text (arguments inside the document: under their pointer). */
function viewerPointer(e, args) {
  const p = shownPointer(e);
  return args && args.located_in === "document" ? args.pointer + p : p;
}

/** The document is a function call item: offer to validate its parsed arguments (one click). */
function callOffer(hint, tool) {
  const against = tool || hint.name;
  return h("div", { class: "error-box", id: "call-hint", "data-pointer": hint.pointer },
    h("div", { class: "msg" }, hint.message),
    h("button", { type: "button", class: "primary", id: "validate-arguments",
      onclick: () => { target = "arguments"; runs.live.cancel(); runs.markNext = false; go(); } },
      `Validate the parsed arguments${against ? ` against ${against}` : ""}`));
}

function argumentsNote(args) {
  return h("p", { class: "muted", id: "arguments-note" },
    args.located_in === "arguments"
      ? `Lines and columns are those of the arguments string at ${args.pointer} (shown in the viewer). `
      : `Pointers are inside the arguments at ${args.pointer}. `,
    h("button", { type: "button", class: "jump", id: "validate-document",
      onclick: () => { target = "document"; runs.live.cancel(); go(); } }, "Validate the whole document instead"));
}

// ------------------------------------------------------------------ drafting a strict schema

const draftBtn = document.getElementById("draft-schema");

async function draftSchema() {
  if (doc.isEmpty) {
    summary.replaceChildren(h("div", { class: "headline bad", id: "headline" }, "Nothing to draft from"),
      h("p", { class: "muted" }, "Paste one or more example documents (JSON Lines for several) in the Document pane."));
    return;
  }
  runs.drop();   // a validation still on its way must not replace the draft
  const b = { examples: doc.text };
  if (lastHint || target === "arguments") b.target = "arguments";
  const fn = lastHint?.name;
  const res = await doc.post("/api/validate/draft", b).catch(networkAnswer);
  if (!res.ok) {
    const box = h("div", { id: "error", "data-code": res.body?.error?.code || "" });
    renderError(box, answerError(res), {});
    summary.replaceChildren(h("div", { class: "headline bad", id: "headline" }, "Could not draft a schema"), box);
    return;
  }
  showDraft(res.body, fn);
}

function showDraft(d, fn) {
  pass.stop();
  prov.drop();
  const area = h("textarea", { class: "json", id: "drafted-schema", spellcheck: "false", rows: "16",
    "aria-label": "Drafted schema (edit before using it)" });
  area.value = d.text;
  const valid = d.checks.filter((c) => c.valid).length;
  const parts = [
    h("div", { class: "headline", id: "headline" }, "Drafted strict schema",
      h("span", { class: "muted" }, ` · from ${plural(d.examples, "example", "examples")} · not applied`)),
    h("p", { id: "draft-checks", class: d.all_valid ? "good" : "bad" },
      `It validates ${valid} of ${d.examples} example${d.examples === 1 ? "" : "s"}; strictness review: `,
      d.review.length ? plural(d.review.length, "warning", "warnings") : "strict, nothing left open"),
  ];
  if (d.notes.length) {
    parts.push(h("ul", { class: "warnings", id: "draft-notes" }, d.notes.map((n) =>
      h("li", { "data-code": n.code }, h("strong", {}, n.code), " ", n.message, " ",
        h("span", { class: "mono" }, `at ${n.pointer || "/"}`)))));
  }
  parts.push(area, h("div", { class: "toolbar" },
    h("button", { type: "button", class: "primary", id: "use-draft",
      onclick: () => { schema.setText(area.value, { reason: "paste" }); } }, "Use as schema"),
    h("button", { type: "button", id: "copy-draft",
      onclick: () => navigator.clipboard?.writeText(area.value) }, "Copy"),
    fn ? h("span", { class: "muted" }, ` (parameters for ${fn}: wrap them in your tool definition)`) : ""));
  summary.replaceChildren(...parts);
  viewerEl.hidden = true;
}

if (draftBtn) {
  draftBtn.hidden = false;
  draftBtn.addEventListener("click", () => draftSchema());
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
  if (!(currentArgs && currentArgs.located_in === "arguments")) doc.select(e.line, e.column);
  viewer.reveal(viewerPointer(e, currentArgs));
}

function reviewItem(w) {
  return h("li", { "data-pointer": w.pointer, "data-code": w.code },
    h("strong", {}, w.code), " ", w.message, " ", h("span", { class: "mono" }, `at ${w.pointer || "/"}`), " ",
    w.line ? h("button", { type: "button", class: "jump", title: "Mark this place in the schema",
      onclick: () => schema.select(w.line, w.column) }, "show in schema") : "");
}

function showError(error, mark) {
  const field = error.field === "schema" ? "schema" : error.field === "document" ? "document" : null;
  const input = field ? inputs[field] : null;
  const parseLike = error.code === "parse_error" || error.code === "too_deep";
  if (input) {
    input.showError(error, { select: mark });
    const other = inputs[field === "schema" ? "document" : "schema"];
    if (other.state?.kind === "busy") other.setState(null);
  } else {
    setStates(null);
  }
  const titles = {
    schema_invalid: "The schema is not a valid schema",
    ref_unresolvable: "A reference does not resolve",
    timeout: "Stopped: took too long",
  };
  prov.drop();
  const title = parseLike ? `The ${field || "input"} is not valid JSON` : (titles[error.code] || "Could not validate");
  const box = h("div", { id: "error", "data-field": error.field || "", "data-code": error.code });
  renderError(box, error, input && !input.isBig ? { onJump: (e) => input.select(e.line, e.column) } : {});
  if (error.problems && error.problems.length > 1) {
    box.append(h("ul", { class: "muted" }, error.problems.map((p) => h("li", {}, h("span", { class: "mono" }, p.pointer || "/"), " ", p.message))));
  }
  summary.replaceChildren(h("div", { class: "headline bad", id: "headline" }, title), box);
  viewerEl.hidden = true;
}

// ------------------------------------------------------------------ start

if (summary.querySelector("#headline")) {
  // the server rendered a result (plain form post): make its entries clickable
  for (const li of summary.querySelectorAll("#errors li")) {
    const line = Number(li.dataset.line);
    if (line) li.addEventListener("click", () => doc.select(line, 1));
  }
  if (summary.querySelector("#error")) for (const input of Object.values(inputs)) input.updateStatus();
  else {
    doc.setState({ kind: "ok" });
    schema.setState({ kind: "ok", note: draftEl.textContent.trim() || undefined });
  }
} else if (bothGiven()) {
  onInput();
} else {
  for (const input of Object.values(inputs)) input.updateStatus();
}
