// "Replay to…" on the Gate page's transcript report: POST /api/convert with the pasted text and
// a target dialect, and show the converted text beside the original with what could not travel
// (each a link to its place in the input) and the target's findings on the converted text
// (the answer's shape: workbench/convert/__init__.py).  Without JavaScript the same section is a
// form posting to /gate/convert (templates/gate_report.html).
//
//   replaySection(r, ctx)   the section for a report `r` whose kind converts (the kinds come
//                           from the server: data-replay-kinds on #result), else null.
//                           ctx: {text, tools(), onPlace(line, column)}

import { h, postLarge, renderError, copyText } from "./app.js";

const TARGETS = [["open_responses", "Open Responses"], ["chat", "Chat Completions"],
  ["anthropic", "Anthropic Messages"], ["gemini", "Gemini"]];
const SHOWN = 200;   // entries of a list shown
const PANE_CHARS = 200_000;   // characters of a text shown in a pane (the copy button has all)

function words(dialect) { return String(dialect || "").replace(/_/g, " "); }

function plural(n, word) { return `${Number(n).toLocaleString("en-US")} ${n === 1 ? word : word + "s"}`; }

/** The kinds that convert, as the server said them (empty: the page does not offer it). */
function kinds() {
  return (document.getElementById("result")?.dataset.replayKinds || "").split(" ").filter(Boolean);
}

export function replaySection(r, ctx) {
  if (!kinds().includes(r.kind)) return null;
  const select = h("select", { id: "replay-to", name: "to" },
    ...TARGETS.map(([value, label]) => h("option", { value }, label)));
  const out = h("div", { id: "replay-out", "aria-live": "polite" });
  const run = h("button", { type: "button", id: "replay-run", onclick: () => replay(select.value, out, ctx, run) }, "Replay to…");
  return h("section", { class: "replay", id: "replay", "aria-labelledby": "replay-title" },
    h("h3", { id: "replay-title" }, "Replay to another provider"),
    h("div", { class: "toolbar replay-bar" },
      h("label", { for: "replay-to" }, "Convert this conversation to"), select, run,
      h("span", { class: "muted" }, "each call keeps its pair, arguments stay exact, what cannot travel is listed")),
    out);
}

async function replay(to, out, ctx, button) {
  button.disabled = true;
  out.replaceChildren(h("p", { class: "muted" }, "Converting…"));
  const req = { text: ctx.text, to };
  const tools = ctx.tools?.();
  if (tools) req.tools = tools;
  try {
    const a = await postLarge("/api/convert", req);
    if (!a.ok) {
      const box = h("div", { id: "replay-error" });
      renderError(box, a.body?.error ? { ...a.body.error, field: "Cannot convert" } : { message: "The conversion failed." },
        { onJump: (e) => ctx.onPlace(e.line, e.column) });
      box.dataset.code = a.body?.error?.code || "";
      out.replaceChildren(box);
      return;
    }
    out.replaceChildren(result(a.body, ctx));
  } finally {
    button.disabled = false;
  }
}

function result(r, ctx) {
  const errors = r.findings.filter((f) => f.severity === "error").length;
  const lost = r.not_portable.length + (r.truncated?.not_portable || 0);
  const headline = `${words(r.from)} → ${words(r.to)} · ${plural(r.summary.calls, "call")} · ${plural(lost, "part")} not portable · ${plural(errors, "error")} under ${words(r.to)}'s rules${r.clean ? " · clean" : ""}`;
  const pane = (id, title, text, extra) => h("section", { class: "replay-pane", "aria-labelledby": `${id}-title` },
    h("h4", { id: `${id}-title` }, title, extra || null),
    h("pre", { class: "output replay-text", id, tabindex: "0" }, text.length > PANE_CHARS
      ? text.slice(0, PANE_CHARS) + `\n… (${(text.length - PANE_CHARS).toLocaleString("en-US")} more characters)` : text));
  const copy = h("button", { type: "button", class: "copy", id: "replay-copy", onclick: () => copyText(r.text, "Converted text copied") }, "copy");
  const np = h("ul", { class: "finding-list" }, ...r.not_portable.slice(0, SHOWN).map((e) => h("li", { class: "finding sev-info", dataset: { what: e.what } },
    h("code", { class: "finding-code" }, e.what), " ", h("span", { class: "finding-message" }, e.message), " ",
    e.line ? h("button", { type: "button", class: "place", onclick: () => ctx.onPlace(e.line, e.column) }, `line ${e.line}, column ${e.column}`)
      : h("span", { class: "muted" }, "in the rebuilt stream"),
    " ", h("code", {}, e.pointer || "/"))));
  const notes = (r.notes || []).length ? h("ul", { class: "replay-notes" }, ...r.notes.slice(0, SHOWN).map((n) =>
    h("li", { dataset: { what: n.what } }, h("span", { class: "muted" }, "note "), n.message))) : null;
  const fs = h("ul", { class: "finding-list" }, ...r.findings.slice(0, SHOWN).map((f) => h("li", { class: `finding sev-${f.severity}`, dataset: { code: f.code, severity: f.severity } },
    h("code", { class: "finding-code" }, f.code), " ", h("span", { class: "finding-message" }, f.message),
    f.line ? h("span", { class: "finding-where mono" }, ` converted line ${f.line}, column ${f.column || 1}`) : null)));
  return h("div", { id: "replay-result", dataset: { to: r.to, clean: String(r.clean) } },
    h("p", { class: `headline ${r.clean ? "good" : "bad"}`, id: "replay-headline" }, headline),
    h("div", { class: "replay-panes" },
      pane("replay-original", `Original (${words(r.from)})`, ctx.text),
      pane("replay-converted", `Converted (${words(r.to)}) `, r.text, copy)),
    h("section", { id: "replay-not-portable", "aria-labelledby": "replay-np-title" },
      h("h4", { id: "replay-np-title" }, `Not portable (${lost.toLocaleString("en-US")})`),
      r.not_portable.length ? np : h("p", { class: "good" }, "Everything travelled."), notes),
    h("section", { id: "replay-findings", "aria-labelledby": "replay-findings-title" },
      h("h4", { id: "replay-findings-title" }, `Findings on the converted text (${r.findings.length})`),
      r.findings.length ? fs : h("p", { class: "good" }, `No finding under ${words(r.to)}'s rules.`)));
}
