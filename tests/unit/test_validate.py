"""Schema Validate (issue 5): located errors, nothing fetched, bounded time, exact numbers,
tool definitions and their strictness review -- through the core and the real server."""

from __future__ import annotations

import json
import socket
import sys
import time
from decimal import Decimal

import pytest
from conftest import start_server, stop_server

from workbench.errors import WorkbenchError
from workbench.jsontext import parse
from workbench.limits import DEFAULT_LIMITS
from workbench.validate import compile_schema, handle, tool_parameters, validate_value
from workbench.validate.numbers import is_multiple
from workbench.validate.patterns import ecma_to_python
from workbench.validate.review import looks_like_id, review_schema

LOOKUP_ORDER = """{
  "type": "function",
  "name": "lookup_order",
  "description": "Look up an order.",
  "parameters": {
    "type": "object",
    "properties": {
      "order_id": {"type": "string", "pattern": "^[A-Z]-\\\\d{4}$"},
      "reason": {"type": "string"}
    },
    "required": ["order_id", "reason"],
    "additionalProperties": false
  }
}"""


def P(text):
    return parse(text).value


def core(schema, instance, **kw):
    return validate_value(P(schema) if isinstance(schema, str) else schema,
                          P(instance) if isinstance(instance, str) else instance, **kw)


def refused(fn, *args, **kw) -> WorkbenchError:
    with pytest.raises(WorkbenchError) as info:
        fn(*args, **kw)
    return info.value


@pytest.fixture(scope="module")
def quick_regex_server():
    """A server whose pattern limit is 0.3 s.  The regex package counts the CPU time of the match
    (1 s by default): on a loaded machine the wall time is a multiple of it."""
    s = start_server("--regex-timeout", "0.3")
    s.api("validate", {"document": "1", "schema": "{}"})  # warm up: imports are not what is timed
    yield s
    stop_server(s)


# --------------------------------------------------------------------------- located errors

def test_refund_and_order_id_pointers_with_line_and_column(server):
    document = '{\n  "reason": "late",\n  "refund": 25.00\n}'
    status, out = server.api("validate", {"document": document, "schema": LOOKUP_ORDER})
    assert status == 200, out
    assert out["valid"] is False and out["count"] == 2 and out["draft"] == "2020-12"
    assert out["tool"] == "lookup_order"
    missing, extra = out["errors"]  # document order: the object (line 1) before its key on line 3
    assert missing["pointer"] == "/order_id" and missing["keyword"] == "required"
    assert (missing["line"], missing["column"]) == (1, 1)  # the parent object's place
    assert "order_id" in missing["message"]
    assert missing["schema_pointer"] == "/parameters/required"
    assert extra["pointer"] == "/refund" and extra["keyword"] == "additionalProperties"
    assert (extra["line"], extra["column"]) == (3, 3)  # the key itself
    assert extra["schema_pointer"] == "/parameters/additionalProperties"
    assert extra["schema_line"] == 12


def test_pattern_error_at_the_value_and_every_error_in_document_order(server):
    document = '[\n {"b": 1, "a": "x"},\n {"a": 2}\n]'
    schema = json.dumps({"items": {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
                                   "required": ["c"]}})
    status, out = server.api("validate", {"document": document, "schema": schema})
    assert status == 200
    got = [(e["pointer"], e["keyword"], e["line"], e["column"]) for e in out["errors"]]
    assert got == [("/0/c", "required", 2, 2), ("/0/b", "type", 2, 8), ("/0/a", "type", 2, 16),
                   ("/1/c", "required", 3, 2)]


def test_refs_are_followed_to_the_schema_pointer():
    schema = {"$defs": {"id": {"type": "string", "pattern": "^[A-Z]-\\d{4}$"}},
              "properties": {"order_id": {"$ref": "#/$defs/id"}}}
    out = core(schema, '{"order_id": "nope"}')
    (e,) = out["errors"]
    assert e == {"pointer": "/order_id", "keyword": "pattern", "schema_pointer": "/$defs/id/pattern",
                 "message": '"nope" does not match the pattern ^[A-Z]-\\d{4}$'}
    assert set(out) >= {"valid", "errors", "draft"}


