"""The explained walk: the answer of ``POST /api/gate`` for one item.

:func:`explain` asks the rule engine for the outcome (:func:`.engine.decide`, with the strict
arguments reader that remembers why) and then describes it, step by step: format → schema →
diff (and, for the Agents API dialect, door 1's review before the schema step), each with what
was checked and found, positions in the pasted text, the schema failures as JSON Pointers into
the parsed arguments, the field-by-field comparison with the original.  Nothing here decides.
"""

from __future__ import annotations

from typing import Any

from ..errors import WorkbenchError
from ..jsontext import escape_token, json_equal, line_cols, locate_many, pointer_of, split_pointer
from . import agents
from .arguments import MISSING, Explained, compare, parse_text
from .envelope import describe
from .rules import (
    AGENTS,
    AGENTS_BLOCKING_FIELDS,
    AGENTS_REQUIRED_FIELDS,
    AGENTS_RULE,
    AGENTS_STEP_RULES,
    AGENTS_STEP_TITLES,
    BLOCKING_FIELDS,
    REQUIRED_FIELDS,
    RULE,
    STEP_RULES,
    STEP_TITLES,
    bad_fields,
    program_waiting,
    rule_ref,
)
from .sentences import kind, ok_reason, pasted_headline, reason, short

_NOTES = {
    "earlier_failure": "not reached: an earlier step already decided the verdict",
    "no_schema": "no tool schema given: nothing to check but that the arguments are an object",
    "no_original": "no original item given: nothing to compare, so rule {n} passes",
}


class _Walk:
    """The dialect's rule table, step titles and numbers for one explained walk."""

    def __init__(self, dialect: str):
        agents_ = dialect == AGENTS
        self.dialect = dialect
        self.rule = AGENTS_RULE if agents_ else RULE
        self.step_rules = AGENTS_STEP_RULES if agents_ else STEP_RULES
        self.titles = AGENTS_STEP_TITLES if agents_ else STEP_TITLES

    def step(self, check: str, **fields) -> dict:
        return {"check": check, "status": "pass", "rules": self.step_rules[check],
                "title": self.titles[check], **fields}

    def skipped(self, check: str, because: str) -> dict:
        note = _NOTES[because].format(n=self.rule["replay_mismatch"]["number"])
        if because == "no_schema":
            n = self.rule["arguments_schema"]["number"]
            note = (f"no tool schema given: rule {n} still checks that the arguments are a JSON "
                    "object")
        return self.step(check, status="skipped", skipped_because=because, note=note)

    def fail(self, step: dict, code: str, item: Any, **extra) -> dict:
        step.update(status="fail", rule=self.rule[code]["number"], code=code, **extra)
        step["reason"] = reason(code, item, step, self.dialect)
        return step


def explain_text(g, item_text: str, *, envelope: bool = True, dialect: str = "auto",
                 words: str = "api") -> dict:
    parsed = parse_text(item_text, "item", g.limits)
    result = explain(g, parsed.value, item_text, dialect)
    result["warnings"] = parsed.warnings + result["warnings"]
    if g.schema_warnings:
        result["schema_warnings"] = g.schema_warnings
    result["envelope"] = None
    if envelope:
        env = describe(parsed.value, item_text, g)
        result["envelope"] = env
        if env is not None:
            result["pasted"] = env["kind"]
            result["reason"] = pasted_headline(env, result["reason"], words)
    return result


def explain(g, item: Any, item_text: str | None, dialect: str = "auto") -> dict:
    reader = Explained(g.limits)
    verdict, dialect, args, tool = g.decide(item, dialect, reader)
    w = _Walk(dialect)
    fmt = _format_step(w, item, item_text, verdict, reader)
    steps = [fmt]
    if dialect == AGENTS:  # door 1, once the action itself is in order
        steps.append(agents.review_step(w, g, item) if fmt["status"] == "pass"
                     else w.skipped("review", "earlier_failure"))
    reached_schema = fmt["status"] == "pass"
    schema = _schema_step(w, g, item, item_text, verdict, args, tool) if reached_schema \
        else w.skipped("schema", "earlier_failure")
    steps.append(schema)
    reached_diff = reached_schema and schema["status"] == "pass"
    if not reached_diff:
        diff = w.skipped("diff", "earlier_failure")
    elif g.original is MISSING:
        diff = w.skipped("diff", "no_original")
    else:
        diff = _diff_step(w, g, item, verdict, dialect, args)
    steps.append(diff)
    failed = next((s for s in steps if s["status"] == "fail"), None)
    result = {
        "verdict": verdict,
        "execute": verdict == "ok",
        "dialect": dialect,
        "reason": failed["reason"] if failed else ok_reason(item, tool, dialect),
        "rule": rule_ref(verdict, dialect),
        "step": w.rule[verdict]["check"],
        "steps": steps,
        "function_call_output": None,
        "warnings": [dict(x, **{"in": "arguments"}) for x in reader.warnings],
    }
    if dialect == AGENTS:
        result.update(agents.answer(g, item, verdict, args, tool, schema))
    elif verdict == "ok":
        result["function_call_output"] = {"type": "function_call_output",
                                          "call_id": item["call_id"], "output": ""}
        if program_waiting(item):   # the output echoes the caller, as the OpenAI Agents SDK
            result["function_call_output"]["caller"] = item["caller"]
        result["output_note"] = ("Run the tool, put its result (a string; serialise objects "
                                 "first) in output, and attach this item after the call.")
    return result


