// Format view: live formatting through POST /api/format, shown in the shared JSON viewer.
// Without JavaScript the page is a plain form that the server renders.

import { answerError } from "./http.js";
import { renderError, h, byIds, busyHeadline, shortList, copyText, download } from "./dom.js";
import { inputRuns } from "./runs.js";
import { formatBytes, plural } from "./text.js";
import { persist } from "./inputs.js";
import { watchStale } from "./stale.js";
import { JsonViewer } from "./viewer.js";
import { threshold } from "./thresholds.js";
import { formatPrefix } from "./scan.js";
import { Provisional, lineRows, firstLines } from "./provisional.js";

const LIVE_LIMIT = threshold("live");   // characters: larger inputs run on Ctrl/Cmd+Enter or the button
const BIG_LIMIT = threshold("big");    // characters: a larger file or paste is held in memory, not in the
                                // textarea (laying out 20 MB in a textarea blocks the tab for seconds)
const WARNINGS_SHOWN = 5;       // more warnings wait behind a "show more" button
const MINIFIED_SHOWN = 200_000; // characters of minified text shown in the page (copy/download: all)
const PROVISIONAL_LINES = 200;  // lines of a large input formatted in the page while the server works
const PREVIEW_BYTES = 1 << 17;  // bytes of a large file read first, for those lines
const KIND_NAMES = { json: "JSON", jsonc: "JSONC", json5: "JSON5", yaml: "YAML" };

// A small Open Responses document: an exact decimal (1.10), an integer beyond 2^53 and a
// duplicate key, so the warnings show.
const SAMPLE = `{
  "id": "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
  "object": "response",
  "created_at": 1741476542,
  "status": "in_progress",
  "model": "gpt-4.1-2025-04-14",
  "temperature": 1.10,
  "top_p": 1.0,
  "output": [
    {
      "type": "message",
      "id": "msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b",
      "status": "completed",
      "role": "assistant",
      "content": [
        {"type": "output_text", "text": "Let me check the weather in Z\\u00fcrich.", "annotations": []}
      ]
    },
    {
      "type": "function_call",
      "id": "fc_12345xyz",
      "call_id": "call_12345xyz",
      "name": "get_weather",
      "arguments": "{\\"location\\":\\"Zürich, CH\\",\\"days\\":3}",
      "status": "completed"
    }
  ],
  "usage": {"input_tokens": 328, "output_tokens": 52, "total_tokens": 380, "trace_seq": 12345678901234567890123},
  "status": "completed"
}
`;

const [form, indentSel, sortBox, kindSel, summary, viewerEl] = byIds(
  "format-form", "indent", "sort_keys", "input_kind", "summary", "viewer");

document.body.dataset.liveView = "1";

const viewer = new JsonViewer(viewerEl, { label: "Formatted document", filename: "formatted.json", maxAutoExpandDepth: 3 });
// minify shows the minified text itself (the tree is always indented), with its own copy/download
const minEl = h("div", { id: "minified", class: "minified" });
minEl.hidden = true;
viewerEl.after(minEl);

// a large input's first lines, formatted in the page until the server's answer replaces them
const prov = new Provisional(summary, { results: viewerEl });

// ------------------------------------------------------------------ input: kept, opened, dropped

// a paste, a drop, a file or the sample selects the error line; typing never moves the caret
const { runs, input } = inputRuns({ url: "/api/format", wait: 300, form, go: () => go(), onEmpty: () => showEmpty(),
  field: "text", storageKey: "format:text", what: "input", liveLimit: LIVE_LIMIT, bigLimit: BIG_LIMIT, keepLimit: BIG_LIMIT,
  largeStatus: "large input: press Ctrl/⌘+Enter or Format", bigHint: "Press Format (or Ctrl/⌘+Enter) to format it.",
  doneHint: "Done: the answer for it is shown beside it.",
  // a large file: its first lines from its first bytes, while the page decodes the rest
  onFile: (file) => (file.size > LIVE_LIMIT ? previewFile(file) : null) });
persist(indentSel, "format:indent");
persist(sortBox, "format:sort_keys");
persist(kindSel, "format:input");

// a result that no longer belongs to the input is marked at once (live runs replace it soon)
watchStale({ form, results: [summary, prov.box, viewerEl, minEl],
  hint: () => (input.isLive && !input.isBig ? "Updating…" : "Press Format (or Ctrl/⌘+Enter) to update it.") });

function indentValue() {
  return indentSel.value === "tab" ? "tab" : Number(indentSel.value);
}

for (const el of [indentSel, sortBox, kindSel]) {
  el.addEventListener("change", () => { if (!input.isBig && !input.isEmpty && input.isLive) go(); });
}

