// An Agents API session's chain, drawn as SVG by our own code: agent → turn → call → result as
// boxes and arrows (one row per call, its result beside it), subagents hanging off their
// create_subagent_call.  A drifted pin (a result whose turn_id/call_id differs from its action's
// by a character) is a broken arrow with the two ids one above the other and the differing
// characters marked; an unanswered action ends in a broken arrow to "no result"; a result that
// answers nothing hangs from a broken stub.  Each broken part is a button to its finding.
// Colours from CSS classes (gate.css) over the page's variables: both themes.  Beside the picture
// the same chain as a list for screen readers.

import { clickable, figure, s, short, textEquivalent } from "./svg.js";

// sized for 12–13 px text at scale 1 (the picture scrolls in its box rather than shrink: issue 27)
const W = 200, H = 56, ROW = 78, PAD = 10, GAPS = [34, 34, 200], STUB = 116;
const COLS = [PAD];
for (const g of GAPS) COLS.push(COLS[COLS.length - 1] + W + g);
export const MAX_LINKS = 400;

const CALL_LIKE = new Set(["function_call", "create_subagent_call", "send_subagent_input_call",
  "wait_for_subagents_call", "interrupt_subagent_call", "agent_message"]);


/** Which characters of `a` and of `b` are not in their longest common subsequence. */
export function differing(a, b) {
  a = String(a ?? ""); b = String(b ?? "");
  if (a.length > 300 || b.length > 300) return { a: new Set(), b: new Set() };
  const n = a.length, m = b.length;
  const L = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--)
    L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const inA = new Set(), inB = new Set();
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) { i++; j++; }
    else if (L[i + 1][j] >= L[i][j + 1]) inA.add(i++);
    else inB.add(j++);
  }
  while (i < n) inA.add(i++);
  while (j < m) inB.add(j++);
  return { a: inA, b: inB };
}

/** An id as <text> with its differing characters in <tspan class="diff-char">. */
function markedText(attrs, prefix, id, marks) {
  const t = s("text", attrs, prefix);
  let run = "", runMarked = false;
  const flush = () => { if (run) t.append(runMarked ? s("tspan", { class: "diff-char" }, run) : document.createTextNode(run)); run = ""; };
  [...String(id)].forEach((ch, k) => {
    const m = marks.has(k);
    if (m !== runMarked) { flush(); runMarked = m; }
    run += ch;
  });
  flush();
  return t;
}


/** Lay the links out in rows and columns: [{link, index, col, row, parent, drift?}]. */
export function layout(links, findings = []) {
  const nodes = [], rows = [];
  const newRow = () => { rows.push([null, null, null, null]); return rows.length - 1; };
  const put = (link, index, col, row, parent, extra = {}) => {
    const node = { link, index, col, row, parent, ...extra };
    rows[row][col] = node; nodes.push(node); return node;
  };
  let lastAgent = null, lastTurn = null;
  const turns = new Map(), agents = new Map(), calls = [];
  const related = (link, roles) => {
    for (const fi of link.findings || []) {
      for (const r of findings[fi]?.related || []) if (roles.includes(r.role) && r.call_id) return { finding: fi, place: r };
    }
    return null;
  };
  links.slice(0, MAX_LINKS).forEach((link, index) => {
    const obj = link.object;
    const last = rows.length - 1;
    if (obj === "agent") {
      lastAgent = put(link, index, 0, newRow(), null);
      if (link.id) agents.set(link.id, lastAgent);
      lastTurn = null;
    } else if (obj === "turn") {
      const row = last >= 0 && rows[last][0] && !rows[last][1] && !rows[last][2] ? last : newRow();
      lastTurn = put(link, index, 1, row, lastAgent);
      if (link.id) turns.set(link.id, lastTurn);
    } else if (obj === "tool_result") {
      const free = (n) => !rows[n.row][3];
      let call = calls.find((n) => n.link.object === "function_call" && free(n) && n.link.call_id === link.call_id
        && (!n.link.turn_id || !link.turn_id || n.link.turn_id === link.turn_id));
      let drift = null;
      if (!call) {
        const rel = related(link, ["action", "call", "second", "first"]);
        const target = rel && calls.find((n) => n.link.object === "function_call" && free(n) && n.link.call_id === rel.place.call_id
          && (!rel.place.turn_id || n.link.turn_id === rel.place.turn_id));
        call = target || calls.find((n) => n.link.object === "function_call" && free(n) && n.link.call_id === link.call_id);
        if (call) drift = { finding: rel ? rel.finding : (link.findings || [])[0] ?? null };
      }
      if (call) put(link, index, 3, call.row, call, { drift });
      else put(link, index, 3, newRow(), null, { orphan: true });
    } else if (obj === "subagent") {
      const free = (n) => n.link.object === "create_subagent_call" && !rows[n.row][3];
      const via = calls.find((n) => free(n) && n.link.subagent_id && n.link.subagent_id === link.id)
        || [...calls].reverse().find(free);
      if (via) put(link, index, 3, via.row, via);
      else if (link.via) {
        // the subagent names the item that made it: draw that item, the subagent hanging off it
        const row = newRow();
        const made = put({ object: link.via, id: link.via_id, subagent_id: link.id, agent_id: link.agent_id,
          pointer: link.pointer, line: link.line, column: link.column }, index, 2, row, agents.get(link.agent_id) || lastTurn || lastAgent, { implied: true });
        calls.push(made);
        put(link, index, 3, row, made);
      } else put(link, index, 3, newRow(), agents.get(link.agent_id) || lastAgent);
    } else {   // function_call and the orchestration items (and anything new: a call-like box)
      const parent = (link.turn_id && turns.get(link.turn_id)) || lastTurn || lastAgent;
      const row = last >= 0 && parent && rows[last][1] === parent && !rows[last][2] ? last : newRow();
      // a call made by a subagent (agent_id / from naming one) also hangs from that subagent
      const by = nodes.find((n) => n.link.object === "subagent" && n.link.id && (n.link.id === link.agent_id || n.link.id === link.from));
      calls.push(put(link, index, 2, row, parent, by ? { by } : {}));
    }
  });
  return { nodes, rows: rows.length };
}

