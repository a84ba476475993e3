"""The Agents API dialect's own answer (``agents-rules.md``): door 1 (the strictness review of
the tool, a step that warns and never blocks), the host-validation ``report`` of door 2 and the
``tool_result`` event to send back — never a ``function_call_output``, never a silent repair.

The verdict itself comes from the one rule engine (:mod:`.engine`); this module only shapes
what it decided into the dialect's objects.
"""

from __future__ import annotations

from typing import Any

from ..jsontext import line_cols, locate_many, split_pointer, unescape_token
from .arguments import MISSING
from .rules import RESULT_TYPE
from .sentences import kind, short

PLACEHOLDER = "<the tool's result, as a string>"
OUTPUT_NOTE = ("output above is a placeholder: run the tool, then put its result in output as a "
               "string (serialise an object first, e.g. \"{\\\"order_id\\\":\\\"A-1042\\\","
               "\\\"status\\\":\\\"paid\\\"}\"), and copy turn_id and call_id exactly.")

_REPORTED = ("arguments_schema", "replay_mismatch", "ok")


# --------------------------------------------------------------------------- door 1

def review_step(w, g, item: Any) -> dict:
    """Door 1: is the tool's parameters schema strict (every property required,
    ``additionalProperties: false``, identifiers with ``pattern`` or ``enum``)?  The Validate
    view's review (:func:`workbench.validate.review.review_schema`), explained."""
    from ..validate.review import review_schema
    step = w.step("review", door=1, blocking=False)
    tool = g.tools.pick(item) if g.tools is not None and isinstance(item, dict) else None
    if g.tools is None or tool is None:
        step.update(status="skipped", skipped_because="no_schema" if g.tools is None else "no_tool",
                    note="no tools given: there is no schema to review" if g.tools is None else
                    "no tool of this name was given: there is no schema to review")
        return step
    step.update(tool=tool.name, schema_at=tool.pointer)
    if not isinstance(tool.parameters, dict):
        step.update(strict=False, warned=False, warnings=[],
                    note=f"{tool.label()} has no parameters object to review")
        return step
    warnings = review_schema(tool.parameters, strict=tool.strict, is_tool=True,
                             limit=g.limits.max_errors)
    for x in warnings:
        x["pointer"] = tool.pointer + x["pointer"] if tool.pointer else x["pointer"]
    text = getattr(g, "schema_text", None)
    if text is not None and warnings:
        spans = locate_many(text, {x["pointer"] for x in warnings})
        placed = [(x, spans[x["pointer"]]) for x in warnings if x["pointer"] in spans]
        offs = [s.key if s.key is not None else s.start for _, s in placed]
        for (x, _), (line, column) in zip(placed, line_cols(text, offs) if offs else []):
            x["line"], x["column"] = line, column
    step.update(strict=not warnings, warned=bool(warnings), warnings=warnings)
    if warnings:
        step.update(finding="tool_not_strict",
                    note=f"{len(warnings)} open door{'s' if len(warnings) != 1 else ''} in "
                         f"{tool.label()}: a wide schema lets the model fill in what it likes. "
                         "Door 1 warns, it does not block: door 2 (the host's own check) decides.")
    else:
        step["note"] = (f"{tool.label()} is strict: every property required, no extra keys, "
                        "identifiers constrained.")
    return step


# --------------------------------------------------------------------------- door 2 and the answer

def _required(tool) -> list[str]:
    params = getattr(tool, "parameters", None)
    if isinstance(params, dict) and isinstance(params.get("required"), list):
        return [p for p in params["required"] if isinstance(p, str)]
    return []


def _at(schema: Any, pointer: str) -> Any:
    node = schema
    for tok in split_pointer(pointer):
        if isinstance(node, dict) and tok in node:
            node = node[tok]
        elif isinstance(node, list) and tok.isdigit() and int(tok) < len(node):
            node = node[int(tok)]
        else:
            return MISSING
    return node


def _field(path: str) -> str:
    if not path:
        return "the arguments"
    return "/".join(unescape_token(t) for t in path[1:].split("/"))