form.querySelector('[data-action="sample"]').hidden = false;
form.querySelector('[data-action="clear"]').hidden = false;
form.querySelector('[data-action="sample"]').addEventListener("click", () => {
  input.setText(SAMPLE, { name: "sample.json", reason: "sample" });
});
form.querySelector('[data-action="clear"]').addEventListener("click", () => input.clear());

// ------------------------------------------------------------------ running

async function go() {
  const text = input.text;
  if (!text.trim()) { showEmpty(); return; }
  input.setState({ kind: "busy" });
  if (!input.isLive || !summary.querySelector(".headline")) {
    summary.replaceChildren(busyHeadline(`Formatting ${formatBytes(text.length)}…`));
  }
  showProvisional(text);
  const got = await runs.send({ text, indent: indentValue(), sort_keys: sortBox.checked, input: kindSel.value });
  if (!got) return;  // a newer run took over
  if (got.res.ok) await showResult(got.res.body, text, got.mine);
  else showError(answerError(got.res), got.mark);
}

/** A large input's first lines, formatted by the page's token re-indenter (white space only:
 *  numbers keep their text, strings are written as the server writes them), marked provisional:
 *  the server still reads the whole document (an error, the warnings, the line count).
 *  `more`: `text` is only the start of the input (a file's first bytes). */
function showProvisional(text, { live = input.isLive, more = false } = {}) {
  const indent = indentValue();
  const lines = live || kindSel.value !== "json" || sortBox.checked || indent === 0 ? null
    : formatPrefix(text, { indent, maxLines: PROVISIONAL_LINES, more })?.lines;
  if (!lines?.length) { prov.drop(); return; }
  if (prov.shown && lines.length === prov.rows.length && lines.every((l, i) => l === prov.rows[i])) return;  // (from the file's start)
  prov.show(`the first ${plural(lines.length, "line")} of the formatted document`,
    "Formatted in this page from the start of the text while the server reads all of it; its answer replaces "
    + "these lines (or says where the document is not valid JSON).", lineRows(lines), { rows: lines });
}

/** The first lines of a large file from its first bytes (decoded as the whole file will be: a
 *  character cut at the end waits for the rest), shown before the page has decoded all of it. */
async function previewFile(file) {
  const head = new TextDecoder().decode(await file.slice(0, PREVIEW_BYTES).arrayBuffer(), { stream: true });
  if (input.loading !== file) return;   // read whole already, or another input came
  summary.replaceChildren(busyHeadline(`Reading ${file.name}…`));
  showProvisional(head, { live: false, more: file.size > PREVIEW_BYTES });
}

function showEmpty() {
  runs.drop();
  if (!input.loading) prov.drop();   // (a file being read keeps its first lines)
  input.setState(null);
  summary.replaceChildren(h("p", { class: "muted", id: "placeholder" }, "The formatted document appears here."));
  document.getElementById("output")?.remove();
  viewer.clear();
  viewerEl.hidden = true;
  hideMinified();
}

async function showResult(body, text, mine) {
  const warnings = body.warnings || [];
  const stats = body.stats || {};
  // the provisional lines stay until the viewer draws the answer's
  const settle = () => { if (prov.shown) prov.settle(firstLines(body.formatted, prov.rows.length)); };
  input.setState({ kind: "ok" });
  delete input.ta.dataset.markedLine;
  const kind = body.converted ? KIND_NAMES[body.converted.from] || "JSON" : body.jsonl ? "JSON Lines" : "JSON";
  const minified = indentValue() === 0;
  const headline = h("div", { class: "headline good", id: "headline" },
    `Valid ${kind}`, body.jsonl ? ` · ${plural(body.lines, "value", "values")}` : "",
    warnings.length ? ` · ${plural(warnings.length, "warning", "warnings")}` : "");
  const detail = h("div", { class: "muted detail" },
    `Formatted: ${plural(stats.lines_out ?? body.formatted.split("\n").length, "line", "lines")}, `,
    body.formatted.length > BIG_LIMIT ? `${(body.formatted.length / 1e6).toFixed(1)} million characters` : formatBytes(new Blob([body.formatted]).size),
    ` · ${minified ? "minified" : indentSel.value === "tab" ? "tab indent" : `indent ${indentSel.value}`}`,
    sortBox.checked ? " · keys sorted" : "");
  const parts = [headline, detail];
  if (body.converted) {
    parts.push(h("p", { class: "converted", id: "converted" }, h("strong", {}, `Converted from ${kind} to strict JSON: `),
      body.converted.summary, "."));
  }
  if (body.jsonl) {   // the tree shows the values as one array; the output stays JSON Lines
    parts.push(h("p", { class: "muted", id: "jsonl-note" },
      `JSON Lines: ${plural(body.lines, "value")}, formatted one after another. The tree shows them as one array (value 1 is /0). `,
      h("button", { type: "button", "data-act": "copy-jsonl", onclick: () => copyText(body.formatted, "Copied the JSON Lines") }, "Copy JSON Lines"),
      " ",
      h("button", { type: "button", onclick: () => download(body.formatted, `${baseName()}.jsonl`) }, "Download JSON Lines")));
  }
  if (warnings.length) {
    parts.push(shortList(h("ul", { class: "warnings", id: "warnings" }), warnings,
      { limit: WARNINGS_SHOWN, noun: "warnings", render: warningItem }));
  }
  summary.replaceChildren(...parts);
  document.getElementById("output")?.remove();
  const base = baseName();
  if (minified) {
    viewer.clear();
    viewerEl.hidden = true;
    showMinified(body.formatted, body.jsonl ? `${base}.min.jsonl` : `${base}.min.json`, body.jsonl);
    settle();
    if (runs.isLatest(mine)) viewerEl.dataset.formattedFor = String(text.length);
    return;
  }
  hideMinified();
  viewerEl.hidden = false;
  const rendering = viewer.setText(body.jsonl ? linesAsArray(body.formatted) : body.formatted,
    { indent: indentValue(), filename: `${base}.json` });
  const warnPointers = [...new Set(warnings.map(treePointer).filter((p) => typeof p === "string"))];
  if (warnPointers.length) viewer.highlight(warnPointers, "warn");
  await rendering;
  if (runs.isLatest(mine)) settle();
  if (runs.isLatest(mine)) viewerEl.dataset.formattedFor = String(text.length);
}

