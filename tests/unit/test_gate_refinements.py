"""The gate's 2026-12 refinements (replay-rules.md, agents-rules.md; issue 23), on the real
recordings and the rules' own examples: a program caller waits by design, a status is not an
action, and a number beyond every Decimal is still valid JSON."""

from __future__ import annotations

import json

from workbench.gate import Gate, gate

PROGRAM = "transcripts/069_vercel-ai__openai__programmatic-tool-calling.1.json"


def program_call(shared) -> dict:
    """The real in_progress function_call a program made (a completed response's output)."""
    d = json.loads((shared / "reference" / "realworld" / PROGRAM).read_text(encoding="utf-8"))
    assert d["status"] == "completed"
    return next(it for it in d["output"] if it["type"] == "function_call")


def test_a_program_callers_in_progress_call_passes_rule_3_and_the_output_echoes_caller(shared):
    item = program_call(shared)
    assert item["status"] == "in_progress" and item["caller"]["type"] == "program"
    r = gate(json.dumps(item), None, None)
    assert r["verdict"] == "ok" and r["execute"] is True
    assert Gate().verdict(item) == "ok"
    out = r["function_call_output"]
    assert out["call_id"] == item["call_id"] and out["caller"] == item["caller"]
    assert "in_progress by design" in r["reason"]


def test_a_program_callers_cut_off_arguments_still_stop_at_status(shared):
    item = dict(program_call(shared), arguments='{"sku":"sk')
    r = gate(json.dumps(item), None, None)
    assert r["verdict"] == "status" and r["steps"][0]["field"] == "status"
    assert r["function_call_output"] is None


def test_in_progress_without_a_program_caller_is_still_status(shared):
    item = program_call(shared)
    del item["caller"]
    assert gate(json.dumps(item), None, None)["verdict"] == "status"
    item["caller"] = {"type": "model"}
    assert gate(json.dumps(item), None, None)["verdict"] == "status"


def test_an_agents_item_with_a_status_is_not_pending():
    item = {"type": "function_call", "turn_id": "turn_1", "call_id": "call_1",
            "name": "lookup_order", "arguments": {"order_id": "A-1"}, "status": "in_progress"}
    r = gate(json.dumps(item), None, None)
    assert r["dialect"] == "agents_api"
    assert r["verdict"] == "not_pending" and r["execute"] is False
    assert r["tool_result"] is None and "arguments" in r["reason"]
    assert r["steps"][0]["field"] == "status" and r["steps"][0]["found"] == '"in_progress"'


def test_a_number_beyond_every_decimal_is_valid_json_with_a_float_overflow_warning():
    item = {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f",
            "status": "completed", "arguments": "[1e4000000000000000000]"}
    r = gate(json.dumps(item), None, None)
    # an array, not an object: rule 8 — never "not valid JSON" (rule 6)
    assert r["verdict"] == "arguments_schema" and Gate().verdict(item) == "arguments_schema"
    assert "not valid JSON" not in r["reason"] and "[1e4000000000000000000]" in r["reason"]
    assert [w["code"] for w in r["warnings"]] == ["float_overflow"]
    assert r["warnings"][0]["pointer"] == "/0"
    # inside an object, a schema's maximum still sees a number beyond it
    item["arguments"] = '{"n": 1e4000000000000000000}'
    schema = json.dumps({"type": "object", "properties": {"n": {"type": "number",
                                                               "maximum": 10}}})
    r = gate(json.dumps(item), schema, None)
    assert r["verdict"] == "arguments_schema"
    assert [(f["path"], f["reason"]) for f in r["steps"][1]["fail"]] == [("/n", "maximum")]
    assert gate(json.dumps(dict(item, arguments='{"n": 1e-4000000000000000000}')), schema,
                None)["verdict"] == "ok"
