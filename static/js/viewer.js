// JSON Workbench: the shared read-only JSON viewer.
//
//   import { JsonViewer } from "/static/js/viewer.js";
//   const v = new JsonViewer(el, { onSelect: (node) => {}, maxAutoExpandDepth: 3 });
//   await v.setText(text);          // exact JSON text
//   v.highlight(["/a/0"], "match"); v.reveal("/a/0"); v.expandAll(); v.collapseAll(); v.clear();
//   await v.find("call_123");       // the find box: hits in keys and values, "3 of 41"
//
// The text is read by its own tokenizer: numbers are shown as written (never through a JS
// Number), strings with their escapes as written, duplicate keys both shown.  Nodes live in
// typed arrays (one entry per value, in document order); the rows on screen are a flat list of
// node indices built from the fold state, and only the rows in view get DOM elements (virtual
// scrolling), so a 20 MB document stays usable.  Large texts are read in slices of a few
// milliseconds so input is never blocked for long.
//
// Find (a box in the toolbar, Ctrl/⌘+F inside the viewer, Enter / Shift+Enter for the next /
// previous hit) searches the model, not the page: every key and value as written, folded and
// off-screen ones too, in slices of a few milliseconds; the current hit is unfolded and selected.
//
// For tests: the container carries data-rows (rows in the model) and data-state
// (empty | loading | ready | invalid), data-find-hits and data-find-current (1-based) after a
// search; every row element of a value carries data-pointer.

import { copyText, download, h, formatBytes, debounce } from "./app.js";

const OBJ = 0, ARR = 1, STR = 2, NUM = 3, TRUE = 4, FALSE = 5, NULL = 6;
const KIND_NAMES = ["object", "array", "string", "number", "true", "false", "null"];
const SLICE_MS = 12;          // longest stretch of tokenizing without yielding to the page
const OVERSCAN = 12;          // rows rendered above and below the visible ones
const MAX_SPACER_PX = 8_000_000;  // beyond this the scrollbar maps proportionally onto rows
const MAX_TOKEN_CHARS = 2000; // a longer string is shown cut, with a "… N more" toggle

// ------------------------------------------------------------------ escaping helpers

/** RFC 6901: "~" → "~0", "/" → "~1". */
export function escapePointerToken(s) {
  return s.indexOf("~") === -1 && s.indexOf("/") === -1 ? s : s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** RFC 9535 normalized-path name escaping (inside single quotes). */
export function escapeNormalizedName(s) {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) out += "\\\\";
    else if (c === 0x27) out += "\\'";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c < 0x20) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += s[i];
  }
  return out;
}

/** "$['a'][0]" from parts (strings are names, numbers are indices). */
export function normalizedPath(parts) {
  let out = "$";
  for (const p of parts) out += typeof p === "number" ? `[${p}]` : `['${escapeNormalizedName(p)}']`;
  return out;
}

/** "/a/0" from parts. */
export function jsonPointer(parts) {
  let out = "";
  for (const p of parts) out += "/" + (typeof p === "number" ? String(p) : escapePointerToken(p));
  return out;
}

