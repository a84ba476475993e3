// Format view: live formatting through POST /api/format, shown in the shared JSON viewer.
// Without JavaScript the page is a plain form that the server renders.

import { postJSON, debounce, latestOnly, persist, sizeLine, markInTextarea,
  renderError, h, formatBytes, toast } from "./app.js";
import { JsonViewer } from "./viewer.js";

const LIVE_LIMIT = 1_000_000;   // characters: larger inputs run on Ctrl/Cmd+Enter or the button
const KEEP_LIMIT = 2_000_000;   // characters: larger inputs are not kept in session storage
const BIG_LIMIT = 2_000_000;    // characters: a larger file or paste is held in memory, not in the
                                // textarea (laying out 20 MB in a textarea blocks the tab for seconds)

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

const TEXT_KEY = "workbench:format:text";
persist(ta, "format:text");
persist(indentSel, "format:indent");
persist(sortBox, "format:sort_keys");

let lastState = null;   // {kind: "ok" | "error" | "busy" | "large" | "empty", line, column}
let markNext = false;   // the next result should mark the error line in the input
let sourceName = null;

function indentValue() {
  return indentSel.value === "tab" ? "tab" : Number(indentSel.value);
}

function stateLabel() {
  const s = lastState;
  if (!s) return null;
  if (s.kind === "ok") return h("span", { class: "good" }, "valid JSON");
  if (s.kind === "error") return h("span", { class: "bad" }, s.line ? `error at ${s.line}:${s.column}` : "error");
  if (s.kind === "busy") return h("span", {}, "checking…");
  if (s.kind === "large") return h("span", {}, "large input: press Ctrl/⌘+Enter or Format");
  return null;
}

let big = null;   // {text, name, size}: a large input held in memory instead of the textarea

function currentText() { return big ? big.text : ta.value; }

function updateStatus() {
  const text = currentText();
  statusEl.replaceChildren();
  if (!text) return;
  const label = stateLabel();
  statusEl.append(big ? big.size : sizeLine(text), label ? " · " : "", label || "");
  const kept = !big && text.length <= KEEP_LIMIT && (sessionStorage.getItem(TEXT_KEY)?.length ?? -1) === text.length;
  if (!kept) statusEl.append(" · ", h("span", { title: "Too large for session storage: it will not survive a reload of the tab" }, "not kept on reload"));
}
const statusSoon = debounce(updateStatus, 120);

function setState(state) { lastState = state; updateStatus(); }

ta.addEventListener("input", (e) => {
  // a paste, a drop, a file or the sample marks the error line; typing never moves the caret
  const type = e.inputType || "";
  markNext = type === "" || type === "insertFromPaste" || type === "insertFromDrop";
  if (ta.value.length > KEEP_LIMIT) {
    try { sessionStorage.removeItem(TEXT_KEY); } catch { /* ignore */ }
  }
  if (!ta.value.trim()) { liveRun.cancel(); showEmpty(); return; }
  if (ta.value.length <= LIVE_LIMIT) {
    lastState = { kind: "busy" };
    statusSoon();
    liveRun();
  } else {
    liveRun.cancel();
    lastState = { kind: "large" };
    statusSoon();
  }
});

// ------------------------------------------------------------------ large inputs: held in memory

const bigPanel = h("div", { class: "bigtext", id: "bigtext", role: "group", "aria-label": "Large input" });
bigPanel.hidden = true;
ta.after(bigPanel);

function enterBig(text, name, bytes) {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  big = { text, name, size: `${formatBytes(bytes ?? new Blob([text]).size)} · ${lines.toLocaleString()} lines` };
  ta.value = "";
  ta.hidden = true;
  try { sessionStorage.removeItem(TEXT_KEY); } catch { /* ignore */ }
  bigPanel.replaceChildren(
    h("div", {}, h("strong", {}, name), ` · ${big.size}`),
    h("div", { class: "muted" }, "Held in memory rather than in the text box: laying out this much text in the page would freeze it. ",
      "Press Format (or Ctrl/⌘+Enter) to format it. It is not kept across a reload of the tab."),
    h("div", { class: "toolbar" },
      h("button", { type: "button", "data-action": "edit-big", onclick: () => {
        const t = big.text; leaveBig(); ta.value = t; ta.dispatchEvent(new Event("input", { bubbles: true }));
      } }, "Edit as text (slow)")));
  bigPanel.hidden = false;
  setState({ kind: "large" });
}

function leaveBig() {
  if (!big) return;
  big = null;
  ta.hidden = false;
  bigPanel.hidden = true;
  bigPanel.replaceChildren();
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Read a file as UTF-8 in slices (a bad byte is reported, the text kept) into the input. */
async function loadFile(file) {
  if (!file) return;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const STEP = 4 << 20;
  let text;
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const parts = [];
    for (let i = 0; i < bytes.length; i += STEP) {
      parts.push(decoder.decode(bytes.subarray(i, i + STEP), { stream: i + STEP < bytes.length }));
      if (bytes.length > STEP) await pause();
    }
    text = parts.join("");
  } catch {
    toast(`${file.name} is not UTF-8 text; invalid bytes are shown as \uFFFD`);
    text = new TextDecoder("utf-8").decode(bytes);
  }
  sourceName = file.name;
  liveRun.cancel();
  if (text.length > BIG_LIMIT) {
    enterBig(text, file.name, bytes.length);
  } else {
    leaveBig();
    ta.value = text;
    ta.dispatchEvent(new Event("input", { bubbles: true }));
    liveRun.cancel();
  }
  markNext = true;
  go();
}

