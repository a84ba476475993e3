// Format view: live formatting through POST /api/format, shown in the shared JSON viewer.
// Without JavaScript the page is a plain form that the server renders.

import { debounce, latestOnly } from "./http.js";
import { renderError, h, shortList, copyText, download } from "./dom.js";
import { formatBytes, plural } from "./text.js";
import { persist, DocumentInput } from "./inputs.js";
import { watchStale } from "./stale.js";
import { JsonViewer } from "./viewer.js";

const LIVE_LIMIT = 1_000_000;   // characters: larger inputs run on Ctrl/Cmd+Enter or the button
const BIG_LIMIT = 2_000_000;    // characters: a larger file or paste is held in memory, not in the
                                // textarea (laying out 20 MB in a textarea blocks the tab for seconds)
const WARNINGS_SHOWN = 5;       // more warnings wait behind a "show more" button

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

const form = document.getElementById("format-form");
const ta = document.getElementById("text");
const fileInput = document.getElementById("text_file");
const indentSel = document.getElementById("indent");
const sortBox = document.getElementById("sort_keys");
const statusEl = document.getElementById("text-status");
const summary = document.getElementById("summary");
const viewerEl = document.getElementById("viewer");

document.body.dataset.liveView = "1";

const viewer = new JsonViewer(viewerEl, { label: "Formatted document", filename: "formatted.json", maxAutoExpandDepth: 3 });

// ------------------------------------------------------------------ input: kept, opened, dropped

let markNext = false;   // the next result should select the error line in the input (paste, file…)

const input = new DocumentInput({
  textarea: ta, fileInput, status: statusEl, storageKey: "format:text", what: "input",
  liveLimit: LIVE_LIMIT, bigLimit: BIG_LIMIT, keepLimit: BIG_LIMIT,
  largeStatus: "large input: press Ctrl/⌘+Enter or Format",
  bigHint: "Press Format (or Ctrl/⌘+Enter) to format it.",
  onChange: ({ reason, explicit, empty, live }) => {
    // a paste, a drop, a file or the sample selects the error line; typing never moves the caret
    markNext = explicit;
    if (empty) { liveRun.cancel(); showEmpty(); return; }
    if (reason === "file" || reason === "sample" || (input.isBig && reason === "paste")) { liveRun.cancel(); go(); return; }
    if (live) { input.setState({ kind: "busy" }, { soon: true }); liveRun(); }
    else { liveRun.cancel(); input.setState({ kind: "large" }, { soon: true }); }
  },
});
persist(indentSel, "format:indent");
persist(sortBox, "format:sort_keys");

function indentValue() {
  return indentSel.value === "tab" ? "tab" : Number(indentSel.value);
}

for (const el of [indentSel, sortBox]) {
  el.addEventListener("change", () => { if (!input.isBig && !input.isEmpty && input.isLive) go(); });
}

form.querySelector('[data-action="sample"]').hidden = false;
form.querySelector('[data-action="clear"]').hidden = false;
form.querySelector('[data-action="sample"]').addEventListener("click", () => {
  input.setText(SAMPLE, { name: "sample.json", reason: "sample" });
});
form.querySelector('[data-action="clear"]').addEventListener("click", () => input.clear());

form.addEventListener("submit", (e) => { e.preventDefault(); liveRun.cancel(); markNext = true; go(); });
document.addEventListener("workbench:run", () => { liveRun.cancel(); markNext = true; go(); });

// ------------------------------------------------------------------ running

const request = latestOnly((signal, body) => input.post("/api/format", body, { signal }));
const liveRun = debounce(() => go(), 300);
let runSeq = 0;

async function go() {
  const text = input.text;
  if (!text.trim()) { showEmpty(); return; }
  const mine = ++runSeq;
  const mark = markNext; markNext = false;
  input.setState({ kind: "busy" });
  if (!input.isLive || !summary.querySelector(".headline")) {
    showBusy(`Formatting ${formatBytes(text.length)}…`);
  }
  let res;
  try {
    res = await request({ text, indent: indentValue(), sort_keys: sortBox.checked });
  } catch (err) {
    res = { ok: false, status: 0, body: { error: { code: "network", message: String(err) } } };
  }
  if (res === undefined || mine !== runSeq) return;  // a newer run took over
  if (res.ok) await showResult(res.body, text, mine);
  else showError(res.body?.error || { code: "unknown", message: `HTTP ${res.status}` }, mark);
}

