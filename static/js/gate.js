// Gate view: paste anything.  One item is walked through format → schema → diff with
// POST /api/gate; a transcript, a stream or an Agents session (a cheap sniff, then the server's
// `kind` decides) is answered by POST /api/transcript and shown as a report (transcript.js: the
// findings with links into the input, a stream's timeline, a session's chain, the calls — each
// one walked through the gate with a click).
// Without JavaScript the page is a plain form (and /gate?case=NAME) that the server renders;
// this script adds live results, the gallery in one click, viewers with the failing field
// marked, "walk this call" for envelopes and transcripts, and copying the function_call_output
// (or, for the Agents API dialect, the tool_result event).

import { debounce, latestOnly, networkAnswer, onRun, postLarge, renderError, copyText, h, shortList, DocumentInput, markInTextarea, plural } from "./app.js";
import { JsonViewer } from "./viewer.js";
import { watchStale } from "./stale.js";
import { sniff, renderReport, callItem, KIND_LABEL } from "./transcript.js";
import { threshold } from "./thresholds.js";
import { Provisional, PagePass, rowsTable } from "./provisional.js";
import { extractScan } from "./scan.js";

const LIVE_LIMIT = threshold("live");   // characters in all panes: larger inputs run on Ctrl/Cmd+Enter
const BIG_LIMIT = threshold("big");  // characters: a larger file or paste is held in memory, not in the
                              // textarea (laying out 20 MB in a textarea blocks the tab for seconds)
const MARKS = { pass: "✓", fail: "✗", skipped: "–", warn: "!", warning: "!", info: "i" };
const SAID = { pass: "passed", fail: "failed", skipped: "skipped", warn: "a warning", warning: "a warning", info: "a note" };
const PROVISIONAL_CALLS = 50;   // calls of a large request body listed by the page while the server gates them
const PROVISIONAL_ITEMS = 400;  // items read for them
// the page lists a large text's first calls only for a Responses request body: an object of these
// members, no other (its "input" the items), items of these types — where it is not sure which
// kind the server reads, or which items it counts as calls, it lists none
const REQUEST_KEYS = new Set(["model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls",
  "temperature", "top_p", "max_output_tokens", "store", "stream", "metadata", "previous_response_id", "reasoning",
  "text", "user", "truncation", "include", "service_tier"]);
const ITEM_TYPES = new Set(["function_call", "function_call_output", "message", "reasoning"]);

const form = document.getElementById("gate-form");
const panes = { schema: document.getElementById("schema-pane"), original: document.getElementById("original-pane") };
const live = document.getElementById("verdict-live");
const body = document.getElementById("result-body");
const data = JSON.parse(document.getElementById("gate-data").textContent);
const RULES = data.rules;
const AGENTS_RULES = data.agents_rules || RULES;   // the Agents API dialect numbers its own rules
const rulesOf = (r) => (r?.dialect === "agents_api" ? AGENTS_RULES : RULES);
const GALLERY = data.gallery;

document.body.dataset.liveView = "1";
// a large request body's first calls, read by the page (scan.js) while the server gates them: no
// verdict, only the calls about to be gated; the report replaces them
const prov = new Provisional(live, { results: body });
const pass = new PagePass();
watchStale({ form, results: [live, prov.box, body], freshOn: body });   // a verdict the input no longer matches is marked at once

// ------------------------------------------------------------------ inputs

/** An input whose status line says so when it is empty ("empty", "not given"). */
class GateInput extends DocumentInput {
  updateStatus() {
    super.updateStatus();
    if (!this.text && !this.note) this.statusEl.textContent = this.emptyText;
  }
}

let markNext = false;   // the next error selects its line in the input (paste, file, gallery…)