def test_property_names_point_at_the_key():
    out = core('{"propertyNames": {"maxLength": 3}}', '{"ok": 1, "toolong": 2}')
    (e,) = out["errors"]
    assert e["pointer"] == "/toolong" and e["keyword"] == "maxLength"
    assert e["message"].startswith('Property name "toolong"')


def test_any_of_names_the_closest_alternative():
    out = core('{"anyOf": [{"type": "string"}, {"type": "object", "required": ["id"]}]}', '{"x": 1}')
    (e,) = out["errors"]
    assert e["keyword"] == "anyOf" and 'closest alternative: Required property "id" is missing' in e["message"]


def test_a_flood_of_errors_keeps_the_first_in_document_order():
    # the root's maxItems error is found after 20,000 item errors but comes first in the document
    out = core('{"items": {"type": "string"}, "maxItems": 3}', json.dumps(list(range(20_000))),
               limits=DEFAULT_LIMITS.with_(max_errors=3))
    assert out["count"] == 20_001 and out["truncated"] is True
    assert [(e["pointer"], e["keyword"]) for e in out["errors"]] == [("", "maxItems"), ("/0", "type"), ("/1", "type")]
    assert out["errors"][0]["message"] == "Array has 20000 items; at most 3 allowed"


def test_truncated_count_and_only_first_errors():
    out = core('{"items": {"type": "string"}}', json.dumps(list(range(50))),
               limits=DEFAULT_LIMITS.with_(max_errors=5))
    assert out["count"] == 50 and out["truncated"] is True
    assert [e["pointer"] for e in out["errors"]] == ["/0", "/1", "/2", "/3", "/4"]


# --------------------------------------------------------------------------- nothing fetched

REMOTE_SCHEMAS = [
    ({"$ref": "http://example.com/schema.json"}, "http://example.com/schema.json"),
    ({"$ref": "https://example.com/schema.json#/a"}, "https://example.com/schema.json#/a"),
    ({"$ref": "file:///etc/passwd"}, "file:///etc/passwd"),
    ({"properties": {"a": {"$ref": "file:///tmp/x.json"}}}, "file:///tmp/x.json"),
    ({"$id": "http://example.com/root.json", "items": {"$ref": "other.json"}}, "other.json"),
    ({"$defs": {"x": {"$ref": "https://json-schema.org/nope"}}}, "https://json-schema.org/nope"),
]

AUDITED = {"socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "open", "os.open",
           "urllib.Request", "subprocess.Popen"}
_audit = {"on": False, "events": []}


def _hook(event, args):
    if _audit["on"] and event in AUDITED:
        _audit["events"].append((event, repr(args)[:120]))


sys.addaudithook(_hook)


def test_remote_refs_open_no_socket_and_no_file(monkeypatch):
    def forbidden(*a, **k):
        raise AssertionError("the network was touched")

    monkeypatch.setattr(socket.socket, "connect", forbidden)
    monkeypatch.setattr(socket, "getaddrinfo", forbidden)
    # warm up: every import and lazy table is loaded before auditing
    handle({"document": "{}", "schema": '{"type": "object"}', "format_assert": True}, DEFAULT_LIMITS)
    for schema, ref in REMOTE_SCHEMAS:
        body = {"document": '{"a": 1}', "schema": json.dumps(schema)}
        _audit.update(on=True, events=[])
        try:
            err = refused(handle, body, DEFAULT_LIMITS)
        finally:
            _audit["on"] = False
        assert _audit["events"] == [], (schema, _audit["events"])
        assert err.status == 422 and err.code == "ref_unresolvable", err.to_dict()
        assert err.extra["ref"] == ref and ref in err.message
        assert err.field == "schema" and err.line == 1
    # an unknown $schema is not fetched either
    _audit.update(on=True, events=[])
    try:
        err = refused(handle, {"document": "1", "schema": '{"$schema": "http://example.com/meta"}'},
                      DEFAULT_LIMITS)
    finally:
        _audit["on"] = False
    assert _audit["events"] == [] and err.code == "schema_invalid"


