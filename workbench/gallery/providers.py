"""The gallery's cases for the other providers (issue 24, ``providers-rules.md``): Anthropic
Messages, Gemini and OTel traces, one per code only they have and a clean one each.  Each is
``kind: "transcript"`` with ``group``, ``text``, ``findings`` (the codes the transcript core must
report; ``tests/unit/test_providers_gallery.py`` checks every one) and ``teaches``."""

from __future__ import annotations

import json

from .transcripts import _case, _j

_ASK = {"role": "user", "content": "What's the weather in Paris?"}
_USE = {"type": "tool_use", "id": "toolu_01A", "name": "get_weather", "input": {"city": "Paris"}}
_RESULT = {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "18 °C, cloudy"}
_TOOLS = [{"name": "get_weather", "description": "Current weather",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                            "required": ["city"], "additionalProperties": False}}]


def _messages(*messages, **more) -> str:
    return _j({"model": "claude-sonnet-4-5", "max_tokens": 1024, **more, "tools": _TOOLS,
               "messages": list(messages)})


def _sse(*events) -> str:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e, separators=(',', ':'))}\n\n"
                   for e in events)


_START = {"type": "message_start", "message": {"id": "msg_01", "type": "message",
                                               "role": "assistant", "content": [],
                                               "stop_reason": None}}
_SIG = "Et0BCtoBAXLI2nwMB4momyXTj+K3OPELPDi5Mq6bA5ZHuiKVF9m94gyxd+zdlC+s73nWxHx1ImnA9w=="
_G_TOOLS = [{"functionDeclarations": [{"name": "multiply", "parameters": {
    "type": "OBJECT", "properties": {"x": {"type": "INTEGER"}, "y": {"type": "INTEGER"}},
    "required": ["x", "y"]}}]}]
_G_CALL = {"functionCall": {"name": "multiply", "args": {"x": 5, "y": 3}}}

