// JSON Workbench: the exact JSON tokenizer and node table shared by the viewer and the
// redaction preview.  Numbers and strings are kept as written (offsets into the text, never a
// JS Number); a text is read in resumable steps of a few milliseconds.
//
//   const m = new Model(text, autoDepth); while (!m.step(12)) await yieldToPage();
//   m.error (null or {message, offset, line, column}); m.n nodes; m.kind[i], m.vS[i], m.vE[i] …

export const OBJ = 0, ARR = 1, STR = 2, NUM = 3, TRUE = 4, FALSE = 5, NULL = 6;
export const KIND_NAMES = ["object", "array", "string", "number", "true", "false", "null"];

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

// ------------------------------------------------------------------ the model: tokenizer + node table

const S_VALUE = 0, S_ARR_FIRST = 1, S_OBJ_FIRST = 2, S_KEY = 3, S_AFTER = 4, S_COLON = 5, S_END = 6;

class ViewerParseError extends Error {
  constructor(message, offset) { super(message); this.offset = offset; }
}

/** The node table's columns (one typed array each, one slot a node) and their array types. */
const NODE_COLUMNS = [
  ["kind", Uint8Array], ["open", Uint8Array], ["depth", Uint32Array], ["parent", Int32Array],
  ["size", Int32Array], ["count", Int32Array], ["idx", Int32Array], ["kS", Int32Array], ["kE", Int32Array],
  ["vS", Int32Array], ["vE", Int32Array], ["line", Int32Array], ["lineEnd", Int32Array],
];

/** The node table of one text, filled by a resumable strict tokenizer (RFC 8259). */
export class Model {
  constructor(text, autoDepth) {
    this.text = text;
    this.autoDepth = autoDepth;
    this.n = 0;
    this.cap = 0;
    this.grow(Math.max(16, text.length >> 4));
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
    for (const [name, Ctor] of NODE_COLUMNS) {
      const a = new Ctor(cap);
      if (this[name]) a.set(this[name].subarray(0, this.n));
      this[name] = a;
    }
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

export function lineCol(text, offset) {
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


/** Read `text` whole, at once (for texts a user acts on explicitly: a few MB at most). */
export function readModel(text, autoDepth = 0) {
  const m = new Model(text, autoDepth);
  m.step(Infinity);
  return m;
}

/** The same JSON text on one line: white space between tokens removed, every token (numbers,
 *  strings with their escapes) kept exactly as written. */
export function compactJson(text) {
  if (!/[\n\r\t ]/.test(text)) return text;
  let out = "", i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      while (j < n) { const d = text.charCodeAt(j); if (d === 92) j += 2; else if (d === 34) break; else j++; }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === 32 || c === 10 || c === 13 || c === 9) {
      i++;
    } else {
      let j = i + 1;
      while (j < n) { const d = text.charCodeAt(j); if (d === 34 || d === 32 || d === 10 || d === 13 || d === 9) break; j++; }
      out += text.slice(i, j);
      i = j;
    }
  }
  return out;
}
