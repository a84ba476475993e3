"""Strict, exact JSON parsing of the user's text: the core every view parses through.

* Strict RFC 8259: no NaN/Infinity, trailing commas, comments, single quotes, control
  characters in strings, byte order mark, or text after the value.
* Every error is a :class:`WorkbenchError` with a plain message, 1-based ``line``/``column``,
  0-based ``offset`` and a ``snippet`` with a caret under the spot.
* Nesting depth is limited (``max_depth``); deeper input is a clear error, never a crash.
* Numbers stay exact: integers are Python ``int``, other numbers ``decimal.Decimal`` (or, for
  the formatter, ``orjson.Fragment`` holding the token's text unchanged).
* Duplicate keys, lone surrogate escapes and integers JavaScript would round are reported as
  warnings with the JSON Pointer and position of each.

The fast path is the C scanner of the standard library's ``json`` with hooks; positions are
only computed (by :func:`locate_many` and a walker that skips subtrees with the C scanner)
when something needs them, so a 20 MB document parses in a few tenths of a second.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import json
import re
import threading
from itertools import compress
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable

import orjson

from .errors import WorkbenchError

DEFAULT_MAX_DEPTH = 512
JS_SAFE_INTEGER = 2**53 - 1

_WS = re.compile(r"[ \t\n\r]*")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_BRACKET_OR_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)
_scanstring = json.decoder.scanstring


class NumberText(str):
    """A number token kept as its exact text (``numbers="text"`` mode)."""

    __slots__ = ()


class _Constant(Exception):
    pass


def _reject_constant(name):
    raise _Constant(name)


_SCAN = json.JSONDecoder(parse_float=len, parse_int=len, parse_constant=len).scan_once


def _skip(text: str, i: int) -> int:
    """End offset of the (valid) JSON value starting at ``i``, scanned in C."""
    return _SCAN(text, i)[1]


# --------------------------------------------------------------------------- positions

class LineIndex:
    """Offset → (line, column) for one text; 1-based, columns in characters."""

    def __init__(self, text: str):
        self.text = text
        self._starts: list[int] | None = None
        self._lookups = 0

    def line_col(self, offset: int) -> tuple[int, int]:
        text = self.text
        offset = max(0, min(offset, len(text)))
        self._lookups += 1
        if self._starts is None and self._lookups > 16 and len(text) > 100_000:
            self._starts = [0] + [m.end() for m in re.finditer("\n", text)]
        if self._starts is not None:
            line = bisect.bisect_right(self._starts, offset)
            return line, offset - self._starts[line - 1] + 1
        line = text.count("\n", 0, offset) + 1
        return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def line_col(text: str, offset: int) -> tuple[int, int]:
    return LineIndex(text).line_col(offset)


def snippet(text: str, offset: int, width: int = 100) -> str:
    """The line holding ``offset`` (cut to ``width`` around it) and a caret under the spot."""
    offset = max(0, min(offset, len(text)))
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    if end == -1:
        end = len(text)
    line = text[start:end].replace("\r", " ")
    col = offset - start
    if len(line) > width:
        left = max(0, col - width // 2)
        cut = line[left:left + width]
        prefix = "…" if left > 0 else ""
        suffix = "…" if left + width < len(line) else ""
        line, col = prefix + cut + suffix, col - left + len(prefix)
    caret_pad = "".join("\t" if ch == "\t" else " " for ch in line[:col])
    return f"{line}\n{caret_pad}^"


def error_at(text: str, offset: int, code: str, message: str, *, field: str | None = None,
             **extra) -> WorkbenchError:
    line, column = line_col(text, offset)
    return WorkbenchError(code, message, field=field, line=line, column=column, offset=offset,
                          snippet=snippet(text, offset), **extra)


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer_of(parts: Iterable[str | int]) -> str:
    return "".join("/" + escape_token(str(p)) for p in parts)


def split_pointer(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"JSON Pointer must start with '/': {pointer!r}")
    return [unescape_token(t) for t in pointer[1:].split("/")]


def normalized_path(parts: Iterable[str | int]) -> str:
    """RFC 9535 normalized path, e.g. ``$['data'][0]['agent_id']``."""
    out = ["$"]
    for p in parts:
        if isinstance(p, int):
            out.append(f"[{p}]")
        else:
            out.append("['" + _escape_normalized(p) + "']")
    return "".join(out)


def _escape_normalized(name: str) -> str:
    res = []
    for ch in name:
        if ch == "\\":
            res.append("\\\\")
        elif ch == "'":
            res.append("\\'")
        elif ch in "\b\f\n\r\t":
            res.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif ord(ch) < 0x20:
            res.append(f"\\u{ord(ch):04x}")
        else:
            res.append(ch)
    return "".join(res)


@dataclass
class Span:
    """Where a value sits in the text: ``start``/``end`` offsets of the value; ``key`` the
    offset of its member name's opening quote when it is an object member."""

    start: int
    end: int
    key: int | None = None


