// Extract view: RFC 9535 JSONPath through POST /api/extract, live as you type; matches listed
// with copy buttons and highlighted in the shared JSON viewer. Without JavaScript the page is
// a plain form that the server renders.

import { answerError } from "./http.js";
import { copyText, renderError, h, byIds, busyHeadline, shortList } from "./dom.js";
import { inputRuns } from "./runs.js";
import { formatBytes, plural } from "./text.js";
import { persist } from "./inputs.js";
import { watchStale } from "./stale.js";
import { JsonViewer } from "./viewer.js";
import { compactJson } from "./jsonmodel.js";
import { threshold } from "./thresholds.js";
import { parseSimplePath, scanInWorker } from "./scan.js";
import { Provisional } from "./provisional.js";

const LIVE_LIMIT = threshold("live");   // characters: larger documents run on Enter / Ctrl+Enter / the button
const BIG_LIMIT = threshold("big");    // characters: a larger file or paste is held in memory, not in the textarea
const PAGE_ROWS = 200;          // match rows rendered at a time
const PROVISIONAL_ROWS = 50;    // rows of a large document's first matches found by the page itself
const VALUE_CHARS = 160;        // value text shown in a row (the copy button copies all of it)
const WARNINGS_SHOWN = 5;       // more warnings wait behind a "show more" button

// An Agents API / Open Responses capture: a tool definition, the response output and the
// agent events, so that every example matches something.
const SAMPLE = `{
  "type": "function",
  "name": "create_subagent",
  "description": "Start a sub-agent for one task and return its id.",
  "parameters": {
    "type": "object",
    "properties": {
      "task": {"type": "string", "description": "What the sub-agent should do"},
      "model": {"type": "string"},
      "max_turns": {"type": "integer", "minimum": 1}
    },
    "required": ["task", "model"],
    "additionalProperties": false
  },
  "output": [
    {
      "type": "message",
      "id": "msg_67ccd2bf17f0819081ff3bb2cf6508e6",
      "role": "assistant",
      "status": "completed",
      "content": [{"type": "output_text", "text": "I will split this into two sub-tasks.", "annotations": []}]
    },
    {
      "type": "function_call",
      "id": "fc_67ccd2c0a1b48190",
      "call_id": "call_8f2kq1",
      "name": "create_subagent",
      "arguments": "{\\"task\\":\\"Summarise the failing tests in tests/test_api.py and propose one fix for each of them\\",\\"model\\":\\"gpt-4.1-mini\\",\\"max_turns\\":8}",
      "status": "completed"
    },
    {
      "type": "function_call",
      "id": "fc_67ccd2c0b2c59201",
      "call_id": "call_3c7vz9",
      "name": "create_subagent",
      "arguments": "{\\"task\\":\\"Check the weather in Z\\u00fcrich\\",\\"model\\":\\"gpt-4.1-mini\\"}",
      "status": "completed"
    },
    {
      "type": "function_call_output",
      "call_id": "call_8f2kq1",
      "output": "{\\"agent_id\\":\\"agt_7d41\\"}"
    }
  ],
  "data": [
    {"type": "create_subagent_call", "call_id": "call_8f2kq1", "agent_id": "agt_7d41", "created_at": 1741476542, "cost_usd": 0.0125},
    {"type": "subagent_message", "agent_id": "agt_7d41", "text": "Found 3 failing tests."},
    {"type": "create_subagent_call", "call_id": "call_3c7vz9", "agent_id": "agt_91aa", "created_at": 1741476551, "cost_usd": 0.0040},
    {"type": "subagent_done", "agent_id": "agt_91aa", "status": "completed", "turns": 2}
  ]
}
`;

const [form, pathInput, engineSel, summary, matchesEl, selectionEl, viewerEl] = byIds(
  "extract-form", "path", "engine", "summary", "matches", "selection", "viewer");

document.body.dataset.liveView = "1";

