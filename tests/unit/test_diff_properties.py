"""Hypothesis properties of the diff: for random pairs of JSON documents (and pairs made by
mutating one side), the returned RFC 6902 ``patch`` applied to ``left`` by an independent
implementation (the ``jsonpatch`` package) gives ``right`` exactly — types included, so
``1`` / ``1.0`` / ``true`` stay distinct — and ``equal`` is true exactly when the documents
are equal (numbers by exact value, keys in any order, JSON strings compared parsed)."""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonutil import merge_apply, strict_equal

from workbench.diff import diff_values, handle
from workbench.jsontext import parse
from workbench.limits import DEFAULT_LIMITS


class Num:
    """A number token kept as text, so documents can say 1.0, 1e2, -0.0, 12.3e1."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self):
        return f"Num({self.text})"


def write(v) -> str:
    if isinstance(v, Num):
        return v.text
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + write(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(write(x) for x in v) + "]"
    return json.dumps(v)


number_texts = st.one_of(
    st.integers(-(10 ** 30), 10 ** 30).map(str),
    st.sampled_from(["0", "-0", "1", "1.0", "1.00", "1e0", "1E2", "100", "100.0", "12.3e1",
                     "123", "-0.0", "0.5", "5e-1", "2.50", "1e400", "12345678901234567890",
                     "12345678901234567891", "3.141592653589793238462643383279"]),
    st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str),
).map(Num)

json_strings = st.sampled_from(['{"a": 1, "b": [1, 2]}', '{"b":[1,2],"a":1}', '{"a": 2}',
                                '[1, 2]', '[1,2]', '[2, 1]', "{}", "[ ]", "plain", "", "{broken"])

keys = st.sampled_from(["a", "b", "c", "id", "call_id", "arguments", "", "a/b", "m~n", "0"])

scalars = st.one_of(st.none(), st.booleans(), number_texts, json_strings,
                    st.text(max_size=6))

documents = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=6),
                               st.dictionaries(keys, children, max_size=5)),
    max_leaves=25,
)


@st.composite
def mutated(draw, doc):
    """``doc`` with a few random edits (insert, delete, replace, move, respell a number)."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(0, 4))):
        containers = []

        def collect(v):
            if isinstance(v, (list, dict)):
                containers.append(v)
                for c in (v.values() if isinstance(v, dict) else v):
                    collect(c)

        collect(doc)
        if not containers:
            return draw(documents)
        target = draw(st.sampled_from(containers))
        action = draw(st.sampled_from(["insert", "delete", "replace", "move", "respell"]))
        if isinstance(target, list):
            if action == "insert" or not target:
                target.insert(draw(st.integers(0, len(target))), draw(documents))
            elif action == "delete":
                target.pop(draw(st.integers(0, len(target) - 1)))
            elif action == "move":
                item = target.pop(draw(st.integers(0, len(target) - 1)))
                target.insert(draw(st.integers(0, len(target))), item)
            elif action == "respell":
                i = draw(st.integers(0, len(target) - 1))
                if isinstance(target[i], Num) and "." not in target[i].text and "e" not in target[i].text.lower():
                    target[i] = Num(target[i].text + ".0")
                else:
                    target[i] = draw(scalars)
            else:
                target[draw(st.integers(0, len(target) - 1))] = draw(documents)
        else:
            k = draw(keys)
            if action == "delete" and target:
                target.pop(draw(st.sampled_from(sorted(target))))
            else:
                target[k] = draw(documents)
    return doc


@st.composite
def pairs(draw):
    left = draw(documents)
    right = draw(st.one_of(documents, mutated(left)))
    return write(left), write(right)


# ----------------------------------------------------------------------------- oracles

def loads(text):
    def no_constant(name):
        raise ValueError(name)
    return json.loads(text, parse_float=Decimal, parse_int=lambda s: Decimal(s) if len(s) > 4000 else int(s),
                      parse_constant=no_constant)


def is_num(v):
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool)


def as_json_container(s):
    if not s.lstrip(" \t\r\n")[:1] in ("{", "["):
        return None
    try:
        return loads(s)
    except ValueError:
        return None