def locate_many(text: str, pointers: Iterable[str]) -> dict[str, Span]:
    """Spans of the values at the given JSON Pointers in a valid JSON text.

    Walks only along the requested pointers; siblings are skipped with the C scanner, and a
    container stops being read once everything wanted inside it is found.
    A pointer that names nothing (a missing key, say) is left out of the result; its
    nearest existing parent can be looked up by the caller.
    """
    trie: dict = {}
    for p in pointers:
        node = trie
        for tok in split_pointer(p):
            node = node.setdefault(tok, {})
        node[None] = p
    out: dict[str, Span] = {}
    if trie:
        _find(text, _WS.match(text, 0).end(), trie, out, None)
    return out


def _find(text: str, i: int, node: dict, out: dict, key_at):
    """Record the spans under ``node`` for the value at ``i``; its end offset, or None when
    reading stopped early."""
    children = [k for k in node if k is not None]
    end = None
    if not children:
        end = _skip(text, i)
    else:
        ch = text[i]
        if ch == "[":
            need = {int(k): node[k] for k in children if k.isdigit()}
            j = _WS.match(text, i + 1).end()
            index = 0
            if text[j] == "]":
                end = j + 1
            else:
                while need:
                    sub = need.pop(index, None)
                    if sub is not None:
                        start = j
                        j = _find(text, j, sub, out, None)
                        if j is None:
                            if not need:
                                break
                            j = _skip(text, start)
                    else:
                        j = _skip(text, j)
                    index += 1
                    j = _WS.match(text, j).end()
                    if text[j] == "]":
                        end = j + 1
                        break
                    j = _WS.match(text, j + 1).end()
        elif ch == "{":
            # every member is read: with a duplicate key the last one is the value
            j = _WS.match(text, i + 1).end()
            if text[j] == "}":
                end = j + 1
            else:
                while True:
                    kstart = j
                    key, j = _scanstring(text, j + 1)
                    j = _WS.match(text, _WS.match(text, j).end() + 1).end()
                    sub = node.get(key) if key is not None else None
                    if sub is not None:
                        start = j
                        j = _find(text, j, sub, out, kstart)
                        if j is None:
                            j = _skip(text, start)
                    else:
                        j = _skip(text, j)
                    j = _WS.match(text, j).end()
                    if text[j] == "}":
                        end = j + 1
                        break
                    j = _WS.match(text, j + 1).end()
        else:
            end = _skip(text, i)
    if None in node:
        if end is None:
            end = _skip(text, i)
        out[node[None]] = Span(i, end, key_at)
    return end


# --------------------------------------------------------------------------- the walker

class _StopWalk(Exception):
    pass


