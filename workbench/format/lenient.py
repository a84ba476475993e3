"""Other inputs people paste — JSONC, JSON5, YAML — turned into strict JSON, only when asked.

``POST /api/format`` with ``"input": "jsonc" | "json5" | "yaml"`` (the default ``"json"`` is
strict RFC 8259 and never goes through here).  The answer is the Format answer for the strict
JSON, plus ``converted``: what was changed, counted (``comments removed: 2``, ``trailing commas
removed: 1``, ``single-quoted strings: 3`` …), so nothing is rewritten silently.  Numbers keep
their text (``1.10`` stays ``1.10``; only forms strict JSON lacks are rewritten: ``0x1F`` → ``31``,
``.5`` → ``0.5``, ``+1`` → ``1``), and duplicate keys are reported as warnings (the last wins).

How each is read, and why (measured on a 1.27 MB document, this machine; see the report in the
commit):

* **JSONC** (comments, trailing commas): no library.  Comments and trailing commas are blanked
  with spaces (newlines kept) in one left-to-right pass (linear; a ``/*`` never closed is the
  error at its place), so every offset stays where it was, and the result goes through the
  strict parser: its error positions and duplicate-key positions point into the text as pasted.
* **JSON5**: the ``json5`` package (pure Python, well kept, the reference test suite), with
  ``parse_float``/``parse_int`` given the token's text and an ``object_pairs_hook`` that keeps
  duplicates; a token pass of our own counts what differs from strict JSON and refuses, at its
  place, nesting deeper than :data:`~workbench.limits.JSON5_MAX_DEPTH` (the package is
  recursive: ~18 Python frames a level).  Escaped surrogate pairs are joined, lone ones kept
  and warned about.  It is slow (~15 s/MB), so JSON5 and YAML inputs are limited to
  :data:`MAX_CHARS`; every input mode runs under the request's work deadline.
* **YAML**: ``ruamel.yaml`` (safe), read from its parser's *events* (never composed or
  constructed: no recursion, no Python floats) into the JSON value with an explicit stack:
  depth up to ``max_depth`` and refused deeper at its place, aliases charged what they repeat
  (:data:`~workbench.limits.LENIENT_MAX_EXPANSION`), scalars resolved as the document's own
  ``%YAML`` version says (1.2 by default; 1.1: ``yes``/``on``/``Y`` are booleans, ``010`` is
  octal), a float's text becomes the JSON number text, ints are exact, dates stay strings;
  duplicate keys are reported with their line and column.  ~8 s/MB.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from typing import Any

import orjson

from ..errors import WorkbenchError, bad_request
from ..jsontext import ORJSON_MAX_DEPTH, NumberText, dumps_tree, error_at, escape_token, plain_dumps
from ..jsontext.warnings import lone_surrogate_warning
from ..limits import JSON5_MAX_DEPTH, LENIENT_MAX_EXPANSION
from . import core

INPUTS = ("json", "jsonc", "json5", "yaml")
from ..limits import (
    LENIENT_MAX_CHARS as MAX_CHARS,  # JSON5 and YAML: the pure-Python parsers take ~15 s and ~8 s per MB
)

# ---------------------------------------------------------------------------------------- JSONC

# strings, comments and commas: everything else is copied as is (one left-to-right pass)
_JSONC = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*|,')
_JSONC_WS = re.compile(r"[ \t\r\n]*")
_NOT_NEWLINE = re.compile(r"[^\r\n]")


def strip_jsonc(text: str) -> tuple[str, dict[str, int]]:
    """Blank the comments and trailing commas of ``text`` with spaces (offsets kept), in one
    left-to-right pass (linear: a comma is trailing when the next thing after it that is not
    blank or a comment closes an array or object).  A ``/*`` that is never closed is the error,
    at its place."""
    counts = {"comments": 0, "trailing_commas": 0}
    blanks: list[tuple[int, int]] = []   # spans to blank (a comma is known trailing only later)
    comma = -1        # a comma not yet known to be trailing (its offset)
    pos = 0
    search = _JSONC.search
    while True:
        m = search(text, pos)
        gap_at = _JSONC_WS.match(text, pos).end()   # the first thing after the last token
        if comma >= 0 and (m is None or gap_at < m.start()):
            if gap_at < len(text) and text[gap_at] in "]}":
                blanks.append((comma, comma + 1))
                counts["trailing_commas"] += 1
            comma = -1
        if m is None:
            break
        tok = m.group()
        start = m.start()
        c = tok[0]
        if c == '"':
            comma = -1
            pos = m.end()
            continue
        if c == ",":
            comma = start
            pos = m.end()
            continue
        if tok == "/*":
            end = text.find("*/", start + 2)
            if end == -1:
                raise error_at(text, start, "parse_error", "The comment opened here with /* is "
                               "never closed (no */ follows)", field="text")
            end += 2
        else:
            end = m.end()
        counts["comments"] += 1
        blanks.append((start, end))
        pos = end
    if not blanks:
        return text, counts
    blanks.sort()
    parts: list[str] = []
    last = 0
    for start, end in blanks:
        parts.append(text[last:start])
        parts.append(" " if end == start + 1 else _NOT_NEWLINE.sub(" ", text[start:end]))
        last = end
    parts.append(text[last:])
    return "".join(parts), counts


