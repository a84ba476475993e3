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


def recorded_items(realworld, name: str) -> list:
    """The finished items of a recorded stream (its output_item.done events), in order."""
    out = []
    for line in (realworld / "streams" / name).read_text(encoding="utf-8").splitlines():
        line = line.strip().removeprefix("data:").strip()
        if line.startswith("{"):
            ev = json.loads(line)
            if ev.get("type") == "response.output_item.done":
                out.append(ev["item"])
    return out


TOOL_SEARCH = "029_vercel-ai__openai__openai-tool-search.1.chunks.txt"
USER = {"type": "message", "role": "user", "content": "weather in Lyon?"}


def test_a_replay_that_drops_half_of_a_hosted_pair_is_hosted_pair_split(realworld):
    items = recorded_items(realworld, TOOL_SEARCH)
    call = next(it for it in items if it["type"] == "tool_search_call")
    output = next(it for it in items if it["type"] == "tool_search_output")
    assert call["execution"] == "server" and call["call_id"] is None

    def replay(*kept):
        return analyse(json.dumps({"model": "m", "input": [USER, *kept, USER]}, indent=1))
    assert "hosted_pair_split" not in codes(replay(call, output))
    for kept, first in (((call,), "tool_search_call is kept"),
                        ((output,), "tool_search_output is kept")):
        r = replay(*kept)
        (f,) = [f for f in r["findings"] if f["code"] == "hosted_pair_split"]
        assert f["severity"] == "warning" and first in f["message"]
        assert "Keep both or drop both" in f["message"]
        # never "add its output" (the host cannot write it), never an error
        assert not [g for g in r["findings"] if "add its" in g["message"]]
        assert r["summary"]["errors"] == 0
    # with call_ids, the pair is matched by them
    r = replay(dict(call, call_id="ts_1"), dict(output, call_id="ts_2"))
    assert codes(r).count("hosted_pair_split") == 2
    assert not {"orphan_output", "unanswered_call"} & set(codes(r))


def test_a_client_executed_tool_search_is_the_hosts_to_answer():
    call = {"type": "tool_search_call", "id": "tsc_1", "call_id": "call_1", "status": "completed",
            "execution": "client", "arguments": {"paths": ["get_weather"]}}
    r = analyse(json.dumps({"model": "m", "input": [USER, call, USER]}))
    assert "hosted_pair_split" not in codes(r)


def test_an_approval_request_kept_without_its_response_is_hosted_pair_split():
    req = {"type": "mcp_approval_request", "id": "mcpr_1", "server_label": "deepwiki",
           "name": "ask_question", "arguments": "{}"}
    resp = {"type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": True}
    ok = analyse(json.dumps({"model": "m", "input": [USER, req, resp]}))
    assert "hosted_pair_split" not in codes(ok)
    r = analyse(json.dumps({"model": "m", "input": [USER, req, USER]}))
    assert codes(r).count("hosted_pair_split") == 1


def test_an_output_replayed_as_input_with_an_output_only_property_is_output_only_field():
    # the rules' example: the OpenAI API answers 400 "Unknown parameter: 'input[3].created_by'"
    compaction = {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAA",
                  "created_by": "user_1"}
    text = json.dumps({"model": "m", "input": [USER, USER, USER, compaction]}, indent=1)
    r = analyse(text)
    (f,) = [f for f in r["findings"] if f["code"] == "output_only_field"]
    assert f["severity"] == "warning" and f["pointer"] == "/input/3/created_by"
    assert (f["property"], f["output_schema"], f["input_schema"]) == \
        ("created_by", "CompactionBody", "CompactionSummaryItemParam")
    assert "created_by" in f["message"] and "CompactionSummaryItemParam" in f["message"]
    # the same item as a response's output is in its place: no finding
    r = analyse(json.dumps({"object": "response", "status": "completed", "output": [compaction]}))
    assert "output_only_field" not in codes(r)
    # an input item without it: no finding
    del compaction["created_by"]
    assert "output_only_field" not in codes(analyse(json.dumps({"model": "m",
                                                                "input": [compaction]})))


def test_output_only_properties_come_from_the_spec():
    from workbench.transcript.spec import output_only
    assert output_only("CompactionBody", "CompactionSummaryItemParam") == {"created_by"}
    assert output_only("FunctionCall", "FunctionCallItemParam") == frozenset()


