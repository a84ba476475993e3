"""The other providers in the transcript (issue 24, ``providers-rules.md``): Anthropic Messages
(and its SSE stream), Gemini (``generateContent`` and its stream) and OpenTelemetry GenAI
traces.  Each envelope is read by its dialect room (:mod:`workbench.dialects.anthropic`,
``.gemini``, ``.otel``) into the neutral model; the shared pairing walk
(:func:`workbench.transcript.items.pair`) runs on it where the dialect pairs by id, and the
rules only one provider has are here:

* Anthropic: consecutive messages of one role are one turn; a ``tool_result`` must be in the
  **next** user turn (``result_not_next``) and before any other block there
  (``result_not_first``); an unanswered ``tool_use`` is an error (the API refuses it);
  ``is_error: true`` is ``result_is_error`` (info); a ``tool_use`` in a message stopped by
  ``max_tokens`` is ``call_cut_off``.
* Gemini: paired by ``id`` when present, else by name and position in the turn; the response
  turn must come right after the call turn (``result_not_next``) with as many
  ``functionResponse`` parts as calls (``response_count_mismatch``); an unanswered call is a
  warning (the API accepts it); ``MAX_TOKENS`` / ``MALFORMED_FUNCTION_CALL`` cut a call off.
* OTel: the spans' calls and answers in time order, a call logged again in a later span's
  history counted once; every finding names its span; ``invented_call_id`` (info).

Streams are rebuilt here: Anthropic ``partial_json`` joined per block ``index`` and parsed at
``content_block_stop`` (an empty string: the ``input`` of ``content_block_start``); Gemini
chunks joined per candidate (text parts, ``functionCall`` parts, Vertex ``partialArgs``).
"""

from __future__ import annotations

from typing import Any

from ..dialects import anthropic, gemini, otel
from ..dialects.model import Call, Other, Output, Place, named
from ..dialects.model import key as key_of
from ..errors import WorkbenchError
from ..jsontext import dumps_value, parse
from .items import pair
from .read import split_array

KINDS = ("anthropic_messages", "anthropic_stream", "gemini_contents", "gemini_stream",
         "otel_trace")
# the codes only these dialects have (providers-rules.md), beside report.SEVERITY's
SEVERITY = {"result_not_next": "error", "result_not_first": "error",
            "response_count_mismatch": "error", "call_cut_off": "error", "result_is_error": "info",
            "invented_call_id": "info", "reasoning_dropped": "warning"}


def _add(report, code: str, message: str, place, related=(), severity=None, **extra):
    """Report one of this module's own codes, at its severity (or the one given)."""
    return report.add(code, message, place, related, severity=severity or SEVERITY[code],
                      **extra)


def _exact(text: str) -> Any:
    return parse(text, field="text", warnings=False).value


# --------------------------------------------------------------------------- kinds

def list_kind(values: list) -> str | None:
    """The provider kind of a list of values (a JSON array, JSON Lines, SSE pieces): the kind
    most of the first 500 objects have, when that is one of these providers'."""
    votes = {"anthropic_stream": 0, "gemini_stream": 0, "otel_trace": 0, "gemini_contents": 0}
    others = 0
    for v in values[:500]:
        if type(v) is not dict:
            continue
        if anthropic.is_event(v):
            votes["anthropic_stream"] += v.get("type") != "error"
        elif gemini.is_response(v) or gemini.is_error(v):
            votes["gemini_stream"] += 1
        elif gemini.is_request(v):
            votes["gemini_contents"] += 1   # a log of responses and the requests replaying them
        elif otel.is_span(v):
            votes["otel_trace"] += 1
        else:
            others += 1
    if votes["gemini_contents"]:
        votes["gemini_contents"] += votes.pop("gemini_stream")
    kind, n = max(votes.items(), key=lambda kv: kv[1])
    return kind if n and n >= others else None


# --------------------------------------------------------------------------- shared

def _fix_places(report, before: int, outputs: dict, calls: dict) -> None:
    """The shared pairing points at ``…/call_id``; in these envelopes the id is spelled
    otherwise (``tool_use_id``, ``id``, ``functionResponse/id``) or lives inside an attribute's
    text: point at the field that is there."""
    for f in report.findings[before:]:
        for d in [f, *f.get("related", ())]:
            p = d.get("_at")
            if p is None or not p.pointer.endswith("/call_id"):
                continue
            base = p.pointer[:-len("/call_id")]
            if base in outputs:
                d["_at"] = Place(p.piece, base + outputs[base]) if outputs[base] else \
                    Place(p.piece, base)
            elif base in calls:
                d["_at"] = Place(p.piece, base + calls[base]) if calls[base] else \
                    Place(p.piece, base)


def _severity(report, before: int, code: str, severity: str) -> None:
    for f in report.findings[before:]:
        if f["code"] == code and f["severity"] != severity:
            report.counts[f["severity"]] -= 1
            report.counts[severity] += 1
            f["severity"] = severity


