"""``gate --jsonl``'s fast path (orjson per line, the C scanner per arguments string) against its
exact path (``gate_lines(exact=True)``: the strict parser for every line and every arguments
string): the same per-line record (line, verdict, call_id/turn_id/name, code) and the same summary,
line for line — on hand-made lines with a known verdict (repeated keys, big integers, fractions,
lone surrogates, invalid lines), on the real recordings in ../shared/reference, on JSONTestSuite's
parsing cases and on generated items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.gate.batch import gate_for, gate_lines
from workbench.limits import DEFAULT_LIMITS

TOOLS = json.dumps([
    {"type": "function", "name": "f", "parameters": {
        "type": "object", "additionalProperties": False,
        "properties": {"n": {"type": "integer", "maximum": 18446744073709551616},
                       "x": {"type": "number", "maximum": 1},
                       "s": {"type": "string", "maxLength": 3},
                       "o": {"type": "object"}}}},
    {"type": "function", "name": "g", "parameters": {"type": "object"}},
])


def both(lines, tools=TOOLS, original=None, dialect="auto"):
    """The fast and exact records and summaries of ``lines`` (bytes), asserted equal; the
    records."""
    g = gate_for(tools, original, DEFAULT_LIMITS)
    fast_recs, exact_recs = [], []
    fast = gate_lines(list(lines), g, dialect=dialect, records=fast_recs)
    exact = gate_lines(list(lines), g, dialect=dialect, records=exact_recs, exact=True)
    for n, (a, b) in enumerate(zip(fast_recs, exact_recs), 1):
        assert a == b, f"record {n}: fast {a} != exact {b} (line {lines[a['line'] - 1]!r})"
    assert len(fast_recs) == len(exact_recs)
    assert fast == exact
    return fast_recs


def call(args: str, **extra) -> bytes:
    """An Open Responses call line whose arguments string's JSON text is ``args``."""
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
            "arguments": args, "status": "completed", **extra}
    return json.dumps(item).encode()


def action(args_text: str, name: str = "f") -> bytes:
    """An Agents API action line with ``args_text`` as its arguments object, verbatim."""
    return (b'{"type": "function_call", "turn_id": "t1", "call_id": "c1", "name": "%s", '
            b'"arguments": %s}' % (name.encode(), args_text.encode()))


CASES = [
    (call('{"n": 1}'), "ok"),
    (call('{"n": 1, "n": 2}'), "arguments_parse"),                  # repeated key in arguments
    (call('{"o": {"a": 1, "a": 1}}'), "arguments_parse"),           # … nested
    (call('{"s": "a\\":"}'), "ok"),                                 # a colon in a string
    (call('{"n": 18446744073709551617}'), "arguments_schema"),      # over the maximum, exactly
    (call('{"n": 18446744073709551616}'), "ok"),
    (call('{"x": 1.00000000000000000001}'), "arguments_schema"),
    (call('{"x": 1.0}'), "ok"),
    (call('{"s": "\\ud800"}'), "ok"),                               # lone surrogate, escaped
    (call('{"s": "abcd"}'), "arguments_schema"),
    (call('{"n": NaN}'), "arguments_parse"),
    (call('{"n": 1} x'), "arguments_parse"),
    (call(' {"n": 1} '), "ok"),
    (call('\ufeff{"n": 1}'), "arguments_parse"),
    (action('{"n": 18446744073709551617}'), "arguments_schema"),    # orjson: a float64 (was ok)
    (action('{"n": 18446744073709551616}'), "ok"),
    (action('{"x": 1.00000000000000000001}'), "arguments_schema"),  # orjson: 1.0 (was ok)
    (action('{"x": 1e0}'), "ok"),
    (action('{"x": 1, "x": 2}'), "arguments_schema"),               # the last one kept, by both
    (b'{"type": "function_call", "type": "message"}', "not_function_call"),
    (b'{"type": "function_call", "id": "fc_1", "call_id": "\\ud800", "name": "f", '
     b'"arguments": "{}", "status": "completed"}', "ok"),           # lone surrogate in the item
    (b'{"type": "function_call", "id": "\xff"}', "not_json"),       # not UTF-8
    (b'\xef\xbb\xbf{"type": "message"}', "not_json"),                # byte order mark
    (b'{"type": "function_call",}', "not_json"),
    (b'{"type": "message"} {}', "not_json"),
    (b'[' * 600 + b']' * 600, "not_json"),                           # deeper than max_depth
    (b'[1e400]', "namespaced"),
    (b'"acme:x"', "namespaced"),
    (b'{"type": "acme:trace"}', "namespaced"),
]


@pytest.mark.parametrize("line,verdict", CASES, ids=[str(i) for i in range(len(CASES))])
def test_fast_and_exact_paths_give_the_known_verdict(line, verdict):
    recs = both([line + b"\n"])
    assert recs[0]["verdict"] == verdict
    assert recs[0]["line"] == 1


def test_all_cases_together_and_blank_lines_keep_their_numbers():
    lines = [c[0] + b"\n" for c in CASES]
    lines[3:3] = [b"\n", b"   \r\n"]
    recs = both(lines)
    assert [r["verdict"] for r in recs] == [v for _, v in CASES]
    assert recs[3]["line"] == 6  # two blank lines before it
    assert [r["line"] for r in recs if r["verdict"] == "not_json"] == \
        [n + 1 + 2 for n, (_, v) in enumerate(CASES) if v == "not_json"]