function boxLines(link) {
  const o = link.object;
  // an id the paste does not give is said to be unknown (its reason in the text list), never null
  if (o === "agent") return ["agent", link.id ?? (link.unknown ? "id unknown" : null)];
  if (o === "turn") return ["turn", link.id];
  if (o === "function_call") return [`function_call${link.pending ? " · pending" : " · history"}`, link.name, link.call_id];
  if (o === "tool_result") return [`tool_result · ${link.success === true ? "success" : link.success === false ? "failed" : link.success === undefined ? "success missing" : "success not boolean"}`, link.call_id, link.turn_id];
  if (o === "subagent") return ["subagent", link.id ?? (link.unknown ? "id unknown" : null), link.via ? `via ${link.via}` : null];
  return [o, link.name || link.id, link.subagent_id ? `→ ${link.subagent_id}` : link.from ? `from ${link.from}` : null];
}

function describe(node, nodes, findings) {
  const l = node.link;
  const parts = boxLines(l).filter(Boolean).join(" ");
  const parent = node.parent ? ` ← ${boxLines(node.parent.link).slice(0, 2).filter(Boolean).join(" ")}` : "";
  const codes = (l.findings || []).map((fi) => findings[fi]?.code).filter(Boolean);
  let text = `${parts}${parent}`;
  if (node.drift && node.parent) text += ` (drifted pin: the action has turn_id ${node.parent.link.turn_id}, call_id ${node.parent.link.call_id}; the result ${l.turn_id}, ${l.call_id})`;
  if (node.orphan) text += " (answers no action)";
  if (node.by) text += ` (called by the subagent ${node.by.link.id})`;
  if (l.unknown) text += ` (id unknown: ${l.unknown})`;
  if (l.broken || codes.length) text += ` — broken${codes.length ? ": " + codes.join(", ") : ""}`;
  return text;
}

/**
 * Draw the chain.  `chain`: the report's `{session_id, links}`; `onFinding(i)` goes to a
 * finding; `onLine(line, column)` marks a place in the input.  Returns a <figure>.
 */