def test_remote_refs_refused_by_the_server_quickly(server):
    for schema, ref in REMOTE_SCHEMAS:
        started = time.monotonic()
        status, out = server.api("validate", {"document": '{"a": 1}', "schema": json.dumps(schema)})
        assert time.monotonic() - started < 2
        assert status == 422 and out["error"]["code"] == "ref_unresolvable", out
        assert out["error"]["ref"] == ref and out["error"]["pointer"].endswith("/$ref")


def test_refs_to_bundled_metaschemas_resolve_offline():
    schema = {"$ref": "https://json-schema.org/draft/2020-12/schema"}
    assert core(schema, '{"type": "object"}')["valid"] is True
    bad = core(schema, '{"type": "strin"}')
    assert bad["valid"] is False and bad["errors"][0]["pointer"] == "/type"
    # draft-07's metaschema too, from a 2020-12 schema
    assert core({"$ref": "http://json-schema.org/draft-07/schema#"}, '{"minimum": "x"}')["valid"] is False


def test_unreached_unresolvable_ref_is_still_refused():
    err = refused(core, {"properties": {"never": {"$ref": "#/$defs/missing"}}}, "{}")
    assert err.code == "ref_unresolvable" and err.extra["pointer"] == "/properties/never/$ref"


# --------------------------------------------------------------------------- bounded time

def test_catastrophic_pattern_answers_within_2_seconds(server):
    started = time.monotonic()
    status, out = server.api("validate", {"document": json.dumps("a" * 30 + "!"),
                                          "schema": '{"pattern": "^(a+)+$"}'})
    assert time.monotonic() - started < 2
    # the regex engine's own guard answers this one at once; a timeout would also be fine
    assert (status, out.get("valid")) == (200, False) or out["error"]["code"] == "timeout"


def test_exponential_alternation_times_out_with_422(quick_regex_server):
    for schema, document in [({"pattern": "^(a|aa)+$"}, json.dumps("a" * 60 + "!")),
                             ({"patternProperties": {"^(a|aa)+$": {}}}, json.dumps({"a" * 60 + "!": 1}))]:
        started = time.monotonic()
        status, out = quick_regex_server.api("validate", {"document": document, "schema": json.dumps(schema)})
        assert time.monotonic() - started < 2, schema
        assert status == 422 and out["error"]["code"] == "timeout", out
        assert out["error"]["pattern"] == "^(a|aa)+$" and out["error"]["limit"] == 0.3


def test_exponential_alternation_in_the_core_is_bounded():
    started = time.monotonic()
    err = refused(core, {"properties": {"s": {"pattern": "^(a|aa)+$"}}}, json.dumps({"s": "a" * 60 + "!"}),
                  limits=DEFAULT_LIMITS.with_(regex_timeout=0.2))
    assert time.monotonic() - started < 2 and err.code == "timeout" and err.status == 422


def test_work_deadline_stops_a_long_validation():
    schema = {"items": {"anyOf": [{"type": "string"}, {"type": "integer", "multipleOf": 7}]}}
    instance = list(range(300_000))
    err = refused(validate_value, schema, instance, limits=DEFAULT_LIMITS.with_(work_timeout=0.05))
    assert err.code == "timeout" and "0.05" in err.message


def test_unicode_property_escapes_and_ecma_semantics():
    assert core('{"pattern": "^\\\\p{L}+$"}', '"Zürich"')["valid"] is True
    assert core('{"pattern": "^\\\\p{L}+$"}', '"Zürich 1"')["valid"] is False
    assert core('{"patternProperties": {"^\\\\p{Lu}": {"type": "integer"}}}', '{"Äx": "no"}')["valid"] is False
    order = '{"pattern": "^[A-Z]-\\\\d{4}$"}'
    assert core(order, '"A-1234"')["valid"] is True
    assert core(order, '"A-1234\\n"')["valid"] is False  # ECMA $: no trailing newline
    assert core(order, '"A-١٢٣٤"')["valid"] is False  # ECMA \\d: ASCII digits only
    assert ecma_to_python("\\cJ") == "\\x0a"