const inputs = {};
for (const name of ["item", "schema", "original"]) {
  const input = new GateInput({
    field: name, storageKey: `gate:${name}`, what: name,
    bigId: `${name}-big`, liveLimit: LIVE_LIMIT, bigLimit: BIG_LIMIT, keepLimit: BIG_LIMIT,
    largeStatus: "large input: press Ctrl/⌘+Enter or Gate", bigHint: "Press Gate (or Ctrl/⌘+Enter).",
    // a large file: its first calls from its bytes (a pass in a worker), before the page decodes it
    onFile: name === "item" ? (file) => (file.size > LIVE_LIMIT ? firstCalls(file, { file }) : null) : undefined,
    onChange: ({ reason, explicit }) => {
      markNext = explicit;
      if (reason === "sample" || reason === "walk") return;   // the page runs once every pane is set
      if (reason === "file" || (input.isBig && reason === "paste")) { openPane(name); run(); return; }
      onInput();
    },
  });
  input.emptyText = name === "item" ? "empty" : "not given";
  input.updateStatus();
  inputs[name] = input;
  const clear = form.querySelector(`[data-clear="${name}"]`);
  if (clear) {
    clear.hidden = false;
    clear.addEventListener("click", () => input.clear());
  }
}
for (const [name, det] of Object.entries(panes)) if (!inputs[name].isEmpty) det.open = true;

const totalSize = () => Object.values(inputs).reduce((n, input) => n + input.text.length, 0);

function setStates(state) {
  for (const input of Object.values(inputs)) input.setState(input.isEmpty ? null : state, { soon: true });
}

function onInput() {
  if (inputs.item.isEmpty) { scheduleLive.cancel(); setStates(null); showEmpty(); return; }
  if (totalSize() <= LIVE_LIMIT) { setStates({ kind: "busy" }); scheduleLive(); }
  else { scheduleLive.cancel(); setStates({ kind: "large" }); }
}

function request() {
  const out = { item: inputs.item.text, words: "page" };   // sentences in the page's words
  for (const k of ["schema", "original"]) if (!inputs[k].isEmpty) out[k] = inputs[k].text;
  return out;
}

// ------------------------------------------------------------------ running

/** One run: a text that is not one item goes to /api/transcript first; its `kind` is the truth
 *  ("item", or no transcript endpoint: the gate walks it). */
const runLatest = latestOnly(async (signal, text) => {
  const look = sniff(text);
  if (look === "transcript" || look === "ask") {
    const req = { text };
    if (!inputs.schema.isEmpty) req.tools = inputs.schema.text;
    const a = await postLarge("/api/transcript", req, { signal });
    const unavailable = a.status === 404 || a.status === 405 || a.body?.error?.code === "not_available";
    // one item, or a shape no kind reads (the gate says why it is not a call): the gate's
    if (a.ok && a.body.kind && a.body.kind !== "item" && a.body.kind !== "unknown") return { mode: "transcript", answer: a };
    // the transcript's own refusal of a text it read (too large, too slow…) is its answer; a
    // text it cannot read as JSON is the gate's to place
    const textError = a.body?.error?.field === "text" && a.body?.error?.code !== "parse_error";
    if (!a.ok && !unavailable && (look === "transcript" || textError)) return { mode: "transcript", answer: a };
  }
  return { mode: "item", answer: await postLarge("/api/gate", request(), { signal }) };
});
const FIELD_OF = { text: "item", tools: "schema" };   // the transcript's fields in this form
const scheduleLive = debounce(() => run(), 350);

async function run() {
  scheduleLive.cancel();
  if (inputs.item.isEmpty) { showEmpty(); if (markNext) { markNext = false; live.className = "headline bad"; live.textContent = "Nothing to gate yet: paste a function_call item into Item (the schema and the original are optional)"; inputs.item.ta.focus(); } return; }
  const mark = markNext; markNext = false;
  setStates({ kind: "busy" });
  body.setAttribute("aria-busy", "true");
  const item = inputs.item;
  const source = item.isBig ? (item.file || (item.text.isWellFormed?.() === false ? null : item.text)) : null;
  if (!source) { pass.stop(); prov.drop(); }
  else if (pass.source !== source) firstCalls(source);   // (a pasted text: the rows come when they come)
  let got;
  try { got = await runLatest(inputs.item.text); }
  catch (err) { got = { mode: "item", answer: networkAnswer(err) }; }
  if (!got || inputs.item.isEmpty) return;  // a newer run is on its way, or the item was emptied (showEmpty ran)
  const { mode, answer } = got;
  pass.stop();
  if (!(answer.ok && mode === "transcript")) prov.drop();
  body.removeAttribute("aria-busy");
  if (answer.ok) (mode === "transcript" ? renderTranscript : render)(answer.body);
  else {
    const error = { ...(answer.body?.error || { message: "The server did not answer" }) };
    if (mode === "transcript" && FIELD_OF[error.field]) error.field = FIELD_OF[error.field];
    showError(error, mark, mode);
  }
}

