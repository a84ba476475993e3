"""Transcript benchmark: a 20 MB transcript and a 20 MB stream through ``POST /api/transcript``
against plain parsing of the same text, in the same run.

    python bench/bench_transcript.py                 # 20 MB each
    python bench/bench_transcript.py --size-mb 2     # smaller

Generated once into ``bench/data/`` by the one seeded generator of every benchmark
(``bench/common.py``: distinct 64-bit ids, decimals, non-ASCII, the shared fixtures' real items):

* **transcript** — a request body ``{"model", "input": [...]}`` of its items (function calls
  with varied arguments and their outputs, messages, reasoning), one item per line
  (:func:`common.realistic_transcript`); reference: ``json.loads`` of the text.
* **stream** — Responses API SSE (``event:`` + ``data:`` lines) of its function calls whose
  arguments arrive in 8-character deltas, ``sequence_number`` on every event, one
  ``response.completed`` and ``data: [DONE]`` (:func:`common.realistic_stream`); reference: a
  plain SSE split (blank-line blocks, ``data:`` lines) with ``json.loads`` of each data line.

Memory: the peak RSS the core adds for each text, in a child process (``peak ×``: over the
text's size; issue 21 aims at 10×).

Timed: the real server over HTTP on loopback (request sent, answer read and decoded: every
call gated and placed, every finding, every event checked against the spec's schemas) and the
core in-process (``analyse``), best of ``--repeat``.  Aim: at most 3× the reference.
``main()`` returns the rows.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Server, arguments, best, print_table, realistic_stream, realistic_transcript, rel  # noqa: E402


def generate(name: str, size_mb: float) -> Path:
    """The realistic data of bench/common.py (the one seeded generator of every benchmark): a
    request body of its items (``transcript``) or an SSE stream of its function calls
    (``stream``), about ``size_mb`` MB, written once to bench/data/."""
    return realistic_transcript(size_mb) if name == "transcript" else realistic_stream(size_mb)


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
    warm = [generate(n, 0.02).read_text(encoding="utf-8") for n in ("transcript", "stream")]
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
