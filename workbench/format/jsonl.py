"""What Format does with text that is not one JSON document: JSON Lines are formatted line by
line; a pasted Server-Sent Events stream is named as such and sent to the Gate.

JSON Lines are parsed in one pass: the lines are joined into one array text (``[`` before the
first non-blank line, ``,`` before each later one — one character per non-blank line, so a place
in the joined text maps back by a column and a count), parsed by the same strict parser (numbers
kept as written, duplicate keys kept, warnings), and each value is written on its own.
"""

from __future__ import annotations

import bisect
import re

from ..errors import WorkbenchError
from ..jsontext import error_at

_SSE_FIELD = re.compile(r"(?:event|data|id|retry):|:")


def first_lines(text: str, n: int = 3) -> list[str]:
    out = []
    for line in text.splitlines()[:50]:
        if line.strip():
            out.append(line.strip())
            if len(out) == n:
                break
    return out


def looks_like_sse(text: str) -> bool:
    """The first lines are all SSE fields (``event:``, ``data:``, ``id:``, ``retry:``, a ``:``
    comment) and a ``data:`` line carries JSON or ``[DONE]`` (so YAML with a ``data:`` key is
    not taken for a stream)."""
    lines = first_lines(text, 5)
    if not lines or not all(_SSE_FIELD.match(line) for line in lines):
        return False
    payloads = [line[5:].strip() for line in lines if line.startswith("data:")]
    return any(p[:1] in ("{", "[", '"') or p == "[DONE]" for p in payloads)


def sse_error(exc: WorkbenchError, field: str) -> WorkbenchError:
    """The parse error for a pasted stream: it says what was pasted and offers the Gate."""
    message = ("This is a Server-Sent Events stream (lines starting “event:” / “data:”), not one "
               "JSON document: paste it into the Gate (/gate), which reads streams, rebuilds their "
               "items and checks every call")
    body = exc.to_dict()
    extra = {k: v for k, v in body.items()
             if k not in ("code", "message", "field", "line", "column", "offset")}
    extra.update(hint="sse_stream", hint_view="/gate", parse_message=exc.message)
    return WorkbenchError("parse_error", message, field=field, line=exc.line, column=exc.column,
                          offset=exc.offset, **extra)


def split_lines(text: str) -> list[tuple[int, str]]:
    """``(offset, line)`` of every non-blank line (the newline not included)."""
    out = []
    pos = 0
    add = out.append
    for line in text.split("\n"):
        if line and (line[0] not in " \t\r" or line.strip(" \t\r")):
            add((pos, line))
        pos += len(line) + 1
    return out


def maybe_jsonl(text: str, parse_one) -> bool:
    """Two or more non-blank lines, and the first one is a JSON value by itself."""
    lines = split_lines(text[:1_000_000]) if len(text) > 1_000_000 else split_lines(text)
    if len(lines) < 2:
        return False
    try:
        parse_one(lines[0][1])
    except WorkbenchError:
        return False
    return True


class Joined:
    """The JSON Lines as one array text, and the map from its places back to the original."""

    def __init__(self, text: str):
        self.text = text
        lines = split_lines(text)
        self.starts = [off for off, _ in lines]         # offsets of the non-blank lines
        marked = dict.fromkeys(self.starts)
        out = []
        pos = 0
        first = True
        for line in text.split("\n"):
            if pos in marked:
                out.append(("[" if first else ",") + line)
                first = False
            else:
                out.append(line)
            pos += len(line) + 1
        self.joined = "\n".join(out) + "]"
        self.count = len(lines)
        # offset in joined of each line's start (its "[" or ",")
        self.jstarts = [off + n for n, off in enumerate(self.starts)]

    def original_offset(self, joined_offset: int) -> int:
        k = bisect.bisect_right(self.jstarts, joined_offset)  # how many inserted chars before
        return max(0, joined_offset - k)

    def line_of(self, original_offset: int) -> int:
        """Index of the non-blank line holding ``original_offset`` (0-based)."""
        return max(0, bisect.bisect_right(self.starts, original_offset) - 1)

    def move_warning(self, w: dict, index: list[int]) -> dict:
        """A warning of the joined text placed in the original: offsets, lines, columns, and
        the pointer without the array index in front (``record`` is the value's number)."""
        def place(d):
            if "offset" not in d:
                return
            off = self.original_offset(d["offset"])
            d["offset"] = off
            line_start = self.text.rfind("\n", 0, off) + 1
            d["column"] = off - line_start + 1
        place(w)
        for k in ("first", "second"):
            if isinstance(w.get(k), dict):
                place(w[k])
        ptr = w.get("pointer") or ""
        if ptr.startswith("/"):
            head, _, rest = ptr[1:].partition("/")
            if head.isdigit():
                w["record"] = int(head) + 1
                w["pointer"] = "/" + rest if rest else ""
        return w

    def error(self, exc: WorkbenchError, parse_one, field: str) -> WorkbenchError:
        """The error of the joined text as the error of one line: that line parsed alone gives
        the precise message; its place is moved into the whole text."""
        off = self.original_offset(exc.offset or 0)
        k = self.line_of(off)
        for j in (k, k - 1):  # a fault at a line's start may be the previous line left open
            if j < 0:
                continue
            start = self.starts[j]
            end = self.text.find("\n", start)
            line_text = self.text[start:end if end != -1 else len(self.text)]
            try:
                parse_one(line_text)
            except WorkbenchError as inner:
                if inner.offset is None:
                    return inner
                return error_at(self.text, start + inner.offset, inner.code,
                                f"JSON Lines, line {self.text.count(chr(10), 0, start) + 1}: "
                                f"{inner.message}", field=field, jsonl=True)
        return error_at(self.text, off, exc.code, exc.message, field=field, jsonl=True)