def ref_equal(a, b, parse_strings=True, unordered=False):
    """Independent equality: exact numbers (1 == 1.0), types distinct, keys unordered."""
    if is_num(a) and is_num(b):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(ref_equal(a[k], b[k], parse_strings, unordered) for k in a)
    if isinstance(a, list):
        if len(a) != len(b):
            return False
        if not unordered:
            return all(ref_equal(x, y, parse_strings, unordered) for x, y in zip(a, b))
        rest = list(b)
        for x in a:
            for n, y in enumerate(rest):
                if ref_equal(x, y, parse_strings, unordered):
                    del rest[n]
                    break
            else:
                return False
        return True
    if isinstance(a, str) and a != b and parse_strings:
        pa, pb = as_json_container(a), as_json_container(b)
        if pa is not None and pb is not None:
            return ref_equal(pa, pb, False, unordered)
    return a == b


def py(text):
    """How an independent consumer reads the JSON: floats for decimals (1.0 stays a float)."""
    return json.loads(text)


def apply(patch_json_text, left_text):
    patch = json.loads(patch_json_text)
    return jsonpatch.apply_patch(py(left_text), patch)


PROPS = settings(max_examples=300, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _patch_text(result):
    from workbench.jsontext import dumps_value
    return dumps_value(result["patch"]).decode("utf-8", "surrogatepass")


def diffed(pair, **options):
    """The pair's texts and ``diff_values`` of the two parsed documents with ``options``."""
    left_text, right_text = pair
    lv = parse(left_text, field="left").value
    rv = parse(right_text, field="right").value
    return left_text, right_text, diff_values(lv, rv, **options)


def assert_exact(left_text, right_text, result, parse_strings=True):
    """The patch, applied by ``jsonpatch`` to left as a consumer reads it, gives right exactly
    (types included); ``equal`` is the reference equality."""
    patched = apply(_patch_text(result), left_text)
    assert strict_equal(patched, py(right_text)), (result["patch"], patched)
    assert result["equal"] == ref_equal(loads(left_text), loads(right_text), parse_strings=parse_strings)


@PROPS
@given(pairs())
def test_patch_turns_left_into_right_and_equal_is_exact(pair):
    left_text, right_text, result = diffed(pair)
    assert_exact(left_text, right_text, result)
    assert result["equal"] == (result["count"] == 0)


@PROPS
@given(pairs())
def test_plain_string_mode_is_exact_too(pair):
    assert_exact(*diffed(pair, parse_strings=False), parse_strings=False)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs())
def test_ignore_order_patch_gives_right_up_to_order(pair):
    left_text, right_text, result = diffed(pair, ignore_order=True)
    # exact numbers on both sides: patch values and documents read as Decimal
    patched = jsonpatch.apply_patch(loads(left_text), loads(_patch_text(result)))
    assert ref_equal(patched, loads(right_text), unordered=True)
    assert result["equal"] == ref_equal(loads(left_text), loads(right_text), unordered=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs(), st.sampled_from(["id", "call_id", "a"]))
def test_match_key_patch_is_exact(pair, key):
    assert_exact(*diffed(pair, match_key=key))


def test_handle_and_core_agree_in_process():
    body = {"left": '[{"a": 1}, 2, 3]', "right": '[0, {"a": 1.0}, 2]'}
    api = handle(body, DEFAULT_LIMITS)
    core = diff_values(loads(body["left"]), loads(body["right"]))
    assert [c["op"] for c in api["changes"]] == [c["op"] for c in core["changes"]]
    assert api["patch"] == core["patch"] or json.dumps(api["patch"], default=str) == json.dumps(core["patch"], default=str)