def _walk(text: str, interesting: list[int], visit) -> None:
    """Walk the valid JSON ``text`` in Python, only as far as needed to reach the sorted
    ``interesting`` offsets: a value that holds none of them is skipped with the C scanner,
    and the walk stops as soon as none is left ahead.

    ``visit(kind, parts, start, end, extra)`` is called for values and events on the way:
    ``"string"`` and ``"number"`` values (extra None) and ``"duplicate"`` keys (start/end the
    first and second key offsets, extra the key); ``parts`` is the list of path parts.
    Arrays are entered without measuring them first (they are where large documents are
    large); objects are measured in C and entered only when they hold an offset.
    """
    count = len(interesting)

    def nothing_ahead(j: int) -> bool:
        return bisect.bisect_left(interesting, j) >= count

    def walk_value(i: int, parts: list, end: int | None = None) -> int:
        ch = text[i]
        if ch == "{":
            if end is None:
                end = _skip(text, i)
                k = bisect.bisect_left(interesting, i)
                if k >= count or interesting[k] >= end:
                    return end
            seen: dict[str, int] = {}
            j = _WS.match(text, i + 1).end()
            if text[j] != "}":
                while True:
                    kstart = j
                    key, j = _scanstring(text, j + 1)
                    if key in seen:
                        visit("duplicate", parts, seen[key], kstart, key)
                    else:
                        seen[key] = kstart
                    j = _WS.match(text, j).end() + 1
                    j = _WS.match(text, j).end()
                    parts.append(key)
                    j = walk_value(j, parts)
                    parts.pop()
                    j = _WS.match(text, j).end()
                    if text[j] == "}":
                        break
                    j = _WS.match(text, j + 1).end()
            return end
        if ch == "[":
            j = _WS.match(text, i + 1).end()
            index = 0
            if text[j] != "]":
                while True:
                    if nothing_ahead(j):
                        raise _StopWalk
                    parts.append(index)
                    j = walk_value(j, parts)
                    parts.pop()
                    index += 1
                    j = _WS.match(text, j).end()
                    if text[j] == "]":
                        break
                    j = _WS.match(text, j + 1).end()
            return j + 1
        if end is None:
            end = _skip(text, i)
        if ch == '"':
            visit("string", parts, i, end, None)
        elif ch == "-" or ch.isdigit():
            visit("number", parts, i, end, None)
        return end

    start = _WS.match(text, 0).end()
    try:
        walk_value(start, [], len(text.rstrip(" \t\r\n")) if text[start] == "{" else None)
    except _StopWalk:
        pass


# --------------------------------------------------------------------------- parsing

_gc_lock = threading.Lock()
_gc_pausers = 0


@contextlib.contextmanager
def collector_paused():
    """Pause the cyclic garbage collector while large trees are built (parsing creates
    millions of objects, none of them cyclic: the collector's passes cost about a third of
    the parse).  Safe across threads: it runs again when the last pauser leaves."""
    global _gc_pausers
    with _gc_lock:
        if _gc_pausers == 0 and not gc.isenabled():
            owner = False  # someone else turned it off; leave it as it is
        else:
            owner = True
            _gc_pausers += 1
            gc.disable()
    try:
        yield
    finally:
        if owner:
            with _gc_lock:
                _gc_pausers -= 1
                if _gc_pausers == 0:
                    gc.enable()


@dataclass
class Parsed:
    """A parsed document: the user's ``text``, its exact ``value`` and its ``warnings``."""

    text: str
    value: Any
    warnings: list[dict] = field(default_factory=list)
    _lines: LineIndex | None = None

    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    def spans(self, pointers: Iterable[str]) -> dict[str, Span]:
        return locate_many(self.text, pointers)


def parse(text: str, *, field: str | None = "document", max_depth: int = DEFAULT_MAX_DEPTH,
          numbers: str = "exact", warnings: bool = True, check_depth: bool = True) -> Parsed:
    with collector_paused():
        parsed, found = _parse(text, field=field, max_depth=max_depth, numbers=numbers)
        if check_depth:
            _check_depth(parsed, max_depth, field)
        if warnings:
            parsed.warnings = _warnings(text, *found, parsed.lines)
        return parsed