onRun(form, () => { markNext = true; run(); });

/** The first calls of a large request body (itemsScan, in a worker: a file's bytes or a text),
 *  shown as provisional rows — each call's place, name and call_id, never a verdict — when the
 *  page is sure they are the first calls the server lists. */
async function firstCalls(source, { file = null } = {}) {
  pass.start(source, { mode: "items", maxRows: PROVISIONAL_ITEMS, utf8: !file });   // (a File not being chosen now: read strictly already)
  const found = await pass.of(source);
  const rows = found && await callRows(found);
  if (!rows?.length || pass.source !== source) return;
  if (file && inputs.item.loading !== file) return;   // another input came
  prov.show(`the first ${plural(rows.length, "call")} of the request body's input`,
    "Read by this page from the text while the server gates every call: no verdict here. Its report replaces these "
    + "rows (or says where the text cannot be read).",
    rowsTable("provisional-calls", ["#", "call", "call_id", "pointer", "at"], rows.map((c, n) => [
      String(n + 1), h("strong", {}, c.name), h("code", {}, c.call_id), h("code", {}, c.pointer), `line ${c.line}, column ${c.column}`])),
    { rows });
}

/** The function_call items among the first items (itemsScan's answer) — pointer, line, column,
 *  name, call_id — up to the first item the page is not sure of; null for any other shape. */
async function callRows(found) {
  if (found.member !== "input" || !found.keys.every((k) => REQUEST_KEYS.has(k))) return null;
  const rows = [];
  for (const r of found.rows) {
    let it;
    try { it = JSON.parse(r.json); } catch { return null; }
    if (!it || typeof it !== "object" || Array.isArray(it) || !ITEM_TYPES.has(it.type)) break;
    // a repeated member in the item: which one the server reads is its to say
    if (!await extractScan(new TextEncoder().encode(r.json), [{ wild: true }], { maxRows: 1 })) break;
    if (it.type !== "function_call") continue;
    if (typeof it.name !== "string" || typeof it.call_id !== "string") break;
    rows.push({ pointer: r.pointer, line: r.line, column: r.column, name: it.name, call_id: it.call_id });
    if (rows.length >= PROVISIONAL_CALLS) break;
  }
  return rows;
}

const callRow = (c) => ({ pointer: c.pointer, line: c.line, column: c.column, name: c.name, call_id: c.call_id });

function showEmpty() {
  pass.stop();
  prov.drop();
  live.textContent = ""; live.className = "headline";
  body.removeAttribute("aria-busy");
  body.replaceChildren(h("p", { class: "muted", id: "placeholder" },
    "The walk appears here: format, then schema, then diff, and one verdict. New here? Load a case from the gallery below."));
}

function showError(error, mark, mode = "item") {
  live.className = "headline bad";
  live.textContent = mode === "transcript" ? `Cannot read the transcript: the ${error.field === "schema" ? "tools" : "text"} could not be read`
    : `Cannot gate: the ${error.field || "input"} could not be read`;
  const input = inputs[error.field];
  const box = h("div", { id: "error" });
  renderError(box, error, input && !input.isBig ? { onJump: (e) => { openPane(e.field); input.select(e.line, e.column); } } : {});
  body.replaceChildren(box);
  for (const [name, other] of Object.entries(inputs)) {
    if (other === input) continue;
    other.setState(other.isEmpty || !input ? null : { kind: "ok" });
  }
  if (input) {
    if (error.line) openPane(error.field);
    input.showError(error, { select: mark });
  }
}

function openPane(name) { if (panes[name]) panes[name].open = true; }

// ------------------------------------------------------------------ rendering the walk

function ruleSpan(numbers) {
  if (!numbers?.length) return "";
  return numbers.length === 1 ? `rule ${numbers[0]}` : `rules ${numbers[0]}–${numbers[numbers.length - 1]}`;
}

function label(text) { return h("span", { class: "label" }, text); }

function headlineOf(r) {
  return r.execute ? "ok — may be executed" : `Blocked: ${r.verdict}${r.rule?.number ? ` (rule ${r.rule.number})` : ""}`;
}

