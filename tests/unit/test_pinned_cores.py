"""The rule cores' small functions, pinned where tests/mutation/run mutmut found a mutant that
no test caught (issue 28): each test names the rule it holds.  The big behaviours are pinned in
test_pinned_rules.py; these are the edges around them."""

from __future__ import annotations

import pytest

from workbench.errors import WorkbenchError
from workbench.jsontext import parse
from workbench.jsontext.pointer import (
    escape_token,
    normalized_path,
    pointer_of,
    split_pointer,
    unescape_token,
)

# --------------------------------------------------------------------------- jsontext/pointer.py


@pytest.mark.parametrize("name, token", [("a/b", "a~1b"), ("m~n", "m~0n"), ("~1", "~01"),
                                         ("/~", "~1~0"), ("", ""), ("plain", "plain")])
def test_pointer_tokens_escape_and_unescape_per_rfc_6901(name, token):
    assert escape_token(name) == token
    assert unescape_token(token) == name
    assert split_pointer("/" + token + "/0") == [name, "0"]
    assert pointer_of([name, 0]) == "/" + token + "/0"


def test_split_pointer_refuses_a_pointer_without_its_slash():
    assert split_pointer("") == []
    assert split_pointer("/") == [""]
    with pytest.raises(ValueError, match="JSON Pointer must start with '/': 'a/b'"):
        split_pointer("a/b")


@pytest.mark.parametrize("parts, pointer, path", [
    ([], "", "$"),
    ([0, "a", 12], "/0/a/12", "$[0]['a'][12]"),
    (["0", 0], "/0/0", "$['0'][0]"),                 # a member named "0" is a name, not an index
    (["a'b", "c\\d"], "/a'b/c\\d", "$['a\\'b']['c\\\\d']"),
    (["x/y~z"], "/x~1y~0z", "$['x/y~z']"),
])
def test_pointer_and_normalized_path_of_the_same_parts(parts, pointer, path):
    for _ in range(2):  # the second time from the remembered tokens
        assert pointer_of(parts) == pointer
        assert normalized_path(parts) == path



def test_names_are_remembered_once_and_at_most_100000():
    """pointer.py's promise: each name is escaped once and remembered, in a bounded memo (Extract
    writes a pointer and a path for up to a million rows)."""
    from workbench.jsontext import pointer
    for memo, write in ((pointer._TOKENS, pointer_of), (pointer._SEGMENTS, normalized_path)):
        memo.clear()
        write(["a/b", 3])
        assert memo == {"a/b": "/a~1b"} if memo is pointer._TOKENS else memo == {"a/b": "['a/b']"}
        for i in range(100_005):
            write([f"n{i}"])
        assert len(memo) == 100_000
        assert write(["n100004"]) == ("/n100004" if memo is pointer._TOKENS else "$['n100004']")
        memo.clear()

# --------------------------------------------------------------------------- jsontext/warnings.py

READERS = ("readers differ — Python's json, JavaScript's JSON.parse, Go's encoding/json and jq "
           "keep the last value; some parsers keep the first (Go's buger/jsonparser, for one) and "
           "strict ones refuse the document (serde_json into a struct)")


def at(offset, line=1):
    return {"line": line, "column": offset + 1, "offset": offset}


MIXED = '{"é": 1, "\\u00e9": 2, "\\u0062": 3, "b": [1e309, "\\ud800"], "k": {"x": 1, "x": 2}}'


@pytest.mark.parametrize("kept", [False, True])
def test_every_warning_of_a_mixed_document_exactly(kept):
    """A key written raw and escaped, a key found only by its escape, a number a float64 reader
    changes, a lone surrogate, a nested duplicate: each at its place, in document order."""
    note = " (both members are kept here, in place)" if kept else ""
    got = parse(MIXED, keep_duplicates=kept).warnings
    assert got == [
        {"code": "duplicate_key", "message": f'Duplicate key "é"{note}: {READERS}', "pointer": "",
         "key": "é", **at(9), "first": at(1), "second": at(9)},
        {"code": "duplicate_key", "message": f'Duplicate key "b"{note}: {READERS}', "pointer": "",
         "key": "b", **at(35), "first": at(22), "second": at(35)},
        {"code": "float_overflow", "message": "The number 1e309 is beyond the float64 range "
         "(about ±1.8e308): JavaScript's JSON.parse and Python's float read it as Infinity, Go's "
         "encoding/json refuses it", "pointer": "/b/0", **at(41)},
        {"code": "lone_surrogate", "message": "The string holds the lone surrogate \\ud800: it is "
         "not a character and many tools reject or replace it", "pointer": "/b/1", **at(48)},
        {"code": "duplicate_key", "message": f'Duplicate key "x"{note}: {READERS}',
         "pointer": "/k", "key": "x", **at(73), "first": at(65), "second": at(73)},
    ]


@pytest.mark.parametrize("token, code, message", [
    ("-1e309", "float_overflow", "The number -1e309 is beyond the float64 range (about ±1.8e308): "
     "JavaScript's JSON.parse and Python's float read it as -Infinity, Go's encoding/json refuses it"),
    ("1e-400", "float_underflow", "The number 1e-400 is closer to 0 than the smallest float64 "
     "(about 5e-324): JavaScript, Python's float and other float64 readers read it as 0"),
    ("-1e-400", "float_underflow", "The number -1e-400 is closer to 0 than the smallest float64 "
     "(about 5e-324): JavaScript, Python's float and other float64 readers read it as 0"),
    ("0.1000000000000000055511151231257827", "float_precision",
     "The number 0.1000000000000000055511151231257827 has more precision than a float64 holds: "
     "JavaScript, Python's float and other float64 readers read it as 0.1"),
    ("9007199254740992", "unsafe_integer", "The integer 9007199254740992 is beyond ±(2^53−1): "
     "JavaScript and many JSON tools will round it"),
    ("-9007199254740992", "unsafe_integer", "The integer -9007199254740992 is beyond ±(2^53−1): "
     "JavaScript and many JSON tools will round it"),
    ("1" * 39, "unsafe_integer", f"The integer {'1' * 39} is beyond ±(2^53−1): JavaScript and "
     "many JSON tools will round it"),                               # 39 characters: shown whole
    ("1" * 40, "unsafe_integer", f"The integer {'1' * 37}… is beyond ±(2^53−1): JavaScript and "
     "many JSON tools will round it"),                               # 40: cut to 37 and …
    ("1" * 4001, "unsafe_integer", f"The integer {'1' * 37}… is beyond ±(2^53−1): JavaScript "
     "and many JSON tools will round it"),                           # beyond int() digits
    ("1" * 38 + ".5e0", "float_precision", None),
    ("1" * 39 + ".5", "float_precision", f"The number {'1' * 37}… has more precision than a "
     "float64 holds: JavaScript, Python's float and other float64 readers read it as "
     f"{float('1' * 39 + '.5')!r}"),
])
def test_each_number_warning_exactly(token, code, message):
    (w,) = parse(f'[0, {token}]').warnings
    assert (w["code"], w["pointer"], w["line"], w["column"], w["offset"]) == (code, "/1", 1, 5, 4)
    if message is not None:
        assert w["message"] == message


@pytest.mark.parametrize("token", ["9007199254740991", "-9007199254740991", "1234567890123456e-2",
                                   "0.1", "1E-7", "2.50e+3", "5e-324", "0e999", "0.0e-5",
                                   "1.7976931348623157e308", "100000000000000000000000e-8"])
def test_numbers_a_float64_reader_keeps_are_no_warning(token):
    assert parse(f"[{token}]").warnings == []


@pytest.mark.parametrize("token, shown", [("1" * 37 + ".5", "1" * 37 + ".5"),      # 39: whole
                                          ("1" * 38 + ".5", "1" * 37 + "…")])      # 40: cut
def test_a_long_number_is_shown_cut_at_40_characters(token, shown):
    (w,) = parse(f"[{token}]").warnings
    assert w["message"].startswith(f"The number {shown} has more precision")