def _cut_off(ctx, c: Call, why: str) -> None:
    _add(ctx.report, "call_cut_off",
                   f"The call {named(c.name)} (id {c.call_id!s}) {why}: its arguments may be "
                   "incomplete, so it is never executed. Ask the model again (with a larger "
                   "output budget).", c.place)


def own_tools(ctx, value: Any) -> None:
    """Door 2 against the request's own ``tools`` (``input_schema`` / ``functionDeclarations``)
    when the ``tools`` field gave none (as a session's ``agent.tools``); tools that cannot be
    read leave the calls gated without them."""
    tools = value.get("tools") if type(value) is dict else None
    if ctx.gates.tools is not None or not isinstance(tools, list) or not tools:
        return
    from .calls import Gates
    try:
        ctx.gates = Gates(dumps_value(tools).decode("utf-8"), ctx.limits)
    except WorkbenchError as exc:
        ctx.tools_unread = exc.message


def _list_calls(ctx, entries: list, *, exact: bool = True, items=None) -> None:
    for c in entries:
        if c.kind != "call":
            continue
        ctx.deadline.check()
        ctx.call(c, exact=exact, item=items.get(id(c)) if items else None,
                 role="history" if c.answered else "pending")


# --------------------------------------------------------------------------- Anthropic

STOP_WORDS = {"max_tokens": "is in a message stopped by max_tokens"}


def anthropic_entries(ctx, merged: list, *, status: str | None, last_turn: bool,
                      stop_reason: Any = None, stop_place: Place | None = None) -> list:
    """Read merged turns, run the shared pairing and Anthropic's own order rules."""
    report = ctx.report
    entries = anthropic.read_turns(merged, status=status)
    before = len(report.findings)
    pair(entries, report, ctx.deadline, ctx.limits, last_turn=last_turn,
         call_word="tool_use", output_word="tool_result")
    outs = {e.place.pointer: "/tool_use_id" for e in entries if e.kind == "output"}
    calls = {e.place.pointer: "/id" for e in entries if e.kind == "call"}
    _fix_places(report, before, outs, calls)
    _severity(report, before, "unanswered_call", "error")   # the API refuses the request
    for c in entries:
        if c.kind == "call":
            for o in c.answered:
                if o.pos != c.pos + 1:
                    _add(report, "result_not_next",
                               f"The tool_result for {c.call_id!s} ({named(c.name)}) is not in "
                               "the user message right after the tool_use: Anthropic refuses "
                               "the request. Move it into the next user message.",
                               o.place.child("/tool_use_id"), [("call", c.place)])
    for role, blocks in merged:
        if role != "user":
            continue
        other = None
        for b, place in blocks:
            if type(b) is not dict:
                continue
            if anthropic.word(b) in anthropic.RESULT_BLOCKS:
                if other is not None:
                    _add(report, "result_not_first",
                               "A tool_result comes after other content in this user message: "
                               "tool results must come first (Anthropic refuses the request). "
                               "Move the text after the tool_result blocks.", place,
                               [("item", other)])
                    break
                if b.get("is_error") is True:
                    _add(report, "result_is_error",
                               "is_error: the host reported a failure of the tool to the model "
                               "(not a fault: shown so a reader sees it).", place.child("/is_error"))
            elif other is None:
                other = place
    if status == "incomplete":
        why = STOP_WORDS.get(stop_reason if isinstance(stop_reason, str) else "",
                             "is in a stream that never finished")
        for c in entries:
            if c.kind == "call" and not c.hosted:
                _cut_off(ctx, c, why)
    ctx.outputs += sum(1 for e in entries if e.kind == "output")
    return entries


def analyse_anthropic(ctx) -> None:
    v = ctx.src.value
    piece = ctx.src.pieces[0]
    if anthropic.is_response(v):
        root = Place(piece, "")
        merged = anthropic.turns([(v, root)])
        reason = v.get("stop_reason")
        entries = anthropic_entries(ctx, merged, status=anthropic.stop_state(reason),
                                    last_turn=True, stop_reason=reason)
    else:
        own_tools(ctx, v)
        msgs = v.get("messages") if type(v) is dict else None
        placed = [(m, Place(piece, f"/messages/{i}")) for i, m in enumerate(msgs or ())]
        merged = anthropic.turns(placed)
        entries = anthropic_entries(ctx, merged, status="completed", last_turn=False)
        anthropic_reasoning(ctx, merged, v)
    _list_calls(ctx, entries)


class _Block:
    __slots__ = ("block", "piece", "parts", "stopped", "events", "first_line", "last_line",
                 "broken", "bad", "texts")

    def __init__(self, block: dict, piece):
        self.block, self.piece = dict(block), piece
        self.parts: list[str] = []
        self.stopped = False
        self.events: dict[str, int] = {"content_block_start": 1}
        self.first_line = self.last_line = piece.line
        self.broken: list = []
        self.bad = False
        self.texts: dict[str, list[str]] = {}


def _anthropic_segments(pieces: list) -> list[list]:
    segs: list[list] = [[]]
    for p in pieces:
        if anthropic.word(p.value) == "message_start" and segs[-1]:
            segs.append([])
        segs[-1].append(p)
    return segs


