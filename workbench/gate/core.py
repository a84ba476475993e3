"""The replay gate: one Open Responses item in, one verdict out.

The rules, their codes and their order are those of ``docs/replay-rules.md`` (shared docs):
the checks run in order and the first that fails decides.  Rules 1–6 form the **format**
step, 7–8 the **schema** step, 9 the **diff** step; 10 (``ok``) is what is left.

Two ways in, one set of checks:

* :func:`gate` / :meth:`Gate.run` — the full report for one pasted item (API, page, CLI):
  every step with what was checked and found, positions, the schema failures as JSON Pointers
  into the parsed arguments, the field-by-field comparison with the original.
* :meth:`Gate.verdict` — the verdict alone for an already parsed item, for ``--jsonl`` logs:
  the same predicates, no report.  ``tests/test_gate.py`` checks both agree on every case.

Schema checks use the Validate view's safe validator (:mod:`workbench.validate`: nothing is
fetched, bounded time), for every report and every verdict.  A tool's parameters schema is
checked and compiled once by that core; when it compiles (:mod:`workbench.validate_compiled`:
the schema as generated Python functions, the official suite's answers and the same error
records as jsonschema), the verdict path calls the compiled validity check directly, with the
regex timeout and work deadline only when the schema has patterns or references.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from ..errors import WorkbenchError
from .. import validate
from ..fields import Field, Fields
from ..limits import DEFAULT_LIMITS, Limits
from ..jsontext import json_equal, locate_many, parse, pointer_of, split_pointer

# --------------------------------------------------------------------------- the rules

# number, code, step, the rule in one line, the rule in one or two plain sentences, in full
RULES: list[dict] = [
    {"number": 1, "code": "namespaced", "check": "format",
     "text": "The item's type must be a plain string without a colon.",
     "plain": "A type with a colon, like openai:web_search_call, is one provider's own extension, "
              "not a generic tool call; it is never answered with a function_call_output.",
     "full": "Fails when type is missing, is not a string, or contains a colon. The spec requires "
             "provider-specific item types to carry the provider's slug and a colon as a prefix "
             "(acme:search_result); such items belong to that implementation, a trajectory holding "
             "them is not assumed portable, and they are never answered with a "
             "function_call_output."},
    {"number": 2, "code": "not_function_call", "check": "format",
     "text": "Only items of type function_call are executed.",
     "plain": "Messages, reasoning, outputs and the other item types are not requests to run a "
              "tool, so there is nothing to execute or answer.",
     "full": "Fails when type is any value other than function_call. Only function calls are "
             "executed by the host and answered with a function_call_output."},
    {"number": 3, "code": "status", "check": "format",
     "text": "status must be exactly completed.",
     "plain": "An in_progress or incomplete call may have cut-off arguments; half a JSON object is "
              "never executed, even when it happens to parse.",
     "full": "Fails when status is not exactly completed (in_progress, incomplete, missing, null…). "
             "Items move from in_progress to completed or incomplete; while streaming, arguments "
             "are built from delta fragments, so before completed the string may be a cut-off "
             "prefix of an object."},
    {"number": 4, "code": "missing_fields", "check": "format",
     "text": "id, name and call_id must be non-empty strings.",
     "plain": "A replayable call carries at least type, id, name, call_id, status and arguments; "
              "without call_id no output can be matched to it.",
     "full": "Fails when any of id, name or call_id is missing or is not a non-empty string. The "
             "function_call_output that answers the call is matched to it by call_id."},
    {"number": 5, "code": "arguments_type", "check": "format",
     "text": "arguments must be a string holding JSON.",
     "plain": "In Open Responses, arguments is a JSON string, not an object; a stored object means "
              "the item is already in the wrong form and another implementation will reject it.",
     "full": "Fails when arguments is not a string (an object, null, missing…). The stored form is "
             "already wrong: another implementation will reject it, or the next parse fails."},
    {"number": 6, "code": "arguments_parse", "check": "format",
     "text": "The arguments string must be strict JSON with no repeated keys.",
     "plain": "Bad JSON leaves nothing to check or run; a repeated key lets two parsers read two "
              "different calls from one string.",
     "full": "Fails when the string is not valid JSON under strict RFC 8259 (no NaN, no trailing "
             "comma, no comments…) or when an object in it repeats a key: with "
             "{\"region\":\"global\",\"region\":\"apac\"} one parser keeps the first value and "
             "another the last."},
    {"number": 7, "code": "unknown_tool", "check": "schema",
     "text": "When tool definitions are given, one must have the item's name.",
     "plain": "Without a matching definition there is no schema to check against; a name being "
              "allowed does not make its arguments allowed.",
     "full": "Fails when tool definitions were given and none of them has this item's name. There "
             "is then no schema to check the arguments against."},
    {"number": 8, "code": "arguments_schema", "check": "schema",
     "text": "The parsed arguments must fit the tool's parameters schema.",
     "plain": "Each failure is reported at its JSON Pointer in the arguments with the keyword that "
              "failed; nothing is repaired before execution.",
     "full": "Fails when the parsed arguments fail the tool's JSON Schema, e.g. region \"global\" "
             "where the enum allows apac, emea and amer. A failing value is reported, never "
             "silently changed to a valid one; a repair may only be proposed. Passing the schema "
             "means well-formed, not authorised. Without a schema this step has nothing to check "
             "and passes."},
    {"number": 9, "code": "replay_mismatch", "check": "diff",
     "text": "Compared with the original item, type, call_id and name must not change.",
     "plain": "The replayed call must be the same call: a new call_id orphans the output. "
              "Provider-minted ids may differ, and arguments are compared as parsed JSON.",
     "full": "Fails when an original item was given and type, call_id or name differ from it. Put "
             "the original provider's item on the left and the replay on the right; if type "
             "changed or call_id does not match, the next request is not sent. Provider-minted "
             "ids may differ; whitespace inside the arguments string is not a change. Without an "
             "original this step passes."},
    {"number": 10, "code": "ok", "check": None,
     "text": "Everything above passed: run the tool, then answer with the same call_id.",
     "plain": "Only now is the tool run and a function_call_output with the same call_id "
              "attached.",
     "full": "Every check passed. Run the tool and attach "
             "{\"type\": \"function_call_output\", \"call_id\": <the same call_id>, \"output\": "
             "<string result>}."},
]
RULE = {r["code"]: r for r in RULES}
VERDICTS = [r["code"] for r in RULES]
STEP_RULES = {"format": [1, 2, 3, 4, 5, 6], "schema": [7, 8], "diff": [9]}
STEP_TITLES = {"format": "is this a complete, well-formed function call?",
               "schema": "do the arguments fit the tool's parameters?",
               "diff": "is it the same call as the original?"}
REQUIRED_FIELDS = ("id", "name", "call_id")
BLOCKING_FIELDS = ("type", "call_id", "name")

_MISSING = object()
_BAD = object()


def rule_ref(code: str) -> dict:
    r = RULE[code]
    return {"number": r["number"], "code": code, "check": r["check"], "text": r["text"]}


# --------------------------------------------------------------------------- small helpers

def _short(value: Any, limit: int = 80) -> str:
    """A value as short JSON text for a sentence."""
    if value is _MISSING:
        return "missing"
    try:
        from ..jsontext import dumps_value
        text = dumps_value(value).decode("utf-8")
    except Exception:  # pragma: no cover - any tree parse() builds is writable
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _kind(value: Any) -> str:
    if value is _MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, Decimal, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"




def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


# --------------------------------------------------------------------------- compiled schemas

def _true(v):
    return True


# --------------------------------------------------------------------------- the validators

def _full_validate(schema: Any, instance: Any, limits: Limits) -> dict:
    return validate.validate_value(schema, instance, limits=limits)


def _full_compile(schema: Any, limits: Limits):
    """The Validate core's checked, cached validator for ``schema`` (422 schema_invalid…)."""
    return validate.compile_schema(schema, limits=limits)


