"""The gallery's transcript cases (``transcript-rules.md``): whole transcripts and streams for the
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


def _chat_chunk(delta, finish=None):
    return {"id": "chatcmpl_1", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


TRANSCRIPT_CASES: list[dict] = [
    # ---- pairing
    {"name": "transcript-clean", "group": "pairing", "findings": [],
     "title": "Transcript: two calls, each answered once",
     "teaches": "Every output answers a call made before it, by its call_id: nothing to report.",
     "text": _j([_USER, _call("call_1"), _call("call_2", city="Paris"), _output("call_1"),
                 _output("call_2", "rain, 14 °C")]), "tools": WEATHER_TOOLS},
    {"name": "transcript-orphan-output", "group": "pairing", "findings": ["orphan_output"],
     "title": "Transcript: an output whose call is gone",
     "teaches": "call_zz9k matches no call before it: the call was dropped when the log was trimmed, "
                "and the next provider refuses an output without its call.",
     "text": _j([_USER, _call("call_1"), _output("call_1"), _output("call_zz9k")])},
    {"name": "transcript-keyed-by-item-id", "group": "pairing",
     "findings": ["output_keyed_by_item_id"],
     "title": "Transcript: an output keyed by the call's item id",
     "teaches": "fc_1 is the item's id, not its call_id (call_1): two pins, and an output keyed by "
                "the item id matches nothing.",
     "text": _j([_USER, _call("call_1", id="fc_1"), _output("fc_1")])},
    {"name": "transcript-near-miss", "group": "pairing", "findings": ["near_miss_id"],
     "title": "Transcript: a call_id that drifted by one character",
     "teaches": "call_3c9l answers call_3c91: one character apart (l for 1). The workbench shows "
                "the differing character; the provider would only say the call is unanswered.",
     "text": _j([_USER, _call("call_3c91"), _output("call_3c9l")])},
    {"name": "transcript-reused-call-id", "group": "pairing", "findings": ["duplicate_call_id"],
     "title": "Transcript: a provider reusing call_0 across turns",
     "teaches": "Two calls share call_0, so the output of turn 2 could answer either: call_ids "
                "must be unique in one transcript.",
     "text": _j([_USER, _call("call_0", id="fc_a"), _output("call_0"),
                 {"type": "message", "role": "user", "content": "And Paris?"},
                 _call("call_0", id="fc_b", city="Paris"), _output("call_0", "rain")])},
    # ---- state machine
    {"name": "transcript-completed-open-items", "group": "state",
     "findings": ["completed_response_open_items"],
     "title": "Response: completed, while a call is still in progress",
     "teaches": "A response that says completed while one of its calls says in_progress "
                "contradicts itself: the arguments of that call may be cut off.",
     "text": _j({"id": "resp_1", "object": "response", "status": "completed",
                 "output": [_call("call_1"), _call("call_2", city="Par", status="in_progress")]})},
    {"name": "transcript-incomplete-all-completed", "group": "state",
     "findings": ["incomplete_response_all_completed"],
     "title": "Response: incomplete, yet every item says completed",
     "teaches": "The response ran out of budget, so some item was cut off — but every item claims "
                "completed: the cut-off item lost its status. Treat the last call as unsafe.",
     "text": _j({"id": "resp_1", "object": "response", "status": "incomplete",
                 "incomplete_details": {"reason": "max_output_tokens"},
                 "output": [_call("call_1")]})},
    {"name": "transcript-mixed-envelopes", "group": "state", "findings": ["mixed_envelopes"],
     "title": "Item list: a Chat Completions tool message among Open Responses items",
     "teaches": "role: tool with tool_call_id is Chat Completions' answer; inside an Open Responses "
                "item list it sends the wrong envelope to the next provider.",
     "text": _j([_USER, _call("call_1"),
                 {"role": "tool", "tool_call_id": "call_1", "content": "sunny"}])},
    # ---- streams
    {"name": "stream-cut-off", "group": "stream", "findings": ["stream_no_terminal"],
     "title": "Stream: cut off before its end",
     "teaches": "The call's events arrive, but no response.completed (or failed, incomplete) ends "
                "the stream: the connection dropped, and nothing in it may be trusted as final.",
     "text": _sse(_call_events(), done=False)},
    {"name": "stream-item-id-changed", "group": "stream", "findings": ["stream_item_id_changed"],
     "title": "Stream: an item whose id changes between its events",
     "teaches": "Deltas attach to an item by its id: fc_1 when added, fc_1b when done. A client "
                "that keys by id builds two half items.",
     "text": _sse(_call_events(done_id="fc_1b") + [_COMPLETED])},
    {"name": "stream-bad-line", "group": "stream", "findings": ["stream_bad_line"],
     "title": "Stream: a line that is neither an SSE field nor JSON",
     "teaches": "A cut-off data line in the middle of the stream is a finding at its own line; the "
                "rest of the stream is still read and rebuilt.",
     "text": _sse(_call_events()[:3] + ['data: {"type":"response.function_call_arg']
                  + _call_events()[3:] + [_COMPLETED])},
    {"name": "chat-stream-name-split", "group": "stream", "findings": ["chat_stream_name_split"],
     "title": "Chat stream: a tool name split across deltas",
     "teaches": "The name arrives as llm_ + version: join the pieces once. A client that also "
                "appends the name of the first chunk again writes llm_versionllm_version.",
     "text": "".join(f"data: {json.dumps(c, separators=(',', ':'))}\n\n" for c in [
         _chat_chunk({"role": "assistant", "tool_calls": [
             {"index": 0, "id": "call_1", "type": "function",
              "function": {"name": "llm_", "arguments": ""}}]}),
         _chat_chunk({"tool_calls": [{"index": 0, "function": {"name": "version",
                                                               "arguments": "{}"}}]}),
         _chat_chunk({}, "tool_calls")]) + "data: [DONE]\n\n"},
    # ---- against the spec
    {"name": "transcript-spec-schema", "group": "spec", "findings": ["spec_schema"],
     "title": "Response: an item the spec's own schema refuses",
     "teaches": "The output function_call has arguments as an object: the spec's FunctionCall "
                "schema wants a string. The spec's rule is named beside the gate's stricter ones.",
     "text": _j({"id": "resp_1", "object": "response", "status": "completed",
                 "output": [{**_call("call_1"), "arguments": {"city": "Lyon"}}]})},
]

for _case in TRANSCRIPT_CASES:
    _case["kind"] = "transcript"