def test_with_an_original_and_each_dialect():
    original = json.dumps({"type": "function_call", "id": "fc_0", "call_id": "call_1", "name": "f",
                           "arguments": '{"n": 1}', "status": "completed"})
    lines = [c[0] + b"\n" for c in CASES]
    for dialect in ("auto", "open_responses", "agents_api"):
        recs = both(lines, original=original, dialect=dialect)
        assert len(recs) == len(CASES)
    recs = both([call('{"n":1}') + b"\n", call('{"n": 2}') + b"\n"], original=original)
    assert [r["verdict"] for r in recs] == ["ok", "replay_mismatch"]


# --------------------------------------------------------------------------- real recordings

def _items(value, out):
    """Every object with a string ``type`` in a recording (the item itself and those nested)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if isinstance(v.get("type"), str):
                out.append(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def _reference_lines(shared: Path) -> list[bytes]:
    lines: list[bytes] = []
    for path in sorted((shared / "reference").rglob("*")):
        if not path.is_file() or path.suffix not in (".json", ".jsonl", ".txt", ".sse"):
            continue
        raw = path.read_bytes()
        lines.extend(raw.splitlines(keepends=True))                # every line as found
        if path.suffix == ".json":
            lines.append(raw.replace(b"\r", b" ").replace(b"\n", b" ") + b"\n")  # the file, one line
        try:
            values = [json.loads(x) for x in raw.splitlines() if x.strip()] if path.suffix == \
                ".jsonl" else [json.loads(raw)]
        except ValueError:
            continue
        for item in _items(values, []):
            lines.append(json.dumps(item, ensure_ascii=False).encode() + b"\n")
    return lines


def _reference_tools(shared: Path) -> str:
    from workbench.errors import WorkbenchError
    tools, names = [], set()
    for raw in (shared / "reference/openresponses-fixtures/tools.jsonl").read_text().splitlines():
        tool = json.loads(raw)["tool"]
        name = tool.get("name") or (tool.get("function") or {}).get("name")
        if name is None or name in names:
            continue
        try:
            gate_for(json.dumps([tool]), None, DEFAULT_LIMITS)
        except WorkbenchError:
            continue
        tools.append(tool)
        names.add(name)
    return json.dumps(tools)


def test_the_real_recordings_line_for_line(shared):
    lines = _reference_lines(shared)
    assert len(lines) > 2000
    tools = _reference_tools(shared)
    for schema in (None, tools):
        for dialect in ("auto", "agents_api"):
            recs = both(lines, tools=schema, dialect=dialect)
            verdicts = {r["verdict"] for r in recs}
            assert {"not_json", "not_function_call"} <= verdicts
    recs = both(lines, tools=tools)
    assert sum(r["verdict"] == "ok" for r in recs) > 10  # real calls do pass
    assert sum(r["verdict"] == "arguments_schema" for r in recs) + \
        sum(r["verdict"] == "unknown_tool" for r in recs) > 10


def test_jsontestsuite_as_lines_and_as_arguments(conformance):
    folder = conformance / "jsontestsuite" / "test_parsing"
    lines = []
    for path in sorted(folder.glob("*.json")):
        raw = path.read_bytes()
        if b"\n" not in raw.rstrip(b"\n") and b"\r" not in raw:
            lines.append(raw.rstrip(b"\n") + b"\n")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        lines.append(call(text) + b"\n")
        lines.append(b'{"type": "function_call", "turn_id": "t", "call_id": "c", "name": "g", '
                     b'"arguments": ' + raw.strip() + b"}\n")
    assert len(lines) > 600
    recs = both(lines)
    by = {r["verdict"] for r in recs}
    assert {"not_json", "arguments_parse", "ok", "namespaced", "arguments_type"} <= by


# --------------------------------------------------------------------------- generated

_key = st.sampled_from(["n", "x", "s", "o", "a", "\\u006e", "n\\u003a", "k:"])
_number = st.one_of(
    st.integers(-2**70, 2**70).map(str),
    st.sampled_from(["1.0", "1e0", "0.5", "-0", "1.00000000000000000001", "1e400", "1E-400",
                     "18446744073709551616", "18446744073709551617", "9007199254740993"]),
    st.floats(allow_nan=False, allow_infinity=False).map(repr))
_string = st.one_of(st.text(max_size=5).map(lambda s: json.dumps(s)),
                    st.sampled_from(['"\\ud800"', '"a\\":"', '"\\u003a"', '"abcd"', '"\u00e9:"']))
_scalar = st.one_of(_number, _string, st.sampled_from(["true", "false", "null", "NaN", "tru"]))


def _join(pairs, seps):
    return "{" + seps.join(f'"{k}"{":"}{v}' for k, v in pairs) + "}"


_value = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]"),
        st.lists(st.tuples(_key, inner), max_size=4).map(lambda ps: _join(ps, ", "))),
    max_leaves=8)
_arguments = st.one_of(st.lists(st.tuples(_key, _value), max_size=4).map(lambda ps: _join(ps, ",")),
                       _value)


@st.composite
def _line(draw) -> bytes:
    args = draw(_arguments)
    kind = draw(st.sampled_from(["open", "open", "action", "broken", "other"]))
    name = draw(st.sampled_from(["f", "g", "h"]))
    if kind == "action":
        return action(args, name)
    if kind == "broken":
        return call(args)[: draw(st.integers(1, 40))]
    if kind == "other":
        return ('{"type": %s, "id": 1, "call_id": %s}' % (draw(_string), draw(_value))).encode()
    status = draw(st.sampled_from(["completed", "completed", "in_progress"]))
    return call(args, status=status, name=name)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_line(), min_size=1, max_size=6), st.sampled_from(["auto", "agents_api"]))
def test_generated_lines_fast_equals_exact(lines, dialect):
    both([ln + b"\n" for ln in lines], dialect=dialect)
