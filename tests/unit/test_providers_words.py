"""Every finding speaks its dialect's words (issue 24): the pairing and order messages shared by
all dialects name the id field each envelope has — Anthropic ``tool_use.id`` / ``tool_use_id``,
Gemini ``functionCall.id`` / ``functionResponse.id`` (or name and position), Chat ``id`` /
``tool_call_id`` — and ``call_id`` only where the envelope has one (Open Responses).  Over the
real recordings of realworld2 and over hand-made histories that make every pairing code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.transcript import analyse

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "realworld2"
if not REAL.is_dir():
    REAL = Path("/work/shared/reference/realworld2")


def _records(folder):
    index = REAL / folder / "index.jsonl"
    if not index.is_file():
        return []
    return [json.loads(line)["file"] for line in index.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("folder", ["anthropic", "gemini"])
def test_no_finding_over_the_real_recordings_says_call_id(folder):
    files = _records(folder)
    if not files:
        pytest.skip("realworld2 is not on this machine")
    said = 0
    for name in files:
        r = analyse((REAL / folder / name).read_text(encoding="utf-8"))
        for f in r["findings"]:
            assert "call_id" not in f["message"], (name, f)
            said += 1
    assert said >= 10    # the recordings do make findings (pending calls, cut-off calls…)


def _anthropic(*messages):
    return json.dumps({"model": "claude", "max_tokens": 9, "messages": list(messages)})


def U(*blocks):
    return {"role": "user", "content": list(blocks)}


def A(*blocks):
    return {"role": "assistant", "content": list(blocks)}


def tool_use(i, name="f", args=None):
    return {"type": "tool_use", "id": i, "name": name, "input": {} if args is None else args}


def tool_result(i):
    return {"type": "tool_result", "tool_use_id": i, "content": "ok"}


HI = {"type": "text", "text": "hi"}
LONG = "toolu_01ABCDEFGHIJKLMNOPQRSTUV"

# one Anthropic history per pairing code, and the words its message must use
ANTHROPIC_CASES = {
    "orphan_output": (_anthropic(U(HI), A(HI), U(tool_result(LONG))),
                      f'tool_result\'s tool_use_id "{LONG}" matches no tool_use'),
    "near_miss_id": (_anthropic(U(HI), A(tool_use(LONG)), U(tool_result(LONG[:-1] + "W"))),
                     "Copy the tool_use's id character for character"),
    "duplicate_call_id": (_anthropic(U(HI), A(tool_use("toolu_1"), tool_use("toolu_1", "g")),
                                     U(tool_result("toolu_1"))),
                          'Two different calls share id "toolu_1"'),
    "duplicate_replay": (_anthropic(U(HI), A(tool_use("toolu_1")), U(tool_result("toolu_1")),
                                    A(tool_use("toolu_1")), U(tool_result("toolu_1"))),
                         'The same call (id "toolu_1", f)'),
    "empty_call_id": (_anthropic(U(HI), A(tool_use("")), U(tool_result(""))),
                      "This tool_result has an empty tool_use_id: it answers no tool_use. "
                      "Copy the tool_use's id exactly."),
    "unanswered_call": (_anthropic(U(HI), A(tool_use("toolu_1")), U(HI), A(HI), U(HI)),
                        'The tool_use f (id "toolu_1") has no tool_result'),
    "duplicate_output": (_anthropic(U(HI), A(tool_use("toolu_1")),
                                    U(tool_result("toolu_1"), tool_result("toolu_1"))),
                         'A second tool_result answers tool_use_id "toolu_1"'),
    "output_before_call": (_anthropic(U(tool_result("toolu_1")), A(tool_use("toolu_1")), U(HI)),
                           'This tool_result for tool_use_id "toolu_1" comes before its '
                           "tool_use"),
    "pending_call": (json.dumps({"type": "message", "role": "assistant", "stop_reason": "tool_use",
                                 "content": [tool_use("toolu_9")]}),
                     'send its tool_result with tool_use_id "toolu_9"'),
}


@pytest.mark.parametrize("code", sorted(ANTHROPIC_CASES))
def test_anthropic_pairing_messages_name_tool_use_id(code):
    text, words = ANTHROPIC_CASES[code]
    r = analyse(text)
    assert r["kind"] == "anthropic_messages"
    found = [f for f in r["findings"] if f["code"] == code]
    assert found, r["findings"]
    assert any(words in f["message"] for f in found), [f["message"] for f in found]
    for f in r["findings"]:
        assert "call_id" not in f["message"], f


def _gemini(*contents):
    return json.dumps({"contents": list(contents)})


def _turn(role, *parts):
    return {"role": role, "parts": list(parts)}


def fcall(name, i=None):
    fc = {"name": name, "args": {}}
    if i is not None:
        fc["id"] = i
    return {"functionCall": fc}


def fresp(name, i=None):
    fr = {"name": name, "response": {"ok": True}}
    if i is not None:
        fr["id"] = i
    return {"functionResponse": fr}


ASK = _turn("user", {"text": "go"})
GEMINI_CASES = {
    "orphan_output": _gemini(ASK, _turn("model", {"text": "x"}), _turn("user", fresp("f"))),
    "response_count_mismatch": _gemini(ASK, _turn("model", fcall("f"), fcall("g")),
                                       _turn("user", fresp("f"))),
    "duplicate_call_id": _gemini(ASK, _turn("model", fcall("f", "ab12cd34"), fcall("g", "ab12cd34")),
                                 _turn("user", fresp("f", "ab12cd34"), fresp("g", "ab12cd34"))),
    "empty_call_id": _gemini(ASK, _turn("model", fcall("f", "")), _turn("user", fresp("f", ""))),
    "unanswered_call": _gemini(ASK, _turn("model", fcall("f")), _turn("user", {"text": "?"}),
                               _turn("model", {"text": "ok"})),
    "result_not_next": _gemini(ASK, _turn("model", fcall("f")), _turn("user", {"text": "?"}),
                               _turn("model", {"text": "ok"}), _turn("user", fresp("f"))),
}


@pytest.mark.parametrize("code", sorted(GEMINI_CASES))
def test_gemini_pairing_messages_never_say_call_id(code):
    r = analyse(GEMINI_CASES[code])
    assert r["kind"] == "gemini_contents"
    assert code in {f["code"] for f in r["findings"]}, r["findings"]
    for f in r["findings"]:
        assert "call_id" not in f["message"], f


def test_chat_names_tool_call_id_and_open_responses_keeps_call_id():
    chat = json.dumps({"model": "gpt", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "tool", "tool_call_id": "call_gone", "content": "x"}]})
    (f,) = [f for f in analyse(chat)["findings"] if f["code"] == "orphan_output"]
    assert 'tool_call_id "call_gone"' in f["message"] and "call_id \"" not in \
        f["message"].replace("tool_call_id", "")
    items = json.dumps([{"type": "message", "role": "user", "content": "hi"},
                        {"type": "function_call_output", "call_id": "call_gone", "output": "x"}])
    (f,) = [f for f in analyse(items)["findings"] if f["code"] == "orphan_output"]
    assert 'call_id "call_gone"' in f["message"]
