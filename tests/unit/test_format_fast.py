"""Format's fast paths (issue 25) proven equal to the exact path: the same formatted text and the
same warnings, with the same line/column/offset/pointer, on every JSONTestSuite file and on
generated realistic data.

* Only the first FORMAT_MAX_WARNINGS warnings are placed; ``warning_count`` counts all of them
  (the exact path: every warning placed, ``warning_limit=None``).
* The surrogate escapes of a certain pair (``\\ud83d\\ude00``) are no candidates for the walker
  (the exact path: every ``\\ud800``–``\\udfff`` escape a candidate).
"""

from __future__ import annotations

import importlib
import random

import pytest

from workbench.format import format_text
from workbench.jsontext import parse
from workbench.limits import FORMAT_MAX_WARNINGS

# (the module, not the name warnings: read where it is used, start-up, issue 25)
warnings_mod = importlib.import_module("workbench.jsontext.warnings")


def every_escape(text):
    """The exact path's surrogate candidates: every surrogate escape."""
    return [m.start() for m in warnings_mod._SURROGATE_ESCAPE.finditer(text)]


def exact(text, monkeypatch):
    """Every warning, placed by the exact path (no limit, every surrogate escape a candidate)."""
    with monkeypatch.context() as m:
        m.setattr(warnings_mod, "_lone_surrogate_escapes", every_escape)
        return parse(text, numbers="fragment", keep_duplicates=True, check_depth=False,
                     warning_limit=None).warnings


def assert_same(text, monkeypatch, limits=(None, 1, 2, 3, 7)):
    full = exact(text, monkeypatch)
    for limit in limits:
        p = parse(text, numbers="fragment", keep_duplicates=True, check_depth=False,
                  warning_limit=limit)
        assert p.warnings == full[:limit], limit
        assert p.warning_count == len(full), limit
    return full


def suite_files(conformance):
    root = conformance / "jsontestsuite" / "test_parsing"
    out = []
    for path in sorted(root.glob("*.json")):
        try:
            text = path.read_bytes().decode("utf-8")
            parse(text, warnings=False, check_depth=False)
        except Exception:   # not JSON, or not UTF-8: no warnings to compare
            continue
        out.append((path.name, text))
    return out


def test_jsontestsuite_warnings_are_the_exact_paths(conformance, monkeypatch):
    files = suite_files(conformance)
    assert len(files) > 90   # the y_ files and the i_ ones that parse
    warned = 0
    for name, text in files:
        try:
            full = assert_same(text, monkeypatch)
        except AssertionError as exc:
            raise AssertionError(name) from exc
        warned += bool(full)
        answer = format_text(text)
        assert answer["warnings"] == full[:FORMAT_MAX_WARNINGS], name
        assert answer["warning_count"] == len(full), name
        assert answer["truncated"] is (len(full) > FORMAT_MAX_WARNINGS), name
    assert warned >= 5


def _record(rnd, n, duplicates=True):
    """A realistic record with every kind of warning and its look-alikes: 64-bit ids, exact
    and float-changed decimals, emoji pairs as escapes, lone surrogates (values and keys), an
    escaped backslash before a would-be pair, big numbers inside strings, repeated keys (one
    spelled with escapes)."""
    parts = [f'"id": {rnd.randrange(2**53, 2**64)}', f'"seq": {n}',
             f'"price": {rnd.randrange(10**5)}.{rnd.randrange(100):02d}',
             f'"rate": 0.{rnd.randrange(10**18, 10**19)}',
             f'"name": "caf\\u00e9 \\ud83d\\ude00 {rnd.randrange(2**60, 2**63)}"',
             '"wide": [' + ", ".join(str(rnd.randrange(-10**9, 10**9)) for _ in range(8)) + "]"]
    r = rnd.random()
    if r < 0.15:
        parts.append('"lone": "x\\ud800y"')
    elif r < 0.25:
        parts.append('"k\\udc01": 1')
    elif r < 0.35:
        parts.append('"trap": "\\\\ud83d\\ude00"')   # text \ud83d, then a lone low escape
    elif r < 0.45 and duplicates:
        parts.append('"seq": 2, "s\\u0065q": 3')      # repeated, the second spelled with an escape
    elif r < 0.5:
        parts.append('"huge": 1e400, "tiny": -2.5E-400')
    if r > 0.9 and duplicates:
        parts.append('"deep": {"a": [{"b": {"id": 9007199254740993, "id": 1}}]}')
    rnd.shuffle(parts)
    return "{" + ", ".join(parts) + "}"


@pytest.mark.parametrize("seed", range(6))
def test_realistic_data_warnings_are_the_exact_paths(seed, monkeypatch):
    rnd = random.Random(seed)
    text = '{"object": "list", "data": [\n  ' + ",\n  ".join(
        _record(rnd, n) for n in range(300)) + "\n]}\n"
    full = assert_same(text, monkeypatch, limits=(None, 1, 5, 50, 333, 1000, 5000))
    assert len(full) > 600
    codes = {w["code"] for w in full}
    assert {"unsafe_integer", "float_precision", "lone_surrogate", "duplicate_key",
            "float_overflow", "float_underflow"} <= codes or seed % 2   # (most seeds have all)


