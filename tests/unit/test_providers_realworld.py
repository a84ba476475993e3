"""The realworld2 recordings, re-checked against what their index.jsonl says of each (issue 24,
"What it must show"): every file answers 200 through POST /api/transcript with a kind of its own
family (test_providers.py), and here every stream is rebuilt as its note says — as many events
or chunks, the blocks it names, the stop reason it names — and every response and request
holds the blocks, parts and stop reasons its note names.  The values compared are the
recordings' own notes, read from the index, never typed in."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "realworld2"
if not REAL.is_dir():
    REAL = Path("/work/shared/reference/realworld2")


def _records():
    out = []
    for folder in ("anthropic", "gemini"):
        index = REAL / folder / "index.jsonl"
        if index.is_file():
            out += [(folder, json.loads(line)) for line in index.read_text().splitlines()
                    if line.strip()]
    return out


RECORDS = _records()
pytestmark = pytest.mark.skipif(not RECORDS, reason="realworld2 is not on this machine")


@pytest.fixture(scope="module")
def answers():
    from workbench.web import create_app
    client = create_app().test_client()
    out = {}
    for folder, rec in RECORDS:
        text = (REAL / folder / rec["file"]).read_text(encoding="utf-8")
        resp = client.post("/api/transcript", json={"text": text})
        assert resp.status_code == 200, (rec["file"], resp.get_json())
        out[rec["file"]] = resp.get_json()
    return out


def _blocks(body) -> list[str]:
    """The block / part kinds of the rebuilt (or pasted) answers."""
    kinds = []
    for item in body["items"] if isinstance(body["items"], list) else ():
        if not isinstance(item, dict):
            continue
        for b in item.get("content") or () if isinstance(item.get("content"), list) else ():
            kinds.append(b.get("type"))
        for c in item.get("candidates") or ():
            for p in (c.get("content") or {}).get("parts") or ():
                kinds += [k for k in ("functionCall", "text") if k in p]
    return kinds


def test_every_stream_is_rebuilt_as_its_index_says(answers):
    streams = [(f, r) for f, r in RECORDS if r["kind"] == "stream"]
    assert len(streams) >= 10
    for folder, rec in streams:
        body, note = answers[rec["file"]], rec["note"]
        assert body["kind"] == f"{folder}_stream", rec["file"]
        n = re.search(r"(\d+) (events|chunks)\b", note)
        assert n, note
        assert body["summary"]["events"] == int(n.group(1)), (rec["file"], body["summary"])
        for block in re.findall(r"\bblock (\w+)", note.split("ANOMALY:")[0]):
            assert block in _blocks(body), (rec["file"], block, _blocks(body))
        stop = re.search(r"\bstop_reason (\w+)", note)
        if stop:
            assert [m.get("stop_reason") for m in body["items"]] == [stop.group(1)], rec["file"]
            assert {row["status"] for row in body["timeline"]} == {stop.group(1)}
        finish = re.search(r"\bfinishReason (\w+)", note)
        if finish:
            reasons = {c.get("finishReason") for it in body["items"] for c in it["candidates"]}
            assert reasons == {finish.group(1)}, (rec["file"], reasons)
        if "parts functionCall" in note:
            assert "functionCall" in _blocks(body) and body["calls"], rec["file"]
            assert [row["name"] for row in body["timeline"] if row["type"] == "function_call"] \
                == [c["name"] for c in body["calls"]]
        # a stream of the index that is whole ends whole: no finding of a broken stream unless
        # the index names the anomaly
        broken = [f for f in body["findings"] if f["code"].startswith("stream_")]
        assert bool(broken) == ("ANOMALY:" in note), (rec["file"], broken)


def test_every_response_and_request_holds_what_its_index_says(answers):
    seen = 0
    for folder, rec in RECORDS:
        if rec["kind"] not in ("response", "request"):
            continue
        body, note = answers[rec["file"]], rec["note"]
        text = (REAL / folder / rec["file"]).read_text(encoding="utf-8").lstrip("\ufeff")
        value = json.loads(text)
        for block in re.findall(r"\bblocks? (\w+)", note.split("ANOMALY:")[0]):
            assert block in _blocks({"items": [value]}), (rec["file"], block)
            if block == "tool_use":
                assert body["calls"], rec["file"]
        stop = re.search(r"\bstop_reason (\w+)", note)
        if stop:
            assert value.get("stop_reason") == stop.group(1)
            cut = [f for f in body["findings"] if f["code"] == "call_cut_off"]
            # a call in a message cut by max_tokens is never executed; no call, no finding
            assert bool(cut) == (stop.group(1) == "max_tokens" and bool(body["calls"])), rec["file"]
        carried = re.search(r"history carries ([\w,]+)", note)
        if carried:
            kinds = {c["dialect"] for c in body["calls"]}
            assert kinds == {folder}, (rec["file"], kinds)
            assert body["summary"]["outputs"] >= 1, rec["file"]
        if "error body" in note:
            assert body["kind"] == "gemini_contents" and body["calls"] == [], rec["file"]
        seen += 1
    assert seen >= 40
