// The Gate page's report for what is not one item: a transcript, a stream or an Agents session
// (POST /api/transcript; the shape is documented in workbench/transcript/__init__.py).
//
//   sniff(text)            "empty" | "item" | "transcript" | "ask" (a cheap look at the lines;
//                          one JSON value is "ask": post to /api/transcript, its `kind` says)
//   renderReport(r, ctx)   {nodes, headline, good, goToFinding(i)}: the kind and a one-line count,
//                          the calls with their verdicts (a click walks one through the gate),
//                          the findings grouped by severity with their places as links into the
//                          input, a stream's timeline, a session's chain
//   callItem(r, call, text, tools)  {item, schema, dialect}: what to walk one call through the gate
//                          with (dialect: the rule table the server's verdict came from)
//
// Long lists (a 20 MB log) are shown a hundred rows at a time with "show more": the server did
// the work, the page only lays out what is on screen.

import { h, copyText } from "./app.js";
import { drawTimeline } from "./timeline.js";
import { drawChain, differing } from "./chain.js";
import { threshold } from "./thresholds.js";
import { replaySection } from "./replay.js";

export const CHUNK = 100;            // rows of a list laid out at once
const PARSE_LIMIT = threshold("parse");       // characters: a larger text is not parsed in the page

export const KIND_LABEL = {
  response: "response", item_list: "item list", response_stream: "response stream",
  chat_completion: "Chat Completions response", chat_messages: "Chat Completions messages",
  chat_stream: "Chat Completions stream", agents_session: "Agents API session", item: "one item",
  chat_tool_calls: "Chat Completions tool calls", unknown: "an unrecognised shape",
  anthropic_messages: "Anthropic Messages", anthropic_stream: "Anthropic Messages stream",
  gemini_contents: "Gemini contents", gemini_stream: "Gemini stream", otel_trace: "OpenTelemetry trace",
};
const SEVERITIES = [["error", "Errors", "✗"], ["warning", "Warnings", "!"], ["info", "Notes", "i"]];

export function plural(n, word, many = word + "s") {
  return `${Number(n).toLocaleString("en-US")} ${n === 1 ? word : many}`;
}