const viewer = new JsonViewer(viewerEl, {
  label: "Document", filename: "document.json", maxAutoExpandDepth: 2,
  onSelect: (node) => offerSelection(node),
});
let viewerFor = null;   // the text the viewer shows
let shownMatches = null; // the last answer's matches and count (for "copy matches")
// a large document's first matches, found by the page's own pass over the text (simple paths),
// shown as provisional until the server's answer replaces them
const prov = new Provisional(summary, { results: matchesEl });
let scan = null;         // the page's pass: {source (a File or a text), path, controller, done (→ its answer, or null)}
let goSeq = 0;           // runs started (a pass that ends after a newer run started is not shown)

// examples: buttons with JavaScript, plain code without
for (const code of form.querySelectorAll(".example-text")) {
  const button = h("button", { type: "button", class: "example mono", "data-path": code.textContent, title: code.title },
    code.textContent);
  button.addEventListener("click", () => {
    pathInput.value = button.dataset.path;
    pathInput.dispatchEvent(new Event("input", { bubbles: true }));
    runs.live.cancel();
    go();
  });
  code.replaceWith(button);
}
// (app.css gives buttons display:inline-flex, which beats the hidden attribute: hide with style)
const show = (el, on) => { el.style.display = on ? "" : "none"; };
show(selectionEl, false);

// ------------------------------------------------------------------ input: kept, opened, dropped

const { runs, input } = inputRuns({ url: "/api/extract", wait: 250, form, go: () => go(),
  onEmpty: () => { input.setState(null); showIdle(); },
  field: "document", storageKey: "extract:document", what: "document", liveLimit: LIVE_LIMIT, bigLimit: BIG_LIMIT,
  keepLimit: BIG_LIMIT, largeStatus: "large document: press Enter in the expression (or Extract) to run",
  bigHint: "Press Enter in the expression (or Extract) to run.",
  // a large file: the page's pass over its bytes first (its rows shown as soon as it ends), then
  // the page decodes it and sends it
  onFile: (file) => (file.size > LIVE_LIMIT ? scanFile(file) : null) });
persist(pathInput, "extract:path");
persist(engineSel, "extract:engine");

// a result that no longer belongs to the document or the expression is marked at once
watchStale({ form, results: [summary, prov.box, matchesEl, viewerEl, selectionEl],
  hint: () => (input.isLive && !input.isBig ? "Updating…" : "Press Enter in the expression (or Extract) to update it.") });

pathInput.addEventListener("input", () => {
  if (!pathInput.value.trim()) { runs.live.cancel(); showIdle(); return; }
  if (input.isLive) runs.live(); else runs.live.cancel();
});
// the label names the syntax the chosen engine reads (it said RFC 9535 for jsonpath-ng too)
const syntaxLabel = document.querySelector("#path-label .muted");
const nameSyntax = () => { if (syntaxLabel) syntaxLabel.textContent = engineSel.value === "jsonpath-ng" ? "(jsonpath-ng syntax, not RFC 9535)" : "(RFC 9535)"; };
nameSyntax();
engineSel.addEventListener("change", () => { nameSyntax(); if (input.isLive) go(); });

const sampleButton = h("button", { type: "button", "data-action": "sample",
  title: "Load a small Agents API / Open Responses document that every example matches" }, "Load sample");
const clearButton = h("button", { type: "button", "data-action": "clear" }, "Clear");
input.fileInput.after(sampleButton, clearButton);
sampleButton.addEventListener("click", () => {
  if (!pathInput.value.trim()) pathInput.value = "$..call_id";
  pathInput.dispatchEvent(new Event("input", { bubbles: true }));
  runs.live.cancel();
  input.setText(SAMPLE, { name: "sample.json", reason: "sample" });
});
clearButton.addEventListener("click", () => input.clear());

// ------------------------------------------------------------------ running

