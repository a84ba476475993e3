"""The gallery's Agents API cases (``agents-rules.md``): single pending actions for the gate
(``AGENTS_CASES``, ``kind: "item"``, ``dialect: "agents_api"``) and whole sessions for the
transcript view (``SESSION_CASES``, ``kind: "session"``; see :mod:`.items` for both shapes)."""

from __future__ import annotations

import json


def _j(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


LOOKUP_ORDER = {
    "type": "function", "name": "lookup_order",
    "description": "Look up an order by ID. Confirm before any refund.",
    "parameters": {"type": "object",
                   "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]-\\d{4}$"},
                                  "include_lines": {"type": "boolean"}},
                   "required": ["order_id", "include_lines"], "additionalProperties": False}}
WIDE_LOOKUP = {
    "type": "function", "name": "lookup_order", "description": "Look up an order.",
    "parameters": {"type": "object", "properties": {"order_id": {"type": "string"},
                                                    "include_lines": {"type": "boolean"}},
                   "required": ["order_id"]}}


def _action(arguments, *, turn_id="turn_2", call_id="call_3c91", name="lookup_order") -> dict:
    return {"type": "function_call", "turn_id": turn_id, "call_id": call_id, "name": name,
            "arguments": arguments}


EXAMPLE_ACTION = _action({"order_id": "1042", "include_lines": True, "refund": True})
PASSING_ACTION = _action({"order_id": "A-1042", "include_lines": True})
EXAMPLE_REPORT = {"check": "lookup_order", "schema": "parameters",
                  "pass": ["order_id", "include_lines"],
                  "fail": [{"path": "/order_id", "reason": "pattern"},
                           {"path": "/refund", "reason": "additionalProperties"}],
                  "execute": False}

AGENTS_CASES: list[dict] = [
    {"name": "agents-lookup-order", "title": "Agents API: the host's check refuses two fields",
     "dialect": "agents_api", "verdict": "arguments_schema",
     "fail_paths": [["/order_id", "pattern"], ["/refund", "additionalProperties"]],
     "report": EXAMPLE_REPORT,
     "teaches": "A pending action has no status rule and object arguments; the host validates "
                "them again with the tool's schema (door 2): order_id \"1042\" misses the pattern "
                "and refund is not allowed. It answers with a tool_result, success false, naming "
                "both fields — it never repairs them.",
     "item": _j(EXAMPLE_ACTION), "schema": _j(LOOKUP_ORDER)},
    {"name": "agents-pass", "title": "Agents API: an action that passes", "dialect": "agents_api",
     "verdict": "ok",
     "report": {"check": "lookup_order", "schema": "parameters",
                "pass": ["order_id", "include_lines"], "fail": [], "execute": True},
     "teaches": "Every check passes: run the tool and send a tool_result with the same turn_id "
                "and call_id, success true, and the result as a string.",
     "item": _j(PASSING_ACTION), "schema": _j(LOOKUP_ORDER)},
    {"name": "agents-arguments-string", "title": "Agents API: arguments as a JSON string",
     "dialect": "agents_api", "verdict": "arguments_type",
     "teaches": "In the Agents API arguments is an object; a JSON string is the Open Responses "
                "form. The gate says so and sends success false, it does not parse it for you.",
     "item": _j(_action("{\"order_id\":\"A-1042\",\"include_lines\":true}")),
     "schema": _j(LOOKUP_ORDER)},
    {"name": "agents-wide-tool", "title": "Agents API: a wide tool passes a wrong id (door 1)",
     "dialect": "agents_api", "verdict": "ok",
     "teaches": "The tool's schema is wide open (order_id a bare string, include_lines optional, "
                "extra keys allowed), so door 2 lets \"1042\" through. Door 1's review warns "
                "about each open door; it does not block.",
     "item": _j(_action({"order_id": "1042", "include_lines": True})),
     "schema": _j(WIDE_LOOKUP)},
]


def _session(items, required_actions, events, *, tools=None, status="requires_action") -> str:
    session = {"id": "sess_8f21", "object": "agent.session", "status": status,
               "agent": {"id": "agent_main", "model": "gpt-5",
                         "instructions": "Help with orders. Confirm before any refund.",
                         "tools": tools or [LOOKUP_ORDER]},
               "items": items, "required_actions": required_actions}
    return _j({"session": session, "events": events})


def _result(success=True, *, turn_id="turn_2", call_id="call_3c91", **extra) -> dict:
    out = {"type": "agent.session.input.tool_result", "session_id": "sess_8f21",
           "turn_id": turn_id, "call_id": call_id, "success": success}
    out.update(extra)
    return out


_USER = {"type": "message", "id": "msg_1", "role": "user", "turn_id": "turn_1",
         "content": [{"type": "input_text", "text": "Where is order A-1042?"}]}
_HISTORY = {"type": "function_call", "id": "fc_1", "turn_id": "turn_1", "call_id": "call_1a07",
            "name": "lookup_order", "arguments": {"order_id": "A-0007", "include_lines": False}}
_OUTPUT = "{\"order_id\":\"A-1042\",\"status\":\"paid\"}"

SESSION_CASES: list[dict] = [
    {"name": "agents-session-pass", "kind": "session", "findings": [],
     "title": "Session: a pending action answered once, exactly",
     "teaches": "One pending action, one tool_result with the identical turn_id/call_id pair, "
                "success true and output a string: the chain holds.",
     "text": _session([_USER], [PASSING_ACTION], [_result(True, output=_OUTPUT)])},
    {"name": "agents-session-drifted-pair", "kind": "session",
     "findings": ["result_pair_mismatch"],
     "title": "Session: a result whose call_id drifted by one character",
     "teaches": "call_3c9l answers call_3c91: one character (l for 1) and the harness cannot "
                "match the result, so the turn stalls. The near miss is shown character by "
                "character.",
     "text": _session([_USER], [PASSING_ACTION],
                      [_result(True, call_id="call_3c9l", output=_OUTPUT)])},
    {"name": "agents-session-history-answered", "kind": "session",
     "findings": ["history_call_answered"],
     "title": "Session: a history call answered again",
     "teaches": "Only required_actions are waiting for a result. call_1a07 is in the item history "
                "(it was answered in turn 1); answering it again is a mistake, while the pending "
                "action is answered correctly.",
     "text": _session([_USER, _HISTORY], [PASSING_ACTION],
                      [_result(True, output=_OUTPUT),
                       _result(True, turn_id="turn_1", call_id="call_1a07", output=_OUTPUT)])},
    {"name": "agents-session-subagent-function", "kind": "session",
     "findings": ["subagent_function_call"],
     "title": "Session: a subagent calling a function tool",
     "teaches": "Subagents cannot run function tools: the function call attributed to sub_7a12 "
                "(created by create_subagent_call) is a fault, whatever its arguments.",
     "text": _session(
         [_USER,
          {"type": "create_subagent_call", "id": "csc_1", "agent_id": "agent_main",
           "subagent_id": "sub_7a12", "turn_id": "turn_2",
           "instructions": "Check the shipping status."},
          {"type": "function_call", "id": "fc_2", "turn_id": "turn_2", "agent_id": "sub_7a12",
           "call_id": "call_5d20", "name": "lookup_order",
           "arguments": {"order_id": "A-1042", "include_lines": False}}],
         [], [], status="running")},
]
