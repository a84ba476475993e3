"""The server stays responsive while one request is slow (issue 21): for each door, a worst-case
request runs against the real server while ``/api/health`` is asked every 50 ms; every health
answer comes within 1 s.  The server runs with a 3 s work deadline, so each case is bounded."""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest
from conftest import start_server, stop_server

pytestmark = pytest.mark.slow

ITEM = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "lookup",
        "status": "completed", "arguments": json.dumps({"q": "a" * 40 + "!"})}
TOOL = {"type": "function", "name": "lookup", "parameters": {
    "type": "object", "properties": {"q": {"type": "string", "pattern": "^(a|aa)+$"}}}}


def rows(n: int) -> list:
    return [{"id": i, "name": f"item {i}", "tags": ["a", "b", {"k": i}], "v": i * 1.5} for i in range(n)]


def worst_cases():
    big = json.dumps(rows(60_000))  # ~5 MB
    # 13 MB of JSONC, a comment of each kind per item: the linear pass runs to the deadline
    # (75 kB of ",/*" once took 21 s; now it takes 6 ms, no worst case any more)
    yield "format jsonc", "format", {"text": "[" + "1,/*a*/ // b\n" * 1_000_000 + "1]",
                                     "input": "jsonc"}
    yield "format yaml", "format", {"input": "yaml", "text": "\n".join(
        f"k{i}: [{', '.join(str(j) for j in range(40))}]" for i in range(6_000))}
    yield "format json5", "format", {"input": "json5", "text": "[" + ",".join(
        f"{{a: {i}, b: 'x{i}', c: [1, 2, 3,],}}" for i in range(25_000)) + "]"}
    yield "extract", "extract", {"document": big, "path": "$..*", "limit": 10_000}
    yield "validate pattern", "validate", {
        "document": json.dumps({"q": "a" * 40 + "!"}), "schema": json.dumps(TOOL["parameters"])}
    yield "diff", "diff", {"left": big, "right": json.dumps(rows(60_000)[::-1])}
    # 100,000 small objects against their reverse: every item a move (health waited 1.6-3.1 s
    # at its end: the first young collection after the collector's pause walked every object)
    small = [{"id": i, "v": i} for i in range(100_000)]
    yield "diff reversed", "diff", {"left": json.dumps(small), "right": json.dumps(small[::-1])}
    yield "gate", "gate", {"item": json.dumps(ITEM), "schema": json.dumps(TOOL)}
    yield "transcript", "transcript", {"text": "\n".join(json.dumps({**ITEM, "call_id": f"c{i}", "id": f"fc_{i}"})
                                                          for i in range(40_000))}
    # a call-dense recording: 11 MB, 120,000 calls of ~90 bytes (health waited 5.3 s beside it)
    yield "transcript call-dense", "transcript", {"text": "".join(json.dumps(
        {"type": "function_call", "name": "f", "call_id": f"c{i}", "arguments": "{}",
         "status": "completed"}, separators=(",", ":")) + "\n" for i in range(120_000))}


@pytest.fixture
def server():
    """A server of its own for each case: work that outlives its client cannot slow the next."""
    s = start_server("--work-timeout", "3")
    yield s
    stop_server(s)


# doors that did not hold yet when this test was written (2026-12-02, their owners were fixing them):
# drop a mark when its fix is merged (strict: a door that holds fails here until then)
OPEN: dict[str, str] = {}  # every door holds since the format (fc63d70…) and diff (aef4bfc…) fixes were merged
CASES = [pytest.param(*c, id=c[0], marks=[pytest.mark.xfail(strict=True, reason=OPEN[c[0]])]
                      if c[0] in OPEN else []) for c in worst_cases()]


@pytest.mark.parametrize("name, door, body", CASES)
def test_health_answers_within_a_second_while_a_worst_case_runs(server, name, door, body):
    payload = json.dumps(body)
    done = threading.Event()
    answer: list = []

    def slow():
        c = http.client.HTTPConnection(server.host, server.port, timeout=3 + 12)
        t0 = time.perf_counter()
        try:
            c.request("POST", f"/api/{door}", payload, {"Content-Type": "application/json"})
            r = c.getresponse()
            answer.append((r.status, r.read()[:300], time.perf_counter() - t0))
        except OSError as exc:  # no answer 12 s past the deadline
            answer.append((None, repr(exc).encode(), time.perf_counter() - t0))
        done.set()

    worker = threading.Thread(target=slow)
    worker.start()
    waits = []
    c = http.client.HTTPConnection(server.host, server.port, timeout=5)
    time.sleep(0.1)
    try:
        while not done.is_set():
            t0 = time.perf_counter()
            try:
                c.request("GET", "/api/health")
                r = c.getresponse()
                r.read()
                assert r.status == 200
            except OSError:
                c = http.client.HTTPConnection(server.host, server.port, timeout=5)
            waits.append(time.perf_counter() - t0)
            time.sleep(0.05)
    finally:
        worker.join()
    status, head, took = answer[0]
    print(f"\n{name}: {status} in {took:.2f} s; {len(waits)} health answers, "
          f"slowest {max(waits, default=0) * 1000:.0f} ms")
    assert status is not None and status < 500, head
    assert took < 3 + 5, f"past the 3 s deadline: {took:.1f} s"
    assert max(waits, default=0) < 1.0, f"health waited {max(waits):.2f} s"
