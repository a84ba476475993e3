"""Extract benchmark on realistic, seeded data: ``extract.handle`` (the core of
``POST /api/extract``) against bare jsonpath-rfc9535 and jsonpath-ng, ``workbench extract
--jsonl`` against ``jq -c``, and the cost from one size to four times it.

    .venv/bin/python bench/bench_extract.py                 # 20 MB, 80 MB, 100,000 log lines
    .venv/bin/python bench/bench_extract.py --size-mb 5 --big-mb 0 --lines 20000 --repeat 1

The data is the one seeded generator of every benchmark (``bench/common.py``: its realistic log,
written once to ``bench/data/``, git-ignored): log entries holding Open Responses items (function
calls, their outputs, messages, reasoning, the shared fixtures' real items), with distinct 64-bit
ids (most above 2^53: each an ``unsafe_integer`` warning), decimals written as numbers
(``1741476542.0460``), non-ASCII text (accents, CJK, Cyrillic, emoji), arguments as JSON strings,
deep (12 levels) and wide (60 numbers) members.

For each query, in one run, rotating the contenders each round (best of ``--repeat``):

* ``ours``: ``workbench.extract.handle`` in process: the exact parse (warnings placed), the
  query, the first 10,000 rows with path, pointer, exact text, line and column;
* ``jsonpath-rfc9535``: ``json.loads`` + ``jsonpath_rfc9535.find`` (its nodes, nothing more);
* ``jsonpath-ng``: ``json.loads`` + ``jsonpath_ng.ext.parse(...).find``.

ratio = reference time / ours (above 1: we are faster); CPU seconds are given beside the wall
time (steadier on a busy machine).  ``--jsonl``: ``workbench extract --jsonl PATH log.jsonl >
/dev/null`` against ``jq -c FILTER log.jsonl > /dev/null`` (both commands, start-up included).
``main()`` returns the rows of the table as dicts.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, SEED, print_table, realistic_jsonl_lines, realistic_log, rel  # noqa: E402

# (RFC 9535 path, the same for jsonpath-ng ext, the same for jq)
QUERIES = [
    ("$..call_id", "$..call_id", '.. | objects | select(has("call_id")) | .call_id'),
    ("$.data[?@.item.type=='function_call'].item.arguments",
     "$.data[?(@.item.type=='function_call')].item.arguments",
     '.data[] | select(.item.type == "function_call") | .item.arguments'),
]
# the log's query is on each line's value (an item)
LOG_QUERY = ("$..call_id", '.. | objects | select(has("call_id")) | .call_id')



def generate(size_mb: float, seed: int = SEED) -> Path:
    """The realistic log of bench/common.py (:func:`common.realistic_log`: log entries whose
    ``item`` is an Open Responses item; distinct 64-bit ids, decimals, non-ASCII, deep and wide),
    about ``size_mb`` MB, one entry a line (written once, reused)."""
    return realistic_log(size_mb, seed)


def generate_log(lines: int, seed: int = SEED) -> Path:
    """A JSON Lines log of ``lines`` items of the same generator (written once, reused)."""
    return realistic_jsonl_lines(lines, seed, items=True)


# ----------------------------------------------------------------------------- the contenders

def ours(text: str, query: str) -> int:
    from workbench.extract import handle
    from workbench.limits import DEFAULT_LIMITS
    # no work deadline (the command line's default): the time is what is measured
    return handle({"document": text, "path": query}, DEFAULT_LIMITS.with_(work_timeout=0))["count"]


def rfc9535_bare(text: str, query: str) -> int:
    import jsonpath_rfc9535
    return len(jsonpath_rfc9535.find(query, json.loads(text)))


def ng_bare(text: str, query: str) -> int:
    from jsonpath_ng.ext import parse as ng_parse
    return len(ng_parse(query).find(json.loads(text)))


def timed(fn, *args) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of this process, result)."""
    cpu, t0 = time.process_time(), time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - t0, time.process_time() - cpu, result


def timed_command(argv: list[str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the child, exit status) of a command, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    code = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}).returncode
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), code


def rounds(contenders: dict, repeat: int) -> dict:
    """Each contender ``repeat`` times, their order rotated each round: name → best
    (wall, cpu, result) by wall time."""
    names = list(contenders)
    got: dict = {n: [] for n in names}
    for k in range(max(1, repeat)):
        for name in names[k % len(names):] + names[:k % len(names)]:
            got[name].append(contenders[name]())
    return {n: min(runs, key=lambda r: r[0]) for n, runs in got.items()}


def _ratio(ref: float, ours_: float) -> float:
    return round(ref / ours_, 2) if ours_ else float("inf")


# ----------------------------------------------------------------------------- the run

