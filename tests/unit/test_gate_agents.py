"""The gate's Agents API dialect (agents-rules.md, api.md "Added 2026-12"): the issue's example
through the API, the dialect field, each of the dialect's rules, door 1's review as its own
step, the report and the tool_result (never a function_call_output, never a repair),
``gate_value`` for the transcript core, the command line, and the gallery's session cases
walked by POST /api/transcript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_workbench
from jsonutil import altered

from workbench.gallery import CASES, SESSION_CASES
from workbench.gallery.agents import EXAMPLE_ACTION, EXAMPLE_REPORT, LOOKUP_ORDER, PASSING_ACTION, WIDE_LOOKUP
from workbench.gate import Gate, gate, gate_value, prepare
from workbench.jsontext import parse
from workbench.validate.review import review_schema

ROOT = Path(__file__).resolve().parents[2]
TOOL = json.dumps(LOOKUP_ORDER)
RESULT = "agent.session.input.tool_result"


def api(client, **body):
    r = client.post("/api/gate", json=body)
    return r.status_code, r.get_json()


def action(**over):
    """The passing action with ``over`` set (a key given None removed)."""
    return altered(PASSING_ACTION, over)


def step(r, check):
    return next(s for s in r["steps"] if s["check"] == check)


# --------------------------------------------------------------------------- the issue's example

def test_issue_example_gives_the_exact_report_and_a_failed_tool_result(client):
    status, r = api(client, item=json.dumps(EXAMPLE_ACTION), schema=TOOL)
    assert status == 200, r
    assert r["dialect"] == "agents_api"
    assert r["verdict"] == "arguments_schema" and r["execute"] is False
    assert r["report"] == {"check": "lookup_order", "schema": "parameters",
                           "pass": ["order_id", "include_lines"],
                           "fail": [{"path": "/order_id", "reason": "pattern"},
                                    {"path": "/refund", "reason": "additionalProperties"}],
                           "execute": False}
    assert r["report"] == EXAMPLE_REPORT  # the gallery's copy, which the transcript tests use
    tr = r["tool_result"]
    assert set(tr) == {"type", "turn_id", "call_id", "success", "error"}
    assert tr["type"] == RESULT and tr["turn_id"] == "turn_2" and tr["call_id"] == "call_3c91"
    assert tr["success"] is False
    assert "order_id failed schema: expected ^[A-Z]-\\d{4}$" in tr["error"]
    assert "refund" in tr["error"] and "additionalProperties" in tr["error"]
    assert r["function_call_output"] is None
    # the Open Responses status rule is not applied to this dialect
    assert r["verdict"] != "status" and "status" not in r["reason"]
    assert [s["check"] for s in r["steps"]] == ["format", "review", "schema", "diff"]


def test_passing_action_answers_success_with_a_string_placeholder(client):
    status, r = api(client, item=json.dumps(PASSING_ACTION), schema=TOOL)
    assert status == 200 and r["verdict"] == "ok" and r["execute"] is True
    assert r["report"] == {"check": "lookup_order", "schema": "parameters",
                           "pass": ["order_id", "include_lines"], "fail": [], "execute": True}
    tr = r["tool_result"]
    assert tr["success"] is True and isinstance(tr["output"], str) and "error" not in tr
    assert (tr["turn_id"], tr["call_id"]) == ("turn_2", "call_3c91")
    assert "placeholder" in r["output_note"] and "string" in r["output_note"]
    assert r["function_call_output"] is None


def test_the_value_is_never_repaired(client):
    status, r = api(client, item=json.dumps(EXAMPLE_ACTION), schema=TOOL)
    s = step(r, "schema")
    assert s["arguments"] == EXAMPLE_ACTION["arguments"]  # reported as sent
    assert "output" not in r["tool_result"]


# --------------------------------------------------------------------------- the dialect field

def test_dialect_field_chooses_the_rules(client):
    # auto: turn_id makes it an action
    assert api(client, item=json.dumps(PASSING_ACTION), schema=TOOL)[1]["dialect"] == "agents_api"
    # forced Open Responses: the same payload fails the status rule
    status, r = api(client, item=json.dumps(PASSING_ACTION), schema=TOOL, dialect="open_responses")
    assert status == 200 and r["dialect"] == "open_responses" and r["verdict"] == "status"
    assert "tool_result" not in r
    # forced Agents API on an Open Responses item: no turn_id
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "lookup_order",
            "status": "completed", "arguments": "{}"}
    status, r = api(client, item=json.dumps(item), schema=TOOL, dialect="agents_api")
    assert r["verdict"] == "missing_fields" and step(r, "format")["fields"] == ["turn_id"]
    status, r = api(client, item=json.dumps(item), dialect="klingon")
    assert status == 400 and r["error"]["field"] == "dialect"


def test_dialect_is_declared_for_openapi_and_the_form(client):
    from workbench.gate import REQUEST
    assert REQUEST.by_name["dialect"].default == "auto"
    schema = REQUEST.json_schema()["properties"]["dialect"]
    assert schema["enum"] == ["auto", "open_responses", "agents_api"]
    doc = client.get("/api/openapi.json")
    assert doc.status_code == 200
    assert "agents_api" in json.dumps(doc.get_json())


# --------------------------------------------------------------------------- the dialect's rules

@pytest.mark.parametrize("over, verdict, field", [
    ({"turn_id": None}, "missing_fields", "turn_id"),
    ({"call_id": ""}, "missing_fields", "call_id"),
    ({"name": None}, "missing_fields", "name"),
    ({"arguments": "{\"order_id\":\"A-1042\",\"include_lines\":true}"}, "arguments_type", "arguments"),
    ({"arguments": None}, "arguments_type", "arguments"),
    ({"arguments": [1, 2]}, "arguments_type", "arguments"),
    ({"name": "delete_order"}, "unknown_tool", None),
    ({"arguments": {"include_lines": True}}, "arguments_schema", None),
    ({"type": "agent.session.input.tool_result"}, "not_function_call", "type"),
    ({"type": "openai:web_search_call"}, "namespaced", "type"),
    # a status is not an action (agents-rules.md refinement, 2026-12): an item still
    # in_progress is never executed (it was "ok" before the refinement)
    ({"status": "in_progress"}, "not_pending", "status"),
    ({"status": "completed"}, "ok", None),
])
def test_each_rule_of_the_dialect(over, verdict, field):
    item = action(**over)
    # without turn_id, auto reads the item as Open Responses: the dialect is asked for here
    r = gate(json.dumps(item), TOOL, dialect="agents_api")
    assert r["dialect"] == "agents_api" and r["verdict"] == verdict, r["reason"]
    assert Gate(TOOL).verdict(item, "agents_api") == verdict  # the verdict path is the same engine
    if "turn_id" in item:
        assert gate(json.dumps(item), TOOL)["verdict"] == verdict  # auto: the same
    if field is not None and r["steps"][0]["status"] == "fail":
        assert r["steps"][0]["field"] == field
    assert r["function_call_output"] is None
    tr = r["tool_result"]
    if verdict in ("namespaced", "not_function_call"):
        assert tr is None and r["report"] is None
    elif verdict == "not_pending":   # nothing run, no tool_result written
        assert tr is None and r["execute"] is False and "no tool_result" in r["tool_result_note"]
    elif over.get("turn_id", 1) is None or over.get("call_id", 1) == "":
        assert tr is None and "turn_id" in r["tool_result_note"] + "call_id"
    elif verdict != "ok":
        assert tr["success"] is False and tr["error"]
        assert (tr["turn_id"], tr["call_id"]) == (item["turn_id"], item["call_id"])


def test_failed_check_errors_name_every_field():
    item = action(arguments={"include_lines": "yes", "extra": 1})
    r = gate(json.dumps(item), TOOL)
    err = r["tool_result"]["error"]
    assert "order_id is required" in err and "include_lines failed schema: expected boolean" in err
    assert "extra is not allowed" in err
    assert {f["path"] for f in r["report"]["fail"]} == {"/order_id", "/include_lines", "/extra"}
    assert r["report"]["pass"] == ["include_lines"]  # required and present (it fails its type)


def test_unknown_tool_result_names_the_tools():
    r = gate(json.dumps(action(name="refund_order")), TOOL)
    assert r["verdict"] == "unknown_tool" and r["report"] is None
    assert "refund_order" in r["tool_result"]["error"] and "lookup_order" in r["tool_result"]["error"]


def test_original_action_must_keep_the_pair_and_the_arguments():
    original = json.dumps(PASSING_ACTION)
    same = dict(PASSING_ACTION, arguments={"include_lines": True, "order_id": "A-1042"})
    assert gate(json.dumps(same), TOOL, original)["verdict"] == "ok"  # key order: no change
    drifted = dict(PASSING_ACTION, call_id="call_3c9l")
    r = gate(json.dumps(drifted), TOOL, original)
    assert r["verdict"] == "replay_mismatch" and r["rule"]["number"] == 8  # rule 3 is not_pending now
    assert step(r, "diff")["blocking"] == ["call_id"]
    other = dict(PASSING_ACTION, arguments={"order_id": "A-1043", "include_lines": True})
    assert gate(json.dumps(other), TOOL, original)["verdict"] == "replay_mismatch"


# --------------------------------------------------------------------------- door 1

def test_door_1_review_is_its_own_step_and_warns_only(client):
    status, r = api(client, item=json.dumps(action(arguments={"order_id": "1042"})),
                    schema=json.dumps(WIDE_LOOKUP, indent=2))
    assert status == 200 and r["verdict"] == "ok"  # the wide schema lets it through: door 1 warns
    rv = step(r, "review")
    assert rv["status"] == "pass" and rv["door"] == 1 and rv["blocking"] is False
    assert rv["strict"] is False and rv["warned"] is True and rv["finding"] == "tool_not_strict"
    codes = {w["code"] for w in rv["warnings"]}
    assert codes == {"open_object", "optional_property", "free_id_string"}
    # the Validate view's review, pointers into the pasted tool definition, placed in its text
    expected = review_schema(WIDE_LOOKUP["parameters"], is_tool=True)
    assert [(w["code"], w["pointer"]) for w in rv["warnings"]] == \
        [(w["code"], "/parameters" + w["pointer"]) for w in expected]
    assert all(isinstance(w["line"], int) and w["line"] > 1 for w in rv["warnings"])
    assert "does not block" in rv["note"]
    strict = step(gate(json.dumps(PASSING_ACTION), TOOL), "review")
    assert strict["strict"] is True and strict["warnings"] == []


def test_review_skipped_without_tools_and_after_a_format_failure():
    assert step(gate(json.dumps(PASSING_ACTION)), "review")["status"] == "skipped"
    r = gate(json.dumps(action(arguments="{}")), TOOL)
    assert step(r, "review")["status"] == "skipped" and r["verdict"] == "arguments_type"


# --------------------------------------------------------------------------- gate_value

def test_gate_value_is_the_api_answer_for_a_parsed_item(client):
    for item, schema in ((EXAMPLE_ACTION, TOOL), (PASSING_ACTION, TOOL),
                         (action(name=None), TOOL), (CASES[0]["item"], CASES[0]["schema"])):
        text = item if isinstance(item, str) else json.dumps(item)
        status, via_api = api(client, item=text, schema=schema)
        direct = gate_value(parse(text).value, parse(schema).value, item_text=text)
        for k in ("warnings", "envelope", "schema_warnings", "pasted"):
            via_api.pop(k, None)
            direct.pop(k, None)
        assert json.loads(json.dumps(direct, default=str)) == via_api
    # tools compiled once, for many calls; the dialect can be forced
    g = prepare(parse(TOOL).value)
    assert gate_value(EXAMPLE_ACTION, g)["verdict"] == "arguments_schema"
    assert gate_value(PASSING_ACTION, g)["verdict"] == "ok"
    assert gate_value(PASSING_ACTION, g, dialect="open_responses")["verdict"] == "status"
    assert gate_value(PASSING_ACTION, g, original=dict(PASSING_ACTION, call_id="x"))["verdict"] \
        == "replay_mismatch"
    assert gate_value(PASSING_ACTION, g, original=None)["verdict"] == "ok"  # None: no original
    assert gate_value(PASSING_ACTION, parse(TOOL).value, None, dialect="auto")["verdict"] == "ok"
    with pytest.raises(ValueError):
        gate_value(PASSING_ACTION, g, dialect="chat")


# --------------------------------------------------------------------------- the command line

def wb(*args):
    return run_workbench("gate", *args)


def test_cli_handles_the_dialect(tmp_path):
    tool = tmp_path / "tool.json"
    tool.write_text(TOOL)
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text(json.dumps(EXAMPLE_ACTION))
    good.write_text(json.dumps(PASSING_ACTION))
    code, out, err = wb(bad, "--schema", tool)
    assert code == 1, err
    assert "✓ review" in out and "BLOCKED  arguments_schema" in out
    assert '"type":"agent.session.input.tool_result"' in out and "function_call_output" not in out
    code, out, _ = wb(bad, "--schema", tool, "--json")
    assert code == 1 and json.loads(out) == gate(json.dumps(EXAMPLE_ACTION), TOOL)
    code, out, _ = wb(good, "--schema", tool)
    assert code == 0 and '"success":true' in out
    code, out, _ = wb(good, "--schema", tool, "--dialect", "open_responses")
    assert code == 1 and "BLOCKED  status" in out
    code, _, err = wb(good, "--dialect", "klingon")
    assert code == 64 and "dialect" in err  # a usage error (issue 26), not unreadable input
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(EXAMPLE_ACTION) + "\n" + json.dumps(PASSING_ACTION) + "\n")
    code, out, _ = wb("--jsonl", log, "--schema", tool, "--json-summary")
    summary = json.loads(out)
    assert code == 1 and summary["counts"] == {"arguments_schema": 1, "ok": 1}
    code, out, _ = wb("--jsonl", log, "--schema", tool, "--json-summary", "--dialect", "open_responses")
    assert json.loads(out)["counts"] == {"status": 2}


# --------------------------------------------------------------------------- the gallery

def test_agents_gallery_cases_give_their_reports():
    cases = [c for c in CASES if c.get("dialect") == "agents_api"]
    assert {c["verdict"] for c in cases} >= {"arguments_schema", "ok", "arguments_type"}
    for c in cases:
        r = gate(c["item"], c.get("schema"))
        assert r["dialect"] == "agents_api" and r["verdict"] == c["verdict"]
        if "report" in c:
            assert r["report"] == c["report"]


def test_session_cases_are_walked_by_the_transcript_view(client):
    assert {c["kind"] for c in SESSION_CASES} == {"session"}
    assert any(c["findings"] == [] for c in SESSION_CASES)
    for c in SESSION_CASES:
        r = client.post("/api/transcript", json={"text": c["text"]})
        assert r.status_code == 200, r.get_json()
        body = r.get_json()
        assert body["kind"] == "agents_session"
        codes = {f["code"] for f in body["findings"]}
        assert codes == set(c["findings"]), (c["name"], codes)