const SSE_START = /^(?:event|data|id|retry):/;
const EVENT_LINE = /^\s*\{\s*"(?:type|object)"\s*:\s*"(?:response\.|chat\.completion\.chunk|agent\.session\.)/;

/** A cheap look at the text: a transcript / stream / session by its lines, else "ask": what one
 *  JSON value is, the server's one classifier says (the transcript's `kind`; "item" goes to the
 *  gate).  Never a second classifier of JSON values here. */
export function sniff(text) {
  const t = text.trimStart();
  if (!t) return "empty";
  if (t[0] === "[" || SSE_START.test(t) || t[0] === ":") return "transcript";
  const head = t.slice(0, 65536);
  if (t[0] !== "{") return /^(?:event|data):/m.test(head) ? "transcript" : "item";
  if (t.length > PARSE_LIMIT) return "ask";
  try {
    JSON.parse(t);
    return "ask";
  } catch {
    // JSON Lines (its first line may be cut short): one of the first lines is a whole value on
    // its own, or reads like an event; or SSE with a prefix
    const lines = head.split("\n").filter((l) => l.trim());
    if (lines.length > 1) {
      if (lines.slice(0, 5).some((l) => EVENT_LINE.test(l))) return "transcript";
      for (const l of lines.slice(0, 5)) {
        if (!/^\s*[{[]/.test(l)) continue;   // a whole object or array on one line
        try { JSON.parse(l); return "transcript"; } catch { /* next */ }
      }
    }
    return /^(?:event|data):/m.test(head) ? "transcript" : "item";
  }
}

/** "response stream · 3 calls · 2 errors · 1 warning" */
export function summaryLine(r) {
  const sev = counts(r.findings || []);
  const s = r.summary || {};
  const parts = [KIND_LABEL[r.kind] || r.kind, plural(s.calls ?? (r.calls || []).length, "call")];
  if (s.blocked) parts.push(`${Number(s.blocked).toLocaleString("en-US")} blocked`);
  if (s.outputs) parts.push(plural(s.outputs, "output"));
  parts.push(plural(s.errors ?? sev.error, "error"), plural(s.warnings ?? sev.warning, "warning"));
  const infos = s.infos ?? sev.info;
  if (infos) parts.push(plural(infos, "note"));
  return parts.join(" · ");
}

function counts(findings) {
  const c = { error: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity] = (c[f.severity] || 0) + 1;
  return c;
}

// ------------------------------------------------------------------ the item of a call

function resolve(value, pointer) {
  if (!pointer) return value;
  let v = value;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (v === null || typeof v !== "object") return undefined;
    v = Array.isArray(v) ? v[Number(key)] : v[key];
  }
  return v;
}

/** The JSON value of the piece a place is in: the whole text, or one line (JSON Lines, SSE). */
function pieceAt(r, text, line, cache) {
  if (r.source === "json" || !r.source) {
    if (!("whole" in cache)) { try { cache.whole = text.length <= 4 * PARSE_LIMIT ? JSON.parse(text) : undefined; } catch { cache.whole = undefined; } }
    return cache.whole;
  }
  let start = 0;
  for (let l = 1; l < line && start !== -1; l++) { const nl = text.indexOf("\n", start); start = nl === -1 ? -1 : nl + 1; }
  if (start === -1) return undefined;
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  let src = text.slice(start, end).trim();
  const m = /(?:^|\s)data:\s?/.exec(src);
  if (r.source === "sse" && m) src = src.slice(m.index + m[0].length);
  try { return JSON.parse(src); } catch { return undefined; }
}

function toolsIn(value) {
  if (!value || typeof value !== "object") return null;
  for (const t of [value.agent?.tools, value.session?.agent?.tools, value.tools, value.response?.tools]) {
    if (Array.isArray(t) && t.length) return t;
  }
  return null;
}

/** The item text (and tools, when the pasted text carries them) to walk one call through the gate. */
export function callItem(r, call, text, schemaText, cache = {}) {
  // `walk`: the item the server's dialect maps a call to when the gate does not walk it as it
  // is (a Chat tool call: the Open Responses item with the choice's stop state)
  let item = call.walk ?? call.item ?? call.item_value;
  if (call.walk === undefined && typeof call.json === "string") item = call.json;
  if (item === undefined && (r.items || []).length) {
    item = r.items.find((it) => it && (it.call_id === call.call_id || (call.id && it.id === call.id)) && it.type === "function_call");
    if (!item) {  // a Chat stream: the rebuilt assistant message holds the tool call
      for (const m of r.items) for (const tc of m?.tool_calls || []) if (tc.id === call.call_id) item = tc;
    }
  }
  let root;
  if (item === undefined && !cache.big) {
    root = pieceAt(r, text, call.line, cache);
    item = resolve(root, call.pointer);
  }
  let schema = schemaText || null;
  // the text's own tools, as the server gated with them (none when it could not read them)
  if (!schema && !cache.big && !r.tools_unread) {
    const tools = toolsIn(root ?? (r.source === "json" ? pieceAt(r, text, 1, cache) : pieceAt(r, text, 2, cache))) ?? toolsIn(cache.whole);
    if (tools) schema = JSON.stringify(tools, null, 2);
  }
  if (item === undefined) return null;
  return { item: typeof item === "string" ? item : JSON.stringify(item, null, 2), schema, dialect: call.rules };
}

// ------------------------------------------------------------------ lists shown a chunk at a time

function chunked(list, make, total, noun) {
  let shown = 0;
  const ul = h("ul", { class: list.className });
  const moreLi = h("li", { class: "more-row" });
  const more = h("button", { type: "button", class: "more" });
  moreLi.append(more);
  const step = (upTo = shown + CHUNK) => {
    moreLi.remove();
    const frag = document.createDocumentFragment();
    for (; shown < Math.min(upTo, list.items.length); shown++) frag.append(make(list.items[shown], shown));
    ul.append(frag);
    const rest = list.items.length - shown;
    if (rest > 0) { more.textContent = `Show ${Math.min(rest, CHUNK).toLocaleString("en-US")} more of ${rest.toLocaleString("en-US")} ${noun}`; ul.append(moreLi); }
  };
  more.addEventListener("click", () => step());
  step();
  ul.showUpTo = (k) => { if (k >= shown) step(k + 1); };
  return ul;
}

// ------------------------------------------------------------------ places

function placeButton(place, ctx, label) {
  if (!place || !place.line) return null;
  const text = label || `line ${place.line}, column ${place.column ?? 1}`;
  return h("button", { type: "button", class: "place linkish", dataset: { line: String(place.line), column: String(place.column ?? 1) },
    title: place.pointer ? `JSON Pointer ${place.pointer}` : undefined,
    onclick: () => ctx.onPlace(place.line, place.column ?? 1) }, text);
}

/** The id written at a finding's own place (the output's or the result's call_id). */
function writtenId(f, field, ctx) {
  if (typeof f[field] === "string") return f[field];
  const v = ctx.valueAt ? ctx.valueAt(f) : undefined;
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && typeof v[field] === "string") return v[field];
  return null;
}

function idPair(written, expected) {
  const d = differing(written, expected);
  const marked = (id, set) => h("code", { class: "id" }, [...String(id)].map((ch, k) => set.has(k) ? h("mark", { class: "diff-char" }, ch) : ch));
  return h("span", { class: "id-pair" },
    h("span", { class: "id-row" }, h("span", { class: "muted" }, "written "), marked(written, d.a)),
    h("span", { class: "id-row" }, h("span", { class: "muted" }, "expected "), marked(expected, d.b)));
}

// ------------------------------------------------------------------ findings

function findingItem(f, i, ctx) {
  const li = h("li", { class: `finding sev-${f.severity}`, id: `finding-${i}`, tabindex: "-1",
    dataset: { code: f.code, severity: f.severity, index: String(i), line: f.line ? String(f.line) : "" } });
  const mark = SEVERITIES.find(([s]) => s === f.severity)?.[2] || "·";
  li.append(h("div", { class: "finding-head" },
    h("span", { class: `sev-mark sev-${f.severity}`, "aria-hidden": "true" }, mark),
    h("span", { class: "sr-only" }, `${f.severity}:`), " ",
    h("code", { class: "finding-code" }, f.code), " ",
    h("span", { class: "finding-message" }, f.message)));
  const where = h("div", { class: "finding-where mono" });
  const btn = placeButton(f, ctx, f.line ? `line ${f.line}, column ${f.column ?? 1}` : null);
  if (btn) where.append("at ", btn);
  if (f.pointer !== undefined && f.pointer !== null) where.append(" ", h("code", {}, f.pointer || "/"));
  if (f.event !== undefined && f.event !== null) where.append(h("span", { class: "muted" }, ` · event ${f.event}`));
  if (f.schema) where.append(h("span", { class: "muted" }, ` · spec schema ${f.schema}${f.keyword ? `, keyword ${f.keyword}` : ""}`));
  if (f.rule) where.append(h("span", { class: "muted" }, f.rule === "spec" ? " · the spec's rule" : " · the gate's rule"));
  if (where.childNodes.length) li.append(where);
  const related = (f.related || []).filter(Boolean);
  if (related.length) {
    li.append(h("ul", { class: "related" }, related.slice(0, 20).map((p) => {
      const row = h("li", {}, h("span", { class: "role" }, p.role || "place"), " ");
      const b = placeButton(p, ctx);
      if (b) row.append(b, " ");
      if (p.call_id) row.append(h("span", { class: "muted" }, "call_id "), h("code", {}, p.call_id), " ");
      if (p.turn_id) row.append(h("span", { class: "muted" }, "turn_id "), h("code", {}, p.turn_id), " ");
      if (p.diff || f.code === "near_miss_id" || f.code === "result_pair_mismatch") {
        const field = p.turn_id && !p.call_id ? "turn_id" : "call_id";
        const written = writtenId(f, field, ctx);
        if (written && p[field] && written !== p[field]) row.append(idPair(written, p[field]));
      }
      return row;
    })));
  }
  return li;
}

function findingsSection(r, ctx) {
  const findings = r.findings || [];
  const sec = h("section", { class: "findings", id: "findings", "aria-labelledby": "findings-title" },
    h("h3", { id: "findings-title" }, findings.length ? `Findings (${findings.length.toLocaleString("en-US")})` : "Findings"));
  const lists = {};
  if (!findings.length) sec.append(h("p", { class: "good" }, "No finding: the items hang together."));
  for (const [sev, title] of SEVERITIES) {
    const idx = [];
    findings.forEach((f, i) => { if (f.severity === sev) idx.push(i); });
    if (!idx.length) continue;
    const group = h("section", { class: `sev-group sev-${sev}`, dataset: { severity: sev } },
      h("h4", {}, `${title} (${idx.length.toLocaleString("en-US")})`));
    const ul = chunked({ className: "finding-list", items: idx }, (fi) => findingItem(findings[fi], fi, ctx), idx.length, title.toLowerCase());
    lists[sev] = { ul, idx };
    group.append(ul);
    sec.append(group);
  }
  if (r.truncated?.findings) sec.append(h("p", { class: "muted" }, `${plural(r.truncated.findings, "more finding")} left off over the limits.`));
  if (r.spec?.note && findings.some((f) => f.code === "spec_schema")) sec.append(h("p", { class: "muted spec-note" }, r.spec.note));
  sec.goTo = (i) => {
    const f = findings[i];
    if (!f) return null;
    const list = lists[f.severity];
    if (list) list.ul.showUpTo(list.idx.indexOf(i));
    return document.getElementById(`finding-${i}`);
  };
  return sec;
}

// ------------------------------------------------------------------ calls

function callItemRow(c, i, r, ctx) {
  const ok = c.verdict === "ok" || c.execute === true;
  const li = h("li", { class: `call ${ok ? "ok" : "blocked"}`, dataset: { index: String(i), verdict: c.verdict || "" } });
  li.append(h("div", { class: "call-head" },
    h("span", { class: `verdict-chip ${ok ? "ok" : "blocked"}` }, h("span", { "aria-hidden": "true" }, ok ? "✓ " : "✗ "), c.verdict || "?"), " ",
    h("strong", {}, c.name || "?"), " ",
    h("span", { class: "muted" }, [`call_id ${c.call_id || "?"}`, c.turn_id ? `turn_id ${c.turn_id}` : null, c.id ? `id ${c.id}` : null,
      (c.dialect || "").replace(/_/g, " "), c.role || (c.pending === true ? "pending" : c.pending === false ? "history" : null)].filter(Boolean).join(" · "))));
  if (c.caller) li.append(callerLine(c.caller, ctx));
  const bar = h("div", { class: "toolbar" });
  const place = placeButton(c, ctx);
  if (place) bar.append(place);
  bar.append(h("button", { type: "button", class: "walk-call", dataset: { walk: String(i) }, onclick: () => ctx.onWalk(c, i) }, "Walk this call"));
  li.append(bar);
  if (c.reason) li.append(h("p", { class: "call-reason" }, c.reason));
  if (c.report) li.append(h("details", { class: "host-report" }, h("summary", {}, "Host validation report (door 2)"), h("pre", { class: "output" }, JSON.stringify(c.report, null, 1))));
  if (c.tool_result) {
    const text = JSON.stringify(c.tool_result);
    li.append(h("details", { class: "tool-result" }, h("summary", {}, `The tool_result to send (success: ${c.tool_result.success})`),
      h("pre", { class: "output" }, text),
      h("button", { type: "button", onclick: () => copyText(text, "tool_result copied") }, "Copy tool_result")));
  }
  return li;
}

/** A call a program made (programmatic tool calling): its link to the calling item, a button
 *  that marks that item in the input, or why the item is not in the text. */
function callerLine(caller, ctx) {
  const p = h("p", { class: "call-caller", dataset: { callerId: caller.caller_id || "" } },
    "Called by the program ", h("code", {}, caller.caller_id || "with no caller_id"));
  const b = placeButton(caller, ctx, `${caller.type || "item"} at line ${caller.line}, column ${caller.column ?? 1}`);
  if (b) { b.classList.add("caller-place"); p.append(" — its ", b); }
  else if (caller.missing) p.append(" — ", h("span", { class: "muted" }, caller.missing));
  return p;
}

function callsSection(r, ctx) {
  const calls = r.calls || [];
  const sec = h("section", { class: "calls-section", id: "calls", "aria-labelledby": "calls-title" },
    h("h3", { id: "calls-title" }, `Calls (${calls.length.toLocaleString("en-US")})`));
  if (!calls.length) { sec.append(h("p", { class: "muted" }, "No function call found.")); return sec; }
  sec.append(h("p", { class: "muted" }, "Each call is gated by the rules of its own dialect; walk one to see every check."));
  sec.append(chunked({ className: "calls", items: calls }, (c, i) => callItemRow(c, i, r, ctx), calls.length, "calls"));
  if (r.truncated?.calls) sec.append(h("p", { class: "muted" }, `${plural(r.truncated.calls, "more call")} left off over the limits.`));
  return sec;
}

// ------------------------------------------------------------------ the report

function terminalOf(r, text) {
  const missing = (r.findings || []).map((f, i) => [f, i]).filter(([f]) => f.code === "stream_no_terminal");
  if (missing.length) return { missing: true, findings: missing.map(([, i]) => i) };
  if (r.terminal) return r.terminal;
  // the last terminal event in the text (looked for in its tail only)
  const tail = text.slice(-65536);
  if (r.kind === "gemini_stream") {
    // a Gemini stream ends with the chunk that carries the candidate's finishReason
    const reasons = [...tail.matchAll(/"finishReason"\s*:\s*"?([A-Z_0-9]+)/g)];
    return { type: reasons.length ? `finishReason ${reasons[reasons.length - 1][1]}` : "last chunk" };
  }
  const all = [...tail.matchAll(/"type"\s*:\s*"(response\.(?:completed|failed|incomplete)|message_stop)"/g)];
  return all.length ? { type: all[all.length - 1][1] } : { type: r.kind === "chat_stream" ? "finish_reason / [DONE]" : "terminal event" };
}

export function renderReport(r, ctx) {
  const findings = r.findings || [];
  const sev = counts(findings);
  const headline = summaryLine(r);
  const cache = { big: Boolean(ctx.big) };
  ctx.valueAt = (place) => (ctx.big || !place?.line ? undefined : resolve(pieceAt(r, ctx.text || "", place.line, cache), place.pointer));
  const head = h("section", { class: "report-head", id: "report", dataset: { kind: r.kind } },
    h("h3", {}, `What was pasted: ${KIND_LABEL[r.kind] || r.kind}`),
    h("p", { class: "summary-line", id: "summary-line" }, headline),
    h("p", { class: "muted" }, [r.source ? `read as ${r.source.replace(/_/g, " ")}` : null,
      r.summary?.events ? plural(r.summary.events, "event") : null,
      r.summary?.items ? plural(r.summary.items, r.summary.item_word || "item") : null,
      r.summary?.lines ? plural(r.summary.lines, "line") : null].filter(Boolean).join(" · ")),
    r.tools_unread ? h("p", { class: "muted tools-unread" }, r.tools_unread) : null);
  const fsec = findingsSection(r, ctx);
  const goToFinding = (i) => {
    const el = fsec.goTo(i);
    if (!el) return;
    for (const x of document.querySelectorAll(".finding.current")) x.classList.remove("current");
    el.classList.add("current");
    el.scrollIntoView({ block: "center" });
    el.focus({ preventScroll: true });
    if (findings[i]?.line) ctx.onPlace(findings[i].line, findings[i].column ?? 1, { focus: false });
  };
  const nodes = [head];
  const replay = replaySection(r, ctx);   // "Replay to…": the same conversation in another dialect
  if (replay) nodes.push(replay);
  if (Array.isArray(r.timeline) && r.timeline.length) {
    nodes.push(drawTimeline(r.timeline, findings, { terminal: terminalOf(r, ctx.text || ""), onFinding: goToFinding,
      onLine: (line) => ctx.onPlace(line, 1), kind: r.kind }));
  } else if (r.kind === "response_stream" || r.kind === "chat_stream") {
    const t = terminalOf(r, ctx.text || "");
    if (t.missing) nodes.push(drawTimeline([], findings, { terminal: t, onFinding: goToFinding }));
  }
  if (r.chain && (r.chain.links || []).length) {
    nodes.push(drawChain(r.chain, findings, { onFinding: goToFinding, onLine: (line, column) => ctx.onPlace(line, column) }));
  }
  const walkBox = h("section", { class: "call-walk", id: "call-walk", "aria-live": "polite", hidden: true });
  nodes.push(fsec, callsSection(r, ctx), walkBox);
  // green only when no error is found and no call is blocked
  return { nodes, headline, good: sev.error === 0 && !(r.summary || {}).blocked, goToFinding, walkBox };
}
