// Document inputs: a textarea with line numbers and an error mark, session storage, files
// opened or dropped, and a large text held in memory.

import { debounce, pause, postLarge } from "./http.js";
import { h, toast, markInTextarea } from "./dom.js";
import { formatBytes, sizeLine, countLines } from "./text.js";
import { openRedaction } from "./redact.js";
import { threshold } from "./thresholds.js";

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

/** Read a file as UTF-8 in slices (no long block of the page for a 20 MB file).
 *  Resolves to {text, bytes, utf8}: a file that is not UTF-8 is decoded with U+FFFD for its
 *  bad bytes and `utf8` false. */
export async function readTextFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const STEP = 2 << 20;   // a slice decodes in well under 100 ms on a loaded machine
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
 *   new DocumentInput({ field: "text", … })  // the page's #text, #text_file and #text-status
 *   doc.text; doc.isBig; doc.isLive; doc.isEmpty; doc.sourceName; doc.file (the File the text is, when it is UTF-8)
 *   new DocumentInput({ …, onFile: async (file) => {} })  // a file chosen or dropped: before it is read (awaited)
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
  constructor({ field = null, textarea = document.getElementById(field),
    fileInput = field === null ? null : document.getElementById(`${field}_file`),
    status = document.getElementById(`${field}-status`), storageKey, liveLimit = threshold("live"), bigLimit = threshold("big"),
    keepLimit = threshold("keep"), what = "input", bigId = "bigtext", largeStatus = "large input: press Ctrl/⌘+Enter to run",
    bigHint = "Press Ctrl/⌘+Enter to run.", doneHint = "The result for it is shown.", onChange = () => {}, onFile = () => {} }) {
    this.ta = textarea;
    this.statusEl = status;
    this.liveLimit = liveLimit; this.bigLimit = bigLimit; this.keepLimit = keepLimit;
    this.largeStatus = largeStatus; this.bigHint = bigHint; this.doneHint = doneHint; this.what = what;
    this.fileInput = fileInput;
    this.onChange = onChange;
    this.onFile = onFile;     // a file was chosen or dropped, before it is read: a view may work on its bytes first (the text waits for its promise)
    this.file = null;         // the File the text was read from (null: typed, pasted, set)
    this.loading = null;      // the File being read
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
    this.lostKey = `${this.storeKey}:lost`;
    this.lostPanel = h("div", { class: "lostnote", id: `${bigId}-lost`, role: "status" });
    this.lostPanel.hidden = true;
    this.bigPanel.after(this.lostPanel);
    this._showLost();
    this._redactButton();
    this.statusSoon = debounce(() => this.updateStatus(), 120);

    textarea.addEventListener("input", (e) => {
      if (this.quiet) return;
      const type = e.inputType || "";
      const reason = type === "insertFromPaste" ? "paste" : type === "insertFromDrop" ? "drop" : type === "" ? "set" : "type";
      this.note = null;
      this.file = null;
      this._forget();
      this._changed(reason);
    });
    textarea.addEventListener("paste", (e) => {
      const text = e.clipboardData?.getData("text/plain") ?? "";
      if (text.length <= this.bigLimit) return;  // the browser pastes it as usual
      e.preventDefault();
      this.note = null;
      this.file = null;
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
    this.loading = file;      // the file being read (till its text is in)
    let read;
    try {
      await this.onFile(file);  // a view may read the file's bytes first (its first rows), then the text is decoded
      read = await readTextFile(file);
    } finally { if (this.loading === file) this.loading = null; }
    const { text, bytes, utf8 } = read;
    this.note = null;
    if (!utf8) {
      toast(`${file.name} is not UTF-8 text; invalid bytes are shown as \uFFFD`);
      this.note = h("span", { class: "bad", title: "The file has bytes that are not UTF-8; each is shown as \uFFFD, so the text checked here is not exactly the file" },
        "not UTF-8: bad bytes shown as \uFFFD");
    } else if (!text.length) {
      this.note = h("span", {}, `${file.name} is empty`);
    }
    this.setText(text, { name: file.name, bytes, reason: "file", keepNote: true, file: utf8 ? file : null });
  }

  /** Put `text` in the input (a large one is held in memory) and tell the page. */
  setText(text, { name = null, bytes, reason = "set", keepNote = false, file = null } = {}) {
    if (!keepNote) this.note = null;
    this.sourceName = name;
    this.file = file;
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
    // for the stale mark (stale.js): a change the browser does not announce (a large paste, a file)
    this.ta.dispatchEvent(new CustomEvent("workbench:input", { bubbles: true, detail: { reason } }));
    this._recordKept();
    this.onChange({ reason, explicit: reason !== "type", empty: this.isEmpty, live: this.isLive });
  }

  /** Remember in session storage when the text is not kept there (too large, or storage full):
   *  after a reload the input says so, names the file and offers to reopen it. */
  _recordKept() {
    this.lostPanel.hidden = true;
    try {
      const kept = !this.big && (sessionStorage.getItem(this.storeKey)?.length ?? -1) === this.ta.value.length;
      if (this.isEmpty || kept) { sessionStorage.removeItem(this.lostKey); return; }
      sessionStorage.setItem(this.lostKey, JSON.stringify({
        name: this.sourceName || "Pasted text", file: Boolean(this.sourceName),
        size: this.big ? this.big.size : sizeLine(this.text), why: this.big ? "big" : "full" }));
    } catch { /* no session storage: nothing to say after a reload either */ }
  }

  _showLost() {
    let lost = null;
    try { lost = this.ta.value ? null : JSON.parse(sessionStorage.getItem(this.lostKey) || "null"); } catch { lost = null; }
    if (!lost) return;
    const why = lost.why === "big"
      ? "a text this large is held in memory rather than in the text box, and the tab's session storage (a few MB for the whole site) cannot hold it."
      : "the tab's session storage was full.";
    const reopen = lost.file && this.fileInput
      ? h("button", { type: "button", class: "primary", "data-reopen": "", title: "Opens the file picker: the browser lets a page read a file only when you choose it",
        onclick: () => this.fileInput.click() }, `Reopen ${lost.name}`)
      : h("span", { class: "muted" }, "Paste it again to go on.");
    this.lostPanel.replaceChildren(
      h("div", {}, h("strong", {}, lost.name), ` (${lost.size}) was not kept across the reload: `, why),
      h("div", { class: "toolbar" }, reopen,
        h("button", { type: "button", onclick: () => { this.lostPanel.hidden = true; try { sessionStorage.removeItem(this.lostKey); } catch { /* ignore */ } } }, "Dismiss")));
    this.lostPanel.hidden = false;
  }

  /** "Copy redacted…" in the input's toolbar: a preview of the redacted text (a diff against
   *  this one) before anything is copied; see redact.js. */
  _redactButton() {
    const button = h("button", { type: "button", class: "redact-open", "data-redact": this.what,
      title: "Copy this text with its values replaced by placeholders (structure, keys, lengths and id shapes kept): previewed as a diff first",
      onclick: () => openRedaction({ text: this.text, name: this.sourceName || this.what }) }, "Copy redacted…");
    const bar = this.ta.closest("section, details, .pane, .gate-input")?.querySelector(".toolbar");
    const grow = bar?.querySelector(":scope > .grow");
    if (grow) grow.before(button); else if (bar) bar.append(button); else this.statusEl.after(button);
    this.redactButton = button;
  }

  _enterBig(text, name, bytes) {
    this.big = { text, name, size: `${formatBytes(bytes ?? new Blob([text]).size)} · ${countLines(text).toLocaleString("en-US")} lines` };
    this.ta.value = "";
    this.gutter.wrap.hidden = true;
    try { sessionStorage.removeItem(this.storeKey); } catch { /* ignore */ }
    this.bigPanel.replaceChildren(
      h("div", {}, h("strong", {}, name), ` · ${this.big.size}`),
      h("div", { class: "muted" }, "Held in memory rather than in the text box: laying out this much text in the page would freeze it. ",
        this.hintEl = h("span", { class: "bighint" }, this.bigHint), " It is not kept across a reload of the tab."),
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
    if (this.big && this.hintEl) {
      const k = state?.kind;
      this.hintEl.textContent = k === "ok" || k === "error" ? this.doneHint : k === "busy" ? "Running…" : this.bigHint;
    }
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

