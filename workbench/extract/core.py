"""JSONPath Extract: every match of a JSONPath with its normalized path, JSON Pointer, exact JSON
text and position in the document.

Engines
* ``"rfc9535"`` (default): jsonpath-rfc9535, configured for the exact tree (:mod:`.rfc9535`,
  :mod:`.filters`), the common shapes run on :mod:`.fastpath`.
* ``"jsonpath-ng"``: jsonpath-ng's ``ext`` parser, labelled as not RFC 9535 (:mod:`.ng`).

Either way only locations come out of the engine: paths, pointers, exact texts and positions are
built for the rows returned (``limit``), never for all matches (``count`` says how many):
:mod:`.locate` finds the texts by walking the document along the wanted locations only and
:mod:`.rows` writes the rows.  The garbage collector is paused for the request (millions of
objects, none cyclic).  Every request runs under the ``work_timeout`` deadline, enforced by
interrupting the engine (:meth:`workbench.runtime.Deadline.interrupting`).
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import WorkbenchError, bad_request
from ..fields import Field, Fields
from ..jsontext import parse
from ..jsontext.lines import JsonLines, looks_like_sse, read_json_lines, sse_error
from ..limits import DEFAULT_LIMITS, Limits
from ..limits import EXTRACT_MAX_WARNINGS as MAX_WARNINGS
from ..runtime import Deadline, collector_paused
from .ng import compile_ng, ng_int, run_ng
from .rfc9535 import compile_rfc9535, run_rfc9535
from .rows import build_rows

ENGINES = {  # name → label (with {v}, the library's version)
    "rfc9535": "RFC 9535 (jsonpath-rfc9535 {v})",
    "jsonpath-ng": "jsonpath-ng {v} ext (not RFC 9535)",
}
DEFAULT_ENGINE = "rfc9535"


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:  # pragma: no cover - metadata missing
        return "?"


ENGINE_VERSIONS = {"rfc9535": _version("jsonpath-rfc9535"), "jsonpath-ng": _version("jsonpath-ng")}


def check_engine(engine: Any) -> str:
    if engine not in ENGINES:
        raise bad_request(f"Unknown engine {engine!r}: use \"rfc9535\" (default) or \"jsonpath-ng\"",
                          field="engine", code="bad_option")
    return engine


def check_limit(limit: Any, limits: Limits) -> int:
    if limit is None:
        return limits.max_matches
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise bad_request("'limit' must be a whole number of matches to return (0 or more)",
                          field="limit", code="bad_option")
    return min(limit, limits.max_matches)


def extract(document_text: str, path: str, engine: str = DEFAULT_ENGINE, limit: int | None = None,
            limits: Limits = DEFAULT_LIMITS, jsonl: bool | None = None) -> dict:
    """Run ``path`` on the document; see the module docstring and docs/api.md.  ``jsonl``:
    True reads the document as JSON Lines, False as one JSON text, None detects JSON Lines
    when the text is not one JSON document (:mod:`.lines`)."""
    engine = check_engine(engine)
    limit = check_limit(limit, limits)
    if not isinstance(path, str):
        raise bad_request("'path' must be a string holding a JSONPath expression", field="path",
                          code="bad_type")
    # the collector paused for the whole request: the walks and the rows create many objects,
    # none cyclic, and each of its passes would go over the millions in the parsed tree
    with collector_paused(), Deadline(limits.work_timeout, "The query", "path").interrupting():
        if engine == "rfc9535":
            query = compile_rfc9535(path, limits)
        else:
            query = compile_ng(path)
        parsed, log = _read(document_text, limits, jsonl)
        if log is not None:
            count, kept = _run_lines(log, path, query, engine, limit, limits)
            rows = build_rows(log.array_text, parsed, kept, document_text, JsonLines.SHIFT)
        else:
            if engine == "rfc9535":
                count, kept = run_rfc9535(query, parsed.value, limit)
            else:
                # a float view, what jsonpath-ng users feed it (integers too long for int(): floats)
                view = json.loads(document_text, parse_int=ng_int)
                count, kept = run_ng(query, view, limit)
            rows = build_rows(document_text, parsed, kept)
    return {
        "matches": rows,
        "count": count,
        "returned": len(rows),
        "truncated": count > len(rows),
        "limit": limit,
        "engine": engine,
        "engine_label": ENGINES[engine].format(v=ENGINE_VERSIONS[engine]),
        "rfc9535": engine == "rfc9535",
        "warnings": parsed.warnings,
        "warning_count": parsed.warning_count,   # all of them: the first EXTRACT_MAX_WARNINGS are listed
        "jsonl": None if log is None else {"values": len(log.values), "detected": not jsonl},
    }


def _read(text: str, limits: Limits, jsonl: bool | None):
    """``(parsed, None)`` for one JSON text, ``(its values' parse, JsonLines)`` for JSON Lines.
    A stream pasted here is refused with the hint to use the Gate."""
    if jsonl:
        at = looks_like_sse(text)
        if at is not None:
            raise sse_error(text, at, "document")
        log = read_json_lines(text, max_depth=limits.max_depth, forced=True, warning_limit=MAX_WARNINGS)
        return log.parsed, log
    try:
        return parse(text, field="document", max_depth=limits.max_depth, warning_limit=MAX_WARNINGS), None
    except WorkbenchError as exc:
        if exc.code != "parse_error":
            raise
        at = looks_like_sse(text)
        if at is not None:
            raise sse_error(text, at, "document", exc.message) from None
        log = None if jsonl is False else read_json_lines(text, max_depth=limits.max_depth, forced=False,
                                                          warning_limit=MAX_WARNINGS)
        if log is None:
            raise
        return log.parsed, log


def _run_lines(log: JsonLines, path: str, query, engine: str, limit: int, limits: Limits):
    """Each line's value queried on its own (``$`` is the line's value): (count, the locations
    of the first ``limit``, each starting with the value's index)."""
    values = log.values
    if engine == "rfc9535" and "$" not in path[1:]:
        # no root inside: the same nodes, in the same order, as ``$[*]`` + the rest on the array
        # (unless that one more segment passes the path's bound: then the loop below)
        try:
            whole = compile_rfc9535("$[*]" + path[1:], limits)
        except WorkbenchError:
            whole = None
        if whole is not None:
            return run_rfc9535(whole, values, limit)
    if engine != "rfc9535":
        values = json.loads(log.array_text, parse_int=ng_int)
    run = run_rfc9535 if engine == "rfc9535" else run_ng
    count, kept = 0, []
    for i, value in enumerate(values):
        n, found = run(query, value, limit - len(kept))
        count += n
        kept.extend((i,) + loc if type(loc) is tuple else loc for loc in found)
    return count, kept


def handle(body: dict, limits: Limits) -> dict:
    """``POST /api/extract``: ``document``, ``path``, ``engine`` (default ``"rfc9535"``),
    ``limit`` (default ``limits.max_matches``)."""
    v = REQUEST.read(body)
    return extract(v["document"], v["path"], v["engine"] or DEFAULT_ENGINE, body.get("limit"), limits,
                   v["jsonl"])


REQUEST = Fields(
    Field("document", required=True, text=True),
    Field("path", required=True, text=True, what="a string holding a JSONPath expression"),
    Field("engine", default=DEFAULT_ENGINE, what='"rfc9535" or "jsonpath-ng"',
          schema={"enum": list(ENGINES)}),
    Field("limit", object, what="a whole number of matches to return",
          schema={"type": "integer", "minimum": 0}),
    Field("jsonl", bool, what="true (JSON Lines: one value per line), false (one JSON text) or "
          "absent (JSON Lines detected)", doc="JSON Lines: each line's value queried on its own; "
          "paths start with the value's index. Absent: detected when the text is not one JSON "
          "value but every line is"),
)
