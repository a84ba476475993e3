"""Shared fixtures: the real server on a loopback port, the real browser, the shared data.

* ``server``: ``python -m workbench --port 0`` in a subprocess (the real CLI, waitress, the
  whole app); tests talk to it over HTTP on 127.0.0.1.
* ``page``: a Chromium page driven by Playwright (Debian's /usr/bin/chromium, never a
  downloaded browser), which fails the test if the page requests any other host.
* ``shared``: the ../shared folder (or $WORKBENCH_SHARED); tests that need it skip outside
  CI when it is missing, and fail in CI.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
IN_CI = bool(os.environ.get("CI"))
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")


def shared_dir() -> Path | None:
    for candidate in (os.environ.get("WORKBENCH_SHARED"), ROOT.parent / "shared"):
        if candidate and Path(candidate, "conformance").is_dir():
            return Path(candidate)
    return None


def conformance_dir() -> Path | None:
    env = os.environ.get("WORKBENCH_CONFORMANCE")
    if env and Path(env).is_dir():
        return Path(env)
    s = shared_dir()
    return s / "conformance" if s else None


def _found(folder: Path | None, missing_in_ci: str, missing_here: str) -> Path:
    """``folder``, or the test fails (in CI) or skips (elsewhere) with the given reason."""
    if folder is None:
        if IN_CI:
            pytest.fail(missing_in_ci)
        pytest.skip(missing_here)
    return folder


@pytest.fixture(scope="session")
def shared() -> Path:
    return _found(shared_dir(), "../shared (or $WORKBENCH_SHARED) is missing in CI", "../shared is not here")


@pytest.fixture(scope="session")
def conformance() -> Path:
    return _found(conformance_dir(), "the conformance suites (../shared/conformance or "
                  "$WORKBENCH_CONFORMANCE) are missing in CI", "conformance suites not here")


class Server:
    def __init__(self, url: str, proc: subprocess.Popen):
        self.url = url.rstrip("/")
        self.proc = proc
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None, timeout: float = 60):
        req = urllib.request.Request(self.url + path, data=body, method=method,
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def api(self, name: str, body: dict, headers: dict | None = None, timeout: float = 60):
        """POST /api/<name>; returns (status, parsed JSON body)."""
        h = {"Content-Type": "application/json", **(headers or {})}
        status, _, data = self.request("POST", f"/api/{name}", json.dumps(body).encode(), h, timeout)
        return status, json.loads(data)


def start_server(*args: str, env: dict | None = None) -> Server:
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env={**os.environ, **(env or {})})
    deadline = time.time() + 30
    line = ""
    while time.time() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"(http://\S+)", line)
        if m:
            return Server(m.group(1), proc)
        if proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError(f"server did not start: {line!r} {proc.stderr.read()[:2000]}")


def stop_server(server: Server) -> None:
    server.proc.terminate()
    try:
        server.proc.wait(10)
    except subprocess.TimeoutExpired:
        server.proc.kill()


def run_workbench(*args, stdin: bytes | None = None, env: dict | None = None,
                  timeout: float = 120) -> tuple[int, str, str]:
    """The ``workbench`` command as a user runs it (a new process): (exit status, standard output,
    standard error).  ``NO_COLOR`` from the outer environment is dropped; ``env`` adds to it."""
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    proc = subprocess.run([sys.executable, "-m", "workbench", *map(str, args)], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=timeout,
                          env={**base, "PYTHONIOENCODING": "utf-8", **(env or {})})
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def on_a_terminal(*args, env: dict | None = None, stdout: bool = False,
                  timeout: float = 60) -> tuple[int, bytes, str]:
    """The ``workbench`` command with standard error on a pseudo-terminal (``TERM=xterm``,
    ``NO_COLOR`` from the outer environment dropped; ``env`` adds to it): (exit status, the bytes
    the terminal showed, standard output when ``stdout`` is asked for, else "").  Reading stops
    at the terminal's end or after ``timeout`` seconds without a byte."""
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "workbench", *map(str, args)], cwd=ROOT,
                            stdout=subprocess.PIPE if stdout else subprocess.DEVNULL, stderr=slave,
                            stdin=subprocess.DEVNULL, env={**base, "TERM": "xterm", **(env or {})})
    os.close(slave)
    seen = b""
    while select.select([master], [], [], timeout)[0]:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    out = proc.stdout.read().decode() if stdout else ""
    code = proc.wait(timeout)
    os.close(master)
    return code, seen, out


@pytest.fixture
def files(tmp_path):
    """``files(name, text)`` writes a UTF-8 file in a fresh folder and gives its path."""
    def write(name, text):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p
    return write


@pytest.fixture
def app():
    """The application in-process (the Flask tutorial's fixture): for tests of the web layer that
    need no socket.  The Host check looks at the name only (no port)."""
    from workbench.web import create_app
    return create_app()


@pytest.fixture
def client(app):
    """A test client of :func:`app`; requests carry ``Host: 127.0.0.1`` (as a browser would)."""
    return app.test_client()


@pytest.fixture(scope="session")
def server():
    s = start_server()
    yield s
    stop_server(s)


# ----------------------------------------------------------------------------- browser

@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail(f"Chromium is missing at {CHROMIUM}: browser tests must not skip in CI")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if IN_CI:
            pytest.fail("playwright is not installed: browser tests must not skip in CI")
        pytest.skip("playwright is not installed")
    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                           args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                                 "--disable-background-networking", "--disable-component-update",
                                 "--disable-sync"])
    yield b
    b.close()
    pw.stop()


@pytest.fixture
def page(browser, server):
    """A fresh page; every request it makes is recorded and must go to the app's own origin."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"],
                                  base_url=server.url)
    pg = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.foreign_requests = lambda: [u for u in requests if not _same_origin(u, server)]
    pg.requests_made = requests
    pg.js_errors = errors
    yield pg
    context.close()
    foreign = [u for u in requests if not _same_origin(u, server)]
    assert not foreign, f"the page requested other hosts: {foreign}"
    assert not errors, f"JavaScript errors on the page: {errors}"


def _same_origin(url: str, server: Server) -> bool:
    if url.startswith(("data:", "blob:", "about:")):
        return True
    p = urlsplit(url)
    return p.scheme == "http" and p.hostname == server.host and p.port == server.port