function showEmpty() {
  ++runSeq;
  input.setState(null);
  summary.replaceChildren(h("p", { class: "muted", id: "placeholder" }, "The formatted document appears here."));
  document.getElementById("output")?.remove();
  viewer.clear();
  viewerEl.hidden = true;
}

function showBusy(message) {
  summary.replaceChildren(h("div", { class: "headline", id: "headline" }, h("span", { class: "spinner", "aria-hidden": "true" }), " ", message));
}

async function showResult(body, text, mine) {
  const warnings = body.warnings || [];
  const stats = body.stats || {};
  input.setState({ kind: "ok" });
  delete ta.dataset.markedLine;
  const headline = h("div", { class: "headline good", id: "headline" },
    "Valid JSON", warnings.length ? ` · ${plural(warnings.length, "warning", "warnings")}` : "");
  const detail = h("div", { class: "muted detail" },
    `Formatted: ${plural(stats.lines_out ?? body.formatted.split("\n").length, "line", "lines")}, `,
    body.formatted.length > BIG_LIMIT ? `${(body.formatted.length / 1e6).toFixed(1)} million characters` : formatBytes(new Blob([body.formatted]).size),
    ` · ${indentSel.value === "0" ? "minified" : indentSel.value === "tab" ? "tab indent" : `indent ${indentSel.value}`}`,
    sortBox.checked ? " · keys sorted" : "");
  const parts = [headline, detail];
  if (warnings.length) {
    parts.push(shortList(h("ul", { class: "warnings", id: "warnings" }), warnings.map((w) => warningItem(w)),
      { limit: WARNINGS_SHOWN, noun: "warnings" }));
  }
  summary.replaceChildren(...parts);
  document.getElementById("output")?.remove();
  viewerEl.hidden = false;
  const sourceName = input.sourceName;
  const base = sourceName ? sourceName.replace(/\.(json|jsonl|txt)$/i, "") : "formatted";
  const rendering = viewer.setText(body.formatted, { indent: indentValue(), filename: `${base}.json` });
  const warnPointers = [...new Set(warnings.map((w) => w.pointer).filter((p) => typeof p === "string"))];
  if (warnPointers.length) viewer.highlight(warnPointers, "warn");
  await rendering;
  if (mine === runSeq) viewerEl.dataset.formattedFor = String(text.length);
}

function warningItem(w) {
  const where = [];
  if (w.code === "duplicate_key" && w.first && w.second) {
    where.push(`first at line ${w.first.line}, column ${w.first.column}; again at line ${w.second.line}, column ${w.second.column}`);
  } else if (w.line) {
    where.push(`line ${w.line}, column ${w.column}`);
  }
  return h("li", { "data-code": w.code, "data-pointer": w.pointer ?? "" },
    h("strong", {}, w.code), " ", w.message, " ",
    h("span", { class: "mono" }, `at ${w.pointer || "/"}${w.code === "duplicate_key" && w.key !== undefined ? ` key ${JSON.stringify(w.key)}` : ""}`),
    where.length ? h("span", { class: "muted" }, ` (${where.join("")})`) : "",
    " ",
    h("button", { type: "button", class: "jump", title: "Show this place in the output and in the input",
      onclick: () => jumpTo(w) }, "show"));
}

function jumpTo(w) {
  if (typeof w.pointer === "string") viewer.reveal(w.pointer);
  const at = w.second || w;
  input.select(at.line, at.column);
}

function showError(error, mark) {
  const parseLike = error.code === "parse_error" || error.code === "too_deep";
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
  summary.replaceChildren(headline, box);
  document.getElementById("output")?.remove();
  viewer.clear();
  viewerEl.hidden = true;
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
