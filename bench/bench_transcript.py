"""Transcript benchmark: a 20 MB transcript and a 20 MB stream through ``POST /api/transcript``
against plain parsing of the same text, in the same run.

    python bench/bench_transcript.py                 # 20 MB each
    python bench/bench_transcript.py --size-mb 2     # smaller

Generated once into ``bench/data/`` (seeded):

* **transcript** — a request body ``{"model", "input": [...]}`` of turns (user message,
  ``function_call`` with varied arguments, its ``function_call_output``, assistant message),
  one item per line; reference: ``json.loads`` of the text.
* **stream** — Responses API SSE (``event:`` + ``data:`` lines) of function calls whose
  arguments arrive in 8-character deltas, ``sequence_number`` on every event, one
  ``response.completed`` and ``data: [DONE]``; reference: a plain SSE split (blank-line blocks,
  ``data:`` lines) with ``json.loads`` of each data line.

Memory: the peak RSS the core adds for each text, in a child process (``peak ×``: over the
text's size; issue 21 aims at 10×).

Timed: the real server over HTTP on loopback (request sent, answer read and decoded: every
call gated and placed, every finding, every event checked against the spec's schemas) and the
core in-process (``analyse``), best of ``--repeat``.  Aim: at most 3× the reference.
``main()`` returns the rows.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import DATA, Server, arguments, best, print_table, rel, write_atomic  # noqa: E402

CITIES = "Lyon Paris Oslo Lima Quito Sofia Perth Dakar Hanoi Lagos Minsk Riga Doha Rome Bern".split()


def make_transcript(target: float) -> str:
    rng = random.Random(12)
    items, size, n = [], 2, 0
    while size < target:
        cid = f"call_{n:07d}"
        turn = [
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": f"What is the weather in {rng.choice(CITIES)} for "
                                               f"the next {rng.randint(1, 9)} days? ({n})"}]},
            {"type": "function_call", "id": f"fc_{n:07d}", "call_id": cid, "name": "get_weather",
             "arguments": json.dumps({"city": rng.choice(CITIES), "days": rng.randint(1, 9)}),
             "status": "completed"},
            {"type": "function_call_output", "call_id": cid,
             "output": json.dumps({"temp_c": round(rng.uniform(-5, 30), 1), "sky": "clear"})},
            {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": f"It is clear and mild; {rng.randint(1, 99)} % "
                                                "chance of rain later.", "annotations": []}]},
        ]
        for t in turn:
            s = json.dumps(t)
            items.append(s)
            size += len(s) + 2
        n += 1
    return '{"model": "gpt-5", "input": [\n' + ",\n".join(items) + "\n]}\n"


def make_stream(target: float) -> str:
    rng = random.Random(13)
    out, size, seq, oi = [], 0, 0, 0

    def ev(d):
        nonlocal seq, size
        d["sequence_number"] = seq
        seq += 1
        s = f"event: {d['type']}\ndata: {json.dumps(d)}\n\n"
        out.append(s)
        size += len(s)

    ev({"type": "response.created", "response": {"id": "resp_1", "object": "response",
                                                 "status": "in_progress", "output": []}})
    while size < target:
        iid = f"fc_{oi:06d}"
        ev({"type": "response.output_item.added", "output_index": oi,
            "item": {"type": "function_call", "id": iid, "call_id": f"call_{oi:06d}",
                     "name": "get_weather", "arguments": "", "status": "in_progress"}})
        args = json.dumps({"city": rng.choice(CITIES), "days": rng.randint(1, 9),
                           "note": " ".join(rng.choice(CITIES) for _ in range(20))})
        for i in range(0, len(args), 8):
            ev({"type": "response.function_call_arguments.delta", "item_id": iid,
                "output_index": oi, "delta": args[i:i + 8]})
        ev({"type": "response.function_call_arguments.done", "item_id": iid, "output_index": oi,
            "arguments": args})
        ev({"type": "response.output_item.done", "output_index": oi,
            "item": {"type": "function_call", "id": iid, "call_id": f"call_{oi:06d}",
                     "name": "get_weather", "arguments": args, "status": "completed"}})
        oi += 1
    ev({"type": "response.completed", "response": {"id": "resp_1", "object": "response",
                                                   "status": "completed", "output": []}})
    return "".join(out) + "data: [DONE]\n\n"


def generate(name: str, size_mb: float) -> Path:
    path = DATA / f"transcript_{name}_{size_mb:g}mb.txt"
    if not path.exists():
        maker = make_transcript if name == "transcript" else make_stream
        write_atomic(path, maker(size_mb * 1e6))
    return path


def reference(name: str, text: str):
    t0 = time.perf_counter()
    if name == "transcript":
        n = len(json.loads(text)["input"])
    else:
        n = 0
        for block in text.split("\n\n"):
            for line in block.split("\n"):
                if line.startswith("data:"):
                    data = line[5:].strip()
                    if data != "[DONE]":
                        json.loads(data)
                        n += 1
    return time.perf_counter() - t0, n


def core(text: str):
    from workbench.transcript import analyse
    t0 = time.perf_counter()
    r = analyse(text, json.dumps(TOOLS))
    return time.perf_counter() - t0, r["summary"]


MEMORY_CHILD = r"""
import json, sys
from workbench.transcript import analyse
from workbench.runtime.memory import peak_bytes as peak, reset_peak as reset
analyse('{"output": []}')                 # the interpreter, imports and compiled validators
text = open(sys.argv[1], encoding="utf-8").read()
tools = sys.argv[2]
reset()
base = peak()
analyse(text, tools)
print(peak() - base)
"""


def memory(path: Path) -> int:
    """Peak RSS the core adds for one text (bytes), in a child process of its own: measured
    past the text itself, the imports and the compiled validators (Linux's VmHWM, reset before)."""
    import os
    import subprocess
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(path), json.dumps(TOOLS)],
                          capture_output=True, text=True, check=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    return int(done.stdout.strip().splitlines()[-1])


