"""Tests that pin the rules a mutation campaign got past the suite (issue 28).

Each section names one row of the issue's table: the behaviour, and the one-line change it must
catch.  Every test asserts the specific code, field or value, at the boundary on both sides
(exactly at the limit and one past it).  ``tests/mutation/rows.py`` applies each row's change to
a scratch copy and checks that the test named here fails on it.

Everything goes through the cores' public faces (``analyse``, ``gate``, the views' ``handle``,
``LineIndex``, ``normalized_path``) or the in-process app, so a refactor behind them keeps these
tests meaningful.
"""

from __future__ import annotations

import json

import pytest

from workbench.errors import WorkbenchError
from workbench.gallery.agents import EXAMPLE_ACTION, LOOKUP_ORDER, PASSING_ACTION
from workbench.gate import gate
from workbench.jsontext import normalized_path, parse
from workbench.jsontext.positions import LineIndex, line_cols
from workbench.limits import DEFAULT_LIMITS, Limits
from workbench.transcript import analyse
from workbench.web import create_app
from workbench.web.security import CSP, origin_allowed

# --------------------------------------------------------------------------- helpers


def codes(r: dict) -> list[str]:
    return [f["code"] for f in r["findings"]]


def only(r: dict, code: str) -> list[dict]:
    return [f for f in r["findings"] if f["code"] == code]


def diff_step(r: dict) -> dict:
    """The gate answer's rule-9 step."""
    return next(s for s in r["steps"] if s["check"] == "diff")


def sse(events, done=True) -> str:
    out = []
    for ev in events:
        out += [f"event: {ev['type']}", "data: " + json.dumps(ev), ""]
    if done:
        out += ["data: [DONE]", ""]
    return "\n".join(out) + "\n"


def line_of(text: str, event_type: str) -> int:
    """1-based line of the ``data:`` line of the first event of that type."""
    needle = f'data: {{"type": "{event_type}"'
    return next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(needle))


def call_events(final='{"city":"Lyon"}'):
    """A clean function-call stream up to (not including) its terminal event."""
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
            "arguments": "", "status": "in_progress"}
    return [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress",
                                                  "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0,
         "delta": final},
        {"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0,
         "arguments": final},
        {"type": "response.output_item.done", "output_index": 0,
         "item": dict(item, arguments=final, status="completed")},
    ]


def terminal(t: str) -> dict:
    status = t.split(".", 1)[1]
    return {"type": t, "response": {"id": "resp_1", "status": status, "output": []}}


ERROR_EVENT = {"type": "error", "error": {"type": "server_error", "code": "x", "message": "boom",
                                          "param": None}}
TERMINALS = ("response.completed", "response.incomplete", "response.failed")


# --------------------------------------------------------------------------- row 1: terminal events
# change: `response.incomplete` (or any one of the three) no longer treated as a terminal event


@pytest.mark.parametrize("t", TERMINALS)
def test_each_terminal_event_ends_the_stream(t):
    text = sse(call_events() + [terminal(t)])
    r = analyse(text)
    assert "stream_no_terminal" not in codes(r)
    assert "stream_after_terminal" not in codes(r)


@pytest.mark.parametrize("t", TERMINALS)
def test_an_event_after_each_terminal_event_is_after_terminal(t):
    late = {"type": "response.output_text.delta", "item_id": "fc_1", "output_index": 0,
            "delta": "x"}
    text = sse(call_events() + [terminal(t), late])
    r = analyse(text)
    (f,) = only(r, "stream_after_terminal")
    assert f["severity"] == "error" and f["pointer"] == "/type"
    assert f["line"] == line_of(text, "response.output_text.delta")
    assert t in f["message"]
    (rel,) = f["related"]
    assert rel["role"] == "terminal" and rel["line"] == line_of(text, t)
    assert "stream_no_terminal" not in codes(r)


@pytest.mark.parametrize("last", ["response.output_item.done", "error", "response.in_progress"])
def test_a_stream_without_any_of_the_three_has_no_terminal(last):
    events = call_events()
    if last == "error":
        events.append(ERROR_EVENT)
    elif last == "response.in_progress":
        events.append({"type": "response.in_progress",
                       "response": {"id": "resp_1", "status": "in_progress", "output": []}})
    text = sse(events, done=True)
    r = analyse(text)
    (f,) = only(r, "stream_no_terminal")
    assert f["severity"] == "error"
    assert "[DONE] is no terminal event" in f["message"]  # data: [DONE] does not end it either
    assert r["calls"][0]["verdict"] == "ok"  # the item itself was done: the call is whole


