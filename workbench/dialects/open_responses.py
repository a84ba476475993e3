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


def run_state_waits(v: dict) -> dict[str, tuple[str, str | None]]:
    """The calls a run state waits on, by call_id: ``("approval", agent)`` for each
    ``tool_approval_item`` (among the generated items and the current step's interruptions;
    a nested agent's approval is carried up to the outer state's interruptions; ``agent``:
    the name of the agent that asked, or None), ``("nested_run", None)`` for an agent run as
    a tool whose own run state is still pending (openai-agents-js ``pendingAgentToolRuns``,
    keyed ``"tool_name:call_id"``).  Neither is the host's to answer: the SDK runs them when
    the run is resumed."""
    out: dict[str, tuple[str, str | None]] = {}
    _k, generated = _either(v, RUN_STATE_LISTS[1])
    _k, step = _either(v, ("currentStep", "current_step"))
    data = step.get("data") if type(step) is dict else None
    waiting = data.get("interruptions") if type(data) is dict else None
    for g in [*(generated if isinstance(generated, list) else ()),
              *(waiting if isinstance(waiting, list) else ())]:
        if type(g) is not dict or g.get("type") != "tool_approval_item":
            continue
        _k, raw = _either(g, ("rawItem", "raw_item"))
        cid = _protocol(raw).get("call_id") if type(raw) is dict else None
        if isinstance(cid, str) and cid:
            agent = g.get("agent")
            name = agent.get("name") if type(agent) is dict else None
            out.setdefault(cid, ("approval", name if isinstance(name, str) and name else None))
    _k, runs = _either(v, ("pendingAgentToolRuns", "pending_agent_tool_runs"))
    for key in runs if type(runs) is dict else ():
        cid = key.rpartition(":")[2]
        if cid:
            out.setdefault(cid, ("nested_run", None))
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


def answer_state(value: Any) -> str:
    """The stop state of one answer (a response: its ``status``; a response that does not say
    is taken as completed)."""
    status = value.get("status") if type(value) is dict else None
    return status if isinstance(status, str) else "completed"


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


# --------------------------------------------------------------------------- conversations
# (conversion between dialects: workbench/convert; the neutral model: .conversation)

_MESSAGE_KEYS = frozenset({"type", "role", "content"})
_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments"})
_OUTPUT_KEYS = frozenset({"type", "call_id", "output"})
_TEXT_TYPES = ("input_text", "output_text", "text")
_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
_TOP_CARRIED = frozenset({"input", "output", "instructions", "tools", "object"})


def read_conversation(value: Any, reading) -> Any:
    """The neutral conversation of a response (its ``output``), a request (``instructions``,
    ``input``: a list of items or one text, ``tools``) or a bare list of items."""
    from .conversation import Conversation, Part, Refused, Tool
    conv = Conversation("response" if is_response(value) else "request")
    if type(value) is list and any(_document(v) for v in value[:500]):
        raise Refused("not_convertible", "This is a log of several exchanges (responses and the "
                      "requests that replay them): convert one request or response at a time.",
                      "")
    if type(value) is dict and is_run_state(value):
        dropped: set = set()
        for it, ptr in run_state_items(value):
            _read_item(it, ptr, conv, reading, dropped)
        return conv
    if type(value) is dict and type(value.get("data")) is list and \
            not isinstance(value.get("type"), str) and value.get("object") in (None, "list"):
        value = {"input": value["data"], "_base": "/data"}   # the API's list form
    if type(value) is list:
        items, base = value, ""
    elif type(value) is dict:
        key = "output" if conv.shape == "response" else "input"
        items, base = value.get(key), value.pop("_base", "/" + key)
        reading.fields(value, "", _TOP_CARRIED | {"previous_response_id", "conversation", "data"},
                       "The envelope's")
        for k in ("previous_response_id", "conversation"):
            if value.get(k):
                reading.drop("/" + k, "stored_history", f"The request continues the history the "
                             f"server stores ({k}): another provider has no such history, so "
                             "the calls and messages held there are missing from the converted "
                             "text (the outputs that answer them have no call). Paste the whole "
                             "history to convert it.")
        instr = value.get("instructions")
        if type(instr) is str and instr:
            conv.add("system", Part("text", "/instructions", text=instr), "/instructions")
        if type(items) is str:
            conv.add("user", Part("text", base, text=items), base)
            items = []
        tools = value.get("tools")
        for i, t in enumerate(tools if type(tools) is list else ()):
            p = f"/tools/{i}"
            if type(t) is dict and t.get("type") == "function" and type(t.get("name")) is str:
                conv.tools.append(Tool(t["name"], t.get("description"), t.get("parameters"), p))
                reading.fields(t, p, {"type", "name", "description", "parameters"}, "The tool's")
            else:
                reading.drop(p, "tool", "A tool of the provider's own (not a function tool) has "
                             "no counterpart in the target: it is left out.")
    else:
        items, base = [], ""
    dropped_calls: set = set()
    for i, it in enumerate(items if type(items) is list else ()):
        _read_item(it, f"{base}/{i}", conv, reading, dropped_calls)
    return conv


def _document(v: Any) -> bool:
    """A whole response or request body (an element of a log), not an item."""
    return type(v) is dict and "type" not in v and (
        v.get("object") == "response" or isinstance(v.get("output"), list) or
        isinstance(v.get("input"), list))


