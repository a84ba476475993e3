"""The gate's rules: their codes, order, one-line texts and plain explanations.

``RULES`` is the Open Responses rule set of ``replay-rules.md`` (shared docs), in its order:
rules 1–6 form the **format** step, 7–8 the **schema** step, 9 the **diff** step; 10 (``ok``)
is what is left.  ``AGENTS_RULES`` is the Agents API dialect of ``agents-rules.md``: the same
codes where the idea is the same, no status rule (a pending action is complete by being
pending), ``turn_id`` beside ``call_id``, arguments as an object, and door 1 (the strictness
review of the tool) as a step of its own that warns and never blocks.  The one rule engine
(:mod:`.engine`) runs the checks in exactly these orders.
"""

from __future__ import annotations

OPEN, AGENTS = "open_responses", "agents_api"
DIALECTS = ("auto", OPEN, AGENTS)


STEP_RULES = {"format": [1, 2, 3, 4, 5, 6], "schema": [7, 8], "diff": [9]}
AGENTS_STEP_RULES = {"format": [1, 2, 3, 4, 5], "review": [], "schema": [6, 7], "diff": [8]}


def _numbered(step_rules: dict, entries: list[tuple]) -> list[dict]:
    """The rules of one dialect from its ``(code, text, plain[, full])`` entries in order:
    numbered from 1, each with its step (``check``) from ``step_rules`` (``None``: the last,
    ``ok``); ``text`` is the rule in one line, ``plain`` in one or two plain sentences, ``full``
    (the Open Responses rules) in full."""
    step_of = {n: step for step, numbers in step_rules.items() for n in numbers}
    rules = []
    for number, (code, text, plain, *full) in enumerate(entries, 1):
        rule = {"number": number, "code": code, "check": step_of.get(number), "text": text,
                "plain": plain}
        if full:
            rule["full"] = full[0]
        rules.append(rule)
    return rules


# code, the rule in one line, in one or two plain sentences, in full (numbered in this order)
RULES: list[dict] = _numbered(STEP_RULES, [
    ("namespaced",
     "The item's type must be a plain string without a colon.",
     "A type with a colon, like openai:web_search_call, is one provider's own extension, "
     "not a generic tool call; it is never answered with a function_call_output.",
     "Fails when type is missing, is not a string, or contains a colon. The spec requires "
     "provider-specific item types to carry the provider's slug and a colon as a prefix "
     "(acme:search_result); such items belong to that implementation, a trajectory holding "
     "them is not assumed portable, and they are never answered with a "
     "function_call_output."),
    ("not_function_call",
     "Only items of type function_call are executed.",
     "Messages, reasoning, outputs and the other item types are not requests to run a "
     "tool, so there is nothing to execute or answer.",
     "Fails when type is any value other than function_call. Only function calls are "
     "executed by the host and answered with a function_call_output."),
    ("status",
     "status must be exactly completed.",
     "An in_progress or incomplete call may have cut-off arguments; half a JSON object is "
     "never executed, even when it happens to parse.",
     "Fails when status is not exactly completed (in_progress, incomplete, missing, null…). "
     "Items move from in_progress to completed or incomplete; while streaming, arguments "
     "are built from delta fragments, so before completed the string may be a cut-off "
     "prefix of an object. A missing status is not in_progress: input items "
     "(FunctionCallItemParam) may omit it in the spec, but nothing then proves the call "
     "complete, and the gate requires that proof before executing."),
    ("missing_fields",
     "id, name and call_id must be non-empty strings.",
     "A replayable call carries at least type, id, name, call_id, status and arguments; "
     "without call_id no output can be matched to it.",
     "Fails when any of id, name or call_id is missing or is not a non-empty string. The "
     "function_call_output that answers the call is matched to it by call_id."),
    ("arguments_type",
     "arguments must be a string holding JSON.",
     "In Open Responses, arguments is a JSON string, not an object; a stored object means "
     "the item is already in the wrong form and another implementation will reject it.",
     "Fails when arguments is not a string (an object, null, missing…). The stored form is "
     "already wrong: another implementation will reject it, or the next parse fails."),
    ("arguments_parse",
     "The arguments string must be strict JSON with no repeated keys.",
     "Bad JSON leaves nothing to check or run; a repeated key lets two parsers read two "
     "different calls from one string.",
     "Fails when the string is not valid JSON under strict RFC 8259 (no NaN, no trailing "
     "comma, no comments…) or when an object in it repeats a key: with "
     "{\"region\":\"global\",\"region\":\"apac\"} one parser keeps the first value and "
     "another the last."),
    ("unknown_tool",
     "When tool definitions are given, one must have the item's name.",
     "Without a matching definition there is no schema to check against; a name being "
     "allowed does not make its arguments allowed.",
     "Fails when tool definitions were given and none of them has this item's name. There "
     "is then no schema to check the arguments against."),
    ("arguments_schema",
     "The parsed arguments must be an object that fits the tool's parameters schema.",
     "Each failure is reported at its JSON Pointer in the arguments with the keyword that "
     "failed; nothing is repaired before execution.",
     "Fails when the parsed arguments fail the tool's JSON Schema, e.g. region \"global\" "
     "where the enum allows apac, emea and amer. A failing value is reported, never "
     "silently changed to a valid one; a repair may only be proposed. Passing the schema "
     "means well-formed, not authorised. A function tool's parameters are always an "
     "object schema, so arguments that parse to anything else (null, [1,2], \"hello\", a "
     "double-encoded string) fail this step with reason type, even without a schema."),
    ("replay_mismatch",
     "Compared with the original item, type, call_id, name and the parsed arguments "
     "must not change.",
     "The replayed call must be the same call with the same arguments: a new call_id "
     "orphans the output. Provider-minted ids may differ, and arguments are compared as "
     "parsed JSON.",
     "Fails when an original item was given and type, call_id or name differ from it, or "
     "the arguments differ as parsed JSON (exact numbers, key order ignored: \"Lyon\" → "
     "\"Paris\" is a change, whitespace or key order inside the string is not). Put the "
     "original provider's item on the left and the replay on the right; if anything "
     "blocking changed, the next request is not sent. Provider-minted ids may differ. "
     "Without an original this step passes."),
    ("ok",
     "Everything above passed: run the tool, then answer with the same call_id.",
     "Only now is the tool run and a function_call_output with the same call_id "
     "attached.",
     "Every check passed. Run the tool and attach "
     "{\"type\": \"function_call_output\", \"call_id\": <the same call_id>, \"output\": "
     "<string result>}."),
])
RULE = {r["code"]: r for r in RULES}
VERDICTS = [r["code"] for r in RULES]
STEP_TITLES = {"format": "is this a complete, well-formed function call?",
               "schema": "do the arguments fit the tool's parameters?",
               "diff": "is it the same call as the original?"}
