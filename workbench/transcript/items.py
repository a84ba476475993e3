"""The checks between items of every kind: pairing of calls and outputs, the state machine of a
response, the two envelopes, the portable core (``transcript-rules.md``).

Every kind is first read by its dialect (:mod:`workbench.dialects`) into the neutral model (a
:class:`~workbench.dialects.model.Call`, an ``Output``, an ``Other`` item that shows the
transcript went on), so one pairing walk serves Open Responses items, Chat messages, rebuilt
streams and Agents sessions alike.
"""

from __future__ import annotations

from bisect import bisect_left
from operator import attrgetter
from typing import Any, Callable

from ..gate.arguments import compare as same_arguments
from ..limits import NEAR_MISS_BUDGET, Limits

NEAR_MISS_LONG = 16   # ids this long may be a near miss at two edits (transcript-rules.md)
from ..dialects import BY_NAME, chat, open_responses
from ..dialects.model import named
from ..gate.rules import program_waiting
from .report import SEVERITY, Place, Report, edit_diff, show_diff

CORE_TYPES = frozenset({"message", "function_call", "function_call_output"})


def _q(v: Any) -> str:
    return f'"{v}"' if isinstance(v, str) else "missing"


def _rel(role: str, e) -> tuple:
    return (role, e.place, {"call_id": e.call_id if isinstance(e.call_id, str) else None,
                            "turn_id": e.turn_id})


class Pairing:
    """What the pairing checks share for one transcript: the calls by call_id and by item id,
    the words for a call and an output in this dialect, and the near-miss budget."""

    def __init__(self, entries, report: Report, deadline, limits: Limits, *, last_turn: bool,
                 call_word: str, output_word: str, earlier: str | None):
        self.entries, self.report, self.deadline, self.limits = entries, report, deadline, limits
        self.last_turn, self.earlier = last_turn, earlier
        self.call_word, self.output_word = call_word, output_word
        # the dialect's own names of the id on each side (tool_use "id" / "tool_use_id")
        room = BY_NAME.get(entries[0].dialect) if entries else None
        self.cid, self.oid = getattr(room, "ID_WORDS", ("call_id", "call_id"))
        # call_id -> its call, or the list of its calls from the second (a call alone is not
        # wrapped: 100,000 ids held 100,000 lists); :meth:`calls_with` reads it
        self.by_call_id: dict = {}
        self.by_item_id: dict = {}
        self.budget = [NEAR_MISS_BUDGET]
        self.ids_by_len: dict[int, list[str]] = {}
        self.waits: dict = {}   # a run state's calls the SDK runs on resume (run_state_waits)

    def calls_with(self, call_id) -> tuple | list:
        """The calls of ``call_id``, in text order."""
        found = self.by_call_id.get(call_id)
        return () if found is None else found if type(found) is list else (found,)

    def add(self, code: str, message: str, place, related=()):
        return self.report.add(code, message, place, related)


# The pairing table of transcript-rules.md as registered checks: (code, function) in the order
# they are tried.  A call check returns True when it settled the call (no later check sees it);
# an output check returns True when it claimed the output; a "left" check sees each call no
# output answered.  The severity of each code is report.SEVERITY's.
_pos = attrgetter("pos")
CALL_CHECKS: list[tuple[str, Callable]] = []
OUTPUT_CHECKS: list[tuple[str, Callable]] = []
LEFT_CHECKS: list[tuple[str, Callable]] = []


def _check(table: list, code: str):
    def register(fn):
        assert code in SEVERITY, code
        table.append((code, fn))
        return fn
    return register


@_check(CALL_CHECKS, "empty_call_id")
def _call_empty_id(p: Pairing, c) -> bool:
    if c.call_id == "" and c.hosted:
        return True   # the provider runs it: no output is ever matched to it
    if c.call_id != "":
        return not isinstance(c.call_id, str)   # no call_id string: nothing to pair
    p.add("empty_call_id", f"This {p.call_word} has an empty {p.cid}: no {p.output_word} "
          "can ever be matched to it; the provider must mint a non-empty id.",
          c.place.child("/call_id"))
    return True


