"""The keywords the Validate view replaces (workbench/validate/keywords.py) and the exact number
rules they use (numbers.py), pinned for ``tests/mutation/run mutmut validate-keywords`` (issue 28).

The unit tests of test_validate.py mostly take the compiled path (workbench/validate/compiled),
which never calls these keywords.  Here every case runs through jsonschema with the keywords
(``path="jsonschema"``) and must give exactly the errors of the compiled path -- two
implementations written apart, each the other's check -- and where a schema has no compiled
form (unevaluatedProperties), the errors the specification asks for, written out.
"""

from __future__ import annotations

from decimal import Decimal

import jsonschema
import pytest

from workbench.validate import compile_schema
from workbench.validate.evaluate import evaluate
from workbench.validate.numbers import canonical, first_duplicate, is_integral, is_multiple

CASES = [
    ({"pattern": "^[A-Z]-\\d{4}$"}, ["A-1042", "a-1042", "B-12345", 5, "x" * 80]),
    ({"patternProperties": {"^x_": {"type": "integer"}, "id$": {"type": "string"}}},
     [{"x_a": 1, "order_id": "A"}, {"x_a": "1", "order_id": 2, "other": None}, [1]]),
    ({"properties": {"a": {}}, "patternProperties": {"^x": {}}, "additionalProperties": False},
     [{"a": 1, "xy": 2}, {"a": 1, "b": 2, "c": 3}, "s", {"xy": 1, "b": 2, "a": 3, "c": 4}]),
    ({"properties": {"a": {}}, "additionalProperties": {"type": "string"}},
     [{"a": 1, "b": "s"}, {"a": 1, "b": 2, "c": "x", "d": None}]),
    ({"additionalProperties": True}, [{"a": 1}]),
    ({"required": ["order_id", "reason"]}, [{"order_id": 1}, {}, {"order_id": 1, "reason": 2}, [1]]),
    ({"dependentRequired": {"refund": ["reason", "amount"], "x": []}},
     [{"refund": 1}, {"refund": 1, "reason": 2}, {"reason": 1}, {"refund": 1, "reason": 1, "amount": 2}, 3]),
    ({"$schema": "http://json-schema.org/draft-07/schema#",
      "dependencies": {"refund": ["reason"], "a": {"required": ["b"]}}},
     [{"refund": 1}, {"a": 1}, {"a": 1, "b": 2, "refund": 1, "reason": 0}, "s"]),
    ({"multipleOf": 0.01}, [1.23, 1.234, 5, "1", 0, -0.07]),
    # a caller's non-finite number is no multiple of anything (is_multiple raises on it)
    ({"multipleOf": 3}, [9, 10, Decimal("1e400"), Decimal("3e-2"), 2.5, Decimal("Infinity"),
                         Decimal("NaN")]),
    ({"uniqueItems": True}, [[1, 2, 3], [1, 2, 1], [{"a": 1}, {"a": 1.0}], [True, 1], [[1], [1]], "x"]),
    ({"uniqueItems": False}, [[1, 1]]),
    ({"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}},
     [{"abc": 1}, {"ABC": 1, "abcd": 2}, {"propertyNames": 1}, 4]),
    ({"properties": {"a": {}}, "unevaluatedProperties": False},
     [{"a": 1}, {"a": 1, "b": 2}, {"b": 1, "c": 2}]),
    ({"allOf": [{"properties": {"a": {}}}], "anyOf": [{"properties": {"b": {}}}, {"required": ["z"]}],
      "unevaluatedProperties": {"type": "integer"}},
     [{"a": "s", "b": "s", "c": 1}, {"a": 1, "c": "x"}, {"z": "q", "d": []}]),
    ({"if": {"required": ["k"]}, "then": {"properties": {"t": {}}}, "else": {"properties": {"e": {}}},
      "patternProperties": {"^p": {}}, "dependentSchemas": {"d": {"properties": {"dd": {}}}},
      "unevaluatedProperties": False},
     [{"k": 1, "t": 1}, {"k": 1, "e": 1}, {"e": 1, "p1": 2}, {"t": 1}, {"d": 1, "dd": 2, "x": 3}]),
    ({"$defs": {"r": {"properties": {"a": {}}}}, "$ref": "#/$defs/r", "unevaluatedProperties": False},
     [{"a": 1}, {"a": 1, "b": 2}]),
    ({"$schema": "https://json-schema.org/draft/2019-09/schema",
      "properties": {"a": {}}, "additionalProperties": {"type": "string"}, "unevaluatedProperties": False},
     [{"a": 1, "b": "s"}, {"a": 1, "b": 2}, {"type": "s"}]),
    ({"$schema": "https://json-schema.org/draft/2019-09/schema",
      "allOf": [{"properties": {"a": {}}}, {"additionalProperties": True}], "unevaluatedProperties": False},
     [{"a": 1, "b": 2}]),
    ({"$schema": "https://json-schema.org/draft/2019-09/schema",
      "$defs": {"r": {"properties": {"a": {}}}}, "$ref": "#/$defs/r",
      "anyOf": [{"unevaluatedProperties": True}, {"required": ["q"]}],
      "unevaluatedProperties": False},
     [{"a": 1}, {"a": 1, "b": 2}, {"q": 1}]),
    ({"format": "date"}, ["2024-01-31", "2024-13-01", 5]),
    ({"type": "integer"}, [1, 1.0, 1.5, "1", True, None]),
    ({"type": ["string", "null"]}, ["a", None, 1, [], {}]),
    # true is no 1 and 0 no false (JSON equality, not Python's)
    ({"enum": ["a", "b", 1, {"x": [1]}]}, ["a", "c", 1.0, {"x": [1.0]}, {"x": [2]}, None, True]),
    ({"enum": [False, 0.5]}, [False, 0, Decimal("0.50")]),
    ({"const": {"a": [1, 2]}}, [{"a": [1, 2]}, {"a": [2, 1]}, {"a": [1.0, 2.0]}]),
    ({"const": "x" * 100}, ["x" * 100, "y"]),
    ({"minItems": 2, "maxItems": 3}, [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4], "ab"]),
    ({"minProperties": 1, "maxProperties": 2}, [{}, {"a": 1}, {"a": 1, "b": 2, "c": 3}, []]),
    ({"not": {"type": "string"}}, ["s", 1]),
    ({"anyOf": [{"type": "string"}, {"minimum": 3}]}, ["s", 4, 2, None]),
    ({"oneOf": [{"type": "integer"}, {"minimum": 3}, {"maximum": 10}]}, [1, 4, 20, 2.5, "s"]),
    ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, ["s", 1, None]),
    # the closest alternative is the one with the fewest errors: each error must carry the index
    # of its alternative (5 fails minimum and multipleOf of the first, only maximum of the second)
    ({"oneOf": [{"minimum": 10, "multipleOf": 7}, {"maximum": 0}]}, [5, 14, -1]),
    ({"anyOf": [{"minimum": 10, "multipleOf": 7}, {"maximum": 0}]}, [5, 14, -1]),
    ({"contains": {"type": "string"}}, [[1, "a"], [1, 2], [], "s"]),
    ({"contains": {"type": "string"}, "minContains": 2, "maxContains": 3},
     [["a"], ["a", "b"], ["a", "b", "c", "d"], [1, 2], ["a", "b", "c"]]),
    ({"contains": {"type": "string"}, "minContains": 0}, [[], [1]]),
    ({"$schema": "http://json-schema.org/draft-07/schema#", "contains": {"const": 1}}, [[1], [2], [], "s"]),
    ({"$schema": "http://json-schema.org/draft-06/schema#", "contains": {"const": 1}}, [[2, 1], [2]]),
    ({"maxLength": 3}, ["abcd" * 30, "ab"]),
    ({"type": "object"}, [{"a": 1}, [1, 2, 3], 12345678901234567890123456789012345678901234567890123456789012345, "é" * 70]),
]


