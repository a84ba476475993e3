// Diff view: two documents compared through POST /api/diff, shown side by side.
// The server formats both documents (keys sorted) and sends segments that align their lines;
// this script lays the rows out lazily (only the rows in view exist in the page), folds
// unchanged runs, and moves between changes with n / p (or F7 / Shift+F7).
// Without JavaScript the page is a plain form: the server renders the change list and the patch.

import { answerError, byIds, busyHeadline, persist, formatBytes, postLarge, copyText, download, toast, h,
  renderError, DocumentInput, plural } from "./app.js";
import { watchStale } from "./stale.js";
import { AlignedGrid } from "./diffgrid.js";
import { ViewRuns } from "./runs.js";
import { threshold } from "./thresholds.js";
import { Provisional, PagePass, rowsTable, clipped } from "./provisional.js";

const LIVE_LIMIT = threshold("live");     // characters (both sides): compare as you type below this
const KEEP_LIMIT = threshold("keep");   // characters: larger inputs are not kept in session storage
const BIG_LIMIT = threshold("big");    // characters: a larger file or paste is held in memory
const LIST_STEP = 500;          // change-list rows rendered at a time
const PATCH_SHOWN = 200_000;    // characters of the patch shown in the page (copy/download: all)
const PROVISIONAL_ROWS = 10;    // places where a large pair differs, found by the page while the server compares

// the sample pair: two providers' answers to one request (the message item is the same in both)
const SAMPLE_MESSAGE = `    {
      "type": "message",
      "id": "msg_001",
      "role": "assistant",
      "content": [{"type": "output_text", "text": "Let me look up the weather."}]
    }`;

const sampleCall = (callId, args) => `    {
      "type": "function_call",
      "id": "fc_001",
      "call_id": "${callId}",
      "name": "get_weather",
      "arguments": "${args}",
      "status": "completed"
    }`;

const SAMPLE_LEFT = `{
  "id": "resp_left_01",
  "model": "provider-a/model-1",
  "temperature": 1.0,
  "output": [
${SAMPLE_MESSAGE},
${sampleCall("call_A1", '{\\"location\\": \\"Paris\\", \\"days\\": 3}')}
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
${SAMPLE_MESSAGE},
${sampleCall("call_B7", '{\\"location\\":\\"Paris\\",\\"days\\":4}')}
  ],
  "usage": {"input_tokens": 328, "output_tokens": 61, "total_tokens": 389}
}
`;

const OP_MARK = { add: "+", remove: "−", replace: "~", move: "⇄" };

const [form, summary, viewEl, optOrder, optKey, optStrings, optIgnore, optPreset, optTolerance, optEngine] = byIds(
  "diff-form", "summary", "diffview", "ignore_order", "match_key", "parse_strings", "ignore_paths", "preset",
  "tolerance", "engine");
const presetKeep = new Set(JSON.parse(sessionStorage.getItem("diff:preset_keep") || "[]"));

document.body.dataset.liveView = "1";

// ------------------------------------------------------------------ the two inputs

