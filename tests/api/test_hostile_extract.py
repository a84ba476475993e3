"""Hostile input to Extract (issue 21): every door answers 200 or a 4xx with a ``code``, in time.

Row 1: a JSONPath of tens of thousands of segments or levels crashed the process (the C stack
overflowed freeing one generator per segment) or was blamed on the document; the path's size is
now bounded by one scan before either engine reads it (``workbench.extract.bounds``).  Then
generated hostile paths and documents (deep, long, repeated, huge numbers, bad escapes, bad
UTF-8) against the app, a few against the real server and the command line.
"""

from __future__ import annotations

import json
import time

import pytest
from conftest import run_workbench
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.limits import DEFAULT_LIMITS, PATH_MAX_NESTING, PATH_MAX_SEGMENTS

# the deadline of one request plus a margin for a loaded 2-core machine
MARGIN = 10.0
BUDGET = DEFAULT_LIMITS.work_timeout + MARGIN

N = 50_000
LONG_PATHS = {  # name → (path, offset of the first segment or level past the bound)
    ".a": ("$" + ".a" * N, 1 + 2 * PATH_MAX_SEGMENTS),
    "..a": ("$" + "..a" * N, 1 + 3 * PATH_MAX_SEGMENTS),
    "[*]": ("$" + "[*]" * N, 1 + 3 * PATH_MAX_SEGMENTS),
    "[?@]": ("$" + "[?@]" * N, 1 + 4 * PATH_MAX_SEGMENTS),
    "[0]": ("$" + "[0]" * N, 1 + 3 * PATH_MAX_SEGMENTS),
    "nested filters": ("$" + "[?@" * N + "]" * N, 1 + 3 * PATH_MAX_NESTING),
    # after "$[?" (one level), the level that passes the bound is the (PATH_MAX_NESTING)th one
    "parentheses": ("$[?" + "(" * N + "@" + ")" * N + "]", 3 + PATH_MAX_NESTING - 1),
    "not": ("$[?" + "!" * N + "@]", 3 + PATH_MAX_NESTING - 1),
    "and": ("$[?" + "&&".join(["@"] * N) + "]", 4 + 3 * (PATH_MAX_NESTING - 1)),
    "functions": ("$[?" + "length(" * N + "@" + ")" * N + "]", 9 + 7 * (PATH_MAX_NESTING - 1)),
}


def assert_bounded(error: dict, path: str, offset: int) -> None:
    assert error["code"] == "path_syntax", error
    assert error["field"] == "path"
    assert error["offset"] == offset
    assert (error["line"], error["column"]) == (1, offset + 1)
    assert error["limit"] in (PATH_MAX_SEGMENTS, PATH_MAX_NESTING)
    assert ("segments" in error["message"]) == (error["limit"] == PATH_MAX_SEGMENTS)


@pytest.mark.parametrize("engine", ["rfc9535", "jsonpath-ng"])
@pytest.mark.parametrize("jsonl", [False, True])
@pytest.mark.parametrize("name", list(LONG_PATHS))
def test_a_long_path_is_refused_at_the_bound(client, name, jsonl, engine):
    path, offset = LONG_PATHS[name]
    document = '{"a":1}\n{"a":2}' if jsonl else "{}"
    r = client.post("/api/extract", json={"document": document, "path": path, "engine": engine,
                                          "jsonl": jsonl})
    assert r.status_code == 422, r.get_json()
    assert_bounded(r.get_json()["error"], path, offset)


def test_the_real_server_survives_every_long_path(server):
    """Each of these killed the server process (segfault) before the bound."""
    for name, (path, offset) in LONG_PATHS.items():
        for engine in ("rfc9535", "jsonpath-ng"):
            for jsonl in (False, True):
                status, body = server.api("extract", {"document": "{}\n{}" if jsonl else "{}",
                                                      "path": path, "engine": engine, "jsonl": jsonl})
                assert status == 422, (name, engine, jsonl, body)
                assert_bounded(body["error"], path, offset)
    assert server.proc.poll() is None
    # and a path at the bound runs in the server's own thread
    depth = PATH_MAX_SEGMENTS
    status, body = server.api("extract", {"document": '{"a":' * depth + "7" + "}" * depth,
                                          "path": "$" + ".a" * depth})
    assert (status, body["count"], body["matches"][0]["json"]) == (200, 1, "7"), body
    status, _, data = server.get("/api/health", timeout=5)
    assert status == 200, data


