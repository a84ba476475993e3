// Redaction preview: "Copy redacted…" sends the text to the server's redaction core
// (POST /api/redact, workbench/redact) and shows the answer as a diff against the original BEFORE
// anything is copied.  The core replaces every value with a typed placeholder that keeps the
// structure, keys, lengths and the shapes of ids, and is EQUALITY-PRESERVING across the whole
// document and its lines: equal values get equal placeholders, distinct ones distinct ones
// (call_J7YU… and call_bppU… → call_000…1 and call_000…2), so a redacted transcript still pairs
// and gates as the original did.
//
//   redactText(text, { numbers, keep })  → Promise<{ text, replaced, counts, form, error }>
//   openRedaction({ text, name })         // the preview dialog; "Copy redacted" copies, Cancel does not
//
// Keys, structure and the type words (type, role, status, event names, finish reasons, tool
// names…) are kept; `keep` names more members whose values stay.  The core rewrites the text
// token by token, so every line stays where it was and the preview pairs each changed line with
// its original.

import { h, copyText, toast } from "./dom.js";
import { postLarge } from "./http.js";
import { plural } from "./text.js";

const LINES_SHOWN = 400;     // changed lines shown in the preview (the copy has all of them)
const LINE_CHARS = 400;      // characters of a line shown

/** The server's redaction of `text`; `error` is the API's error object when it refused. */
export async function redactText(text, { numbers = false, keep = [] } = {}) {
  const r = await postLarge("/api/redact", { text, numbers, keep });
  if (!r.ok) return { text, replaced: 0, counts: {}, error: r.body?.error || { message: `HTTP ${r.status}` } };
  return { ...r.body, error: null };
}

/** The changed lines of two texts with the same lines (as redactText makes them). */
export function changedLines(a, b) {
  const la = a.split("\n"), lb = b.split("\n");
  const out = [];
  const n = Math.max(la.length, lb.length);
  for (let i = 0; i < n; i++) if (la[i] !== lb[i]) out.push({ line: i + 1, before: la[i] ?? "", after: lb[i] ?? "" });
  return out;
}

function countsText(counts) {
  const names = { text: "text", id: "id", email: "e-mail", url: "URL", uuid: "UUID", date: "date", arguments: "arguments", json: "JSON inside a string", number: "number" };
  return Object.entries(counts).filter(([, n]) => n).map(([k, n]) => `${n.toLocaleString("en-US")} ${names[k]}`).join(", ");
}

let dialog = null;

/** The preview dialog for `text`: options, the diff, and Copy redacted / Cancel. */
export function openRedaction({ text, name = "document" }) {
  if (!text || !text.trim()) { toast("Nothing to redact: the input is empty"); return null; }
  dialog?.remove();
  const numbersBox = h("input", { type: "checkbox", id: "redact-numbers" });
  const keepInput = h("input", { type: "text", id: "redact-keep", class: "mono", value: "", size: "30",
    placeholder: "model, …", spellcheck: "false", "aria-describedby": "redact-keep-help" });
  const summary = h("p", { id: "redact-summary", role: "status" });
  const diffEl = h("div", { class: "redact-diff", id: "redact-diff", tabindex: "0", role: "region", "aria-label": "Original and redacted lines" });
  const copyButton = h("button", { type: "button", class: "primary", id: "redact-copy" }, "Copy redacted");
  dialog = h("dialog", { class: "redact", id: "redact-dialog", "aria-labelledby": "redact-title" },
    h("h2", { id: "redact-title" }, `Copy redacted: ${name}`),
    h("p", { class: "muted" }, "Each value becomes a placeholder of its kind and length (ids keep their prefix, e-mails become user…@example.invalid); equal values stay equal and distinct ones distinct, so the copy still pairs and gates as the original. Keys, structure, types, roles, statuses, event names and tool names stay. Check the preview, then copy."),
    h("div", { class: "toolbar" },
      h("label", {}, numbersBox, " numbers too"),
      h("label", { for: "redact-keep" }, "also keep the values of"), keepInput,
      h("span", { class: "muted small", id: "redact-keep-help" }, "(keys, comma-separated)")),
    summary, diffEl,
    h("div", { class: "toolbar" }, h("span", { class: "grow" }),
      h("button", { type: "button", "data-close": "" }, "Cancel"), copyButton));
  let result = null;
  let asked = 0;   // latest-only: an answer to an older question is dropped
  const busy = () => {
    summary.className = "";
    summary.textContent = text.length > 1_000_000
      ? `Preparing the preview of ${(text.length / 1e6).toFixed(1)} million characters…` : "Preparing the preview…";
    copyButton.disabled = true;
    dialog.dataset.state = "busy";
  };
  const render = async () => {
    const mine = ++asked;
    busy();
    const keep = keepInput.value.split(",").map((s) => s.trim()).filter(Boolean);
    const r = await redactText(text, { numbers: numbersBox.checked, keep });
    if (mine !== asked || !dialog?.isConnected) return;
    result = r;
    if (r.error) {
      const at = r.error.line ? ` (line ${r.error.line}, column ${r.error.column})` : "";
      summary.textContent = r.error.code === "parse_error"
        ? `Not valid JSON${at}: redaction reads the structure, so nothing can be replaced safely. Fix the text first.`
        : `Not redacted${at}: ${r.error.message}`;
      summary.className = "bad";
      diffEl.replaceChildren();
      copyButton.disabled = true;
      dialog.dataset.state = "invalid";
      return;
    }
    const lines = changedLines(text, r.text);
    summary.className = "";
    summary.textContent = lines.length
      ? `${plural(lines.length, "line")} changed · ${plural(r.replaced, "value")} replaced: ${countsText(r.counts) || "none"} · equal values stay equal; keys, structure and lengths kept.`
      : "Nothing to replace: no values (or only kept ones).";
    const rows = [];
    for (const c of lines.slice(0, LINES_SHOWN)) {
      const ln = h("span", { class: "ln" }, String(c.line));
      rows.push(h("div", { class: "del" }, ln, h("span", { class: "sign" }, "−"), c.before.slice(0, LINE_CHARS)),
        h("div", { class: "add" }, ln.cloneNode(true), h("span", { class: "sign" }, "+"), c.after.slice(0, LINE_CHARS)));
    }
    if (lines.length > LINES_SHOWN) rows.push(h("div", { class: "muted" }, `… and ${plural(lines.length - LINES_SHOWN, "more changed line")} (the copy has them all)`));
    diffEl.replaceChildren(...rows);
    copyButton.disabled = false;
    dialog.dataset.state = "ready";
    dialog.dataset.changed = String(lines.length);
  };
  numbersBox.addEventListener("change", render);
  let typing = null;
  keepInput.addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(render, 300); });
  copyButton.addEventListener("click", async () => {
    if (!result || result.error || dialog.dataset.state !== "ready") return;
    await copyText(result.text, "Copied the redacted text");
    dialog.close();
  });
  dialog.addEventListener("click", (e) => { if (e.target.closest("[data-close]")) dialog.close(); });
  dialog.addEventListener("close", () => dialog?.remove());
  document.body.append(dialog);
  dialog.showModal();
  render();
  return dialog;
}