def _fold(ctx, seg: list):
    """One message's events folded: (message, blocks by index, stop_reason, message_stop
    seen); text and thinking deltas joined once at the end (no copy per delta)."""
    report = ctx.report
    msg: dict = {}
    blocks: dict = {}
    reason = None
    stop_seen = False
    for p in seg:
        ctx.deadline.check()
        ctx.events += 1
        v = p.value
        if type(v) is not dict:
            continue
        t = anthropic.word(v)
        idx = v.get("index")
        if t == "message_start" and type(v.get("message")) is dict:
            msg = dict(v["message"])
        elif t == "content_block_start" and type(v.get("content_block")) is dict:
            blocks[anthropic_key(idx)] = _Block(v["content_block"], p)
        elif t in ("content_block_delta", "content_block_stop"):
            b = blocks.get(anthropic_key(idx))
            if b is None:
                report.add("stream_order", f"A {t} for index {idx!s} that no "
                           "content_block_start opened: the piece belongs to no block and "
                           "is lost.", Place(p, "/index"))
                continue
            b.events[t] = b.events.get(t, 0) + 1
            b.last_line = p.line
            if t == "content_block_stop":
                b.stopped = True
                continue
            d = v.get("delta") if type(v.get("delta")) is dict else {}
            dt = d.get("type")
            if dt == "input_json_delta" and isinstance(d.get("partial_json"), str):
                b.parts.append(d["partial_json"])
            elif dt in ("text_delta", "thinking_delta"):
                key = dt[:-len("_delta")]
                if isinstance(d.get(key), str):
                    if key not in b.texts:
                        was = b.block.get(key)
                        b.texts[key] = [was if isinstance(was, str) else ""]
                    b.texts[key].append(d[key])
            elif dt == "signature_delta" and isinstance(d.get("signature"), str):
                b.block["signature"] = d["signature"]
        elif t == "message_delta":
            d = v.get("delta") if type(v.get("delta")) is dict else {}
            if "stop_reason" in d:
                reason = d["stop_reason"]
        elif t == "message_stop":
            stop_seen = True
        elif t == "error":
            e = v.get("error") if type(v.get("error")) is dict else {}
            report.add("stream_no_terminal",
                       f"The stream carries an error event ({e.get('type')!s}: "
                       f"{e.get('message')!s}): the message was not finished.", Place(p, ""))
    for b in blocks.values():
        for key, pieces in b.texts.items():
            b.block[key] = "".join(pieces)
    return msg, blocks, reason, stop_seen


def _stream_source(ctx, lost: str):
    """A provider stream's text as its pieces (a JSON array of events or chunks split into them),
    each line that could not be read reported with what is ``lost``."""
    src = ctx.src
    if src.form == "json" and isinstance(src.value, list):
        split_array(src)
    for b in src.bad:
        ctx.report.bad_line(b, lost)
    return src


def analyse_anthropic_stream(ctx) -> None:
    src = _stream_source(ctx, "the event is lost; the rebuilt message may miss a piece.")
    report = ctx.report
    rows: list[dict] = []
    all_entries: list = []
    items_of: dict = {}
    for k, seg in enumerate(_anthropic_segments(src.pieces)):
        msg, blocks, reason, stop_seen = _fold(ctx, seg)
        # the final message: blocks in index order, inputs parsed
        content = []
        for b in sorted(blocks.values(), key=lambda b: _order(b.block, b)):
            bt = anthropic.word(b.block)
            if bt in anthropic.CALL_BLOCKS:
                joined = "".join(b.parts)
                if joined.strip():
                    try:
                        b.block["input"] = _exact(joined)
                    except WorkbenchError:
                        b.bad = True
                elif "input" not in b.block:
                    b.block["input"] = {}
            if not b.stopped:
                f = report.add("stream_order",
                               f"The {bt!s} block at index {_index(b)} was never closed by a "
                               "content_block_stop: its content may be cut off.",
                               Place(b.piece, "/content_block"))
                b.broken.append(f)
            content.append(b)
        msg["content"] = [b.block for b in content]
        if reason is not None:
            msg["stop_reason"] = reason
        ctx.items.append(msg)
        if seg and not stop_seen:
            report.add("stream_no_terminal", "The stream ends without message_stop: the message "
                       "may be cut off.", Place(seg[-1], ""))
        finished = stop_seen and reason is not None
        status = anthropic.stop_state(reason, finished=finished)
        for b in content:
            if anthropic.word(b.block) in anthropic.CALL_BLOCKS:
                c = anthropic.read_call(b.block, Place(b.piece, "/content_block"), k,
                                        status if b.stopped and not b.bad else "incomplete")
                all_entries.append(c)
                items_of[id(c)] = len(ctx.items) - 1
                if c.status == "incomplete" and not c.hosted:
                    why = ("ended inside its input_json_delta (its block never closed)"
                           if not b.stopped else
                           "has input that is not JSON" if b.bad else STOP_WORDS.get(
                               reason if isinstance(reason, str) else "", "is in a stream that never finished"))
                    _cut_off(ctx, c, why)
                    b.broken.append(report.findings[-1] if report.findings else None)
            else:
                all_entries.append(Other(anthropic.NAME, Place(b.piece, "/content_block"), k,
                                         b.block))
        for b in content:
            bt = b.block.get("type")
            rows.append({"response": k, "output_index": _index(b),
                         "item_id": b.block.get("id"), "type": bt,
                         "name": b.block.get("name"), "call_id": b.block.get("id"),
                         "status": reason, "first_line": b.first_line, "last_line": b.last_line,
                         "events": dict(b.events), "_broken": [f for f in b.broken if f]})
    pair(all_entries, report, ctx.deadline, ctx.limits, last_turn=True,
         call_word="tool_use", output_word="tool_result")
    _list_calls(ctx, all_entries, exact=False, items=items_of)
    ctx.chat_timeline = rows
    ctx.responses = len(ctx.items)