@_check(CALL_CHECKS, "duplicate_replay")
def _call_seen_before(p: Pairing, c) -> bool:
    """A call_id seen before: the same call again (duplicate_replay, when name, turn and
    arguments agree as the gate's replay rule compares them) or another call
    (duplicate_call_id)."""
    same = p.calls_with(c.call_id)
    if same:
        first = same[0]
        rel = [_rel("first", first), _rel("second", c)]
        if first.name == c.name and same_arguments(first.args, c.args, p.limits) and \
                first.turn_id == c.turn_id:
            p.add("duplicate_replay",
                  f"The same call ({p.cid} {_q(c.call_id)}, {named(c.name)}) appears twice: "
                  "replaying it runs the tool twice; drop the repeated copy.",
                  c.place.child("/call_id"), rel)
        else:
            p.add("duplicate_call_id",
                  f"Two different calls share {p.cid} {_q(c.call_id)} (first "
                  f"{named(first.name)}, then {named(c.name)}): an output cannot say which one it "
                  "answers. Give each call its own id before replaying (a provider "
                  "reusing call_0 across turns is the classic case).",
                  c.place.child("/call_id"), rel)
    if not same:
        p.by_call_id[c.call_id] = c
    elif type(same) is tuple:
        p.by_call_id[c.call_id] = [*same, c]
    else:
        same.append(c)
    if isinstance(c.id, str) and c.id and c.id != c.call_id:
        p.by_item_id.setdefault(c.id, c)
    return True


@_check(OUTPUT_CHECKS, "empty_call_id")
def _output_empty_id(p: Pairing, o) -> bool:
    if o.call_id != "":
        return False
    p.add("empty_call_id", f"This {p.output_word} has an empty {p.oid}: it answers no "
          f"{p.call_word}. Copy the {p.call_word}'s {p.cid} exactly.", o.place.child("/call_id"))
    return True


@_check(OUTPUT_CHECKS, "orphan_output")
def _output_without_id(p: Pairing, o) -> bool:
    if isinstance(o.call_id, str):
        return False
    p.add("orphan_output", f"This {p.output_word} has no {p.oid} string, so it answers "
          f"no {p.call_word}. Copy the {p.call_word}'s {p.cid} exactly.", o.place)
    return True


@_check(OUTPUT_CHECKS, "output_before_call")
def _output_before_call(p: Pairing, o) -> bool:
    matches = p.calls_with(o.call_id)
    if not matches or matches[0].pos < o.pos:   # (the calls of an id are in document order)
        return False
    return _answered_wrongly(p, o, matches[0], "output_before_call",
                             f"This {p.output_word} for {p.oid} {_q(o.call_id)} comes before "
                             f"its {p.call_word}: move it after the {p.call_word}; a provider "
                             "reads the items in order.")


def _answered_wrongly(p: Pairing, o, c, code: str, message: str) -> bool:
    """``o`` answers ``c``, but not as it should (``code``, at the output's call_id)."""
    p.add(code, message, o.place.child("/call_id"), [_rel("call", c)])
    c.add_answer(o)
    return True


@_check(OUTPUT_CHECKS, "duplicate_output")
def _output_answers(p: Pairing, o) -> bool:
    """An output of a call before it: the answer (a second answer is duplicate_output)."""
    matches = p.calls_with(o.call_id)
    if not matches:
        return False
    # the last call of the id before the output (a bisection: an id repeated along a long
    # transcript made this a scan per output, quadratic -- issue 25's 20 -> 80 MB step)
    c = matches[bisect_left(matches, o.pos, key=_pos) - 1]
    if c.answered:
        p.add("duplicate_output",
              f"A second {p.output_word} answers {p.oid} {_q(o.call_id)} ({named(c.name)}): keep "
              "one answer per call.", o.place.child("/call_id"),
              [_rel("call", c), _rel("first", c.answered[0])])
    c.add_answer(o)
    return True


@_check(OUTPUT_CHECKS, "output_keyed_by_item_id")
def _output_by_item_id(p: Pairing, o) -> bool:
    target = p.by_item_id.get(o.call_id)
    if target is None:
        return False
    return _answered_wrongly(p, o, target, "output_keyed_by_item_id",
                             f"This {p.output_word} uses {_q(o.call_id)}, the item id of the "
                             f"call {named(target.name)}, not its call_id {_q(target.call_id)}: the id "
                             "names the stored item, call_id pins the answer. Use "
                             f"{_q(target.call_id)}.")


