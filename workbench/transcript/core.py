"""The transcript core: read the text, tell its kind, run the checks of its kind, gate every
call, and answer in the shape documented in the package docstring."""

from __future__ import annotations

from typing import Any

from ..dialects import agents, chat, open_responses
from ..dialects.model import named
from ..errors import WorkbenchError
from ..fields import Field, Fields
from ..gate.rules import program_waiting
from ..jsontext import NotQuickArray
from ..limits import DEFAULT_LIMITS, Limits
from ..limits import TRANSCRIPT_MAX_CALLS as MAX_CALLS
from ..runtime.deadline import Deadline
from ..runtime.memory import collector_paused
from . import spec as spec_mod
from .calls import Gates, call_entry
from .items import envelopes, hosted_pairs, pair, portable, states
from .kinds import detect, listed_data
from .read import Places, Source, read, split_array
from .report import Place, Report
from .streams import ResponsesStream

REQUEST = Fields(
    Field("text", str, required=True, text=True,
          doc="a response, an item list, JSON Lines, an SSE stream, a Chat Completions payload "
              "or stream, an Agents API session or its events"),
    Field("tools", str, text=True, doc="tool definitions, as for the gate's schema"),
)


class Context:
    """Everything one analysis works with, and what it collects."""

    def __init__(self, src: Source, gates: Gates, limits: Limits, deadline: Deadline):
        self.src, self.gates, self.limits, self.deadline = src, gates, limits, deadline
        self.places = Places(src)
        self.report = Report(self.places, max(limits.max_errors, 100))
        self.calls: list[tuple[Place, dict, bool]] = []
        self.calls_left_off = 0
        self.blocked_left_off = 0
        self.items: list = []
        self.timeline = None
        self.chain = None
        self.results = None
        self.outputs = 0
        self.events = 0
        self.responses = None
        self.chat_timeline = None
        self.tools_unread: str | None = None   # the text's own tools, when the gate cannot read them
        self.spec = spec_mod.SpecCheck(self)

    def call(self, call, verdict: str | None = None, *, exact=True, **extra) -> dict | None:
        """List a neutral call (its verdict: the gate's for its walkable item unless given)."""
        if verdict is None:
            verdict = self.gates.verdict_of(call)
        if len(self.calls) >= MAX_CALLS:   # counted (and its verdict in "blocked"), not listed
            self.calls_left_off += 1
            if verdict != "ok" and extra.get("role") != "history":
                self.blocked_left_off += 1
            return None
        entry = call_entry(call, verdict, **extra)
        place = call.place
        self.calls.append((place, entry, exact))
        if place.piece is not None:
            self.places.want(place.piece, place.pointer)
        return entry


# --------------------------------------------------------------------------- Open Responses

or_entries = open_responses.read_items


STATUS_NOTE = ("The spec's rule: an input function_call (FunctionCallItemParam) may omit "
               "status. The gate's rule: no status, no proof the arguments are complete, so it is "
               "not executed (replay-rules rule 3).")


HISTORY_NOTE = ("History: an output later in the text answers this call, so it was executed; "
                "it is checked as replay input (the spec's FunctionCallItemParam: status and id "
                "optional): walked as completed by being answered, its call_id standing for a "
                "missing id, and never executed again.")


def gate_or_calls(ctx: Context, placed, *, items_index: bool = False,
                  inputs: bool = False, answered: bytearray | None = None) -> None:
    """List every function call of ``placed``; ``answered``: 1 at the position of each item an
    output later in the text answers (history: ``role: "history"``, else ``pending``)."""
    first = len(ctx.calls)
    for i, (it, place) in enumerate(placed):
        ctx.deadline.check()
        role = "history" if answered is not None and answered[i] else "pending"
        if agents.is_call(it):
            ctx.call(agents.read_call(it, place, i), pending=False, role=role,
                     item=i if items_index else None)
        elif open_responses.is_call(it):
            c = open_responses.read_call(it, place, i)
            if role == "history":
                _history(ctx, c)
            verdict = ctx.gates.verdict_of(c)
            note = STATUS_NOTE if verdict == "status" and inputs and "status" not in it else \
                (HISTORY_NOTE if role == "history" and ("status" not in it or "id" not in it)
                 else None)
            ctx.call(c, verdict, item=i if items_index else None, note=note, role=role)
    link_callers(ctx, placed, first)