def anthropic_key(idx: Any):
    return idx if type(idx) is int else repr(idx)


def _index(b: _Block) -> Any:
    v = b.piece.value
    return v.get("index") if type(v) is dict else None


def _order(block: dict, b: _Block):
    i = _index(b)
    return (0, i) if type(i) is int else (1, 0)


# --------------------------------------------------------------------------- Gemini

_parts_of = gemini.parts_of


def gemini_turn_entries(role: Any, parts: list, t: int, status: str | None) -> list:
    return gemini.read_parts(parts, t, status)


def gemini_pair(ctx, turns: list[list], *, last_turn: bool) -> list:
    """Gemini's pairing over turns (lists of entries): by id when both have one, else by
    name in order; the responses must be the next turn and as many as the calls."""
    report = ctx.report
    open_calls: list[tuple[int, list]] = []   # (turn, unmatched calls) of earlier call turns
    all_entries = [e for turn in turns for e in turn]
    for t, turn in enumerate(turns):
        ctx.deadline.check()
        calls = [e for e in turn if e.kind == "call"]
        resps = [e for e in turn if e.kind == "output"]
        if resps:
            prev = open_calls[-1] if open_calls and open_calls[-1][0] == t - 1 else None
            pool = list(prev[1]) if prev else []
            n_calls = len(pool)
            for r in resps:
                c = _gemini_match(r, pool)
                if c is not None:
                    pool.remove(c)
                    c.add_answer(r)
                    continue
                # an earlier call turn?
                for _t, earlier in reversed(open_calls[:-1] if prev else open_calls):
                    c = _gemini_match(r, earlier)
                    if c is not None:
                        earlier.remove(c)
                        c.add_answer(r)
                        _add(report, "result_not_next",
                                   f"This functionResponse ({named(r.item.get('name'))}) "
                                   "answers a call of an earlier turn, not of the turn right "
                                   "before it: the function response turn must follow the call "
                                   "turn.", r.place, [("call", c.place)])
                        break
                else:
                    report.add("orphan_output",
                               f"This functionResponse ({named(r.item.get('name'))}"
                               f"{', id ' + repr(r.call_id) if r.call_id else ''}) answers no "
                               "functionCall of the turn before it: its call is gone (dropped "
                               "or cut from the history). Remove it or restore its call.",
                               r.place)
            if prev is not None:
                if len(resps) != n_calls:
                    _add(report, "response_count_mismatch",
                               f"The call turn has {n_calls} functionCall part"
                               f"{'s' if n_calls != 1 else ''} but this turn answers with "
                               f"{len(resps)} functionResponse part"
                               f"{'s' if len(resps) != 1 else ''}: give one response per call.",
                               resps[0].place.child(""), [("call", prev[1][0].place)]
                               if prev[1] else ())
                prev[1][:] = pool
        if calls:
            open_calls.append((t, list(calls)))
    last = len(turns) - 1
    for t, pool in open_calls:
        for c in pool:
            if c.answered or c.status not in (None, "completed"):
                continue
            if last_turn or t == last:
                report.add("pending_call",
                           f"The call {named(c.name)} is in the last turn and still to be "
                           "answered: gate it, run the tool, and send its functionResponse "
                           "in the next turn.", c.place)
            else:
                report.add("unanswered_call",
                           f"The call {named(c.name)} has no functionResponse in the turn "
                           "after it, yet the conversation goes on: Gemini accepts this, but "
                           "the model never sees the tool's answer. Add the functionResponse "
                           "right after the call turn.", c.place, [("call", c.place)])
    # ids: duplicates, empty
    seen: dict = {}
    for c in all_entries:
        if c.kind != "call" or not isinstance(c.call_id, str):
            continue
        if c.call_id == "":
            report.add("empty_call_id", "This functionCall has an empty id: no functionResponse "
                       "can be matched to it by id.", c.place.child("/id"))
        elif c.call_id in seen:
            report.add("duplicate_call_id", f"Two calls share the id {c.call_id!r}: a response "
                       "cannot say which one it answers.", c.place.child("/id"),
                       [("first", seen[c.call_id].place), ("second", c.place)])
        else:
            seen[c.call_id] = c
    ctx.outputs += sum(1 for e in all_entries if e.kind == "output")
    return all_entries


