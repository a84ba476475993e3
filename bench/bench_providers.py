"""Provider streams benchmark (issue 24): a 20 MB Anthropic SSE stream, a 20 MB Gemini chunk
array and the same Gemini chunks as SSE ``data:`` lines through the transcript core, each against
the plain reference (json.loads of each ``data:`` line / of the array), beside the Open Responses
stream of bench_transcript.py.

``ratio`` is core time / reference time.  json.loads of one 20 MB array with the collector on
spends most of its time in the collector (it grows superlinearly: 0.5 s at 5 MB, 6 s at 20 MB
on a loaded machine), which flatters the array's ratio; ``ratio_nogc`` divides by the reference
timed with the collector off (the core pauses it too), the fair comparison across the streams.

    python bench/bench_providers.py            # 20 MB each
    python bench/bench_providers.py 5          # 5 MB each

``us_per_event`` is the core's CPU time per event (SSE event or array chunk): the generated
streams differ in how many events and calls a MB holds (the Gemini one about twice the events and
2.6 times the calls of the Open Responses one).

Each time is CPU time (time.process_time), the best of three runs interleaved: the machine is
shared, and wall time stalls at random there.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CITIES = "Lyon Paris Oslo Lima Quito Sofia Perth Dakar Hanoi Lagos Minsk Riga Doha Rome Bern".split()


def make_stream(target: float) -> str:
    """The Open Responses stream these are compared with: the same calls (``get_weather``,
    8-character argument deltas) as the provider streams below, in the Responses API's SSE.
    (bench_transcript.py moved to common.realistic_stream; this row keeps the synthetic one the
    provider streams share, so the ratios compare like with like.)"""
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


def make_gemini_sse(target: float) -> str:
    """The chunks of :func:`make_gemini` as ``streamGenerateContent?alt=sse`` sends them."""
    import json as _json
    chunks = _json.loads(make_gemini(target))
    return "".join(f"data: {_json.dumps(c)}\r\n\r\n" for c in chunks)


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


REPEAT = 3
# CPU time of this process: on a machine shared with other work, wall time stalls at random
# (a 2-core machine at load 8 doubles a run now and then); the CPU a run takes does not
CLOCK = time.process_time


def run(name: str, text: str) -> dict:
    import gc

    from workbench.limits import DEFAULT_LIMITS
    from workbench.transcript import analyse
    limits = DEFAULT_LIMITS.with_(work_timeout=600)

    sse = text.replace("\r\n", "\n") if name != "gemini" else None

    def ref_once():
        t0 = CLOCK()
        if sse is None:
            json.loads(text)
        else:   # bench_transcript.reference("stream", …): json.loads of each data: line
            for block in sse.split("\n\n"):
                for line in block.split("\n"):
                    if line.startswith("data:"):
                        data = line[5:].strip()
                        if data != "[DONE]":
                            json.loads(data)
        return CLOCK() - t0

    # the best of REPEAT runs of each, interleaved (the machine is shared: a run may stall)
    ref = ref_nogc = took = float("inf")
    for _ in range(REPEAT):
        ref = min(ref, ref_once())
        gc.disable()
        try:
            ref_nogc = min(ref_nogc, ref_once())
        finally:
            gc.enable()
        t0 = CLOCK()
        r = analyse(text, limits=limits)
        took = min(took, CLOCK() - t0)
    return {"stream": name, "mb": round(len(text) / 1e6, 1), "core_s": round(took, 2),
            "reference_s": round(ref, 2), "ratio": round(took / ref, 1),
            "reference_nogc_s": round(ref_nogc, 2), "ratio_nogc": round(took / ref_nogc, 1),
            "calls": r["summary"]["calls"], "events": r["summary"]["events"],
            # the cost per event and per call: the streams differ in how many of each a MB holds
            "us_per_event": round(took / max(1, r["summary"]["events"]) * 1e6, 1),
            "kind": r["kind"], "errors": r["summary"]["errors"]}


def main(argv: list[str]) -> None:
    mb = float(argv[0]) if argv else 20.0
    for name, maker in (("open_responses", make_stream), ("anthropic", make_anthropic),
                        ("gemini", make_gemini), ("gemini_sse", make_gemini_sse)):
        print(json.dumps(run(name, maker(mb * 1e6))), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
