// The page's own reading of a large JSON text, for the first rows of a view before the server's
// exact answer arrives (issue 25): every row made here is one the server's answer also has, in the
// same place, when the document is valid; the page marks them provisional until that answer
// replaces them (an error answer removes them).  Anything these readers cannot answer exactly
// (sorted keys, a JSONPath beyond the simple ones, a duplicate key that matters, a string
// that runs past the prefix) gives no rows (null), never different ones.
//
//   formatPrefix(text, { indent, maxLines, maxChars, more })
//       → { lines, done } | null : the first complete lines of the formatted text, from a token
//         re-indenter of the text's first maxChars (white space only: numbers keep their text;
//         strings written as the server writes them: non-ASCII kept, only the escapes JSON
//         requires, a lone surrogate as \uxxxx)
//   parseSimplePath(path) → segments | null : $, .name, ['name'], [n], [*], .*, and one ..name last
//   await extractScan(bytes, segments, { maxRows, sliceMs, signal })
//       → { rows: [{path, pointer, json, line, column}], count } | null : one pass over the whole
//         text's UTF-8 bytes (a file's, read as they are: scan-worker.js runs it off the main
//         thread while the page decodes the file), the first maxRows matches in the server's order
//         (RFC 9535: descendants in pre-order), `json` the value's text as written.
//   await itemsScan(bytes, { maxRows }) → { member, rows, count, keys } | null : the first items of
//         the document's log (a top-level array, or the top-level object's first array member)
//   diffScan(leftBytes, rightBytes, { maxRows, parseStrings }) → { rows, stopped } | null : the
//         first places the two documents' values surely differ, read in step
//   await scanInWorker({ mode, file | text, utf8, segs, maxRows, left, right, signal }) → the same,
//         from a worker of its own (a file's bytes that are not UTF-8: null); warmWorker() starts
//         one ahead
//
// Plain code, no dependencies; the numbers are never read as JavaScript numbers.

import { normalizedPath, jsonPointer } from "./jsonmodel.js";

const Q = 34, BS = 92, LBRACE = 123, RBRACE = 125, LBRACK = 91, RBRACK = 93, COMMA = 44, COLON = 58;
const MAX_DEPTH = 500;   // deeper than this the page gives up (the server's own limit answers)

const isWs = (c) => c === 32 || c === 10 || c === 13 || c === 9;

function skipWs(t, i) {
  for (let c = t.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = t.charCodeAt(++i));
  return i;
}

/** The index after the string that starts at t[i] (a quote), or -1 when it does not end. */
function stringEnd(t, i) {
  let j = i + 1;
  for (;;) {
    const q = t.indexOf('"', j);
    if (q < 0) return -1;
    let k = q - 1;
    while (t.charCodeAt(k) === BS) k--;
    if (((q - 1 - k) & 1) === 0) return q + 1;
    j = q + 1;
  }
}

/** The end of a number or literal starting at t[i] (the next delimiter). */
function scalarEnd(t, i) {
  const n = t.length;
  for (; i < n; i++) {
    const c = t.charCodeAt(i);
    if (c === COMMA || c === RBRACE || c === RBRACK || c === COLON || isWs(c) || c === Q || c === LBRACE || c === LBRACK) break;
  }
  return i;
}

const SCALAR = /^(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)$/;

