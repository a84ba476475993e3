"""The Gate page's teaching gallery: ready cases, at least one per verdict code, starting from
the worked examples of the replay rules, then the Agents API dialect.

Two kinds of case:

* ``CASES`` — ``kind: "item"``: one item (or pasted value) for ``POST /api/gate``.  Each case
  loads ``item``, ``schema`` (tool definitions) and ``original`` into the panes
  (``/gate?case=NAME`` does it without JavaScript), and ``dialect`` when it is not ``auto``;
  ``verdict`` is what the gate must say, ``fail_paths`` the schema failures it must report,
  and for Agents API actions ``report`` the exact host-validation report (the tests check all).
* ``SESSION_CASES`` — ``kind: "session"``: a whole Agents API session (``text``: a snapshot
  and the events the host sent back, ``{"session": {...}, "events": [...]}``, tools in
  ``agent.tools``) for the transcript view: walked by ``POST /api/transcript`` with
  ``{"text": case["text"]}``.  ``findings`` lists the finding codes of ``agents-rules.md`` the
  walk must report (``[]``: a clean session), ``teaches`` the lesson.
* ``TRANSCRIPT_CASES`` — ``kind: "transcript"``: whole transcripts and streams, one or more per
  group of ``transcript-rules.md`` (see :mod:`.cases_transcript`), walked the same way.

:func:`case_by_name` finds either kind.
"""

from __future__ import annotations

import json


def _j(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


SALES_SCHEMA = _j({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
    "additionalProperties": False, "required": ["region"],
    "properties": {"region": {"type": "string", "enum": ["apac", "emea", "amer"]}}})

SALES_TOOL = {"type": "function", "name": "get_latest_sales_report",
              "description": "Fetches the most recent sales report for the current quarter.",
              "parameters": json.loads(SALES_SCHEMA)}
REFUND_TOOL = {"type": "function", "name": "issue_refund",
               "description": "Refund an order, fully or in part.",
               "parameters": {"type": "object", "additionalProperties": False,
                              "required": ["order_id", "amount"],
                              "properties": {"order_id": {"type": "string", "pattern": "^ord_[0-9]+$"},
                                             "amount": {"type": "number", "exclusiveMinimum": 0},
                                             "reason": {"type": "string", "maxLength": 200}}}}
EMAIL_TOOL = {"type": "function", "name": "send_email", "description": "Sends an email via the CRM.",
              "parameters": {"type": "object", "properties": {"to": {"type": "string"},
                                                              "subject": {"type": "string"},
                                                              "body": {"type": "string"}},
                             "required": ["to", "subject", "body"]}}
WEATHER_CHAT_TOOL = {"type": "function", "function": {
    "name": "get_weather", "strict": True,
    "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                    "unit": {"type": "string",
                                                             "enum": ["celsius", "fahrenheit"]}},
                   "required": ["city", "unit"], "additionalProperties": False}}}


def _call(id_, call_id, args, *, name="get_latest_sales_report", status="completed", **extra):
    item = {"type": "function_call", "id": id_, "name": name, "call_id": call_id,
            "status": status, "arguments": args}
    item.update(extra)
    return item


OK_ITEM = _call("fc_001", "call_123", "{\"region\":\"apac\"}")

