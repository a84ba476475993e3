"""Where things are in a JSON text: offset → line/column, the caret snippet, errors placed at an
offset, and the spans of values at JSON Pointers (:func:`locate_many`) or along a walk.

Positions are only computed when something needs them: the walkers skip every subtree that holds
nothing wanted with the standard library's C scanner, so placing a handful of warnings in a 20 MB
document costs a fraction of its parse.
"""

from __future__ import annotations

import bisect
import json
import re
from array import array
from bisect import bisect_right
from collections.abc import Iterable
from functools import partial

from ..errors import WorkbenchError
from .pointer import split_pointer

_WS = re.compile(r"[ \t\n\r]*")
_NEXT = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")  # between two members or items
_scanstring = json.decoder.scanstring
_SCAN = json.JSONDecoder(parse_float=len, parse_int=len, parse_constant=len).scan_once


def skip_value(text: str, i: int) -> int:
    """End offset of the (valid) JSON value starting at ``i``, scanned in C."""
    return _SCAN(text, i)[1]


class LineIndex:
    """Offset → (line, column) for one text; 1-based, columns in characters."""

    def __init__(self, text: str):
        self.text = text
        self._starts: array | None = None
        self._lookups = 0

    def line_col(self, offset: int) -> tuple[int, int]:
        text = self.text
        offset = max(0, min(offset, len(text)))
        self._lookups += 1
        if self._starts is None and self._lookups > 16 and len(text) > 100_000:
            starts = array("q", [0])  # 8 bytes a line (a list of ints took 36)
            starts.extend(m.end() for m in re.finditer("\n", text))
            self._starts = starts
        if self._starts is not None:
            line = bisect.bisect_right(self._starts, offset)
            return line, offset - self._starts[line - 1] + 1
        line = text.count("\n", 0, offset) + 1
        return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def line_cols(text: str, offsets: list[int]) -> list[tuple[int, int]]:
    """1-based (line, column) of each offset.  Newlines are counted once along increasing
    offsets; an offset before the previous one (RFC 9535 order is not always document order)
    is looked up in an index of the line starts."""
    out = []
    line, pos, line_start = 1, 0, 0
    starts = None
    count, rfind = text.count, text.rfind
    for off in offsets:
        if off >= pos:
            n = count("\n", pos, off)
            if n:
                line += n
                line_start = rfind("\n", pos, off) + 1
            pos = off
            out.append((line, off - line_start + 1))
        else:
            if starts is None:
                starts = [0] + [m.end() for m in re.finditer("\n", text)]
            k = bisect_right(starts, off)
            out.append((k, off - starts[k - 1] + 1))
    return out


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


class Span:
    """Where a value sits in the text: ``start``/``end`` offsets of the value; ``key`` the
    offset of its member name's opening quote when it is an object member."""

    __slots__ = ("start", "end", "key")

    def __init__(self, start: int, end: int, key: int | None = None):
        self.start, self.end, self.key = start, end, key

    def __eq__(self, other):
        return (type(other) is Span and (self.start, self.end, self.key) == (other.start, other.end, other.key))

    __hash__ = None

    def __repr__(self) -> str:
        return f"Span(start={self.start!r}, end={self.end!r}, key={self.key!r})"


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


