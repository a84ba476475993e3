"""Every call found, gated by the one-item gate of its own dialect (:mod:`workbench.gate`,
unchanged: this module only calls it).

* Open Responses ``function_call`` items: :meth:`Gate.verdict` (the same predicates as the
  full report, without building it).
* Agents API actions (``turn_id``): the gate's ``agents_api`` dialect when the gate has it
  (its door-2 ``report`` and the ``tool_result`` to send); until then the action is gated as
  the Open Responses item carrying the same call, with no status rule (a pending action is
  complete by being pending) and ``arguments_type`` for arguments that are not an object.
* Chat Completions ``tool_calls``: the gate has no Chat dialect, so the call is gated as its
  Open Responses equivalent (``status`` from the choice's ``finish_reason``: ``length`` means
  cut off); the call's ``dialect`` stays ``chat_completions``.
"""

from __future__ import annotations

import inspect
from typing import Any

from ..errors import WorkbenchError
from ..jsontext import dumps_value

_NOT_OBJECT = object()


def _accepts(fn, name: str) -> bool:
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # pragma: no cover
        return False


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
        self.tools_value = None  # the parsed tools text, for door 1's review of a session
        if tools_text:
            try:
                from ..jsontext import parse
                self.tools_value = parse(tools_text, field="tools", warnings=False).value
            except WorkbenchError:  # pragma: no cover - the gate read it already
                pass
        self.report_dialect = _accepts(self.gate.report, "dialect")
        self.verdict_dialect = _accepts(self.gate.verdict, "dialect")

    @property
    def tools(self):
        return self.gate.tools

    # -- Open Responses ----------------------------------------------------------------

    def verdict(self, item: dict) -> str:
        if self.verdict_dialect:
            return self.gate.verdict(item, dialect="open_responses")
        return self.gate.verdict(item)

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
        """``{verdict, execute, reason, report, tool_result}`` for one Agents API action."""
        if self.report_dialect:
            r = self.gate.report(action, item_text, dialect="agents_api")
            return {"verdict": r.get("verdict"), "execute": r.get("execute"),
                    "reason": r.get("reason"), "report": r.get("report"),
                    "tool_result": r.get("tool_result")}
        return self._agents_fallback(action)

    def _agents_fallback(self, action: dict) -> dict:
        name = action.get("name")
        args = action.get("arguments", _NOT_OBJECT)
        for f in ("turn_id", "call_id", "name"):
            v = action.get(f)
            if type(v) is not str or not v:
                return {"verdict": "missing_fields", "execute": False,
                        "reason": f"{f} is missing or not a non-empty string", "report": None,
                        "tool_result": None}
        if type(args) is not dict:
            return {"verdict": "arguments_type", "execute": False,
                    "reason": "In the Agents API, arguments must be a JSON object",
                    "report": None, "tool_result": None}
        item = {"type": "function_call", "id": action["call_id"], "call_id": action["call_id"],
                "name": name, "status": "completed",
                "arguments": dumps_value(args).decode("utf-8")}
        r = self.gate.report(item)
        verdict = r.get("verdict")
        fails = []
        for step in r.get("steps", ()):
            if step.get("check") == "schema":
                fails = [{"path": f["path"], "reason": f["reason"]} for f in step.get("fail") or ()]
        tool = self.gate.tools.pick(item) if self.gate.tools is not None else None
        required = []
        params = getattr(tool, "parameters", None)
        if isinstance(params, dict) and isinstance(params.get("required"), list):
            required = [p for p in params["required"] if isinstance(p, str)]
        report = {"check": name, "schema": "parameters",
                  "pass": [p for p in required if p in args],
                  "fail": fails, "execute": verdict == "ok"}
        if verdict == "ok":
            tool_result = {"type": "agent.session.input.tool_result",
                           "turn_id": action["turn_id"], "call_id": action["call_id"],
                           "success": True, "output": ""}
        else:
            tool_result = {"type": "agent.session.input.tool_result",
                           "turn_id": action["turn_id"], "call_id": action["call_id"],
                           "success": False,
                           "error": "; ".join(f"{f['path'].lstrip('/') or 'arguments'} failed "
                                              f"schema: {f['reason']}" for f in fails)
                           or r.get("reason", verdict)}
        return {"verdict": verdict, "execute": verdict == "ok", "reason": r.get("reason"),
                "report": report, "tool_result": tool_result}


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


def is_object(v: Any) -> bool:
    return type(v) is dict