/** Parts of a JSON Pointer ("" → []); null when it is not a pointer. */
export function splitPointer(pointer) {
  if (pointer === "") return [];
  if (typeof pointer !== "string" || pointer[0] !== "/") return null;
  return pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function plural(n, one, many) { return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`; }

function yieldToPage() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
    ch.port2.postMessage(0);
  });
}

// ------------------------------------------------------------------ the model: tokenizer + node table

const S_VALUE = 0, S_ARR_FIRST = 1, S_OBJ_FIRST = 2, S_KEY = 3, S_AFTER = 4, S_COLON = 5, S_END = 6;

class ViewerParseError extends Error {
  constructor(message, offset) { super(message); this.offset = offset; }
}

/** The node table of one text, filled by a resumable strict tokenizer (RFC 8259). */
class Model {
  constructor(text, autoDepth) {
    this.text = text;
    this.autoDepth = autoDepth;
    this.n = 0;
    this.cap = 0;
    this.grow(Math.max(256, text.length >> 4));
    this.pos = 0;
    this.state = S_VALUE;
    this.stack = [];
    this.keyS = -1; this.keyE = -1;
    this.lines = 0;        // lines of the fully expanded layout so far
    this.maxDepth = 0;
    this.done = false;
    this.error = null;     // {message, offset, line, column}
    this.children = new Map();   // container → Int32Array of child nodes (lazily)
    this.keyIndex = new Map();   // object → Map(key → last node with that key) (lazily)
  }

  grow(want) {
    const cap = Math.max(want, this.cap * 2);
    const re = (Ctor, old) => { const a = new Ctor(cap); if (old) a.set(old.subarray(0, this.n)); return a; };
    this.kind = re(Uint8Array, this.kind);
    this.open = re(Uint8Array, this.open);
    this.depth = re(Uint32Array, this.depth);
    this.parent = re(Int32Array, this.parent);
    this.size = re(Int32Array, this.size);
    this.count = re(Int32Array, this.count);
    this.idx = re(Int32Array, this.idx);
    this.kS = re(Int32Array, this.kS);
    this.kE = re(Int32Array, this.kE);
    this.vS = re(Int32Array, this.vS);
    this.vE = re(Int32Array, this.vE);
    this.line = re(Int32Array, this.line);
    this.lineEnd = re(Int32Array, this.lineEnd);
    this.cap = cap;
  }

  fail(message, offset) { throw new ViewerParseError(message, offset); }

  /** Read for about `budget` ms; true when the whole text is read (or found invalid). */
  step(budget) {
    try {
      return this._step(budget);
    } catch (err) {
      if (!(err instanceof ViewerParseError)) throw err;
      const { line, column } = lineCol(this.text, err.offset);
      this.error = { message: err.message, offset: err.offset, line, column };
      this.done = true;
      return true;
    }
  }

  _step(budget) {
    const t = this.text, len = t.length, stack = this.stack;
    let pos = this.pos, state = this.state;
    const t0 = performance.now();
    let iter = 0;
    for (;;) {
      if ((++iter & 2047) === 0 && performance.now() - t0 > budget) {
        this.pos = pos; this.state = state;
        return false;
      }
      let c = t.charCodeAt(pos);
      while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++pos);
      if (state === S_END) {
        if (pos < len) this.fail(`Unexpected ${describe(t, pos)} after the end of the JSON value`, pos);
        this.pos = pos; this.state = state; this.done = true;
        return true;
      }
      if (pos >= len) {
        const top = stack.length ? this.kind[stack[stack.length - 1]] : -1;
        this.fail(this.n === 0 ? "The text is empty: expected a JSON value"
          : `Unexpected end of the text: ${top === OBJ ? "the object is not closed with '}'" : top === ARR ? "the array is not closed with ']'" : "expected a value"}`, pos);
      }
      switch (state) {
        case S_OBJ_FIRST:
          if (c === 125) { pos = this.close(pos, OBJ); state = stack.length ? S_AFTER : S_END; break; }
        // fall through: a key
        case S_KEY: {
          if (c !== 34) this.fail(`Unexpected ${describe(t, pos)}: expected a key in double quotes${state === S_OBJ_FIRST ? " or '}'" : ""}`, pos);
          const end = this.scanString(pos);
          this.keyS = pos; this.keyE = end;
          pos = end; state = S_COLON;
          break;
        }
        case S_COLON:
          if (c !== 58) this.fail(`Unexpected ${describe(t, pos)}: expected ':' after the key ${t.slice(this.keyS, Math.min(this.keyE, this.keyS + 60))}`, pos);
          pos++; state = S_VALUE;
          break;
        case S_ARR_FIRST:
          if (c === 93) { pos = this.close(pos, ARR); state = stack.length ? S_AFTER : S_END; break; }
        // fall through: a value
        case S_VALUE:
          pos = this.value(pos, c);
          state = this.kind[this.n - 1] <= ARR && this.vE[this.n - 1] === -1
            ? (this.kind[this.n - 1] === OBJ ? S_OBJ_FIRST : S_ARR_FIRST)
            : (stack.length ? S_AFTER : S_END);
          break;
        case S_AFTER: {
          const top = stack[stack.length - 1];
          const k = this.kind[top];
          if (c === 44) { pos++; state = k === OBJ ? S_KEY : S_VALUE; break; }
          if ((k === OBJ && c === 125) || (k === ARR && c === 93)) {
            pos = this.close(pos, k); state = stack.length ? S_AFTER : S_END; break;
          }
          this.fail(`Unexpected ${describe(t, pos)}: expected ',' or '${k === OBJ ? "}" : "]"}' after ${k === OBJ ? "a member of the object" : "an item of the array"}`, pos);
        }
      }
    }
  }

  newNode(kind, start) {
    if (this.n === this.cap) this.grow(this.n + 1);
    const i = this.n++;
    const stack = this.stack;
    const p = stack.length ? stack[stack.length - 1] : -1;
    this.kind[i] = kind;
    this.parent[i] = p;
    this.depth[i] = stack.length;
    if (stack.length > this.maxDepth) this.maxDepth = stack.length;
    this.idx[i] = p >= 0 ? this.count[p]++ : 0;
    this.count[i] = 0;
    this.kS[i] = this.keyS; this.kE[i] = this.keyE;
    this.keyS = -1; this.keyE = -1;
    this.vS[i] = start; this.vE[i] = -1;
    this.size[i] = 1;
    this.line[i] = ++this.lines;
    this.lineEnd[i] = this.lines;
    this.open[i] = stack.length < this.autoDepth ? 1 : 0;
    return i;
  }

  close(pos, kind) {
    const i = this.stack.pop();
    this.vE[i] = pos + 1;
    this.size[i] = this.n - i;
    this.lineEnd[i] = this.count[i] > 0 ? ++this.lines : this.line[i];
    return pos + 1;
  }

  value(pos, c) {
    const t = this.text;
    if (c === 123 || c === 91) {
      const i = this.newNode(c === 123 ? OBJ : ARR, pos);
      this.stack.push(i);
      return pos + 1;
    }
    if (c === 34) {
      const end = this.scanString(pos);
      const i = this.newNode(STR, pos); this.vE[i] = end;
      return end;
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      const end = this.scanNumber(pos);
      const i = this.newNode(NUM, pos); this.vE[i] = end;
      return end;
    }
    if (c === 116 && t.startsWith("true", pos)) { const i = this.newNode(TRUE, pos); this.vE[i] = pos + 4; return pos + 4; }
    if (c === 102 && t.startsWith("false", pos)) { const i = this.newNode(FALSE, pos); this.vE[i] = pos + 5; return pos + 5; }
    if (c === 110 && t.startsWith("null", pos)) { const i = this.newNode(NULL, pos); this.vE[i] = pos + 4; return pos + 4; }
    this.fail(`Unexpected ${describe(t, pos)}: expected a value`, pos);
  }

  scanString(pos) {
    const t = this.text, len = t.length;
    let i = pos + 1;
    for (;;) {
      if (i >= len) this.fail("The string is not closed: expected '\"'", pos);
      const c = t.charCodeAt(i);
      if (c === 34) return i + 1;
      if (c === 92) {
        const e = t.charCodeAt(i + 1);
        if (e === 117) {
          for (let k = 2; k < 6; k++) {
            const x = t.charCodeAt(i + k);
            if (!((x >= 48 && x <= 57) || (x >= 65 && x <= 70) || (x >= 97 && x <= 102))) this.fail("Bad \\u escape: expected 4 hexadecimal digits", i);
          }
          i += 6;
        } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
          i += 2;
        } else {
          this.fail(`Bad escape ${describe(t, i + 1)} in a string`, i);
        }
        continue;
      }
      if (c < 32) this.fail("A control character must be escaped inside a string", i);
      i++;
    }
  }

  scanNumber(pos) {
    const t = this.text;
    let i = pos;
    let c = t.charCodeAt(i);
    if (c === 45) c = t.charCodeAt(++i);
    if (c === 48) c = t.charCodeAt(++i);
    else if (c >= 49 && c <= 57) { do c = t.charCodeAt(++i); while (c >= 48 && c <= 57); }
    else this.fail("Bad number: expected a digit", i);
    if (c === 46) {
      c = t.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) this.fail("Bad number: expected a digit after '.'", i);
      do c = t.charCodeAt(++i); while (c >= 48 && c <= 57);
    }
    if (c === 101 || c === 69) {
      c = t.charCodeAt(++i);
      if (c === 43 || c === 45) c = t.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) this.fail("Bad number: expected a digit in the exponent", i);
      do c = t.charCodeAt(++i); while (c >= 48 && c <= 57);
    }
    return i;
  }

  // ---- queries

  keyOf(i) {
    const s = this.kS[i];
    if (s < 0) return null;
    const raw = this.text.slice(s + 1, this.kE[i] - 1);
    return raw.indexOf("\\") === -1 ? raw : JSON.parse(this.text.slice(s, this.kE[i]));
  }

  partOf(i) {
    const p = this.parent[i];
    return this.kind[p] === OBJ ? this.keyOf(i) : this.idx[i];
  }

  parts(i) {
    const out = [];
    for (let j = i; j > 0; j = this.parent[j]) out.push(this.partOf(j));
    return out.reverse();
  }

  childList(c) {
    let list = this.children.get(c);
    if (!list) {
      list = new Int32Array(this.count[c]);
      let k = 0;
      for (let j = c + 1, end = c + this.size[c]; j < end; j += this.size[j]) list[k++] = j;
      this.children.set(c, list);
    }
    return list;
  }

  childByKey(c, key) {
    const list = this.childList(c);
    if (list.length <= 16) {
      let found = -1;
      for (const j of list) if (this.keyOf(j) === key) found = j;  // the last of duplicates
      return found;
    }
    let index = this.keyIndex.get(c);
    if (!index) {
      index = new Map();
      for (const j of list) index.set(this.keyOf(j), j);
      this.keyIndex.set(c, index);
    }
    return index.has(key) ? index.get(key) : -1;
  }

  /** Node of a JSON Pointer, or -1. */
  find(pointer) {
    if (this.n === 0) return -1;
    const parts = splitPointer(pointer);
    if (parts === null) return -1;
    let node = 0;
    for (const part of parts) {
      const k = this.kind[node];
      if (k === OBJ) node = this.childByKey(node, part);
      else if (k === ARR && /^(0|[1-9][0-9]*)$/.test(part) && Number(part) < this.count[node]) node = this.childList(node)[Number(part)];
      else return -1;
      if (node < 0) return -1;
    }
    return node;
  }
}

function lineCol(text, offset) {
  let line = 1, last = -1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) { line++; last = i; }
  return { line, column: offset - last };
}

function describe(text, pos) {
  if (pos >= text.length) return "end of the text";
  const ch = String.fromCodePoint(text.codePointAt(pos));
  if (ch.charCodeAt(0) < 32) return `control character U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  return `'${ch}'`;
}


// ------------------------------------------------------------------ find helpers

/** s.toLowerCase() when that keeps every offset; otherwise character by character. */
function lowerSame(s) {
  const l = s.toLowerCase();
  if (l.length === s.length) return l;
  let out = "";
  for (const ch of s) { const c = ch.toLowerCase(); out += c.length === ch.length ? c : ch; }
  return out;
}

/** Where each node's first token starts (its key, or its value): increasing in node order. */
function tokenStarts(m) {
  if (m.tokStart) return m.tokStart;
  const a = new Int32Array(m.n);
  for (let i = 0; i < m.n; i++) a[i] = m.kS[i] >= 0 ? m.kS[i] : m.vS[i];
  m.tokStart = a;
  return a;
}

/** The node whose key or scalar value holds text[o, o + len), or -1 (punctuation, white space). */
function nodeAt(m, starts, o, len) {
  let lo = 0, hi = m.n - 1;
  if (hi < 0 || starts[0] > o) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= o) lo = mid; else hi = mid - 1;
  }
  const i = lo;
  if (m.kS[i] >= 0 && o >= m.kS[i] && o + len <= m.kE[i]) return i;
  if (m.kind[i] > ARR && o >= m.vS[i] && o + len <= m.vE[i]) return i;
  return -1;
}

