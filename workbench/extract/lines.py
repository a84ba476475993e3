"""JSON Lines in Extract, and what to say when a Server-Sent Events stream is pasted.

A log with one JSON value per line (``jsonl: true``, or detected when the text is not one JSON
document but every non-blank line holds exactly one value) is queried value by value, as ``jq``
reads a stream: ``$.call_id`` is each line's ``call_id``.  The rows are those of the log read as
an array: the path and pointer start with the value's index (``$[3]['call_id']``, ``/3/call_id``;
blank lines are not values) and ``line``/``column`` are the match's place in the pasted text.

The values are read in one strict parse of an array text built from the pasted one: ``[`` + the
text with the line break after each value (but the last) written as ``,`` + ``]``, so every
character of a value sits one place further on than in the paste and nothing else moves (errors
and warnings are placed back with :func:`shifted`).  A stream pasted here (``event:`` /
``data:`` lines) is refused with ``hint: "sse_stream"``, pointing at the Gate, which reads
streams.
"""

from __future__ import annotations

import re

from ..errors import WorkbenchError
from ..jsontext import LineIndex, error_at, parse, skip_value

SSE_LINE = re.compile(r"(?:event|data|id|retry):|:")  # an SSE field line, or a comment
_WS = " \t\r"  # JSON whitespace within a line


class JsonLines:
    """The values of a JSON Lines text: ``array_text`` (the array of them, every value one
    character after its place in ``text``), ``parsed`` (its strict parse, the tree a list) and
    ``lines`` (the 1-based line of each value)."""

    SHIFT = 1  # "[" before the text

    def __init__(self, text: str, array_text: str, parsed, lines: list[int]):
        self.text = text
        self.array_text = array_text
        self.parsed = parsed
        self.lines = lines

    @property
    def values(self) -> list:
        return self.parsed.value


def _value_lines(text: str):
    """``(line, start, end)`` of every non-blank line: ``start`` its first non-blank character,
    ``end`` just after its last one, and the offset of its line break (or None)."""
    n = 0
    pos = 0
    size = len(text)
    find = text.find
    while pos <= size:
        n += 1
        brk = find("\n", pos)
        stop = size if brk == -1 else brk
        start = pos
        while start < stop and text[start] in _WS:
            start += 1
        end = stop
        while end > start and text[end - 1] in _WS:
            end -= 1
        if start < end:
            yield n, start, end, (None if brk == -1 else brk)
        if brk == -1:
            return
        pos = brk + 1


def looks_like_sse(text: str) -> int | None:
    """The offset of the first line when ``text`` reads as a Server-Sent Events stream, else
    None.  The rule Format applies (format/jsonl.py): the first two non-blank lines are SSE
    field lines (``event:``, ``data:``, ``id:``, ``retry:``, or a ``:`` comment) and one of the
    first three is an ``event:`` or ``data:`` line."""
    lines = []
    for _, start, end, _ in _value_lines(text[:4096]):
        lines.append((start, end))
        if len(lines) == 3:
            break
    if not lines or not all(SSE_LINE.match(text, s, e) for s, e in lines[:2]):
        return None
    if not any(text.startswith(("event:", "data:"), s) for s, _ in lines):
        return None
    return lines[0][0]


def sse_error(text: str, at: int) -> WorkbenchError:
    return error_at(
        text, at, "parse_error",
        "This is a Server-Sent Events stream (lines starting with 'event:' and 'data:'), not JSON: "
        "open it in the Gate (/gate), whose transcript view reads streams, rebuilds their items and "
        "checks the events in order. To query one event here, paste the JSON of its data line.",
        field="document", hint="sse_stream", hint_view="/gate")


def read_json_lines(text: str, limits, forced: bool) -> JsonLines | None:
    """The values of ``text`` read as JSON Lines, or None when it is not (a line that is not
    exactly one JSON value, or fewer than two values).  ``forced`` (``jsonl: true``): a line
    that is not one value is the error, at its place, instead of None."""
    spans = []
    for n, start, end, brk in _value_lines(text):
        try:
            stop = skip_value(text, start)
        except (StopIteration, ValueError):
            stop = None
        if stop != end:
            if not forced:
                return None
            raise _line_error(text, n, start, end, stop, limits)
        spans.append((n, start, end, brk))
    if not spans or (len(spans) < 2 and not forced):
        if forced:
            raise WorkbenchError("parse_error", "The text holds no JSON value (JSON Lines: one value "
                                 "per line)", field="document", line=1, column=1, offset=0)
        return None
    pieces = ["["]
    pos = 0
    for _, _, _, brk in spans[:-1]:  # the line break after a value (but the last) becomes ","
        pieces.append(text[pos:brk])
        pieces.append(",")
        pos = brk + 1
    pieces.append(text[pos:])
    pieces.append("]")
    array_text = "".join(pieces)
    try:
        parsed = parse(array_text, field="document", max_depth=limits.max_depth + 1)
    except WorkbenchError as exc:
        raise shifted_error(text, exc) from None
    parsed.warnings = [shifted(text, w, LineIndex(text)) for w in parsed.warnings]
    return JsonLines(text, array_text, parsed, [n for n, *_ in spans])


def _line_error(text: str, n: int, start: int, end: int, stop: int | None, limits) -> WorkbenchError:
    """Why line ``n`` is not one JSON value, placed in the whole text."""
    line = text[start:end]
    if stop is not None and stop < end:
        while text[stop] in _WS:
            stop += 1
        return error_at(text, stop, "parse_error", f"Line {n} holds more than one JSON value: "
                        "JSON Lines has one value per line", field="document")
    try:
        parse(line, field="document", max_depth=limits.max_depth, warnings=False)
    except WorkbenchError as exc:
        return error_at(text, start + (exc.offset or 0), "parse_error",
                        f"Line {n} is not a JSON value: {exc.message}", field="document")
    return error_at(text, start, "parse_error", f"Line {n} is not a JSON value", field="document")


def shifted_error(text: str, exc: WorkbenchError) -> WorkbenchError:
    """An error of the array text placed at the same spot of the pasted text."""
    if exc.offset is None:
        return exc
    at = max(0, min(len(text), exc.offset - JsonLines.SHIFT))
    extra = {k: v for k, v in exc.extra.items() if k != "snippet"}
    return error_at(text, at, exc.code, exc.message, field=exc.field, **extra)


def shifted(text: str, warning: dict, lines: LineIndex) -> dict:
    """A warning of the array text with its places (``offset``, ``line``, ``column``, also
    in ``first``/``second``) moved to the pasted text; the pointer stays the array's."""
    out = dict(warning)
    if "offset" in out:
        at = max(0, out["offset"] - JsonLines.SHIFT)
        out["offset"] = at
        out["line"], out["column"] = lines.line_col(at)
    for name in ("first", "second"):
        if isinstance(out.get(name), dict):
            out[name] = shifted(text, out[name], lines)
    return out
