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
  with spaces (newlines kept), so every offset stays where it was, and the result goes through
  the strict parser: its error positions and duplicate-key positions point into the text as
  pasted, and it is as fast as strict JSON (the regex pass ~40 ms/MB).
* **JSON5**: the ``json5`` package (pure Python, well kept, the reference test suite), with
  ``parse_float``/``parse_int`` given the token's text and an ``object_pairs_hook`` that keeps
  duplicates; a token pass of our own counts what differs from strict JSON.  It is slow
  (~15 s/MB), so JSON5 and YAML inputs are limited to :data:`MAX_CHARS`.
* **YAML**: ``ruamel.yaml`` (YAML 1.2, safe).  The document is *composed* (nodes with their
  resolved tag and source text, never constructed into Python floats), and the JSON value is
  built from the nodes: a float node's text becomes the JSON number text, ints are exact, dates
  stay strings; duplicate keys are reported with their line and column.  ~8 s/MB.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

import orjson

from ..errors import WorkbenchError, bad_request
from ..jsontext import dumps_tree, error_at, escape_token

INPUTS = ("json", "jsonc", "json5", "yaml")
from ..limits import LENIENT_MAX_CHARS as MAX_CHARS  # JSON5 and YAML: the pure-Python parsers take ~15 s and ~8 s per MB

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


def count_json5(text: str) -> dict[str, int]:
    """What a JSON5 text has that strict JSON lacks, counted token by token."""
    counts = {"comments": 0, "trailing_commas": 0, "single_quotes": 0, "unquoted_keys": 0,
              "numbers": 0}
    sig: list[tuple[str, str, int]] = []   # significant tokens: (kind, text, offset)
    pos = 0
    n = len(text)
    while pos < n:
        m = _JSON5_TOKEN.match(text, pos)
        if not m:   # something the parser will refuse (and place): stop counting there
            break
        kind = m.lastgroup
        pos = m.end()
        if kind in ("lc", "bc"):
            counts["comments"] += 1
        elif kind != "ws":
            sig.append((kind, m.group(), m.start()))
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
        raise bad_request(f"Cannot read the number {tok}", field="text", code="parse_error")
    mant, _, exp = (sign + body).lower().partition("e")
    if mant.lstrip("-").startswith("."):
        mant = mant.replace(".", "0.", 1)
    if mant.endswith("."):
        mant = mant[:-1]
    mant = re.sub(r"^(-?)0+(?=\d)", r"\1", mant)
    out = mant + (f"e{exp}" if exp else "")
    return out if _STRICT_NUMBER.match(out) else str(d)


def _read_json5(text: str, max_depth: int):
    import json5   # imported when asked for: the strict path never needs it

    counts = count_json5(text)
    frag = lambda tok, base=10: orjson.Fragment(_number_text(tok).encode())  # noqa: E731
    try:
        value = json5.loads(text, parse_float=frag, parse_int=frag, parse_constant=frag,
                            object_pairs_hook=_pairs)
    except RecursionError:
        raise WorkbenchError("too_deep", f"The document is nested too deeply to read as JSON5 "
                             f"(the limit is {max_depth} levels)", field="text") from None
    except ValueError as e:
        raise _json5_error(text, str(e)) from None
    warnings = []
    _walk_dups(value, "", warnings, max_depth)
    return value, counts, warnings


_JSON5_ERR = re.compile(r"<string>:(\d+) (.*) at column (\d+)")


def _json5_error(text: str, message: str) -> WorkbenchError:
    m = _JSON5_ERR.search(message)
    if not m:
        return WorkbenchError("parse_error", f"Not valid JSON5: {message}", field="text")
    line, what, column = int(m.group(1)), m.group(2), int(m.group(3))
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    offset = min(len(text), starts[min(line, len(starts)) - 1] + column - 1)
    return error_at(text, offset, "parse_error", f"Not valid JSON5: {what}", field="text")


def _walk_dups(value, pointer: str, out: list, max_depth: int, depth: int = 0) -> None:
    if depth > max_depth:
        raise WorkbenchError("too_deep", f"The document is nested deeper than {max_depth} levels",
                             field="text")
    if isinstance(value, dict):
        for k in getattr(value, "dups", ()):
            out.append({"code": "duplicate_key", "key": k, "pointer": pointer,
                        "message": f"The key {orjson.dumps(k).decode()} appears more than once; "
                                   "the last value is kept"})
        for k, v in value.items():
            if isinstance(v, (dict, list)):
                _walk_dups(v, f"{pointer}/{escape_token(k)}", out, max_depth, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, (dict, list)):
                _walk_dups(v, f"{pointer}/{i}", out, max_depth, depth + 1)


# ----------------------------------------------------------------------------------------- YAML

_YAML_FLOAT_SPECIAL = re.compile(r"[-+]?\.(inf|nan)\Z", re.I)