const HEX = "0123456789abcdef";
/** A decoded string written as the server writes it (orjson; a lone surrogate as \uxxxx). */
export function encodeString(s) {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc = null;
    if (c === Q) esc = '\\"';
    else if (c === BS) esc = "\\\\";
    else if (c < 0x20) {
      esc = c === 10 ? "\\n" : c === 13 ? "\\r" : c === 9 ? "\\t" : c === 8 ? "\\b" : c === 12 ? "\\f"
        : `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const pair = c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (pair) { i++; continue; }
      esc = `\\u${c.toString(16).padStart(4, "0")}`;
    }
    if (esc !== null) { out += s.slice(from, i) + esc; from = i + 1; }
  }
  return out + s.slice(from) + '"';
}

/** The text of the string token t[i, e) as the server writes it; null when it is not a valid
 *  string token (a raw control character, a bad escape). */
function normString(t, i, e) {
  const raw = t.slice(i, e);
  let plain = raw.indexOf("\\") < 0;
  if (plain) {
    for (let k = 1; k < raw.length - 1; k++) {
      const c = raw.charCodeAt(k);
      if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) { plain = false; break; }
    }
    if (plain) return raw;
  }
  let s;
  try { s = JSON.parse(raw); } catch { return null; }
  return encodeString(s);
}

// ------------------------------------------------------------------ Format: a token re-indenter

const OBJ = 1, ARR = 2;
const W_VALUE = 0, W_KEY = 1, W_AFTER = 2;

/**
 * The first complete lines of the formatted text of `text` (indent 1–8 or "tab"; the server's
 * layout: `{}`/`[]` for empty containers, `"key": value`, one member or element a line), made
 * from its first `maxChars` characters (`more`: `text` itself is only the start of the text).
 * `done`: the whole first value was read.  null when the text is not JSON there (the server's
 * answer says why) or cannot be answered here.
 */
export function formatPrefix(text, { indent = 2, maxLines = 300, maxChars = 1 << 17, more = false } = {}) {
  if (indent !== "tab" && !(Number.isInteger(indent) && indent >= 1 && indent <= 8)) return null;
  const unit = indent === "tab" ? "\t" : " ".repeat(indent);
  const t = text.length > maxChars ? text.slice(0, maxChars) : text;
  const cut = more || t.length < text.length;   // the text goes on after t
  const lines = [];
  const stack = [];
  let line = "";
  let want = W_VALUE;
  let i = skipWs(t, 0);
  if (t.charCodeAt(i) === 0xfeff) return null;
  const newline = () => { lines.push(line); line = unit.repeat(stack.length); };
  while (lines.length < maxLines) {
    if (want === W_AFTER && !stack.length) { lines.push(line); return { lines, done: true }; }
    i = skipWs(t, i);
    if (i >= t.length) return { lines, done: false };   // the prefix ends here
    const c = t.charCodeAt(i);
    if (want === W_AFTER) {
      const top = stack[stack.length - 1];
      if (c === COMMA) { line += ","; newline(); want = top === OBJ ? W_KEY : W_VALUE; i++; continue; }
      if ((c === RBRACE && top === OBJ) || (c === RBRACK && top === ARR)) {
        stack.pop(); newline(); line += c === RBRACE ? "}" : "]"; i++; continue;
      }
      return null;
    }
    if (want === W_KEY) {
      if (c !== Q) return null;
      const e = stringEnd(t, i);
      if (e < 0) return { lines, done: false };
      const key = normString(t, i, e);
      if (key === null) return null;
      const j = skipWs(t, e);
      if (j >= t.length) return { lines, done: false };
      if (t.charCodeAt(j) !== COLON) return null;
      line += key + ": ";
      i = j + 1; want = W_VALUE; continue;
    }
    // a value
    if (c === LBRACE || c === LBRACK) {
      const j = skipWs(t, i + 1);
      if (j >= t.length) return { lines, done: false };
      const close = c === LBRACE ? RBRACE : RBRACK;
      if (t.charCodeAt(j) === close) { line += c === LBRACE ? "{}" : "[]"; i = j + 1; want = W_AFTER; continue; }
      if (stack.length >= MAX_DEPTH) return null;
      stack.push(c === LBRACE ? OBJ : ARR);
      line += c === LBRACE ? "{" : "[";
      newline();
      i++; want = c === LBRACE ? W_KEY : W_VALUE; continue;
    }
    if (c === Q) {
      const e = stringEnd(t, i);
      if (e < 0) return { lines, done: false };
      const s = normString(t, i, e);
      if (s === null) return null;
      line += s; i = e; want = W_AFTER; continue;
    }
    const e = scalarEnd(t, i);
    if (e >= t.length && cut) return { lines, done: false };  // may go on
    const tok = t.slice(i, e);
    if (!SCALAR.test(tok)) return null;
    line += tok; i = e; want = W_AFTER;
  }
  return { lines, done: false };
}

// ------------------------------------------------------------------ Extract: the simple paths

const NAME_FIRST = /[A-Za-z_\u0080-\uffff]/;
const NAME_CHAR = /[A-Za-z0-9_\u0080-\uffff]/;

/** The segments of a simple RFC 9535 query: [{desc, name} | {index} | {wild}], or null for
 *  anything else (filters, slices, unions, negative indices, white space, escapes). */
export function parseSimplePath(path) {
  if (typeof path !== "string" || path[0] !== "$") return null;
  const segs = [];
  let i = 1;
  while (i < path.length) {
    let desc = false;
    if (path.startsWith("..", i)) { desc = true; i += 2; }
    else if (path[i] === ".") i += 1;
    else if (path[i] !== "[") return null;
    if (path[i] === "[") {
      const close = path.indexOf("]", i);
      if (close < 0) return null;
      const inner = path.slice(i + 1, close);
      i = close + 1;
      if (inner === "*") segs.push({ desc, wild: true });
      else if (/^(0|[1-9][0-9]{0,14})$/.test(inner)) segs.push({ desc, index: Number(inner) });
      else if (/^'[^'\\\x00-\x1f]*'$|^"[^"\\\x00-\x1f]*"$/.test(inner)) segs.push({ desc, name: inner.slice(1, -1) });
      else return null;
    } else if (path[i] === "*") {
      segs.push({ desc, wild: true }); i++;
    } else {
      if (!NAME_FIRST.test(path[i] || "")) return null;
      let j = i + 1;
      while (j < path.length && NAME_CHAR.test(path[j])) j++;
      const name = path.slice(i, j);
      if (/[\ud800-\udfff]/.test(name)) return null;
      segs.push({ desc, name }); i = j;
    }
  }
  // a descendant segment: only one, the last, selecting a name
  for (let k = 0; k < segs.length; k++) {
    if (segs[k].desc && (k !== segs.length - 1 || segs[k].name === undefined)) return null;
  }
  return segs;
}

const pause = () => new Promise((resolve) => {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
  ch.port2.postMessage(0);
});

class Abort extends Error {}

/**
 * The first `maxRows` matches of `segs` (parseSimplePath) in the JSON text whose UTF-8 bytes are
 * `u8` (a file's bytes as they are, or a text encoded), in the server's order, from one pass
 * over all of it (the last member of an object with a repeated key is the one a reader keeps, so
 * nothing is certain before every object on the way is closed).  null: not one JSON value (the
 * server says why), a byte order mark, a repeated key that matters, too deep.  The bytes are
 * taken to be UTF-8 (validUtf8 tells: scan-worker.js asks it of a file's bytes).
 * `count`: every match (the server's count, when it lists all).  Yields every `sliceMs`
 * (scan-worker.js runs it off the page's main thread, without yielding).
 */
export async function extractScan(u8, segs, { maxRows = 200, sliceMs = 8, signal, keys = false } = {}) {
  try {
    return await scanMatches(u8, segs, maxRows, sliceMs, signal, keys);
  } catch (e) {
    if (e instanceof Abort) return null;
    throw e;
  }
}

const CHUNK = 1 << 16;   // bytes between looks at the clock
const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Are these bytes UTF-8 (as a strict decoder reads it: no overlong forms, no surrogates)? */
export function validUtf8(u8) {
  const n = u8.length;
  // ASCII four bytes at a time (an aligned view of the same bytes), one by one from a byte over 0x7f
  const gap = (4 - (u8.byteOffset & 3)) & 3;   // bytes before the first aligned word
  const head = Math.min(n, gap);
  const words = n > gap ? new Uint32Array(u8.buffer, u8.byteOffset + gap, (n - gap) >> 2) : new Uint32Array(0);
  for (let i = 0; i < n;) {
    if (i >= head && ((i - head) & 3) === 0) {
      let w = (i - head) >> 2;
      while (w < words.length && (words[w] & 0x80808080) === 0) w++;
      i = head + (w << 2);
      if (i >= n) break;
    }
    const b = u8[i];
    if (b < 0x80) { i++; continue; }
    let need, min;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return false;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = u8[i + k];
      if ((c & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}

/** bytesStringEnd: the index after the string that starts at u8[i] (a quote), or -1. */
function bytesStringEnd(u8, i) {
  let j = i + 1;
  for (;;) {
    const q = u8.indexOf(Q, j);
    if (q < 0) return -1;
    let k = q - 1;
    while (u8[k] === BS) k--;
    if (((q - 1 - k) & 1) === 0) return q + 1;
    j = q + 1;
  }
}

function bytesSkipWs(u8, i) {
  for (let c = u8[i]; c === 32 || c === 10 || c === 13 || c === 9; c = u8[++i]);
  return i;
}

function bytesScalarEnd(u8, i) {
  const n = u8.length;
  for (; i < n; i++) {
    const c = u8[i];
    if (c === COMMA || c === RBRACE || c === RBRACK || c === COLON || isWs(c) || c === Q || c === LBRACE || c === LBRACK) break;
  }
  return i;
}

/** Skip inside a container that nothing in it can match: from t[i] with `depth` brackets open,
 *  up to `limit`; returns [the index after its close (or where it stopped), depth left]
 *  (-1: a string runs past the end).  The brackets are counted, not paired: the server's
 *  answer says when they do not pair. */
const SKIP = new Uint8Array(256);   // what a byte is to skipInside: 1 a quote, 2 an opening, 3 a closing bracket
SKIP[Q] = 1; SKIP[LBRACE] = SKIP[LBRACK] = 2; SKIP[RBRACE] = SKIP[RBRACK] = 3;

function skipInside(u8, i, depth, limit) {
  for (; i < limit; i++) {
    const k = SKIP[u8[i]];
    if (k === 0) continue;
    if (k === 1) { const e = bytesStringEnd(u8, i); if (e < 0) return [-1, depth]; i = e - 1; }
    else if (k === 2) depth++;
    else if (--depth === 0) return [i + 1, 0];
  }
  return [i, depth];
}

async function scanMatches(t, segs, maxRows, sliceMs, signal, wantKeys) {   // t: the bytes
  const n = segs.length;
  if (!n) return null;   // "$" alone: the whole document
  const last = segs[n - 1];
  const descName = last.desc ? last.name : null;
  const childN = descName === null ? n : n - 1;   // child segments before the descendant one
  const N = t.length;
  // one frame per open container that something in it may match (others are skipped whole)
  const kind = new Uint8Array(MAX_DEPTH);   // OBJ | ARR
  const level = new Int32Array(MAX_DEPTH);  // child segments its path matched (childN: inside the descendant part)
  const idx = new Int32Array(MAX_DEPTH);    // arrays: the current element's index
  const keyS = new Int32Array(MAX_DEPTH), keyE = new Int32Array(MAX_DEPTH);  // objects: the current key token
  const hits = new Int32Array(MAX_DEPTH);   // objects: keys that matched the segment (two: give up)
  const pre = new Int32Array(MAX_DEPTH);    // the container's pre-order number
  const keysAt = new Int32Array(MAX_DEPTH); // objects where every key counts: where its keys start in `seen`
  const sets = new Array(MAX_DEPTH).fill(null);  // ... or their Set, for an object with many keys
  const pending = new Array(MAX_DEPTH).fill(null);  // the match a container is the value of
  let seen = new Int32Array(3072), seenN = 0;     // keys (tag, start, end) of those objects
  let order = 0;
  const best = [];     // the first matches in order: {key, start, end, parts}
  let count = 0;
  const topKeys = wantKeys ? [] : null;   // the top-level object's keys, in order (`keys`)
  let nextBs = t.indexOf(BS);
  const hasEscape = (s, e) => {   // keys are asked about in text order
    if (nextBs >= 0 && nextBs < s) nextBs = t.indexOf(BS, s);
    return nextBs >= 0 && nextBs < e;
  };
  const keyText = (s, e) => {   // a key's name (its token t[s, e))
    const raw = decoder.decode(t.subarray(s, e));
    if (raw.indexOf("\\") < 0) return raw.slice(1, -1);
    try { return JSON.parse(raw); } catch { throw new Abort(); }
  };
  const sameBytes = (a, b, len) => {
    for (let q = 0; q < len; q++) if (t[a + q] !== t[b + q]) return false;
    return true;
  };
  const named = new Map(segs.filter((g) => g.name !== undefined).map((g) => [g.name, encoder.encode(g.name)]));
  const keyIs = (s, e, name) => {
    const nb = named.get(name);
    if (e - s - 2 === nb.length) {
      let same = true;
      for (let q = 0; same && q < nb.length; q++) same = t[s + 1 + q] === nb[q];
      if (same) return !hasEscape(s, e);
    }
    return hasEscape(s, e) && keyText(s, e) === name;
  };
  // a repeated key in an object where every key counts (a wildcard over it, or the descendants:
  // the reader keeps the last value, so a subtree drops out): give up
  const checkNew = (d, s, e) => {
    if (hasEscape(s, e)) throw new Abort();
    const len = e - s;
    if (sets[d]) {
      const k = keyText(s, e);
      if (sets[d].has(k)) throw new Abort();
      sets[d].add(k);
      return;
    }
    const from = keysAt[d];
    // a cheap tag of the key (its length and three of its characters) first; the characters
    // themselves only when two tags agree
    const tag = (len << 20) ^ (t[s + 1] << 10) ^ t[e - 2] ^ (t[(s + e) >> 1] << 5);
    for (let k = from; k < seenN; k += 3) {
      if (seen[k] === tag && seen[k + 2] - seen[k + 1] === len && sameBytes(seen[k + 1], s, len)) throw new Abort();
    }
    if (seenN - from >= 48) {   // many keys: a Set from here on
      const set = new Set();
      for (let k = from; k < seenN; k += 3) set.add(keyText(seen[k + 1], seen[k + 2]));
      set.add(keyText(s, e));
      sets[d] = set; seenN = from;
      return;
    }
    if (seenN + 3 > seen.length) { const grown = new Int32Array(seen.length * 2); grown.set(seen); seen = grown; }
    seen[seenN++] = tag; seen[seenN++] = s; seen[seenN++] = e;
  };
  const parts = (upto) => {   // the path of the current member/element of frame `upto`
    const out = [];
    for (let d = 0; d <= upto; d++) out.push(kind[d] === ARR ? idx[d] : keyText(keyS[d], keyE[d]));
    return out;
  };
  const record = (key, start, d) => {
    count++;
    if (best.length >= maxRows && key >= best[best.length - 1].key) return null;
    const m = { key, start, end: -1, parts: parts(d) };
    let k = best.length;
    while (k > 0 && best[k - 1].key > key) k--;
    best.splice(k, 0, m);
    if (best.length > maxRows) best.pop();
    return m;
  };
  // The value about to be read (the current member/element of frame d): [is it a match, the
  // level a container there stands at (-1: nothing in it can match)]
  const NO = [false, -1], HIT = [true, -1], DESC_HIT = [true, childN], DESC_MISS = [false, childN];
  const step = (d) => {
    const lv = level[d];
    if (lv === childN) return kind[d] === OBJ && keyIs(keyS[d], keyE[d], descName) ? DESC_HIT : DESC_MISS;
    const seg = segs[lv];
    const ok = seg.wild ? true : seg.index !== undefined ? kind[d] === ARR && idx[d] === seg.index
      : kind[d] === OBJ && keyIs(keyS[d], keyE[d], seg.name);
    if (!ok) return NO;
    if (lv + 1 === n) return HIT;                          // the last segment: a match
    return lv + 1 === childN ? DESC_MISS : [false, lv + 1];  // (the descendant part starts at it)
  };
  const allKeys = (lv) => lv === childN || segs[lv].wild;   // every key of an object there counts

  if (t[0] === 0xef && t[1] === 0xbb && t[2] === 0xbf) return null;   // a byte order mark: the page drops it
  let i = bytesSkipWs(t, 0);
  let depth = -1;
  let want = W_VALUE;
  let deadline = performance.now() + sliceMs;
  let tick = 0;
  const later = async () => {
    await pause();
    if (signal?.aborted) throw new Abort();
    deadline = performance.now() + sliceMs;
  };
  for (;;) {
    if (++tick === 2048) {
      tick = 0;
      if (performance.now() > deadline) await later();
    }
    i = bytesSkipWs(t, i);
    if (i >= N) return null;   // ends early
    const c = t[i];
    if (want === W_AFTER) {
      const k = kind[depth];
      if (c === COMMA) {
        i++;
        if (k === OBJ) want = W_KEY; else { idx[depth]++; want = W_VALUE; }
        continue;
      }
      if ((c === RBRACE && k === OBJ) || (c === RBRACK && k === ARR)) {
        i++;
        const m = pending[depth];
        if (m) { m.end = i; pending[depth] = null; }
        if (k === OBJ && allKeys(level[depth])) { seenN = keysAt[depth]; sets[depth] = null; }
        depth--;
        if (depth < 0) break;
        continue;
      }
      return null;
    }
    if (want === W_KEY) {
      if (c !== Q) return null;
      const e = bytesStringEnd(t, i);
      if (e < 0) return null;
      keyS[depth] = i; keyE[depth] = e;
      if (topKeys && depth === 0) topKeys.push(keyText(i, e));
      const lv = level[depth];
      if (allKeys(lv)) checkNew(depth, i, e);
      else if (segs[lv].name !== undefined && keyIs(i, e, segs[lv].name) && ++hits[depth] > 1) throw new Abort();
      i = bytesSkipWs(t, e);
      if (t[i] !== COLON) return null;
      i++; want = W_VALUE; continue;
    }
    // a value: does it match?
    const [isMatch, childLevel] = depth < 0 ? [false, 0] : step(depth);
    if (c === LBRACE || c === LBRACK) {
      const m = isMatch ? record(descName === null ? i : pre[depth], i, depth) : null;
      if (childLevel < 0) {   // nothing inside can match: skip it whole
        let at = i + 1, open = 1;
        while (open) {
          [at, open] = skipInside(t, at, open, Math.min(N, at + CHUNK));
          if (at < 0 || (open && at >= N)) return null;
          if (open && performance.now() > deadline) await later();
        }
        if (m) m.end = at;
        i = at; want = W_AFTER;
        if (depth < 0) break;
        continue;
      }
      if (depth + 1 >= MAX_DEPTH) throw new Abort();
      depth++;
      kind[depth] = c === LBRACE ? OBJ : ARR; level[depth] = childLevel; idx[depth] = 0; hits[depth] = 0;
      pre[depth] = order++; pending[depth] = m;
      if (c === LBRACE && allKeys(childLevel)) { keysAt[depth] = seenN; sets[depth] = null; }
      const j = bytesSkipWs(t, i + 1);
      if (t[j] === (c === LBRACE ? RBRACE : RBRACK)) { i = j; want = W_AFTER; continue; }
      i++; want = c === LBRACE ? W_KEY : W_VALUE; continue;
    }
    let e;
    if (c === Q) { e = bytesStringEnd(t, i); if (e < 0) return null; }
    else { e = bytesScalarEnd(t, i); if (e === i) return null; }
    if (isMatch) { const m = record(descName === null ? i : pre[depth], i, depth); if (m) m.end = e; }
    i = e;
    want = W_AFTER;
    if (depth < 0) break;
  }
  if (bytesSkipWs(t, i) < N) return null;   // more after the value: JSON Lines or not JSON (the server says)
  // lines and columns (the server's: 1-based, columns in characters), in one walk in text order
  const rows = best.map((m) => ({ m, start: m.start }));
  let line = 1, nextNl = t.indexOf(10), colPos = 0, col = 1;
  for (const r of [...rows].sort((a, b) => a.start - b.start)) {
    while (nextNl !== -1 && nextNl < r.start) { line++; colPos = nextNl + 1; col = 1; nextNl = t.indexOf(10, colPos); }
    for (; colPos < r.start; colPos++) if ((t[colPos] & 0xc0) !== 0x80) col++;   // not a continuation byte
    r.line = line; r.column = col;
  }
  const out = {
    count,
    rows: rows.map((r) => ({ path: normalizedPath(r.m.parts), pointer: jsonPointer(r.m.parts),
      json: decoder.decode(t.subarray(r.m.start, r.m.end)), line: r.line, column: r.column })),
  };
  if (topKeys) out.keys = topKeys;
  return out;
}

/**
 * A pass of scan.js in a worker of its own (scan-worker.js): extractScan (the default) on
 * `file`'s bytes or on `text`; `mode: "items"` (itemsScan); `mode: "diff"` (diffScan of `left`
 * and `right`, each {file, utf8} or {text}).  `utf8`: the page has decoded the file strictly
 * already (DocumentInput.file), its bytes are not checked again.  Resolves to its answer, or null
 * (no worker, it gave up, a file's bytes are not UTF-8, or `signal` was aborted: the worker is
 * stopped).  A worker started ahead (warmWorker) is taken first.
 */
export function scanInWorker({ mode = "extract", file = null, text = null, utf8 = false, segs, maxRows = 200, left, right,
  parseStrings, signal } = {}) {
  const worker = takeWorker();
  if (!worker) return Promise.resolve(null);
  const side = (s) => (s.file ? { file: s.file, utf8: Boolean(s.utf8) } : { text: s.text });
  return new Promise((resolve) => {
    const done = (found) => { worker.terminate(); signal?.removeEventListener("abort", stop); resolve(found); };
    const stop = () => done(null);
    if (signal?.aborted) { stop(); return; }
    signal?.addEventListener("abort", stop, { once: true });
    worker.onmessage = (e) => done(e.data.found);
    worker.onerror = () => done(null);
    worker.postMessage(mode === "diff" ? { mode, left: side(left), right: side(right), maxRows, parseStrings }
      : { mode, source: side({ file, text, utf8 }), segs, maxRows });
  });
}

let spare = null;   // a worker started ahead, its modules loaded while the page waits for a file
let keepWarm = false;

function newWorker() {
  try { return new Worker(new URL("./scan-worker.js", import.meta.url), { type: "module" }); } catch { return null; }
}

function takeWorker() {
  const w = spare || newWorker();
  spare = keepWarm ? newWorker() : null;
  return w;
}

/** Start a worker ahead (and another after each pass), so that a large file's pass does not
 *  wait for one to start and load its modules. */
export function warmWorker() {
  keepWarm = true;
  spare ??= newWorker();
}

// ------------------------------------------------------------------ Validate, Gate: the first items

/** The member of the top-level object whose value is its first array (its items are the log's),
 *  read from the start of the text: [name]; [] for a top-level array; null when the start holds
 *  neither (or is not JSON there). */
export function logArray(text) {
  let i = skipWs(text, 0);
  const c = text.charCodeAt(i);
  if (c === LBRACK) return [];
  if (c !== LBRACE) return null;
  i++;
  for (;;) {
    i = skipWs(text, i);
    if (text.charCodeAt(i) !== Q) return null;
    const e = stringEnd(text, i);
    if (e < 0) return null;
    let key;
    try { key = JSON.parse(text.slice(i, e)); } catch { return null; }
    i = skipWs(text, e);
    if (text.charCodeAt(i) !== COLON) return null;
    i = skipWs(text, i + 1);
    const v = text.charCodeAt(i);
    if (v === LBRACK) return [key];
    if (v === Q) { i = stringEnd(text, i); if (i < 0) return null; }
    else if (v === LBRACE) {
      let open = 0;
      for (; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === Q) { i = stringEnd(text, i) - 1; if (i < 0) return null; }
        else if (d === LBRACE || d === LBRACK) open++;
        else if ((d === RBRACE || d === RBRACK) && --open === 0) break;
      }
      if (i >= text.length) return null;
      i++;
    } else {
      const e2 = scalarEnd(text, i);
      if (e2 >= text.length || !SCALAR.test(text.slice(i, e2))) return null;
      i = e2;
    }
    i = skipWs(text, i);
    if (text.charCodeAt(i) !== COMMA) return null;
    i++;
  }
}

const HEAD_CHARS = 1 << 17;   // characters of the start in which the log's array is looked for

/**
 * The first `maxRows` items of the document's log — a top-level array's elements, or those of
 * the top-level object's first member that is an array (found in its first HEAD_CHARS) — from
 * extractScan's one pass over the whole text (a repeated key that matters: null), with the count
 * of all of them and the top-level object's keys:
 *   { member: name | null (a top-level array), rows: [{path, pointer, json, line, column}], count, keys }
 */
export async function itemsScan(u8, { maxRows = 50, sliceMs = 8, signal } = {}) {
  const at = logArray(decoder.decode(u8.subarray(0, HEAD_CHARS)));
  if (!at) return null;
  const found = await extractScan(u8, [...at.map((name) => ({ name })), { wild: true }], { maxRows, sliceMs, signal, keys: true });
  return found && { member: at.length ? at[0] : null, ...found };
}

// ------------------------------------------------------------------ Diff: the first places the values part

/** The string the string token t[i, e) stands for (null: not a valid token). */
function decodeToken(t, i, e) {
  if (e - i <= 66) {   // a short ASCII string without escapes (most keys): no decoder
    let plain = true;
    for (let q = i + 1; plain && q < e - 1; q++) plain = t[q] < 0x80 && t[q] !== BS && t[q] >= 0x20;
    if (plain) return String.fromCharCode.apply(null, t.subarray(i + 1, e - 1));
  }
  const raw = decoder.decode(t.subarray(i, e));
  if (raw.indexOf("\\") < 0) return raw.slice(1, -1);
  try { return JSON.parse(raw); } catch { return null; }
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Two different scalar tokens: "differ" when their values surely differ, "equal" when they are
 *  the same value written differently, "unsure" otherwise; null when one is not a token. */
function compareScalars(a, i, ea, b, j, eb, parseStrings) {
  const sa = a[i] === Q, sb = b[j] === Q;
  if (sa && sb) {
    const x = decodeToken(a, i, ea), y = decodeToken(b, j, eb);
    if (x === null || y === null) return null;
    if (parseStrings) {   // the server compares JSON held in strings as parsed JSON
      for (const s of [x, y]) { try { JSON.parse(s); return "unsure"; } catch { /* text */ } }
    }
    return x === y ? "equal" : "differ";
  }
  const x = sa ? null : decoder.decode(a.subarray(i, ea)), y = sb ? null : decoder.decode(b.subarray(j, eb));
  if ((x !== null && !SCALAR.test(x)) || (y !== null && !SCALAR.test(y))) return null;
  if (x !== null && y !== null && NUMBER.test(x) && NUMBER.test(y)) {
    return Number(x) !== Number(y) ? "differ" : "unsure";   // equal as float64s: maybe one value
  }
  return "differ";   // a string and a literal or number, or two different literals / kinds
}

/** From t[p] (state `want`, the open frames `frames`: {kind, keys: Set}), the rest of the text
 *  read: true when it is one JSON value to its end and no object of `frames` repeats a key
 *  (deeper containers are skipped whole: the server's answer says when they are not JSON). */
function finishes(t, p, frames, want) {
  const N = t.length;
  let depth = frames.length - 1;
  for (;;) {
    p = bytesSkipWs(t, p);
    if (p >= N) return depth < 0;
    const c = t[p];
    if (depth < 0) return false;   // more after the value
    const f = frames[depth];
    if (want === W_AFTER) {
      if (c === COMMA) { p++; want = f.kind === OBJ ? W_KEY : W_VALUE; continue; }
      if ((c === RBRACE && f.kind === OBJ) || (c === RBRACK && f.kind === ARR)) { p++; depth--; continue; }
      return false;
    }
    if (want === W_KEY) {
      if (c !== Q) return false;
      const e = bytesStringEnd(t, p);
      if (e < 0) return false;
      const k = decodeToken(t, p, e);
      if (k === null || f.keys.has(k)) return false;
      f.keys.add(k);
      p = bytesSkipWs(t, e);
      if (t[p] !== COLON) return false;
      p++; want = W_VALUE; continue;
    }
    if (c === LBRACE || c === LBRACK) {
      const [at, open] = skipInside(t, p + 1, 1, N);
      if (at < 0 || open) return false;
      p = at;
    } else if (c === Q) {
      p = bytesStringEnd(t, p);
      if (p < 0) return false;
    } else {
      const e = bytesScalarEnd(t, p);
      if (!SCALAR.test(decoder.decode(t.subarray(p, e)))) return false;
      p = e;
    }
    want = W_AFTER;
  }
}

/** Lines, columns (characters) and the line's text of the offsets `at` (sorted) in t. */
function places(t, at) {
  const out = [];
  let line = 1, start = 0, nextNl = t.indexOf(10);
  for (const p of at) {
    while (nextNl !== -1 && nextNl < p) { line++; start = nextNl + 1; nextNl = t.indexOf(10, start); }
    let col = 1;
    for (let q = start; q < p; q++) if ((t[q] & 0xc0) !== 0x80) col++;
    const end = nextNl === -1 ? t.length : nextNl;
    out.push({ line, column: col, text: decoder.decode(t.subarray(start, Math.min(end, start + 4000))).replace(/\r$/, "") });
  }
  return out;
}

/**
 * The first places where the values of two JSON texts (UTF-8 bytes `a`, `b`) surely differ,
 * read in step from their starts while their structure is the same: each a value at the same
 * JSON Pointer on both sides that differs for sure (two strings that decode differently — with
 * `parseStrings`, neither holding JSON —, numbers whose float64 values differ, a string against
 * a number…).  The reading stops at the first place the structure parts, at a pair it cannot be
 * sure of, or after `maxRows`; then the rest of each text is read for the objects still open
 * (a key repeated later would replace a value: no rows).
 *   { rows: [{pointer, left: {json, line, column, text}, right: {…}}], stopped: "end" | "structure" | "unsure" | "rows" } | null
 * null: no place found, not JSON, a byte order mark, a repeated key on the way.
 */
export function diffScan(a, b, { maxRows = 20, parseStrings = true } = {}) {
  if ((a[0] === 0xef && a[1] === 0xbb) || (b[0] === 0xef && b[1] === 0xbb)) return null;
  const A = a.length, B = b.length;
  const frames = [];   // {kind, idx, key, keys: Set}: the same on both sides while in step
  const found = [];    // {parts, i, ea, j, eb}
  let i = 0, j = 0, want = W_VALUE, stopped = "end";
  const parts = () => frames.map((f) => (f.kind === ARR ? f.idx : f.key));
  // a[i, alike) is b[j, alike - i + j): a container that closes in there is the same on both sides
  // (and holds no row): it is skipped whole, not read token by token
  let alike = 0, shift = 0;
  const sync = () => {
    let q = 0;
    while (i + q < A && j + q < B && a[i + q] === b[j + q]) q++;
    alike = i + q; shift = j - i;
  };
  outer: for (;;) {
    i = bytesSkipWs(a, i); j = bytesSkipWs(b, j);
    if (want === W_AFTER && !frames.length) {
      if (i < A || j < B) return null;   // more after the value (JSON Lines, or not JSON)
      break;
    }
    if (i >= A || j >= B) return null;   // ends early
    const ca = a[i], cb = b[j];
    if (want === W_AFTER) {
      const f = frames[frames.length - 1];
      if (ca !== cb) { stopped = "structure"; break; }
      if (ca === COMMA) { i++; j++; if (f.kind === OBJ) want = W_KEY; else { f.idx++; want = W_VALUE; } continue; }
      if ((ca === RBRACE && f.kind === OBJ) || (ca === RBRACK && f.kind === ARR)) { i++; j++; frames.pop(); continue; }
      return null;
    }
    if (want === W_KEY) {
      if (ca !== Q || cb !== Q) return null;
      const ea = bytesStringEnd(a, i), eb = bytesStringEnd(b, j);
      if (ea < 0 || eb < 0) return null;
      if (ea - i !== eb - j) { stopped = "structure"; break; }
      for (let q = 1; q < ea - i; q++) if (a[i + q] !== b[j + q]) { stopped = "structure"; break outer; }
      const f = frames[frames.length - 1];
      const k = decodeToken(a, i, ea);
      if (k === null || f.keys.has(k)) return null;   // a repeated key: the later value is the one read
      f.keys.add(k); f.key = k;
      i = bytesSkipWs(a, ea); j = bytesSkipWs(b, eb);
      if (a[i] !== COLON || b[j] !== COLON) return null;
      i++; j++; want = W_VALUE; continue;
    }
    // a value on each side
    if (ca === LBRACE || ca === LBRACK || cb === LBRACE || cb === LBRACK) {
      if (ca !== cb) { stopped = "structure"; break; }
      if (j - i !== shift || i >= alike) sync();
      if (i + 1 < alike) {
        const [at, open] = skipInside(a, i + 1, 1, alike);
        if (at < 0) return null;
        if (!open) { j += at - i; i = at; want = W_AFTER; continue; }
      }
      if (frames.length >= MAX_DEPTH) return null;
      frames.push({ kind: ca === LBRACE ? OBJ : ARR, idx: 0, key: null, keys: new Set() });
      i++; j++;
      const ni = bytesSkipWs(a, i), nj = bytesSkipWs(b, j);
      const close = ca === LBRACE ? RBRACE : RBRACK;
      if (a[ni] === close || b[nj] === close) {
        if (a[ni] !== b[nj]) { stopped = "structure"; break; }   // one empty, the other not
        i = ni + 1; j = nj + 1; frames.pop(); want = W_AFTER; continue;
      }
      want = ca === LBRACE ? W_KEY : W_VALUE;
      continue;
    }
    const ea = ca === Q ? bytesStringEnd(a, i) : bytesScalarEnd(a, i);
    const eb = cb === Q ? bytesStringEnd(b, j) : bytesScalarEnd(b, j);
    if (ea <= i || eb <= j) return null;
    let same = ea - i === eb - j;
    for (let q = 0; same && q < ea - i; q++) same = a[i + q] === b[j + q];
    if (!same) {
      const how = compareScalars(a, i, ea, b, j, eb, parseStrings);
      if (how === null) return null;
      if (how === "unsure") { stopped = "unsure"; break; }
      if (how === "differ") {
        found.push({ parts: parts(), i, ea, j, eb });
        if (found.length >= maxRows) { i = ea; j = eb; want = W_AFTER; stopped = "rows"; break; }
      }
    }
    i = ea; j = eb; want = W_AFTER;   // (the same token twice: the server's answer says if it is not JSON)
  }
  if (!found.length) return null;
  if (stopped !== "end") {
    // the objects still open hold rows: the rest of each side must not repeat one of their keys
    const copy = () => frames.map((f) => ({ kind: f.kind, keys: new Set(f.keys) }));
    if (!finishes(a, i, copy(), want) || !finishes(b, j, copy(), want)) return null;
  }
  const pa = places(a, found.map((r) => r.i)), pb = places(b, found.map((r) => r.j));
  return {
    stopped,
    rows: found.map((r, n) => ({ pointer: jsonPointer(r.parts),
      left: { json: decoder.decode(a.subarray(r.i, r.ea)), ...pa[n] },
      right: { json: decoder.decode(b.subarray(r.j, r.eb)), ...pb[n] } })),
  };
}