def value(x):
    """A value as workbench.jsontext.parse gives it: numbers with a fraction are Decimals."""
    if isinstance(x, float):
        return Decimal(repr(x))
    if isinstance(x, dict):
        return {k: value(v) for k, v in x.items()}
    if isinstance(x, list):
        return [value(v) for v in x]
    return x


def errors(result) -> list[tuple]:
    return [(e["pointer"], e["keyword"], e["message"], e["schema_pointer"]) for e in result["errors"]]


COMPILED = [(s, i) for s, insts in CASES for i in insts if "unevaluatedProperties" not in s]


# ids without a backslash or a non-ASCII character: mutmut selects tests by id on pytest's command
# line, where an escaped one is not found (tests/mutation/mutation_fastonly.py)
@pytest.mark.parametrize("schema, instance", COMPILED,
                         ids=[f"{s}-{i}"[:60].encode("unicode_escape").decode("ascii").replace("\\", "%")
                              for s, i in COMPILED])
def test_the_keywords_give_the_compiled_paths_errors(schema, instance):
    compiled = compile_schema(value(schema), format_assert="format" in schema)
    fast = evaluate(compiled, value(instance))
    slow = evaluate(compiled, value(instance), path="jsonschema")
    assert (fast["path"], slow["path"]) == ("compiled", "jsonschema")
    assert errors(slow) == errors(fast)
    assert (slow["valid"], slow["count"]) == (fast["valid"], fast["count"])


