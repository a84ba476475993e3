"""Issue 21, Validate's doors: a pattern that expands past its bound (row 3), exact multipleOf
(row 8), deep schemas (row 16) and the draft's 500s (row 7) -- through the real app."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.limits import PATTERN_MAX_SIZE
from workbench.validate.patterns import expanded_size

ROOT = Path(__file__).resolve().parents[2]


def post(client, url, body):
    r = client.post(url, json=body)
    return r.status_code, r.get_json()


# --------------------------------------------------------------------------- row 3: pattern size

@pytest.mark.parametrize("pattern", ["(?:a{1000}){3000}", "((a{1000}){1000}){1000}", "(?:ab|cd){60000}",
                                     "(?:a{1000}){3000,}", "a{99999999999999999999}"])
def test_a_pattern_expanding_past_its_bound_is_refused_at_its_pointer(client, pattern):
    schema = json.dumps({"type": "object", "properties": {"code": {"pattern": pattern}}})
    started = time.monotonic()
    status, body = post(client, "/api/validate", {"document": '{"code": "a"}', "schema": schema})
    assert time.monotonic() - started < 3
    assert status == 422, body
    err = body["error"]
    assert (err["code"], err["field"], err["pointer"]) == ("schema_invalid", "schema", "/properties/code/pattern")
    assert "too large to compile" in err["message"] and f"{PATTERN_MAX_SIZE:,}" in err["message"]
    assert err["line"] == 1 and err["column"] == schema.index(json.dumps(pattern)) + 1


def test_expanded_size_counts_written_out_repetitions():
    assert expanded_size("^[A-Z]-\\d{4}$") == 8
    assert expanded_size("(?:a{1000}){1,3000}") == 2000  # {n,m}: n copies and the optional rest once
    assert expanded_size("^[a-z]{1,65535}$") == 4        # a variable count is one loop, not copies
    assert expanded_size("a{100000}") == PATTERN_MAX_SIZE
    assert expanded_size("(?:a{1000}){3000}") == PATTERN_MAX_SIZE + 1  # stops counting past the bound


def test_a_large_but_allowed_pattern_still_works(client):
    status, body = post(client, "/api/validate", {"document": '"' + "ab" * 500 + '"',
                                                  "schema": '{"pattern": "^(?:ab){500}$"}'})
    assert status == 200 and body["valid"] is True


def test_patterns_of_one_schema_count_together(client):
    props = {f"p{i}": {"pattern": "a{30000}"} for i in range(4)}
    status, body = post(client, "/api/validate", {"document": "{}", "schema": json.dumps({"properties": props})})
    assert status == 422 and body["error"]["code"] == "schema_invalid"
    assert body["error"]["pointer"].endswith("/pattern") and "together" in body["error"]["message"]


def test_patternproperties_key_too_large(client):
    status, body = post(client, "/api/validate", {"document": "{}",
                                                  "schema": '{"patternProperties": {"(?:a{1000}){3000}": {}}}'})
    assert status == 422 and body["error"]["code"] == "schema_invalid"
    assert body["error"]["pointer"] == "/patternProperties/(?:a{1000}){3000}"


def test_a_document_regex_too_large_is_a_format_error(client):
    status, body = post(client, "/api/validate", {"document": '"(?:a{1000}){3000}"', "format_assert": True,
                                                  "schema": '{"format": "regex"}'})
    assert status == 200, body
    assert body["valid"] is False and [e["keyword"] for e in body["errors"]] == ["format"]


def test_the_gate_and_transcript_refuse_the_pattern(client):
    tool = {"type": "function", "name": "f", "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "pattern": "(?:a{1000}){3000}"}}}}
    item = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": '{"a": "x"}',
            "status": "completed"}
    status, body = post(client, "/api/gate", {"item": json.dumps(item), "schema": json.dumps(tool)})
    assert status == 422, body
    assert (body["error"]["code"], body["error"]["field"]) == ("schema_invalid", "schema")
    assert "too large to compile" in body["error"]["message"]
    status, body = post(client, "/api/transcript", {"text": json.dumps([item]), "tools": json.dumps([tool])})
    assert status == 422, body
    assert (body["error"]["code"], body["error"]["field"]) == ("schema_invalid", "tools")
    assert "too large to compile" in body["error"]["message"]


_RSS_PROBE = """
import json, resource, sys
from workbench.web import create_app
c = create_app().test_client()
c.post("/api/validate", json={"document": "1", "schema": '{"pattern": "a"}'})
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for p in sys.argv[1:]:
    for body in ({"document": '"a"', "schema": json.dumps({"pattern": p})},
                 {"document": json.dumps(p), "schema": '{"format": "regex"}', "format_assert": True}):
        r = c.post("/api/validate", json=body)
        assert r.status_code in (200, 422), r.status_code
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def test_pattern_bombs_stay_within_memory():
    """Peak RSS growth (kB) of a fresh process sending the bombs: was +600 MB and 23 GB."""
    out = subprocess.run([sys.executable, "-c", _RSS_PROBE, "(?:a{1000}){3000}", "((a{1000}){1000}){1000}",
                          "(?:(?:a{10}){10}){3000}", "a{100000}"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.split()[-1]) < 80_000


# --------------------------------------------------------------------------- row 8: exact multipleOf

@pytest.mark.parametrize("path", ["compiled", "jsonschema"])
@pytest.mark.parametrize("number,divisor,valid", [
    ("1.0000000000000000000000000000001", "1", False),
    ("3.00000000000000000000000000000000000000000000000000000000000000000000000001", "0.5", False),
    ("12345678901234567890123456789012345678901234567890.5", "0.5", True),
    ("12345678901234567890123456789012345678901234567890.25", "0.5", False),
    ("1" + "0" * 5000, "7", False),
    ("7" * 40 + "e-10", "0.7", False),
])
def test_multipleof_is_exact_on_both_paths(number, divisor, valid, path):
    from workbench.jsontext import parse
    from workbench.validate import compile_schema
    from workbench.validate.evaluate import evaluate
    compiled = compile_schema(parse('{"multipleOf": %s}' % divisor).value)
    out = evaluate(compiled, parse(number).value, path=path)
    assert (out["path"], out["valid"]) == (path, valid)


def test_multipleof_exact_through_the_api(client):
    status, body = post(client, "/api/validate", {"document": "1.0000000000000000000000000000001",
                                                  "schema": '{"multipleOf": 1}'})
    assert status == 200 and body["valid"] is False
    assert [(e["keyword"], e["pointer"]) for e in body["errors"]] == [("multipleOf", "")]


# --------------------------------------------------------------------------- row 16: the documented depth

def _nested_properties(levels: int) -> tuple[str, str]:
    schema = '{"type":"object","properties":{"a":' * levels + '{"type":"integer"}' + '}}' * levels
    return '{"a":' * levels + '"x"' + '}' * levels, schema


@pytest.mark.parametrize("levels", [80, 250, 255])
@pytest.mark.parametrize("force_jsonschema", [False, True])
def test_nested_properties_are_followed_to_max_depth(client, levels, force_jsonschema):
    """255 nested properties is a 511-level schema text: within max_depth (512)."""
    document, schema = _nested_properties(levels)
    if force_jsonschema:  # unevaluatedProperties is outside the compiled subset
        schema = schema.replace('"properties"', '"unevaluatedProperties":false,"properties"')
    status, body = post(client, "/api/validate", {"document": document, "schema": schema})
    assert status == 200, body
    assert body["valid"] is False
    assert [(e["keyword"], e["pointer"]) for e in body["errors"]] == [("type", "/a" * levels)]


def test_a_recursive_ref_is_followed_through_a_document_at_max_depth(client):
    schema = '{"type":"array","unevaluatedItems":false,"prefixItems":[{"$ref":"#"}],"items":{"type":"integer"}}'
    document = "[" * 511 + '"x"' + "]" * 511
    status, body = post(client, "/api/validate", {"document": document, "schema": schema})
    assert status == 200, body
    assert body["errors"][0]["pointer"] == "/0" * 511


def test_past_max_depth_the_text_is_refused_with_its_place(client):
    document, schema = _nested_properties(256)  # 513 levels
    status, body = post(client, "/api/validate", {"document": "{}", "schema": schema})
    assert status == 422 and (body["error"]["code"], body["error"]["field"]) == ("too_deep", "schema")
    assert body["error"]["line"] == 1 and "512" in body["error"]["message"]


def test_a_ref_chain_too_long_says_why(client):
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(3000)}
    defs["d3000"] = {"type": "integer"}
    status, body = post(client, "/api/validate", {"document": '"x"',
                                                  "schema": json.dumps({"$ref": "#/$defs/d0", "$defs": defs})})
    assert status in (200, 422), body
    if status == 422:
        assert (body["error"]["code"], body["error"]["field"]) == ("too_deep", "schema")
        assert "512" in body["error"]["message"] and "$ref" in body["error"]["message"]


