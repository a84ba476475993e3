"""Memory and scale: every view's core on the same realistic data (bench/common.py), each run in
a child process of its own, with its peak memory beside its time; and the 20 → 80 MB step.

    .venv/bin/python bench/bench_memory.py                 # 20 MB, the step to 80 MB
    .venv/bin/python bench/bench_memory.py --size-mb 2     # quick: 2 MB, the step to 8 MB
    .venv/bin/python bench/bench_memory.py --no-step       # the memory rows only

Each contender runs in a fresh interpreter (``--child TASK FILE``) that reads the file, then runs
the task once; it reports the task's seconds (the file already read, the imports done) and its
peak resident memory (``VmHWM`` of /proc/self/status: the interpreter, the text and everything the
task built).  ``peak / input`` is that peak over the input's size (issue 21 wants transcripts
≤ 10×).  The workbench is its cores as the server calls them (``handle(body, limits)``, no work
deadline); the gate is the ``workbench gate --jsonl`` command (peak sampled from /proc, its
workers too).  The references run the same way: ``jq .`` (a subprocess, peak sampled),
jsonpath-rfc9535 alone (``json.loads`` + ``findall``), jsonschema-rs and jsonschema
(``json.loads`` + ``iter_errors``), ``jsonpatch.make_patch`` (both ``json.loads`` included),
``json.loads`` for the transcript, ``orjson.loads`` per line for the gate.

The step: format, extract and transcript at ``--size-mb`` and 4× that; the ratio of times (want
≤ 4.5× for 4× the input: linear, with some slack) for ours and for the reference.
``main()`` returns the rows.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    DATA,
    ROOT,
    print_table,
    realistic_jsonl,
    realistic_log,
    realistic_transcript,
    rel,
    write_atomic,
)

QUERY = "$..call_id"
FILTER = "$.data[?@.item.type=='function_call'].item.arguments"

# the entries' schema: types, required keys, bounds, enums, a pattern (a validator's usual work)
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "required": ["object", "data"],
    "properties": {
        "object": {"const": "list"}, "model": {"type": "string"},
        "data": {"type": "array", "items": {
            "type": "object", "required": ["sequence_number", "created_at", "trace_id", "item"],
            "properties": {
                "sequence_number": {"type": "integer", "minimum": 0},
                "created_at": {"type": "number", "minimum": 1.7e9},
                "trace_id": {"type": "integer", "minimum": 0},
                "user_id": {"type": "integer", "minimum": 1},
                "cost": {"type": "number", "minimum": 0, "maximum": 1},
                "samples": {"type": "array", "items": {"type": "number"}, "maxItems": 100},
                "context": {"type": "object"},
                "item": {"type": "object", "required": ["type"], "properties": {
                    "type": {"type": "string", "pattern": "^[a-z_:]+$"},
                    "status": {"enum": ["completed", "in_progress", "incomplete"]},
                    "call_id": {"type": "string", "minLength": 5}}},
            }}},
    },
}


# ----------------------------------------------------------------------------- the child

def _peak_kb() -> int:
    from workbench.runtime.memory import peak_bytes  # the one VmHWM reader
    return peak_bytes() // 1024


def _limits():
    from workbench.limits import DEFAULT_LIMITS
    return DEFAULT_LIMITS.with_(work_timeout=0)


def _task(name: str, texts: list[str]):
    """The callable a child times: ``name`` on the texts it read."""
    text = texts[0]
    if name == "format":
        from workbench.format import handle
        return lambda: handle({"text": text, "indent": 2}, _limits())
    if name in ("extract", "extract-filter"):
        from workbench.extract import handle
        path = QUERY if name == "extract" else FILTER
        return lambda: handle({"document": text, "path": path}, _limits())
    if name == "validate":
        from workbench.validate import handle
        schema = json.dumps(SCHEMA)
        return lambda: handle({"document": text, "schema": schema}, _limits())
    if name == "diff":
        from workbench.diff import handle
        return lambda: handle({"left": text, "right": texts[1]}, _limits())
    if name == "transcript":
        from workbench.transcript import handle
        return lambda: handle({"text": text}, _limits())
    if name in ("rfc9535", "rfc9535-filter"):
        import jsonpath_rfc9535
        path = QUERY if name == "rfc9535" else FILTER
        return lambda: [n.value for n in jsonpath_rfc9535.find(path, json.loads(text))]
    if name in ("jsonpath-ng", "jsonpath-ng-filter"):
        from jsonpath_ng.ext import parse
        path = QUERY if name == "jsonpath-ng" else FILTER.replace("[?@", "[?(@").replace("]", ")]", 1)
        return lambda: [m.value for m in parse(path).find(json.loads(text))]
    if name == "jsonschema-rs":
        import jsonschema_rs
        v = jsonschema_rs.validator_for(SCHEMA)
        return lambda: list(v.iter_errors(json.loads(text)))
    if name == "jsonschema":
        from jsonschema import Draft202012Validator
        v = Draft202012Validator(SCHEMA)
        return lambda: list(v.iter_errors(json.loads(text)))
    if name == "make_patch":
        import jsonpatch
        return lambda: jsonpatch.make_patch(json.loads(text), json.loads(texts[1]))
    if name == "json.loads":
        return lambda: json.loads(text)
    if name == "orjson-lines":
        import orjson
        return lambda: [orjson.loads(line) for line in text.splitlines()]
    raise SystemExit(f"unknown task {name}")


def child(name: str, files: list[str]) -> None:
    texts = [Path(f).read_text(encoding="utf-8") for f in files]
    fn = _task(name, texts)
    base = _peak_kb()  # the interpreter, the imports and the text
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_kb": _peak_kb(), "base_kb": base}))


# ----------------------------------------------------------------------------- the parent

def in_child(name: str, *files: Path) -> dict:
    """``name`` run once in a fresh interpreter: {seconds, peak_mb}."""
    import subprocess
    done = subprocess.run([sys.executable, __file__, "--child", name, *map(str, files)], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode != 0:
        raise RuntimeError(f"{name} failed: {done.stderr[-1500:]}")
    r = json.loads(done.stdout.strip().splitlines()[-1])
    return {"seconds": r["seconds"], "cpu": r["cpu"], "peak_mb": r["peak_kb"] / 1024,
            "added_mb": (r["peak_kb"] - r["base_kb"]) / 1024}


def command(cmd: list[str], stdout_file: Path | None = None) -> dict:
    """A command, timed from start to exit, its peak sampled from /proc (with its workers)."""
    from bench_format import measured_run
    if stdout_file is None:
        seconds, peak, code, err = measured_run(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    else:
        with stdout_file.open("wb") as out:
            seconds, peak, code, err = measured_run(cmd, stdout=out, cwd=ROOT,
                                                    env={**os.environ, "PYTHONPATH": str(ROOT)})
    if code not in (0, 1):
        raise RuntimeError(f"{cmd[:3]} exited {code}: {err[-1500:]!r}")
    from bench_format import LAST_CPU
    return {"seconds": seconds, "cpu": LAST_CPU[0], "peak_mb": peak}


def best_of(fn, repeat: int) -> dict:
    runs = [fn() for _ in range(max(1, repeat))]
    return min(runs, key=lambda r: r.get("cpu", r["seconds"]))


def changed_copy(path: Path) -> Path:
    """The right side of the diff: the same log with 1 % of the entries changed (a cost, a
    status, a word of the text)."""
    out = path.with_name(path.stem + "_changed.json")
    if out.exists():
        return out
    lines = path.read_text(encoding="utf-8").split("\n")
    for i in range(1, len(lines) - 1, 100):
        lines[i] = re.sub(r'"cost": 0\.(\d)', lambda m: f'"cost": 0.{(int(m.group(1)) + 1) % 10}', lines[i], count=1)
        lines[i] = lines[i].replace('"completed"', '"incomplete"', 1)
    return write_atomic(out, "\n".join(lines))


def jq_available() -> str | None:
    return shutil.which("jq")


def memory_rows(size_mb: float, repeat: int) -> list[dict]:
    """One row per view at ``size_mb``: ours (time, peak, peak / input) and its reference."""
    log = realistic_log(size_mb)
    lines = realistic_jsonl(size_mb, items=True)
    transcript = realistic_transcript(size_mb)
    right = changed_copy(log)
    mb = lambda p: p.stat().st_size / 1e6  # noqa: E731
    out_file = DATA / "memory_out.json"
    jq = jq_available()
    tools = DATA / "memory_tools.json"
    tools.write_text(json.dumps([{"type": "function", "name": n, "parameters": {"type": "object"}}
                                 for n in ("get_weather", "search_files", "create_subagent_call",
                                           "send_email", "read_file", "issue_refund")]))
    jq_cmd = lambda *a: (lambda: command([jq, *a], out_file)) if jq else None  # noqa: E731
    plan = [  # task, input, size, ours, [(reference name, reference)]
        ("format", log, mb(log), lambda: in_child("format", log), [("jq .", jq_cmd(".", str(log)))]),
        (f"extract {QUERY}", log, mb(log), lambda: in_child("extract", log),
         [("jsonpath-rfc9535 alone", lambda: in_child("rfc9535", log)),
          ("jsonpath-ng ext", lambda: in_child("jsonpath-ng", log)),
          ("jq [..|.call_id?|strings]", jq_cmd("-c", "[..|.call_id?|strings]", str(log)))]),
        (f"extract {FILTER}", log, mb(log), lambda: in_child("extract-filter", log),
         [("jsonpath-rfc9535 alone", lambda: in_child("rfc9535-filter", log)),
          ("jsonpath-ng ext", lambda: in_child("jsonpath-ng-filter", log))]),
        ("validate", log, mb(log), lambda: in_child("validate", log),
         [("jsonschema-rs", lambda: in_child("jsonschema-rs", log)),
          ("jsonschema", lambda: in_child("jsonschema", log))]),
        ("diff (1 % of entries changed)", log, mb(log) + mb(right), lambda: in_child("diff", log, right),
         [("jsonpatch.make_patch", lambda: in_child("make_patch", log, right))]),
        ("gate --jsonl --jobs 1 (command)", lines, mb(lines),
         lambda: command([sys.executable, "-m", "workbench", "gate", "--jsonl", str(lines), "--schema",
                          str(tools), "--json-summary", "--jobs", "1"], out_file),
         [("orjson per line", lambda: in_child("orjson-lines", lines))]),
        ("transcript", transcript, mb(transcript), lambda: in_child("transcript", transcript),
         [("json.loads", lambda: in_child("json.loads", transcript))]),
    ]
    rows = []
    for task, path, size, ours, refs in plan:
        print(f"  {task} on {rel(path)} ({size:.1f} MB) …", flush=True)
        o = best_of(ours, repeat)
        for ref_name, ref in refs:
            r = best_of(ref, repeat) if ref else None
            rows.append({"task": task, "size_mb": round(size, 1), "seconds": round(o["seconds"], 3),
                         "peak_mb": round(o["peak_mb"], 1), "peak_x": round(o["peak_mb"] / size, 1),
                         "added_mb": round(o["added_mb"], 1) if "added_mb" in o else None,
                         "reference": ref_name if ref else f"{ref_name} (not installed)",
                         "ref_seconds": round(r["seconds"], 3) if r else None,
                         "ref_peak_mb": round(r["peak_mb"], 1) if r else None})
    out_file.unlink(missing_ok=True)
    return rows


def step_rows(size_mb: float, repeat: int) -> list[dict]:
    """format, extract and transcript at ``size_mb`` and 4×: the ratio of times, ours and the
    reference's."""
    big = size_mb * 4
    jq = jq_available()
    out_file = DATA / "memory_out.json"
    rows = []
    for task, make, ours, ref_name, ref in (
            ("format", realistic_log, lambda p: in_child("format", p),
             "jq .", (lambda p: command([jq, ".", str(p)], out_file)) if jq else None),
            (f"extract {QUERY}", realistic_log, lambda p: in_child("extract", p),
             "jsonpath-rfc9535 alone", lambda p: in_child("rfc9535", p)),
            ("transcript", realistic_transcript, lambda p: in_child("transcript", p),
             "json.loads", lambda p: in_child("json.loads", p))):
        small_p, big_p = make(size_mb), make(big)
        print(f"  step {task}: {rel(small_p)} → {rel(big_p)} …", flush=True)
        o1, o4 = (best_of(lambda: ours(p), repeat) for p in (small_p, big_p))
        r1, r4 = (best_of(lambda: ref(p), repeat) for p in (small_p, big_p)) if ref else (None, None)
        # the step on CPU seconds (user + system): on a busy machine the wall time measures the
        # other processes too; both are kept
        rows.append({"task": task, "small_mb": round(small_p.stat().st_size / 1e6, 1),
                     "big_mb": round(big_p.stat().st_size / 1e6, 1),
                     "seconds": round(o1["seconds"], 3), "big_seconds": round(o4["seconds"], 3),
                     "cpu": round(o1["cpu"], 3), "big_cpu": round(o4["cpu"], 3),
                     "wall_step": round(o4["seconds"] / o1["seconds"], 2),
                     "step": round(o4["cpu"] / o1["cpu"], 2),
                     "big_peak_mb": round(o4["peak_mb"], 1),
                     "reference": ref_name if ref else f"{ref_name} (not installed)",
                     "ref_step": round(r4["cpu"] / r1["cpu"], 2) if r1 else None})
    out_file.unlink(missing_ok=True)
    return rows


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=20, help="size of each input in MB (default 20)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per timing, best kept (default 1)")
    ap.add_argument("--no-step", action="store_true", help="skip the step to 4× the size")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory rows")
    ap.add_argument("--child", nargs="+", metavar=("TASK", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1:])
        return {}
    if not jq_available():
        print("jq is not installed (apt-get install jq): its rows are left out")
    result = {"memory": [], "step": []}
    if not args.no_memory:
        result["memory"] = memory_rows(args.size_mb, args.repeat)
        print_table(("task", "input", "ours", "peak", "peak / input", "added by the task", "reference",
                     "reference time", "ref peak"),
                    [(r["task"], f"{r['size_mb']:.1f} MB", f"{r['seconds']:.2f} s", f"{r['peak_mb']:.0f} MB",
                      f"{r['peak_x']:.1f}×", f"{r['added_mb']:.0f} MB" if r["added_mb"] is not None else "–",
                      r["reference"],
                      f"{r['ref_seconds']:.2f} s" if r["ref_seconds"] is not None else "–",
                      f"{r['ref_peak_mb']:.0f} MB" if r["ref_peak_mb"] is not None else "–")
                     for r in result["memory"]], left=(0, 6))
        print("peak: VmHWM of the child (interpreter, imports, the text and all the task built); added: the "
              "peak past what the child held before the task (the text read, the imports done)")
    if not args.no_step:
        result["step"] = step_rows(args.size_mb, args.repeat)
        print_table(("task", "small", "big", "ours small (CPU)", "ours big (CPU)", "step (CPU)", "step (wall)",
                     "reference", "reference step"),
                    [(r["task"], f"{r['small_mb']:.0f} MB", f"{r['big_mb']:.0f} MB", f"{r['cpu']:.2f} s",
                      f"{r['big_cpu']:.2f} s", f"{r['step']:.2f}×", f"{r['wall_step']:.2f}×", r["reference"],
                      f"{r['ref_step']:.2f}×" if r["ref_step"] is not None else "–") for r in result["step"]],
                    left=(0, 6))
        print("step = time at 4× the input / time at the input (want ≤ 4.5×: linear)")
    print("Load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return result


if __name__ == "__main__":
    main()