async function go() {
  const text = input.text;
  const path = pathInput.value;
  if (!text.trim() || !path.trim()) { showIdle(); return; }
  input.setState({ kind: "busy" });
  if (!input.isLive || !summary.querySelector(".headline")) {
    summary.replaceChildren(busyHeadline(input.isLive ? "Running…" : `Running on ${formatBytes(text.length)}…`));
  }
  summary.setAttribute("aria-busy", "true");
  // a large document: the page's own first rows first (one pass, in a worker: over a chosen
  // file's bytes before the page decoded them), then the request, so that the server's work
  // does not take the processor from that pass
  const mine = ++goSeq;
  const scanned = await scanFor(text, path);
  if (mine !== goSeq) return;  // a newer run took over
  const sending = runs.send({ document: text, path, engine: engineSel.value });
  // the document is one JSON value (the page's pass read it): the viewer reads it meanwhile
  // (hidden until the answer), rather than after the answer
  if (scanned && viewerFor !== text) {
    viewerFor = text;
    show(selectionEl, false);
    viewer.setText(text, { filename: input.sourceName || "document.json" });
  }
  const got = await sending;
  if (!got) return;  // a newer run took over
  summary.removeAttribute("aria-busy");
  if (got.res.ok) await showResult(got.res.body, text, got.mine);
  else showError(answerError(got.res), got.mark, text);
}

/** The page's pass for this text and path (the one begun on the file it was read from, or a new
 *  one), its rows shown: resolves to whether there are any (none for a small document,
 *  jsonpath-ng, a path beyond the simple ones, or when the pass gives up). */
async function scanFor(text, path) {
  if (input.loading && scan?.source === input.loading) return false;   // a run for the text before: the file's pass goes on
  if (input.isLive || engineSel.value !== "rfc9535" || !parseSimplePath(path)) { stopScan(); return false; }
  // the bytes of the file the text was decoded from (strictly: input.file is set only then), else the text
  const source = input.file || (text.isWellFormed?.() === false ? null : text);
  if (source === null) { stopScan(); return false; }
  if (!scan || scan.source !== source || scan.path !== path) startScan(source, path);
  const mine = scan;
  const found = mine ? await mine.done : null;
  if (!found || scan !== mine) return false;
  showScan(found);
  return true;
}

/** A large file chosen: the page's pass over its bytes (in a worker), its rows shown when it ends
 *  (the page decodes the file after: on a busy machine both would take twice as long). */
async function scanFile(file) {
  startScan(file, pathInput.value);
  const mine = scan;
  const found = mine ? await mine.done : null;
  if (!found || scan !== mine || input.loading !== file) return;
  summary.replaceChildren(busyHeadline(`Running on ${formatBytes(file.size)}…`));
  showScan(found);
}

function stopScan() {
  scan?.controller.abort();
  scan = null;
  prov.drop();
}

/** Begin the page's pass over `source` (a File's bytes, or a text) for `path` (scan.js, in a
 *  worker): the first matches of a simple path (`$.a[*].b`, `$..name`), in the server's order,
 *  the values as written. */
function startScan(source, path) {
  stopScan();
  const segs = engineSel.value === "rfc9535" ? parseSimplePath(path) : null;
  if (!segs) return;
  const controller = new AbortController();
  scan = { source, path, controller,
    done: scanInWorker({ ...(typeof source === "string" ? { text: source } : { file: source }), segs,
      maxRows: PROVISIONAL_ROWS, signal: controller.signal }) };
}