fileInput.addEventListener("change", () => { const f = fileInput.files[0]; fileInput.value = ""; loadFile(f); });
for (const target of [ta, bigPanel]) {
  target.addEventListener("dragover", (e) => { e.preventDefault(); target.classList.add("drop"); });
  target.addEventListener("dragleave", () => target.classList.remove("drop"));
  target.addEventListener("drop", (e) => {
    target.classList.remove("drop");
    if (e.dataTransfer?.files?.length) { e.preventDefault(); loadFile(e.dataTransfer.files[0]); }
  });
}
ta.addEventListener("paste", (e) => {
  const text = e.clipboardData?.getData("text/plain") ?? "";
  if (text.length <= BIG_LIMIT) return;  // the browser pastes it as usual
  e.preventDefault();
  sourceName = "pasted.json";
  enterBig(text, `Pasted text`);
  markNext = true;
  go();
});

for (const el of [indentSel, sortBox]) {
  el.addEventListener("change", () => { if (!big && ta.value.trim() && ta.value.length <= LIVE_LIMIT) go(); });
}

form.querySelector('[data-action="sample"]').hidden = false;
form.querySelector('[data-action="clear"]').hidden = false;
form.querySelector('[data-action="sample"]').addEventListener("click", () => {
  leaveBig();
  sourceName = "sample.json";
  ta.value = SAMPLE;
  ta.dispatchEvent(new Event("input", { bubbles: true }));
  liveRun.cancel();
  markNext = true;
  go();
});
form.querySelector('[data-action="clear"]').addEventListener("click", () => {
  leaveBig();
  ta.value = "";
  sourceName = null;
  ta.dispatchEvent(new Event("input", { bubbles: true }));
  ta.focus();
});

form.addEventListener("submit", (e) => { e.preventDefault(); liveRun.cancel(); markNext = true; go(); });
document.addEventListener("workbench:run", () => { liveRun.cancel(); markNext = true; go(); });

// ------------------------------------------------------------------ running

const request = latestOnly(async (signal, body) =>
  body.text.length > BIG_LIMIT ? postBig("/api/format", body, { signal }) : postJSON("/api/format", body, { signal }));

/** postJSON for a large text: the JSON body is built in slices (no long block of the page). */
async function postBig(url, body, { signal }) {
  const { text, ...rest } = body;
  const parts = ['{"text":"'];
  const STEP = 1 << 20;
  for (let i = 0; i < text.length;) {
    let j = Math.min(text.length, i + STEP);
    const c = text.charCodeAt(j - 1);
    if (j < text.length && c >= 0xd800 && c <= 0xdbff) j--;  // keep a surrogate pair together
    parts.push(JSON.stringify(text.slice(i, j)).slice(1, -1));
    i = j;
    await pause();
    if (signal.aborted) throw new DOMException("superseded", "AbortError");
  }
  parts.push('",' + JSON.stringify(rest).slice(1));
  let response;
  try {
    response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: new Blob(parts), signal, credentials: "same-origin" });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    return { ok: false, status: 0, body: { error: { code: "network", message: "The workbench server did not answer: is it still running?" } } };
  }
  const raw = await response.text();
  let parsed;
  try { parsed = JSON.parse(raw); } catch { parsed = { error: { code: "bad_response", message: raw.slice(0, 300) } }; }
  return { ok: response.ok, status: response.status, body: parsed };
}
const liveRun = debounce(() => go(), 300);
let runSeq = 0;

async function go() {
  const text = currentText();
  if (!text.trim()) { showEmpty(); return; }
  const mine = ++runSeq;
  const mark = markNext; markNext = false;
  const big = text.length > LIVE_LIMIT;
  setState({ kind: "busy" });
  if (big || !summary.querySelector(".headline")) {
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
  lastState = null;
  updateStatus();
  summary.replaceChildren(h("p", { class: "muted", id: "placeholder" }, "The formatted document appears here."));
  document.getElementById("output")?.remove();
  viewer.clear();
  viewerEl.hidden = true;
}

function showBusy(message) {
  summary.replaceChildren(h("div", { class: "headline", id: "headline" }, h("span", { class: "spinner", "aria-hidden": "true" }), " ", message));
}

function plural(n, one, many) { return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`; }

async function showResult(body, text, mine) {
  const warnings = body.warnings || [];
  const stats = body.stats || {};
  setState({ kind: "ok" });
  delete ta.dataset.errorLine;
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
    parts.push(h("ul", { class: "warnings", id: "warnings" }, warnings.map((w) => warningItem(w))));
  }
  summary.replaceChildren(...parts);
  document.getElementById("output")?.remove();
  viewerEl.hidden = false;
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
  if (at.line && !big) markInTextarea(ta, at.line, at.column);
}

function showError(error, mark) {
  const parseLike = error.code === "parse_error" || error.code === "too_deep";
  setState({ kind: "error", line: error.line, column: error.column });
  const headline = h("div", { class: "headline bad", id: "headline" },
    parseLike ? "Not valid JSON" : "Could not format",
    error.line ? ` · error at line ${error.line}, column ${error.column}` : "");
  const box = h("div", { id: "error" });
  renderError(box, error, big ? {} : { onJump: (e) => markInTextarea(ta, e.line, e.column) });
  summary.replaceChildren(headline, box);
  document.getElementById("output")?.remove();
  viewer.clear();
  viewerEl.hidden = true;
  if (error.line) {
    ta.dataset.errorLine = String(error.line);
    if (mark && !big) markInTextarea(ta, error.line, error.column);
  }
}

// ------------------------------------------------------------------ start

if (document.getElementById("output")) {
  // the server rendered a result (plain form post): keep it until the next run
  updateStatus();
} else if (ta.value.trim()) {
  if (ta.value.length <= LIVE_LIMIT) go();
  else setState({ kind: "large" });
} else {
  updateStatus();
}
