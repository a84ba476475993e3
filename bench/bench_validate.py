"""Validate benchmark: this project's validator (compiled path, jsonschema path, HTTP API)
against plain ``jsonschema`` on the same log, side by side in one run.

    .venv/bin/python bench/bench_validate.py              # 20 MB, about 100,000 items
    .venv/bin/python bench/bench_validate.py --size-mb 2  # quick
    .venv/bin/python bench/bench_validate.py --no-jsonschema-path   # skip the slow row

The document is a JSON array of log entries (one per line, about 310 bytes each, seeded: distinct
64-bit trace ids, six-decimal costs, 17-digit ratios, a nested map; one in 997
is broken on purpose so there are errors to report) and the schema an ``items`` schema with
types, required keys, ``additionalProperties: false``, ``pattern``, ``enum``, bounds and
``uniqueItems``.  In one run, on the same text, it times:

* ``plain jsonschema``: ``json.loads(text)`` then ``list(Draft202012Validator(schema)
  .iter_errors(value))`` -- Python's ``re``, floats, no positions, no time bound;
* ``workbench core, compiled``: ``parse(text)`` (exact numbers) then ``evaluate(compiled, value,
  path="compiled")`` -- the schema as generated Python functions
  (:mod:`workbench.validate.compiled`), errors sorted into document order with messages and
  schema pointers;
* ``workbench core, jsonschema``: the same with ``path="jsonschema"`` (the path used for
  schemas the compiler leaves alone);
* ``workbench API (HTTP)``: one ``POST /api/validate`` to the real server on a free port, from
  sending to the decoded response (the compiled path, and each returned error's line and
  column in the text);
* the same entries as JSON Lines (one document a line, the ``items`` schema): ``plain jsonschema,
  per line`` (``json.loads`` and ``iter_errors`` on every line, in this process) against the
  command ``workbench validate --jsonl --json`` (interpreter start included; every error with its
  line and column), unless ``--no-jsonl``.

Each timing is the best of ``--repeat`` runs, as wall time and as CPU time (of this process,
or of the server process for the API: steadier than wall time on a busy machine).  All rows
must agree on which entries are invalid (the run fails otherwise).  ``main()`` returns the
table's rows as dicts.
"""

from __future__ import annotations

import gc
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import arguments, best, process_cpu, read_log, start_server, write_atomic  # noqa: E402

DATA = ROOT / "bench" / "data"

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "seq": {"type": "integer", "minimum": 0},
            "ts": {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$"},
            "level": {"enum": ["debug", "info", "warn", "error"]},
            "service": {"type": "string", "minLength": 1},
            "request_id": {"type": "string", "pattern": "^req_[0-9a-f]{8}$"},
            "latency_ms": {"type": "number", "minimum": 0},
            "status": {"type": "integer", "minimum": 100, "maximum": 599},
            "user": {"type": "object", "properties": {"id": {"type": "integer"},
                                                      "country": {"type": "string", "pattern": "^[A-Z]{2}$"}},
                     "required": ["id"], "additionalProperties": False},
            "msg": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "trace_id": {"type": "integer", "minimum": 0},
            "cost": {"type": "number", "minimum": 0},
            "attrs": {"type": "object", "properties": {"region": {"type": "string"},
                                                       "retries": {"type": "integer", "minimum": 0},
                                                       "ratio": {"type": "number"}},
                      "additionalProperties": {"type": ["string", "number", "boolean"]}},
        },
        "required": ["seq", "ts", "level", "service", "request_id", "status"],
        "additionalProperties": False,
    },
}

SERVICES = ["checkout", "search", "auth", "catalog", "billing"]
LEVELS = ["debug", "info", "info", "info", "warn", "error"]
COUNTRIES = ["CH", "DE", "FR", "US", "JP", "BR"]
MESSAGES = ["ok", "cache miss", "paid", "slow query", "Zürich sync", "retry"]