PROVIDER_CASES: list[dict] = [
    _case("anthropic-merged-turns", "pairing", [], "Anthropic: same-role messages are one turn",
          "A framework spliced the assistant's text and its tool_use into two messages. Anthropic "
          "merges consecutive messages of one role before it checks pairs, and so does the "
          "transcript: one assistant turn, its tool_result in the next user turn, no finding.",
          _messages(_ASK, {"role": "assistant", "content": [{"type": "text", "text": "Checking."}]},
                    {"role": "assistant", "content": [_USE]},
                    {"role": "user", "content": [_RESULT]})),
    _case("anthropic-orphan-tool-result", "pairing", ["orphan_output"],
          "Anthropic: a tool_result for no tool_use",
          "The history lost the assistant turn that called the tool, but kept its tool_result. "
          "The Anthropic API refuses the request with a 400 (unexpected tool_use_id); restore "
          "the tool_use or drop the result.",
          _messages(_ASK, {"role": "assistant", "content": "Let me see."},
                    {"role": "user", "content": [_RESULT]})),
    _case("anthropic-unanswered-tool-use", "pairing", ["unanswered_call"],
          "Anthropic: a tool_use without its tool_result",
          "The next user message carries text but no tool_result for toolu_01A. Where Gemini "
          "would accept this, Anthropic refuses it: an error, not a warning.",
          _messages(_ASK, {"role": "assistant", "content": [_USE]},
                    {"role": "user", "content": "Never mind, and tomorrow?"})),
    _case("anthropic-result-not-first", "pairing", ["result_not_first"],
          "Anthropic: tool results come first",
          "The user message has text before its tool_result. Anthropic wants the tool_result "
          "blocks first in the message that answers the call; move the text after them.",
          _messages(_ASK, {"role": "assistant", "content": [_USE]},
                    {"role": "user", "content": [{"type": "text", "text": "Here you go:"},
                                                 _RESULT]})),
    _case("anthropic-result-not-next", "pairing", ["result_not_next"],
          "Anthropic: the answer must be in the next message",
          "The tool_result exists, but two messages later: no message may sit between a "
          "tool_use and its tool_result.",
          _messages(_ASK, {"role": "assistant", "content": [_USE]},
                    {"role": "user", "content": "Hold on."},
                    {"role": "assistant", "content": "Waiting."},
                    {"role": "user", "content": [_RESULT]})),
    _case("anthropic-is-error", "pairing", ["result_is_error"],
          "Anthropic: the host reported a failure",
          "is_error: true tells the model the tool failed. It is not a fault of the transcript "
          "(info), but a reader should see it.",
          _messages(_ASK, {"role": "assistant", "content": [_USE]},
                    {"role": "user", "content": [{**_RESULT, "is_error": True,
                                                  "content": "weather service timed out"}]})),
    _case("anthropic-max-tokens", "state", ["call_cut_off"],
          "Anthropic: a tool_use stopped by max_tokens",
          "The message stopped at max_tokens: its tool_use input may be incomplete, so the "
          "call is never executed (the stop reason is the call's state).",
          _j({"id": "msg_01", "type": "message", "role": "assistant", "model": "claude",
              "content": [_USE], "stop_reason": "max_tokens", "stop_sequence": None})),
    _case("anthropic-stream-block-open", "stream", ["stream_order", "call_cut_off"],
          "Anthropic stream: a tool block never closed",
          "The stream stops inside the tool_use's input_json_delta pieces (the recorded "
          "incomplete_partial_json fixture has the same shape): the block never gets its "
          "content_block_stop, the input is not JSON, the call is cut off.",
          _sse(_START, {"type": "content_block_start", "index": 0, "content_block": {
              **_USE, "input": {}}},
               {"type": "content_block_delta", "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Pa"}},
               {"type": "message_delta", "delta": {"stop_reason": "max_tokens"}},
               {"type": "message_stop"})),
    _case("anthropic-thinking-dropped", "pairing", ["reasoning_dropped"],
          "Anthropic: thinking dropped from the answered turn",
          "With thinking on, the assistant turn whose tool_use is being answered must come back "
          "with its thinking blocks and their signatures; this history stripped them.",
          _messages(_ASK, {"role": "assistant", "content": [_USE]},
                    {"role": "user", "content": [_RESULT]},
                    thinking={"type": "enabled", "budget_tokens": 2048})),
    _case("gemini-response-count", "pairing", ["response_count_mismatch", "unanswered_call"],
          "Gemini: one response per call",
          "The model turn made two calls; the next turn answers one. Gemini pairs by name and "
          "position when the calls carry no id: give each call its functionResponse (the one "
          "left is unanswered, a warning: Gemini accepts it where Anthropic would not).",
          _j({"contents": [{"role": "user", "parts": [{"text": "5*3 and 2*2?"}]},
                           {"role": "model", "parts": [
                               _G_CALL, {"functionCall": {"name": "multiply",
                                                          "args": {"x": 2, "y": 2}}}]},
                           {"role": "user", "parts": [{"functionResponse": {
                               "name": "multiply", "response": {"output": 15}}}]}],
              "tools": _G_TOOLS})),
    _case("gemini-signature-dropped", "pairing", ["reasoning_dropped"],
          "Gemini: the thoughtSignature did not come back",
          "A log of a Gemini 3 response and the request that replays it: the response signed "
          "its call (thoughtSignature), the request sends the call back without it. Signatures "
          "are compared as decoded bytes (the URL-safe alphabet is the same signature).",
          _j([{"candidates": [{"content": {"role": "model", "parts": [
              {**_G_CALL, "thoughtSignature": _SIG}]}, "finishReason": "STOP"}]},
              {"contents": [{"role": "user", "parts": [{"text": "5*3?"}]},
                            {"role": "model", "parts": [_G_CALL]},
                            {"role": "user", "parts": [{"functionResponse": {
                                "name": "multiply", "response": {"output": 15}}}]}]}])),
    _case("otel-invented-id", "pairing", ["invented_call_id"],
          "OTel: an id the instrumentation made up",
          "The Vertex instrumentation wrote get_current_weather_0 for a call Gemini gave no id: "
          "pairing by it proves nothing about the provider's own pairing (info).",
          _j({"gen_ai.operation.name": "chat", "gen_ai.request.model": "gemini-2.5-pro",
              "gen_ai.output.messages": json.dumps([{"role": "model", "parts": [
                  {"type": "tool_call", "id": "get_current_weather_0",
                   "name": "get_current_weather", "arguments": {"location": "New Delhi"}}],
                  "finish_reason": "stop"}])})),
    _case("openai-reasoning-dropped", "pairing", ["reasoning_dropped"],
          "OpenAI: a call turn lost its reasoning item",
          "The first call kept its reasoning item (encrypted_content, as a stateless replay "
          "needs); the second call's turn lost it: a reasoning model replayed this way loses "
          "its chain of thought.",
          _j({"model": "o4-mini", "store": False, "input": [
              {"role": "user", "content": "Population of Pundora, then dragons?"},
              {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAB"},
              {"type": "function_call", "call_id": "call_1", "name": "lookup_population",
               "arguments": "{\"country\":\"Pundora\"}"},
              {"type": "function_call_output", "call_id": "call_1", "output": "123124"},
              {"type": "function_call", "call_id": "call_2", "name": "can_have_dragons",
               "arguments": "{\"population\":123124}"},
              {"type": "function_call_output", "call_id": "call_2", "output": "true"}]})),
]