# ---------------------------------------------------------------------------------------- JSON5

_JSON5_TOKEN = re.compile(r"""
 (?P<dq>"(?:[^"\\]|\\.)*")
|(?P<sq>'(?:[^'\\]|\\.)*')
|(?P<lc>//[^\n]*)
|(?P<bc>/\*.*?\*/)
|(?P<num>[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Infinity|NaN))
|(?P<id>[A-Za-z_$][\w$]*)
|(?P<p>[{}\[\]:,])
|(?P<ws>\s+)
""", re.S | re.X)
_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\Z")


def _json5_too_deep(text: str, at: int, max_depth: int) -> WorkbenchError:
    own = max_depth > JSON5_MAX_DEPTH
    return error_at(text, at, "too_deep", f"Nesting is deeper than the limit of "
                    f"{min(max_depth, JSON5_MAX_DEPTH)} levels" + (
                        " for JSON5 input (its reader, the json5 package, is recursive pure "
                        f"Python; strict JSON, JSONC and YAML take {max_depth})" if own else ""),
                    field="text", limit=min(max_depth, JSON5_MAX_DEPTH))


def count_json5(text: str, max_depth: int = JSON5_MAX_DEPTH) -> dict[str, int]:
    """What a JSON5 text has that strict JSON lacks, counted token by token; a nesting deeper
    than ``max_depth`` (at most :data:`JSON5_MAX_DEPTH`) is refused at its place."""
    asked, max_depth = max_depth, min(max_depth, JSON5_MAX_DEPTH)
    counts = {"comments": 0, "trailing_commas": 0, "single_quotes": 0, "unquoted_keys": 0,
              "numbers": 0}
    sig: list[tuple[str, str, int]] = []   # significant tokens: (kind, text, offset)
    pos = 0
    n = len(text)
    depth = 0
    while pos < n:
        m = _JSON5_TOKEN.match(text, pos)
        if not m:   # something the parser will refuse (and place): stop counting there
            break
        kind = m.lastgroup
        pos = m.end()
        if kind in ("lc", "bc"):
            counts["comments"] += 1
        elif kind != "ws":
            tok = m.group()
            sig.append((kind, tok, m.start()))
            if kind == "p" and tok in "[{":
                depth += 1
                if depth > max_depth:
                    raise _json5_too_deep(text, m.start(), asked)
            elif kind == "p" and tok in "]}":
                depth -= 1
            elif kind == "num" and len(tok) > _MAX_INT_BITS // 4 and tok.lstrip("+-")[:2] in ("0x", "0X"):
                raise _big_int_error(text, m.start(), tok)
    for i, (kind, tok, at) in enumerate(sig):
        nxt = sig[i + 1][1] if i + 1 < len(sig) else ""
        if kind == "p" and tok == "," and nxt in ("}", "]"):
            counts["trailing_commas"] += 1
        elif kind == "sq":
            counts["single_quotes"] += 1
        elif kind == "id" and nxt == ":":
            counts["unquoted_keys"] += 1
        elif kind == "num":
            if tok.lstrip("+-") in ("Infinity", "NaN"):
                raise error_at(text, at, "not_json", f"{tok} has no JSON form: strict JSON has no "
                               "infinities and no NaN (write it as a string or null)", field="text")
            if not _STRICT_NUMBER.match(tok):
                counts["numbers"] += 1
    return counts


