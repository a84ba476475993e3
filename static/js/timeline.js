// A stream's timeline, drawn as SVG by our own code: one row per output item (type, id, name),
// its events folded into a bar of added → deltas → done, and the terminal event at the end.
// A row with a broken order, a missing step or a missing end is drawn broken (dashed, in the
// error colour, with a break mark) and is a button that goes to its finding.
// Colours come from CSS classes (gate.css) that use the page's variables, so both themes work.
// Beside the picture: the same content as a list for screen readers (and for copying).

import { clickable, figure, s, short, textEquivalent } from "./svg.js";
import { plural } from "./text.js";

// sized for 12–13 px text at scale 1 (the picture scrolls in its box rather than shrink: issue 27)
const ROW_H = 36, LABEL_W = 210, SEG_W = [64, 120, 64], GAP = 12, PAD = 8, END_W = 128;
export const MAX_ROWS = 300;


/** Fold a row's event counts into the three segments of the bar.  A Chat Completions row counts
 *  its chunks' fields (content, tool_calls, finish_reason…): the first chunk opens the item, the
 *  rest are its deltas, finish_reason (or the row's status) closes it.  An Anthropic block row
 *  counts content_block_start / _delta / _stop; a Gemini part row the chunks that carried it
 *  and its candidate's finishReason. */
// an Anthropic Messages block's events: start → added, deltas, stop → done
const BLOCK_EVENTS = { content_block_start: "added", content_block_delta: "deltas", content_block_stop: "done" };

export function fold(events = {}, row = {}) {
  const seg = { added: 0, deltas: 0, done: 0, other: 0, chat: false };
  const types = Object.keys(events);
  if (types.some((k) => k in BLOCK_EVENTS)) {
    for (const [type, n] of Object.entries(events)) {
      if (type in BLOCK_EVENTS) seg[BLOCK_EVENTS[type]] += n; else seg.other += n;
    }
    return seg;
  }
  if ("chunks" in events) {
    // a Gemini part: the first chunk that carries it opens it, the next ones add to it, the
    // candidate's finishReason closes it
    const n = events.chunks || 0;
    return { added: n ? 1 : 0, deltas: Math.max(0, n - 1), done: events.finishReason || 0, other: 0, chat: true };
  }
  if (types.length && !types.some((k) => k.includes("."))) {
    let total = 0;
    for (const [k, n] of Object.entries(events)) if (k !== "finish_reason") total += n;
    const finish = events.finish_reason || 0;
    return { added: total ? 1 : 0, deltas: Math.max(0, total - 1), done: finish || (row.status ? 1 : 0), other: 0, chat: true };
  }
  for (const [type, n] of Object.entries(events)) {
    if (type.endsWith(".added")) seg.added += n;
    else if (type.endsWith(".delta")) seg.deltas += n;
    else if (type.endsWith(".done")) seg.done += n;
    else seg.other += n;
  }
  return seg;
}

/** The middle of a row counted in chunks (a Gemini part, a Chat text or tool call): the chunks
 *  after the first that carried it -- a part that came whole in one chunk has none more (not
 *  "0 chunks": it came in one). */
function moreChunks(n) {
  return n ? `${n} more chunk${n === 1 ? "" : "s"}` : "no more chunks";
}

/** The findings that break a row: the stream's own (order, ids, arguments, bad lines) and any
 *  error; a spec warning or a note about the item does not break its row. */
export function breaking(row, findings) {
  return (row.broken || []).filter((fi) => {
    const f = findings[fi];
    return f && (f.code.startsWith("stream_") || f.code.startsWith("chat_stream") && f.severity !== "info" || f.severity === "error");
  });
}


/**
 * Draw the timeline.  `rows`: the report's `timeline`; `findings`: the report's findings;
 * `terminal`: {type, line, findings: [i…]} or null when the stream has no terminal event
 * (`missing: true` then, with the stream_no_terminal finding's index).
 * `onFinding(index)` goes to a finding; `onLine(line)` marks a line in the input.
 * Returns a <figure> (the SVG and its text equivalent).
 */
/** What a row of `kind`'s timeline is (the summary counts what the stream rebuilds: a Chat
 *  stream's one rebuilt message is several rows, its text and each tool call). */
