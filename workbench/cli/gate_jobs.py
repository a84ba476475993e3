"""``workbench gate --jsonl LOG --jobs N``: a log gated in pieces, on N processes, with exactly
the output of one process.

The gate of one line is a pure function of the line, the tool definitions and the original
(:func:`line_verdict`; a :class:`~workbench.gate.Gate` is built once per process from the
texts).  So a log can be cut anywhere between lines, each piece gated on its own
(:func:`gate_partition`, the one-process loop ``gate_lines`` on that piece) and the pieces'
summaries joined in order (:func:`merge`): line numbers move by the lines before the piece,
counts add up.  ``--jobs 1`` runs the very same pieces in this process.

Memory stays flat whatever the size of the log: it is read in pieces of about
:data:`CHUNK_BYTES` (never whole), at most ``2 × N`` pieces are in flight, and the summary keeps
the first ``keep`` line numbers of each list (what the report can print: 10,000 in ``--json``)
while counting all of them.

The same two functions run unchanged where one machine is not enough, e.g. on Dask
(``pip install 'json-workbench[dask]'``), over a log partitioned into files::

    import dask.bag as db
    from workbench.cli.gate_jobs import gate_partition, merge

    tools = open("tools.json").read()
    bag = db.read_text("log/part-*.jsonl")          # one partition per file, lines in order
    parts = bag.map_partitions(lambda lines: [gate_partition(lines, tools)]).compute()
    summary = merge(parts)                           # counts, blocked line numbers, …

or line by line, ``bag.map(line_verdict, tools).frequencies()``.  Both are tested with Dask's
synchronous scheduler (tests/unit/test_cli_gate_jobs.py).
"""

from __future__ import annotations

import io
import os
from collections import deque

# one piece of the log (the variable is for tests: small pieces on small fixtures)
CHUNK_BYTES = int(os.environ.get("WORKBENCH_GATE_PIECE_BYTES") or 4 << 20)
AUTO_PARALLEL_BYTES = 8 << 20  # without --jobs: smaller logs are gated in this process
KEEP = 10_000                  # line numbers kept per list (the --json summary prints 10,000)


class Counted(list):
    """The first line numbers of a list, and ``len()`` the number of all of them."""

    def __init__(self, keep: int):
        super().__init__()
        self.keep = keep
        self.total = 0

    def add(self, items) -> None:
        room = self.keep - list.__len__(self)
        if room > 0:
            self.extend(items[:room])
        self.total += len(items)

    def __len__(self) -> int:
        return self.total

    def __bool__(self) -> bool:
        return self.total > 0


def empty(keep: int = KEEP) -> dict:
    return {"counts": {}, "not_json": Counted(keep), "blocked": Counted(keep),
            "unchecked": Counted(keep), "blank": 0, "lines": 0}


def merge_into(total: dict, part: dict) -> dict:
    """Add the summary of the next piece (its line numbers counted from 1) to ``total``."""
    base = total["lines"]
    counts = total["counts"]
    for v, c in part["counts"].items():
        counts[v] = counts.get(v, 0) + c
    total["not_json"].add([n + base for n in part["not_json"]])
    total["blocked"].add([n + base for n in part["blocked"]])
    total["unchecked"].add([(n + base, code) for n, code in part["unchecked"]])
    total["blank"] += part["blank"]
    total["lines"] = base + part["lines"]
    return total


def merge(parts, keep: int = KEEP) -> dict:
    """The summary of a whole log from the summaries of its pieces, in order."""
    total = empty(keep)
    for part in parts:
        merge_into(total, part)
    return total


# --------------------------------------------------------------------------- the pure parts

_GATES: dict = {}


def _gate(tools_text, original_text, limits):
    from ..gate import Gate
    key = (tools_text, original_text, limits)
    g = _GATES.get(key)
    if g is None:
        if len(_GATES) > 8:
            _GATES.clear()
        g = _GATES[key] = Gate(tools_text, original_text, limits=limits)
    return g


def _run(lines, gate, dialect: str) -> dict:
    from .gate import gate_lines
    if dialect and dialect != "auto":
        return gate_lines(lines, gate, dialect=dialect)
    return gate_lines(lines, gate)


def gate_partition(lines, tools_text: str | None = None, original_text: str | None = None,
                   dialect: str = "auto", limits=None) -> dict:
    """The summary of one piece of a log (an iterable of lines, ``bytes`` or ``str``): verdict
    counts and the piece's own line numbers (from 1) of lines not JSON, blocked or unchecked."""
    from ..limits import DEFAULT_LIMITS
    gate = _gate(tools_text, original_text, limits or DEFAULT_LIMITS)
    lines = (ln.encode("utf-8") if isinstance(ln, str) else ln for ln in lines)
    return _run(lines, gate, dialect)


def line_verdict(line, tools_text: str | None = None, original_text: str | None = None,
                 dialect: str = "auto", limits=None) -> str:
    """The gate's word for one log line: its verdict (``ok``, ``arguments_schema``…), or
    ``not_json``, ``blank``, ``unchecked``."""
    out = gate_partition([line], tools_text, original_text, dialect, limits)
    if out["counts"]:
        return next(iter(out["counts"]))
    if out["not_json"]:
        return "not_json"
    if out["unchecked"]:
        return "unchecked"
    return "blank"


# --------------------------------------------------------------------------- the command

def pieces(f, size: int | None = None):
    """Pieces of a binary stream of about ``size`` bytes, each ending at the end of a line."""
    size = size or CHUNK_BYTES
    while True:
        data = f.read(size)
        if not data:
            return
        if not data.endswith(b"\n"):
            data += f.readline()
        yield data


_WORKER: dict = {}


def _init(tools_text, original_text, limits, dialect) -> None:
    _WORKER["gate"] = _gate(tools_text, original_text, limits)
    _WORKER["dialect"] = dialect


def _work(piece: bytes) -> dict:
    return _run(io.BytesIO(piece), _WORKER["gate"], _WORKER["dialect"])


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def gate_log(f, gate, *, jobs: int | None, size: int, tools_text, original_text, limits,
             dialect: str = "auto", on_progress=None, keep: int = KEEP) -> dict:
    """Gate the JSON Lines stream ``f`` in pieces on ``jobs`` processes (None: every core for a
    log of 8 MB or more or standard input, else this process); the summary of ``gate_lines``."""
    if jobs is None:
        jobs = default_jobs() if size == 0 or size >= AUTO_PARALLEL_BYTES else 1
    total = empty(keep)
    if jobs <= 1:
        for piece in pieces(f):
            merge_into(total, _run(io.BytesIO(piece), gate, dialect))
            if on_progress is not None:
                on_progress(total["lines"])
        return total
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # no fork here: the workers build their gate from the texts anyway
        context = multiprocessing.get_context()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init,
                             initargs=(tools_text, original_text, limits, dialect)) as pool:
        flight: deque = deque()
        for piece in pieces(f):
            flight.append(pool.submit(_work, piece))
            while len(flight) >= 2 * jobs:
                merge_into(total, flight.popleft().result())
                if on_progress is not None:
                    on_progress(total["lines"])
        while flight:
            merge_into(total, flight.popleft().result())
            if on_progress is not None:
                on_progress(total["lines"])
    return total
