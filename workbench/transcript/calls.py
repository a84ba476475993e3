"""Every call found, gated by the one-item gate of its own dialect (:mod:`workbench.gate`,
unchanged: this module only calls it).

* Open Responses ``function_call`` items: :meth:`Gate.verdict` (the same predicates as the
  full report, without building it).
* Agents API actions (``turn_id``): the gate's ``agents_api`` dialect — :meth:`Gates.agents`
  for a pending action (its door-2 ``report`` and the ``tool_result`` to send), and
  :meth:`Gates.agents_verdict` where only the verdict is read (history calls).
* Any call of the neutral model (:meth:`Gates.verdict_of`): its dialect's walkable item by its
  dialect's rule table (:func:`workbench.dialects.walkable`) — a Chat Completions call is gated
  as the Open Responses item carrying it (its ``status`` the choice's stop state), which is
  also what "walk this call" walks (``walk`` in the answer).
"""

from __future__ import annotations

from .. import dialects
from ..dialects.model import text_or_none
from ..errors import WorkbenchError
from ..gate.rules import program_caller


class Gates:
    """One gate (tools read and compiled once) for every call of a transcript."""

    def __init__(self, tools_text: str | None, limits):
        from ..gate import Gate
        try:
            self.gate = Gate(tools_text, None, limits=limits)
        except WorkbenchError as exc:
            if exc.field in (None, "schema"):
                exc.field = "tools"
            raise
        self.limits = limits
        self.tools_value = self.gate.schema_value  # as the gate read it, for door 1 of a session

    @property
    def tools(self):
        return self.gate.tools

    # -- Open Responses ----------------------------------------------------------------

    def verdict(self, item: dict) -> str:
        return self.gate.verdict(item, dialect="open_responses")

    # -- any call of the neutral model ---------------------------------------------------

    def verdict_of(self, call) -> str:
        """The verdict of a neutral call: its walkable item, by its dialect's rules."""
        return self.gate.verdict(dialects.walkable(call), dialect=dialects.gate_dialect(call))

    # -- Agents API --------------------------------------------------------------------

    def agents(self, action: dict, item_text: str | None = None) -> dict:
        """``{verdict, execute, reason, report, tool_result}`` for one Agents API action (the
        gate's explained walk: door 1, door 2 and the answer)."""
        r = self.gate.report(action, item_text, dialect="agents_api")
        return {"verdict": r.get("verdict"), "execute": r.get("execute"),
                "reason": r.get("reason"), "report": r.get("report"),
                "tool_result": r.get("tool_result")}

    def agents_verdict(self, action: dict) -> str:
        """The verdict alone (the gate's rule engine, without the walk's reports)."""
        return self.gate.verdict(action, dialect="agents_api")


def call_entry(call, verdict: str, **extra) -> dict:
    """One entry of ``calls`` for a neutral call: ``rules`` is the gate's rule table that gave
    the verdict (a walk of the call uses it); a call the gate does not walk as it is (a Chat
    tool call) carries ``walk``, the item "walk this call" walks."""
    out = {"dialect": call.dialect, "name": text_or_none(call.name),
           "call_id": text_or_none(call.call_id), "verdict": verdict,
           "execute": verdict == "ok", "rules": dialects.gate_dialect(call)}
    if call.dialect == "agents_api":
        out["turn_id"] = call.turn_id
    elif call.dialect == "open_responses" and type(call.item) is dict and \
            isinstance(call.item.get("id"), str):
        out["id"] = call.item["id"]    # the item id as written (never one settled for the walk)
    caller = program_caller(call.item)
    if caller is not None:
        # the link to the calling item (programmatic tool calling), or what is missing
        out["caller_id"] = text_or_none(caller.get("caller_id")) or "(caller_id missing)"
    walk = dialects.walkable(call)
    if walk is not call.item:
        out["walk"] = walk
    out.update({k: v for k, v in extra.items() if v is not None})
    if out.get("role") == "history":
        out["execute"] = False   # already run (answered in the text, or a session's history)
    return out