def test_every_occurrence_of_the_same_number_is_a_warning():
    text = '[9007199254740993, {"a": 9007199254740993}, 1e999, [1e999]]'
    got = [(w["code"], w["pointer"], w["offset"]) for w in parse(text).warnings]
    assert got == [("unsafe_integer", "/0", 1), ("unsafe_integer", "/1/a", 25),
                   ("float_overflow", "/2", 44), ("float_overflow", "/3/0", 52)]


def test_a_duplicate_key_written_only_with_escapes_is_found_by_the_full_walk():
    (w,) = parse('{"\\u0061": 1, "\\u0061": 2}').warnings
    assert (w["code"], w["key"], w["first"], w["second"]) == ("duplicate_key", "a", at(1), at(14))


def test_a_string_holding_a_pair_and_a_private_use_character_is_no_warning():
    # visited for its escapes; U+E000 right after the surrogate range is a character
    assert parse('["\\ud83d\\ude00\ue000\\ue000"]').warnings == []


def test_too_deep_to_place_says_what_was_found_without_places(monkeypatch):
    """A caller that checks depth later may hand over a tree the walker cannot descend: the
    warnings are named, without places (never a crash)."""
    from workbench.jsontext import warnings as w
    from workbench.jsontext.positions import LineIndex

    def deep(*_a, **_k):
        raise RecursionError
    monkeypatch.setattr(w, "walk", deep)
    msg = ("The document nests too deeply to place its warnings (duplicate keys, lone "
           "surrogates or unsafe integers)")
    for text, dups, ints, code in [('{"a":1,"a":2}', ["a"], [], "duplicate_key"),
                                   ("[12345678901234567890]", [], ["12345678901234567890"],
                                    "unsafe_integer"),
                                   ('["\\ud800"]', [], [], "lone_surrogate")]:
        assert w.find_warnings(text, dups, ints, LineIndex(text)) == \
            [{"code": code, "pointer": "", "message": msg}]


@pytest.mark.parametrize("n", [2, 3])
def test_each_container_holding_the_same_number_is_walked(n):
    got = [(w["code"], w["pointer"]) for w in
           parse("[" + ", ".join(["[9007199254740993]"] * n) + "]").warnings]
    assert got == [("unsafe_integer", f"/{i}/0") for i in range(n)]


def test_the_full_walk_still_places_every_other_warning():
    # the duplicate sits in a container no spelling of its key leads to: the walk over every
    # object finds it, and must still reach the surrogate's and the numbers' containers
    text = ('[{"x": 1}, {"\\u0061": 1, "\\u0061": 2}, ["\\ud800"], [9007199254740993], '
            '[1e999]]')
    got = [(w["code"], w["pointer"], w["offset"]) for w in parse(text).warnings]
    assert got == [("duplicate_key", "/1", 25), ("lone_surrogate", "/2/0", 40),
                   ("unsafe_integer", "/3/0", 52), ("float_overflow", "/4/0", 72)]


def test_strings_after_the_last_surrogate_are_walked_safely():
    text = '{"a": "\\ud800", "b": "q", "b": 1}'
    got = [(w["code"], w["pointer"], w["offset"]) for w in parse(text).warnings]
    assert got == [("lone_surrogate", "/a", 6), ("duplicate_key", "", 26)]


# --------------------------------------------------------------------------- gate/rules.py, engine.py

import json  # noqa: E402

from workbench.gallery.agents import EXAMPLE_ACTION, LOOKUP_ORDER, PASSING_ACTION  # noqa: E402
from workbench.gate import AGENTS_RULES, RULES, gate  # noqa: E402

OPEN_CHECKS = ["format"] * 6 + ["schema"] * 2 + ["diff", None]
AGENTS_CHECKS = ["format"] * 5 + ["schema"] * 2 + ["diff", None]   # not_pending: agents-rules.md


@pytest.mark.parametrize("rules, codes, checks, full", [
    (RULES, ["namespaced", "not_function_call", "status", "missing_fields", "arguments_type",
             "arguments_parse", "unknown_tool", "arguments_schema", "replay_mismatch", "ok"],
     OPEN_CHECKS, True),
    (AGENTS_RULES, ["namespaced", "not_function_call", "not_pending", "missing_fields",
                    "arguments_type",
                    "unknown_tool", "arguments_schema", "replay_mismatch", "ok"],
     AGENTS_CHECKS, False),
])
def test_the_rule_tables_in_their_order_and_steps(rules, codes, checks, full):
    assert [r["code"] for r in rules] == codes
    assert [r["number"] for r in rules] == list(range(1, len(codes) + 1))
    assert [r["check"] for r in rules] == checks
    for r in rules:
        assert set(r) == {"number", "code", "check", "text", "plain"} | ({"full"} if full else set())
        assert len(r["text"]) > 20 and len(r["plain"]) > 20
        assert not full or (len(r["full"]) > 20 and r["full"] != r["plain"])


@pytest.mark.parametrize("item, schema, rule", [
    (PASSING_ACTION, LOOKUP_ORDER, {"number": 9, "code": "ok", "check": None,
                                    "text": "Every check passed: run the tool, then send a "
                                            "tool_result with the same pair."}),
    (EXAMPLE_ACTION, LOOKUP_ORDER, {"number": 7, "code": "arguments_schema", "check": "schema",
                                    "text": "The host validates the arguments again with the "
                                            "tool's parameters schema (door 2)."}),
    ({"type": "function_call", "id": "fc_1", "call_id": "c", "name": "n", "arguments": "{}",
      "status": "in_progress"}, None,
     {"number": 3, "code": "status", "check": "format", "text": "status must be exactly completed."}),
    ({"type": "function_call", "id": "fc_1", "call_id": "c", "name": "n", "arguments": "{}",
      "status": "completed"}, None,
     {"number": 10, "code": "ok", "check": None,
      "text": "Everything above passed: run the tool, then answer with the same call_id."}),
])
def test_the_answer_names_its_rule_exactly(item, schema, rule):
    r = gate(json.dumps(item), None if schema is None else json.dumps(schema))
    assert r["rule"] == rule


from test_pinned_rules import diff_step  # noqa: E402

from workbench.gate import Gate, gate_value  # noqa: E402
from workbench.gate.rules import program_caller, program_waiting  # noqa: E402
from workbench.limits import Limits  # noqa: E402

FC = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
      "arguments": '{"city":"Lyon"}', "status": "completed"}


def test_from_values_keeps_its_limits_and_its_original():
    deep = dict(FC, arguments=json.dumps({"a": {"b": {"c": 1}}}))
    assert Gate.from_values(None, limits=Limits(max_depth=2)).verdict(deep) == "arguments_parse"
    assert Gate.from_values(None).verdict(deep) == "ok"
    assert Gate.from_values(None, None).verdict(FC) == "ok"          # None: no original
    assert Gate.from_values(None, FC).verdict(FC) == "ok"            # the same call
    assert Gate.from_values(None, dict(FC, call_id="call_2")).verdict(FC) == "replay_mismatch"
    g = Gate.from_values(None)
    assert g.with_original(FC).verdict(FC) == "ok"
    assert g.with_original(dict(FC, name="other")).verdict(FC) == "replay_mismatch"


@pytest.mark.parametrize("original", ["5", '"arguments"', "null", "[1, 2, 3]"])
def test_an_original_that_is_not_an_item_blocks_as_the_whole_item(original):
    r = gate(json.dumps(FC), None, original)
    assert r["verdict"] == "replay_mismatch"
    first = diff_step(r)["differences"][0]
    assert (first["field"], first["pointer"], first["blocking"]) == ("", "", True)
    assert first["note"].startswith("the original is ") and first["note"].endswith(", not an item")
    r = gate(json.dumps(PASSING_ACTION), None, original)
    assert r["verdict"] == "replay_mismatch"
    assert "(the whole item)" in r["tool_result"]["error"]


def test_a_pin_missing_from_the_original_is_named():
    r = gate(json.dumps(FC), None, json.dumps({k: v for k, v in FC.items() if k != "call_id"}))
    assert diff_step(r)["blocking"] == ["call_id"]


def test_turn_id_pins_only_the_agents_dialect():
    item = dict(FC, turn_id="turn_1")
    other = dict(item, turn_id="turn_2")
    assert gate_value(item, None, other, dialect="open_responses")["verdict"] == "ok"
    r = gate_value(dict(PASSING_ACTION), None, dict(PASSING_ACTION, turn_id="turn_9"))
    assert r["verdict"] == "replay_mismatch"