def _read_item(it: Any, p: str, conv, reading, dropped_calls: set) -> None:
    """One item of the history into the conversation (``dropped_calls``: the call_ids of calls
    that do not travel, whose outputs are left out with them)."""
    from .conversation import Part, escape
    if type(it) is not dict:
        reading.drop(p, "item", "A value that is not an item is left out.")
        return
    t = it.get("type")
    if t == "message" or (t is None and "role" in it):
        role = _ROLES.get(it.get("role"))
        if role is None:
            reading.drop(p, "item", f"A message of the role {it.get('role')!r} has no "
                         "counterpart in the target: it is left out.")
            return
        reading.fields(it, p, _MESSAGE_KEYS, "The message's")
        conv.add(role, None, p)
        for part in _content_parts(it.get("content"), p + "/content", reading):
            conv.add(role, part, p)
    elif t == "function_call":
        reading.fields(it, p, _CALL_KEYS, "The call's")
        args = reading.arguments(it.get("arguments"), p + "/arguments")
        conv.add("assistant", Part("call", p, call_id=it.get("call_id"), name=it.get("name"),
                                   args=args), p)
    elif t == "function_call_output":
        if it.get("call_id") in dropped_calls:
            reading.drop(p, "provider_call", "The output of a call that does not travel is "
                         "left out with it.")
            return
        reading.fields(it, p, _OUTPUT_KEYS, "The output's")
        content = _output_content(it.get("output"), p + "/output", reading)
        conv.add("user", Part("output", p, call_id=it.get("call_id"), content=content), p)
    elif t == "reasoning":
        reading.drop(p, "reasoning", "A reasoning item is bound to the provider that made "
                     "it (its encrypted_content only that provider reads): it is left out.")
    elif isinstance(t, str) and (t.endswith("_call") or is_hosted(t)):
        if isinstance(it.get("call_id"), str):
            dropped_calls.add(it["call_id"])
        reading.drop(p, "provider_call", f"A {t} item is a tool kind of this provider "
                     "(run by it, or with a shape of its own): it has no counterpart in the "
                     "target and is left out (with its output).")
    elif isinstance(t, str) and t.endswith("_output") and it.get("call_id") in dropped_calls:
        reading.drop(p, "provider_call", f"The {t} of a call that does not travel is left "
                     "out with it.")
    else:
        reading.drop(p, "item", f"An item of type {escape(str(t))!r} has no counterpart in "
                     "the target: it is left out.")


def _content_parts(content: Any, pointer: str, reading) -> list:
    from .conversation import Part
    if type(content) is str:
        return [Part("text", pointer, text=content)]
    out = []
    for j, c in enumerate(content if type(content) is list else ()):
        q = f"{pointer}/{j}"
        t = c.get("type") if type(c) is dict else None
        if t in _TEXT_TYPES and type(c.get("text")) is str:
            reading.fields(c, q, {"type", "text", "annotations", "logprobs"}, "The text part's")
            out.append(Part("text", q, text=c["text"]))
        elif t == "input_image" and type(c.get("image_url")) is str:
            reading.fields(c, q, {"type", "image_url"}, "The image part's")
            out.append(Part("image", q, url=c["image_url"]))
        else:
            reading.drop(q, "part", f"A content part of type {t!s} has no counterpart in the "
                         "target: it is left out.")
    return out


def _output_content(output: Any, pointer: str, reading) -> list:
    if type(output) is str:
        return [("text", output)]
    return [("text", p.text) if p.kind == "text" else ("image", p.url)
            for p in _content_parts(output, pointer, reading)]


def write_conversation(conv, reading) -> dict:
    """The conversation as an Open Responses request: ``instructions`` (the system texts),
    ``input`` items, ``tools``."""
    from .conversation import output_text
    items: list = []
    for t in conv.turns:
        reading.tick()
        msg = None
        for p in t.parts:
            if p.kind in ("text", "image"):
                if msg is None:
                    msg = {"type": "message", "role": "developer" if t.role == "system" else t.role,
                           "content": []}
                    items.append(msg)
                if p.kind == "text":
                    kind = "output_text" if t.role == "assistant" else "input_text"
                    msg["content"].append({"type": kind, "text": p.text})
                elif t.role == "assistant":
                    reading.drop(p.pointer, "image", "An image in the model's own turn has no "
                                 "form in Open Responses: it is left out.")
                else:
                    msg["content"].append({"type": "input_image", "image_url": p.url})
                continue
            msg = None
            if p.kind == "call":
                it = {"type": "function_call", "call_id": p.call_id, "name": p.name,
                      "arguments": _args_text(p.args)}
                items.append({k: v for k, v in it.items() if v is not None})
            elif p.kind == "output":
                if p.is_error:
                    reading.drop(p.pointer + "/is_error", "is_error", "A function_call_output "
                                 "has no error flag: the output's text is all the model sees.")
                images = [c for c in p.content if c[0] == "image"]
                if images:
                    out = [{"type": "input_text", "text": c[1]} if c[0] == "text" else
                           {"type": "input_image", "image_url": c[1]} if c[0] == "image" else
                           {"type": "input_text", "text": output_text([c])} for c in p.content]
                else:
                    out = output_text(p.content)
                it = {"type": "function_call_output", "call_id": p.call_id, "output": out}
                items.append({k: v for k, v in it.items() if v is not None})
    for it in items:   # a message of one text: the content as that text (the short form)
        if it.get("type") == "message" and len(it["content"]) == 1 and \
                it["content"][0]["type"] in _TEXT_TYPES and it["role"] != "assistant":
            it["content"] = it["content"][0]["text"]
    out: dict = {"input": items}
    if conv.tools:
        out["tools"] = [{k: v for k, v in (("type", "function"), ("name", t.name),
                                            ("description", t.description),
                                            ("parameters", t.parameters)) if v is not None}
                        for t in conv.tools]
    return out


def _args_text(args: Any) -> str:
    from .conversation import json_text
    return json_text(args if args is not None else {})
