"""Open Responses / Responses API streams: the events checked against the order of the spec
(2026-04-24) and rebuilt into the final items (``transcript-rules.md``, "Streams").

Events are attached to their output item by ``output_index`` first, then ``item_id``, then (for
recordings that carry neither) the item added last.  The rebuilt item is the
``response.output_item.done`` item when the stream has one, else the added item with its
argument deltas joined and its text parts filled in (its status stays what ``added`` said,
``in_progress``, so the gate refuses it).

Each output item also gets a row of the ``timeline``: its events folded by type with counts,
first and last line, and the findings about it.
"""

from __future__ import annotations

from typing import Any

from ..limits import STREAM_MAX_ORDER_FINDINGS as MAX_ORDER_FINDINGS
from ..limits import STREAM_MAX_SEQUENCE_FINDINGS as MAX_SEQUENCE_FINDINGS
from .read import Piece, Source
from .report import Place, Report
from .report import key as key_of


def _slot_words(slot) -> str:
    """``output item 0 (fc_1)``: the slot's index and its item id or type, each only when the
    stream gave it (a missing one is said to be missing, never printed as None)."""
    index = f" {slot.output_index}" if isinstance(slot.output_index, int) else \
        " (its output_index missing)"
    t = slot.added.get("type") if type(slot.added) is dict else None
    name = slot.item_id if isinstance(slot.item_id, str) and slot.item_id else (
        t if isinstance(t, str) and t else None)
    return f"output item{index}" + (f" ({name})" if name else " (no item id or type)")


def _added(slot, place) -> list:
    """The related place ``added`` of a finding about ``slot``: none for an item never added
    (a related entry without a place would be printed at line 1)."""
    return [("added", place())] if slot.added_piece is not None else []


TERMINAL = {"response.completed": "completed", "response.failed": "failed",
            "response.incomplete": "incomplete"}
STARTS = ("response.created", "response.queued", "response.in_progress")

def event_type(piece: Piece) -> str | None:
    v = piece.value
    t = v.get("type") if type(v) is dict else None
    return t if isinstance(t, str) else piece.event_name


def _part_order(kv) -> tuple:
    """A rebuilt message's parts in content_index order: integer indexes by value (10 after 2),
    then any other index (missing, a string, an object) by its text."""
    ci = kv[0]
    return (False, ci) if type(ci) is int else (True, str(ci))


class Slot:
    __slots__ = ("output_index", "item_id", "added", "added_piece", "done_item", "done_piece",
                 "deltas", "args_done", "args_done_piece", "texts", "parts_added", "parts_done",
                 "texts_done", "first_line", "last_line", "events", "broken", "ids_seen", "warned",
                 "response", "pointer")

    def __init__(self, output_index, item_id, line):
        self.output_index, self.item_id = output_index, item_id
        self.added: dict | None = None
        self.added_piece = self.done_piece = self.args_done_piece = None
        self.done_item: dict | None = None
        self.deltas: list[str] = []
        self.args_done: str | None = None
        self.texts: dict[Any, list[str]] = {}
        self.parts_added: set = set()
        self.parts_done: set = set()
        self.texts_done: set = set()
        self.first_line = self.last_line = line
        self.events: dict[str, int] = {}
        self.broken: list[dict] = []
        self.ids_seen: set = set()
        self.warned = False
        self.response = 0
        self.pointer = "/item"  # where the item sits in its done piece

    def item(self) -> dict:
        if self.done_item is not None:
            return self.done_item
        base = dict(self.added or {})
        if base.get("type") == "function_call" or (not base and (self.deltas or self.args_done)):
            base.setdefault("type", "function_call")
            base["arguments"] = self.args_done if self.args_done is not None else "".join(
                self.deltas)
        if self.texts and base.get("type") in ("message", None):
            base.setdefault("type", "message")
            base["content"] = [{"type": "output_text", "text": "".join(parts)}
                               for _, parts in sorted(self.texts.items(), key=_part_order)]
        if self.item_id is not None:
            base.setdefault("id", self.item_id)
        return base

    def place(self) -> Place:
        if self.done_piece is not None:
            return Place(self.done_piece, self.pointer)
        if self.added_piece is not None:
            return Place(self.added_piece, "/item")
        return Place(None, "", self.first_line, 1)


