"""The Gate page's "paste anything" without JavaScript: is the posted text one item (the gate's
walk) or a transcript, a stream or a session (the transcript core's report)?

:func:`one_item` is the same cheap look the page's script takes (``static/js/transcript.js``,
``sniff``); the transcript core's ``kind`` stays the truth (``kind: "item"`` goes back to the
gate).  :func:`report` answers a non-item paste and gives each listed call the exact text of its
item (``walk_item``), so the report's "walk this call" buttons are plain forms too.
No Flask here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable

from .. import transcript
from ..errors import WorkbenchError
from ..jsontext import dumps_tree, dumps_value, locate_many, parse

_SSE = re.compile(r"^(?:event|data|id|retry):", re.M)
_EVENT_LINE = re.compile(r'\s*\{\s*"(?:type|object)"\s*:\s*"(?:response\.|chat\.completion\.chunk|agent\.session\.)')
_CONTAINER_ARRAYS = ("output", "input", "messages", "choices", "items", "required_actions", "events")
_CONTAINER_OBJECTS = ("response", "chat.completion", "chat.completion.chunk", "agent.session")
WALKABLE = 200   # calls given their item text for the no-JS walk forms (the page shows fewer)


def _container(value) -> bool:
    if isinstance(value, list):
        return True
    if not isinstance(value, dict):
        return False
    if isinstance(value.get("type"), str):
        return bool(re.match(r"(response|agent\.session)\.", value["type"]))   # one event
    if value.get("object") in _CONTAINER_OBJECTS:
        return True
    if any(isinstance(value.get(k), list) for k in _CONTAINER_ARRAYS):
        return True
    return isinstance(value.get("session"), dict) or isinstance(value.get("agent"), dict)


def one_item(text: str) -> bool:
    """True when ``text`` looks like one item (or is not JSON at all: the gate says where)."""
    t = text.lstrip()
    if not t:
        return True
    if t[0] in "[:" or _SSE.match(t):
        return False
    if t[0] != "{":
        return not _SSE.search(t[:65536])
    try:
        return not _container(parse(t, field="item", warnings=False).value)
    except WorkbenchError:
        # JSON Lines (its first line may be cut short): one of the first lines is a whole value
        # on its own, or reads like an event
        lines = [line for line in t[:65536].split("\n") if line.strip()]
        if len(lines) > 1:
            if any(_EVENT_LINE.match(line) for line in lines[:5]):
                return False
            for line in lines[:5]:
                if not line.lstrip().startswith(("{", "[")):
                    continue          # a whole object or array on one line
                try:
                    parse(line, field="item", warnings=False)
                    return False
                except WorkbenchError:
                    pass
        return not _SSE.search(t[:65536])


def _piece(text: str, source: str | None, line: int | None, cache: dict | None = None) -> str | None:
    """The JSON text a place is in: the whole text, or the value on one line."""
    if source in (None, "json"):
        return text
    if not line:
        return None
    lines = cache.setdefault("lines", None) if cache is not None else None
    if lines is None:
        lines = text.splitlines()
        if cache is not None:
            cache["lines"] = lines
    if line > len(lines):
        return None
    s = lines[line - 1].strip()
    m = re.search(r"(?:^|\s)data:\s?", s)
    return s[m.end():] if source == "sse" and m else s


def _walk_text(result: dict, call: dict, text: str, cache: dict) -> str | None:
    """The item text "walk this call" walks: the core's ``walk`` (a call the gate does not walk
    as it is, a Chat tool call: its dialect's one mapping), else the call's exact text, else
    its rebuilt item, else its place in the text."""
    if isinstance(call.get("walk"), dict):
        return _pretty(call["walk"])
    if isinstance(call.get("json"), str):          # the core gives the call's exact text
        return call["json"]
    call_id = call.get("call_id")
    item = _function_calls(result, cache).get(call_id) if isinstance(call_id, Hashable) else None
    if item is None:
        piece = _piece(text, result.get("source"), call.get("line"), cache)
        pointer = call.get("pointer") or ""
        if piece is None:
            return None
        span = locate_many(piece, [pointer]).get(pointer)
        return None if span is None else piece[span.start:span.end]
    return _pretty(item)


def _function_calls(result: dict, cache: dict) -> dict:
    """The report's ``function_call`` items by ``call_id`` (the first of each), found once."""
    calls = cache.get("function_calls")
    if calls is None:
        calls = cache["function_calls"] = {}
        for it in result.get("items") or ():
            if (isinstance(it, dict) and it.get("type") == "function_call"
                    and isinstance(it.get("call_id"), Hashable)):
                calls.setdefault(it.get("call_id"), it)
    return calls


def _pretty(value) -> str:
    """Indented exact JSON for the forms (the plain writer's one line where orjson refuses)."""
    try:
        return dumps_tree(value, indent=2)
    except TypeError:
        return dumps_value(value).decode("utf-8")


