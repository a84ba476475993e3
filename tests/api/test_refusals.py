"""Issue 21 rows 11 and 12 through the real server: a body over the limit is refused from its
``Content-Length`` before it is read (a chunked one when the limit is passed), every refusal —
the server's own (413, 400, 431, 501) and the app's (404, 405, 400, 413) — is the JSON error body
with the security headers, and no request or answer is ever written to a file (the werkzeug form
spool, waitress's input and output overflow)."""

from __future__ import annotations

import json
import os
import select
import socket
import threading
import time
from pathlib import Path

import pytest
from conftest import start_server, stop_server

LIMIT = 100_000


@pytest.fixture(scope="module")
def small():
    """A server whose body limit is 100 kB."""
    s = start_server("--max-body", str(LIMIT))
    yield s
    stop_server(s)


def raw(server, head: bytes, body: bytes = b"", timeout: float = 5.0) -> tuple[int, dict, bytes]:
    """Send ``head`` (request line and headers, without the blank line) and ``body`` on a socket;
    read the whole answer (the server closes or sends Content-Length)."""
    with socket.create_connection((server.host, server.port), timeout=timeout) as sock:
        sock.sendall(head + b"\r\n\r\n" + body)
        return read_answer(sock)


def read_answer(sock) -> tuple[int, dict, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines[1:])}
    length = int(headers.get("content-length", -1))
    while length < 0 or len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, headers, rest


def assert_json_refusal(status, headers, body, want_status, want_code):
    assert status == want_status, (status, body[:300])
    assert headers["content-type"].startswith("application/json"), headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    error = json.loads(body)["error"]
    assert error["code"] == want_code, error
    return error


def test_over_the_limit_is_refused_from_content_length_before_the_body(small):
    head = (f"POST /api/format HTTP/1.1\r\nHost: 127.0.0.1:{small.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {LIMIT + 1}").encode()
    t0 = time.monotonic()
    # no byte of the body is sent: the answer comes from the header alone
    error = assert_json_refusal(*raw(small, head), 413, "too_large")
    assert time.monotonic() - t0 < 3
    assert error["limit"] == LIMIT and f"{LIMIT:,} bytes" in error["message"]


def test_exactly_at_the_limit_is_served(small):
    text = json.dumps({"text": "[" + " " * (LIMIT - 20) + "1]"})
    body = text.encode() + b" " * (LIMIT - len(text))
    assert len(body) == LIMIT
    head = (f"POST /api/format HTTP/1.1\r\nHost: 127.0.0.1:{small.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {LIMIT}").encode()
    status, _, answer = raw(small, head, body)
    assert status == 200, answer[:300]
    assert json.loads(answer)["formatted"] == "[\n  1\n]"


def test_a_client_that_sends_first_still_reads_the_refusal(small):
    # urllib writes the whole body before it reads: the server reads and drops the rest of a
    # refused body (nothing kept), so the answer is not lost to a reset connection
    status, body = small.api("format", {"text": "x" * (20 * LIMIT)})
    assert status == 413 and body["error"]["code"] == "too_large"