function showScan(found) {
  if (prov.shown && prov.rows === found.rows) return;   // (shown when the file's pass ended)
  const tbody = h("tbody", {}, found.rows.map((m, n) => {
    const tr = matchRow(m, n);
    tr.setAttribute("data-provisional-row", "");
    return tr;
  }));
  const table = found.rows.length
    ? h("table", { class: "list", id: "provisional-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "path · pointer"), h("th", {}, "value"), h("th", {}, "at"), h("th", {}, "copy"))),
      tbody)
    : h("p", { "data-provisional-row": "" }, "No matches.");
  prov.show(h("span", { id: "provisional-count" }, found.count ? plural(found.count, "match", "matches") : "no matches"),
    `Found by this page's own reading of the text while the server runs the query${found.count > found.rows.length ? ` (the first ${found.rows.length.toLocaleString("en-US")} shown)` : ""}; `
    + "its answer replaces these rows (or says where the document is not valid JSON).", table,
    { rows: found.rows });
}

const answerRow = (m) => ({ path: m.path, pointer: m.pointer, json: m.json, line: m.line, column: m.column });

function showIdle() {
  runs.drop();
  if (!input.loading || scan?.source !== input.loading) stopScan();   // (a file being read keeps its pass)
  summary.removeAttribute("aria-busy");
  const text = input.text;
  if (!text.trim() || input.state?.kind === "busy") input.setState(null);
  summary.replaceChildren(h("p", { class: "muted", id: "placeholder" },
    text.trim() ? "Type an expression: the matches appear here, each with its path, pointer and exact value."
      : "Paste a document (or load the sample), then type an expression."));
  matchesEl.replaceChildren();
  viewer.highlight([], "match");
  delete form.dataset.count;
}

async function showResult(body, text, mine) {
  input.setState({ kind: "ok" });
  pathInput.removeAttribute("aria-invalid");
  const matches = body.matches || [];
  const warnings = body.warnings || [];
  const parts = [h("div", { class: `headline ${body.count ? "good" : ""}`, id: "headline" },
    h("span", { id: "match-count" }, body.count ? plural(body.count, "match", "matches") : "No matches"), " ",
    h("span", { class: "muted", id: "engine-name", title: body.rfc9535 ? "Fully RFC 9535 compliant" :
      "Not RFC 9535: jsonpath-ng accepts some invalid expressions and reads some valid ones differently" },
      `· ${body.engine_label || body.engine}`))];
  if (body.truncated) {
    parts.push(h("p", { class: "muted", id: "truncated" },
      `Showing the first ${body.returned.toLocaleString("en-US")} of ${body.count.toLocaleString("en-US")} (the server's limit; --max-matches changes it).`));
  }
  if (!body.rfc9535) {
    parts.push(h("p", { class: "muted" }, "Answered by jsonpath-ng, which is not RFC 9535: switch the engine back to check a result."));
  }
  if (body.jsonl) parts.push(jsonlNote(body.jsonl));
  if (warnings.length) {
    const item = (w) =>
      h("li", { "data-code": w.code }, h("strong", {}, w.code), " ", w.message, " ",
        h("span", { class: "mono" }, `at ${w.pointer || "/"}`),
        w.line ? h("span", { class: "muted" }, ` (line ${w.line}, column ${w.column})`) : "",
        " ", typeof w.pointer === "string" ? h("button", { type: "button", class: "jump", onclick: () => viewer.reveal(w.pointer) }, "show") : "");
    parts.push(shortList(h("ul", { class: "warnings", id: "warnings" }), warnings, { limit: WARNINGS_SHOWN, noun: "warnings", render: item }));
  }
  summary.replaceChildren(...parts);
  form.dataset.count = String(body.count);
  renderMatches(matches, body.count ?? matches.length);
  if (prov.shown) prov.settle(matches.slice(0, prov.rows.length).map(answerRow));
  // the document in the viewer, with the matches marked (JSON Lines: rows jump to the input)
  viewerEl.hidden = Boolean(body.jsonl);
  if (body.jsonl) {
    viewerFor = null;
    viewer.clear();
    if (runs.isLatest(mine)) form.dataset.doneFor = pathInput.value;
    return;
  }
  if (viewerFor !== text) {
    viewerFor = text;
    show(selectionEl, false);
    viewer.setText(text, { filename: input.sourceName || "document.json" });
  }
  const pointers = matches.map((m) => m.pointer).filter((p) => typeof p === "string");
  viewer.highlight(pointers, "match");
  if (runs.isLatest(mine)) form.dataset.doneFor = pathInput.value;
}


function renderMatches(matches, count = matches.length) {
  matchesEl.replaceChildren();
  shownMatches = { matches, count };
  if (!matches.length) return;
  const tbody = h("tbody");
  const table = h("table", { class: "list", id: "match-table" },
    h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, "path · pointer"), h("th", {}, "value"), h("th", {}, "at"), h("th", {}, "copy"))),
    tbody);
  let shown = 0;
  const more = h("button", { type: "button", id: "more-matches" });
  const addPage = () => {
    const end = Math.min(matches.length, shown + PAGE_ROWS);
    for (; shown < end; shown++) tbody.append(matchRow(matches[shown], shown));
    more.textContent = `Show ${Math.min(PAGE_ROWS, matches.length - shown)} more (${shown.toLocaleString("en-US")} of ${matches.length.toLocaleString("en-US")} shown)`;
    show(more, shown < matches.length);
  };
  more.addEventListener("click", addPage);
  addPage();
  matchesEl.append(copyMatchesBar(), table, more);
}

