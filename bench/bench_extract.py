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
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA, Server, print_table, process_cpu, rel, write_atomic  # noqa: E402

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
    return write_atomic(path, f'{{"object": "list", "model": "bench", "data": [\n  {body}\n]}}\n')


def api_time(server: Server, text: str, path: str, limit: int | None, cpu: bool = True):
    """(wall seconds, CPU seconds of server + client, count, returned, response bytes)."""
    body = {"document": text, "path": path}
    if limit is not None:
        body["limit"] = limit
    payload = json.dumps(body).encode("utf-8")
    server_cpu = process_cpu(server.pid) if cpu else 0.0
    client_cpu = time.process_time()
    t0 = time.perf_counter()
    _, status, data = server.post("/api/extract", payload)
    result = json.loads(data)
    elapsed = time.perf_counter() - t0
    used = time.process_time() - client_cpu
    if cpu:
        time.sleep(0.05)  # let the server finish its after-request work before reading its CPU
        used += process_cpu(server.pid) - server_cpu
    if status != 200:
        raise RuntimeError(f"API answered {status}: {data[:300]!r}")
    if limit is not None and result["returned"] != min(limit, result["count"]):
        raise RuntimeError("the server cut the rows")
    if not all(m["path"] and m["pointer"] for m in result["matches"]):
        raise RuntimeError("a row without path or pointer")
    return elapsed, used, result["count"], result["returned"], len(data)


def ng_time(text: str, path: str):
    """jsonpath-ng ext as its users run it, plus what the API gives for every row: the
    normalized path and the JSON Pointer of each match."""
    from jsonpath_ng.ext import parse as ng_parse

    from workbench.extract.ng import ng_parts
    from workbench.jsontext import normalized_path, pointer_of

    cpu0 = time.process_time()
    t0 = time.perf_counter()
    doc = json.loads(text)
    found = ng_parse(path).find(doc)
    rows = []
    for m in found:
        parts = ng_parts(m, doc)
        rows.append((normalized_path(parts), pointer_of(parts)))
    elapsed = time.perf_counter() - t0
    return elapsed, time.process_time() - cpu0, len(rows)


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=200_000, help="function_call items (default 200000)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per timing, best kept (default 2)")
    args = ap.parse_args(argv)

    file = generate(args.items)
    text = file.read_text(encoding="utf-8")
    print(f"document: {rel(file)} · {len(text.encode()) / 1e6:.1f} MB · {args.items:,} items")
    rows: list[dict] = []
    # WORKBENCH_MAX_MATCHES raised so that "all rows" cuts nothing
    with Server(env={"WORKBENCH_MAX_MATCHES": str(10 * args.items + 10)}) as server:
        api_time(server, '{"warm": [1]}', "$.warm", None, cpu=False)  # import engines, warm up
        runs = max(1, args.repeat)
        for rfc_path, ng_path in QUERIES:
            default = [api_time(server, text, rfc_path, 10_000) for _ in range(runs)]
            every = [api_time(server, text, rfc_path, 10 * args.items) for _ in range(runs)]
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
            r["ratio_all_cpu"] = round(r["jsonpath_ng_cpu_s"] / max(r["api_all_cpu_s"], 0.01), 2)

    head = ("query", "matches", "api 10k rows", "api all rows", "jsonpath-ng ext",
            "× 10k rows", "× all rows", "CPU: api 10k / all / ng", "× CPU 10k / all")
    print_table(head, [(r["query"], f"{r['matches']:,}", f"{r['api_default_s']:.2f} s",
                        f"{r['api_all_s']:.2f} s ({r['api_all_mb']:.0f} MB)", f"{r['jsonpath_ng_s']:.2f} s",
                        f"{r['ratio_default']:.1f}×", f"{r['ratio_all']:.1f}×",
                        f"{r['api_default_cpu_s']:.2f} / {r['api_all_cpu_s']:.2f} / "
                        f"{r['jsonpath_ng_cpu_s']:.2f} s",
                        f"{r['ratio_default_cpu']:.1f}× / {r['ratio_all_cpu']:.1f}×") for r in rows])
    print("× = jsonpath-ng time / API time, wall clock (higher is better; the target is ≥ 2× with paths).")
    print("CPU = seconds of CPU used by server + client for the request, and by jsonpath-ng: steadier")
    print("than wall time on a busy machine. Best of --repeat runs; every run is cold (nothing cached).")
    print("'all rows' answers carry every match twice (value and its exact text): decoding them is part")
    print("of the time (the client's json.loads of a 47 MB answer alone is ~0.5 s).")
    print("Load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return rows


if __name__ == "__main__":
    main()