def test_the_corpus_fails_and_passes_every_keyword():
    # every case has an instance that passes and (all but the always-true ones) one that fails
    for schema, insts in CASES:
        compiled = compile_schema(value(schema), format_assert="format" in schema)
        valid = [evaluate(compiled, value(i), path="jsonschema")["valid"] for i in insts]
        assert True in valid, schema
        if schema not in ({"additionalProperties": True}, {"uniqueItems": False},
                          {"contains": {"type": "string"}, "minContains": 0}) and \
                "unevaluatedProperties" not in schema:
            assert False in valid, schema


UNEVAL = "unevaluatedProperties"
NOT_ALLOWED = 'Property "{}" is not allowed ("unevaluatedProperties": false)'
D2019 = "https://json-schema.org/draft/2019-09/schema"


@pytest.mark.parametrize("schema, instance, found", [
    ({"properties": {"a": {}}, UNEVAL: False}, {"a": 1}, []),
    ({"properties": {"a": {}}, UNEVAL: False}, {"b": 1, "a": 2, "c": 3}, ["/b", "/c"]),
    # allOf and a passing anyOf branch evaluate their properties; a failing branch does not
    ({"allOf": [{"properties": {"a": {}}}], "anyOf": [{"properties": {"b": {}}}, {"required": ["z"]}],
      UNEVAL: False}, {"a": 1, "b": 2, "c": 3}, ["/c"]),
    ({"oneOf": [{"properties": {"a": {}}, "required": ["a"]}, {"required": ["q"]}], UNEVAL: False},
     {"a": 1, "b": 2}, ["/b"]),
    # if/then/else: "if" evaluates only what it names; then when it passes, else when it fails
    ({"if": {"required": ["k"]}, "then": {"properties": {"t": {}}}, "else": {"properties": {"e": {}}},
      UNEVAL: False}, {"k": 1, "t": 1, "e": 1}, ["/k", "/e"]),
    ({"if": {"properties": {"k": {"const": 1}}}, "then": {"properties": {"t": {}}}, UNEVAL: False},
     {"k": 1, "t": 1}, []),
    ({"if": {"required": ["k"]}, "else": {"properties": {"e": {}}}, UNEVAL: False},
     {"e": 1, "t": 1}, ["/t"]),
    ({"if": {"required": ["k"]}, "then": {"properties": {"t": {}}}, UNEVAL: False},
     {"e": 1, "t": 1}, ["/e", "/t"]),
    ({"patternProperties": {"^p": {}}, UNEVAL: False}, {"p1": 1, "q": 2}, ["/q"]),
    ({"dependentSchemas": {"d": {"properties": {"dd": {}}}}, UNEVAL: False},
     {"d": 1, "dd": 2, "x": 3}, ["/d", "/x"]),
    ({"dependentSchemas": {"d": {"properties": {"dd": {}}}}, UNEVAL: False}, {"dd": 2}, ["/dd"]),
    ({"$defs": {"r": {"properties": {"a": {}}}}, "$ref": "#/$defs/r", UNEVAL: False},
     {"a": 1, "b": 2}, ["/b"]),
    ({"$defs": {"r": {"$dynamicAnchor": "r", "properties": {"a": {}}}}, "$dynamicRef": "#r",
      UNEVAL: False}, {"a": 1, "b": 2}, ["/b"]),
    ({"additionalProperties": {"type": "string"}, UNEVAL: False}, {"a": "s", "b": 2}, ["/b", "/b"]),
    # a boolean subschema evaluates nothing itself; $ref and $dynamicRef side by side both count
    ({"allOf": [True, {"properties": {"a": {}}}], UNEVAL: False}, {"a": 1, "b": 2}, ["/b"]),
    # an applicator's subschema evaluates keys only when the object itself passes it
    ({"anyOf": [{"type": "object", "properties": {"b": {}}}], UNEVAL: False}, {"b": 1}, []),
    ({"patternProperties": {"^p": {}}, "dependentSchemas": {"d": {"properties": {"dd": {}}}},
      UNEVAL: False}, {"p1": 1, "d": 1, "dd": 2}, ["/d"]),
    ({"$defs": {"r": {"properties": {"a": {}}}, "d": {"$dynamicAnchor": "d", "properties": {"b": {}}}},
      "$ref": "#/$defs/r", "$dynamicRef": "#d", UNEVAL: False}, {"a": 1, "b": 2, "c": 3}, ["/c"]),
    ({UNEVAL: {"type": "integer"}, "properties": {"a": {}}}, {"a": "s", "b": 1}, []),
    ({"allOf": [{UNEVAL: True}], UNEVAL: False}, {"a": 1}, []),
    ({"properties": {"a": {}}, UNEVAL: {}}, {"a": 1, "b": 2}, []),     # {} takes any value
    # 2019-09: additionalProperties evaluates the keys it applies to (and passes), not names
    # like its own keywords
    ({"$schema": D2019, "properties": {"a": {}}, "additionalProperties": {"type": "string"},
      UNEVAL: False}, {"a": 1, "type": "s", "b": 2}, ["/b", "/b"]),
    ({"$schema": D2019, "allOf": [{"additionalProperties": True}], UNEVAL: False}, {"a": 1}, []),
    ({"$schema": D2019, "allOf": [{"additionalProperties": False, "properties": {"a": {}}}],
      UNEVAL: False}, {"a": 1}, []),
    ({"$schema": D2019, "allOf": [{UNEVAL: True}], UNEVAL: False}, {"a": 1, "b": 2}, []),
    ({"$schema": D2019, "allOf": [{UNEVAL: {"type": "string"}}], UNEVAL: False},
     {"a": "s"}, []),
    ({"$schema": D2019, "anyOf": [{UNEVAL: {"type": "string"}}, True], UNEVAL: False},
     {"a": 1}, ["/a"]),
    ({"$schema": D2019, "$defs": {"r": {"properties": {"a": {}}}}, "$ref": "#/$defs/r",
      UNEVAL: False}, {"a": 1, "b": 2}, ["/b"]),
    ({"$schema": D2019, "patternProperties": {"^p": {}}, "if": {"required": ["k"]},
      "then": {"properties": {"t": {}}}, UNEVAL: False}, {"p": 1, "k": 1, "t": 2}, ["/k"]),
])
def test_unevaluated_properties_as_the_specification_reads(schema, instance, found):
    r = evaluate(compile_schema(schema), instance)
    assert r["path"] == "jsonschema"
    assert [e["pointer"] for e in r["errors"]] == found
    for e in r["errors"]:
        if e["keyword"] == UNEVAL and e["message"].startswith("Property"):
            assert e["message"] == NOT_ALLOWED.format(e["pointer"][1:])