# --------------------------------------------------------------------------- format

def _format_step(w: _Walk, item: Any, item_text: str | None, verdict: str, reader) -> dict:
    agents_ = w.dialect == AGENTS
    step = w.step("format", checked=("type, turn_id, call_id, name and the arguments object"
                                     if agents_ else
                                     "type, status, id, name, call_id and the arguments string"))
    code = verdict if w.rule.get(verdict, {}).get("check") == "format" else None
    if code is None:
        if agents_:
            step["found"] = {f: item[f] for f in ("type",) + AGENTS_REQUIRED_FIELDS}
        else:
            step["found"] = {f: item[f] for f in ("type", "status") + REQUIRED_FIELDS}
        return step

    def fail(field, pointer, expected, **extra):
        w.fail(step, code, item, field=field, pointer=pointer, expected=expected, **extra)
        if item_text is not None:
            step.update(where(item_text, pointer))
            step["reason"] = reason(code, item, step, w.dialect)
        return step

    if code == "namespaced":
        if type(item) is not dict:
            return fail("type", "", "an object with \"type\": \"function_call\"",
                        found=kind(item), present=False)
        t = item.get("type", MISSING)
        return fail("type", "/type", "a type string without a colon", found=short(t),
                    present=t is not MISSING)
    if code == "not_function_call":
        return fail("type", "/type", "\"function_call\"", found=short(item["type"]), present=True)
    if code in ("status", "not_pending"):
        s = item.get("status", MISSING)
        return fail("status", "/status", "\"completed\"", found=short(s), present=s is not MISSING)
    if code == "missing_fields":
        bad = bad_fields(item, AGENTS_REQUIRED_FIELDS if agents_ else REQUIRED_FIELDS)
        return fail(bad[0], "/" + bad[0], "non-empty strings", fields=bad,
                    found={f: short(item.get(f, MISSING)) for f in bad}, present=bad[0] in item)
    a = item.get("arguments", MISSING)
    if code == "arguments_type":
        expected = ("a JSON object, e.g. {\"order_id\": \"A-1042\"}" if agents_ else
                    "a string holding JSON, e.g. \"{\\\"region\\\":\\\"apac\\\"}\"")
        return fail("arguments", "/arguments", expected, found=kind(a), found_json=short(a, 200),
                    present=a is not MISSING)
    return fail("arguments", "/arguments", "strict JSON, no repeated keys", arguments=a,
                present=True, **(reader.problem or {"parse_error": {"message": "unreadable"}}))


def where(text: str, pointer: str) -> dict:
    """Line and column of the value at ``pointer`` (or of its nearest parent) in ``text``."""
    parts = split_pointer(pointer)
    candidates = [pointer_of(parts[:n]) for n in range(len(parts), -1, -1)]
    try:
        found = locate_many(text, candidates)
    except Exception:  # pragma: no cover - text was parsed already
        return {}
    for c in candidates:
        if c in found:
            span = found[c]
            at = span.key if span.key is not None else span.start
            (line, column), = line_cols(text, [at])
            out = {"line": line, "column": column, "offset": at}
            if c != pointer:
                out["located_at"] = c
            else:
                out["json"] = text[span.start:span.end]
            return out
    return {}


# --------------------------------------------------------------------------- schema

def _schema_step(w: _Walk, g, item: dict, item_text, verdict: str, args: Any, tool) -> dict:
    tools = g.tools
    shown_args = item.get("arguments")
    if tools is None:
        step = w.step("schema", schema=None, source=None, arguments=shown_args, tool=None,
                      checked="that the arguments are a JSON object (no tool schema given)",
                      note="no tool schema given: only the object rule applies", fail=[])
    else:
        step = w.step("schema", schema="parameters", source=tools.source, arguments=shown_args)
    if verdict == "unknown_tool":
        ns = {(t.name, t.namespace) for t in tools.tools if t.namespace}
        return w.fail(step, "unknown_tool", item, tool=None, name=item["name"],
                      namespace=item.get("namespace"), available=tools.names(),
                      namespaced_tools=sorted(ns), skipped_tools=tools.skipped, fail=[])
    if tool is not None:
        step.update(tool=tool.name, namespace=tool.namespace, called_as=tool.called_as()
                    if tool.name else None, style=tool.style, schema_at=tool.pointer,
                    checked=f"the arguments against {tool.label()}")
        if tool.parameters is None:
            step["note"] = f"{tool.label()} declares no parameters schema: nothing to check"
    if verdict != "arguments_schema":
        step["fail"] = []
        return step
    fails: list[dict] = []
    if type(args) is not dict:
        # as written (a number no Decimal holds is read as ±Infinity, never shown so)
        written = shown_args.strip() if isinstance(shown_args, str) and \
            len(shown_args.strip()) <= 80 else short(args)
        step["not_object"] = f"{kind(args)} ({written})"
        fails.append({"path": "", "reason": "type", "message": f"the arguments are {kind(args)}, "
                      "not an object", "schema_path": ""})
    if tool is not None and tool.parameters is not None:
        result = tool.errors(args)
        step["draft"] = result.get("draft")
        step["errors"] = result["errors"]
        text = shown_args if isinstance(shown_args, str) else None
        fails = _dedupe(fails + _schema_fails(result["errors"], text))
    if not fails:  # pragma: no cover - the compiled check and the validator agree
        fails = [{"path": "", "reason": "schema", "message": "the compiled check refused the "
                  "arguments", "schema_path": ""}]
    return w.fail(step, "arguments_schema", item, fail=fails, report={
        "check": (tool.name or "parameters") if tool is not None else item.get("name"),
        "schema": "parameters", "fail": [{"path": f["path"], "reason": f["reason"]} for f in fails],
        "execute": False})


