"""``workbench gate`` on the command line: exit statuses 0/1/2, the text report, ``--json``
equal to the API's object, and ``--jsonl`` (summary, non-JSON lines counted, blocked line
numbers, progress on a terminal, the same verdicts as the single-item gate)."""

from __future__ import annotations

import json

import pytest
from conftest import on_a_terminal, run_workbench

from workbench.gallery.items import CASES, SALES_SCHEMA
from workbench.gate import Gate
from workbench.gate.batch import gate_lines


def wb(*args, stdin: bytes | None = None, timeout: float = 120):
    return run_workbench("gate", *args, stdin=stdin, timeout=timeout)


def case(name):
    return next(c for c in CASES if c["name"] == name)


# --------------------------------------------------------------------------- one item

def test_exit_0_for_ok_with_the_output_to_attach(files):
    c = case("ok")
    code, out, err = wb(files("item.json", c["item"]), "--schema", files("s.json", c["schema"]))
    assert code == 0, err
    assert "✓ format" in out and "✓ schema" in out and "– diff" in out
    assert "OK" in out and "ok" in out
    assert '{"type":"function_call_output","call_id":"call_123","output":""}' in out


def test_exit_1_for_blocked_with_the_failing_path(files):
    c = case("schema-enum")
    code, out, _ = wb(files("item.json", c["item"]), "--schema", files("s.json", c["schema"]))
    assert code == 1
    assert "✗ schema" in out and "/region" in out and "enum" in out
    assert "BLOCKED" in out and "arguments_schema" in out
    assert "function_call_output" not in out.split("BLOCKED")[1]


def test_exit_1_for_replay_mismatch_with_original(files):
    c = case("replay-new-call-id")
    code, out, _ = wb(files("item.json", c["item"]), "--schema", files("s.json", c["schema"]),
                      "--original", files("o.json", c["original"]))
    assert code == 1
    assert "replay_mismatch" in out and "call_999" in out


def test_stdin(files):
    code, out, _ = wb("-", stdin=case("ok")["item"].encode())
    assert code == 0 and "standard input" in out
    code, _, _ = wb("-", stdin=case("incomplete")["item"].encode())
    assert code == 1


@pytest.mark.parametrize("what", ["missing", "not_json", "empty", "not_utf8", "folder",
                                  "bad_schema", "schema_not_json", "original_not_json",
                                  "schema_missing", "no_item"])
def test_exit_2_for_unreadable_input(files, tmp_path, what):
    item = files("item.json", case("ok")["item"])
    args = {
        "missing": [tmp_path / "nope.json"],
        "not_json": [files("bad.json", '{"type": "function_call",')],
        "empty": [files("empty.json", "  \n")],
        "folder": [tmp_path],
        "bad_schema": [item, "--schema", files("s.json", '{"type": "objekt"}')],
        "schema_not_json": [item, "--schema", files("s.json", "{")],
        "original_not_json": [item, "--original", files("o.json", "nope")],
        "schema_missing": [item, "--schema", tmp_path / "none.json"],
        "no_item": [],
    }
    if what == "not_utf8":
        p = tmp_path / "latin1.json"
        p.write_bytes(b'{"type": "caf\xe9"}')
        args["not_utf8"] = [p]
    code, out, err = wb(*args[what])
    assert code == (64 if what == "no_item" else 2), (what, out, err)  # no item: a usage error
    assert out == ""
    assert err.startswith("workbench gate:")


def test_unreadable_input_with_json_prints_the_error_body(files):
    code, out, _ = wb(files("bad.json", '{"type": "function_call",}'), "--json")
    assert code == 2
    body = json.loads(out)
    assert body["error"]["code"] == "parse_error" and body["error"]["field"] == "item"
    assert body["error"]["line"] == 1


def test_bad_arguments_are_a_verdict_not_unreadable(files):
    code, out, _ = wb(files("item.json", case("trailing-comma")["item"]))
    assert code == 1 and "arguments_parse" in out
    assert "inside the string" in out and "^" in out


