"""Which kind of transcript was pasted (the kinds table of ``transcript-rules.md``)."""

from __future__ import annotations

from typing import Any

from .items import chat_shaped
from .read import Source


def _is_event(v: Any) -> bool:
    return type(v) is dict and isinstance(v.get("type"), str) and (
        v["type"].startswith("response.") or v["type"] == "error")


def _is_chunk(v: Any) -> bool:
    if type(v) is not dict:
        return False
    if v.get("object") == "chat.completion.chunk":
        return True
    ch = v.get("choices")
    return isinstance(ch, list) and any(type(c) is dict and "delta" in c for c in ch)


def _is_agents_event(v: Any) -> bool:
    return type(v) is dict and isinstance(v.get("type"), str) and v["type"].startswith(
        "agent.session")


def is_session(v: Any) -> bool:
    if type(v) is not dict:
        return False
    if isinstance(v.get("session"), dict) and (isinstance(v.get("events"), list)
                                               or _is_agents_event(v)):
        return True
    if _is_agents_event(v) or "required_actions" in v:
        return True
    if "type" not in v and "turn_id" in v and "call_id" in v and "success" in v:
        return True  # a tool_result written without its type
    if isinstance(v.get("object"), str) and v["object"].startswith("agent"):
        return True
    agent = v.get("agent")
    return type(agent) is dict and any(k in v for k in ("input", "items", "environment",
                                                        "status", "required_actions"))


def _list_kind(values: list, form: str) -> str:
    """The kind of a list of values (JSON array, JSON Lines, SSE pieces): the kind most of the
    first 500 dicts have — one Agents event among a log of Open Responses items does not make
    the log a session; ties go to the more specific kind (session, stream, chunks), and
    between Chat messages and typed items to the items (as before)."""
    if not values:
        return "response_stream" if form == "sse" else "item_list"
    dicts = [v for v in values[:500] if type(v) is dict]  # the first ones tell the kind
    votes = {"agents_session": 0, "response_stream": 0, "chat_stream": 0, "chat_messages": 0,
             "item_list": 0}
    for v in dicts:
        if _is_agents_event(v) or is_session(v):
            votes["agents_session"] += 1
        elif _is_event(v):
            votes["response_stream"] += 1
        elif _is_chunk(v):
            votes["chat_stream"] += 1
        elif chat_shaped(v) and not isinstance(v.get("type"), str):
            votes["chat_messages"] += 1
        elif isinstance(v.get("type"), str):
            votes["item_list"] += 1
    if form == "sse" and not votes["chat_stream"] and not votes["agents_session"]:
        return "response_stream"
    best = max(votes.values())
    if best == 0:
        return "response_stream" if form == "sse" else "item_list"
    for kind in ("agents_session", "response_stream", "chat_stream", "item_list", "chat_messages"):
        if votes[kind] == best:
            return kind
    return "item_list"  # pragma: no cover


def detect(src: Source) -> str:
    if src.form != "json":
        return _list_kind([p.value for p in src.pieces], src.form)
    v = src.value
    if isinstance(v, list):
        return _list_kind(v, "json")
    if type(v) is not dict:
        return "item"
    if is_session(v):
        return "agents_session"
    if v.get("object") == "response" or (isinstance(v.get("output"), list) and
                                         ("status" in v or "type" not in v)):
        return "response"
    if _is_chunk(v):
        return "chat_stream"
    if isinstance(v.get("choices"), list):
        return "chat_completion"
    if isinstance(v.get("messages"), list):
        return "chat_messages"
    if "input" in v and (isinstance(v["input"], (list, str))) and "type" not in v:
        return "item_list"
    if _is_event(v):
        return "response_stream"
    return "item"