def test_report_and_run_read_an_item_in_its_own_dialect_by_default():
    assert Gate().report(FC)["dialect"] == "open_responses"
    assert Gate().report(PASSING_ACTION)["dialect"] == "agents_api"
    assert Gate().run(json.dumps(FC))["verdict"] == "ok"
    assert Gate().run(json.dumps(PASSING_ACTION))["dialect"] == "agents_api"
    response = {"object": "response", "status": "completed", "output": [FC]}
    assert Gate().run(json.dumps(response))["envelope"] is not None
    assert Gate().run(json.dumps(response), envelope=False).get("envelope") is None


def test_an_original_whose_arguments_do_not_parse_is_another_call():
    r = gate(json.dumps(FC), None, json.dumps(dict(FC, arguments='{"city": "Lyon"')))
    assert r["verdict"] == "replay_mismatch"
    assert diff_step(r)["blocking"] == ["arguments"]


def test_a_tool_without_parameters_takes_any_object():
    item = dict(FC, name="ping", arguments='{"x": 1}')
    assert gate(json.dumps(item), json.dumps({"type": "function", "name": "ping"}))["verdict"] == "ok"


def test_the_gate_keeps_the_tools_as_read_with_their_warnings_and_places():
    assert (Gate().schema_warnings, Gate().schema_value, Gate("  ").schema_text) == ([], None, None)
    text = '{"type": "function", "name": "f", "a": 1, "a": 2, "parameters": {"type": "object"}}'
    g = Gate(text)
    assert g.schema_text == text and g.schema_value["name"] == "f"
    assert [w["code"] for w in g.schema_warnings] == ["duplicate_key"]
    twice = ('[\n {"type": "function", "name": "f", "parameters": {"type": "object"}},\n'
             ' {"type": "function", "name": "f", "parameters": {"type": "object"}}\n]')
    with pytest.raises(WorkbenchError) as e:
        Gate(twice)
    assert e.value.code == "schema_invalid"
    assert [(p["pointer"], p["line"], p["column"]) for p in e.value.extra["places"]] == \
        [("/0", 2, 2), ("/1", 3, 2)]


# --------------------------------------------------------------------------- transcript/report.py

def _levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _apply(left: str, diff: list[dict]) -> str:
    """``left`` with each entry of an edit_diff applied: what the id written becomes."""
    out, k = [], 0
    for i in range(len(left) + 1):
        while k < len(diff) and diff[k]["at"] == i and diff[k]["left"] == "":
            out.append(diff[k]["right"])       # inserted before left[i]
            k += 1
        if i == len(left):
            break
        if k < len(diff) and diff[k]["at"] == i:
            assert diff[k]["left"] == left[i]
            out.append(diff[k]["right"])       # substituted, or "" when deleted
            k += 1
        else:
            out.append(left[i])
    assert k == len(diff)
    return "".join(out)


def _words(n: int, alphabet: str = "ab") -> list[str]:
    out = [""]
    for _ in range(n):
        out += [w + c for w in out if len(w) == len(out[-1]) for c in alphabet]
    return sorted(set(out), key=lambda w: (len(w), w))


@pytest.mark.parametrize("limit", [0, 1, 2, 3])
def test_edit_diff_is_a_shortest_edit_within_the_limit_for_every_short_pair(limit):
    from workbench.transcript.report import edit_diff
    words = sorted(set(_words(4)) | set(_words(3, "abc")), key=lambda w: (len(w), w))
    assert len(words) == 31 + 40 - 15     # the "ab" words of up to 3 letters are in both
    for left in words:
        for right in words:
            distance = _levenshtein(left, right)
            d = edit_diff(left, right, limit)
            if distance > limit:
                assert d is None, (left, right, limit)
                continue
            assert d is not None and len(d) == distance, (left, right, limit, d)
            assert _apply(left, d) == right, (left, right, d)
            assert [e["at"] for e in d] == sorted(e["at"] for e in d)


def test_edit_diff_of_longer_ids_at_the_default_limit():
    from workbench.transcript.report import edit_diff
    assert edit_diff("call_3c9l", "call_3c91") == [{"at": 8, "left": "l", "right": "1"}]
    assert edit_diff("call_ab", "call_ba") == [{"at": 5, "left": "a", "right": "b"},
                                              {"at": 6, "left": "b", "right": "a"}]
    assert edit_diff("xcall_1", "call_12") == [{"at": 0, "left": "x", "right": ""},
                                              {"at": 7, "left": "", "right": "2"}]
    assert edit_diff("call_abc", "call_xyz") is None          # three edits
    assert edit_diff("call_1", "call_1234") is None           # three longer
    assert edit_diff("c" * 40 + "x", "c" * 40 + "y") == [{"at": 40, "left": "x", "right": "y"}]


def test_show_diff_in_words():
    from workbench.transcript.report import show_diff
    assert show_diff([{"at": 8, "left": "l", "right": "1"}]) == "'l' for '1' at 8"
    assert show_diff([{"at": 0, "left": "x", "right": ""},
                      {"at": 7, "left": "", "right": "2"}]) == \
        "an extra 'x' at 0, a missing '2' at 7"
    assert show_diff([]) == ""


def test_findings_past_the_cap_are_counted_not_listed():
    import json

    from workbench.limits import DEFAULT_LIMITS
    from workbench.transcript import analyse
    limits = DEFAULT_LIMITS.with_(max_errors=100)
    items = [{"type": "message", "role": "user", "content": "x"}] + \
        [{"type": "function_call_output", "call_id": f"call_{i}", "output": "o"}
         for i in range(102)]
    r = analyse(json.dumps(items, indent=1), limits=limits)
    assert [f["pointer"] for f in r["findings"]] == [f"/{i}/call_id" for i in range(1, 101)]
    assert (r["truncated"]["findings"], r["summary"]["errors"]) == (2, 102)
    # the first 100 exactly fit: nothing left off
    r = analyse(json.dumps(items[:101], indent=1), limits=limits)
    assert (len(r["findings"]), r["truncated"]["findings"], r["summary"]["errors"]) == (100, 0, 100)
    assert [(f["line"], f["column"]) for f in r["findings"][:2]] == [(9, 14), (14, 14)]


# --------------------------------------------------------------------------- gate/agents.py

AGENT_SCHEMA = {"type": "object", "required": ["order_id"], "additionalProperties": False,
                "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]-\\d{4}$"},
                               "kind": {"enum": ["a", "b", 1]}, "n": {"type": ["integer", "null"]},
                               "c": {"const": {"x": 1}}, "m": {"minimum": 3},
                               "a/b~": {"type": "string"}, "l": {"items": [{"type": "string"}]}}}


