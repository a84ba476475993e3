"""Provider streams benchmark (issue 24): a 20 MB Anthropic SSE stream and a 20 MB Gemini
chunk array through the transcript core, each against the plain reference (json.loads of each
``data:`` line / of the array), beside the Open Responses stream of bench_transcript.py.

    python bench/bench_providers.py            # 20 MB each
    python bench/bench_providers.py 5          # 5 MB each
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_transcript import CITIES, make_stream, reference  # noqa: E402


def make_anthropic(target: float) -> str:
    rng = random.Random(13)
    out, size = [], 0

    def ev(d):
        nonlocal size
        s = f"event: {d['type']}\ndata: {json.dumps(d)}\n\n"
        out.append(s)
        size += len(s)

    k = 0
    while size < target:
        ev({"type": "message_start", "message": {"id": f"msg_{k}", "type": "message",
                                                 "role": "assistant", "content": []}})
        for i in range(20):
            ev({"type": "content_block_start", "index": i, "content_block": {
                "type": "tool_use", "id": f"toolu_{k:05d}_{i:02d}", "name": "get_weather",
                "input": {}}})
            args = json.dumps({"city": rng.choice(CITIES), "days": rng.randint(1, 9),
                               "note": " ".join(rng.choice(CITIES) for _ in range(20))})
            for j in range(0, len(args), 8):
                ev({"type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": args[j:j + 8]}})
            ev({"type": "content_block_stop", "index": i})
        ev({"type": "message_delta", "delta": {"stop_reason": "tool_use"}})
        ev({"type": "message_stop"})
        k += 1
    return "".join(out)


def make_gemini(target: float) -> str:
    rng = random.Random(13)
    chunks, size = [], 0
    while size < target:
        for _ in range(16):   # text chunks between calls (as many pieces per call as above)
            t = {"candidates": [{"content": {"role": "model", "parts": [
                {"text": " ".join(rng.choice(CITIES) for _ in range(2))}]}, "index": 0}]}
            s = json.dumps(t)
            chunks.append(s)
            size += len(s) + 2
        c = {"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "get_weather", "args": {
                "city": rng.choice(CITIES), "days": rng.randint(1, 9),
                "note": " ".join(rng.choice(CITIES) for _ in range(20))}}}]}, "index": 0}]}
        s = json.dumps(c)
        chunks.append(s)
        size += len(s) + 2
    chunks.append(json.dumps({"candidates": [{"content": {"role": "model", "parts": [
        {"text": ""}]}, "finishReason": "STOP", "index": 0}]}))
    return "[" + ",\n".join(chunks) + "]"


def run(name: str, text: str) -> dict:
    from workbench.limits import DEFAULT_LIMITS
    from workbench.transcript import analyse
    limits = DEFAULT_LIMITS.with_(work_timeout=600)
    if name == "gemini":
        t0 = time.perf_counter()
        json.loads(text)
        ref = time.perf_counter() - t0
    else:
        ref = reference("stream", text)[0]
    t0 = time.perf_counter()
    r = analyse(text, limits=limits)
    took = time.perf_counter() - t0
    return {"stream": name, "mb": round(len(text) / 1e6, 1), "core_s": round(took, 2),
            "reference_s": round(ref, 2), "ratio": round(took / ref, 1),
            "calls": r["summary"]["calls"], "kind": r["kind"],
            "errors": r["summary"]["errors"]}


def main(argv: list[str]) -> None:
    mb = float(argv[0]) if argv else 20.0
    for name, maker in (("open_responses", make_stream), ("anthropic", make_anthropic),
                        ("gemini", make_gemini)):
        print(json.dumps(run(name, maker(mb * 1e6))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