function makeSide(name) {
  const input = new DocumentInput({
    field: name, storageKey: `diff:${name}`, what: `${name} document`,
    bigId: `${name}-big`, liveLimit: LIVE_LIMIT, bigLimit: BIG_LIMIT, keepLimit: KEEP_LIMIT,
    largeStatus: "large input: press Ctrl/⌘+Enter or Compare",
    bigHint: "Press Compare (or Ctrl/⌘+Enter).",
    // a large file with the other side given: the first places they differ, from both files'
    // bytes (a pass in a worker), before the page decodes this one
    onFile: (file) => {
      const other = sides[name === "left" ? "right" : "left"];
      if (other.isEmpty || file.size + other.text.length <= LIVE_LIMIT) return null;
      const pair = name === "left" ? [file, sourceOf(other)] : [sourceOf(other), file];
      return pair.includes(null) || !plainOptions() ? null : firstChanges(pair, { file, side: input });
    },
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
// a large pair's first differences, found by the page (scan.js) while the server compares: the
// places both values surely differ, each checked against the answer's changes when it comes
const prov = new Provisional(summary, { results: viewEl });
const pass = new PagePass();
watchStale({ form, results: [summary, prov.box, viewEl] });   // a result the input no longer matches is marked at once
for (const el of [optOrder, optKey, optStrings, optIgnore, optPreset, optTolerance, optEngine]) persist(el, `diff:${el.id}`);
for (const el of [optOrder, optStrings, optPreset, optEngine]) el.addEventListener("change", () => onInput(true));
for (const el of [optKey, optIgnore, optTolerance]) el.addEventListener("input", () => onInput());
optPreset.addEventListener("change", () => { if (optPreset.checked) optStrings.checked = true; });

for (const b of form.querySelectorAll("[data-action]")) b.hidden = false;
document.getElementById("merge-patch-opt").hidden = true;   // the page asks when its tab is opened
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
    runs.live.cancel();
    if (sides.left.isEmpty && sides.right.isEmpty) showEmpty();
    else {
      setStates(null);
      // a compare on its way belongs to a pair that is gone: it is not shown
      if (viewEl.hasAttribute("aria-busy")) {
        viewEl.removeAttribute("aria-busy");
        showMessage(`Add the ${sides.left.isEmpty ? "left" : "right"} document to compare.`);
      }
    }
    return;
  }
  if (total <= LIVE_LIMIT) {
    setStates({ kind: "busy" });
    if (immediate) run(); else runs.live();
  } else {
    runs.live.cancel();
    setStates({ kind: "large" });
  }
}


// ------------------------------------------------------------------ running

function options() {
  const body = { ignore_order: optOrder.checked, parse_strings: optStrings.checked };
  const key = optKey.value.trim();
  if (key) body.match_key = key;
  const paths = optIgnore.value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (paths.length) body.ignore_paths = paths;
  if (optPreset.checked) {
    body.preset = "providers";
    if (presetKeep.size) body.preset_keep = [...presetKeep];
  }
  const tol = optTolerance.value.trim();
  if (tol) body.tolerance = tol;      // "0.01" (absolute) or "1%" (relative); the server reads it exactly
  if (optEngine.value !== "workbench") body.engine = optEngine.value;
  return body;
}

const runs = new ViewRuns({ go: () => run(), post: (signal, body) => postLarge("/api/diff", body, { signal }), wait: 300, form });

async function run() {
  runs.live.cancel();
  const left = sides.left.text; const right = sides.right.text;
  if (!left.trim() || !right.trim()) {
    showMessage(!left.trim() && !right.trim() ? null : `Add the ${!left.trim() ? "left" : "right"} document to compare.`);
    for (const s of bothSides) if (s.state?.kind === "busy") s.setState(null);
    return;
  }
  setStates({ kind: "busy" });
  const size = left.length + right.length;
  if (size > LIVE_LIMIT || !summary.querySelector(".headline")) {
    summary.replaceChildren(busyHeadline(`Comparing ${formatBytes(size)}…`));
  }
  viewEl.setAttribute("aria-busy", "true");
  const request = { left, right, ...options() };
  const pair = size > LIVE_LIMIT && plainOptions() ? [sourceOf(sides.left), sourceOf(sides.right)] : null;
  if (!pair || pair.includes(null)) { pass.stop(); prov.drop(); }
  else if (!(pass.source && pass.source[0] === pair[0] && pass.source[1] === pair[1])) firstChanges(pair);
  const got = await runs.send(request);
  if (!got) return;
  const { res } = got;
  pass.stop();
  if (!res.ok || res.body.engine === "deepdiff") prov.drop();
  viewEl.removeAttribute("aria-busy");
  if (res.ok) showResult(res.body, request);
  else showError(answerError(res));
}

/** What the page's pass reads of a side: the File its text was decoded from, else the text. */
function sourceOf(side) {
  return side.file || (side.text.isWellFormed?.() === false ? null : side.text);
}

/** Options under which a place where both values differ is surely one of the answer's changes
 *  (no order ignored, no paths, preset or tolerance, the Workbench engine). */
function plainOptions() {
  return !optOrder.checked && !optKey.value.trim() && !optIgnore.value.trim() && !optPreset.checked
    && !optTolerance.value.trim() && optEngine.value === "workbench";
}

/** The first places where a large pair's values surely differ (diffScan, in a worker, over the
 *  files' bytes or the texts), shown as provisional rows side by side. */
async function firstChanges(pair, { file = null, side = null } = {}) {
  // a side's File: read strictly by the page already, but the one being chosen now
  const of = (s) => (typeof s === "string" ? { text: s } : { file: s, utf8: s !== file });
  pass.start(pair, { mode: "diff", left: of(pair[0]), right: of(pair[1]), maxRows: PROVISIONAL_ROWS,
    parseStrings: optStrings.checked });
  const found = await pass.of(pair);
  if (!found || pass.source !== pair) return;
  if (file && side.loading !== file) return;   // another input came
  const cell = (s) => [h("code", {}, clipped(s.json, 60)), h("span", { class: "line-no", title: s.text.slice(0, 2000) }, ` line ${s.line}, column ${s.column}`)];
  prov.show(`the first ${plural(found.rows.length, "place")} where the two documents differ`,
    "Found by this page reading both texts in step while the server compares them: each value differs on the two sides "
    + "at the same place. The server's answer replaces these rows with its changes (or says where a document is not valid JSON).",
    rowsTable("provisional-changes", ["#", "pointer", "left", "right"], found.rows.map((r, n) => [
      String(n + 1), h("code", {}, r.pointer || "/"), cell(r.left), cell(r.right)])),
    { rows: found.rows });
}

/** Each provisional place is one of the answer's changes, or inside one (a changed item replaced whole). */
function placesConfirmed(body) {
  if (body.equal) return false;
  const covered = (p) => body.changes.some((c) => c.pointer === p || p.startsWith(c.pointer + "/") || c.pointer === "");
  const rows = body.truncated ? prov.rows.slice(0, 1) : prov.rows;
  return rows.every((r) => covered(r.pointer));
}

function showMessage(text) {
  runs.drop();
  pass.stop();
  prov.drop();
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
  if (body.equal) return body.note_count ? "No differences in value" : "No differences";
  const parts = [`${s.added} added`, `${s.removed} removed`, `${s.changed} changed`];
  if (s.moved) parts.push(`${s.moved} moved`);
  return `${plural(body.count, "change")}: ${parts.join(", ")}`;
}

// ------------------------------------------------------------------ the result

let grid = null;       // the aligned view currently shown
let result = null;
let current = -1;      // index of the current change

function showResult(body, request) {
  result = body;
  current = -1;
  for (const s of bothSides) s.setState({ kind: "ok" });
  document.getElementById("server-result")?.remove();
  if (body.engine === "deepdiff") { showDeepDiff(body); return; }
  const o = body.options || {};
  const optionsText = [o.preset ? "providers preset: provider-minted fields ignored, output items aligned by type and name" : null,
    o.ignore_order ? "array order ignored" : null, o.match_key ? `items matched by ${o.match_key}` : null,
    o.ignore_paths?.length ? `ignoring ${o.ignore_paths.join(", ")}` : null, o.parse_strings ? null : "JSON in strings compared as text",
    o.tolerance ? `numbers within ${[o.tolerance.absolute, o.tolerance.relative !== null && o.tolerance.relative !== undefined ? `${Number(o.tolerance.relative) * 100}%` : null].filter(Boolean).join(" or ")} are equal` : null].filter(Boolean);
  const head = h("div", { class: `headline ${body.equal ? "good" : ""}`, id: "headline" }, headlineText(body),
    body.note_count ? h("span", { class: "muted small" }, ` · ${plural(body.note_count, "note")}`) : "");
  const extra = [];
  if (optionsText.length) extra.push(h("div", { class: "muted small" }, optionsText.join(" · ")));
  if (body.truncated) extra.push(h("div", { class: "warn-line" }, `The list shows the first ${body.changes.length.toLocaleString("en-US")} of ${body.count.toLocaleString("en-US")} changes (the patch has all of them).`));
  for (const w of body.warnings || []) {
    extra.push(h("div", { class: "warn-line" }, h("strong", {}, `${w.field}: ${w.code}`), ` ${w.message} at ${w.pointer || "/"} (line ${w.line}, column ${w.column})`));
  }
  if (body.warning_count > (body.warnings || []).length) extra.push(h("div", { class: "muted small", id: "warning-count" }, `… ${plural(body.warning_count - body.warnings.length, "more warning")} not listed.`));
  if (body.suggest) extra.push(suggestLine(body.suggest));
  const ignored = ignoredPanel(body);
  if (ignored) extra.push(ignored);
  if (body.across) extra.push(acrossPanel(body.across));
  summary.replaceChildren(head, ...extra);
  buildView(body, request);
  if (prov.shown) prov.conclude(placesConfirmed(body), body.changes);
}

// two answers of different dialects (the providers preset): compared in the neutral form; each
// side's own text is one click away (the toggle shows both originals in place of the view)
function acrossPanel(across) {
  const says = across.says.length
    ? h("ul", { class: "across-says", id: "across-says" }, across.says.map((t) => h("li", {}, t))) : "";
  const leftOut = [["left", across.left], ["right", across.right]].flatMap(([side, a]) =>
    a.left_out.slice(0, 5).map((x) => h("li", {}, `${side} (${a.word}): `, h("code", {}, x.pointer || "/"), ` ${x.what}`)));
  const toggle = h("button", { type: "button", id: "across-toggle", "aria-pressed": "false",
    title: "Show each side's own text instead of the neutral form" }, "Show each side's own text");
  toggle.addEventListener("click", () => showOriginals(toggle, across));
  return h("div", { class: "across", id: "across", "data-left": across.left.dialect, "data-right": across.right.dialect },
    h("p", { id: "across-message" }, across.message), says,
    leftOut.length ? h("details", { class: "muted small", id: "across-left-out" },
      h("summary", {}, "Not in the neutral form: reasoning, provider-run calls, other parts"), h("ul", {}, leftOut)) : "",
    toggle);
}

function showOriginals(toggle, across) {
  const gridEl = document.getElementById("dgrid");
  let orig = document.getElementById("across-originals");
  const on = toggle.getAttribute("aria-pressed") !== "true";
  toggle.setAttribute("aria-pressed", String(on));
  toggle.textContent = on ? "Show the neutral form" : "Show each side's own text";
  if (on && !orig) {
    const pane = (side, a) => h("section", { class: "pane", "aria-label": `${side}: ${a.word}` },
      h("h3", {}, `${side} · ${a.word}`),
      h("pre", { class: "output", id: `across-${side}-text` }, a.text ?? sides[side].text));
    orig = h("div", { class: "view across-originals", id: "across-originals" }, pane("left", across.left), pane("right", across.right));
    gridEl?.after(orig);
  }
  if (orig) orig.hidden = !on;
  if (gridEl) gridEl.hidden = on;
  const cols = document.querySelector(".dhead");
  if (cols) cols.hidden = on;
}

function suggestLine(sg) {
  return h("div", { class: "suggest", id: "suggest" },
    `The reordered items carry ${sg.match_key}: matching them by it gives ${plural(sg.changes_with, "change")} instead of ${sg.changes_now.toLocaleString("en-US")}. `,
    h("button", { type: "button", id: "use-match-key", onclick: () => { optKey.value = sg.match_key; optKey.dispatchEvent(new Event("input")); run(); } },
      `Match items by ${sg.match_key}`));
}

// what the ignore patterns and the preset hid; each can be turned back on (and off again)
function ignoredPanel(body) {
  const list = [...(body.ignored || [])];
  if (body.options?.preset) for (const p of presetKeep) list.push({ pattern: p, count: null, preset: true, kept: true });
  if (!list.length) return null;
  const hidden = list.reduce((n, x) => n + (x.count || 0), 0);
  const items = list.map((x) => {
    const box = h("input", { type: "checkbox", checked: !x.kept, "data-pattern": x.pattern,
      "aria-label": `ignore ${x.pattern}` });
    box.addEventListener("change", () => toggleIgnored(x, box.checked));
    const where = x.count ? ` · hid ${plural(x.count, "difference")}${x.pointers?.length ? ": " : ""}` : (x.kept ? " · compared" : " · nothing differed");
    return h("li", {}, h("label", {}, box, " ", h("code", {}, x.pattern)),
      x.what ? h("span", { class: "muted" }, ` ${x.what}`) : "", where,
      ...(x.pointers || []).slice(0, 5).map((p, i) => [i ? ", " : "", h("code", { class: "small" }, p)]),
      x.pointers && x.count > 5 ? " …" : "");
  });
  return h("details", { class: "ignored-panel", id: "ignored", open: hidden > 0 },
    h("summary", {}, `Ignored: ${plural(list.filter((x) => !x.kept).length, "pattern")}, ${plural(hidden, "difference")} hidden — uncheck one to compare it`),
    h("ul", { class: "ignored" }, items));
}

function toggleIgnored(x, ignore) {
  if (x.preset) {
    if (ignore) presetKeep.delete(x.pattern); else presetKeep.add(x.pattern);
    sessionStorage.setItem("diff:preset_keep", JSON.stringify([...presetKeep]));
  } else if (!ignore) {
    optIgnore.value = optIgnore.value.split("\n").filter((p) => p.trim() !== x.pattern).join("\n");
    optIgnore.dispatchEvent(new Event("input"));
  }
  run();
}

function showDeepDiff(body) {
  const head = h("div", { class: `headline ${body.equal ? "good" : ""}`, id: "headline" },
    body.equal ? "DeepDiff: no differences" : `DeepDiff: ${plural(body.count, "difference")}`);
  const label = h("div", { class: "engine-label", id: "engine-label" },
    h("strong", {}, `DeepDiff ${body.engine_version}`), " — the second engine: its own change types and paths, with our JSON Pointer beside each (the side-by-side view and the patches come from the Workbench engine).");
  summary.replaceChildren(head, label);
  viewEl.hidden = false;
  grid = null;
  const rows = body.deepdiff.map((d) => h("tr", {},
    h("td", {}, h("code", {}, d.type)), h("td", { class: "mono" }, d.path), h("td", { class: "mono" }, d.pointer || "/"),
    h("td", { class: "mono val" }, clip(d.left ?? "", 200)), h("td", { class: "mono val" }, clip(d.right ?? "", 200))));
  viewEl.replaceChildren(h("table", { class: "list changes", id: "deepdiff-report" },
    h("caption", { class: "sr-only" }, "DeepDiff's report"),
    h("thead", {}, h("tr", {}, ...["DeepDiff type", "DeepDiff path", "pointer", "left", "right"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows)));
  viewEl.dataset.changes = "0";
}

function buildView(body, request) {
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
    "aria-label": "The two documents side by side, in the left document's key order, lines aligned" });
  const cols = h("div", { class: "dhead", "aria-hidden": "true" }, h("span", { id: "left-head" }, "left"), h("span", { id: "right-head" }, "right"));
  const changes = h("div", { class: "changes-panel" });
  const patch = patchPanel(body);
  const merge = mergePanel(request);
  const notes = notesPanel(body);
  viewEl.replaceChildren(nav, cols, gridEl, changes, ...(notes ? [notes] : []), patch, merge);
  // across dialects the view is the neutral form: its own line numbers, not the inputs'
  grid = new AlignedGrid(gridEl, body.view, body.changes, body.across ? {} : { left: sides.left.text, right: sides.right.text });
  const [nl, nr] = gridEl.dataset.lineNumbers.split(" ");
  cols.children[0].textContent = nl === "input" ? "left · line numbers of the left input" : "left · lines of the formatted view";
  cols.children[1].textContent = nr === "input" ? "right · line numbers of the right input" : "right · lines of the formatted view";
  renderChangeList(changes, body);
  viewEl.dataset.changes = String(body.changes.length);
  viewEl.dataset.current = "-1";
}

/** Why the patch has more operations than the changes counted: it also writes the values
 *  that are equal but written differently (the notes), so the result reads as the right text. */
function rewrites(body) {
  const notes = new Set((body.notes || []).map((n) => n.pointer));
  const n = (body.patch || []).filter((op) => notes.has(op.path)).length;
  if (!n || body.equal) return "";
  return n === 1 ? " One of them rewrites an equal value written differently (a note, not a change), so the text reads as the right one."
    : ` ${n} of them rewrite equal values written differently (notes, not changes), so the text reads as the right one.`;
}

function patchPanel(body) {
  const text = body.patch_text;
  const shown = text.length > PATCH_SHOWN ? text.slice(0, PATCH_SHOWN) + "\n…" : text;
  return h("section", { class: "patch-panel", "aria-labelledby": "patch-title" },
    h("div", { class: "toolbar" },
      h("h3", { id: "patch-title" }, `JSON Patch (RFC 6902) · ${plural(body.patch.length, "operation")}${body.equal && body.patch.length ? " that only rewrite" : ""}`),
      h("span", { class: "grow" }),
      h("button", { type: "button", id: "copy-patch", onclick: () => copyText(text, "Patch copied") }, "Copy patch"),
      h("button", { type: "button", id: "download-patch", onclick: () => download(text, "patch.json") }, "Download patch.json")),
    h("p", { class: "muted small", id: "patch-note" }, body.patch_note ? body.patch_note + "."
      : body.patch.length
        ? "Applied to the left document, these operations give the right one" + (body.options?.ignore_order || body.options?.ignore_paths?.length || body.options?.preset ? " (up to the ignored order and paths)." : ".")
          + rewrites(body)
        : "The documents are the same: the patch is empty."),
    h("pre", { class: "output", id: "patch" }, shown));
}

// the merge patch is asked for only when the tab is opened (or downloaded): for a changed array
// it is the whole right array, so the compare's answer does not carry it (issue 25)
function mergePanel(request) {
  const content = h("div", { id: "merge-content" }, h("p", { class: "muted small" }, "Asking for the merge patch…"));
  const tab = h("details", { class: "patch-panel merge-tab", id: "merge-tab" },
    h("summary", { id: "merge-title" }, h("h3", {}, "JSON Merge Patch (RFC 7386)")), content);
  let asked = null;
  const load = () => {
    asked ??= postLarge("/api/diff", { ...request, merge_patch: true, view: false }).then((res) => {
      if (!res.ok) { content.replaceChildren(h("p", { class: "bad" }, answerError(res).message)); return null; }
      content.replaceChildren(...mergeContent(res.body, load));
      tab.dataset.loaded = "1";
      return res.body.merge_patch_text ?? null;
    });
    return asked;
  };
  tab.addEventListener("toggle", () => { if (tab.open) load(); });
  return tab;
}

function mergeContent(body, load) {
  if (body.merge_patch_text === null || body.merge_patch_text === undefined) return [h("p", { class: "muted small" }, "No merge patch: the documents nest too deeply to write it.")];
  const text = body.merge_patch_text;
  const shown = text.length > PATCH_SHOWN ? text.slice(0, PATCH_SHOWN) + "\n…" : text;
  const notes = body.merge_patch_notes || [];
  const all = body.merge_patch_note_count ?? notes.length;
  return [
    h("div", { class: "toolbar" },
      h("span", { class: "grow" }),
      h("button", { type: "button", id: "copy-merge", onclick: () => load().then((t) => t !== null && copyText(t, "Merge patch copied")) }, "Copy merge patch"),
      h("button", { type: "button", id: "download-merge", onclick: () => load().then((t) => t !== null && download(t, "merge-patch.json", "application/merge-patch+json")) }, "Download merge-patch.json")),
    h("p", { class: "muted small" }, notes.length
      ? `Not exact: a merge patch reads null as "remove" and replaces arrays whole, so ${plural(all, "place")} cannot be written:`
      : "Applied to the left document (RFC 7386), it gives the right one; arrays are replaced whole."),
    notes.length ? h("ul", { class: "notes", id: "merge-notes" }, notes.slice(0, 20).map((n) => h("li", {}, h("code", {}, n.pointer || "/"), `: ${n.message}`))) : "",
    h("pre", { class: "output", id: "merge-patch" }, shown)];
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
  const lineOf = (side) => c[`${side}_line`] ?? c[`${side}_source`]?.line;
  const cell = (text, side) => h("td", { class: "mono val", title: text && text.length > 120 ? clip(text, 2000) : null },
    text === undefined ? "" : clip(text, 120), lineOf(side) ? h("span", { class: "line-no" }, ` line ${lineOf(side)}`) : "",
    c[`${side}_source`] ? h("span", { class: "source muted small", "data-side": side }, ` at ${c[`${side}_source`].pointer || "/"}${c[`${side}_source`].inner_pointer ? " ▸ " + c[`${side}_source`].inner_pointer : ""}`) : "");
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
  const line = c[`${side}_line`] ?? c[`${side}_source`]?.line;
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
