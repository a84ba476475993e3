"""Start-up of a subcommand (issue 25): ``workbench NAME`` imports what NAME uses and nothing
else.  Read from the real entry (``python -m workbench …`` run by a small runner in a fresh
interpreter, which writes ``sys.modules`` to a file when the command ends), not timed: the
modules are the cause, the time follows them.  The time itself is measured by ``bench/run``
(``workbench format`` on 1 kB)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# what no subcommand but serve needs: the web stack
WEB = {"flask", "werkzeug", "jinja2", "waitress", "workbench.web"}
# the other cores' libraries
SCHEMA = {"jsonschema", "referencing", "workbench.validate"}
OTHERS = {"regex", "deepdiff", "jsonpath_ng", "jsonpath_rfc9535", "json5", "ruamel", "yaml", "jsonpatch"}
# another subcommand's module, the server's start-up and the completion writer
CLI = {"workbench.cli.extract", "workbench.cli.validate", "workbench.cli.diff", "workbench.cli.gate",
       "workbench.cli.transcript", "workbench.cli.completion", "ipaddress", "webbrowser",
       "workbench.gate", "workbench.transcript", "workbench.diff", "workbench.extract",
       "shutil"}  # argparse's formatter imports it for the width (and bz2, lzma): common.Parser does not


# python -m workbench ARGV…, then the names in sys.modules written to the file named first
RUNNER = """
import runpy, sys
out, sys.argv = sys.argv[1], ["workbench", *sys.argv[2:]]
try:
    runpy.run_module("workbench", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(out, "w") as f:
    f.write("\\n".join(sorted(sys.modules)))
sys.exit(code)
"""


def imported(tmp_path: Path, *argv: str, stdin: str | None = None) -> tuple[set[str], subprocess.CompletedProcess]:
    """Every module ``python -m workbench ARGV`` imported by its end, and the run."""
    listing = tmp_path / "modules.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", RUNNER, str(listing), *argv], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, env=env, timeout=60)
    names = set(listing.read_text().split("\n"))
    assert "workbench.cli.main" in names, done.stderr[-2000:]  # the listing was read
    return names, done


def roots(names: set[str], wanted: set[str]) -> set[str]:
    """The members of ``wanted`` that are imported (a package or one of its submodules)."""
    return {w for w in wanted if any(n == w or n.startswith(w + ".") for n in names)}


def test_format_imports_only_the_format_core(tmp_path):
    doc = tmp_path / "one.json"
    doc.write_text('{"a": [1, 2.50, "Zürich"], "id": 12345678901234567890}\n', encoding="utf-8")
    names, done = imported(tmp_path, "format", str(doc))
    assert done.returncode == 0, done.stderr[-2000:]
    assert '"id": 12345678901234567890' in done.stdout  # it formatted, exactly
    assert "workbench.format" in names and "workbench.cli.format" in names
    assert roots(names, WEB | SCHEMA | OTHERS | CLI) == set()
    # a small document is written by the plain writer: neither orjson (whose import brings uuid,
    # dataclasses, datetime…) nor dataclasses, typing, ctypes or the JSON5/YAML reader
    assert roots(names, LEAN) == set()


# what `workbench format` on a small document does without (most of a start-up before, issue 25)
LEAN = {"orjson", "dataclasses", "typing", "inspect", "ctypes", "uuid", "workbench.format.lenient",
        "workbench.format.request", "workbench.fields",
        # the work deadline (and threading), the messages for faults, JSON Lines, the diff's equality
        "threading", "workbench.runtime.deadline", "workbench.jsontext.diagnose", "workbench.jsontext.lines",
        "workbench.jsontext.equal"}
# what a small document without a warning does without too: the places and the warnings
NO_WARNING = {"workbench.jsontext.positions", "workbench.jsontext.warnings"}


def test_format_without_warnings_imports_no_positions(tmp_path):
    doc = tmp_path / "plain.json"
    doc.write_text('{"a": [1, 2.50, "Zürich", -0.0, 1.5], "id": 123456789012345}\n', encoding="utf-8")
    names, done = imported(tmp_path, "format", str(doc))
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    assert '"a": [\n    1,\n    2.50,\n    "Zürich",\n    -0.0,\n    1.5\n  ]' in done.stdout
    assert roots(names, LEAN | NO_WARNING) == set()
    # the same imports what it needs when there is something to say: a fault, a warning
    doc.write_text('{"a": 1, "a": 2}\n')
    names, done = imported(tmp_path, "format", str(doc))
    assert done.returncode == 0 and "warning" in done.stderr and NO_WARNING <= names
    doc.write_text('{"a": 1,}\n')
    names, done = imported(tmp_path, "format", str(doc))
    assert done.returncode == 2 and ":1:8: " in done.stderr and "workbench.jsontext.diagnose" in names


@pytest.mark.parametrize("argv, needs, never", [
    (["extract", "$..a", "a.json"], {"workbench.extract", "jsonpath_rfc9535"},
     WEB | SCHEMA | {"deepdiff", "workbench.cli.gate", "workbench.cli.validate", "workbench.cli.completion"}),
    (["diff", "a.json", "a.json"], {"workbench.diff"},
     WEB | SCHEMA | {"deepdiff", "jsonpath_ng", "workbench.cli.gate", "workbench.cli.completion"}),
    (["validate", "a.json", "--schema", "s.json"], {"workbench.validate", "jsonschema"},
     WEB | {"deepdiff", "workbench.cli.gate", "workbench.cli.diff", "workbench.cli.completion"}),
])
def test_each_subcommand_imports_its_own_core_only(tmp_path, argv, needs, never):
    (tmp_path / "a.json").write_text('{"a": 1}\n')
    (tmp_path / "s.json").write_text('{"type": "object"}\n')
    argv = [str(tmp_path / a) if a.endswith(".json") else a for a in argv]
    names, done = imported(tmp_path, *argv)
    assert done.returncode == 0, done.stderr[-2000:]
    assert needs <= names, sorted(needs - names)
    assert roots(names, never) == set()


def test_the_whole_table_is_still_there_for_help_and_unknown_names():
    done = subprocess.run([sys.executable, "-m", "workbench", "--help"], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0
    for name in ("serve", "format", "extract", "validate", "diff", "gate", "transcript", "completion"):
        assert re.search(rf"^\s+{name}\s", done.stdout, re.M), name
    done = subprocess.run([sys.executable, "-m", "workbench", "formt", "x.json"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=60)
    assert done.returncode == 64
    assert "invalid choice: 'formt'" in done.stderr and "'transcript'" in done.stderr


def test_help_is_as_wide_as_shutil_says(monkeypatch):
    import shutil

    from workbench.cli.common import terminal_columns
    for columns in ("57", "", "x", "0"):
        monkeypatch.setenv("COLUMNS", columns)
        assert terminal_columns() == shutil.get_terminal_size().columns
    monkeypatch.setenv("COLUMNS", "57")
    from workbench.cli.common import Parser
    parser = Parser(prog="workbench format")
    for n in range(12):
        parser.add_argument(f"--option-{n}", metavar="VALUE", help="a flag " * 20)
    for text in (parser.format_usage(), parser.format_help()):
        lines = text.splitlines()
        assert len(lines) > 3 and 45 < max(map(len, lines)) <= 57


def test_a_subcommand_after_top_level_options_is_found():
    from workbench.cli.main import _only
    assert _only(["--color", "never", "format", "x.json"]) is None  # "never" comes first: the whole parser
    assert _only(["--color=never", "format", "x.json"]) == "format"
    assert _only(["gate", "--jsonl", "log"]) == "gate"
    assert _only(["completion", "bash"]) is None and _only([]) is None and _only(["--port", "0"]) is None