def _gemini_match(r: Output, pool: list):
    name = r.item.get("name") if type(r.item) is dict else None
    if isinstance(r.call_id, str) and r.call_id:
        for c in pool:
            if c.call_id == r.call_id:
                return c
    for c in pool:
        if c.name == name and not (isinstance(r.call_id, str) and r.call_id and
                                   isinstance(c.call_id, str) and c.call_id):
            return c
    return None


def _gemini_candidates(ctx, value: dict, piece, base: str = "") -> list:
    """The entries of a response's candidates (each candidate is the model's turn)."""
    entries: list = []
    cands = value.get("candidates")
    for i, cand in enumerate(cands if isinstance(cands, list) else ()):
        if type(cand) is not dict:
            continue
        reason = cand.get("finishReason")
        status = gemini.stop_state(reason)
        place = Place(piece, f"{base}/candidates/{i}/content")
        turn = gemini_turn_entries("model", _parts_of(cand.get("content"), place), 0, status)
        got = gemini_pair(ctx, [turn], last_turn=True)
        for c in got:
            if c.kind == "call" and c.status == "incomplete":
                _cut_off(ctx, c, f"is in a candidate stopped by finishReason {reason!s}")
        entries += got
    return entries


def analyse_gemini(ctx) -> None:
    """One response or request; or a log (a JSON array, JSON Lines) of responses and the
    requests that replay them, each request's thought signatures compared with the ones its
    responses gave (as decoded bytes)."""
    src = ctx.src
    if src.form == "json" and isinstance(src.value, list):
        split_array(src)
    elif src.form != "json":
        for b in src.bad:
            ctx.report.bad_line(b, "one value per line is expected; this line is skipped.",
                                what="not JSON")
    given: dict = {}   # (name, args) -> (signature, place) the responses gave
    entries: list = []
    for piece in src.pieces:
        v = piece.value
        if gemini.is_response(v):
            entries += _gemini_candidates(ctx, v, piece)
            for cand in v["candidates"] if isinstance(v["candidates"], list) else ():
                content = cand.get("content") if type(cand) is dict else None
                for part, place in _parts_of(content, Place(piece, "")):
                    sig = gemini_signature(part)
                    if sig is not None:
                        given.setdefault(_call_key(part), (sig, place))
        elif gemini.is_request(v):
            own_tools(ctx, v)
            turns = []
            for t, content in enumerate(v["contents"]):
                place = Place(piece, f"/contents/{t}")
                role = content.get("role") if type(content) is dict else None
                turns.append(gemini_turn_entries(role, _parts_of(content, place), t, "completed"))
            entries += gemini_pair(ctx, turns, last_turn=False)
            gemini_reasoning(ctx, v["contents"], piece, given)
    _list_calls(ctx, entries)


def gemini_signature(part: Any) -> Any:
    if type(part) is not dict:
        return None
    return next((part[k] for k in gemini.SIGNATURE_KEYS if k in part), None)


def _call_key(part: dict):
    fc = gemini.part_call(part)
    if type(fc) is not dict:
        return None
    try:
        return (key_of(fc.get("name")), dumps_value(fc.get("args")).decode("utf-8"))
    except Exception:  # pragma: no cover - every parsed value is writable
        return None


def signature_bytes(sig: Any) -> bytes | None:
    """A thought signature as bytes: the standard or the URL-safe base64 alphabet, padding
    optional (both come back from clients); None when it is not base64."""
    import base64
    import binascii
    if not isinstance(sig, str):
        return None
    s = sig.strip().replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None


def gemini_reasoning(ctx, contents: list, piece, given: dict) -> None:
    """``reasoning_dropped``: a call turn whose first functionCall part lost the
    thoughtSignature a response of the log gave it (an error for the current turn, the one the
    last turn answers: Gemini 3 refuses it; Gemini 2.x gives signatures to some turns only, so
    a turn without one proves nothing by itself); a signature changed on the way (compared as
    decoded bytes) likewise."""
    turns = []
    for t, content in enumerate(contents):
        parts = _parts_of(content, Place(piece, f"/contents/{t}"))
        calls = [(p, q) for p, q in parts if gemini.part_call(p) is not None]
        if calls:
            turns.append((t, calls))
    last = len(contents) - 1
    for t, calls in turns:
        first, place = calls[0]
        sig = gemini_signature(first)
        before = given.get(_call_key(first))
        current = t == last - 1
        severity = "error" if current else "warning"
        fc = gemini.part_call(first)
        name = named(fc.get("name") if type(fc) is dict else None)
        if sig is None and before is not None:
            _add(ctx.report, "reasoning_dropped",
                 f"The call {name} is replayed without the thoughtSignature its response gave "
                 "it: the model's reasoning for it is lost"
                 + (", and Gemini 3 refuses the current turn's calls without it." if current
                    else "."), place, [("call", before[1])] if before else (),
                 severity=severity)
        elif sig is not None and before is not None and \
                signature_bytes(sig) != signature_bytes(before[0]):
            _add(ctx.report, "reasoning_dropped",
                 f"The thoughtSignature of {name} is not the one its response gave it (compared "
                 "as decoded bytes): send it back unchanged.",
                 place.child("/" + next(k for k in gemini.SIGNATURE_KEYS if k in first)),
                 [("call", before[1])], severity=severity)