def test_paths_at_the_bound_still_run(client):
    """The bounds refuse only what passes them: a path of PATH_MAX_SEGMENTS segments on a
    document as deep, and PATH_MAX_NESTING levels of filters, answer their matches."""
    depth = PATH_MAX_SEGMENTS
    document = '{"a":' * depth + "7" + "}" * depth
    nested = "[" * (PATH_MAX_NESTING - 1) + "1" + "]" * (PATH_MAX_NESTING - 1)
    lines = document + "\n" + document
    cases = [("$" + ".a" * depth, document), ("$" + "['a']" * depth, document),
             ("$" + "[?@]" * (PATH_MAX_NESTING - 2) + "[0]", nested),
             ("$" + "[?@" * PATH_MAX_NESTING + "]" * PATH_MAX_NESTING, "[" + nested + "]")]
    for engine in ("rfc9535", "jsonpath-ng"):
        for path, doc in cases:
            r = client.post("/api/extract", json={"document": doc, "path": path, "engine": engine})
            assert r.status_code == 200, (engine, path[:40], r.get_json())
            assert r.get_json()["count"] >= 1, (engine, path[:40])
        # JSON Lines: a path at the bound runs on each line (its one-query form, with one
        # segment more, would pass the bound)
        r = client.post("/api/extract", json={"document": lines, "path": "$" + ".a" * depth,
                                              "engine": engine, "jsonl": True})
        assert r.status_code == 200, r.get_json()
        assert [m["path"] for m in r.get_json()["matches"]] == [
            "$[0]" + "['a']" * depth, "$[1]" + "['a']" * depth]


def test_the_command_line_refuses_60k_segments_in_one_line(tmp_path):
    """``workbench extract`` with 60k segments died with exit status 139."""
    doc = tmp_path / "doc.json"
    doc.write_text('{"a": 1}\n', encoding="utf-8")
    path = "$" + ".a" * 60_000
    for extra in ([], ["--jsonl"], ["--engine", "jsonpath-ng"], ["--jsonl", "--engine", "jsonpath-ng"]):
        code, out, err = run_workbench("extract", *extra, path, doc)
        assert code == 2, (extra, code, err[-500:])
        assert out == ""
        lines = err.splitlines()
        assert len(lines) == 1, (extra, err[:500])
        assert lines[0] == (f"PATH:1:{2 * PATH_MAX_SEGMENTS + 2}: The path has more than "
                            f"{PATH_MAX_SEGMENTS} segments"), lines[0][:300]


# ----------------------------------------------------------------------------- generated hostile input

def repeated(parts, most: int):
    """One of ``parts`` repeated up to ``most`` times (past the bounds and within them)."""
    return st.builds(lambda p, n: p * n, st.sampled_from(parts), st.integers(0, most))


SEGMENTS = [".a", "..a", "[*]", "[0]", "[-1]", "[?@]", "[1:]", "..*", "['a']", "[?@.a==1]",
            ".a[?@.b]", "[0,1,'a']", '["\\ud800"]', "[::-1]", "[?match(@,'a+')]"]
hostile_paths = st.one_of(
    st.builds(lambda body: "$" + body, repeated(SEGMENTS, PATH_MAX_SEGMENTS + 100)),
    st.builds(lambda body: "$" + body, repeated(SEGMENTS, 60_000)),  # past the old crash
    st.builds(lambda n, inner: "$" + "[?@" * n + inner + "]" * n, st.integers(0, 200),
              st.sampled_from(["", ".a", "==1", "[0]"])),
    st.builds(lambda ops, n: "$[?" + ops * n + "@]", st.sampled_from(["!", "(", "length("]),
              st.integers(0, 300)),
    st.builds(lambda n: "$[?" + "&&".join(["@.a"] * n) + "]", st.integers(1, 300)),
    st.sampled_from([
        "$['\\x']", "$['\\ud800']", "$['\\uZZZZ']", "$['unterminated", '$["\\"', "$[" + "9" * 400 + "]",
        "$[?@.a==" + "9" * 5000 + "]", "$[?@.a==1e999999]", "$[?@.a==-0.0e-999999]", "$.\ud800",
        "$[?@.a=='" + "x" * 100_000 + "']", "$" + "." * 2000, "$" + "[" * 2000, "$" + "]" * 2000,
        "$[?search(@, '(a+)+$')]", "$[?match(@, '" + "(" * 300 + "')]", "$..[?@..[?@..*]]",
        "a", "", "$.a b", "$[?@.a<@.b<@.c]", "$[?(@.a<1)==false]", "$[?@.a=~/x/]",
    ]),
    st.text(max_size=60).map(lambda t: "$" + t),
)


def deep(n: int, open_: str, close: str, leaf: str = "1") -> str:
    return open_ * n + leaf + close * n


