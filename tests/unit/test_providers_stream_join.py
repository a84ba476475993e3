"""The Gemini stream's text join (the short path for a ``{"text": …}`` chunk continuing a text
part, and the timeline rows whose lines are read once at the end) agrees with the rule it
shortens, on the real recordings of realworld2 and on generated streams (text runs, thoughts,
signed parts, extra members, calls, two candidates, as a JSON array and as SSE).

The rule, written out here on its own: a text part joins the part before it in its candidate
when that one is a text part (no ``functionCall``) with the same ``thought`` flag and the new
part carries no thought signature; any other part is a part of its own.  A part's timeline row
counts the chunks it took and names the lines of its first and last chunk."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from workbench.transcript import analyse

REAL = Path(os.environ.get("WORKBENCH_SHARED") or
            Path(__file__).resolve().parents[3] / "shared") / "reference" / "realworld2"

SIGNED = ("thoughtSignature", "thought_signature")


def expected(chunks: list[tuple[object, int]]) -> dict:
    """Per candidate: the rebuilt parts and [chunks, first line, last line] of each."""
    out: dict = {}
    for value, line in chunks:
        cands = value.get("candidates") if isinstance(value, dict) else None
        for i, cand in enumerate(cands if isinstance(cands, list) else ()):
            if not isinstance(cand, dict):
                continue
            st = out.setdefault(cand.get("index", i), {"parts": [], "rows": [], "text": None})
            content = cand.get("content")
            parts = content.get("parts") if isinstance(content, dict) else None
            for part in parts if isinstance(parts, list) else ():
                if not isinstance(part, dict):
                    continue
                call = part.get("functionCall", part.get("function_call"))
                assert not (isinstance(call, dict) and ("partialArgs" in call or
                                                        "willContinue" in call))
                text = part.get("text")
                last = st["text"]
                if isinstance(text, str) and last is not None and \
                        bool(part.get("thought")) == last and not any(k in part for k in SIGNED):
                    st["parts"][-1] = {**st["parts"][-1], "text": st["parts"][-1]["text"] + text}
                    st["rows"][-1][0] += 1
                    st["rows"][-1][2] = line
                    continue
                st["parts"].append(dict(part))
                st["rows"].append([1, line, line])
                st["text"] = bool(part.get("thought")) if isinstance(text, str) and \
                    call is None else None
    return out


def array_lines(text: str) -> list[tuple[object, int]]:
    """Each element of a JSON array text with the line it starts on (read with raw_decode)."""
    dec = json.JSONDecoder()
    i = text.index("[") + 1
    out = []
    while True:
        while text[i] in " \t\r\n,":
            i += 1
        if text[i] == "]":
            return out
        value, end = dec.raw_decode(text, i)
        out.append((value, text.count("\n", 0, i) + 1))
        i = end


def sse_lines(text: str) -> list[tuple[object, int]]:
    return [(json.loads(line[5:]), n) for n, line in enumerate(text.splitlines(), 1)
            if line.startswith("data:")]


def agrees(text: str, chunks: list[tuple[object, int]]) -> None:
    r = analyse(text)
    assert r["kind"] == "gemini_stream"
    want = expected(chunks)
    got = {c["index"]: c["content"]["parts"] for c in r["items"][0]["candidates"]} \
        if r["items"] else {}
    assert got == {k: st["parts"] for k, st in want.items()}
    rows = {}
    for row in r["timeline"]:
        rows.setdefault(row["candidate"], []).append(
            [row["events"]["chunks"], row["first_line"], row["last_line"]])
    assert rows == {k: st["rows"] for k, st in want.items() if st["rows"]}


STREAMS = sorted(p for p in (REAL / "gemini").glob("*stream*")) if REAL.is_dir() else []


@pytest.mark.skipif(not STREAMS, reason="realworld2 is not on this machine")
@pytest.mark.parametrize("path", STREAMS, ids=lambda p: p.name[:40])
def test_recorded_gemini_streams_join_as_the_rule_says(path):
    text = path.read_text(encoding="utf-8-sig")
    agrees(text, array_lines(text))
    # the same chunks as SSE data: lines
    values = [v for v, _ in array_lines(text)]
    sse = "".join(f"data: {json.dumps(v)}\r\n\r\n" for v in values)
    agrees(sse, sse_lines(sse))


def generated(seed: int, n: int = 400) -> list[dict]:
    rng = random.Random(seed)
    chunks = []
    for k in range(n):
        cands = []
        for idx in ((0,) if rng.random() < 0.7 else (0, 1)):
            kind = rng.random()
            word = rng.choice(["Lyon ", "Zürich ", "", "a\"b ", "東京 "])
            if kind < 0.45:
                part = {"text": word}
            elif kind < 0.55:
                part = {"text": word, "thought": True}
            elif kind < 0.62:
                part = {"text": word, "thought": False}
            elif kind < 0.68:
                part = {"text": word, rng.choice(SIGNED): "c2lnbmVk"}
            elif kind < 0.78:
                part = {"functionCall": {"name": "get_weather", "args": {"city": word, "k": k}}}
            elif kind < 0.82:
                part = {"inlineData": {"mimeType": "text/plain", "data": "eA=="}}
            elif kind < 0.85:
                part = "not a part"
            else:
                part = {"text": word}
            parts = [part] if rng.random() < 0.8 else [part, {"text": word}]
            cand = {"content": {"role": "model", "parts": parts}, "index": idx}
            if k == n - 1:
                cand["finishReason"] = "STOP"
            cands.append(cand)
        chunks.append({"candidates": cands})
    return chunks


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_gemini_streams_join_as_the_rule_says(seed):
    chunks = generated(seed)
    one_a_line = "[" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in chunks) + "]"
    pretty = json.dumps(chunks, indent=1, ensure_ascii=False)
    sse = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
    for text in (one_a_line, pretty):
        agrees(text, array_lines(text))
    agrees(sse, sse_lines(sse))
