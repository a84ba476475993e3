"""The exact JSON core: strict parsing, positions, numbers, duplicates, depth, formatting."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import WorkbenchError
from workbench.format import format_text
from workbench.jsontext import dumps_value, locate_many, normalized_path, parse, pointer_of


def err(text, **kw) -> dict:
    with pytest.raises(WorkbenchError) as info:
        parse(text, **kw)
    return info.value.to_dict()


# ------------------------------------------------------------------ numbers keep their text

@pytest.mark.parametrize("token", ["1.10", "1e400", "-0.0", "-0", "12345678901234567890123",
                                   "1E22", "0.1e-5", "-1.5E+300", "4e-05", "1" * 5000])
def test_numbers_come_out_exactly_as_written(token):
    doc = '{"n": %s, "list": [%s, 2]}' % (token, token)
    for indent in (0, 2, 4, "tab"):
        out = format_text(doc, indent=indent)["formatted"]
        assert re.findall(r"-?\d[\d.eE+-]*", out) == [token, token, "2"], (indent, out[:200])


def test_only_whitespace_changes():
    doc = '{"a":[1.10,{"b":"x\\u00e9"}],"c":null,"d":true,"e":12345678901234567890123}'
    out = format_text(doc, indent=2)["formatted"]
    assert out == ('{\n  "a": [\n    1.10,\n    {\n      "b": "xé"\n    }\n  ],\n  "c": null,\n'
                   '  "d": true,\n  "e": 12345678901234567890123\n}')
    assert format_text(out, indent=0)["formatted"] == '{"a":[1.10,{"b":"xé"}],"c":null,"d":true,"e":12345678901234567890123}'


def test_indent_options_and_sorted_keys():
    doc = '{"b":1,"a":[1,{"d":1,"c":2}]}'
    assert format_text(doc, indent="tab")["formatted"].splitlines()[1] == '\t"b": 1,'
    assert format_text(doc, indent=8)["formatted"].splitlines()[1] == " " * 8 + '"b": 1,'
    assert format_text(doc, indent=0, sort_keys=True)["formatted"] == '{"a":[1,{"c":2,"d":1}],"b":1}'
    with pytest.raises(WorkbenchError) as e:
        format_text(doc, indent=9)
    assert e.value.status == 400 and e.value.field == "indent"


def test_non_ascii_kept_and_lone_surrogates_escaped():
    out = format_text('["日本", "\\ud800", "\\ud83d\\ude00"]', indent=0)
    assert out["formatted"] == '["日本","\\ud800","😀"]'
    assert [w["code"] for w in out["warnings"]] == ["lone_surrogate"]
    assert out["warnings"][0]["pointer"] == "/1"


def test_exact_values_for_other_cores():
    value = parse('{"a": 1.10, "b": 12345678901234567890123, "c": 1e400}').value
    assert dumps_value(value) == b'{"a":1.10,"b":12345678901234567890123,"c":1E+400}'
    assert value["b"] == 12345678901234567890123 and isinstance(value["b"], int)


# ------------------------------------------------------------------ duplicate keys

def test_duplicate_key_warning_has_both_positions():
    text = '{\n  "region": "global",\n  "x": {"k": 1, "k": 2},\n  "region": "apac"\n}'
    warnings = format_text(text)["warnings"]
    dups = [w for w in warnings if w["code"] == "duplicate_key"]
    assert [(w["pointer"], w["key"]) for w in dups] == [("/x", "k"), ("", "region")]
    region = dups[1]
    assert (region["first"]["line"], region["first"]["column"]) == (2, 3)
    assert (region["second"]["line"], region["second"]["column"]) == (4, 3)
    k = dups[0]
    assert (k["first"]["line"], k["first"]["column"]) == (3, 9)
    assert (k["second"]["line"], k["second"]["column"]) == (3, 17)


def test_duplicate_key_written_with_escapes_is_found():
    warnings = format_text('{"a": 1, "\\u0061": 2}')["warnings"]
    assert [(w["code"], w["key"], w["first"]["column"], w["second"]["column"]) for w in warnings] == \
        [("duplicate_key", "a", 2, 10)]


def test_duplicate_keys_deep_in_a_large_document():
    items = [{"i": i, "s": "x" * 20} for i in range(20000)]
    text = json.dumps({"data": items})
    text = text.replace('{"i": 12345, ', '{"i": 12345, "i": 0, ', 1)
    warnings = parse(text).warnings
    assert len(warnings) == 1 and warnings[0]["pointer"] == "/data/12345"


def test_unsafe_integer_warning():
    w = parse('{"id": 9007199254740993, "ok": 9007199254740991, "s": "12345678901234567890"}').warnings
    assert [(x["code"], x["pointer"]) for x in w] == [("unsafe_integer", "/id")]


# ------------------------------------------------------------------ strictness and errors

@pytest.mark.parametrize("text, line, column, words", [
    ('{"a": 1,}', 1, 8, "Trailing comma"),
    ('[1, 2,]', 1, 6, "Trailing comma"),
    ('[NaN]', 1, 2, "NaN"),
    ('{"a": -Infinity}', 1, 7, "Infinity"),
    ('// note\n{}', 1, 1, "Comments"),
    ("{'a': 1}", 1, 2, "double quotes"),
    ('"a\tb"', 1, 3, "tab"),
    ('[1] 2', 1, 5, "after the end"),
    ('{\n  "a": 1,\n  "b": 2\n  "c": 3\n}', 4, 3, "Expected ',' or '}' after the value of \"b\""),
    ('[01]', 1, 2, "leading zeros"),
    ('', 1, 1, "empty"),
    ('[1, 2', 1, 6, "end of the input"),
    ('\ufeff{}', 1, 1, "byte order mark"),
    ('[True]', 1, 2, "write true"),
])
def test_errors_say_what_and_where(text, line, column, words):
    e = err(text)
    assert e["code"] == "parse_error"
    assert (e["line"], e["column"]) == (line, column), e
    assert words in e["message"], e["message"]
    assert e["snippet"].endswith("^")
    assert e["offset"] == len("\n".join(text.split("\n")[:line - 1])) + (1 if line > 1 else 0) + column - 1


def test_error_snippet_puts_the_caret_under_the_spot():
    e = err('{"a": [1, 2,, 3]}')
    line, caret = e["snippet"].split("\n")
    assert line[caret.index("^")] == ","


def test_depth_limit_is_a_clear_error_not_a_crash():
    ok = "[" * 512 + "]" * 512
    assert parse(ok).value is not None
    for depth in (513, 990, 5000, 100000):
        e = err("[" * depth + "]" * depth)
        assert e["code"] == "too_deep" and e["limit"] == 512 and e["column"] == 513
    e = err('{"a":' * 30 + "1" + "}" * 30, max_depth=10)
    assert e["code"] == "too_deep" and e["limit"] == 10


def test_raw_lone_surrogate_in_text_is_refused():
    e = err('["a\udc80"]')
    assert "surrogate" in e["message"] and e["column"] == 4


# ------------------------------------------------------------------ positions

def test_locate_many_finds_values_keys_and_escaped_pointers():
    text = '{"a/b": {"m~n": [10, {"x": "y"}]}, "z": 2}'
    spans = locate_many(text, ["/a~1b/m~0n/1/x", "/z", "/a~1b/m~0n/0", "/missing"])
    assert text[spans["/a~1b/m~0n/1/x"].start:spans["/a~1b/m~0n/1/x"].end] == '"y"'
    assert text[spans["/a~1b/m~0n/0"].start:spans["/a~1b/m~0n/0"].end] == "10"
    assert text[spans["/z"].key:spans["/z"].key + 3] == '"z"'
    assert "/missing" not in spans


def test_paths_and_pointers_escape():
    assert pointer_of(["a/b", "m~n", 0]) == "/a~1b/m~0n/0"
    assert normalized_path(["it's", 0, "a\\b", "\n"]) == "$['it\\'s'][0]['a\\\\b']['\\n']"


# ------------------------------------------------------------------ properties

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text() |
    st.decimals(allow_nan=False, allow_infinity=False).map(lambda d: d),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=5),
    max_leaves=30)


@settings(max_examples=200, deadline=None)
@given(json_values, st.sampled_from([0, 1, 2, 4, "tab"]), st.booleans())
def test_format_round_trips_every_value(value, indent, sort_keys):
    text = dumps_value(value).decode()
    out = format_text(text, indent=indent, sort_keys=sort_keys)["formatted"]
    assert parse(out).value == parse(text).value
    # re-minifying gives back the same tokens (key order aside)
    if not sort_keys:
        assert format_text(out, indent=0)["formatted"] == format_text(text, indent=0)["formatted"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]",:0123456789.eE+-tfnrulase \\/u\n\t', max_size=40))
def test_any_text_parses_or_fails_with_a_position(text):
    try:
        parse(text)
    except WorkbenchError as e:
        d = e.to_dict()
        assert e.status == 422 and d["code"] in ("parse_error", "too_deep")
        assert d["line"] >= 1 and d["column"] >= 1 and 0 <= d["offset"] <= len(text)


def test_exponent_beyond_any_decimal_is_a_clear_error_in_exact_mode_and_kept_by_format():
    text = "[0.4e" + "9" * 200 + "]"
    e = err(text)
    assert e["code"] == "number_too_large" and e["column"] == 2
    assert format_text(text, indent=0)["formatted"] == text


# ------------------------------------------------------------------ repeated keys are kept

@pytest.mark.parametrize("indent", [0, 2, "tab"])
def test_a_repeated_key_keeps_both_members_in_place(indent):
    doc = '{"b": 0, "a": 1, "c": {"x": 1, "x": [2], "x": 3}, "a": 2.50}'
    out = format_text(doc, indent=indent)["formatted"]
    assert json.loads(out, object_pairs_hook=list) == json.loads(doc, object_pairs_hook=list)
    assert out.count('"a"') == 2 and out.count('"x"') == 3 and "wbdup" not in out and "\\u0000" not in out


def test_sorted_keys_keep_every_copy_in_its_order():
    doc = '{"b": 0, "a": 1, "a\\u0000z": 9, "a": 2, "A": 3, "a": 3}'
    out = format_text(doc, indent=0, sort_keys=True)["formatted"]
    pairs = json.loads(out, object_pairs_hook=list)
    assert pairs == [("A", 3), ("a", 1), ("a", 2), ("a", 3), ("a\x00z", 9), ("b", 0)]


def test_keeping_duplicates_is_only_for_format():
    doc = '{"a": 1, "a": 2}'
    assert parse(doc).value == {"a": 2}                     # every other view: the last wins
    kept = parse(doc, numbers="fragment", keep_duplicates=True)
    assert len(kept.value) == 2 and kept.duplicate_mark and kept.duplicate_mark[1:] not in doc


def test_duplicate_warning_says_what_readers_do():
    (w,) = format_text('{"a": 1, "a": 2}')["warnings"]
    assert w["code"] == "duplicate_key" and "both members are kept" in w["message"]
    assert "JSON.parse" in w["message"] and "last" in w["message"] and "first" in w["message"]
    (w,) = parse('{"a": 1, "a": 2}').warnings
    assert "kept here" not in w["message"]


def test_a_key_spelled_with_escapes_and_a_lone_surrogate_still_kept():
    doc = '{"\\u0061": 1, "a": 2, "s": "\\ud800"}'
    out = format_text(doc, indent=0)["formatted"]   # orjson refuses the surrogate: the plain writer
    assert out == '{"a":1,"a":2,"s":"\\ud800"}'


# ------------------------------------------------------------------ float64 warnings

@pytest.mark.parametrize("token, code, reads", [
    ("1e999", "float_overflow", "Infinity"), ("-1E+400", "float_overflow", "-Infinity"),
    ("1e-400", "float_underflow", "as 0"),
    ("0.1000000000000000055511151231257827", "float_precision", "as 0.1"),
    ("1.00000000000000001", "float_precision", "as 1.0"),
])
def test_numbers_a_float64_reader_changes_are_warned_about(token, code, reads):
    r = format_text('{"list": [0, {"n": %s}]}' % token)
    (w,) = r["warnings"]
    assert w["code"] == code and reads in w["message"] and w["pointer"] == "/list/1/n"
    assert (w["line"], w["column"]) == (1, 20)
    assert token in r["formatted"]          # and the number itself is written as it is


@pytest.mark.parametrize("token", ["0.1", "1E-7", "2.50e+3", "0.30000000000000004", "-0.0", "0e999",
                                   "5e-324", "1.7976931348623157e308", "123456789.123456"])
def test_numbers_a_float64_reader_keeps_are_not(token):
    assert format_text("[%s]" % token)["warnings"] == []


def test_float_warnings_reach_every_view_through_parse():
    assert [w["code"] for w in parse('{"a": 1e999, "b": 1e-999}').warnings] == ["float_overflow",
                                                                               "float_underflow"]
    assert parse('{"a": 1e999}', warnings=False).warnings == []


# ------------------------------------------------------------------ JSON Lines and streams

def test_json_lines_are_formatted_value_by_value():
    text = '{"a": 1.10}\n\n[1, 2]\n"x"\n'
    r = format_text(text, indent=0)
    assert r["jsonl"] is True and r["lines"] == 3
    assert r["formatted"] == '{"a":1.10}\n[1,2]\n"x"'
    pretty = format_text(text, indent=2)["formatted"]
    assert pretty == '{\n  "a": 1.10\n}\n[\n  1,\n  2\n]\n"x"'
    assert "jsonl" not in format_text('{"a": 1}\n')


def test_json_lines_warnings_are_placed_in_the_whole_text():
    text = '{"a": 1}\n  {"b": 1, "b": 2}\n[9007199254740993]\n'
    ws = format_text(text)["warnings"]
    assert [(w["code"], w["line"], w["column"], w["record"], w["pointer"]) for w in ws] == [
        ("duplicate_key", 2, 12, 2, ""), ("unsafe_integer", 3, 2, 3, "/0")]
    assert text[ws[0]["offset"]:].startswith('"b": 2') and text[ws[1]["offset"]:].startswith("9007")


@pytest.mark.parametrize("text, line, column", [
    ('{"a": 1}\n{"b": 2}}\n', 2, 9),        # text after the value on line 2
    ('{"a": 1}\n{"b":\n{"c": 3}\n', 2, 6),   # line 2 left open
    ('{"a": 1}\n\n{"b": nan}\n', 3, 7),
])
def test_json_lines_errors_point_at_their_line(text, line, column):
    with pytest.raises(WorkbenchError) as info:
        format_text(text)
    e = info.value.to_dict()
    assert (e["code"], e["line"], e["column"]) == ("parse_error", line, column)
    assert e["message"].startswith(f"JSON Lines, line {line}") and "^" in e["snippet"]


def test_a_document_broken_on_its_first_line_is_not_taken_for_json_lines():
    with pytest.raises(WorkbenchError) as info:
        format_text('{"a": 1,\n "b": }\n')
    assert not info.value.to_dict().get("jsonl")


@pytest.mark.parametrize("text", ['event: response.created\ndata: {"type": "response.created"}\n\n',
                                  'data: {"choices": []}\n\ndata: [DONE]\n',
                                  ': keep-alive\nevent: x\ndata: {}\n'])
def test_a_pasted_stream_is_named_and_sent_to_the_gate(text):
    with pytest.raises(WorkbenchError) as info:
        format_text(text)
    e = info.value.to_dict()
    assert e["code"] == "parse_error" and e["hint"] == "sse_stream" and "/gate" in e["message"]
    assert "Server-Sent Events" in e["message"]


_leaf = st.one_of(st.integers(-10, 10), st.sampled_from([9007199254740993, -12345678901234567890]),
                  st.text(max_size=3), st.none(), st.booleans())
_doc = st.recursive(_leaf, lambda kids: st.one_of(st.lists(kids, max_size=5),
                                                  st.dictionaries(st.text(max_size=3), kids, max_size=5)),
                    max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(_doc, st.sampled_from([None, 0, 2]))
def test_every_number_warning_points_at_its_number(doc, indent):
    """The walker that places warnings (arrays skipped item by item in C) names the pointer and
    the offset of every unsafe integer, wherever it sits."""
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    ws = parse(text).warnings
    expected = []

    def visit(v, ptr):
        if isinstance(v, dict):
            for k, c in v.items():
                visit(c, ptr + "/" + k.replace("~", "~0").replace("/", "~1"))
        elif isinstance(v, list):
            for i, c in enumerate(v):
                visit(c, f"{ptr}/{i}")
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53 - 1:
            expected.append((ptr, str(v)))

    visit(doc, "")
    assert [(w["pointer"], text[w["offset"]:w["offset"] + len(tok)]) for w, (_, tok) in zip(ws, expected)] == expected
    assert len(ws) == len(expected)