@st.composite
def long_pairs(draw):
    """Two long arrays of the same length, mostly equal item by item (the fast path for a
    document and its edited copy), with edits that plain equality misses: 1 vs true,
    1 vs 1.0, 0 vs false, and swaps of neighbours."""
    small = st.one_of(st.sampled_from([Num("0"), Num("1"), Num("1.0"), True, False, None, "1", "a"]),
                      st.dictionaries(st.sampled_from(["k", "v"]), st.sampled_from([Num("1"), True, "x", Num("2.50")]),
                                      max_size=2))
    base = draw(st.lists(small, min_size=32, max_size=60))
    right = copy.deepcopy(base)
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, len(right) - 1))
        action = draw(st.sampled_from(["swap", "replace", "respell"]))
        if action == "swap" and i + 1 < len(right):
            right[i], right[i + 1] = right[i + 1], right[i]
        elif action == "respell":
            right[i] = {True: Num("1"), False: Num("0")}.get(right[i], Num("1.0")) if isinstance(right[i], bool) else True
        else:
            right[i] = draw(small)
    return write(base), write(right)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_pairs())
def test_long_mostly_equal_arrays(pair):
    assert_exact(*diffed(pair))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs(), st.booleans(), st.one_of(st.none(), keys, st.text(max_size=4)),
       st.lists(st.one_of(st.sampled_from(["$..id", "$.a", "$['b'][0]", "/a/*", "/**/c", "$..*", "/0",
                                           "$[*].a", "/a~1b"]), st.text(max_size=8)), max_size=3),
       st.booleans())
def test_any_options_give_a_result_or_a_clear_error(pair, ignore_order, match_key, ignore_paths, parse_strings):
    """Whatever the options, the endpoint answers with a result or a 4xx error, never a crash;
    with ignore paths the patch still applies to the real left document."""
    from workbench.errors import WorkbenchError
    left_text, right_text = pair
    body = {"left": left_text, "right": right_text, "ignore_order": ignore_order,
            "ignore_paths": ignore_paths, "parse_strings": parse_strings}
    if match_key is not None:
        body["match_key"] = match_key
    try:
        result = handle(body, DEFAULT_LIMITS)
    except WorkbenchError as exc:
        assert 400 <= exc.status < 500 and exc.code in ("path_syntax", "bad_type")
        return
    patched = jsonpatch.apply_patch(loads(left_text), loads(_patch_text(result)))
    if not ignore_order and not ignore_paths:
        assert ref_equal(patched, loads(right_text), parse_strings=False)
    assert result["equal"] == (result["count"] == 0)


# ----------------------------------------------------------------------------- through the API

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(pair=pairs())
def test_properties_through_the_api(server, pair):
    left_text, right_text = pair
    status, body = server.api("diff", {"left": left_text, "right": right_text})
    assert status == 200, body
    patched = jsonpatch.apply_patch(py(left_text), body["patch"])
    assert strict_equal(patched, py(right_text)), body["patch"]
    # the patch text the page copies is the same patch
    assert json.loads(body["patch_text"]) == body["patch"]
    assert body["equal"] == ref_equal(loads(left_text), loads(right_text))
    assert body["count"] == len(body["changes"])
    assert sum(body["summary"].values()) == body["count"]
    # every line of the aligned view is accounted for by the segments
    view = body["view"]
    assert sum(s[1] for s in view["segments"]) == view["left"].count("\n") + 1
    right_lines = view["right"].count("\n") + 1 if view["right"] else 0   # lines the same on
    assert sum(s[2] for s in view["segments"] if s[3:] != [1]) == right_lines  # both sides: sent once


if __name__ == "__main__":
    pytest.main([__file__, "-q"])


# ----------------------------------------------------------------------------- RFC 7386



def at_pointer(doc, pointer):
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return doc


@PROPS
@given(pairs())
def test_merge_patch_round_trips_or_says_where_it_cannot(pair):
    left_text, right_text = pair
    result = handle({"left": left_text, "right": right_text, "view": False, "merge_patch": True},
                    DEFAULT_LIMITS)
    assert "merge_patch" not in result          # sent once: as its text
    merge = json.loads(result["merge_patch_text"])
    if result["merge_patch_exact"]:
        assert strict_equal(merge_apply(py(left_text), merge), py(right_text)), merge
    else:
        # only a null the merge patch cannot carry makes it inexact, and it is named
        assert result["merge_patch_notes"]
        for n in result["merge_patch_notes"]:
            assert at_pointer(py(right_text), n["pointer"]) is None, n
    if result["equal"] and not result["notes"] and isinstance(py(right_text), dict):
        assert merge == {}
