// JSON Workbench: what every page shares. Plain ES module, no dependencies.
// Pages work as plain forms without JavaScript; this adds live results, shortcuts,
// session-kept input, file open/drop, copy and download.

/** POST a JSON body to our own origin; resolves to {ok, status, body}. Never throws for HTTP errors. */
export async function postJSON(url, body, { signal } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal,
      credentials: "same-origin",
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    return { ok: false, status: 0, body: { error: { code: "network", message: "The workbench server did not answer: is it still running?" } } };
  }
  let parsed = null;
  const text = await response.text();
  try { parsed = JSON.parse(text); } catch { parsed = { error: { code: "bad_response", message: text.slice(0, 300) } }; }
  return { ok: response.ok, status: response.status, body: parsed, text };
}

/** Run fn at most once per `wait` ms of quiet. */
export function debounce(fn, wait = 250) {
  let t = null;
  const wrapped = (...args) => { clearTimeout(t); t = setTimeout(() => fn(...args), wait); };
  wrapped.cancel = () => clearTimeout(t);
  return wrapped;
}

/** Live-run helper: only the latest request counts; older answers are dropped. */
export function latestOnly(fn) {
  let seq = 0; let controller = null;
  return async (...args) => {
    const mine = ++seq;
    if (controller) controller.abort();
    controller = new AbortController();
    try {
      const result = await fn(controller.signal, ...args);
      return mine === seq ? result : undefined;
    } catch (err) {
      if (err.name === "AbortError") return undefined;
      throw err;
    }
  };
}

const STORE_PREFIX = "workbench:";
/** Keep a field's value in session storage (survives a reload of the tab; never in the URL). */
export function persist(el, key) {
  const k = STORE_PREFIX + (key || `${document.body.dataset.view}:${el.name || el.id}`);
  const saved = sessionStorage.getItem(k);
  // a value the server rendered (plain form post) wins over the stored one
  if (saved !== null && !el.defaultValue && el.type !== "checkbox") el.value = saved;
  if (saved !== null && el.type === "checkbox") el.checked = saved === "true";
  const save = () => {
    try { sessionStorage.setItem(k, el.type === "checkbox" ? String(el.checked) : el.value); }
    catch { /* quota: a very large document is simply not kept */ }
  };
  el.addEventListener("input", save);
  el.addEventListener("change", save);
  return save;
}

/** "12.3 KB · 420 lines" for a text. */
export function sizeLine(text) {
  const bytes = new Blob([text]).size;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return `${formatBytes(bytes)} · ${lines.toLocaleString()} line${lines === 1 ? "" : "s"}`;
}

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Read a dropped or chosen file into a textarea (UTF-8; a bad byte is reported, the text kept). */
export function attachFile(textarea, { fileInput, onLoad } = {}) {
  const load = async (file) => {
    if (!file) return;
    const buf = await file.arrayBuffer();
    let text;
    try { text = new TextDecoder("utf-8", { fatal: true }).decode(buf); }
    catch {
      toast(`${file.name} is not UTF-8 text; invalid bytes are shown as \uFFFD`);
      text = new TextDecoder("utf-8").decode(buf);
    }
    textarea.value = text;
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
    onLoad?.(file, text);
  };
  textarea.addEventListener("dragover", (e) => { e.preventDefault(); textarea.classList.add("drop"); });
  textarea.addEventListener("dragleave", () => textarea.classList.remove("drop"));
  textarea.addEventListener("drop", (e) => {
    textarea.classList.remove("drop");
    if (e.dataTransfer?.files?.length) { e.preventDefault(); load(e.dataTransfer.files[0]); }
  });
  if (fileInput) fileInput.addEventListener("change", () => { load(fileInput.files[0]); fileInput.value = ""; });
  return load;
}

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

/** Ctrl/Cmd+Enter runs the view: pages listen for the "workbench:run" event. */
function shortcuts() {
  const dialog = document.getElementById("shortcuts");
  document.addEventListener("keydown", (e) => {
    const inField = e.target.closest?.("input, textarea, select, [contenteditable]");
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") {
      e.preventDefault();
      document.dispatchEvent(new CustomEvent("workbench:run"));
      return;
    }
    if (e.altKey && /^[1-5]$/.test(e.key)) {
      const link = document.querySelector(`.tabs a[data-key="${e.key}"]`);
      if (link) { e.preventDefault(); link.click(); }
      return;
    }
    if (!inField && e.key === "?" && dialog) {
      e.preventDefault();
      if (!dialog.open) dialog.showModal();
    }
  });
  // without a page script, Ctrl+Enter submits the page's main form
  document.addEventListener("workbench:run", () => {
    if (document.body.dataset.liveView) return;
    document.querySelector("form.run")?.requestSubmit();
  });
}

shortcuts();
