// Gate view: walk one item through format → schema → diff with POST /api/gate.
// Without JavaScript the page is a plain form (and /gate?case=NAME) that the server renders;
// this script adds live results, the gallery in one click, viewers with the failing field
// marked, "walk this call" for envelopes, and copying the function_call_output.

import { postJSON, debounce, latestOnly, persist, sizeLine, attachFile, markInTextarea,
  renderError, copyText, h, shortList, LineGutter } from "./app.js";
import { JsonViewer } from "./viewer.js";

const LIVE_LIMIT = 200_000;   // characters in all panes: larger inputs run on Ctrl/Cmd+Enter
const MARKS = { pass: "✓", fail: "✗", skipped: "–" };
const SAID = { pass: "passed", fail: "failed", skipped: "skipped" };

const form = document.getElementById("gate-form");
const fields = {
  item: document.getElementById("item"),
  schema: document.getElementById("schema"),
  original: document.getElementById("original"),
};
const panes = { schema: document.getElementById("schema-pane"), original: document.getElementById("original-pane") };
const live = document.getElementById("verdict-live");
const body = document.getElementById("result-body");
const data = JSON.parse(document.getElementById("gate-data").textContent);
const RULES = data.rules;
const GALLERY = data.gallery;

document.body.dataset.liveView = "1";

// ------------------------------------------------------------------ inputs

const gutters = {};   // line numbers and the error mark beside each input
for (const [name, ta] of Object.entries(fields)) {
  persist(ta, `gate:${name}`);
  gutters[name] = new LineGutter(ta);
  attachFile(ta, { fileInput: document.getElementById(`${name}_file`), onLoad: () => run() });
  ta.addEventListener("input", () => { status(name); scheduleLive(); });
  const clear = form.querySelector(`[data-clear="${name}"]`);
  if (clear) {
    clear.hidden = false;
    clear.addEventListener("click", () => { ta.value = ""; ta.dispatchEvent(new Event("input", { bubbles: true })); ta.focus(); });
  }
  status(name);
}
for (const [name, det] of Object.entries(panes)) if (fields[name].value.trim()) det.open = true;

function status(name, error) {
  const ta = fields[name];
  const el = document.getElementById(`${name}-status`);
  const text = ta.value;
  if (!text.trim()) { el.textContent = name === "item" ? "empty" : "not given"; return; }
  let state;
  if (error) state = h("span", { class: "bad" }, error.line ? `error at ${error.line}:${error.column}` : "error");
  else {
    try { JSON.parse(text); state = h("span", { class: "good" }, "valid JSON"); }
    catch { state = h("span", {}, "not JSON (yet)"); }
  }
  el.replaceChildren(sizeLine(text), " · ", state);
}

function request() {
  const out = { item: fields.item.value };
  for (const k of ["schema", "original"]) if (fields[k].value.trim()) out[k] = fields[k].value;
  return out;
}

// ------------------------------------------------------------------ running

const gateLatest = latestOnly((signal, req) => postJSON("/api/gate", req, { signal }));
const scheduleLive = debounce(() => {
  const total = Object.values(fields).reduce((n, ta) => n + ta.value.length, 0);
  if (fields.item.value.trim() && total <= LIVE_LIMIT) run();
}, 350);

async function run() {
  scheduleLive.cancel();
  if (!fields.item.value.trim()) { showEmpty(); return; }
  body.setAttribute("aria-busy", "true");
  const answer = await gateLatest(request());
  if (!answer) return;  // a newer run is on its way
  body.removeAttribute("aria-busy");
  if (answer.ok) render(answer.body);
  else showError(answer.body.error || { message: "The server did not answer" });
}

form.addEventListener("submit", (e) => { e.preventDefault(); run(); });
document.addEventListener("workbench:run", () => run());

function showEmpty() {
  live.textContent = ""; live.className = "headline";
  body.replaceChildren(h("p", { class: "muted", id: "placeholder" },
    "The walk appears here: format, then schema, then diff, and one verdict. New here? Load a case from the gallery below."));
}

function showError(error) {
  live.className = "headline bad";
  live.textContent = `Cannot gate: the ${error.field || "input"} could not be read`;
  const box = h("div", { id: "error" });
  renderError(box, error, {
    onJump: (e) => { const ta = fields[e.field]; if (ta) { openPane(e.field); markInTextarea(ta, e.line, e.column); } },
  });
  body.replaceChildren(box);
  if (fields[error.field]) {
    status(error.field, error);
    if (error.line) { openPane(error.field); gutters[error.field].mark(error.line, error.column); }
  }
}

function openPane(name) { if (panes[name]) panes[name].open = true; }

// ------------------------------------------------------------------ rendering the walk

function ruleSpan(numbers) {
  return numbers.length === 1 ? `rule ${numbers[0]}` : `rules ${numbers[0]}–${numbers[numbers.length - 1]}`;
}

function label(text) { return h("span", { class: "label" }, text); }

