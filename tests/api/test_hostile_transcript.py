"""Hostile transcripts and streams against ``/api/transcript`` and ``/api/gate`` (issue 21):
deep, long, repeated, huge numbers, bad escapes, lone surrogates (what invalid UTF-8 becomes
when a JSON body carries it), CR / CRLF / BOM line endings.  Every answer is a 200 or a 4xx
with a stable ``code`` (and ``field``), never a 500, and comes back within the work deadline
plus a margin.  Bounded: a fixed number of generated cases of bounded size, in-process."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.limits import Limits
from workbench.web import create_app

DEADLINE = 4.0          # the work deadline these tests run under
MARGIN = 3.0            # seconds past it an answer may take (writing it, a loaded machine)

_FC = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
       "arguments": "{\"city\":\"Lyon\"}", "status": "completed"}


def _sse(events) -> str:
    return "".join(f"event: {e.get('type', 'x') if isinstance(e, dict) else 'x'}\n"
                   f"data: {json.dumps(e)}\n\n" for e in events)


def _stream(item) -> list:
    return [{"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.function_call_arguments.delta", "output_index": 0,
             "delta": item.get("arguments") if isinstance(item, dict) else "x"},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": {"id": "r", "status": "completed"}}]


def _chat(args) -> list:
    return [{"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {
        "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                        "function": {"name": "f", "arguments": args}}]}}]},
            {"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {},
                                                             "finish_reason": "tool_calls"}]}]


HOSTILE_VALUES = st.sampled_from([
    "[" * 600 + "]" * 600, "{\"a\":" * 400 + "1" + "}" * 400, "1" * 5000, "1e400000000",
    "1e4000000000000000000", "-0", "\\ud800", "\ud800", "\udcff", "\\x41", "\\u12", "\x00",
    "a" * 20000, "\u2028", "{\"a\":1,\"a\":2}", "NaN", "[1,]", "\ufeff",
])


@st.composite
def hostile_item(draw):
    item = dict(_FC)
    field = draw(st.sampled_from(["arguments", "call_id", "name", "status", "id", "type"]))
    bad = draw(HOSTILE_VALUES)
    how = draw(st.sampled_from(["string", "raw"]))
    if how == "raw":
        return json.dumps(item)[:-1] + f', "{field}x": ' + bad + "}"   # raw JSON, maybe broken
    item[field] = bad
    return item


@st.composite
def transcripts(draw):
    item = draw(hostile_item())
    shape = draw(st.sampled_from(["response", "input", "lines", "sse", "array_events", "chat",
                                  "session", "messages", "repeated", "deep", "raw"]))
    if isinstance(item, str):
        text = {"response": '{"object":"response","status":"completed","output":[' + item + "]}",
                "lines": (item + "\n") * 3, "sse": "data: " + item + "\n\n" * 2}.get(shape, item)
    elif shape == "response":
        text = json.dumps({"object": "response", "status": "completed", "output": [item]})
    elif shape == "input":
        text = json.dumps({"input": [item, {"type": "function_call_output",
                                            "call_id": item.get("call_id"), "output": "x"}]})
    elif shape == "lines":
        text = "\n".join(json.dumps(e) for e in _stream(item))
    elif shape == "sse":
        text = _sse(_stream(item))
    elif shape == "array_events":
        text = json.dumps(_stream(item), indent=1)
    elif shape == "chat":
        text = _sse(_chat(item.get("arguments")))
    elif shape == "session":
        text = json.dumps({"id": "s", "agent": {"id": "a"}, "required_actions": [
            {**item, "turn_id": "t1", "arguments": {"v": item.get("arguments")}}]})
    elif shape == "messages":
        text = json.dumps({"messages": [{"role": "assistant", "tool_calls": [
            {"id": item.get("call_id"), "type": "function",
             "function": {"name": item.get("name"), "arguments": item.get("arguments")}}]}]})
    elif shape == "repeated":
        text = "\n".join(json.dumps(item) for _ in range(draw(st.integers(2, 400))))
    elif shape == "deep":
        n = draw(st.integers(100, 700))
        text = json.dumps({"input": [item]})[:-2] + "," + "[" * n + "]" * n + "]}"
    else:
        text = json.dumps(item)
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = text.replace("\n", ending)
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text


@pytest.fixture(scope="module")
def client():
    return create_app(Limits(work_timeout=DEADLINE)).test_client()


def _post(client, path, body) -> tuple[int, dict, float]:
    started = time.monotonic()
    resp = client.post(path, data=json.dumps(body), content_type="application/json")
    took = time.monotonic() - started
    return resp.status_code, json.loads(resp.get_data(as_text=True)), took


def _check(status, answer, took, field):
    assert status < 500, answer
    assert took < DEADLINE + MARGIN, took
    if status != 200:
        assert 400 <= status < 500
        err = answer["error"]
        assert isinstance(err["code"], str) and err["code"] and err["message"], answer
        assert err.get("field") in (field, "schema", "tools", None), answer


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=transcripts())
def test_hostile_transcripts_get_200_or_a_coded_4xx_in_time(client, text):
    status, answer, took = _post(client, "/api/transcript", {"text": text})
    _check(status, answer, took, "text")
    if status == 200:
        assert answer["kind"] and isinstance(answer["calls"], list)
    status, answer, took = _post(client, "/api/gate", {"item": text})
    _check(status, answer, took, "item")


@pytest.mark.parametrize("text", [
    "data: {}\n\n" * 200_000,                          # many tiny events: refused at the bound
    "[]\n" * 400_000,
    "[" * 100_000,
    '{"input":[' + ",".join([json.dumps(_FC)] * 3000) + "]}",
    "event: x\r" * 50_000,
])
def test_big_hostile_texts_answer_in_time(client, text):
    status, answer, took = _post(client, "/api/transcript", {"text": text})
    _check(status, answer, took, "text")


@pytest.mark.parametrize("raw", [
    b'{"output": [\xff]}',                                  # a byte that is not UTF-8
    b"data: {\"type\": \"response.created\"}\n\n\xc3(\n",  # a broken sequence in a stream
    b"\xef\xbb\xbf" + json.dumps({"output": [], "status": "completed"}).encode(),   # a BOM
    b"data: {}\r\rdata: [DONE]\r\r",
])
def test_the_command_line_reads_bad_bytes_as_a_clear_refusal_or_an_answer(tmp_path, raw):
    """Bad UTF-8 as the command line reads it (bytes from a file): exit 2 with the byte's
    offset, never a traceback; a BOM or CR line ends are read."""
    from conftest import run_workbench
    path = tmp_path / "t.txt"
    path.write_bytes(raw)
    code, out, err = run_workbench("transcript", str(path), "--json", env={"NO_COLOR": "1"})
    assert "Traceback" not in err
    if b"\xff" in raw or b"\xc3(" in raw:
        assert code == 2 and "not UTF-8" in out + err
    else:
        assert code in (0, 1)
        assert json.loads(out)["kind"] in ("response", "response_stream")