# --------------------------------------------------------------------------- tools

_HOSTED_TOOLS = {"web_search", "web_search_preview", "file_search", "code_interpreter",
                 "computer_use_preview", "computer_use", "computer", "image_generation", "mcp",
                 "local_shell", "shell", "apply_patch", "custom", "tool_search"}


def _is_hosted_tool(t: Any) -> bool:
    """A hosted or provider tool type (``web_search``, ``openai:web_search_preview``…)."""
    if not isinstance(t, str):
        return False
    return ":" in t or t in _HOSTED_TOOLS or t.rsplit("_", 3)[0] in _HOSTED_TOOLS


def _is_legacy_function(v: Any) -> bool:
    """Chat Completions' old ``functions`` entry: ``{name, description?, parameters}``."""
    return (isinstance(v, dict) and "type" not in v and isinstance(v.get("name"), str)
            and isinstance(v.get("parameters"), dict))


class Tool:
    """One function tool: its name (and namespace), its parameters schema and where it came
    from in the pasted schema text."""

    __slots__ = ("name", "namespace", "parameters", "pointer", "style", "checker", "limits",
                 "compiled")

    def __init__(self, name, namespace, parameters, pointer, style, limits):
        self.name = name
        self.namespace = namespace
        self.parameters = parameters
        self.pointer = pointer
        self.style = style
        self.limits = limits
        self.checker = None
        self.compiled = None

    def prepare(self) -> None:
        """Have the Validate core check and compile the schema (422 schema_invalid...); the
        verdict path then calls its compiled validity check directly."""
        if self.parameters is None:
            self.checker = _true
            return
        try:
            self.compiled = _full_compile(self.parameters, self.limits)
        except WorkbenchError as exc:
            if exc.code in ("schema_invalid", "ref_unresolvable"):
                where = f" ({self.label()}, at {self.pointer or '/'} in the schema)"
                exc.message = exc.message.rstrip(".") + where
                exc.field = "schema"
                exc.extra.setdefault("tool", self.name)
                exc.extra.setdefault("schema_at", self.pointer)
            raise
        self.checker = validate.validity_check(self.compiled, self.limits)

    def label(self) -> str:
        if self.name is None:
            return "the given parameters schema"
        return f"tool {self.qualified()}"

    def qualified(self) -> str:
        return f"{self.namespace}.{self.name}" if self.namespace else str(self.name)

    def is_valid(self, args: Any) -> bool:
        checker = self.checker
        if checker is not None:
            try:
                return checker(args)
            except RecursionError:
                pass
        validate = _validate_module()
        if self.compiled is None:
            self.compiled = _full_compile(self.parameters, self.limits)
        return validate.run(self.compiled, args, self.limits, max_errors=0)["valid"]


