"""Chat Completions: the only place that knows its envelope.

* Calls are ``choices[].message.tool_calls[]`` (a response), ``messages[].tool_calls[]`` (a
  request's history) or ``delta.tool_calls[]`` keyed by ``index`` (a chunk stream, rebuilt by
  :class:`workbench.transcript.chat.ChatStream`), each ``{id, type: "function", function:
  {name, arguments}}``; the answer is a ``role: "tool"`` message with ``tool_call_id``.
* Its one ``id`` is both ids of the neutral pair (the item id and the call_id).
* Its stop state is the choice's ``finish_reason`` (:func:`stop_state`): ``length`` and
  ``content_filter`` cut the call off (``incomplete``); any other reason, or a history message,
  is ``completed``.
* The gate has no Chat rule table: a Chat call is walked as the Open Responses item that
  carries the same call (:func:`walkable`, the one mapping: the transcript's verdict, the
  Gate page's "walk this call" and the gate's ``equivalent`` are all this item).
"""

from __future__ import annotations

from typing import Any

from . import open_responses
from .model import Call, Other, Output, Place, text_or_none

NAME = "chat_completions"
GATE = "open_responses"            # the gate's rule table its calls are walked by
KINDS = ("chat_completion", "chat_messages", "chat_stream", "chat_tool_calls")
CUT_OFF = ("length", "content_filter")
LABELS = {
    "chat_completion": "a Chat Completions response",
    "chat_completion_chunk": "a Chat Completions streaming chunk",
    "chat_message": "a Chat Completions assistant message",
    "chat_tool_call": "one Chat Completions tool call",
    "chat_tool_message": "a Chat Completions tool answer",
}


# --------------------------------------------------------------------------- recognising

def is_chunk(v: Any) -> bool:
    if type(v) is not dict:
        return False
    if v.get("object") == "chat.completion.chunk":
        return True
    ch = v.get("choices")
    return isinstance(ch, list) and any(type(c) is dict and "delta" in c for c in ch)


def shaped(v: Any) -> bool:
    """A Chat shape (a tool message, a message with tool calls, one tool call)."""
    return type(v) is dict and (v.get("role") == "tool" or "tool_calls" in v or
                                "tool_call_id" in v or
                                (v.get("type") == "function" and type(v.get("function")) is dict))


def is_call(node: Any, parent_key: Any = None) -> bool:
    """One Chat tool call (inside ``tool_calls``, or typed ``function``)."""
    return type(node) is dict and type(node.get("function")) is dict and (
        node.get("type") == "function" or parent_key == "tool_calls")


def recognise(v: Any) -> str | None:
    """The kind of one pasted value when it is a Chat envelope, else None."""
    if type(v) is not dict:
        return None
    if is_chunk(v):
        return "chat_stream"
    if isinstance(v.get("choices"), list):
        return "chat_completion"
    if isinstance(v.get("messages"), list):
        return "chat_messages"
    return None


def envelope_kind(v: dict) -> str | None:
    """The finer word the one-item gate uses for a pasted Chat value (its ``envelope``)."""
    if isinstance(v.get("choices"), list):
        return "chat_completion_chunk" if v.get("object") == "chat.completion.chunk" \
            else "chat_completion"
    if v.get("type") == "function" and isinstance(v.get("function"), dict):
        return "chat_tool_call"
    if "role" in v and "tool_calls" in v:
        return "chat_message"
    if v.get("role") == "tool" and "tool_call_id" in v:
        return "chat_tool_message"
    return None


# --------------------------------------------------------------------------- reading

def stop_state(finish_reason: Any, *, finished: bool = True) -> str:
    """A call's stop state from its choice's ``finish_reason`` (``finished``: without one,
    whether the envelope shows the model finished — a stream's closing ``[DONE]``)."""
    if finish_reason is None:
        return "completed" if finished else "incomplete"
    return "incomplete" if finish_reason in CUT_OFF else "completed"


def read_call(tc: dict, place: Place | None = None, pos: int = 0,
              status: str | None = None) -> Call:
    """The neutral call of one Chat tool call (``{id, type, function}``)."""
    fn = tc.get("function") if type(tc.get("function")) is dict else {}
    return Call(NAME, place, pos, tc, name=fn.get("name"), call_id=tc.get("id"),
                id=tc.get("id"), args=fn.get("arguments"), status=status)


def read_completion(value: dict, piece, base: str = "", pos0: int = 0) -> list:
    """The neutral entries of a Chat Completions response (its calls, in order)."""
    entries: list = []
    choices = value.get("choices")
    pos = pos0
    for i, ch in enumerate(choices if isinstance(choices, list) else ()):
        if type(ch) is not dict:
            continue
        msg = ch.get("message")
        if type(msg) is not dict:
            continue
        status = stop_state(ch.get("finish_reason"))
        tcs = msg.get("tool_calls")
        for j, tc in enumerate(tcs if isinstance(tcs, list) else ()):
            if type(tc) is not dict:
                continue
            place = Place(piece, f"{base}/choices/{i}/message/tool_calls/{j}")
            entries.append(read_call(tc, place, pos, status))
            pos += 1
    return entries


def read_messages(messages: list[tuple[Any, Place]]) -> list:
    """The neutral entries of a list of Chat messages (history calls are complete)."""
    entries: list = []
    pos = 0
    for m, place in messages:
        if type(m) is not dict:
            continue
        tcs = m.get("tool_calls")
        if isinstance(tcs, list) and tcs:
            for j, tc in enumerate(tcs):
                if type(tc) is not dict:
                    continue
                entries.append(read_call(tc, place.child(f"/tool_calls/{j}"), pos, "completed"))
                pos += 1
            continue
        if m.get("role") == "tool":
            entries.append(Output(NAME, place, pos, m, call_id=m.get("tool_call_id")))
        else:
            entries.append(Other(NAME, place, pos, m,
                                 continues=m.get("role") not in ("system", "developer")))
        pos += 1
    return entries


def read_found(node: dict, root: Any, parts: list) -> Call:
    """A call the envelope search found at ``parts`` in ``root`` (its choice's finish_reason,
    when it sits in one, is its stop state)."""
    reason = None
    if len(parts) >= 2 and parts[0] == "choices" and isinstance(parts[1], int):
        try:
            reason = root["choices"][parts[1]].get("finish_reason")
        except (KeyError, IndexError, AttributeError, TypeError):
            reason = None
    return read_call(node, status=stop_state(reason))


# --------------------------------------------------------------------------- writing

def walkable(call: Call) -> dict:
    """The item the gate walks for a Chat call: the Open Responses ``function_call`` carrying
    the same call, its ``status`` the call's stop state."""
    return open_responses.write(call)


def write(call: Call) -> dict:
    """The neutral call as a Chat ``tool_calls[]`` entry."""
    fn: dict = {}
    if text_or_none(call.name) is not None:
        fn["name"] = call.name
    if call.args is not None:
        fn["arguments"] = call.args
    out: dict = {"type": "function", "function": fn}
    if call.call_id is not None:
        out = {"id": call.call_id, **out}
    return out
