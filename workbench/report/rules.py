"""The help text of every finding code a report can name, for SARIF's rules.

* transcript findings: :data:`HELP`, the rules pages' tables (``transcript-rules.md``,
  ``agents-rules.md``, ``providers-rules.md``: code | severity | meaning), generated from them
  and checked against them by tests/unit/test_cli_report.py (``WORKBENCH_WRITE_HELP=1`` there
  rewrites the table below); :data:`NAMED` for the codes the pages name in prose;
* gate verdicts: the rule texts themselves (:mod:`workbench.gate.rules`);
* validate: the keyword that failed, or the warning's code.
"""

from __future__ import annotations

HELP = {
    'orphan_output': ('transcript-rules.md',
     'an output (`function_call_output`, a Chat `role: "tool"` message, an Agents `tool_result`) whose `call_id` matches no call before it'),
    'output_keyed_by_item_id': ('transcript-rules.md',
     "an output's `call_id` equals a call's item `id` instead of its `call_id`"),
    'near_miss_id': ('transcript-rules.md',
     "an output's `call_id` matches no call but is within two edits of one (name both, show the differing characters)"),
    'duplicate_call_id': ('transcript-rules.md',
     'two calls in one transcript share a `call_id` (a provider reusing `call_0` across turns is the classic case)'),
    'duplicate_output': ('transcript-rules.md',
     'two outputs answer one call'),
    'unanswered_call': ('transcript-rules.md',
     'a completed call with no output although the transcript continues after it (a call in the last turn, still to be answered, is `pending_call`, info)'),
    'output_before_call': ('transcript-rules.md',
     'an output placed before its call'),
    'empty_call_id': ('transcript-rules.md',
     'a call or output whose `call_id` is `""`'),
    'incomplete_not_last': ('transcript-rules.md',
     'an `incomplete` item followed by another item'),
    'incomplete_response_mismatch': ('transcript-rules.md',
     'an item is `incomplete` but the response is not `incomplete`'),
    'completed_response_open_items': ('transcript-rules.md',
     'the response is `completed` but an item is still `in_progress`'),
    'incomplete_response_all_completed': ('transcript-rules.md',
     'the response is `incomplete` yet every item says `completed` (the cut-off item lost its status)'),
    'portable_core': ('transcript-rules.md',
     'items outside `message` / `function_call` / `function_call_output` (`reasoning`, built-in tools)'),
    'namespaced_item': ('transcript-rules.md',
     'a provider-prefixed item type (`openai:web_search_call`): not portable to another server'),
    'mixed_envelopes': ('transcript-rules.md',
     'Chat Completions shapes (`tool_calls`, `role: "tool"`) inside an Open Responses item list, or the reverse'),
    'duplicate_replay': ('transcript-rules.md',
     'the same call (same `call_id`) appears twice in the input, or an input repeats a call that `previous_response_id` already holds'),
    'stream_bad_line': ('transcript-rules.md',
     'a line that is neither an SSE field nor parseable JSON (cut-off lines, junk between events)'),
    'stream_no_terminal': ('transcript-rules.md',
     'the stream ends without a terminal event'),
    'stream_after_terminal': ('transcript-rules.md',
     'events after the terminal event (other than `[DONE]`)'),
    'stream_order': ('transcript-rules.md',
     'an event out of the order above (a delta before its item was added, a done before its deltas…)'),
    'stream_sequence': ('transcript-rules.md',
     '`sequence_number` not strictly increasing by one'),
    'stream_item_id_changed': ('transcript-rules.md',
     'the `item_id` / `output_index` of one item changes between its events'),
    'stream_arguments_mismatch': ('transcript-rules.md',
     "the concatenated argument deltas differ from the `done` arguments or the item's final `arguments`"),
    'stream_error_not_failed': ('transcript-rules.md',
     'an `error` event not followed by `response.failed`'),
    'chat_stream_name_split': ('transcript-rules.md',
     'a Chat tool call name that arrives in several deltas (a naive `+=` doubles it: `llm_versionllm_version`)'),
    'action_unanswered': ('agents-rules.md',
     'a pending action (in `required_actions`) with no `tool_result` among the events given (when events are given)'),
    'result_without_action': ('agents-rules.md',
     'a `tool_result` whose pair matches no pending action and no history call'),
    'result_pair_mismatch': ('agents-rules.md',
     "a `tool_result` whose `call_id` or `turn_id` differs from the pending action's — name both, show the differing characters"),
    'history_call_answered': ('agents-rules.md',
     'a `tool_result` for a history `function_call` that is not pending'),
    'result_output_not_string': ('agents-rules.md',
     '`success: true` with an `output` that is not a string'),
    'result_failure_without_error': ('agents-rules.md',
     '`success: false` with no non-empty `error`'),
    'result_executed_after_failed_check': ('agents-rules.md',
     "`success: true` answering an action whose arguments fail the tool's schema"),
    'handoff_type': ('agents-rules.md',
     'an item of type `handoff` (not an Agents API type)'),
    'subagent_function_call': ('agents-rules.md',
     'a function call attributed to a subagent (`agent_id`/`from` naming a subagent)'),
    'tool_not_strict': ('agents-rules.md',
     'door 1: a tool whose `required` omits a property, an object without `additionalProperties: false`, an identifier-like string with neither `pattern` nor `enum`'),
    'result_not_next': ('providers-rules.md',
     'the answer exists but not in the message right after the call (Anthropic: no message may sit between them; Gemini: the function response turn must come right after the call turn)'),
    'result_not_first': ('providers-rules.md',
     'Anthropic: text or other blocks before the `tool_result` blocks in that `user` message (tool results come first)'),
    'response_count_mismatch': ('providers-rules.md',
     'Gemini: the number of `functionResponse` parts differs from the number of `functionCall` parts in the call turn'),
    'call_cut_off': ('providers-rules.md',
     'a `tool_use` in a message stopped by `max_tokens` (or a stream that ends inside its `input_json_delta`), a Gemini call with `finishReason: MAX_TOKENS` or `MALFORMED_FUNCTION_CALL`'),
    'result_is_error': ('providers-rules.md',
     '`is_error: true`: the host reported a failure to the model (not a fault; shown so a reader sees it)'),
    'reasoning_dropped': ('providers-rules.md',
     "a call replayed without the reasoning that came with it: an OpenAI `function_call` whose turn lost its `reasoning` item while other turns keep theirs (the API refuses a `reasoning` item without its following item, and a call without its required reasoning item); Anthropic `thinking` blocks dropped from the assistant turn that holds the `tool_use` being answered; a Gemini call part whose `thoughtSignature` was dropped (required for the current turn's calls on Gemini 3)"),
}

