"""The checks between items of every kind: pairing of calls and outputs, the state machine of a
response, the two envelopes, the portable core (``transcript-rules.md``).

Every kind is first read by its dialect (:mod:`workbench.dialects`) into the neutral model (a
:class:`~workbench.dialects.model.Call`, an ``Output``, an ``Other`` item that shows the
transcript went on), so one pairing walk serves Open Responses items, Chat messages, rebuilt
streams and Agents sessions alike.
"""

from __future__ import annotations

from typing import Any

from ..gate.arguments import compare as same_arguments
from ..limits import NEAR_MISS_BUDGET, Limits
from ..dialects import chat, open_responses
from .report import Place, Report, edit_diff, show_diff

CORE_TYPES = frozenset({"message", "function_call", "function_call_output"})


def _q(v: Any) -> str:
    return f'"{v}"' if isinstance(v, str) else str(v)


def _rel(role: str, e) -> tuple:
    return (role, e.place, {"call_id": e.call_id if isinstance(e.call_id, str) else None,
                            "turn_id": e.turn_id})


def pair(entries: list, report: Report, deadline, limits: Limits, *,
         last_turn: bool = False, call_word: str = "call", output_word: str = "output",
         earlier: bool = False) -> None:
    """The pairing table of ``transcript-rules.md`` over ``entries`` (in transcript order).
    ``last_turn``: every call is in the last turn (a response's own output).  ``earlier``: the
    history continues a stored response (``previous_response_id``), so an output may answer a
    call that is not in the text: no ``orphan_output`` then.  Two calls with one call_id are
    the same call (``duplicate_replay``) when name, turn and arguments agree, the arguments
    compared as the gate's replay rule compares them (parsed, exact numbers)."""
    by_call_id: dict[str, list] = {}
    by_item_id: dict = {}
    calls = [e for e in entries if e.kind == "call"]
    for c in calls:
        deadline.check()
        if c.call_id == "":
            report.add("empty_call_id", f"This {call_word} has an empty call_id: no {output_word} "
                       "can ever be matched to it; the provider must mint a non-empty id.",
                       c.place.child("/call_id"))
            continue
        if not isinstance(c.call_id, str):
            continue
        same = by_call_id.setdefault(c.call_id, [])
        if same:
            first = same[0]
            if first.name == c.name and same_arguments(first.args, c.args, limits) and \
                    first.turn_id == c.turn_id:
                report.add("duplicate_replay",
                           f"The same call (call_id {_q(c.call_id)}, {c.name}) appears twice: "
                           "replaying it runs the tool twice; drop the repeated copy.",
                           c.place.child("/call_id"),
                           [_rel("first", first), _rel("second", c)])
            else:
                report.add("duplicate_call_id",
                           f"Two different calls share call_id {_q(c.call_id)} (first "
                           f"{first.name}, then {c.name}): an output cannot say which one it "
                           "answers. Give each call its own id before replaying (a provider "
                           "reusing call_0 across turns is the classic case).",
                           c.place.child("/call_id"),
                           [_rel("first", first), _rel("second", c)])
        same.append(c)
        if isinstance(c.id, str) and c.id and c.id != c.call_id:
            by_item_id.setdefault(c.id, c)
    budget = [NEAR_MISS_BUDGET]
    ids_by_len: dict[int, list[str]] = {}
    for cid in by_call_id:
        ids_by_len.setdefault(len(cid), []).append(cid)

    for o in entries:
        if o.kind != "output":
            continue
        deadline.check()
        cid = o.call_id
        here = o.place.child("/call_id")
        if cid == "":
            report.add("empty_call_id", f"This {output_word} has an empty call_id: it answers no "
                       "call. Copy the call's call_id exactly.", here)
            continue
        if not isinstance(cid, str):
            report.add("orphan_output", f"This {output_word} has no call_id string, so it answers "
                       "no call. Copy the call's call_id exactly.", o.place)
            continue
        matches = by_call_id.get(cid)
        if matches:
            before = [c for c in matches if c.pos < o.pos]
            if not before:
                c = matches[0]
                report.add("output_before_call",
                           f"This {output_word} for call_id {_q(cid)} comes before its {call_word}: "
                           f"move it after the {call_word}; a provider reads the items in order.",
                           here, [_rel("call", c)])
                c.answered.append(o)
                continue
            c = before[-1]
            if c.answered:
                report.add("duplicate_output",
                           f"A second {output_word} answers call_id {_q(cid)} ({c.name}): keep "
                           "one answer per call.", here,
                           [_rel("call", c), _rel("first", c.answered[0])])
            c.answered.append(o)
            continue
        target = by_item_id.get(cid)
        if target is not None:
            report.add("output_keyed_by_item_id",
                       f"This {output_word} uses {_q(cid)}, the item id of the call "
                       f"{target.name}, not its call_id {_q(target.call_id)}: the id names the "
                       f"stored item, call_id pins the answer. Use {_q(target.call_id)}.",
                       here, [_rel("call", target)])
            target.answered.append(o)
            continue
        near = _near(cid, ids_by_len, budget)
        if near is not None:
            meant, diff = near
            c = by_call_id[meant][0]
            report.add("near_miss_id",
                       f"This {output_word}'s call_id {_q(cid)} matches no call, but is "
                       f"{len(diff)} edit{'s' if len(diff) != 1 else ''} from {_q(meant)} "
                       f"({c.name}): {show_diff(diff)}. Copy the call_id character for "
                       "character.", here,
                       [("call", c.place, {"call_id": meant, "diff": diff})])
            continue
        if earlier:
            continue
        report.add("orphan_output",
                   f"This {output_word}'s call_id {_q(cid)} matches no {call_word} before it: its "
                   f"{call_word} is gone (dropped or cut from the history). Remove the "
                   f"{output_word} or restore its {call_word}.", here)

    # calls left without an answer
    later = [e.pos for e in entries if e.kind != "call" and e.continues]
    last_pos = max(later) if later else -1
    for c in calls:
        if c.answered or not isinstance(c.call_id, str) or c.call_id == "":
            continue
        if c.status not in (None, "completed"):
            continue  # a call that is not complete is a state finding, not a pairing one
        if not last_turn and c.pos < last_pos:
            report.add("unanswered_call",
                       f"The {call_word} {c.name} (call_id {_q(c.call_id)}) has no {output_word}, "
                       f"yet the transcript goes on after it: add its {output_word} right after "
                       "it, or a provider will refuse the history.",
                       c.place, [_rel("call", c)])
        else:
            report.add("pending_call",
                       f"The {call_word} {c.name} (call_id {_q(c.call_id)}) is in the last turn "
                       f"and still to be answered: gate it, run the tool, and send its "
                       f"{output_word} with the same call_id.", c.place)


def _near(cid: str, ids_by_len: dict, budget: list) -> tuple[str, list] | None:
    n = len(cid)
    for d in (0, 1, -1, 2, -2):
        for other in ids_by_len.get(n + d, ()):
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            diff = edit_diff(cid, other)
            if diff:
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
        elif s == "in_progress":
            open_items.append((item, place))
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
    for it, p in found[:100]:
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
