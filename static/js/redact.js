// Redaction preview: "Copy redacted…" replaces the values of a JSON text with typed placeholders
// that keep its structure, keys, lengths and the shapes of ids — so a bug report can be pasted
// safely — and shows the result as a diff against the original BEFORE anything is copied.
//
//   redactText(text, { numbers: false, keep: ["type", "object", "status", "role"] })
//     → { text, counts: {text, id, email, url, uuid, date, json, number}, error }
//   openRedaction({ text, name })   // the preview dialog; "Copy redacted" copies, Cancel does not
//
// Placeholders, by what the string looks like:
//   ids          call_3c91 → call_XXXX, fc_67ccd2c0 → fc_XXXXXXXX (the prefix and separator kept)
//   e-mail       jane.doe@corp.com → userxxxx@example.invalid (the local part's length kept)
//   URL          https://host/a/b?q=1 → https://example.invalid/x/x?x=0 (the scheme kept)
//   UUID, dates  hex digits and digits → 0 (00000000-0000-…, 0000-00-00T00:00:00Z)
//   JSON text    a string holding JSON (tool-call arguments) is redacted inside, keys kept
//   other text   letters → x / X, digits → 0; spaces and punctuation kept (so is the length)
//   numbers      only when asked: 1741476542 → 1000000000, 0.0125 → 0.0000 (sign, digit counts,
//                exponent kept; still valid JSON numbers)
// Keys are never changed; the values of keys named in `keep` (type, object, status, role by
// default: they say what an item is, not what it holds) are kept as they are.
// The text is read by the viewer's exact tokenizer (jsonmodel.js): numbers and strings are
// replaced token by token in the text as written, so every line stays where it was and the
// preview pairs each changed line with its original.

import { h, copyText, toast } from "./dom.js";
import { plural } from "./text.js";
import { readModel, OBJ, STR, NUM } from "./jsonmodel.js";

export const KEEP_KEYS = ["type", "object", "status", "role"];
const LINES_SHOWN = 400;     // changed lines shown in the preview (the copy has all of them)
const LINE_CHARS = 400;      // characters of a line shown

const RE_EMAIL = /^([^@\s"]{1,64})@([^@\s"]+\.[^@\s"]+)$/;
const RE_URL = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#\s]*)(.*)$/i;
const RE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RE_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const RE_ID = /^([A-Za-z][A-Za-z0-9]{0,15}[_-])([A-Za-z0-9_-]{3,})$/;
const RE_NUMBER = /^(-?)(\d+)(\.\d+)?([eE][+-]?\d+)?$/;

/** letters → x/X, digits → 0, everything else kept. */
function shape(s) {
  const ascii = s.replace(/[A-Z]/g, "X").replace(/[a-z]/g, "x").replace(/[0-9]/g, "0");
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(ascii)) return ascii;   // the common case: no Unicode classes needed
  return ascii.replace(/\p{Lu}/gu, "X").replace(/[^\P{L}X]/gu, "x").replace(/\p{N}/gu, "0");
}

/** A typed placeholder for one string value; `counts` says which kind it was. */
export function redactString(s, opts, counts) {
  if (!s) return s;
  const t = s.trim();
  if ((t[0] === "{" && t.endsWith("}")) || (t[0] === "[" && t.endsWith("]"))) {
    const inner = redactText(s, opts);
    if (!inner.error) {
      counts.json++;
      for (const [k, n] of Object.entries(inner.counts)) if (k !== "json") counts[k] += n;
      counts.json += inner.counts.json;
      return inner.text;
    }
  }
  let m;
  if ((m = RE_EMAIL.exec(s))) {
    counts.email++;
    const n = m[1].length;
    return `${("user" + "x".repeat(Math.max(0, n - 4))).slice(0, n)}@example.invalid`;
  }
  if ((m = RE_URL.exec(s))) { counts.url++; return `${m[1].toLowerCase()}example.invalid${shape(m[3])}`; }
  if (RE_UUID.test(s)) { counts.uuid++; return s.replace(/[0-9a-f]/gi, "0"); }
  if (RE_DATE.test(s)) { counts.date++; return s.replace(/\d/g, "0"); }
  if ((m = RE_ID.exec(s)) && /\d/.test(m[2])) { counts.id++; return m[1] + m[2].replace(/[A-Za-z0-9]/g, "X"); }
  counts.text++;
  return shape(s);
}

/** A number with the same sign, digit counts and exponent (still a valid JSON number). */
export function redactNumber(tok) {
  const m = RE_NUMBER.exec(tok);
  if (!m) return tok;
  const int = m[2] === "0" ? "0" : "1" + "0".repeat(m[2].length - 1);
  return `${m[1]}${int}${m[3] ? "." + "0".repeat(m[3].length - 1) : ""}${m[4] || ""}`;
}

/** Redact a JSON text token by token; { text, counts, error } (error: not JSON, nothing done). */
export function redactText(text, { numbers = false, keep = KEEP_KEYS } = {}) {
  const counts = { text: 0, id: 0, email: 0, url: 0, uuid: 0, date: 0, json: 0, number: 0 };
  const m = readModel(text);
  if (m.error) return text.indexOf("\n") !== -1 && text.trim().indexOf("\n") !== -1 ? redactLines(text, { numbers, keep }, m.error) : { text, counts, error: m.error };
  const keepSet = new Set(keep);
  const opts = { numbers, keep };
  const parts = [];
  let at = 0;
  for (let i = 0; i < m.n; i++) {
    const k = m.kind[i];
    if (k !== STR && !(numbers && k === NUM)) continue;
    const p = m.parent[i];
    if (p >= 0 && m.kind[p] === OBJ && keepSet.has(m.keyOf(i))) continue;
    const s = m.vS[i], e = m.vE[i];
    const tok = text.slice(s, e);
    let out;
    if (k === NUM) { out = redactNumber(tok); counts.number++; }
    else out = JSON.stringify(redactString(JSON.parse(tok), opts, counts));
    if (out === tok) continue;
    parts.push(text.slice(at, s), out);
    at = e;
  }
  parts.push(text.slice(at));
  return { text: parts.join(""), counts, error: null };
}

/** JSON Lines (one value a line): each line redacted on its own; the first error wins. */
function redactLines(text, opts, error) {
  const counts = { text: 0, id: 0, email: 0, url: 0, uuid: 0, date: 0, json: 0, number: 0 };
  const out = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) { out.push(line); continue; }
    const r = redactText(line.replace(/\r$/, ""), opts);
    if (r.error) return { text, counts, error };
    for (const [k, n] of Object.entries(r.counts)) counts[k] += n;
    out.push(line.endsWith("\r") ? r.text + "\r" : r.text);
  }
  return { text: out.join("\n"), counts, error: null, lines: true };
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
  const names = { text: "text", id: "id", email: "e-mail", url: "URL", uuid: "UUID", date: "date", json: "JSON inside a string", number: "number" };
  return Object.entries(counts).filter(([, n]) => n).map(([k, n]) => `${n.toLocaleString("en-US")} ${names[k]}`).join(", ");
}