def _read_yaml(text: str, max_depth: int):
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    yaml = YAML(typ="safe", pure=True)
    try:
        nodes = list(yaml.compose_all(text))
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        msg = " ".join(str(x) for x in (e.context, e.problem) if x) or "not valid YAML"
        if mark is not None:
            raise error_at(text, min(mark.index, len(text)), "parse_error", f"Not valid YAML: {msg}",
                           field="text") from None
        raise WorkbenchError("parse_error", f"Not valid YAML: {msg}", field="text") from None
    except (YAMLError, RecursionError) as e:
        raise WorkbenchError("parse_error", f"Not valid YAML: {e}", field="text") from None
    nodes = [n for n in nodes if n is not None]
    if len(nodes) != 1:
        raise WorkbenchError("not_one_document", f"The YAML text holds {len(nodes)} documents; "
                             "Format reads one (split it at the '---' lines)", field="text")
    counts = {"aliases": 0, "keys_as_strings": 0, "kept_as_strings": 0}
    warnings: list[dict] = []
    seen: set[int] = set()
    TAG = "tag:yaml.org,2002:"

    def where(node):
        return {"line": node.start_mark.line + 1, "column": node.start_mark.column + 1}

    def scalar(node, pointer):
        tag, v = node.tag, node.value
        if not tag.startswith(TAG):
            raise error_at(text, node.start_mark.index, "not_json", f"The tag {tag} has no JSON form",
                           field="text")
        t = tag[len(TAG):]
        if t == "str":
            return v
        if t == "null":
            return None
        if t == "bool":
            return v.lower() == "true"
        if t == "int":
            s = v.replace("_", "")
            sign = -1 if s.startswith("-") else 1
            body = s.lstrip("+-")
            base = 16 if body[:2] in ("0x", "0X") else 8 if body[:2] in ("0o", "0O") else 10
            try:
                n = sign * int(body[2:] if base != 10 else body, base)
            except ValueError:   # a form strict JSON has no number for (0b…): its text
                counts["kept_as_strings"] += 1
                return v
            return orjson.Fragment(str(n).encode())   # exact, beyond 64 bits too
        if t == "float":
            if _YAML_FLOAT_SPECIAL.match(v):
                raise error_at(text, node.start_mark.index, "not_json", f"{v} has no JSON form: strict "
                               "JSON has no infinities and no NaN", field="text")
            return orjson.Fragment(_number_text(v.replace("_", "")).encode())
        counts["kept_as_strings"] += 1   # timestamp, binary, …: the text as written
        return v

    def build(node, pointer, depth):
        if depth > max_depth:
            raise WorkbenchError("too_deep", f"The document is nested deeper than {max_depth} levels",
                                 field="text")
        if id(node) in seen and not isinstance(node, ScalarNode):
            counts["aliases"] += 1
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            return scalar(node, pointer)
        if isinstance(node, SequenceNode):
            return [build(n, f"{pointer}/{i}", depth + 1) for i, n in enumerate(node.value)]
        if isinstance(node, MappingNode):
            out: dict = {}
            first: dict = {}
            for knode, vnode in node.value:
                if not isinstance(knode, ScalarNode):
                    raise error_at(text, knode.start_mark.index, "not_json",
                                   "A key that is a list or a mapping has no JSON form", field="text")
                key = knode.value
                if knode.tag != TAG + "str":
                    counts["keys_as_strings"] += 1
                if key in first:
                    warnings.append({"code": "duplicate_key", "key": key, "pointer": pointer,
                                     "first": first[key], "second": where(knode), **where(knode),
                                     "message": f"The key {orjson.dumps(key).decode()} appears more "
                                                "than once; the last value is kept"})
                    out.pop(key, None)
                first[key] = where(knode)
                out[key] = build(vnode, f"{pointer}/{escape_token(key)}", depth + 1)
            return out
        raise WorkbenchError("not_json", "A YAML node with no JSON form", field="text")  # pragma: no cover

    try:
        value = build(nodes[0], "", 0)
    except RecursionError:
        raise WorkbenchError("too_deep", "The document is nested too deeply", field="text") from None
    counts["comments"] = _yaml_comments(text)
    return value, counts, warnings


_YAML_COMMENT = re.compile(r"""(?m)(?:^|[ \t])#|"(?:[^"\\\n]|\\.)*"|'(?:[^'\n]|'')*'""")


def _yaml_comments(text: str) -> int:
    """Comments in a YAML text (a '#' at a line's start or after a blank, outside quotes)."""
    return sum(1 for m in _YAML_COMMENT.finditer(text) if m.group().endswith("#"))


# ---------------------------------------------------------------------------------------- answer

_SAID = {
    "comments": "comments removed: {}",
    "trailing_commas": "trailing commas removed: {}",
    "single_quotes": "single-quoted strings rewritten in double quotes: {}",
    "unquoted_keys": "unquoted keys quoted: {}",
    "numbers": "numbers rewritten in strict JSON form (hex, leading '+', '.5', '5.'): {}",
    "aliases": "YAML aliases expanded: {}",
    "keys_as_strings": "keys that were not strings written as strings: {}",
    "kept_as_strings": "dates and other tagged values kept as strings: {}",
}
_NAMES = {"jsonc": "JSONC", "json5": "JSON5", "yaml": "YAML"}


def format_lenient(text: str, kind: str, indent: Any = 2, sort_keys: bool = False, *,
                   max_depth: int, field: str = "text") -> dict:
    """Read ``text`` as JSONC, JSON5 or YAML and format the strict JSON it holds."""
    from . import core

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
        value, counts, warnings = (_read_json5 if kind == "json5" else _read_yaml)(text, max_depth)
        formatted = dumps_tree(value, indent, sort_keys)
        answer = {"formatted": formatted, "warnings": warnings, "stats": core.stats(text, formatted)}
    changes = [{"code": k, "count": n, "message": _SAID[k].format(n)} for k, n in counts.items() if n]
    summary = " · ".join(c["message"] for c in changes) if changes else \
        f"nothing to change: the {_NAMES[kind]} text was already strict JSON"
    if kind == "yaml":
        summary = f"converted from YAML{' · ' + summary if changes else ''}"
    answer["input"] = kind
    answer["converted"] = {"from": kind, "changes": changes, "summary": summary}
    return answer