def test_an_unevaluated_property_that_fails_its_schema_says_why():
    r = evaluate(compile_schema({"properties": {"a": {}}, UNEVAL: {"type": "integer"}}),
                 {"a": 1, "c": "x"})
    assert errors(r) == [("/c", UNEVAL, 'Unevaluated property fails "unevaluatedProperties": '
                          'Expected integer, got string "x"', "/unevaluatedProperties")]


# --------------------------------------------------------------------------- numbers.py

@pytest.mark.parametrize("v, d, ok", [
    (9, 3, True), (10, 3, False), (0, 7, True), (-9, 3, True),
    (Decimal("1.23"), Decimal("0.01"), True), (Decimal("1.234"), Decimal("0.01"), False),
    (Decimal("1e400"), 3, False), (Decimal("3e400"), 3, True), (Decimal("1e400"), Decimal("1e-5"), True),
    (5, Decimal("0.5"), True), (Decimal("0.75"), Decimal("0.5"), False),
    (Decimal("4.5"), Decimal("1.5"), True), (Decimal("-4.5"), Decimal("1.5"), True),
    (1, Decimal("1e-400"), True), (Decimal("1e-400"), 1, False), (Decimal("0.0"), Decimal("0.3"), True),
    (7, Decimal("0"), False), (Decimal("12345678901234567890123"), 3, True),
    (Decimal("12345678901234567890124"), 3, False), (0.3, 0.1, True), (0.35, 0.1, False),
    (Decimal("1E+2"), 25, True), (Decimal("1E+2"), 30, False), (24, Decimal("1.6E+1"), False),
    (32, Decimal("1.6E+1"), True), (Decimal("2E-3"), Decimal("4E-3"), False),
])
def test_multiple_of_exactly(v, d, ok):
    assert is_multiple(v, d) is ok


