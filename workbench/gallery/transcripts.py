"""The gallery's transcript and stream cases (``transcript-rules.md``): whole transcripts and streams for the
transcript view, at least one per group of findings — pairing, the state machine, streams and the
spec's own schemas.  Each is ``kind: "transcript"`` with ``group``, ``text`` (walked by
``POST /api/transcript`` with ``{"text": case["text"], "tools": case.get("tools")}``), ``findings``
(the codes the walk must report; the tests check every one) and ``teaches`` (the lesson)."""

from __future__ import annotations

import json


def _j(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _call(call_id, *, id=None, city="Lyon", status="completed"):
    item = {"type": "function_call", "id": id or "fc_" + call_id.split("_")[-1], "call_id": call_id,
            "name": "get_weather", "arguments": json.dumps({"city": city}, separators=(",", ":"))}
    if status is not None:
        item["status"] = status
    return item


def _output(call_id, out="sunny, 21 °C"):
    return {"type": "function_call_output", "call_id": call_id, "output": out}


_USER = {"type": "message", "role": "user", "content": "What's the weather in Lyon and Paris?"}
WEATHER_TOOLS = _j([{"type": "function", "name": "get_weather",
                     "parameters": {"type": "object",
                                    "properties": {"city": {"type": "string"}},
                                    "required": ["city"], "additionalProperties": False}}])


def _sse(events, *, done=True) -> str:
    out = []
    for n, ev in enumerate(events):
        if isinstance(ev, dict):
            ev = {**ev, "sequence_number": n}
            out += [f"event: {ev['type']}", "data: " + json.dumps(ev, separators=(",", ":")), ""]
        else:
            out += [ev, ""]
    if done:
        out += ["data: [DONE]", ""]
    return "\n".join(out) + "\n"


def _response(status="in_progress", output=()):
    """A response snapshot with every field the spec's ResponseResource requires."""
    return {"id": "resp_1", "object": "response", "created_at": 1764547200,
            "completed_at": 1764547201 if status == "completed" else None, "status": status,
            "incomplete_details": None, "model": "gpt-example", "previous_response_id": None,
            "instructions": None, "output": list(output), "error": None, "tools": [],
            "tool_choice": "auto", "truncation": "disabled", "parallel_tool_calls": True,
            "text": {"format": {"type": "text"}}, "top_p": 1, "presence_penalty": 0,
            "frequency_penalty": 0, "top_logprobs": 0, "temperature": 1, "reasoning": None,
            "usage": None, "max_output_tokens": None, "max_tool_calls": None, "store": False,
            "background": False, "service_tier": "default", "metadata": {},
            "safety_identifier": None, "prompt_cache_key": None}


def _call_events(item_id="fc_1", done_id=None, *, deltas=('{"city":', '"Lyon"}')):
    added = {"type": "function_call", "id": item_id, "call_id": "call_1", "name": "get_weather",
             "arguments": "", "status": "in_progress"}
    evs = [{"type": "response.created", "response": _response()},
           {"type": "response.output_item.added", "output_index": 0, "item": added}]
    evs += [{"type": "response.function_call_arguments.delta", "item_id": item_id,
             "output_index": 0, "delta": d} for d in deltas]
    final = "".join(deltas)
    evs += [{"type": "response.function_call_arguments.done", "item_id": item_id,
             "output_index": 0, "arguments": final},
            {"type": "response.output_item.done", "output_index": 0,
             "item": {**added, "id": done_id or item_id, "arguments": final, "status": "completed"}}]
    return evs


_COMPLETED = {"type": "response.completed", "response": _response("completed")}


def _mismatched_events():
    """A call's events whose done arguments differ from its joined deltas."""
    evs = _call_events()
    other = '{"city":"Paris"}'
    evs[-2] = {**evs[-2], "arguments": other}
    evs[-1] = {**evs[-1], "item": {**evs[-1]["item"], "arguments": other}}
    return evs


def _bare_response(status, output, **more):
    """A response with just the fields its state checks read (``more`` before ``output``)."""
    return {"id": "resp_1", "object": "response", "status": status, **more, "output": output}


def _case(name, group, findings, title, teaches, text, tools=None):
    """One transcript case, its keys in the gallery's order (module docstring)."""
    case = {"name": name, "group": group, "findings": findings, "title": title,
            "teaches": teaches, "text": text}
    if tools is not None:
        case["tools"] = tools
    return case


def _chat_chunk(delta, finish=None):
    return {"id": "chatcmpl_1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


TRANSCRIPT_CASES: list[dict] = [
    # ---- pairing
    _case("transcript-clean", "pairing", [],
          "Transcript: two calls, each answered once",
          "Every output answers a call made before it, by its call_id: nothing to report.",
          _j([_USER, _call("call_1"), _call("call_2", city="Paris"), _output("call_1"),
              _output("call_2", "rain, 14 °C")]), WEATHER_TOOLS),
    _case("transcript-orphan-output", "pairing", ["orphan_output"],
          "Transcript: an output whose call is gone",
          "call_zz9k matches no call before it: the call was dropped when the log was trimmed, "
          "and the next provider refuses an output without its call.",
          _j([_USER, _call("call_1"), _output("call_1"), _output("call_zz9k")])),
    _case("transcript-keyed-by-item-id", "pairing", ["output_keyed_by_item_id"],
          "Transcript: an output keyed by the call's item id",
          "fc_1 is the item's id, not its call_id (call_1): two pins, and an output keyed by "
          "the item id matches nothing.",
          _j([_USER, _call("call_1", id="fc_1"), _output("fc_1")])),
    _case("transcript-near-miss", "pairing", ["near_miss_id"],
          "Transcript: a call_id that drifted by one character",
          "call_3c9l answers call_3c91: one character apart (l for 1). The workbench shows "
          "the differing character; the provider would only say the call is unanswered.",
          _j([_USER, _call("call_3c91"), _output("call_3c9l")])),
    _case("transcript-reused-call-id", "pairing", ["duplicate_call_id"],
          "Transcript: a provider reusing call_0 across turns",
          "Two calls share call_0, so the output of turn 2 could answer either: call_ids "
          "must be unique in one transcript.",
          _j([_USER, _call("call_0", id="fc_a"), _output("call_0"),
              {"type": "message", "role": "user", "content": "And Paris?"},
              _call("call_0", id="fc_b", city="Paris"), _output("call_0", "rain")])),
    # ---- state machine
    _case("transcript-completed-open-items", "state", ["completed_response_open_items"],
          "Response: completed, while a call is still in progress",
          "A response that says completed while one of its calls says in_progress "
          "contradicts itself: the arguments of that call may be cut off.",
          _j(_bare_response("completed", [_call("call_1"),
                                          _call("call_2", city="Par", status="in_progress")]))),
    _case("transcript-incomplete-all-completed", "state", ["incomplete_response_all_completed"],
          "Response: incomplete, yet every item says completed",
          "The response ran out of budget, so some item was cut off — but every item claims "
          "completed: the cut-off item lost its status. Treat the last call as unsafe.",
          _j(_bare_response("incomplete", [_call("call_1")],
                            incomplete_details={"reason": "max_output_tokens"}))),
    _case("transcript-mixed-envelopes", "state", ["mixed_envelopes"],
          "Item list: a Chat Completions tool message among Open Responses items",
          "role: tool with tool_call_id is Chat Completions' answer; inside an Open Responses "
          "item list it sends the wrong envelope to the next provider.",
          _j([_USER, _call("call_1"),
              {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}])),
    # ---- streams
    _case("stream-cut-off", "stream", ["stream_no_terminal"],
          "Stream: cut off before its end",
          "The call's events arrive, but no response.completed (or failed, incomplete) ends "
          "the stream: the connection dropped, and nothing in it may be trusted as final.",
          _sse(_call_events(), done=False)),
    _case("stream-item-id-changed", "stream", ["stream_item_id_changed"],
          "Stream: an item whose id changes between its events",
          "Deltas attach to an item by its id: fc_1 when added, fc_1b when done. A client "
          "that keys by id builds two half items.",
          _sse(_call_events(done_id="fc_1b") + [_COMPLETED])),
    _case("stream-bad-line", "stream", ["stream_bad_line"],
          "Stream: a line that is neither an SSE field nor JSON",
          "A cut-off data line in the middle of the stream is a finding at its own line; the "
          "rest of the stream is still read and rebuilt.",
          _sse(_call_events()[:3] + ['data: {"type":"response.function_call_arg']
               + _call_events()[3:] + [_COMPLETED])),
    _case("stream-arguments-mismatch", "stream", ["stream_arguments_mismatch"],
          "Stream: deltas that do not add up",
          "The argument deltas join to {\"city\":\"Lyon\"} but the done events say Paris: a "
          "client that keeps the deltas and one that keeps the done event run different calls.",
          _sse(_mismatched_events() + [_COMPLETED])),
    _case("chat-stream-name-split", "stream", ["chat_stream_name_split"],
          "Chat stream: a tool name split across deltas",
          "The name arrives as llm_ + version: join the pieces once. A client that also "
          "appends the name of the first chunk again writes llm_versionllm_version.",
          "".join(f"data: {json.dumps(c, separators=(',', ':'))}\n\n" for c in [
              _chat_chunk({"role": "assistant", "tool_calls": [
                  {"index": 0, "id": "call_1", "type": "function",
                   "function": {"name": "llm_", "arguments": ""}}]}),
              _chat_chunk({"tool_calls": [{"index": 0, "function": {"name": "version",
                                                                    "arguments": "{}"}}]}),
              _chat_chunk({}, "tool_calls")]) + "data: [DONE]\n\n"),
    # ---- against the spec
    _case("transcript-spec-schema", "spec", ["spec_schema"],
          "Response: an item the spec's own schema refuses",
          "The output function_call has arguments as an object: the spec's FunctionCall "
          "schema wants a string. The spec's rule is named beside the gate's stricter ones.",
          _j(_bare_response("completed", [{**_call("call_1"), "arguments": {"city": "Lyon"}}]))),
]

for _transcript_case in TRANSCRIPT_CASES:
    _transcript_case["kind"] = "transcript"