class ResponsesStream:
    """Walk the events of ``src`` once; findings go to ``report``."""

    def __init__(self, src: Source, report: Report, deadline, order=None):
        self.src, self.report, self.deadline = src, report, deadline
        self.entries = src.order if order is None else order
        self.pieces = [ref for _l, what, ref in self.entries if what == "piece"]
        self.slots: dict[Any, Slot] = {}
        self.by_id: dict[str, Slot] = {}
        self.order: list[Slot] = []
        self.terminal: Piece | None = None
        self.status: str | None = None
        self.final_response: dict | None = None
        self.errors: list[Piece] = []
        self.after_terminal: list = []
        self.done_seen: tuple | None = None
        self.after_done: list = []
        self.events = 0
        self.order_findings = 0
        self.sequence_findings = 0
        self.last_seq = None
        self.last_seq_piece = None

    # -- helpers ------------------------------------------------------------------------

    def _add(self, code, message, place, related=(), slot: Slot | None = None, **extra):
        f = self.report.add(code, message, place, related, **extra)
        if f is not None and slot is not None:
            slot.broken.append(f)
        return f

    def _order(self, piece: Piece, message: str, slot: Slot | None, pointer: str = "/type",
               related=()):
        self.order_findings += 1
        if self.order_findings > MAX_ORDER_FINDINGS:
            self.report.counts["error"] += 1
            self.report.left_off += 1
            return
        self._add("stream_order", message, Place(piece, pointer), related, slot)

    def _slot_for(self, ev: dict, piece: Piece, t: str) -> Slot:
        """The slot of the item ``ev`` is about (a new one for an item not seen yet)."""
        oi = ev.get("output_index")
        iid = ev.get("item_id")
        if not isinstance(iid, str):
            item = ev.get("item")
            iid = item.get("id") if type(item) is dict and isinstance(item.get("id"), str) else None
        slot = None
        if type(oi) is int and oi in self.slots:
            slot = self.slots[oi]
        elif iid is not None and iid in self.by_id:
            slot = self.by_id[iid]
        elif oi is None and iid is None and self.order:
            slot = self.order[-1]
        if slot is None:
            key = oi if type(oi) is int else (iid if iid is not None else len(self.order))
            slot = Slot(oi if type(oi) is int else None, iid, piece.line)
            self.slots[key] = slot
            if iid is not None:
                self.by_id[iid] = slot
            self.order.append(slot)
            return slot
        # the same item: do its pins hold?
        if iid is not None and slot.item_id is not None and iid != slot.item_id and \
                iid not in slot.ids_seen:
            slot.ids_seen.add(iid)
            if len(slot.ids_seen) > 3:  # one item, ids rotating on every event: three say it
                self.report.counts["warning"] += 1
                self.report.left_off += 1
                return slot
            self._add("stream_item_id_changed",
                      f"This {t} event names item_id \"{iid}\", but output item "
                      f"{slot.output_index} was added as \"{slot.item_id}\": a client attaching "
                      "deltas by item_id loses them. The ids of one item must not change.",
                      Place(piece, "/item_id" if "item_id" in ev else "/item/id"),
                      _added(slot, slot.place), slot)
            self.by_id.setdefault(iid, slot)
        elif type(oi) is int and slot.output_index is not None and oi != slot.output_index:
            self._add("stream_item_id_changed",
                      f"This {t} event puts item \"{iid}\" at output_index {oi}, but it was "
                      f"added at {slot.output_index}: the place of one item must not change.",
                      Place(piece, "/output_index"), [("added", slot.place())], slot)
        elif slot.item_id is None and iid is not None:
            slot.item_id = iid
            self.by_id.setdefault(iid, slot)
        return slot

    # -- the walk -----------------------------------------------------------------------

    def run(self) -> None:
        for _line, what, ref in self.entries:
            self.deadline.check()
            if what == "bad":
                self.report.bad_line(ref, "a client reading this stream stops or drops the "
                                          "event here (a cut-off line, or junk between events).")
                continue
            if what == "done":
                if self.done_seen is None:
                    self.done_seen = ref
                continue
            self.event(ref)
        self.finish()

    def event(self, piece: Piece) -> None:
        ev = piece.value
        if type(ev) is not dict:
            self._order(piece, "This line is JSON but not an event object.", None, "")
            return
        self.events += 1
        t = event_type(piece) or "?"
        if self.done_seen is not None:
            self.after_done.append(piece)
        elif self.terminal is not None:
            self.after_terminal.append(piece)
        seq = ev.get("sequence_number")
        if type(seq) is int:
            if self.last_seq is not None and seq != self.last_seq + 1:
                self.sequence_findings += 1
                if self.sequence_findings <= MAX_SEQUENCE_FINDINGS:
                    self._add("stream_sequence",
                              f"sequence_number {seq} follows {self.last_seq}: it must grow by "
                              "exactly one, so an event was lost, repeated or reordered here.",
                              Place(piece, "/sequence_number"),
                              [("previous", Place(self.last_seq_piece, "/sequence_number"))])
            self.last_seq, self.last_seq_piece = seq, piece
        if t in TERMINAL:
            if self.terminal is None:
                self.terminal = piece
                r = ev.get("response")
                self.final_response = r if type(r) is dict else None
                st = r.get("status") if type(r) is dict else None
                self.status = st if isinstance(st, str) else TERMINAL[t]
            return
        if t in STARTS:
            return
        if t == "error":
            self.errors.append(piece)
            return
        if not t.startswith("response."):
            return
        self._item_event(piece, ev, t)

    def _item_event(self, piece: Piece, ev: dict, t: str) -> None:
        added = t == "response.output_item.added"
        slot = self._slot_for(ev, piece, t)
        slot.events[t] = slot.events.get(t, 0) + 1
        slot.last_line = piece.line
        if added:
            if slot.added is not None:
                self._order(piece, f"output item {slot.output_index} is added a second time.",
                            slot)
            item = ev.get("item")
            slot.added = dict(item) if type(item) is dict else {}
            slot.added_piece = piece   # (its id, when it has one, was learnt by _slot_for)
            return
        if slot.added is None:  # (a slot's first event is its added event, or it has none)
            if not slot.warned:
                slot.warned = True
                self._order(piece, f"{t} arrives before its item was added "
                                   "(response.output_item.added must come first): a client has "
                                   "nowhere to put it.", slot)
        if slot.done_item is not None and t != "response.output_item.done":
            self._order(piece, f"{t} arrives after response.output_item.done for this item: a "
                               "done item never changes again.", slot,
                        related=[("done", Place(slot.done_piece, "/type"))])
        if t == "response.output_item.done":
            self._item_done(piece, ev, slot)
        elif t == "response.function_call_arguments.delta":
            if slot.args_done is not None:
                self._order(piece, "An arguments delta after response.function_call_arguments."
                                   "done: the arguments were already final.", slot,
                            related=[("done", Place(slot.args_done_piece, "/type"))])
            d = ev.get("delta")
            if isinstance(d, str):
                slot.deltas.append(d)
        elif t == "response.function_call_arguments.done":
            a = ev.get("arguments")
            if isinstance(a, str):
                slot.args_done = a
                slot.args_done_piece = piece
                if slot.deltas and "".join(slot.deltas) != a:
                    self._mismatch(piece, "/arguments", "".join(slot.deltas), a,
                                   "response.function_call_arguments.done", slot)
        elif t in ("response.content_part.added", "response.content_part.done"):
            ci = key_of(ev.get("content_index"))
            if t.endswith("added"):
                slot.parts_added.add(ci)
            else:
                if ci not in slot.parts_added:
                    self._order(piece, "content_part.done for a part that was never added.", slot)
                slot.parts_done.add(ci)
        elif t in ("response.output_text.delta", "response.output_text.done",
                   "response.refusal.delta", "response.refusal.done"):
            ci = key_of(ev.get("content_index"))
            if slot.parts_added and ci not in slot.parts_added:
                self._order(piece, f"{t} before its content part was added "
                                   "(response.content_part.added comes first).", slot)
            elif ci in slot.parts_done:
                self._order(piece, f"{t} after its content part was done.", slot)
            if t.endswith(".delta"):
                if ci in slot.texts_done:
                    self._order(piece, f"{t} after the text was done.", slot)
                d = ev.get("delta")
                if isinstance(d, str):
                    slot.texts.setdefault(ci, []).append(d)
            else:
                slot.texts_done.add(ci)
                txt = ev.get("text")
                if isinstance(txt, str) and t == "response.output_text.done":
                    slot.texts[ci] = [txt]

    def _mismatch(self, piece, pointer, joined, final, what, slot):
        k = next((i for i, (a, b) in enumerate(zip(joined, final)) if a != b),
                 min(len(joined), len(final)))
        self._add("stream_arguments_mismatch",
                  f"The argument deltas joined ({len(joined)} characters) differ from the "
                  f"arguments of {what} ({len(final)} characters) from character {k} on: a "
                  "client that joined the deltas runs a different call than the one finished. "
                  "Use the done arguments and report the provider's stream.",
                  Place(piece, pointer), _added(slot, slot.place), slot, at=k)

    def _item_done(self, piece, ev, slot: Slot) -> None:
        item = ev.get("item")
        if type(item) is not dict:
            return
        slot.done_item = item
        slot.done_piece = piece
        if slot.item_id is not None and isinstance(item.get("id"), str) and \
                item["id"] != slot.item_id and item["id"] not in slot.ids_seen:
            slot.ids_seen.add(item["id"])
            self._add("stream_item_id_changed",
                      f"The done item's id \"{item['id']}\" differs from \"{slot.item_id}\", the "
                      "id it was added with: the ids of one item must not change between its "
                      "events.", Place(piece, "/item/id"),
                      _added(slot, lambda: Place(slot.added_piece, "/item/id")), slot)
        added = slot.added or {}
        if isinstance(added.get("call_id"), str) and isinstance(item.get("call_id"), str) and \
                item["call_id"] != added["call_id"]:
            # the OpenAI SDK raises on it: the answer would name an id the call no longer has
            self._add("stream_item_id_changed",
                      f"The done item's call_id \"{item['call_id']}\" differs from "
                      f"\"{added['call_id']}\", the call_id it was added with: an output keyed by "
                      "either matches only one of them. The ids of one item must not change "
                      "between its events.", Place(piece, "/item/call_id"),
                      [("added", Place(slot.added_piece, "/item/call_id"))], slot)
        if item.get("type") == "function_call" and isinstance(item.get("arguments"), str):
            final = item["arguments"]
            if slot.args_done is not None:
                if slot.args_done != final:
                    self._mismatch(piece, "/item/arguments", slot.args_done, final,
                                   "response.output_item.done", slot)
            elif slot.deltas and "".join(slot.deltas) != final:
                self._mismatch(piece, "/item/arguments", "".join(slot.deltas), final,
                               "response.output_item.done", slot)

    def finish(self) -> None:
        report = self.report
        last_piece = self.pieces[-1] if self.pieces else None
        if self.terminal is None:
            where = (Place(last_piece, "") if last_piece is not None
                     else Place(None, "", self.src.line_count or 1, 1))
            report.add("stream_no_terminal",
                       "The stream ends without response.completed, response.failed or "
                       "response.incomplete: it was cut off, so no item in it can be trusted "
                       "as final. Record the stream again." + (
                           " (A trailing data: [DONE] is no terminal event.)"
                           if self.done_seen else ""), where)
        if self.terminal is not None and event_type(self.terminal) == "response.completed":
            for slot in self.order:
                if slot.done_item is None and slot.added is not None:
                    self._order(self.terminal,
                                f"response.completed arrives while {_slot_words(slot)} was "
                                "never done (no response.output_item.done): its content is "
                                "not final.", slot, related=[("added", slot.place())])
        if self.after_terminal:
            p = self.after_terminal[0]
            report.add("stream_after_terminal",
                       f"{len(self.after_terminal)} event{'s' if len(self.after_terminal) > 1 else ''}"
                       f" after the terminal {event_type(self.terminal)}: nothing may follow it "
                       "but data: [DONE]; a client stopped reading already.",
                       Place(p, "/type"), [("terminal", Place(self.terminal, "/type"))],
                       count=len(self.after_terminal))
        if self.after_done:
            p = self.after_done[0]
            report.add("stream_after_terminal",
                       f"{len(self.after_done)} event{'s' if len(self.after_done) > 1 else ''} "
                       "after data: [DONE]: a client closed the stream there and never sees "
                       "them.", Place(p, "/type"), count=len(self.after_done))
        for e in self.errors:
            later_failed = any(event_type(p) == "response.failed"
                               for p in self.pieces[self.pieces.index(e) + 1:])
            if not later_failed:
                report.add("stream_error_not_failed",
                           "An error event that is not followed by response.failed: the "
                           "stream must end as failed after an error, so a client knows no "
                           "item is final.", Place(e, "/type"))
        # the final response's output: do its calls carry the joined arguments?
        out = self.final_response.get("output") if self.final_response else None
        if isinstance(out, list):
            for i, it in enumerate(out):
                if type(it) is not dict or it.get("type") != "function_call":
                    continue
                slot = self.by_id.get(it.get("id")) if isinstance(it.get("id"), str) else None
                if slot is None:
                    slot = self.slots.get(i)
                if slot is None or not slot.deltas or not isinstance(it.get("arguments"), str):
                    continue
                built = slot.args_done if slot.args_done is not None else "".join(slot.deltas)
                if built != it["arguments"]:
                    self._mismatch(self.terminal, f"/response/output/{i}/arguments", built,
                                   it["arguments"], "the final response", slot)

    # -- results ------------------------------------------------------------------------

    def ordered_slots(self) -> list[Slot]:
        """The output items in output order; a stream that sent no item events but a final
        response with ``output`` is rebuilt from that output."""
        if not self.order and self.final_response is not None and \
                isinstance(self.final_response.get("output"), list):
            for i, it in enumerate(self.final_response["output"]):
                if type(it) is not dict:
                    continue
                slot = Slot(i, it.get("id") if isinstance(it.get("id"), str) else None,
                            self.terminal.line)
                slot.done_item, slot.done_piece = it, self.terminal
                slot.pointer = f"/response/output/{i}"
                slot.events[event_type(self.terminal) or "response.completed"] = 1
                self.order.append(slot)
        return sorted(self.order, key=lambda s: (s.output_index is None,
                                                 s.output_index if s.output_index is not None
                                                 else 0))

    def status_place(self) -> Place | None:
        if self.terminal is None:
            return None
        r = self.terminal.value.get("response")
        return Place(self.terminal, "/response/status" if type(r) is dict and "status" in r
                     else "/type")