def api(server: Server, payload: bytes):
    t, body = server.api("transcript", payload)
    return t, body["summary"]


TOOLS = [{"type": "function", "name": "get_weather",
          "parameters": {"type": "object", "additionalProperties": False,
                         "required": ["city", "days"],
                         "properties": {"city": {"type": "string"},
                                        "days": {"type": "integer", "minimum": 1, "maximum": 14},
                                        "note": {"type": "string"}}}}]


def main(argv: list[str] | None = None) -> list[dict]:
    ap = arguments(__doc__, repeat=3, size="size of each text")
    args = ap.parse_args(argv)
    rows = []
    texts = {n: generate(n, args.size_mb).read_text(encoding="utf-8")
             for n in ("transcript", "stream")}
    # warm up: the spec's validators compiled and the tools read once, as in a running server
    warm = [make_transcript(20_000), make_stream(20_000)]
    for w in warm:
        core(w)
    server = None if args.no_api else Server()
    try:
        if server is not None:
            for w in warm:
                api(server, json.dumps({"text": w, "tools": json.dumps(TOOLS)}).encode())
        for name, text in texts.items():
            path = generate(name, args.size_mb)
            ref_t, count = best(lambda: reference(name, text), args.repeat)
            core_t, summary = best(lambda: core(text), args.repeat)
            row = {"task": name, "file": rel(path), "mb": len(text.encode()) / 1e6,
                   "pieces": count, "reference_s": ref_t, "core_s": core_t,
                   "calls": summary["calls"], "errors": summary["errors"],
                   "peak_bytes": memory(path)}
            if server is not None:
                payload = json.dumps({"text": text, "tools": json.dumps(TOOLS)}).encode()
                api_t, summary = best(lambda: api(server, payload), args.repeat)
                row["api_s"] = api_t
                row["calls"] = summary["calls"]
            rows.append(row)
    finally:
        if server is not None:
            server.close()
    print_table(("text", "MB", "pieces", "calls", "reference s", "core s", "core ×", "API s",
                 "API ×", "peak MB", "peak ×"),
                [(r["task"], f"{r['mb']:.1f}", f"{r['pieces']:,}", f"{r['calls']:,}",
                  f"{r['reference_s']:.3f}", f"{r['core_s']:.3f}",
                  f"{r['core_s'] / r['reference_s']:.1f}",
                  f"{r['api_s']:.3f}" if "api_s" in r else "–",
                  f"{r['api_s'] / r['reference_s']:.1f}" if "api_s" in r else "–",
                  f"{r['peak_bytes'] / 1e6:.0f}", f"{r['peak_bytes'] / 1e6 / r['mb']:.1f}")
                 for r in rows])
    print("reference: json.loads of the transcript; a plain SSE split with json.loads per data "
          "line for the stream. × = our time / the reference's (aim: at most 3). peak: the RSS the "
          "core adds in a child process of its own (peak × = peak MB / input MB).")
    return rows


if __name__ == "__main__":
    main()