/** The walk of one item: `ctx.itemText` is the item walked, `ctx.select(line, column)` marks a
 *  place of it in the input (null when the item is not the input: a call of a transcript). */
let walkCtx = null;

function render(r) {
  live.className = `headline ${r.execute ? "good" : "bad"}`;
  live.textContent = headlineOf(r);
  walkCtx = { itemText: inputs.item.text, select: inputs.item.isBig ? null : (line, column) => inputs.item.select(line, column) };
  body.replaceChildren(...walkNodes(r));
  setStates({ kind: "ok" });
  // a failing format step points at its field in the item
  const failed = r.steps.find((s) => s.check === "format" && s.status === "fail" && s.line);
  if (failed && !inputs.item.isBig) inputs.item.gutter.mark(failed.line, failed.column);
}

function walkNodes(r) {
  const walk = h("ol", { class: "walk", id: "walk" }, r.steps.map((s) => renderStep(s, r)));
  const parts = [walk, renderBanner(r)];
  if (r.warnings?.length) {
    parts.push(shortList(h("ul", { class: "warnings" }), r.warnings.map((w) => h("li", {},
      h("strong", {}, w.code), " ", w.message, " ",
      h("span", { class: "mono" }, `at ${w.pointer || "/"} (line ${w.line}, column ${w.column})`))), { limit: 5, noun: "warnings" }));
  }
  if (r.envelope) parts.push(renderEnvelope(r.envelope));
  return parts;
}

function renderStep(s, r) {
  const li = h("li", { class: `step step-${s.status}`, dataset: { check: s.check, status: s.status } },
    h("div", { class: "step-head" },
      h("span", { class: `mark mark-${s.status}`, "aria-hidden": "true" }, MARKS[s.status]),
      h("span", { class: "sr-only" }, `${SAID[s.status]}:`), " ",
      h("strong", { class: "step-name" }, s.check[0].toUpperCase() + s.check.slice(1)), " ",
      h("span", { class: "step-title" }, s.title), " ",
      h("span", { class: "rules muted" }, ruleSpan(s.rules))));
  const b = h("div", { class: "step-body" });
  li.append(b);
  if (s.status === "skipped") {
    b.append(h("p", { class: "muted" }, s.note[0].toUpperCase() + s.note.slice(1) + "."));
  } else {
    if (s.checked) b.append(h("p", { class: "checked" }, label("Checked"), " ", s.checked, s.source ? ` (${s.source})` : "", "."));
    if (s.check === "format") formatDetail(b, s);
    else if (s.check === "schema") schemaDetail(b, s);
    else if (s.check === "diff") diffDetail(b, s);
    else otherDetail(b, s);
  }
  const ruleset = rulesOf(r);
  const failedRule = s.rule ? ruleset[s.rule - 1] || null : null;
  if (!s.rules?.length && !failedRule) {
    if (s.explain || s.plain) b.append(h("p", { class: "rule-plain" }, s.explain || s.plain));
  } else if (failedRule) {
    b.append(h("p", { class: "rule-plain" }, label(`Rule ${failedRule.number}`), " ", failedRule.text, " ", failedRule.plain),
      h("details", { class: "help spec" }, h("summary", {}, "The rule in full"), h("p", {}, failedRule.full)));
  } else {
    b.append(h("details", { class: "help spec" }, h("summary", {}, `The ${ruleSpan(s.rules)} behind this step`),
      h("ul", {}, s.rules.filter((n) => ruleset[n - 1]).map((n) => { const x = ruleset[n - 1]; return h("li", {}, h("strong", {}, `${x.number} `, h("code", {}, x.code)), " ", x.text, " ", x.plain); }))));
  }
  return li;
}

function viewerBox(text, label, marks) {
  const el = h("div", { class: "gate-viewer" });
  const v = new JsonViewer(el, { label, maxAutoExpandDepth: 2, toolbar: false });
  v.setText(text);
  for (const [cls, pointers] of marks) if (pointers.length) v.highlight(pointers, cls);
  return { el, v };
}

