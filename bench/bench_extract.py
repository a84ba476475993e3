"""Extract benchmark: ``POST /api/extract`` (the real server, over HTTP) against jsonpath-ng
``ext`` on the same generated log of function_call items.

    .venv/bin/python bench/bench_extract.py            # 200,000 items
    .venv/bin/python bench/bench_extract.py --items 20000

For each query it times, in one run:

* ``api (N rows)``: one HTTP request to a server on a free port with the default response
  limit (10,000 rows with path, pointer, value, exact text, line and column; ``count`` says
  how many matched in all), including the client decoding the response;
* ``api (all rows)``: the same with ``limit`` = every match (the server is started with
  ``WORKBENCH_MAX_MATCHES`` raised so that nothing is cut);
* ``jsonpath-ng``: ``json.loads`` of the same text + ``jsonpath_ng.ext.parse`` + ``find`` +
  the normalized path and JSON Pointer of every match (built from the match's context chain
  with the same helpers the API uses), i.e. what the API answers, in process.

Each timing is the best of ``--repeat`` runs (default 2; every run is cold: nothing is cached
between requests).

The document is written to ``bench/data/`` (git-ignored) and reused.  ``main()`` returns the
rows of the table as dicts.
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
sys.path.insert(0, str(ROOT))
DATA = ROOT / "bench" / "data"

QUERIES = [
    ("$..call_id", "$..call_id"),
    ("$.data[?@.status=='completed']", "$.data[?(@.status=='completed')]"),
]
STATUSES = ["completed", "completed", "in_progress", "incomplete"]
NAMES = ["get_weather", "search_files", "create_subagent_call", "send_email", "read_file"]


def generate(items: int) -> Path:
    """A Responses-API-like list of ``items`` function_call items (written once, reused)."""
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"extract_{items}.json"
    if path.exists():
        return path
    rows = []
    for i in range(items):
        rows.append({
            "type": "function_call",
            "id": f"fc_{i:07d}",
            "call_id": f"call_{i:07x}",
            "name": NAMES[i % len(NAMES)],
            "arguments": json.dumps({"city": f"City {i % 977}", "days": i % 7 + 1},
                                    separators=(",", ":")),
            "status": STATUSES[i % len(STATUSES)],
        })
    # one item per line, as a log viewer or `jq -c` would show it
    body = ",\n  ".join(json.dumps(r) for r in rows)
    text = f'{{"object": "list", "model": "bench", "data": [\n  {body}\n]}}\n'
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def start_server(max_matches: int) -> tuple[subprocess.Popen, str, int]:
    env = {**os.environ, "WORKBENCH_MAX_MATCHES": str(max_matches)}
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "--port", "0"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"http://([\d.]+):(\d+)", line)
        if m:
            return proc, m.group(1), int(m.group(2))
        if proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError("the server did not start: " + proc.stderr.read()[:2000])


TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system, all threads) a process has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def api_time(conn: http.client.HTTPConnection, text: str, path: str, limit: int | None,
             server_pid: int | None = None):
    """(wall seconds, CPU seconds of server + client, count, returned, response bytes)."""
    body = {"document": text, "path": path}
    if limit is not None:
        body["limit"] = limit
    payload = json.dumps(body).encode("utf-8")
    server_cpu = process_cpu(server_pid) if server_pid else 0.0
    client_cpu = time.process_time()
    t0 = time.perf_counter()
    conn.request("POST", "/api/extract", payload, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = resp.read()
    result = json.loads(data)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - client_cpu
    if server_pid:
        time.sleep(0.05)  # let the server finish its after-request work before reading its CPU
        cpu += process_cpu(server_pid) - server_cpu
    if resp.status != 200:
        raise RuntimeError(f"API answered {resp.status}: {data[:300]!r}")
    if limit is not None and result["returned"] != min(limit, result["count"]):
        raise RuntimeError("the server cut the rows")
    if not all(m["path"] and m["pointer"] for m in result["matches"]):
        raise RuntimeError("a row without path or pointer")
    return elapsed, cpu, result["count"], result["returned"], len(data)


def ng_time(text: str, path: str):
    """jsonpath-ng ext as its users run it, plus what the API gives for every row: the
    normalized path and the JSON Pointer of each match."""
    from jsonpath_ng.ext import parse as ng_parse

    from workbench.extract import _ng_parts, path_of, pointer_from

    cpu0 = time.process_time()
    t0 = time.perf_counter()
    doc = json.loads(text)
    found = ng_parse(path).find(doc)
    rows = []
    for m in found:
        parts = _ng_parts(m, doc)
        rows.append((path_of(parts), pointer_from(parts)))
    elapsed = time.perf_counter() - t0
    return elapsed, time.process_time() - cpu0, len(rows)


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=200_000, help="function_call items (default 200000)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per timing, best kept (default 2)")
    args = ap.parse_args(argv)

    file = generate(args.items)
    text = file.read_text(encoding="utf-8")
    print(f"document: {file.relative_to(ROOT)} · {len(text.encode()) / 1e6:.1f} MB · {args.items:,} items")
    proc, host, port = start_server(max_matches=10 * args.items + 10)
    rows: list[dict] = []
    try:
        conn = http.client.HTTPConnection(host, port, timeout=300)
        api_time(conn, '{"warm": [1]}', "$.warm", None)  # import engines, warm up
        runs = max(1, args.repeat)
        for rfc_path, ng_path in QUERIES:
            default = [api_time(conn, text, rfc_path, 10_000, proc.pid) for _ in range(runs)]
            every = [api_time(conn, text, rfc_path, 10 * args.items, proc.pid) for _ in range(runs)]
            ng = [ng_time(text, ng_path) for _ in range(runs)]
            count, count_all, count_ng = default[0][2], every[0][2], ng[0][2]
            if not (count == count_all == count_ng):
                raise RuntimeError(f"match counts differ: api {count}, jsonpath-ng {count_ng}")
            best = lambda runs_, i: min(r[i] for r in runs_)  # noqa: E731
            rows.append({"query": rfc_path, "matches": count,
                         "api_default_s": round(best(default, 0), 3),
                         "api_default_cpu_s": round(best(default, 1), 3),
                         "api_default_rows": default[0][3],
                         "api_all_s": round(best(every, 0), 3), "api_all_cpu_s": round(best(every, 1), 3),
                         "api_all_rows": every[0][3], "api_all_mb": round(every[0][4] / 1e6, 1),
                         "jsonpath_ng_s": round(best(ng, 0), 3), "jsonpath_ng_cpu_s": round(best(ng, 1), 3)})
            r = rows[-1]
            r["ratio_default"] = round(r["jsonpath_ng_s"] / r["api_default_s"], 2)
            r["ratio_all"] = round(r["jsonpath_ng_s"] / r["api_all_s"], 2)
            r["ratio_default_cpu"] = round(r["jsonpath_ng_cpu_s"] / max(r["api_default_cpu_s"], 0.01), 2)
        conn.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()

    head = ("query", "matches", "api 10k rows", "api all rows", "jsonpath-ng ext",
            "× 10k rows", "× all rows", "CPU: api 10k / ng", "× CPU")
    table = [head] + [(r["query"], f"{r['matches']:,}", f"{r['api_default_s']:.2f} s",
                       f"{r['api_all_s']:.2f} s", f"{r['jsonpath_ng_s']:.2f} s",
                       f"{r['ratio_default']:.1f}×", f"{r['ratio_all']:.1f}×",
                       f"{r['api_default_cpu_s']:.2f} / {r['jsonpath_ng_cpu_s']:.2f} s",
                       f"{r['ratio_default_cpu']:.1f}×") for r in rows]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(head))]
    for n, row in enumerate(table):
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
        if n == 0:
            print("  ".join("-" * w for w in widths))
    print("× = jsonpath-ng time / API time, wall clock (higher is better; the target is ≥ 2× with paths).")
    print("CPU = seconds of CPU used by server + client for the request, and by jsonpath-ng: steadier")
    print("than wall time on a busy machine. Best of --repeat runs; every run is cold (nothing cached).")
    return rows


if __name__ == "__main__":
    main()