def failure_sentence(f: dict, schema: Any) -> str:
    """One failure for a person and a model: ``order_id failed schema: expected ^[A-Z]-\\d{4}$``."""
    name, reason = _field(f["path"]), f["reason"]
    value = _at(schema, f.get("schema_path", "")) if schema is not None else MISSING
    if reason == "additionalProperties":
        return f"{name} is not allowed (additionalProperties: false)"
    if reason == "required":
        return f"{name} is required but missing"
    if reason == "type" and f["path"] == "" and value is MISSING:
        return f"the arguments are not an object ({f.get('message', '')})".replace(" ()", "")
    if value is MISSING:
        return f"{name} failed schema ({reason}): {f.get('message', '')}".rstrip(": ")
    if reason == "pattern" and isinstance(value, str):
        return f"{name} failed schema: expected {value}"
    if reason == "enum" and isinstance(value, list):
        return f"{name} failed schema: expected one of {', '.join(short(v) for v in value)}"
    if reason == "type":
        shown = " or ".join(value) if isinstance(value, list) else str(value)
        return f"{name} failed schema: expected {shown}"
    if reason == "const":
        return f"{name} failed schema: expected {short(value)}"
    return f"{name} failed schema: expected {reason} {short(value)}"


def answer(g, item: dict, verdict: str, args: Any, tool, schema_step: dict) -> dict:
    """``report`` (door 2, or None when it was not reached), ``tool_result`` (or None when no
    pair can be copied, or the value is not an action) and the notes."""
    out: dict = {"function_call_output": None, "report": None, "tool_result": None}
    if verdict in _REPORTED:
        fails = schema_step.get("fail") or []
        out["report"] = {
            "check": (tool.name if tool is not None else None) or item.get("name"),
            "schema": "parameters",
            "pass": [p for p in _required(tool) if isinstance(args, dict) and p in args],
            "fail": [{"path": f["path"], "reason": f["reason"]} for f in fails],
            "execute": verdict == "ok"}
    if verdict == "not_pending":
        out["tool_result_note"] = ("Not a pending action: a status is not an action (only "
                                   "required_actions[] are), so nothing is run and no "
                                   "tool_result is written.")
        return out
    if verdict in ("namespaced", "not_function_call") or not isinstance(item, dict):
        out["tool_result_note"] = "Not a pending action: nothing to run, nothing to answer."
        return out
    turn_id, call_id = item.get("turn_id", MISSING), item.get("call_id", MISSING)
    if not (type(turn_id) is str and turn_id and type(call_id) is str and call_id):
        out["tool_result_note"] = ("No tool_result can be sent: it copies the action's turn_id "
                                   "and call_id exactly, and this action lacks "
                                   f"{'turn_id' if not (type(turn_id) is str and turn_id) else 'call_id'}.")
        return out
    result = {"type": RESULT_TYPE, "turn_id": turn_id, "call_id": call_id}
    if verdict == "ok":
        result.update(success=True, output=PLACEHOLDER)
        out["output_note"] = OUTPUT_NOTE
    else:
        result.update(success=False, error=_error(g, item, verdict, args, tool, schema_step))
        out["tool_result_note"] = ("Send this instead of running the tool: success false, the "
                                   "error names what failed, so the model can correct it. Do not "
                                   "retry in a new session and do not repair the value.")
    out["tool_result"] = result
    return out


def _error(g, item: dict, verdict: str, args: Any, tool, schema_step: dict) -> str:
    name = item.get("name")
    if verdict == "arguments_schema":
        schema = tool.parameters if tool is not None else None
        return "; ".join(failure_sentence(f, schema) for f in schema_step.get("fail") or [])
    if verdict == "unknown_tool":
        avail = g.tools.names() if g.tools is not None else []
        return (f"{name} is not a tool of this agent (the tools are: {', '.join(avail) or 'none'});"
                " the action was not executed")
    if verdict == "arguments_type":
        a = item.get("arguments", MISSING)
        return (f"arguments must be a JSON object, not {kind(a)}; the action was not executed")
    if verdict == "missing_fields":
        return "name is missing or empty; the action was not executed"
    if verdict == "replay_mismatch":
        diffs = g.blocking_differences(item, "agents_api", args)
        return (f"the action differs from the original ({', '.join(d or 'the whole item' for d in diffs)});"
                " the action was not executed")
    return verdict  # pragma: no cover
