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

from ..jsontext import locate_many, pointer_of
from ..limits import ENVELOPE_MAX_LISTED as MAX_LISTED
from ..limits import ENVELOPE_MAX_NODES as MAX_NODES


_KIND_LABELS = {
    "response": "a whole response",
    "stream_event": "a streaming event",
    "item_list": "a list of items",
    "chat_completion": "a Chat Completions response",
    "chat_completion_chunk": "a Chat Completions streaming chunk",
    "chat_message": "a Chat Completions assistant message",
    "chat_tool_call": "one Chat Completions tool call",
    "chat_tool_message": "a Chat Completions tool answer",
    "assistants_run": "an Assistants API run waiting for tool outputs",
    "agents_session": "an Agents API session waiting for tool results",
    "request": "a request body",
    "container": "a JSON value that holds items",
}

_CHAT_NOTE = ("Chat Completions puts calls in choices[].message.tool_calls[] as {id, type: "
              "\"function\", function: {name, arguments}} and answers with {role: \"tool\", "
              "tool_call_id, content}; Open Responses uses flat function_call items with call_id and "
              "a string arguments. Do not mix the two envelopes in one log: compare them side by "
              "side.")

EQUIVALENT_NOTE = ("For comparison only: the Open Responses function_call item that would carry "
                   "the same call. Fields the other dialect does not have (the item id, and status "
                   "where it is not known) are left out, not invented, so gating it as is stops at "
                   "the first missing field.")


def _classify(value: Any) -> str | None:
    if isinstance(value, list):
        return "item_list"
    if not isinstance(value, dict):
        return None
    t = value.get("type")
    if value.get("object") == "response" or (isinstance(value.get("output"), list)
                                             and "type" not in value):
        return "response"
    if isinstance(t, str) and t.startswith("response.") and (
            isinstance(value.get("response"), dict) or isinstance(value.get("item"), dict)):
        return "stream_event"
    if isinstance(value.get("choices"), list):
        return "chat_completion_chunk" if value.get("object") == "chat.completion.chunk" \
            else "chat_completion"
    if t == "function" and isinstance(value.get("function"), dict):
        return "chat_tool_call"
    if "role" in value and "tool_calls" in value:
        return "chat_message"
    if value.get("role") == "tool" and "tool_call_id" in value:
        return "chat_tool_message"
    if "required_actions" in value or t == "agent.session.requires_action" or (
            isinstance(value.get("session"), dict) and "required_actions" in value["session"]):
        return "agents_session"
    if "required_action" in value or t == "submit_tool_outputs":
        return "assistants_run"
    if isinstance(value.get("tools"), list) and isinstance(value.get("input"), list):
        return "request"
    return None


def _call_dialect(node: dict, parent_key: Any) -> str | None:
    t = node.get("type")
    if t == "function_call":
        if "turn_id" in node or isinstance(node.get("arguments"), dict):
            return "agents_api"
        return "open_responses"
    fn = node.get("function")
    if isinstance(fn, dict) and (t == "function" or parent_key == "tool_calls"):
        return "chat_completions"
    return None


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
                dialect = _call_dialect(node, parent_key)
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


def _finish_status(root: Any, parts: list) -> str | None:
    """For a Chat call inside choices[i], the status its finish_reason implies."""
    if len(parts) >= 2 and parts[0] == "choices" and isinstance(parts[1], int):
        try:
            reason = root["choices"][parts[1]].get("finish_reason")
        except (KeyError, IndexError, AttributeError, TypeError):
            return None
        if reason in ("tool_calls", "stop", "function_call"):
            return "completed"
        if reason == "length":
            return "incomplete"
    return None


def equivalent_item(node: dict, dialect: str, root: Any = None, parts: list | None = None):
    """The Open Responses function_call item for a Chat Completions or Agents API call."""
    from ..jsontext import dumps_value
    if dialect == "chat_completions":
        fn = node.get("function") or {}
        item: dict = {"type": "function_call"}
        if "id" in node:
            item["call_id"] = node["id"]
        if "name" in fn:
            item["name"] = fn["name"]
        if "arguments" in fn:
            item["arguments"] = fn["arguments"]
        status = _finish_status(root, parts or [])
        if status:
            item["status"] = status
        return item
    if dialect == "agents_api":
        item = {"type": "function_call"}
        for k in ("call_id", "name"):
            if k in node:
                item[k] = node[k]
        args = node.get("arguments")
        if isinstance(args, (dict, list)):
            item["arguments"] = dumps_value(args).decode("utf-8")
        elif "arguments" in node:
            item["arguments"] = args
        return item
    return None


def _message(kind: str, total: int, listed: int, dialects: set) -> str:
    label = _KIND_LABELS.get(kind, "not one item")
    if total == 0:
        msg = f"The pasted JSON is {label}, not one item, and holds no function call."
    else:
        calls = f"{total} function call{'s' if total != 1 else ''}"
        shown = f" (the first {listed} are listed)" if listed < total else ""
        msg = (f"The pasted JSON is {label}, not one item: the verdict above is for the pasted "
               f"value as a whole. It holds {calls}{shown}; walk one of them through the gate.")
    if kind in ("chat_completion", "chat_completion_chunk", "chat_message", "chat_tool_call",
                "chat_tool_message") or "chat_completions" in dialects:
        msg += " " + _CHAT_NOTE
    if "agents_api" in dialects or kind == "agents_session":
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
    kind = _classify(value)
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
    dialects = set()
    for index, ((parts, node, dialect), pointer) in enumerate(zip(found, pointers)):
        dialects.add(dialect)
        span = spans.get(pointer)
        json_text = text[span.start:span.end] if span else None
        if dialect == "chat_completions":
            fn = node.get("function") or {}
            name, call_id = fn.get("name"), node.get("id")
        else:
            name, call_id = node.get("name"), node.get("call_id")
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
                from ..jsontext import dumps_value
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
            "message": _message(kind, total, len(calls), dialects),
            "total": total, "calls": calls}