def anthropic_reasoning(ctx, merged: list, value: dict) -> None:
    """``reasoning_dropped``: the assistant turn holding the tool_use the last user turn
    answers has no thinking block while thinking is on (or other turns keep theirs), or a
    thinking block lost its signature (an error when thinking is on: the API refuses it)."""
    think = value.get("thinking") if type(value) is dict else None
    on = type(think) is dict and think.get("type") in ("enabled", "adaptive")
    kinds = ("thinking", "redacted_thinking")
    kept = False
    for _role, blocks in merged:
        for b, place in blocks:
            if anthropic.word(b) not in kinds:
                continue
            kept = True
            key = "signature" if anthropic.word(b) == "thinking" else "data"
            if not (isinstance(b.get(key), str) and b[key]):
                _add(ctx.report, "reasoning_dropped",
                     f"This {anthropic.word(b)} block has no {key}: the API cannot verify it "
                     "and refuses the request; send the block back exactly as it came.",
                     place, severity="error" if on else "warning")
    if len(merged) < 2 or merged[-1][0] != "user" or merged[-2][0] != "assistant":
        return
    blocks = merged[-2][1]
    uses = [place for b, place in blocks if anthropic.word(b) == "tool_use"]
    if uses and (on or kept) and not any(anthropic.word(b) in kinds for b, _p in blocks):
        _add(ctx.report, "reasoning_dropped",
             "The assistant turn whose tool_use the last message answers lost its thinking "
             "blocks: with thinking on, Anthropic refuses the request (the thinking of the turn "
             "being answered must come back unchanged, with its signature).",
             uses[0], severity="error" if on else "warning")


def _set_path(target: dict, path: Any, value: Any, append: bool) -> None:
    """Vertex ``partialArgs``: ``$.a.b`` set (or, continuing a string, appended)."""
    if not isinstance(path, str) or not path.startswith("$"):
        return
    keys = [k for k in path[1:].split(".") if k]
    if not keys:
        return
    d = target
    for k in keys[:-1]:
        d = d.setdefault(k, {}) if type(d.get(k, {})) is dict else {}
    last = keys[-1]
    if append and isinstance(d.get(last), str) and isinstance(value, str):
        d[last] += value
    else:
        d[last] = value


_PARTIAL_VALUES = ("stringValue", "numberValue", "boolValue", "nullValue")


def _grew(st: dict, j: int, k: int) -> None:
    """Part ``j`` of a candidate took a piece from chunk ``k`` (for its timeline row: the count
    and the first and last chunk, whose lines are read once at the end)."""
    span = st["spans"]
    if j < len(span):
        span[j][0] += 1
        span[j][2] = k
    else:
        span.append([1, k, k])


def _part_word(part: dict) -> str:
    """A part's kind for its timeline row."""
    if gemini.part_call(part) is not None:
        return "function_call"
    if isinstance(part.get("text"), str):
        return "thought" if part.get("thought") else "text"
    return next((k for k in part if k not in gemini.SIGNATURE_KEYS), "part")


def _gemini_rows(idx, st: dict, got: list, broken: dict, lines: dict) -> list:
    """One timeline row per rebuilt part of a candidate: the chunks it took (the lines of its
    first and last: ``lines``, chunk index to line), closed by the finishReason."""
    rows = []
    for j, ((part, _place), c) in enumerate(zip(st["parts"], got)):
        n, first, last = st["spans"][j] if j < len(st["spans"]) else (1, None, None)
        first, last = lines.get(first), lines.get(last)
        events = {"chunks": n}
        if st["reason"] is not None:
            events["finishReason"] = 1
        call = c.kind == "call"
        rows.append({"response": 0, "output_index": j, "candidate": idx,
                     "item_id": c.call_id if call else None, "type": _part_word(part),
                     "name": c.name if call else None, "call_id": c.call_id if call else None,
                     "status": st["reason"], "first_line": first, "last_line": last,
                     "events": events, "_broken": broken.get(j, [])})
    return rows


class _GeminiChunks:
    """The chunks of a Gemini stream as ``(index, value)``: the pieces read (SSE, JSON Lines, an
    array split into them), or an array only begun (``src.scan``), read here one chunk at a
    time; the piece of a chunk a place points into (made then), the lines of the chunks the
    timeline rows name (read once at the end)."""

    def __init__(self, ctx):
        self.src, self.scan = ctx.src, ctx.src.scan
        if self.scan is None:
            self.src = _stream_source(ctx, "the chunk is lost; the rebuilt response may miss "
                                      "a piece.")
            self.pieces = self.src.pieces

    def __iter__(self):
        if self.scan is not None:
            return self.scan.values()
        return enumerate(p.value for p in self.pieces)

    def piece(self, k: int, value: Any):
        return self.pieces[k] if self.scan is None else self.scan.piece(k, value)

    def lines(self, ks) -> dict:
        if self.scan is None:
            return {k: self.pieces[k].line for k in ks}
        self.src.pieces = self.scan.pieces()   # (the pieces made: the answer's first is one)
        return self.scan.lines(ks)


