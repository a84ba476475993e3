"""The gallery's item cases: at least one per verdict code, starting from the worked examples
of the replay rules, then the Agents API dialect (the whole gallery: :mod:`workbench.gallery`).

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
  group of ``transcript-rules.md`` (see :mod:`.transcripts`), walked the same way.

:func:`workbench.gallery.by_name` finds any kind.
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


def _case(name, title, verdict, teaches, item, schema=None, *, fail_paths=None, original=None):
    """One item case, its keys in the gallery's order; ``item`` and ``original`` are values,
    written as the panes show them, ``schema`` the text of the tool definitions."""
    case = {"name": name, "title": title, "verdict": verdict}
    if fail_paths is not None:
        case["fail_paths"] = fail_paths
    case["teaches"] = teaches
    case["item"] = _j(item)
    if schema is not None:
        case["schema"] = schema
    if original is not None:
        case["original"] = _j(original)
    return case


OK_ITEM = _call("fc_001", "call_123", "{\"region\":\"apac\"}")


def _replay(name, title, verdict, teaches, item):
    """A case that replays ``OK_ITEM`` (the original) as ``item``, under the sales schema."""
    return _case(name, title, verdict, teaches, item, SALES_SCHEMA, original=OK_ITEM)


CASES: list[dict] = [
    _case("ok", "A complete call that fits its schema", "ok",
          "Worked example 1: every check passes, so the tool runs and a function_call_output "
          "with the same call_id is attached.",
          OK_ITEM, SALES_SCHEMA),
    _case("schema-enum", "A value outside the enum", "arguments_schema",
          "Worked example 2: region \"global\" is not one of apac, emea, amer. The value is "
          "reported at /region, never repaired to a valid one.",
          _call("fc_009", "call_129", "{\"region\":\"global\"}"),
          SALES_SCHEMA, fail_paths=[["/region", "enum"]]),
    _case("arguments-object", "arguments stored as an object", "arguments_type",
          "Worked example 3: arguments must be a JSON string; an object means the item is "
          "already in the wrong form.",
          _call("fc_001", "call_123", {"region": "apac"}), SALES_SCHEMA),
    _case("incomplete", "A call cut off while streaming", "status",
          "Worked example 4: status incomplete and arguments stop mid-string; half a JSON "
          "object is never executed.",
          _call("fc_001", "call_123", "{\"region\":\"ap", status="incomplete"), SALES_SCHEMA),
    _case("namespaced", "A provider's own item type", "namespaced",
          "Worked example 5: openai:web_search_call carries a provider prefix; it is not a "
          "generic tool call and is never answered.",
          {"type": "openai:web_search_call", "id": "ws_001", "status": "completed",
           "action": {"type": "search", "query": "apac sales report"}}),
    _case("output-item", "An output, not a call", "not_function_call",
          "Worked example 6: a function_call_output is the host's answer; only "
          "function_call items are executed.",
          {"type": "function_call_output", "call_id": "call_123",
           "output": "sales report for apac"}),
    _case("in-progress-parses", "In progress, even though it parses", "status",
          "The arguments happen to be valid JSON, but status is in_progress: the string may "
          "still grow, so it is not executed.",
          _call("fc_002", "call_124", "{\"region\":\"emea\"}", status="in_progress"),
          SALES_SCHEMA),
    _case("no-call-id", "No call_id to answer", "missing_fields",
          "Without call_id no function_call_output can be matched to the call (the id is "
          "the provider's item id, call_id links call and output).",
          {"type": "function_call", "id": "fc_003", "name": "get_latest_sales_report",
           "status": "completed", "arguments": "{\"region\":\"amer\"}"}, SALES_SCHEMA),
    _case("duplicate-key", "One string, two calls", "arguments_parse",
          "The arguments repeat region: one parser reads global, another apac. A repeated "
          "key blocks, with both positions shown.",
          _call("fc_004", "call_125", "{\"region\":\"global\",\"region\":\"apac\"}"),
          SALES_SCHEMA),
    _case("trailing-comma", "Arguments that are not strict JSON", "arguments_parse",
          "A trailing comma is not JSON (nor are NaN or comments); the error is located "
          "inside the arguments string.",
          _call("fc_005", "call_126", "{\n  \"region\": \"apac\",\n}"), SALES_SCHEMA),
    _case("unknown-tool", "A name no tool has", "unknown_tool",
          "With a list of tool definitions the tool is chosen by name; delete_sales_report "
          "is not among them, so there is no schema to check against.",
          _call("fc_006", "call_127", "{\"region\":\"apac\"}", name="delete_sales_report"),
          _j([SALES_TOOL, EMAIL_TOOL])),
    _case("refund-extra-missing", "An extra key and a missing one", "arguments_schema",
          "A missing required key is reported where it should be (/order_id), an extra key "
          "at its own pointer (/refund).",
          _call("fc_007", "call_128", "{\"amount\": 25.00, \"refund\": true}",
                name="issue_refund"),
          _j([SALES_TOOL, REFUND_TOOL]),
          fail_paths=[["/order_id", "required"], ["/refund", "additionalProperties"]]),
    _case("chat-tool", "A Chat Completions tool definition", "ok",
          "A tool defined Chat Completions style ({type, function: {name, parameters}}) "
          "checks the same Open Responses item.",
          _call("fc_010", "call_w1", "{\"city\":\"Zürich\",\"unit\":\"celsius\"}",
                name="get_weather"), _j(WEATHER_CHAT_TOOL)),
    _replay("replay-new-call-id", "A replay with a new call_id", "replay_mismatch",
           "Compared with the original, call_id changed: the output would be orphaned. The "
           "different provider id alone would not block.",
           _call("fc_900", "call_999", "{\"region\":\"apac\"}")),
    _replay("replay-same-call", "Same call, new id, other whitespace", "ok",
           "Provider-minted ids may differ, and arguments are compared as parsed JSON, so "
           "whitespace inside the string is not a change.",
           _call("fc_777", "call_123", "{ \"region\" : \"apac\" }")),
    _case("whole-response", "A whole response pasted", "namespaced",
          "A response is not an item (it has no type), so rule 1 decides; the gate lists "
          "the function calls inside so you can walk one.",
          {"id": "resp_001", "object": "response", "status": "completed",
           "output": [{"type": "message", "id": "msg_001", "status": "completed",
                       "role": "assistant",
                       "content": [{"type": "output_text", "text": "Fetching the report."}]},
                      OK_ITEM,
                      _call("fc_009", "call_129", "{\"region\":\"global\"}")]}, SALES_SCHEMA),
    _case("chat-completion", "A Chat Completions payload", "namespaced",
          "Chat Completions calls live in choices[].message.tool_calls[]; the gate shows the "
          "equivalent Open Responses item beside each, for comparison only.",
          {"id": "chatcmpl-001", "object": "chat.completion", "model": "gpt-4o",
           "choices": [{"index": 0, "finish_reason": "tool_calls",
                        "message": {"role": "assistant", "content": None, "tool_calls": [
                            {"id": "call_abc123", "type": "function",
                             "function": {"name": "get_weather",
                                          "arguments": "{\"city\":\"Boston\",\"unit\":\"celsius\"}"}}]}}]},
          _j(WEATHER_CHAT_TOOL)),
]


NAMESPACE_TOOL = {"type": "namespace", "name": "multi_agent_v1", "description": "agents",
                  "tools": [{"type": "function", "name": "spawn_agent", "description": "spawn",
                             "parameters": {"type": "object",
                                            "properties": {"message": {"type": "string"}}}}]}

# the refinements of replay-rules.md ("Refinements")
CASES.extend([
    _case("arguments-not-object", "Arguments that parse, but not to an object", "arguments_schema",
          "A function tool's parameters are always an object schema: [1, 2] (or null, or a "
          "double-encoded string) fails step 8 with reason type, even with no schema given.",
          _call("fc_011", "call_130", "[1, 2]"), fail_paths=[["", "type"]]),
    _replay("replay-changed-arguments", "A replay with other arguments", "replay_mismatch",
           "The same call carries the same arguments: compared as parsed JSON, apac → emea "
           "is a change (whitespace or key order would not be).",
           _call("fc_778", "call_123", "{\"region\":\"emea\"}")),
    _case("missing-status", "An input item without status", "status",
          "Input items (FunctionCallItemParam) may omit status in the spec, but then nothing "
          "shows the call is complete: the gate says status is missing, not in_progress.",
          {k: v for k, v in OK_ITEM.items() if k != "status"}, SALES_SCHEMA),
    _case("namespace-joined-name", "A namespaced tool called by a joined name", "unknown_tool",
          "spawn_agent lives in namespace multi_agent_v1: a call carries name spawn_agent and "
          "namespace multi_agent_v1 as two fields. The message lists the tool as it is "
          "called, never as a name it would then refuse.",
          _call("fc_012", "call_131", "{\"message\":\"hi\"}",
                name="multi_agent_v1.spawn_agent"), _j(NAMESPACE_TOOL)),
    _case("namespace-call", "A call to a tool in a namespace", "ok",
          "name and namespace as two fields: the gate picks spawn_agent in multi_agent_v1.",
          _call("fc_013", "call_132", "{\"message\":\"hi\"}", name="spawn_agent",
                namespace="multi_agent_v1"), _j(NAMESPACE_TOOL)),
])

from .agents import AGENTS_CASES  # noqa: E402

CASES.extend(AGENTS_CASES)
for _item_case in CASES:
    _item_case.setdefault("kind", "item")
