"""The response rows of the kept matches: normalized path, JSON Pointer, the value as its exact
text (an ``orjson.Fragment``, so numbers keep their digits), and its line and column."""

from __future__ import annotations

import orjson

from ..errors import log_fault
from ..jsontext import dumps_value, line_cols, normalized_path, pointer_of
from .locate import array_run, locate_rows_all, locate_spans


def build_rows(text: str, parsed, kept: list, pasted: str | None = None, shift: int = 0) -> list[dict]:
    """The response rows for the kept matches: path, pointer, value, exact text, position.
    ``pasted``: the text positions are given in, where every value of ``text`` sits ``shift``
    characters earlier (JSON Lines read as an array, :mod:`.lines`)."""
    # (every repeated key the parser met: the warnings list only the first EXTRACT_MAX_WARNINGS)
    duplicates = parsed.duplicate_count > 0 or any(w.get("code") == "duplicate_key" for w in parsed.warnings)
    located = [loc for loc in kept if type(loc) is tuple]
    run = array_run(located) if len(located) == len(kept) else None
    spans = None
    if not duplicates:
        try:
            spans = locate_spans(text, located, run)
        except (StopIteration, LookupError, ValueError, TypeError, AttributeError) as exc:
            # never expected (the tests compare it with the parser's locator on random
            # documents); should it happen, the plain walk answers and the fault is logged
            log_fault("extract: fast locator", exc)
    if spans is None:
        spans = locate_rows_all(text, located)
    if run is not None and None not in spans:
        return _run_rows(text, located, run, spans, pasted, shift)
    positions = iter(line_cols(text if pasted is None else pasted,
                               [span[0] - shift for span in spans if span is not None]))
    spans = iter(spans)
    rows = []
    append = rows.append
    fragment = orjson.Fragment
    for loc in kept:
        if type(loc) is not tuple:  # a value jsonpath-ng computed
            append({"path": None, "pointer": None, "value": loc.value,
                    "json": dumps_value(loc.value).decode("utf-8"), "line": None,
                    "column": None, "computed": True})
            continue
        span = next(spans)
        if span is None:  # cannot happen for locations taken from the parsed tree
            append({"path": normalized_path(loc), "pointer": pointer_of(loc), "value": None,
                    "json": None, "line": None, "column": None})
            continue
        js = text[span[0]:span[1]]
        line, column = next(positions)
        append({"path": normalized_path(loc), "pointer": pointer_of(loc), "value": fragment(js),
                "json": js, "line": line, "column": column})
    return rows


def _run_rows(text: str, locations: list, run: tuple, spans: list, pasted: str | None = None,
              shift: int = 0) -> list[dict]:
    """:func:`build_rows` for the locations of an :func:`array_run`: every path and pointer
    is the prefix's, the index and the suffix's, written once."""
    k, suffix = run
    prefix = locations[0][:k]
    path_before, path_after = normalized_path(prefix), normalized_path(suffix)[1:]
    pointer_before, pointer_after = pointer_of(prefix), pointer_of(suffix)
    fragment = orjson.Fragment
    where = text if pasted is None else pasted
    count, rfind = where.count, where.rfind
    rows = []
    append = rows.append
    # the values of a run are in document order: newlines are counted once, along the way
    line, pos, line_start = 1, 0, 0
    for loc, (start, end) in zip(locations, spans):
        at = start - shift
        n = count("\n", pos, at)
        if n:
            line += n
            line_start = rfind("\n", pos, at) + 1
        pos = at
        i = loc[k]
        js = text[start:end]
        append({"path": f"{path_before}[{i}]{path_after}",
                "pointer": f"{pointer_before}/{i}{pointer_after}", "value": fragment(js),
                "json": js, "line": line, "column": at - line_start + 1})
    return rows