def test_a_chunked_body_is_refused_when_it_passes_the_limit(small):
    head = (f"POST /api/format HTTP/1.1\r\nHost: 127.0.0.1:{small.port}\r\n"
            f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"
    sent = 0
    with socket.create_connection((small.host, small.port), timeout=5) as sock:
        sock.sendall(head)
        while not select.select([sock], [], [], 0.01)[0]:
            sock.sendall(chunk)
            sent += 0x4000
            assert sent < 3 * LIMIT, "the server kept reading past the limit"
        answer = read_answer(sock)
    assert_json_refusal(*answer, 413, "too_large")
    assert sent >= LIMIT - 0x4000


@pytest.mark.parametrize("head, status, code", [
    (b"GET /nope HTTP/1.1", 404, "not_found"),
    (b"GET /api/format HTTP/1.1", 405, "method_not_allowed"),
    (b"POST /api/format HTTP/1.1\r\nContent-Length: abc", 400, "bad_request"),
    (b"POST /api/format HTTP/1.1\r\nContent-Length: 99999999999999", 413, "too_large"),
    (b"POST /api/format HTTP/1.1\r\nTransfer-Encoding: gzip", 501, "not_implemented"),
    (b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 300_000, 431, "headers_too_large"),
])
def test_every_refusal_is_the_json_error_with_the_security_headers(server, head, status, code):
    head = head.replace(b" HTTP/1.1", b" HTTP/1.1\r\nHost: 127.0.0.1:%d" % server.port, 1)
    assert_json_refusal(*raw(server, head), status, code)


def test_werkzeugs_form_refusal_is_the_json_error_too(server):
    parts = b"".join(b'--b\r\nContent-Disposition: form-data; name="f%d"\r\n\r\nx\r\n' % i
                     for i in range(1001)) + b"--b--\r\n"
    head = (b"POST /format HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: multipart/form-data; "
            b"boundary=b\r\nContent-Length: %d" % (server.port, len(parts)))
    error = assert_json_refusal(*raw(server, head, parts), 413, "too_large")
    assert error["limit"] == 1000 and "more than 1,000 parts" in error["message"]


def test_a_form_text_field_over_500_kb_is_served(server):
    # werkzeug refused a non-file form field over 500 kB (a pasted document, JavaScript off)
    # (the pages' forms are multipart: they take a file too)
    body = (b'--b\r\nContent-Disposition: form-data; name="text"\r\n\r\n[' + b"1," * 400_000 +
            b'1]\r\n--b\r\nContent-Disposition: form-data; name="indent"\r\n\r\n0\r\n--b--\r\n')
    status, _, page = server.request("POST", "/format", body, {
        "Content-Type": "multipart/form-data; boundary=b", "Origin": server.url,
        "Sec-Fetch-Site": "same-origin"})
    assert status == 200 and b"1,1,1,1" in page


# --------------------------------------------------------------------------- nothing on disk

def open_files(pid: int) -> list[Path]:
    """The regular files the process holds open (deleted ones included)."""
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("/") and not target.startswith(("/dev/", "/proc/")) \
                and not target.endswith((".py", ".pyc", ".so")):
            found.append(fd)
    return found


def files_holding(pid: int, marker: bytes) -> list[str]:
    hits = []
    for fd in open_files(pid):
        try:
            with open(fd, "rb") as f:
                if marker in f.read(64 * 1024 * 1024):
                    hits.append(os.readlink(fd))
        except OSError:
            continue
    return hits


def test_no_upload_or_answer_is_written_to_a_file(server):
    pid = server.proc.pid
    marker = b"MARKER-%d-%d" % (os.getpid(), time.time_ns())
    hits: list[str] = []
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            hits.extend(files_holding(pid, marker))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        # a plain form's file upload of 2 MB (werkzeug spools file parts over 500 kB) ...
        doc = b"[" + b",".join(b'"%s-%d"' % (marker, i) for i in range(60_000)) + b"]"
        boundary = b"xyzzy"
        form = (b"--" + boundary + b'\r\nContent-Disposition: form-data; name="text_file"; '
                b'filename="a.json"\r\nContent-Type: application/json\r\n\r\n' + doc +
                b"\r\n--" + boundary + b"--\r\n")
        status, _, page = server.request("POST", "/format", form, {
            "Content-Type": "multipart/form-data; boundary=xyzzy", "Origin": server.url,
            "Sec-Fetch-Site": "same-origin"})
        assert status == 200 and marker in page
        # ... and an answer over 1 MB that the client does not read yet (waitress's output
        # overflow would hold it in a file meanwhile)
        sock = socket.create_connection((server.host, server.port), timeout=10)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        body = json.dumps({"text": doc.decode()}).encode()
        sock.sendall(b"POST /api/format HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: "
                     b"application/json\r\nContent-Length: %d\r\n\r\n" % (server.port, len(body)) + body)
        time.sleep(1.5)
        hits.extend(files_holding(pid, marker))
        status, _, answer = read_answer(sock)
        sock.close()
        assert status == 200 and marker in answer
    finally:
        stop.set()
        watcher.join()
    assert not hits, f"the marker was written to {sorted(set(hits))}"


def test_a_refused_body_is_not_invited_by_100_continue(small):
    head = (f"POST /api/format HTTP/1.1\r\nHost: 127.0.0.1:{small.port}\r\nExpect: 100-continue\r\n"
            f"Content-Type: application/json\r\nContent-Length: {LIMIT + 1}").encode()
    status, headers, body = raw(small, head)
    assert status == 413, "the server asked for the body it refuses (100 Continue)"
    assert_json_refusal(status, headers, body, 413, "too_large")