function formatDetail(b, s) {
  if (s.status === "pass") {
    if (s.found.turn_id !== undefined) {
      b.append(h("p", { class: "found" }, label("Found"), " a pending action ", h("code", {}, s.found.name), " with turn_id ",
        h("code", {}, s.found.turn_id), " and call_id ", h("code", {}, s.found.call_id), "; its arguments are a JSON object."));
      return;
    }
    b.append(h("p", { class: "found" }, label("Found"), " a completed function_call ",
      h("code", {}, s.found.name), " with call_id ", h("code", {}, s.found.call_id), " and arguments that parse as strict JSON."));
    return;
  }
  b.append(h("p", { class: "found" }, label("Found"), " ", s.reason));
  b.append(h("p", { class: "mono where" }, "field ", h("code", { class: "fail-field" }, s.field),
    s.line ? ` · item line ${s.line}, column ${s.column}` : "",
    s.line && walkCtx?.select ? [" ", h("button", { type: "button", class: "jump", onclick: () => walkCtx.select(s.line, s.column) }, "show in input")] : ""));
  if (s.parse_error) {
    b.append(h("p", {}, `In the arguments string, line ${s.parse_error.line ?? "?"}, column ${s.parse_error.column ?? "?"}: ${s.parse_error.message}`));
    if (s.parse_error.snippet) b.append(h("pre", { class: "snippet" }, s.parse_error.snippet));
  }
  if (s.duplicates) {
    b.append(h("ul", { class: "dups" }, s.duplicates.map((d) => h("li", {}, h("code", {}, d.key), ` at ${d.pointer}: line ${d.first.line}, column ${d.first.column} and line ${d.second.line}, column ${d.second.column} inside the arguments string`))));
    b.append(viewerBox(s.arguments, "Arguments", [["error", s.duplicates.map((d) => d.pointer)]]).el);
  }
  // the item with the failing field marked
  const pointer = s.located_at ?? s.pointer;
  const { el, v } = viewerBox(walkCtx?.itemText ?? inputs.item.text, "Item", [["error", [pointer]]]);
  el.classList.add("item-viewer");
  b.append(el);
  if (!s.located_at) v.ready.then(() => v.reveal(pointer));
}

/** A step this page has no special view for (the Agents API's door-1 review of the tool, say):
 *  what it found, and every problem it lists. */
function otherDetail(b, s) {
  if (s.reason || s.note) b.append(h("p", { class: "found" }, label("Found"), " ", s.reason || s.note));
  for (const key of ["warnings", "issues", "problems", "findings", "review", "fail"]) {
    const list = s[key];
    if (!Array.isArray(list) || !list.length) continue;
    b.append(h("ul", { class: "step-issues", dataset: { list: key } }, list.map((x) => typeof x !== "object" || x === null ? h("li", {}, String(x))
      : h("li", {}, x.path ?? x.pointer ? [h("code", {}, x.path ?? x.pointer), " "] : "", x.code || x.reason || x.keyword ? [h("strong", {}, x.code || x.reason || x.keyword), " "] : "",
        x.message || x.text || "", x.fix ? [" ", h("span", { class: "muted" }, x.fix)] : ""))));
  }
}

function schemaDetail(b, s) {
  if (s.code === "unknown_tool") {
    b.append(h("p", { class: "found" }, label("Found"), " ", s.reason));
    b.append(h("p", { class: "muted" }, "Function tools given: ", s.available.length ? s.available.join(", ") : "none",
      s.skipped_tools?.length ? ` (not function tools: ${s.skipped_tools.map((t) => t.type).join(", ")})` : ""));
    return;
  }
  if (s.status === "pass") {
    b.append(h("p", { class: "found" }, label("Found"), " ", s.note || `the arguments fit ${s.tool ? "tool " + s.tool : "the parameters schema"}.`));
    return;
  }
  b.append(h("p", { class: "found" }, label("Found"), " ", s.reason));
  const exists = [], missing = [];
  for (const f of s.fail) (f.reason === "required" ? missing : exists).push(f.path);
  const parents = missing.map((p) => p.slice(0, p.lastIndexOf("/")));
  const argsText = typeof s.arguments === "string" ? s.arguments : JSON.stringify(s.arguments ?? null, null, 2);
  const { el, v } = viewerBox(argsText, "Parsed arguments", [["error", exists], ["warn", parents]]);
  const rows = s.fail.map((f) => h("tr", { dataset: { path: f.path } },
    h("td", {}, h("button", { type: "button", class: "linkish", onclick: () => v.reveal(f.reason === "required" ? f.path.slice(0, f.path.lastIndexOf("/")) : f.path) },
      h("code", { class: "fail-path" }, f.path || "/"))),
    h("td", {}, f.reason), h("td", {}, f.message)));
  b.append(h("table", { class: "list fails", id: "schema-fails" },
    h("thead", {}, h("tr", {}, h("th", {}, "path in the arguments"), h("th", {}, "keyword"), h("th", {}, "message"))),
    h("tbody", {}, rows)));
  b.append(h("p", { class: "muted" }, `${s.tool ? "Tool " + s.tool : "The schema"}: failures are reported, never repaired. A missing required key is marked on the object where it belongs.`));
  b.append(el);
}

