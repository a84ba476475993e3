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
import random
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

def shared_dir() -> Path:
    """$WORKBENCH_SHARED, else ../shared beside the checkout (or beside the folder of worktrees)."""
    if os.environ.get("WORKBENCH_SHARED"):
        return Path(os.environ["WORKBENCH_SHARED"])
    for candidate in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared"


def fixture_items_path() -> Path:
    """../shared/reference/openresponses-fixtures/items.jsonl (or under $WORKBENCH_SHARED)."""
    return shared_dir() / "reference" / "openresponses-fixtures" / "items.jsonl"


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


# ----------------------------------------------------------------------------- realistic data
# One seeded generator for every benchmark (issue 25): the cost of exact reading depends on what
# the text holds, so the data holds what real logs hold -- many distinct 64-bit integers (most
# beyond 2^53, where a float64 reader changes them), decimals written with their own digits
# (1741476542.0460, 0.000120), non-ASCII and long strings, deep and wide shapes, and the shapes of
# Open Responses items (the shared fixtures' real items among generated function calls and their
# outputs).  The same seed gives the same bytes.

SEED = 20261202
TOOL_NAMES = ("get_weather", "search_files", "create_subagent_call", "send_email", "read_file",
              "issue_refund")
NON_ASCII = ("Zürich", "São Paulo", "Kraków", "İstanbul", "Ελλάδα", "Москва", "القاهرة", "東京",
             "서울", "Hà Nội", "naïve café", "emoji 😀✓", "Ñandú", "Straße", "∑ résumé")
WORDS = ("order", "invoice", "weather", "forecast", "refund", "customer", "search", "report",
         "status", "completed", "pending", "the", "of", "and", "call", "tool", "result")


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(NON_ASCII) if rng.random() < 0.15 else rng.choice(WORDS)
                    for _ in range(words))


def _decimal(rng: random.Random, whole: int, digits: int) -> str:
    """A decimal as written by a logger: its digits, trailing zeros kept (``12.50``)."""
    return f"{whole}.{rng.randrange(10 ** digits):0{digits}d}"


def convertible(item: dict) -> bool:
    """Whether a fixture item may stand in a transcript that is to be converted: not a
    ``function_call`` whose ``arguments`` the conversion refuses (absent, not JSON, not an
    object: ``{"type": "function_call", "name": "test_tool"}`` and ``"arguments": "original"``
    are fragments of SDK tests that exercise bad input).  The rule is the converter's own
    (``Reading.arguments``: api.md's 422 ``arguments_type`` / ``arguments_parse``)."""
    if item.get("type") != "function_call":
        return True
    from workbench.dialects.conversation import Reading, Refused
    try:
        Reading("open_responses").arguments(item.get("arguments"), "")
    except Refused:
        return False
    return True


def realistic_items(seed: int = SEED, keep=None):
    """Endless Open Responses items, seeded: function calls (``arguments`` a JSON string with
    non-ASCII, decimals and a 64-bit id) each followed by its output, messages with long text,
    reasoning, and every so often a real item of the shared fixtures (those ``keep`` keeps:
    all of them by default)."""
    rng = random.Random(seed)
    fixtures = [json.dumps(i, ensure_ascii=False) for i in fixture_items() if keep is None or keep(i)]
    n = 0
    while True:
        r = rng.random()
        call_id = f"call_{rng.getrandbits(96):024x}"
        if r < 0.55:
            args = {"city": rng.choice(NON_ASCII), "days": rng.randint(1, 14),
                    "order_id": (rng.getrandbits(39) | 1 << 39) << 24 | (n & 0xFFFFFF),
                    "amount": float(_decimal(rng, rng.randrange(10**4), 2)),
                    "note": _text(rng, rng.randrange(3, 30))}
            yield {"type": "function_call", "id": f"fc_{rng.getrandbits(64):016x}", "call_id": call_id,
                   "name": rng.choice(TOOL_NAMES), "status": "completed",
                   "arguments": json.dumps(args, ensure_ascii=False, separators=(",", ":"))}
            yield {"type": "function_call_output", "call_id": call_id,
                   "output": json.dumps({"ok": rng.random() < 0.9, "temperature_c": rng.randrange(-300, 400) / 10,
                                         "summary": _text(rng, rng.randrange(5, 40))}, ensure_ascii=False)}
        elif r < 0.75:
            yield {"type": "message", "id": f"msg_{rng.getrandbits(64):016x}", "role": "assistant",
                   "status": "completed",
                   "content": [{"type": "output_text", "annotations": [],
                                "text": _text(rng, rng.randrange(20, 400 if rng.random() < 0.9 else 2000))}]}
        elif r < 0.85:
            yield {"type": "reasoning", "id": f"rs_{rng.getrandbits(64):016x}",
                   "summary": [{"type": "summary_text", "text": _text(rng, rng.randrange(10, 80))}]}
        elif fixtures:
            yield json.loads(fixtures[rng.randrange(len(fixtures))])
        n += 1


def realistic_entries(seed: int = SEED):
    """Endless log entries as JSON text, one per line, seeded: ``sequence_number``, a
    ``created_at`` decimal (``1741476542.0460``), a distinct 64-bit ``trace_id`` (above 2^53),
    a six-digit ``cost``, the ``item`` (:func:`realistic_items`), and every 10th a deep (12
    levels) ``context`` and every 7th a wide (60 numbers) ``samples``."""
    rng = random.Random(seed + 1)
    for n, item in enumerate(realistic_items(seed)):
        trace = (rng.getrandbits(39) | 1 << 39) << 24 | (n & 0xFFFFFF)   # distinct, ≥ 2^63
        line = (f'{{"sequence_number": {n}, "created_at": {_decimal(rng, 1741476542 + n // 8, 4)}, '
                f'"trace_id": {trace}, "user_id": {rng.randrange(1, 2**53)}, "cost": {_decimal(rng, 0, 6)}, ')
        if n % 10 == 3:
            deep = f'"{rng.choice(NON_ASCII)}"'
            for level in range(12):
                deep = f'{{"level": {level}, "span_id": {rng.getrandbits(64)}, "next": {deep}}}'
            line += f'"context": {deep}, '
        if n % 7 == 5:
            line += '"samples": [' + ", ".join(_decimal(rng, rng.randrange(1000), rng.randrange(1, 9))
                                                for _ in range(60)) + "], "
        yield line + f'"item": {json.dumps(item, ensure_ascii=False)}}}'


