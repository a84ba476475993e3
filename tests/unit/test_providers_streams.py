"""Issue 24, step 2: Anthropic and Gemini streams rebuilt, and each call gated by its dialect
(the stop reason as the state rule; door 2 against input_schema / functionDeclarations)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.transcript import analyse

REAL = Path("/work/shared/reference/realworld2")


def sse(*events) -> str:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)


START = {"type": "message_start", "message": {"id": "msg_1", "type": "message",
                                              "role": "assistant", "content": []}}
STOP = [{"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
        {"type": "message_stop"}]


def block(i, b):
    return {"type": "content_block_start", "index": i, "content_block": b}


def delta(i, piece):
    return {"type": "content_block_delta", "index": i,
            "delta": {"type": "input_json_delta", "partial_json": piece}}


def stop(i):
    return {"type": "content_block_stop", "index": i}


USE = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}
TOOLS = [{"name": "get_weather", "input_schema": {
    "type": "object", "properties": {"city": {"type": "string"}, "n": {"type": "number"}},
    "required": ["city"], "additionalProperties": False}}]


def test_partial_json_is_joined_per_block_index_exactly():
    text = sse(START, block(0, {"type": "text", "text": ""}),
               {"type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": "Look"}},
               block(1, USE), delta(1, '{"city": "Pa'), delta(1, 'ris", "n": 1.50}'),
               stop(0), stop(1), *STOP)
    r = analyse(text, json.dumps(TOOLS))
    assert r["kind"] == "anthropic_stream" and r["summary"]["events"] == 10
    assert [f["code"] for f in r["findings"]] == ["pending_call"]
    (call,) = r["calls"]
    assert call["verdict"] == "ok" and call["execute"] is True
    assert call["walk"]["arguments"] == '{"city":"Paris","n":1.50}'   # the number's own text
    msg = r["items"][0]
    assert msg["content"][0]["text"] == "Look" and msg["stop_reason"] == "tool_use"
    assert [row["type"] for row in r["timeline"]] == ["text", "tool_use"]


def test_door_2_against_input_schema():
    text = sse(START, block(0, USE), delta(0, '{"town": "Paris"}'), stop(0), *STOP)
    (call,) = analyse(text, json.dumps(TOOLS))["calls"]
    assert call["verdict"] == "arguments_schema" and call["execute"] is False


def test_whole_input_in_content_block_start_and_an_empty_partial_is_kept():
    """A tool_use made from code execution: its input arrives whole, no deltas (normal)."""
    whole = {**USE, "input": {"city": "Oslo"}}
    r = analyse(sse(START, block(0, whole), delta(0, ""), stop(0), *STOP), json.dumps(TOOLS))
    (call,) = r["calls"]
    assert call["verdict"] == "ok" and json.loads(call["walk"]["arguments"]) == {"city": "Oslo"}


def test_a_delta_for_an_index_never_started_and_no_message_stop():
    r = analyse(sse(START, block(0, USE), delta(3, "{}"), stop(0),
                    {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}))
    got = {f["code"]: f for f in r["findings"]}
    assert got["stream_order"]["pointer"] == "/index" and got["stream_order"]["event"] == 2
    assert got["stream_no_terminal"]["severity"] == "error"


def test_a_stream_cut_inside_its_input_is_cut_off():
    r = analyse(sse(START, block(0, USE), delta(0, '{"city": "Pa')))
    codes = sorted(f["code"] for f in r["findings"])
    assert codes == ["call_cut_off", "stream_no_terminal", "stream_order"]
    assert r["calls"][0]["execute"] is False


def test_anthropic_json_lines_of_several_steps_are_several_messages():
    one = [START, block(0, USE), delta(0, '{"city": "A"}'), stop(0), *STOP]
    two = [START, block(0, {**USE, "id": "toolu_2"}), delta(0, '{"city": "B"}'), stop(0), *STOP]
    r = analyse("\n".join(json.dumps(e) for e in one + two))
    assert r["kind"] == "anthropic_stream" and r["summary"]["responses"] == 2
    assert [c["call_id"] for c in r["calls"]] == ["toolu_1", "toolu_2"]


# --------------------------------------------------------------------------- Gemini

GEMINI_TOOLS = [{"functionDeclarations": [{"name": "multiply", "parameters": {
    "type": "OBJECT", "properties": {"x": {"type": "INTEGER"}, "y": {"type": "INTEGER"}},
    "required": ["x", "y"]}}]}]


def _chunk(parts, finish=None):
    cand = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish is not None:
        cand["finishReason"] = finish
    return {"candidates": [cand]}


def test_gemini_chunk_array_and_sse_rebuild_the_same_calls():
    chunks = [_chunk([{"text": "Let me "}]), _chunk([{"text": "multiply."}]),
              _chunk([{"functionCall": {"name": "multiply", "args": {"x": 5, "y": 3}}}]),
              _chunk([{"text": ""}], "STOP")]
    as_array = analyse(json.dumps(chunks), json.dumps(GEMINI_TOOLS))
    as_sse = analyse("".join(f"data: {json.dumps(c)}\r\n\r\n" for c in chunks),
                     json.dumps(GEMINI_TOOLS))
    for r in (as_array, as_sse):
        assert r["kind"] == "gemini_stream" and r["summary"]["events"] == 4
        (call,) = r["calls"]
        assert (call["name"], call["verdict"]) == ("multiply", "ok")
        parts = r["items"][0]["candidates"][0]["content"]["parts"]
        assert parts[0]["text"] == "Let me multiply."
    assert as_sse["source"] == "sse"


def test_gemini_door_2_against_function_declarations():
    chunks = [_chunk([{"functionCall": {"name": "multiply", "args": {"x": "5"}}}], "STOP")]
    (call,) = analyse(json.dumps(chunks), json.dumps(GEMINI_TOOLS))["calls"]
    assert call["verdict"] == "arguments_schema"


def test_gemini_stream_cut_by_max_tokens_and_int_finish_reason():
    for finish in ("MAX_TOKENS", 2, "MALFORMED_FUNCTION_CALL"):
        chunks = [_chunk([{"functionCall": {"name": "multiply", "args": {"x": 5, "y": 3}}}],
                         finish)]
        r = analyse(json.dumps(chunks))
        assert [f["code"] for f in r["findings"]] == ["call_cut_off"], finish
        assert r["calls"][0]["execute"] is False


def test_vertex_partial_args_are_joined_into_one_call():
    chunks = [_chunk([{"functionCall": {"name": "get_weather", "willContinue": True}}]),
              _chunk([{"functionCall": {"partialArgs": [
                  {"jsonPath": "$.location", "stringValue": "Bos", "willContinue": True}],
                  "willContinue": True}}]),
              _chunk([{"functionCall": {"partialArgs": [
                  {"jsonPath": "$.location", "stringValue": "ton"}], "willContinue": True}}]),
              _chunk([{"functionCall": {}}], "STOP")]
    r = analyse(json.dumps(chunks))
    (call,) = r["calls"]
    assert call["name"] == "get_weather"
    assert json.loads(call["walk"]["arguments"]) == {"location": "Boston"}
    parts = r["items"][0]["candidates"][0]["content"]["parts"]
    assert len(parts) == 1 and "partialArgs" not in parts[0]["functionCall"]


def test_a_request_is_gated_against_its_own_tools():
    req = {"contents": [{"role": "user", "parts": [{"text": "5*3?"}]},
                        {"role": "model", "parts": [
                            {"functionCall": {"name": "multiply", "args": {"x": 5}}}]}],
           "tools": GEMINI_TOOLS}
    (call,) = analyse(json.dumps(req))["calls"]
    assert call["verdict"] == "arguments_schema"


@pytest.mark.skipif(not REAL.is_dir(), reason="realworld2 is not on this machine")
def test_recorded_streams_rebuild_their_calls():
    for name, want in [("anthropic/0022_anthropic-sdk-go__cassettes__tool_runner_next_streaming"
                        "__i0_stream.sse", 1),
                       ("anthropic/0061_anthropic-sdk-typescript__stream-a-toolrefusal.sse", 1),
                       ("gemini/0288_llm-gemini__test_gemini__test_tools_with_gemini_3_thought_"
                        "signatures__i0_stream.json", 1)]:
        r = analyse((REAL / name).read_text())
        assert len(r["calls"]) == want and all(c["line"] >= 1 for c in r["calls"]), name
        assert r["items"], name
    hosted = analyse((REAL / "anthropic/0061_anthropic-sdk-typescript__stream-a-toolrefusal.sse")
                     .read_text())
    assert not [f for f in hosted["findings"] if f["code"] in ("pending_call", "unanswered_call")]


def test_a_long_text_stream_is_joined_in_linear_time():
    """60,000 text deltas of one block (13 MB): joined once (the growing text was copied per
    delta before, quadratic); bounded well under the work deadline."""
    import time
    events = [START, block(0, {"type": "text", "text": ""})]
    events += [{"type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": "word " * 20}}] * 60000
    text = sse(*events, stop(0), *STOP)
    t0 = time.perf_counter()
    r = analyse(text)
    assert time.perf_counter() - t0 < 15
    assert len(r["items"][0]["content"][0]["text"]) == 6_000_000
