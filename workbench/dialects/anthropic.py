"""Anthropic Messages: the only place that knows its envelope (``providers-rules.md``).

* A response is ``{type: "message", role: "assistant", content: [blocks], stop_reason}``; a
  request holds the history in ``messages[]`` (``content`` a string or a list of blocks) and the
  tools in ``tools[] {name, description, input_schema}``; a stream is SSE of
  ``message_start`` / ``content_block_*`` / ``message_delta`` / ``message_stop`` events (rebuilt
  by :mod:`workbench.transcript.providers`).
* A call is a ``tool_use`` block ``{id, name, input}`` in an ``assistant`` message (its
  arguments an **object**; its one ``id`` is both ids of the neutral pair); the answer is a
  ``tool_result`` block ``{tool_use_id, content, is_error?}`` in the next ``user`` message.
  ``server_tool_use`` / ``mcp_tool_use`` are run by the provider (never answered by the host).
* Consecutive messages of one role are **one turn** (the API merges them before it checks
  pairs): :func:`turns`.
* Its stop state is ``stop_reason`` (:func:`stop_state`): ``max_tokens`` cuts a call off.
* The gate has no Anthropic rule table: a call is walked as the Open Responses item carrying
  the same call (its arguments the exact JSON text of ``input``).
"""

from __future__ import annotations

from typing import Any

from . import open_responses
from .model import Call, Other, Output, Place, arguments_object, text_or_none

NAME = "anthropic"
GATE = "open_responses"
KINDS = ("anthropic_messages", "anthropic_stream")
LABELS = {"anthropic_messages": "an Anthropic Messages response or request",
          "anthropic_stream": "an Anthropic Messages stream"}
CALL_BLOCKS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
HOSTED_BLOCKS = frozenset({"server_tool_use", "mcp_tool_use"})
RESULT_BLOCKS = frozenset({"tool_result"})
OWN_BLOCKS = CALL_BLOCKS | RESULT_BLOCKS | {"thinking", "redacted_thinking", "mcp_tool_result",
                                            "web_search_tool_result", "document", "search_result"}
CUT_OFF = ("max_tokens",)
# the names of the id a call carries and the one its answer names (in every finding's words)
ID_WORDS = ("id", "tool_use_id")
EVENTS = frozenset({"message_start", "content_block_start", "content_block_delta",
                    "content_block_stop", "message_delta", "message_stop", "ping"})


# --------------------------------------------------------------------------- recognising

def word(v: Any) -> str | None:
    """``v["type"]`` when it is a string (a type of another JSON type names nothing)."""
    t = v.get("type") if type(v) is dict else None
    return t if isinstance(t, str) else None


def is_event(v: Any) -> bool:
    """One stream event (``error`` only with Anthropic's ``{type, error: {type, message}}``)."""
    t = word(v)
    if t is None:
        return False
    return t in EVENTS or (t == "error" and type(v.get("error")) is dict and
                           "type" in v["error"])


def is_response(v: Any) -> bool:
    return type(v) is dict and v.get("type") == "message" and isinstance(v.get("content"), list) \
        and "stop_reason" in v


def _blocks(m: Any) -> list:
    c = m.get("content") if type(m) is dict else None
    return c if isinstance(c, list) else []


def is_request(v: Any) -> bool:
    """A request: ``messages[]`` holding Anthropic's own blocks (and no Chat shape), or
    ``tools[]`` with ``input_schema``."""
    if type(v) is not dict or not isinstance(v.get("messages"), list):
        return False
    tools = v.get("tools")
    if isinstance(tools, list) and any(type(t) is dict and "input_schema" in t for t in tools):
        return True
    own = False
    for m in v["messages"]:
        if type(m) is not dict:
            continue
        if "tool_calls" in m or m.get("role") == "tool":
            return False   # a Chat message
        own = own or any(word(b) in OWN_BLOCKS for b in _blocks(m))
    return own


def is_call(node: Any, parent_key: Any = None) -> bool:
    return type(node) is dict and node.get("type") == "tool_use" and "input" in node


