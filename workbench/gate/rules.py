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
             "prefix of an object. A missing status is not in_progress: input items "
             "(FunctionCallItemParam) may omit it in the spec, but nothing then proves the call "
             "complete, and the gate requires that proof before executing."},
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
     "text": "The parsed arguments must be an object that fits the tool's parameters schema.",
     "plain": "Each failure is reported at its JSON Pointer in the arguments with the keyword that "
              "failed; nothing is repaired before execution.",
     "full": "Fails when the parsed arguments fail the tool's JSON Schema, e.g. region \"global\" "
             "where the enum allows apac, emea and amer. A failing value is reported, never "
             "silently changed to a valid one; a repair may only be proposed. Passing the schema "
             "means well-formed, not authorised. A function tool's parameters are always an "
             "object schema, so arguments that parse to anything else (null, [1,2], \"hello\", a "
             "double-encoded string) fail this step with reason type, even without a schema."},
    {"number": 9, "code": "replay_mismatch", "check": "diff",
     "text": "Compared with the original item, type, call_id, name and the parsed arguments "
             "must not change.",
     "plain": "The replayed call must be the same call with the same arguments: a new call_id "
              "orphans the output. Provider-minted ids may differ, and arguments are compared as "
              "parsed JSON.",
     "full": "Fails when an original item was given and type, call_id or name differ from it, or "
             "the arguments differ as parsed JSON (exact numbers, key order ignored: \"Lyon\" → "
             "\"Paris\" is a change, whitespace or key order inside the string is not). Put the "
             "original provider's item on the left and the replay on the right; if anything "
             "blocking changed, the next request is not sent. Provider-minted ids may differ. "
             "Without an original this step passes."},
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
BLOCKING_FIELDS = ("type", "call_id", "name", "arguments")


def rule_ref(code: str, dialect: str = OPEN) -> dict:
    r = (AGENTS_RULE if dialect == AGENTS else RULE)[code]
    return {"number": r["number"], "code": code, "check": r["check"], "text": r["text"]}


# number, code, step, texts — the Agents API dialect (agents-rules.md, door 2)
AGENTS_RULES: list[dict] = [
    {"number": 1, "code": "namespaced", "check": "format",
     "text": "The action's type must be a plain string without a colon.",
     "plain": "A pending action is {type: \"function_call\", turn_id, call_id, name, arguments}; "
              "a type with a colon is a provider's own extension, not an action to run."},
    {"number": 2, "code": "not_function_call", "check": "format",
     "text": "Only actions of type function_call are executed.",
     "plain": "A tool_result, a message or an orchestration item (create_subagent_call…) is not a "
              "request to run a function tool."},
    {"number": 3, "code": "missing_fields", "check": "format",
     "text": "turn_id, call_id and name must be non-empty strings.",
     "plain": "The tool_result that answers an action copies its turn_id and call_id character for "
              "character; without them the harness cannot match the answer and the turn stalls."},
    {"number": 4, "code": "arguments_type", "check": "format",
     "text": "arguments must be a JSON object.",
     "plain": "In the Agents API arguments is an object (in Open Responses it is a JSON string); "
              "a string or anything else is the wrong form, and it is never repaired silently."},
    {"number": 5, "code": "unknown_tool", "check": "schema",
     "text": "When tools are given, one must have the action's name.",
     "plain": "Without the tool's definition there is no schema for the host to validate against."},
    {"number": 6, "code": "arguments_schema", "check": "schema",
     "text": "The host validates the arguments again with the tool's parameters schema (door 2).",
     "plain": "The provider's use of the schema improves the filling; it does not take "
              "responsibility for side effects. Every failure is reported at its pointer, the "
              "action is not executed, and the tool_result says which field failed."},
    {"number": 7, "code": "replay_mismatch", "check": "diff",
     "text": "Compared with the original action, type, turn_id, call_id, name and the arguments "
             "must not change.",
     "plain": "The answered action must be the same action: a drifted turn_id or call_id is a "
              "pair the harness cannot match."},
    {"number": 8, "code": "ok", "check": None,
     "text": "Every check passed: run the tool, then send a tool_result with the same pair.",
     "plain": "Only now is the tool run and answered with {type: "
              "\"agent.session.input.tool_result\", turn_id, call_id, success: true, output} — "
              "output a string."},
]
AGENTS_RULE = {r["code"]: r for r in AGENTS_RULES}
AGENTS_STEP_RULES = {"format": [1, 2, 3, 4], "review": [], "schema": [5, 6], "diff": [7]}
AGENTS_STEP_TITLES = {"format": "is this a pending action with its pair and object arguments?",
                      "review": "door 1: are the tool's parameters strict?",
                      "schema": "door 2: do the arguments pass the tool's schema, checked again "
                                "by the host?",
                      "diff": "is it the same action as the original?"}
AGENTS_REQUIRED_FIELDS = ("turn_id", "call_id", "name")
AGENTS_BLOCKING_FIELDS = ("type", "turn_id", "call_id", "name", "arguments")
RESULT_TYPE = "agent.session.input.tool_result"