def analyse_gemini_stream(ctx) -> None:
    """A Gemini stream: the chunks' parts joined per candidate (text runs, calls, Vertex
    ``partialArgs``), each part's timeline row, each call gated (:class:`_GeminiChunks`)."""
    chunks = _GeminiChunks(ctx)
    piece_of = chunks.piece
    cands: dict = {}     # index -> {"parts": [...], "reason", "open": call, "spans", "texts"}
    check = ctx.deadline.check
    signed = gemini.SIGNATURE_KEYS
    part_call = gemini.part_call
    n_chunks = 0
    for k, v in chunks:
        check()
        n_chunks += 1
        cs = v.get("candidates") if type(v) is dict else None
        if type(cs) is not list:
            continue
        for i, cand in enumerate(cs):
            if type(cand) is not dict:
                continue
            idx = cand.get("index", i)
            key = idx if type(idx) is int else repr(idx)
            st = cands.get(key)
            if st is None:
                # "run": the text part later text parts join, as [thought, its index in
                # parts, its pieces (None until a second one), its span]; None when the last
                # part kept was no text part
                st = cands[key] = {"parts": [], "reason": None, "open": None, "spans": [],
                                   "texts": {}, "run": None}
            if "finishReason" in cand:
                st["reason"] = cand["finishReason"]
            content = cand.get("content")
            parts = content.get("parts") if type(content) is dict else None
            if type(parts) is not list:
                continue
            kept = st["parts"]
            for j, part in enumerate(parts):
                if type(part) is not dict:
                    continue
                text = part.get("text")
                run = st["run"]
                if run is not None and type(text) is str and (
                        (len(part) == 1 and not run[0]) or   # {"text": …}: the common chunk
                        (bool(part.get("thought")) == run[0] and
                         not (signed[0] in part or signed[1] in part))):
                    # joined once at the end (no copy of the growing text per chunk)
                    pieces = run[2]
                    if pieces is None:
                        n = run[1]
                        pieces = run[2] = st["texts"][n] = [kept[n][0]["text"]]
                    pieces.append(text)
                    grown = run[3]      # (_grew, inline: the most frequent piece)
                    grown[0] += 1
                    grown[2] = k
                    continue
                place = Place(piece_of(k, v), f"/candidates/{i}/content/parts/{j}")
                fc = part_call(part)
                st["run"] = None
                if fc is not None and type(fc) is dict:
                    partial = fc.get("partialArgs")
                    if st["open"] is not None and (not fc or isinstance(partial, list)):
                        call = st["open"]
                        _grew(st, call[2], k)
                        for a in partial or ():
                            if type(a) is dict:
                                val = next((a[k] for k in _PARTIAL_VALUES if k in a), None)
                                _set_path(call[1]["functionCall"].setdefault("args", {}),
                                          a.get("jsonPath"), val, True)
                        if not fc or not fc.get("willContinue", True):
                            st["open"] = None
                        continue
                    new = {**part, "functionCall": {k: x for k, x in fc.items()
                                                     if k not in ("partialArgs", "willContinue")}}
                    kept.append((new, place))
                    _grew(st, len(kept) - 1, k)
                    if fc.get("willContinue") or isinstance(partial, list):
                        st["open"] = (place, new, len(kept) - 1)
                        for a in partial or ():
                            if type(a) is dict:
                                val = next((a[k] for k in _PARTIAL_VALUES if k in a), None)
                                _set_path(new["functionCall"].setdefault("args", {}),
                                          a.get("jsonPath"), val, True)
                    continue
                kept.append((dict(part), place))
                n = len(kept) - 1
                _grew(st, n, k)
                if type(text) is str and fc is None:
                    st["run"] = [bool(part.get("thought")), n, None, st["spans"][n]]
    ctx.events += n_chunks
    lines = chunks.lines([k for st in cands.values() for _n, *ks in st["spans"] for k in ks])
    _gemini_finish(ctx, cands, lines)


def _gemini_finish(ctx, cands: dict, lines: dict) -> None:
    """Each candidate's rebuilt parts (text runs joined once), paired and cut off by its
    finishReason; the rebuilt response, the timeline rows and the calls."""
    finished = any(st["reason"] is not None for st in cands.values())
    candidates = []
    entries: list = []
    rows = []
    for idx, st in cands.items():
        for j, pieces in st["texts"].items():
            part, place = st["parts"][j]
            st["parts"][j] = ({**part, "text": "".join(pieces)}, place)
        status = gemini.stop_state(st["reason"], finished=finished)
        candidates.append({"content": {"role": "model", "parts": [q for q, _ in st["parts"]]},
                           "finishReason": st["reason"], "index": idx})
        turn = gemini_turn_entries("model", st["parts"], 0, status)
        got = gemini_pair(ctx, [turn], last_turn=True)
        broken: dict = {}
        for j, c in enumerate(got):
            if c.kind == "call" and c.status == "incomplete":
                _cut_off(ctx, c, f"is in a candidate stopped by finishReason "
                         f"{st['reason']!s}" if st["reason"] is not None else
                         "is in a stream that ends without a finishReason")
                broken[j] = [ctx.report.findings[-1]]
        rows += _gemini_rows(idx, st, got, broken, lines)
        entries += got
    ctx.items = [{"candidates": candidates}] if candidates else []
    _list_calls(ctx, entries, exact=False, items={id(e): 0 for e in entries})
    ctx.chat_timeline = rows