def _sized(lines, size_mb: float, sep: int):
    target, size = int(size_mb * 1_000_000), 0
    for line in lines:
        yield line
        size += len(line.encode("utf-8")) + sep
        if size >= target:
            return


def realistic_log(size_mb: float, seed: int = SEED) -> Path:
    """``{"object": "list", "model": "bench", "data": [...]}`` of :func:`realistic_entries`,
    one a line, about ``size_mb`` MB (written once to bench/data/, reused)."""
    path = DATA / f"realistic_{size_mb:g}mb_{seed}.json"
    if not path.exists():
        body = ",\n  ".join(_sized(realistic_entries(seed), size_mb, 4))
        write_atomic(path, '{"object": "list", "model": "bench", "data": [\n  ' + body + "\n]}\n")
    return path


def realistic_jsonl(size_mb: float, seed: int = SEED, items: bool = False) -> Path:
    """The same entries as JSON Lines (one value a line); ``items``: the items alone (a log of
    tool-call items, as the gate reads)."""
    path = DATA / f"realistic_{'items_' if items else ''}{size_mb:g}mb_{seed}.jsonl"
    if not path.exists():
        lines = (json.dumps(i, ensure_ascii=False) for i in realistic_items(seed)) if items \
            else realistic_entries(seed)
        write_atomic(path, "".join(line + "\n" for line in _sized(lines, size_mb, 1)))
    return path


def realistic_jsonl_lines(lines: int, seed: int = SEED, items: bool = True) -> Path:
    """:func:`realistic_jsonl` counted in lines: the first ``lines`` items (``items=False``: log
    entries), one a line."""
    path = DATA / f"realistic_{'items_' if items else ''}{lines}lines_{seed}.jsonl"
    if not path.exists():
        source = (json.dumps(i, ensure_ascii=False) for i in realistic_items(seed)) if items \
            else realistic_entries(seed)
        write_atomic(path, "".join(line + "\n" for line, _ in zip(source, range(lines))))
    return path


def realistic_documents(count: int, seed: int = SEED) -> list[str]:
    """``count`` log entries of :func:`realistic_entries` as JSON texts (small documents, one a
    value: what a per-document validator or a diff of items takes)."""
    return [line for line, _ in zip(realistic_entries(seed), range(count))]


def realistic_transcript(size_mb: float, seed: int = SEED, for_conversion: bool = False) -> Path:
    """A request body ``{"model", "input": [...]}`` of :func:`realistic_items` (calls paired
    with their outputs), one item a line.  ``for_conversion``: without the fixtures' calls a
    conversion refuses (:func:`convertible`), a file of its own (the others' data unchanged)."""
    name = "convertible_transcript" if for_conversion else "transcript"
    path = DATA / f"realistic_{name}_{size_mb:g}mb_{seed}.json"
    if not path.exists():
        keep = convertible if for_conversion else None
        items = (json.dumps(i, ensure_ascii=False) for i in realistic_items(seed, keep))
        write_atomic(path, '{"model": "gpt-5", "input": [\n' + ",\n".join(_sized(items, size_mb, 2)) + "\n]}\n")
    return path


def realistic_stream(size_mb: float, seed: int = SEED) -> Path:
    """A Responses SSE stream of about ``size_mb`` MB: the function calls of
    :func:`realistic_items`, each added, its arguments in 8-character deltas, done (with
    ``sequence_number``), between ``response.created`` and ``response.completed``."""
    path = DATA / f"realistic_stream_{size_mb:g}mb_{seed}.txt"
    if path.exists():
        return path
    out, size, seq = [], 0, 0
    target = int(size_mb * 1_000_000)

    def ev(d):
        nonlocal seq, size
        d["sequence_number"] = seq
        seq += 1
        text = f"event: {d['type']}\ndata: {json.dumps(d, ensure_ascii=False)}\n\n"
        out.append(text)
        size += len(text.encode("utf-8"))

    ev({"type": "response.created", "response": {"id": "resp_1", "object": "response",
                                                 "status": "in_progress", "output": []}})
    oi = 0
    for item in realistic_items(seed):
        if size >= target:
            break
        if item.get("type") != "function_call" or not isinstance(item.get("arguments"), str):
            continue
        iid, args = item.get("id") or f"fc_{oi:06d}", item["arguments"]
        ev({"type": "response.output_item.added", "output_index": oi,
            "item": {**item, "id": iid, "arguments": "", "status": "in_progress"}})
        for i in range(0, len(args), 8):
            ev({"type": "response.function_call_arguments.delta", "item_id": iid, "output_index": oi,
                "delta": args[i:i + 8]})
        ev({"type": "response.function_call_arguments.done", "item_id": iid, "output_index": oi,
            "arguments": args})
        ev({"type": "response.output_item.done", "output_index": oi, "item": {**item, "id": iid}})
        oi += 1
    ev({"type": "response.completed", "response": {"id": "resp_1", "object": "response",
                                                   "status": "completed", "output": []}})
    return write_atomic(path, "".join(out) + "data: [DONE]\n\n")


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