class ToolSet:
    """What the ``schema`` field held: a bare parameters schema (``kind == "parameters"``) or
    tool definitions (``kind == "tools"``: one, a list, a namespace, or a request's ``tools``)."""

    def __init__(self, value: Any, limits: Limits):
        self.limits = limits
        self.tools: list[Tool] = []
        self.skipped: list[dict] = []  # hosted / provider tools that are not function tools
        self.kind = "tools"
        self.source = ""
        if isinstance(value, bool):
            self._bare(value)
        elif isinstance(value, list):
            self.source = f"a list of {len(value)} tool definition{'s' if len(value) != 1 else ''}"
            for i, entry in enumerate(value):
                self._entry(entry, [i], in_list=True)
        elif isinstance(value, dict):
            t = value.get("type")
            if t == "function" or t == "namespace" or _is_legacy_function(value):
                self.source = "a namespace of tools" if t == "namespace" else "one tool definition"
                self._entry(value, [], in_list=False)
            elif _is_hosted_tool(t):
                # a hosted or provider tool ({"type": "web_search"}): no function, no parameters
                self.source = f"one {t} tool (not a function tool)"
                self._entry(value, [], in_list=False)
            elif isinstance(value.get("tools"), list) and "properties" not in value:
                tools = value["tools"]
                self.source = f"the tools of the pasted request ({len(tools)})"
                for i, entry in enumerate(tools):
                    self._entry(entry, ["tools", i], in_list=True)
            else:
                self._bare(value)
        else:
            raise WorkbenchError("schema_invalid",
                                 f"The schema must be a parameters schema (an object), one function "
                                 f"tool definition or a list of them, not {_kind(value)}",
                                 field="schema")
        self.index: dict[tuple, Tool] = {}
        self.by_name: dict[str, list[Tool]] = {}
        for tool in self.tools:
            self.index.setdefault((tool.namespace, tool.name), tool)
            self.by_name.setdefault(tool.name, []).append(tool)
        self.has_namespaces = any(t.namespace for t in self.tools)
        self.plain = {name: tool for (ns, name), tool in reversed(self.index.items()) if ns is None}
        for tool in self.tools:
            tool.prepare()

    def _bare(self, value):
        self.kind = "parameters"
        self.source = "a parameters schema"
        self.tools.append(Tool(None, None, value, "", "parameters", self.limits))

    def _entry(self, entry, parts, *, in_list, namespace=None):
        where = pointer_of(parts) or "/"
        if _is_legacy_function(entry):  # Chat Completions' old "functions" entries
            entry = {"type": "function", "name": entry["name"],
                     "parameters": entry.get("parameters", _MISSING)}
            if entry["parameters"] is _MISSING:
                del entry["parameters"]
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            raise WorkbenchError(
                "schema_invalid",
                f"The schema entry at {where} is not a tool definition (an object with a type, "
                "such as {\"type\": \"function\", \"name\": …, \"parameters\": {…}})",
                field="schema", schema_at=pointer_of(parts))
        t = entry["type"]
        if t == "function":
            fn = entry.get("function")
            if isinstance(fn, dict):  # Chat Completions style
                name, params, style = fn.get("name"), fn.get("parameters", _MISSING), "chat_completions"
                params_parts = parts + ["function", "parameters"]
            else:
                name, params, style = entry.get("name"), entry.get("parameters", _MISSING), "responses"
                params_parts = parts + ["parameters"]
            if not isinstance(name, str) or not name:
                raise WorkbenchError("schema_invalid",
                                     f"The function tool at {where} has no name (a non-empty string)",
                                     field="schema", schema_at=pointer_of(parts))
            if params is _MISSING or params is None:
                params = None
            elif not isinstance(params, (dict, bool)):
                raise WorkbenchError("schema_invalid",
                                     f"The parameters of tool {name} (at {pointer_of(params_parts)}) "
                                     f"must be a JSON Schema object, not {_kind(params)}",
                                     field="schema", schema_at=pointer_of(params_parts))
            self.tools.append(Tool(name, namespace, params, pointer_of(params_parts), style,
                                   self.limits))
        elif t == "namespace" and namespace is None:
            ns = entry.get("name")
            tools = entry.get("tools")
            if not isinstance(ns, str) or not isinstance(tools, list):
                raise WorkbenchError("schema_invalid",
                                     f"The namespace tool at {where} needs a name and a list of tools",
                                     field="schema", schema_at=pointer_of(parts))
            for i, sub in enumerate(tools):
                self._entry(sub, parts + ["tools", i], in_list=True, namespace=ns)
        else:
            # hosted or provider tools (web_search, openai:web_search_preview…): no function
            self.skipped.append({"pointer": pointer_of(parts), "type": t})

    def pick(self, item: dict) -> Tool | None:
        if self.kind == "parameters":
            return self.tools[0]
        name = item.get("name")
        ns = item.get("namespace")
        if ns is None:
            tool = self.plain.get(name)
            if tool is not None:
                return tool
        ns = ns if isinstance(ns, str) and ns else None
        tool = self.index.get((ns, name))
        if tool is None:
            same = self.by_name.get(name)
            if same and ((ns is not None and not self.has_namespaces) or
                         (ns is None and len(same) == 1)):
                tool = same[0]
        return tool

    def names(self) -> list[str]:
        return list(dict.fromkeys(t.qualified() for t in self.tools))