hostile_documents = st.one_of(
    st.builds(deep, st.integers(0, 700), st.sampled_from(["[", '{"a":', '[{"a":[', '{"a":[']),
              st.just(""), st.just("1")).map(lambda t: t),
    st.sampled_from([
        "1" * 5000, "-" + "9" * 4400, "1e999999", "[1e-999999, 0.0000000000000000000000001]",
        "[" + ",".join(str(2**64 + i) for i in range(2000)) + "]",
        '"' + "\\u0000" * 2000 + '"', '"\\x"', '"\\ud800"', '"\\udc00\\ud800"', '"\\u12"',
        '{"a":1,"a":2,"a":3}', '{"' + "k" * 100_000 + '":1}', "[" * 5000, "]" * 100, "",
        "{}\n{}\n" * 2000, "{}\n[1,\n{}", "data: {}\n\n", "\ufeff{}", "[1,]", "NaN", "{'a':1}",
        '{"a":' + '"' + "x" * 200_000 + '"}', '{"a": [' + "{}," * 20_000 + "{}]}",
    ]),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=10),
                           st.decimals(allow_nan=False, allow_infinity=False, places=6)),
                 lambda c: st.lists(c, max_size=5) | st.dictionaries(st.sampled_from("ab"), c, max_size=3),
                 max_leaves=30).map(lambda v: json.dumps(v, default=str)),
)
hostile_bodies = st.fixed_dictionaries(
    {"document": hostile_documents, "path": hostile_paths},
    optional={"engine": st.sampled_from(["rfc9535", "jsonpath-ng"]),
              "jsonl": st.sampled_from([True, False, None]),
              "limit": st.one_of(st.integers(-1, 10**20), st.just("5"), st.just(True))})


def answered(status: int, body: dict, elapsed: float, sent: dict) -> None:
    """200, or a 4xx whose body names a ``code`` (and a sane place); in time."""
    shown = {k: (v[:200] if isinstance(v, str) else v) for k, v in sent.items()}
    assert elapsed < BUDGET, (elapsed, shown)
    if status == 200:
        assert {"matches", "count", "returned", "truncated"} <= set(body), shown
        return
    assert 400 <= status < 500, (status, body, shown)
    error = body["error"]
    assert isinstance(error["code"], str) and error["code"] and error["message"], (error, shown)
    for k in ("line", "column"):
        if k in error:
            assert isinstance(error[k], int) and error[k] >= 1, (error, shown)


def read_answer(data: bytes) -> dict:
    # exact numbers of any length come back: read the longest as text
    return json.loads(data, parse_int=lambda t: int(t) if len(t) < 4000 else t)


FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])


@FUZZ
@given(body=hostile_bodies)
def test_generated_hostile_requests_are_answered(client, body):
    started = time.monotonic()
    r = client.post("/api/extract", json=body)
    answered(r.status_code, read_answer(r.data), time.monotonic() - started, body)


def _peak_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))


@settings(FUZZ, max_examples=25)
@given(body=hostile_bodies)
def test_generated_hostile_requests_to_the_real_server(server, body):
    """The same through waitress: the process answers each, stays up, its peak memory bounded
    (every input here is under 1 MB; 300 MB of growth would be a flood)."""
    before = _peak_kb(server.proc.pid)
    started = time.monotonic()
    status, _, data = server.request("POST", "/api/extract", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"}, timeout=BUDGET + 5)
    answered(status, read_answer(data), time.monotonic() - started, body)
    assert server.proc.poll() is None
    assert _peak_kb(server.proc.pid) - before < 300 * 1024


@pytest.mark.parametrize("data, jsonl", [
    (b'{"a": "\xff\xfe"}\n', False), (b'\xef\xbb\xbf{"a": 1}', False), (b"\xc3\x28", False),
    (b'{"a": 1}\n{"a": "\xed\xa0\x80"}\n{"a": 2}\n', True), (b"\x80" * 100_000, True),
    (b'{"a": 1}\n' * 3000 + b"\xff\n" + b'{"a": 2}\n', True), (b"[" * 100_000, False),
])
def test_the_command_line_on_bad_utf8_and_deep_files(tmp_path, data, jsonl):
    """Bad UTF-8 (a lone surrogate's bytes, a stray byte) and deep nesting in the file: an exit
    status of 0, 1 or 2 with the fault said on standard error, never a traceback or a crash."""
    doc = tmp_path / "doc.json"
    doc.write_bytes(data)
    started = time.monotonic()
    code, out, err = run_workbench("extract", *(["--jsonl"] if jsonl else []), "$.a", doc,
                                   timeout=BUDGET)
    assert time.monotonic() - started < BUDGET
    assert "Traceback" not in err, err[-2000:]
    if jsonl and data.count(b"\n") > 1:  # the good lines still answer; the bad one is said
        assert code == 2 and out.splitlines()[:1] == ["1"], (code, out[:200], err[:500])
        assert err.count("doc.json:") == 1, err[:500]
    else:
        assert code == 2 and out == "", (code, out[:200], err[:500])
        assert "doc.json" in err.splitlines()[0]
