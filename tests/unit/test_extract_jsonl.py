"""Extract on JSON Lines (issue 12): one value per line, each queried on its own; the rows are
those of the log read as an array (paths and pointers start with the value's index) at their
line and column in the pasted text.  A pasted Server-Sent Events stream is refused with a hint
that names the Gate."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.errors import WorkbenchError
from workbench.extract import extract

LOG = ('{"type": "function_call", "call_id": "call_1", "cost": 1.10}\r\n'
       "\n"
       '   {"type": "message", "content": [{"call_id": "nested"}]}  \n'
       '{"type": "function_call", "call_id": "call_2", "cost": 2e1}\n')


def place(text: str, needle: str) -> tuple[int, int]:
    """1-based (line, column) of the first ``needle`` in ``text``."""
    at = text.index(needle)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def test_a_log_is_detected_and_each_line_queried(server):
    status, body = server.api("extract", {"document": LOG, "path": "$.call_id"})
    assert status == 200, body
    assert body["jsonl"] == {"values": 3, "detected": True}
    assert body["count"] == 2
    got = [(m["path"], m["pointer"], m["json"], m["line"], m["column"]) for m in body["matches"]]
    assert got == [("$[0]['call_id']", "/0/call_id", '"call_1"', *place(LOG, '"call_1"')),
                   ("$[2]['call_id']", "/2/call_id", '"call_2"', *place(LOG, '"call_2"'))]
    assert got[1][3] == 4  # blank lines are not values: index 2 is on line 4


def test_numbers_keep_their_text_and_descendants_reach_every_line(server):
    status, text = 0, None
    body = json.dumps({"document": LOG, "path": "$..cost"}).encode()
    status, _, data = server.request("POST", "/api/extract", body, {"Content-Type": "application/json"})
    text = data.decode()
    assert status == 200 and '"value":1.10,' in text and '"value":2e1,' in text
    status, body = server.api("extract", {"document": LOG, "path": "$..call_id"})
    assert [m["pointer"] for m in body["matches"]] == ["/0/call_id", "/1/content/0/call_id", "/2/call_id"]


def test_the_root_inside_a_filter_is_the_line_value(server):
    log = '{"max": 2, "items": [1, 2, 3]}\n{"max": 1, "items": [1, 2]}\n'
    status, body = server.api("extract", {"document": log, "path": "$.items[?@ <= $.max]"})
    assert status == 200, body
    assert [m["pointer"] for m in body["matches"]] == ["/0/items/0", "/0/items/1", "/1/items/0"]


def test_limit_counts_every_line(server):
    log = "".join(json.dumps({"id": i}) + "\n" for i in range(50))
    status, body = server.api("extract", {"document": log, "path": "$.id", "limit": 3})
    assert body["count"] == 50 and body["returned"] == 3 and body["truncated"]
    assert [(m["json"], m["line"]) for m in body["matches"]] == [("0", 1), ("1", 2), ("2", 3)]


def test_jsonpath_ng_reads_the_lines_too(server):
    status, body = server.api("extract", {"document": LOG, "path": "$.call_id", "engine": "jsonpath-ng"})
    assert status == 200, body
    assert [m["pointer"] for m in body["matches"]] == ["/0/call_id", "/2/call_id"]
    assert body["jsonl"]["values"] == 3


def test_warnings_are_placed_in_the_pasted_text(server):
    log = '{"a": 1}\n{"b": 1, "b": 2}\n{"n": 12345678901234567890}\n'
    status, body = server.api("extract", {"document": log, "path": "$.b"})
    assert status == 200
    dup, big = body["warnings"]
    assert dup["key"] == "b"  # the pointer is the object's
    assert (dup["code"], dup["pointer"], dup["line"], dup["column"]) == ("duplicate_key", "/1", 2, 10)
    assert (dup["first"]["line"], dup["first"]["column"]) == (2, 2)
    assert (big["code"], big["pointer"], big["line"], big["column"]) == ("unsafe_integer", "/2/n", 3, 7)
    # the last of duplicate names is the value, located in its own line
    assert [(m["json"], m["line"], m["column"]) for m in body["matches"]] == [("2", 2, 15)]


@pytest.mark.parametrize("document, options, line, column, says", [
    # asked for: a line that is not JSON is the error, at its place
    ('{"a": 1}\n{"b": x}\n', {"jsonl": True}, 2, 7, "JSON Lines, line 2:"),
    ('{"a": 1} {"b": 2}\n', {"jsonl": True}, 1, 10, "more than one JSON value"),
    ("  \n\n", {"jsonl": True}, 1, 1, "no JSON value"),
    # refused: one document only
    ('{"a": 1}\n{"b": 2}\n', {"jsonl": False}, 2, 1, "after the end of the JSON value"),
    # detected lines whose values break strict JSON: the fault at its place
    ('{"a": 1}\n{"b": NaN}\n', {}, 2, 7, "NaN"),
    # not a log: a document with a mistake keeps its own error
    ('{\n  "a": 1,\n}\n', {}, 2, 9, "Trailing comma"),
    ('{"a": 1}\n{"b": \n2}\n', {}, 2, 1, "after the end of the JSON value"),
])
def test_errors_are_at_their_place(server, document, options, line, column, says):
    status, body = server.api("extract", {"document": document, "path": "$..*", **options})
    assert status == 422, body
    error = body["error"]
    assert error["code"] == "parse_error" and error["field"] == "document"
    assert (error["line"], error["column"]) == (line, column), error
    assert says in error["message"]
    assert "hint" not in error


def test_one_line_with_jsonl_true_is_one_value(server):
    status, body = server.api("extract", {"document": '{"a": [1, 2]}', "path": "$.a[*]", "jsonl": True})
    assert status == 200 and body["jsonl"] == {"values": 1, "detected": False}
    assert [m["pointer"] for m in body["matches"]] == ["/0/a/0", "/0/a/1"]


def test_one_document_is_not_json_lines(server):
    status, body = server.api("extract", {"document": '{"a": 1}\n', "path": "$.a"})
    assert status == 200 and body["jsonl"] is None
    assert body["matches"][0]["pointer"] == "/a"


STREAM = ('event: response.created\n'
          'data: {"type":"response.created","response":{"id":"resp_1"}}\n\n'
          'event: response.output_item.added\n'
          'data: {"type":"response.output_item.added","output_index":0}\n\n')


@pytest.mark.parametrize("document, options, line", [
    (STREAM, {}, 1),
    (STREAM, {"jsonl": True}, 1),
    (STREAM, {"jsonl": False}, 1),
    ("\n" + "".join(line for line in STREAM.splitlines(True) if not line.startswith("event:")) + "data: [DONE]\n", {}, 2),
])
def test_a_stream_is_refused_with_the_gate_named(server, document, options, line):
    status, body = server.api("extract", {"document": document, "path": "$..type", **options})
    assert status == 422
    error = body["error"]
    assert error["code"] == "parse_error" and error["hint"] == "sse_stream" and error["hint_view"] == "/gate"
    assert "Server-Sent Events" in error["message"] and "/gate" in error["message"]
    assert (error["line"], error["column"]) == (line, 1)


def test_the_plain_form_shows_the_gate_link_and_the_lines_note(server):
    from urllib.parse import urlencode

    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _, page = server.request("POST", "/extract", urlencode(
        {"document": STREAM, "path": "$..type"}).encode(), headers)
    html = page.decode()
    assert status == 422 and 'id="sse-gate"' in html and 'href="/gate"' in html
    assert "A stream, not JSON" in html
    status, _, page = server.request("POST", "/extract", urlencode(
        {"document": LOG, "path": "$.call_id"}).encode(), headers)
    html = page.decode()
    assert status == 200 and 'id="jsonl-note"' in html and "3 values" in html
    assert "$[2][&#39;call_id&#39;]" in html or "$[2]['call_id']" in html


# ----------------------------------------------------------------------------- against each line alone

scalars = st.one_of(st.integers(-5, 5), st.sampled_from([0.5, "x", "", True, None]))
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=3) |
                      st.dictionaries(st.sampled_from(["a", "b", "max"]), kids, max_size=3), max_leaves=12)
PATHS = ["$", "$.a", "$..a", "$.*", "$..*", "$[0]", "$.a[-1]", "$[?@.b]", "$..[?@ == 1]",
         "$[?@ == $.max]", "$..[?@.a > $.max]", "$.a[0:2]", "$[?length(@) > 1]", "$['a','b']"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(values, min_size=2, max_size=5), blanks=st.lists(st.sampled_from(["", " ", "\t", " \r"]), max_size=3),
       engine=st.sampled_from(["rfc9535", "rfc9535", "jsonpath-ng"]))
def test_each_line_is_what_it_is_alone(lines, blanks, engine):
    """A log's rows are each line's own rows, with the index in front and the line's place."""
    texts = [json.dumps(v, ensure_ascii=False) for v in lines]
    pieces, starts = [], []
    for n, t in enumerate(texts):
        if n < len(blanks):
            pieces.append(blanks[n] + "\n")
        lead = " " * (n % 2)
        starts.append((sum(p.count("\n") for p in pieces) + 1, len(lead)))
        pieces.append(lead + t + "\n")
    log = "".join(pieces)
    for path in PATHS:
        if engine == "jsonpath-ng" and ("?" in path or ":" in path):
            continue  # jsonpath-ng writes filters in its own syntax
        try:
            got = extract(log, path, engine=engine)
        except WorkbenchError as error:
            with pytest.raises(WorkbenchError) as alone:
                extract(texts[0], path, engine=engine)
            assert alone.value.code == error.code
            continue
        want = []
        for i, t in enumerate(texts):
            line, lead = starts[i]
            for m in extract(t, path, engine=engine)["matches"]:
                want.append((f"$[{i}]" + m["path"][1:], f"/{i}" + m["pointer"], m["json"],
                             line, m["column"] + lead))
        assert got["jsonl"]["values"] == len(texts)
        assert [(m["path"], m["pointer"], m["json"], m["line"], m["column"])
                for m in got["matches"]] == want, (path, log)


