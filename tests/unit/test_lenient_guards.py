"""Issue 21: the lenient doors of Format (JSONC, JSON5, YAML) bounded in time, depth, expansion
and exactness; every fault a 4xx with its code, field and place (never a 500)."""

from __future__ import annotations

import json
import time

import pytest

from workbench.errors import WorkbenchError
from workbench.format import handle
from workbench.format.lenient import format_lenient, strip_jsonc
from workbench.limits import Limits


def fmt(text, kind, indent=2, sort_keys=False, max_depth=512):
    return format_lenient(text, kind, indent, sort_keys, max_depth=max_depth)


def refused(text, kind, **kw) -> WorkbenchError:
    with pytest.raises(WorkbenchError) as e:
        fmt(text, kind, **kw)
    assert e.value.status in (400, 413, 422) and e.value.field == "text"
    return e.value


# ------------------------------------------------------------------ row 2: JSONC in linear time

def test_jsonc_many_unterminated_comments_is_linear_and_placed():
    # 25,000 "/*" after commas (75 KB) took ~21 s (quadratic): now one pass, and the first
    # comment that never closes is the error at its place
    text = "[1" + ",/*" * 25000
    t = time.perf_counter()
    e = refused(text, "jsonc")
    assert time.perf_counter() - t < 1.0
    assert e.code == "parse_error" and (e.line, e.column, e.offset) == (1, 4, 3)
    assert "never closed" in e.message


def test_jsonc_many_comments_between_commas_stay_linear():
    text = "[" + "1,/* c */" * 20000 + "]"
    t = time.perf_counter()
    blank, counts = strip_jsonc(text)
    assert time.perf_counter() - t < 1.0
    assert counts == {"comments": 20000, "trailing_commas": 1}
    assert json.loads(blank) == [1] * 20000


def test_jsonc_trailing_commas_through_comments_and_strings_untouched():
    text = '{"a": "x, ]", "b": [1, // c\n /* d */ ], "u": "//"  ,\n}'
    blank, counts = strip_jsonc(text)
    assert len(blank) == len(text)
    assert json.loads(blank) == {"a": "x, ]", "b": [1], "u": "//"}
    assert counts == {"comments": 2, "trailing_commas": 2}


def test_format_runs_under_the_work_deadline():
    # a request's work is bounded by work_timeout in every input mode
    text = "a: [" + ", ".join(["b"] * 200000) + "]"   # pure-Python YAML: seconds of work
    t = time.perf_counter()
    with pytest.raises(WorkbenchError) as e:
        handle({"text": text, "input": "yaml"}, Limits(work_timeout=0.2))
    assert e.value.code == "timeout" and e.value.status == 422
    assert time.perf_counter() - t < 2.0


# ------------------------------------------------------------- row 4: YAML aliases are budgeted

LAUGHS = "a0: &a0 [lol]\n" + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 8))


def test_yaml_billion_laughs_is_refused_naming_the_alias():
    # 370 bytes, 7 levels of 10 aliases: 53 s, 477 MB and a 69 MB answer before
    t = time.perf_counter()
    e = refused(LAUGHS, "yaml")
    assert time.perf_counter() - t < 2.0
    assert e.code == "expansion_limit" and e.status == 422
    assert e.extra["alias"].startswith("a") and e.line >= 6
    assert f"*{e.extra['alias']} (line {e.line}, column {e.column})" in e.message


def test_yaml_aliases_within_the_budget_are_expanded_and_counted():
    a = fmt("base: &b {x: 1, y: [1, 2]}\none: *b\ntwo: *b\n", "yaml", indent=0)
    assert json.loads(a["formatted"]) == {"base": {"x": 1, "y": [1, 2]}, "one": {"x": 1, "y": [1, 2]},
                                          "two": {"x": 1, "y": [1, 2]}}
    assert {c["code"]: c["count"] for c in a["converted"]["changes"]}["aliases"] == 2


def test_yaml_recursive_and_unknown_aliases_are_placed():
    e = refused("a: &x [1, *x]\n", "yaml")
    assert e.code == "not_json" and (e.line, e.column) == (1, 11)
    e = refused("a: *nowhere\n", "yaml")
    assert e.code == "parse_error" and (e.line, e.column) == (1, 4)


# ------------------------------------------- row 7: surrogates, huge integers, depth: never a 500

@pytest.mark.parametrize("kind, text", [("json5", '{"a": "\\ud83d\\ude00"}'),
                                        ("yaml", 'a: "\\ud83d\\ude00"\n')])
def test_an_escaped_surrogate_pair_is_its_character(kind, text):
    a = fmt(text, kind, indent=0)
    assert a["formatted"] == '{"a":"\U0001F600"}' and a["warnings"] == []