/** "Copy matches as a JSON array" / "as JSON Lines": the exact text of each match (the API's
 *  `json`), numbers and escapes as written; in JSON Lines each on one line (white space between
 *  tokens dropped, tokens kept). */
function copyMatchesBar() {
  const copy = (how) => {
    const { matches, count } = shownMatches || { matches: [], count: 0 };
    const texts = matches.map((m) => m.json).filter((t) => typeof t === "string");
    const text = how === "array" ? (texts.length ? `[\n${texts.join(",\n")}\n]\n` : "[]\n")
      : texts.map((t) => compactJson(t)).join("\n") + (texts.length ? "\n" : "");
    const partial = count > texts.length ? ` (the first ${texts.length.toLocaleString("en-US")} of ${count.toLocaleString("en-US")}: the server's limit)` : "";
    copyText(text, `Copied ${plural(texts.length, "match", "matches")} as ${how === "array" ? "a JSON array" : "JSON Lines"}${partial}`);
  };
  return h("div", { class: "toolbar", id: "copy-matches" },
    h("span", { class: "muted" }, "Copy matches"),
    h("button", { type: "button", "data-copy-matches": "array", title: "Every match's exact text, in a JSON array", onclick: () => copy("array") }, "as a JSON array"),
    h("button", { type: "button", "data-copy-matches": "jsonl", title: "Every match's exact text on a line of its own (JSON Lines)", onclick: () => copy("jsonl") }, "as JSON Lines"));
}

function matchRow(m, n) {
  const json = m.json ?? "";
  const short = json.length > VALUE_CHARS ? json.slice(0, VALUE_CHARS) + "…" : json;
  const value = h("code", { class: "match-value", title: json.length > VALUE_CHARS ? `${json.length.toLocaleString("en-US")} characters` : null }, short);
  value.style.whiteSpace = "pre-wrap";
  value.style.overflowWrap = "anywhere";
  const pathCode = h("code", {}, m.path ?? "(computed value)");
  pathCode.style.overflowWrap = "anywhere";
  const ptrCode = h("code", { class: "muted" }, m.pointer ?? "");
  ptrCode.style.overflowWrap = "anywhere";
  const copy = (what, text, label) => h("button", { type: "button", "data-copy": what, title: `Copy the ${label}`,
    "aria-label": `Copy the ${label} of match ${n + 1}`,
    onclick: () => copyText(text, `${label[0].toUpperCase()}${label.slice(1)} copied`) }, what);
  const at = m.line ? h("button", { type: "button", class: "jump", title: "Show in the document viewer and in the input",
    onclick: () => reveal(m) }, `${m.line}:${m.column}`) : "";
  return h("tr", { "data-pointer": m.pointer ?? "", "data-index": String(n) },
    h("td", {}, String(n + 1)),
    h("td", {}, pathCode, h("br"), ptrCode),
    h("td", {}, value),
    h("td", { class: "mono" }, at),
    h("td", {}, copy("value", json, "value"), " ",
      m.path != null ? copy("path", m.path, "path") : "", " ",
      m.pointer != null ? copy("pointer", m.pointer, "pointer") : ""));
}

