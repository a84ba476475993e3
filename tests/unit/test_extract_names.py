"""JSONPath member names in every script (issue 14): RFC 9535's ``name-first`` / ``name-char``
cover ALPHA, ``_``, U+0080–U+D7FF and U+E000–U+10FFFF (and DIGIT after the first character);
the library's lexer stopped at U+10FF.  Dot notation must select exactly what bracket notation
selects, for every such name, in both engines where the syntax applies.  Also: a comparison
used as an operand is refused, as the grammar does."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.errors import WorkbenchError
from workbench.extract import extract

ORDERS = {"주문": {"번호": 17, "상품": [{"価格": 1200, "이름": "책"}, {"価格": 80, "이름": "펜"}]},
          "名前": "山田", "ключ": "значение", "a€": 3, "x—y": 4, "価格": 5}
ORDERS_TEXT = json.dumps(ORDERS, ensure_ascii=False, indent=1)


def bracket(name: str) -> str:
    """``name`` as a bracketed name selector (RFC 9535 string literal)."""
    return "['" + name.replace("\\", "\\\\").replace("'", "\\'") + "']"


def rows(body: dict) -> list:
    """The rows as comparable tuples (``value`` is an orjson.Fragment in process: its text is
    ``json``)."""
    return [(m["path"], m["pointer"], m["json"], m["line"], m["column"]) for m in body["matches"]]


@pytest.mark.parametrize("dot, brackets, expected", [
    ("$.주문.번호", "$['주문']['번호']", ["17"]),
    ("$.名前", "$['名前']", ['"山田"']),
    ("$..価格", "$..['価格']", ["5", "1200", "80"]),  # the root first: pre-order
    ("$.주문.상품[?@.이름 == '펜'].価格", "$['주문']['상품'][?@['이름'] == '펜']['価格']", ["80"]),
    ("$.주문.상품[?@.価格 > 100].이름", "$['주문']['상품'][?@['価格'] > 100]['이름']", ['"책"']),
    ("$.a€", "$['a€']", ["3"]),
    ("$.x—y", "$['x—y']", ["4"]),
    ("$.ключ", "$['ключ']", ['"значение"']),
])
def test_the_issue_names_are_read_in_dot_notation(server, dot, brackets, expected):
    status, by_dot = server.api("extract", {"document": ORDERS_TEXT, "path": dot})
    assert status == 200, by_dot
    status, by_bracket = server.api("extract", {"document": ORDERS_TEXT, "path": brackets})
    assert status == 200, by_bracket
    assert [m["json"] for m in by_dot["matches"]] == expected
    assert rows(by_dot) == rows(by_bracket)


# the edges of every range, as the first character and after one
EDGES = ["A", "z", "_", "\u0080", "\u00ff", "\u0100", "\u10ff", "\u1100", "\u20ac", "\u2014",
         "\uac00", "\ud7a3", "\ud7ff", "\ue000", "\uf8ff", "\ufdd0", "\uffff", "\U00010000",
         "\U0001f600", "\U000e0001", "\U0010ffff"]


@pytest.mark.parametrize("char", EDGES)
def test_every_range_edge_is_a_name_character(char):
    for name in (char, "a" + char, char + "0" + char, char * 3 + "_9"):
        text = json.dumps({name: [name], "other": {name: 1}}, ensure_ascii=False)
        for dot, brackets in ((f"$.{name}", "$" + bracket(name)),
                              (f"$..{name}", f"$..{bracket(name)}"),
                              (f"$[?@.{name}]", f"$[?@{bracket(name)}]")):
            got = extract(text, dot)
            want = extract(text, brackets)
            assert got["count"] >= 1 and rows(got) == rows(want), (name, dot)


@pytest.mark.parametrize("path, column", [
    ("$.1a", 3),          # a digit cannot start a name
    ("$.a-b", 4),         # '-' is not a name character (write $['a-b'])
    ("$.a b", 5),         # (the lexer passes the blank and refuses what follows)
    ("$.\u007f", 3),      # DEL is below the range
    ("$.a\u007f", 4),
    ("$.\ud800", 3),      # a lone surrogate is not a character
    ("$.a\udfff", 4),
    ("$..\ud83d", 4),
])
def test_what_is_not_a_name_is_refused_at_its_place(path, column):
    with pytest.raises(WorkbenchError) as caught:
        extract('{"a": 1}', path)
    assert caught.value.code == "path_syntax" and caught.value.field == "path"
    assert caught.value.column == column, caught.value.to_dict()


def test_names_through_the_api_with_escaped_json(server):
    """A client that sends ``\\uXXXX`` escapes (Python's default json.dumps) gets the same."""
    body = json.dumps({"document": ORDERS_TEXT, "path": "$.주문.상품[*].이름"}).encode()
    assert body.isascii()
    status, _, data = server.request("POST", "/api/extract", body, {"Content-Type": "application/json"})
    answer = json.loads(data)
    assert status == 200 and [m["json"] for m in answer["matches"]] == ['"책"', '"펜"']
    assert answer["matches"][0]["path"] == "$['주문']['상품'][0]['이름']"


# ----------------------------------------------------------------------------- the property

ALPHA = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
# st.characters never yields surrogates; the two ranges are drawn separately so that the small
# one (U+E000–U+10FFFF holds 1M code points, U+0080–U+D7FF 55k) is drawn as often
WIDE = st.one_of(st.characters(min_codepoint=0x80, max_codepoint=0xD7FF),
                 st.characters(min_codepoint=0xE000, max_codepoint=0xFFFF),
                 st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF))