# --------------------------------------------------------------------------- row 7: the draft

def test_draft_with_lone_surrogates_answers(client):
    status, body = post(client, "/api/validate/draft", {"examples": '["\\ud800","\\ud800"]'})
    assert status == 200, body
    assert body["schema"] == {"type": "array", "items": {"type": "string", "enum": ["\ud800"]}}
    status, body = post(client, "/api/validate/draft", {"examples": '{"k": "\\ud800"}\n{"k": "\\ud800"}'})
    assert status == 200, body
    assert body["schema"]["properties"]["k"] == {"type": "string", "enum": ["\ud800"]}
    assert '"\\ud800"' in body["text"] and body["all_valid"] is True


def test_draft_with_a_lone_surrogate_name(client):
    status, body = post(client, "/api/validate/draft", {"examples": "{}", "name": "\ud800"})
    assert status == 200, body
    assert body["schema"]["name"] == "\ud800" and '"name": "\\ud800"' in body["text"]


def test_draft_of_a_deep_example_is_refused_with_its_place(client):
    status, body = post(client, "/api/validate/draft", {"examples": "[" * 511 + "]" * 511})
    assert status == 422, body
    err = body["error"]
    assert (err["code"], err["field"], err["line"], err["column"]) == ("too_deep", "examples", 1, 256)
    assert "255" in err["message"] and "512" in err["message"]