class _Pairs(dict):
    """An object built from its pairs; remembers the keys given more than once."""
    dups: list[str] = []


def _pairs(pairs: list[tuple[str, Any]]) -> dict:
    d = _Pairs()
    dups = []
    for k, v in pairs:
        if k in d:
            dups.append(k)
            del d[k]   # the last one wins, in its own place
        d[k] = v
    d.dups = dups
    return d


def _number_text(tok: str) -> str:
    """A JSON5 number token as strict JSON number text (as written when it already is)."""
    if _STRICT_NUMBER.match(tok):
        return tok
    sign = "-" if tok.startswith("-") else ""
    body = tok.lstrip("+-")
    if body[:2] in ("0x", "0X"):
        return sign + str(int(body, 16)) if int(body, 16) else "0"
    try:
        d = Decimal(sign + body)
    except InvalidOperation:   # pragma: no cover - the parser accepted it as a number
        raise bad_request(f"Cannot read the number {tok}", field="text", code="parse_error") from None
    mant, _, exp = (sign + body).lower().partition("e")
    if mant.lstrip("-").startswith("."):
        mant = mant.replace(".", "0.", 1)
    if mant.endswith("."):
        mant = mant[:-1]
    mant = re.sub(r"^(-?)0+(?=\d)", r"\1", mant)
    out = mant + (f"e{exp}" if exp else "")
    return out if _STRICT_NUMBER.match(out) else str(d)


def _read_json5(text: str, max_depth: int):
    import json5  # imported when asked for: the strict path never needs it

    counts = count_json5(text, max_depth)
    frag = lambda tok, base=10: orjson.Fragment(_number_text(tok).encode())  # noqa: E731
    try:
        value = json5.loads(text, parse_float=frag, parse_int=frag, parse_constant=frag,
                            object_pairs_hook=_pairs)
    except RecursionError:   # pragma: no cover - count_json5 refused the depth first
        raise _json5_too_deep(text, 0, max_depth) from None
    except ValueError as e:
        raise _json5_error(text, str(e)) from None
    warnings: list[dict] = []
    value, plain = _walk_json5(value, warnings)
    return value, counts, warnings, plain


_JSON5_ERR = re.compile(r"<string>:(\d+) (.*) at column (\d+)")


def _json5_error(text: str, message: str) -> WorkbenchError:
    m = _JSON5_ERR.search(message)
    if not m:
        return WorkbenchError("parse_error", f"Not valid JSON5: {message}", field="text")
    line, what, column = int(m.group(1)), m.group(2), int(m.group(3))
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    offset = min(len(text), starts[min(line, len(starts)) - 1] + column - 1)
    return error_at(text, offset, "parse_error", f"Not valid JSON5: {what}", field="text")