function render(r) {
  live.className = `headline ${r.execute ? "good" : "bad"}`;
  live.textContent = r.execute ? "ok — may be executed" : `Blocked: ${r.verdict} (rule ${r.rule.number})`;
  const walk = h("ol", { class: "walk", id: "walk" }, r.steps.map((s) => renderStep(s, r)));
  const parts = [walk, renderBanner(r)];
  if (r.warnings?.length) {
    parts.push(shortList(h("ul", { class: "warnings" }), r.warnings.map((w) => h("li", {},
      h("strong", {}, w.code), " ", w.message, " ",
      h("span", { class: "mono" }, `at ${w.pointer || "/"} (line ${w.line}, column ${w.column})`))), { limit: 5, noun: "warnings" }));
  }
  if (r.envelope) parts.push(renderEnvelope(r.envelope));
  body.replaceChildren(...parts);
  for (const name of Object.keys(fields)) { status(name); gutters[name].clear(); }
  // a failing format step points at its field in the item
  const failed = r.steps.find((s) => s.check === "format" && s.status === "fail" && s.line);
  if (failed) gutters.item.mark(failed.line, failed.column);
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
    else diffDetail(b, s);
  }
  const failedRule = s.rule ? RULES[s.rule - 1] : null;
  if (failedRule) {
    b.append(h("p", { class: "rule-plain" }, label(`Rule ${failedRule.number}`), " ", failedRule.text, " ", failedRule.plain),
      h("details", { class: "help spec" }, h("summary", {}, "The rule in full"), h("p", {}, failedRule.full)));
  } else {
    b.append(h("details", { class: "help spec" }, h("summary", {}, `The ${ruleSpan(s.rules)} behind this step`),
      h("ul", {}, s.rules.map((n) => { const x = RULES[n - 1]; return h("li", {}, h("strong", {}, `${x.number} `, h("code", {}, x.code)), " ", x.text, " ", x.plain); }))));
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
    b.append(h("p", { class: "found" }, label("Found"), " a completed function_call ",
      h("code", {}, s.found.name), " with call_id ", h("code", {}, s.found.call_id), " and arguments that parse as strict JSON."));
    return;
  }
  b.append(h("p", { class: "found" }, label("Found"), " ", s.reason));
  b.append(h("p", { class: "mono where" }, "field ", h("code", { class: "fail-field" }, s.field),
    s.line ? ` · item line ${s.line}, column ${s.column}` : "",
    s.line ? " " : "", s.line ? h("button", { type: "button", class: "jump", onclick: () => markInTextarea(fields.item, s.line, s.column) }, "show in input") : ""));
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
  const { el, v } = viewerBox(fields.item.value, "Item", [["error", [pointer]]]);
  el.classList.add("item-viewer");
  b.append(el);
  if (!s.located_at) v.ready.then(() => v.reveal(pointer));
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
  const { el, v } = viewerBox(s.arguments, "Parsed arguments", [["error", exists], ["warn", parents]]);
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
  if (r.function_call_output) {
    const text = JSON.stringify(r.function_call_output);
    banner.append(h("p", {}, "Attach this after running the tool (put the tool's result, as a string, in ", h("code", {}, "output"), "):"),
      h("pre", { class: "output", id: "fco" }, text),
      h("div", { class: "toolbar" }, h("button", { type: "button", id: "copy-fco", onclick: () => copyText(text, "function_call_output copied") }, "Copy function_call_output")));
  }
  return banner;
}

function renderEnvelope(env) {
  const sec = h("section", { class: "envelope", id: "envelope", "aria-labelledby": "envelope-title" },
    h("h3", { id: "envelope-title" }, `What was pasted: ${env.label}`), h("p", {}, env.message));
  if (env.calls.length) {
    sec.append(h("ul", { class: "calls" }, env.calls.map((c) => {
      const li = h("li", { class: "call", dataset: { index: String(c.index) } },
        h("div", {}, h("code", {}, c.pointer || "/"), " ", h("strong", {}, c.name || "?"), " ",
          h("span", { class: "muted" }, `call_id ${c.call_id || "?"} · ${c.dialect.replace(/_/g, " ")}${c.verdict ? ` · as is: ${c.verdict}` : ""}`)),
        h("div", { class: "toolbar" }, h("button", { type: "button", dataset: { walk: String(c.index) }, onclick: () => walk(c.json) }, "Walk this call")));
      if (c.equivalent_json) {
        li.append(h("details", { class: "equivalent" },
          h("summary", {}, `Equivalent Open Responses item — for comparison only${c.equivalent_verdict ? ` (as is: ${c.equivalent_verdict})` : ""}`),
          h("p", { class: "muted" }, c.equivalent_note),
          h("div", { class: "side" },
            h("figure", {}, h("figcaption", {}, "as pasted (" + c.dialect.replace(/_/g, " ") + ")"), h("pre", { class: "output" }, c.json)),
            h("figure", {}, h("figcaption", {}, "Open Responses item (comparison only)"), h("pre", { class: "output" }, JSON.stringify(c.equivalent, null, 2)))),
          h("button", { type: "button", dataset: { walkEquivalent: String(c.index) }, onclick: () => walk(JSON.stringify(c.equivalent, null, 2)) }, "Walk the equivalent item")));
      }
      return li;
    })));
  }
  return sec;
}

function walk(text) {
  fields.item.value = text;
  fields.item.dispatchEvent(new Event("input", { bubbles: true }));
  run();
  fields.item.scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ the gallery

for (const a of document.querySelectorAll("a[data-case]")) {
  a.addEventListener("click", (e) => {
    const c = GALLERY.find((x) => x.name === a.dataset.case);
    if (!c) return;
    e.preventDefault();
    for (const k of ["item", "schema", "original"]) {
      fields[k].value = c[k] || "";
      fields[k].dispatchEvent(new Event("input", { bubbles: true }));
    }
    for (const [name, det] of Object.entries(panes)) det.open = Boolean(c[name]);
    for (const x of document.querySelectorAll("a[data-case]")) x.classList.toggle("current", x === a);
    run();
    document.getElementById("result").scrollIntoView({ block: "nearest", behavior: "smooth" });
  });
}

// the server rendered a result (plain post or ?case=): show the live version of it
if (fields.item.value.trim()) run();