def test_multiple_of_a_huge_power_of_ten_is_cheap_and_exact():
    assert is_multiple(Decimal("1e100000"), 7) is False
    assert is_multiple(Decimal("7e100000"), 7) is True
    assert is_multiple(Decimal("1e100000"), 2 ** 60) is True
    assert is_multiple(3, Decimal("1e-100000")) is True
    assert is_multiple(Decimal("1e-100000"), 3) is False
    with pytest.raises(ValueError):
        is_multiple(Decimal("Infinity"), 3)


@pytest.mark.parametrize("x, integral", [
    (1, True), (True, False), (False, False), (Decimal("1.0"), True), (Decimal("1.5"), False),
    (Decimal("1e2"), True), (Decimal("100e-2"), True), (Decimal("101e-2"), False),
    (Decimal("NaN"), False), (Decimal("Infinity"), False), (2.0, True), (2.5, False), ("1", False),
    (None, False), (Decimal("-0.0"), True),
])
def test_integral_numbers(x, integral):
    assert is_integral(x) is integral


def test_integer_type_per_draft():
    for draft, one_point_zero in (("http://json-schema.org/draft-04/schema#", False),
                                  ("http://json-schema.org/draft-06/schema#", True),
                                  ("https://json-schema.org/draft/2020-12/schema", True)):
        schema = {"$schema": draft, "type": "integer"}
        assert evaluate(compile_schema(schema), Decimal("1.0"), path="jsonschema")["valid"] is \
            one_point_zero, draft
        assert evaluate(compile_schema(schema), 1, path="jsonschema")["valid"] is True
        assert evaluate(compile_schema(schema), True, path="jsonschema")["valid"] is False