@_check(OUTPUT_CHECKS, "near_miss_id")
def _output_near_miss(p: Pairing, o) -> bool:
    near = _near(o.call_id, p.ids_by_len, p.budget)
    if near is None:
        return False
    meant, diff = near
    c = p.calls_with(meant)[0]
    p.add("near_miss_id",
          f"This {p.output_word}'s {p.oid} {_q(o.call_id)} matches no call, but is "
          f"{len(diff)} edit{'s' if len(diff) != 1 else ''} from {_q(meant)} "
          f"({named(c.name)}): {show_diff(diff)}. Copy the {p.call_word}'s {p.cid} character "
          "for character.", o.place.child("/call_id"),
          [("call", c.place, {"call_id": meant, "diff": diff})])
    return True


@_check(OUTPUT_CHECKS, "orphan_output")
def _output_orphan(p: Pairing, o) -> bool:
    if p.earlier:   # the history continues a stored response or conversation: its call is there
        p.add("output_for_stored_call",
              f"This {p.output_word} answers {p.oid} {_q(o.call_id)}, which is not in the text: "
              f"its {p.call_word} should be in the stored {p.earlier} this request names "
              "(the server holds it); nothing to fix here if it is.", o.place.child("/call_id"))
        return True
    p.add("orphan_output",
          f"This {p.output_word}'s {p.oid} {_q(o.call_id)} matches no {p.call_word} before it: "
          f"its {p.call_word} is gone (dropped or cut from the history). Remove the "
          f"{p.output_word} or restore its {p.call_word}.", o.place.child("/call_id"))
    return True


@_check(LEFT_CHECKS, "unanswered_call")
def _left_unanswered(p: Pairing, c, last_pos: int) -> bool:
    if p.last_turn or c.pos >= last_pos:
        return False
    p.add("unanswered_call",
          f"The {p.call_word} {named(c.name)} ({p.cid} {_q(c.call_id)}) has no {p.output_word}, "
          f"yet the transcript goes on after it: add its {p.output_word} right after "
          "it, or a provider will refuse the history.", c.place, [_rel("call", c)])
    return True


@_check(LEFT_CHECKS, "pending_call")
def _left_pending(p: Pairing, c, last_pos: int) -> bool:
    waits = p.waits.get(c.call_id)
    if waits is not None:   # a run state: the SDK runs it when the run is resumed
        what, agent = waits
        p.add("pending_call",
              f"The {p.call_word} {named(c.name)} (call_id {_q(c.call_id)}) "
              + ("waits for approval in this run state (a tool_approval_item"
                 + (f" of the agent {_q(agent)}" if agent else "") + "): approve or reject it "
                 "on the run state, then resume the run; the SDK runs the tool (or writes the "
                 "rejection) and sends its output itself." if what == "approval" else
                 "runs an agent as a tool, and that agent's own run state is still pending "
                 "here (pendingAgentToolRuns): resume the run; the SDK finishes the nested run "
                 "and sends this call's output itself."), c.place)
        return True
    p.add("pending_call",
          f"The {p.call_word} {named(c.name)} ({p.cid} {_q(c.call_id)}) is in the last turn "
          f"and still to be answered: gate it, run the tool, and send its "
          f"{p.output_word} with {p.oid} {_q(c.call_id)}.", c.place)
    return True