def _walk_json5(root, out: list):
    """Duplicate keys (the parser kept the last) and escaped surrogates of a JSON5 tree:
    pairs joined into their character, lone ones kept and warned about; iterative.  Returns
    the tree and whether the plain writer is needed (lone surrogates)."""
    plain = False

    def text(s: str, pointer: str) -> str:
        nonlocal plain
        s2, lone = join_surrogates(s)
        if lone:
            plain = True
            out.append(lone_surrogate_warning(s2, pointer, {}))
        return s2

    if type(root) is str:
        return text(root, ""), plain
    work = [(root, "")] if isinstance(root, (dict, list)) else []
    while work:
        node, pointer = work.pop()
        if isinstance(node, dict):
            for k in getattr(node, "dups", ()):
                out.append({"code": "duplicate_key", "key": k, "pointer": pointer,
                            "message": f"The key {json.dumps(k, ensure_ascii=False)} appears more "
                                       "than once; the last value is kept"})
            if not all(k.isascii() for k in node):
                fixed = {text(k, f"{pointer}/{escape_token(k)}"): v for k, v in node.items()}
                if list(fixed) != list(node):
                    node.clear()
                    node.update(fixed)
            for k, v in node.items():
                if type(v) is str:
                    if not v.isascii():
                        node[k] = text(v, f"{pointer}/{escape_token(k)}")
                elif isinstance(v, (dict, list)):
                    work.append((v, f"{pointer}/{escape_token(k)}"))
        else:
            for i, v in enumerate(node):
                if type(v) is str:
                    if not v.isascii():
                        node[i] = text(v, f"{pointer}/{i}")
                elif isinstance(v, (dict, list)):
                    work.append((v, f"{pointer}/{i}"))
    return root, plain


# ----------------------------------------------------------------------------------------- YAML

_YAML_FLOAT_SPECIAL = re.compile(r"[-+]?\.(inf|nan)\Z", re.I)
_YAML_TAG = "tag:yaml.org,2002:"
_YAML11_TRUE = frozenset({"yes", "y", "on", "true"})
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_NO_KEY = object()


def _pair(m) -> str:
    hi, lo = m.group()
    return chr(0x10000 + ((ord(hi) - 0xD800) << 10) + (ord(lo) - 0xDC00))


def join_surrogates(s: str) -> tuple[str, bool]:
    """``s`` with every escaped surrogate pair (``"\\ud83d\\ude00"``, decoded one escape at a
    time by the JSON5 and YAML readers) joined into its character; whether a lone one is left
    (kept, and warned about, as strict JSON does)."""
    if s.isascii() or not _LONE_SURROGATE.search(s):
        return s, False
    s = _SURROGATE_PAIR.sub(_pair, s)
    return s, _LONE_SURROGATE.search(s) is not None


class _Open:
    """A YAML sequence or mapping being built: its JSON value, anchor, size (nodes and
    characters, for the alias budget), height, the pending key and the keys' places."""

    __slots__ = ("value", "anchor", "size", "height", "key", "first", "part")

    def __init__(self, value, anchor, part):
        self.value, self.anchor, self.part = value, anchor, part
        self.size, self.height, self.key, self.first = 1, 1, _NO_KEY, {}


def _big_int_error(text: str, at: int, v: str) -> WorkbenchError:
    return error_at(text, at, "number_too_large", f"The integer {v[:20]}… has more than "
                    f"{_MAX_INT_DIGITS:,} decimal digits (Python's limit for exact integer text): "
                    "write it as a string", field="text")


_MAX_INT_DIGITS = 4300   # Python's int-to-text digit limit (sys.get_int_max_str_digits)
_MAX_INT_BITS = int(_MAX_INT_DIGITS * 3.3219)   # a hex/octal/binary integer about that long


def _yaml_int(text: str, at: int, v: str, yaml11: bool) -> str | None:
    """The decimal text of a YAML int scalar (1.2 core, or 1.1: binary, leading-0 octal,
    base 60), exact at any length; None for a form with no number."""
    s = v.replace("_", "")
    sign = "-" if s.startswith("-") else ""
    body = s.lstrip("+-")
    try:
        if body[:2] in ("0x", "0X"):
            n = int(body[2:], 16)
        elif body[:2] in ("0o", "0O"):
            n = int(body[2:], 8)
        elif body[:2] in ("0b", "0B"):
            n = int(body[2:], 2)
        elif yaml11 and ":" in body:
            n = 0
            for part in body.split(":"):
                n = n * 60 + int(part)
        elif yaml11 and len(body) > 1 and body.startswith("0"):
            n = int(body[1:], 8)
        elif body.isdigit():   # decimal: its digits as they are, at any length
            digits = body.lstrip("0") or "0"
            return ("-" if sign and digits != "0" else "") + digits
        else:
            return None
    except ValueError:
        return None
    if n.bit_length() > _MAX_INT_BITS:
        raise _big_int_error(text, at, v)
    return ("-" if sign and n else "") + str(n)


