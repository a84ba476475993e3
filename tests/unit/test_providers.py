"""Issue 24, step 1: Anthropic Messages, Gemini and OTel traces in the one classifier and the
transcript's checks (providers-rules.md), over the real recordings of realworld2 and small
hand-made cases, each asserting the code, its place and its severity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.transcript import analyse as _analyse
from workbench.transcript.providers import SEVERITY

FOUND: set[str] = set()


def analyse(text: str, tools: str | None = None) -> dict:
    r = _analyse(text, tools)
    FOUND.update(f["code"] for f in r["findings"])
    return r

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "realworld2"
if not REAL.is_dir():
    REAL = Path("/work/shared/reference/realworld2")
FAMILY = {"anthropic": ("anthropic_messages", "anthropic_stream"),
          "gemini": ("gemini_contents", "gemini_stream"), "otel": ("otel_trace",)}
# the anomaly phrases index.jsonl uses, and the code each one is found by
ANOMALY_CODES = {"tool block never closed": "stream_order",
                 "stop_reason max_tokens with a tool_use in flight": "call_cut_off"}


def _records():
    out = []
    for folder in FAMILY:
        for line in (REAL / folder / "index.jsonl").read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                out.append((folder, rec))
    return out


RECORDS = _records() if REAL.is_dir() else []


def _codes(r):
    return [(f["code"], f["severity"]) for f in r["findings"]]


@pytest.mark.skipif(not RECORDS, reason="realworld2 is not on this machine")
def test_every_recording_answers_200_with_a_kind_of_its_family(client):
    for folder, rec in RECORDS:
        text = (REAL / folder / rec["file"]).read_text(encoding="utf-8")
        resp = client.post("/api/transcript", json={"text": text})
        assert resp.status_code == 200, (rec["file"], resp.get_json())
        body = resp.get_json()
        assert body["kind"] in FAMILY[folder], (rec["file"], body["kind"])
        if rec["kind"] == "stream":
            assert body["kind"].endswith("_stream") and body["summary"]["events"] >= 1
        # the recorded histories were accepted by the API: never orphan / unanswered
        assert not [c for c, _s in _codes(body) if c in ("orphan_output", "unanswered_call")], \
            (rec["file"], body["findings"])
        # a tool call in a recording with tools is found
        if "blocks tool_use" in rec["note"] or "parts functionCall" in rec["note"]:
            assert body["calls"], rec["file"]


@pytest.mark.skipif(not RECORDS, reason="realworld2 is not on this machine")
def test_the_anomalies_of_the_index_are_found_by_their_codes():
    seen = 0
    for folder, rec in RECORDS:
        if "ANOMALY:" not in rec["note"]:
            continue
        phrases = [p.strip() for p in rec["note"].split("ANOMALY:", 1)[1].split("|")]
        r = analyse((REAL / folder / rec["file"]).read_text(encoding="utf-8"))
        codes = {c for c, _s in _codes(r)}
        for phrase in phrases:
            assert phrase in ANOMALY_CODES, f"a new anomaly to map: {phrase!r}"
            assert ANOMALY_CODES[phrase] in codes, (rec["file"], phrase, r["findings"])
            seen += 1
    assert seen == 2


def test_cut_off_stream_points_at_its_block_and_is_not_executed():
    text = (REAL / "anthropic" /
            "0062_anthropic-sdk-typescript__incomplete_partial_json_response.sse").read_text()
    r = analyse(text)
    cut = [f for f in r["findings"] if f["code"] == "call_cut_off"]
    assert len(cut) == 1 and cut[0]["severity"] == "error"
    assert cut[0]["pointer"] == "/content_block" and cut[0]["line"] == 29
    (call,) = r["calls"]
    assert call["name"] == "make_file" and call["execute"] is False and call["verdict"] == "status"
    assert r["timeline"][1]["type"] == "tool_use" and r["timeline"][1]["broken"]


def test_stream_rebuilds_the_input_exactly():
    text = (REAL / "anthropic" / "0063_anthropic-sdk-typescript__tool_use_response.sse").read_text()
    r = analyse(text)
    (call,) = r["calls"]
    assert call["verdict"] == "ok" and call["role"] == "pending"
    tool = [b for b in r["items"][0]["content"] if b["type"] == "tool_use"][0]
    assert call["walk"]["arguments"] == json.dumps(tool["input"], separators=(",", ":"),
                                                   ensure_ascii=False)


# --------------------------------------------------------------------------- Anthropic rules

def _req(*messages):
    return json.dumps({"model": "m", "max_tokens": 10, "messages": list(messages)})


USE = {"role": "assistant", "content": [
    {"type": "text", "text": "Looking."},
    {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]}
RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                        "content": "18C"}]}
ASK = {"role": "user", "content": "Weather in Paris?"}


def test_a_valid_conversation_is_recognised_and_clean():
    r = analyse(_req(ASK, USE, RESULT))
    assert r["kind"] == "anthropic_messages" and _codes(r) == []
    (call,) = r["calls"]
    assert (call["dialect"], call["call_id"], call["role"], call["pointer"]) == \
        ("anthropic", "toolu_1", "history", "/messages/1/content/1")
    assert call["json"] == json.dumps(USE["content"][1])


def test_orphan_tool_result_is_an_error_at_its_tool_use_id():
    orphan = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_other",
                                           "content": "x"}]}
    r = analyse(_req(ASK, USE, RESULT, orphan))
    (f,) = r["findings"]
    assert (f["code"], f["severity"], f["pointer"]) == \
        ("orphan_output", "error", "/messages/3/content/0/tool_use_id")


def test_user_messages_merge_before_the_order_rules():
    """The recorded 400: two user messages, the second a tool_result, are one turn whose
    tool_result is not first (messages.0.content.1 of the merged list)."""
    orphan = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9",
                                           "content": "x"}]}
    r = analyse(_req(ASK, orphan))
    assert [(f["code"], f["pointer"]) for f in r["findings"]] == [
        ("orphan_output", "/messages/1/content/0/tool_use_id"),
        ("result_not_first", "/messages/1/content/0")]


def test_unanswered_tool_use_is_an_error_for_anthropic():
    r = analyse(_req(ASK, USE, {"role": "user", "content": "and tomorrow?"}))
    (f,) = r["findings"]
    assert (f["code"], f["severity"], f["pointer"]) == \
        ("unanswered_call", "error", "/messages/1/content/1")


def test_merged_same_role_messages_pair_as_one_turn():
    split = {"role": "assistant", "content": [USE["content"][1]]}
    text_first = {"role": "assistant", "content": [USE["content"][0]]}
    r = analyse(_req(ASK, text_first, split, RESULT,
                     {"role": "user", "content": [{"type": "text", "text": "thanks"}]}))
    assert _codes(r) == []


def test_result_after_text_is_not_first_and_a_late_result_is_not_next():
    late = {"role": "user", "content": [{"type": "text", "text": "hm"},
                                        RESULT["content"][0]]}
    r = analyse(_req(ASK, USE, {"role": "user", "content": "wait"},
                     {"role": "assistant", "content": "ok"}, late))
    codes = {f["code"]: f for f in r["findings"]}
    assert codes["result_not_next"]["pointer"] == "/messages/4/content/1/tool_use_id"
    assert codes["result_not_first"]["pointer"] == "/messages/4/content/1"
    assert set(codes) == {"result_not_next", "result_not_first"}


def test_is_error_is_shown_not_faulted():
    failed = {"role": "user", "content": [{**RESULT["content"][0], "is_error": True}]}
    r = analyse(_req(ASK, USE, failed))
    assert [(f["code"], f["severity"], f["pointer"]) for f in r["findings"]] == [
        ("result_is_error", "info", "/messages/2/content/0/is_error")]


def test_max_tokens_response_cuts_the_call_off():
    resp = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
            "content": [USE["content"][1]], "stop_reason": "max_tokens"}
    r = analyse(json.dumps(resp))
    assert r["kind"] == "anthropic_messages"
    assert _codes(r) == [("call_cut_off", "error")]
    assert r["calls"][0]["execute"] is False


def test_a_chat_request_is_still_chat():
    chat = {"model": "gpt", "messages": [{"role": "user", "content": "hi"},
                                         {"role": "assistant", "tool_calls": [
                                             {"id": "c1", "type": "function",
                                              "function": {"name": "f", "arguments": "{}"}}]}]}
    assert analyse(json.dumps(chat))["kind"] == "chat_messages"


# --------------------------------------------------------------------------- Gemini rules

def _contents(*contents):
    return json.dumps({"contents": list(contents)})


G_ASK = {"role": "user", "parts": [{"text": "Weather?"}]}
G_CALLS = {"role": "model", "parts": [{"functionCall": {"name": "w", "args": {"c": "A"}}},
                                      {"functionCall": {"name": "w", "args": {"c": "B"}}}]}


def test_gemini_pairs_by_name_and_position_without_ids():
    resp = {"role": "user", "parts": [{"functionResponse": {"name": "w", "response": {}}},
                                      {"functionResponse": {"name": "w", "response": {}}}]}
    r = analyse(_contents(G_ASK, G_CALLS, resp))
    assert r["kind"] == "gemini_contents" and _codes(r) == []
    assert [c["role"] for c in r["calls"]] == ["history", "history"]
    assert all(c["verdict"] == "ok" for c in r["calls"])


def test_gemini_count_mismatch_and_unanswered_is_a_warning():
    one = {"role": "user", "parts": [{"functionResponse": {"name": "w", "response": {}}}]}
    r = analyse(_contents(G_ASK, G_CALLS, one, {"role": "model", "parts": [{"text": "ok"}]}))
    got = {f["code"]: f for f in r["findings"]}
    assert got["response_count_mismatch"]["pointer"] == "/contents/2/parts/0/functionResponse"
    assert got["unanswered_call"]["severity"] == "warning"
    assert got["unanswered_call"]["pointer"] == "/contents/1/parts/1/functionCall"


def test_gemini_orphan_response():
    r = analyse(_contents(G_ASK, {"role": "user", "parts": [
        {"functionResponse": {"name": "w", "response": {}}}]}))
    assert [(f["code"], f["pointer"]) for f in r["findings"]] == \
        [("orphan_output", "/contents/1/parts/0/functionResponse")]


def test_gemini_max_tokens_candidate_is_cut_off():
    resp = {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "w", "args": {}}}]}, "finishReason": "MAX_TOKENS"}]}
    r = analyse(json.dumps(resp))
    assert _codes(r) == [("call_cut_off", "error")] and r["calls"][0]["execute"] is False


# --------------------------------------------------------------------------- OTel

def test_otel_finding_names_its_span_and_invented_ids_are_said():
    spans = [{"name": "chat gemini", "context": {"trace_id": 7, "span_id": 2},
              "start_time": 1, "attributes": {
                  "gen_ai.provider.name": "gcp.gemini",
                  "gen_ai.output.messages": json.dumps([{"role": "model", "parts": [
                      {"type": "tool_call", "id": "w_0", "name": "w", "arguments": {"c": 1}}]}])}},
             {"name": "chat again", "context": {"trace_id": 7, "span_id": 3},
              "start_time": 2, "attributes": {
                  "gen_ai.input.messages": json.dumps([{"role": "user", "parts": [
                      {"type": "tool_call_response", "id": "other", "response": "x"}]}])}}]
    r = analyse(json.dumps(spans))
    assert r["kind"] == "otel_trace"
    got = {f["code"]: f for f in r["findings"]}
    assert got["invented_call_id"]["span_id"] == 2 and got["invented_call_id"]["severity"] == "info"
    orphan = got["orphan_output"]
    assert (orphan["span"], orphan["trace_id"], orphan["pointer"]) == \
        ("chat again", 7, "/1/attributes/gen_ai.input.messages")


def test_thinking_dropped_from_the_answered_turn():
    """(tests/unit/test_providers_reasoning.py has the three providers' cases.)"""
    r = analyse(json.dumps({"model": "m", "max_tokens": 10, "thinking": {"type": "enabled"},
                            "messages": [ASK, {"role": "assistant", "content": [
                                USE["content"][1]]}, RESULT]}))
    assert [(f["code"], f["severity"]) for f in r["findings"]] == [("reasoning_dropped", "error")]


def test_zz_every_code_of_the_providers_was_found():
    """Runs last in this module: every code only these dialects have came up above."""
    assert not sorted(set(SEVERITY) - FOUND), sorted(set(SEVERITY) - FOUND)