def test_uniqueitems_on_many_objects_is_fast():
    items = [{"id": i, "tags": ["a", i]} for i in range(20_000)]
    started = time.monotonic()
    assert validate_value({"uniqueItems": True}, items)["valid"] is True
    items.append({"tags": ["a", Decimal("5.0")], "id": Decimal("5")})
    out = validate_value({"uniqueItems": True}, items)
    assert time.monotonic() - started < 3
    assert out["valid"] is False and "Items 5 and 20000 are equal" in out["errors"][0]["message"]


def test_deep_recursion_is_a_422_not_a_crash(server):
    deep = "[" * 400 + "1" + "]" * 400
    status, out = server.api("validate", {"document": deep, "schema": '{"items": {"$ref": "#"}}'})
    assert status in (200, 422) and (status == 200 or out["error"]["code"] == "too_deep"), out
    status, out = server.api("validate", {"document": "1", "schema": '{"$ref": "#"}'})
    assert status == 422 and out["error"]["code"] == "too_deep"


# --------------------------------------------------------------------------- dialects and schema faults

@pytest.mark.parametrize("uri, draft", [
    ("https://json-schema.org/draft/2020-12/schema", "2020-12"),
    ("https://json-schema.org/draft/2019-09/schema", "2019-09"),
    ("http://json-schema.org/draft-07/schema#", "draft-07"),
    ("https://json-schema.org/draft-07/schema", "draft-07"),
    ("http://json-schema.org/draft-06/schema#", "draft-06"),
    ("http://json-schema.org/draft-04/schema#", "draft-04"),
])
def test_dialect_from_schema(uri, draft):
    assert core({"$schema": uri, "type": "integer"}, "3")["draft"] == draft
    assert core({"type": "integer"}, "3")["draft"] == "2020-12"


def test_unknown_schema_is_refused_with_its_place(server):
    schema = '{\n  "$schema": "http://json-schema.org/draft-03/schema#",\n  "type": "string"\n}'
    status, out = server.api("validate", {"document": '"x"', "schema": schema})
    assert status == 422
    e = out["error"]
    assert e["code"] == "schema_invalid" and e["field"] == "schema" and e["pointer"] == "/$schema"
    assert (e["line"], e["column"]) == (2, 14) and "draft 3" in e["message"]
    for bad in ('{"$schema": "urn:nope"}', '{"$schema": 7}'):
        status, out = server.api("validate", {"document": "1", "schema": bad})
        assert status == 422 and out["error"]["code"] == "schema_invalid", out


@pytest.mark.parametrize("schema, pointer, line", [
    ('{\n  "properties": {\n    "a": {"type": "strin"}\n  }\n}', "/properties/a/type", 3),
    ('{"type": "object",\n "required": "name"}', "/required", 2),
    ('{"enum": "abc"}', "/enum", 1),
    ('{"minLength": -1}', "/minLength", 1),
    ('{"pattern": "([a-z"}', "/pattern", 1),
    ('{"$schema": "http://json-schema.org/draft-04/schema#",\n "patternProperties": {"(": {}}}',
     "/patternProperties/(", 2),
])
def test_invalid_schema_gives_the_pointer_of_the_fault(server, schema, pointer, line):
    status, out = server.api("validate", {"document": "{}", "schema": schema})
    assert status == 422, out
    e = out["error"]
    assert e["code"] == "schema_invalid" and e["field"] == "schema"
    assert e["pointer"] == pointer and e["line"] == line, e


def test_a_list_that_is_not_tools_is_refused(server):
    """A list as the schema is read as a list of tool definitions (workbench.tools): [1, 2] is not."""
    status, out = server.api("validate", {"document": "{}", "schema": "[1, 2]"})
    assert status == 422, out
    assert out["error"]["code"] == "schema_invalid" and out["error"]["field"] == "schema"