def _parse(text: str, *, field: str | None, max_depth: int, numbers: str) -> tuple[Parsed, tuple]:
    """Parse ``text`` strictly.  ``numbers`` is ``"exact"`` (int / Decimal),
    ``"fragment"`` (every number an ``orjson.Fragment`` of its token, for writing out) or
    ``"text"`` (every number a :class:`NumberText`, the token as a ``str`` subclass).

    Raises :class:`WorkbenchError` (422) with the position of the first fault.
    ``check_depth=False`` leaves the depth check to the caller (see :func:`check_depth`).
    """
    if not isinstance(text, str):
        raise WorkbenchError("bad_request", f"'{field}' must be a string holding JSON text",
                             status=400, field=field)
    if text.startswith("\ufeff"):
        raise error_at(text, 0, "parse_error",
                       "The text starts with a byte order mark (U+FEFF); JSON text must not",
                       field=field)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise error_at(text, exc.start, "parse_error",
                           f"The text holds U+{ord(text[exc.start]):04X}, a lone surrogate that is "
                           "not a character: the input was not valid UTF-8 or UTF-16",
                           field=field) from None

    duplicates: list[str] = []
    long_ints: list[str] = []

    def pairs_hook(pairs):
        d = dict(pairs)
        if len(d) != len(pairs):
            seen = set()
            duplicates.extend(k for k, _ in pairs if k in seen or seen.add(k))
        return d

    if numbers == "text":
        number_type = NumberText
    elif numbers == "fragment":
        number_type = orjson.Fragment
    else:
        number_type = None

    def int_hook(token):
        if len(token) > 15:
            long_ints.append(token)
        return int(token) if number_type is None else number_type(token)

    decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_int=int_hook,
                               parse_float=number_type or Decimal, parse_constant=_reject_constant)
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise _diagnose(text, exc, field) from None
    except _Constant as exc:
        raise _constant_error(text, str(exc), field) from None
    except RecursionError:
        raise _too_deep(text, max_depth, field) from None
    except InvalidOperation:
        raise _exponent_error(text, field) from None
    except ValueError:
        # an integer beyond Python's int-conversion digit limit: keep it as a Decimal
        duplicates.clear()
        long_ints.clear()
        number_type = number_type or Decimal
        decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_int=int_hook,
                                   parse_float=number_type, parse_constant=_reject_constant)
        try:
            value = decoder.decode(text)
        except RecursionError:
            raise _too_deep(text, max_depth, field) from None
        except InvalidOperation:
            raise _exponent_error(text, field) from None

    return Parsed(text, value), (duplicates, long_ints)


ORJSON_MAX_DEPTH = 254  # orjson refuses to write deeper trees (measured: 255 fails)


def check_depth(parsed: "Parsed", max_depth: int, field=None) -> None:
    """Raise ``too_deep`` when the parsed value nests deeper than ``max_depth``.

    Cheapest proof first: fewer brackets in the text than the limit; then, for a limit of 254
    or more, orjson writing the tree (in C; it refuses more than 254 levels); then a walk level
    by level.  Only a document over the limit pays for finding the spot of the fault."""
    text = parsed.text
    if text.count("[") + text.count("{") <= max_depth:
        return
    if max_depth >= ORJSON_MAX_DEPTH:
        try:
            orjson.dumps(parsed.value, default=str)
            return
        except (orjson.JSONEncodeError, TypeError):
            pass  # deeper than orjson writes, integers beyond 64 bits, lone surrogates
    if _deeper_than(parsed.value, max_depth):
        raise _too_deep(text, max_depth, field)


_check_depth = check_depth  # for parse(), whose keyword argument has the same name

_IS_CONTAINER = frozenset({dict, list}).__contains__