def _tools_in(result: dict, text: str) -> str | None:
    """The tool definitions the pasted text carries (an Agents session's ``agent.tools``, a
    request's or a streamed response's ``tools``), as text for the walk forms."""
    source = result.get("source")
    pieces = [text] if source in (None, "json") else [
        _piece(line, source, 1) for line in text.splitlines()[:12] if line.strip()]
    for piece in pieces:
        try:
            value = parse(piece, field="text", warnings=False).value
        except WorkbenchError:
            continue
        if not isinstance(value, dict):
            continue
        for holder in (value.get("agent"), (value.get("session") or {}).get("agent") if isinstance(value.get("session"), dict) else None,
                       value, value.get("response")):
            tools = holder.get("tools") if isinstance(holder, dict) else None
            if isinstance(tools, list) and tools:
                return _pretty(tools)
    return None


def report(form: dict, limits) -> dict | None:
    """The transcript core's report for the gate form's text (``item``) and tools (``schema``),
    or None when the core says it is one item after all."""
    body = {"text": form.get("item", "")}
    if form.get("schema", "").strip():
        body["tools"] = form["schema"]
    result = transcript.handle(body, limits)
    if result.get("kind") == "item":
        return None
    cache: dict = {}
    if "tools" not in body:
        result["walk_schema"] = _tools_in(result, body["text"])
    for call in (result.get("calls") or [])[:WALKABLE]:
        try:
            call["walk_item"] = _walk_text(result, call, body["text"], cache)
        except (WorkbenchError, LookupError, ValueError, TypeError):
            call["walk_item"] = None
    return result


# --------------------------------------------------------------------------- the gallery

def _sse(events: list[dict], tail: str = "") -> str:
    out = []
    for n, e in enumerate(events):
        e = {"type": e["type"], "sequence_number": n, **{k: v for k, v in e.items() if k != "type"}}
        out.append(f"event: {e['type']}\ndata: {json.dumps(e, separators=(',', ':'))}\n")
    return "\n".join(out) + tail


_FC = {"id": "fc_1", "type": "function_call", "status": "in_progress", "arguments": "",
       "call_id": "call_7", "name": "get_latest_sales_report"}
_RESP = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}

# Ready examples of the report beside the gate's own cases (workbench/gate/cases.py and its
# transcript and session cases): what those do not show yet.  ``findings`` are the codes the
# transcript core must find in each (the tests check them through the real core and API).
EXAMPLES: list[dict] = [
    {"name": "stream-arguments-mismatch", "kind": "stream", "title": "Deltas that do not add up",
     "findings": ["stream_arguments_mismatch"],
     "teaches": "The argument deltas join to {\"region\":\"apac\"} but the done event says emea: a "
                "client that keeps the deltas and one that keeps the done event run different calls.",
     "item": _sse([{"type": "response.created", "response": _RESP},
                   {"type": "response.output_item.added", "output_index": 0, "item": _FC},
                   {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"region\":"},
                   {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "\"apac\"}"},
                   {"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0,
                    "arguments": "{\"region\":\"emea\"}"},
                   {"type": "response.output_item.done", "output_index": 0,
                    "item": {**_FC, "status": "completed", "arguments": "{\"region\":\"emea\"}"}},
                   {"type": "response.completed", "response": {**_RESP, "status": "completed"}}])},
]

GROUPS = [("item", "One item", "walked through format → schema → diff: one verdict"),
          ("transcript", "Transcripts", "a response, a request's input, a Chat payload: the checks between the items"),
          ("stream", "Streams", "recorded events: the order of the spec, the end, the rebuilt items"),
          ("session", "Agents API sessions", "pending actions, their tool_result events and the chain of pins")]


def example_by_name(name: str) -> dict | None:
    return next((c for c in EXAMPLES if c["name"] == name), None)


def gallery(ctx: dict) -> tuple[list[dict], list[dict]]:
    """Every case the page shows (the gate's items and sessions, then these examples) and the
    groups of the gallery: ``[{key, title, note, cases}]``, a case in the group of what the page
    does with its text (a whole response is a transcript here, whatever the gate calls it)."""
    seen: set = set()
    cases = []
    for c in (list(ctx.get("gallery") or []) + list(ctx.get("transcripts") or [])
              + list(ctx.get("sessions") or []) + EXAMPLES):
        if c["name"] not in seen:
            seen.add(c["name"])
            cases.append(c)
    groups = {key: {"key": key, "title": title, "note": note, "cases": []} for key, title, note in GROUPS}
    for c in cases:
        kind = "stream" if c.get("group") == "stream" else c.get("kind")
        key = kind if kind in groups and kind != "item" else (
            "item" if one_item(c.get("item") or c.get("text") or "") else "transcript")
        groups[key]["cases"].append(c)
    return cases, [g for g in groups.values() if g["cases"]]