export const ROW_WORDS = {
  chat_stream: ["part", "parts", " of the rebuilt message (its text and each tool call)"],
  anthropic_stream: ["content block", "content blocks", ""],
  gemini_stream: ["part", "parts", " of the rebuilt response (its text, thoughts and each function call)"],
};

export function drawTimeline(rows, findings, { terminal = null, onFinding = () => {}, onLine = null, kind = null } = {}) {
  const [one, many, of] = ROW_WORDS[kind] || ["output item", "output items", ""];
  const shown = rows.slice(0, MAX_ROWS);
  const barX = LABEL_W + PAD;
  const endX = barX + SEG_W[0] + SEG_W[1] + SEG_W[2] + 2 * GAP + GAP;
  const width = endX + END_W + PAD;
  const height = (shown.length + 1) * ROW_H + PAD * 2 + 18;
  const svg = s("svg", { class: "timeline-svg", viewBox: `0 0 ${width} ${height}`, width, height,
    role: "group", "aria-label": "Stream timeline (the list below says the same)" });
  svg.append(s("text", { x: PAD, y: 14, class: "tl-head" }, one),
    s("text", { x: barX, y: 14, class: "tl-head" }, "added"),
    s("text", { x: barX + SEG_W[0] + GAP, y: 14, class: "tl-head" }, "deltas"),
    s("text", { x: barX + SEG_W[0] + SEG_W[1] + 2 * GAP, y: 14, class: "tl-head" }, "done"),
    s("text", { x: endX, y: 14, class: "tl-head" }, "end of stream"));
  const top = 22;
  const firstOf = (list) => (Array.isArray(list) && list.length ? list[0] : null);

  shown.forEach((row, i) => {
    const y = top + i * ROW_H;
    const breaks = breaking(row, findings);
    const broken = breaks.length > 0;
    const g = s("g", { class: `tl-row${broken ? " broken" : ""}`, "data-row": i, "data-output-index": row.output_index ?? "" });
    const label = `${row.type || "?"}${row.name ? " " + row.name : ""}`;
    const labelText = s("text", { x: PAD, y: y + 15, class: "tl-label" }, short(label, 26));
    const idText = s("text", { x: PAD, y: y + 30, class: "tl-id" }, short(`#${row.output_index ?? "?"} ${row.item_id || ""}`, 28));
    const labelG = s("g", { class: "tl-labels" }, s("title", {}, `${label} ${row.item_id || ""} (lines ${row.first_line}–${row.last_line})`), labelText, idText);
    if (onLine && row.first_line) clickable(labelG, `Mark line ${row.first_line} in the input: ${label}`, () => onLine(row.first_line));
    g.append(labelG);
    const seg = fold(row.events, row);
    const counts = [seg.added, seg.deltas, seg.done];
    const names = ["added", "deltas", "done"];
    let x = barX;
    counts.forEach((n, k) => {
      const w = SEG_W[k];
      const missing = n === 0 && !(k === 1 && !broken) && !(seg.chat && !broken);   // no deltas is fine (an empty text)
      const cls = `tl-seg tl-${names[k]}${missing ? " missing" : ""}`;
      g.append(s("rect", { x, y: y + 4, width: w, height: ROW_H - 10, rx: 4, class: cls },
        s("title", {}, seg.chat ? ["the chunk that opened it", `chunks after the first: ${n}`, `closed by its finish: ${n}`][k]
          : `${names[k]}: ${n} event${n === 1 ? "" : "s"}`)));
      g.append(s("text", { x: x + w / 2, y: y + 22, class: "tl-count", "text-anchor": "middle" },
        seg.chat ? (k === 0 ? (n ? "first chunk" : "—") : k === 1 ? moreChunks(n) : n ? short(row.status || "finish", 10) : "—")
          : k === 1 ? `${n} delta${n === 1 ? "" : "s"}` : n ? (n > 1 ? `${names[k]} ×${n}` : names[k]) : "missing"));
      if (k < 2) {
        const ax = x + w, bx = x + w + GAP;
        g.append(s("line", { x1: ax, y1: y + 16, x2: bx - 2, y2: y + 16, class: `tl-arrow${broken ? " broken" : ""}` }));
      }
      x += w + GAP;
    });
    if (broken) {
      const fi = breaks[0];
      const f = findings[fi];
      const mark = s("g", { class: "tl-break" },
        s("title", {}, f ? `${f.code}: ${f.message}` : "broken"),
        s("rect", { x: barX - 2, y: y + 1, width: x - barX - GAP + 4, height: ROW_H - 4, rx: 5, class: "hit" }),
        s("rect", { x: barX - 2, y: y + 1, width: x - barX - GAP + 4, height: ROW_H - 4, rx: 5, class: "tl-break-box" }),
        s("path", { d: `M${x - GAP + 4} ${y + 6} l6 6 l-6 6 l6 6`, class: "tl-zigzag" }));
      clickable(mark, `Broken: ${f ? f.code + " — " + f.message : "see the findings"}. Go to the finding.`, () => onFinding(fi));
      mark.dataset.finding = String(fi);
      g.append(mark);
    }
    svg.append(g);
  });

  // the end of the stream: the terminal event, or a broken end
  const y = top + shown.length * ROW_H;
  svg.append(s("text", { x: PAD, y: y + 20, class: "tl-label" }, "end of stream"));
  const endG = s("g", { class: `tl-end${terminal?.missing ? " broken" : ""}` });
  if (terminal?.missing) {
    const fi = firstOf(terminal.findings);
    endG.append(s("title", {}, "The stream ends without a terminal event"),
      s("rect", { x: barX, y: y + 1, width: endX + END_W - barX, height: ROW_H - 4, class: "hit" }),
      s("line", { x1: barX, y1: y + 16, x2: endX - 30, y2: y + 16, class: "tl-arrow broken" }),
      s("path", { d: `M${endX - 26} ${y + 4} l8 6 l-8 6 l8 6`, class: "tl-zigzag" }),
      s("rect", { x: endX, y: y + 3, width: END_W, height: ROW_H - 8, rx: 4, class: "tl-terminal missing" }),
      s("text", { x: endX + END_W / 2, y: y + 20, class: "tl-count", "text-anchor": "middle" }, "no terminal event"));
    if (fi !== null) { clickable(endG, "Broken end: the stream has no terminal event. Go to the finding.", () => onFinding(fi)); endG.dataset.finding = String(fi); }
  } else {
    endG.append(s("line", { x1: barX, y1: y + 16, x2: endX - 4, y2: y + 16, class: "tl-arrow" }),
      s("rect", { x: endX, y: y + 3, width: END_W, height: ROW_H - 8, rx: 4, class: "tl-terminal" }),
      s("text", { x: endX + END_W / 2, y: y + 20, class: "tl-count", "text-anchor": "middle" }, short(terminal?.type || "terminal event", 24)));
    if (onLine && terminal?.line) clickable(endG, `Mark the terminal event's line ${terminal.line} in the input`, () => onLine(terminal.line));
  }
  svg.append(endG);

  // the text equivalent
  const list = textEquivalent(svg, "timeline-text");
  for (const row of shown) {
    const seg = fold(row.events, row);
    const li = document.createElement("li");
    const broken = breaking(row, findings).map((fi) => findings[fi]?.code).filter(Boolean);
    li.textContent = `${row.type || "?"}${row.name ? " " + row.name : ""} ${row.item_id || ""} (output ${row.output_index ?? "?"}, lines ${row.first_line}–${row.last_line}): `
      + (seg.chat ? `in ${plural(seg.added + seg.deltas, "chunk")}${seg.done ? ", closed by " + (row.status || "its finish") : ""}`
        : `${seg.added} added, ${seg.deltas} deltas, ${seg.done} done${row.status ? ", " + row.status : ""}`)
      + (broken.length ? `; broken: ${broken.join(", ")}` : "");
    list.append(li);
  }
  const end = document.createElement("li");
  end.textContent = terminal?.missing ? "The stream ends without a terminal event (broken)." : `Ends with ${terminal?.type || "a terminal event"}.`;
  list.append(end);
  if (rows.length > shown.length) {
    const more = document.createElement("li");
    more.textContent = `${rows.length - shown.length} more ${many} are not drawn.`;
    list.append(more);
  }
  return figure("timeline", `Timeline: ${rows.length} ${rows.length === 1 ? one : many}${of}, events folded into added → deltas → done`,
    svg, list, "The timeline");
}