def element_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each element of the (valid) JSON array that is ``text``, in one
    pass: each element skipped by the C scanner, nothing else built (the spans of
    ``locate_many(text, ["/0", "/1", …])`` without its pointer trie, for an array of many
    small values such as a stream's chunks)."""
    i = _WS.match(text, 0).end()
    if text[i] != "[":
        raise ValueError("not a JSON array")
    j = _WS.match(text, i + 1).end()
    out: list[tuple[int, int]] = []
    if text[j] == "]":
        return out
    append, nxt = out.append, _NEXT.match
    while True:
        end = _SCAN(text, j)[1]
        append((j, end))
        m = nxt(text, end)
        if m is None:
            return out      # the closing bracket (after spaces)
        j = m.end()


def _find(text: str, i: int, node: dict, out: dict, key_at):
    """Record the spans under ``node`` for the value at ``i``; its end offset, or None when
    reading stopped early."""
    children = [k for k in node if k is not None]
    end = None
    if not children:
        end = skip_value(text, i)
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
                            j = skip_value(text, start)
                    else:
                        j = skip_value(text, j)
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
                            j = skip_value(text, start)
                    else:
                        j = skip_value(text, j)
                    j = _WS.match(text, j).end()
                    if text[j] == "}":
                        end = j + 1
                        break
                    j = _WS.match(text, j + 1).end()
        else:
            end = skip_value(text, i)
    if None in node:
        if end is None:
            end = skip_value(text, i)
        out[node[None]] = Span(i, end, key_at)
    return end


# --------------------------------------------------------------------------- the walker

class _StopWalk(Exception):
    pass


_WINDOW = 1 << 16   # characters the walker scans in C to measure a container before walking in
_SMALL = (1 << 12, 1 << 16)   # the windows tried for the end of a container that holds one


def _measure(text: str, interesting: list[int], i: int) -> tuple[bool, int | None]:
    """(holds nothing wanted, its end) of the container at ``i`` (for :func:`walk`), scanning in
    C no further than the next wanted offset or :data:`_WINDOW` characters (a container that
    holds one is measured only when it is small: measuring a whole large document to find its
    end cost as much as parsing it again)."""
    k = bisect.bisect_left(interesting, i)
    if k >= len(interesting):
        raise _StopWalk
    ahead = interesting[k]
    stop = min(ahead, i + _WINDOW)
    try:
        end = i + skip_value(text[i:stop], 0)
        return True, end   # it closes before the next wanted offset
    except (StopIteration, ValueError):
        pass
    if stop < ahead:
        return False, None   # large, and perhaps holding it: walked in, its parts measured
    for window in _SMALL:   # it holds the next wanted offset: its end, when it is small
        try:
            return False, i + skip_value(text[i:i + window], 0)
        except (StopIteration, ValueError):
            pass
    return False, None


def walk(text: str, interesting: list[int], visit, *, keys: bool = False,
         whole_objects: bool = False) -> None:
    """Walk the valid JSON ``text`` in Python, only as far as needed to reach the sorted
    ``interesting`` offsets: a value that holds none of them is skipped with the C scanner,
    and the walk stops as soon as none is left ahead.

    ``visit(kind, parts, start, end, extra)`` is called on the way for the ``"string"`` and
    ``"number"`` values that hold an interesting offset (extra None), for ``"duplicate"`` keys
    of the objects entered (start/end the first and second key offsets, extra the key), and with
    ``keys`` for their member names that hold one (``"key"``, start/end its quotes' offsets,
    extra the name); ``parts`` is the list of path parts.  An object is left as soon as nothing
    wanted is ahead inside it, unless ``whole_objects`` (every key of an entered object read, for
    the duplicates among them).
    The root array is entered without measuring it first (it is where large documents are
    large); objects and nested arrays are measured in C (never past the next wanted offset or
    64 K characters) and entered only when they hold an offset.
    """
    count = len(interesting)
    bisect_left = bisect.bisect_left

    def holds(i: int, end: int) -> bool:   # an interesting offset in [i, end)
        k = bisect_left(interesting, i)
        return k < count and interesting[k] < end

    measure = partial(_measure, text, interesting)
    if whole_objects:
        # nothing wanted ahead does not end the walk: the objects entered still have keys to
        # read (a repeated key after a member array), so what follows is skipped, not left
        def measure(i: int, _measure=measure) -> tuple[bool, int | None]:
            try:
                return _measure(i)
            except _StopWalk:
                return True, skip_value(text, i)

    def walk_value(i: int, parts: list, end: int | None = None, measured: bool = False) -> int:
        ch = text[i]
        if ch == "{":
            if end is None and not measured:
                skip, end = measure(i)
                if skip:
                    return end
            seen: dict[str, int] = {}
            j = _WS.match(text, i + 1).end()
            if text[j] != "}":
                while True:
                    kstart = j
                    key, j = _scanstring(text, j + 1)
                    if keys and holds(kstart, j):
                        visit("key", parts, kstart, j, key)
                    if key in seen:
                        visit("duplicate", parts, seen[key], kstart, key)
                    else:
                        seen[key] = kstart
                    j = _WS.match(text, j).end() + 1
                    j = _WS.match(text, j).end()
                    parts.append(key)
                    j = walk_value(j, parts)
                    parts.pop()
                    if end is not None and not whole_objects and not holds(j, end):
                        return end   # nothing wanted in the rest of this object
                    j = _WS.match(text, j).end()
                    if text[j] == "}":
                        break
                    j = _WS.match(text, j + 1).end()
            return end if end is not None else j + 1
        if ch == "[":
            if end is None and parts and not measured:   # a member's array
                skip, end = measure(i)
                if skip:
                    return end
            j = _WS.match(text, i + 1).end()
            index = 0
            if text[j] != "]":
                while True:
                    k = bisect.bisect_left(interesting, j)
                    if k >= count and not whole_objects:
                        raise _StopWalk
                    if text[j] in "{[":
                        # measured in C; entered only when it holds the next wanted offset
                        skip, item_end = measure(j)
                        if skip:
                            j = item_end
                        else:
                            parts.append(index)
                            j = walk_value(j, parts, item_end, True)
                            parts.pop()
                    else:
                        parts.append(index)
                        j = walk_value(j, parts)
                        parts.pop()
                    index += 1
                    m = _NEXT.match(text, j)
                    if m is None:
                        j = _WS.match(text, j).end()   # the closing bracket
                        break
                    j = m.end()
            return j + 1
        if end is None:
            end = skip_value(text, i)
        if not holds(i, end):
            return end
        if ch == '"':
            visit("string", parts, i, end, None)
        elif ch == "-" or ch.isdigit():
            visit("number", parts, i, end, None)
        return end

    start = _WS.match(text, 0).end()
    try:
        end = len(text)
        while end and text[end - 1] in " \t\r\n":   # (rstrip would copy the whole text)
            end -= 1
        walk_value(start, [], end if text[start] == "{" else None)
    except _StopWalk:
        pass