# --------------------------------------------------------------------------- arguments

def _parse(text: str, field: str, limits: Limits):
    """:func:`workbench.parse.parse`, with a number too large for an exact Decimal (an
    exponent beyond the decimal context, e.g. ``1e1000000000000000000``) as a 422."""
    try:
        return parse(text, field=field, max_depth=limits.max_depth)
    except ArithmeticError:
        raise WorkbenchError("parse_error", "A number here has an exponent too large to hold "
                             "exactly; the text cannot be read", field=field) from None


class _Duplicate(Exception):
    pass


class _Constant(Exception):
    pass


def _pairs_no_duplicates(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Duplicate
    return d


def _reject_constant(name):
    raise _Constant(name)


_ARGS_DECODER = json.JSONDecoder(object_pairs_hook=_pairs_no_duplicates, parse_float=Decimal,
                                 parse_constant=_reject_constant)
_ARGS_SCAN = _ARGS_DECODER.scan_once


def parse_arguments(text: str, limits: Limits):
    """The parsed arguments string, or ``_BAD`` when rule 6 fails (the verdict path).

    The C scanner with a duplicate-refusing hook reads the common case; anything unusual
    (whitespace around the value, a byte order mark, NaN, huge numbers, deep nesting, lone
    surrogates) is decided by the strict parser itself."""
    try:
        value, end = _ARGS_SCAN(text, 0)
    except _Duplicate:
        return _BAD
    except (StopIteration, ValueError, _Constant, RecursionError, ArithmeticError):
        return _slow_arguments(text, limits)
    if end != len(text):
        return _slow_arguments(text, limits)
    if not text.isascii() and not _encodable(text):
        return _BAD
    if len(text) > limits.max_depth and text.count("{") + text.count("[") > limits.max_depth:
        return _slow_arguments(text, limits)
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _slow_arguments(text: str, limits: Limits):
    try:
        parsed = _parse(text, "arguments", limits)
    except WorkbenchError:
        return _BAD
    if any(w["code"] == "duplicate_key" for w in parsed.warnings):
        return _BAD
    return parsed.value


def _arguments_report(text: str, limits: Limits) -> tuple[Any, dict | None]:
    """(value, None) or (_BAD, fault) with the parse error or repeated keys, positioned inside
    the arguments string."""
    try:
        parsed = _parse(text, "arguments", limits)
    except WorkbenchError as exc:
        err = exc.to_dict()
        err.pop("field", None)
        return _BAD, {"parse_error": err}
    dups = [w for w in parsed.warnings if w["code"] == "duplicate_key"]
    if dups:
        return _BAD, {"duplicates": [{"key": w["key"], "pointer": w["pointer"] + "/" + _esc(w["key"]),
                                      "object": w["pointer"], "first": w["first"],
                                      "second": w["second"], "message": w["message"]}
                                     for w in dups]}
    return parsed.value, None


def _esc(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


# --------------------------------------------------------------------------- the gate

class Gate:
    """The tool schema and the original item, read once; then any number of items."""

    def __init__(self, schema_text: str | None = None, original_text: str | None = None, *,
                 limits: Limits = DEFAULT_LIMITS):
        self.limits = limits
        self.tools: ToolSet | None = None
        self.schema_warnings: list[dict] = []
        if not _blank(schema_text):
            parsed = _parse(schema_text, "schema", limits)
            self.schema_warnings = parsed.warnings
            self.tools = ToolSet(parsed.value, limits)
        self.original = _MISSING
        self.original_text = None
        if not _blank(original_text):
            self.original = _parse(original_text, "original", limits).value
            self.original_text = original_text
            o = self.original if isinstance(self.original, dict) else {}
            self._original_keys = tuple(o.get(k, _MISSING) for k in BLOCKING_FIELDS)

    @classmethod
    def from_values(cls, tools: Any = None, original: Any = _MISSING, *,
                    limits: Limits = DEFAULT_LIMITS) -> "Gate":
        g = cls(None, None, limits=limits)
        if tools is not None:
            g.tools = ToolSet(tools, limits)
        return g.with_original(original) if original is not _MISSING else g

    def with_original(self, original: Any) -> "Gate":
        import copy
        g = copy.copy(self)
        g.original = original
        o = original if isinstance(original, dict) else {}
        g._original_keys = tuple(o.get(k, _MISSING) for k in BLOCKING_FIELDS)
        return g

    # -- the verdict alone (JSON Lines) ----------------------------------------------

    def verdict(self, item: Any) -> str:
        """The verdict for a parsed item: the same checks as :meth:`run`, without a report."""
        if type(item) is not dict:
            return "namespaced"
        get = item.get
        t = get("type")
        if type(t) is not str or ":" in t:
            return "namespaced"
        if t != "function_call":
            return "not_function_call"
        if get("status") != "completed":
            return "status"
        v = get("id")
        if type(v) is not str or not v:
            return "missing_fields"
        v = get("name")
        if type(v) is not str or not v:
            return "missing_fields"
        v = get("call_id")
        if type(v) is not str or not v:
            return "missing_fields"
        a = get("arguments")
        if type(a) is not str:
            return "arguments_type"
        args = parse_arguments(a, self.limits)
        if args is _BAD:
            return "arguments_parse"
        tools = self.tools
        if tools is not None:
            tool = tools.pick(item)
            if tool is None:
                return "unknown_tool"
            checker = tool.checker
            if checker is not None:
                try:
                    fits = checker(args)
                except RecursionError:
                    fits = tool.is_valid(args)
            else:
                fits = tool.is_valid(args)
            if not fits:
                return "arguments_schema"
        if self.original is not _MISSING:
            for f, o in zip(BLOCKING_FIELDS, self._original_keys):
                # the item has all three by now (rules 1-4); a field the original lacks differs
                if o is _MISSING or not json_equal(item[f], o):
                    return "replay_mismatch"
        return "ok"

    # -- the full report -------------------------------------------------------------

    def run(self, item_text: str, *, envelope: bool = True) -> dict:
        parsed = _parse(item_text, "item", self.limits)
        report = self.report(parsed.value, item_text)
        report["warnings"] = parsed.warnings
        if self.schema_warnings:
            report["schema_warnings"] = self.schema_warnings
        report["envelope"] = None
        if envelope:
            from .envelope import describe
            env = describe(parsed.value, item_text, self)
            report["envelope"] = env
            if env is not None:
                n = env["total"]
                report["reason"] += (f" The pasted JSON is {env['label']}"
                                     + (f" holding {n} function call{'s' if n != 1 else ''}: walk "
                                        f"{'it' if n == 1 else 'one of them'} through the gate."
                                        if n else ", with no function call inside."))
        return report

    def report(self, item: Any, item_text: str | None = None) -> dict:
        fmt, args_value, fault = self._format_step(item, item_text)
        steps = [fmt]
        verdict = fault
        tool = None
        if verdict is None:
            schema_step, verdict, tool = self._schema_step(item, args_value)
        else:
            schema_step = _skipped("schema", "earlier_failure")
        steps.append(schema_step)
        if verdict is None:
            diff_step, verdict = self._diff_step(item)
        else:
            diff_step = _skipped("diff", "earlier_failure")
        steps.append(diff_step)
        verdict = verdict or "ok"
        failed = next((s for s in steps if s["status"] == "fail"), None)
        reason = failed["reason"] if failed else _ok_reason(item, tool)
        result = {
            "verdict": verdict,
            "execute": verdict == "ok",
            "reason": reason,
            "rule": rule_ref(verdict),
            "step": RULE[verdict]["check"],
            "steps": steps,
            "function_call_output": ({"type": "function_call_output", "call_id": item["call_id"],
                                      "output": ""} if verdict == "ok" else None),
        }
        if verdict == "ok":
            result["output_note"] = ("Run the tool, put its result (a string; serialise objects "
                                     "first) in output, and attach this item after the call.")
        return result

    # format: rules 1-6
    def _format_step(self, item, item_text):
        step = {"check": "format", "status": "pass", "rules": STEP_RULES["format"],
                "title": STEP_TITLES["format"],
                "checked": "type, status, id, name, call_id and the arguments string"}

        def fail(code, field, pointer, expected, **extra):
            step.update(status="fail", rule=RULE[code]["number"], code=code, field=field,
                        pointer=pointer, expected=expected, **extra)
            if item_text is not None:
                step.update(_where(item_text, pointer))
            step["reason"] = _reason(code, item, step)
            return step, _MISSING, code

        if type(item) is not dict:
            return fail("namespaced", "type", "", "an object with \"type\": \"function_call\"",
                        found=_kind(item), present=False)
        t = item.get("type", _MISSING)
        if type(t) is not str or ":" in t:
            return fail("namespaced", "type", "/type", "a type string without a colon",
                        found=_short(t), present=t is not _MISSING)
        if t != "function_call":
            return fail("not_function_call", "type", "/type", "\"function_call\"", found=_short(t),
                        present=True)
        s = item.get("status", _MISSING)
        if s != "completed":
            return fail("status", "status", "/status", "\"completed\"", found=_short(s),
                        present=s is not _MISSING)
        bad = [f for f in REQUIRED_FIELDS if type(item.get(f)) is not str or not item.get(f)]
        if bad:
            found = {f: _short(item.get(f, _MISSING)) for f in bad}
            return fail("missing_fields", bad[0], "/" + bad[0], "non-empty strings", fields=bad,
                        found=found, present=bad[0] in item)
        a = item.get("arguments", _MISSING)
        if type(a) is not str:
            return fail("arguments_type", "arguments", "/arguments",
                        "a string holding JSON, e.g. \"{\\\"region\\\":\\\"apac\\\"}\"",
                        found=_kind(a), found_json=_short(a, 200), present=a is not _MISSING)
        value, problem = _arguments_report(a, self.limits)
        if problem is not None:
            return fail("arguments_parse", "arguments", "/arguments", "strict JSON, no repeated keys",
                        arguments=a, present=True, **problem)
        step["found"] = {"type": t, "status": s, "id": item["id"], "name": item["name"],
                         "call_id": item["call_id"]}
        return step, value, None

    # schema: rules 7-8
    def _schema_step(self, item, args):
        if self.tools is None:
            step = _skipped("schema", "no_schema")
            return step, None, None
        tools = self.tools
        step = {"check": "schema", "status": "pass", "rules": STEP_RULES["schema"],
                "title": STEP_TITLES["schema"], "schema": "parameters", "source": tools.source,
                "arguments": item["arguments"]}
        tool = tools.pick(item)
        if tool is None:
            step.update(status="fail", rule=7, code="unknown_tool", tool=None, name=item["name"],
                        namespace=item.get("namespace"), available=tools.names(),
                        skipped_tools=tools.skipped, fail=[])
            step["reason"] = _reason("unknown_tool", item, step)
            return step, "unknown_tool", None
        step.update(tool=tool.name, namespace=tool.namespace, style=tool.style,
                    schema_at=tool.pointer, checked=f"the arguments against {tool.label()}")
        if tool.parameters is None:
            step.update(fail=[], note=f"{tool.label()} declares no parameters schema: nothing to check")
            return step, None, tool
        if tool.checker is not None and tool.checker is not _true and tool.is_valid(args):
            # the compiled form of this schema said valid (it agrees with the validator)
            step["fail"] = []
            return step, None, tool
        result = _full_validate(tool.parameters, args, self.limits)
        step["draft"] = result.get("draft")
        if result["valid"]:
            step["fail"] = []
            return step, None, tool
        fails = _schema_fails(result["errors"], item["arguments"])
        step.update(status="fail", rule=8, code="arguments_schema", fail=fails,
                    errors=result["errors"],
                    report={"check": tool.name or "parameters", "schema": "parameters",
                            "fail": [{"path": f["path"], "reason": f["reason"]} for f in fails],
                            "execute": False})
        step["reason"] = _reason("arguments_schema", item, step)
        return step, "arguments_schema", tool

    # diff: rule 9
    def _diff_step(self, item):
        if self.original is _MISSING:
            return _skipped("diff", "no_original"), None
        original = self.original
        step = {"check": "diff", "status": "pass", "rules": STEP_RULES["diff"],
                "title": STEP_TITLES["diff"],
                "checked": "type, call_id and name against the original item (other fields "
                           "are shown, not blocking)"}
        differences = _field_differences(original, item, self.limits)
        blocking = [d["field"] for d in differences if d["blocking"]]
        step["differences"] = differences
        step["blocking"] = blocking
        step["equal"] = not differences
        step["changes"] = _pointer_changes(original, item, self.limits)
        if blocking:
            step.update(status="fail", rule=9, code="replay_mismatch")
            step["reason"] = _reason("replay_mismatch", item, step)
            return step, "replay_mismatch"
        return step, None


def _skipped(check: str, because: str) -> dict:
    notes = {
        "earlier_failure": "not reached: an earlier step already decided the verdict",
        "no_schema": "no tool schema given: nothing to check, so rules 7 and 8 pass",
        "no_original": "no original item given: nothing to compare, so rule 9 passes",
    }
    return {"check": check, "status": "skipped", "rules": STEP_RULES[check],
            "title": STEP_TITLES[check], "skipped_because": because, "note": notes[because]}


def _where(text: str, pointer: str) -> dict:
    """Line and column of the value at ``pointer`` (or of its nearest parent) in ``text``."""
    parts = split_pointer(pointer)
    candidates = [pointer_of(parts[:n]) for n in range(len(parts), -1, -1)]
    try:
        found = locate_many(text, candidates)
    except Exception:  # pragma: no cover - text was parsed already
        return {}
    from ..jsontext import line_col
    for c in candidates:
        if c in found:
            span = found[c]
            at = span.key if span.key is not None else span.start
            line, column = line_col(text, at)
            out = {"line": line, "column": column, "offset": at}
            if c != pointer:
                out["located_at"] = c
            else:
                out["json"] = text[span.start:span.end]
            return out
    return {}


def _schema_fails(errors: list[dict], args_text: str) -> list[dict]:
    """Validation errors as ``{path, reason, message, schema_path}``.  The Validate core
    already reports a missing required key at the pointer where it should be (``/order_id``)
    and an extra key at its own pointer (``/refund``)."""
    out: list[dict] = []
    seen: set = set()
    for e in errors:
        path, reason = e.get("pointer", ""), e.get("keyword", "")
        if (path, reason) in seen:
            continue
        seen.add((path, reason))
        out.append({"path": path, "reason": reason, "message": e.get("message", ""),
                    "schema_path": e.get("schema_pointer", "")})
    try:  # the Validate core orders by position already; keep it stable by position anyway
        spans = locate_many(args_text, [f["path"] for f in out] +
                            [f["path"].rsplit("/", 1)[0] for f in out])
    except Exception:  # pragma: no cover
        spans = {}

    def order(f):
        s = spans.get(f["path"]) or spans.get(f["path"].rsplit("/", 1)[0])
        return s.start if s else 0
    out.sort(key=order)
    return out


def _compare_arguments(a: Any, b: Any, limits: Limits) -> bool:
    """Arguments strings compared as parsed JSON (whitespace is not a change)."""
    if isinstance(a, str) and isinstance(b, str):
        if a == b:
            return True
        va, vb = parse_arguments(a, limits), parse_arguments(b, limits)
        if va is not _BAD and vb is not _BAD:
            return json_equal(va, vb)
        return False
    return json_equal(a, b)


def _field_differences(original: Any, item: dict, limits: Limits) -> list[dict]:
    o = original if isinstance(original, dict) else {}
    out = []
    keys = list(o) + [k for k in item if k not in o]
    for k in keys:
        left, right = o.get(k, _MISSING), item.get(k, _MISSING)
        if left is _MISSING:
            change = "added"
        elif right is _MISSING:
            change = "removed"
        elif (_compare_arguments(left, right, limits) if k == "arguments" else json_equal(left, right)):
            continue
        else:
            change = "changed"
        d = {"field": k, "change": change, "pointer": "/" + _esc(k),
             "blocking": k in BLOCKING_FIELDS}
        if left is not _MISSING:
            d["left"] = _short(left, 400)
        if right is not _MISSING:
            d["right"] = _short(right, 400)
        if k == "id":
            d["note"] = "provider-minted ids may differ: not blocking"
        elif k == "arguments":
            d["note"] = ("the arguments differ as parsed JSON (whitespace alone is never a change): "
                         "shown, not blocking by rule 9")
        elif k in BLOCKING_FIELDS:
            d["note"] = "the replay must be the same call: blocking (rule 9)"
        else:
            d["note"] = "shown, not blocking"
        out.append(d)
    if not isinstance(original, dict):
        out.insert(0, {"field": "", "change": "changed", "pointer": "", "blocking": True,
                       "left": _short(original, 200),
                       "note": f"the original is {_kind(original)}, not an item"})
    return out


def _pointer_changes(original: Any, item: Any, limits: Limits) -> list[dict] | None:
    """Pointer-level changes from the Diff core (arguments compared as parsed JSON), or None
    when that core is not available."""
    try:
        from ..diff import diff_values
    except ModuleNotFoundError as exc:
        if exc.name != "workbench.diff":
            raise
        return None
    try:
        result = diff_values(original, item, parse_strings=True, limits=limits)
    except WorkbenchError:
        return None
    return result.get("changes", [])[:200]


# --------------------------------------------------------------------------- sentences

def _reason(code: str, item: Any, step: dict) -> str:
    n = RULE[code]["number"]
    if code == "namespaced":
        if step.get("pointer") == "":
            return (f"The pasted JSON is {step['found']}, not an item object with a type, so the gate "
                    f"cannot treat it as a tool call (rule {n}).")
        if not step.get("present"):
            return (f"The item has no type, so it is not a generic item the gate can run "
                    f"(rule {n}).")
        t = item.get("type")
        if isinstance(t, str):
            return (f"type is {_short(t)}: the colon marks a provider extension (prefix "
                    f"{_short(t.split(':', 1)[0])}), not a generic tool call, so it is never "
                    f"answered with a function_call_output (rule {n}).")
        return f"type is {_kind(t)} ({_short(t)}), not a string (rule {n})."
    if code == "not_function_call":
        return (f"type is {step['found']}, not \"function_call\": only function calls are executed "
                f"and answered (rule {n}).")
    if code == "status":
        found = "missing" if not step.get("present") else step["found"]
        return (f"status is {found}, not \"completed\": the arguments may be cut off, and a call "
                f"is only executed once it is complete (rule {n}).")
    if code == "missing_fields":
        parts = [f"{f} is {v}" if v == "missing" else f"{f} is {v}"
                 for f, v in step["found"].items()]
        return (f"{'; '.join(parts)}: a replayable call needs id, name and call_id as non-empty "
                f"strings, and without call_id no output can be matched to it (rule {n}).")
    if code == "arguments_type":
        return (f"arguments is {step['found']}, not a string holding JSON: the stored form is "
                f"already wrong for Open Responses (rule {n}).")
    if code == "arguments_parse":
        if "duplicates" in step:
            d = step["duplicates"][0]
            return (f"The arguments string repeats the key {_short(d['key'])} (line "
                    f"{d['first']['line']}, column {d['first']['column']} and line "
                    f"{d['second']['line']}, column {d['second']['column']} inside the string): "
                    f"two parsers would read two different calls (rule {n}).")
        e = step["parse_error"]
        where = f" (line {e['line']}, column {e['column']} inside the string)" if "line" in e else ""
        return (f"The arguments string is not valid JSON: {e['message']}{where}; there is nothing "
                f"to check or run (rule {n}).")
    if code == "unknown_tool":
        avail = step.get("available") or []
        listed = ", ".join(avail[:8]) + (f" and {len(avail) - 8} more" if len(avail) > 8 else "")
        name = item.get("name")
        ns = item.get("namespace")
        shown = f"{ns}.{name}" if isinstance(ns, str) and ns else name
        return (f"No given tool definition is named {_short(shown)}"
                f"{' (the tools are: ' + listed + ')' if listed else ' (no function tools were given)'}"
                f": there is no schema to check the arguments against (rule {n}).")
    if code == "arguments_schema":
        fails = step["fail"]
        first = fails[0] if fails else {"path": "", "reason": "?", "message": ""}
        more = f" (and {len(fails) - 1} more)" if len(fails) > 1 else ""
        who = f"tool {step['tool']}" if step.get("tool") else "the given schema"
        return (f"The arguments do not fit the parameters of {who}: {first['path'] or '/'} fails "
                f"{first['reason']}{': ' + first['message'] if first.get('message') else ''}{more} "
                f"(rule {n}).")
    if code == "replay_mismatch":
        parts = []
        for d in step["differences"]:
            if d["blocking"]:
                if d["field"] == "":
                    parts.append(d["note"])
                else:
                    parts.append(f"{d['field']} {d.get('left', 'missing')} → {d.get('right', 'missing')}")
        return (f"The replay is not the same call as the original: {'; '.join(parts)} "
                f"(rule {n}).")
    return ""  # pragma: no cover


def _ok_reason(item: dict, tool: Tool | None) -> str:
    what = f"run {tool.qualified()}" if tool is not None and tool.name else f"run {item.get('name')}"
    return (f"Every check passed: {what}, then attach a function_call_output with call_id "
            f"{_short(item.get('call_id'))} (rule 10).")


# --------------------------------------------------------------------------- entry points

def gate_value(item_value: Any, tools: Any = None, original: Any = _MISSING, *,
               dialect: str = "auto", item_text: str | None = None,
               limits: Limits = DEFAULT_LIMITS) -> dict:
    """The gate's answer for one **already parsed** item: the same dict as ``POST /api/gate``
    (``verdict``, ``execute``, ``reason``, ``rule``, ``steps``, ``function_call_output`` — and
    for the Agents API dialect ``dialect``, ``report`` and ``tool_result``), for the transcript
    core to call once per call it finds.

    * ``item_value``: the item as parsed by :func:`workbench.jsontext.parse` (exact numbers).
    * ``tools``: ``None`` (no schema step), the parsed value of tool definitions (a parameters
      schema, one definition, a list, a namespace, a request's ``tools``, an Agents session's
      ``agent.tools``), or — to read and compile them once for many calls — the ``Gate`` returned
      by :func:`prepare` (``tools`` then comes from it; ``original`` too unless given).
    * ``original``: the parsed original item (rule 9), or leave it out.
    * ``dialect``: ``"auto"`` (an item with ``turn_id`` is an Agents API action),
      ``"open_responses"`` or ``"agents_api"``.
    * ``item_text``: the item's exact text when known (positions in the steps; else none).

    ``warnings`` holds the arguments string's warnings (big integers, lone surrogates…, the
    same objects Format gives); the item text's own warnings are the caller's (it parsed it).
    Raises WorkbenchError 422 ``schema_invalid`` when ``tools`` is not a usable tool list.
    """
    g = tools if isinstance(tools, Gate) else Gate.from_values(tools, original, limits=limits)
    if isinstance(tools, Gate) and original is not _MISSING:
        g = g.with_original(original)
    result = g.report(item_value, item_text)
    result.setdefault("warnings", [])
    return result


def prepare(tools: Any = None, original: Any = _MISSING, *, limits: Limits = DEFAULT_LIMITS) -> "Gate":
    """Tool definitions (parsed) read and compiled once, for many :func:`gate_value` calls."""
    return Gate.from_values(tools, original, limits=limits)


def gate(item_text: str, schema_text: str | None = None, original_text: str | None = None, *,
         limits: Limits = DEFAULT_LIMITS) -> dict:
    """Gate one item (text).  Raises WorkbenchError 422 when the item, schema or original
    cannot be read (``parse_error`` …) or the schema is not a valid schema."""
    return Gate(schema_text, original_text, limits=limits).run(item_text)


REQUEST = Fields(
    Field("item", required=True, text=True, what="a string holding the item's JSON text"),
    Field("schema", text=True, doc="a parameters schema, one function tool definition, or a list of them"),
    Field("original", text=True, doc="the item as the first provider sent it"),
)


def handle(body: dict, limits) -> dict:
    """``POST /api/gate``: ``item`` (required), ``schema``, ``original``."""
    v = REQUEST.read(body)
    item, schema, original = v["item"], v["schema"], v["original"]
    if not item.strip():
        raise WorkbenchError("parse_error", "The item is empty: paste one Open Responses item "
                             "(a JSON object)", field="item", line=1, column=1, offset=0)
    return gate(item, schema, original, limits=limits)


# --------------------------------------------------------------------------- the page

def page_context(args) -> dict:
    """What the Gate page's template needs beside form/result: the rules, the gallery, and
    for ``/gate?case=NAME`` (works without JavaScript) the case loaded and gated."""
    from .cases import CASES, case_by_name
    ctx: dict = {"rules": RULES, "gallery": CASES, "case": None}
    name = args.get("case") if args is not None else None
    if name:
        case = case_by_name(name)
        if case is not None:
            ctx["case"] = case
            ctx["form"] = {"item": case["item"], "schema": case.get("schema", ""),
                           "original": case.get("original", "")}
    return ctx