/** The end of the token of node i that holds offset o. */
function tokenEnd(m, i, o) {
  return m.kS[i] >= 0 && o < m.kE[i] ? m.kE[i] : m.vE[i];
}

/** Add the viewer's find keys to the page's shortcut list (the `?` dialog), once. */
function listShortcut() {
  const table = document.querySelector("#shortcuts table");
  if (!table || table.querySelector("[data-viewer-find]")) return;
  const rows = table.querySelectorAll("tr");
  const row = h("tr", { "data-viewer-find": "" },
    h("td", {}, h("kbd", {}, "Ctrl"), "/", h("kbd", {}, "⌘"), "+", h("kbd", {}, "F"), " in a viewer"),
    h("td", {}, "find in keys and values (folded ones too); ", h("kbd", {}, "Enter"), " / ", h("kbd", {}, "Shift"), "+", h("kbd", {}, "Enter"), " next / previous"));
  const before = rows.length >= 2 ? rows[rows.length - 2] : null;   // above "?" and "Esc"
  if (before) before.before(row); else table.append(row);
}

// ------------------------------------------------------------------ the viewer

let uid = 0;

export class JsonViewer {
  /**
   * @param {HTMLElement} container
   * @param {{onSelect?: Function, maxAutoExpandDepth?: number, indent?: number|string,
   *          filename?: string, label?: string, toolbar?: boolean}} options
   */
  constructor(container, options = {}) {
    this.el = container;
    this.onSelect = options.onSelect || null;
    this.maxAutoExpandDepth = options.maxAutoExpandDepth ?? 3;
    this.filename = options.filename || "document.json";
    this.setIndent(options.indent ?? 2);
    this.id = `jv${++uid}`;
    this.text = "";
    this.m = null;
    this.rows = new Int32Array(0);
    this.rowCount = 0;
    this.sel = -1;
    this.marks = new Map();      // class → Set of nodes
    this.full = new Set();       // nodes whose long string is shown whole
    this.ptrCache = new Map();
    this.pending = [];
    this.gen = 0;
    this.rowH = 0;
    this.from = -1; this.to = -1;
    this.frame = 0;
    this.ready = Promise.resolve();
    this._build(options);
  }