CALLER_MISSING = ("the calling program item (this call_id) is not in the pasted text: it is "
                  "in an earlier response, the one that started the program")


def link_callers(ctx: Context, placed, first: int) -> None:
    """Each call listed since ``first`` that a program made (``caller_id``, transcript-rules.md
    "Program callers": its link to the calling item is drawn): ``caller`` — the calling item's
    type and place (the item of ``placed`` whose ``call_id`` is the caller's, a ``program``
    item), or ``missing``: why it cannot be drawn."""
    todo = [e for _p, e, _x in ctx.calls[first:] if "caller_id" in e]
    if not todo:
        return
    callers: dict = {}
    for it, place in placed:
        t = it.get("type") if type(it) is dict else None
        if isinstance(t, str) and t != "function_call" and not t.endswith("_output") and \
                isinstance(it.get("call_id"), str):
            callers.setdefault(it["call_id"], (t, place))
    for e in todo:
        found = callers.get(e["caller_id"])
        e["caller"] = {"caller_id": e["caller_id"], "type": found[0], "_at": found[1]} \
            if found is not None else {"caller_id": e["caller_id"], "missing": CALLER_MISSING}


def _history(ctx: Context, c) -> None:
    """A history call: complete by being answered when it says no status; one answered while
    incomplete or in progress is ``history_incomplete_executed``."""
    if not (isinstance(c.id, str) and c.id) and isinstance(c.call_id, str) and c.call_id:
        c.id = c.call_id    # replay input: the id is optional
    if c.status is None:
        c.status = "completed"
    elif c.status in ("incomplete", "in_progress") and not program_waiting(c.item):
        cut = c.status == "incomplete"
        ctx.report.add("history_incomplete_executed",
                       f"The call {named(c.name)} (call_id {c.call_id!s}) is {c.status}, yet an "
                       "output later in the text answers it: "
                       + ("its arguments may have been cut off, and the tool ran on them. "
                          if cut else "its arguments may still have been arriving when the "
                          "tool ran. ") + "Check the output, and do not replay the call as is.",
                       c.place.child("/status"), severity="error" if cut else "warning")


def _items_of(ctx: Context, value: Any, base: str) -> list[tuple[Any, Place]]:
    piece = ctx.src.pieces[0]
    if not isinstance(value, list):
        return []
    return [(it, Place(piece, f"{base}/{i}")) for i, it in enumerate(value)]


class PiecesPlaced:
    """``(value, Place)`` of every piece, as a list of them reads, made as they are walked: a
    recording of 100,000 lines holds no list of 100,000 pairs (56 bytes a line) beside its
    values; each piece's place is made once (``roots``; not kept on the piece, whose place
    pointing back at it would be a cycle only the collector frees)."""

    __slots__ = ("pieces", "deadline", "roots")

    def __init__(self, pieces: list, deadline: Deadline):
        self.pieces, self.deadline = pieces, deadline
        self.roots = [Place(p, "") for p in pieces]

    def __len__(self) -> int:
        return len(self.pieces)

    def __iter__(self):
        check = self.deadline.check   # every check's walk over the pieces keeps the deadline
        for p, place in zip(self.pieces, self.roots):
            check()
            yield p.value, place

    def positions(self):
        """Each piece's position in the list: its ``index`` (the same int object)."""
        return (p.index for p in self.pieces)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(zip([p.value for p in self.pieces[i]], self.roots[i]))
        return self.pieces[i].value, self.roots[i]


def _pieces_placed(ctx: Context) -> PiecesPlaced:
    return PiecesPlaced(ctx.src.pieces, ctx.deadline)


def _bad_lines(ctx: Context) -> None:
    for b in ctx.src.bad:
        ctx.report.bad_line(b, "one value per line is expected; this line is skipped.",
                            what="not JSON")


def analyse_response(ctx: Context) -> None:
    v = ctx.src.value
    placed = _items_of(ctx, v.get("output"), "/output")
    piece = ctx.src.pieces[0]
    status = v.get("status")
    states(placed, status if isinstance(status, str) else None,
           Place(piece, "/status" if "status" in v else ""), ctx.report)
    _item_checks(ctx, placed, last_turn=True, inputs=False)