@pytest.mark.parametrize("t, flagged", [("response.failed", False), ("response.completed", True),
                                        ("response.incomplete", True)])
def test_an_error_event_must_be_followed_by_response_failed(t, flagged):
    text = sse(call_events() + [ERROR_EVENT, terminal(t)])
    r = analyse(text)
    found = only(r, "stream_error_not_failed")
    assert len(found) == int(flagged)
    if flagged:
        assert found[0]["line"] == line_of(text, "error") and found[0]["pointer"] == "/type"
    assert "stream_no_terminal" not in codes(r)


def test_the_first_terminal_event_is_the_one_that_counts():
    text = sse(call_events() + [terminal("response.incomplete"), terminal("response.completed")])
    (f,) = only(analyse(text), "stream_after_terminal")
    assert f["line"] == line_of(text, "response.completed")
    assert f["related"][0]["line"] == line_of(text, "response.incomplete")


# --------------------------------------------------------------------------- row 2: Agents `execute`
# change: `execute: true` whenever `fail` is empty (a replay_mismatch action would execute)

TOOL = json.dumps(LOOKUP_ORDER)


@pytest.mark.parametrize("item, original, verdict, report_fail", [
    (PASSING_ACTION, None, "ok", []),
    (EXAMPLE_ACTION, None, "arguments_schema", [{"path": "/order_id", "reason": "pattern"},
                                                {"path": "/refund",
                                                 "reason": "additionalProperties"}]),
    # fail is empty (the arguments pass), yet the call is another call than the original
    (dict(PASSING_ACTION, call_id="call_3c9l"), PASSING_ACTION, "replay_mismatch", []),
    (PASSING_ACTION, dict(PASSING_ACTION, turn_id="turn_1"), "replay_mismatch", []),
    (dict(PASSING_ACTION, arguments={"order_id": "A-1043", "include_lines": True}),
     PASSING_ACTION, "replay_mismatch", []),
])
def test_the_report_executes_only_an_ok_action(item, original, verdict, report_fail):
    r = gate(json.dumps(item), TOOL, None if original is None else json.dumps(original))
    assert r["dialect"] == "agents_api" and r["verdict"] == verdict
    execute = verdict == "ok"
    assert r["execute"] is execute
    assert r["report"]["fail"] == report_fail
    assert r["report"]["execute"] is execute
    assert r["report"]["pass"] == ["order_id", "include_lines"]
    assert r["tool_result"]["success"] is execute
    assert ("output" in r["tool_result"]) is execute and ("error" in r["tool_result"]) is not execute


@pytest.mark.parametrize("item, verdict", [
    (dict(PASSING_ACTION, name="refund_order"), "unknown_tool"),
    (dict(PASSING_ACTION, name=""), "missing_fields"),
    (dict(PASSING_ACTION, arguments='{"order_id":"A-1042"}'), "arguments_type"),
    (dict(PASSING_ACTION, type="handoff"), "not_function_call"),
])
def test_no_report_and_no_execute_before_door_2(item, verdict):
    r = gate(json.dumps(item), TOOL)
    assert r["verdict"] == verdict
    assert r["execute"] is False and r["report"] is None


def test_a_session_lists_each_pending_action_with_its_report():
    session = {"id": "sess_1", "status": "requires_action",
               "agent": {"id": "agent_main", "model": "m", "tools": [LOOKUP_ORDER]},
               "items": [], "required_actions": [EXAMPLE_ACTION, dict(PASSING_ACTION,
                                                                      call_id="call_77")]}
    r = analyse(json.dumps(session))
    bad, good = r["calls"]
    assert (bad["verdict"], bad["execute"], bad["report"]["execute"]) == \
        ("arguments_schema", False, False)
    assert (good["verdict"], good["execute"], good["report"]["execute"]) == ("ok", True, True)


# --------------------------------------------------------------------------- row 3: indexed positions
# change: the column off by one on the indexed path (texts over 100 kB, after 16 lookups)


