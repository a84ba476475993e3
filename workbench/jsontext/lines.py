"""Text that is not one JSON document: JSON Lines (one value per line) read in one strict parse,
and a pasted Server-Sent Events stream recognised, so every view says what was pasted.

JSON Lines are read as the array text ``[`` + the paste with the line break after each value
(but the last) written as ``,`` + ``]``: every character of a value sits exactly one place further
on than in the paste, so an error or a warning of the array text is placed back by one
subtraction (:func:`shifted`, :func:`shifted_error`).  Each non-blank line is first measured by
the C scanner, so a line that is not exactly one value is reported at its own line and column
(``JSON Lines, line N: …``).
"""

from __future__ import annotations

import re

from ..errors import WorkbenchError
from .parse import parse
from .positions import LineIndex, error_at, skip_value

SSE_LINE = re.compile(r"(?:event|data|id|retry):|:")  # an SSE field line, or a comment
_WS = " \t\r"  # JSON whitespace within a line
SHIFT = 1  # the "[" before the text


class JsonLines:
    """The values of a JSON Lines text: ``array_text`` (the array of them, every value one
    character after its place in ``text``), ``parsed`` (its strict parse; the tree is a list)
    and ``lines`` (the 1-based line of each value)."""

    SHIFT = SHIFT

    def __init__(self, text: str, array_text: str, parsed, lines: list[int]):
        self.text = text
        self.array_text = array_text
        self.parsed = parsed
        self.lines = lines

    @property
    def values(self) -> list:
        return self.parsed.value


def value_lines(text: str):
    """``(line, start, end, brk)`` of every non-blank line: ``start`` its first non-blank
    character, ``end`` just after its last one, ``brk`` the offset of its line break (or None)."""
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


def line_too_long(n: int, limit: int, field: str = "document") -> WorkbenchError:
    """The refusal of line ``n`` of a JSON Lines file, longer than ``limit`` bytes."""
    return WorkbenchError("line_too_long", f"JSON Lines, line {n} is longer than the limit of "
                          f"{limit:,} bytes (WORKBENCH_MAX_LINE or WORKBENCH_MAX_BODY sets it)",
                          field=field, line=n)


def read_lines(f, limit: int, *, first: int = 1, field: str = "document"):
    """The lines (bytes, with their line break) of the binary stream ``f``, one at a time, none
    held longer than ``limit`` bytes: a longer line is :func:`line_too_long` (raised when met,
    after the lines before it), so memory stays flat whatever the file."""
    readline = f.readline
    n = first - 1
    while True:
        raw = readline(limit + 1)
        if not raw:
            return
        n += 1
        if len(raw) > limit and not (len(raw) == limit + 1 and raw.endswith(b"\n")):
            raise line_too_long(n, limit, field)
        yield raw


def looks_like_sse(text: str) -> int | None:
    """The offset of the first line when ``text`` reads as a Server-Sent Events stream, else
    None: the first two non-blank lines are SSE field lines (``event:``, ``data:``, ``id:``,
    ``retry:``, or a ``:`` comment), one of the first three is an ``event:`` or ``data:`` line,
    and a ``data:`` line among them carries JSON or ``[DONE]`` (so YAML with a ``data:`` key is
    not taken for a stream)."""
    lines = []
    for _, start, end, _ in value_lines(text[:4096]):
        lines.append((start, end))
        if len(lines) == 3:
            break
    if not lines or not all(SSE_LINE.match(text, s, e) for s, e in lines[:2]):
        return None
    if not any(text.startswith(("event:", "data:"), s) for s, _ in lines):
        return None
    payloads = [text[s + 5:e].strip() for s, e in lines if text.startswith("data:", s)]
    if payloads and not any(p[:1] in ("{", "[", '"') or p == "[DONE]" for p in payloads):
        return None
    return lines[0][0]