def _item_checks(ctx: Context, placed, *, last_turn: bool, inputs: bool,
                 earlier: str | None = None, waits: dict | None = None) -> None:
    envelopes(placed, ctx.report, chat=False)
    portable(placed, ctx.report)
    if inputs:   # a replay: a provider's pair kept whole or dropped whole
        hosted_pairs(placed, ctx.report)
    entries = or_entries(placed)
    pair(entries, ctx.report, ctx.deadline, ctx.limits, last_turn=last_turn, earlier=earlier,
         waits=waits)
    ctx.outputs += sum(1 for e in entries if e.kind == "output")
    # the positions of the answered calls: a byte an item (a set of their ids took ~70 bytes
    # an answered call)
    answered = bytearray(len(placed))
    for e in entries:
        if e.kind == "call" and e.answered:
            answered[e.pos] = 1
    del entries   # the neutral items are let go before the gate walks the calls again
    gate_or_calls(ctx, placed, inputs=inputs, answered=answered)
    ctx.spec.items(placed, inputs=inputs)
    if inputs:
        from .providers import openai_reasoning  # issue 24: reasoning_dropped
        openai_reasoning(placed, ctx.report)


def _listed(ctx: Context, key: str):
    """The placed items of a list form: the document's ``key`` list (or the document itself,
    a bare list), else its lines or pieces; the lines that are not JSON are reported first."""
    _bad_lines(ctx)
    src = ctx.src
    if src.form == "json":
        v = src.value
        if type(v) is not dict:
            return _items_of(ctx, v, "")
        if listed_data(v) is not None and key not in v:
            key = "data"   # the API's list form
        return _items_of(ctx, v.get(key), "/" + key)
    return _pieces_placed(ctx)


def analyse_item_list(ctx: Context) -> None:
    src = ctx.src
    if src.form == "json" and open_responses.is_run_state(src.value):
        piece = src.pieces[0]
        placed = [(it, Place(piece, ptr)) for it, ptr in open_responses.run_state_items(src.value)]
        waits = open_responses.run_state_waits(src.value)
        before = len(ctx.calls)
        _item_checks(ctx, placed, last_turn=False, inputs=True, waits=waits)
        # a JS SDK protocol item (callId) is read as the Responses item it stands for: "walk
        # this call" walks that item, not the text (whose callId the gate does not read)
        read_as = {p.pointer: it for it, p in placed
                   if type(it) is dict and it is not _at(src.value, p.pointer)}
        for place, entry, _x in ctx.calls[before:]:
            if entry.get("role") == "pending" and entry.get("call_id") in waits:
                entry["waits_for"] = waits[entry["call_id"]][0]   # "approval" | "nested_run"
            if place.pointer in read_as and "walk" not in entry:
                entry["walk"] = read_as[place.pointer]
        return
    placed = _listed(ctx, "input")
    docs = [(d, p) for d, p in placed if _is_document(d)]
    if docs and len(docs) == sum(1 for d, _ in placed if type(d) is dict):
        _log(ctx, docs)
        return
    v = src.value if src.form == "json" else None
    earlier = _continues(v)
    _item_checks(ctx, placed, last_turn=False, inputs=True, earlier=earlier)


def _at(value: Any, pointer: str) -> Any:
    """The value at ``pointer`` (RFC 6901) inside ``value``, or None."""
    from ..jsontext import split_pointer
    for token in split_pointer(pointer):
        if type(value) is dict:
            value = value.get(token)
        elif type(value) is list and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return None
    return value


def _continues(v: Any) -> str | None:
    """What stored history a request continues: ``response`` (``previous_response_id``),
    ``conversation`` (``conversation``: an id or ``{id}``), else None."""
    if type(v) is not dict:
        return None
    if isinstance(v.get("previous_response_id"), str):
        return "response"
    c = v.get("conversation")
    if isinstance(c, str) or (type(c) is dict and isinstance(c.get("id"), str)):
        return "conversation"
    return None


def _is_document(v: Any) -> bool:
    return type(v) is dict and "type" not in v and (
        v.get("object") == "response" or isinstance(v.get("output"), list) or
        isinstance(v.get("input"), list))


