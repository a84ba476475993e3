"""Issue 21's memory rows through the real server (``python -m workbench``, waitress, the whole
app): the peak resident memory a request adds (Linux's VmHWM of the server process, reset
before through ``/proc/PID/clear_refs``) over the size of its input, and what stays after it.

- a call-dense recording (JSON Lines, one ~90-byte function_call a line; 11 MB, 120,000 calls)
  peaked at ~36-40x its size through the server: now within 10x, every call counted;
- a chunked body (no Content-Length) over the limit is read only to the limit (+1 byte), then
  refused with the JSON 413, and the memory it took is given back.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from conftest import start_server, stop_server

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(),
                                                   reason="needs Linux's /proc (VmHWM, clear_refs)")]


def _mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise AssertionError(field)


def _reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def call_dense(n: int) -> str:
    return "".join(json.dumps({"type": "function_call", "name": "f", "call_id": f"c{i}",
                               "arguments": "{}", "status": "completed"},
                              separators=(",", ":")) + "\n" for i in range(n))


def test_a_call_dense_recording_stays_within_ten_times_its_size_through_the_server():
    from workbench.limits import TRANSCRIPT_MAX_CALLS
    text = call_dense(120_000)
    # a deadline of its own: the memory is measured whatever the load of the machine
    server = start_server("--work-timeout", "90")
    try:
        pid = server.proc.pid
        server.api("transcript", {"text": call_dense(10)})  # warm up: imports, validators
        time.sleep(0.5)
        start = _mb(pid, "VmRSS")
        _reset_peak(pid)
        t0 = time.perf_counter()
        status, answer = server.api("transcript", {"text": text}, timeout=120)
        took = time.perf_counter() - t0
        growth = (_mb(pid, "VmHWM") - start) * 2**20 / len(text)
        print(f"\n11 MB call-dense transcript: {status} in {took:.1f} s, peak +{growth:.1f}x the text")
        assert status == 200, answer
        assert answer["summary"]["calls"] == 120_000 and answer["summary"]["blocked"] == 120_000
        assert len(answer["calls"]) == TRANSCRIPT_MAX_CALLS
        assert answer["truncated"]["calls"] == 120_000 - TRANSCRIPT_MAX_CALLS
        assert growth <= 10, f"peak +{growth:.1f}x the text (was ~40x)"
    finally:
        stop_server(server)


def test_the_memory_of_call_dense_recordings_is_given_back_after_each():
    # a cycle (the spec check and its context) kept each request's parse alive: +38 MB after
    # each 5 MB recording, 47 -> 85 -> 123 -> 162 MB
    text = call_dense(60_000)
    server = start_server("--work-timeout", "90")
    try:
        pid = server.proc.pid
        server.api("transcript", {"text": call_dense(10)})
        time.sleep(0.5)
        start = _mb(pid, "VmRSS")
        after = []
        for _ in range(3):
            status, _ = server.api("transcript", {"text": text}, timeout=120)
            assert status == 200
            time.sleep(2.0)   # the trims run once the answer is sent, and 0.5 s later
            after.append(_mb(pid, "VmRSS") - start)
        print(f"\nRSS after each of three 5 MB recordings: {', '.join(f'+{a:.0f} MB' for a in after)}")
        assert max(after) <= 16, after
    finally:
        stop_server(server)


def test_a_chunked_body_over_the_limit_is_read_to_the_limit_and_its_memory_given_back():
    limit = 16 * 2**20
    server = start_server("--max-body", str(limit))
    try:
        pid = server.proc.pid
        server.api("format", {"text": "[1]"})
        time.sleep(0.5)
        start = _mb(pid, "VmRSS")
        _reset_peak(pid)
        c = socket.create_connection((server.host, server.port), timeout=30)
        c.sendall(f"POST /api/format HTTP/1.1\r\nHost: {server.host}:{server.port}\r\n"
                  "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b"x" * 65536
        sent = 0
        try:
            while sent < 3 * limit:
                c.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        except OSError:
            pass   # the server stopped reading: the refusal is on its way
        answer = b""
        try:
            while True:
                data = c.recv(65536)
                if not data:
                    break
                answer += data
        except OSError:
            pass
        c.close()
        peak = _mb(pid, "VmHWM") - start
        time.sleep(2.0)
        after = _mb(pid, "VmRSS") - start
        print(f"\nchunked {sent / 2**20:.0f} MB against a {limit >> 20} MiB limit: peak +{peak:.0f} MB, "
              f"+{after:.0f} MB two seconds after the 413")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413"), answer[:300]
        assert json.loads(body)["error"]["code"] == "too_large"
        assert peak <= 1.5 * (limit >> 20) + 8, f"peak +{peak:.0f} MB for a {limit >> 20} MiB limit"
        assert after <= 8, f"+{after:.0f} MB stayed after the 413"
    finally:
        stop_server(server)
