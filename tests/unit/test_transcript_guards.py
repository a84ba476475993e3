"""Issue 21 rows 6 and 10: a stream is read with every line ending SSE allows (CR, LF, CRLF),
and a transcript or stream of many tiny lines or events is bounded in memory (≤ 10× the
input, measured as the peak RSS it adds in a child process: Linux's VmHWM, reset before) or
refused with its place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_transcript import WEATHER_TOOL, fc_stream, sse

from workbench.errors import WorkbenchError
from workbench.transcript import analyse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ending", ["\r", "\r\n", "\n"])
def test_an_sse_stream_reads_alike_with_every_line_ending(ending):
    lf = analyse(sse(*fc_stream()), json.dumps([WEATHER_TOOL]))
    r = analyse(sse(*fc_stream()).replace("\n", ending), json.dumps([WEATHER_TOOL]))
    assert r["kind"] == "response_stream" and r["source"] == "sse"
    assert [(c["name"], c["call_id"], c["verdict"]) for c in r["calls"]] == \
        [("get_weather", "call_1", "ok")]
    assert [f["code"] for f in r["findings"]] == [f["code"] for f in lf["findings"]]
    assert r["summary"]["lines"] == lf["summary"]["lines"]
    assert [(c["line"], c["column"]) for c in r["calls"]] == \
        [(c["line"], c["column"]) for c in lf["calls"]]


def test_a_cr_only_stream_places_a_bad_line_at_its_line():
    text = sse(*fc_stream()).replace("event: response.output_item.done",
                                     "garbage here\nevent: response.output_item.done")
    r = analyse(text.replace("\n", "\r"))
    (f,) = [f for f in r["findings"] if f["code"] == "stream_bad_line"]
    assert text.splitlines()[f["line"] - 1] == "garbage here"


def test_cr_only_json_lines_are_lines():
    lines = [json.dumps(e) for e in fc_stream()]
    r = analyse("\r".join(lines))
    assert r["source"] == "json_lines" and r["summary"]["lines"] == len(lines)
    assert [c["verdict"] for c in r["calls"]] == ["ok"]


# --------------------------------------------------------------------------- memory (row 6)

CHILD = r"""
import json, sys
from workbench.errors import WorkbenchError
from workbench.transcript import analyse
from workbench.runtime.memory import peak_bytes as peak, reset_peak as reset
analyse('{"output": []}')                      # imports and compiled validators: the baseline
shape, size = sys.argv[1], int(sys.argv[2])
unit = {"lines": "[]\n", "events": "data: {}\n\n", "padded": "{}\n"}[shape]
if shape == "padded":   # as many tiny values as the bound admits, the rest blank
    count = size // 64 - 1
    text = unit * count + " " * (size - len(unit) * count)