def _log(ctx: Context, docs) -> None:
    """A log of exchanges (JSON Lines or an array of responses and request bodies): their items
    in order, checked as one transcript.  A request whose ``previous_response_id`` names a
    response of the log and repeats one of its calls in ``input`` is ``duplicate_replay``
    (the server holds that call already); the repeated copy is left out of the pairing."""
    placed: list = []
    held: dict[str, dict[str, Place]] = {}   # response id -> call_id -> the call's place
    last = None
    for d, p in docs:
        ctx.deadline.check()
        if d.get("object") == "response" or isinstance(d.get("output"), list):
            out = d.get("output") if isinstance(d.get("output"), list) else []
            items = [(it, Place(p.piece, f"{p.pointer}/output/{i}")) for i, it in enumerate(out)]
            states(items, d.get("status") if isinstance(d.get("status"), str) else None,
                   p.child("/status"), ctx.report)
            if isinstance(d.get("id"), str):
                held[d["id"]] = {it["call_id"]: q for it, q in items if type(it) is dict and
                                 it.get("type") == "function_call" and
                                 isinstance(it.get("call_id"), str)}
            placed += items
            last = "response"
            continue
        prev = d.get("previous_response_id")
        holds = held.get(prev, {}) if isinstance(prev, str) else {}
        for i, it in enumerate(d.get("input") or ()):
            q = Place(p.piece, f"{p.pointer}/input/{i}")
            if type(it) is dict and it.get("type") == "function_call" and \
                    it.get("call_id") in holds and isinstance(it.get("call_id"), str):
                ctx.report.add("duplicate_replay",
                               f"This input repeats the call {it.get('call_id')!r} that "
                               f"previous_response_id {prev!r} already holds: the server has "
                               "it, so it is sent twice. Send only the function_call_output.",
                               q.child("/call_id"),
                               [("first", holds[it["call_id"]]), ("second", q)])
                continue
            placed.append((it, q))
        last = "request"
    _item_checks(ctx, placed, last_turn=False, inputs=last == "request")


def analyse_item(ctx: Context) -> None:
    v = ctx.src.value
    placed = [(v, Place(ctx.src.pieces[0], ""))]
    if type(v) is dict and v.get("type") == "function_call" and "turn_id" in v:
        # one Agents API action on its own: pending by being pasted; door 2 from the gate
        r = ctx.gates.agents(v)
        ctx.call(agents.read_call(v, placed[0][1], 0, pending=True), r["verdict"], pending=True,
                 role="pending",
                 report=r.get("report"), tool_result=r.get("tool_result"),
                 reason=r.get("reason"))
        return
    gate_or_calls(ctx, placed)
    if type(v) is dict and isinstance(v.get("type"), str):
        portable(placed, ctx.report)
        ctx.spec.items(placed, inputs=True)


# --------------------------------------------------------------------------- Chat

def _gate_chat(ctx: Context, entries: list, items: list | None = None) -> None:
    """List the calls of ``entries`` (``items``: a rebuilt stream's item index of each)."""
    calls = [e for e in entries if e.kind == "call"]
    for k, c in enumerate(calls):
        ctx.deadline.check()
        ctx.call(c, item=items[k] if items is not None else None, exact=items is None,
                 role="history" if c.answered else "pending")


def _pair_chat(ctx: Context, entries: list, *, last_turn: bool) -> None:
    pair(entries, ctx.report, ctx.deadline, ctx.limits, last_turn=last_turn,
         call_word="tool call", output_word="tool message")


def analyse_chat_completion(ctx: Context) -> None:
    entries = chat.read_completion(ctx.src.value, ctx.src.pieces[0], "")
    _pair_chat(ctx, entries, last_turn=True)
    _gate_chat(ctx, entries)


def analyse_chat_messages(ctx: Context) -> None:
    placed = _listed(ctx, "messages")
    envelopes(placed, ctx.report, chat=True)
    entries = chat.read_messages(placed)
    _pair_chat(ctx, entries, last_turn=False)
    ctx.outputs += sum(1 for e in entries if e.kind == "output")
    _gate_chat(ctx, entries)


def analyse_chat_tool_calls(ctx: Context) -> None:
    """A bare list of Chat ``tool_calls`` entries: each call gated as Chat, all pending."""
    placed = _listed(ctx, "tool_calls")
    entries = [chat.read_call(tc, place, k, "completed")
               for k, (tc, place) in enumerate(placed) if chat.is_call(tc)]
    _pair_chat(ctx, entries, last_turn=True)
    _gate_chat(ctx, entries)