@pytest.mark.parametrize("failure, sentence", [
    ({"path": "/extra", "reason": "additionalProperties"},
     "extra is not allowed (additionalProperties: false)"),
    ({"path": "/order_id", "reason": "required"}, "order_id is required but missing"),
    ({"path": "", "reason": "type", "schema_path": "/type"}, "the arguments failed schema: expected object"),
    ({"path": "/order_id", "reason": "pattern", "schema_path": "/properties/order_id/pattern"},
     "order_id failed schema: expected ^[A-Z]-\\d{4}$"),
    ({"path": "/kind", "reason": "enum", "schema_path": "/properties/kind/enum"},
     'kind failed schema: expected one of "a", "b", 1'),
    ({"path": "/n", "reason": "type", "schema_path": "/properties/n/type"},
     "n failed schema: expected integer or null"),
    ({"path": "/order_id", "reason": "type", "schema_path": "/properties/order_id/type"},
     "order_id failed schema: expected string"),
    ({"path": "/c", "reason": "const", "schema_path": "/properties/c/const"},
     'c failed schema: expected {"x":1}'),
    ({"path": "/m", "reason": "minimum", "schema_path": "/properties/m/minimum"},
     "m failed schema: expected minimum 3"),
    # the schema path names nothing: the validator's message instead
    ({"path": "/m", "reason": "minimum", "schema_path": "/properties/zz/minimum",
      "message": "2 is less than the minimum 3"}, "m failed schema (minimum): 2 is less than the minimum 3"),
    ({"path": "/m", "reason": "minimum", "schema_path": "/properties/zz/minimum"},
     "m failed schema (minimum)"),
    # pointer tokens unescaped; array indexes followed, and past the end nothing
    ({"path": "/a~1b~0", "reason": "type", "schema_path": "/properties/a~1b~0/type"},
     "a/b~ failed schema: expected string"),
    ({"path": "/l/0", "reason": "type", "schema_path": "/properties/l/items/0/type"},
     "l/0 failed schema: expected string"),
    ({"path": "/l/0", "reason": "type", "schema_path": "/properties/l/items/1/type", "message": "m"},
     "l/0 failed schema (type): m"),
    ({"path": "/l/0", "reason": "type", "schema_path": "/properties/l/items/x/type", "message": "m"},
     "l/0 failed schema (type): m"),
    # a keyword value of another shape than its reason expects: the generic sentence
    ({"path": "/x", "reason": "pattern", "schema_path": "/properties/kind/enum"},
     'x failed schema: expected pattern ["a","b",1]'),
    ({"path": "/x", "reason": "enum", "schema_path": "/properties/order_id/pattern"},
     'x failed schema: expected enum "^[A-Z]-\\\\d{4}$"'),
])
def test_each_failure_in_one_sentence(failure, sentence):
    from workbench.gate.agents import failure_sentence
    assert failure_sentence(failure, AGENT_SCHEMA) == sentence


def test_failures_without_a_schema():
    from workbench.gate.agents import failure_sentence
    assert failure_sentence({"path": "", "reason": "type", "message": "Expected object, got array"},
                            None) == "the arguments are not an object (Expected object, got array)"
    assert failure_sentence({"path": "", "reason": "type"}, None) == "the arguments are not an object"
    assert failure_sentence({"path": "/x", "reason": "pattern", "message": "mm"}, None) == \
        "x failed schema (pattern): mm"
    assert failure_sentence({"path": "/x", "reason": "required"}, None) == "x is required but missing"


SEND_INSTEAD = ("Send this instead of running the tool: success false, the error names what failed, "
                "so the model can correct it. Do not retry in a new session and do not repair the value.")


@pytest.mark.parametrize("change, original, verdict, error", [
    ({"name": "nope"}, None, "unknown_tool",
     "nope is not a tool of this agent (the tools are: lookup_order); the action was not executed"),
    ({"arguments": "[1]"}, None, "arguments_type",
     "arguments must be a JSON object, not a string; the action was not executed"),
    ({"name": ""}, None, "missing_fields", "name is missing or empty; the action was not executed"),
    ({"call_id": "call_x"}, PASSING_ACTION, "replay_mismatch",
     "the action differs from the original (call_id); the action was not executed"),
    ({"arguments": {"order_id": "A-10", "refund": 1}}, None, "arguments_schema",
     "include_lines is required but missing; order_id failed schema: expected ^[A-Z]-\\d{4}$; "
     "refund is not allowed (additionalProperties: false)"),
])
def test_each_refusal_answers_a_failed_tool_result_naming_it(change, original, verdict, error):
    r = gate(json.dumps(dict(PASSING_ACTION, **change)), json.dumps(LOOKUP_ORDER),
             json.dumps(original) if original is not None else None)
    assert (r["verdict"], r["execute"]) == (verdict, False)
    assert r["tool_result"] == {"type": "agent.session.input.tool_result", "turn_id": "turn_2",
                                "call_id": change.get("call_id", "call_3c91"), "success": False,
                                "error": error}
    assert r["tool_result_note"] == SEND_INSTEAD and r.get("output_note") is None


def test_an_unknown_tool_without_any_tools_names_none():
    from workbench.gate.agents import _error
    g = Gate()
    assert _error(g, {"name": "f"}, "unknown_tool", {}, None, {}) == \
        "f is not a tool of this agent (the tools are: none); the action was not executed"


@pytest.mark.parametrize("change, lacks", [({"turn_id": ""}, "turn_id"), ({"call_id": None}, "call_id"),
                                           ({"turn_id": 5}, "turn_id"), ({"call_id": ""}, "call_id")])
def test_no_tool_result_without_the_pair_to_copy(change, lacks):
    r = gate(json.dumps(dict(PASSING_ACTION, **change)), json.dumps(LOOKUP_ORDER))
    assert r["verdict"] == "missing_fields" and r["tool_result"] is None
    assert r["tool_result_note"] == ("No tool_result can be sent: it copies the action's turn_id and "
                                     f"call_id exactly, and this action lacks {lacks}.")


def test_an_ok_action_answers_success_with_the_placeholder():
    from workbench.gate.agents import OUTPUT_NOTE, PLACEHOLDER
    r = gate(json.dumps(PASSING_ACTION), json.dumps(LOOKUP_ORDER))
    assert r["tool_result"] == {"type": "agent.session.input.tool_result", "turn_id": "turn_2",
                                "call_id": "call_3c91", "success": True, "output": PLACEHOLDER}
    assert r["output_note"] == OUTPUT_NOTE and r.get("tool_result_note") is None
    assert r["report"] == {"check": "lookup_order", "schema": "parameters",
                           "pass": ["order_id", "include_lines"], "fail": [], "execute": True}


def _transcript(value) -> dict:
    import json

    from workbench.transcript import analyse
    return analyse(value if isinstance(value, str) else json.dumps(value, indent=1))


def _tcall(cid):
    return {"type": "function_call", "id": "fc_" + cid, "call_id": cid, "name": "f",
            "arguments": "{}", "status": "completed"}


def _tout(cid):
    return {"type": "function_call_output", "call_id": cid, "output": "o"}


USER_MSG = {"type": "message", "role": "user", "content": "x"}


def test_the_counts_start_at_zero_and_count_each_severity_once():
    r = _transcript([USER_MSG, _tcall("c1"), _tout("c1")])
    assert r["findings"] == []
    assert {k: r["summary"][k] for k in ("errors", "warnings", "infos")} == \
        {"errors": 0, "warnings": 0, "infos": 0}
    r = _transcript([USER_MSG, _tcall("c1")])          # the last call, pending: one info
    assert [f["code"] for f in r["findings"]] == ["pending_call"]
    assert {k: r["summary"][k] for k in ("errors", "warnings", "infos")} == \
        {"errors": 0, "warnings": 0, "infos": 1}


def test_a_finding_given_its_other_severity_is_counted_under_it():
    # history_incomplete_executed is an error, and a warning while the call is in_progress
    r = _transcript([USER_MSG, dict(_tcall("c1"), status="in_progress"), _tout("c1")])
    f = [f for f in r["findings"] if f["code"] == "history_incomplete_executed"]
    assert [x["severity"] for x in f] == ["warning"]
    assert (r["summary"]["errors"], r["summary"]["warnings"]) == (0, 1)


def test_related_places_are_placed_exactly():
    r = _transcript([USER_MSG, _tcall("c1"), _tout("c1"), _tout("c1")])
    f, = r["findings"]
    assert (f["code"], f["pointer"], f["line"], f["column"]) == ("duplicate_output", "/3/call_id", 22, 14)
    # the first output is wanted by this finding only: placed at its own line, not the text's start
    assert f["related"] == [{"role": "call", "call_id": "c1", "pointer": "/1", "line": 7, "column": 2},
                            {"role": "first", "call_id": "c1", "pointer": "/2", "line": 15, "column": 2}]
    assert "event" not in f           # one JSON document: findings name no event


def test_a_bad_line_is_placed_at_its_line_and_column_with_its_text():
    r = _transcript('{"type":"response.created","sequence_number":0,"response":{"id":"r",'
                    '"status":"in_progress","output":[]}}\n{"type": x}\n')
    f, = [f for f in r["findings"] if f["code"] == "stream_bad_line"]
    assert (f["pointer"], f["line"], f["column"], f["text"]) == ("", 2, 10, '{"type": x}')
    assert f["message"].startswith("Line 2 is neither an SSE field nor JSON (Unexpected word 'x'")
    assert "event" not in f