@pytest.mark.parametrize("a, b, same", [
    (1, Decimal("1.0"), True), (1, True, False), (0, False, False), (None, False, False),
    ({"a": 1, "b": [2]}, {"b": [Decimal("2.00")], "a": Decimal("1")}, True),
    ({"a": 1}, {"a": 2}, False), ([1, 2], [2, 1], False), ("1", 1, False),
    (10 ** 40, Decimal("1e40"), True), (10 ** 40, Decimal("1" + "0" * 39 + "1"), False),
    (Decimal("1.50"), Decimal("1.5"), True), (Decimal("-1.5"), Decimal("1.5"), False),
    (Decimal("0.00"), 0, True), (Decimal("-0"), 0, True), (Decimal("1E+29"), 10 ** 29, True),
    (Decimal("1E+30"), 10 ** 30, True), (Decimal("25E-1"), Decimal("2.5"), True),
    # 30 digits: an int below 10**30 is keyed by its value, a Decimal of 30 digits must be too
    # (uniqueItems took [100000000000000000000000000000, 1e29] for two different numbers)
    (Decimal("1.2345678901234567890123456789E+29"), 123456789012345678901234567890, True),
    (-(10 ** 29), Decimal("-1e29"), True), (10 ** 29 - 1, Decimal("1e29"), False),
    (Decimal("NaN"), Decimal("NaN"), True), (0.5, Decimal("0.5"), True), ([], {}, False),
    ([[1]], [[Decimal("1.0")]], True), ("a", ("s", "a"), False),
    # a fraction is keyed exactly, never through a float (0.1 and 0.1000…01 are one float)
    (Decimal("0.1"), Decimal("0.10000000000000000000001"), False), (Decimal("1E-400"), 0, False),
    (Decimal("NaN"), Decimal("Infinity"), False), (Decimal("Infinity"), Decimal("-Infinity"), False),
])
def test_canonical_keys_are_json_equality(a, b, same):
    assert (canonical(a) == canonical(b)) is same


@pytest.mark.parametrize("items, pair", [
    ([1, 2, 3], None), ([1, 2, 1], (0, 2)), ([1, 2, 2, 1], (1, 2)), ([], None),
    ([{"a": 1}, {"a": Decimal("1.0")}], (0, 1)), ([True, 1, False, 0], None),
    ([[1], [1]], (0, 1)), (["a", "b", "a"], (0, 2)),
    ([{1, 2}, [3], {1, 2}], (0, 2)),            # not JSON: a set is keyed by its repr()
    ([10 ** 29, Decimal("1e29")], (0, 1)),
])
def test_the_first_duplicate_and_its_first_equal(items, pair):
    assert first_duplicate(items) == pair


def test_unique_items_error_names_the_pair():
    r = evaluate(compile_schema({"uniqueItems": True}), [1, 2, Decimal("1.0")], path="jsonschema")
    assert errors(r) == [("", "uniqueItems", "Items 0 and 2 are equal, but uniqueItems requires "
                          "every item to differ", "/uniqueItems")]


D7 = "http://json-schema.org/draft-07/schema#"
B64_JSON = {"$schema": D7, "contentEncoding": "base64", "contentMediaType": "application/json"}


@pytest.mark.parametrize("schema, instance, found", [
    (B64_JSON, "eyJhIjogMX0=", []),                               # {"a": 1}
    (B64_JSON, "eyJhIjog", [("contentMediaType", "The string does not hold a valid "
                             "application/json document (contentMediaType)")]),   # {"a":
    (B64_JSON, "!!!", [("contentEncoding", '"!!!" is not valid base64 (contentEncoding)')]),
    (B64_JSON, "/w==", [("contentMediaType", "The string does not hold a valid "
                         "application/json document (contentMediaType)")]),       # not UTF-8
    (B64_JSON, 5, []),
    ({"$schema": D7, "contentMediaType": "Application/JSON; charset=utf-8"}, '{"a": 1}', []),
    ({"$schema": D7, "contentMediaType": "Application/JSON; charset=utf-8"}, "{",
     [("contentMediaType", "The string does not hold a valid Application/JSON; charset=utf-8 "
                           "document (contentMediaType)")]),
    ({"$schema": D7, "contentEncoding": "BASE64", "contentMediaType": "text/plain"}, "aGk=", []),
    ({"$schema": D7, "contentEncoding": "BASE64", "contentMediaType": "text/plain"}, "a",
     [("contentEncoding", '"a" is not valid BASE64 (contentEncoding)')]),
    ({"$schema": D7, "contentEncoding": "quoted-printable"}, "=ZZ", []),
])
def test_content_keywords_assert_base64_and_json_when_formats_do(schema, instance, found):
    asserted = evaluate(compile_schema(schema, format_assert=True), instance)
    assert [(e["keyword"], e["message"]) for e in asserted["errors"]] == found
    # annotations only when formats are not asserted
    assert evaluate(compile_schema(schema), instance)["valid"] is True