def analyse_unknown(ctx: Context) -> None:
    """A shape no kind reads: say what was seen, and what is read."""
    v = ctx.src.value
    if ctx.src.form != "json" or type(v) is list:
        n = len(ctx.src.pieces) if ctx.src.form != "json" else len(v)
        seen = f"{n} JSON value{'s' if n != 1 else ''}, none of them an object"
    elif type(v) is dict:
        keys = ", ".join(list(v)[:12]) + (" …" if len(v) > 12 else "")
        seen = f"an object with the keys {keys}" if v else "an empty object"
    else:
        seen = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(v), "a number")
    ctx.report.add("unrecognised_shape",
                   f"The pasted JSON is {seen}: no kind of transcript is read from it (a "
                   "response, a request's input or an item list, a stream, Chat Completions "
                   "payloads, an Agents API session), and it is not one item (an object with "
                   "a type). Nothing was checked: paste one of those.", Place(ctx.src.pieces[0], ""))


def analyse_chat_stream(ctx: Context) -> None:
    src = ctx.src
    if src.form == "json" and isinstance(src.value, list):
        split_array(src)
    cs = chat.ChatStream(src, ctx.report, ctx.deadline)
    cs.run()
    ctx.events = cs.events
    ctx.items = cs.items()
    ctx.chat_timeline = cs.timeline()
    rebuilt = cs.rebuilt_calls()
    entries = [chat.read_call(tc, place, k, status) for k, (tc, place, status, _i)
               in enumerate(rebuilt)]
    _pair_chat(ctx, entries, last_turn=True)
    _gate_chat(ctx, entries, [i for *_rest, i in rebuilt])


# --------------------------------------------------------------------------- Responses streams

def _segments(order: list) -> list[list]:
    """A recording may hold several streams one after another (a new response.created after
    the previous one's events): one segment per response."""
    from .streams import event_type
    segments: list[list] = [[]]
    seen_events = False
    for entry in order:
        if entry[1] == "piece" and event_type(entry[2]) == "response.created" and seen_events:
            segments.append([])
            seen_events = False
        segments[-1].append(entry)
        if entry[1] == "piece":
            seen_events = True
    return segments


def analyse_response_stream(ctx: Context) -> None:
    src = ctx.src
    if src.form == "json" and isinstance(src.value, list):
        split_array(src)
    segments = _segments(src.order)
    all_slots = []
    all_placed = []
    entries: list = []
    before = len(ctx.report.findings)
    for k, order in enumerate(segments):
        rs = ResponsesStream(src, ctx.report, ctx.deadline, order=order)
        rs.run()
        ctx.events += rs.events
        slots = rs.ordered_slots()
        for s in slots:
            s.response = k
        placed = [(s.item(), s.place()) for s in slots]
        states(placed, rs.status, rs.status_place(), ctx.report, what="stream's response")
        entries += or_entries(placed, len(all_placed))
        all_slots += slots
        all_placed += placed
    ctx.items = [it for it, _ in all_placed]
    portable(all_placed, ctx.report)
    # every call of a recording waits for its answer in the *next request*, which a recording
    # of streams does not hold: each is pending, never unanswered
    pair(entries, ctx.report, ctx.deadline, ctx.limits, last_turn=True)
    ctx.outputs += sum(1 for e in entries if e.kind == "output")
    answered = {id(e.item) for e in entries if e.kind == "call" and e.answered}
    first = len(ctx.calls)
    for i, (it, place) in enumerate(all_placed):
        if open_responses.is_call(it):
            ctx.call(open_responses.read_call(it, place, i), item=i,
                     exact=all_slots[i].done_piece is not None,
                     role="history" if id(it) in answered else "pending")
    link_callers(ctx, all_placed, first)
    ctx.spec.events(src.pieces)  # the items are checked inside their output_item events
    # findings about an item's place belong to its timeline row
    by_piece = {}
    for s in all_slots:
        for p in (s.added_piece, s.done_piece):
            if p is not None:
                by_piece.setdefault(id(p), s)
    for f in ctx.report.findings[before:]:
        p = f.get("_at")
        s = by_piece.get(id(p.piece)) if p is not None and p.piece is not None else None
        if s is not None and f not in s.broken and f["severity"] != "info":
            s.broken.append(f)
    ctx.timeline = all_slots
    ctx.responses = len(segments)
    if len(segments) > 1:
        starts = [next(e[2] for e in seg if e[1] == "piece") for seg in segments[1:]
                  if any(e[1] == "piece" for e in seg)]
        ctx.report.add("concatenated_responses",
                       f"This recording holds {len(segments)} responses one after another (a new "
                       "response.created after the previous one's events): each is read as a "
                       "response of its own, its items in the timeline under its number.",
                       Place(starts[0], "/type") if starts else None,
                       [("response", Place(p, "/type")) for p in starts[1:20]],
                       count=len(segments))