function reveal(m) {
  if (typeof m.pointer === "string") viewer.reveal(m.pointer);
  input.select(m.line, m.column);
}

function showError(error, mark, text) {
  stopScan();
  const onPath = error.field === "path";
  const onDocument = error.field === "document";
  if (onDocument) input.showError(error, { select: mark });
  else if (input.state?.kind === "busy") input.setState(null);
  let title = "Could not extract";
  if (onPath) title = error.code === "timeout" ? "The query took too long" : "Invalid JSONPath";
  else if (error.code === "parse_error" || error.code === "too_deep") title = "Not valid JSON";
  const where = onPath && error.column ? ` · column ${error.column}` : error.line ? ` · error at line ${error.line}, column ${error.column}` : "";
  if (error.hint === "sse_stream") title = "A stream, not JSON";
  const headline = h("div", { class: "headline bad", id: "headline" }, title, where);
  const box = h("div", { id: "error" });
  if (onPath) {
    // the message and the expression with a caret under the fault
    const { line, ...rest } = error;
    renderError(box, { ...rest, line: undefined });
    box.querySelector("pre.snippet")?.setAttribute("id", "path-caret");
    pathInput.setAttribute("aria-invalid", "true");
  } else {
    renderError(box, error, input.isBig ? {} : { onJump: (e) => input.select(e.line, e.column) });
  }
  summary.replaceChildren(headline, box);
  if (error.hint === "sse_stream") summary.append(gateHint());
  matchesEl.replaceChildren();
  viewer.highlight([], "match");
  delete form.dataset.count;
  if (onDocument) {
    viewerEl.hidden = true;
    viewerFor = null;
    viewer.clear();
  }
}

// JSON Lines and pasted streams (the server's `jsonl` and `hint: "sse_stream"`)
function jsonlNote(jsonl) {
  return h("p", { class: "muted", id: "jsonl-note" },
    `JSON Lines${jsonl.detected ? " (detected)" : ""}: ${plural(jsonl.values, "value", "values")}, each queried on its own; `,
    "a path starts with the value's index ($[0] is the first line's value), the line and column are in the text.");
}

function gateHint() {
  return h("p", { id: "sse-hint" }, "The Gate reads streams: ",
    h("a", { href: "/gate", id: "sse-gate" }, "open the Gate's transcript view"),
    " and paste it there.");
}

// ------------------------------------------------------------------ viewer selection → expression

function offerSelection(node) {
  selectionEl.replaceChildren(
    h("span", { class: "muted" }, "Selected"), " ", h("code", { id: "selected-path" }, node.path), " ",
    h("button", { type: "button", id: "use-path", title: "Put this node's path in the expression box",
      onclick: () => {
        pathInput.value = node.path;
        pathInput.dispatchEvent(new Event("input", { bubbles: true }));
        runs.live.cancel();
        pathInput.focus();
        go();
      } }, "Use as expression"));
  show(selectionEl, true);
}

// ------------------------------------------------------------------ start

if (document.getElementById("match-table") || document.getElementById("error")) {
  // the server rendered a result (plain form post): keep it until the next run
  input.updateStatus();
  if (!input.isEmpty && pathInput.value.trim() && input.isLive) go();
} else if (!input.isEmpty && pathInput.value.trim()) {
  if (input.isLive) go();
  else input.setState({ kind: "large" });
} else {
  input.updateStatus();
  if (input.isEmpty) showIdle();
}