NAME_FIRST = st.one_of(ALPHA, WIDE)
NAME_CHAR = st.one_of(ALPHA, WIDE, st.sampled_from("0123456789"))
NAMES = st.builds(lambda first, rest: first + "".join(rest), NAME_FIRST, st.lists(NAME_CHAR, max_size=6))



@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, other=NAMES, value=st.sampled_from([0, 1.5, "s", True, None, [1], {"k": 2}]))
def test_dot_notation_selects_what_bracket_notation_selects(name, other, value):
    """Any RFC 9535 member name: ``.name`` is ``['name']`` — as a child, a descendant, inside
    a filter (existence and comparison), in the default engine; in jsonpath-ng, its dot form
    where its lexer reads the name, and its bracket form always."""
    doc = {name: value, other: {name: [value, {name: 7}]}, "list": [{name: 7}, {other: 7}]}
    text = json.dumps(doc, ensure_ascii=False)
    b = bracket(name)
    pairs = [(f"$.{name}", f"${b}"), (f"$.{other}.{name}", f"${bracket(other)}{b}"),
             (f"$..{name}", f"$..{b}"), (f"$.list[?@.{name}]", f"$.list[?@{b}]"),
             (f"$.list[?@.{name} == 7].{name}", f"$.list[?@{b} == 7]{b}")]
    for dot, brackets in pairs:
        got, want = extract(text, dot), extract(text, brackets)
        assert got["count"] >= 1, dot
        assert rows(got) == rows(want), (dot, brackets)
    # jsonpath-ng: its dot notation, where its lexer reads the names (else a path_syntax error
    # that says how to write them), and its bracket notation, find the default engine's nodes
    rfc = [m["pointer"] for m in extract(text, f"${bracket(other)}{b}")["matches"]]
    try:
        ng = extract(text, f"$.{other}.{name}", engine="jsonpath-ng")
        assert [m["pointer"] for m in ng["matches"]] == rfc
    except WorkbenchError as error:
        assert error.code == "path_syntax" and error.column is not None
        assert not (other + name).isascii() and "['name']" in error.message
    ng = extract(text, f"${bracket(other)}{b}", engine="jsonpath-ng")
    assert [m["pointer"] for m in ng["matches"]] == rfc


def test_jsonpath_ng_says_how_to_write_a_name_it_cannot_read():
    with pytest.raises(WorkbenchError) as caught:
        extract(ORDERS_TEXT, "$.주문", engine="jsonpath-ng")
    error = caught.value
    assert error.code == "path_syntax" and error.column == 3
    assert "['name']" in error.message and "RFC 9535 engine" in error.message
    assert extract(ORDERS_TEXT, "$['주문']['번호']", engine="jsonpath-ng")["matches"][0]["json"] == "17"


# ----------------------------------------------------------------------------- comparisons of comparisons

@pytest.mark.parametrize("path, operator_at", [
    ("$[?((@.key<44)==false)]", "=="),
    ("$[?(@.key<44)==false]", "=="),
    ("$[?false==(@.key<44)]", "=="),
    ("$[?@.a==1==2]", "=="),
    ("$[?!@.a==1]", "=="),
    ("$[?(@.a || @.b)!=true]", "!="),
    ("$[?(@.a && @.b)<1]", "<"),
])
def test_a_comparison_is_not_an_operand(server, path, operator_at):
    status, body = server.api("extract", {"document": '[{"key": 1, "a": 1}]', "path": path})
    assert status == 422, body
    error = body["error"]
    assert error["code"] == "path_syntax" and error["field"] == "path"
    # the column of the refused comparison's operator (its first spelling here; in @.a==1==2
    # the library reads @.a == (1==2), so the first '==' is the one with a comparison operand)
    assert error["column"] == path.index(operator_at) + 1, error
    assert "cannot be an operand" in error["message"]


@pytest.mark.parametrize("path, pointers", [
    ("$[?!(@.key<44)]", ["/1"]),
    ("$[?(@.key<44)]", ["/0"]),
    ("$[?(@.key<44) && @.a==1]", ["/0"]),
    ("$[?length(@.s)==2]", ["/1"]),
    ("$[?@.key==$[0].key]", ["/0"]),
])
def test_comparisons_of_values_still_run(path, pointers):
    doc = '[{"key": 1, "a": 1}, {"key": 50, "s": "ab"}]'
    assert [m["pointer"] for m in extract(doc, path)["matches"]] == pointers
