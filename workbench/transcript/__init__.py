"""Transcripts, streams and sessions: the checks *between* items (``transcript-rules.md``,
``agents-rules.md``), behind ``POST /api/transcript`` and ``workbench transcript``.

No Flask here.  :func:`handle` answers the endpoint; :func:`analyse` is the same work for the
command line and tests.

Request (``REQUEST``, :mod:`workbench.fields`): ``text`` (required: anything of the kinds
below, exactly as typed) and ``tools`` (optional: tool definitions, read like the gate's
``schema``; for an Agents session ``agent.tools`` inside the text is used when ``tools`` is
not given).

Response (200) — the fields of ``api.md`` first, then the extra ones this core adds::

    {
      "kind": "response" | "item_list" | "response_stream" | "chat_completion"
              | "chat_messages" | "chat_stream" | "chat_tool_calls" | "agents_session" | "item"
              | "unknown",          # unknown: a shape no kind reads (finding unrecognised_shape)
      "calls": [                       # the function calls found, in text order: the first
                                       # TRANSCRIPT_MAX_CALLS (1,000; truncated.calls and
                                       # summary.calls count all)
        {"pointer": "/output/2",       # RFC 6901, see "Places" below
         "line": 14, "column": 5,      # 1-based, in the pasted text
         "dialect": "open_responses" | "chat_completions" | "agents_api",
         "name": "get_weather", "call_id": "call_1", "turn_id": "turn_2",  # turn_id: agents only
         "verdict": "ok" | <a gate verdict of replay-rules.md>,
         "execute": true,              # the gate's execute (false for a history call: run)
         "rules": "open_responses" | "agents_api",   # the gate's rule table of the verdict
         "role": "pending" | "history",   # history: answered later in the text (already run;
                                       # a missing status is then "completed", see "walk")
         "walk": {...},                # when the gate walks another item than the one written
                                       # (a Chat tool call: its Open Responses item; a history
                                       # call without status): the item "walk this call" walks
         "reason": "...",              # the gate's one sentence
         "id": "fc_1",                 # the item id when there is one
         "json": "{...}",              # the call's exact text (absent for rebuilt stream items)
         "item": 0,                    # streams: the index into ``items`` of the rebuilt call
         "event": 7,                   # streams / JSON Lines / event arrays: the piece's index
         "note": "...",                # e.g. status missing: the spec's rule vs the gate's
         "pending": true,              # agents only: in required_actions (false: history call)
         "report": {...},              # agents pending actions: the gate's door-2 report
         "tool_result": {...},         # agents pending actions: the event the gate proposes
         "reason": "...",              # agents pending actions: the gate's sentence
         "answered_by": [3],           # agents pending actions: indices into ``results``
         "caller_id": "call_O2…",      # a call a program made (caller: {type: "program"})
         "caller": {"caller_id": "call_O2…", "type": "program",   # its link to the calling
                    "pointer": "/output/1", "line": 27, "column": 5},  # item (event: streams);
                                       # or {"caller_id", "missing": "why it is not drawn"}
         "waits_for": "approval" | "nested_run"}   # run states: the SDK runs it on resume
      ],
      "findings": [
        {"code": "orphan_output",      # the words of the tables of the two rule pages
         "severity": "error" | "warning" | "info",
         "message": "a sentence a person can act on",
         "pointer": "/input/4/call_id", "line": 31, "column": 18,
         "related": [                  # optional: the other places the finding is about
           {"role": "call" | "output" | "first" | "second" | "action" | "result" | "done"
                    | "added" | "item" | "response" | "error" | "terminal",
            "pointer": "/input/1", "line": 9, "column": 5,
            "call_id": "call_3c91",    # when the place has one
            "turn_id": "turn_2",
            "diff": [{"at": 7, "left": "1", "right": "l"}]}],   # near misses only, see below
         # optional extras by code:
         "schema": "FunctionCall", "keyword": "required", "rule": "spec" | "gate",
         "event": 12,                  # streams / JSON Lines / event arrays: the piece's index
         "text": "...",                # stream_bad_line: the line (cut to 200 characters)
         "type": "reasoning", "count": 2,       # portable_core: one finding per item type
         "at": 17,                     # stream_arguments_mismatch: first differing character
         "review": "open_object",      # tool_not_strict: the strictness review's code
         "field": "tools", "tools_pointer": "/0/parameters"}  # a place in the tools field
      ],
      "items": [...],     # streams: the rebuilt final items (Responses items; for a Chat stream
                          # one assistant message per choice with content and tool_calls);
                          # other kinds: [] (the items are in the pasted text itself)
      "chain": null | {"session_id": "sess_8f21",
                       "links": [{"object": "agent", "id": "agent_main"},
                                 {"object": "turn", "id": "turn_2"},
                                 {"object": "function_call", "call_id": "call_3c91",
                                  "turn_id": "turn_2", "name": "lookup_order", "pending": true},
                                 {"object": "tool_result", "call_id": "call_3c91",
                                  "turn_id": "turn_2", "success": false},
                                 {"object": "subagent", "id": "sub_7a12",
                                  "via": "create_subagent_call", "agent_id": "agent_main"}]},
                          # each link may also carry pointer/line/column, "broken": true and
                          # "findings": [indices into findings] (a drifted pair, an unanswered
                          # action, a result that answers nothing); orchestration items appear
                          # as {"object": "send_subagent_input_call" | "wait_for_subagents_call"
                          # | "interrupt_subagent_call" | "agent_message", "id", "subagent_id"?,
                          # "from"?}
      # extras:
      "summary": {"calls": 3, "blocked": 1, "outputs": 2, "errors": 1, "warnings": 0, "infos": 2,
                  "events": 77, "lines": 160, "items": 4, "item_word": "output item",
                  "responses": 1},
                  # blocked: listed pending calls the gate does not execute (the headline
                  # says them);
                  # counts include findings left off over the limit; events: streams and
                  # line-based input; items: rebuilt items, item_word what they are
                  # ("output item", a Chat or Anthropic stream's "rebuilt message", a Gemini
                  # stream's "rebuilt response", else "item"); responses: streams (a recording
                  # may hold several responses one after another)
      "source": "json" | "json_lines" | "sse" | "json_events",   # how the text was read
      "timeline": null | [             # Responses streams: one row per output item, deltas folded
        {"response": 0, "output_index": 0, "item_id": "fc_1", "type": "function_call",
         "name": "weather",
         "call_id": "call_1", "first_line": 5, "last_line": 40,
         "events": {"response.output_item.added": 1,
                    "response.function_call_arguments.delta": 12, ...},
         "status": "completed", "broken": [4, 5]}],
                          # broken: indices into findings (errors and warnings about the item)
                          # Chat streams: one row per choice's text ("type": "message") and per
                          # tool call ("type": "tool_call", "index": its delta index), with
                          # "status" the choice's finish_reason and events {"content": n,
                          # "tool_calls": n, "finish_reason": n}
      "results": [...],   # agents: every tool_result event found
                          # {pointer, line, column, turn_id, call_id, success, matched}
                          # matched: the index into calls it answers, or null
      "spec": {"checked": 120, "skipped_same_shape": 0, "failed": 2,
               "by_schema": {"Message": 2}, "version": "2026-04-24",
               "note": "which rule is the spec's, which the gate's"},
      "truncated": {"findings": 0, "calls": 0},  # how many were left off over the limits
      "tools_unread": "..."   # only when the text's own tools (agent.tools, a request's tools)
                              # could not be read: its calls were gated without them, and
                              # "walk this call" walks without them too
    }

Places.  ``line``/``column`` are always in the pasted text (one LineIndex over all of it).
When the text is one JSON value, ``pointer`` is relative to that value.  For JSON Lines and
streams, ``pointer`` is relative to the JSON value on the line given by ``line`` (the event's
``data:`` line for SSE), and ``event`` gives the event's index.

Near misses (``near_miss_id``, ``result_pair_mismatch``): ``related[].diff`` lists, for the
shortest edit script between the id written (``left``: the output's / result's) and the id it
should have matched (``right``: the call's / action's), each differing position ``at`` (0-based,
in the left id) with ``left`` and ``right`` the characters there (``""`` for an insertion or a
deletion).  ``call_3c9l`` against ``call_3c91`` is ``[{"at": 8, "left": "l", "right": "1"}]``.

Speed (``bench/bench_transcript.py``, 20 MB each, 2 shared cores, one run): a transcript of
136,904 items (34,226 calls gated and placed) 1.85 s in-process against 0.28 s for
``json.loads`` (6.6×); a stream of 91,830 SSE events 0.94 s against 0.27 s for a plain SSE split
(3.5×).  The time goes to the exact parse (jsontext's hooks, about 1.5× ``json.loads``), placing
every call (one C scan of the array), and the per-item checks, verdicts and spec shapes.  Stream
pieces are parsed in one joined parse; the spec's validators are compiled once per process.
"""

from .core import REQUEST, analyse, handle

__all__ = ["handle", "analyse", "REQUEST"]