def generate(size_mb: float) -> Path:
    DATA.mkdir(parents=True, exist_ok=True)
    path = DATA / f"validate_v2_{size_mb:g}mb.json"  # v2: distinct 64-bit ids, decimals, a nested map
    if path.exists():
        return path
    rng = random.Random(20260424)
    target = int(size_mb * 1_000_000)
    lines, size, n = [], 0, 0
    while size < target:
        entry = (f'{{"seq":{n},"ts":"2026-04-24T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.'
                 f'{rng.randrange(1000):03d}Z","level":"{rng.choice(LEVELS)}",'
                 f'"service":"{rng.choice(SERVICES)}","request_id":"req_{rng.getrandbits(32):08x}",'
                 f'"latency_ms":{rng.randrange(1, 5000) / 10},"status":{rng.choice((200, 200, 201, 404, 500))},'
                 f'"user":{{"id":{rng.randrange(1, 99999)},"country":"{rng.choice(COUNTRIES)}"}},'
                 f'"msg":"{rng.choice(MESSAGES)}","trace_id":{rng.getrandbits(64)},'
                 f'"cost":{rng.randrange(10**9) / 10**6:.6f},'
                 f'"attrs":{{"region":"{rng.choice(COUNTRIES).lower()}-{rng.randrange(9)}",'
                 f'"retries":{rng.randrange(4)},"ratio":{rng.random():.17f}}}'
                 + (f',"tags":["web","{rng.choice(COUNTRIES).lower()}"]' if n % 4 == 0 else "") + "}")
        if n % 997 == 13:  # a broken entry: bad level, extra key, a status out of range
            entry = entry.replace('"level":"', '"level":"LOUD-').replace('"msg"', '"debug_dump":true,"msg"')
            entry = re.sub(r'"status":\d+', '"status":99', entry)
        lines.append(entry)
        size += len(entry.encode("utf-8")) + 4
        n += 1
    text = "[\n  " + ",\n  ".join(lines) + "\n]\n"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def invalid_items(pointers) -> set[int]:
    return {int(p.split("/")[1]) for p in pointers if p.count("/") >= 1 and p.split("/")[1].isdigit()}


def time_core(text: str, schema_text: str, path: str) -> tuple[float, set, int, dict]:
    from workbench.jsontext import parse
    from workbench.limits import DEFAULT_LIMITS
    from workbench.validate import compile_schema, evaluate

    limits = DEFAULT_LIMITS.with_(max_errors=1_000_000, work_timeout=600)
    compiled = compile_schema(parse(schema_text).value)  # once (cached), as a running server would
    c0, t0 = time.process_time(), time.perf_counter()
    value = parse(text).value
    t1 = time.perf_counter()
    out = evaluate(compiled, value, limits, path=path)
    t2 = time.perf_counter()
    cpu = time.process_time() - c0
    assert out["path"] == path
    return t2 - t0, invalid_items(e["pointer"] for e in out["errors"]), out["count"], \
        {"parse": round(t1 - t0, 3), "validate": round(t2 - t1, 3)}, cpu


def time_plain(text: str) -> tuple[float, set, int, dict]:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(SCHEMA)
    c0, t0 = time.process_time(), time.perf_counter()
    value = json.loads(text)
    t1 = time.perf_counter()
    errors = list(validator.iter_errors(value))
    t2 = time.perf_counter()
    cpu = time.process_time() - c0
    items = {e.absolute_path[0] for e in errors if e.absolute_path}
    return t2 - t0, items, len(errors), {"parse": round(t1 - t0, 3), "validate": round(t2 - t1, 3)}, cpu


def write_jsonl(text: str) -> Path:
    """The generated array's entries as JSON Lines (entry i on line i + 1)."""
    path = DATA / "validate_lines.jsonl"
    lines = [ln.strip().rstrip(",") for ln in text.splitlines()[1:-1]]
    write_atomic(path, "".join(ln + "\n" for ln in lines))
    return path


def line_schema() -> dict:
    return {"$schema": SCHEMA["$schema"], **SCHEMA["items"]}


def per_line(validator, path: Path) -> tuple[float, set, int, dict, float]:
    """``json.loads`` and ``iter_errors`` of ``validator`` on every line of ``path``, in this process."""
    c0, t0 = time.process_time(), time.perf_counter()
    items, count = set(), 0
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            errors = list(validator.iter_errors(json.loads(line)))
            if errors:
                items.add(i)
                count += len(errors)
    return time.perf_counter() - t0, items, count, {}, time.process_time() - c0