def test_a_log_in_pieces_is_the_log_line_by_line():
    """workbench.extract.pieces: pieces end at line ends and number their first line; each
    piece's matches carry their line in the log and their path inside that line's value; a
    piece with a bad line comes back as its bytes."""
    from workbench.extract.pieces import pieces, query_log
    from workbench.limits import DEFAULT_LIMITS
    lines = [b'{"a": %d}\n' % i for i in range(10)]
    assert [(first, raw.count(b"\n")) for first, raw in pieces(lines, size=25)] == [
        (1, 3), (4, 3), (7, 3), (10, 1)]
    assert b"".join(raw for _, raw in pieces(lines, size=25)) == b"".join(lines)
    lines[4] = b'{"a": nope}\n'
    answers = [(first, r if isinstance(r, bytes) else [(m["line"], m["path"], m["json"]) for m in r["matches"]])
               for first, r in query_log(iter(lines), "$.a", DEFAULT_LIMITS, size=25)]
    assert answers == [(1, [(1, "$['a']", "0"), (2, "$['a']", "1"), (3, "$['a']", "2")]),
                       (4, b'{"a": 3}\n{"a": nope}\n{"a": 5}\n'),
                       (7, [(7, "$['a']", "6"), (8, "$['a']", "7"), (9, "$['a']", "8")]),
                       (10, [(10, "$['a']", "9")])]


def test_a_log_in_pieces_says_a_bad_path_before_any_line():
    from workbench.extract.pieces import query_log
    from workbench.limits import DEFAULT_LIMITS
    with pytest.raises(WorkbenchError) as info:
        next(query_log(iter([b"{}\n"]), "$[", DEFAULT_LIMITS))
    assert (info.value.code, info.value.field) == ("path_syntax", "path")