function diffDetail(b, s) {
  if (!s.differences.length) {
    b.append(h("p", { class: "found" }, label("Found"), " the same call as the original (type, call_id and name unchanged; no other differences)."));
    return;
  }
  if (s.status === "fail") b.append(h("p", { class: "found" }, label("Found"), " ", s.reason));
  else b.append(h("p", { class: "found" }, label("Found"), " the same call: type, call_id and name match; the differences below do not block."));
  b.append(h("table", { class: "list diffs", id: "diff-fields" },
    h("thead", {}, h("tr", {}, h("th", {}, "field"), h("th", {}, "original"), h("th", {}, "replay"), h("th", {}, ""))),
    h("tbody", {}, s.differences.map((d) => h("tr", { class: d.blocking ? "blocking" : "shown" },
      h("td", {}, h("span", { class: "diff-mark", "aria-hidden": "true" }, d.change === "added" ? "+" : d.change === "removed" ? "−" : "~"), " ",
        h("code", {}, d.field || "(item)"), " ", h("span", { class: "muted" }, d.change)),
      h("td", {}, h("code", {}, d.left ?? "—")), h("td", {}, h("code", {}, d.right ?? "—")),
      h("td", {}, d.blocking ? h("strong", {}, "blocks") : "not blocking", " — ", d.note))))));
  if (s.changes?.length) {
    b.append(h("details", { class: "help" }, h("summary", {}, `${s.changes.length} change${s.changes.length === 1 ? "" : "s"} by JSON Pointer (arguments compared as parsed JSON)`),
      h("ul", { class: "changes" }, s.changes.map((c) => h("li", {}, h("code", {}, c.op), " ", h("code", {}, c.pointer),
        c.left !== undefined ? ` ${c.left}` : "", c.right !== undefined ? ` → ${c.right}` : "")))));
  }
}

function renderBanner(r) {
  const banner = h("div", { class: `verdict-banner ${r.execute ? "ok" : "blocked"}`, id: "verdict-banner", dataset: { verdict: r.verdict } },
    h("div", { class: "verdict-title" }, r.execute
      ? [h("span", { "aria-hidden": "true" }, "✓"), " ok — run the tool"]
      : [h("span", { "aria-hidden": "true" }, "✗"), " Blocked · ", h("code", {}, r.verdict)]),
    h("p", { class: "verdict-reason" }, r.reason));
  if (r.dialect === "agents_api") {
    // the Agents API dialect: the host-validation report and the tool_result event to send,
    // never a function_call_output
    banner.dataset.dialect = "agents_api";
    if (r.report) {
      banner.append(h("p", {}, "Host validation (door 2): the same ", h("code", {}, "parameters"), " schema, run again before executing."),
        h("pre", { class: "output", id: "host-report" }, JSON.stringify(r.report, null, 1)));
    }
    if (r.tool_result) {
      const text = JSON.stringify(r.tool_result);
      banner.append(h("p", {}, r.tool_result.success ? ["Run the tool, then send this event (its ", h("code", {}, "output"), " is the tool's result as a string):"]
        : "Do not run the tool; send this event back (the turn_id and call_id copied exactly):"),
        h("pre", { class: "output", id: "tool-result" }, text),
        h("div", { class: "toolbar" }, h("button", { type: "button", id: "copy-tool-result", onclick: () => copyText(text, "tool_result copied") }, "Copy tool_result")));
    }
  } else if (r.function_call_output) {
    const text = JSON.stringify(r.function_call_output);
    banner.append(h("p", {}, "Attach this after running the tool (put the tool's result, as a string, in ", h("code", {}, "output"), "):"),
      h("pre", { class: "output", id: "fco" }, text),
      h("div", { class: "toolbar" }, h("button", { type: "button", id: "copy-fco", onclick: () => copyText(text, "function_call_output copied") }, "Copy function_call_output")));
  }
  return banner;
}