def pair(entries: list, report: Report, deadline, limits: Limits, *,
         last_turn: bool = False, call_word: str = "call", output_word: str = "output",
         earlier: str | None = None, waits: dict | None = None) -> None:
    """The pairing table of ``transcript-rules.md`` over ``entries`` (the neutral model, in
    transcript order), as the registered checks above.  ``last_turn``: every call is in the
    last turn (a response's own output).  ``earlier``: what stored history the request
    continues (``"response"``: ``previous_response_id``, ``"conversation"``), so an output may
    answer a call that is not in the text: ``output_for_stored_call``, not ``orphan_output``.  Two calls with one call_id are the same call
    (``duplicate_replay``) when name, turn and arguments agree, the arguments compared as
    the gate's replay rule compares them (parsed, exact numbers)."""
    p = Pairing(entries, report, deadline, limits, last_turn=last_turn, call_word=call_word,
                output_word=output_word, earlier=earlier)
    p.waits = waits or {}
    calls = [e for e in entries if e.kind == "call"]
    for c in calls:
        deadline.check()
        any(fn(p, c) for _code, fn in CALL_CHECKS)
    for cid in p.by_call_id:
        p.ids_by_len.setdefault(len(cid), []).append(cid)
    for o in entries:
        if o.kind == "output":
            deadline.check()
            any(fn(p, o) for _code, fn in OUTPUT_CHECKS)
    # calls left without an answer (a call that is not complete is a state finding)
    later = [e.pos for e in entries if e.kind != "call" and e.continues]
    last_pos = max(later) if later else -1
    for c in calls:
        if c.answered or c.hosted or not isinstance(c.call_id, str) or c.call_id == "" or \
                c.status not in (None, "completed"):
            continue   # answered, run by the provider, unpairable, or a state finding
        any(fn(p, c, last_pos) for _code, fn in LEFT_CHECKS)


def _near(cid: str, ids_by_len: dict, budget: list) -> tuple[str, list] | None:
    n = len(cid)
    for d in (0, 1, -1, 2, -2):
        for other in ids_by_len.get(n + d, ()):
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            diff = edit_diff(cid, other)
            # one edit, or two when both ids are long (call_909 is not call_100 mistyped)
            if diff and (len(diff) == 1 or min(n, len(other)) >= NEAR_MISS_LONG):
                return other, diff
    return None


# --------------------------------------------------------------------------- state machine

def states(items: list[tuple[Any, Place]], status: Any, status_place: Place | None,
           report: Report, *, what: str = "response") -> None:
    """The state-machine rows for the items of one response (or rebuilt stream)."""
    open_items = []
    statuses = []
    for i, (item, place) in enumerate(items):
        if type(item) is not dict:
            continue
        s = item.get("status")
        statuses.append(s)
        if s == "incomplete":
            if i + 1 < len(items):
                report.add("incomplete_not_last",
                           f"This item is incomplete (cut off by the budget) but "
                           f"{len(items) - i - 1} more item{'s' if len(items) - i > 2 else ''} "
                           "follow it: incomplete is terminal and must be the last item. The "
                           "items after it cannot be trusted.",
                           place.child("/status"),
                           [("item", items[i + 1][1])])
            if status is not None and status != "incomplete":
                report.add("incomplete_response_mismatch",
                           f"This item is incomplete but the {what} says {_q(status)}: an "
                           f"incomplete item makes the whole {what} incomplete.",
                           place.child("/status"),
                           [("response", status_place)])
        elif s == "in_progress" and not program_waiting(item):
            open_items.append((item, place))   # a program's call waits by design: not open
    if status == "completed" and open_items:
        names = ", ".join(str(it.get("name") or it.get("type")) for it, _ in open_items[:5])
        report.add("completed_response_open_items",
                   f"The {what} is completed, yet {len(open_items)} of its items "
                   f"{'are' if len(open_items) > 1 else 'is'} still in_progress ({names}): a "
                   "completed response never holds open items, so their content may be cut "
                   "off. Do not execute them; fetch the finished response again.",
                   status_place, [("item", p.child("/status"))
                                  for _, p in open_items[:50]])
    if status == "incomplete" and statuses and all(s == "completed" for s in statuses):
        report.add("incomplete_response_all_completed",
                   f"The {what} is incomplete, yet every item says completed: the item that "
                   "was cut off lost its status. Treat the last item as incomplete.",
                   status_place, [("item", items[-1][1])])


# --------------------------------------------------------------------------- hosted pairs

# the paired items a provider returns for a call it runs (transcript-rules.md, "Calls the
# provider runs"): (first type, second type, the first's id key, the second's key naming it)
HOSTED_PAIRS = (("tool_search_call", "tool_search_output", "call_id", "call_id"),
                ("mcp_approval_request", "mcp_approval_response", "id", "approval_request_id"))


