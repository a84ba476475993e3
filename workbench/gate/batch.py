"""The gate over a log: every line of a JSON Lines log gated, one verdict a line, summed up.

:func:`gate_lines` is the one loop (a :class:`~workbench.gate.Gate` built once, each line parsed
once: orjson, falling back to the strict parser for anything it refuses, so the verdict is
always the strict one).  The gate of one line is a pure function of the line, the tool
definitions and the original, so a log can be cut anywhere between lines, each piece gated on
its own (:func:`gate_partition`) and the pieces' summaries joined in order (:func:`merge`): line
numbers move by the lines before the piece, counts add up.  :mod:`.jobs` runs the pieces on a
process pool; the same two functions run unchanged where one machine is not enough, e.g. on
Dask (the ``dask`` extra), over a log partitioned into files::

    import dask.bag as db
    from workbench.gate.batch import gate_partition, merge

    tools = open("tools.json").read()
    bag = db.read_text("log/part-*.jsonl")          # one partition per file, lines in order
    parts = bag.map_partitions(lambda lines: [gate_partition(lines, tools)]).compute()
    summary = merge(parts)                           # counts, blocked line numbers, …

or line by line, ``bag.map(line_verdict, tools).frequencies()``.  Both are tested with Dask's
synchronous scheduler (tests/unit/test_cli_gate_jobs.py).

A summary keeps the first ``keep`` line numbers of each list (what a report can print: 10,000
in ``--json``) while counting all of them (:class:`Counted`).
"""

from __future__ import annotations

import re

from ..errors import WorkbenchError
from ..jsontext import parse
from .arguments import read_fast, read_strict
from .engine import Gate, decide, dialect_of
from .rules import AGENTS

KEEP = 10_000  # line numbers kept per list (the --json summary prints 10,000)


# A line orjson's value may differ on from the strict parser's: a fraction, an exponent, an
# integer beyond 64 bits (orjson gives a float64).  Only an Agents API action's ``arguments``
# object can reach a numeric check with them (every field an Open Responses verdict reads must
# be a string first), so such a line is read again exactly when it is an action.
_FLOATISH = re.compile(rb"[0-9][.eE]|[0-9]{19}")


def gate_lines(lines, gate, *, on_progress=None, dialect="auto", records=None, exact=False):
    """Gate an iterable of raw lines (bytes).  Returns a dict: ``counts`` per verdict, the line
    numbers of lines that are ``not_json``, of ``blocked`` items and of items the gate could
    not finish (``unchecked``: a schema pattern over its time limit…), and ``blank`` lines.
    ``records``: a list to which each non-blank line's :func:`record` is appended, in order
    (for a per-line answer).

    Each line is read by orjson, and by the strict parser when orjson refuses it, it may be too
    deep, or (an Agents API action) it holds a number orjson would round (:data:`_FLOATISH`);
    arguments strings by :func:`.arguments.read_fast`.  ``exact``: every line and arguments
    string by the strict parser alone — the same answer, slower (the tests compare the two)."""
    import orjson

    counts: dict[str, int] = {}
    not_json: list[int] = []
    blocked: list[int] = []
    unchecked: list[tuple[int, str]] = []
    blank = 0
    dialect = dialect or "auto"
    read_args = read_strict if exact else read_fast
    decide_ = decide
    loads = _to_strict if exact else orjson.loads
    max_depth = gate.limits.max_depth
    floatish = _FLOATISH.search
    get = counts.get
    record = records.append if records is not None else None
    n = 0
    for line in lines:
        n += 1
        try:
            item = loads(line)
            if len(line) > max_depth and line.count(b"{") + line.count(b"[") > max_depth:
                raise ValueError("maybe too deep: let the strict parser decide")
            if dialect_of(item, dialect) == AGENTS and floatish(line) is not None:
                raise ValueError("an action with numbers orjson may round: read exactly")
        except (ValueError, TypeError):
            if not line.strip():
                blank += 1
                continue
            try:
                item = strict_line(line, max_depth)
            except (UnicodeDecodeError, WorkbenchError, ArithmeticError):
                not_json.append(n)
                if record is not None:
                    record({"line": n, "verdict": "not_json"})
                continue
        try:
            v = decide_(gate, item, dialect, read_args).verdict
        except WorkbenchError as exc:
            unchecked.append((n, exc.code))
            if record is not None:
                record(line_record(n, "unchecked", item, exc.code))
            continue
        counts[v] = get(v, 0) + 1
        if v != "ok":
            blocked.append(n)
        if record is not None:
            record(line_record(n, v, item))
        if on_progress is not None and not n & 0x3FFF:
            on_progress(n)
    return {"counts": counts, "not_json": not_json, "blocked": blocked, "blank": blank,
            "unchecked": unchecked, "lines": n}


def _to_strict(line: bytes):
    raise ValueError("exact: the strict parser reads every line")


def strict_line(line: bytes, max_depth: int):
    """One line's value by the strict parser (raises as it does; ValueError for a blank line,
    so both readers of :func:`gate_lines` take it the same way)."""
    if not line.strip():
        raise ValueError("blank")
    return parse(line.decode("utf-8"), field="item", max_depth=max_depth, warnings=False).value


def line_record(n: int, verdict: str, item, code: str | None = None) -> dict:
    """The per-line answer: ``{"line", "verdict"}``, the item's ``call_id`` (and ``turn_id``)
    and ``name`` when they are strings, and for an ``unchecked`` line the error ``code``."""
    out = {"line": n, "verdict": verdict}
    if isinstance(item, dict):
        for key in ("call_id", "turn_id", "name"):
            if isinstance(item.get(key), str):
                out[key] = item[key]
    if code is not None:
        out["code"] = code
    return out


# --------------------------------------------------------------------------- summaries

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


def gate_for(tools_text, original_text, limits) -> Gate:
    """The :class:`Gate` of these texts, built once per process."""
    key = (tools_text, original_text, limits)
    g = _GATES.get(key)
    if g is None:
        if len(_GATES) > 8:
            _GATES.clear()
        g = _GATES[key] = Gate(tools_text, original_text, limits=limits)
    return g


def gate_partition(lines, tools_text: str | None = None, original_text: str | None = None,
                   dialect: str = "auto", limits=None) -> dict:
    """The summary of one piece of a log (an iterable of lines, ``bytes`` or ``str``): verdict
    counts and the piece's own line numbers (from 1) of lines not JSON, blocked or unchecked."""
    from ..limits import DEFAULT_LIMITS
    gate = gate_for(tools_text, original_text, limits or DEFAULT_LIMITS)
    lines = (ln.encode("utf-8") if isinstance(ln, str) else ln for ln in lines)
    return gate_lines(lines, gate, dialect=dialect or "auto")


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
