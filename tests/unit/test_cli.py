"""``workbench format``, ``extract``, ``validate`` and ``diff`` as a user runs them: a real
subprocess, files or standard input, the output, the exit status (0/1/2), errors on standard
error as ``file:line:column: message``, colour only on a terminal (NO_COLOR respected),
``--help`` with examples, and ``--json`` equal to the API's answer from the real server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonpatch
import pytest
from conftest import on_a_terminal, run_workbench
from jsonutil import merge_apply

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


wb = run_workbench


# --------------------------------------------------------------------------- format

def test_format_a_file_exactly(files):
    doc = files("d.json", '{"price": 1.10, "big": 12345678901234567890123, "e": 1E400, "s": "é"}')
    code, out, err = wb("format", doc)
    assert code == 0 and err.count("warning") == 2     # the big integer and 1E400
    assert out == ('{\n  "price": 1.10,\n  "big": 12345678901234567890123,\n  "e": 1E400,\n'
                   '  "s": "é"\n}\n')


def test_format_standard_input_minified_sorted_and_tab(files):
    code, out, _ = wb("format", "--indent", "0", "--sort-keys", "-", stdin=b'{"b": [1, 2], "a": 1.0}')
    assert code == 0 and out == '{"a":1.0,"b":[1,2]}\n'
    code, out, _ = wb("format", "--indent", "tab", stdin=b'{"a": [1]}')
    assert code == 0 and out == '{\n\t"a": [\n\t\t1\n\t]\n}\n'


def test_format_keeps_repeated_keys_and_warns_on_stderr(files):
    doc = files("dup.json", '{"a": 1,\n "a": 2}')
    code, out, err = wb("format", "--indent", "0", doc)
    assert code == 0 and out == '{"a":1,"a":2}\n'
    assert err.startswith(f"{doc}:2:2: warning: Duplicate key \"a\"")


def test_format_json_lines(files):
    code, out, _ = wb("format", "--indent", "0", stdin=b'{"a": 1}\n\n{"b": [2, 3]}\n')
    assert code == 0 and out == '{"a":1}\n{"b":[2,3]}\n'


@pytest.mark.parametrize("text, line, column", [('{"a": 1,}', 1, 8), ('{\n  "a": tru\n}', 2, 8),
                                                ("[1,\n 2", 2, 3)])
def test_format_error_is_file_line_column_message(files, text, line, column):
    doc = files("bad.json", text)
    code, out, err = wb("format", doc)
    assert code == 2 and out == ""
    first = err.splitlines()[0]
    assert first.startswith(f"{doc}:{line}:{column}: "), err
    assert "^" in err                                     # the caret line


def test_format_unreadable_inputs_exit_2(tmp_path):
    code, _, err = wb("format", tmp_path / "none.json")
    assert code == 2 and "No such file" in err
    p = tmp_path / "latin1.json"
    p.write_bytes(b'["caf\xe9"]')
    code, _, err = wb("format", p)
    assert code == 2 and "not UTF-8" in err and "0xe9" in err
    code, _, err = wb("format", tmp_path)
    assert code == 2 and "folder" in err


def test_format_a_stream_says_so(files):
    code, out, err = wb("format", stdin=b'event: response.created\ndata: {"type": "x"}\n\n')
    assert code == 2 and out == ""
    assert "Server-Sent Events" in err and "workbench transcript" in err


def test_format_json_equals_the_api(server, files):
    text = '{"a": 1, "a": [1e999, 12345678901234567890123]}'
    code, out, _ = wb("format", "--json", "--indent", "4", files("d.json", text))
    status, api = server.api("format", {"text": text, "indent": 4})
    assert code == 0 and status == 200 and json.loads(out) == api
    code, out, _ = wb("format", "--json", files("bad.json", "[1,]"))
    status, api = server.api("format", {"text": "[1,]"})
    assert code == 2 and status == 422 and json.loads(out) == api


def test_colour_only_on_a_terminal_and_never_with_no_color(files):
    doc = files("bad.json", "[1,]")
    code, seen, _ = on_a_terminal("format", doc)
    assert code == 2 and ANSI.search(seen.decode())
    code, seen, _ = on_a_terminal("format", doc, env={"NO_COLOR": "1"})
    assert code == 2 and not ANSI.search(seen.decode()) and b"bad.json:1:3:" in seen
    code, _, err = wb("format", doc)                        # a pipe: plain
    assert code == 2 and not ANSI.search(err)


@pytest.mark.parametrize("command", ["format", "extract", "validate", "diff", "gate"])
def test_help_has_examples(command):
    code, out, _ = wb(command, "--help")
    assert code == 0 and f"workbench {command}" in out
    if command != "gate":
        assert "examples:" in out and "exit status" in out


# --------------------------------------------------------------------------- extract

DOC = '{"output": [\n  {"type": "function_call", "call_id": "c1", "arguments": {"n": 1.10}},\n' \
      '  {"type": "message", "call_id": "c2", "meta": {"a":\n 1}}\n]}'


def test_extract_one_match_per_line(files):
    doc = files("r.json", DOC)
    code, out, err = wb("extract", "$..call_id", doc)
    assert code == 0 and out == '"c1"\n"c2"\n' and err == ""
    code, out, _ = wb("extract", "--paths", "$.output[*].meta", doc)
    assert code == 0 and out == "$['output'][1]['meta']\t{\"a\":1}\n"   # one line, exact otherwise
    code, out, _ = wb("extract", "$..n", "-", stdin=DOC.encode())
    assert code == 0 and out == "1.10\n"


def test_extract_exit_statuses(files):
    doc = files("r.json", DOC)
    assert wb("extract", "$..nothing", doc)[:2] == (1, "")
    code, out, err = wb("extract", "$..[", doc)
    assert code == 2 and out == "" and "PATH:1:" in err
    bad = files("bad.json", '{"a": }')
    code, _, err = wb("extract", "$..a", bad)
    assert code == 2 and err.startswith(f"{bad}:1:7: ")


def test_extract_jsonl_line_by_line(files):
    log = files("log.jsonl", '{"name": "a"}\n\n{"name": "b", "x": {"name": "c"}}\nnot json\n{"z": 1}\n')
    code, out, err = wb("extract", "--jsonl", "$.name", log)
    assert out == '"a"\n"b"\n'
    assert code == 2 and f"{log}:4:1: " in err              # the bad line, placed in the log
    code, out, _ = wb("extract", "--jsonl", "--paths", "$..name", files("ok.jsonl", '{"name": 1}\n{"q": {"name": 2}}\n'))
    assert code == 0 and out == "1\t$['name']\t1\n2\t$['q']['name']\t2\n"
    code, out, _ = wb("extract", "--jsonl", "$.none", files("ok.jsonl", '{"name": 1}\n'))
    assert code == 1 and out == ""


def test_extract_jsonl_in_pieces_answers_as_line_by_line(files):
    """A log of more than one piece (1 MiB, workbench/cli/extract.py): queried a piece at a time it
    prints exactly what the query on every line prints (``--max-matches`` keeps it line by line),
    bad lines included, with the same exit status."""
    rows = []
    for i in range(32_000):
        rows.append({5: '{"a": bad}', 3: "", 2: '{"a": "\udcff"}', 1: '{"a": 1, "a": 2}',
                     7: '  [1, {"a": [true, null]}]  '}.get(i % 4_001, f'{{"a": {i}, "b": {{"a": "x{i}"}}, "n": 1.50}}'))
    raw = "\n".join(rows).encode("utf-8", "surrogateescape") + b'\r\n{"a": "last"}'
    log = files("big.jsonl", "")
    log.write_bytes(raw)
    assert len(raw) > 1 << 20  # two pieces, a bad line in each
    for args in (("$..a",), ("--paths", "$.n")):
        pieces = wb("extract", "--jsonl", *args, log)
        by_line = wb("extract", "--jsonl", "--max-matches", "1000000", *args, log)
        assert pieces == by_line
        code, out, err = pieces
        assert code == 2 and err.count("\n") == 16 and out.count("\n") > 31_000


def test_extract_json_equals_the_api(server, files):
    code, out, _ = wb("extract", "--json", "$..call_id", files("r.json", DOC))
    status, api = server.api("extract", {"document": DOC, "path": "$..call_id"})
    cli = json.loads(out)
    # the command line lists every match (the server stops at its max_matches): only limit differs
    assert cli.pop("limit") > api.pop("limit")
    assert code == 0 and status == 200 and cli == api


# --------------------------------------------------------------------------- validate

SCHEMA = json.dumps({"type": "object", "required": ["region", "n"], "additionalProperties": False,
                     "properties": {"region": {"enum": ["apac", "emea"]}, "n": {"type": "integer"}}})


def test_validate_prints_pointer_place_keyword_message(files):
    doc = files("d.json", '{"region": "global",\n "n": 1.5}')
    code, out, _ = wb("validate", doc, "--schema", files("s.json", SCHEMA))
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r'/region 1:12 enum .*"global".*', lines[0])
    assert re.fullmatch(r"/n 2:7 type .*1\.5.*", lines[1])
    code, out, _ = wb("validate", files("ok.json", '{"region": "apac", "n": 2}'), "--schema", files("s.json", SCHEMA))
    assert (code, out) == (0, "")


def test_validate_unreadable_exit_2(files, tmp_path):
    schema = files("s.json", SCHEMA)
    code, out, err = wb("validate", files("bad.json", '{"n": 1'), "--schema", schema)
    assert code == 2 and out == "" and re.match(r".*bad\.json:1:8: ", err)
    code, _, err = wb("validate", files("d.json", "{}"), "--schema", files("t.json", '{"type": "objekt"}'))
    assert code == 2 and "t.json:1:" in err
    code, _, err = wb("validate", files("d.json", "{}"), "--schema", tmp_path / "nope.json")
    assert code == 2 and "No such file" in err


def test_validate_jsonl_errors_carry_the_log_line(files):
    log = files("log.jsonl", '{"region": "apac", "n": 1}\n{"region": "x", "n": 1}\n\n{"n": 1}\n')
    code, out, err = wb("validate", "--jsonl", log, "--schema", files("s.json", SCHEMA))
    assert code == 1, err
    assert [ln.split()[:3] for ln in out.splitlines()] == [["/region", "2:12", "enum"],
                                                           ["/region", "4:1", "required"]]
    code, out, _ = wb("validate", "--jsonl", files("l.jsonl", '{"region": "apac", "n": 1}\n'),
                      "--schema", files("s.json", SCHEMA))
    assert (code, out) == (0, "")
    code, _, err = wb("validate", "--jsonl", files("b.jsonl", '{"n": 1}\n{bad}\n'), "--schema", files("s.json", SCHEMA))
    assert code == 2 and "b.jsonl:2:2: " in err
    # the schema is read once, before the first line: a schema that is not a schema stops the
    # log with one error (also an empty log)
    for log in ('{"n": 1}\n{"n": 2}\n', ""):
        code, out, err = wb("validate", "--jsonl", files("l.jsonl", log),
                            "--schema", files("bad.json", '{"type": 12}'))
        assert (code, out) == (2, ""), err
        assert err.count("bad.json:1:10: The schema is not a valid 2020-12 schema") == 1, err


def test_validate_jsonl_equals_the_api_line_by_line(server, files):
    lines = ['{"region": "apac", "n": 1}', '{"region": "x", "n": 1.5}', '{"n": 1, "n": 2}']
    code, out, _ = wb("validate", "--jsonl", "--json", files("l.jsonl", "\n".join(lines) + "\n"),
                      "--schema", files("s.json", SCHEMA))
    assert code == 1
    for n, (text, got) in enumerate(zip(lines, out.splitlines()), 1):
        status, api = server.api("validate", {"document": text, "schema": SCHEMA})
        assert status == 200 and json.loads(got) == {"line": n, **api}


def test_validate_json_equals_the_api(server, files):
    text = '{"region": "global", "n": 1.5}'
    code, out, _ = wb("validate", "--json", files("d.json", text), "--schema", files("s.json", SCHEMA))
    status, api = server.api("validate", {"document": text, "schema": SCHEMA})
    assert code == 1 and status == 200 and json.loads(out) == api


# --------------------------------------------------------------------------- diff

PAIRS = [
    ('{"a": 1, "b": [1, 2], "c": null, "s": "x"}', '{"a": 2.50, "b": [1, 2, 3], "d": {"x": 1}, "s": "x"}'),
    ('[{"id": 1}, {"id": 2}, {"id": 3}]', '[{"id": 3}, {"id": 1}, {"id": 2, "new": true}]'),
    ('{"k": {"deep": {"er": [1, {"z": 12345678901234567890123}]}}}', '{"k": {"deep": {"er": [1, {"z": 1}], "x": []}}}'),
    ('{"a": {"b": 1}}', '{"a": [1, 2]}'),
    ('[1, 2, 3]', '{"now": "an object"}'),
    ('{"a~b": 1, "c/d": {"e": 2}}', '{"a~b": 3, "c/d": {}}'),
]


def test_diff_change_list_and_exit_statuses(files):
    left, right = files("l.json", PAIRS[0][0]), files("r.json", PAIRS[0][1])
    code, out, _ = wb("diff", left, right)
    assert code == 1
    assert "~ /a  1 → 2.50" in out and "+ /b/2  3" in out and "- /c  null" in out
    assert '+ /d  {"x": 1}' in out                   # values as written in the document
    code, out, _ = wb("diff", left, files("same.json", '{"s": "x", "c": null, "b": [1, 2], "a": 1.0}'))
    assert (code, out) == (0, "")
    code, _, err = wb("diff", left, files("bad.json", "{"))
    assert code == 2 and "bad.json:1:2: " in err


@pytest.mark.parametrize("left, right", PAIRS)
def test_diff_patch_turns_left_into_right_by_jsonpatch(files, left, right):
    code, out, err = wb("diff", "--patch", files("l.json", left), files("r.json", right))
    assert code == 1, err
    patch = json.loads(out)
    assert jsonpatch.apply_patch(json.loads(left), patch) == json.loads(right)


@pytest.mark.parametrize("left, right", PAIRS)
def test_diff_merge_patch_turns_left_into_right_by_rfc_7386(files, left, right):
    code, out, err = wb("diff", "--merge-patch", files("l.json", left), files("r.json", right))
    assert code == 1, err
    patch = json.loads(out)
    got = merge_apply(json.loads(left), patch)
    expected = json.loads(right)
    if "null" in right:   # a null value cannot be said in a merge patch: noted, left as it was
        assert "note" in err
    else:
        assert got == expected


def test_diff_merge_patch_notes_what_it_cannot_say(files):
    code, out, err = wb("diff", "--merge-patch", files("l.json", '{"a": 1, "b": 2}'),
                        files("r.json", '{"a": null}'))
    assert code == 1
    assert json.loads(out) == {"b": None}           # b removed; a's null cannot be written
    assert "/a" in err and "note" in err
    code, out, _ = wb("diff", "--help")
    assert "null" in out and "arrays are replaced whole" in out


def test_diff_options_reach_the_core(files):
    left = files("l.json", '[{"id": 1, "t": 5}, {"id": 2, "t": 6}]')
    right = files("r.json", '[{"id": 2, "t": 7}, {"id": 1, "t": 8}]')
    assert wb("diff", "--ignore-order", "--ignore", "$..t", left, right)[0] == 0
    code, out, _ = wb("diff", "--match-key", "id", left, right)
    assert code == 1 and "/t" in out


def test_diff_providers_tolerance_and_deepdiff_flags(files):
    """Two providers' answers to one request: with --providers only the argument value differs,
    named inside the arguments string; what the preset ignored is said on standard error."""
    left = files("a.json", json.dumps({"id": "resp_1", "created_at": 1, "usage": {"total_tokens": 5},
        "output": [{"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "f",
                    "arguments": '{"days": 3, "city": "Lyon"}'}]}))
    right = files("b.json", json.dumps({"usage": {"total_tokens": 9}, "id": "resp_9", "created_at": 7,
        "output": [{"type": "function_call", "id": "fc_x", "call_id": "call_b", "name": "f",
                    "arguments": '{"city":"Lyon","days":4}'}]}))
    code, out, err = wb("diff", left, right)
    assert code == 1 and len(out.splitlines()) > 1
    code, out, err = wb("diff", "--providers", left, right)
    assert (code, out) == (1, "~ /output/0/arguments ▸ /days  3 → 4\n"), (out, err)
    assert "ignored $..id (2 places" in err and "ignored $..usage (1 place;" in err
    code, out, _ = wb("diff", "--providers", "--keep", "$..usage", left, right)
    assert code == 1 and "/usage/total_tokens" in out
    assert wb("diff", "--providers", "--tolerance", "50%", left, right)[0] == 0
    code, out, err = wb("diff", "--tolerance", "x%", left, right)
    assert code == 2 and "--tolerance" in err
    code, out, _ = wb("diff", "--engine", "deepdiff", left, right)
    assert code == 1 and "values_changed\troot['id']\t/id" in out


def test_diff_json_equals_the_api(server, files):
    left, right = PAIRS[1]
    code, out, _ = wb("diff", "--json", files("l.json", left), files("r.json", right))
    status, api = server.api("diff", {"left": left, "right": right, "view": False})
    assert code == 1 and status == 200 and json.loads(out) == api


def test_format_starts_without_the_server_or_the_validators(files):
    """Start-up is part of `workbench format`'s time: no Flask, waitress, jsonschema or JSONPath
    engine is imported for it (measured in bench/bench_format.py's phases)."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "workbench", "format",
                           str(files("d.json", '{"a": 1}'))], capture_output=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0 and proc.stdout == b'{\n  "a": 1\n}\n'
    imported = {line.split("|")[-1].strip() for line in proc.stderr.decode().splitlines() if "|" in line}
    heavy = {m for m in imported if m.split(".")[0] in ("flask", "werkzeug", "waitress", "jsonschema",
                                                       "jsonpath_rfc9535", "jsonpath_ng", "referencing")}
    assert "workbench.format.core" in imported and not heavy
