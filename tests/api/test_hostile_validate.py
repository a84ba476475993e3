"""Hostile input to Validate's doors (issue 21): generated schemas, documents, patterns and draft
examples -- deep, long, huge numbers, nested quantifiers, bad escapes -- sent to the real server.
Every answer is a 200 or a 4xx with a ``code``, never a 5xx, within the work deadline plus a
margin; the server's peak RSS stays bounded (a pattern bomb took +800 MB and 23 GB before).
Bounded in count and time for CI (about a minute on 2 loaded cores)."""

from __future__ import annotations

import http.client
import json
import time
from pathlib import Path

import pytest
from conftest import start_server, stop_server
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow

WORK_TIMEOUT = 3.0
MARGIN = 7.0  # a loaded 2-core machine: answers may wait for a core
PEAK_RSS_MB = 400
EXAMPLES = 150
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])

# --------------------------------------------------------------------------- what is generated

counts = st.sampled_from(["0", "1", "2", "10", "999", "1000", "3000", "65535", "100000", "9" * 25])
quantifiers = st.one_of(
    st.sampled_from(["", "*", "+", "?", "*?", "+?", "++", "{,5}", "{"]),
    counts.map(lambda n: "{%s}" % n), counts.map(lambda n: "{%s,}" % n),
    st.tuples(counts, counts).map(lambda t: "{%s,%s}" % t))
atoms = st.sampled_from(["a", "[a-z]", "\\d", ".", "\\w", "[^]", "[]", "\\b", "\\u{1F600}", "\\ud800",
                         "\\q", "\\c", "\\k<x>", "\\p{L}", "(?<n>a)", "\\1", "[", ")", "(?i)", "(?P<x>a)",
                         "\\u{110000}", "$", "^"])
patterns = st.recursive(
    st.tuples(atoms, quantifiers).map("".join),
    lambda inner: st.one_of(
        st.tuples(inner, quantifiers).map(lambda t: f"(?:{t[0]}){t[1]}"),
        st.lists(inner, min_size=2, max_size=3).map("|".join),
        st.lists(inner, min_size=2, max_size=3).map("".join)),
    max_leaves=6)

huge_numbers = st.sampled_from(["1e999999", "-1e-999999", "1" * 5000, "0." + "0" * 400 + "1",
                                "1.0000000000000000000000000000001", "1E+308", "5e-324", "-0", "0.1"])


def deep(depth: int, kind: str) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    if kind == "object":
        return '{"a":' * depth + "1" + "}" * depth
    return '{"type":"object","properties":{"a":' * depth + "{}" + "}}" * depth


scalar_docs = st.one_of(huge_numbers, st.sampled_from(['"\\ud800"', '"\\udfff\\ud800"', '"\\x"', '"\\u12"',
                                                       '"' + "a" * 100_000 + '"', "nul", "[1,]", "\ufeff1",
                                                       '{"a":1,"a":2}', '"' + "a" * 30 + "!" + '"']))
documents = st.one_of(
    scalar_docs, patterns.map(json.dumps),
    st.tuples(st.integers(1, 600), st.sampled_from(["array", "object"])).map(lambda t: deep(*t)),
    st.lists(scalar_docs, max_size=5).map(lambda xs: "[" + ",".join(xs) + "]"))

schema_values = st.one_of(
    patterns.map(lambda p: {"pattern": p}),
    patterns.map(lambda p: {"patternProperties": {p: {"type": "string"}}}),
    patterns.map(lambda p: {"items": {"pattern": p}, "uniqueItems": True}),
    st.just({"format": "regex"}))
schemas = st.one_of(
    schema_values.map(json.dumps),
    huge_numbers.map(lambda n: '{"multipleOf": %s}' % n),
    huge_numbers.map(lambda n: '{"maximum": %s, "minLength": 2}' % n),
    huge_numbers.map(lambda n: '{"maxLength": %s}' % n),
    st.integers(1, 300).map(lambda d: deep(d, "schema")),
    st.integers(1, 600).map(lambda d: '{"$ref":"#/$defs/a","$defs":{"a":{"items":{"$ref":"#/$defs/a"}}}}'),
    st.sampled_from(['{"$ref":"#/nowhere"}', '{"$schema":"urn:x"}', "[", "1e999999", '"\\ud800"',
                     '{"pattern": "\\\\"}', '{"type": "function", "name": "f", "parameters": {"pattern": "a{100001}"}}']))

validate_bodies = st.fixed_dictionaries(
    {"document": documents, "schema": schemas},
    optional={"format_assert": st.booleans(), "draft": st.sampled_from(["2020-12", "draft-07", "draft-04", "x"]),
              "target": st.sampled_from(["document", "arguments"])})

examples = st.one_of(
    documents, st.lists(documents, min_size=2, max_size=4).map("\n".join),
    st.lists(st.sampled_from(['"\\ud800"', '{"order_id": "A-1042"}', '{"id": "call_8fK2aa"}']),
             min_size=1, max_size=5).map("\n".join))
draft_bodies = st.fixed_dictionaries(
    {"examples": examples},
    optional={"name": st.sampled_from(["\ud800", "f", "", "x" * 300, "\\ud800"]),
              "target": st.sampled_from(["document", "arguments", "nope"])})


# --------------------------------------------------------------------------- the server and one check

@pytest.fixture(scope="module")
def hostile_server():
    s = start_server("--work-timeout", str(WORK_TIMEOUT), "--regex-timeout", "0.3")
    conn = http.client.HTTPConnection(s.host, s.port, timeout=WORK_TIMEOUT + MARGIN + 30)
    s.conn = conn
    yield s
    conn.close()
    stop_server(s)


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def check(server, path: str, body: dict) -> None:
    payload = json.dumps(body)
    started = time.monotonic()
    server.conn.request("POST", path, payload, {"Content-Type": "application/json"})
    r = server.conn.getresponse()
    data = r.read()
    elapsed = time.monotonic() - started
    assert r.status == 200 or 400 <= r.status < 500, (path, r.status, data[:500], payload[:300])
    assert elapsed < WORK_TIMEOUT + MARGIN, (path, elapsed, payload[:300])
    answer = json.loads(data, parse_int=lambda t: int(t) if len(t) < 4000 else t)
    if r.status != 200:
        err = answer["error"]
        assert isinstance(err["code"], str) and err["code"] and err["message"], answer
        for k in ("line", "column"):
            if k in err:
                assert isinstance(err[k], int) and err[k] >= 1, answer


@pytest.mark.parametrize("path,bodies", [("/api/validate", validate_bodies), ("/api/validate/draft", draft_bodies)])
def test_hostile_input(hostile_server, path, bodies):
    @SETTINGS
    @given(bodies)
    def run(body):
        check(hostile_server, path, body)
    run()
    assert peak_rss_mb(hostile_server.proc.pid) < PEAK_RSS_MB


@pytest.mark.parametrize("pattern", ["(?:a{1000}){3000}", "((a{1000}){1000}){1000}", "(?:(?:a{10}){10}){3000}"])
def test_pattern_bombs_keep_the_server_small(hostile_server, pattern):
    for body in ({"document": '"a"', "schema": json.dumps({"pattern": pattern})},
                 {"document": json.dumps(pattern), "schema": '{"format": "regex"}', "format_assert": True},
                 {"examples": json.dumps({"p": pattern})}):
        check(hostile_server, "/api/validate" if "schema" in body else "/api/validate/draft", body)
    assert peak_rss_mb(hostile_server.proc.pid) < PEAK_RSS_MB
