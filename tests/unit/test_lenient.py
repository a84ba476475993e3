"""JSONC / JSON5 / YAML → strict JSON (workbench.format.lenient), only when asked for."""

from __future__ import annotations

import json

import pytest

from workbench.errors import WorkbenchError
from workbench.format import handle
from workbench.format.lenient import count_json5, format_lenient, strip_jsonc
from workbench.limits import Limits


def fmt(text, kind, indent=2, sort_keys=False):
    return format_lenient(text, kind, indent, sort_keys, max_depth=500)


def changes(answer):
    return {c["code"]: c["count"] for c in answer["converted"]["changes"]}


JSONC = """// editor settings
{
  "editor.fontSize": 14, /* px */
  "ratio": 1.10,
  "big": 12345678901234567890123,
  "url": "http://example.invalid/a//b", // a '//' inside a string is not a comment
  "list": [1, 2, 3,],
  "ratio": 1.25,
}
"""


def test_jsonc_comments_and_trailing_commas_counted_numbers_exact():
    a = fmt(JSONC, "jsonc")
    assert changes(a) == {"comments": 3, "trailing_commas": 2}
    assert "comments removed: 3" in a["converted"]["summary"]
    assert "trailing commas removed: 2" in a["converted"]["summary"]
    out = a["formatted"]
    assert '"ratio": 1.25' in out and '"big": 12345678901234567890123' in out
    assert '"url": "http://example.invalid/a//b"' in out
    assert json.loads(out)["list"] == [1, 2, 3]
    dup = [w for w in a["warnings"] if w["code"] == "duplicate_key"]
    assert len(dup) == 1 and dup[0]["key"] == "ratio"
    # positions point into the text as pasted (comments were blanked, not removed)
    assert dup[0]["first"]["line"] == 4 and dup[0]["second"]["line"] == 8


def test_jsonc_keeps_offsets_so_errors_point_into_the_original():
    text = '{\n  // note\n  "a": 1,\n  "b": tru\n}'
    blank, counts = strip_jsonc(text)
    assert len(blank) == len(text) and blank.count("\n") == text.count("\n")
    with pytest.raises(WorkbenchError) as e:
        fmt(text, "jsonc")
    assert e.value.line == 4


def test_jsonc_with_nothing_to_change_says_so():
    a = fmt('{"a": 1.0}', "jsonc")
    assert a["converted"]["changes"] == []
    assert "already strict JSON" in a["converted"]["summary"]
    assert a["formatted"] == '{\n  "a": 1.0\n}'


JSON5 = """{
  // JSON5 from a config file
  unquoted: 'single \\'quoted\\'',
  hex: 0x1F,
  half: .5,
  whole: 5.,
  plus: +7,
  exact: 1.10,
  huge: 12345678901234567890123,
  tiny: 1e-400,
  list: [1, 2,],
  unquoted: "again",
}"""


def test_json5_numbers_exact_and_changes_counted():
    a = fmt(JSON5, "json5", indent=0)
    v = json.loads(a["formatted"], parse_float=str, parse_int=str)
    assert v["hex"] == "31" and v["half"] == "0.5" and v["whole"] == "5" and v["plus"] == "7"
    assert v["exact"] == "1.10" and v["huge"] == "12345678901234567890123" and v["tiny"] == "1e-400"
    assert v["unquoted"] == "again"
    c = changes(a)
    assert c["comments"] == 1 and c["trailing_commas"] == 2 and c["single_quotes"] == 1
    assert c["unquoted_keys"] == 10 and c["numbers"] == 4
    assert [w["key"] for w in a["warnings"] if w["code"] == "duplicate_key"] == ["unquoted"]
    assert a["warnings"][0]["pointer"] == ""


def test_json5_nested_duplicate_has_its_pointer():
    a = fmt("{a: [{k: 1, k: 2}]}", "json5")
    (w,) = a["warnings"]
    assert w["pointer"] == "/a/0" and w["key"] == "k"
    assert json.loads(a["formatted"]) == {"a": [{"k": 2}]}


def test_json5_infinity_and_errors_are_placed():
    with pytest.raises(WorkbenchError) as e:
        fmt("{a: Infinity}", "json5")
    assert e.value.code == "not_json" and e.value.line == 1 and e.value.column == 5
    with pytest.raises(WorkbenchError) as e:
        fmt("{a: 1,\n b: @}", "json5")
    assert e.value.code == "parse_error" and e.value.line == 2
    assert count_json5("[1, 2]") == {"comments": 0, "trailing_commas": 0, "single_quotes": 0,
                                     "unquoted_keys": 0, "numbers": 0}


YAML = """# a tool call, as YAML
type: function_call
call_id: call_3c91
temperature: 1.10
big: 12345678901234567890123
octal: 0o17
when: 2026-12-01
args: &a {x: 1}
again: *a
type: message
"""


def test_yaml_numbers_keep_their_text_and_duplicates_have_positions():
    a = fmt(YAML, "yaml", indent=0)
    v = json.loads(a["formatted"], parse_float=str, parse_int=str)
    assert v["temperature"] == "1.10" and v["big"] == "12345678901234567890123" and v["octal"] == "15"
    assert v["when"] == "2026-12-01" and v["again"] == {"x": "1"} and v["type"] == "message"
    (w,) = a["warnings"]
    assert w["key"] == "type" and w["first"]["line"] == 2 and w["second"]["line"] == 10
    c = changes(a)
    # every rewrite is said (issue 21 row 9): 0o17 became 15
    assert c == {"aliases": 1, "kept_as_strings": 1, "comments": 1, "numbers": 1}
    assert a["converted"]["summary"].startswith("converted from YAML")


def test_yaml_refusals():
    with pytest.raises(WorkbenchError) as e:
        fmt("a: .inf\n", "yaml")
    assert e.value.code == "not_json" and e.value.line == 1
    with pytest.raises(WorkbenchError) as e:
        fmt("a: 1\n---\nb: 2\n", "yaml")
    assert e.value.code == "not_one_document"
    with pytest.raises(WorkbenchError) as e:
        fmt("a: [1, 2\n", "yaml")
    assert e.value.code == "parse_error" and e.value.line


def test_the_api_field_and_strict_by_default():
    limits = Limits()
    with pytest.raises(WorkbenchError) as e:   # strict mode never reads comments
        handle({"text": "{// c\n}"}, limits)
    assert e.value.code == "parse_error"
    a = handle({"text": "{// c\n}", "input": "jsonc"}, limits)
    assert a["formatted"] == "{}" and a["input"] == "jsonc"
    with pytest.raises(WorkbenchError) as e:
        handle({"text": "{}", "input": "toml"}, limits)
    assert e.value.status == 400 and e.value.field == "input"