def test_report_places_without_a_piece():
    from workbench.limits import DEFAULT_LIMITS
    from workbench.runtime.deadline import Deadline
    from workbench.transcript.read import Places, read
    from workbench.transcript.report import Place, Report
    src = read('{"a": [1, 2]}', DEFAULT_LIMITS, Deadline(None))
    report = Report(Places(src), 100)
    none = report.add("bom", "no place", None)
    bare = report.add("stream_bad_line", "a bare line", Place(None, "/x", 3, None))
    placed = report.add("unrecognised_shape", "a value", Place(src.pieces[0], "/a/1"),
                        related=[None, ("first", Place(src.pieces[0], "/a/0"))])
    assert report.index_of(None) is None
    found = report.finish()
    assert [(f["message"], f["pointer"], f["line"], f["column"]) for f in found] == \
        [("no place", "", 1, 1), ("a value", "/a/1", 1, 11), ("a bare line", "/x", 3, 1)]
    assert placed["related"] == [{"role": "first", "pointer": "/a/0", "line": 1, "column": 8}]
    assert [report.index_of(f) for f in (none, placed, bare)] == [0, 1, 2]


# --------------------------------------------------------------------------- jsontext/positions.py

LETTERS = "".join(chr(0x41 + i % 26) for i in range(300))


@pytest.mark.parametrize("text, offset, width, shown", [
    ("abc\ndef\nghi", 5, 100, "def\n ^"),
    ("abc\ndef", 7, 100, "def\n   ^"),               # at the end of the text
    ("abc", 99, 100, "abc\n   ^"),                     # past the end: at the end
    ("abc", -5, 100, "abc\n^"),                        # before the start: at the start
    ("abc\n", 4, 100, "\n^"),                          # on the empty last line
    ("\ta\tb", 3, 100, "\ta\tb\n\t \t^"),              # tabs kept under tabs
    ("a\r\nb", 1, 100, "a \n ^"),                      # a CR shown as a space
    (LETTERS, 150, 20, "…" + LETTERS[140:160] + "…\n" + " " * 11 + "^"),
    (LETTERS, 5, 20, LETTERS[:20] + "…\n" + " " * 5 + "^"),
    (LETTERS, 10, 20, LETTERS[:20] + "…\n" + " " * 10 + "^"),
    (LETTERS, 11, 20, "…" + LETTERS[1:21] + "…\n" + " " * 11 + "^"),
    (LETTERS, 290, 20, "…" + LETTERS[280:] + "\n" + " " * 11 + "^"),
    (LETTERS[:20], 10, 20, LETTERS[:20] + "\n" + " " * 10 + "^"),   # exactly the width: whole
    (LETTERS[:21], 10, 20, LETTERS[:20] + "…\n" + " " * 10 + "^"),
])
def test_the_snippet_shows_the_line_and_a_caret_under_the_spot(text, offset, width, shown):
    from workbench.jsontext.positions import snippet
    assert snippet(text, offset, width) == shown


def test_the_default_snippet_width_is_100():
    from workbench.jsontext.positions import snippet
    assert snippet(LETTERS[:100], 50) == LETTERS[:100] + "\n" + " " * 50 + "^"
    assert snippet(LETTERS[:101], 50) == LETTERS[:100] + "…\n" + " " * 50 + "^"


def test_an_error_at_an_offset_carries_its_place():
    from workbench.jsontext.positions import error_at
    e = error_at("ab\ncd", 4, "parse_error", "msg", field="text", limit=3)
    assert (e.code, e.message, e.status, e.field, e.line, e.column, e.offset) == \
        ("parse_error", "msg", 422, "text", 2, 2, 4)
    assert e.extra == {"snippet": "cd\n ^", "limit": 3}


def _value_at(value, pointer):
    from workbench.jsontext.pointer import split_pointer
    for tok in split_pointer(pointer):
        if isinstance(value, list):
            if not tok.isdigit() or int(tok) >= len(value):
                return KeyError
            value = value[int(tok)]
        elif isinstance(value, dict):
            if tok not in value:
                return KeyError
            value = value[tok]
        else:
            return KeyError
    return value