def _timeline(ctx: Context, slots) -> list[dict]:
    rows = []
    for s in slots:
        it = s.item()
        rows.append({"response": s.response, "output_index": s.output_index,
                     "item_id": s.item_id,
                     "type": it.get("type"), "name": it.get("name"),
                     "call_id": it.get("call_id"), "status": it.get("status"),
                     "first_line": s.first_line, "last_line": s.last_line,
                     "events": dict(s.events),
                     "broken": sorted(i for i in (ctx.report.index_of(f) for f in s.broken)
                                      if i is not None)})
    return rows


# --------------------------------------------------------------------------- the answer

def analyse_agents(ctx: Context) -> None:
    from .session import analyse_session
    analyse_session(ctx)


ANALYSERS = {
    "response": analyse_response, "item_list": analyse_item_list, "item": analyse_item,
    "chat_completion": analyse_chat_completion, "chat_messages": analyse_chat_messages,
    "chat_stream": analyse_chat_stream, "response_stream": analyse_response_stream,
    "agents_session": analyse_agents, "chat_tool_calls": analyse_chat_tool_calls,
    "unknown": analyse_unknown,
}
from .providers import ANALYSERS as _PROVIDERS  # noqa: E402  (issue 24: Anthropic, Gemini, OTel)

ANALYSERS.update(_PROVIDERS)


#: a JSON array is read element by element where its kind's reader consumes it as a stream
#: (one C scan per element gives values and places, and no tree of the whole array is held:
#: ``read.ArrayScan``); False reads every array whole first (the reference the tests compare with)
SCAN_ARRAYS = True
SCANNED = ("gemini_stream",)   # the kinds whose reader takes ``src.scan``


def _run(ctx: Context, kind: str) -> None:
    if ctx.src.bom:
        ctx.report.add("bom", "The text begins with a byte-order mark (U+FEFF): it was "
                       "dropped before reading. JSON must not begin with one (RFC 8259); "
                       "a strict reader refuses the text, so save it as UTF-8 without a "
                       "BOM.", Place(None, "", 1, 1))
    ANALYSERS[kind](ctx)
    ctx.deadline.check_now()


def analyse(text: str, tools: str | None = None, *, limits: Limits = DEFAULT_LIMITS) -> dict:
    """The answer of ``POST /api/transcript`` for ``text`` (and optional tool definitions)."""
    if not isinstance(text, str):
        raise WorkbenchError("bad_type", "'text' must be a string", status=400, field="text")
    deadline = Deadline(limits.work_timeout, "Checking the transcript", "text")
    ctx = None
    with deadline, collector_paused():
        try:
            gates = Gates(tools if tools and tools.strip() else None, limits)
            src = read(text, limits, deadline, scan=SCAN_ARRAYS)
            kind = detect(src)
            if src.scan is not None and kind not in SCANNED:
                src = read(text, limits, deadline)   # this kind reads the array whole
            ctx = Context(src, gates, limits, deadline)
            try:
                _run(ctx, kind)
            except NotQuickArray:
                # the array breaks past its first values: read whole, as if never begun (the
                # parser reports the fault at its place); nothing of the first run is kept
                ctx.spec = None
                src = read(text, limits, deadline)
                kind = detect(src)
                ctx = Context(src, gates, limits, deadline)
                _run(ctx, kind)
            return _answer(ctx, kind)
        finally:
            if ctx is not None:
                # the spec check holds its context: a cycle that kept the whole parse alive
                # until a full collection (what the collector's pause made is aged past the
                # young collections); reference counting frees it all once this is cut
                ctx.spec = None