def sse_error(text: str, at: int, field: str, parse_message: str | None = None) -> WorkbenchError:
    """The error for a stream pasted where one JSON document is expected: it says what was
    pasted and offers the Gate, whose transcript view reads streams."""
    extra = {"parse_message": parse_message} if parse_message else {}
    return error_at(
        text, at, "parse_error",
        "This is a Server-Sent Events stream (lines starting with 'event:' and 'data:'), not JSON: "
        "open it in the Gate (/gate), whose transcript view reads streams, rebuilds their items and "
        "checks the events in order. To look at one event here, paste the JSON of its data line.",
        field=field, hint="sse_stream", hint_view="/gate", **extra)


def read_json_lines(text: str, *, max_depth: int, forced: bool, field: str = "document",
                    **parse_options) -> JsonLines | None:
    """The values of ``text`` read as JSON Lines, or None when it is not (a line that is not
    exactly one JSON value, or fewer than two values).  ``forced``: a line that is not one value
    is the error, at its place, instead of None.  ``parse_options`` go to :func:`parse`
    (``numbers``, ``keep_duplicates``, ``check_depth``…); the depth limit counts the array."""
    spans = []
    for n, start, end, brk in value_lines(text):
        try:
            stop = skip_value(text, start)
        except (StopIteration, ValueError, RecursionError):
            stop = None
        if stop != end:
            if not forced:
                return None
            raise _line_error(text, n, start, end, stop, max_depth, field)
        spans.append((n, start, end, brk))
    if not spans or (len(spans) < 2 and not forced):
        if forced and not spans:
            raise WorkbenchError("parse_error", "The text holds no JSON value (JSON Lines: one value "
                                 "per line)", field=field, line=1, column=1, offset=0)
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
        parsed = parse(array_text, field=field, max_depth=max_depth + 1, **parse_options)
    except WorkbenchError as exc:
        raise shifted_error(text, exc) from None
    lines = LineIndex(text)
    parsed.warnings = [shifted(text, w, lines) for w in parsed.warnings]
    return JsonLines(text, array_text, parsed, [n for n, *_ in spans])


def _line_error(text: str, n: int, start: int, end: int, stop: int | None, max_depth: int,
                field: str) -> WorkbenchError:
    """Why line ``n`` is not one JSON value, placed in the whole text."""
    if stop is not None and stop < end:
        while text[stop] in _WS:
            stop += 1
        another = text[stop] in '{["-0123456789tfn'
        what = "holds more than one JSON value" if another else "has text after its JSON value"
        return error_at(text, stop, "parse_error", f"JSON Lines, line {n} {what} (one value per "
                        "line)", field=field, jsonl=True)
    try:
        parse(text[start:end], field=field, max_depth=max_depth, warnings=False)
    except WorkbenchError as exc:
        return error_at(text, start + (exc.offset or 0), exc.code,
                        f"JSON Lines, line {n}: {exc.message}", field=field, jsonl=True)
    return error_at(text, start, "parse_error", f"JSON Lines, line {n} is not a JSON value",
                    field=field, jsonl=True)


def shifted_error(text: str, exc: WorkbenchError) -> WorkbenchError:
    """An error of the array text placed at the same spot of the pasted text."""
    if exc.offset is None:
        return exc
    at = max(0, min(len(text), exc.offset - SHIFT))
    extra = {k: v for k, v in exc.extra.items() if k != "snippet"}
    return error_at(text, at, exc.code, exc.message, field=exc.field, **extra)


def shifted(text: str, warning: dict, lines: LineIndex) -> dict:
    """A warning of the array text with its places (``offset``, ``line``, ``column``, also
    in ``first``/``second``) moved to the pasted text; the pointer stays the array's."""
    out = dict(warning)
    if "offset" in out:
        at = max(0, out["offset"] - SHIFT)
        out["offset"] = at
        out["line"], out["column"] = lines.line_col(at)
    for name in ("first", "second"):
        if isinstance(out.get(name), dict):
            out[name] = shifted(text, out[name], lines)
    return out
