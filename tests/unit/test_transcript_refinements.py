"""The transcript's 2026-12 refinements (transcript-rules.md, agents-rules.md, replay-rules.md;
issue 23) on the real recordings and the rules' own examples."""

from __future__ import annotations

import json

import pytest

from workbench.transcript import analyse


def codes(r: dict) -> list[str]:
    return [f["code"] for f in r["findings"]]


@pytest.fixture(scope="module")
def realworld(shared):
    return shared / "reference" / "realworld"


@pytest.mark.parametrize("name", [
    "transcripts/069_vercel-ai__openai__programmatic-tool-calling.1.json",
    "transcripts/070_vercel-ai__openai__programmatic-tool-calling.2.json",
    "streams/031_vercel-ai__openai__programmatic-tool-calling.1.chunks.txt",
    "streams/032_vercel-ai__openai__programmatic-tool-calling.2.chunks.txt"])
def test_a_program_callers_call_waits_by_design(realworld, name):
    r = analyse((realworld / name).read_text(encoding="utf-8"))
    (c,) = r["calls"]
    # not completed_response_open_items (an error before), not blocked as status
    assert "completed_response_open_items" not in codes(r)
    assert (c["verdict"], c["execute"], c["role"]) == ("ok", True, "pending")
    assert c["caller_id"].startswith("call_")   # the link to the calling program item
    assert r["summary"]["errors"] == 0 and r["summary"]["blocked"] == 0
    # the program item itself is run by the provider: never a call to answer
    assert not [f for f in r["findings"] if f["code"] == "pending_call" and
                c["call_id"] not in f["message"]]


def test_a_program_callers_call_answered_later_is_history_without_a_warning(realworld):
    d = json.loads((realworld / "transcripts" / "069_vercel-ai__openai__programmatic-tool-"
                    "calling.1.json").read_text(encoding="utf-8"))
    call = next(it for it in d["output"] if it["type"] == "function_call")
    out = {"type": "function_call_output", "call_id": call["call_id"], "output": "7",
           "caller": call["caller"]}
    r = analyse(json.dumps({"model": "m", "input": [*d["output"], out]}, indent=1))
    (c,) = r["calls"]
    assert c["role"] == "history" and "history_incomplete_executed" not in codes(r)
    # the same call without its program caller is still a history call answered in progress
    plain = {k: v for k, v in call.items() if k != "caller"}
    r = analyse(json.dumps({"model": "m", "input": [plain, out]}, indent=1))
    assert "history_incomplete_executed" in codes(r)


def test_an_in_progress_function_call_without_a_program_caller_is_still_an_open_item():
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
            "status": "in_progress", "arguments": "{}", "caller": {"type": "model"}}
    r = analyse(json.dumps({"object": "response", "status": "completed", "output": [item]}))
    assert "completed_response_open_items" in codes(r)
    assert r["calls"][0]["verdict"] == "status" and "caller_id" not in r["calls"][0]


def test_an_agents_item_with_a_status_is_not_pending():
    # agents-rules.md: a status is not an action; the gate's reason is not_pending (it said ok)
    hist = {"type": "function_call", "id": "fc_1", "turn_id": "turn_1", "call_id": "call_1",
            "name": "lookup_order", "arguments": {"order_id": "A-1"}, "status": "in_progress"}
    for text in (json.dumps({"id": "sess_1", "status": "idle", "items": [hist]}),
                 json.dumps({"object": "list", "data": [hist]}), json.dumps([hist])):
        r = analyse(text)
        (c,) = r["calls"]
        assert (c["verdict"], c["execute"]) == ("not_pending", False), text
        assert not c.get("tool_result")


def test_a_huge_exponent_in_an_items_arguments_is_valid_json():
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
            "status": "completed", "arguments": "[1e4000000000000000000]"}
    r = analyse(json.dumps({"object": "response", "status": "completed", "output": [item]}))
    (c,) = r["calls"]
    assert c["verdict"] == "arguments_schema"   # an array, not an object; not arguments_parse
