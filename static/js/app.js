// JSON Workbench: what every page shares. Plain ES module, no dependencies.
// Pages work as plain forms without JavaScript; this adds live results, shortcuts,
// session-kept input, file open/drop, copy and download.

/** POST a JSON body to our own origin; resolves to {ok, status, body}. Never throws for HTTP errors. */
export async function postJSON(url, body, { signal } = {}) {
  return send(url, JSON.stringify(body), signal);
}

const SLICE_CHARS = 1 << 20;
export const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/** postJSON for bodies with very long strings (a 20 MB document): each string longer than a
 *  megabyte is encoded in slices with a pause between them, so the page never blocks for long.
 *  Rejects with an AbortError when `signal` is aborted meanwhile. */
export async function postLarge(url, body, { signal } = {}) {
  const parts = ["{"];
  let first = true;
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    parts.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    if (typeof value !== "string" || value.length <= SLICE_CHARS) { parts.push(JSON.stringify(value)); continue; }
    parts.push('"');
    for (let i = 0; i < value.length;) {
      let j = Math.min(value.length, i + SLICE_CHARS);
      const c = value.charCodeAt(j - 1);
      if (j < value.length && c >= 0xd800 && c <= 0xdbff) j--;  // keep a surrogate pair together
      parts.push(JSON.stringify(value.slice(i, j)).slice(1, -1));
      i = j;
      await pause();
      if (signal?.aborted) throw new DOMException("superseded", "AbortError");
    }
    parts.push('"');
  }
  parts.push("}");
  return send(url, new Blob(parts, { type: "application/json" }), signal);
}

async function send(url, payload, signal) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: payload,
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

/** Show the first `limit` of `items` (elements) in `list`, and a button that shows the rest:
 *  a long list of warnings never pushes the result off the screen. */
export function shortList(list, items, { limit = 5, noun = "items" } = {}) {
  list.replaceChildren(...items.slice(0, limit));
  if (items.length > limit + 1) {
    const rest = items.length - limit;
    const more = h("button", { type: "button", class: "more", "aria-expanded": "false" },
      `Show ${rest.toLocaleString("en-US")} more ${noun}`);
    const li = h("li", { class: "more-row" }, more);
    more.addEventListener("click", () => { li.remove(); list.append(...items.slice(limit)); });
    list.append(li);
  } else {
    list.append(...items.slice(limit));
  }
  return list;
}

/** Read a file as UTF-8 in slices (no long block of the page for a 20 MB file).
 *  Resolves to {text, bytes, utf8}: a file that is not UTF-8 is decoded with U+FFFD for its
 *  bad bytes and `utf8` false. */
export async function readTextFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const STEP = 4 << 20;
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const parts = [];
    for (let i = 0; i < bytes.length; i += STEP) {
      parts.push(decoder.decode(bytes.subarray(i, i + STEP), { stream: i + STEP < bytes.length }));
      if (bytes.length > STEP) await pause();
    }
    return { text: parts.join(""), bytes: bytes.length, utf8: true };
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes), bytes: bytes.length, utf8: false };
  }
}