def _answer(ctx: Context, kind: str) -> dict:
    pieces = {}
    placed_refs = [p for p, _e, _x in ctx.calls]
    placed_refs += [e["caller"]["_at"] for _p, e, _x in ctx.calls if "_at" in e.get("caller", ())]
    if ctx.chain is not None:
        placed_refs += [link.get("_at") for link in ctx.chain["links"]]
    if ctx.results is not None:
        placed_refs += [r.get("_at") for r in ctx.results]
    for p in placed_refs:
        if p is not None and p.piece is not None:
            pieces[id(p.piece)] = p.piece
            ctx.places.want(p.piece, p.pointer)
    findings = ctx.report.finish(pieces)
    calls = []
    for place, entry, exact in ctx.calls:
        if place.piece is None:
            where = {"pointer": place.pointer, "line": place.line, "column": place.column or 1}
        else:
            where = ctx.places.where(place.piece, place.pointer, with_json=exact)
            if "json" in where:
                entry["json"] = where.pop("json")
            if ctx.src.form != "json" or place.piece.prefix:
                entry["event"] = place.piece.index
        caller_at = entry.get("caller", {}).pop("_at", None)
        if caller_at is not None and caller_at.piece is not None:
            entry["caller"].update(ctx.places.where(caller_at.piece, caller_at.pointer))
            if ctx.src.form != "json" or caller_at.piece.prefix:
                entry["caller"]["event"] = caller_at.piece.index
        elif caller_at is not None:
            entry["caller"].update({"pointer": caller_at.pointer, "line": caller_at.line,
                                    "column": caller_at.column or 1})
        calls.append({**where, **entry})
    if ctx.results is not None:
        for r in ctx.results:
            p = r.pop("_at", None)
            if p is not None and p.piece is not None:
                r.update(ctx.places.where(p.piece, p.pointer))
            m = r.get("matched")
            r["matched"] = next((i for i, c in enumerate(calls) if c["dialect"] == "agents_api" and
                                 (c.get("turn_id"), c.get("call_id")) == m), None) \
                if m is not None else None
    counts = ctx.report.counts
    timeline = _timeline(ctx, ctx.timeline) if ctx.timeline is not None else None
    if ctx.chat_timeline is not None:
        timeline = ctx.chat_timeline
        for row in timeline:
            row["broken"] = sorted(i for i in (ctx.report.index_of(f) for f in row.pop("_broken"))
                                   if i is not None)
    chain = ctx.chain
    if chain is not None:
        for link in chain["links"]:
            fs = link.pop("_findings", None)
            if fs:
                link["findings"] = sorted(i for i in (ctx.report.index_of(f) for f in fs)
                                          if i is not None)
                link["broken"] = True
            p = link.pop("_at", None)
            if p is not None and p.piece is not None:
                link.update({k: v for k, v in ctx.places.where(p.piece, p.pointer).items()})
    summary = {"calls": len(ctx.calls) + ctx.calls_left_off,
               "blocked": sum(1 for _p, e, _x in ctx.calls
                              if not e["execute"] and e.get("role") != "history")
               + ctx.blocked_left_off,
               "outputs": ctx.outputs,
               "errors": counts["error"], "warnings": counts["warning"], "infos": counts["info"],
               "lines": ctx.src.line_count}
    if ctx.src.form != "json" or kind in ("response_stream", "chat_stream", "gemini_stream",
                                          "anthropic_stream"):
        summary["events"] = ctx.events or len(ctx.src.pieces)
    if ctx.items:
        summary["items"] = len(ctx.items)
        summary["item_word"] = ITEM_WORDS.get(kind, "item")
    if ctx.responses is not None:
        summary["responses"] = ctx.responses
    out = {"kind": kind, "calls": calls, "findings": findings, "items": ctx.items,
           "chain": chain, "summary": summary, "source": _source_word(ctx.src),
           "timeline": timeline, "spec": ctx.spec.summary(),
           "truncated": {"findings": ctx.report.left_off, "calls": ctx.calls_left_off}}
    if ctx.results is not None:
        out["results"] = ctx.results
    if ctx.tools_unread is not None:
        # the calls were gated without the text's own tools: "walk this call" does the same
        out["tools_unread"] = ("The text's own tool definitions could not be read, so its "
                               f"calls were gated without them: {ctx.tools_unread}")
    return out


#: what ``summary.items`` counts (``summary.item_word``): a Responses stream's output items, the
#: message(s) a Chat, Anthropic or Gemini stream rebuilds (not its timeline's rows: a Chat stream
#: rebuilds one message whose text and tool calls are rows of their own)
ITEM_WORDS = {"response_stream": "output item", "chat_stream": "rebuilt message",
              "anthropic_stream": "rebuilt message", "gemini_stream": "rebuilt response"}


def _source_word(src: Source) -> str:
    if src.form == "json" and src.pieces and src.pieces[0].prefix:
        return "json_events"
    return src.form


def handle(body: dict, limits) -> dict:
    """``POST /api/transcript``: ``text`` (required), ``tools``."""
    values = REQUEST.read(body)
    return analyse(values["text"], values["tools"], limits=limits)
