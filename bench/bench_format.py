"""Format benchmark: this project's exact formatter against ``python -m json.tool`` and ``jq .``
on the same generated log of Open Responses items.

    .venv/bin/python bench/bench_format.py              # 20 MB
    .venv/bin/python bench/bench_format.py --size-mb 2  # quick

In one run it times, on the same file (indent 2, non-ASCII kept):

* ``workbench format_text``: ``workbench.format.format_text(text)`` in this process, the text
  already in memory (what the server does for a request);
* ``workbench API (HTTP)``: one ``POST /api/format`` to the real server started on a free port,
  from sending the request to the decoded response (the request body is encoded before the clock
  starts);
* ``workbench API, answer text (HTTP)``: the same with ``"answer": "text"`` (the formatted text
  itself as the body, decoded from UTF-8; the rest of the answer in headers);
* ``workbench format FILE``: the command, a subprocess writing to a file (interpreter start,
  imports, reading, formatting and writing included: what a user at a terminal waits for);
* ``python -m json.tool``: a subprocess, ``--indent 2 --no-ensure-ascii FILE OUT``;
* ``jq .``: a subprocess writing to a file (skipped when jq is not installed).

Every subprocess also reports its peak memory (``ru_maxrss`` of that very child, from
``os.wait4``).  And where the command's time goes is printed: interpreter start and imports
(the command on a one-line file), parsing, placing the warnings, writing.

Each timing is the best of ``--repeat`` runs (default 1).  Every output is then checked: the
number tokens of the output against those of the input (``1.10`` must stay ``1.10``,
``12345678901234567890123`` must stay exact) and the whole tree re-parsed with numbers kept as
text.  The project's output must be exact or the run fails.

The document is written to ``bench/data/`` (git-ignored) and reused.  ``main()`` returns the
rows of the table as dicts.
"""

from __future__ import annotations

import gc
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    DATA,
    SEED,
    Server,
    arguments,
    best,
    fixture_items,
    fixtures_label,
    print_table,
    read_log,
    realistic_log,
    rel,
    write_atomic,
)

# numbers whose text a float round trip changes; one of them goes into every 50th entry
EXACT_NUMBERS = ["1.10", "12345678901234567890123", "-0.0", "1E-7", "2.50e+3", "0.30000000000000004",
                 "9007199254740993", "1.0"]
# the same without integers beyond 2^53 (which the formatter reports as warnings)
QUIET_NUMBERS = ["1.10", "123456789.0", "-0.0", "1E-7", "2.50e+3", "0.30000000000000004", "9007199254740991", "1.0"]


