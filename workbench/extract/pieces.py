"""A JSON Lines log queried a piece at a time (``workbench extract --jsonl``).

The log's lines are gathered into pieces of about :data:`PIECE_BYTES` bytes (whole lines, so
never the whole log in memory); each piece is queried at once by the core's JSON Lines path (one
compiled query, one parse of the piece).  A piece with a line that is not UTF-8 or not JSON is
handed back whole, for the caller to query line by line, so that line is reported and the others
still answer.  The rows are those of the query on every line, in order: each match's ``line`` is
its line in the log and its ``path`` is relative to that line's value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..errors import WorkbenchError
from ..limits import Limits
from .core import extract
from .rfc9535 import compile_rfc9535

PIECE_BYTES = 1 << 20
_INDEX = re.compile(r"\$\[\d+\]")  # a JSON Lines match's path starts with its value's index


def query_log(lines: Iterable[bytes], path: str, limits: Limits,
              size: int = PIECE_BYTES) -> Iterator[tuple[int, dict | bytes]]:
    """``(number of the piece's first line, answer)`` for each piece of the log's ``lines``
    (bytes, line ends kept): the answer is the core's (``count``, ``matches`` placed in the log),
    or the piece's bytes when one of its lines is not UTF-8 or its value is refused.  A
    :class:`WorkbenchError` on any other field (the path: the same for every line) is raised,
    before the first piece when the path does not compile.  ``size``: the bytes of a piece."""
    compile_rfc9535(path, limits)  # a bad path is said once, before any line
    for first, raw in pieces(lines, size):
        result = query_piece(raw, path, limits)
        if result is None:
            yield first, raw
            continue
        for m in result["matches"]:
            m["line"] = first + m["line"] - 1
            m["path"] = _INDEX.sub("$", m["path"], 1)
        yield first, result


def query_piece(raw: bytes, path: str, limits: Limits) -> dict | None:
    """The core's JSON Lines answer for a piece of the log; None when one of its lines is not
    UTF-8 or its value is refused."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.strip():
        return {"count": 0, "matches": []}
    try:
        return extract(text, path, "rfc9535", None, limits, jsonl=True)
    except WorkbenchError as exc:
        if exc.field != "document":
            raise
        return None


def pieces(lines: Iterable[bytes], size: int = PIECE_BYTES) -> Iterator[tuple[int, bytes]]:
    """``(number of the first line, bytes)`` of consecutive whole ``lines`` of about ``size``
    bytes."""
    piece, held, first, n = [], 0, 1, 0
    for raw in lines:
        n += 1
        piece.append(raw)
        held += len(raw)
        if held >= size:
            yield first, b"".join(piece)
            piece, held, first = [], 0, n + 1
    if piece:
        yield first, b"".join(piece)