def _yaml_float(v: str, yaml11: bool) -> str:
    s = v.replace("_", "")
    if yaml11 and ":" in s:   # base 60 (1.1): 190:20:30.15
        sign = -1 if s.startswith("-") else 1
        total = Decimal(0)
        for part in s.lstrip("+-").split(":"):
            total = total * 60 + Decimal(part)
        return _number_text(str(sign * total))
    return _number_text(s)


_YAML_FLOW = re.compile(r"""(?m)"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|(?:^|[ \t])#[^\n]*|[\[\]{}]""")


def _yaml_flow_depth(text: str, max_depth: int) -> None:
    """Refuse flow nesting (``[[[…``) deeper than ``max_depth`` before the YAML parser sees it:
    its scanner checks every open flow level at each token, so 2,000 levels on one line took
    seconds before the first event.  Brackets inside quotes and comments are not counted."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for m in _YAML_FLOW.finditer(text):
        c = m.group()[-1:]
        if c in "[{" and len(m.group()) == 1:
            depth += 1
            if depth > max_depth:
                raise error_at(text, m.start(), "too_deep", f"Nesting is deeper than the limit of "
                               f"{max_depth} levels (YAML sequences and mappings inside each other)",
                               field="text", limit=max_depth)
        elif c in "]}" and len(m.group()) == 1:
            depth = max(0, depth - 1)


def _read_yaml(text: str, max_depth: int):
    """Build the JSON value from ruamel.yaml's *events* (its parser is a state machine, its
    composer recursive): one loop with an explicit stack, so any depth up to ``max_depth`` is
    read and a deeper one refused at its place; an alias costs the size of what it repeats,
    counted against :data:`~workbench.limits.LENIENT_MAX_EXPANSION`; scalars resolve as the
    document's own ``%YAML`` version says (1.1: ``yes``/``on``/``Y`` are booleans, ``010`` is
    octal); every rewrite is counted for ``changes``."""
    _yaml_flow_depth(text, max_depth)
    return _YamlReader(text, max_depth).read()


class _YamlReader:
    """One YAML text read from its events (see :func:`_read_yaml`): the open containers on a
    stack, the anchors with their sizes, the counts of what was rewritten, the warnings."""

    def __init__(self, text: str, max_depth: int):
        from ruamel.yaml import YAML
        from ruamel.yaml.nodes import ScalarNode

        self.text, self.max_depth = text, max_depth
        self.yaml = YAML(typ="safe", pure=True)
        self._resolve, self._scalar_node = self.yaml.resolver.resolve, ScalarNode
        self.counts = {"aliases": 0, "keys_as_strings": 0, "kept_as_strings": 0, "numbers": 0,
                       "booleans": 0, "nulls": 0}
        self.warnings: list[dict] = []
        self.anchors: dict[str, tuple] = {}   # name → (value, size, height)
        self.stack: list[_Open] = []
        self.docs: list = []
        self.expanded, self.yaml11, self.plain = 0, False, False

    # ----------------------------------------------------------------------- places and checks

    @staticmethod
    def where(mark) -> dict:
        return {"line": mark.line + 1, "column": mark.column + 1}

    def pointer(self, last=_NO_KEY) -> str:
        parts = [f.part for f in self.stack[1:]] + ([] if last is _NO_KEY else [last])
        return "".join("/" + escape_token(str(p)) for p in parts)

    def checked(self, s: str, ev, last) -> str:
        s, lone = join_surrogates(s)
        if lone:
            self.plain = True
            self.warnings.append(lone_surrogate_warning(s, self.pointer(last), self.where(ev.start_mark)))
        return s

    def tag_of(self, ev) -> str:
        tag = ev.tag
        if tag is None or tag == "!":
            tag = str(self._resolve(self._scalar_node, ev.value, ev.implicit))
        return tag

    def too_deep(self, ev) -> WorkbenchError:
        return error_at(self.text, ev.start_mark.index, "too_deep", f"Nesting is deeper than the "
                        f"limit of {self.max_depth} levels (YAML sequences and mappings inside each "
                        "other)", field="text", limit=self.max_depth)

    def not_json(self, ev, message: str) -> WorkbenchError:
        return error_at(self.text, ev.start_mark.index, "not_json", message, field="text")

    def key_position(self) -> bool:
        stack = self.stack
        return bool(stack) and stack[-1].key is _NO_KEY and type(stack[-1].value) is dict

    # ----------------------------------------------------------------------- the values

    def scalar(self, ev):
        """A scalar's JSON value, as its (resolved) tag and the document's YAML version say."""
        v, tag, counts = ev.value, self.tag_of(ev), self.counts
        if not tag.startswith(_YAML_TAG):
            raise self.not_json(ev, f"The tag {tag} has no JSON form")
        t = tag[len(_YAML_TAG):]
        if t == "str":
            return v
        if t == "null":
            if v != "null":
                counts["nulls"] += 1
            return None
        if t == "bool":
            if v not in ("true", "false"):
                counts["booleans"] += 1
            return v.lower() in _YAML11_TRUE
        if t == "int":
            out = _yaml_int(self.text, ev.start_mark.index, v, self.yaml11)
            if out is None:   # a form strict JSON has no number for: its text
                counts["kept_as_strings"] += 1
                return v
            if out != v:
                counts["numbers"] += 1
            return orjson.Fragment(out.encode())   # exact, beyond 64 bits too
        if t == "float":
            if _YAML_FLOAT_SPECIAL.match(v):
                raise self.not_json(ev, f"{v} has no JSON form: strict JSON has no infinities and no NaN")
            out = _yaml_float(v, self.yaml11)
            if out != v:
                counts["numbers"] += 1
            return orjson.Fragment(out.encode())
        counts["kept_as_strings"] += 1   # timestamp, binary, …: the text as written
        return v

    def set_key(self, key: str, ev, is_str: bool) -> None:
        top = self.stack[-1]
        if not is_str:
            self.counts["keys_as_strings"] += 1
        key = self.checked(key, ev, key)
        at = self.where(ev.start_mark)
        if key in top.first:
            self.warnings.append({"code": "duplicate_key", "key": key, "pointer": self.pointer(),
                                  "first": top.first[key], "second": at, **at,
                                  "message": f"The key {json.dumps(key, ensure_ascii=False)} appears "
                                             "more than once; the last value is kept"})
            top.value.pop(key, None)
        top.first[key] = at
        top.key = key
        top.size += 1 + len(key)

    # ----------------------------------------------------------------------- the events

    def on_scalar(self, ev):
        """A scalar: a key (None), or its (value, size, height)."""
        if self.key_position():
            self.set_key(ev.value, ev, self.tag_of(ev) == _YAML_TAG + "str")
            return None
        value = self.scalar(ev)
        if type(value) is str:
            stack = self.stack
            value = self.checked(value, ev, stack[-1].key if stack and stack[-1].key is not _NO_KEY
                                 else len(stack[-1].value) if stack else _NO_KEY)
        size, height = 1 + len(ev.value), 0
        if ev.anchor is not None:
            self.anchors[ev.anchor] = (value, size, height)
        return value, size, height

    def on_alias(self, ev):
        """An alias: a key (None), or what its anchor holds, counted against the budget."""
        name = ev.anchor
        if name not in self.anchors:
            opened = any(f.anchor == name for f in self.stack)
            raise error_at(self.text, ev.start_mark.index, "not_json" if opened else "parse_error",
                           f"The alias *{name} refers to the node that holds it: a recursive "
                           "structure has no JSON form" if opened else
                           f"The alias *{name} names no anchor (&{name}) before it", field="text")
        value, size, height = self.anchors[name]
        self.counts["aliases"] += 1
        self.expanded += size
        budget = LENIENT_MAX_EXPANSION
        if self.expanded > budget:
            line, column = self.where(ev.start_mark).values()
            raise error_at(self.text, ev.start_mark.index, "expansion_limit",
                           f"The alias *{name} (line {line}, column {column}) would expand "
                           f"the document past {budget:,} repeated nodes and characters "
                           "(aliases that repeat aliases grow exponentially: a 'billion "
                           "laughs'); write the repeated parts out or use fewer aliases",
                           field="text", alias=name, limit=budget)
        if self.key_position():
            if type(value) is not str:
                raise self.not_json(ev, f"The alias *{name} is used as a key but is not a string: "
                                        "no JSON form")
            self.set_key(value, ev, True)
            return None
        if len(self.stack) + height > self.max_depth:
            raise self.too_deep(ev)
        return value, size, height

    def on_start(self, ev, mapping: bool) -> None:
        stack = self.stack
        if self.key_position():
            raise self.not_json(ev, "A key that is a list or a mapping has no JSON form")
        if len(stack) >= self.max_depth:
            raise self.too_deep(ev)
        part = None
        if stack:
            top = stack[-1]
            part = top.key if type(top.value) is dict else len(top.value)
        stack.append(_Open({} if mapping else [], ev.anchor, part))

    def on_end(self):
        done = self.stack.pop()
        value, size, height = done.value, done.size, done.height
        if done.anchor is not None:
            self.anchors[done.anchor] = (value, size, height)
        if height >= ORJSON_MAX_DEPTH:   # deeper than orjson writes
            self.plain = True
        return value, size, height

    def place(self, value, size: int, height: int) -> None:
        """A finished value into the container that holds it (or the list of documents)."""
        if not self.stack:
            self.docs.append(value)
            return
        top = self.stack[-1]
        top.size += size
        if height + 1 > top.height:
            top.height = height + 1
        if type(top.value) is list:
            top.value.append(value)
        else:
            top.value[top.key] = value
            top.key = _NO_KEY

    def events(self) -> None:
        from ruamel.yaml.events import (
            AliasEvent,
            DocumentStartEvent,
            MappingEndEvent,
            MappingStartEvent,
            ScalarEvent,
            SequenceEndEvent,
            SequenceStartEvent,
        )
        for ev in self.yaml.parse(self.text):
            t = type(ev)
            if t is ScalarEvent:
                got = self.on_scalar(ev)
            elif t is AliasEvent:
                got = self.on_alias(ev)
            elif t is MappingStartEvent or t is SequenceStartEvent:
                self.on_start(ev, t is MappingStartEvent)
                continue
            elif t is MappingEndEvent or t is SequenceEndEvent:
                got = self.on_end()
            elif t is DocumentStartEvent:
                self.yaml11 = getattr(ev, "version", None) == (1, 1)
                continue
            else:
                continue
            if got is not None:
                self.place(*got)

    def read(self):
        from ruamel.yaml.error import MarkedYAMLError, YAMLError
        try:
            self.events()
        except MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            msg = " ".join(str(x) for x in (e.context, e.problem) if x) or "not valid YAML"
            if mark is not None:
                raise error_at(self.text, min(mark.index, len(self.text)), "parse_error",
                               f"Not valid YAML: {msg}", field="text") from None
            raise WorkbenchError("parse_error", f"Not valid YAML: {msg}", field="text") from None
        except YAMLError as e:
            raise WorkbenchError("parse_error", f"Not valid YAML: {e}", field="text") from None
        if len(self.docs) != 1:
            raise WorkbenchError("not_one_document", f"The YAML text holds {len(self.docs)} documents; "
                                 "Format reads one (split it at the '---' lines)", field="text")
        if self.yaml11:
            self.counts["yaml_1_1"] = 1
        self.counts["comments"] = _yaml_comments(self.text)
        return self.docs[0], self.counts, self.warnings, self.plain


_YAML_COMMENT = re.compile(r"""(?m)(?:^|[ \t])#|"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'""")