@pytest.mark.parametrize("kind, text, pointer", [
    ("json5", '{"a": ["\\ud800"]}', "/a/0"), ("yaml", 'a: ["\\ud800"]\n', "/a/0"),
    ("json5", '{"k\\udc00": 1}', "/k\udc00"), ("yaml", '"k\\udc00": 1\n', "/k\udc00")])
def test_a_lone_surrogate_is_kept_and_warned(kind, text, pointer):
    a = fmt(text, kind, indent=0)
    assert "\\ud800" in a["formatted"] or "\\udc00" in a["formatted"]
    (w,) = a["warnings"]
    assert w["code"] == "lone_surrogate" and w["pointer"] == pointer
    if kind == "yaml":
        assert w["line"] == 1


@pytest.mark.parametrize("text, column", [("a: 0x" + "f" * 4000 + "\n", 4),
                                          ("a: 0o" + "7" * 5000 + "\n", 4),
                                          ("- 1\n- -0b" + "1" * 20000 + "\n", 3)])
def test_yaml_integers_past_the_digit_limit_are_422_at_their_place(text, column):
    e = refused(text, "yaml")
    assert e.code == "number_too_large" and e.column == column


def test_json5_hex_past_the_digit_limit_is_422_at_its_place():
    e = refused("[0x" + "f" * 4000 + "]", "json5")
    assert e.code == "number_too_large" and (e.line, e.column) == (1, 2)


def test_yaml_long_decimal_integers_stay_exact():
    digits = "7" * 5000
    a = fmt(f"a: {digits}\n", "yaml", indent=0)
    assert a["formatted"] == '{"a":' + digits + "}"


@pytest.mark.parametrize("depth", [255, 300, 510])
@pytest.mark.parametrize("style", ["flow", "block"])
def test_yaml_nesting_up_to_the_limit_is_formatted(depth, style):
    text = ("[" * depth + "]" * depth) if style == "flow" else \
        "".join(" " * i + "-\n" for i in range(depth - 1)) + " " * (depth - 1) + "- 1\n"
    a = fmt(text, "yaml", indent=0)
    assert a["formatted"].count("[") == depth


# ---------------------------------------------------- row 9: YAML 1.1 read as its version says

def test_yaml_1_1_booleans_and_octals_follow_the_directive_and_are_said():
    a = fmt("%YAML 1.1\n---\na: yes\nb: on\nc: Y\nd: no\ne: 010\nf: 1:20\n", "yaml", indent=0)
    assert a["formatted"] == '{"a":true,"b":true,"c":true,"d":false,"e":8,"f":80}'
    c = {x["code"]: x["count"] for x in a["converted"]["changes"]}
    assert c["booleans"] == 4 and c["numbers"] == 2 and c["yaml_1_1"] == 1
    assert "YAML 1.1" in a["converted"]["summary"]
    # without the directive YAML 1.2 holds: yes/on are strings, 010 is ten
    b = fmt("a: yes\nb: on\ne: 010\n", "yaml", indent=0)
    assert b["formatted"] == '{"a":"yes","b":"on","e":10}'
    assert {x["code"] for x in b["converted"]["changes"]} == {"numbers"}


# ------------------------------------------------ row 16: every reader says the depth it honours

def test_yaml_deeper_than_max_depth_is_too_deep_at_its_place():
    for text, offset in (("[" * 2000 + "]" * 2000, 512), ("[\n" * 600 + "]" * 600, 1024),
                         ("a: {b: [" + "{c: [" * 300 + "]}" * 300 + "]}", 1283)):
        t = time.perf_counter()
        e = refused(text, "yaml")
        assert time.perf_counter() - t < 1.0
        assert e.code == "too_deep" and e.offset == offset
        assert "512 levels" in e.message
    e = refused("".join(" " * i + "-\n" for i in range(20)), "yaml", max_depth=10)
    assert e.code == "too_deep" and e.line == 11 and e.extra["limit"] == 10


def test_json5_says_its_own_depth_and_places_it():
    from workbench.limits import JSON5_MAX_DEPTH
    ok = "[" * JSON5_MAX_DEPTH + "]" * JSON5_MAX_DEPTH
    assert fmt(ok, "json5", indent=0)["formatted"] == ok
    e = refused("{a: " + "[" * 60 + "]" * 60 + "}", "json5")
    assert e.code == "too_deep" and (e.line, e.column) == (1, 4 + JSON5_MAX_DEPTH)
    assert f"limit of {JSON5_MAX_DEPTH} levels for JSON5" in e.message and "512" in e.message
    e = refused("[[[[]]]]", "json5", max_depth=3)
    assert e.code == "too_deep" and "limit of 3 levels" in e.message