def generate(size_mb: float, quiet: bool = False) -> Path:
    """A log of Open Responses items, ``{"object": "list", "data": [...]}`` with one entry per
    line, about ``size_mb`` MB (written once, reused).  ``quiet``: no number that makes a
    warning (integers beyond 2^53)."""
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"format_{size_mb:g}mb{'_quiet' if quiet else ''}.json"
    numbers = QUIET_NUMBERS if quiet else EXACT_NUMBERS
    if path.exists():
        return path
    items = fixture_items()
    rng = random.Random(20260424)
    target = int(size_mb * 1_000_000)
    lines, size, n = [], 0, 0
    while size < target:
        item = items[n % len(items)]
        extra = numbers[(n // 50) % len(numbers)] if n % 50 == 0 else None
        line = (f'{{"sequence_number": {n}, "created_at": {1741476542 + n}.{rng.randrange(1000):03d}0, '
                f'"score": {rng.random():.6f}, '
                + (f'"exact": {extra}, ' if extra else "")
                + f'"item": {json.dumps(item, ensure_ascii=False)}}}')
        lines.append(line)
        size += len(line.encode("utf-8")) + 4
        n += 1
    return write_atomic(path, '{"object": "list", "model": "bench", "data": [\n  ' + ",\n  ".join(lines) + "\n]}\n")


def generate_realistic(size_mb: float, seed: int = SEED) -> Path:
    """Seeded realistic data (issue 25): the one generator of bench/common.py
    (:func:`common.realistic_log`: distinct 64-bit ids, decimals, non-ASCII and long strings, deep
    and wide shapes, Open Responses items)."""
    return realistic_log(size_mb, seed)


# ----------------------------------------------------------------------------- exactness

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?')


def number_tokens(text: str) -> list[str]:
    """The number tokens of a JSON text, in order, exactly as written (strings skipped)."""
    return [m for m in _TOKENS.findall(text) if m[0] != '"']


def exact_check(source: str, output: str, source_numbers: list[str], source_tree) -> tuple[bool, str]:
    """(exact?, why not): same number tokens in the same order and the same tree."""
    out_numbers = number_tokens(output)
    if out_numbers != source_numbers:
        for n, (a, b) in enumerate(zip(source_numbers, out_numbers)):
            if a != b:
                return False, f"number #{n}: {a} became {b}"
        return False, f"{len(source_numbers)} numbers in, {len(out_numbers)} out"
    try:
        tree = json.loads(output, parse_float=str, parse_int=str, parse_constant=str)
    except ValueError as exc:
        return False, f"output is not JSON: {exc}"
    if tree != source_tree:
        return False, "the re-parsed tree differs"
    return True, ""


# ----------------------------------------------------------------------------- contenders

def time_format_text(text: str) -> tuple[float, str]:
    from workbench.format import format_text

    t0 = time.perf_counter()
    out = format_text(text, 2)["formatted"]
    return time.perf_counter() - t0, out


def time_api(server: Server, payload: bytes) -> tuple[float, str]:
    t, body = server.api("format", payload)
    return t, body["formatted"]


def time_api_text(server: Server, payload: bytes) -> tuple[float, str]:
    """``answer: "text"``: the formatted text itself as the body, read and decoded (as the JSON
    answer is read and decoded)."""
    t0 = time.perf_counter()
    _, status, data = server.post("/api/format", payload)
    out = data.decode("utf-8")
    elapsed = time.perf_counter() - t0
    if status != 200:
        raise RuntimeError(f"/api/format answered {status}: {data[:300]!r}")
    return elapsed, out


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return out


def _status_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def measured_run(cmd: list[str], stdout=subprocess.DEVNULL, env: dict | None = None,
                 cwd=None, interval: float = 0.01) -> tuple[float, float, int, bytes]:
    """Run ``cmd``; (wall seconds, peak memory in MB, exit status, stderr).  Peak memory is
    sampled from /proc every ``interval`` s: the largest sum of resident memory over the
    process and its children (``--jobs``: the workers too), or the largest single process's
    high-water mark (``VmHWM``), whichever is larger.  (``ru_maxrss`` of a child started from
    this big process would count this process's own memory at the fork.)"""
    import tempfile
    import threading
    peak = [0, 0]
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=err, env=env, cwd=cwd)
        done = threading.Event()

        def sample():
            while not done.is_set():
                pids = _tree(proc.pid)
                peak[0] = max(peak[0], sum(_status_kb(p, "VmRSS:") for p in pids))
                peak[1] = max([peak[1]] + [_status_kb(p, "VmHWM:") for p in pids])
                done.wait(interval)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
        err.seek(0)
        LAST_CPU[0] = usage.ru_utime + usage.ru_stime  # the command and the workers it reaped
        return elapsed, max(peak) / 1024, proc.returncode, err.read()


LAST_CPU = [0.0]  # CPU seconds of the last measured_run (on a busy machine, beside the wall time)


def time_subprocess(cmd: list[str], out: Path, stdout_to_file: bool) -> tuple[float, str, float]:
    if stdout_to_file:
        with out.open("wb") as fh:
            elapsed, peak, code, err = measured_run(cmd, stdout=fh)
    else:
        elapsed, peak, code, err = measured_run(cmd)
    if code != 0:
        raise RuntimeError(f"{cmd[0]} failed: {err[:300]!r}")
    return elapsed, out.read_text(encoding="utf-8"), peak


def where_the_time_goes(file: Path, text: str) -> list[tuple[str, float]]:
    """The command's phases: start-up (the command on a one-line file), then in this process
    parsing, the warnings' places, writing."""
    from workbench.jsontext import dumps_tree, parse
    from workbench.limits import FORMAT_MAX_WARNINGS
    tiny = DATA / "format_tiny.json"
    tiny.write_text('{"a": 1}\n')
    start = min(measured_run([sys.executable, "-m", "workbench", "format", str(tiny)])[0] for _ in range(3))
    bare = min(measured_run([sys.executable, "-c", "pass"])[0] for _ in range(3))
    t0 = time.perf_counter()
    parsed = parse(text, numbers="fragment", keep_duplicates=True, check_depth=False, warnings=False)
    t1 = time.perf_counter()
    found = parse(text, numbers="fragment", keep_duplicates=True, check_depth=False, warnings=True,
                  warning_limit=FORMAT_MAX_WARNINGS)   # as format_text: the first ones placed, all counted
    t2 = time.perf_counter()
    out = dumps_tree(parsed.value, 2, False, parsed.duplicate_mark, as_bytes=True)
    t3 = time.perf_counter()
    del parsed, out
    return [("python start (python -c pass)", bare), ("start-up and imports (one-line file)", start - bare),
            ("parse (strict, exact numbers, duplicates kept)", t1 - t0),
            (f"warnings: count all {found.warning_count:,}, place the first {len(found.warnings):,}",
             (t2 - t1) - (t1 - t0)), ("write (orjson, exact)", t3 - t2)]


def main(argv: list[str] | None = None) -> list[dict]:
    ap = arguments(__doc__)
    ap.add_argument("--quiet-numbers", action="store_true",
                    help="no integers beyond 2^53 in the log (so the formatter has no warning to locate)")
    ap.add_argument("--data", choices=("realistic", "fixtures"), default="realistic",
                    help="realistic: seeded records with distinct 64-bit ids, decimals, non-ASCII, deep "
                         "and wide shapes (default); fixtures: the shared Open Responses items")
    ap.add_argument("--seed", type=int, default=SEED, help="seed of the realistic data (bench/common.py)")
    args = ap.parse_args(argv)

    if args.data == "realistic" and not args.quiet_numbers:
        file = generate_realistic(args.size_mb, args.seed)
        text, size, entries = read_log(file)
        print(f"document: {rel(file)} · {size / 1e6:.1f} MB · {entries:,} records (seeded {args.seed}: "
              "bench/common.py's realistic log: distinct 64-bit ids, decimals, non-ASCII, deep and wide)")
    else:
        file = generate(args.size_mb, quiet=args.quiet_numbers)
        text, size, entries = read_log(file)
        print(f"document: {rel(file)} · {size / 1e6:.1f} MB · {entries:,} items "
              f"({fixtures_label()}"
              f"{'; no integer beyond 2^53' if args.quiet_numbers else '; every 400th entry has an integer beyond 2^53'})")
    results: list[tuple[str, float, str, float | None]] = []
    gc.collect()
    t, out = best(lambda: time_format_text(text), args.repeat)
    results.append(("workbench format_text", t, out, None))

    if not args.no_api:
        with Server() as server:
            time_api(server, b'{"text": "[1]"}')  # warm up
            payload = json.dumps({"text": text, "indent": 2}, ensure_ascii=False).encode("utf-8")
            t, out = best(lambda: time_api(server, payload), args.repeat)
            results.append(("workbench API (HTTP)", t, out, None))
            del out
            payload = json.dumps({"text": text, "indent": 2, "answer": "text"}, ensure_ascii=False).encode("utf-8")
            t, out = best(lambda: time_api_text(server, payload), args.repeat)
            results.append(("workbench API, answer text (HTTP)", t, out, None))

    out_file = DATA / "format_out.json"

    def timed(cmd, to_file):
        runs = [time_subprocess(cmd, out_file, to_file) for _ in range(max(1, args.repeat))]
        t, out, peak = min(runs, key=lambda r: r[0])
        return t, out, peak

    # the command, and the references, each run the same way (file in, file out)
    t, out, peak = timed([sys.executable, "-m", "workbench", "format", "-q", str(file)], True)
    results.append(("workbench format (command)", t, out, peak))
    t, out, peak = timed([sys.executable, "-m", "json.tool", "--indent", "2", "--no-ensure-ascii",
                          str(file), str(out_file)], False)
    results.append(("python -m json.tool", t, out, peak))

    jq = shutil.which("jq")
    if jq:
        version = subprocess.run([jq, "--version"], capture_output=True, text=True).stdout.strip()
        t, out, peak = timed([jq, ".", str(file)], True)
        results.append((f"jq . ({version})", t, out, peak))
    else:
        print("jq is not installed: skipped")
    out_file.unlink(missing_ok=True)
    phases = where_the_time_goes(file, text)

    # checked after every timing (a big parsed tree alive in this process slows the GC down)
    source_numbers = number_tokens(text)
    source_tree = json.loads(text, parse_float=str, parse_int=str, parse_constant=str)
    base = results[0][1]
    rows: list[dict] = []
    for name, t, out, peak in results:
        exact, why = exact_check(text, out.rstrip("\n"), source_numbers, source_tree)
        rows.append({"tool": name, "seconds": round(t, 3), "mb_per_s": round(size / 1e6 / t, 1),
                     "vs_format_text": round(t / base, 2), "exact": exact, "why_not": why,
                     "size_mb": round(size / 1e6, 1),
                     "peak_mb": round(peak, 1) if peak is not None else None})
    jt = next((r["seconds"] for r in rows if r["tool"].startswith("python -m json.tool")), None)
    for r in rows:
        r["json_tool_over_this"] = round(jt / r["seconds"], 2) if jt else None

    head = ("tool", "time", "MB/s", "peak memory", "× format_text", "json.tool ÷ this", "numbers exact")
    print_table(head, [(r["tool"], f"{r['seconds']:.2f} s", f"{r['mb_per_s']:.1f}",
                        f"{r['peak_mb']:.0f} MB" if r["peak_mb"] else "–", f"{r['vs_format_text']:.2f}×",
                        f"{r['json_tool_over_this']:.2f}×" if r["json_tool_over_this"] else "–",
                        "yes" if r["exact"] else f"NO ({r['why_not']})") for r in rows], left=(0, 6))
    print("\nwhere `workbench format` spends its time:")
    print_table(("phase", "time"), [(name, f"{t * 1000:.0f} ms") for name, t in phases])
    rows.append({"tool": "phases", "phases": {name: round(t, 4) for name, t in phases}})
    print("× format_text = this tool's time / workbench format_text's time (lower is faster); "
          "json.tool ÷ this > 1 means faster than python -m json.tool")
    bad = [r["tool"] for r in rows if r["tool"].startswith("workbench") and not r.get("exact")]
    if bad:
        raise SystemExit(f"the project's output is not exact: {bad}")
    return rows


if __name__ == "__main__":
    main()