@pytest.mark.parametrize("name", ["ok", "refund-extra-missing", "replay-same-call", "whole-response",
                                  "chat-completion", "duplicate-key"])
def test_json_equals_the_api_object(server, files, name):
    c = case(name)
    args = [files("item.json", c["item"])]
    body = {"item": c["item"]}
    if "schema" in c:
        args += ["--schema", files("s.json", c["schema"])]
        body["schema"] = c["schema"]
    if "original" in c:
        args += ["--original", files("o.json", c["original"])]
        body["original"] = c["original"]
    code, out, _ = wb(*args, "--json")
    status, api = server.api("gate", body)
    assert status == 200
    assert json.loads(out) == api
    assert code == (0 if api["verdict"] == "ok" else 1)


def test_envelope_is_listed_in_the_text_report(files):
    c = case("whole-response")
    code, out, _ = wb(files("r.json", c["item"]), "--schema", files("s.json", c["schema"]))
    assert code == 1
    assert "/output/1" in out and "/output/2" in out and "a whole response" in out


# --------------------------------------------------------------------------- JSON Lines

def _line(item) -> str:
    return json.dumps(item, ensure_ascii=False)


def _log(files, lines, name="log.jsonl"):
    return files(name, "\n".join(lines) + "\n")


def test_jsonl_summary_counts_and_blocked_lines(files):
    ok = json.loads(case("ok")["item"])
    enum = json.loads(case("schema-enum")["item"])
    lines = [_line(ok), _line(enum), "this is not JSON", "", _line(ok),
             _line({"type": "message", "role": "user", "content": "hi"}), "{\"type\": ", _line(ok)]
    code, out, err = wb("--jsonl", _log(files, lines), "--schema", files("s.json", SALES_SCHEMA))
    assert code == 1, err
    assert "5 items" in out
    assert "ok" in out and "arguments_schema" in out and "not_function_call" in out
    assert "not JSON" in out and "lines 3, 7" in out
    assert "blocked: 2 items — lines 2, 6" in out
    assert "blank" in out


def test_jsonl_json_is_one_object_per_line_and_the_summary_on_stderr(files):
    ok = json.loads(case("ok")["item"])
    lines = [_line(ok), "nope", "", _line(dict(ok, status="incomplete"))]
    log = _log(files, lines)
    code, out, err = wb("--jsonl", log, "--json")
    assert code == 1
    assert [json.loads(x) for x in out.splitlines()] == [
        {"file": str(log), "line": 1, "verdict": "ok", "call_id": "call_123", "name": ok["name"]},
        {"file": str(log), "line": 2, "verdict": "not_json"},
        {"file": str(log), "line": 4, "verdict": "status", "call_id": "call_123", "name": ok["name"]}]
    assert "3 items" not in out and "2 items" in err and " s\n" in err  # summary, timing: stderr


def test_jsonl_json_summary(files):
    ok = json.loads(case("ok")["item"])
    lines = [_line(ok)] * 3 + ["nope", _line(dict(ok, status="incomplete"))]
    code, out, _ = wb("--jsonl", _log(files, lines), "--json-summary")
    assert code == 1
    s = json.loads(out)
    assert "seconds" not in s  # the same log, the same output
    assert s["items"] == 4 and s["lines"] == 5
    assert s["counts"] == {"status": 1, "ok": 3}
    assert s["not_json"] == 1 and s["not_json_lines"] == [4]
    assert s["blocked"] == 1 and s["blocked_lines"] == [5]


def test_jsonl_all_ok_exits_0(files):
    ok = case("ok")["item"].replace("\n", "")
    code, out, _ = wb("--jsonl", _log(files, [ok] * 50), "--schema", files("s.json", SALES_SCHEMA))
    assert code == 0
    assert "50 items" in out and "blocked: none" in out


