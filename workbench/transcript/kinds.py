"""Which kind of transcript was pasted (the kinds table of ``transcript-rules.md``): one JSON
value is told by the one classifier (:func:`workbench.dialects.classify`), a list of values
(a JSON array, JSON Lines, SSE) by what most of its first values are."""

from __future__ import annotations

from typing import Any

from ..dialects import agents, chat, classify, open_responses
from . import providers
from .read import Source

is_session = agents.is_session


def _vote(v: dict) -> str | None:
    if agents.is_event(v) or agents.is_session(v) or agents.is_item(v):
        return "agents_session"
    if open_responses.is_event(v):
        return "response_stream"
    if chat.is_chunk(v):
        return "chat_stream"
    if chat.is_call(v):
        return "chat_tool_calls"    # a bare array of Chat tool_calls entries
    if open_responses.is_response(v) or (isinstance(v.get("input"), list) and "type" not in v):
        return "item_list"   # a log of responses and requests (a stray "tool_calls": null too)
    if chat.shaped(v) and not isinstance(v.get("type"), str):
        return "chat_messages"
    if isinstance(v.get("type"), str):
        return "item_list"
    return None


def _list_kind(values: list, form: str) -> str:
    """The kind of a list of values (JSON array, JSON Lines, SSE pieces): the kind most of the
    first 500 dicts have — one Agents event among a log of Open Responses items does not make
    the log a session; ties go to the more specific kind (session, stream, chunks), and
    between Chat messages and typed items to the items (as before)."""
    if not values:
        return "response_stream" if form == "sse" else "item_list"
    provider = providers.list_kind(values)   # issue 24: Anthropic / Gemini streams, OTel spans
    if provider is not None:
        return provider
    votes = {"agents_session": 0, "response_stream": 0, "chat_stream": 0, "chat_messages": 0,
             "item_list": 0, "chat_tool_calls": 0}
    for v in values[:500]:  # the first ones tell the kind
        if type(v) is dict:
            k = _vote(v)
            if k is not None:
                votes[k] += 1
    if form == "sse" and not votes["chat_stream"] and not votes["agents_session"]:
        return "response_stream"
    best = max(votes.values())
    if best == 0:
        if form != "sse" and not any(type(v) in (dict, list) for v in values[:500]):
            return "unknown"   # values, none of them an object: nothing to read
        return "response_stream" if form == "sse" else "item_list"
    for kind in ("agents_session", "response_stream", "chat_stream", "chat_tool_calls",
                 "item_list", "chat_messages"):
        if votes[kind] == best:
            return kind
    return "item_list"  # pragma: no cover


def detect(src: Source) -> str:
    if src.form != "json":
        return _list_kind([p.value for p in src.pieces], src.form)
    if src.scan is not None:   # an array begun: its first values tell (as they do when whole)
        return _list_kind(src.scan.head, "json")
    return kind_of_value(src.value)


def kind_of_value(v: Any) -> str:
    """The kind of one parsed JSON value, a list included; an object in the API's list form
    (``{"object": "list", "data": [...]}``) is the kind of its ``data``."""
    if isinstance(v, list):
        return _list_kind(v, "json")
    data = listed_data(v)
    return _list_kind(data, "json") if data is not None else classify(v)


def listed_data(v: Any) -> list | None:
    """The ``data`` list of an object in the API's list form, else None."""
    if type(v) is dict and isinstance(v.get("data"), list) and not isinstance(v.get("type"), str) \
            and (v.get("object") in (None, "list")):
        return v["data"]
    return None