CASES: list[dict] = [
    {"name": "ok", "title": "A complete call that fits its schema", "verdict": "ok",
     "teaches": "Worked example 1: every check passes, so the tool runs and a function_call_output "
                "with the same call_id is attached.",
     "item": _j(OK_ITEM), "schema": SALES_SCHEMA},
    {"name": "schema-enum", "title": "A value outside the enum", "verdict": "arguments_schema",
     "fail_paths": [["/region", "enum"]],
     "teaches": "Worked example 2: region \"global\" is not one of apac, emea, amer. The value is "
                "reported at /region, never repaired to a valid one.",
     "item": _j(_call("fc_009", "call_129", "{\"region\":\"global\"}")), "schema": SALES_SCHEMA},
    {"name": "arguments-object", "title": "arguments stored as an object", "verdict": "arguments_type",
     "teaches": "Worked example 3: arguments must be a JSON string; an object means the item is "
                "already in the wrong form.",
     "item": _j(_call("fc_001", "call_123", {"region": "apac"})), "schema": SALES_SCHEMA},
    {"name": "incomplete", "title": "A call cut off while streaming", "verdict": "status",
     "teaches": "Worked example 4: status incomplete and arguments stop mid-string; half a JSON "
                "object is never executed.",
     "item": _j(_call("fc_001", "call_123", "{\"region\":\"ap", status="incomplete")),
     "schema": SALES_SCHEMA},
    {"name": "namespaced", "title": "A provider's own item type", "verdict": "namespaced",
     "teaches": "Worked example 5: openai:web_search_call carries a provider prefix; it is not a "
                "generic tool call and is never answered.",
     "item": _j({"type": "openai:web_search_call", "id": "ws_001", "status": "completed",
                 "action": {"type": "search", "query": "apac sales report"}})},
    {"name": "output-item", "title": "An output, not a call", "verdict": "not_function_call",
     "teaches": "Worked example 6: a function_call_output is the host's answer; only "
                "function_call items are executed.",
     "item": _j({"type": "function_call_output", "call_id": "call_123",
                 "output": "sales report for apac"})},
    {"name": "in-progress-parses", "title": "In progress, even though it parses", "verdict": "status",
     "teaches": "The arguments happen to be valid JSON, but status is in_progress: the string may "
                "still grow, so it is not executed.",
     "item": _j(_call("fc_002", "call_124", "{\"region\":\"emea\"}", status="in_progress")),
     "schema": SALES_SCHEMA},
    {"name": "no-call-id", "title": "No call_id to answer", "verdict": "missing_fields",
     "teaches": "Without call_id no function_call_output can be matched to the call (the id is "
                "the provider's item id, call_id links call and output).",
     "item": _j({"type": "function_call", "id": "fc_003", "name": "get_latest_sales_report",
                 "status": "completed", "arguments": "{\"region\":\"amer\"}"}),
     "schema": SALES_SCHEMA},
    {"name": "duplicate-key", "title": "One string, two calls", "verdict": "arguments_parse",
     "teaches": "The arguments repeat region: one parser reads global, another apac. A repeated "
                "key blocks, with both positions shown.",
     "item": _j(_call("fc_004", "call_125", "{\"region\":\"global\",\"region\":\"apac\"}")),
     "schema": SALES_SCHEMA},
    {"name": "trailing-comma", "title": "Arguments that are not strict JSON", "verdict": "arguments_parse",
     "teaches": "A trailing comma is not JSON (nor are NaN or comments); the error is located "
                "inside the arguments string.",
     "item": _j(_call("fc_005", "call_126", "{\n  \"region\": \"apac\",\n}")),
     "schema": SALES_SCHEMA},
    {"name": "unknown-tool", "title": "A name no tool has", "verdict": "unknown_tool",
     "teaches": "With a list of tool definitions the tool is chosen by name; delete_sales_report "
                "is not among them, so there is no schema to check against.",
     "item": _j(_call("fc_006", "call_127", "{\"region\":\"apac\"}", name="delete_sales_report")),
     "schema": _j([SALES_TOOL, EMAIL_TOOL])},
    {"name": "refund-extra-missing", "title": "An extra key and a missing one",
     "verdict": "arguments_schema",
     "fail_paths": [["/order_id", "required"], ["/refund", "additionalProperties"]],
     "teaches": "A missing required key is reported where it should be (/order_id), an extra key "
                "at its own pointer (/refund).",
     "item": _j(_call("fc_007", "call_128", "{\"amount\": 25.00, \"refund\": true}",
                      name="issue_refund")),
     "schema": _j([SALES_TOOL, REFUND_TOOL])},
    {"name": "chat-tool", "title": "A Chat Completions tool definition", "verdict": "ok",
     "teaches": "A tool defined Chat Completions style ({type, function: {name, parameters}}) "
                "checks the same Open Responses item.",
     "item": _j(_call("fc_010", "call_w1", "{\"city\":\"Zürich\",\"unit\":\"celsius\"}",
                      name="get_weather")),
     "schema": _j(WEATHER_CHAT_TOOL)},
    {"name": "replay-new-call-id", "title": "A replay with a new call_id", "verdict": "replay_mismatch",
     "teaches": "Compared with the original, call_id changed: the output would be orphaned. The "
                "different provider id alone would not block.",
     "item": _j(_call("fc_900", "call_999", "{\"region\":\"apac\"}")),
     "schema": SALES_SCHEMA, "original": _j(OK_ITEM)},
    {"name": "replay-same-call", "title": "Same call, new id, other whitespace", "verdict": "ok",
     "teaches": "Provider-minted ids may differ, and arguments are compared as parsed JSON, so "
                "whitespace inside the string is not a change.",
     "item": _j(_call("fc_777", "call_123", "{ \"region\" : \"apac\" }")),
     "schema": SALES_SCHEMA, "original": _j(OK_ITEM)},
    {"name": "whole-response", "title": "A whole response pasted", "verdict": "namespaced",
     "teaches": "A response is not an item (it has no type), so rule 1 decides; the gate lists "
                "the function calls inside so you can walk one.",
     "item": _j({"id": "resp_001", "object": "response", "status": "completed",
                 "output": [{"type": "message", "id": "msg_001", "status": "completed",
                             "role": "assistant",
                             "content": [{"type": "output_text", "text": "Fetching the report."}]},
                            OK_ITEM,
                            _call("fc_009", "call_129", "{\"region\":\"global\"}")]}),
     "schema": SALES_SCHEMA},
    {"name": "chat-completion", "title": "A Chat Completions payload", "verdict": "namespaced",
     "teaches": "Chat Completions calls live in choices[].message.tool_calls[]; the gate shows the "
                "equivalent Open Responses item beside each, for comparison only.",
     "item": _j({"id": "chatcmpl-001", "object": "chat.completion", "model": "gpt-4o",
                 "choices": [{"index": 0, "finish_reason": "tool_calls",
                              "message": {"role": "assistant", "content": None, "tool_calls": [
                                  {"id": "call_abc123", "type": "function",
                                   "function": {"name": "get_weather",
                                                "arguments": "{\"city\":\"Boston\",\"unit\":\"celsius\"}"}}]}}]}),
     "schema": _j(WEATHER_CHAT_TOOL)},
]


