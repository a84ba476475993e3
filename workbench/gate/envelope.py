"""Envelope help for the gate: when the pasted JSON is not one item, say what it is and list
the function calls inside, so one of them can be walked through the gate.

Recognised: a whole Open Responses response (``output``), a list of items, a streaming event
carrying a response or an item, a Chat Completions payload (``choices[].message.tool_calls``,
also streaming ``delta``s), a Chat assistant message or a single Chat tool call, an Assistants
run (``required_action.submit_tool_outputs``), an Agents API session or event with
``required_actions``.  The verdict is never changed by this: it stays what the rules say for
the pasted value.  For a Chat Completions or Agents API call, ``equivalent`` is the Open
Responses item that would carry the same call, for comparison only.
"""

from __future__ import annotations

from typing import Any

from .. import dialects
from ..dialects import agents, chat, open_responses
from ..jsontext import dumps_value, locate_many, pointer_of
from ..limits import ENVELOPE_MAX_LISTED as MAX_LISTED
from ..limits import ENVELOPE_MAX_NODES as MAX_NODES

_KIND_LABELS = dialects.LABELS

_CHAT_NOTE = ("Chat Completions puts calls in choices[].message.tool_calls[] as {id, type: "
              "\"function\", function: {name, arguments}} and answers with {role: \"tool\", "
              "tool_call_id, content}; Open Responses uses flat function_call items with call_id and "
              "a string arguments. Do not mix the two envelopes in one log: compare them side by "
              "side.")

EQUIVALENT_NOTE = ("For comparison only: the Open Responses function_call item that would carry "
                   "the same call (for a Chat tool call, the item its walk walks: its id as both "
                   "ids, the status its choice's finish_reason implies). Fields the other dialect "
                   "does not have (an Agents action's status) are left out, not invented, so "
                   "gating it as is stops at the first missing field.")


def _find_calls(root: Any) -> tuple[list[tuple[list, dict, str]], int]:
    """(parts, node, dialect) of every function call inside ``root`` (not root itself), in
    document order; and the total found."""
    found: list = []
    total = 0
    stack: list = [(root, [], None)]
    seen = 0
    while stack and seen < MAX_NODES:
        node, parts, parent_key = stack.pop()
        seen += 1
        if isinstance(node, dict):
            if parts:
                d = dialects.dialect_of_call(node, parent_key)
                dialect = d.NAME if d is not None else None
                if dialect is not None:
                    total += 1
                    if len(found) < MAX_LISTED:
                        found.append((parts, node, dialect))
                    continue
            for k in reversed(list(node)):
                v = node[k]
                if isinstance(v, (dict, list)):
                    stack.append((v, parts + [k], k))
        elif isinstance(node, list):
            for i in range(len(node) - 1, -1, -1):
                v = node[i]
                if isinstance(v, (dict, list)):
                    stack.append((v, parts + [i], parent_key))
    return found, total


def equivalent_item(node: dict, dialect: str, root: Any = None, parts: list | None = None):
    """The Open Responses function_call item for a Chat Completions or Agents API call: the
    neutral call its dialect reads, written back as Open Responses."""
    if dialect == chat.NAME:
        return open_responses.write(chat.read_found(node, root, parts or []))
    if dialect == agents.NAME:
        return open_responses.write(agents.read_call(node))
    return None


def _message(kind: str, total: int, listed: int, seen: set) -> str:
    label = _KIND_LABELS.get(kind, "not one item")
    if total == 0:
        msg = f"The pasted JSON is {label}, not one item, and holds no function call."
    elif kind == "chat_tool_call":   # the pasted value is the call, in the Chat envelope
        msg = (f"The pasted JSON is {label}, not an Open Responses function_call item: the "
               "verdict above is for it as it is; its equivalent item below is the call as the "
               "gate walks it.")
    elif total == 1:
        msg = (f"The pasted JSON is {label}, not one item: the verdict above is for the pasted "
               "value as a whole. It holds 1 function call; walk it through the gate.")
    else:
        calls = f"{total} function call{'s' if total != 1 else ''}"
        shown = f" (the first {listed} are listed)" if listed < total else ""
        msg = (f"The pasted JSON is {label}, not one item: the verdict above is for the pasted "
               f"value as a whole. It holds {calls}{shown}; walk one of them through the gate.")
    if kind in ("chat_completion", "chat_completion_chunk", "chat_message", "chat_tool_call",
                "chat_tool_message") or "chat_completions" in seen:
        msg += " " + _CHAT_NOTE
    if "agents_api" in seen or kind == "agents_session":
        msg += (" Agents API actions carry arguments as a JSON object and are answered with "
                "{type: \"agent.session.input.tool_result\", turn_id, call_id, success, output | "
                "error}, copying turn_id and call_id exactly.")
    if kind == "chat_completion_chunk":
        msg += (" A streaming chunk holds argument fragments, not whole calls: gate the item "
                "assembled from the whole stream.")
    return msg


def describe(value: Any, text: str, gate=None) -> dict | None:
    """The envelope of a pasted value, or None when it is one item (or a plain value)."""
    if isinstance(value, dict) and value.get("type") == "function_call":
        return None
    kind = dialects.envelope_kind(value)
    if kind == "chat_tool_call":
        found, total = [([], value, "chat_completions")], 1
    else:
        found, total = _find_calls(value)
    if kind is None:
        if not found:
            return None
        kind = "container"
    pointers = [pointer_of(parts) for parts, _, _ in found]
    spans = locate_many(text, pointers) if pointers else {}
    calls = []
    seen = set()
    for index, ((parts, node, dialect), pointer) in enumerate(zip(found, pointers)):
        seen.add(dialect)
        span = spans.get(pointer)
        json_text = text[span.start:span.end] if span else None
        neutral = dialects.BY_NAME[dialect].read_call(node)
        name, call_id = neutral.name, neutral.call_id
        call = {"index": index, "pointer": pointer, "dialect": dialect,
                "name": name if isinstance(name, str) else None,
                "call_id": call_id if isinstance(call_id, str) else None,
                "json": json_text}
        if gate is not None:
            try:
                call["verdict"] = gate.verdict(node)
            except Exception:  # a broken schema for this call is reported when it is walked
                call["verdict"] = None
        if dialect in ("chat_completions", "agents_api"):
            eq = equivalent_item(node, dialect, value, parts)
            if eq is not None:
                call["equivalent"] = eq
                call["equivalent_json"] = dumps_value(eq).decode("utf-8")
                call["equivalent_note"] = EQUIVALENT_NOTE
                if gate is not None:
                    try:
                        call["equivalent_verdict"] = gate.verdict(eq)
                    except Exception:
                        call["equivalent_verdict"] = None
        calls.append(call)
    return {"kind": kind, "label": _KIND_LABELS.get(kind, kind),
            "message": _message(kind, total, len(calls), seen),
            "total": total, "calls": calls}