NAMED = {
    "unrecognised_shape": ("transcript-rules.md",
                           "a paste that matches no kind: what was seen (the top-level type and keys) "
                           "and which kinds are read (warning)"),
    "output_for_stored_call": ("transcript-rules.md",
                               "an output whose call lives in the stored response or conversation the "
                               "request names (previous_response_id, conversation), not in the paste (info)"),
    "history_incomplete_executed": ("transcript-rules.md",
                                    "a history call answered while incomplete: its arguments may have been "
                                    "cut, yet it was executed (error; in_progress: warning)"),
    "hosted_pair_split": ("transcript-rules.md",
                          "a replay that keeps one item of a provider's pair (tool_search_call / "
                          "tool_search_output, mcp_approval_request / response) and drops the other (warning)"),
    "client_incompatible": ("transcript-rules.md",
                            "a valid stream an official client library would fail on (Chat deltas without "
                            "index, a first tool call at index 1, name and id repeated in every delta) (warning)"),
    "concatenated_responses": ("transcript-rules.md",
                               "several responses concatenated in one stream, read as several (info)"),
    "output_only_field": ("transcript-rules.md",
                          "an input item carrying a property only its output schema has (created_by …): "
                          "providers refuse unknown parameters (warning)"),
    "result_success_not_boolean": ("agents-rules.md",
                                   "a tool_result whose success is missing or not a boolean: the host "
                                   "decides nothing from \"true\" (error)"),
    "invented_call_id": ("providers-rules.md",
                         "an id the instrumentation made up where the provider gave the call none: "
                         "pairing by it proves nothing about the provider's own pairing (info)"),
    "bom": ("transcript-rules.md",
            "a byte-order mark (U+FEFF) before the text, dropped before anything else (info)"),
    "pending_call": ("transcript-rules.md",
                     "a call in the last turn, still to be answered (info: not an unanswered_call)"),
    "spec_schema": ("transcript-rules.md",
                    "an item or event that fails its schema in the Open Responses OpenAPI "
                    "document (the schema name, the pointer and the reason are in the message)"),
}

GATE_LINES = {
    "not_json": "a line of the log that is not one JSON value (or not UTF-8)",
    "unchecked": "an item the gate could not finish (a schema pattern over its time limit…)",
}


INPUT = {  # an input that could not be checked at all (exit status 2)
    "parse_error": "the input is not JSON (or not UTF-8): nothing in it could be checked",
    "too_deep": "the input nests deeper than the max_depth limit: nothing in it could be checked",
    "file_not_found": "the file named does not exist",
    "file_unreadable": "the file cannot be read (a folder, no permission, an I/O error)",
    "too_large": "the file is larger than the max_body limit and was not read",
    "line_too_long": "a line of the log is longer than the max_line limit; the reading stopped",
    "worker_lost": "a worker process stopped (killed, or out of memory); the run was cut short",
}


def help_text(tool: str, code: str) -> tuple[str, str]:
    """``(short, full)`` help for ``code`` as ``tool`` (gate, transcript, validate) reports it."""
    if tool == "gate":
        from ..gate.rules import AGENTS_RULE, RULE
        rule = RULE.get(code) or AGENTS_RULE.get(code)
        if rule is not None:
            return rule["text"], f"{rule['plain']} (replay-rules.md, rule {rule['number']})"
        if code in GATE_LINES:
            return GATE_LINES[code], GATE_LINES[code]
    if code in INPUT:
        return INPUT[code], INPUT[code]
    if tool == "validate":
        return (f"JSON Schema keyword {code}",
                f"the document fails the schema's '{code}' keyword (or, for a warning code, "
                "the document itself: duplicate keys, lone surrogates, unsafe numbers)")
    page, text = HELP.get(code) or NAMED.get(code) or ("", code)
    return text, f"{text} ({page})" if page else text