def _deeper_than(root: Any, limit: int) -> bool:
    """Whether ``root`` nests containers more than ``limit`` levels deep (the root is level 1);
    level by level, the containers of each level picked out in C."""
    level = [root] if type(root) in (dict, list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list = []
        add = below.extend
        for node in level:
            values = node.values() if type(node) is dict else node
            add(compress(values, map(_IS_CONTAINER, map(type, values))))
        level = below
    return False


def _too_deep(text: str, max_depth: int, field) -> WorkbenchError:
    depth = 0
    for m in _BRACKET_OR_STRING.finditer(text):
        ch = m.group()[0]
        if ch == "[" or ch == "{":
            depth += 1
            if depth > max_depth:
                return error_at(text, m.start(), "too_deep",
                                f"Nesting is deeper than the limit of {max_depth} levels "
                                "(objects and arrays inside each other)", field=field,
                                limit=max_depth)
        elif ch == "]" or ch == "}":
            depth -= 1
    return WorkbenchError("too_deep", f"Nesting is deeper than the limit of {max_depth} levels",
                          field=field, limit=max_depth)


def _exponent_error(text: str, field) -> WorkbenchError:
    """A valid number whose exponent no exact decimal can hold (e.g. ``1e`` + 200 digits)."""
    m = _HUGE_EXPONENT.search(text)
    message = ("This number's exponent is too large to compare or validate exactly (Format "
               "still keeps it as written)")
    if m:
        return error_at(text, m.start(), "number_too_large", message, field=field)
    return WorkbenchError("number_too_large", message, field=field)


_HUGE_EXPONENT = re.compile(r"-?\d+(?:\.\d+)?[eE][+-]?\d{18,}")


def _constant_error(text: str, name: str, field) -> WorkbenchError:
    # find the first occurrence of the constant outside a string
    for m in re.finditer(r"-?(?:NaN|Infinity)", text):
        prefix = _STRING.sub("", text[:m.start()])
        if prefix.count('"') == 0:
            return error_at(text, m.start(), "parse_error",
                            f"{m.group()} is not valid JSON: JSON numbers must be finite "
                            "(write null or a string instead)", field=field)
    return WorkbenchError("parse_error", f"{name} is not valid JSON", field=field)


# --------------------------------------------------------------------------- messages

def _open_containers(prefix: str) -> str:
    """The stack of containers still open at the end of ``prefix`` (e.g. ``'{['``)."""
    stripped = _STRING.sub("", prefix)
    brackets = _NOT_BRACKET.sub("", stripped)
    while True:
        reduced = brackets.replace("[]", "").replace("{}", "")
        if reduced == brackets:
            return reduced
        brackets = reduced


_NOT_BRACKET = re.compile(r"[^\[\]{}]+")

_LITERAL_HINTS = {"True": "true", "False": "false", "None": "null", "TRUE": "true",
                  "FALSE": "false", "NULL": "null", "Null": "null", "undefined": "null"}


def _previous_char(text: str, pos: int) -> tuple[str, int]:
    j = pos - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    return (text[j], j) if j >= 0 else ("", -1)


def _last_key(text: str, pos: int) -> str | None:
    m = re.search(r'"((?:[^"\\]|\\.)*)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[-\w.+]+)\s*$', text[max(0, pos - 2000):pos])
    if not m:
        return None
    try:
        return json.loads('"' + m.group(1) + '"')
    except ValueError:
        return None


def _found(text: str, pos: int) -> str:
    """What stands at ``pos``, in words: a string is quoted whole (cut when long)."""
    ch = text[pos:pos + 1]
    if ch == '"':
        try:
            value, _ = _scanstring(text, pos + 1)
        except ValueError:
            return "'\"'"
        shown = value if len(value) <= 40 else value[:37] + "…"
        return "the string " + json.dumps(shown, ensure_ascii=False)
    return _describe(ch)


def _describe(ch: str) -> str:
    if ch == "":
        return "the end of the input"
    if ch == "\n":
        return "a line break"
    if ord(ch) < 0x20:
        return f"control character U+{ord(ch):04X}"
    return repr(ch) if ch != "'" else '"\'"'


def _diagnose(text: str, exc: json.JSONDecodeError, field) -> WorkbenchError:
    pos = exc.pos
    msg = exc.msg
    ch = text[pos:pos + 1]
    prev, prev_at = _previous_char(text, pos)

    def err(message, at=pos):
        return error_at(text, at, "parse_error", message, field=field)

    if msg.startswith("Unterminated string"):
        return err("This string is never closed: a '\"' is missing at its end")
    if msg.startswith("Invalid control character"):
        names = {"\n": "a line break (write \\n)", "\t": "a tab (write \\t)", "\r": "a carriage return (write \\r)"}
        what = names.get(ch, f"control character U+{ord(ch):04X} (write \\u{ord(ch):04x})" if ch else "a control character")
        return err(f"A string may not contain {what} unescaped")
    if msg.startswith("Invalid \\uXXXX"):
        return err("Invalid \\u escape: it needs exactly four hex digits")
    if msg.startswith("Invalid \\escape"):
        bad = text[pos:pos + 2]
        return err(f"Invalid escape {bad!r} in a string: allowed are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
    if msg.startswith("Extra data"):
        return err(f"Unexpected {_describe(ch)} after the end of the JSON value: a document holds "
                   "exactly one value (for one value per line, use JSON Lines)")
    if ch == "" and msg != "Extra data":
        if not text.strip():
            return err("The input is empty: expected a JSON value")
        return err("Unexpected end of the input: the document stops before it is complete")
    if ch == "/":
        return err("Comments are not allowed in JSON")
    if ch == "'":
        return err("Strings and keys must use double quotes (\"), not single quotes")
    if msg.startswith("Expecting value"):
        if ch in "]}" and prev == ",":
            return err(f"Trailing comma: JSON does not allow ',' before {ch!r}", at=prev_at)
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[pos:pos + 40])
        if word:
            w = word.group()
            if w in ("NaN", "Infinity"):
                return err(f"{w} is not valid JSON: numbers must be finite (write null or a string)")
            if w in _LITERAL_HINTS:
                return err(f"'{w}' is not JSON: write {_LITERAL_HINTS[w]}")
            return err(f"Unexpected word '{w}': expected a value (a string in double quotes, a "
                       "number, an object, an array, true, false or null)")
        if ch == "-" or ch == "+" or ch == ".":
            return err("Invalid number: a number starts with '-' or a digit and has digits on "
                       "both sides of '.' (e.g. 0.5, -1, 2e10)")
        if ch == ",":
            return err("Expected a value before ','")
        return err(f"Unexpected {_describe(ch)}: expected a value")
    if msg.startswith("Expecting property name"):
        if ch == "}" and prev == ",":
            return err("Trailing comma: JSON does not allow ',' before '}'", at=prev_at)
        return err(f"Expected a key in double quotes, found {_describe(ch)}")
    if msg.startswith("Expecting ':'"):
        return err(f"Expected ':' after the key, found {_found(text, pos)}")
    if msg.startswith("Expecting ',' delimiter"):
        number_fault = _number_fault(text, pos, field)
        if number_fault:
            return number_fault
        stack = _open_containers(text[:pos])
        inner = stack[-1:] or "?"
        if inner == "{":
            key = _last_key(text, pos)
            after = f"the value of {json.dumps(key, ensure_ascii=False)}" if key is not None else "a member"
            return err(f"Expected ',' or '}}' after {after}, found {_found(text, pos)}")
        return err(f"Expected ',' or ']' after an array item, found {_found(text, pos)}")
    return err(msg)


def _number_fault(text: str, pos: int, field) -> WorkbenchError | None:
    m = re.search(r"-?\d[\d.eE+-]*$", text[max(0, pos - 400):pos])
    if not m:
        return None
    tail = re.match(r"[\d.eE+-]*", text[pos:pos + 400]).group()
    if not tail:
        return None
    token = m.group() + tail
    start = pos - len(m.group())
    if re.match(r"-?0\d", token):
        why = "leading zeros are not allowed"
    elif re.search(r"\.(?!\d)", token):
        why = "a digit must follow the decimal point"
    elif re.search(r"[eE][+-]?(?!\d)", token):
        why = "the exponent needs digits"
    else:
        why = "it is not a JSON number"
    return error_at(text, start, "parse_error", f"Invalid number {token!r}: {why}", field=field)


# --------------------------------------------------------------------------- warnings

def _warnings(text: str, duplicate_keys: list[str], long_int_tokens: list[str],
              lines: LineIndex) -> list[dict]:
    found: list[tuple[int, dict]] = []
    dup_keys_check = bool(duplicate_keys)
    surrogates = [m.start() for m in _SURROGATE_ESCAPE.finditer(text)]
    unsafe = {t for t in long_int_tokens if len(t) > 4000 or abs(int(t)) > JS_SAFE_INTEGER}
    long_ints = _occurrences(text, unsafe)
    if not (dup_keys_check or surrogates or long_ints):
        return []
    key_offsets = _occurrences(text, {s for k in set(duplicate_keys)
                                      for s in (json.dumps(k, ensure_ascii=False), json.dumps(k))}
                               ) if dup_keys_check else []
    interesting = sorted(set(key_offsets) | set(surrogates) | set(long_ints))

    def where(offset):
        line, column = lines.line_col(offset)
        return {"line": line, "column": column, "offset": offset}

    def visit(kind, parts, start, end, extra):
        if kind == "duplicate":
            first, second = where(start), where(end)
            found.append((end, {
                "code": "duplicate_key",
                "message": f"Duplicate key {json.dumps(extra, ensure_ascii=False)}: most parsers "
                           "keep only the last value, some the first",
                "pointer": pointer_of(parts), "key": extra, **second,
                "first": first, "second": second}))
        elif kind == "string" and surrogates:
            k = bisect.bisect_left(surrogates, start)
            if k < len(surrogates) and surrogates[k] < end:
                value = json.loads(text[start:end])
                for idx, c in enumerate(value):
                    o = ord(c)
                    if 0xD800 <= o <= 0xDFFF:
                        found.append((start, {
                            "code": "lone_surrogate",
                            "message": f"The string holds the lone surrogate \\u{o:04x}: it is not a "
                                       "character and many tools reject or replace it",
                            "pointer": pointer_of(parts), **where(start)}))
                        break
        elif kind == "number" and long_ints:
            token = text[start:end]
            if re.fullmatch(r"-?\d+", token) and abs(int(token) if len(token) < 4000 else 2**60) > JS_SAFE_INTEGER:
                found.append((start, {
                    "code": "unsafe_integer",
                    "message": f"The integer {token if len(token) < 40 else token[:37] + '…'} is "
                               "beyond ±(2^53−1): JavaScript and many JSON tools will round it",
                    "pointer": pointer_of(parts), **where(start)}))

    try:
        _walk(text, interesting, visit)
    except RecursionError:
        # nesting near Python's own limit (a caller that checks depth later): the positions
        # cannot be walked; say what was found, without places
        return [{"code": "duplicate_key" if dup_keys_check else "unsafe_integer" if unsafe else
                 "lone_surrogate", "pointer": "", "message": "The document nests too deeply to "
                 "place its warnings (duplicate keys, lone surrogates or unsafe integers)"}]
    if dup_keys_check and sum(w["code"] == "duplicate_key" for _, w in found) < len(duplicate_keys):
        # a key written with escapes was not found by its plain spelling: walk every object
        found.clear()
        _walk(text, sorted(set(m.start() for m in re.finditer(r"\{", text)) | set(surrogates)
                           | set(long_ints)), visit)
    found.sort(key=lambda t: t[0])
    return [w for _, w in found]


def _occurrences(text: str, needles: set[str]) -> list[int]:
    """Offsets of every occurrence of the given strings (candidates for the walker)."""
    offsets: list[int] = []
    for needle in needles:
        start = text.find(needle)
        while start != -1:
            offsets.append(start)
            start = text.find(needle, start + 1)
    return offsets