# --------------------------------------------------------------------------- survivors of the run
# of 2026-12-02 afternoon (tests/mutation/run mutmut validate-keywords): each test names the rule
# a surviving mutant broke

@pytest.mark.parametrize("v, d, ok", [
    # the value has more decimals than the divisor (its exponent is the smaller): 1.50 = 3 × 0.5
    (Decimal("1.50"), Decimal("0.5"), True), (Decimal("1.50"), Decimal("0.4"), False),
    (Decimal("0.30"), Decimal("0.1"), True), (Decimal("0.35"), Decimal("0.1"), False),
    (Decimal("1.500"), Decimal("0.5"), True), (Decimal("1.100"), Decimal("0.5"), False),  # 1100 % 500
    # more than 18 digits: the mantissa is read through Decimal, the last digit counts
    (Decimal("1234567890123456789.1"), Decimal("0.2"), False),
    (Decimal("1234567890123456789.2"), Decimal("0.2"), True),
    # 5,000 digits: past Python's 4,300-digit int(str) limit, still exact (3…3 = 3 × 1…1)
    (Decimal("3" * 5000), 3, True), (Decimal("3" * 4999 + "4"), 3, False),
    (Decimal("3" * 5000), Decimal("0.3"), True),
])
def test_multiple_of_with_more_decimals_or_digits_than_the_divisor(v, d, ok):
    assert is_multiple(v, d) is ok


def test_multiple_of_through_the_validator_with_long_numbers():
    compiled = compile_schema({"multipleOf": 3})
    for text, valid in (("3" * 5000, True), ("3" * 4999 + "4", False)):
        for path in ("compiled", "jsonschema"):
            r = evaluate(compiled, Decimal(text), path=path)
            assert r["valid"] is valid, (path, text[-3:])


@pytest.mark.parametrize("x, integral", [
    # "5E0", "0e0", "-7e+0" parse to Decimals with exponent 0: whole numbers (draft 6 on)
    (Decimal("5"), True), (Decimal("0"), True), (Decimal("-7"), True), (Decimal("5E0"), True),
    (Decimal("-0"), True), (Decimal("12E-1"), False), (Decimal("1E+1"), True),
])
def test_integral_numbers_with_exponent_zero(x, integral):
    assert is_integral(x) is integral
    r = evaluate(compile_schema({"type": "integer"}), x, path="jsonschema")
    assert r["valid"] is integral


@pytest.mark.parametrize("a, b", [
    (-(10 ** 30), Decimal("-1E+30")), (-(10 ** 30) + 1, Decimal("-999999999999999999999999999999")),
    (10 ** 30 - 1, Decimal("999999999999999999999999999999")),
])
def test_canonical_keys_at_the_bound_of_the_int_fast_path(a, b):
    assert canonical(a) == canonical(b)
    assert first_duplicate([a, b]) == (0, 1)


def test_the_closest_alternative_of_one_of_is_the_one_with_the_fewest_errors():
    schema = {"oneOf": [{"minimum": 10, "multipleOf": 7}, {"maximum": 0}]}
    r = evaluate(compile_schema(schema), 5, path="jsonschema")
    assert errors(r) == [("", "oneOf", "The value matches none of the 2 alternatives in oneOf; closest "
                          "alternative: 5 is greater than the maximum 0", "/oneOf")]


def test_unevaluated_properties_through_a_ref_resolve_relative_refs_at_the_target():
    # the $ref lands in the resource https://example.com/b/x, whose relative "z" is
    # https://example.com/b/z: the properties it evaluates are looked up from there
    schema = {"$id": "https://example.com/a/root",
              "$defs": {"x": {"$id": "https://example.com/b/x", "$defs": {"y": {"$ref": "z"}}},
                        "z": {"$id": "https://example.com/b/z", "properties": {"q": {}}}},
              "$ref": "https://example.com/b/x#/$defs/y", UNEVAL: False}
    compiled = compile_schema(schema)
    assert evaluate(compiled, {"q": 1})["errors"] == []
    assert [(e["pointer"], e["message"]) for e in evaluate(compiled, {"q": 1, "r": 2})["errors"]] == [
        ("/r", NOT_ALLOWED.format("r"))]


