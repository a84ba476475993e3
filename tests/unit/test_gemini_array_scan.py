"""A Gemini stream pasted as one JSON array is read chunk by chunk (``read.ArrayScan``: one C
scan per element gives the values and their places; no second scan, no tree of the whole
array): the answer is the one of the array read whole first (``core.SCAN_ARRAYS = False``, the
reference), whole answer against whole answer -- on realworld2's Gemini streams, on generated
ones (one chunk a line, pretty-printed, several candidates, thoughts and signatures, Vertex
``partialArgs``, cut-off calls, with and without tools), and on arrays that break after the
first values the kind is told from (the same refusal, at the same place, or the same answer).
Each test also proves the chunk-by-chunk reading was taken, so a reader that quietly reads
every array whole again does not pass."""

from __future__ import annotations

import json
import random

import pytest

from workbench.errors import WorkbenchError
from workbench.limits import DEFAULT_LIMITS
from workbench.runtime.deadline import Deadline
from workbench.transcript import analyse, core, read

TOOLS = json.dumps([{"functionDeclarations": [
    {"name": "get_weather", "parameters": {"type": "object", "properties": {
        "city": {"type": "string"}, "days": {"type": "integer", "maximum": 10}},
        "required": ["city"]}}]}])


def answer(text: str, tools: str | None = None, *, scan: bool):
    old = core.SCAN_ARRAYS
    core.SCAN_ARRAYS = scan
    try:
        return analyse(text, tools)
    except WorkbenchError as exc:
        return ("refused", exc.status, exc.code, exc.message, exc.line, exc.column)
    finally:
        core.SCAN_ARRAYS = old


@pytest.fixture
def scans(monkeypatch):
    """How many chunks each analysis read through ``ArrayScan.values``."""
    seen: list[int] = []
    real = read.ArrayScan.values

    def counted(self):
        n = 0
        for kv in real(self):
            n += 1
            yield kv
        seen.append(n)

    monkeypatch.setattr(read.ArrayScan, "values", counted)
    return seen


def same(text: str, tools: str | None = None) -> dict:
    fast, plain = answer(text, tools, scan=True), answer(text, tools, scan=False)
    assert fast == plain
    return fast


def chunk(parts, finish=None, index=0, **extra):
    cand = {"content": {"role": "model", "parts": parts}, "index": index}
    if finish is not None:
        cand["finishReason"] = finish
    return {"candidates": [cand], **extra}


def generated(seed: int, n: int = 700) -> list[dict]:
    """Chunks as real streams hold them, and odd ones: text runs, thoughts, signed parts,
    calls (with and without ids, numbers that keep their text), Vertex partialArgs, a second
    candidate, usage metadata, parts that are not objects; the last one finished."""
    rng = random.Random(seed)
    out = []
    k = 0
    while k < n:
        r = rng.random()
        word = rng.choice(["Lyon ", "Zürich ", "", "a\"b ", "東京 ", "{[,]} ", "\\n "])
        if r < 0.45:
            out.append(chunk([{"text": word}]))
        elif r < 0.52:
            out.append(chunk([{"text": word, "thought": True}]))
        elif r < 0.56:
            out.append(chunk([{"text": word, "thoughtSignature": "c2lnbmVk"}]))
        elif r < 0.68:
            call = {"name": "get_weather", "args": {"city": word, "days": rng.randint(1, 14)}}
            if rng.random() < 0.3:
                call["id"] = f"c{k:07d}"
            out.append(chunk([{"functionCall": call}]))
        elif r < 0.72:
            out.append(chunk([{"functionCall": {"name": "get_weather", "willContinue": True}}]))
            out.append(chunk([{"functionCall": {"partialArgs": [
                {"jsonPath": "$.city", "stringValue": word, "willContinue": True}],
                "willContinue": True}}]))
            out.append(chunk([{"functionCall": {}}]))
            k += 2
        elif r < 0.8:
            out.append({"candidates": [
                {"content": {"role": "model", "parts": [{"text": word}]}, "index": 0},
                {"content": {"role": "model", "parts": [{"text": word}, {"inlineData": {
                    "mimeType": "text/plain", "data": "eA=="}}]}, "index": 1}]})
        elif r < 0.85:
            out.append(chunk([{"text": word}], usageMetadata={"promptTokenCount": 12,
                                                               "totalTokenCount": 18446744073709551617}))
        elif r < 0.88:
            out.append(chunk(["not a part", {"text": word}]))
        else:
            out.append(chunk([{"text": word}]))
        k += 1
    out.append(chunk([{"text": ""}], "STOP" if seed % 2 else 2))
    return out


def layouts(chunks: list) -> list[str]:
    return ["[" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in chunks) + "]",
            json.dumps(chunks, indent=2),
            "  \r\n[" + ", ".join(json.dumps(c, separators=(",", ":")) for c in chunks) + "]\n\n"]


