"""The Gate page's "paste anything" without JavaScript: is the posted text one item (the gate's
walk) or a transcript, a stream or a session (the transcript core's report)?

:func:`one_item` is the same cheap look the page's script takes (``static/js/transcript.js``,
``sniff``); the transcript core's ``kind`` stays the truth (``kind: "item"`` goes back to the
gate).  :func:`report` answers a non-item paste and gives each listed call the exact text of its
item (``walk_item``), so the report's "walk this call" buttons are plain forms too.
No Flask here.
"""

from __future__ import annotations

import re
from collections.abc import Hashable

from .. import gallery, transcript
from ..errors import WorkbenchError
from ..gate.rules import AGENTS_RULES, RULES
from ..jsontext import dumps_tree, dumps_value, locate_many, parse
from ..transcript.kinds import kind_of_value

_SSE = re.compile(r"^(?:event|data|id|retry):", re.M)
_EVENT_LINE = re.compile(r'\s*\{\s*"(?:type|object)"\s*:\s*"(?:response\.|chat\.completion\.chunk|agent\.session\.)')
WALKABLE = 200   # calls given their item text for the no-JS walk forms (the page shows fewer)


def one_item(text: str) -> bool:
    """True when ``text`` is one item (or is not JSON at all: the gate says where): one JSON
    value is told by the one classifier (the transcript's kinds, :mod:`workbench.dialects`);
    a text that is not one JSON value by a cheap look at its first lines."""
    t = text.removeprefix("\ufeff").lstrip()   # a byte-order mark is dropped first, as the core does
    if not t:
        return True
    if t[0] in "[:" or _SSE.match(t):
        return False
    if t[0] != "{":
        return not _SSE.search(t[:65536])
    try:
        # a shape no kind reads is the gate's to explain (why it is not a call)
        return kind_of_value(parse(t, field="item", warnings=False).value) in ("item", "unknown")
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
    if result.get("kind") in ("item", "unknown"):
        return None
    cache: dict = {}
    if "tools" not in body:
        # the tools the core gated with: none when the text's own could not be read
        result["walk_schema"] = None if result.get("tools_unread") else \
            _tools_in(result, body["text"])
    for call in (result.get("calls") or [])[:WALKABLE]:
        try:
            call["walk_item"] = _walk_text(result, call, body["text"], cache)
        except (WorkbenchError, LookupError, ValueError, TypeError):
            call["walk_item"] = None
    return result


REPLAY_TARGETS = [("open_responses", "Open Responses"), ("chat", "Chat Completions"),
                  ("anthropic", "Anthropic Messages"), ("gemini", "Gemini")]


def replay(form: dict, to: str, limits) -> dict:
    """"Replay to…" on a transcript report (no JavaScript): the conversion core's answer for
    the form's text and tools (``replayed``), or its refusal (``replay_error``), and the target
    asked (``replay_to``)."""
    from .. import convert
    body = {"text": form.get("item", ""), "to": to}
    if form.get("schema", "").strip():
        body["tools"] = form["schema"]
    try:
        return {"replayed": convert.handle(body, limits), "replay_to": to}
    except WorkbenchError as exc:
        return {"replay_error": exc.to_dict(), "replay_to": to}


# --------------------------------------------------------------------------- the page

def page_context(args) -> dict:
    """What the Gate page's template needs beside form/result: the rules of both dialects, the
    gallery (``gallery``: every case; ``gallery_groups``: grouped by what the page does with
    each, :func:`workbench.gallery.grouped`), and for ``/gate?case=NAME`` (works without
    JavaScript) the case loaded (``case``) and the form it fills (``form``)."""
    from ..convert.core import KINDS as REPLAY_KINDS
    ctx: dict = {"rules": RULES, "agents_rules": AGENTS_RULES, "gallery": gallery.ALL,
                 "gallery_groups": gallery.grouped(one_item), "case": None,
                 "replay_kinds": list(REPLAY_KINDS), "replay_targets": REPLAY_TARGETS}
    name = args.get("case") if args is not None else None
    case = gallery.by_name(name) if name else None
    if case is not None:
        ctx["case"] = case
        # a session or transcript case is for the transcript view; pasted here, it is reported
        ctx["form"] = {"item": gallery.text_of(case), "schema": gallery.tools_of(case),
                       "original": case.get("original", ""),
                       "dialect": case.get("dialect", "auto")}
    return ctx
