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


def answer_state(value: Any) -> str:
    """The stop state of one answer (a Messages response: its ``stop_reason``)."""
    return stop_state(value.get("stop_reason") if type(value) is dict else None)


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


# --------------------------------------------------------------------------- conversations
# (conversion between dialects: workbench/convert; the neutral model: .conversation)

_TOP_CARRIED = frozenset({"messages", "system", "tools", "content", "role", "type"})
_THINKING = ("thinking", "redacted_thinking")


def read_conversation(value: Any, reading) -> Any:
    """The neutral conversation of a request (``system``, ``messages``, ``tools``) or a
    response (one assistant turn)."""
    from .conversation import Conversation, Part, Tool
    conv = Conversation("response" if is_response(value) else "request")
    if type(value) is not dict:
        return conv
    reading.fields(value, "", _TOP_CARRIED, "The envelope's")
    system = value.get("system")
    if type(system) is str and system:
        conv.add("system", Part("text", "/system", text=system), "/system")
    elif type(system) is list:
        for j, b in enumerate(system):
            q = f"/system/{j}"
            if word(b) == "text" and type(b.get("text")) is str:
                reading.fields(b, q, {"type", "text"}, "The system block's")
                conv.add("system", Part("text", q, text=b["text"]), q)
            else:
                reading.drop(q, "part", "A system block that is not text is left out.")
    tools = value.get("tools")
    for i, t in enumerate(tools if type(tools) is list else ()):
        p = f"/tools/{i}"
        if type(t) is dict and "input_schema" in t and type(t.get("name")) is str and \
                t.get("type") in (None, "custom"):
            conv.tools.append(Tool(t["name"], t.get("description"), t.get("input_schema"), p))
            reading.fields(t, p, {"name", "description", "input_schema", "type"}, "The tool's")
        else:
            reading.drop(p, "tool", "A server tool of Anthropic's own has no counterpart in the "
                         "target: it is left out.")
    if conv.shape == "response":
        placed = [(value, "")]
    else:
        msgs = value.get("messages")
        placed = [(m, f"/messages/{i}") for i, m in enumerate(msgs if type(msgs) is list else ())]
    hosted: set = set()
    for m, p in placed:
        if type(m) is not dict or m.get("role") not in ("user", "assistant"):
            reading.drop(p, "item", "A value that is not a user or assistant message is left out.")
            continue
        role = m["role"]
        if p:
            reading.fields(m, p, {"role", "content"}, "The message's")
        conv.add(role, None, p)
        c = m.get("content")
        if type(c) is str:
            if c:
                conv.add(role, Part("text", p + "/content", text=c), p)
            continue
        for j, b in enumerate(c if type(c) is list else ()):
            part = _block(b, f"{p}/content/{j}", reading, hosted)
            if part is not None:
                conv.add(role, part, p)
    return conv


def _block(b: Any, q: str, reading, hosted: set):
    from .conversation import Part
    t = word(b)
    if t == "text" and type(b.get("text")) is str:
        reading.fields(b, q, {"type", "text"}, "The text block's")
        return Part("text", q, text=b["text"])
    if t == "image" and type(b.get("source")) is dict:
        url = _image_url(b["source"])
        if url is not None:
            reading.fields(b, q, {"type", "source"}, "The image block's")
            return Part("image", q, url=url)
    if t == "tool_use":
        reading.fields(b, q, {"type", "id", "name", "input"}, "The tool_use block's")
        args = reading.arguments(b.get("input"), q + "/input")   # (an object: itself)
        return Part("call", q, call_id=b.get("id"), name=b.get("name"), args=args)
    if t == "tool_result":
        if b.get("tool_use_id") in hosted:
            reading.drop(q, "provider_call", "The result of a call that does not travel is "
                         "left out with it.")
            return None
        reading.fields(b, q, {"type", "tool_use_id", "content", "is_error"},
                       "The tool_result block's")
        content = _result_content(b.get("content"), q + "/content", reading)
        return Part("output", q, call_id=b.get("tool_use_id"), content=content,
                    is_error=b.get("is_error") is True)
    if t in _THINKING:
        reading.drop(q, "thinking", f"A {t} block (and its signature) is bound to Anthropic: "
                     "another provider cannot verify it, so it is left out.")
        return None
    if t in HOSTED_BLOCKS:
        if type(b.get("id")) is str:
            hosted.add(b["id"])
        reading.drop(q, "provider_call", f"A {t} block is a call Anthropic runs itself: it has "
                     "no counterpart in the target and is left out (with its result).")
        return None
    if isinstance(t, str) and t.endswith("_tool_result"):
        reading.drop(q, "provider_call", f"A {t} block is the result of a call Anthropic ran: "
                     "it is left out with its call.")
        return None
    reading.drop(q, "part", f"A {t!s} block has no counterpart in the target: it is left out.")
    return None