function countLines(text) {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/** Line numbers beside a textarea, and a mark on one line (an error): the line number is
 *  flagged and a band with a tick at the column lies over the line.  Only the numbers in
 *  view are in the page, so a megabyte of text costs nothing more.
 *  The textarea is wrapped in `.docin`; hide `gutter.wrap` to hide both. */
export class LineGutter {
  constructor(textarea) {
    this.ta = textarea;
    this.lines = 1;
    this.markAt = null;   // {line, column}
    this.wrap = h("div", { class: "docin" });
    textarea.before(this.wrap);
    this.nums = h("div", { class: "docin-nums" });
    this.gutter = h("div", { class: "docin-gutter", "aria-hidden": "true" }, this.nums);
    this.tick = h("span", { class: "docin-tick" });
    this.band = h("div", { class: "docin-band", "aria-hidden": "true" }, this.tick);
    this.band.hidden = true;
    this.wrap.append(this.gutter, textarea, this.band);
    this.frame = 0;
    const recount = debounce(() => this.count(), 150);
    textarea.addEventListener("scroll", () => this.schedule());
    textarea.addEventListener("input", () => {
      this.clear();
      if (textarea.value.length < 200_000) this.count(); else recount();
    });
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this.schedule()).observe(textarea);
    this.count();
  }

  /** Count the lines again (after the text was set from a script without an input event). */
  count() { this.lines = countLines(this.ta.value); this.schedule(); }

  mark(line, column = 1) {
    this.markAt = line ? { line, column: column || 1 } : null;
    this.ta.dataset.errorLine = line ? String(line) : "";
    if (!line) delete this.ta.dataset.errorLine;
    this.schedule();
  }

  clear() { if (this.markAt) this.mark(null); }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  metrics() {
    const cs = getComputedStyle(this.ta);
    const lh = parseFloat(cs.lineHeight) || 1.5 * parseFloat(cs.fontSize) || 20;
    if (!this.charW || this.font !== cs.font) {
      const probe = h("span", {}, "0".repeat(40));
      probe.style.font = cs.font; probe.style.position = "absolute"; probe.style.visibility = "hidden"; probe.style.whiteSpace = "pre";
      document.body.append(probe);
      this.charW = probe.getBoundingClientRect().width / 40 || 8;
      this.font = cs.font;
      probe.remove();
    }
    return { lh, padTop: parseFloat(cs.paddingTop) || 0, padLeft: parseFloat(cs.paddingLeft) || 0,
      borderTop: parseFloat(cs.borderTopWidth) || 0, borderLeft: parseFloat(cs.borderLeftWidth) || 0,
      tab: parseInt(cs.tabSize, 10) || 2 };
  }

  render() {
    const ta = this.ta;
    if (this.wrap.hidden || !ta.clientHeight) return;
    const { lh, padTop, padLeft, borderTop, borderLeft, tab } = this.metrics();
    const digits = String(this.lines).length;
    this.gutter.style.width = `${Math.max(2, digits) + 1.5}ch`;
    const first = Math.max(0, Math.floor((ta.scrollTop - padTop) / lh));
    const count = Math.ceil(ta.clientHeight / lh) + 2;
    const last = Math.min(this.lines, first + count);
    const mark = this.markAt;
    const frag = document.createDocumentFragment();
    for (let n = first + 1; n <= last; n++) {
      const el = document.createElement("div");
      el.textContent = String(n);
      if (mark && mark.line === n) el.className = "marked";
      frag.append(el);
    }
    this.nums.replaceChildren(frag);
    this.nums.style.transform = `translateY(${borderTop + padTop + first * lh - ta.scrollTop}px)`;
    this.gutter.dataset.first = String(first + 1);
    if (!mark || mark.line > this.lines) { this.band.hidden = true; return; }
    const top = ta.offsetTop + borderTop + padTop + (mark.line - 1) * lh - ta.scrollTop;
    if (top + lh <= ta.offsetTop + borderTop || top >= ta.offsetTop + borderTop + ta.clientHeight) { this.band.hidden = true; return; }
    this.band.hidden = false;
    this.band.style.top = `${top}px`;
    this.band.style.height = `${lh}px`;
    this.band.style.left = `${ta.offsetLeft + borderLeft}px`;
    this.band.style.width = `${ta.clientWidth}px`;
    // the column, counted as the textarea lays it out (tabs to the next stop)
    const text = ta.value;
    let start = 0;
    for (let l = 1; l < mark.line && start !== -1; l++) start = text.indexOf("\n", start) + 1 || -1;
    let x = 0;
    if (start >= 0) {
      for (let i = start, end = start + mark.column - 1; i < end && i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) break;
        if (c === 9) x = (Math.floor(x / tab) + 1) * tab;
        else if (c < 0xdc00 || c > 0xdfff) x++;  // a surrogate pair is one character
      }
    }
    const left = padLeft + x * this.charW - ta.scrollLeft;
    this.tick.hidden = left < 0 || left > ta.clientWidth;
    this.tick.style.left = `${left}px`;
  }
}