@pytest.mark.parametrize("name, behaviour, words", [
    ("011_vercel-ai__mistral__mistral-tool-call.chunks.txt", "missing_index",
     "OpenAI Python SDK's chunk accumulator raises"),
    ("014_vercel-ai__openai-compatible__anthropic-fallback-tool-call.sse", "first_index_not_0",
     "index other than 0"),
    ("047_llm__test_tools_streaming__test_tools_streaming_variant_a__i0.txt", "repeated_id",
     "naive +="),
])
def test_what_official_clients_cannot_read_is_client_incompatible(realworld, name, behaviour,
                                                                   words):
    r = analyse((realworld / "streams" / name).read_text(encoding="utf-8"))
    found = [f for f in r["findings"] if f["code"] == "client_incompatible"]
    assert [f["behaviour"] for f in found] == [behaviour]
    assert found[0]["severity"] == "warning" and words in found[0]["message"]
    assert r["calls"]   # still read: valid, only a client would fail


def test_a_stream_official_clients_read_has_no_client_incompatible(realworld):
    for p in sorted((realworld / "streams").glob("03[5-9]_*")):
        r = analyse(p.read_text(encoding="utf-8"))
        assert "client_incompatible" not in codes(r), p.name


def run_state(snake: bool = False) -> dict:
    """A run state as openai-agents-js's RunState.toJSON() writes it (camelCase; the Python
    SDK's in snake_case): one tool call answered, one waiting for approval."""
    def raw(cid, city):
        return {"type": "function_call", "id": "fc_" + cid, "call_id": cid, "name": "get_weather",
                "status": "completed", "arguments": json.dumps({"city": city})}
    answered, waiting = raw("call_1", "Lyon"), raw("call_2", "Oslo")
    out = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}
    agent = {"name": "Weather agent"}
    state = {"$schemaVersion": "1.0", "currentTurn": 2, "currentAgent": agent,
             "originalInput": [USER],
             "modelResponses": [{"output": [answered], "responseId": "resp_1"},
                                {"output": [waiting], "responseId": "resp_2"}],
             "generatedItems": [{"type": "tool_call_item", "rawItem": answered, "agent": agent},
                                {"type": "tool_call_output_item", "rawItem": out,
                                 "agent": agent},
                                {"type": "tool_call_item", "rawItem": waiting, "agent": agent},
                                {"type": "tool_approval_item", "rawItem": waiting,
                                 "agent": agent}],
             "currentStep": {"type": "next_step_interruption", "data": {"interruptions": [
                 {"type": "tool_approval_item", "rawItem": waiting, "agent": agent}]}},
             "maxTurns": 10}
    if not snake:   # the JS SDK's protocol items: callId, function_call_result
        for item in (answered, waiting, out):
            item["callId"] = item.pop("call_id")
        out.update(type="function_call_result", output={"type": "text", "text": "sunny"})
    if snake:
        names = {"currentTurn": "current_turn", "currentAgent": "current_agent",
                 "originalInput": "original_input", "modelResponses": "model_responses",
                 "generatedItems": "generated_items", "currentStep": "current_step",
                 "maxTurns": "max_turns"}
        state = {names.get(k, k): v for k, v in state.items()}
        for g in state["generated_items"]:
            g["raw_item"] = g.pop("rawItem")
    return state


@pytest.mark.parametrize("snake", [False, True])
def test_an_agents_sdk_run_state_is_read_for_its_items(snake):
    r = analyse(json.dumps(run_state(snake), indent=1))
    # it was kind "item" (JS) with 0 calls before
    assert r["kind"] == "item_list"
    assert [(c["call_id"], c["role"]) for c in r["calls"]] == [("call_1", "history"),
                                                               ("call_2", "pending")]
    assert r["calls"][1]["execute"] is True and r["summary"]["errors"] == 0
    assert not {"duplicate_replay", "duplicate_call_id", "orphan_output"} & set(codes(r))
    key = "generated_items" if snake else "generatedItems"
    assert r["calls"][0]["pointer"] == f"/{key}/0/{'raw_item' if snake else 'rawItem'}"


def test_a_run_state_without_generated_items_reads_its_model_responses_and_approvals():
    state = run_state()
    del state["generatedItems"]
    state["modelResponses"] = state["modelResponses"][:1]
    r = analyse(json.dumps(state))
    assert [c["call_id"] for c in r["calls"]] == ["call_1", "call_2"]   # call_2: the approval
