"""Real Agents SDK run states (tests/data/run_state: the SDKs' own compatibility corpora, as
their writers serialised them) read for their items and approvals (transcript-rules.md,
"Refinements 2026-12": run states), issue 23."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.transcript import analyse

DATA = Path(__file__).resolve().parents[1] / "data" / "run_state"
FILES = sorted(p.relative_to(DATA).as_posix() for p in DATA.glob("*/*.json"))


def read(name: str) -> dict:
    return analyse((DATA / name).read_text(encoding="utf-8"))


def codes(r: dict) -> list[str]:
    return [f["code"] for f in r["findings"]]


def test_the_corpus_is_here():
    assert len(FILES) == 8 and {f.split("/")[0] for f in FILES} == {"python", "js"}


@pytest.mark.parametrize("name", FILES)
def test_every_real_run_state_is_read_for_its_items(name):
    r = read(name)
    assert r["kind"] == "item_list"   # never one "item", never "unknown"
    assert "unrecognised_shape" not in codes(r)
    for f in r["findings"]:
        assert not {"None", "null", "undefined"} & set(f["message"].replace(".", " ").split())


def test_a_python_run_state_waiting_for_approval():
    r = read("python/v1_13_pending_tool_approval.json")
    # the call is listed once: its tool_approval_item (in generated_items and in the current
    # step's interruptions) is the same call, not a replay
    (c,) = r["calls"]
    assert (c["name"], c["call_id"], c["role"]) == ("historical_approval",
                                                    "historical-approval-1", "pending")
    assert c["pointer"] == "/generated_items/0/raw_item" and c["waits_for"] == "approval"
    assert not {"duplicate_call_id", "duplicate_replay", "orphan_output"} & set(codes(r))
    (f,) = [f for f in r["findings"] if f["code"] == "pending_call"]
    assert "waits for approval" in f["message"] and '"compat-agent"' in f["message"]
    assert "send its output" not in f["message"]   # the SDK runs it when the run resumes
    # its raw item (as the SDK wrote it) says no status: the gate's rule, explained as missing
    assert c["verdict"] == "status" and "may omit status" in c["note"]


def test_a_js_run_state_whose_nested_agent_waits_for_approval():
    r = read("js/v1.2-nested-approval.json")
    by_id = {c["call_id"]: c for c in r["calls"]}
    assert set(by_id) == {"outer-call", "nested-call"}
    outer, nested = by_id["outer-call"], by_id["nested-call"]
    assert outer["waits_for"] == "nested_run" and outer["pointer"] == "/generatedItems/0/rawItem"
    assert nested["waits_for"] == "approval"
    assert nested["pointer"] == "/currentStep/data/interruptions/0/rawItem"
    assert (nested["name"], nested["verdict"]) == ("secure_tool", "ok")   # callId read as call_id
    messages = {f["message"] for f in r["findings"] if f["code"] == "pending_call"}
    assert len(messages) == 2
    assert any('"NestedAgent"' in m and "waits for approval" in m for m in messages)
    assert any("pendingAgentToolRuns" in m for m in messages)
    assert r["summary"]["errors"] == 0


def test_a_js_run_state_with_a_committed_tool_call():
    r = read("js/v1.17-side-effect-committed.json")
    # the function_call_result (the JS protocol's output) answers the call: history, run once
    (c,) = r["calls"]
    assert (c["call_id"], c["role"], c["execute"]) == ("side-effect-call", "history", False)
    assert r["summary"]["outputs"] == 1
    assert not {"pending_call", "orphan_output", "unanswered_call"} & set(codes(r))


def test_a_program_callers_call_in_a_run_state():
    r = read("python/v1_13_programmatic_tool_calling.json")
    (c,) = r["calls"]
    assert (c["call_id"], c["caller_id"]) == ("function-call", "program-call")
    # the program item is the provider's (hosted): never listed, answered by program_output
    assert "orphan_output" not in codes(r)
    assert not [f for f in r["findings"] if "program-call" in f["message"]]


def test_an_output_whose_call_is_not_in_the_run_state_is_an_orphan():
    r = read("python/v1_11_tool_output_custom_data.json")
    (f,) = [f for f in r["findings"] if f["code"] == "orphan_output"]
    assert f["pointer"] == "/generated_items/0/raw_item/call_id"
    assert '"custom-data-1"' in f["message"] and r["calls"] == []


def test_a_hosted_pair_kept_whole_in_a_run_state():
    r = read("python/v1_5_tool_search_and_display_metadata.json")
    assert "hosted_pair_split" not in codes(r)
    (c,) = r["calls"]
    assert c["call_id"] == "call-display" and "waits_for" not in c


@pytest.mark.parametrize("name", ["python/v1_17.json", "js/v1.0-minimal.json"])
def test_a_minimal_run_state_holds_nothing_to_check(name):
    r = read(name)
    assert (r["calls"], r["findings"]) == ([], [])


def test_the_reader_follows_the_text_not_a_copy():
    # the same run state re-serialised compactly reads the same calls and findings
    text = (DATA / "js" / "v1.2-nested-approval.json").read_text(encoding="utf-8")
    a, b = analyse(text), analyse(json.dumps(json.loads(text), separators=(",", ":")))
    assert [(c["call_id"], c["verdict"], c.get("waits_for")) for c in a["calls"]] == \
        [(c["call_id"], c["verdict"], c.get("waits_for")) for c in b["calls"]]
    assert [(f["code"], f["pointer"]) for f in a["findings"]] == \
        [(f["code"], f["pointer"]) for f in b["findings"]]
