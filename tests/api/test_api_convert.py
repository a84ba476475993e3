"""POST /api/convert through the real server (issue 24), and hostile conversations through the
Flask client: every answer a 200 or a coded 4xx within the work deadline, never a 500."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.limits import Limits
from workbench.web import create_app

DEADLINE = 4.0
MARGIN = 3.0

ANTHROPIC = {"system": "Be brief.", "messages": [
    {"role": "user", "content": "Weather in Paris?"},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "look it up", "signature": "c2ln"},
        {"type": "tool_use", "id": "toolu_01", "name": "get_weather",
         "input": {"city": "Paris", "days": 3}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01",
                                  "content": "18 °C"}]}],
    "tools": [{"name": "get_weather", "description": "Current weather", "input_schema": {
        "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"]}}]}


def test_convert_answers_the_contract_fields(server):
    text = json.dumps(ANTHROPIC, ensure_ascii=False, indent=2)
    status, answer = server.api("convert", {"text": text, "to": "open_responses"})
    assert status == 200, answer
    assert {"from", "to", "text", "not_portable", "findings", "clean"} <= set(answer)
    assert answer["from"] == "anthropic" and answer["to"] == "open_responses"
    assert answer["clean"] is True and answer["findings"] == []
    converted = json.loads(answer["text"])
    assert converted["input"][0] == {"type": "message", "role": "developer", "content": "Be brief."}
    call = next(it for it in converted["input"] if it["type"] == "function_call")
    assert call["call_id"] == "toolu_01" and call["arguments"] == '{"city":"Paris","days":3}'
    [lost] = answer["not_portable"]
    assert lost["what"] == "thinking" and lost["pointer"] == "/messages/1/content/0"
    assert text.split("\n")[lost["line"] - 1][lost["column"] - 1] == "{"
    # the converted calls are gated by the target's tools (converted too)
    assert [c["verdict"] for c in answer["calls"]] == ["history_ok"] or \
        all(c["dialect"] == "open_responses" for c in answer["calls"])


def test_convert_checks_the_result_by_the_target_rules(server):
    # an unanswered call in the middle: an error for Anthropic, a warning for Gemini
    src = {"input": [{"type": "message", "role": "user", "content": "a"},
                     {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
                     {"type": "message", "role": "user", "content": "b"}]}
    codes = {}
    for to in ("anthropic", "gemini"):
        status, answer = server.api("convert", {"text": json.dumps(src), "to": to})
        assert status == 200
        codes[to] = {(f["code"], f["severity"]) for f in answer["findings"]}
        assert answer["clean"] is (to == "gemini")
    assert ("unanswered_call", "error") in codes["anthropic"]
    assert ("unanswered_call", "warning") in codes["gemini"]


@pytest.mark.parametrize("body, status, code, field", [
    ({"to": "chat"}, 400, "missing_field", "text"),
    ({"text": "{}"}, 400, "missing_field", "to"),
    ({"text": "{}", "to": "cobol"}, 400, "bad_option", "to"),
    ({"text": "{}", "to": "chat", "from": "cobol"}, 400, "bad_option", "from"),
    ({"text": '{"messages": [', "to": "chat"}, 422, "parse_error", "text"),
    ({"text": '{"input": [{"type": "function_call", "call_id": "c", "name": "f", '
              '"arguments": "{\\"a\\":1,\\"a\\":2}"}]}', "to": "gemini"}, 422, "duplicate_key",
     "text"),
])
def test_convert_refusals(server, body, status, code, field):
    got, answer = server.api("convert", body)
    assert got == status, answer
    assert answer["error"]["code"] == code and answer["error"]["field"] == field


# --------------------------------------------------------------------------- hostile

HOSTILE = st.sampled_from([
    "[" * 600 + "]" * 600, "1" * 5000, "1e400000000", "-0", "\ud800", "\\ud800", "a" * 20000,
    "{\"a\":1,\"a\":2}", "NaN", "\x00", "\u2028", "", "{", "[]", "{}", "null",
])


@st.composite
def conversations(draw):
    bad = draw(HOSTILE)
    shape = draw(st.sampled_from(["or_args", "chat_args", "anthropic_input", "gemini_args",
                                  "raw_args", "text", "deep", "many", "stream"]))
    if shape == "or_args":
        v = {"input": [{"type": "function_call", "call_id": bad[:50], "name": "f",
                        "arguments": bad}, {"type": "function_call_output", "call_id": bad[:50],
                                            "output": bad}]}
    elif shape == "chat_args":
        v = {"messages": [{"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": bad, "arguments": bad}}]},
            {"role": "tool", "tool_call_id": "c", "content": bad}]}
    elif shape == "anthropic_input":
        v = {"messages": [{"role": "assistant", "content": [
            {"type": "tool_use", "id": bad[:40], "name": "f", "input": bad}]}]}
    elif shape == "gemini_args":
        v = {"contents": [{"role": "model", "parts": [{"functionCall": {"name": bad,
                                                                        "args": bad}}]},
                          {"role": "user", "parts": [{"functionResponse": {
                              "name": bad, "response": bad}}]}]}
    elif shape == "raw_args":   # the hostile value as raw JSON inside the text
        return '{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":' + \
            bad + '}}]}]}'
    elif shape == "text":
        return bad
    elif shape == "deep":
        n = draw(st.integers(100, 700))
        return '{"messages":[{"role":"user","content":' + "[" * n + "]" * n + "}]}"
    elif shape == "many":
        v = {"input": [{"type": "function_call", "call_id": f"c{i}", "name": "f",
                        "arguments": '{"x":1.10}'} for i in range(draw(st.integers(1, 3000)))]}
    else:
        return "".join(f"data: {json.dumps(e)}\n\n" for e in [
            {"type": "message_start", "message": {"id": "m", "role": "assistant", "content": []}},
            {"type": "content_block_start", "index": 0, "content_block": {
                "type": "tool_use", "id": "t", "name": "f", "input": {}}},
            {"type": "content_block_delta", "index": 0, "delta": {
                "type": "input_json_delta", "partial_json": bad}},
            {"type": "content_block_stop", "index": 0}, {"type": "message_stop"}])
    return json.dumps(v)


@pytest.fixture(scope="module")
def client():
    return create_app(Limits(work_timeout=DEADLINE)).test_client()


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=conversations(), to=st.sampled_from(["open_responses", "chat", "anthropic", "gemini"]))
def test_hostile_conversations_get_200_or_a_coded_4xx_in_time(client, text, to):
    started = time.monotonic()
    resp = client.post("/api/convert", data=json.dumps({"text": text, "to": to}),
                       content_type="application/json")
    took = time.monotonic() - started
    answer = json.loads(resp.get_data(as_text=True))
    assert resp.status_code < 500, answer
    assert took < DEADLINE + MARGIN, took
    if resp.status_code == 200:
        assert isinstance(answer["text"], str) and isinstance(answer["clean"], bool)
        json.loads(answer["text"])   # the converted text is JSON
    else:
        err = answer["error"]
        assert err["code"] and err["message"] and err.get("field") in ("text", "tools", None)


def test_a_big_conversation_answers_within_the_deadline(client):
    items = []
    for i in range(20_000):
        items += [{"type": "function_call", "call_id": f"call_{i}", "name": "f",
                   "arguments": '{"n":12345678901234567890,"d":1.10}'},
                  {"type": "function_call_output", "call_id": f"call_{i}", "output": "ok"}]
    text = json.dumps({"input": items})
    started = time.monotonic()
    resp = client.post("/api/convert", data=json.dumps({"text": text, "to": "anthropic"}),
                       content_type="application/json")
    took = time.monotonic() - started
    assert resp.status_code in (200, 422), resp.get_data(as_text=True)[:500]
    if resp.status_code == 422:
        assert resp.get_json()["error"]["code"] == "timeout"
    assert took < DEADLINE + MARGIN, took
    print(f"\n{len(text):,} characters, {len(items):,} items -> {resp.status_code} in {took:.2f} s")