def test_invalid_tool_parameters_point_into_the_tool_text(server):
    tool = '{"type": "function", "name": "f",\n "parameters": {"type": "object", "required": "x"}}'
    status, out = server.api("validate", {"document": "{}", "schema": tool})
    assert status == 422
    assert out["error"]["pointer"] == "/parameters/required" and out["error"]["line"] == 2


def test_bad_requests_are_400(server):
    for body in [{"schema": "{}"}, {"document": "{}"}, {"document": 1, "schema": "{}"},
                 {"document": "{}", "schema": "{}", "format_assert": "yes"},
                 {"document": "{}", "schema": "{}", "draft": "draft-99"},
                 {"document": "{}", "schema": LOOKUP_ORDER, "tool": "nope"}]:
        status, out = server.api("validate", body)
        assert status == 400, (body, out)


def test_documents_that_are_not_json(server):
    status, out = server.api("validate", {"document": '{"a": 1,}', "schema": "{}"})
    assert status == 422 and out["error"]["code"] == "parse_error" and out["error"]["field"] == "document"
    status, out = server.api("validate", {"document": "{}", "schema": '{"a" 1}'})
    assert status == 422 and out["error"]["field"] == "schema"


# --------------------------------------------------------------------------- exact numbers

D4 = '{"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"}'
D7 = '{"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"}'

EXACT_NUMBERS = [  # (schema, instance, valid)
    # integral decimals are integers from draft 6
    ('{"type": "integer"}', "1.0", True),
    ('{"type": "integer"}', "1e2", True),
    ('{"type": "integer"}', "1.5", False),
    ('{"type": "integer"}', "12345678901234567890123.000", True),
    (D7, "1.0", True),
    (D4, "1.0", False),  # draft 4: no fraction part allowed
    ('{"type": "number"}', "1e400", True),
    # integer-valued schema keywords written as decimals
    ('{"minLength": 2.0}', '"a"', False),
    ('{"maxItems": 1e1}', json.dumps(list(range(11))), False),
    # multipleOf is exact
    ('{"multipleOf": 0.01}', "19.99", True),
    ('{"multipleOf": 0.01}', "1.005", False),
    ('{"multipleOf": 0.0001}', "0.0075", True),
    ('{"multipleOf": 3}', "1e400", False),
    ('{"multipleOf": 2}', "1e400", True),
    ('{"multipleOf": 0.123456789}', "1e308", False),
    ('{"multipleOf": 1e-400}', "1", True),
    # comparisons, enum and const with exact numbers
    ('{"maximum": 9007199254740992}', "9007199254740993", False),
    ('{"minimum": 0.1}', "0.10000000000000000000001", True),
    ('{"exclusiveMaximum": 1.10}', "1.1", False),
    ('{"const": 1}', "1.0", True),
    ('{"enum": [1.5, "a"]}', "1.50", True),
    ('{"uniqueItems": true}', "[1, 1.0]", False),
    ('{"uniqueItems": true}', '[{"a": 1}, {"a": 1.00}]', False),
    ('{"uniqueItems": true}', "[1, true]", True),
]


@pytest.mark.parametrize("schema, instance, valid", EXACT_NUMBERS)
def test_numbers_are_compared_exactly(schema, instance, valid):
    assert core(schema, instance)["valid"] is valid


def test_is_multiple_of_huge_and_tiny_exponents():
    assert is_multiple(Decimal("1E999999999"), Decimal("0.5")) is True
    assert is_multiple(Decimal("1E-999999999"), 7) is False


def test_a_maximum_message_says_the_exact_numbers():
    out = core('{"maximum": 3}', "3.5")
    assert out["errors"][0]["message"] == "3.5 is greater than the maximum 3"


# --------------------------------------------------------------------------- format

