"""Format's warnings: every one found, placed, and in time linear in the text (issues 25, 27)."""

from __future__ import annotations

import random
import time

import pytest

from workbench.format import format_text
from workbench.jsontext.warnings import float_change


def codes(text):
    return [(w["code"], w["pointer"]) for w in format_text(text)["warnings"]]


def all_warnings(text):
    """Every warning placed (Format lists the first FORMAT_MAX_WARNINGS)."""
    from workbench.jsontext import parse
    return parse(text, numbers="fragment", keep_duplicates=True, check_depth=False).warnings


@pytest.mark.parametrize("token, code", [
    ("1e4000000000000000000", "float_overflow"), ("-1e4000000000000000000", "float_overflow"),
    ("1e-4000000000000000000", "float_underflow"), ("1e400000000", "float_overflow"),
    ("0.4e" + "0066" + "9" * 40 + "006", "float_overflow"), ("2e-" + "9" * 30, "float_underflow")])
def test_exponents_past_decimal_range_still_warn(token, code):
    # issue 27 / 23: [1e4000000000000000000] had no float_overflow ([1e400000000] did)
    assert float_change(token)[0] == code
    assert codes(f"[{token}]") == [(code, "/0")]


@pytest.mark.parametrize("token", ["0e4000000000000000000", "0.000e-99999999999999999999999"])
def test_zero_with_any_exponent_is_no_change(token):
    assert float_change(token) is None and codes(f"[{token}]") == []


def test_jsontestsuite_huge_exponent_warns(conformance):
    text = (conformance / "jsontestsuite" / "test_parsing" / "i_number_huge_exp.json").read_text()
    assert codes(text) == [("float_overflow", "/0")]


def test_a_lone_surrogate_in_a_key_is_warned_at_the_key():
    a = format_text('{"ok": 1,\n "k\\ud800": {"\\udc01": 2}}')
    got = [(w["code"], w["pointer"], w["line"], w["column"]) for w in a["warnings"]]
    assert got == [("lone_surrogate", "/k\ud800", 2, 2), ("lone_surrogate", "/k\ud800/\udc01", 2, 14)]


def _ids_document(n: int, seed: int = 7) -> str:
    rnd = random.Random(seed)
    items = ",\n".join(
        f'{{"id": {rnd.randrange(2**60, 2**63)}, "s": "{rnd.randrange(2**60, 2**63)}", '
        f'"p": {rnd.randrange(10**6)}.{rnd.randrange(10**17, 10**18)}, "x": [1, 2, {{"y": "é"}}]}}'
        for _ in range(n))
    return "[" + items + "]"


def test_every_distinct_big_integer_is_warned_in_linear_time():
    # issue 25: each distinct integer above 2^53 searched the whole text (str.find): quadratic
    small, big = _ids_document(1000), _ids_document(8000)
    t = time.perf_counter()
    a = all_warnings(small)
    t_small = time.perf_counter() - t
    t = time.perf_counter()
    b = all_warnings(big)
    t_big = time.perf_counter() - t
    assert sum(w["code"] == "unsafe_integer" for w in b) == 8000
    assert sum(w["code"] == "float_precision" for w in b) == 8000
    assert [w["pointer"] for w in a[:2]] == ["/0/id", "/0/p"]
    assert t_big < 8 * 2.5 * max(t_small, 0.01)


def test_many_distinct_duplicate_keys_are_all_found():
    body = ", ".join(f'"k{i}": 1, "k{i}": 2' for i in range(3000))
    dups = [w for w in all_warnings("[{" + body + "}]") if w["code"] == "duplicate_key"]
    assert len(dups) == 3000 and dups[-1]["key"] == "k2999" and dups[-1]["pointer"] == "/0"


@pytest.mark.parametrize("text, code", [("9" * 5000 + " x\n1", "parse_error"),
                                        ("[" + "9" * 5000 + ", NaN]\n1", "parse_error"),
                                        ("9" * 5000 + "\n" + "9" * 5000 + "\n1 2", "parse_error")])
def test_a_fault_after_an_integer_past_the_digit_limit_is_placed(text, code):
    # found by tests/api/test_hostile_format.py: the retry for integers beyond Python's digit
    # limit let its JSONDecodeError escape (a 500)
    from workbench.errors import WorkbenchError
    with pytest.raises(WorkbenchError) as e:
        format_text(text)
    assert e.value.code == code and e.value.line is not None


def _random_value(rnd, depth=0):
    r = rnd.random()
    if depth > 4 or r < 0.45:
        return rnd.choice([
            str(rnd.randrange(2**53, 2**64)), str(-rnd.randrange(2**53, 2**64)), str(rnd.randrange(100)),
            "9007199254740991", "9007199254740992", "1e400", "1E-400", "2.50e+3", "0.1000000000000000055511",
            "123456789.12345678", "1.10", '"12345678901234567890"', '"x 1e999, 98765432109876543210"',
            '"\\ud800"', "true", "null", '"é 東京"'])
    if r < 0.7:
        return "[" + ", ".join(_random_value(rnd, depth + 1) for _ in range(rnd.randrange(0, 6))) + "]"
    keys = rnd.sample(["a", "b", "id", "12345678901234567890", "e1", "k\\ud801"], rnd.randrange(0, 5))
    return "{" + ", ".join(f'"{k}": {_random_value(rnd, depth + 1)}' for k in keys) + "}"


@pytest.mark.parametrize("seed", range(40))
def test_every_warning_is_found_and_placed_at_its_value(seed):
    # the fast placement (one regex pass, a walk that leaves objects early) against the plain
    # truth: the parsed tree says which values warn; locate_many says where each value starts
    import json as std

    from workbench.jsontext import locate_many
    from workbench.jsontext.warnings import JS_SAFE_INTEGER
    rnd = random.Random(seed)
    text = _random_value(rnd)
    if not text.startswith(("[", "{")):
        text = f"[{text}]"
    tree = std.loads(text, parse_float=lambda t: ("f", t), parse_int=lambda t: ("i", t))
    expected = {}

    def visit(v, ptr):
        if isinstance(v, dict):
            for k, c in v.items():
                key_ptr = ptr + "/" + k.replace("~", "~0").replace("/", "~1")
                if any(0xD800 <= ord(ch) <= 0xDFFF for ch in k):
                    expected.setdefault(key_ptr, set()).add("lone_surrogate")
                visit(c, key_ptr)
        elif isinstance(v, list):
            for i, c in enumerate(v):
                visit(c, f"{ptr}/{i}")
        elif isinstance(v, tuple):
            kind, t = v
            code = ("unsafe_integer" if abs(int(t)) > JS_SAFE_INTEGER else None) if kind == "i" else \
                (float_change(t) or (None,))[0]
            if code:
                expected.setdefault(ptr, set()).add(code)
        elif isinstance(v, str) and any(0xD800 <= ord(ch) <= 0xDFFF for ch in v):
            expected.setdefault(ptr, set()).add("lone_surrogate")

    visit(tree, "")
    warnings = [w for w in format_text(text)["warnings"] if w["code"] != "duplicate_key"]
    got = {}
    for w in warnings:
        got.setdefault(w["pointer"], set()).add(w["code"])
    assert got == expected
    spans = locate_many(text, [w["pointer"] for w in warnings if w["code"] != "lone_surrogate"])
    for w in warnings:
        if w["code"] != "lone_surrogate":
            assert w["offset"] == spans[w["pointer"]].start
