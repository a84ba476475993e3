"""Open Responses (and the Responses API): the only place that knows its envelope.

* A response holds its items in ``output`` (its ``status`` the response's state); a request
  holds the history in ``input``; a stream is ``response.*`` events (rebuilt by
  :class:`workbench.transcript.streams.ResponsesStream`).
* A call is a ``function_call`` item ``{id, call_id, name, arguments (a JSON text), status}``
  (and, leniently, any typed item with a ``call_id`` that is not a message); the answer is a
  ``function_call_output`` (or any ``*_output`` item with a ``call_id``).
* The gate walks a call as it is (:func:`walkable`), by the Open Responses rules.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..jsontext import dumps_value
from .model import Call, Other, Output, Place, text_or_none

NAME = "open_responses"
GATE = "open_responses"
KINDS = ("response", "item_list", "response_stream", "item")
# calls the provider runs itself (transcript-rules.md, "Calls the provider runs"): the host never
# answers them, so they are never unanswered and an empty call_id is the provider's business
HOSTED = frozenset({"web_search_call", "file_search_call", "code_interpreter_call",
                    "tool_search_call", "mcp_call", "image_generation_call", "x_search_call",
                    "program"})   # programmatic tool calling: the provider runs the code
# the outputs the provider writes for its own calls (never the host's to answer with)
HOSTED_OUTPUTS = frozenset({"tool_search_output"})
LABELS = {"response": "a whole response", "stream_event": "a streaming event",
          "item_list": "a list of items", "request": "a request body"}


# --------------------------------------------------------------------------- recognising

def is_event(v: Any) -> bool:
    return type(v) is dict and isinstance(v.get("type"), str) and (
        v["type"].startswith("response.") or v["type"] == "error")


def shaped(v: Any) -> bool:
    """An Open Responses call or output shape (type function_call / *_output, call_id)."""
    return type(v) is dict and isinstance(v.get("type"), str) and (
        v["type"] in ("function_call", "function_call_output") or "call_id" in v)


def is_call(node: Any, parent_key: Any = None) -> bool:
    return type(node) is dict and node.get("type") == "function_call"


def is_hosted(t: Any) -> bool:
    """A call type the provider runs: a known hosted tool, or a provider's own
    (``xai:…_call``)."""
    return isinstance(t, str) and (t in HOSTED or (":" in t and t.endswith("_call")))


def is_response(v: Any) -> bool:
    """A response: ``object: "response"``, or an ``output`` list on an object without a
    ``type`` string (a typed object is an item, even one whose ``output`` is a list: a
    ``shell_call_output``)."""
    return type(v) is dict and (v.get("object") == "response" or (
        isinstance(v.get("output"), list) and not isinstance(v.get("type"), str)))


# a run state saved by the Agents SDKs (openai-agents-js RunState.toJSON() in camelCase,
# openai-agents-python in snake_case): its lists of Responses items
RUN_STATE_LISTS = (("originalInput", "original_input"), ("generatedItems", "generated_items"),
                   ("modelResponses", "model_responses"))
_RUN_STATE_MARKS = ("$schemaVersion", "currentAgent", "current_agent", "currentTurn",
                    "current_turn")


def _either(v: dict, names: tuple) -> tuple[str, Any]:
    for n in names:
        if n in v:
            return n, v[n]
    return names[0], None


def is_run_state(v: Any) -> bool:
    """A serialised Agents SDK run state: untyped, marked by its schema version or current
    agent/turn, holding generated items or model responses."""
    return type(v) is dict and not isinstance(v.get("type"), str) and \
        any(m in v for m in _RUN_STATE_MARKS) and \
        any(isinstance(_either(v, names)[1], list) for names in RUN_STATE_LISTS[1:])


def _protocol(raw: dict) -> dict:
    """A JS SDK protocol item as the Responses item it stands for: ``callId`` is ``call_id``,
    a ``function_call_result`` is a ``function_call_output`` (the text keeps its place)."""
    if "callId" not in raw and raw.get("type") != "function_call_result":
        return raw
    item = dict(raw)
    if "callId" in item and "call_id" not in item:
        item["call_id"] = item["callId"]
    if item.get("type") == "function_call_result":
        item["type"] = "function_call_output"
    return item


def run_state_items(v: dict) -> list[tuple[Any, str]]:
    """(item, pointer) of a run state's items in order: the original input (when a list),
    then the generated items' raw items (or, without them, the model responses' output), then
    the pending approvals' raw items that are not among them (an approval record of a call
    already listed is the same call, not a second one)."""
    out: list[tuple[Any, str]] = []
    key, original = _either(v, RUN_STATE_LISTS[0])
    if isinstance(original, list):
        out += [(it, f"/{key}/{i}") for i, it in enumerate(original)]
    key, generated = _either(v, RUN_STATE_LISTS[1])
    seen: set = set()
    if isinstance(generated, list) and generated:
        for i, g in enumerate(generated):
            raw_key, raw = _either(g, ("rawItem", "raw_item")) if type(g) is dict else ("", None)
            if type(raw) is not dict:
                continue
            raw = _protocol(raw)
            ident = (raw.get("type"), raw.get("call_id"), raw.get("id"))
            if g.get("type") == "tool_approval_item" and ident in seen:
                continue   # the SDK's approval record of a call listed already: not a replay
            out.append((raw, f"/{key}/{i}/{raw_key}"))
            seen.add(ident)
    else:
        key, responses = _either(v, RUN_STATE_LISTS[2])
        for k, r in enumerate(responses if isinstance(responses, list) else ()):
            output = r.get("output") if type(r) is dict else None
            if isinstance(output, list):
                output = [_protocol(it) if type(it) is dict else it for it in output]
                out += [(it, f"/{key}/{k}/output/{i}") for i, it in enumerate(output)]
                seen.update((it.get("type"), it.get("call_id"), it.get("id"))
                            for it in output if type(it) is dict)
    step_key, step = _either(v, ("currentStep", "current_step"))
    data = step.get("data") if type(step) is dict else None
    waiting = data.get("interruptions") if type(data) is dict else None
    for i, w in enumerate(waiting if isinstance(waiting, list) else ()):
        raw_key, raw = _either(w, ("rawItem", "raw_item")) if type(w) is dict else ("", None)
        raw = _protocol(raw) if type(raw) is dict else None
        if raw is not None and (raw.get("type"), raw.get("call_id"), raw.get("id")) not in seen:
            out.append((raw, f"/{step_key}/data/interruptions/{i}/{raw_key}"))
    return out


def recognise(v: Any) -> str | None:
    """The kind of one pasted value when it is an Open Responses envelope, else None."""
    if type(v) is not dict:
        return None
    if is_response(v):
        return "response"
    if is_run_state(v):
        return "item_list"   # read for its items and approvals
    if "input" in v and isinstance(v["input"], (list, str)) and "type" not in v:
        return "item_list"
    if is_event(v):
        return "response_stream"
    return None


def envelope_kind(v: dict) -> str | None:
    """The finer word the one-item gate uses for a pasted Open Responses value."""
    t = v.get("type")
    if v.get("object") == "response" or (isinstance(v.get("output"), list) and "type" not in v):
        return "response"
    if isinstance(t, str) and t.startswith("response.") and (
            isinstance(v.get("response"), dict) or isinstance(v.get("item"), dict)):
        return "stream_event"
    if isinstance(v.get("tools"), list) and isinstance(v.get("input"), list):
        return "request"
    return None


# --------------------------------------------------------------------------- reading

def read_call(it: dict, place: Place | None = None, pos: int = 0) -> Call:
    return Call(NAME, place, pos, it, name=it.get("name"), call_id=it.get("call_id"),
                id=it.get("id"), args=it.get("arguments"), status=it.get("status"),
                turn_id=it.get("turn_id"))


def read_items(placed: list[tuple[Any, Place]], pos0: int = 0) -> list:
    """The neutral entries of a list of items (``output``, ``input``, a log, a rebuilt
    stream), in order; values that are not objects are left out."""
    entries: list = []
    # positions: a list of pieces gives its own (the pieces' index objects, not one new int
    # an entry)
    positions = placed.positions() if pos0 == 0 and hasattr(placed, "positions") else \
        itertools.count(pos0)
    for pos, (it, place) in zip(positions, placed):
        if type(it) is not dict:
            continue
        t = it.get("type")
        t = t if isinstance(t, str) else None
        cid = it.get("call_id")
        if t in HOSTED_OUTPUTS:   # the provider's half of a pair: paired as hosted_pairs
            entries.append(Other(NAME, place, pos, it))
        elif t == "function_call_output" or (t is not None and t.endswith("_output") and
                                             isinstance(cid, str)):
            entries.append(Output(NAME, place, pos, it, call_id=cid))
        elif t == "function_call" or (isinstance(cid, str) and t != "message" and
                                      "role" not in it):
            call = read_call(it, place, pos)
            call.hosted = is_hosted(t)
            entries.append(call)
        else:
            entries.append(Other(NAME, place, pos, it, continues=t != "reasoning"))
    return entries


# --------------------------------------------------------------------------- writing

def walkable(call: Call) -> Any:
    """The item the gate walks: the call's own item — with the stop state and the item id the
    transcript settled where the item does not say them (a history call: complete by being
    answered, replay input whose id is optional)."""
    item = call.item
    if type(item) is not dict:
        return item
    settled = {k: v for k, v in (("id", call.id), ("status", call.status))
               if v is not None and item.get(k) != v}
    return {**item, **settled} if settled else item


def write(call: Call) -> dict:
    """The neutral call as an Open Responses ``function_call`` item (arguments as a JSON
    text; the item id and the status only when the call has them: nothing is invented)."""
    item: dict = {"type": "function_call"}
    for k, v in (("id", call.id), ("call_id", call.call_id), ("name", call.name)):
        if v is not None:
            item[k] = v
    args = call.args
    if isinstance(args, (dict, list)):
        item["arguments"] = dumps_value(args).decode("utf-8")
    elif args is not None:
        item["arguments"] = args
    if text_or_none(call.status) is not None:
        item["status"] = call.status
    return item
