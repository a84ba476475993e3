"""``workbench transcript`` on the command line: exit statuses 0/1/2, the calls then the findings
as ``file:line:column: severity code message``, and ``--json`` equal to the API's object."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_workbench

from workbench.transcript import analyse

ROOT = Path(__file__).resolve().parents[2]

CLEAN = [{"type": "message", "role": "user", "content": "weather?"},
         {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
          "arguments": '{"city":"Lyon"}', "status": "completed"},
         {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}]
TOOLS = [{"type": "function", "name": "get_weather",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                         "required": ["city"], "additionalProperties": False}}]


def wb(*args, stdin: bytes | None = None):
    return run_workbench("transcript", *args, stdin=stdin, env={"NO_COLOR": "1"})


def test_clean_transcript_exits_0_and_lists_the_call(files):
    f = files("t.json", json.dumps(CLEAN, indent=1))
    tools = files("tools.json", json.dumps(TOOLS))
    code, out, err = wb(f, "--tools", tools)
    assert code == 0, (out, err)
    assert "get_weather (call_1) [open_responses]" in out
    assert out.splitlines()[0].endswith("1 call, 1 output, 0 errors, 0 warnings, 0 info")
    line = next(ln for ln in out.splitlines() if "get_weather (call_1)" in ln)
    assert f"{f}:7:2:" in line and line.endswith("ok")


def test_an_error_finding_exits_1_with_its_place(files):
    text = json.dumps(CLEAN[:1] + [{"type": "function_call_output", "call_id": "call_gone",
                                    "output": "x"}], indent=1)
    f = files("t.json", text)
    code, out, err = wb(f)
    assert code == 1
    (line,) = [ln for ln in out.splitlines() if " orphan_output " in ln]
    assert line.startswith(f"{f}:9:") and " error orphan_output " in line


def test_a_stream_on_standard_input(files):
    evs = [{"type": "response.created", "response": {"id": "r", "status": "in_progress"}},
           {"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                     "name": "get_weather", "arguments": ""}}]
    text = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in evs)
    code, out, err = wb("-", stdin=text.encode())
    assert code == 1 and "stream_no_terminal" in out
    assert out.startswith("standard input: response stream (sse)")


def test_json_is_the_api_object(files):
    f = files("t.json", json.dumps(CLEAN))
    code, out, err = wb(f, "--json")
    assert code == 0
    assert json.loads(out) == json.loads(json.dumps(analyse(json.dumps(CLEAN))))


def test_unreadable_input_exits_2(files, tmp_path):
    code, out, err = wb(tmp_path / "missing.json")
    assert code == 2 and "No such file" in err
    f = files("bad.json", '{"input": [1,}')
    code, out, err = wb(f)
    assert code == 2 and f"{f}:1:" in err
    good = files("t.json", "[]")
    tools = files("tools.json", "{nope")
    code, out, err = wb(good, "--tools", tools)
    assert code == 2 and str(tools) in err
    code, out, err = wb(f, "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "parse_error"


def test_a_chat_stream_says_what_it_counts(files):
    # a Chat stream rebuilds one message whose text and each tool call are the timeline's rows:
    # the header counts its events and the message, in the page's words
    chunks = [{"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": i, "id": f"call_{i}", "type": "function",
         "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}]}}]} for i in range(2)]
    chunks.append({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {},
                                                                   "finish_reason": "tool_calls"}]})
    text = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
    code, out, _ = wb(files("s.sse", text))
    head = out.splitlines()[0]
    assert "chat stream (sse) — 3 events, 1 rebuilt message, 2 calls, 0 outputs" in head, head
    code, out, _ = wb(files("one.json", json.dumps(CLEAN)))
    assert " — 1 call, 1 output" in out.splitlines()[0]   # not a stream: no events, no items