function baseName() {
  const sourceName = input.sourceName;
  return sourceName ? sourceName.replace(/\.(json|jsonl|jsonc|json5|ya?ml|txt)$/i, "") : "formatted";
}

/** The formatted JSON Lines (indented values one after another) as the text of one array, for
 *  the tree: a value starts at a line that begins in column 1 with anything but a closing
 *  bracket (inner lines are indented, and strings hold no line breaks). */
function linesAsArray(text) {
  const unit = indentValue() === "tab" ? "\t" : " ".repeat(indentValue());
  const values = [];
  let cur = [];
  for (const line of text.split("\n")) {
    if (cur.length && line && !/^[\s\]}]/.test(line)) { values.push(cur.join("\n")); cur = []; }
    cur.push(line);
  }
  if (cur.length) values.push(cur.join("\n"));
  return "[\n" + values.map((v) => v.replace(/^/gm, unit)).join(",\n") + "\n]";
}

/** A warning's pointer in the tree: a JSON Lines warning's pointer is inside its value (`record`). */
function treePointer(w) {
  if (typeof w.pointer !== "string") return null;
  return w.record ? `/${w.record - 1}${w.pointer}` : w.pointer;
}

function hideMinified() { minEl.hidden = true; minEl.replaceChildren(); }

/** The minified text itself: one line, wrapped in the page; a very long one is cut (Copy and
 *  Download give all of it), and "Show as a tree" opens it in the viewer. */
function showMinified(text, filename, jsonl = false) {
  const cut = text.length > MINIFIED_SHOWN;
  const pre = h("pre", { class: "output minified-text", id: "minified-text" }, cut ? text.slice(0, MINIFIED_SHOWN) : text);
  minEl.replaceChildren(
    h("div", { class: "toolbar" },
      h("span", { class: "muted" }, `Minified: ${jsonl ? "one value per line" : "one line"}, ${plural(text.length, "character")}`),
      h("span", { class: "grow" }),
      h("button", { type: "button", "data-act": "copy-minified", onclick: () => copyText(text, "Copied the minified text") }, "Copy"),
      h("button", { type: "button", onclick: () => download(text, filename) }, "Download"),
      h("button", { type: "button", "data-act": "tree", title: "Open it in the tree viewer (indented there)", onclick: () => {
        hideMinified(); viewerEl.hidden = false;
        viewer.setText(jsonl ? "[" + text.split("\n").join(",") + "]" : text, { indent: 2, filename });
      } }, "Show as a tree")),
    pre,
    cut ? h("p", { class: "muted" }, `The first ${plural(MINIFIED_SHOWN, "character")} are shown; Copy and Download give all ${text.length.toLocaleString("en-US")}.`) : "");
  minEl.hidden = false;
}