/** The call is the pasted value itself (one Chat tool call): walking it as it is shows this
 *  same answer again, so its button walks its Open Responses equivalent instead. */
const isPasted = (c) => c.pointer === "";
const walkEquivalentButton = (c) => h("button", { type: "button", dataset: { walkEquivalent: String(c.index) }, onclick: () => walk(JSON.stringify(c.equivalent, null, 2)) }, "Walk the equivalent item");

function walkButton(c) {
  if (isPasted(c)) return c.equivalent ? walkEquivalentButton(c) : "";
  return h("button", { type: "button", dataset: { walk: String(c.index) }, onclick: () => walk(c.json) }, "Walk this call");
}

function renderEnvelope(env) {
  const sec = h("section", { class: "envelope", id: "envelope", "aria-labelledby": "envelope-title" },
    h("h3", { id: "envelope-title" }, `What was pasted: ${env.label}`), h("p", {}, env.message));
  if (env.calls.length) {
    sec.append(h("ul", { class: "calls" }, env.calls.map((c) => {
      const li = h("li", { class: "call", dataset: { index: String(c.index) } },
        h("div", {}, h("code", {}, c.pointer || "/"), " ", h("strong", {}, c.name || "(no name)"), " ",
          h("span", { class: "muted" }, `${c.call_id ? `call_id ${c.call_id}` : "no call_id"} · ${c.dialect.replace(/_/g, " ")}${c.verdict ? ` · as is: ${c.verdict}` : ""}`)),
        h("div", { class: "toolbar" }, walkButton(c)));
      if (c.equivalent_json) {
        li.append(h("details", { class: "equivalent" },
          h("summary", {}, `Equivalent Open Responses item — for comparison only${c.equivalent_verdict ? ` (as is: ${c.equivalent_verdict})` : ""}`),
          h("p", { class: "muted" }, c.equivalent_note),
          h("div", { class: "side" },
            h("figure", {}, h("figcaption", {}, "as pasted (" + c.dialect.replace(/_/g, " ") + ")"), h("pre", { class: "output" }, c.json)),
            h("figure", {}, h("figcaption", {}, "Open Responses item (comparison only)"), h("pre", { class: "output" }, JSON.stringify(c.equivalent, null, 2)))),
          isPasted(c) ? "" : walkEquivalentButton(c)));
      }
      return li;
    })));
  }
  return sec;
}