def _yaml_comments(text: str) -> int:
    """Comments in a YAML text (a '#' at a line's start or after a blank, outside quotes)."""
    return sum(1 for m in _YAML_COMMENT.finditer(text) if m.group().endswith("#"))


# ---------------------------------------------------------------------------------------- answer

def _dumps(value, indent, sort_keys: bool, plain: bool) -> str:
    """The strict JSON text of a converted tree (numbers ``orjson.Fragment``): orjson, or the
    plain writer where orjson cannot (lone surrogates, more than 254 levels)."""
    if not plain:
        try:
            return dumps_tree(value, indent, sort_keys)
        except (orjson.JSONEncodeError, TypeError):
            pass
    return plain_dumps(_text_numbers(value), indent, sort_keys)


def _text_numbers(root):
    """A copy of the tree with every ``orjson.Fragment`` a :class:`NumberText` (for the plain
    writer); iterative, any depth."""
    def conv(v):
        if type(v) is orjson.Fragment:
            return NumberText(orjson.dumps(v).decode())
        return v
    if not isinstance(root, (dict, list)):
        return conv(root)
    top = {} if isinstance(root, dict) else []
    work = [(root, top)]
    while work:
        src, dst = work.pop()
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for k, v in items:
            if isinstance(v, (dict, list)):
                c = {} if isinstance(v, dict) else []
                work.append((v, c))
                v = c
            else:
                v = conv(v)
            if isinstance(dst, dict):
                dst[k] = v
            else:
                dst.append(v)
    return top


