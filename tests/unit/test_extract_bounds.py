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