/**
 * One document input: a textarea with line numbers and an error mark, a status line (size,
 * lines, parse state), open file / drop / paste, session storage, and a large text (a 20 MB
 * log) held in memory instead of the textarea (laying that much text out freezes the tab).
 *
 *   const doc = new DocumentInput({ textarea, fileInput, status, storageKey: "format:text",
 *     onChange: ({ reason, explicit, empty, live }) => { ... } });
 *   doc.text; doc.isBig; doc.isLive; doc.isEmpty; doc.sourceName
 *   doc.setText(text, { name, reason }); doc.clear()
 *   doc.setState({ kind: "ok" | "error" | "busy" | "large", line, column }) // status line + mark
 *   doc.showError(error, { select })     // mark the error's line (select it when asked)
 *   doc.post(url, body, { signal })      // postJSON, or postLarge for a large text
 *
 * onChange reasons: "type" (typing), "paste" / "drop" (the browser put text in), "file",
 * "sample", "clear", "set" (setText from the page); `explicit` is true for all but "type":
 * the page runs at once and may select the error line.
 */
export class DocumentInput {
  constructor({ textarea, fileInput = null, status, storageKey, liveLimit = 1_000_000, bigLimit = 2_000_000,
    keepLimit = 2_000_000, what = "input", bigId = "bigtext", largeStatus = "large input: press Ctrl/⌘+Enter to run",
    bigHint = "Press Ctrl/⌘+Enter to run.", onChange = () => {} }) {
    this.ta = textarea;
    this.statusEl = status;
    this.liveLimit = liveLimit; this.bigLimit = bigLimit; this.keepLimit = keepLimit;
    this.largeStatus = largeStatus; this.bigHint = bigHint; this.what = what;
    this.onChange = onChange;
    this.storeKey = STORE_PREFIX + storageKey;
    this.big = null;          // {text, name, size}
    this.sourceName = null;   // the file the text came from
    this.state = null;
    this.note = null;         // a lasting remark for the status line ("not UTF-8 …")
    this.save = persist(textarea, storageKey);
    this.gutter = new LineGutter(textarea);
    this.bigPanel = h("div", { class: "bigtext", id: bigId, role: "group", "aria-label": `Large ${what}` });
    this.bigPanel.hidden = true;
    this.gutter.wrap.after(this.bigPanel);
    this.statusSoon = debounce(() => this.updateStatus(), 120);

    textarea.addEventListener("input", (e) => {
      if (this.quiet) return;
      const type = e.inputType || "";
      const reason = type === "insertFromPaste" ? "paste" : type === "insertFromDrop" ? "drop" : type === "" ? "set" : "type";
      this.note = null;
      this._forget();
      this._changed(reason);
    });
    textarea.addEventListener("paste", (e) => {
      const text = e.clipboardData?.getData("text/plain") ?? "";
      if (text.length <= this.bigLimit) return;  // the browser pastes it as usual
      e.preventDefault();
      this.note = null;
      this._enterBig(text, "Pasted text");
      this._changed("paste");
    });
    if (fileInput) {
      fileInput.addEventListener("change", () => { const f = fileInput.files[0]; fileInput.value = ""; this.loadFile(f); });
    }
    for (const target of [textarea, this.bigPanel]) {
      target.addEventListener("dragover", (e) => { e.preventDefault(); target.classList.add("drop"); });
      target.addEventListener("dragleave", () => target.classList.remove("drop"));
      target.addEventListener("drop", (e) => {
        target.classList.remove("drop");
        if (e.dataTransfer?.files?.length) { e.preventDefault(); this.loadFile(e.dataTransfer.files[0]); }
      });
    }
  }

  get text() { return this.big ? this.big.text : this.ta.value; }
  get isBig() { return Boolean(this.big); }
  get isEmpty() { return !this.text.trim(); }
  get isLive() { return this.text.length <= this.liveLimit; }

  /** Read a file (UTF-8, in slices) into the input. */
  async loadFile(file) {
    if (!file) return;
    const { text, bytes, utf8 } = await readTextFile(file);
    this.note = null;
    if (!utf8) {
      toast(`${file.name} is not UTF-8 text; invalid bytes are shown as \uFFFD`);
      this.note = h("span", { class: "bad", title: "The file has bytes that are not UTF-8; each is shown as \uFFFD, so the text checked here is not exactly the file" },
        "not UTF-8: bad bytes shown as \uFFFD");
    } else if (!text.length) {
      this.note = h("span", {}, `${file.name} is empty`);
    }
    this.setText(text, { name: file.name, bytes, reason: "file", keepNote: true });
  }