def time_plain_lines(path: Path) -> tuple[float, set, int, dict, float]:
    from jsonschema import Draft202012Validator
    return per_line(Draft202012Validator(line_schema()), path)


def time_rs_lines(path: Path) -> tuple[float, set, int, dict, float]:
    """jsonschema-rs (Rust, floats, no positions) in the same per-line loop."""
    import jsonschema_rs
    return per_line(jsonschema_rs.validator_for(line_schema()), path)


def time_command_lines(path: Path, schema_path: Path, mode: str = "json") -> tuple[float, set, int, dict, float]:
    """``workbench validate --jsonl`` as a command: ``mode`` ``"json"`` (``--json``: every
    line's whole answer, warnings included), ``"text"`` (the error lines, warnings on standard
    error) or ``"quiet"`` (``--quiet``: the error lines only; warnings not looked for)."""
    import resource
    exe = Path(sys.executable).with_name("workbench")
    flags = {"json": ["--json"], "text": [], "quiet": ["--quiet"]}[mode]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([str(exe), "validate", "--jsonl", *flags, "--max-errors", "1000000",
                           str(path), "--schema", str(schema_path)], capture_output=True)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"workbench validate --jsonl exited {done.returncode}: {done.stderr[:300]!r}")
    items, count, located = set(), 0, 0
    for line in done.stdout.splitlines():
        if mode == "json":
            answer = json.loads(line)
            if not answer["valid"]:
                items.add(answer["line"] - 1)
            count += answer["count"]
            located += sum(1 for e in answer["errors"] if e.get("line"))
        else:  # "pointer line:column keyword message"
            at = line.split(b" ", 2)[1].split(b":")
            items.add(int(at[0]) - 1)
            count += 1
            located += at[1] != b"-"
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return elapsed, items, count, {"located": located}, cpu