REQUIRED_FIELDS = ("id", "name", "call_id")
BLOCKING_FIELDS = ("type", "call_id", "name", "arguments")


def rule_ref(code: str, dialect: str = OPEN) -> dict:
    r = (AGENTS_RULE if dialect == AGENTS else RULE)[code]
    return {"number": r["number"], "code": code, "check": r["check"], "text": r["text"]}


# the Agents API dialect (agents-rules.md, door 2): code, the rule in one line, in plain sentences
AGENTS_RULES: list[dict] = _numbered(AGENTS_STEP_RULES, [
    ("namespaced",
     "The action's type must be a plain string without a colon.",
     "A pending action is {type: \"function_call\", turn_id, call_id, name, arguments}; "
     "a type with a colon is a provider's own extension, not an action to run."),
    ("not_function_call",
     "Only actions of type function_call are executed.",
     "A tool_result, a message or an orchestration item (create_subagent_call…) is not a "
     "request to run a function tool."),
    ("not_pending",
     "An item that carries a status must say completed: a status is not an action.",
     "Only required_actions[] are pending. A function_call still in_progress (or incomplete) "
     "may still be receiving its arguments; it is never executed and no tool_result is "
     "written for it."),
    ("missing_fields",
     "turn_id, call_id and name must be non-empty strings.",
     "The tool_result that answers an action copies its turn_id and call_id character for "
     "character; without them the harness cannot match the answer and the turn stalls."),
    ("arguments_type",
     "arguments must be a JSON object.",
     "In the Agents API arguments is an object (in Open Responses it is a JSON string); "
     "a string or anything else is the wrong form, and it is never repaired silently."),
    ("unknown_tool",
     "When tools are given, one must have the action's name.",
     "Without the tool's definition there is no schema for the host to validate against."),
    ("arguments_schema",
     "The host validates the arguments again with the tool's parameters schema (door 2).",
     "The provider's use of the schema improves the filling; it does not take "
     "responsibility for side effects. Every failure is reported at its pointer, the "
     "action is not executed, and the tool_result says which field failed."),
    ("replay_mismatch",
     "Compared with the original action, type, turn_id, call_id, name and the arguments "
     "must not change.",
     "The answered action must be the same action: a drifted turn_id or call_id is a "
     "pair the harness cannot match."),
    ("ok",
     "Every check passed: run the tool, then send a tool_result with the same pair.",
     "Only now is the tool run and answered with {type: "
     "\"agent.session.input.tool_result\", turn_id, call_id, success: true, output} — "
     "output a string."),
])
AGENTS_RULE = {r["code"]: r for r in AGENTS_RULES}
AGENTS_STEP_TITLES = {"format": "is this a pending action with its pair and object arguments?",
                      "review": "door 1: are the tool's parameters strict?",
                      "schema": "door 2: do the arguments pass the tool's schema, checked again "
                                "by the host?",
                      "diff": "is it the same action as the original?"}
AGENTS_REQUIRED_FIELDS = ("turn_id", "call_id", "name")
AGENTS_BLOCKING_FIELDS = ("type", "turn_id", "call_id", "name", "arguments")
RESULT_TYPE = "agent.session.input.tool_result"


def bad_fields(item: dict, fields: tuple) -> list[str]:
    """The fields of ``fields`` that are missing or not a non-empty string (rule 4 / 3)."""
    get = item.get
    return [f for f in fields if type(get(f)) is not str or not get(f)]


def program_waiting(item: dict) -> bool:
    """A call made by code running on the provider (``caller: {type: "program"}``), still
    ``in_progress`` by design while the program waits for its output (replay-rules.md, "A
    program caller waits by design"): rule 3 lets it pass when its arguments string parses
    completely."""
    return item.get("status") == "in_progress" and program_caller(item) is not None and \
        type(item.get("arguments")) is str


def program_caller(item) -> dict | None:
    """The ``caller`` object of a call code on the provider made (``type: "program"``), or
    None."""
    caller = item.get("caller") if type(item) is dict else None
    return caller if type(caller) is dict and caller.get("type") == "program" else None