# --------------------------------------------------------------------------- OTel

def analyse_otel(ctx) -> None:
    src = ctx.src
    if src.form == "json":
        spans = otel.spans(src.value, src.pieces[0])
    else:
        spans = [s for p in src.pieces for s in otel.spans(p.value, p)]
    report = ctx.report
    entries: list = []
    seen_calls: set = set()
    seen_outputs: set = set()
    span_of: dict = {}
    for s in spans:
        ctx.deadline.check()
        for e in otel.read_span(s, 0, _exact):
            cid = getattr(e, "call_id", None) or None
            cid = cid if isinstance(cid, str) else None
            if e.kind == "call" and cid is not None:
                if cid in seen_calls:
                    continue   # the same call, logged again in a later span's history
                seen_calls.add(cid)
            elif e.kind == "output" and cid is not None:
                if cid in seen_outputs:
                    continue
                seen_outputs.add(cid)
            e.pos = len(entries)
            span_of[id(e)] = s
            entries.append(e)
    before = len(report.findings)
    pair(entries, report, ctx.deadline, ctx.limits, last_turn=False, call_word="tool call",
         output_word="tool call response")
    for c in entries:
        if c.kind == "call" and otel.invented(c):
            _add(report, "invented_call_id",
                       f"The id {c.call_id!r} of {named(c.name)} was made up by the "
                       "instrumentation (the provider gave the call no id): pairing by it proves "
                       "nothing about the provider's own pairing.", c.place)
    # every finding names its span; places stay at the attribute that holds the call
    by_place = {e.place.pointer: span_of[id(e)] for e in entries}
    bases = sorted(((s.place.pointer, s) for s in spans), key=lambda x: -len(x[0]))
    for f in report.findings[before:]:
        for d in [f, *f.get("related", ())]:
            p = d.get("_at")
            if p is not None and p.pointer.endswith("/call_id") and \
                    p.pointer[:-8] in by_place:
                d["_at"] = Place(p.piece, p.pointer[:-8])
        p = f.get("_at")
        s = by_place.get(p.pointer) if p is not None else None
        if s is None and p is not None:
            s = next((s for b, s in bases if p.pointer.startswith(b)), None)
        if s is not None:
            f.update({k: v for k, v in s.where().items() if v is not None})
    ctx.outputs += sum(1 for e in entries if e.kind == "output")
    _list_calls(ctx, entries, exact=False)


ANALYSERS = {"anthropic_messages": analyse_anthropic, "anthropic_stream": analyse_anthropic_stream,
             "gemini_contents": analyse_gemini, "gemini_stream": analyse_gemini_stream,
             "otel_trace": analyse_otel}


def openai_reasoning(placed: list, report) -> None:
    """``reasoning_dropped`` in an Open Responses input: a turn (the model's items between two
    inputs of the host) whose function_call lost its ``reasoning`` item while other call turns
    keep theirs (warning), and a ``reasoning`` item with nothing after it in its turn (error:
    the API refuses a reasoning item without its following item)."""
    # each turn as [its first function_call's place, whether it holds a reasoning item, its
    # last item and place] (not its items: a turn of 100,000 calls held a pair for each)
    turns: list[list] = [[None, False, None]]
    for it, place in placed:
        if type(it) is not dict:
            continue
        t = it.get("type")
        host = (isinstance(t, str) and t.endswith("_output")) or (
            it.get("role") in ("user", "system", "developer"))
        if host:
            if turns[-1][2] is not None:
                turns.append([None, False, None])
            continue
        turn = turns[-1]
        if t == "function_call" and turn[0] is None:
            turn[0] = place
        if t == "reasoning":
            turn[1] = True
        turn[2] = (it, place)
    with_calls = [turn for turn in turns if turn[0] is not None]
    if any(has for _call, has, _last in with_calls):
        for call, has, _last in with_calls:
            if not has:
                _add(report, "reasoning_dropped",
                     "This call's turn lost its reasoning item while other turns keep theirs: a "
                     "reasoning model replayed without it loses its chain of thought, and the API "
                     "may refuse a call without its required reasoning item. Replay the reasoning "
                     "item (with encrypted_content when not stored) before the call.", call)
    for _call, _has, last in turns:
        if last is not None and last[0].get("type") == "reasoning":
            _add(report, "reasoning_dropped",
                 "This reasoning item has no following item in its turn (its call or message "
                 "was dropped): the API refuses a reasoning item without its following item.",
                 last[1], severity="error")
