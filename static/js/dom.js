// Building and using the page: elements, notices, copy, download, error boxes, short lists.

/** Select line `line` (1-based) and column in a textarea and scroll it into view. */
export function markInTextarea(textarea, line, column = 1) {
  const text = textarea.value;
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", start);
    if (nl === -1) break;
    start = nl + 1;
  }
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  textarea.focus({ preventScroll: true });
  textarea.setSelectionRange(start, end);
  const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
  textarea.scrollTop = Math.max(0, (line - 3) * lineHeight);
  textarea.dataset.markedLine = String(line);
  textarea.dispatchEvent(new CustomEvent("workbench:marked", { detail: { line, column } }));
}

/** Copy text to the clipboard, with a short notice. */
export async function copyText(text, what = "Copied") {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement("textarea");
    ta.value = text; ta.setAttribute("readonly", ""); ta.style.position = "fixed"; ta.style.opacity = "0";
    document.body.append(ta); ta.select(); document.execCommand("copy"); ta.remove();
  }
  window.__workbenchLastCopy = text;  // read by the browser tests
  toast(what);
}

/** Offer text as a file download. */
export function download(text, filename, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url; a.download = filename; document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

let toastEl = null; let toastTimer = null;
export function toast(message) {
  if (!toastEl) {
    toastEl = document.createElement("div");
    toastEl.className = "toast"; toastEl.setAttribute("role", "status");
    document.body.append(toastEl);
  }
  toastEl.textContent = message; toastEl.classList.add("show");
  clearTimeout(toastTimer); toastTimer = setTimeout(() => toastEl.classList.remove("show"), 1600);
}

/** The elements with these ids, in order (null for an id the page lacks). */
export function byIds(...ids) {
  return ids.map((id) => document.getElementById(id));
}

/** Build an element: h("button", {class: "x", onclick: f}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** The headline a run shows while it waits for the server: a spinner and what it does. */
export function busyHeadline(message) {
  return h("div", { class: "headline", id: "headline" }, h("span", { class: "spinner", "aria-hidden": "true" }), " ", message);
}

/** Render an API error body into `box` (message, line:column, caret snippet). */
export function renderError(box, error, { onJump } = {}) {
  box.replaceChildren();
  if (!error) { box.hidden = true; return; }
  box.hidden = false;
  box.className = "error-box";
  const where = error.line ? `line ${error.line}, column ${error.column}` : "";
  box.append(h("div", { class: "msg" }, h("strong", {}, error.field ? `${error.field}: ` : ""), error.message));
  if (where) {
    box.append(h("div", { class: "where" }, where, error.pointer ? ` · ${error.pointer}` : "", " ",
      onJump ? h("button", { type: "button", class: "jump", onclick: () => onJump(error) }, "show in input") : null));
  }
  if (error.snippet) box.append(h("pre", { class: "snippet" }, error.snippet));
}

/** Show the first `limit` of `items` (elements, or anything `render` makes an element of) in
 *  `list`, and a button that shows the rest: a long list of warnings never pushes the result
 *  off the screen, and the hidden ones are made only when asked for (thousands cost seconds). */
export function shortList(list, items, { limit = 5, noun = "items", render = (x) => x } = {}) {
  list.replaceChildren(...items.slice(0, limit).map(render));
  if (items.length > limit + 1) {
    const rest = items.length - limit;
    const more = h("button", { type: "button", class: "more", "aria-expanded": "false" },
      `Show ${rest.toLocaleString("en-US")} more ${noun}`);
    const li = h("li", { class: "more-row" }, more);
    more.addEventListener("click", () => { li.remove(); list.append(...items.slice(limit).map(render)); });
    list.append(li);
  } else {
    list.append(...items.slice(limit).map(render));
  }
  return list;
}

