"""Chat Completions: the only place that knows its envelope.

* Calls are ``choices[].message.tool_calls[]`` (a response), ``messages[].tool_calls[]`` (a
  request's history) or ``delta.tool_calls[]`` keyed by ``index`` (a chunk stream, rebuilt by
  :class:`ChatStream`), each ``{id, type: "function", function: {name, arguments}}``; the
  answer is a ``role: "tool"`` message with ``tool_call_id``.
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
from .model import Call, Other, Output, Place, first_of, text_or_none
from .model import key as key_of

NAME = "chat_completions"
GATE = "open_responses"            # the gate's rule table its calls are walked by
KINDS = ("chat_completion", "chat_messages", "chat_stream", "chat_tool_calls")
CUT_OFF = ("length", "content_filter")
# the names of the id a call carries and the one its answer names (in every finding's words)
ID_WORDS = ("id", "tool_call_id")
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


def answer_state(value: Any) -> str:
    """The stop state of one answer (a Chat Completions response: its first choice's
    ``finish_reason``)."""
    return stop_state(first_of(value, "choices").get("finish_reason"))


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


# --------------------------------------------------------------------------- the stream
# A stream's tool calls arrive as ``delta.tool_calls[]`` keyed by ``index``: the id and type in
# the first delta, the name and the arguments split across deltas.  Arguments are joined as
# they come.  A name is joined *once*: a delta that repeats the whole name so far
# (``llm_version`` twice) or sends the name cumulatively (``llm_``, ``llm_version``) is not
# appended again — a naive ``+=`` would write ``llm_versionllm_version`` (finding
# ``chat_stream_name_split``, info).  Findings go to the transcript's report (``add``,
# ``bad_line``); the pieces are the transcript reader's.

# client_incompatible (transcript-rules.md, "What official clients cannot read"): a valid
# stream an official client library fails on, by behaviour
INCOMPATIBLE = {
    "missing_index": "A tool-call delta here has no index: the stream can be read (by position), "
                     "but the OpenAI Python SDK's chunk accumulator raises on a tool-call delta "
                     "without index, and other clients key the call by it. Send index on every "
                     "tool-call delta.",
    "first_index_not_0": "The first tool call of this choice has an index other than 0: clients "
                         "that keep tool calls in a list by index (appending a new one at the "
                         "end) then put its deltas in the wrong call or leave a gap. Number tool "
                         "calls from 0.",
    "repeated_id": "The tool call's id is repeated in a later delta: a client that joins delta "
                   "fields with a naive += (as it must for arguments) doubles the id, and the "
                   "answer matches no call. Send the id in the first delta only.",
}


class _Call:
    __slots__ = ("index", "id", "type", "name", "name_parts", "args", "place", "piece",
                 "ids_seen", "first_line", "last_line", "events", "broken")

    def __init__(self, index, place, piece):
        self.index, self.place, self.piece = index, place, piece
        self.first_line = self.last_line = piece.line
        self.events: dict[str, int] = {}
        self.broken: list = []
        self.id = None
        self.type = None
        self.name = ""
        self.name_parts = 0
        self.args: list[str] = []
        self.ids_seen: set = set()

    def tool_call(self) -> dict:
        """The call rebuilt from its deltas, as a Chat ``tool_calls[]`` entry."""
        return {"id": self.id, "type": self.type or "function",
                "function": {"name": self.name, "arguments": "".join(self.args)}}


def _indexed(value):
    """(position, key of ``index``, element) of each object of ``value`` when it is a list: a
    stream's choices and tool-call deltas are keyed by their ``index`` (by position without
    one)."""
    if isinstance(value, list):
        for i, x in enumerate(value):
            if type(x) is dict:
                yield i, key_of(x.get("index", i)), x


class ChatStream:
    def __init__(self, src, report, deadline):
        self.src, self.report, self.deadline = src, report, deadline
        self.choices: dict[Any, dict] = {}
        self.calls: dict[tuple, _Call] = {}
        self.finish: dict[Any, str] = {}
        self.events = 0
        self.done_seen = False
        self.after_done: list = []
        self.name_split: list[_Call] = []
        self.incompatible: dict[str, Place] = {}   # what an official client fails on: where

    def _incompatible(self, what: str, place: Place) -> None:
        self.incompatible.setdefault(what, place)

    def run(self) -> None:
        for _line, what, ref in self.src.order:
            self.deadline.check()
            if what == "bad":
                self.report.bad_line(ref, "a client reading this stream stops or drops the "
                                          "chunk here.")
            elif what == "done":
                self.done_seen = True
            else:
                if self.done_seen:
                    self.after_done.append(ref)
                self.chunk(ref)
        if self.after_done:
            self.report.add("stream_after_terminal",
                            f"{len(self.after_done)} chunk(s) after data: [DONE]: a client closed "
                            "the stream there and never sees them.",
                            Place(self.after_done[0], ""), count=len(self.after_done))
        if not self.finish and not self.done_seen:
            last = self.src.pieces[-1] if self.src.pieces else None
            self.report.add("stream_no_terminal",
                            "No chunk carries a finish_reason and no data: [DONE] ends the "
                            "stream: it was cut off before the model finished, so its tool "
                            "calls may be incomplete. Record it again.",
                            Place(last, "") if last else None)
        for what, place in self.incompatible.items():
            self.report.add("client_incompatible", INCOMPATIBLE[what], place, behaviour=what)
        for c in self.name_split:
            self.report.add("chat_stream_name_split",
                            f"The name of tool call {c.index} arrives in {c.name_parts} deltas; "
                            f"joined once it is \"{c.name}\" (a naive += of every delta gives "
                            "a doubled or broken name). Join names the way arguments are "
                            "joined, without repeating what was already sent.", c.place)

    def chunk(self, piece) -> None:
        v = piece.value
        if type(v) is not dict:
            return
        self.events += 1
        for ci, index, ch in _indexed(v.get("choices")):
            state = self.choices.setdefault(index, {"role": None, "content": [], "calls": [],
                                                    "first_line": piece.line, "events": {}})
            state["last_line"] = piece.line
            ev = state["events"]
            fr = ch.get("finish_reason")
            if isinstance(fr, str) and fr:
                self.finish[index] = fr
                ev["finish_reason"] = ev.get("finish_reason", 0) + 1
            delta = ch.get("delta")
            if type(delta) is not dict:
                continue
            if isinstance(delta.get("role"), str):
                state["role"] = state["role"] or delta["role"]
            if isinstance(delta.get("content"), str):
                state["content"].append(delta["content"])
                ev["content"] = ev.get("content", 0) + 1
            for j, ti, tc in _indexed(delta.get("tool_calls")):
                key = (index, ti)
                call = self.calls.get(key)
                pointer = f"/choices/{ci}/delta/tool_calls/{j}"
                if "index" not in tc:
                    self._incompatible("missing_index", Place(piece, pointer))
                if call is None:
                    if not state["calls"] and ti not in (0, None) and "index" in tc:
                        self._incompatible("first_index_not_0", Place(piece, pointer + "/index"))
                    call = _Call(ti, Place(piece, pointer), piece)
                    self.calls[key] = call
                    state["calls"].append(call)
                call.last_line = piece.line
                call.events["tool_calls"] = call.events.get("tool_calls", 0) + 1
                cid = tc.get("id")
                if isinstance(cid, str) and cid:
                    if call.id is None:
                        call.id = cid
                    elif cid == call.id:
                        self._incompatible("repeated_id", Place(piece, pointer + "/id"))
                    elif cid != call.id and cid not in call.ids_seen:
                        call.ids_seen.add(cid)
                        f = self.report.add("stream_item_id_changed",
                                            f"Tool call {ti} was started with id \"{call.id}\" "
                                            f"but this delta says \"{cid}\": the id of one call "
                                            "must not change, or its answer matches nothing.",
                                            Place(piece, pointer + "/id"), [("added", call.place)])
                        if f is not None:
                            call.broken.append(f)
                if isinstance(tc.get("type"), str) and tc["type"]:
                    call.type = call.type or tc["type"]
                fn = tc.get("function")
                if type(fn) is not dict:
                    continue
                name = fn.get("name")
                if isinstance(name, str) and name:
                    call.name_parts += 1
                    if call.name_parts == 2:
                        self.name_split.append(call)
                    if name == call.name:
                        pass  # the whole name again
                    elif call.name and name.startswith(call.name):
                        call.name = name  # sent cumulatively
                    else:
                        call.name += name
                a = fn.get("arguments")
                if isinstance(a, str):
                    call.args.append(a)

    def items(self) -> list[dict]:
        out = []
        for index, state in self.choices.items():
            msg: dict = {"role": state["role"] or "assistant",
                         "content": "".join(state["content"]) if state["content"] else None}
            if state["calls"]:
                msg["tool_calls"] = [c.tool_call() for c in state["calls"]]
            out.append({"index": index, "message": msg,
                        "finish_reason": self.finish.get(index)})
        return out

    def timeline(self) -> list[dict]:
        """One row per choice's text and per tool call, deltas folded (``broken``: findings)."""
        rows = []
        for index, state in self.choices.items():
            fr = self.finish.get(index)
            if state["content"] or not state["calls"]:
                rows.append({"response": 0, "output_index": index, "item_id": None,
                             "type": "message", "name": None, "call_id": None, "status": fr,
                             "first_line": state["first_line"],
                             "last_line": state.get("last_line", state["first_line"]),
                             "events": dict(state["events"]), "_broken": []})
            for c in state["calls"]:
                rows.append({"response": 0, "output_index": index, "item_id": c.id,
                             "type": "tool_call", "index": c.index, "name": c.name,
                             "call_id": c.id, "status": fr, "first_line": c.first_line,
                             "last_line": c.last_line, "events": dict(c.events),
                             "_broken": c.broken})
        return rows

    def rebuilt_calls(self):
        """(tool_call, place, stop state, item index) of every rebuilt call."""
        out = []
        for k, (index, state) in enumerate(self.choices.items()):
            fr = self.finish.get(index)
            # finished: a finish_reason other than a cut-off one, or (without any finish_reason)
            # the stream's closing data: [DONE]
            status = stop_state(fr, finished=self.done_seen)
            for c in state["calls"]:
                out.append((c.tool_call(), c.place, status, k))
        return out