def _dedupe(fails: list[dict]) -> list[dict]:
    seen: set = set()
    out = []
    for f in fails:
        if (f["path"], f["reason"]) not in seen:
            seen.add((f["path"], f["reason"]))
            out.append(f)
    return out


def _schema_fails(errors: list[dict], args_text: str | None) -> list[dict]:
    """Validation errors as ``{path, reason, message, schema_path}``, by position.  The
    Validate core reports a missing required key at the pointer where it should be
    (``/order_id``) and an extra key at its own pointer (``/refund``)."""
    out = _dedupe([{"path": e.get("pointer", ""), "reason": e.get("keyword", ""),
                    "message": e.get("message", ""), "schema_path": e.get("schema_pointer", "")}
                   for e in errors])
    if args_text is None:
        return out
    try:
        spans = locate_many(args_text, [f["path"] for f in out] +
                            [f["path"].rsplit("/", 1)[0] for f in out])
    except Exception:  # pragma: no cover
        return out

    def order(f):
        s = spans.get(f["path"]) or spans.get(f["path"].rsplit("/", 1)[0])
        return s.start if s else 0
    out.sort(key=order)
    return out


# --------------------------------------------------------------------------- diff

def _diff_step(w: _Walk, g, item: dict, verdict: str, dialect: str, args: Any) -> dict:
    blocking_fields = AGENTS_BLOCKING_FIELDS if dialect == AGENTS else BLOCKING_FIELDS
    step = w.step("diff", checked=f"{', '.join(blocking_fields[:-1])} and the parsed arguments "
                                  "against the original item (other fields are shown, not "
                                  "blocking)")
    blocking = g.blocking_differences(item, dialect, args)
    differences = _field_differences(g.original, item, set(blocking), g.limits,
                                     w.rule["replay_mismatch"]["number"])
    step.update(differences=differences, blocking=[b for b in blocking if b],
                equal=not differences, changes=_pointer_changes(g.original, item, g.limits))
    if verdict == "replay_mismatch":
        w.fail(step, "replay_mismatch", item)
    return step


def _field_differences(original: Any, item: dict, blocking: set, limits, n: int) -> list[dict]:
    o = original if isinstance(original, dict) else {}
    out = []
    for k in list(o) + [k for k in item if k not in o]:
        left, right = o.get(k, MISSING), item.get(k, MISSING)
        if left is MISSING:
            change = "added"
        elif right is MISSING:
            change = "removed"
        elif k not in blocking and (compare(left, right, limits) if k == "arguments"
                                    else json_equal(left, right)):
            continue
        else:
            change = "changed"
        d = {"field": k, "change": change, "pointer": "/" + escape_token(k),
             "blocking": k in blocking}
        if left is not MISSING:
            d["left"] = short(left, 400)
        if right is not MISSING:
            d["right"] = short(right, 400)
        if k == "id":
            d["note"] = "provider-minted ids may differ: not blocking"
        elif k == "arguments" and k in blocking:
            d["note"] = (f"the arguments differ as parsed JSON (whitespace and key order are never "
                         f"a change): the same call carries the same arguments, blocking (rule {n})")
        elif k in blocking:
            d["note"] = f"the replay must be the same call: blocking (rule {n})"
        else:
            d["note"] = "shown, not blocking"
        out.append(d)
    if not isinstance(original, dict):
        out.insert(0, {"field": "", "change": "changed", "pointer": "", "blocking": True,
                       "left": short(original, 200),
                       "note": f"the original is {kind(original)}, not an item"})
    return out


def _pointer_changes(original: Any, item: Any, limits) -> list[dict] | None:
    """Pointer-level changes from the Diff core (arguments compared as parsed JSON)."""
    from ..diff import diff_values
    try:
        result = diff_values(original, item, parse_strings=True, limits=limits)
    except WorkbenchError:
        return None
    return result.get("changes", [])[:200]
