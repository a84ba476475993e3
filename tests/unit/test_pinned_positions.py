"""Rules of workbench/jsontext/positions.py pinned for the mutation group ``jsontext-positions``
(issue 28), fast enough to run against each of its mutants.

``test_format.py::test_duplicate_keys_deep_in_a_large_document`` (a 900,000-character document)
reaches five of the module's functions and took 2.7 s of the group's 5.4 s per mutant of
``skip_value``; it is deselected in that group (tests/mutation/modules.py) and what it reaches is
pinned here on an 83,000-character document: a member array past the walker's 64 K window, a
repeated key inside it, before and past the end of the window.  ``element_spans`` (a stream
recorded as a JSON array) was reached by no test of the group.
"""

from __future__ import annotations

import json

import pytest

from workbench.jsontext import parse
from workbench.jsontext.positions import LineIndex, Span, element_spans, walk

# --------------------------------------------------------------------------- element_spans


def test_element_spans_are_the_offsets_of_each_element_of_the_array():
    text = ' [12, "a" ,[2, 3],{"k": [4]} ]\n'
    spans = element_spans(text)
    assert spans == [(2, 4), (6, 9), (11, 17), (18, 28)]
    assert [text[s:e] for s, e in spans] == ["12", '"a"', "[2, 3]", '{"k": [4]}']
    # no space anywhere: the first element starts right after the bracket
    assert element_spans('[123,4]') == [(1, 4), (5, 6)]
    assert element_spans('[true]') == [(1, 5)]


def test_element_spans_of_an_empty_array_are_none():
    assert element_spans("[]") == []
    assert element_spans(" \n[ \t]") == []


@pytest.mark.parametrize("text", ['{"a": [1]}', "1", ' "[1]"'])
def test_element_spans_refuse_what_is_no_array(text):
    with pytest.raises(ValueError, match=r"^not a JSON array$"):
        element_spans(text)


# --------------------------------------------------------------------------- Span


def test_a_span_equals_only_a_span_with_the_same_offsets():
    assert Span(1, 5, 0) == Span(1, 5, 0)
    assert Span(1, 5) != Span(1, 6)
    assert Span(1, 5) != Span(2, 5)
    assert Span(1, 5, 0) != Span(1, 5)
    assert Span(1, 5) != (1, 5, None)
    assert repr(Span(1, 5, 0)) == "Span(start=1, end=5, key=0)"


# --------------------------------------------------------------------------- a large document


def _large(at: int) -> str:
    """{"data": [2000 objects]} (82,908 characters) with "i" repeated in object ``at``."""
    text = json.dumps({"data": [{"i": i, "s": "x" * 20} for i in range(2000)]})
    return text.replace('{"i": %d, ' % at, '{"i": %d, "i": 0, ' % at, 1)


@pytest.mark.parametrize("at", [1800, 1234])
def test_a_repeated_key_deep_in_a_member_array_longer_than_the_window_is_placed(at):
    # 1800: the repeated key lies past the array's first 64 K characters (the window ends before
    # it); 1234: within them (the array is measured up to it, then in small windows, and walked)
    text = _large(at)
    first = text.index('"i": %d, "i"' % at)
    second = first + len('"i": %d, ' % at)
    assert len(text) == 82_908 and (first > 65_536) == (at == 1800)
    (w,) = parse(text).warnings
    assert (w["code"], w["pointer"], w["key"]) == ("duplicate_key", f"/data/{at}", "i")
    assert (w["line"], w["column"], w["offset"]) == (1, second + 1, second)
    assert w["first"] == {"line": 1, "column": first + 1, "offset": first}
    assert w["second"] == {"line": 1, "column": second + 1, "offset": second}


@pytest.mark.parametrize("at", [1800, 1234])
def test_the_walk_reaches_a_value_deep_in_a_large_member_array_and_only_it(at):
    text = _large(at)
    first = text.index('"i": %d, "i"' % at)
    second = first + len('"i": %d, ' % at)
    s = second + len('"i": 0, ')
    v = s + len('"s": ')
    assert text[s:v + 22] == '"s": "' + "x" * 20 + '"'
    seen = []
    walk(text, [s, v], lambda kind, parts, start, end, extra:
         seen.append((kind, list(parts), start, end, extra)), keys=True)
    assert seen == [("duplicate", ["data", at], first, second, "i"),
                    ("key", ["data", at], s, s + 3, "s"),
                    ("string", ["data", at, "s"], v, v + 22, None)]


# --------------------------------------------------------------------------- the walk's exits


def _visits(text, interesting, **kw):
    seen: list = []
    walk(text, interesting, lambda kind, parts, s, e, x: seen.append((kind, tuple(parts), x)), **kw)
    return seen


def test_a_large_root_object_is_left_once_nothing_wanted_is_ahead():
    # the root object (70,000 characters, past every measuring window) is given its end, not
    # measured: the repeated key after the last wanted value is never read
    text = '{"pad": "' + "x" * 70_000 + '", "a": 1, "a": 2}'
    assert _visits(text, [text.index('"x')]) == [("string", ("pad",), None)]
    assert _visits(text, [text.index('"x')], whole_objects=True) == [
        ("string", ("pad",), None), ("duplicate", (), "a")]


def test_an_object_in_an_array_is_left_once_nothing_wanted_is_ahead():
    text = '[{"a": "s", "x": 1, "x": 2}, 3]'
    assert _visits(text, [text.index('"s"')]) == [("string", (0, "a"), None)]
    assert _visits(text, [text.index('"s"')], whole_objects=True) == [
        ("string", (0, "a"), None), ("duplicate", (0,), "x")]


def test_with_whole_objects_an_array_is_read_to_its_end_for_the_keys_after_it():
    # past the last wanted offset inside the member array, the walk goes on to the repeated key
    text = '{"a": [1, 2, [3]], "a": 0}'
    assert _visits(text, [text.index("1")], whole_objects=True) == [
        ("number", ("a", 0), None), ("duplicate", (), "a")]
    assert _visits(text, [text.index("1")]) == [("number", ("a", 0), None)]


@pytest.mark.parametrize("text", ["{}", " [ ] ", "[]"])
def test_an_empty_root_container_is_walked_without_reading_a_member(text):
    for interesting in ([0], [text.index(text.strip()[0]) + 1], [0, len(text)]):
        assert _visits(text, interesting) == []
        assert _visits(text, interesting, whole_objects=True, keys=True) == []


# --------------------------------------------------------------------------- the line index


def test_the_indexed_path_places_offsets_on_the_first_line():
    # (the indexed path starts after 16 lookups in a text over 100,000 characters: offsets on the
    # first line, looked up after it, are counted from the line start at offset 0)
    text = "ab\n" + "c" * 100_000 + "\nd"
    index = LineIndex(text)
    for _ in range(17):
        assert index.line_col(len(text)) == (3, 2)
    assert index._starts is not None
    assert [index.line_col(o) for o in (0, 1, 2, 3, 100_003, 100_004)] == [
        (1, 1), (1, 2), (1, 3), (2, 1), (2, 100_001), (3, 1)]