def test_jsonl_lists_first_n_blocked_then_how_many_more(files):
    bad = _line({"type": "function_call_output", "call_id": "c", "output": ""})
    code, out, _ = wb("--jsonl", _log(files, [bad] * 30), "--show", "5")
    assert code == 1
    assert "lines 1, 2, 3, 4, 5 … and 25 more" in out


def test_jsonl_from_stdin(files):
    ok = case("ok")["item"].replace("\n", "")
    code, out, _ = wb("--jsonl", "-", stdin=(ok + "\n" + ok + "\n").encode())
    assert code == 0 and "2 items" in out


def test_jsonl_missing_file_and_both_inputs(files, tmp_path):
    code, _, err = wb("--jsonl", tmp_path / "none.jsonl")
    assert code == 2 and "No such file" in err
    code, _, err = wb(files("i.json", "{}"), "--jsonl", files("l.jsonl", "{}"))
    assert code == 64 and err.count("\n") == 1 and "usage error" in err, err  # a usage error


def test_jsonl_schema_invalid_exits_2(files):
    code, _, err = wb("--jsonl", files("l.jsonl", "{}\n"), "--schema", files("s.json", '{"type": 1}'))
    assert code == 2 and "schema" in err


def test_jsonl_progress_on_a_terminal(tmp_path):
    ok = case("ok")["item"].replace("\n", "")
    path = tmp_path / "big.jsonl"
    with path.open("w") as f:
        for _ in range(9 * 1024 * 1024 // len(ok) + 1):
            f.write(ok + "\n")
    code, seen, out = on_a_terminal("gate", "--jsonl", path, stdout=True)
    assert code == 0
    assert b"gating" in seen and b"%" in seen
    assert "gating" not in out  # progress goes to the terminal, never into the report


def test_jsonl_progress_not_shown_when_stderr_is_not_a_terminal(tmp_path):
    ok = case("ok")["item"].replace("\n", "")
    path = tmp_path / "big.jsonl"
    path.write_text((ok + "\n") * (9 * 1024 * 1024 // len(ok) + 1))
    code, out, err = wb("--jsonl", path)
    assert code == 0 and "gating" not in err and "\r" not in err
    assert err.count("\n") == 1 and " lines in " in err  # the timing only


def test_jsonl_verdicts_equal_the_single_item_gate(shared, conformance):
    """Every fixture item and every one-line JSONTestSuite file as a log line: the fast JSON
    Lines path gives the same verdict as the full gate, or counts the line as not JSON
    exactly when the strict parser refuses it."""
    from workbench.errors import WorkbenchError
    tools = [json.loads(line)["tool"] for line in
             (shared / "reference/openresponses-fixtures/tools.jsonl").read_text().splitlines()]
    # the fixture list names get_weather twice, a list the gate refuses (422): keep the first
    first = {}
    for t in tools:
        first.setdefault(t.get("name") or (t.get("function") or {}).get("name") or id(t), t)
    tools = list(first.values())
    g = Gate(json.dumps(tools))
    lines = [json.dumps(json.loads(line)["item"]).encode() for line in
             (shared / "reference/openresponses-fixtures/items.jsonl").read_bytes().splitlines()]
    for p in sorted((conformance / "jsontestsuite" / "test_parsing").iterdir()):
        data = p.read_bytes()
        if b"\n" not in data.rstrip(b"\n") and b"\r" not in data:
            lines.append(data)
    # items whose arguments are each suite file (rule 6 through the line path)
    base = json.loads(case("ok")["item"])
    for p in sorted((conformance / "jsontestsuite" / "test_parsing").iterdir()):
        try:
            text = p.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        lines.append(json.dumps(dict(base, arguments=text)).encode())
    assert len(lines) > 800
    for line in lines:
        out = gate_lines([line], g)
        try:
            expected = g.run(line.decode("utf-8"), envelope=False)["verdict"]
        except (UnicodeDecodeError, WorkbenchError):
            expected = None
        if expected is None:
            assert out["not_json"] == [1] or out["blank"] == 1, line[:80]
        else:
            assert out["counts"] == {expected: 1}, (line[:120], out)
