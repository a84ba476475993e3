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
from hypothesis import HealthCheck, given, settings, strategies as st

from workbench.limits import DEFAULT_LIMITS, PATH_MAX_NESTING, PATH_MAX_SEGMENTS

from conftest import run_workbench

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