NAMESPACE_TOOL = {"type": "namespace", "name": "multi_agent_v1", "description": "agents",
                  "tools": [{"type": "function", "name": "spawn_agent", "description": "spawn",
                             "parameters": {"type": "object",
                                            "properties": {"message": {"type": "string"}}}}]}

# the refinements of replay-rules.md ("Refinements")
CASES.extend([
    {"name": "arguments-not-object", "title": "Arguments that parse, but not to an object",
     "verdict": "arguments_schema", "fail_paths": [["", "type"]],
     "teaches": "A function tool's parameters are always an object schema: [1, 2] (or null, or a "
                "double-encoded string) fails step 8 with reason type, even with no schema given.",
     "item": _j(_call("fc_011", "call_130", "[1, 2]"))},
    {"name": "replay-changed-arguments", "title": "A replay with other arguments",
     "verdict": "replay_mismatch",
     "teaches": "The same call carries the same arguments: compared as parsed JSON, apac → emea "
                "is a change (whitespace or key order would not be).",
     "item": _j(_call("fc_778", "call_123", "{\"region\":\"emea\"}")),
     "schema": SALES_SCHEMA, "original": _j(OK_ITEM)},
    {"name": "missing-status", "title": "An input item without status", "verdict": "status",
     "teaches": "Input items (FunctionCallItemParam) may omit status in the spec, but then nothing "
                "shows the call is complete: the gate says status is missing, not in_progress.",
     "item": _j({k: v for k, v in OK_ITEM.items() if k != "status"}), "schema": SALES_SCHEMA},
    {"name": "namespace-joined-name", "title": "A namespaced tool called by a joined name",
     "verdict": "unknown_tool",
     "teaches": "spawn_agent lives in namespace multi_agent_v1: a call carries name spawn_agent and "
                "namespace multi_agent_v1 as two fields. The message lists the tool as it is "
                "called, never as a name it would then refuse.",
     "item": _j(_call("fc_012", "call_131", "{\"message\":\"hi\"}",
                      name="multi_agent_v1.spawn_agent")),
     "schema": _j(NAMESPACE_TOOL)},
    {"name": "namespace-call", "title": "A call to a tool in a namespace", "verdict": "ok",
     "teaches": "name and namespace as two fields: the gate picks spawn_agent in multi_agent_v1.",
     "item": _j(_call("fc_013", "call_132", "{\"message\":\"hi\"}", name="spawn_agent",
                      namespace="multi_agent_v1")),
     "schema": _j(NAMESPACE_TOOL)},
])

from .cases_agents import AGENTS_CASES, SESSION_CASES  # noqa: E402
from .cases_transcript import TRANSCRIPT_CASES  # noqa: E402

CASES.extend(AGENTS_CASES)
for _case in CASES:
    _case.setdefault("kind", "item")


def case_by_name(name: str) -> dict | None:
    for case in CASES + SESSION_CASES + TRANSCRIPT_CASES:
        if case["name"] == name:
            return case
    return None