def test_unevaluated_properties_through_a_ref_read_the_target_in_its_own_draft():
    # the $ref lands in a draft-07 resource, where $ref hides its siblings: "a": "s" passes its
    # additionalProperties (the "type" beside the $ref is not applied), so "a" is evaluated
    schema = {"$defs": {"r": {"$id": "urn:r", "$schema": "http://json-schema.org/draft-07/schema#",
                              "definitions": {"any": {}},
                              "additionalProperties": {"$ref": "#/definitions/any", "type": "integer"}}},
              "$ref": "urn:r", UNEVAL: False}
    compiled = compile_schema(schema)
    for instance in ({"a": "s"}, {"a": 1}):
        r = evaluate(compiled, instance)
        assert (r["path"], r["valid"], r["errors"]) == ("jsonschema", True, []), instance


def test_unevaluated_properties_2019_through_recursive_ref_and_ref_together():
    # at /child, "$ref" evaluates "e" and "$recursiveRef": "#" (the root) evaluates "name": only
    # "x" is left; jsonschema's own Draft201909Validator says the same
    schema = {"$schema": D2019, "$defs": {"extra": {"properties": {"e": {}}}},
              "properties": {"name": {}, "child": {"$ref": "#/$defs/extra", "$recursiveRef": "#",
                                                   UNEVAL: False}}}
    compiled = compile_schema(schema)
    for instance, found in (({"name": 1, "child": {"name": 2, "e": 3, "x": 4}}, ["/child/x"]),
                            ({"child": {"name": 2, "e": 3}}, [])):
        r = evaluate(compiled, instance)
        assert [(e["pointer"], e["keyword"]) for e in r["errors"]] == [(p, UNEVAL) for p in found]
        library = jsonschema.Draft201909Validator(schema)
        assert [list(e.absolute_path) for e in library.iter_errors(instance)] == \
            [p.split("/")[1:2] for p in found]


def test_unevaluated_properties_2019_keeps_the_properties_beside_additional_properties_true():
    schema = {"$schema": D2019, "properties": {"a": {}}, "additionalProperties": True, UNEVAL: False}
    assert evaluate(compile_schema(schema), {"a": 1, "b": 2})["errors"] == []


def test_a_huge_exponent_is_keyed_as_an_exponent():
    # no 100,001-digit int is built for 1e100000 (uniqueItems keys every item)
    assert canonical(Decimal("1E+100000")) == ("n", 0, (1,), 100000)
    assert canonical(Decimal("-25E+99999")) == ("n", 1, (2, 5), 99999)


def test_the_keywords_own_messages_stay_short_for_a_huge_value():
    # keywords.py's point: the library's messages repr() the whole instance (megabytes per error);
    # these carry at most 60 characters of it, whatever the value
    compiled = compile_schema({"pattern": "^y", "type": "object"})
    for instance in ("x" * 1_000_000, Decimal("9" * 5000)):
        messages = [e.message for e in compiled.validator.iter_errors(instance)]
        assert messages and all(len(m) < 200 for m in messages), [len(m) for m in messages]


def test_enum_that_is_no_list_is_compared_member_by_member_for_a_string_instance():
    """kw_enum's string shortcut (``instance in enums``) is taken only for a list: with a string
    as ``enum`` (a schema the library was told not to check against its metaschema) the shortcut
    would test substrings — "ab" is in "abc" — where the keyword compares each member ("a", "b",
    "c"), none equal to "ab"."""
    from workbench.validate.keywords import kw_enum
    errors = list(kw_enum(None, "abc", "ab", {}))
    assert [e.message for e in errors] == ["'ab' is not one of the enum values"]
    assert list(kw_enum(None, "abc", "b", {})) == []
    assert list(kw_enum(None, ["abc"], "ab", {}))[0].message == "'ab' is not one of the enum values"