_SAID = {
    "comments": "comments removed: {}",
    "trailing_commas": "trailing commas removed: {}",
    "single_quotes": "single-quoted strings rewritten in double quotes: {}",
    "unquoted_keys": "unquoted keys quoted: {}",
    "numbers": "numbers rewritten in strict JSON form (hex, leading '+', '.5', '5.'): {}",
    "aliases": "YAML aliases expanded: {}",
    "keys_as_strings": "keys that were not strings written as strings: {}",
    "kept_as_strings": "dates and other tagged values kept as strings: {}",
    "booleans": "YAML booleans written true/false (yes, on, Y, True …): {}",
    "nulls": "YAML nulls written null (~, empty values, Null …): {}",
    "yaml_1_1": "read as YAML 1.1, as its %YAML directive says (yes/no/on/off are booleans, 010 is octal)",
}
_NAMES = {"jsonc": "JSONC", "json5": "JSON5", "yaml": "YAML"}


def format_lenient(text: str, kind: str, indent: Any = 2, sort_keys: bool = False, *,
                   max_depth: int, field: str = "text") -> dict:
    """Read ``text`` as JSONC, JSON5 or YAML and format the strict JSON it holds."""
    if kind not in INPUTS[1:]:
        raise bad_request(f"'input' must be one of {', '.join(INPUTS)}", field="input", code="bad_option")
    indent = core.check_indent(indent)
    if not isinstance(sort_keys, bool):
        raise bad_request("'sort_keys' must be true or false", field="sort_keys", code="bad_option")
    if kind == "jsonc":
        strict, counts = strip_jsonc(text)
        answer = core.format_text(strict, indent, sort_keys, max_depth=max_depth, field=field)
    else:
        if len(text) > MAX_CHARS:
            raise WorkbenchError("too_large", f"{_NAMES[kind]} input is read up to "
                                 f"{MAX_CHARS:,} characters (this one has {len(text):,}): its parser is "
                                 "pure Python and slow; convert it elsewhere first", status=413, field=field)
        value, counts, warnings, plain = (_read_json5 if kind == "json5" else _read_yaml)(text, max_depth)
        formatted = _dumps(value, indent, sort_keys, plain)
        answer = {"formatted": formatted, "warnings": warnings, "warning_count": len(warnings),
                  "truncated": False, "stats": core.stats(text, formatted)}
    changes = [{"code": k, "count": n, "message": _SAID[k].format(n)} for k, n in counts.items() if n]
    summary = " · ".join(c["message"] for c in changes) if changes else \
        f"nothing to change: the {_NAMES[kind]} text was already strict JSON"
    if kind == "yaml":
        summary = f"converted from YAML{' · ' + summary if changes else ''}"
    answer["input"] = kind
    answer["converted"] = {"from": kind, "changes": changes, "summary": summary}
    return answer
