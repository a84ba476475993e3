"""The Agents API: the only place that knows its envelope.

* A session (``items``, ``required_actions``, ``status``, ``agent``), its creation body, its
  ``agent.session.*`` events; the checks of a session are
  :class:`workbench.transcript.session.Session`.
* A call is a ``function_call`` carrying ``turn_id`` beside ``call_id`` (its id pair is
  ``(turn_id, call_id)``) and its arguments as a JSON **object**; a pending one sits in
  ``required_actions``.  The answer is an ``agent.session.input.tool_result`` event (or an
  object with ``turn_id``, ``call_id`` and ``success``).
* The gate walks a call as it is, by the Agents API rules (``agents-rules.md``).
"""

from __future__ import annotations

from typing import Any

from .model import Call, Output, Place

NAME = "agents_api"
GATE = "agents_api"
KINDS = ("agents_session",)
RESULT_TYPE = "agent.session.input.tool_result"
LABELS = {"agents_session": "an Agents API session waiting for tool results"}
# the session's orchestration items (agents-rules.md, "The four objects"): Agents API types only
ORCHESTRATION = ("create_subagent_call", "send_subagent_input_call", "wait_for_subagents_call",
                 "interrupt_subagent_call", "agent_message")
# not an Agents API type, but what a payload that confuses the SDK's handoff object writes
HANDOFF = "handoff"


# --------------------------------------------------------------------------- recognising

def is_event(v: Any) -> bool:
    return type(v) is dict and isinstance(v.get("type"), str) and v["type"].startswith(
        "agent.session")


def is_result(v: Any) -> bool:
    return type(v) is dict and (v.get("type") == RESULT_TYPE or (
        "type" not in v and "turn_id" in v and "call_id" in v and "success" in v))


def is_call(node: Any, parent_key: Any = None) -> bool:
    """An Agents API action: a function_call with ``turn_id`` (as the gate's ``auto`` reads
    it; object arguments without one are an Open Responses call in the wrong form)."""
    return type(node) is dict and node.get("type") == "function_call" and "turn_id" in node


def is_item(v: Any) -> bool:
    """A session item: it carries the ``turn_id`` of its turn, or it is one of the session's
    orchestration items (or a ``handoff`` item, the confusion ``handoff_type`` names), which
    only the Agents API writes.  Every form of a list of items (a bare array, ``{"data":
    [...]}``, JSON Lines) is told by this one test."""
    if type(v) is not dict or not isinstance(v.get("type"), str) or is_event(v):
        return False
    return "turn_id" in v or v["type"] in ORCHESTRATION or v["type"] == HANDOFF


def is_session(v: Any) -> bool:
    """A session object (its ``items`` — even with only ``id`` and ``status`` beside them —,
    ``required_actions``, ``agent``), a session event, a tool_result, or a bundle."""
    if type(v) is not dict:
        return False
    if isinstance(v.get("items"), list) and not isinstance(v.get("type"), str):
        return True
    if isinstance(v.get("session"), dict) and (isinstance(v.get("events"), list) or is_event(v)):
        return True
    if is_event(v) or "required_actions" in v:
        return True
    if is_result(v):
        return True  # a tool_result, maybe written without its type
    if isinstance(v.get("object"), str) and v["object"].startswith("agent"):
        return True
    agent = v.get("agent")
    return type(agent) is dict and any(k in v for k in ("input", "items", "environment",
                                                        "status", "required_actions"))


def recognise(v: Any) -> str | None:
    return "agents_session" if is_session(v) else None


def envelope_kind(v: dict) -> str | None:
    t = v.get("type")
    if "required_actions" in v or t == "agent.session.requires_action" or (
            isinstance(v.get("session"), dict) and "required_actions" in v["session"]):
        return "agents_session"
    return None


# --------------------------------------------------------------------------- reading

def read_call(it: dict, place: Place | None = None, pos: int = 0, *,
              pending: bool = False) -> Call:
    """The neutral call of one action (pending ones are complete by being pending)."""
    return Call(NAME, place, pos, it, name=it.get("name"), call_id=it.get("call_id"),
                turn_id=it.get("turn_id"), id=it.get("id"), args=it.get("arguments"),
                status="completed" if pending else it.get("status"))


def read_result(res: dict, place: Place | None, pos: int) -> Output:
    return Output(NAME, place, pos, res, call_id=res.get("call_id"), turn_id=res.get("turn_id"))


# --------------------------------------------------------------------------- writing

def walkable(call: Call) -> Any:
    """The item the gate walks: the action itself."""
    return call.item


def write(call: Call) -> dict:
    """The neutral call as an Agents API action (arguments as an object when they are one)."""
    item: dict = {"type": "function_call"}
    for k, v in (("turn_id", call.turn_id), ("call_id", call.call_id), ("name", call.name)):
        if v is not None:
            item[k] = v
    if call.args is not None:
        item["arguments"] = call.args
    return item
