"""Validate: no confident wrong answer (issue 14) — patterns that are not ECMA-262 refused at
their place, strict format assertion, identical errors given once, the document's warnings the
same as Format's, and the one work deadline."""

from __future__ import annotations

import json

import pytest

from workbench.errors import WorkbenchError
from workbench.limits import DEFAULT_LIMITS
from workbench.validate import validate_value
from workbench.validate.patterns import not_ecma

# --------------------------------------------------------------------------- ECMA-262 patterns

NOT_ECMA = [
    ("(?i)abc", "(?i)"),
    ("(?ims)abc", "(?ims)"),
    ("(?x)a b", "(?x)"),
    ("(?i:a)", "(?i:"),
    ("(?P<n>x)", "(?P<name>"),
    ("(?P<n>a)(?P=n)", "(?P<name>"),
    ("(?#c)a", "(?#"),
    ("\\a", "\\a"),
    ("\\Aabc", "\\A"),
    ("abc\\Z", "\\Z"),
    ("abc\\z", "\\z"),
    ("\\h+", "\\h"),
    ("(?>a+)b", "(?>"),
    ("a++b", "++"),
    ("a{2}+", "{2}+"),
    ("\\e", "\\e"),
]
ECMA_OK = ["(?<!a)b", "(?<=a+)b", "(?<name>x)\\k<name>", "[]", "[^]", "\\cA", "^[A-Z]-\\d{4}$", "a*?b",
           "(?:x|y)+", "(?=a)a", "(?!b)a", "\\p{L}+", "[\\b]", "\\u{1F600}", "x{2,3}?"]


@pytest.mark.parametrize("pattern, construct", NOT_ECMA)
def test_not_ecma_patterns_refused_at_their_pointer(server, pattern, construct):
    schema = json.dumps({"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}},
                        indent=2)
    status, out = server.api("validate", {"document": '{"code": "ABC"}', "schema": schema})
    assert status == 422, out
    e = out["error"]
    assert e["code"] == "schema_invalid" and e["field"] == "schema"
    assert e["pointer"] == "/properties/code/pattern"
    assert e["line"] == 6, e  # the "pattern" member in the indented schema text
    assert "not an ECMA-262 regular expression" in e["message"] and construct in e["message"], e["message"]


def test_not_ecma_pattern_property_key_refused_at_its_key(server):
    schema = '{"patternProperties": {"(?i)^x": {"type": "string"}}}'
    status, out = server.api("validate", {"document": "{}", "schema": schema})
    assert status == 422
    assert out["error"]["pointer"] == "/patternProperties/(?i)^x"
    assert "(?i)" in out["error"]["message"] and "patternProperties key" in out["error"]["message"]


@pytest.mark.parametrize("pattern", ECMA_OK)
def test_ecma_patterns_accepted(pattern):
    assert not_ecma(pattern) is None
    assert validate_value({"pattern": pattern}, "zzz")["count"] in (0, 1)


@pytest.mark.parametrize("pattern, construct", NOT_ECMA)
def test_format_regex_calls_them_invalid(pattern, construct):
    out = validate_value({"format": "regex"}, pattern, format_assert=True)
    assert out["valid"] is False and out["errors"][0]["keyword"] == "format"
    assert validate_value({"format": "regex"}, pattern)["valid"] is True  # an annotation by default


def test_format_regex_accepts_ecma():
    for pattern in ECMA_OK:
        assert validate_value({"format": "regex"}, pattern, format_assert=True)["valid"], pattern


# --------------------------------------------------------------------------- strict formats

FORMATS = [
    ("date-time", "1998-12-31T23:59:60Z", True), ("date-time", "1998-12-31T15:59:60.123-08:00", True),
    ("date-time", "1998-12-31T22:59:60Z", False), ("date-time", "2026-02-29T00:00:00Z", False),
    ("date-time", "2026-01-01T00:00:00Z\n", False), ("date-time", "2026-01-01t00:00:00z", True),
    ("time", "23:59:60Z", True), ("time", "00:29:60-23:30", True), ("time", "12:00:60Z", False),
    ("duration", "P3Y6M4DT12H30M5S", True), ("duration", "P2W", True), ("duration", "PT0.5S", False),
    ("duration", "P1Y2D", False), ("duration", "PT1H2S", False), ("duration", "-P1D", False),
    ("duration", "P1WT1H", False),
    ("email", "joe.bloggs@example.com", True), ("email", '"joe bloggs"@example.com', True),
    ("email", "joe.bloggs@[IPv6:::1]", True), ("email", "te..st@example.com", False),
    ("email", "joe.bloggs@[127.0.0.300]", False), ("email", "user1@oceania.org, user2@oceania.org", False),
    ("idn-email", "실례@실례.테스트", True), ("idn-email", "user＠example.com", False),
    ("hostname", "example.com", True), ("hostname", "example.", False), ("hostname", "xn--X", False),
    ("hostname", "xn--bcher-kva.example", True), ("hostname", "\u212aelvin.example.com", False),
    ("idn-hostname", "bücher.example", True), ("idn-hostname", "example。", False),
    ("idn-hostname", "0a.א", False),
    ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", True), ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380-", False),
    ("uuid", "২eb8aa08-aa98-11ea-b4aa-73b441d16380", False),
    ("uri-template", "http://example.com/{term:1}/{term}", True), ("uri-template", "{a..b}", False),
    ("uri-template", "{v:1000}", True), ("uri-template", "{v:01}", False), ("uri-template", "a b", False),
    ("relative-json-pointer", "100", True), ("relative-json-pointer", "1/foo", True),
    ("relative-json-pointer", "١/foo", False), ("relative-json-pointer", "01", False),
    ("uri", "http://[::ffff:01.2.3.4]", False), ("uri", "http://[::ffff:1.2.3.4]/x", True),
    ("iri", "http://[V1.fe]", True), ("iri", "http://ñ.example/ü", True),
    ("uri-reference", "//[::ffff:192.168.0.01]/p", False),
]


