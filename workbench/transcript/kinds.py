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
    if not values:
        return "response_stream" if form == "sse" else "item_list"
    dicts = [v for v in values[:500] if type(v) is dict]  # the first ones tell the kind
    if any(_is_agents_event(v) for v in dicts) or any(is_session(v) for v in dicts):
        return "agents_session"
    if any(_is_event(v) for v in dicts):
        return "response_stream"
    if any(_is_chunk(v) for v in dicts):
        return "chat_stream"
    if form == "sse":
        return "response_stream"
    chat = sum(1 for v in dicts if chat_shaped(v))
    typed = sum(1 for v in dicts if isinstance(v.get("type"), str))
    if chat and chat > typed:
        return "chat_messages"
    return "item_list"


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
