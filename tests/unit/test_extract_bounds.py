"""The scan that bounds a JSONPath's segments and nesting (workbench.extract.bounds): what it
counts, what it skips, and where it says the bound is passed."""

from __future__ import annotations

import pytest

from workbench.errors import WorkbenchError
from workbench.extract import handle
from workbench.extract.bounds import check_path_bounds
from workbench.limits import DEFAULT_LIMITS, PATH_MAX_NESTING, PATH_MAX_SEGMENTS

S, D = PATH_MAX_SEGMENTS, PATH_MAX_NESTING


def refused(path: str):
    with pytest.raises(WorkbenchError) as info:
        check_path_bounds(path)
    e = info.value
    assert (e.code, e.field, e.status, e.line) == ("path_syntax", "path", 422, 1)
    assert e.column == e.offset + 1
    return e.offset, e.extra["limit"]


@pytest.mark.parametrize("path", [
    "$" + ".a" * S, "$" + "..a" * S, "$" + "..[0]" * S,  # `..[` is one segment
    "$" + "[?@]" * S, "$" + "[?@.a == 1.5]" * (S // 2),  # a decimal point is no segment
    "$[?@.a == '" + ".[(" * 10_000 + "']",  # nor anything in a string
    '$[?@.a == "\\"' + ".." * 10_000 + '"]',  # escapes inside it included
    "$" + "[?@" * D + "]" * D, "$[?" + "(" * (D - 1) + "@" + ")" * (D - 1) + "]",
    "$[?" + "!" * (D - 1) + "@]", "$[?@ != 1" + " && @ != 2" * (D - 2) + "]",
    "$" + "[?(@.a && !@.b) || @.c]" * 100,  # levels close with their bracket
])
def test_within_the_bounds(path):
    check_path_bounds(path)


@pytest.mark.parametrize("path, offset, limit", [
    ("$" + ".a" * (S + 1), 1 + 2 * S, S),
    ("$" + "..[0]" * (S + 1), 1 + 5 * S, S),
    ("$[?@.a == 1.5]" + ".b" * S, 14 + 2 * (S - 2), S),  # the filter's @.a counts
    ("$" + "[?@" * (D + 1) + "]" * (D + 1), 1 + 3 * D, D),
    ("$[?" + "!" * D + "@]", 3 + D - 1, D),
    ("$['" + "." * 100 + "'][?" + "(" * D + "@" + ")" * D + "]", 107 + D - 1, D),
])
def test_refused_where_the_bound_is_passed(path, offset, limit):
    assert refused(path) == (offset, limit)


def test_the_refusal_is_said_before_the_document_is_read():
    """A document that is not JSON is not looked at: the path is refused first."""
    with pytest.raises(WorkbenchError) as info:
        handle({"document": "[1,", "path": "$" + "[0]" * (S + 1)}, DEFAULT_LIMITS)
    assert (info.value.code, info.value.field, info.value.offset) == ("path_syntax", "path", 1 + 3 * S)
    assert "snippet" not in info.value.to_dict()


# issue 25: like Format, Extract places and lists the first EXTRACT_MAX_WARNINGS warnings (placing is
# Python work per warning: 49,725 on 20 MB were most of a query) and counts all of them

def _ids_log(n: int, duplicate_at: int | None = None) -> str:
    rows = []
    for i in range(n):
        extra = ', "w": {"call_id": "old"}, "w": {"call_id": "new"}' if i == duplicate_at else ""
        rows.append(f'{{"id": {2**60 + i}, "call_id": "c{i}"{extra}, "v": [{i}, {{"call_id": "d{i}"}}]}}')
    return '{"data": [\n' + ",\n".join(rows) + "\n]}"


def _answer(text: str, limit: int | None = None, jsonl: bool | None = None) -> dict:
    import sys

    from workbench.extract import handle
    from workbench.limits import DEFAULT_LIMITS
    core = sys.modules["workbench.extract.core"]
    saved = core.MAX_WARNINGS
    core.MAX_WARNINGS = limit if limit is not None else saved
    try:
        return handle({"document": text, "path": "$..call_id", **({"jsonl": jsonl} if jsonl is not None else {})},
                      DEFAULT_LIMITS)
    finally:
        core.MAX_WARNINGS = saved


def test_extract_lists_the_first_warnings_and_counts_all():
    from workbench.limits import EXTRACT_MAX_WARNINGS
    a = _answer(_ids_log(EXTRACT_MAX_WARNINGS + 500))
    assert len(a["warnings"]) == EXTRACT_MAX_WARNINGS and a["warning_count"] == EXTRACT_MAX_WARNINGS + 500
    assert [w["pointer"] for w in a["warnings"][:2]] == ["/data/0/id", "/data/1/id"]
    small = _answer(_ids_log(10))
    assert len(small["warnings"]) == small["warning_count"] == 10


@pytest.mark.parametrize("jsonl", [False, True])
def test_a_repeated_key_past_the_listed_warnings_still_places_every_row(jsonl):
    text = _ids_log(400, duplicate_at=350)
    if jsonl:   # the same records as JSON Lines
        text = "\n".join(line.rstrip(",") for line in text.splitlines()[1:-1]) + "\n"
    cut, whole = _answer(text, limit=5, jsonl=jsonl or None), _answer(text, limit=10**6, jsonl=jsonl or None)
    assert len(cut["warnings"]) == 5 and cut["warning_count"] == whole["warning_count"] == 401
    assert "duplicate_key" not in [w["code"] for w in cut["warnings"]]
    from workbench.jsontext import dumps_value
    assert dumps_value(cut["matches"]) == dumps_value(whole["matches"]) and cut["count"] == whole["count"] == 801
