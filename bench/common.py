"""What the benchmark scripts share: where data goes, the shared Open Responses fixtures, the
real server on a free port, best-of-N timing, CPU seconds of a process, and a plain table.

    from common import DATA, Server, best, fixture_items, print_table

Every script still runs on its own (``python bench/bench_format.py``); ``bench/run`` runs them
all and prints one table.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"          # generated documents (git-ignored), reused between runs
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TICK = os.sysconf("SC_CLK_TCK")


# ----------------------------------------------------------------------------- data

def fixture_items_path() -> Path:
    """../shared/reference/openresponses-fixtures/items.jsonl (or under $WORKBENCH_SHARED)."""
    return Path(os.environ.get("WORKBENCH_SHARED", ROOT.parent / "shared")) / \
        "reference" / "openresponses-fixtures" / "items.jsonl"


def fixture_items() -> list[dict]:
    """The real Open Responses items of the shared fixtures; a few synthesized ones when the
    fixtures are not here (a clean checkout elsewhere)."""
    items = []
    path = fixture_items_path()
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                if isinstance(entry.get("item"), dict):
                    items.append(entry["item"])
    if items:
        return items
    return [
        {"type": "message", "id": "msg_0001", "role": "user", "status": "completed",
         "content": [{"type": "input_text", "text": "What's the weather in Zürich?"}]},
        {"type": "function_call", "id": "fc_0001", "call_id": "call_0001", "name": "get_weather",
         "arguments": "{\"city\":\"Zürich\",\"days\":3}", "status": "completed"},
        {"type": "function_call_output", "call_id": "call_0001",
         "output": "{\"temperature_c\": 21.5, \"sky\": \"clear\"}"},
        {"type": "message", "id": "msg_0002", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "It is 21.5 °C and clear.", "annotations": []}]},
        {"type": "reasoning", "id": "rs_0001", "summary": [{"type": "summary_text", "text": "Called the tool."}]},
    ]


def fixtures_label() -> str:
    return "from the shared fixtures" if fixture_items_path().exists() else "synthesized"


def write_atomic(path: Path, text: str) -> Path:
    """Write through a temporary file, so an interrupted run never leaves half a document."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def read_log(path: Path) -> tuple[str, int, int]:
    """A generated log (a JSON array, one entry a line): (its text, its size in bytes, entries)."""
    text = path.read_text(encoding="utf-8")
    return text, len(text.encode("utf-8")), text.count("\n") - 1


# ----------------------------------------------------------------------------- the command line

def arguments(doc: str, *, repeat: int = 1, size: str = "size of the generated log") -> argparse.ArgumentParser:
    """The flags every log benchmark takes (``--size-mb``, ``--repeat``, ``--no-api``), described
    by the first paragraph of the script's ``doc``; the script adds its own."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=20, help=f"{size} in MB (default 20)")
    ap.add_argument("--repeat", type=int, default=repeat, help=f"runs per timing, best kept (default {repeat})")
    ap.add_argument("--no-api", action="store_true", help="skip the HTTP timing")
    return ap


# ----------------------------------------------------------------------------- timing

def best(fn, repeat: int):
    """Run ``fn`` ``repeat`` times (at least once); the result whose first element (the time)
    is lowest."""
    runs = [fn() for _ in range(max(1, repeat))]
    return min(runs, key=lambda r: r[0])


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, all threads) a process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


# ----------------------------------------------------------------------------- the server

class Server:
    """The real server (``python -m workbench --port 0``) in a subprocess, talked to over one
    keep-alive HTTP connection.  ``env`` adds environment variables (limits)."""

    def __init__(self, env: dict | None = None, timeout: float = 600):
        self.proc = subprocess.Popen([sys.executable, "-m", "workbench", "--port", "0"], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, **(env or {})})
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            m = re.search(r"http://([\d.]+):(\d+)", line)
            if m:
                self.host, self.port = m.group(1), int(m.group(2))
                self.url = f"http://{self.host}:{self.port}"
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
                return
            if self.proc.poll() is not None:
                break
        self.proc.kill()
        raise RuntimeError("the server did not start: " + self.proc.stderr.read()[:2000])

    @property
    def pid(self) -> int:
        return self.proc.pid

    def post(self, path: str, payload: bytes) -> tuple[float, int, bytes]:
        """(seconds from sending to the last byte read, status, body bytes)."""
        t0 = time.perf_counter()
        self.conn.request("POST", path, payload, {"Content-Type": "application/json"})
        resp = self.conn.getresponse()
        data = resp.read()
        return time.perf_counter() - t0, resp.status, data

    def api(self, name: str, payload: bytes) -> tuple[float, dict]:
        """POST /api/NAME with an encoded body; (seconds including decoding the answer, body).
        Anything but 200 raises."""
        t0 = time.perf_counter()
        _, status, data = self.post(f"/api/{name}", payload)
        body = json.loads(data)
        elapsed = time.perf_counter() - t0
        if status != 200:
            raise RuntimeError(f"/api/{name} answered {status}: {data[:300]!r}")
        return elapsed, body

    def close(self) -> None:
        try:
            self.conn.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def start_server(env: dict | None = None) -> tuple[subprocess.Popen, str, int]:
    """The older interface: (process, host, port) of a started server."""
    s = Server(env)
    s.conn.close()
    return s.proc, s.host, s.port


# ----------------------------------------------------------------------------- output

def print_table(head, rows, left=(0,), file=None) -> None:
    """Columns padded to their widest cell; columns in ``left`` flush left, the rest right."""
    table = [tuple(str(c) for c in head)] + [tuple(str(c) for c in r) for r in rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    out = file or sys.stdout
    for n, row in enumerate(table):
        print("  ".join(c.ljust(w) if i in left else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))).rstrip(), file=out)
        if n == 0:
            print("  ".join("-" * w for w in widths), file=out)
