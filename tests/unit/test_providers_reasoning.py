"""Issue 24, step 3: reasoning_dropped across OpenAI reasoning items, Anthropic thinking blocks
(with signature) and Gemini thoughtSignature (compared as decoded bytes)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from workbench.transcript import analyse

REAL = Path("/work/shared/reference/realworld2/gemini")


def dropped(r):
    return [(f["severity"], f["pointer"]) for f in r["findings"] if f["code"] == "reasoning_dropped"]


# --------------------------------------------------------------------------- OpenAI

USER = {"role": "user", "content": "go"}
REASON = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}


def fc(cid):
    return {"type": "function_call", "call_id": cid, "name": "f", "arguments": "{}"}


def out(cid):
    return {"type": "function_call_output", "call_id": cid, "output": "1"}


def test_openai_turn_that_lost_its_reasoning_item():
    r = analyse(json.dumps({"input": [USER, REASON, fc("call_a"), out("call_a"), fc("call_b"),
                                      out("call_b")]}))
    assert dropped(r) == [("warning", "/input/4")]
    kept = {**REASON, "id": "rs_2"}
    r = analyse(json.dumps({"input": [USER, REASON, fc("call_a"), out("call_a"), kept,
                                      fc("call_b"), out("call_b")]}))
    assert dropped(r) == []


def test_openai_reasoning_item_without_its_following_item():
    r = analyse(json.dumps({"input": [USER, REASON, {"role": "user", "content": "again"}]}))
    assert dropped(r) == [("error", "/input/1")]


# --------------------------------------------------------------------------- Anthropic

THINK = {"type": "thinking", "thinking": "Need the weather.", "signature": "EqQBCgIYAhIM"}
USE = {"type": "tool_use", "id": "toolu_1", "name": "w", "input": {}}
RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                        "content": "18C"}]}


def req(assistant, thinking=True):
    body = {"model": "m", "max_tokens": 10,
            "messages": [{"role": "user", "content": "weather?"},
                         {"role": "assistant", "content": assistant}, RESULT]}
    if thinking:
        body["thinking"] = {"type": "enabled", "budget_tokens": 1024}
    return json.dumps(body)


def test_anthropic_thinking_kept_is_clean():
    assert dropped(analyse(req([THINK, USE]))) == []


def test_anthropic_thinking_dropped_from_the_turn_being_answered():
    assert dropped(analyse(req([USE]))) == [("error", "/messages/1/content/0")]
    assert dropped(analyse(req([USE], thinking=False))) == []   # no thinking, nothing to drop


def test_anthropic_thinking_without_its_signature():
    r = analyse(req([{k: v for k, v in THINK.items() if k != "signature"}, USE]))
    assert dropped(r) == [("error", "/messages/1/content/0")]


# --------------------------------------------------------------------------- Gemini

@pytest.fixture
def log():
    stream = json.loads((REAL / "0288_llm-gemini__test_gemini__test_tools_with_gemini_3_thought_"
                                 "signatures__i0_stream.json").read_text())
    request = json.loads((REAL / "0289_llm-gemini__test_gemini__test_tools_with_gemini_3_"
                                  "thought_signatures__i1_request.json").read_text())
    return stream, request


def _part(request):
    return request["contents"][1]["parts"][1]


def test_gemini_signature_sent_back_is_clean(log):
    stream, request = log
    r = analyse(json.dumps([*stream, request]))
    assert r["kind"] == "gemini_contents" and dropped(r) == []


def test_gemini_signature_in_the_url_safe_alphabet_is_the_same_bytes(log):
    stream, request = log
    sig = _part(request)["thoughtSignature"]
    assert "+" in sig or "/" in sig
    _part(request)["thoughtSignature"] = sig.replace("+", "-").replace("/", "_").rstrip("=")
    assert dropped(analyse(json.dumps([*stream, request]))) == []


def test_gemini_signature_dropped_or_changed(log):
    stream, request = log
    gone = copy.deepcopy(request)
    del _part(gone)["thoughtSignature"]
    assert dropped(analyse(json.dumps([*stream, gone]))) == [("error", "/2/contents/1/parts/1")]
    changed = copy.deepcopy(request)
    _part(changed)["thoughtSignature"] = "AAAA" + _part(changed)["thoughtSignature"][4:]
    assert dropped(analyse(json.dumps([*stream, changed]))) == \
        [("error", "/2/contents/1/parts/1/thoughtSignature")]


def test_gemini_request_alone_proves_nothing_about_a_missing_signature(log):
    _stream, request = log
    del _part(request)["thoughtSignature"]
    assert dropped(analyse(json.dumps(request))) == []