let dialog = null;

/** The preview dialog for `text`: options, the diff, and Copy redacted / Cancel. */
export function openRedaction({ text, name = "document" }) {
  if (!text || !text.trim()) { toast("Nothing to redact: the input is empty"); return null; }
  dialog?.remove();
  const numbersBox = h("input", { type: "checkbox", id: "redact-numbers" });
  const keepInput = h("input", { type: "text", id: "redact-keep", class: "mono", value: KEEP_KEYS.join(", "), size: "30",
    spellcheck: "false", "aria-describedby": "redact-keep-help" });
  const summary = h("p", { id: "redact-summary", role: "status" });
  const diffEl = h("div", { class: "redact-diff", id: "redact-diff", tabindex: "0", role: "region", "aria-label": "Original and redacted lines" });
  const copyButton = h("button", { type: "button", class: "primary", id: "redact-copy" }, "Copy redacted");
  dialog = h("dialog", { class: "redact", id: "redact-dialog", "aria-labelledby": "redact-title" },
    h("h2", { id: "redact-title" }, `Copy redacted: ${name}`),
    h("p", { class: "muted" }, "Each string value becomes a placeholder of its kind and length (ids keep their prefix, e-mails become user…@example.invalid); keys and structure stay. Check the preview, then copy."),
    h("div", { class: "toolbar" },
      h("label", {}, numbersBox, " numbers too"),
      h("label", { for: "redact-keep" }, "keep the values of"), keepInput,
      h("span", { class: "muted small", id: "redact-keep-help" }, "(keys, comma-separated)")),
    summary, diffEl,
    h("div", { class: "toolbar" }, h("span", { class: "grow" }),
      h("button", { type: "button", "data-close": "" }, "Cancel"), copyButton));
  let result = null;
  const render = () => {
    const keep = keepInput.value.split(",").map((s) => s.trim()).filter(Boolean);
    result = redactText(text, { numbers: numbersBox.checked, keep });
    if (result.error) {
      summary.textContent = `Not valid JSON (line ${result.error.line}, column ${result.error.column}): redaction reads the structure, so nothing can be replaced safely. Fix the text first.`;
      summary.className = "bad";
      diffEl.replaceChildren();
      copyButton.disabled = true;
      dialog.dataset.state = "invalid";
      return;
    }
    const lines = changedLines(text, result.text);
    summary.className = "";
    summary.textContent = lines.length
      ? `${plural(lines.length, "line")} changed · values replaced: ${countsText(result.counts) || "none"} · keys, structure and lengths kept.`
      : "Nothing to replace: no string values (or only kept ones).";
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
  keepInput.addEventListener("input", render);
  copyButton.addEventListener("click", async () => {
    if (!result || result.error) return;
    await copyText(result.text, "Copied the redacted text");
    dialog.close();
  });
  dialog.addEventListener("click", (e) => { if (e.target.closest("[data-close]")) dialog.close(); });
  dialog.addEventListener("close", () => dialog?.remove());
  document.body.append(dialog);
  dialog.showModal();
  if (text.length > 1_000_000) {   // a large text takes a second or more: say so first
    summary.textContent = `Preparing the preview of ${(text.length / 1e6).toFixed(1)} million characters…`;
    copyButton.disabled = true;
    dialog.dataset.state = "busy";
    setTimeout(render, 30);
  } else {
    render();
  }
  return dialog;
}