else:
    text = unit * (size // len(unit))
reset()
base = peak()
try:
    r = analyse(text)
    out = {"kind": r["kind"], "pieces": r["summary"].get("events")}
except WorkbenchError as exc:
    out = {"code": exc.code, "status": exc.status, "line": exc.line, "field": exc.field}
out["growth"] = (peak() - base) / len(text)
print(json.dumps(out))
"""


def _child(shape: str, size: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, shape, str(size)], capture_output=True,
                          text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("shape", ["lines", "events"])
def test_many_tiny_lines_or_events_are_refused_at_the_bound_in_little_memory(shape):
    # 9 MB of [] lines took 2.3 GB (250x): now refused where the bound is passed
    out = _child(shape, 2_000_000)
    assert out["code"] == "too_large" and out["status"] == 413 and out["field"] == "text"
    unit = {"lines": "[]\n", "events": "data: {}\n\n"}[shape]
    size = len(unit) * (2_000_000 // len(unit))
    assert out["line"] == (size // 64) * unit.count("\n") + 1
    assert out["growth"] <= 10, out


def test_as_many_tiny_values_as_the_bound_admits_stay_near_ten_times_the_input():
    out = _child("padded", 2_000_000)
    assert out["kind"] == "item_list" and out["pieces"] == 31_249
    assert out["growth"] <= 13, out          # measured 11.7x (the bound's worst case)


def test_the_bound_is_the_text_size_over_64_beyond_ten_thousand():
    small = "{}\n" * 10_000
    assert analyse(small)["summary"]["events"] == 10_000
    with pytest.raises(WorkbenchError) as e:
        analyse(small + "{}\n")
    assert e.value.code == "too_large" and e.value.line == 10_001
    with pytest.raises(WorkbenchError) as e:          # one JSON array of as many is refused too
        analyse("[" + ",".join(["[]"] * 10_001) + "]")
    assert e.value.code == "too_large" and e.value.line == 1


# --------------------------------------------------------------------------- issue 23: real shapes

def test_a_bom_before_pretty_json_is_dropped_and_said():
    # it switched the reader to JSON Lines: three stream_bad_line and an orphan_output
    value = {"input": [{"type": "message", "role": "user", "content": "hi"},
                       {"type": "function_call", "id": "fc_1", "call_id": "call_1",
                        "name": "get_weather", "arguments": "{}", "status": "completed"},
                       {"type": "function_call_output", "call_id": "call_1", "output": "x"}]}
    plain = analyse(json.dumps(value, indent=2))
    r = analyse("\ufeff" + json.dumps(value, indent=2))
    assert r["source"] == "json" and r["kind"] == "item_list"
    assert [f["code"] for f in r["findings"]] == ["bom"] + [f["code"] for f in plain["findings"]]
    assert r["findings"][0]["severity"] == "info" and r["findings"][0]["line"] == 1
    assert [(c["call_id"], c["line"], c["column"]) for c in r["calls"]] == \
        [(c["call_id"], c["line"], c["column"]) for c in plain["calls"]]


def _realworld(name: str):
    from conftest import shared_dir
    root = shared_dir()
    if root is None:
        pytest.skip("../shared is not here")
    return json.loads((root / "reference/realworld/transcripts" / name).read_text())


def test_an_array_of_responses_with_a_stray_tool_calls_null_keeps_every_call():
    # read as "Chat Completions messages · 0 calls" before: every call vanished
    response = _realworld("023_vercel-ai__azure__azure-tool-call.1.json")
    calls = [o for o in response["output"] if o.get("type") == "function_call"]
    assert calls
    other = {**response, "id": "resp_other", "tool_calls": None}
    r = analyse(json.dumps([response, other], indent=1))
    assert r["kind"] == "item_list"
    assert [c["call_id"] for c in r["calls"]] == [c["call_id"] for c in calls] * 2


SESSION_ITEMS = [
    {"type": "message", "id": "msg_1", "role": "user", "turn_id": "turn_1", "content": "hi"},
    {"type": "create_subagent_call", "id": "sc_1", "turn_id": "turn_1", "call_id": "call_s",
     "subagent_id": "sub_1"},
    {"type": "function_call", "id": "fc_1", "turn_id": "turn_1", "call_id": "call_1",
     "name": "lookup_order", "arguments": {"order_id": "A-1"}, "agent_id": "sub_1"},
    {"type": "handoff", "id": "h_1", "turn_id": "turn_1"},
]


@pytest.mark.parametrize("shape", ["list_object", "data", "session", "bare"])
def test_every_shape_of_a_session_is_read_as_a_session(shape):
    value = {"list_object": {"object": "list", "data": SESSION_ITEMS},
             "data": {"data": SESSION_ITEMS},
             "session": {"id": "sess_1", "status": "idle", "items": SESSION_ITEMS},
             "bare": SESSION_ITEMS}[shape]
    r = analyse(json.dumps(value, indent=1))
    assert r["kind"] == "agents_session"
    codes = {f["code"] for f in r["findings"]}
    assert {"handoff_type", "subagent_function_call"} <= codes, codes
    (call,) = r["calls"]
    assert call["dialect"] == "agents_api" and call["pending"] is False


def test_the_list_form_of_input_items_is_an_item_list():
    items = [{"type": "message", "role": "user", "content": "hi"},
             {"type": "function_call_output", "call_id": "call_9", "output": "x"}]
    r = analyse(json.dumps({"object": "list", "data": items}))
    assert r["kind"] == "item_list"
    (f,) = [f for f in r["findings"] if f["code"] == "orphan_output"]
    assert f["pointer"] == "/data/1/call_id"


def test_the_headline_counts_blocked_calls_and_no_message_says_none():
    # "5 calls · 0 errors" in green while a call was blocked; "The call None …"
    items = [{"type": "message", "role": "user", "content": "hi"},
             {"type": "function_call", "id": "fc_1", "call_id": "call_1", "arguments": "{oops",
              "status": "completed"}]
    r = analyse(json.dumps({"object": "response", "status": "completed", "output": items}))
    assert r["summary"]["blocked"] == 1 and r["calls"][0]["verdict"] == "missing_fields"
    (f,) = [f for f in r["findings"] if f["code"] == "pending_call"]
    assert "None" not in f["message"] and "(no name)" in f["message"]
    session = {"id": "s", "agent": {"id": "a"}, "required_actions": [
        {"type": "function_call", "turn_id": "t1", "call_id": "c1", "arguments": {}}]}
    r = analyse(json.dumps(session))
    assert r["summary"]["blocked"] == 1
    assert all("None" not in f["message"] for f in r["findings"]), r["findings"]


def test_history_calls_without_status_or_id_are_replay_input_not_blocked():
    # 101 real history calls were blocked as `status`; every official SDK accepts them
    hist = {"type": "function_call", "call_id": "call_1", "name": "get_weather",
            "arguments": "{\"city\":\"Lyon\"}"}
    text = json.dumps({"model": "m", "input": [
        {"type": "message", "role": "user", "content": "weather?"}, hist,
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        {"type": "function_call", "call_id": "call_2", "name": "get_weather",
         "arguments": "{\"city\":\"Oslo\"}"}]}, indent=1)
    r = analyse(text, json.dumps([WEATHER_TOOL]))
    history, pending = r["calls"]
    assert (history["role"], history["verdict"], "id" in history) == ("history", "ok", False)
    assert history["walk"] == {**hist, "id": "call_1", "status": "completed"}
    assert (pending["role"], pending["verdict"]) == ("pending", "status")
    assert r["summary"]["blocked"] == 1


def test_a_history_call_is_never_executed_again():
    # an Agents item still in_progress in a session's history: ok, execute before
    hist = {"type": "function_call", "id": "fc_1", "turn_id": "turn_1", "call_id": "call_1",
            "name": "lookup_order", "arguments": {"order_id": "A-1"}, "status": "in_progress"}
    r = analyse(json.dumps({"id": "sess_1", "status": "idle", "items": [hist]}))
    (c,) = r["calls"]
    assert (c["role"], c["execute"]) == ("history", False) and "tool_result" not in c


# issue 25: the output of a call_id repeated along a transcript found its call by a scan of
# every call of that id (quadratic: the 20 -> 80 MB step was x6); now by bisection

def _repeated_ids(pairs: int) -> str:
    items = []
    for n in range(pairs):
        items.append({"type": "function_call", "call_id": "call_same", "name": "get_weather",
                      "arguments": json.dumps({"city": f"c{n}"})})
        items.append({"type": "function_call_output", "call_id": "call_same", "output": f"o{n}"})
    items.append({"type": "function_call_output", "call_id": "call_same", "output": "again"})
    return json.dumps({"model": "m", "input": items})


def test_a_repeated_call_id_pairs_each_output_with_the_call_before_it():
    r = analyse(_repeated_ids(5))
    codes = [f["code"] for f in r["findings"]]
    assert codes.count("duplicate_call_id") == 4   # the later calls reuse the id
    # each output answers the call right before it; the last one answers the 5th call again
    assert codes.count("duplicate_output") == 1


def test_many_outputs_of_one_repeated_call_id_take_linear_time():
    import time
    t = time.process_time()
    small = analyse(_repeated_ids(1000))
    t_small = time.process_time() - t
    t = time.process_time()
    big = analyse(_repeated_ids(16000))
    t_big = time.process_time() - t
    assert big["summary"] != small["summary"] and len(big["findings"]) >= 1000   # (findings listed: capped)
    assert t_big < 16 * 2 * max(t_small, 0.01)   # (the scan per output: 0.14 -> 2.6 s for 8×)