  setIndent(indent) {
    this.indentUnit = indent === "tab" || indent === "\t" ? "\t" : " ".repeat(Math.max(1, Math.min(8, Number(indent) || 2)));
  }

  _build(options) {
    const el = this.el;
    el.classList.add("jv");
    el.replaceChildren();
    const btn = (label, act, title) => h("button", { type: "button", "data-act": act, title }, label);
    this.bar = h("div", { class: "jv-bar toolbar", role: "toolbar", "aria-label": options.label ? `${options.label} viewer` : "JSON viewer" },
      btn("Expand all", "expand", "Unfold every object and array"),
      btn("Collapse all", "collapse", "Fold everything below the top level"),
      h("span", { class: "grow" }),
      btn("Copy all", "copy", "Copy the whole document"),
      btn("Download", "download", "Save the whole document as a file"),
      this._findBox());
    this.pathEl = h("code", { class: "jv-path", title: "Normalized path (RFC 9535)" });
    this.ptrEl = h("code", { class: "jv-pointer", title: "JSON Pointer (RFC 6901)" });
    this.selBar = h("div", { class: "jv-sel" },
      h("span", { class: "jv-sel-label" }, "Path"), this.pathEl, btn("Copy path", "copy-path", "Copy the JSONPath of the selected node"),
      h("span", { class: "jv-sel-label" }, "Pointer"), this.ptrEl, btn("Copy pointer", "copy-pointer", "Copy the JSON Pointer of the selected node"),
      btn("Copy value", "copy-value", "Copy the exact JSON of the selected node"));
    this.selBar.hidden = true;
    this.msg = h("div", { class: "jv-msg", role: "status" });
    this.msg.hidden = true;
    this.spacer = h("div", { class: "jv-spacer" });
    this.win = h("div", { class: "jv-win", role: "presentation" });
    this.scroller = h("div", { class: "jv-scroll", tabindex: "0", role: "tree", "aria-label": options.label || "JSON document",
      "aria-multiselectable": "false" }, this.spacer, this.win);
    el.append(this.bar, this.selBar, this.msg, this.scroller);
    this.bar.hidden = options.toolbar === false;
    if (!this.bar.hidden) listShortcut();

    el.addEventListener("click", (e) => this._onClick(e));
    el.addEventListener("keydown", (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "f" && !this.bar.hidden) {
        e.preventDefault();
        this.findInput.focus();
        this.findInput.select();
      }
    });
    this.scroller.addEventListener("scroll", () => this._schedule());
    this.scroller.addEventListener("keydown", (e) => this._onKey(e));
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this._schedule(true)).observe(this.scroller);
    this._setState("empty");
  }

  _setState(state) {
    this.el.dataset.state = state;
    this.el.dataset.rows = String(this.rowCount);
  }

  // ---------------------------------------------------------------- public API

  /** Show `text`; resolves once it is read and the first rows are on screen. */
  setText(text, options = {}) {
    if (options.indent !== undefined) this.setIndent(options.indent);
    if (options.filename) this.filename = options.filename;
    const gen = ++this.gen;
    this.text = text = String(text ?? "");
    this.m = null; this.raw = null;
    this.sel = -1; this.marks = new Map(); this.full = new Set(); this.ptrCache = new Map();
    this.pending = [];
    this.rowCount = 0; this.from = this.to = -1;
    this._resetFind();
    this.selBar.hidden = true;
    this.msg.classList.remove("bad");
    delete this.el.dataset.selectedPointer; delete this.el.dataset.selectedPath;
    this.win.replaceChildren();
    this._layout();
    if (!text.trim()) { this._message(""); this._setState("empty"); this.ready = Promise.resolve(); return this.ready; }
    this._setState("loading");
    this.ready = this._load(text, gen);
    return this.ready;
  }

  /** Mark the nodes of `pointers` with class `cls` (replacing earlier marks of that class);
   *  their ancestors are unfolded.  Returns how many pointers were found. */
  highlight(pointers, cls = "match") {
    if (!this.m) { this.pending.push(() => this.highlight(pointers, cls)); return 0; }
    const set = new Set();
    let changed = false;
    for (const p of pointers || []) {
      const i = this.m.find(p);
      if (i < 0) continue;
      set.add(i);
      changed = this._expandAncestors(i) || changed;
    }
    if (set.size) this.marks.set(cls, set); else this.marks.delete(cls);
    if (changed) this._rebuild();
    this._render(true);
    return set.size;
  }

  /** Unfold down to `pointer`, scroll to it and select it.  True when it exists. */
  reveal(pointer) {
    if (!this.m) { this.pending.push(() => this.reveal(pointer)); return false; }
    const i = this.m.find(pointer);
    if (i < 0) return false;
    if (this._expandAncestors(i)) this._rebuild();
    this._select(i, { scroll: "center" });
    this.el.scrollIntoView?.({ block: "nearest" });
    return true;
  }

  expandAll() {
    if (!this.m) { this.pending.push(() => this.expandAll()); return; }
    this.m.open.fill(1, 0, this.m.n);
    this._rebuild(); this._keepSelection(); this._render(true);
  }

  collapseAll() {
    if (!this.m) { this.pending.push(() => this.collapseAll()); return; }
    this.m.open.fill(0, 0, this.m.n);
    if (this.m.n) this.m.open[0] = 1;
    if (this.sel > 0) this.sel = this._topAncestor(this.sel);
    this._rebuild(); this._keepSelection(); this._render(true);
  }

  clear() { return this.setText(""); }

  /** The selected node as given to onSelect, or null. */
  get selected() { return this.sel >= 0 && this.m ? this._nodeInfo(this.sel) : null; }

  // ---------------------------------------------------------------- loading

  async _load(text, gen) {
    const m = new Model(text, this.maxAutoExpandDepth);
    let done = m.step(SLICE_MS);
    while (!done) {
      this._message(h("span", { class: "spinner", "aria-hidden": "true" }), ` Reading ${formatBytes(text.length)}… ${Math.floor(100 * m.pos / text.length)}%`);
      await yieldToPage();
      if (gen !== this.gen) return;
      done = m.step(SLICE_MS);
    }
    if (gen !== this.gen) return;
    if (m.error) { this._showRaw(text, m.error); return; }
    this.m = m;
    this._message("");
    const digits = String(m.lines).length;
    this.el.style.setProperty("--jv-gutter", `${digits + 1}ch`);
    this._rebuild();
    this._setState("ready");
    this._render(true);
    const pending = this.pending; this.pending = [];
    for (const op of pending) op();
    if (this.findInput?.value) this.find(this.findInput.value, { reveal: false });
  }

  _message(...parts) {
    this.msg.replaceChildren(...parts);
    this.msg.hidden = !parts.some((p) => p);
  }

  /** Not JSON: say where, and show the text as plain numbered lines. */
  _showRaw(text, error) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    this.raw = { starts: Int32Array.from(starts), error };
    this.rowCount = starts.length;
    this.el.style.setProperty("--jv-gutter", `${String(starts.length).length + 1}ch`);
    this._message(`Not valid JSON (line ${error.line}, column ${error.column}): ${error.message}. Shown as plain text.`);
    this.msg.classList.add("bad");
    this._setState("invalid");
    this._layout();
    this._render(true);
  }

  // ---------------------------------------------------------------- rows

  _rebuild() {
    const m = this.m;
    const n = m.n, size = m.size, count = m.count, open = m.open, kind = m.kind;
    let rows = this.rows.length ? this.rows : new Int32Array(1024);
    let k = 0;
    const push = (v) => {
      if (k === rows.length) { const bigger = new Int32Array(rows.length * 2); bigger.set(rows); rows = bigger; }
      rows[k++] = v;
    };
    const st = [];
    let i = 0;
    while (i < n) {
      while (st.length && i >= st[st.length - 1] + size[st[st.length - 1]]) push((st.pop() << 1) | 1);
      push(i << 1);
      if (kind[i] <= ARR && count[i] > 0 && open[i]) { st.push(i); i++; } else i += size[i];
    }
    while (st.length) push((st.pop() << 1) | 1);
    this.rows = rows;
    this.rowCount = k;
    this.el.dataset.rows = String(k);
    this.from = this.to = -1;
    this._layout();
  }

  _layout() {
    if (!this.rowH) this._measure();
    const total = this.rowCount * this.rowH;
    this.scaled = total > MAX_SPACER_PX;
    this.spacer.style.height = `${Math.min(total, MAX_SPACER_PX)}px`;
  }

  _measure() {
    const probe = h("div", { class: "jv-row" }, "0");
    this.win.append(probe);
    this.rowH = probe.getBoundingClientRect().height || 0;
    probe.remove();
    if (!this.rowH) this.rowH = 0;  // not laid out yet (hidden): measured again on the next render
  }

  _schedule(force = false) {
    if (force) this.from = this.to = -1;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this._render(); });
  }

  /** Row index at the top of the viewport. */
  _firstRow() {
    const sc = this.scroller, rh = this.rowH;
    if (!this.scaled) return Math.floor(sc.scrollTop / rh);
    const maxScroll = sc.scrollHeight - sc.clientHeight;
    const visible = Math.ceil(sc.clientHeight / rh);
    return maxScroll > 0 ? Math.round((sc.scrollTop / maxScroll) * Math.max(0, this.rowCount - visible)) : 0;
  }

  _render(force = false) {
    if (!this.rowH) { this._measure(); if (!this.rowH) return; this._layout(); }
    if (!this.m && !this.raw) { this.win.replaceChildren(); return; }
    const sc = this.scroller, rh = this.rowH;
    const visible = Math.ceil((sc.clientHeight || 600) / rh) + 1;
    const first = Math.min(this._firstRow(), Math.max(0, this.rowCount - 1));
    const from = Math.max(0, first - OVERSCAN);
    const to = Math.min(this.rowCount, first + visible + OVERSCAN);
    const top = this.scaled ? sc.scrollTop - (first - from) * rh : from * rh;
    this.win.style.transform = `translateY(${Math.max(0, top)}px)`;
    if (!force && from === this.from && to === this.to) return;
    this.from = from; this.to = to;
    const frag = document.createDocumentFragment();
    for (let r = from; r < to; r++) frag.append(this.raw ? this._rawRow(r) : this._row(r));
    this.win.replaceChildren(frag);
    this._refreshSelection();
  }

  /** Mark the selected row among the rendered ones (no re-render: a text selection survives). */
  _refreshSelection() {
    let active = null;
    for (const row of this.win.children) {
      const v = this.rows[Number(row.dataset.row)];
      const on = !this.raw && this.sel >= 0 && v === this.sel << 1;
      row.classList.toggle("selected", on);
      if (row.hasAttribute("aria-selected")) row.setAttribute("aria-selected", on ? "true" : "false");
      if (on) active = row;
    }
    if (active) this.scroller.setAttribute("aria-activedescendant", active.id);
    else this.scroller.removeAttribute("aria-activedescendant");
  }

  _rawRow(r) {
    const { starts, error } = this.raw;
    const s = starts[r];
    const e = r + 1 < starts.length ? starts[r + 1] - 1 : this.text.length;
    const row = h("div", { class: r + 1 === error.line ? "jv-row error" : "jv-row", "data-row": r, "data-line": r + 1 },
      h("span", { class: "jv-ln", "aria-hidden": "true" }, String(r + 1)),
      h("span", { class: "jv-tog" }));
    const line = this.text.slice(s, Math.min(e, s + MAX_TOKEN_CHARS)).replace(/\r$/, "");
    row.append(line + (e - s > MAX_TOKEN_CHARS ? " …" : ""));
    return row;
  }

  _row(r) {
    const m = this.m, t = this.text;
    const v = this.rows[r], i = v >> 1, closing = (v & 1) === 1;
    const k = m.kind[i];
    const row = document.createElement("div");
    row.id = `${this.id}-r${r}`;
    row.dataset.row = String(r);
    let cls = "jv-row";
    if (i === this.sel) cls += " selected";
    const ln = h("span", { class: "jv-ln", "aria-hidden": "true" }, String(closing ? m.lineEnd[i] : m.line[i]));
    const tog = h("span", { class: "jv-tog", "aria-hidden": "true" });
    row.append(ln, tog, this.indentUnit.repeat(m.depth[i]));
    const p = m.parent[i];
    const comma = p >= 0 && m.idx[i] < m.count[p] - 1;
    if (closing) {
      cls += " jv-close";
      row.dataset.closes = this._pointer(i);
      row.setAttribute("role", "none");
      row.append(h("span", { class: "jv-p" }, k === OBJ ? "}" : "]"));
      if (comma) row.append(h("span", { class: "jv-p" }, ","));
      row.className = cls;
      return row;
    }
    for (const [c, set] of this.marks) if (set.has(i)) cls += ` jv-marked ${c}`;
    if (this.fFlags && this.fFlags[i]) cls += i === this.fNode ? " jv-found jv-found-current" : " jv-found";
    row.className = cls;
    row.dataset.pointer = this._pointer(i);
    row.setAttribute("role", "treeitem");
    row.setAttribute("aria-level", String(m.depth[i] + 1));
    row.setAttribute("aria-selected", i === this.sel ? "true" : "false");
    if (m.kS[i] >= 0) {
      row.append(this._token(i, m.kS[i], m.kE[i], "jv-key"), h("span", { class: "jv-p" }, ": "));
    }
    if (k <= ARR) {
      const n = m.count[i];
      const [o, c] = k === OBJ ? ["{", "}"] : ["[", "]"];
      if (n === 0) {
        row.append(h("span", { class: "jv-p" }, o + c));
      } else if (m.open[i]) {
        tog.textContent = "▾"; tog.classList.add("on");
        row.setAttribute("aria-expanded", "true");
        row.append(h("span", { class: "jv-p" }, o));
      } else {
        tog.textContent = "▸"; tog.classList.add("on");
        row.setAttribute("aria-expanded", "false");
        row.append(h("span", { class: "jv-fold", title: "Unfold" }, `${o}…${c}`),
          h("span", { class: "jv-count" }, ` ${k === OBJ ? plural(n, "key", "keys") : plural(n, "item", "items")}`));
        if (comma) row.append(h("span", { class: "jv-p" }, ","));
        return row;
      }
    } else {
      const cl = k === STR ? "jv-str" : k === NUM ? "jv-num" : "jv-lit";
      row.append(this._token(i, m.vS[i], m.vE[i], cl));
    }
    if (comma && !(k <= ARR && m.count[i] > 0)) row.append(h("span", { class: "jv-p" }, ","));
    return row;
  }

  /** A token's exact text; a very long one is cut with a "… N more characters" toggle. */
  _token(i, s, e, cls) {
    const span = h("span", { class: cls });
    const marked = this.fFlags && this.fFlags[i];
    if (e - s <= MAX_TOKEN_CHARS || this.full.has(`${i}:${s}`)) {
      if (marked) this._markText(span, this.text.slice(s, e)); else span.textContent = this.text.slice(s, e);
      return span;
    }
    if (marked) this._markText(span, this.text.slice(s, s + MAX_TOKEN_CHARS));
    else span.textContent = this.text.slice(s, s + MAX_TOKEN_CHARS);
    const more = h("span", { class: "jv-more", "data-more": `${i}:${s}`, title: "Show the whole text" },
      `… ${(e - s - MAX_TOKEN_CHARS).toLocaleString("en-US")} more characters`);
    const wrap = h("span", {}, span, more);
    return wrap;
  }

  _pointer(i) {
    if (i === 0) return "";
    let p = this.ptrCache.get(i);
    if (p === undefined) {
      const part = this.m.partOf(i);
      p = this._pointer(this.m.parent[i]) + "/" + (typeof part === "number" ? String(part) : escapePointerToken(part));
      if (this.ptrCache.size > 50000) this.ptrCache.clear();
      this.ptrCache.set(i, p);
    }
    return p;
  }

  _nodeInfo(i) {
    const m = this.m;
    const parts = m.parts(i);
    return {
      pointer: jsonPointer(parts), path: normalizedPath(parts),
      text: this.text.slice(m.vS[i], m.vE[i]), kind: KIND_NAMES[m.kind[i]], line: m.line[i],
      key: m.kS[i] >= 0 ? m.keyOf(i) : null,
    };
  }


  // ---------------------------------------------------------------- find

  _findBox() {
    this.findInput = h("input", { type: "search", class: "jv-find", placeholder: "Find key or value",
      "aria-label": "Find in the document (keys and values, as written)", spellcheck: "false", autocomplete: "off",
      title: "Find in keys and values, folded ones too (Ctrl/⌘+F in the viewer). Enter: next, Shift+Enter: previous, Esc: clear" });
    this.findCount = h("span", { class: "jv-find-count", role: "status", "aria-live": "polite" });
    const nav = (label, act, title) => h("button", { type: "button", "data-act": act, title, "aria-label": title }, label);
    const later = debounce(() => this.find(this.findInput.value), 200);
    this.findInput.addEventListener("input", () => { if (!this.findInput.value) { later.cancel(); this.find(""); } else later(); });
    this.findInput.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        later.cancel();
        if (this.fQuery !== this.findInput.value) this.find(this.findInput.value).then(() => { if (e.shiftKey) this.findNext(-1); });
        else this.findNext(e.shiftKey ? -1 : 1);
      } else if (e.key === "Escape") {
        e.preventDefault();
        later.cancel();
        if (this.findInput.value) { this.findInput.value = ""; this.find(""); }
        else this.scroller.focus();
      }
    });
    return h("span", { class: "jv-findbar", role: "search" }, this.findInput, this.findCount,
      nav("↑", "find-prev", "Previous match (Shift+Enter)"), nav("↓", "find-next", "Next match (Enter)"));
  }

  _resetFind() {
    this.fGen = (this.fGen || 0) + 1;
    this.fQuery = ""; this.fFlags = null; this.fHits = null; this.fCur = -1; this.fNode = -1; this.fNeedles = null;
    if (this.findCount) this.findCount.textContent = "";
    delete this.el.dataset.findHits; delete this.el.dataset.findCurrent;
  }

  /** Find `query` in every key and value (as written, ignoring case); the first hit (or the
   *  first after the selection) is unfolded and selected unless reveal is false.  Resolves to
   *  the number of hits. */
  async find(query, { reveal = true } = {}) {
    if (this.findInput && this.findInput.value !== query) this.findInput.value = query;
    if (!this.m) {
      this._resetFind();
      this.fQuery = query;
      if (query && this.findCount) this.findCount.textContent = this.raw ? "find needs valid JSON" : "";
      return 0;
    }
    this._resetFind();
    const gen = this.fGen;
    this.fQuery = query;
    if (!query) { this._render(true); return 0; }
    const m = this.m, text = m.text;
    const needles = [lowerSame(query)];
    const escaped = JSON.stringify(query).slice(1, -1);   // as written inside a string: \" \\ \n …
    if (escaped !== query) needles.push(lowerSame(escaped));
    const longest = Math.max(...needles.map((n) => n.length));
    const flags = new Uint8Array(m.n);
    const starts = tokenStarts(m);
    const CH = 1 << 20;
    let t0 = performance.now();
    for (let a = 0; a < text.length; a += CH) {
      const chunk = lowerSame(text.slice(a, Math.min(text.length, a + CH + longest - 1)));
      for (const needle of needles) {
        let k = chunk.indexOf(needle);
        while (k !== -1 && k < CH) {
          const o = a + k;
          const hit = nodeAt(m, starts, o, needle.length);
          if (hit >= 0) { flags[hit] = 1; k = chunk.indexOf(needle, Math.max(k + 1, tokenEnd(m, hit, o) - a)); }
          else k = chunk.indexOf(needle, k + 1);
        }
      }
      if (performance.now() - t0 > SLICE_MS) {
        this.findCount.textContent = `searching… ${Math.floor((100 * a) / text.length)}%`;
        await yieldToPage();
        if (gen !== this.fGen || m !== this.m) return 0;
        t0 = performance.now();
      }
    }
    let count = 0;
    for (let i = 0; i < m.n; i++) count += flags[i];
    const hits = new Int32Array(count);
    for (let i = 0, k = 0; i < m.n; i++) if (flags[i]) hits[k++] = i;
    this.fFlags = flags; this.fHits = hits; this.fNeedles = needles;
    this.el.dataset.findHits = String(count);
    if (!count) {
      this.findCount.textContent = "No matches";
      this._render(true);
      return 0;
    }
    // start at the selection (or the top)
    let cur = 0;
    if (this.sel >= 0) { while (cur < count && hits[cur] < this.sel) cur++; if (cur === count) cur = 0; }
    this.fCur = cur - 1;
    if (reveal) this.findNext(1);
    else { this.findCount.textContent = `${count.toLocaleString("en-US")} match${count === 1 ? "" : "es"}`; this._render(true); }
    return count;
  }

  /** Go to the next (dir 1) or previous (dir -1) hit: unfold it, scroll to it, select it. */
  findNext(dir = 1) {
    const hits = this.fHits;
    if (!hits || !hits.length || !this.m) return false;
    this.fCur = ((this.fCur + dir) % hits.length + hits.length) % hits.length;
    const i = hits[this.fCur];
    this.fNode = i;
    this.findCount.textContent = `${(this.fCur + 1).toLocaleString("en-US")} of ${hits.length.toLocaleString("en-US")}`;
    this.el.dataset.findCurrent = String(this.fCur + 1);
    if (this._expandAncestors(i)) this._rebuild();
    this._select(i, { scroll: "center" });
    this._render(true);
    return true;
  }

  /** Put the text of a token in `span`, with each hit of the search wrapped in <mark>. */
  _markText(span, str) {
    const lower = lowerSame(str);
    const ranges = [];
    for (const needle of this.fNeedles || []) {
      if (!needle) continue;
      for (let k = lower.indexOf(needle); k !== -1; k = lower.indexOf(needle, k + needle.length)) ranges.push([k, k + needle.length]);
    }
    if (!ranges.length) { span.textContent = str; return; }
    ranges.sort((x, y) => x[0] - y[0]);
    let at = 0;
    for (const [a, b] of ranges) {
      if (a < at) continue;
      if (a > at) span.append(str.slice(at, a));
      span.append(h("mark", { class: "jv-hit" }, str.slice(a, b)));
      at = b;
    }
    if (at < str.length) span.append(str.slice(at));
  }

  // ---------------------------------------------------------------- folding and selection

  _expandAncestors(i) {
    let changed = false;
    for (let p = this.m.parent[i]; p >= 0; p = this.m.parent[p]) {
      if (!this.m.open[p]) { this.m.open[p] = 1; changed = true; }
    }
    return changed;
  }

  _topAncestor(i) {
    while (i > 0 && this.m.parent[i] > 0) i = this.m.parent[i];
    return i;
  }

  toggle(i, open) {
    const m = this.m;
    if (!m || m.kind[i] > ARR || m.count[i] === 0) return;
    const want = open === undefined ? !m.open[i] : open;
    if (!!m.open[i] === want) return;
    m.open[i] = want ? 1 : 0;
    if (!want && this.sel > i && this.sel < i + m.size[i]) this.sel = i;
    this._rebuild();
    this._keepSelection();
    this._render(true);
  }

  _rowOf(i) {
    const want = i << 1, rows = this.rows;
    for (let r = 0; r < this.rowCount; r++) if (rows[r] === want) return r;
    return -1;
  }

  _keepSelection() {
    if (this.sel < 0) return;
    const r = this._rowOf(this.sel);
    if (r >= 0) this._scrollToRow(r, "nearest");
  }

  _scrollToRow(r, how = "nearest") {
    const sc = this.scroller, rh = this.rowH || 20;
    const ch = sc.clientHeight;
    if (this.scaled) {
      const visible = Math.ceil(ch / rh);
      const maxScroll = sc.scrollHeight - ch;
      sc.scrollTop = Math.max(0, Math.min(maxScroll, ((r - Math.floor(visible / 2)) / Math.max(1, this.rowCount - visible)) * maxScroll));
    } else {
      const top = r * rh;
      if (how === "center" && (top < sc.scrollTop || top + rh > sc.scrollTop + ch)) sc.scrollTop = Math.max(0, top - ch / 2);
      else if (top < sc.scrollTop) sc.scrollTop = top;
      else if (top + rh > sc.scrollTop + ch) sc.scrollTop = top + rh - ch;
    }
    this._render();
  }

  _select(i, { scroll = "nearest", notify = true } = {}) {
    this.sel = i;
    const info = this._nodeInfo(i);
    this.pathEl.textContent = info.path;
    this.ptrEl.textContent = info.pointer === "" ? '""' : info.pointer;
    this.ptrEl.title = info.pointer === "" ? "JSON Pointer (RFC 6901): the empty pointer, the whole document" : "JSON Pointer (RFC 6901)";
    this.selBar.hidden = false;
    this.el.dataset.selectedPointer = info.pointer;
    this.el.dataset.selectedPath = info.path;
    const r = this._rowOf(i);
    if (r >= 0 && scroll) this._scrollToRow(r, scroll);
    this._refreshSelection();
    if (notify && this.onSelect) this.onSelect(info);
    return info;
  }

  _onClick(e) {
    const act = e.target.closest?.("button[data-act]");
    if (act && this.el.contains(act)) { this._action(act.dataset.act); return; }
    const more = e.target.closest?.(".jv-more");
    if (more) { this.full.add(more.dataset.more); this._render(true); return; }
    const row = e.target.closest?.(".jv-row");
    if (!row || !this.win.contains(row) || !this.m) return;
    const v = this.rows[Number(row.dataset.row)], i = v >> 1;
    if (e.target.closest(".jv-tog.on, .jv-fold")) { this.toggle(i); this._select(i, { scroll: "nearest" }); return; }
    if (v & 1) { this._select(i, { scroll: false }); return; }
    this._select(i, { scroll: false });
  }

  _action(act) {
    if (act === "find-next" || act === "find-prev") {
      const q = this.findInput.value;
      if (q && q !== this.fQuery) this.find(q).then(() => { if (act === "find-prev") this.findNext(-1); });
      else this.findNext(act === "find-next" ? 1 : -1);
    } else if (act === "expand") this.expandAll();
    else if (act === "collapse") this.collapseAll();
    else if (act === "copy") copyText(this.text, "Copied the whole document");
    else if (act === "download") download(this.text, this.filename);
    else if (this.sel >= 0 && this.m) {
      const info = this._nodeInfo(this.sel);
      if (act === "copy-path") copyText(info.path, `Copied ${info.path.length > 60 ? "the JSONPath" : info.path}`);
      else if (act === "copy-pointer") copyText(info.pointer, `Copied ${info.pointer === "" ? "the empty pointer" : info.pointer.length > 60 ? "the JSON Pointer" : info.pointer}`);
      else if (act === "copy-value") copyText(info.text, "Copied the value");
    }
  }

  _onKey(e) {
    if (!this.m || !this.rowCount || e.altKey || e.ctrlKey || e.metaKey) return;
    const m = this.m;
    let r = this.sel >= 0 ? this._rowOf(this.sel) : -1;
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / (this.rowH || 20)) - 1);
    const valueRow = (start, dir) => {
      for (let x = start; x >= 0 && x < this.rowCount; x += dir) if (!(this.rows[x] & 1)) return x;
      return -1;
    };
    let target = -1;
    switch (e.key) {
      case "ArrowDown": target = valueRow(r + 1, 1); break;
      case "ArrowUp": target = r < 0 ? valueRow(0, 1) : valueRow(r - 1, -1); break;
      case "PageDown": target = valueRow(Math.min(this.rowCount - 1, r + page), 1); if (target < 0) target = valueRow(this.rowCount - 1, -1); break;
      case "PageUp": target = valueRow(Math.max(0, r - page), -1); if (target < 0) target = valueRow(0, 1); break;
      case "Home": target = valueRow(0, 1); break;
      case "End": target = valueRow(this.rowCount - 1, -1); break;
      case "ArrowRight":
        if (this.sel < 0) { target = valueRow(0, 1); break; }
        if (m.kind[this.sel] <= ARR && m.count[this.sel] > 0) {
          if (!m.open[this.sel]) { this.toggle(this.sel, true); e.preventDefault(); return; }
          target = this._rowOf(this.sel + 1);
        }
        break;
      case "ArrowLeft":
        if (this.sel < 0) break;
        if (m.kind[this.sel] <= ARR && m.open[this.sel] && m.count[this.sel] > 0) { this.toggle(this.sel, false); e.preventDefault(); return; }
        if (m.parent[this.sel] >= 0) target = this._rowOf(m.parent[this.sel]);
        break;
      case "Enter": case " ":
        if (this.sel >= 0) { this.toggle(this.sel); e.preventDefault(); }
        return;
      default: return;
    }
    e.preventDefault();
    if (target >= 0) this._select(this.rows[target] >> 1, { scroll: "nearest" });
  }
}

export default JsonViewer;