def test_format_is_an_annotation_unless_asserted(server):
    body = {"document": '{"when": "yesterday", "mail": "nobody"}',
            "schema": '{"properties": {"when": {"format": "date-time"}, "mail": {"format": "email"}}}'}
    status, out = server.api("validate", body)
    assert status == 200 and out["valid"] is True and out["format_assert"] is False
    status, out = server.api("validate", {**body, "format_assert": True})
    assert status == 200 and out["valid"] is False
    assert [(e["pointer"], e["keyword"]) for e in out["errors"]] == [("/when", "format"), ("/mail", "format")]
    assert core('{"format": "regex"}', '"\\\\p{L}+"', format_assert=True)["valid"] is True
    assert core('{"format": "uuid"}', '"not-a-uuid"', format_assert=True)["valid"] is False


# --------------------------------------------------------------------------- tools and review

def test_tool_parameters_unwraps_both_styles():
    params = {"type": "object", "properties": {"x": {"type": "string"}}}
    assert tool_parameters({"type": "function", "name": "f", "parameters": params}) == (params, "f")
    assert tool_parameters({"type": "function", "function": {"name": "g", "parameters": params}}) == (params, "g")
    assert tool_parameters(params) == (params, None)
    assert tool_parameters({"name": "h", "parameters": params}) == (params, "h")  # legacy "functions"
    assert tool_parameters({"type": "function", "name": "t1"}) == ({}, "t1")


def test_every_real_tool_definition_is_accepted_and_reviewed(shared, server):
    lines = (shared / "reference" / "openresponses-fixtures" / "tools.jsonl").read_text(encoding="utf-8").splitlines()
    tools = [json.loads(line) for line in lines if line.strip()]
    assert len(tools) == 47
    kinds = set()
    for entry in tools:
        text = json.dumps(entry["tool"], indent=2)
        status, out = server.api("validate", {"document": "{}", "schema": text})
        assert status == 200, (entry, out)
        assert out["reviewed"] is True and isinstance(out["review"], list)
        for w in out["review"]:
            assert set(w) >= {"code", "message", "pointer"}
            assert w["pointer"] == "" or w["pointer"].startswith("/")
        kinds.add(entry["kind"])
        if entry["kind"] in ("tooldef:responses", "tooldef:chat") and out["tool"]:
            name = entry["tool"].get("name") or entry["tool"]["function"]["name"]
            assert out["tool"] == name
    assert {"tooldef:responses", "tooldef:chat", "tooldef:namespace", "tooldef:namespaced"} <= kinds


def test_review_lists_the_open_doors(server):
    tool = {"type": "function", "name": "refund", "parameters": {
        "type": "object",
        "properties": {"order_id": {"type": "string"}, "note": {"type": "string"},
                       "country_code": {"type": "string", "enum": ["CH", "DE"]},
                       "items": {"type": "array", "items": {"type": "object",
                                                           "properties": {"sku": {"type": "string"}}}}},
        "required": ["order_id", "items"]}}
    status, out = server.api("validate", {"document": '{"order_id": "1", "items": []}',
                                          "schema": json.dumps(tool, indent=2)})
    assert status == 200 and out["valid"] is True
    got = {(w["code"], w["pointer"]) for w in out["review"]}
    assert got == {
        ("open_object", "/parameters"),
        ("optional_property", "/parameters/properties/note"),
        ("optional_property", "/parameters/properties/country_code"),
        ("free_id_string", "/parameters/properties/order_id"),
        ("open_object", "/parameters/properties/items/items"),
        ("optional_property", "/parameters/properties/items/items/properties/sku"),
        ("free_id_string", "/parameters/properties/items/items/properties/sku"),
    }
    assert all(w["line"] for w in out["review"])
    # a closed, strict tool leaves nothing open; review can be turned off, or on for a bare schema
    status, out = server.api("validate", {"document": '{"order_id": "A-1234", "reason": "x"}', "schema": LOOKUP_ORDER})
    assert out["review"] == [] and out["reviewed"] is True and out["valid"] is True
    status, out = server.api("validate", {"document": "{}", "schema": json.dumps(tool), "review": False})
    assert out["review"] == [] and out["reviewed"] is False
    status, out = server.api("validate", {"document": "{}", "schema": '{"type": "object"}', "review": True})
    assert [w["code"] for w in out["review"]] == ["open_object"]
    status, out = server.api("validate", {"document": "{}", "schema": '{"type": "object"}'})
    assert out["reviewed"] is False