@pytest.mark.parametrize("fmt, value, valid", FORMATS)
def test_strict_format_assertion(fmt, value, valid):
    out = validate_value({"format": fmt}, value, format_assert=True)
    assert out["valid"] is valid, (fmt, value, out["errors"])
    # the compiled path and jsonschema agree (both use the same checkers)
    assert out["path"] == "compiled"


def test_draft4_hostname_is_rfc1123():
    schema = {"$schema": "http://json-schema.org/draft-04/schema#", "format": "hostname"}
    assert validate_value(schema, "ab--cd.example", format_assert=True)["valid"] is True
    assert validate_value({"format": "hostname"}, "ab--cd.example", format_assert=True)["valid"] is False


def test_dependencies_still_work_in_2020_12():
    schema = {"dependencies": {"bar": ["foo"], "baz": {"required": ["qux"]}}}
    out = validate_value(schema, {"bar": 1, "baz": 2})
    assert [e["pointer"] for e in out["errors"]] == ["/foo", "/qux"]


def test_draft7_content_asserted_with_format_assert():
    schema = {"$schema": "http://json-schema.org/draft-07/schema#",
              "contentMediaType": "application/json", "contentEncoding": "base64"}
    assert validate_value(schema, "eyJmb28iOiAi", format_assert=True)["valid"] is False  # '{"foo": "'
    assert validate_value(schema, "eyJmb28iOiAxfQ==", format_assert=True)["valid"] is True
    assert validate_value(schema, "not base64 %", format_assert=True)["errors"][0]["keyword"] == "contentEncoding"
    assert validate_value(schema, "eyJmb28iOiAi")["valid"] is True  # annotations by default


# --------------------------------------------------------------------------- one record per error

def test_identical_errors_are_given_once(server):
    schema = '{"properties": {"a": {"$ref": "https://json-schema.org/draft/2020-12/schema"}}}'
    status, out = server.api("validate", {"document": '{"a": 1}', "schema": schema})
    assert status == 200, out
    assert out["count"] == 1 and len(out["errors"]) == 1, out["errors"]
    e = out["errors"][0]
    assert e["pointer"] == "/a" and e["keyword"] == "type" and e["line"] == 1


def test_distinct_errors_at_one_place_are_all_kept():
    out = validate_value({"allOf": [{"minLength": 5}, {"pattern": "^x"}]}, "abc")
    assert [e["keyword"] for e in out["errors"]] == ["minLength", "pattern"] and out["count"] == 2


# --------------------------------------------------------------------------- warnings, as Format gives them

def test_document_warnings_are_formats_warnings(server):
    text = '{"id": 12345678901234567890, "big": 1e999, "s": "\\ud800", "p": 0.1000000000000000055511151231257827}'
    status, v = server.api("validate", {"document": text, "schema": "{}"})
    assert status == 200, v
    status, f = server.api("format", {"text": text})
    assert status == 200, f
    assert v["warnings"] == f["warnings"]
    codes = {w["code"] for w in v["warnings"]}
    assert {"float_overflow", "float_precision"} <= codes and len(codes) >= 4, codes


# --------------------------------------------------------------------------- one deadline

def test_work_deadline_is_the_runtime_deadline():
    schema = {"type": "array", "items": {"anyOf": [{"pattern": "^(a|aa)+$"}, {"type": "string"}]},
              "uniqueItems": True}
    doc = ["a" * 30 + str(i) for i in range(200_000)]
    with pytest.raises(WorkbenchError) as info:
        validate_value({**schema, "items": {"not": {"not": schema["items"]}}}, doc,
                       limits=DEFAULT_LIMITS.with_(work_timeout=0.05))
    e = info.value
    assert e.code == "timeout" and e.extra["limit"] == 0.05
    assert "Validation ran longer than the limit of 0.05 s" in e.message