def _image_url(src: dict) -> str | None:
    from .conversation import data_url
    if src.get("type") == "base64":
        return data_url(src.get("media_type"), src.get("data"))
    if src.get("type") == "url" and type(src.get("url")) is str:
        return src["url"]
    return None


def _result_content(c: Any, pointer: str, reading) -> list:
    if type(c) is str:
        return [("text", c)]
    out = []
    for j, b in enumerate(c if type(c) is list else ()):
        q = f"{pointer}/{j}"
        if word(b) == "text" and type(b.get("text")) is str:
            out.append(("text", b["text"]))
        elif word(b) == "image" and type(b.get("source")) is dict and \
                _image_url(b["source"]) is not None:
            out.append(("image", _image_url(b["source"])))
        else:
            reading.drop(q, "part", f"A {word(b)!s} block in a tool_result has no counterpart "
                         "in the target: it is left out.")
    return out


def _image_block(url: str) -> dict:
    from .conversation import split_data_url
    data = split_data_url(url)
    if data is not None:
        return {"type": "image", "source": {"type": "base64", "media_type": data[0],
                                            "data": data[1]}}
    return {"type": "image", "source": {"type": "url", "url": url}}


def write_conversation(conv, reading) -> dict:
    """The conversation as a Messages request: ``system`` (the system texts, wherever they
    were), ``messages`` (one per turn, tool_result blocks first in a user turn), ``tools``."""
    from .conversation import output_text, system_texts
    system: list = []
    msgs: list = []
    for t in conv.turns:
        reading.tick()
        if t.role == "system":
            system += system_texts(t, reading, moved=bool(msgs),
                                   field="Anthropic takes system text in the request's system field")
            continue
        blocks: list = []
        results: list = []
        for p in t.parts:
            if p.kind == "text":
                blocks.append({"type": "text", "text": p.text})
            elif p.kind == "image":
                blocks.append(_image_block(p.url))
            elif p.kind == "call":
                use = {"type": "tool_use", "id": p.call_id, "name": p.name,
                       "input": p.args if p.args is not None else {}}
                blocks.append({k: v for k, v in use.items() if v is not None})
            elif p.kind == "output":
                if any(c[0] == "image" for c in p.content):
                    content = [{"type": "text", "text": c[1]} if c[0] == "text" else
                               _image_block(c[1]) if c[0] == "image" else
                               {"type": "text", "text": output_text([c])} for c in p.content]
                else:
                    content = output_text(p.content)
                block = {k: v for k, v in (("type", "tool_result"), ("tool_use_id", p.call_id),
                                           ("content", content)) if v is not None}
                if p.is_error:
                    block["is_error"] = True
                if blocks:
                    reading.note(p.pointer, "result_moved", "Anthropic wants a user message's "
                                 "tool_result blocks before its other blocks: this one was moved "
                                 "before the text that came first.")
                results.append(block)
        blocks = results + blocks
        if not blocks:
            continue
        if msgs and msgs[-1]["role"] == t.role:
            msgs[-1]["content"].extend(blocks)
        else:
            msgs.append({"role": t.role, "content": blocks})
    out: dict = {}
    if system:
        out["system"] = system[0] if len(system) == 1 else \
            [{"type": "text", "text": text} for text in system]
    out["messages"] = msgs
    if conv.tools:
        out["tools"] = [{k: v for k, v in (("name", t.name), ("description", t.description),
                                            ("input_schema", t.parameters if t.parameters
                                             is not None else {"type": "object"}))
                         if v is not None} for t in conv.tools]
    return out