def test_looks_like_id():
    for name in ["id", "order_id", "orderId", "userID", "uuid", "country_code", "zipcode", "api_key", "sku"]:
        assert looks_like_id(name), name
    for name in ["video", "paid", "keyword_list", "monkey", "description", "code_snippet_text"][:5]:
        assert not looks_like_id(name), name


def test_review_of_a_non_object_tool():
    warnings = review_schema({"type": "string"}, is_tool=True)
    assert [w["code"] for w in warnings] == ["not_object"]


def test_list_of_tools_chooses_by_name(server):
    tools = [{"type": "function", "name": "a", "parameters": {"type": "object", "required": ["x"]}},
             {"type": "function", "function": {"name": "b", "parameters": {"type": "object", "required": ["y"]}}}]
    status, out = server.api("validate", {"document": "{}", "schema": json.dumps(tools)})
    assert status == 200 and out["tool"] == "a" and out["tools"] == ["a", "b"]
    assert out["errors"][0]["pointer"] == "/x" and out["errors"][0]["schema_pointer"] == "/0/parameters/required"
    assert any(w["code"] == "several_tools" for w in out["review"])
    status, out = server.api("validate", {"document": "{}", "schema": json.dumps(tools), "tool": "b"})
    assert out["tool"] == "b" and out["errors"][0]["pointer"] == "/y"
    assert out["errors"][0]["schema_pointer"] == "/1/function/parameters/required"


# --------------------------------------------------------------------------- the page and the cache

def test_plain_form_post(server):
    from urllib.parse import urlencode
    body = urlencode({"document": '{"refund": 1}', "schema": LOOKUP_ORDER}).encode()
    status, _, html = server.request("POST", "/validate", body,
                                     {"Content-Type": "application/x-www-form-urlencoded"})
    text = html.decode()
    assert status == 200 and "3 errors" in text
    assert 'data-pointer="/refund"' in text and 'data-pointer="/order_id"' in text
    status, _, html = server.request("POST", "/validate", urlencode({"document": "{}", "schema": "{"}).encode(),
                                     {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 422 and "not valid JSON" in html.decode()


def test_compiled_validators_are_cached():
    schema = P('{"type": "object", "properties": {"a": {"pattern": "^x"}}}')
    first = compile_schema(schema)
    assert compile_schema(P('{"type": "object", "properties": {"a": {"pattern": "^x"}}}')) is first
    assert compile_schema(schema, format_assert=True) is not first


def test_messages_never_quote_a_whole_big_instance():
    big = list(range(200_000))
    out = validate_value({"type": "object", "maxItems": 3, "not": {"type": "array"}, "enum": [1]}, big)
    assert all(len(e["message"]) < 300 for e in out["errors"])
    assert [e["keyword"] for e in out["errors"]] == ["type", "maxItems", "not", "enum"]
    # nested anyOf reports the closest leaf once, with its place
    schema = {"$defs": {"n": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"$ref": "#/$defs/n"}}]}},
              "$ref": "#/$defs/n"}
    (e,) = validate_value(schema, [[[1, "x"]]])["errors"]
    assert e["message"].endswith('closest alternative: Expected integer, got string "x" at /0/0/1')


def test_one_of_and_contains_messages():
    (e,) = core('{"oneOf": [{"type": "integer"}, {"minimum": 0}]}', "5")["errors"]
    assert "more than one of the 2 alternatives in oneOf (0, 1)" in e["message"]
    (e,) = core('{"contains": {"type": "string"}, "minContains": 2}', '["a", 1]')["errors"]
    assert (e["keyword"], e["schema_pointer"]) == ("minContains", "/minContains")
    assert e["message"] == 'Only 1 item matches the "contains" schema; at least 2 must'