def time_api(conn: http.client.HTTPConnection, payload: bytes, pid: int) -> tuple[float, set, int, dict]:
    c0 = process_cpu(pid)
    t0 = time.perf_counter()
    conn.request("POST", "/api/validate", payload, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = resp.read()
    elapsed = time.perf_counter() - t0
    cpu = process_cpu(pid) - c0
    body = json.loads(data)
    if resp.status != 200:
        raise RuntimeError(f"the API answered {resp.status}: {data[:300]!r}")
    located = sum(1 for e in body["errors"] if e.get("line"))
    return elapsed, invalid_items(e["pointer"] for e in body["errors"]), body["count"], \
        {"located": located, "returned": len(body["errors"]), "truncated": body["truncated"]}, cpu


def rotated_best(contenders: dict, repeat: int) -> dict:
    """Each contender's best of ``repeat`` rounds, the order rotated each round (a busy machine
    slows whoever runs at the wrong moment, not always the same one)."""
    names = list(contenders)
    found: dict = {}
    for r in range(max(1, repeat)):
        for name in names[r % len(names):] + names[:r % len(names)]:
            gc.collect()
            got = contenders[name]()
            if name not in found or got[0] < found[name][0]:
                found[name] = got
    return {name: found[name] for name in names}


def main(argv: list[str] | None = None) -> list[dict]:
    ap = arguments(__doc__)
    ap.add_argument("--no-jsonschema-path", action="store_true",
                    help="skip the core's jsonschema path (the slowest row)")
    ap.add_argument("--no-jsonl", action="store_true",
                    help="skip the JSON Lines rows (plain jsonschema per line, workbench validate --jsonl)")
    args = ap.parse_args(argv)

    file = generate(args.size_mb)
    text, size, n_items = read_log(file)
    schema_text = json.dumps(SCHEMA, indent=2)
    print(f"document: {file.relative_to(ROOT)} · {size / 1e6:.1f} MB · {n_items:,} items · "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")

    results: list[tuple[str, tuple]] = []
    gc.collect()
    results.append(("plain jsonschema (json.loads + iter_errors)", best(lambda: time_plain(text), args.repeat)))
    gc.collect()
    results.append(("workbench core, compiled (parse + run)",
                    best(lambda: time_core(text, schema_text, "compiled"), args.repeat)))
    gc.collect()
    if not args.no_jsonschema_path:
        results.append(("workbench core, jsonschema (parse + run)",
                        best(lambda: time_core(text, schema_text, "jsonschema"), args.repeat)))
        gc.collect()
    if not args.no_api:
        proc, host, port = start_server()
        try:
            conn = http.client.HTTPConnection(host, port, timeout=600)
            warm = json.dumps({"document": "[]", "schema": schema_text}).encode()
            time_api(conn, warm, proc.pid)  # imports and the compiled schema, as in a running server
            payload = json.dumps({"document": text, "schema": schema_text}, ensure_ascii=False).encode("utf-8")
            results.append(("workbench API (HTTP, compiled, with line/column)",
                            best(lambda: time_api(conn, payload, proc.pid), args.repeat)))
            conn.close()
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()

    base_t, base_items = results[0][1][0], results[0][1][1]
    rows = []
    for name, (t, items, count, extra, cpu) in results:
        rows.append({"tool": name, "seconds": round(t, 3), "cpu_seconds": round(cpu, 3),
                     "items_per_s": round(n_items / t),
                     "x_plain": round(t / base_t, 2), "invalid_items": len(items), "errors": count,
                     "agrees": items == base_items, "detail": extra, "size_mb": round(size / 1e6, 1),
                     "items": n_items})
    if not args.no_jsonl:
        lines_path = write_jsonl(text)
        schema_path = write_atomic(DATA / "validate_lines.schema.json", json.dumps(line_schema()))
        contenders = {
            "plain jsonschema, per line (JSON Lines: json.loads + iter_errors)": lambda: time_plain_lines(lines_path),
            "jsonschema-rs, per line (json.loads + iter_errors)": lambda: time_rs_lines(lines_path),
            "workbench validate --jsonl --quiet (command, errors with line:column)":
                lambda: time_command_lines(lines_path, schema_path, "quiet"),
            "workbench validate --jsonl (command, errors with line:column, warnings)":
                lambda: time_command_lines(lines_path, schema_path, "text"),
            "workbench validate --jsonl --json (command, every answer)":
                lambda: time_command_lines(lines_path, schema_path, "json"),
        }
        timed = rotated_best(contenders, args.repeat)
        plain = timed[next(iter(contenders))]
        for name, (t, items, count, extra, cpu) in timed.items():
            rows.append({"tool": name, "seconds": round(t, 3), "cpu_seconds": round(cpu, 3),
                         "items_per_s": round(n_items / t), "x_plain": round(t / plain[0], 2),
                         "invalid_items": len(items), "errors": count, "agrees": items == base_items,
                         "detail": extra, "size_mb": round(size / 1e6, 1), "items": n_items})

    head = ("tool", "time", "cpu", "items/s", "× plain", "invalid items", "errors", "agrees", "detail")
    table = [head] + [(r["tool"], f"{r['seconds']:.2f} s", f"{r['cpu_seconds']:.2f} s", f"{r['items_per_s']:,}",
                       f"{r['x_plain']:.2f}×", str(r["invalid_items"]), str(r["errors"]),
                       "yes" if r["agrees"] else "NO",
                       " ".join(f"{k}={v}" for k, v in r["detail"].items())) for r in rows]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(head))]
    for n, row in enumerate(table):
        print("  ".join(str(c).ljust(w) if i in (0, 8) else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
        if n == 0:
            print("  ".join("-" * w for w in widths))
    print("× plain = this time / plain jsonschema's time (lower is faster; the JSON Lines rows against "
          "the per-line loop); cpu = CPU seconds of this process (of the server for the API, of the "
          "command for --jsonl).  Errors differ by design: the workbench reports one "
          "error per extra key; plain jsonschema one per object.")
    rs = next((r for r in rows if r["tool"].startswith("jsonschema-rs")), None)
    if rs:
        for r in rows:
            if r["tool"].startswith("workbench validate --jsonl"):
                r["x_rs"] = round(rs["seconds"] / r["seconds"], 2)
                print(f"  vs jsonschema-rs per line: {r['x_rs']:.2f}× (rs time / ours; above 1 we are faster; "
                      f"CPU {rs['cpu_seconds'] / r['cpu_seconds']:.2f}×) · {r['tool']}")
    if not all(r["agrees"] for r in rows):
        raise SystemExit("the validators disagree on which entries are invalid")
    return rows


if __name__ == "__main__":
    main()