# --------------------------------------------------------------------------- conversations
# (conversion between dialects: workbench/convert; the neutral model: .conversation)

_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
_TOP_CARRIED = frozenset({"messages", "choices", "tools", "object"})


def read_conversation(value: Any, reading) -> Any:
    """The neutral conversation of a request (``messages``, ``tools``), a bare list of
    messages, or a response (its first choice's message)."""
    from .conversation import Conversation, Part, Tool
    conv = Conversation("response" if type(value) is dict and "choices" in value else "request")
    placed: list = []
    if type(value) is list:
        placed = [(m, f"/{i}") for i, m in enumerate(value)]
    elif type(value) is dict:
        reading.fields(value, "", _TOP_CARRIED, "The envelope's")
        if conv.shape == "response":
            choices = value.get("choices") if type(value.get("choices")) is list else []
            for i, ch in enumerate(choices):
                if type(ch) is not dict:
                    continue
                if i > 0:
                    reading.drop(f"/choices/{i}", "choice", "Only the first choice is a turn of "
                                 "the conversation: the other choices are left out.")
                    continue
                reading.fields(ch, f"/choices/{i}", {"message", "index", "finish_reason"},
                               "The choice's")
                placed.append((ch.get("message"), f"/choices/{i}/message"))
        else:
            msgs = value.get("messages")
            placed = [(m, f"/messages/{i}") for i, m in enumerate(msgs if type(msgs) is list else ())]
        tools = value.get("tools")
        for i, t in enumerate(tools if type(tools) is list else ()):
            p = f"/tools/{i}"
            fn = t.get("function") if type(t) is dict else None
            if type(t) is dict and t.get("type", "function") == "function" and type(fn) is dict \
                    and type(fn.get("name")) is str:
                conv.tools.append(Tool(fn["name"], fn.get("description"), fn.get("parameters"), p))
                reading.fields(t, p, {"type", "function"}, "The tool's")
                reading.fields(fn, p + "/function", {"name", "description", "parameters"},
                               "The tool's")
            else:
                reading.drop(p, "tool", "A tool that is not a function tool has no counterpart "
                             "in the target: it is left out.")
    for m, p in placed:
        if type(m) is not dict:
            reading.drop(p, "item", "A value that is not a message is left out.")
            continue
        role = m.get("role")
        if role == "tool":
            reading.fields(m, p, {"role", "tool_call_id", "content"}, "The tool message's")
            conv.add("user", Part("output", p, call_id=m.get("tool_call_id"),
                                  content=[("text", x.text) if x.kind == "text" else ("image", x.url)
                                           for x in _parts(m.get("content"), p + "/content",
                                                           reading)]), p)
            continue
        neutral = _ROLES.get(role)
        if neutral is None:
            reading.drop(p, "item", f"A message of the role {role!r} has no counterpart in the "
                         "target: it is left out.")
            continue
        reading.fields(m, p, {"role", "content", "tool_calls", "reasoning_content", "reasoning"},
                       "The message's")
        for k in ("reasoning_content", "reasoning"):
            if m.get(k):
                reading.drop(f"{p}/{k}", "reasoning", "The model's reasoning text is bound to "
                             "the provider that wrote it: it is left out.")
        conv.add(neutral, None, p)
        for part in _parts(m.get("content"), p + "/content", reading):
            conv.add(neutral, part, p)
        tcs = m.get("tool_calls")
        for j, tc in enumerate(tcs if type(tcs) is list else ()):
            q = f"{p}/tool_calls/{j}"
            fn = tc.get("function") if type(tc) is dict else None
            if type(fn) is not dict or tc.get("type", "function") != "function":
                reading.drop(q, "provider_call", "A tool call that is not a function call has no "
                             "counterpart in the target: it is left out.")
                continue
            reading.fields(tc, q, {"id", "type", "function", "index"}, "The tool call's")
            reading.fields(fn, q + "/function", {"name", "arguments"}, "The function's")
            args = reading.arguments(fn.get("arguments"), q + "/function/arguments")
            conv.add("assistant", Part("call", q, call_id=tc.get("id"), name=fn.get("name"),
                                       args=args), p)
    return conv