function walk(text) {
  inputs.item.setText(text, { reason: "walk" });
  run();
  document.getElementById("item-label").scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ a transcript, stream or session

/** Mark a place of the input: the line numbered and selected (without moving the focus when
 *  `focus` is false); for a text held in memory, the line is shown in the report instead. */
function placeInInput(line, column = 1, { focus = true } = {}) {
  const input = inputs.item;
  if (input.isBig) {
    const text = input.text;
    let start = 0;
    for (let l = 1; l < line && start !== -1; l++) { const nl = text.indexOf("\n", start); start = nl === -1 ? -1 : nl + 1; }
    const end = start === -1 ? -1 : text.indexOf("\n", start);
    const shown = start === -1 ? "(past the end of the text)" : text.slice(start, end === -1 ? text.length : end).slice(0, 400);
    const box = document.getElementById("place-preview") || h("div", { class: "place-preview", id: "place-preview", role: "status" });
    box.replaceChildren(h("div", { class: "muted" }, `line ${line}, column ${column} of ${input.big.name} (held in memory, not in the text box):`),
      h("pre", { class: "snippet" }, shown));
    document.getElementById("report")?.after(box);
    return;
  }
  input.gutter.mark(line, column);
  if (focus) { markInTextarea(input.ta, line, column); return; }
  // select and scroll to the line without taking the focus from the report
  const text = input.ta.value;
  let start = 0;
  for (let l = 1; l < line; l++) { const nl = text.indexOf("\n", start); if (nl === -1) break; start = nl + 1; }
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  input.ta.setSelectionRange(start, end);
  const lh = parseFloat(getComputedStyle(input.ta).lineHeight) || 18;
  input.ta.scrollTop = Math.max(0, (line - 3) * lh);
  input.ta.dataset.markedLine = String(line);
}

function renderTranscript(r) {
  const report = renderReport(r, {
    text: inputs.item.text, big: inputs.item.isBig,
    tools: () => (inputs.schema.isEmpty ? null : inputs.schema.text),
    onPlace: (line, column, options) => placeInInput(line, column, options),
    onWalk: (call, index) => walkCall(r, call, index, report),
  });
  live.className = `headline ${report.good ? "good" : "bad"}`;
  live.textContent = report.headline;
  body.replaceChildren(...report.nodes);
  if (prov.shown) prov.settle((r.calls || []).slice(0, prov.rows.length).map(callRow));
  walkCtx = null;
  inputs.item.note = h("span", { class: "good" }, `read as ${KIND_LABEL[r.kind] || r.kind}`);
  setStates(null);
  if (!inputs.schema.isEmpty) inputs.schema.setState({ kind: "ok" });
}

/** Walk one call of the report through the one-item gate, shown under the calls. */
async function walkCall(r, call, index, report) {
  const box = report.walkBox;
  const got = callItem(r, call, inputs.item.text, inputs.schema.isEmpty ? null : inputs.schema.text, { big: inputs.item.isBig });
  box.hidden = false;
  if (!got) {
    box.replaceChildren(h("p", { class: "bad" }, "This call's item could not be taken out of the text (it is held in memory); open the file's call on its own to walk it."));
    return;
  }
  box.replaceChildren(h("p", { class: "muted" }, "Walking…"));
  const req = { item: got.item, words: "page" };
  if (got.schema) req.schema = got.schema;
  if (got.dialect) req.dialect = got.dialect;   // the rules the listed verdict came from
  const a = await postLarge("/api/gate", req);
  const title = h("h3", { id: "call-walk-title" }, `Call ${index + 1}: ${call.name || "(no name)"} walked through the gate`);
  const open = h("div", { class: "toolbar" },
    h("button", { type: "button", id: "walk-in-gate", onclick: () => { inputs.schema.setText(got.schema || inputs.schema.text, { reason: "walk" }); if (got.schema) openPane("schema"); walk(got.item); } },
      "Open this item in the Gate"));
  const item = h("details", { class: "walked-item" }, h("summary", {}, "The item walked"), h("pre", { class: "output" }, got.item));
  if (!a.ok) {
    const err = h("div", { id: "call-walk-error" });
    renderError(err, a.body?.error);
    box.replaceChildren(title, err, item, open);
  } else {
    const saved = walkCtx;
    walkCtx = { itemText: got.item, select: null };
    try {
      box.replaceChildren(title, h("p", { class: `headline ${a.body.execute ? "good" : "bad"}`, id: "call-walk-verdict" }, headlineOf(a.body)), ...walkNodes(a.body), item, open);
    } finally { walkCtx = saved; }
  }
  box.scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ the gallery

/** A case's texts for the three panes (a transcript or session case carries `text` and `tools`). */
function caseTexts(c) {
  return { item: c.item ?? c.text ?? "", schema: c.schema ?? c.tools ?? "", original: c.original ?? "" };
}

for (const a of document.querySelectorAll("a[data-case]")) {
  a.addEventListener("click", (e) => {
    const c = GALLERY.find((x) => x.name === a.dataset.case);
    if (!c) return;
    e.preventDefault();
    const texts = caseTexts(c);
    for (const k of ["item", "schema", "original"]) inputs[k].setText(texts[k], { name: c.name, reason: "sample" });
    for (const [name, det] of Object.entries(panes)) det.open = Boolean(texts[name]);
    for (const x of document.querySelectorAll("a[data-case]")) x.classList.toggle("current", x === a);
    run();
    document.getElementById("result").scrollIntoView({ block: "nearest", behavior: "smooth" });
  });
}

// the server rendered a result (plain post or ?case=): show the live version of it
if (!inputs.item.isEmpty) run();
