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


def recognise(v: Any) -> str | None:
    """The kind of one pasted value when it is an Open Responses envelope, else None."""
    if type(v) is not dict:
        return None
    if is_response(v):
        return "response"
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
    for pos, (it, place) in enumerate(placed, pos0):
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