export function drawChain(chain, findings, { onFinding = () => {}, onLine = null } = {}) {
  const links = chain?.links || [];
  const { nodes, rows } = layout(links, findings);
  // columns left of the first one drawn are left out (a lone result does not start after three
  // blank ones); an orphan result in the first column keeps room for its "no action" stub
  const first = nodes.length ? Math.min(...nodes.map((n) => n.col)) : 0;
  const stub = nodes.some((n) => n.orphan && n.col === first) ? STUB : 0;
  const shift = COLS[first] - PAD - stub;
  const C = COLS.map((x) => x - shift);
  const width = C[3] + W + PAD;
  const height = Math.max(1, rows) * ROW + PAD;
  const svg = s("svg", { class: "chain-svg", viewBox: `0 0 ${width} ${height}`, width, height, role: "group",
    "aria-label": `Session chain${chain?.session_id ? " of " + chain.session_id : ""} (the list below says the same)` });
  const X = (n) => C[n.col], Y = (n) => PAD + n.row * ROW;
  const arrows = s("g", { class: "chain-arrows" }), boxes = s("g", { class: "chain-boxes" });
  svg.append(s("defs", {},
    s("marker", { id: "chain-head", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      s("path", { d: "M0 0 L10 5 L0 10 z", class: "chain-head" }))), arrows, boxes);

  const firstFinding = (link) => ((link.findings || []).length ? link.findings[0] : null);

  for (const node of nodes) {
    const l = node.link, x = X(node), y = Y(node);
    const broken = Boolean(l.broken || (l.findings || []).length || node.orphan);
    // the arrow from the parent
    if (node.parent) {
      const p = node.parent, px = X(p), py = Y(p);
      const same = p.row === node.row;
      const d = same ? `M${px + W} ${py + H / 2} L${x - 2} ${y + H / 2}` : `M${px + 16} ${py + H} L${px + 16} ${y + H / 2} L${x - 2} ${y + H / 2}`;
      if (node.drift) {
        const mid = (px + W + x) / 2;
        const g = s("g", { class: "chain-drift", "data-finding": node.drift.finding ?? "" },
          s("title", {}, "A drifted pin: the result's pair differs from its action's"),
          s("rect", { x: px + W + 2, y: y - 4, width: x - px - W - 4, height: H + 8, class: "hit" }),
          s("path", { d: `M${px + W} ${y + H / 2} L${mid - 16} ${y + H / 2}`, class: "chain-arrow broken" }),
          s("path", { d: `M${mid - 12} ${y + H / 2 - 9} l8 6 l-8 6 l8 6`, class: "chain-zigzag" }),
          s("path", { d: `M${mid + 8} ${y + H / 2} L${x - 2} ${y + H / 2}`, class: "chain-arrow broken", "marker-end": "url(#chain-head)" }));
        const field = p.link.call_id !== l.call_id ? "call_id" : "turn_id";
        const expected = p.link[field], written = l[field];
        const marks = differing(expected, written);
        g.append(markedText({ x: px + W + 8, y: y + H / 2 - 12, class: "chain-id expected" }, "", expected ?? "", marks.a),
          markedText({ x: px + W + 8, y: y + H / 2 + 22, class: "chain-id written" }, "", written ?? "", marks.b));
        g.append(s("title", {}, `${field}: the action has ${expected}, the result ${written}`));
        const fi = node.drift.finding ?? firstFinding(l);
        if (fi !== null && fi !== undefined) clickable(g, `Broken link: drifted ${field}, ${expected} in the action, ${written} in the result. Go to the finding.`, () => onFinding(fi));
        arrows.append(g);
      } else {
        arrows.append(s("path", { d, class: `chain-arrow${node.col === 3 && l.object === "subagent" ? " subagent" : ""}`, "marker-end": "url(#chain-head)" }));
      }
    } else if (node.orphan) {
      const fi = firstFinding(l);
      const g = s("g", { class: "chain-orphan" }, s("title", {}, "A result that answers no action"),
        s("rect", { x: x - STUB, y, width: STUB - 2, height: H, class: "hit" }),
        s("path", { d: `M${x - 70} ${y + H / 2} L${x - 40} ${y + H / 2}`, class: "chain-arrow broken" }),
        s("path", { d: `M${x - 36} ${y + H / 2 - 9} l8 6 l-8 6 l8 6`, class: "chain-zigzag" }),
        s("path", { d: `M${x - 22} ${y + H / 2} L${x - 2} ${y + H / 2}`, class: "chain-arrow broken", "marker-end": "url(#chain-head)" }),
        s("text", { x: x - STUB + 2, y: y + H / 2 - 10, class: "chain-id" }, "no action"));   // above the broken arrow, never struck through
      if (fi !== null) { clickable(g, "Broken link: this result answers no action. Go to the finding.", () => onFinding(fi)); g.dataset.finding = String(fi); }
      arrows.append(g);
    }
    // the box
    const lines = boxLines(l);
    const g = s("g", { class: `chain-node chain-${l.object}${broken ? " broken" : ""}`, "data-index": node.index, "data-object": l.object },
      s("title", {}, lines.filter(Boolean).join(" · ")),
      s("rect", { x, y, width: W, height: H, rx: 6, class: "chain-box" }),
      s("text", { x: x + 8, y: y + 17, class: "chain-kind" }, short(lines[0], 26)),
      lines[1] ? s("text", { x: x + 8, y: y + 34, class: "chain-id" }, short(lines[1], 25)) : null,
      lines[2] ? s("text", { x: x + 8, y: y + 50, class: "chain-id muted" }, short(lines[2], 25)) : null);
    const fi = firstFinding(l);
    if (broken && fi !== null && !node.drift) {
      clickable(g, `${lines.filter(Boolean).join(" ")}: broken (${findings[fi]?.code || "see the findings"}). Go to the finding.`, () => onFinding(fi));
      g.dataset.finding = String(fi);
    } else if (onLine && l.line) {
      clickable(g, `${lines.filter(Boolean).join(" ")}: mark line ${l.line} in the input`, () => onLine(l.line, l.column));
    }
    boxes.append(g);
  }
  // a call attributed to a subagent: a broken arrow from the subagent (subagents run no function tools)
  for (const node of nodes) {
    if (!node.by) continue;
    const sx = C[node.by.col] + W / 2, sy = PAD + node.by.row * ROW + H, y = PAD + node.row * ROW + H / 2;
    const fi = firstFinding(node.link);
    const g = s("g", { class: "chain-by", "data-finding": fi ?? "" }, s("title", {}, `Called by the subagent ${node.by.link.id}`),
      s("path", { d: `M${sx} ${sy} L${sx} ${y} L${C[2] + W + 2} ${y}`, class: "chain-arrow broken", "marker-end": "url(#chain-head)" }),
      s("text", { x: sx - 8, y: y - 6, class: "chain-id written", "text-anchor": "end" }, `called by ${short(node.by.link.id, 18)}`));
    if (fi !== null) clickable(g, `Broken link: ${node.link.name || "a function call"} is attributed to the subagent ${node.by.link.id}. Go to the finding.`, () => onFinding(fi));
    arrows.append(g);
  }
  // a pending action without a result: a broken arrow to "no result"
  for (const node of nodes) {
    const l = node.link;
    if (l.object !== "function_call" || !l.pending) continue;
    if (nodes.some((n) => n.parent === node && n.col === 3)) continue;
    const codes = (l.findings || []).filter((fi) => findings[fi]?.code === "action_unanswered");
    if (!codes.length) continue;
    const x = C[3], y = PAD + node.row * ROW, px = C[2] + W;
    const g = s("g", { class: "chain-unanswered", "data-finding": codes[0] }, s("title", {}, "No tool_result answers this action"),
      s("rect", { x: px, y, width: x + W - px, height: H, class: "hit" }),
      s("path", { d: `M${px} ${y + H / 2} L${px + 80} ${y + H / 2}`, class: "chain-arrow broken" }),
      s("path", { d: `M${px + 84} ${y + H / 2 - 9} l8 6 l-8 6 l8 6`, class: "chain-zigzag" }),
      s("rect", { x, y, width: W, height: H, rx: 6, class: "chain-box missing" }),
      s("text", { x: x + 8, y: y + 34, class: "chain-kind" }, "no result"));
    clickable(g, `Broken link: no tool_result answers ${l.name || ""} ${l.call_id || ""}. Go to the finding.`, () => onFinding(codes[0]));
    arrows.append(g);
  }

  const list = textEquivalent(svg, "chain-text");
  for (const node of nodes) {
    const li = document.createElement("li");
    li.textContent = describe(node, nodes, findings);
    list.append(li);
  }
  if (links.length > MAX_LINKS) {
    const li = document.createElement("li");
    li.textContent = `${links.length - MAX_LINKS} more links are not drawn.`;
    list.append(li);
  }
  return figure("chain", `Chain${chain?.session_id ? " of session " + chain.session_id : ""}: agent → turn → call → result`,
    svg, list, "The chain");
}