def _pointers(value, prefix=""):
    from workbench.jsontext.pointer import escape_token
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _pointers(v, prefix + "/" + escape_token(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _pointers(v, f"{prefix}/{i}")


SPAN_DOCS = [
    '{"a": 1, "b": [true, {"c": "x"}, [], {}], "d~/e": null}',
    ' \n [ 1 , [ 2 , [ 3 ] ] , { "k" : [ ] } , "s\\"]" ]\n',
    '{"a":{"a":{"a":[0,1,2,3,4,5,6,7,8,9,10,11]}},"z":-1.5e3}',
    '{"dup": 1, "x": {"y": 2}, "dup": {"deep": [3, 4]}}',         # the last of a key is its value
    '[[], {}, [[]], [{}], "", 0]',
    '{"": {"": [""]}, " ": 1}',
    '"just a string"',
]


@pytest.mark.parametrize("text", SPAN_DOCS)
def test_every_pointer_is_located_at_its_value_and_key(text):
    import json
    import re
    from json.decoder import scanstring

    from workbench.jsontext.positions import locate_many
    value = json.loads(text)
    pointers = list(dict.fromkeys(_pointers(value)))
    spans = locate_many(text, pointers + ["/nope", "/0/9/9", "/a/zz"])
    assert sorted(spans) == sorted(pointers)        # the missing ones are left out
    for p, s in spans.items():
        assert json.loads(text[s.start:s.end]) == _value_at(value, p), p
        assert re.match(r"[ \t\n\r]*([,\]}]|$)", text[s.end:]), p
        if p and isinstance(_value_at(value, p.rsplit("/", 1)[0]), dict):
            name, after = scanstring(text, s.key + 1)
            assert text[s.key] == '"' and re.fullmatch(r"[ \t\n\r]*:[ \t\n\r]*", text[after:s.start]), p
        else:
            assert s.key is None, p
    # one at a time, each found the same
    for p in pointers:
        assert locate_many(text, [p]) == {p: spans[p]}


def test_locate_nothing_and_a_pointer_past_an_array():
    from workbench.jsontext.positions import locate_many
    assert locate_many('{"a": 1}', []) == {}
    assert locate_many("[1, 2]", ["/2", "/-", "/x"]) == {}
    assert locate_many("[]", ["/0"]) == {}
    assert locate_many("{}", ["/a"]) == {}
    spans = locate_many("[10, [20, 30], 40]", ["/2", "/1/1"])
    assert {p: (s.start, s.end) for p, s in spans.items()} == {"/2": (15, 17), "/1/1": (10, 12)}


WALK_DOCS = SPAN_DOCS[:-1] + [
    '[' + ", ".join(f'{{"id": {i}, "s": "v{i}", "id": "again"}}' for i in range(40)) + ']',
    '{"big": [' + ", ".join(str(i) for i in range(3000)) + '], "tail": "t", "tail": 1}',
]


def _tokens(text):
    """Every string and number value (start, end, parts) and every member name (start, end,
    parts of its object, name) of a valid JSON text, read by the standard library's scanner."""
    import re
    from json.decoder import scanstring

    from workbench.jsontext.positions import skip_value
    ws = re.compile(r"[ \t\n\r]*")
    values, keys = [], []

    def val(i, parts):
        ch = text[i]
        if ch == "{":
            j = ws.match(text, i + 1).end()
            if text[j] == "}":
                return j + 1
            while True:
                name, k = scanstring(text, j + 1)
                keys.append((j, k, list(parts), name))
                j = ws.match(text, ws.match(text, k).end() + 1).end()
                j = ws.match(text, val(j, parts + [name])).end()
                if text[j] == "}":
                    return j + 1
                j = ws.match(text, j + 1).end()
        if ch == "[":
            j = ws.match(text, i + 1).end()
            if text[j] == "]":
                return j + 1
            n = 0
            while True:
                j = ws.match(text, val(j, parts + [n])).end()
                n += 1
                if text[j] == "]":
                    return j + 1
                j = ws.match(text, j + 1).end()
        end = skip_value(text, i)
        if ch == '"' or ch == "-" or ch.isdigit():
            values.append(("string" if ch == '"' else "number", i, end, list(parts)))
        return end

    val(ws.match(text, 0).end(), [])
    return values, keys


@pytest.mark.parametrize("text", WALK_DOCS, ids=range(len(WALK_DOCS)))
def test_the_walk_visits_exactly_the_values_and_keys_that_hold_a_wanted_offset(text):
    import bisect

    from workbench.jsontext.positions import walk
    values, keys = _tokens(text)
    starts = sorted({v[1] for v in values} | {k[0] for k in keys})
    for interesting in ([starts[len(starts) // 2]], starts[::3], starts, [starts[-1]], [starts[0]]):
        seen: list = []
        walk(text, interesting, lambda kind, parts, s, e, x, seen=seen:
             seen.append((kind, s, e, list(parts), x)), keys=True)
        want = sorted(interesting)

        def holds(s, e, want=want):
            k = bisect.bisect_left(want, s)
            return k < len(want) and want[k] < e
        expect_values = [(k, s, e, p, None) for k, s, e, p in values if holds(s, e)]
        expect_keys = [("key", s, e, p, n) for s, e, p, n in keys if holds(s, e)]
        assert [v for v in seen if v[0] in ("string", "number")] == expect_values
        assert [v for v in seen if v[0] == "key"] == expect_keys
        for _kind, first, second, parts, name in (v for v in seen if v[0] == "duplicate"):
            # a duplicate reported is one: two offsets of the same name in the same object
            same = [k[0] for k in keys if k[2] == parts and k[3] == name]
            assert first in same and second in same and first < second


def test_the_walk_finds_every_duplicate_of_the_objects_it_reads_whole():
    from workbench.jsontext.positions import walk
    text = WALK_DOCS[-2]
    values, keys = _tokens(text)
    dups = []
    walk(text, sorted(k[0] for k in keys), lambda kind, parts, s, e, x:
         dups.append((tuple(parts), s, e, x)) if kind == "duplicate" else None, whole_objects=True)
    first = {}
    expect = []
    for s, _e, parts, name in keys:
        where = (tuple(parts), name)
        if where in first:
            expect.append((tuple(parts), first[where], s, name))
        else:
            first[where] = s
    assert dups == expect and len(expect) == 40
    # the last value of the document only: the walk still reaches it, past every object
    big = WALK_DOCS[-1]
    values, keys = _tokens(big)
    seen = []
    walk(big, [keys[-1][0]], lambda kind, parts, s, e, x: seen.append((kind, list(parts), x)),
         keys=True)
    assert ("key", [], "tail") in seen and ("duplicate", [], "tail") in seen


def _review(r) -> dict:
    step, = [s for s in r["steps"] if s.get("check") == "review"]
    assert (step["door"], step["blocking"]) == (1, False)
    return {k: v for k, v in step.items() if k not in ("check", "rules", "title", "door", "blocking")}


OPEN = 'The arguments object accepts any extra property: add "additionalProperties": false'
WARNS = (": a wide schema lets the model fill in what it likes. Door 1 warns, it does not block: "
         "door 2 (the host's own check) decides.")


def test_door_1_is_skipped_without_tools_or_without_the_tool():
    assert _review(gate(json.dumps(PASSING_ACTION))) == {
        "status": "skipped", "skipped_because": "no_schema",
        "note": "no tools given: there is no schema to review"}
    assert _review(gate(json.dumps(dict(PASSING_ACTION, name="other")), json.dumps(LOOKUP_ORDER))) == {
        "status": "skipped", "skipped_because": "no_tool",
        "note": "no tool of this name was given: there is no schema to review"}


def test_door_1_of_a_strict_tool_and_of_a_tool_without_parameters():
    assert _review(gate(json.dumps(PASSING_ACTION), json.dumps(LOOKUP_ORDER))) == {
        "status": "pass", "tool": "lookup_order", "schema_at": "/parameters", "strict": True,
        "warned": False, "warnings": [],
        "note": "tool lookup_order is strict: every property required, no extra keys, "
                "identifiers constrained."}
    bare = {"type": "function", "name": "lookup_order"}
    assert _review(gate(json.dumps(PASSING_ACTION), json.dumps(bare))) == {
        "status": "pass", "tool": "lookup_order", "schema_at": "/parameters", "strict": False,
        "warned": False, "warnings": [], "note": "tool lookup_order has no parameters object to review"}


def test_door_1_warnings_are_placed_at_their_keys_in_the_tools_text():
    loose = {"type": "function", "name": "lookup_order",
             "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}
    text = json.dumps([{"type": "function", "name": "x", "parameters": {"type": "object"}}, loose],
                      indent=1)
    step = _review(gate(json.dumps(PASSING_ACTION), text))
    assert [(w["code"], w["pointer"], w["line"], w["column"]) for w in step["warnings"]] == [
        ("open_object", "/1/parameters", 12, 3),
        ("optional_property", "/1/parameters/properties/order_id", 15, 5),
        ("free_id_string", "/1/parameters/properties/order_id", 15, 5)]
    assert (step["tool"], step["schema_at"], step["strict"], step["warned"], step["finding"]) == \
        ("lookup_order", "/1/parameters", False, True, "tool_not_strict")
    assert step["note"] == "3 open doors in tool lookup_order" + WARNS


def test_door_1_of_bare_parameters_places_the_root_at_its_brace():
    text = json.dumps({"type": "object", "properties": {"order_id": {"type": "string"}}})
    step = _review(gate(json.dumps(PASSING_ACTION), text))
    assert (step["tool"], step["schema_at"]) == (None, "")
    assert [(w["code"], w["pointer"], w["line"], w["column"]) for w in step["warnings"]] == [
        ("open_object", "", 1, 1), ("optional_property", "/properties/order_id", 1, 35),
        ("free_id_string", "/properties/order_id", 1, 35)]
    # at most max_errors warnings

    from workbench.limits import DEFAULT_LIMITS
    few = gate(json.dumps(PASSING_ACTION), text, limits=DEFAULT_LIMITS.with_(max_errors=1))
    assert [w["code"] for w in _review(few)["warnings"]] == ["open_object"]


def test_door_1_reviews_as_a_tool_in_strict_mode_when_the_tool_is_strict():
    strict = {"type": "function", "name": "lookup_order", "strict": True,
              "parameters": {"type": "object", "properties": {"n": {"type": "integer"}},
                             "additionalProperties": False}}
    step = _review(gate(json.dumps(PASSING_ACTION), json.dumps(strict)))
    assert [(w["code"], w["message"], w["column"]) for w in step["warnings"]] == [
        ("optional_property", 'Property "n" is not in "required": the model may leave it out; strict '
         "mode requires every property in required (make it nullable instead)", 110)]
    assert step["note"] == "1 open door in tool lookup_order" + WARNS
    not_object = {"type": "function", "name": "lookup_order", "parameters": {"type": "string"}}
    step = _review(gate(json.dumps(PASSING_ACTION), json.dumps(not_object)))
    assert [(w["code"], w["pointer"], w["column"]) for w in step["warnings"]] == \
        [("not_object", "/parameters", 46)]


def test_door_1_of_parsed_tools_has_no_places():
    r = gate_value(PASSING_ACTION, {"type": "function", "name": "lookup_order",
                                    "parameters": {"type": "object"}})
    assert _review(r)["warnings"] == [{"code": "open_object", "pointer": "/parameters", "message": OPEN}]


def test_the_report_names_the_items_tool_when_no_tools_were_given():
    r = gate(json.dumps(PASSING_ACTION))
    assert r["report"] == {"check": "lookup_order", "schema": "parameters", "pass": [], "fail": [],
                           "execute": True}
    assert "function_call_output" in r and r["function_call_output"] is None


@pytest.mark.parametrize("change, listed", [
    ({"turn_id": "turn_9"}, "turn_id"),
    ({"arguments": {"order_id": "A-1042", "include_lines": False}}, "arguments"),
    ({"call_id": "call_9", "name": "other"}, "call_id, name"),
])
def test_a_replay_error_lists_what_differs_from_the_original(change, listed):
    tools = json.dumps([LOOKUP_ORDER, dict(LOOKUP_ORDER, name="other")])
    r = gate(json.dumps(dict(PASSING_ACTION, **change)), tools, json.dumps(PASSING_ACTION))
    assert r["verdict"] == "replay_mismatch"
    assert r["tool_result"]["error"] == \
        f"the action differs from the original ({listed}); the action was not executed"


def test_a_failure_message_keeps_its_last_characters():
    from workbench.gate.agents import failure_sentence
    assert failure_sentence({"path": "/first name", "reason": "x", "message": "want X"}, None) == \
        "first name failed schema (x): want X"


@pytest.mark.parametrize("change, verdict, note", [
    ({"status": "in_progress"}, "not_pending",
     "Not a pending action: a status is not an action (only required_actions[] are), so nothing "
     "is run and no tool_result is written."),
    ({"type": "agent.session.input.tool_result"}, "not_function_call",
     "Not a pending action: nothing to run, nothing to answer."),
    ({"type": "openai:web_search_call"}, "namespaced",
     "Not a pending action: nothing to run, nothing to answer."),
])
def test_what_is_not_a_pending_action_says_so(change, verdict, note):
    r = gate(json.dumps(dict(PASSING_ACTION, **change)), json.dumps(LOOKUP_ORDER), dialect="agents_api")
    assert (r["verdict"], r["tool_result"], r["tool_result_note"]) == (verdict, None, note)


@pytest.mark.parametrize("text, offset, width, shown", [
    ("abc\ndef\nghi", 9, 100, "ghi\n ^"),          # past two newlines: the line after the last
    ("\nabc", 2, 100, "abc\n ^"),                    # a newline at offset 0 ends the line before
    ("a\nb\nc", 0, 100, "a\n^"),                     # the line ends at the first newline after
    (LETTERS[:20], 15, 20, LETTERS[:20] + "\n" + " " * 15 + "^"),   # exactly the width: not cut
])
def test_the_snippet_line_is_the_one_holding_the_offset(text, offset, width, shown):
    from workbench.jsontext.positions import snippet
    assert snippet(text, offset, width) == shown


def test_line_cols_on_the_first_line_and_out_of_order():
    from workbench.jsontext.positions import line_cols
    assert line_cols("abc", [0, 2]) == [(1, 1), (1, 3)]
    assert line_cols("ab\ncd", [4, 1, 0, 3]) == [(2, 2), (1, 2), (1, 1), (2, 1)]


SPAN_EMPTY = ['{"e": {}, "a": [], "n": {"m": {}}}', '[[], {}, 1]']


@pytest.mark.parametrize("text", SPAN_EMPTY)
def test_empty_containers_asked_into_are_located_and_their_missing_children_left_out(text):
    import json

    from workbench.jsontext.positions import locate_many
    value = json.loads(text)
    pointers = list(dict.fromkeys(_pointers(value)))
    asked = pointers + [p + "/zz" for p in pointers] + [p + "/0/zz" for p in pointers]
    spans = locate_many(text, asked)
    assert sorted(spans) == sorted(pointers)
    for p, s in spans.items():
        assert json.loads(text[s.start:s.end]) == _value_at(value, p), p


def _visits(text, interesting, **kw):
    from workbench.jsontext.positions import walk
    seen: list = []
    walk(text, interesting, lambda kind, parts, s, e, x: seen.append((kind, tuple(parts), x)), **kw)
    return seen


def test_the_walk_leaves_an_object_once_nothing_wanted_is_ahead():
    text = '{"o": {"a": "s", "x": 1, "x": 2}, "p": {"y": 1, "y": 2}}'
    at = text.index('"s"')
    # by default: no key visits, and the rest of "o" is not read (its duplicate x unseen)
    assert _visits(text, [at]) == [("string", ("o", "a"), None)]
    assert _visits(text, [at], keys=True) == [("string", ("o", "a"), None)]
    key = text.index('"a"')
    assert _visits(text, [key]) == []                  # a key is visited only when asked for
    assert _visits(text, [key], keys=True) == [("key", ("o",), "a")]
    # every key of an entered object with whole_objects; objects holding nothing never entered
    assert _visits(text, [at], whole_objects=True) == \
        [("string", ("o", "a"), None), ("duplicate", ("o",), "x")]


def test_the_walk_enters_only_the_objects_that_hold_a_wanted_offset():
    text = WALK_DOCS[-2]
    values, keys = _tokens(text)
    last = [k for k in keys if k[2] == [39]]
    assert _visits(text, [last[0][0]], keys=True, whole_objects=True) == \
        [("key", (39,), "id"), ("duplicate", (39,), "id")]


def test_the_walk_enters_a_container_larger_than_its_window():
    text = '{"o": {"pad": "' + "x" * 70_000 + '", "k": "s", "k": 1}, "z": 2}'
    at = text.index('"s"')
    # too large to measure: walked in to its end, so its duplicate is met on the way
    assert _visits(text, [at]) == [("string", ("o", "k"), None), ("duplicate", ("o",), "k")]
    # wanted past it only: it is still too large to measure within the window, so walked through
    assert _visits(text, [text.index("2}")]) == [("duplicate", ("o",), "k"), ("number", ("z",), None)]


def test_an_original_with_its_arguments_as_a_string_differs_only_where_it_differs():
    # the arguments compared parsed: the same object written as a string is the same arguments
    original = dict(PASSING_ACTION, call_id="call_0", arguments=json.dumps(PASSING_ACTION["arguments"]))
    r = gate(json.dumps(PASSING_ACTION), json.dumps(LOOKUP_ORDER), json.dumps(original))
    assert r["verdict"] == "replay_mismatch"
    assert r["tool_result"]["error"] == \
        "the action differs from the original (call_id); the action was not executed"
    # the answer's members, exactly
    assert sorted(r) == ["dialect", "envelope", "execute", "function_call_output", "reason", "report",
                         "rule", "step", "steps", "tool_result", "tool_result_note", "verdict",
                         "warnings"]


def test_an_action_without_arguments_is_told_they_are_missing():
    item = {k: v for k, v in PASSING_ACTION.items() if k != "arguments"}
    r = gate(json.dumps(item), json.dumps(LOOKUP_ORDER))
    assert (r["verdict"], r["tool_result"]["error"]) == \
        ("arguments_type", "arguments must be a JSON object, not missing; the action was not executed")


def test_an_unknown_tool_lists_every_tool():
    tools = json.dumps([LOOKUP_ORDER, dict(LOOKUP_ORDER, name="refund")])
    r = gate(json.dumps(dict(PASSING_ACTION, name="nope")), tools)
    assert r["tool_result"]["error"] == ("nope is not a tool of this agent (the tools are: "
                                         "lookup_order, refund); the action was not executed")


PROGRAM_CALL = dict(FC, status="in_progress", caller={"type": "program", "caller_id": "ci_1"})


@pytest.mark.parametrize("change, waits", [
    ({}, True),
    ({"status": "completed"}, False),           # not waiting: complete (rule 3 passes anyway)
    ({"status": "incomplete"}, False),
    ({"status": None}, False),
    ({"caller": {"type": "model"}}, False),     # only a program waits by design
    ({"caller": {"type": "PROGRAM"}}, False),
    ({"caller": "program"}, False),             # the caller is an object
    ({"caller": None}, False),
    ({"arguments": {"sku": "A"}}, False),       # arguments a string, as rule 5 wants
    ({"arguments": None}, False),
])
def test_a_program_caller_waits_by_design_only_in_progress_with_string_arguments(change, waits):
    item = dict(PROGRAM_CALL, **change)
    assert program_waiting(item) is waits
    verdict = Gate().verdict(item)
    # an in_progress call with object arguments does not wait: rule 3 stops it before rule 5
    assert verdict == ("ok" if waits or change.get("status") == "completed" else "status")
    without = {k: v for k, v in item.items() if k != "caller"}
    assert program_waiting(without) is False


def test_the_program_caller_is_the_items_own_caller_object_or_none():
    assert program_caller(PROGRAM_CALL) is PROGRAM_CALL["caller"]
    assert program_caller(dict(FC, caller={"type": "program"})) == {"type": "program"}
    for item in (FC, dict(FC, caller={"type": "model"}), dict(FC, caller=["program"]),
                 [PROGRAM_CALL], "program", None, 5):
        assert program_caller(item) is None
    # the cut-off arguments of a program's call are still not executed: rule 3, not rule 6
    assert Gate().verdict(dict(PROGRAM_CALL, arguments='{"city":"Ly')) == "status"
    assert Gate().verdict(dict(FC, arguments='{"city":"Ly')) == "arguments_parse"


def test_decide_reads_an_item_in_its_own_dialect_by_default():
    # engine.decide and Gate.decide, called without a dialect (the walk always passes one)
    from workbench.gate.engine import decide
    for ask in (lambda item: decide(Gate(), item), lambda item: Gate().decide(item)):
        assert ask(FC)[:2] == ("ok", "open_responses")
        assert ask(PASSING_ACTION)[:2] == ("ok", "agents_api")
        assert ask([FC])[:2] == ("namespaced", "open_responses")   # not an item: still a dialect
        assert ask(dict(FC, type="x:y"))[:2] == ("namespaced", "open_responses")


def test_run_writes_its_sentences_for_the_reader_asked_for():
    resp = json.dumps({"object": "response", "status": "completed",
                       "output": [FC, dict(FC, id="fc_2", call_id="call_2")]})
    tails = {"api": "walk one of them: POST its envelope.calls[].json to /api/gate as the item.",
             "page": "walk one of them with its \u201cWalk this call\u201d button below.",
             "cli": "walk one of them: save it (listed below) to a file and run workbench gate FILE."}
    for words, tail in tails.items():
        assert tail in Gate().run(resp, words=words)["reason"]
    assert tails["api"] in Gate().run(resp)["reason"]


WEATHER = {"type": "function", "name": "get_weather",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                          "required": ["city"]}}


def _schema_step(r: dict) -> dict:
    return next(s for s in r["steps"] if s["check"] == "schema")


def test_the_schema_step_describes_the_decisions_arguments_and_tool():
    # the walk describes what decide() returned: the parsed arguments, the tool, the dialect
    r = gate(json.dumps(dict(FC, arguments='{"city": 5}')), json.dumps(WEATHER))
    s = _schema_step(r)
    assert (r["verdict"], r["dialect"], s["tool"], s["called_as"]) == \
        ("arguments_schema", "open_responses", "get_weather", "get_weather")
    assert s["errors"] == [{"pointer": "/city", "keyword": "type",
                            "message": "Expected string, got number 5",
                            "schema_pointer": "/properties/city/type"}]
    r = gate(json.dumps(dict(FC, arguments="[1]")), json.dumps(WEATHER))
    s = _schema_step(r)
    assert (r["verdict"], r["dialect"], s["tool"], s["not_object"]) == \
        ("arguments_schema", "open_responses", "get_weather", "an array ([1])")
    assert s["errors"] == [{"pointer": "", "keyword": "type",
                            "message": "Expected object, got an array of 1 item", "schema_pointer": "/type"}]
    r = gate(json.dumps(dict(FC, name="nope")), json.dumps(WEATHER))
    s = _schema_step(r)
    assert (r["verdict"], r["dialect"], s["tool"], s["name"], s["available"], s["arguments"]) == \
        ("unknown_tool", "open_responses", None, "nope", ["get_weather"], '{"city":"Lyon"}')


def test_a_compiled_check_too_deep_for_python_falls_back_to_the_validator():
    # the compiled check may hit Python's recursion limit on deep arguments: the tool's own
    # fits() (the Validate core's evaluation) decides instead, on the same arguments
    g = Gate(json.dumps(WEATHER))
    tool = g.tools.pick(FC)

    def too_deep(_args):
        raise RecursionError
    tool.checker = too_deep
    assert g.verdict(FC) == "ok"
    assert g.verdict(dict(FC, arguments='{"city": 5}')) == "arguments_schema"


# --------------------------------------------------------------------------- transcript/streams.py

def _stream(*events, done=True) -> dict:
    lines = []
    for n, (t, kw) in enumerate(events):
        lines += [f"event: {t}", "data: " + json.dumps(dict(type=t, sequence_number=n, **kw)), ""]
    if done:
        lines += ["data: [DONE]", ""]
    return _transcript("\n".join(lines) + "\n")


def _own(r) -> list:
    return [(f["code"], f["pointer"], f["line"], f.get("event")) for f in r["findings"]
            if f["code"] != "spec_schema"]


CREATED = ("response.created", {"response": {"id": "resp_1", "status": "in_progress", "output": []}})


def _fc(index, cid, name):
    return ("response.output_item.added", {"output_index": index, "item": {
        "type": "function_call", "id": "fc_" + cid[-1], "call_id": cid, "name": name, "arguments": "",
        "status": "in_progress"}})


def test_a_stream_cut_off_rebuilds_each_item_from_its_deltas():
    r = _stream(CREATED, _fc(0, "call_1", "f"),
                ("response.function_call_arguments.delta", {"item_id": "fc_1", "output_index": 0, "delta": '{"a":'}),
                ("response.function_call_arguments.delta", {"item_id": "fc_1", "output_index": 0, "delta": "1}"}),
                ("response.output_item.added", {"output_index": 1, "item": {
                    "type": "message", "id": "msg_1", "role": "assistant", "content": [],
                    "status": "in_progress"}}),
                ("response.output_text.delta", {"item_id": "msg_1", "output_index": 1, "content_index": 0,
                                                "delta": "Hel"}),
                ("response.output_text.delta", {"item_id": "msg_1", "output_index": 1, "content_index": 0,
                                                "delta": "lo"}), done=False)
    assert r["items"] == [
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": '{"a":1}',
         "status": "in_progress"},
        {"type": "message", "id": "msg_1", "role": "assistant",
         "content": [{"type": "output_text", "text": "Hello"}], "status": "in_progress"}]
    assert _own(r) == [("stream_no_terminal", "", 20, 6)]
    assert [(t["output_index"], t["item_id"], t["type"], t["name"], t["call_id"], t["status"],
             t["first_line"], t["last_line"], t["events"], t["broken"]) for t in r["timeline"]] == [
        (0, "fc_1", "function_call", "f", "call_1", "in_progress", 5, 11,
         {"response.output_item.added": 1, "response.function_call_arguments.delta": 2}, []),
        (1, "msg_1", "message", None, None, "in_progress", 14, 20,
         {"response.output_item.added": 1, "response.output_text.delta": 2}, [])]


def test_stream_events_attach_by_item_id_then_to_the_item_added_last():
    r = _stream(CREATED, _fc(0, "call_1", "f"), _fc(1, "call_2", "g"),
                ("response.function_call_arguments.delta", {"item_id": "fc_1", "delta": '{"a":1}'}),
                ("response.function_call_arguments.delta", {"delta": '{"b":'}),
                ("response.function_call_arguments.delta", {"delta": "2}"}), done=False)
    assert [(i["id"], i["arguments"]) for i in r["items"]] == [("fc_1", '{"a":1}'), ("fc_2", '{"b":2}')]
    assert _own(r) == [("stream_no_terminal", "", 17, 5)]


def test_deltas_without_an_added_item_rebuild_one_of_their_kind_and_are_out_of_order():
    r = _stream(CREATED,
                ("response.function_call_arguments.delta", {"output_index": 0, "item_id": "fc_9", "delta": "{}"}),
                ("response.output_text.delta", {"output_index": 1, "item_id": "msg_9", "content_index": 0,
                                                "delta": "hi"}),
                ("response.completed", {"response": {"id": "resp_1", "status": "completed", "output": []}}))
    assert r["items"] == [{"type": "function_call", "arguments": "{}", "id": "fc_9"},
                          {"type": "message", "content": [{"type": "output_text", "text": "hi"}], "id": "msg_9"}]
    assert _own(r) == [("stream_order", "/type", 5, 1), ("stream_order", "/type", 8, 2)]
    # each row names the findings about it by their index in the answer's findings
    assert [r["findings"][i]["code"] for t in r["timeline"] for i in t["broken"]] == ["stream_order"] * 2
    assert [(t["item_id"], t["type"], t["events"], t["first_line"], t["broken"]) for t in r["timeline"]] == [
        ("fc_9", "function_call", {"response.function_call_arguments.delta": 1}, 5, [1]),
        ("msg_9", "message", {"response.output_text.delta": 1}, 8, [2])]