def test_draft_of_the_deepest_example_allowed(client):
    status, body = post(client, "/api/validate/draft", {"examples": "[" * 255 + "1" + "]" * 255})
    assert status == 200, body
    assert body["all_valid"] is True and body["text"].count('"items"') == 255


def test_a_fault_after_an_integer_past_the_digit_limit_is_a_parse_error(client):
    """Found by test_hostile_validate: the second reading (the long integer as a Decimal) let
    the JSONDecodeError of a later fault through as a 500."""
    for document, column in (("[" + "1" * 5000 + ',"\\x"]', 5004), ("[" + "1" * 5000 + ",NaN]", 5003)):
        status, body = post(client, "/api/validate", {"document": document, "schema": "{}"})
        assert status == 422, body
        assert (body["error"]["code"], body["error"]["field"], body["error"]["column"]) == \
            ("parse_error", "document", column), body


# --------------------------------------------------------------------------- issue 25: --jsonl --quiet

def test_jsonl_quiet_reports_the_same_errors_as_the_full_path(files):
    """--quiet reads each line with the quick reader and answers valid lines without the error
    functions: its error lines are those of the full path, line for line."""
    from conftest import run_workbench
    schema = files("s.json", json.dumps({"type": "object", "required": ["id"], "additionalProperties": False,
                                         "properties": {"id": {"type": "integer", "minimum": 0},
                                                        "name": {"type": "string", "pattern": "^[a-z]+$"},
                                                        "x": {"type": "number", "multipleOf": 1}}}))
    lines = ['{"id": 1}', '{"id": -1, "extra": true}', '{"id": 12345678901234567890123, "name": "ok"}',
             '{"id": 2, "name": "NO"}', "[1,]", '{"id": 1, "id": "dup"}', '{"id": 3, "x": 1.0000000000000000000000000000001}',
             '{"id": 4, "name": "\\ud800"}', "", '{"id": 5}  ', '\ufeff{"id": 6}', '{"id": NaN}',
             '{"id": 7, "x": 1' + "0" * 5000 + "}", '{"id": 8, "name": "' + "a" * 30000 + '"}']
    doc = files("d.jsonl", "\n".join(lines) + "\n")
    full = run_workbench("validate", "--jsonl", doc, "--schema", schema)
    quiet = run_workbench("validate", "--jsonl", "--quiet", doc, "--schema", schema)
    assert quiet[0] == full[0] == 2  # a line that is not JSON: exit 2
    assert quiet[1] == full[1]
    # the invalid lines: a negative id and an extra key, an upper-case name, the duplicate's
    # string id, the inexact multiple, a lone surrogate against the pattern
    assert sorted({int(line.split(" ")[1].split(":")[0]) for line in full[1].splitlines()}) == [2, 4, 6, 7, 8]