def test_recorded_gemini_streams(shared, scans):
    paths = sorted((shared / "reference" / "realworld2" / "gemini").glob("*stream*"))
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8-sig")
        r = same(text)
        assert r["kind"] == "gemini_stream" and r["source"] == "json_events"
        same(text, TOOLS)
        # the recorded chunks with many more after them (past the first 500)
        chunks = json.loads(text)
        many = json.dumps(chunks[:-1] * 400 + chunks[-1:], indent=2)
        r = same(many, TOOLS)
        assert r["summary"]["events"] == 400 * (len(chunks) - 1) + 1
    assert len(scans) == 3 * len(paths) and all(scans)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_generated_gemini_streams(seed, scans):
    chunks = generated(seed)
    for text in layouts(chunks):
        r = same(text)
        assert r["kind"] == "gemini_stream"
        assert r["timeline"] and r["calls"] and r["summary"]["events"] == len(chunks)
        same(text, TOOLS)
    assert scans == [len(chunks)] * 6


def test_a_cut_off_call_and_a_stream_without_finish(scans):
    chunks = generated(5, 600)[:-1]
    same(json.dumps(chunks))   # no finishReason: the last call is cut off
    cut = chunks + [chunk([{"functionCall": {"name": "get_weather", "args": {"city": "x"}}}],
                          "MAX_TOKENS")]
    r = same(json.dumps(cut), TOOLS)
    assert "call_cut_off" in {f["code"] for f in r["findings"]}
    assert len(scans) == 2


BROKEN = {
    "trailing comma": lambda t: t[:-1] + ",]",
    "a bad token": lambda t: t[:-1] + ", {\"candidates\": nope}]",
    "NaN": lambda t: t[:-1] + ", {\"n\": NaN}]",
    "text after the array": lambda t: t + " {}",
    "a second array": lambda t: t + "[]",
    "not closed": lambda t: t[:-1],
    "a long integer": lambda t: t[:-1] + ", {\"n\": " + "7" * 5000 + "}]",
    "too deep": lambda t: t[:-1] + ", " + "[" * 600 + "]" * 600 + "]",
    "deep but allowed": lambda t: t[:-1] + ", " + "[" * 400 + "]" * 400 + "]",
    "brackets in strings": lambda t: t[:-1] + ", {\"text\": \"" + "[{" * 600 + "\"}]",
    "a lone surrogate": lambda t: t[:-1] + ", {\"text\": \"\ud800\"}]",
    "an escaped lone surrogate": lambda t: t[:-1] + ", {\"text\": \"\\ud800\"}]",
    "a control character": lambda t: t[:-1] + ", {\"text\": \"a\tb\"}]",
    "too many elements": lambda t: t[:-1] + ", 0" * 12_000 + "]",
    "a byte order mark": lambda t: "\ufeff" + t,
    "SSE after it": lambda t: t + "\ndata: {}\n",
}


@pytest.mark.parametrize("how", list(BROKEN))
def test_an_array_broken_after_its_first_chunks_is_answered_as_when_read_whole(how):
    chunks = generated(7, 650)
    text = BROKEN[how](json.dumps(chunks))
    r = same(text)
    if how in ("deep but allowed", "brackets in strings", "an escaped lone surrogate",
               "a byte order mark", "a long integer"):
        assert isinstance(r, dict) and r["kind"] == "gemini_stream"
    elif how == "SSE after it":
        assert isinstance(r, dict)   # read as SSE, as before
    else:
        code = {"too many elements": (413, "too_large"), "too deep": (422, "too_deep")}.get(
            how, (422, "parse_error"))
        assert r[:3] == ("refused", *code), r


def test_other_arrays_are_read_whole(scans):
    """Only a Gemini stream's reader consumes an array chunk by chunk: an array of Responses or
    Anthropic events, or of items, is read whole (the head read for its kind is let go)."""
    oa = [{"type": "response.created", "sequence_number": 0, "response": {
        "id": "r", "object": "response", "status": "in_progress", "output": []}}]
    anth = [{"type": "message_start", "message": {"id": "m", "type": "message",
                                                   "role": "assistant", "content": []}},
            {"type": "message_stop"}]
    items = [{"type": "message", "role": "user", "content": "hi"}] * 600
    for value in (oa, anth, items):
        same(json.dumps(value))
    assert scans == []


def test_the_scan_keeps_places_and_lines():
    chunks = generated(9, 800)
    text = layouts(chunks)[1]
    src = read.read(text, DEFAULT_LIMITS, Deadline(None, "t", "text"), scan=True)
    scan = src.scan
    assert scan is not None and len(scan.head) == read.ArrayScan.HEAD
    values = list(scan.values())
    assert [v for _k, v in values] == json.loads(text)
    ks = [0, 1, 499, 500, 501, len(chunks) - 1]
    for k in ks:
        start, end = scan.starts[k], scan.ends[k]
        assert json.loads(text[start:end]) == chunks[k]
        assert scan.lines([k])[k] == text.count("\n", 0, start) + 1
        p = scan.piece(k, chunks[k])
        assert (p.start, p.end, p.line, p.index, p.prefix) == (
            start, end, text.count("\n", 0, start) + 1, k, f"/{k}")
    assert scan.piece(3, None) is scan.piece(3, None)
    assert scan.lines(ks) == {k: text.count("\n", 0, scan.starts[k]) + 1 for k in ks}
