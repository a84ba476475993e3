"""Chat Completions chunk streams, rebuilt (the envelope itself, its calls and their stop state
are :mod:`workbench.dialects.chat`'s).

A stream's tool calls arrive as ``delta.tool_calls[]`` keyed by ``index``: the id and type in the
first delta, the name and the arguments split across deltas.  Arguments are joined as they come.
A name is joined *once*: a delta that repeats the whole name so far (``llm_version`` twice) or
sends the name cumulatively (``llm_``, ``llm_version``) is not appended again — a naive ``+=``
would write ``llm_versionllm_version`` (finding ``chat_stream_name_split``, info).
"""

from __future__ import annotations

from typing import Any

from ..dialects import chat as dialect
from .read import Piece, Source
from .report import Place, Report
from .report import key as key_of


# --------------------------------------------------------------------------- the stream

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
    def __init__(self, src: Source, report: Report, deadline):
        self.src, self.report, self.deadline = src, report, deadline
        self.choices: dict[Any, dict] = {}
        self.calls: dict[tuple, _Call] = {}
        self.finish: dict[Any, str] = {}
        self.events = 0
        self.done_seen = False
        self.after_done: list[Piece] = []
        self.name_split: list[_Call] = []

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
        for c in self.name_split:
            self.report.add("chat_stream_name_split",
                            f"The name of tool call {c.index} arrives in {c.name_parts} deltas; "
                            f"joined once it is \"{c.name}\" (a naive += of every delta gives "
                            "a doubled or broken name). Join names the way arguments are "
                            "joined, without repeating what was already sent.", c.place)

    def chunk(self, piece: Piece) -> None:
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
                if call is None:
                    call = _Call(ti, Place(piece, pointer), piece)
                    self.calls[key] = call
                    state["calls"].append(call)
                call.last_line = piece.line
                call.events["tool_calls"] = call.events.get("tool_calls", 0) + 1
                cid = tc.get("id")
                if isinstance(cid, str) and cid:
                    if call.id is None:
                        call.id = cid
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
            status = dialect.stop_state(fr, finished=self.done_seen)
            for c in state["calls"]:
                out.append((c.tool_call(), c.place, status, k))
        return out
