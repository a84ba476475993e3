"""Every call found, gated by the one-item gate of its own dialect (:mod:`workbench.gate`,
unchanged: this module only calls it).

* Open Responses ``function_call`` items: :meth:`Gate.verdict` (the same predicates as the
  full report, without building it).
* Agents API actions (``turn_id``): the gate's ``agents_api`` dialect — :meth:`Gates.agents`
  for a pending action (its door-2 ``report`` and the ``tool_result`` to send), and
  :meth:`Gates.agents_verdict` where only the verdict is read (history calls).
* Chat Completions ``tool_calls``: the gate has no Chat dialect, so the call is gated as its
  Open Responses equivalent (``status`` from the choice's ``finish_reason``: ``length`` means
  cut off); the call's ``dialect`` stays ``chat_completions``.
"""

from __future__ import annotations

from ..errors import WorkbenchError


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

    # -- Chat Completions --------------------------------------------------------------

    def chat(self, call: dict, complete: bool | None) -> str:
        fn = call.get("function") if isinstance(call.get("function"), dict) else {}
        item = {"type": "function_call", "id": call.get("id"), "call_id": call.get("id"),
                "name": fn.get("name"), "arguments": fn.get("arguments")}
        if complete is not False:
            item["status"] = "completed"
        elif complete is False:
            item["status"] = "incomplete"
        item = {k: v for k, v in item.items() if v is not None}
        return self.verdict(item)

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


def call_entry(where: dict, dialect: str, value: dict, verdict: str, **extra) -> dict:
    """One entry of ``calls``."""
    item = value
    name = item.get("name")
    call_id = item.get("call_id")
    if dialect == "chat_completions":
        fn = item.get("function") if isinstance(item.get("function"), dict) else {}
        name, call_id = fn.get("name"), item.get("id")
    out = {**where, "dialect": dialect, "name": name if isinstance(name, str) else None,
           "call_id": call_id if isinstance(call_id, str) else None, "verdict": verdict,
           "execute": verdict == "ok"}
    if dialect == "agents_api":
        out["turn_id"] = item.get("turn_id")
    elif isinstance(item.get("id"), str) and dialect == "open_responses":
        out["id"] = item["id"]
    out.update({k: v for k, v in extra.items() if v is not None})
    return out