function warningItem(w) {
  const where = [];
  if (w.code === "duplicate_key" && w.first && w.second) {
    // places in the input (the output's lines differ once it is re-indented)
    where.push(`first at input line ${w.first.line}, column ${w.first.column}; again at input line ${w.second.line}, column ${w.second.column}`);
  } else if (w.line) {
    where.push(`input line ${w.line}, column ${w.column}`);
  }
  if (w.record) where.unshift(`value ${w.record}, `);
  return h("li", { "data-code": w.code, "data-pointer": w.pointer ?? "" },
    h("strong", {}, w.code), " ", w.message, " ",
    h("span", { class: "mono" }, `at ${w.pointer || "/"}${w.code === "duplicate_key" && w.key !== undefined ? ` key ${JSON.stringify(w.key)}` : ""}`),
    where.length ? h("span", { class: "muted" }, ` (${where.join("")})`) : "",
    " ",
    h("button", { type: "button", class: "jump", title: "Show this place in the output and in the input",
      onclick: () => jumpTo(w) }, "show"));
}

function jumpTo(w) {
  const pointer = treePointer(w);
  if (pointer !== null) viewer.reveal(pointer);
  const at = w.second || w;
  input.select(at.line, at.column);
}

function showError(error, mark) {
  const parseLike = error.code === "parse_error" || error.code === "too_deep";
  prov.drop();
  input.showError(error, { select: mark });
  const headline = h("div", { class: "headline bad", id: "headline" },
    parseLike ? "Not valid JSON" : "Could not format",
    error.line ? ` · error at line ${error.line}, column ${error.column}` : "");
  const box = h("div", { id: "error" });
  renderError(box, error, input.isBig ? {} : { onJump: (e) => input.select(e.line, e.column) });
  if (error.hint === "sse_stream") {   // a pasted SSE stream: the Gate reads those
    box.append(h("p", { class: "hint", id: "sse-hint" }, "This is a stream of events, not one document: ",
      h("a", { href: error.hint_view || "/gate" }, "open the Gate"), ", which reads streams, rebuilds their items and checks every call."));
  }
  const parts = [headline, box];
  const offer = kindSel.value === "json" ? lenientOffer(input.text, error) : null;
  if (offer) {
    parts.push(h("p", { class: "lenient-offer", id: "lenient-offer" },
      `Strict JSON stops at ${offer.why}. `,
      h("button", { type: "button", "data-input": offer.kind, onclick: () => {
        kindSel.value = offer.kind;
        kindSel.dispatchEvent(new Event("change", { bubbles: true }));
      } }, `Read it as ${KIND_NAMES[offer.kind]}`),
      ` — converted to strict JSON, numbers exact, and the answer lists what was changed.`));
  }
  summary.replaceChildren(...parts);
  document.getElementById("output")?.remove();
  viewer.clear();
  viewerEl.hidden = true;
  hideMinified();
}

/** When strict parsing stopped at a comment, a trailing comma, a single quote or an unquoted
 *  key (or the text reads like YAML): which lenient reading to offer, and why. */
function lenientOffer(text, error) {
  if (error.code !== "parse_error" || input.isBig) return null;
  let at = error.offset;
  if (typeof at !== "number" && error.line) {
    at = 0;
    for (let l = 1; l < error.line; l++) at = text.indexOf("\n", at) + 1;
    at += (error.column || 1) - 1;
  }
  if (typeof at !== "number") return null;
  const rest = text.slice(at, at + 2);
  const before = text.slice(Math.max(0, at - 200), at).trimEnd().slice(-1);
  if (rest === "//" || rest === "/*") return { kind: "jsonc", why: "a comment" };
  if ((rest[0] === "}" || rest[0] === "]") && before === ",") return { kind: "jsonc", why: "a trailing comma" };
  if (rest[0] === "," && /^,\s*[}\]]/.test(text.slice(at, at + 200))) return { kind: "jsonc", why: "a trailing comma" };
  // a comma before a comment before the closing bracket
  if (/,\s*(\/\/[^\n]*\n\s*)+[}\]]$/.test(text.slice(Math.max(0, at - 400), at + 1))) return { kind: "jsonc", why: "a trailing comma" };
  if (rest[0] === "'") return { kind: "json5", why: "a single-quoted string" };
  if (/^[A-Za-z_$]/.test(rest) && (before === "{" || before === ",")) return { kind: "json5", why: "an unquoted key" };
  const first = text.trimStart();
  if (first.startsWith("---") || first.startsWith("#") || /^[A-Za-z_][\w.-]*:(\s|$)/.test(first)) return { kind: "yaml", why: "what reads like YAML" };
  return null;
}

// ------------------------------------------------------------------ start

if (document.getElementById("output")) {
  // the server rendered a result (plain form post): keep it until the next run
  input.setState({ kind: "ok" });
} else if (!input.isEmpty) {
  if (input.isLive) go();
  else input.setState({ kind: "large" });
} else {
  input.updateStatus();
}
