"""Mutated transcripts, streams and sessions never crash the core: every answer is a result or a
WorkbenchError (a 4xx), never another exception (a 500).  Seeded, so a failure repeats."""

from __future__ import annotations

import json
import random

from test_transcript import ACTION, GOOD, HISTORY, USER, call, chunk, fc_stream, output, result, session, sse

from workbench.errors import WorkbenchError
from workbench.transcript import analyse

SEEDS = [
    json.dumps([USER, call("call_1"), output("call_1"), call("call_2"), output("call_3")], indent=1),
    sse(*fc_stream()),
    "\n".join(json.dumps(e) for e in fc_stream()),
    sse(chunk([{"index": 0, "id": "c", "type": "function", "function": {"name": "f",
                                                                       "arguments": "{"}}]),
        chunk(finish="tool_calls"), event_lines=False),
    json.dumps(session([ACTION, GOOD], [result("turn_2", "call_3c9l", False),
                                        result("turn_3", "call_77", output={"x": 1})],
                       items=[USER, HISTORY, {"type": "handoff"}]), indent=1),
]
JUNK = ["{", "}", "[", "]", '"', ",", "\n", "\n\n", "data: ", "null", "1e999", "\\u", ":", "\r"]
VALUES = [None, 1, -1, 0, "s", "", [], {}, True, [1, {}], {"a": []}, "call_1", "turn_2"]


def mutate_value(v, rng):
    if isinstance(v, dict):
        for k in list(v):
            v[k] = rng.choice(VALUES) if rng.random() < 0.12 else mutate_value(v[k], rng)
    elif isinstance(v, list):
        for i in range(len(v)):
            v[i] = rng.choice(VALUES) if rng.random() < 0.12 else mutate_value(v[i], rng)
    return v


def mutate(text: str, rng: random.Random) -> str:
    op = rng.randrange(4)
    if op == 0:
        return text[:rng.randrange(len(text) + 1)]
    if op == 1:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(JUNK) + text[i:]
    if op == 2:
        i = rng.randrange(len(text) + 1)
        return text[:i] + text[i + rng.randrange(1, 60):]
    out = []
    for line in text.split("\n"):
        pre, body = ("data: ", line[6:]) if line.startswith("data: ") else ("", line)
        try:
            out.append(pre + json.dumps(mutate_value(json.loads(body), rng)))
        except ValueError:
            out.append(line)
    text2 = "\n".join(out)
    try:
        return json.dumps(mutate_value(json.loads(text), rng))
    except ValueError:
        return text2


def mutations_answered(seeds: list, rng: random.Random, rounds: int) -> tuple[int, int]:
    """``rounds`` mutations of the seeds through the transcript core: each answered (every finding
    and call placed) or refused with a 4xx, never a crash; (answered, refused)."""
    answered = refused = 0
    for _ in range(rounds):
        text = mutate(rng.choice(seeds), rng)
        try:
            r = analyse(text)
        except WorkbenchError as exc:
            assert 400 <= exc.status < 500
            refused += 1
            continue
        answered += 1
        for f in r["findings"]:
            assert f["line"] >= 1 and f["column"] >= 1 and isinstance(f["pointer"], str)
        for c in r["calls"]:
            assert c["line"] >= 1 and isinstance(c["verdict"], str)
    return answered, refused


def test_mutations_answer_or_refuse_never_crash():
    answered, refused = mutations_answered(SEEDS, random.Random(20261201), 1500)
    print(f"\ntranscript mutations: {answered} answered, {refused} refused with a 4xx, 0 crashed")
    assert answered > 500