def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=20, help="the document's size (default 20)")
    ap.add_argument("--big-mb", type=float, default=80,
                    help="the larger document, for the cost step (default 80; 0 skips it)")
    ap.add_argument("--lines", type=int, default=100_000, help="lines of the log for --jsonl "
                    "(default 100000; 0 skips it)")
    ap.add_argument("--seed", type=int, default=SEED, help=f"the data's seed (default {SEED}: bench/common.py)")
    ap.add_argument("--repeat", type=int, default=2, help="rounds, best kept (default 2)")
    ap.add_argument("--items", type=int, help=argparse.SUPPRESS)  # bench/run's old call: see below
    args = ap.parse_args(argv)
    if args.items:  # about 1,500 items a MB; only the query rows, with the keys bench/run reads
        args.size_mb, args.big_mb, args.lines = round(args.items / 1500, 1), 0, 0
    rows: list[dict] = []

    file = generate(args.size_mb, args.seed)
    text = file.read_text(encoding="utf-8")
    print(f"document: {rel(file)} · {len(text.encode()) / 1e6:.1f} MB · {text.count(chr(10)) - 1:,} items")
    ours(text[:2000].rsplit(",\n", 1)[0] + "]}", "$..x")  # import the engines
    for rfc, ng, _ in QUERIES:
        best = rounds({"ours": lambda: timed(ours, text, rfc),
                       "rfc9535": lambda: timed(rfc9535_bare, text, rfc),
                       "ng": lambda: timed(ng_bare, text, ng)}, args.repeat)
        counts = {n: r[2] for n, r in best.items()}
        if len(set(counts.values())) != 1:
            raise RuntimeError(f"match counts differ: {counts}")
        o = best["ours"]
        rows.append({"query": rfc, "size_mb": round(len(text.encode()) / 1e6, 1), "matches": o[2],
                     "ours_s": round(o[0], 3), "ours_cpu_s": round(o[1], 3),
                     "rfc9535_s": round(best["rfc9535"][0], 3), "rfc9535_cpu_s": round(best["rfc9535"][1], 3),
                     "jsonpath_ng_s": round(best["ng"][0], 3), "jsonpath_ng_cpu_s": round(best["ng"][1], 3)})
        r = rows[-1]
        r["ratio_rfc9535"] = _ratio(r["rfc9535_s"], r["ours_s"])
        r["ratio_ng"] = _ratio(r["jsonpath_ng_s"], r["ours_s"])
        r["ratio_rfc9535_cpu"] = _ratio(r["rfc9535_cpu_s"], r["ours_cpu_s"])
        r["ratio_ng_cpu"] = _ratio(r["jsonpath_ng_cpu_s"], r["ours_cpu_s"])
        r["api_default_s"], r["api_all_s"] = r["ours_s"], None  # bench/run's names (in process now)
    print_table(("query", "matches", "ours", "jsonpath-rfc9535", "jsonpath-ng", "× rfc9535", "× ng",
                 "CPU: ours / rfc9535 / ng", "× CPU rfc9535 / ng"),
                [(r["query"], f"{r['matches']:,}", f"{r['ours_s']:.2f} s", f"{r['rfc9535_s']:.2f} s",
                  f"{r['jsonpath_ng_s']:.2f} s", f"{r['ratio_rfc9535']:.2f}×", f"{r['ratio_ng']:.2f}×",
                  f"{r['ours_cpu_s']:.2f} / {r['rfc9535_cpu_s']:.2f} / {r['jsonpath_ng_cpu_s']:.2f} s",
                  f"{r['ratio_rfc9535_cpu']:.2f}× / {r['ratio_ng_cpu']:.2f}×") for r in rows])
    print("× = reference time / ours (above 1: ours is faster; wanted: ≥ 1.0× rfc9535, ≥ 2× jsonpath-ng).")

    if args.big_mb:
        big = generate(args.big_mb, args.seed).read_text(encoding="utf-8")
        for rfc, _, _ in QUERIES:
            small_s = next(r["ours_s"] for r in rows if r["query"] == rfc and "step" not in r)
            wall, cpu, count = rounds({"ours": lambda: timed(ours, big, rfc)}, 1)["ours"]
            rows.append({"query": rfc, "step": f"{args.size_mb:g} → {args.big_mb:g} MB",
                         "ours_s": round(small_s, 3), "big_s": round(wall, 3), "big_cpu_s": round(cpu, 3),
                         "factor": round(wall / small_s, 2), "wanted": round(args.big_mb / args.size_mb * 1.125, 2)})
        del big
        print_table(("query", "step", "small", "big", "× time (wanted ≤ 4.5×)"),
                    [(r["query"], r["step"], f"{r['ours_s']:.2f} s", f"{r['big_s']:.2f} s", f"{r['factor']:.2f}×")
                     for r in rows if "step" in r])

    if args.lines:
        log = generate_log(args.lines)
        jq = shutil.which("jq")
        path, jq_filter = LOG_QUERY
        contenders = {"ours": lambda: timed_command([sys.executable, "-m", "workbench", "extract", "--jsonl",
                                                     path, str(log)])}
        if jq:
            contenders["jq"] = lambda: timed_command([jq, "-c", jq_filter, str(log)])
        best = rounds(contenders, args.repeat)
        o = best["ours"]
        row = {"query": f"--jsonl {path}", "lines": args.lines, "log_mb": round(log.stat().st_size / 1e6, 1),
               "ours_s": round(o[0], 3), "ours_cpu_s": round(o[1], 3), "jq_s": None, "ratio_jq": None}
        if jq:
            row.update(jq_s=round(best["jq"][0], 3), jq_cpu_s=round(best["jq"][1], 3),
                       ratio_jq=_ratio(best["jq"][0], o[0]))
        rows.append(row)
        print(f"workbench extract --jsonl '{path}' ({args.lines:,} lines, {row['log_mb']} MB): "
              f"{row['ours_s']:.2f} s (CPU {row['ours_cpu_s']:.2f} s)"
              + (f"; jq -c: {row['jq_s']:.2f} s (CPU {row['jq_cpu_s']:.2f} s); ratio {row['ratio_jq']:.2f}×"
                 " (wanted ≥ 1.0×)" if jq else "; jq is not installed (apt-get install jq)"))
    print("Load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return rows


if __name__ == "__main__":
    main()