def test_a_pair_after_an_escaped_backslash_is_still_a_candidate():
    text = '["\\\\ud83d\\ude00", "\\ud83d\\ude00"]'
    # the text \ud83d (after the escaped backslash) stays a candidate, its low escape too;
    # only the certain pair of the second string is left out
    assert warnings_mod._lone_surrogate_escapes(text) == [3, 9]
    assert [(w["code"], w["pointer"]) for w in format_text(text)["warnings"]] == \
        [("lone_surrogate", "/0")]


def test_format_lists_the_first_warnings_and_counts_all():
    text = "[" + ", ".join(str(2**60 + i) for i in range(FORMAT_MAX_WARNINGS + 5)) + "]"
    answer = format_text(text)
    assert answer["warning_count"] == FORMAT_MAX_WARNINGS + 5 and answer["truncated"] is True
    assert len(answer["warnings"]) == FORMAT_MAX_WARNINGS
    assert answer["warnings"][-1]["pointer"] == f"/{FORMAT_MAX_WARNINGS - 1}"
    small = format_text("[1, 9007199254740993]")
    assert small["warning_count"] == 1 and small["truncated"] is False


def test_json_lines_count_all_their_warnings():
    text = "\n".join(f'{{"id": {2**60 + i}}}' for i in range(FORMAT_MAX_WARNINGS + 2))
    answer = format_text(text)
    assert answer["jsonl"] is True and answer["warning_count"] == FORMAT_MAX_WARNINGS + 2
    assert len(answer["warnings"]) == FORMAT_MAX_WARNINGS and answer["truncated"] is True
    assert answer["warnings"][0]["record"] == 1 and answer["warnings"][0]["pointer"] == "/id"


@pytest.mark.parametrize("head", [64, 500, 3000, 20000])
def test_the_head_tried_first_gives_the_exact_paths_warnings(head, monkeypatch):
    # a limited list first tries the number candidates of the text's head (_HEAD characters,
    # 1 M; here small, so that the cut falls inside it, at its edge, or beyond it)
    rnd = random.Random(head)
    text = '{"data": [\n  ' + ",\n  ".join(_record(rnd, n, duplicates=False)
                                           for n in range(400)) + "\n]}\n"
    monkeypatch.setattr(warnings_mod, "_HEAD", head)
    assert len(text) > 2 * head
    full = assert_same(text, monkeypatch, limits=(1, 2, 3, 10, 50, 400, 5000))
    assert len(full) > 800


def test_the_command_lists_the_first_warnings_and_says_how_many_more():
    from conftest import run_workbench
    doc = "[" + ", ".join(str(2**60 + i) for i in range(FORMAT_MAX_WARNINGS + 3)) + "]"
    code, out, err = run_workbench("format", "--indent", "0", "-", stdin=doc.encode())
    lines = err.splitlines()
    assert code == 0 and out == doc.replace(" ", "") + "\n"
    assert len(lines) == FORMAT_MAX_WARNINGS + 1
    assert lines[0].startswith("standard input:1:2: warning: The integer 1152921504606846976 is beyond")
    assert lines[-1] == "standard input: 3 more warnings not listed"


# --------------------------------------------------------------------------- the plain writer of small documents
# A document up to PLAIN_MAX_CHARS is written by the plain writer (numbers kept as text), so a small
# command starts without importing orjson (issue 25); it must write the very bytes orjson writes.

format_core = importlib.import_module("workbench.format.core")


def both_writers(text, monkeypatch, **options):
    """format_text's answer through the plain writer and through orjson, for the same text."""
    with monkeypatch.context() as m:
        m.setattr(format_core, "PLAIN_MAX_CHARS", 10**9)
        plain = format_text(text, **options)
    with monkeypatch.context() as m:
        m.setattr(format_core, "PLAIN_MAX_CHARS", -1)
        fast = format_text(text, **options)
    return plain, fast


OPTIONS = [{}, {"indent": 0}, {"indent": 4, "sort_keys": True}, {"indent": "tab"}, {"indent": 1, "as_bytes": True}]


def test_the_plain_writer_writes_orjsons_bytes_on_the_suite(conformance, monkeypatch):
    compared = 0
    for name, text in suite_files(conformance):
        for options in OPTIONS:
            try:
                plain, fast = both_writers(text, monkeypatch, **options)
            except Exception as exc:   # refused (too deep): both the same way
                with pytest.raises(type(exc)):
                    both_writers(text, monkeypatch, **options)
                continue
            assert plain == fast, (name, options)
            compared += 1
    assert compared > 400


@pytest.mark.parametrize("seed", range(3))
def test_the_plain_writer_writes_orjsons_bytes_on_generated_data(seed, monkeypatch):
    rnd = random.Random(seed)
    records = [_record(rnd, n) for n in range(60)]
    records.append('{"ctl": "\\u0000\\u001f\\u007f\\b\\f\\n\\r\\t\\"\\\\/", "ü": "\u2028\U0001f600", "": [], "e": {}}')
    docs = ['{"object": "list", "data": [\n  ' + ",\n  ".join(records) + "\n]}\n",
            "\n".join(records) + "\n"]   # and as JSON Lines
    for text in docs:
        for options in OPTIONS:
            plain, fast = both_writers(text, monkeypatch, **options)
            assert plain == fast, options
            assert plain["formatted"] and plain["warning_count"] > 60


def test_a_small_document_is_written_by_the_plain_writer_a_large_one_by_orjson():
    assert format_core._numbers("[1]") == "text"
    assert format_core._numbers("[" + "1," * format_core.PLAIN_MAX_CHARS + "1]") == "fragment"
