"""The diff's options (workbench/diff/options.py), pinned where ``tests/mutation/run mutmut
diff-options`` found mutants no in-process test caught (issue 28): every option's name and
default, the forms a tolerance takes and its bounds on both sides, each refusal's code, field and
message, and the options as the answer echoes them.  (test_diff.py covers the options through
the real server, which a mutant in the test process cannot reach.)"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from workbench.diff import diff_values, handle
from workbench.diff.options import read_options, read_tolerance
from workbench.diff.presets import PROVIDER_FIELDS
from workbench.errors import WorkbenchError
from workbench.limits import DEFAULT_LIMITS


def refusal(call, *args) -> tuple:
    with pytest.raises(WorkbenchError) as e:
        call(*args)
    return e.value.code, e.value.status, e.value.field, e.value.message


# --------------------------------------------------------------------------- each option


def test_an_empty_body_gives_every_default():
    o = read_options({})
    assert (o.ignore_order, o.parse_strings, o.match_key, o.ignore_paths, o.preset,
            o.preset_keep, o.preset_fields, o.tolerance, o.engine) == \
        (False, True, None, [], None, [], [], None, "workbench")
    assert o.ignore() is None
    assert o.public() == {"ignore_order": False, "match_key": None, "ignore_paths": [],
                          "parse_strings": True, "engine": "workbench"}


def test_each_option_is_read_from_its_own_name():
    o = read_options({"ignore_order": True, "parse_strings": False, "match_key": "  call_id ",
                      "ignore_paths": ["$..id", "  ", " /a/b "], "engine": "deepdiff",
                      "tolerance": "2.5%"})
    assert (o.ignore_order, o.parse_strings, o.match_key, o.ignore_paths, o.engine) == \
        (True, False, "call_id", ["$..id", "/a/b"], "deepdiff")
    assert o.public() == {"ignore_order": True, "match_key": "call_id",
                          "ignore_paths": ["$..id", "/a/b"], "parse_strings": False,
                          "engine": "deepdiff",
                          "tolerance": {"absolute": None, "relative": "0.025"}}


def test_a_blank_match_key_is_none_and_patterns_may_be_lines():
    o = read_options({"match_key": "   ", "ignore_paths": "$..id\n\n  /x \n",
                      "preset_keep": "$..usage\n"})
    assert (o.match_key, o.ignore_paths, o.preset_keep) == (None, ["$..id", "/x"], ["$..usage"])


@pytest.mark.parametrize("engine", ["", None])
def test_an_empty_engine_is_the_workbench(engine):
    assert read_options({"engine": engine}).engine == "workbench"


@pytest.mark.parametrize("preset", ["", None, False, "none"])
def test_each_word_for_no_preset(preset):
    o = read_options({"preset": preset, "parse_strings": False})
    assert (o.preset, o.preset_fields, o.parse_strings) == (None, [], False)
    assert "preset" not in o.public()


def test_the_providers_preset_ignores_its_fields_but_those_kept_and_parses_strings():
    o = read_options({"preset": "providers", "preset_keep": [" $..usage "],
                      "parse_strings": False, "ignore_paths": ["/mine"]})
    assert o.preset == "providers" and o.parse_strings is True
    assert o.preset_keep == ["$..usage"]
    assert o.preset_fields == [p for p in PROVIDER_FIELDS if p[0] != "$..usage"]
    assert o.public()["preset"] == "providers" and o.public()["preset_keep"] == ["$..usage"]
    ignore = o.ignore()
    # the user's pattern first; only the preset's stay outside the JSON held by strings
    assert ignore.sources == ["/mine"] + [p for p, _ in o.preset_fields]
    assert ignore.outside == frozenset(range(1, len(ignore.sources)))


def test_a_preset_id_stays_outside_strings_a_users_reaches_in():
    left = {"id": "resp_1", "output": [{"type": "function_call", "name": "f",
                                        "arguments": json.dumps({"id": "A-1"})}]}
    right = {"id": "resp_2", "output": [{"type": "function_call", "name": "f",
                                         "arguments": json.dumps({"id": "A-2"})}]}
    body = {"left": json.dumps(left), "right": json.dumps(right), "view": False}
    by_preset = handle(dict(body, preset="providers"), DEFAULT_LIMITS)
    assert [c["pointer"] for c in by_preset["changes"]] == ["/output/0/arguments"]
    by_user = handle(dict(body, ignore_paths=["$..id"]), DEFAULT_LIMITS)
    assert by_user["equal"] is True and by_user["changes"] == []
    assert by_preset["options"]["preset"] == "providers"
    assert by_user["options"]["ignore_paths"] == ["$..id"]


@pytest.mark.parametrize("body, field, code, message", [
    ({"ignore_order": "yes"}, "ignore_order", "bad_type", "'ignore_order' must be true or false"),
    ({"parse_strings": 1}, "parse_strings", "bad_type", "'parse_strings' must be true or false"),
    ({"match_key": 5}, "match_key", "bad_type",
     "'match_key' must be a string (a member name such as call_id)"),
    ({"ignore_paths": 5}, "ignore_paths", "bad_type",
     "'ignore_paths' must be a list of strings (patterns such as $..id or /output/*/id)"),
    ({"ignore_paths": ["$..id", 1]}, "ignore_paths", "bad_type",
     "'ignore_paths' must be a list of strings (patterns such as $..id or /output/*/id)"),
    ({"preset_keep": {"a": 1}}, "preset_keep", "bad_type",
     "'preset_keep' must be a list of strings (patterns of the preset to compare after all, "
     "such as $..usage)"),
    ({"preset": "nope"}, "preset", "bad_value", "'preset' must be one of providers (not 'nope')"),
    ({"preset": 3}, "preset", "bad_value", "'preset' must be one of providers (not 3)"),
    ({"engine": "jd"}, "engine", "bad_value",
     "'engine' must be one of workbench, deepdiff (not 'jd')"),
])
def test_each_refused_option_names_its_field_code_and_rule(body, field, code, message):
    assert refusal(read_options, body) == (code, 400, field, message)


def test_diff_values_refuses_what_the_request_fields_would():
    # diff_values reads its options without the endpoint's field checks in front
    assert refusal(lambda: diff_values(1, 2, ignore_order="yes")) == \
        ("bad_type", 400, "ignore_order", "'ignore_order' must be true or false")
    assert refusal(lambda: diff_values([1], [2], match_key=["id"])) == \
        ("bad_type", 400, "match_key", "'match_key' must be a string (a member name such as call_id)")


# --------------------------------------------------------------------------- tolerance

@pytest.mark.parametrize("value", [None, "", 0])
def test_no_tolerance(value):
    assert read_tolerance(value) is None


@pytest.mark.parametrize("value, absolute, relative", [
    (1, "1", None),
    ("0", "0", None),
    (0.5, "0.5", None),
    (Decimal("0.01"), "0.01", None),
    (" 0.01 ", "0.01", None),
    ("1%", None, "0.01"),
    (" 2.5% ", None, "0.025"),
    ("1.234567890123456789012345678901%", None, "0.01234567890123456789012345678901"),
    ({"absolute": 0}, "0", None),
    ({"absolute": "0.01", "relative": 0.02}, "0.01", "0.02"),
    ({"relative": "0.5"}, None, "0.5"),
    # at the bounds: 100 characters, exponents ±1000
    ("0." + "0" * 97 + "1", "1E-98", None),
    ("1e1000", "1E+1000", None),
    ("1e-1000", "1E-1000", None),
])
def test_each_form_of_a_tolerance(value, absolute, relative):
    # exactly those digits, as the answer echoes them
    assert [None if x is None else str(x) for x in read_tolerance(value)] == [absolute, relative]


@pytest.mark.parametrize("value", [{}, {"absolute": None, "relative": None}])
def test_a_tolerance_object_of_nothing_is_no_tolerance(value):
    assert read_tolerance(value) is None


ABSURD = ("bad_value", 400, "tolerance",
          "'{}' must be a number of at most 100 characters between 1e-1000 and 1e1000")


@pytest.mark.parametrize("value, name, code, message", [
    (True, "tolerance", "bad_type", "'tolerance' must be a number"),
    ([1], "tolerance", "bad_type", "'tolerance' must be a number"),
    ("abc", "tolerance", "bad_type", "'tolerance' must be a number, not 'abc'"),
    ("x%", "tolerance", "bad_type", "'tolerance' must be a number, not 'x'"),
    (-1, "tolerance", "bad_value", "'tolerance' must be a number of 0 or more"),
    ("-0.5%", "tolerance", "bad_value", "'tolerance' must be a number of 0 or more"),
    ("Infinity", "tolerance", "bad_value", "'tolerance' must be a number of 0 or more"),
    ("NaN", "tolerance", "bad_value", "'tolerance' must be a number of 0 or more"),
    ({"absolute": "abc"}, "tolerance.absolute", "bad_type",
     "'tolerance.absolute' must be a number, not 'abc'"),
    ({"relative": -2}, "tolerance.relative", "bad_value",
     "'tolerance.relative' must be a number of 0 or more"),
    ({"absolute": False}, "tolerance.absolute", "bad_type", "'tolerance.absolute' must be a number"),
])
def test_each_refused_tolerance_says_why(value, name, code, message):
    assert refusal(read_tolerance, value) == (code, 400, "tolerance", message)


@pytest.mark.parametrize("value, name", [
    ("0." + "0" * 98 + "1", "tolerance"),          # 101 characters
    (10 ** 101, "tolerance"),
    (2 ** 401, "tolerance"),                      # refused before str() is asked for it
    (10 ** 5000, "tolerance"),                    # str() of it would be refused (4,300 digits)
    ("1e1001", "tolerance"),
    ("1e-1001%", "tolerance"),
    ({"absolute": "1e-1001"}, "tolerance.absolute"),
    ({"relative": "9" * 101}, "tolerance.relative"),
], ids=lambda v: repr(v)[:40] if not isinstance(v, int) or v.bit_length() < 9000 else "10**5000")
def test_an_absurd_tolerance_is_refused_with_its_bounds(value, name):
    code, status, field, message = ABSURD
    assert refusal(read_tolerance, value) == (code, status, field, message.format(name))


def test_a_tolerance_object_takes_only_its_two_members():
    assert refusal(read_tolerance, {"absolute": 1, "x": 2, "a": 3}) == \
        ("bad_value", 400, "tolerance", "'tolerance' takes 'absolute' and 'relative', not ['a', 'x']")


def test_the_answer_echoes_the_tolerance_it_used():
    r = handle({"left": "[1.00]", "right": "[1.5]", "view": False,
                "tolerance": {"absolute": "0.5", "relative": "0.1"}}, DEFAULT_LIMITS)
    assert r["options"]["tolerance"] == {"absolute": "0.5", "relative": "0.1"}
    assert r["equal"] is True
    r = handle({"left": "[1]", "right": "[2]", "view": False, "tolerance": 0.01}, DEFAULT_LIMITS)
    assert r["options"]["tolerance"] == {"absolute": "0.01", "relative": None}
    assert r["equal"] is False