def _parts(content: Any, pointer: str, reading) -> list:
    from .conversation import Part
    if type(content) is str:
        return [Part("text", pointer, text=content)] if content else []
    out = []
    for j, c in enumerate(content if type(content) is list else ()):
        q = f"{pointer}/{j}"
        t = c.get("type") if type(c) is dict else None
        if t == "text" and type(c.get("text")) is str:
            reading.fields(c, q, {"type", "text"}, "The text part's")
            out.append(Part("text", q, text=c["text"]))
        elif t == "image_url" and type(c.get("image_url")) is dict and \
                type(c["image_url"].get("url")) is str:
            reading.fields(c["image_url"], q + "/image_url", {"url"}, "The image's")
            out.append(Part("image", q, url=c["image_url"]["url"]))
        else:
            reading.drop(q, "part", f"A content part of type {t!s} has no counterpart in the "
                         "target: it is left out.")
    return out


def write_conversation(conv, reading) -> dict:
    """The conversation as a Chat Completions request (``messages``, ``tools``)."""
    from .conversation import json_text, output_text
    msgs: list = []
    for t in conv.turns:
        reading.tick()
        msg = None
        for p in t.parts:
            if p.kind in ("text", "image"):
                if msg is None or "tool_calls" in msg or msg.get("role") == "tool":
                    msg = {"role": t.role, "content": []}
                    msgs.append(msg)
                if p.kind == "text":
                    msg["content"].append({"type": "text", "text": p.text})
                elif t.role == "user":
                    msg["content"].append({"type": "image_url", "image_url": {"url": p.url}})
                else:
                    reading.drop(p.pointer, "image", f"Chat Completions takes images in user "
                                 f"messages only: this one (in a {t.role} turn) is left out.")
            elif p.kind == "call":
                if msg is None or msg.get("role") != "assistant":
                    msg = {"role": "assistant", "content": None}
                    msgs.append(msg)
                fn = {k: v for k, v in (("name", p.name), ("arguments", json_text(
                    p.args if p.args is not None else {}))) if v is not None}
                tc = {"id": p.call_id, "type": "function", "function": fn}
                msg.setdefault("tool_calls", []).append({k: v for k, v in tc.items()
                                                         if v is not None})
            elif p.kind == "output":
                if p.is_error:
                    reading.drop(p.pointer + "/is_error", "is_error", "A tool message has no "
                                 "error flag: the content's text is all the model sees.")
                if any(c[0] == "image" for c in p.content):
                    reading.drop(p.pointer, "image", "A tool message holds text only: the "
                                 "images of this output are left out.")
                msgs.append({k: v for k, v in (("role", "tool"), ("tool_call_id", p.call_id),
                                               ("content", output_text(p.content)))
                             if v is not None})
                msg = msgs[-1]
    for m in msgs:   # one text: the content as that text; none beside calls: null
        c = m.get("content")
        if isinstance(c, list):
            if not c:
                m["content"] = None if m["role"] == "assistant" else ""
            elif len(c) == 1 and c[0]["type"] == "text":
                m["content"] = c[0]["text"]
    out: dict = {"messages": msgs}
    if conv.tools:
        out["tools"] = [{"type": "function", "function": {
            k: v for k, v in (("name", t.name), ("description", t.description),
                              ("parameters", t.parameters)) if v is not None}}
            for t in conv.tools]
    return out