def brute(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def big_text() -> str:
    # lines of varied length, 120 kB: past the 100 kB threshold of the index
    return "".join(("x" * (i % 37)) + "\n" for i in range(6000))


def test_line_index_agrees_with_counting_on_both_paths():
    text = big_text()
    assert len(text) > 100_000
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    probes = [0, 1, len(text) - 1, len(text)]
    for s in starts[1:40] + starts[-40:]:
        probes += [s - 1, s, s + 1]   # the newline itself, a line's first and second character
    probes = [p for p in probes if 0 <= p <= len(text)]
    index = LineIndex(text)
    got = [index.line_col(p) for p in probes]
    assert index._starts is not None  # the index was built: the lookups ran on the indexed path
    assert got == [brute(text, p) for p in probes]
    # the first characters of the first lines: column 1, on both paths
    assert LineIndex(text).line_col(starts[5]) == (6, 1)
    assert got[probes.index(starts[-1])] == (len(starts), 1)


def test_line_cols_out_of_order_offsets_use_the_index_and_agree():
    text = big_text()
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    offsets = [starts[3000] + 2, starts[10], starts[10] + 5, starts[2] - 1, starts[5999]]
    assert line_cols(text, offsets) == [brute(text, o) for o in offsets]


def test_warnings_of_a_large_document_are_placed_exactly():
    # 200 duplicate keys in a 170 kB document: every warning's line and column is the key's
    rows = ",\n".join(f'  {{"pad": "{"p" * (600 + i % 500)}", "k": {i}, "k": {i + 1}}}' for i in range(200))
    text = "[\n" + rows + "\n]"
    assert len(text) > 100_000
    warnings = [w for w in parse(text).warnings if w["code"] == "duplicate_key"]
    assert len(warnings) == 200
    for w in warnings:
        line = text.splitlines()[w["line"] - 1]
        assert line[w["column"] - 1:].startswith('"k": '), (w["line"], w["column"])
        assert brute(text, w["offset"]) == (w["line"], w["column"])


# --------------------------------------------------------------------------- row 4: lone surrogates
# change: lone **low** surrogate escapes (\udc00–\udfff) accepted silently


def surrogate_warnings(text: str) -> list[dict]:
    return [w for w in parse(text).warnings if w["code"] == "lone_surrogate"]


@pytest.mark.parametrize("escape", ["\\ud800", "\\udbff", "\\uDBFF", "\\udc00", "\\udfff",
                                    "\\uDC00", "\\uDfFf"])
def test_every_lone_surrogate_half_is_a_warning(escape):
    text = '{"a": "x' + escape + 'y"}'
    (w,) = surrogate_warnings(text)
    assert w["pointer"] == "/a" and (w["line"], w["column"]) == (1, 7)
    assert f"\\u{escape[2:].lower()}" in w["message"]


@pytest.mark.parametrize("escape", ["\\ud83d\\ude00", "\\uD83D\\uDE00", "\\ud7ff", "\\ue000",
                                    "\\u00e9"])
def test_a_pair_or_a_neighbour_of_the_range_is_no_warning(escape):
    assert surrogate_warnings('{"a": "' + escape + '"}') == []


def test_a_reversed_pair_is_two_lone_halves_in_one_string():
    (w,) = surrogate_warnings('["\\ude00\\ud83d"]')  # one warning per string
    assert w["pointer"] == "/0" and "\\ude00" in w["message"]


# --------------------------------------------------------------------------- row 5: normalized paths
# change: control characters escaped with upper-case hex (RFC 9535 §2.7 wants lower case)


@pytest.mark.parametrize("char, written", [
    ("\x00", "\\u0000"), ("\x0b", "\\u000b"), ("\x0e", "\\u000e"), ("\x1a", "\\u001a"),
    ("\x1f", "\\u001f"), ("\b", "\\b"), ("\t", "\\t"), ("\n", "\\n"), ("\f", "\\f"),
    ("\r", "\\r"), ("'", "\\'"), ("\\", "\\\\"), ("\x7f", "\x7f"), (" ", " "), ("é", "é"), ("X", "X"),
])
def test_normalized_path_escapes_as_rfc_9535_writes_them(char, written):
    assert normalized_path(["a" + char + "b", 0]) == f"$['a{written}b'][0]"


def test_extract_answers_lower_case_control_escapes():
    from workbench.extract import handle
    doc = json.dumps({"\x1f": 1, "a\x0bb": [True]})
    r = handle({"document": doc, "path": "$..*"}, DEFAULT_LIMITS)
    assert [m["path"] for m in r["matches"]] == ["$['\\u001f']", "$['a\\u000bb']",
                                                "$['a\\u000bb'][0]"]


# --------------------------------------------------------------------------- row 6: diff tolerance
# change: the absolute tolerance boundary exclusive (|l − r| == tolerance reported as a change)


def diff(left, right, tolerance):
    from workbench.diff import handle
    return handle({"left": left, "right": right, "tolerance": tolerance}, DEFAULT_LIMITS)


@pytest.mark.parametrize("left, right, tolerance, equal", [
    ("1.00", "1.01", 0.01, True),           # |l − r| == absolute: within
    ("1.00", "1.0100000001", 0.01, False),  # one past
    ("1.01", "1.00", "0.01", True),         # the other side
    ("-5", "-4.99", {"absolute": "0.01"}, True),
    ("99", "100", "1%", True),              # |l − r| == 1 % of max(|l|, |r|)
    ("99", "100.0001", "1%", False),
    ("100", "99", {"relative": "0.01"}, True),
    ("1.00", "1.01", 0, False),             # no tolerance: exact
    # 71 significant digits: too close to the boundary for the 60-digit roundings, so the
    # difference is computed exactly (at the boundary: within; one digit past: not)
    ("0", "1." + "0" * 69 + "1", "1." + "0" * 69 + "1", True),
    ("0", "1." + "0" * 69 + "2", "1." + "0" * 69 + "1", False),
])
def test_tolerance_is_inclusive_at_its_boundary(left, right, tolerance, equal):
    r = diff(f'{{"x": {left}}}', f'{{"x": {right}}}', tolerance)
    assert r["equal"] is equal
    if equal:
        assert r["changes"] == [] and [n["kind"] for n in r["notes"]] == ["tolerance"]
    else:
        assert [(c["op"], c["pointer"]) for c in r["changes"]] == [("replace", "/x")]


# --------------------------------------------------------------------------- row 7: depth limit
# change: the depth limit off by one (`depth >= limit`, or `count <= limit` as `<`)


def nested(depth: int, kind: str) -> str:
    """``depth`` levels; "wide" has one more bracket than levels (two leaves in the deepest
    container), so no count of brackets can stand in for the walk."""
    if kind == "array":
        return "[" * depth + "]" * depth
    if kind == "wide":
        return "[" * (depth - 1) + "[], {}" + "]" * (depth - 1)
    return '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)


@pytest.mark.parametrize("kind", ["array", "object", "wide"])
@pytest.mark.parametrize("limit", [DEFAULT_LIMITS.max_depth, 3, 300])
def test_depth_exactly_at_the_limit_passes_and_one_more_is_too_deep(kind, limit):
    assert parse(nested(limit, kind), max_depth=limit).value is not None
    with pytest.raises(WorkbenchError) as e:
        parse(nested(limit + 1, kind), max_depth=limit, field="text")
    err = e.value
    assert (err.code, err.status, err.field, err.line) == ("too_deep", 422, "text", 1)
    assert err.extra["limit"] == limit and str(limit) in err.message


def test_the_default_limit_is_512_at_every_door(client):
    assert DEFAULT_LIMITS.max_depth == 512
    at, past = nested(512, "wide"), nested(513, "array")
    doors = [("/api/format", {"text": "%s"}, "text"),
             ("/api/extract", {"document": "%s", "path": "$"}, "document"),
             ("/api/validate", {"document": "%s", "schema": "{}"}, "document"),
             ("/api/diff", {"left": "%s", "right": "[]"}, "left")]
    for url, body, field in doors:
        ok = client.post(url, json={k: (at if v == "%s" else v) for k, v in body.items()})
        assert ok.status_code == 200, (url, ok.get_json())
        bad = client.post(url, json={k: (past if v == "%s" else v) for k, v in body.items()})
        err = bad.get_json()["error"]
        assert bad.status_code == 422, (url, err)
        assert (err["code"], err["field"], err["line"], err["column"]) == \
            ("too_deep", field, 1, 513), url


# --------------------------------------------------------------------------- row 8: Origin
# change: the Origin check a prefix match (`http://127.0.0.1:8765.evil.example` passes)

HOST = "127.0.0.1:8765"


@pytest.fixture
def port_client():
    app = create_app(Limits(), port=8765)
    return app.test_client()


@pytest.mark.parametrize("origin, allowed", [
    ("http://127.0.0.1:8765", True),
    ("http://127.0.0.1:8765.evil.example", False),   # our origin as a prefix
    ("http://127.0.0.1:87650", False),
    ("http://127.0.0.1:876", False),                 # a prefix of ours
    ("http://evil.example#http://127.0.0.1:8765", False),
    ("https://127.0.0.1:8765", False),
    ("http://localhost:8765", False),                # another origin, though loopback
])
def test_origin_must_be_exactly_our_own(port_client, origin, allowed):
    assert origin_allowed(origin, HOST) is allowed
    r = port_client.post("/api/format", json={"text": "[1]"},
                         headers={"Host": HOST, "Origin": origin})
    if allowed:
        assert r.status_code == 200 and r.get_json()["formatted"] == "[\n  1\n]"
    else:
        assert r.status_code == 403
        assert r.get_json()["error"]["code"] == "forbidden_origin"


@pytest.mark.parametrize("host", ["127.0.0.1:8765.evil.example", "127.0.0.1:87650",
                                  "evil.example:8765", "127.0.0.1"])
def test_host_must_be_exactly_our_own(port_client, host):
    r = port_client.get("/api/openapi.json", headers={"Host": host})
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "forbidden_host"
    assert port_client.get("/api/openapi.json", headers={"Host": HOST}).status_code == 200


# --------------------------------------------------------------------------- row 9: CSP
# change: CSP `connect-src *` (the page may talk to any origin)


def directives(csp: str) -> dict[str, list[str]]:
    out = {}
    for part in csp.split(";"):
        name, *values = part.split()
        assert name not in out, f"{name} twice"
        out[name] = values
    return out


EXPECTED_CSP = {
    "default-src": ["'self'"], "script-src": ["'self'"], "style-src": ["'self'"],
    "img-src": ["'self'", "data:"], "font-src": ["'self'"], "connect-src": ["'self'"],
    "object-src": ["'none'"], "base-uri": ["'none'"], "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def test_csp_is_exactly_the_strict_policy():
    assert directives(CSP) == EXPECTED_CSP


@pytest.mark.parametrize("method, url", [("GET", "/"), ("GET", "/gate"), ("POST", "/api/format"),
                                         ("GET", "/no/such/page")])
def test_every_response_carries_the_policy(client, method, url):
    r = client.open(url, method=method, json={"text": "[1"} if method == "POST" else None)
    assert r.status_code in (200, 404, 422)
    got = directives(r.headers["Content-Security-Policy"])
    assert got["connect-src"] == ["'self'"] and got["default-src"] == ["'self'"]
    assert got == EXPECTED_CSP
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"


# --------------------------------------------------------------------------- row 10: rule 9, call_id case
# change: gate rule 9 compares `call_id` case-insensitively

ITEM = {"type": "function_call", "id": "fc_001", "name": "get_latest_sales_report",
        "call_id": "call_Ab12", "status": "completed", "arguments": "{\"region\":\"apac\"}"}


@pytest.mark.parametrize("field, value", [("call_id", "call_ab12"), ("call_id", "CALL_AB12"),
                                          ("name", "Get_Latest_Sales_Report"),
                                          ("type", "FUNCTION_CALL")])
def test_rule_9_compares_the_pins_case_sensitively(field, value):
    original = dict(ITEM, **{field: value})
    r = gate(json.dumps(ITEM), None, json.dumps(original))
    assert r["verdict"] == "replay_mismatch" and r["execute"] is False
    assert diff_step(r)["blocking"] == [field]
    assert gate(json.dumps(ITEM), None, json.dumps(ITEM))["verdict"] == "ok"


@pytest.mark.parametrize("field, value", [("call_id", "call_3C91"), ("turn_id", "TURN_2")])
def test_the_agents_pair_is_compared_case_sensitively(field, value):
    r = gate(json.dumps(PASSING_ACTION), TOOL, json.dumps(dict(PASSING_ACTION, **{field: value})))
    assert r["verdict"] == "replay_mismatch" and r["report"]["execute"] is False
    assert diff_step(r)["blocking"] == [field]


def test_duplicate_call_ids_differing_in_case_are_two_calls():
    def fc(cid):
        return dict(ITEM, id="fc_" + cid, call_id=cid)
    r = analyse(json.dumps([fc("call_Ab12"), fc("call_ab12"),
                            {"type": "function_call_output", "call_id": "call_Ab12",
                             "output": "x"},
                            {"type": "function_call_output", "call_id": "call_ab12",
                             "output": "y"}]))
    assert "duplicate_call_id" not in codes(r) and "duplicate_output" not in codes(r)


# --------------------------------------------------------------------------- row 11: near-miss threshold
# transcript-rules.md: one edit, or two edits when both ids are at least 16 characters long;
# change: the threshold (the edit limit, or the length bound) moved


def pairing(call_id: str, output_id: str) -> dict:
    r = analyse(json.dumps([
        {"type": "function_call", "id": "fc_x", "call_id": call_id, "name": "f",
         "arguments": "{}", "status": "completed"},
        {"type": "function_call_output", "call_id": output_id, "output": "x"}]))
    return r


def id_of(length: int, tail: str = "") -> str:
    return ("call_" + "q" * length)[:length - len(tail)] + tail


@pytest.mark.parametrize("meant, written", [
    ("call_100", "call_109"),                   # 1 substitution, short ids
    ("call_100", "call_1000"),                  # 1 insertion
    ("call_100", "call_10"),                    # 1 deletion
    (id_of(16, "ab"), id_of(16, "cd")),         # 2 edits, both 16 long
    (id_of(30, "ab"), id_of(29, "c")),          # 2 edits (1 substitution, 1 deletion), long
])
def test_near_miss_within_the_threshold(meant, written):
    r = pairing(meant, written)
    (f,) = only(r, "near_miss_id")
    assert f["related"][0]["call_id"] == meant
    assert "orphan_output" not in codes(r)


@pytest.mark.parametrize("meant, written", [
    (id_of(16, "abc"), id_of(16, "xyz")),       # 3 edits: never
    (id_of(40, "abc"), id_of(40, "xyz")),
])
def test_past_the_edit_limit_is_an_orphan(meant, written):
    r = pairing(meant, written)
    assert "near_miss_id" not in codes(r)
    (f,) = only(r, "orphan_output")
    assert f["pointer"] == "/1/call_id"


# transcript-rules.md (Ids): one edit, two only when both ids are at least 16 long
@pytest.mark.parametrize("meant, written", [
    ("call_100", "call_909"),                   # the rules' own example
    (id_of(15, "ab"), id_of(15, "cd")),         # 15 long: one short of the bound
    (id_of(16, "ab"), id_of(15, "c")),          # one of the two is 15 long
    ("call_10", "call_1000"),                   # 2 insertions, short
])
def test_two_edits_between_short_ids_is_an_orphan(meant, written):
    r = pairing(meant, written)
    assert "near_miss_id" not in codes(r)
    assert only(r, "orphan_output")[0]["pointer"] == "/1/call_id"


# --------------------------------------------------------------------------- row 12: result_output_not_string
# change: only object outputs flagged (numbers, booleans, null pass)


def session_with_result(**result) -> dict:
    action = dict(PASSING_ACTION, call_id="call_77", turn_id="turn_3")
    return {"session": {"id": "sess_1", "status": "requires_action",
                        "agent": {"id": "agent_main", "model": "m", "tools": [LOOKUP_ORDER]},
                        "items": [], "required_actions": [action]},
            "events": [{"type": "agent.session.input.tool_result", "turn_id": "turn_3",
                        "call_id": "call_77", **result}]}


@pytest.mark.parametrize("output", [{"status": "paid"}, 42, 0, 1.5, True, False, None])
def test_an_output_that_is_not_a_string_is_flagged(output):
    r = analyse(json.dumps(session_with_result(success=True, output=output)))
    (f,) = only(r, "result_output_not_string")
    assert f["severity"] == "error" and f["pointer"] == "/events/0/output"


# agents-rules.md: success true with an output that is not a string (an array is not one)
@pytest.mark.parametrize("output", [[], ["paid"], [{"type": "output_text", "text": "paid"}]])
def test_an_array_output_is_flagged(output):
    r = analyse(json.dumps(session_with_result(success=True, output=output)))
    (f,) = only(r, "result_output_not_string")
    assert f["pointer"] == "/events/0/output"


@pytest.mark.parametrize("result", [dict(success=True, output='{"status":"paid"}'),
                                    dict(success=True, output=""),
                                    dict(success=False, error="order_id failed", output=42)])
def test_a_string_output_or_a_failure_is_not_flagged(result):
    r = analyse(json.dumps(session_with_result(**result)))
    assert "result_output_not_string" not in codes(r)