  /** Put `text` in the input (a large one is held in memory) and tell the page. */
  setText(text, { name = null, bytes, reason = "set", keepNote = false } = {}) {
    if (!keepNote) this.note = null;
    this.sourceName = name;
    if (text.length > this.bigLimit) {
      this._enterBig(text, name || "Pasted text", bytes);
    } else {
      this._leaveBig();
      this.quiet = true;
      try {
        this.ta.value = text;
        this.ta.dispatchEvent(new Event("input", { bubbles: true }));  // persist() and the gutter listen
      } finally { this.quiet = false; }
      this._forget();
    }
    this._changed(reason);
  }

  clear() { this.setText("", { reason: "clear" }); this.ta.focus(); }

  _forget() {
    if (this.ta.value.length > this.keepLimit) {
      try { sessionStorage.removeItem(this.storeKey); } catch { /* ignore */ }
    }
  }

  _changed(reason) {
    this.onChange({ reason, explicit: reason !== "type", empty: this.isEmpty, live: this.isLive });
  }

  _enterBig(text, name, bytes) {
    this.big = { text, name, size: `${formatBytes(bytes ?? new Blob([text]).size)} · ${countLines(text).toLocaleString("en-US")} lines` };
    this.ta.value = "";
    this.gutter.wrap.hidden = true;
    try { sessionStorage.removeItem(this.storeKey); } catch { /* ignore */ }
    this.bigPanel.replaceChildren(
      h("div", {}, h("strong", {}, name), ` · ${this.big.size}`),
      h("div", { class: "muted" }, "Held in memory rather than in the text box: laying out this much text in the page would freeze it. ",
        this.bigHint, " It is not kept across a reload of the tab."),
      h("div", { class: "toolbar" },
        h("button", { type: "button", "data-action": "edit-big", onclick: () => {
          const t = this.big.text;
          this._leaveBig();
          this.ta.value = t;
          this.ta.dispatchEvent(new Event("input", { bubbles: true }));
        } }, "Edit as text (slow)")));
    this.bigPanel.hidden = false;
    this.state = { kind: "large" };
    this.updateStatus();
  }

  _leaveBig() {
    if (!this.big) return;
    this.big = null;
    this.gutter.wrap.hidden = false;
    this.bigPanel.hidden = true;
    this.bigPanel.replaceChildren();
  }

  _label() {
    const s = this.state;
    if (!s) return null;
    if (s.kind === "ok") return h("span", { class: "good" }, "valid JSON");
    if (s.kind === "error") return h("span", { class: "bad" }, s.line ? `error at ${s.line}:${s.column}` : "error");
    if (s.kind === "busy") return h("span", {}, "checking…");
    if (s.kind === "large") return h("span", {}, this.largeStatus);
    return null;
  }

  /** The status line: size · lines · parse state (· not kept on reload) (· note). */
  updateStatus() {
    const text = this.text, el = this.statusEl;
    el.replaceChildren();
    const parts = [];
    if (text) {
      parts.push(this.big ? this.big.size : sizeLine(text));
      if (!text.trim()) parts.push("only white space: nothing to read yet");
      else {
        const label = this._label();
        if (label) parts.push(label);
      }
      const kept = !this.big && text.length <= this.keepLimit && (sessionStorage.getItem(this.storeKey)?.length ?? -1) === text.length;
      if (!kept) parts.push(h("span", { title: "Too large for session storage: it will not survive a reload of the tab" }, "not kept on reload"));
    }
    if (this.note) parts.push(this.note);
    parts.forEach((p, i) => el.append(i ? " · " : "", p));
  }

  /** Set the parse state shown in the status line; an error also marks its line. */
  setState(state, { soon = false } = {}) {
    this.state = state;
    if (state?.kind === "error" && state.line && !this.big) this.gutter.mark(state.line, state.column);
    else if (state?.kind === "ok" || !state) this.gutter.clear();
    if (soon) this.statusSoon(); else this.updateStatus();
  }

  /** An API error on this input: status line, line mark, and (select) the line selected. */
  showError(error, { select = false } = {}) {
    this.setState({ kind: "error", line: error.line, column: error.column });
    if (error.line && select && !this.big) markInTextarea(this.ta, error.line, error.column);
  }

  /** Select a place in the textarea (not for a large text). */
  select(line, column) { if (line && !this.big) markInTextarea(this.ta, line, column); }

  /** POST `body`; a long text is encoded in slices (see postLarge). */
  post(url, body, options) { return postLarge(url, body, options); }
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