def recognise(v: Any) -> str | None:
    if is_response(v) or is_request(v):
        return "anthropic_messages"
    if is_event(v) and v.get("type") != "error":
        return "anthropic_stream"
    return None


def envelope_kind(v: dict) -> str | None:
    return "anthropic_messages" if recognise(v) == "anthropic_messages" else None


# --------------------------------------------------------------------------- reading

def stop_state(stop_reason: Any, *, finished: bool = True) -> str:
    """A call's stop state from its message's ``stop_reason``."""
    if stop_reason is None:
        return "completed" if finished else "incomplete"
    return "incomplete" if isinstance(stop_reason, str) and stop_reason in CUT_OFF else \
        "completed"


def read_call(block: dict, place: Place | None = None, pos: int = 0,
              status: str | None = "completed") -> Call:
    """The neutral call of one ``tool_use`` block (arguments: ``input``, an object)."""
    c = Call(NAME, place, pos, block, name=block.get("name"), call_id=block.get("id"),
             id=block.get("id"), args=block.get("input"), status=status)
    c.hosted = word(block) in HOSTED_BLOCKS
    return c


def turns(placed: list[tuple[Any, Place]]) -> list[tuple[Any, list[tuple[Any, Place]]]]:
    """The merged turns of a message list: ``(role, [(block, place), …])`` with consecutive
    messages of one role joined (a string ``content`` is one text block at the message)."""
    out: list = []
    for m, place in placed:
        if type(m) is not dict:
            continue
        role = m.get("role")
        c = m.get("content")
        blocks = [(b, place.child(f"/content/{j}")) for j, b in enumerate(c)] \
            if isinstance(c, list) else [({"type": "text", "text": c}, place.child("/content"))]
        if out and out[-1][0] == role:
            out[-1][1].extend(blocks)
        else:
            out.append((role, blocks))
    return out


def read_turns(merged: list, *, status: str | None = "completed") -> list:
    """The neutral entries of merged turns; every block of turn ``t`` is at ``pos`` ``t`` (a
    text after a ``tool_use`` in its own turn does not make the call unanswered)."""
    entries: list = []
    for t, (_role, blocks) in enumerate(merged):
        for b, place in blocks:
            if type(b) is not dict:
                continue
            bt = word(b)
            if bt in CALL_BLOCKS:
                entries.append(read_call(b, place, t, status))
            elif bt in RESULT_BLOCKS:
                entries.append(Output(NAME, place, t, b, call_id=b.get("tool_use_id")))
            else:
                entries.append(Other(NAME, place, t, b,
                                     continues=bt not in ("thinking", "redacted_thinking")))
    return entries


def read_answer(value: dict, piece=None) -> tuple[list, str]:
    """One answer (a Messages response): its blocks' entries and its stop state."""
    status = stop_state(value.get("stop_reason") if type(value) is dict else None)
    return read_turns(turns([(value, Place(piece, ""))]), status=status), status


# the arguments below a call's place (its block), and whether they are a JSON text
ARGUMENTS = ("/input", False)


def text_of(block: Any) -> list[tuple[str, str]]:
    """The text of a ``text`` block: ``(text, pointer below the block)``."""
    if word(block) == "text" and isinstance(block.get("text"), str):
        return [(block["text"], "/text")]
    return []


def is_reasoning(block: Any) -> bool:
    return word(block) in ("thinking", "redacted_thinking")


# --------------------------------------------------------------------------- writing

def walkable(call: Call) -> dict:
    """The Open Responses ``function_call`` carrying the same call (``input`` as exact JSON)."""
    return open_responses.write(call)


def write(call: Call) -> dict:
    """The neutral call as a ``tool_use`` block (arguments parsed to an object when text)."""
    args = arguments_object(call)
    block: dict = {"type": "tool_use"}
    if call.call_id is not None:
        block["id"] = call.call_id
    if text_or_none(call.name) is not None:
        block["name"] = call.name
    block["input"] = args if args is not None else {}
    return block
