"""A JSON Lines log gated in pieces, on N processes, with exactly the summary of one process.

The log is read in pieces of about :data:`CHUNK_BYTES`, each ending at the end of a line
(:func:`pieces`), each gated by :func:`~.batch.gate_lines` on a worker of a process pool, and
their summaries joined in order (:func:`~.batch.merge_into`).  ``jobs=1`` runs the very same
pieces in this process.  Memory stays flat whatever the size of the log: it is never read
whole, at most ``2 × N`` pieces are in flight, and the summary keeps the first ``keep`` line
numbers of each list while counting all of them.
"""

from __future__ import annotations

import io
import os

from ..jsontext.lines import line_too_long
from ..runtime.pool import default_jobs, map_ordered
from .batch import KEEP, empty, gate_for, gate_lines, merge_into

# one piece of the log (the variable is for tests: small pieces on small fixtures)
CHUNK_BYTES = int(os.environ.get("WORKBENCH_GATE_PIECE_BYTES") or 4 << 20)
AUTO_PARALLEL_BYTES = 8 << 20  # without jobs: smaller logs are gated in this process


def pieces(f, size: int | None = None, limit: int | None = None):
    """Pieces of a binary stream of about ``size`` bytes, each ending at the end of a line.
    ``limit``: the longest line taken, in bytes; a longer one is ``line_too_long`` (raised
    when met, after the pieces before it; never read whole)."""
    size = size or CHUNK_BYTES
    if limit:
        size = min(size, limit)  # so only the line a piece is cut in can be too long
    lines = 0
    while True:
        data = f.read(size)
        if not data:
            return
        if not data.endswith(b"\n"):
            start = data.rfind(b"\n") + 1
            data += f.readline(limit + 1 if limit else -1)
            if limit and len(data) - start - data.endswith(b"\n") > limit:
                raise line_too_long(lines + data.count(b"\n", 0, start) + 1, limit, "jsonl")
        if limit:
            lines += data.count(b"\n")
        yield data


_WORKER: dict = {}


def _init(tools_text, original_text, limits, dialect, records=False) -> None:
    _WORKER["gate"] = gate_for(tools_text, original_text, limits)
    _WORKER["dialect"] = dialect
    _WORKER["records"] = records


def _gate_piece(piece: bytes, gate, dialect: str, records: bool):
    """``(summary, per-line records or None)`` of one piece."""
    recs = [] if records else None
    return gate_lines(io.BytesIO(piece), gate, dialect=dialect, records=recs), recs


def _work(piece: bytes):
    w = _WORKER
    return _gate_piece(piece, w["gate"], w["dialect"], w["records"])


def _merge(total: dict, done, on_records) -> None:
    part, recs = done
    base = total["lines"]
    merge_into(total, part)
    if on_records is not None:
        for r in recs:
            r["line"] += base
        on_records(recs)


def gate_log(f, gate, *, jobs: int | None, size: int, tools_text, original_text, limits,
             dialect: str = "auto", on_progress=None, keep: int = KEEP,
             on_records=None) -> dict:
    """Gate the JSON Lines stream ``f`` in pieces on ``jobs`` processes (None: every core for a
    log of 8 MB or more or standard input, else this process); the summary of ``gate_lines``.
    A line longer than ``limits.line_limit`` is ``line_too_long``; a worker that dies (killed,
    out of memory) is ``worker_lost`` (both WorkbenchErrors); a read that fails, its OSError.
    ``on_records(records)``: called with each piece's per-line records (:func:`~.batch.
    line_record`, line numbers of the whole log), in the log's order, whatever ``jobs``."""
    if jobs is None:
        jobs = default_jobs() if size == 0 or size >= AUTO_PARALLEL_BYTES else 1
    total = empty(keep)
    limit = limits.line_limit
    if jobs <= 1:
        for piece in pieces(f, limit=limit):
            _merge(total, _gate_piece(piece, gate, dialect, on_records is not None), on_records)
            if on_progress is not None:
                on_progress(total["lines"])
        return total
    done = map_ordered(_work, pieces(f, limit=limit), jobs, initializer=_init,
                       initargs=(tools_text, original_text, limits, dialect, on_records is not None),
                       field="jsonl", progress=lambda: f"{total['lines']:,} lines were gated")
    for result in done:
        _merge(total, result, on_records)
        if on_progress is not None:
            on_progress(total["lines"])
    return total