def _text_id(v: Any) -> str | None:
    return v if isinstance(v, str) and v else None


def hosted_pairs(items: list[tuple[Any, Place]], report: Report) -> None:
    """``hosted_pair_split``: a replay that keeps one item of a provider's pair and drops the
    other.  Paired by id where both carry one, else each first by the next unpaired second
    after it (the provider writes them in turn; ``call_id`` may be null).  A call the client
    executes (``execution: "client"``) is the host's to answer: not a hosted pair."""
    for first_t, second_t, k1, k2 in HOSTED_PAIRS:
        firsts = [(i, it, p) for i, (it, p) in enumerate(items)
                  if type(it) is dict and it.get("type") == first_t and
                  it.get("execution") != "client"]
        seconds = [(i, it, p) for i, (it, p) in enumerate(items)
                   if type(it) is dict and it.get("type") == second_t]
        if not firsts and not seconds:
            continue
        by_id: dict[str, list] = {}
        positional = []
        for entry in seconds:
            sid = _text_id(entry[1].get(k2))
            (by_id.setdefault(sid, []) if sid else positional).append(entry)
        used: set[int] = set()
        at = 0
        for i, it, p in firsts:
            fid = _text_id(it.get(k1))
            match = by_id.get(fid) if fid else None
            if match:
                used.add(match.pop(0)[0])
                continue
            while at < len(positional) and positional[at][0] < i:
                at += 1
            if fid is None and at < len(positional):
                used.add(positional[at][0])
                at += 1
                continue
            report.add("hosted_pair_split",
                       f"This {first_t} is kept but its {second_t} is not: the provider ran it "
                       f"and returned both, and the host cannot write the provider's "
                       f"{second_t}. Keep both or drop both when replaying.", p.child("/type"))
        for i, _it, p in seconds:
            if i not in used:
                report.add("hosted_pair_split",
                           f"This {second_t} is kept but the {first_t} it belongs to is not: "
                           "the provider returned them as a pair. Keep both or drop both when "
                           "replaying.", p.child("/type"))


# --------------------------------------------------------------------------- envelopes

chat_shaped = chat.shaped
responses_shaped = open_responses.shaped


def envelopes(items: list[tuple[Any, Place]], report: Report, *, chat: bool) -> None:
    """``mixed_envelopes``: a shape of the other envelope inside this one."""
    wrong = responses_shaped if chat else chat_shaped
    found = [(it, p) for it, p in items if wrong(it)]
    if not found:
        return
    if chat:
        msg = ("Open Responses items (type function_call / function_call_output, call_id) inside "
               "a Chat Completions message list: the next provider gets the wrong envelope. "
               "Convert them to tool_calls / role \"tool\" messages, or compare the two logs side "
               "by side instead of in one array.")
    else:
        msg = ("Chat Completions shapes (tool_calls, role \"tool\", tool_call_id) inside an Open "
               "Responses item list: the next provider gets the wrong envelope. Convert them to "
               "function_call / function_call_output items, or compare the two logs side by "
               "side instead of in one array.")
    for _it, p in found[:100]:
        report.add("mixed_envelopes", msg, p)


def portable(items: list[tuple[Any, Place]], report: Report) -> None:
    """``namespaced_item`` per prefixed item; ``portable_core`` once per other type."""
    others: dict[str, list[Place]] = {}
    for it, p in items:
        if type(it) is not dict:
            continue
        t = it.get("type")
        if not isinstance(t, str) or t in CORE_TYPES:
            continue
        if ":" in t:
            report.add("namespaced_item",
                       f"{_q(t)} is one provider's own item type: another server will not "
                       "understand it. Leave it out when replaying elsewhere.",
                       p.child("/type"))
        else:
            others.setdefault(t, []).append(p)
    for t, places in others.items():
        n = len(places)
        report.add("portable_core",
                   f"{n} {t} item{'s' if n != 1 else ''}: outside the portable core (message, "
                   "function_call, function_call_output); another implementation may not "
                   "accept or reproduce it.", Place(places[0].piece, places[0].pointer + "/type"),
                   [("item", q) for q in places[1:20]], type=t, count=n)
