"""Gate benchmark: ``workbench gate --jsonl`` on a generated log against a minimal gate.

    python bench/bench_gate.py                 # 200,000 items
    python bench/bench_gate.py --items 20000   # smaller

A JSON Lines log of tool-call items with mixed verdicts is generated once into
``bench/data/`` (seeded; varied arguments, so no two calls are alike), with a list of three
tool definitions.  Timed in one run:

* **workbench gate --jsonl** — the real command in a subprocess (interpreter start included):
  strict parsing (no NaN, repeated keys caught), every rule in order, full JSON Schema
  semantics (exact numbers, bounds, ``1.0`` as an integer…).
* **minimal loop** — a plain loop of ``json.loads`` per line plus a fresh minimal gate written
  here: the type/status/field/arguments checks and a hand-rolled validator that knows only
  ``type``, ``enum``, ``required`` and ``additionalProperties`` (it misses repeated keys, NaN
  and every other keyword, so its counts differ where those matter).

Target: the real gate at least as fast as the minimal loop (ratio ≤ 1.0).

Then ``workbench gate --jsonl --jobs 1`` and ``--jobs 2`` side by side (time and peak memory,
sampled from /proc over the command and its workers), on the same log and — with
``--log-gb 1`` (opt-in: it writes a 1 GB log to ``bench/data/`` once, streaming) — on a log
of that size; both must print the same summary.  ``main()`` returns the rows.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA, NON_ASCII, ROOT, print_table, rel  # noqa: E402

WORDS = ("paris berlin tokyo lima oslo cairo delhi quito sofia perth dakar hanoi lagos minsk "
         "riga kyiv doha rome bern baku").split()

TOOLS = [
    {"type": "function", "name": "get_latest_sales_report",
     "description": "Fetches the most recent sales report for the current quarter.",
     "parameters": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                    "additionalProperties": False, "required": ["region"],
                    "properties": {"region": {"type": "string", "enum": ["apac", "emea", "amer"]}}}},
    {"type": "function", "name": "issue_refund", "description": "Refund an order.",
     "parameters": {"type": "object", "additionalProperties": False,
                    "required": ["order_id", "amount"],
                    "properties": {"order_id": {"type": "string", "minLength": 5},
                                   "amount": {"type": "number", "exclusiveMinimum": 0, "maximum": 10000},
                                   "currency": {"type": "string", "enum": ["EUR", "USD", "JPY"]},
                                   "reason": {"type": "string", "maxLength": 200}}}},
    {"type": "function", "function": {
        "name": "get_weather", "description": "Weather for a place.",
        "parameters": {"type": "object", "required": ["location"],
                       "properties": {"location": {"type": "string"},
                                      "days": {"type": "integer", "minimum": 1, "maximum": 14},
                                      "units": {"type": "string", "enum": ["metric", "imperial"]}}}}},
]


# --------------------------------------------------------------------------- the log

def _args(rng: random.Random, name: str) -> dict:
    if name == "get_latest_sales_report":
        return {"region": rng.choice(["apac", "emea", "amer"])}
    if name == "issue_refund":
        a = {"order_id": f"ord_{rng.randrange(10**9)}", "amount": round(rng.uniform(1, 900), 2)}
        if rng.random() < 0.5:
            a["currency"] = rng.choice(["EUR", "USD", "JPY"])
        if rng.random() < 0.3:
            a["reason"] = " ".join(rng.sample(WORDS, 4))
        return a
    a = {"location": f"{rng.choice(NON_ASCII if rng.random() < 0.3 else WORDS).title()} {rng.randrange(1000)}"}
    if rng.random() < 0.7:
        a["days"] = rng.randint(1, 14)
    if rng.random() < 0.5:
        a["units"] = rng.choice(["metric", "imperial"])
    return a


def make_line(rng: random.Random, n: int) -> str:
    name = rng.choice(["get_latest_sales_report", "issue_refund", "get_weather"])
    args = _args(rng, name)
    item = {"type": "function_call", "id": f"fc_{n:08d}{rng.getrandbits(40):010x}",
            "call_id": f"call_{n:08d}{rng.getrandbits(32):08x}", "name": name,
            "arguments": json.dumps(args, separators=(",", ":")), "status": "completed"}
    r = rng.random()
    if r < 0.70:
        pass                                                      # ok
    elif r < 0.74:
        item["arguments"] = item["arguments"].replace('"apac"', '"global"').replace('"EUR"', '"eur"') \
            if name != "get_weather" else json.dumps(dict(args, units="kelvin"))  # enum
    elif r < 0.76:
        item["arguments"] = json.dumps(dict(args, refund=True))    # additionalProperties
    elif r < 0.77:
        item["arguments"] = json.dumps({k: v for k, v in args.items() if k not in ("region", "order_id", "location")})
    elif r < 0.78:
        item["arguments"] = json.dumps(dict(args, days=30)) if name == "get_weather" else \
            json.dumps(dict(args, amount=-5)) if name == "issue_refund" else item["arguments"]  # bounds
    elif r < 0.82:
        item["status"] = rng.choice(["in_progress", "incomplete"])
        item["arguments"] = item["arguments"][: rng.randrange(1, len(item["arguments"]))]
    elif r < 0.84:
        del item[rng.choice(["id", "call_id", "name"])]
    elif r < 0.86:
        item["arguments"] = args                                  # an object
    elif r < 0.87:
        item["arguments"] = item["arguments"][:-1] + ",}"         # trailing comma
    elif r < 0.88:
        k = next(iter(args))
        item["arguments"] = item["arguments"][:-1] + f',"{k}":{json.dumps(args[k])}}}'  # repeated key
    elif r < 0.91:
        item["name"] = rng.choice(["delete_all_orders", "send_email", "shell"])
    elif r < 0.96:
        item = {"type": "function_call_output", "call_id": item["call_id"],
                "output": json.dumps({"ok": True, "n": n})}
    elif r < 0.99:
        item = {"type": rng.choice(["openai:web_search_call", "acme:trace_event"]),
                "id": f"ws_{n}", "status": "completed"}
    elif r < 0.999:
        item = {"type": "message", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": " ".join(rng.sample(WORDS, 6))}]}
    else:
        return '{"type": "function_call", "id": "broken'         # not JSON
    return json.dumps(item, ensure_ascii=False, separators=(", ", ": "))


def patterned_tools() -> list:
    """The same tools with a ``pattern`` on order_id: outside the compiled subset, so every
    refund call goes through the full validator (jsonschema with the regex package)."""
    tools = json.loads(json.dumps(TOOLS))
    tools[1]["parameters"]["properties"]["order_id"]["pattern"] = "^ord_[0-9]+$"
    return tools


def ensure_log(items: int, seed: int = 7) -> tuple[Path, Path]:
    DATA.mkdir(parents=True, exist_ok=True)
    log = DATA / f"gate_v2_{items}_{seed}.jsonl"  # v2: non-ASCII places (common.NON_ASCII)
    tools = DATA / "gate_tools.json"
    tools.write_text(json.dumps(TOOLS, indent=2))
    (DATA / "gate_tools_pattern.json").write_text(json.dumps(patterned_tools(), indent=2))
    if not log.exists():
        rng = random.Random(seed)
        tmp = log.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            for n in range(items):
                f.write(make_line(rng, n) + "\n")
        tmp.replace(log)
    return log, tools


# --------------------------------------------------------------------------- the minimal gate

_TYPE_OK = {
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


def mini_valid(schema: dict, value) -> bool:
    """type, enum, required, additionalProperties: nothing else."""
    t = schema.get("type")
    if t is not None and not _TYPE_OK[t](value):
        return False
    enum = schema.get("enum")
    if enum is not None and value not in enum:
        return False
    if isinstance(value, dict):
        for r in schema.get("required", ()):
            if r not in value:
                return False
        props = schema.get("properties", {})
        closed = schema.get("additionalProperties", True) is False
        for k, v in value.items():
            sub = props.get(k)
            if sub is not None:
                if not mini_valid(sub, v):
                    return False
            elif closed:
                return False
    return True


def mini_gate(item, tools: dict) -> str:
    if not isinstance(item, dict):
        return "namespaced"
    t = item.get("type")
    if not isinstance(t, str) or ":" in t:
        return "namespaced"
    if t != "function_call":
        return "not_function_call"
    if item.get("status") != "completed":
        return "status"
    for f in ("id", "name", "call_id"):
        v = item.get(f)
        if not isinstance(v, str) or not v:
            return "missing_fields"
    a = item.get("arguments")
    if not isinstance(a, str):
        return "arguments_type"
    try:
        args = json.loads(a)
    except ValueError:
        return "arguments_parse"
    schema = tools.get(item["name"])
    if schema is None:
        return "unknown_tool"
    if not mini_valid(schema, args):
        return "arguments_schema"
    return "ok"


def run_minimal(log: Path, tools_path: Path) -> dict:
    tools = {}
    for t in json.loads(tools_path.read_text()):
        fn = t.get("function", t)
        tools[fn["name"]] = fn["parameters"]
    counts: dict = {}
    not_json = 0
    started = time.perf_counter()
    with log.open("rb") as f:
        for line in f:
            try:
                item = json.loads(line)
            except ValueError:
                not_json += 1
                continue
            v = mini_gate(item, tools)
            counts[v] = counts.get(v, 0) + 1
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "counts": counts, "not_json": not_json}


def run_orjson(log: Path, tools_path: Path) -> dict:
    """The floor: ``orjson.loads`` of every line, nothing checked (issue 25's reference)."""
    import orjson
    started = time.perf_counter()
    n = bad = 0
    with log.open("rb") as f:
        for line in f:
            try:
                orjson.loads(line)
                n += 1
            except orjson.JSONDecodeError:
                bad += 1
    return {"seconds": time.perf_counter() - started, "counts": {"parsed": n}, "not_json": bad}


def run_workbench(log: Path, tools_path: Path, jobs: int | None = 1) -> dict:
    """The command (``--jobs 1`` unless told: the one-process figure), timed, with its peak
    memory (the command and its workers, sampled from /proc)."""
    import tempfile

    from bench_format import LAST_CPU, measured_run
    cmd = [sys.executable, "-m", "workbench", "gate", "--jsonl", str(log), "--schema",
           str(tools_path), "--json-summary"] + (["--jobs", str(jobs)] if jobs else [])
    with tempfile.TemporaryFile() as out:
        seconds, peak, code, err = measured_run(cmd, stdout=out, cwd=ROOT,
                                                env={**os.environ, "PYTHONPATH": str(ROOT)},
                                                interval=0.05)
        out.seek(0)
        stdout = out.read()
    if code not in (0, 1):
        raise SystemExit(f"workbench gate failed ({code}): {err.decode()[:2000]}")
    summary = json.loads(stdout)
    # the gating time is on standard error ("… N lines in S s"): standard output is the same
    # for the same log
    timed = re.search(rb" lines in ([0-9.]+) s", err)
    return {"seconds": seconds, "counts": summary["counts"], "not_json": summary["not_json"],
            "inner_seconds": float(timed.group(1)) if timed else seconds, "peak_mb": round(peak, 1),
            "cpu_seconds": round(LAST_CPU[0], 2),
            "summary": {k: v for k, v in summary.items() if k != "seconds"}}


def ensure_big_log(gb: float, seed: int = 11) -> Path:
    """A log of about ``gb`` GB, written once line by line (never held in memory)."""
    DATA.mkdir(parents=True, exist_ok=True)
    log = DATA / f"gate_{gb:g}gb_{seed}.jsonl"
    if log.exists():
        return log
    rng = random.Random(seed)
    target = int(gb * 1e9)
    tmp = log.with_suffix(".tmp")
    size = n = 0
    started = time.perf_counter()
    with tmp.open("w", encoding="utf-8", buffering=1 << 20) as f:
        while size < target:
            batch = "".join(make_line(rng, n + k) + "\n" for k in range(1000))
            f.write(batch)
            size += len(batch.encode("utf-8"))
            n += 1000
    tmp.replace(log)
    print(f"wrote {rel(log)}: {size / 1e9:.2f} GB, {n:,} lines in {time.perf_counter() - started:.0f} s")
    return log


def jobs_rows(log: Path, tools: Path, label: str) -> list[dict]:
    """``--jobs 1`` and ``--jobs 2`` on one log: time, peak memory, and the same summary."""
    one = run_workbench(log, tools, 1)
    two = run_workbench(log, tools, 2)
    same = one["summary"] == two["summary"]
    lines = one["summary"]["lines"]
    rows = []
    for jobs, r in ((1, one), (2, two)):
        rows.append({"name": f"workbench gate --jsonl --jobs {jobs}", "log": label, "jobs": jobs,
                     "seconds": round(r["seconds"], 3), "peak_mb": r["peak_mb"],
                     "lines": lines, "size_mb": round(log.stat().st_size / 1e6, 1),
                     "items_per_s": round(lines / r["seconds"]), "same_output": same,
                     "counts": r["counts"], "not_json": r["not_json"],
                     "inner_seconds": r["inner_seconds"], "cpu_seconds": r["cpu_seconds"]})
    print_table(("command", "log", "seconds", "CPU seconds", "lines/s", "peak memory", "same output"),
                [(r["name"], r["log"], f"{r['seconds']:.2f}", f"{r['cpu_seconds']:.2f}",
                  f"{r['items_per_s']:,}", f"{r['peak_mb']:.0f} MB", "yes" if r["same_output"] else "NO")
                 for r in rows])
    try:
        print(f"(load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
              f"{os.cpu_count()} cores: on a busy machine compare CPU seconds and memory)")
    except OSError:
        pass
    if not same:
        raise SystemExit("--jobs 2 printed another summary than --jobs 1")
    return rows


# --------------------------------------------------------------------------- main

def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=200_000, help="items in the log (default 200000)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, best kept (default 3)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--no-pattern", action="store_true",
                    help="skip the extra row with a pattern schema (the full-validator path)")
    ap.add_argument("--log-gb", type=float, default=0, metavar="GB",
                    help="also --jobs 1 vs 2 on a generated log of this many GB (e.g. 1; opt-in)")
    args = ap.parse_args(argv)
    log, tools = ensure_log(args.items, args.seed)
    size = log.stat().st_size
    print(f"log: {rel(log)} ({args.items:,} items, {size / 1e6:.1f} MB); tools: {rel(tools)}")
    best: dict = {}
    for _ in range(max(1, args.repeat)):
        for name, fn in (("workbench gate --jsonl (subprocess)", run_workbench),
                         ("json.loads + minimal gate (in-process)", run_minimal),
                         ("orjson.loads per line (in-process)", run_orjson)):
            r = fn(log, tools)
            if name not in best or r["seconds"] < best[name]["seconds"]:
                best[name] = r
    if not args.no_pattern:
        best["workbench, refund schema with pattern (full validator)"] = run_workbench(
            log, DATA / "gate_tools_pattern.json")
    base = best["json.loads + minimal gate (in-process)"]["seconds"]
    rows = []
    for name, r in best.items():
        rows.append({"name": name, "seconds": round(r["seconds"], 3),
                     "items_per_s": round(args.items / r["seconds"]),
                     "ratio": round(r["seconds"] / base, 2), "counts": r["counts"],
                     "not_json": r["not_json"], **({"inner_seconds": r["inner_seconds"]}
                                                   if "inner_seconds" in r else {})})
    print_table(("", "seconds", "items/s", "ratio"),
                [(r["name"], f"{r['seconds']:.3f}", f"{r['items_per_s']:,}", f"{r['ratio']:.2f}") for r in rows])
    inner = rows[0].get("inner_seconds")
    if inner is not None:
        print(f"(workbench: {inner:.3f} s gating, the rest is interpreter start and imports)")
    verdicts = sorted(set(rows[0]["counts"]) | set(rows[1]["counts"]))
    print("\nverdicts            workbench     minimal")
    for v in verdicts:
        print(f"  {v:<17} {rows[0]['counts'].get(v, 0):>9,} {rows[1]['counts'].get(v, 0):>11,}")
    print(f"  {'not JSON':<17} {rows[0]['not_json']:>9,} {rows[1]['not_json']:>11,}")
    print("(the minimal gate misses repeated keys and every keyword beyond type/enum/required/"
          "additionalProperties)")
    target = rows[0]["ratio"] <= 1.0
    print(f"\ntarget (workbench ≤ 1.0 × minimal): {'met' if target else 'NOT met'}")
    pattern = next((r for r in rows if "pattern" in r["name"]), None)
    if pattern:
        print(f"(informational: with a pattern keyword the refund calls take the full validator "
              f"path: {pattern['seconds']:.2f} s, {pattern['ratio']:.2f} × minimal)")
    floor = next(r for r in rows if r["name"].startswith("orjson"))
    print(f"orjson per line / workbench: {floor['seconds'] / rows[0]['seconds']:.2f} (issue 25 wants ≥ 0.5)")
    print("\n--jobs 1 and --jobs 2 side by side (peak memory: the command and its workers)")
    rows.extend(jobs_rows(log, tools, f"{args.items:,} items, {size / 1e6:.0f} MB"))
    if args.log_gb:
        big = ensure_big_log(args.log_gb)
        rows.extend(jobs_rows(big, tools, f"{big.stat().st_size / 1e9:.2f} GB"))
    return rows


if __name__ == "__main__":
    main()
