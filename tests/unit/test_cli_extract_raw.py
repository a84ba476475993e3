"""``workbench extract -r/--raw`` (issue 26): a string match is printed as its text, as ``jq -r``
prints it; every other match stays its exact JSON; the same for ``--jsonl`` and with ``--paths``."""

from __future__ import annotations

from conftest import run_workbench

DOC = '{"a": "x\\ty", "b": [1, "\\u00e9"], "n": 1.10, "c": "\\ud800", "o": {"k": "v"}}'


def test_raw_prints_a_string_as_its_text_and_the_rest_as_exact_json(tmp_path):
    doc = tmp_path / "doc.json"
    doc.write_text(DOC, encoding="utf-8")
    code, out, _ = run_workbench("extract", "-r", "$.*", doc)
    assert code == 0
    # the tab and é decoded; 1.10 keeps its text; an object stays JSON; a lone surrogate is its escape
    assert out.split("\n") == ["x\ty", '[1, "\\u00e9"]', "1.10", "\\ud800", '{"k": "v"}', ""]
    code, plain, _ = run_workbench("extract", "$.a", doc)
    assert plain == '"x\\ty"\n'                      # without -r: the exact JSON, as before
    code, out, _ = run_workbench("extract", "--raw", "--paths", "$.a", doc)
    assert out == "$['a']\tx\ty\n"


def test_raw_over_json_lines_in_pieces_and_line_by_line(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"n": "a"}\n{"n": "b\\nc"}\nnot json\n{"n": 2}\n', encoding="utf-8")
    code, out, err = run_workbench("extract", "-r", "--jsonl", "$.n", log)
    assert code == 2 and "log.jsonl:3:" in err      # the bad line is still reported
    assert out == "a\nb\nc\n2\n"
    code, out, _ = run_workbench("extract", "-r", "--jsonl", "--paths", "$.n", log)
    assert out.splitlines()[0] == "1\t$['n']\ta"
