"""Chat Completions (workbench/dialects/chat.py), pinned through its public faces: recognising a
value, reading responses, requests, found calls and streams, rebuilding a stream, writing a call
and a conversation.  Written for the survivors of the mutation group ``dialects-chat`` (issue 28):
each test names one behaviour and fails when one comparison, default or word of it changes.

Streams are written the way providers send them: ``data: {chunk}`` lines, each followed by a blank
line, and ``data: [DONE]`` at the end unless said otherwise, so chunk ``k`` (0-based) is on line
``1 + 2k``.  Real recordings (shared/reference/realworld) are read where one shows the rule.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench import dialects
from workbench.dialects import chat
from workbench.dialects.conversation import Conversation, Part, Reading, Tool, json_text
from workbench.dialects.model import Call, Place
from workbench.transcript import analyse

REALWORLD = Path(__file__).resolve().parents[3] / "shared" / "reference" / "realworld"
if not REALWORLD.is_dir():
    REALWORLD = Path("/work/shared/reference/realworld")
STREAMS = REALWORLD / "streams"


def recording(name: str) -> str:
    path = STREAMS / name
    if not path.is_file():
        pytest.skip(f"the recording {name} is not on this machine")
    return path.read_text("utf-8")


# --------------------------------------------------------------------------- helpers

def sse(*chunks, done=True) -> str:
    """Chunks as ``data:`` lines (a string is written as its own line), then ``[DONE]``."""
    lines: list[str] = []
    for c in chunks:
        lines += [c if isinstance(c, str) else "data: " + json.dumps(c), ""]
    if done:
        lines += ["data: [DONE]", ""]
    return "\n".join(lines) + "\n"


def line(k: int) -> int:
    return 1 + 2 * k


def chunk(delta=None, fr=None, index=0, *, obj=True, **choice) -> dict:
    c: dict = {} if index is None else {"index": index}
    if delta is not None:
        c["delta"] = delta
    c["finish_reason"] = fr
    c.update(choice)
    out: dict = {"object": "chat.completion.chunk"} if obj else {}
    out["choices"] = [c]
    return out


def tcd(index=0, **kw) -> dict:
    """A delta with one tool-call delta (``index`` None: without one)."""
    d: dict = {} if index is None else {"index": index}
    d.update(kw)
    return {"tool_calls": [d]}


def fn(name=None, arguments=None) -> dict:
    out = {}
    if name is not None:
        out["name"] = name
    if arguments is not None:
        out["arguments"] = arguments
    return out


def own(r: dict, *codes: str) -> list[tuple]:
    """(code, severity, message, pointer, line, extra) of the findings of ``codes``."""
    out = []
    for f in r["findings"]:
        if codes and f["code"] not in codes:
            continue
        extra = {k: v for k, v in f.items() if k not in (
            "code", "severity", "message", "pointer", "line", "column", "event")}
        out.append((f["code"], f["severity"], f["message"], f["pointer"], f["line"], extra))
    return out


def codes(r: dict) -> list[str]:
    return [f["code"] for f in r["findings"]]


def call_tuple(c: Call) -> tuple:
    return (c.dialect, c.name, c.call_id, c.id, c.args, c.status, c.pos,
            c.place.pointer if c.place is not None else None)


# --------------------------------------------------------------------------- recognising

def test_the_module_words():
    assert chat.NAME == "chat_completions" and chat.GATE == "open_responses"
    assert chat.KINDS == ("chat_completion", "chat_messages", "chat_stream", "chat_tool_calls")
    assert chat.CUT_OFF == ("length", "content_filter")
    assert chat.ID_WORDS == ("id", "tool_call_id")
    assert chat.LABELS == {
        "chat_completion": "a Chat Completions response",
        "chat_completion_chunk": "a Chat Completions streaming chunk",
        "chat_message": "a Chat Completions assistant message",
        "chat_tool_call": "one Chat Completions tool call",
        "chat_tool_message": "a Chat Completions tool answer",
    }
    assert dialects.BY_NAME["chat_completions"] is chat


@pytest.mark.parametrize("value, expected", [
    ({"object": "chat.completion.chunk"}, True),
    ({"object": "chat.completion.chunk", "choices": "x"}, True),
    ({"object": "chat.completion"}, False),
    ({"choices": [{"delta": {}}]}, True),
    ({"choices": [{"message": {}}, {"delta": None}]}, True),
    ({"choices": [{"message": {}}]}, False),
    ({"choices": [["delta"]]}, False),
    ({"choices": []}, False),
    ({"choices": {"delta": {}}}, False),
    ({}, False),
    ([{"object": "chat.completion.chunk"}], False),
    ("chat.completion.chunk", False),
])
def test_is_chunk(value, expected):
    assert chat.is_chunk(value) is expected


@pytest.mark.parametrize("value, expected", [
    ({"role": "tool"}, True),
    ({"role": "assistant"}, False),
    ({"tool_calls": None}, True),
    ({"tool_call_id": "x"}, True),
    ({"type": "function", "function": {}}, True),
    ({"type": "function", "function": "f"}, False),
    ({"type": "function_call", "function": {}}, False),
    ({"function": {}}, False),
    ({}, False),
    ([{"role": "tool"}], False),
])
def test_shaped(value, expected):
    assert chat.shaped(value) is expected


@pytest.mark.parametrize("node, parent, expected", [
    ({"type": "function", "function": {}}, None, True),
    ({"function": {}}, "tool_calls", True),
    ({"function": {}}, "calls", False),
    ({"function": {}}, None, False),
    ({"type": "function", "function": None}, "tool_calls", False),
    ({"type": "tool", "function": {"name": "f"}}, None, False),
    ([{"type": "function", "function": {}}], "tool_calls", False),
])
def test_is_call(node, parent, expected):
    assert chat.is_call(node, parent) is expected
    if parent is None:
        assert chat.is_call(node) is expected


@pytest.mark.parametrize("value, kind", [
    ({"object": "chat.completion.chunk", "choices": []}, "chat_stream"),
    ({"choices": [{"delta": {}}]}, "chat_stream"),
    ({"choices": []}, "chat_completion"),
    ({"choices": [{"message": {}}], "messages": []}, "chat_completion"),
    ({"messages": []}, "chat_messages"),
    ({"choices": {}}, None),
    ({"messages": {}}, None),
    ({}, None),
    ([], None),
    (None, None),
])
def test_recognise(value, kind):
    assert chat.recognise(value) == kind


@pytest.mark.parametrize("value, word", [
    ({"choices": []}, "chat_completion"),
    ({"choices": [], "object": "chat.completion.chunk"}, "chat_completion_chunk"),
    ({"choices": [], "object": "chat.completion"}, "chat_completion"),
    ({"choices": {}, "object": "chat.completion.chunk"}, None),
    ({"type": "function", "function": {}}, "chat_tool_call"),
    ({"type": "function", "function": []}, None),
    ({"type": "custom", "function": {}}, None),
    ({"role": "assistant", "tool_calls": None}, "chat_message"),
    ({"role": "assistant"}, None),
    ({"tool_calls": []}, None),
    ({"role": "tool", "tool_call_id": "c"}, "chat_tool_message"),
    ({"role": "tool"}, None),
    ({"role": "user", "tool_call_id": "c"}, None),
    ({}, None),
])
def test_envelope_kind(value, word):
    assert chat.envelope_kind(value) == word


# --------------------------------------------------------------------------- reading

@pytest.mark.parametrize("reason, finished, state", [
    (None, True, "completed"), (None, False, "incomplete"),
    ("length", True, "incomplete"), ("length", False, "incomplete"),
    ("content_filter", True, "incomplete"), ("content_filter", False, "incomplete"),
    ("stop", True, "completed"), ("stop", False, "completed"),
    ("tool_calls", False, "completed"), ("", False, "completed"),
])
def test_stop_state(reason, finished, state):
    assert chat.stop_state(reason, finished=finished) == state


def test_stop_state_defaults_to_finished():
    assert chat.stop_state(None) == "completed"
    assert chat.stop_state("length") == "incomplete"


def test_read_call_reads_one_tool_call():
    tc = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}
    place = Place("piece", "/x")
    c = chat.read_call(tc, place, 3, "incomplete")
    assert call_tuple(c) == ("chat_completions", "f", "call_1", "call_1", "{\"a\":1}",
                             "incomplete", 3, "/x")
    assert c.item is tc and c.place is place and c.kind == "call"


def test_read_call_defaults_and_a_function_that_is_not_an_object():
    c = chat.read_call({"id": "c", "function": "f"})
    assert call_tuple(c) == ("chat_completions", None, "c", "c", None, None, 0, None)
    c = chat.read_call({"function": {"name": "g"}})
    assert (c.name, c.call_id, c.id, c.args) == ("g", None, None, None)


def test_read_completion_reads_each_choice_and_its_stop_state():
    value = {"choices": [
        {"finish_reason": "length", "message": {"tool_calls": [
            {"id": "a", "function": {"name": "fa", "arguments": "1"}},
            "not a call",
            {"id": "b", "function": {"name": "fb", "arguments": "2"}}]}},
        "not a choice",
        {"message": "not a message"},
        {"finish_reason": "tool_calls", "message": {"tool_calls": None}},
        {"finish_reason": "stop", "message": {"tool_calls": [
            {"id": "c", "function": {"name": "fc", "arguments": "3"}}]}},
        {"message": {"tool_calls": [{"id": "d", "function": {"name": "fd"}}]}},
    ]}
    entries = chat.read_completion(value, "piece", "/base", 5)
    assert [call_tuple(c) for c in entries] == [
        ("chat_completions", "fa", "a", "a", "1", "incomplete", 5,
         "/base/choices/0/message/tool_calls/0"),
        ("chat_completions", "fb", "b", "b", "2", "incomplete", 6,
         "/base/choices/0/message/tool_calls/2"),
        ("chat_completions", "fc", "c", "c", "3", "completed", 7,
         "/base/choices/4/message/tool_calls/0"),
        ("chat_completions", "fd", "d", "d", None, "completed", 8,
         "/base/choices/5/message/tool_calls/0"),
    ]
    assert all(c.place.piece == "piece" for c in entries)


def test_read_completion_defaults_and_no_choices():
    entries = chat.read_completion({"choices": [{"message": {"tool_calls": [
        {"id": "a", "function": {}}]}}]}, None)
    assert [call_tuple(c) for c in entries] == [
        ("chat_completions", None, "a", "a", None, "completed", 0,
         "/choices/0/message/tool_calls/0")]
    assert chat.read_completion({"choices": "none"}, None) == []
    assert chat.read_completion({}, None) == []


@pytest.mark.parametrize("value, state", [
    ({"choices": [{"finish_reason": "length"}, {"finish_reason": "stop"}]}, "incomplete"),
    ({"choices": [{"finish_reason": "stop"}, {"finish_reason": "length"}]}, "completed"),
    ({"choices": [{"finish_reason": "content_filter"}]}, "incomplete"),
    ({"choices": []}, "completed"),
    ({}, "completed"),
    ("text", "completed"),
])
def test_answer_state_is_the_first_choice_s(value, state):
    assert chat.answer_state(value) == state


def test_read_messages_reads_calls_answers_and_other_messages():
    root = Place("piece", "/messages")
    msgs = [
        {"role": "system", "content": "s"},
        {"role": "developer", "content": "d"},
        {"role": "user", "content": "u"},
        {"role": "assistant", "tool_calls": [
            {"id": "a", "function": {"name": "fa", "arguments": "{}"}}, 7,
            {"id": "b", "function": {"name": "fb", "arguments": "[]"}}]},
        "not a message",
        {"role": "tool", "tool_call_id": "a", "content": "ok"},
        {"role": "assistant", "tool_calls": [], "content": "empty list: a message"},
        {"role": "assistant", "tool_calls": "no list", "content": "x"},
    ]
    placed = [(m, root.child(f"/{i}")) for i, m in enumerate(msgs)]
    entries = chat.read_messages(placed)
    got = []
    for e in entries:
        row = (e.kind, e.dialect, e.pos, e.place.pointer)
        if e.kind == "call":
            row += (e.name, e.call_id, e.id, e.args, e.status)
        elif e.kind == "output":
            row += (e.call_id,)
        else:
            row += (e.continues,)
        got.append(row)
    assert got == [
        ("other", "chat_completions", 0, "/messages/0", False),
        ("other", "chat_completions", 1, "/messages/1", False),
        ("other", "chat_completions", 2, "/messages/2", True),
        ("call", "chat_completions", 3, "/messages/3/tool_calls/0", "fa", "a", "a", "{}",
         "completed"),
        ("call", "chat_completions", 4, "/messages/3/tool_calls/2", "fb", "b", "b", "[]",
         "completed"),
        ("output", "chat_completions", 5, "/messages/5", "a"),
        ("other", "chat_completions", 6, "/messages/6", True),
        ("other", "chat_completions", 7, "/messages/7", True),
    ]
    assert entries[5].item is msgs[5] and entries[0].item is msgs[0]
    assert all(e.place.piece == "piece" for e in entries)


@pytest.mark.parametrize("root, parts, status", [
    ({"choices": [{"finish_reason": "length", "message": {}}]},
     ["choices", 0, "message", "tool_calls", 0], "incomplete"),
    ({"choices": [{"finish_reason": "content_filter"}]}, ["choices", 0], "incomplete"),
    ({"choices": [{"finish_reason": "stop"}, {"finish_reason": "length"}]},
     ["choices", 1, "message"], "incomplete"),
    ({"choices": [{"finish_reason": "length"}, {"finish_reason": "stop"}]},
     ["choices", 1, "message"], "completed"),
    ({"choices": [{"finish_reason": "length"}]}, ["choices"], "completed"),
    ({"choices": [{"finish_reason": "length"}]}, ["choices", "0"], "completed"),
    ({"items": [{"finish_reason": "length"}]}, ["items", 0], "completed"),
    ({"choices": [{"finish_reason": "length"}]}, ["choices", 3], "completed"),    # IndexError
    ({"choices": ["text"]}, ["choices", 0], "completed"),                          # AttributeError
    ({"choices": {"0": {}}}, ["choices", 0], "completed"),                         # KeyError
    ({"choices": None}, ["choices", 0], "completed"),                              # TypeError
    ([], [], "completed"),
])
def test_read_found_takes_the_stop_state_of_its_choice(root, parts, status):
    node = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    c = chat.read_found(node, root, parts)
    assert call_tuple(c) == ("chat_completions", "f", "c", "c", "{}", status, 0, None)


def test_the_gate_s_equivalent_item_of_a_cut_off_choice():
    from workbench.gate import gate
    value = {"choices": [{"finish_reason": "stop", "message": {}}, {
        "finish_reason": "length", "message": {"tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}
    env = gate(json.dumps(value))["envelope"]
    assert env["calls"][0]["equivalent"] == {
        "type": "function_call", "id": "c", "call_id": "c", "name": "f", "arguments": "{}",
        "status": "incomplete"}


# --------------------------------------------------------------------------- writing

def test_walkable_is_the_open_responses_item():
    c = Call("chat_completions", None, 0, name="f", call_id="c", id="c", args="{}",
             status="incomplete")
    assert chat.walkable(c) == {"type": "function_call", "id": "c", "call_id": "c", "name": "f",
                                "arguments": "{}", "status": "incomplete"}


@pytest.mark.parametrize("kw, written", [
    ({"name": "f", "call_id": "c", "args": "{}"},
     {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}),
    ({"name": "f", "args": ""}, {"type": "function", "function": {"name": "f", "arguments": ""}}),
    ({"name": 5, "call_id": "c"}, {"id": "c", "type": "function", "function": {}}),
    ({"call_id": "", "args": "x"}, {"id": "", "type": "function", "function": {"arguments": "x"}}),
    ({}, {"type": "function", "function": {}}),
])
def test_write(kw, written):
    out = chat.write(Call("chat_completions", None, 0, **kw))
    assert out == written
    assert list(out) == list(written)   # the id first, as Chat writes it


# --------------------------------------------------------------------------- the stream

def test_a_whole_stream_rebuilds_its_message_and_calls():
    text = sse(
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": "Hel"}),
        chunk({"content": "lo", "role": "user"}),
        chunk(tcd(0, id="c0", type="function", function=fn("get_", ""))),
        chunk(tcd(0, function=fn("weather", "{\"city\":"))),
        chunk(tcd(1, id="c1", type="function", function=fn("g", "{}"))),
        chunk(tcd(0, function=fn(arguments="\"Lyon\"}"))),
        chunk(fr="tool_calls"),
    )
    r = analyse(text)
    assert r["kind"] == "chat_stream"
    assert r["items"] == [{"index": 0, "message": {
        "role": "assistant", "content": "Hello", "tool_calls": [
            {"id": "c0", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Lyon\"}"}},
            {"id": "c1", "type": "function", "function": {"name": "g", "arguments": "{}"}}]},
        "finish_reason": "tool_calls"}]
    assert r["timeline"] == [
        {"response": 0, "output_index": 0, "item_id": None, "type": "message", "name": None,
         "call_id": None, "status": "tool_calls", "first_line": line(0), "last_line": line(7),
         "events": {"content": 3, "finish_reason": 1}, "broken": []},
        {"response": 0, "output_index": 0, "item_id": "c0", "type": "tool_call", "index": 0,
         "name": "get_weather", "call_id": "c0", "status": "tool_calls",
         "first_line": line(3), "last_line": line(6), "events": {"tool_calls": 3}, "broken": []},
        {"response": 0, "output_index": 0, "item_id": "c1", "type": "tool_call", "index": 1,
         "name": "g", "call_id": "c1", "status": "tool_calls", "first_line": line(5),
         "last_line": line(5), "events": {"tool_calls": 1}, "broken": []},
    ]
    assert r["summary"]["events"] == 8 and r["summary"]["items"] == 1
    assert r["summary"]["item_word"] == "rebuilt message"
    assert [(c["name"], c["call_id"], c["pointer"], c["line"], c["item"], c["walk"]["status"],
             c["walk"]["arguments"], c["dialect"]) for c in r["calls"]] == [
        ("get_weather", "c0", "/choices/0/delta/tool_calls/0", line(3), 0, "completed",
         "{\"city\":\"Lyon\"}", "chat_completions"),
        ("g", "c1", "/choices/0/delta/tool_calls/0", line(5), 0, "completed", "{}",
         "chat_completions")]
    # the name arrived in two deltas: said once, with the name joined
    assert own(r, "chat_stream_name_split") == [(
        "chat_stream_name_split", "info",
        "The name of tool call 0 arrives in 2 deltas; joined once it is \"get_weather\" (a naive "
        "+= of every delta gives a doubled or broken name). Join names the way arguments are "
        "joined, without repeating what was already sent.",
        "/choices/0/delta/tool_calls/0", line(3), {})]
    assert codes(r).count("client_incompatible") == 0
    assert "stream_no_terminal" not in codes(r)


def test_a_name_sent_again_or_cumulatively_is_joined_once():
    text = sse(
        chunk(tcd(0, id="c", type="function", function=fn("llm_", ""))),
        chunk(tcd(0, function=fn("llm_"))),              # the whole name so far again
        chunk(tcd(0, function=fn("llm_version"))),       # cumulative
        chunk(tcd(0, function=fn(""))),                  # an empty name: not a part
        chunk(tcd(0, function=fn(7))),                   # not a string: not a part
        chunk(tcd(0, function=fn("_x"))),                # appended
        chunk(fr="tool_calls"),
    )
    r = analyse(text)
    assert r["items"][0]["message"]["tool_calls"][0]["function"]["name"] == "llm_version_x"
    (f,) = own(r, "chat_stream_name_split")
    assert f[2].startswith("The name of tool call 0 arrives in 4 deltas; joined once it is "
                           "\"llm_version_x\" (")
    assert f[3:5] == ("/choices/0/delta/tool_calls/0", line(0))


def test_a_name_in_one_delta_is_no_split():
    r = analyse(sse(chunk(tcd(0, id="c", type="function", function=fn("f", "{}"))),
                    chunk(fr="stop")))
    assert "chat_stream_name_split" not in codes(r)
    assert r["items"][0]["message"]["tool_calls"][0]["function"] == {"name": "f",
                                                                     "arguments": "{}"}


def test_a_name_that_starts_with_nothing_so_far_is_appended():
    # the first part is sent after an empty one: `call.name and` keeps it from being "cumulative"
    r = analyse(sse(chunk(tcd(0, id="c", function=fn("", ""))),
                    chunk(tcd(0, function=fn("ab"))), chunk(tcd(0, function=fn("ab"))),
                    chunk(fr="stop")))
    assert r["items"][0]["message"]["tool_calls"][0]["function"]["name"] == "ab"
    (f,) = own(r, "chat_stream_name_split")
    assert "arrives in 2 deltas; joined once it is \"ab\"" in f[2]


def test_arguments_are_joined_as_they_come_and_only_strings():
    r = analyse(sse(chunk(tcd(0, id="c", type="function", function=fn("f", "{\"a\""))),
                    chunk(tcd(0, function={"arguments": 5})),
                    chunk(tcd(0, function="not an object")),
                    chunk(tcd(0, function=fn(arguments=":1}"))),
                    chunk(fr="stop")))
    tc = r["items"][0]["message"]["tool_calls"][0]
    assert tc == {"id": "c", "type": "function", "function": {"name": "f",
                                                               "arguments": "{\"a\":1}"}}
    assert r["timeline"][0]["events"] == {"tool_calls": 4}


def test_the_type_is_the_first_one_sent_and_function_without_one():
    r = analyse(sse(chunk(tcd(0, id="a", function=fn("f", "{}"))),
                    chunk(tcd(0, type="", function=fn(arguments=""))),
                    chunk(tcd(0, type="custom")),
                    chunk(tcd(0, type="other")),
                    chunk(tcd(1, id="b", type=5, function=fn("g", "{}"))),
                    chunk(fr="stop")))
    tcs = r["items"][0]["message"]["tool_calls"]
    assert [(t["id"], t["type"]) for t in tcs] == [("a", "custom"), ("b", "function")]


def test_a_repeated_id_is_a_client_incompatibility_said_once_at_the_first():
    text = recording("047_llm__test_tools_streaming__test_tools_streaming_variant_a__i0.txt")
    r = analyse(text)
    assert own(r, "client_incompatible") == [(
        "client_incompatible", "warning",
        "The tool call's id is repeated in a later delta: a client that joins delta fields "
        "with a naive += (as it must for arguments) doubles the id, and the answer matches no "
        "call. Send the id in the first delta only.",
        "/choices/0/delta/tool_calls/0/id", 7, {"behaviour": "repeated_id"})]
    # hand-written: repeated twice, said once, at the first repeat
    r = analyse(sse(chunk(tcd(0, id="c", function=fn("f", ""))),
                    chunk(tcd(0, id="c", function=fn(arguments="{"))),
                    chunk(tcd(0, id="c", function=fn(arguments="}"))),
                    chunk(tcd(0, id="", function=fn(arguments=""))),
                    chunk(fr="stop")))
    assert [(f[3], f[4], f[5]) for f in own(r, "client_incompatible")] == [
        ("/choices/0/delta/tool_calls/0/id", line(1), {"behaviour": "repeated_id"})]
    assert r["items"][0]["message"]["tool_calls"][0]["id"] == "c"
    assert "stream_item_id_changed" not in codes(r)


def test_a_changed_id_is_said_once_per_new_id_and_breaks_the_call():
    r = analyse(sse(chunk(tcd(0, id="c1", type="function", function=fn("f", ""))),
                    chunk(tcd(0, id="c2", function=fn(arguments="{"))),
                    chunk(tcd(0, id="c2", function=fn(arguments=""))),
                    chunk(tcd(0, id="c3", function=fn(arguments="}"))),
                    chunk(tcd(0, id=9)),
                    chunk(fr="stop")))
    changed = [f for f in r["findings"] if f["code"] == "stream_item_id_changed"]
    assert [(f["message"], f["pointer"], f["line"],
             [(x["role"], x["pointer"], x["line"]) for x in f["related"]]) for f in changed] == [
        ("Tool call 0 was started with id \"c1\" but this delta says \"c2\": the id of one call "
         "must not change, or its answer matches nothing.", "/choices/0/delta/tool_calls/0/id",
         line(1), [("added", "/choices/0/delta/tool_calls/0", line(0))]),
        ("Tool call 0 was started with id \"c1\" but this delta says \"c3\": the id of one call "
         "must not change, or its answer matches nothing.", "/choices/0/delta/tool_calls/0/id",
         line(3), [("added", "/choices/0/delta/tool_calls/0", line(0))]),
    ]
    assert r["items"][0]["message"]["tool_calls"][0]["id"] == "c1"
    assert "client_incompatible" not in codes(r)
    (row,) = [t for t in r["timeline"] if t["type"] == "tool_call"]
    indexes = [i for i, f in enumerate(r["findings"]) if f["code"] == "stream_item_id_changed"]
    assert row["broken"] == indexes and len(indexes) == 2


def test_a_delta_without_index_is_read_by_position_and_said():
    r = analyse(sse(chunk({"tool_calls": [{"id": "a", "type": "function",
                                           "function": fn("f", "{}")},
                                          {"id": "b", "type": "function",
                                           "function": fn("g", "{}")}]}),
                    chunk({"tool_calls": [{"id": "b"}]}, index=None),
                    chunk(fr="stop")))
    assert [(t["id"], t["function"]["name"]) for t in
            r["items"][0]["message"]["tool_calls"]] == [("a", "f"), ("b", "g")]
    assert own(r, "client_incompatible") == [(
        "client_incompatible", "warning",
        "A tool-call delta here has no index: the stream can be read (by position), but the "
        "OpenAI Python SDK's chunk accumulator raises on a tool-call delta without index, and "
        "other clients key the call by it. Send index on every tool-call delta.",
        "/choices/0/delta/tool_calls/0", line(0), {"behaviour": "missing_index"})]
    (tl0, tl1) = [t for t in r["timeline"] if t["type"] == "tool_call"]
    assert (tl0["index"], tl1["index"]) == (0, 1)
    # the second chunk (choice without index: position 0; tool call at position 0: "a") says
    # the id of "a" is "b"
    assert [f["line"] for f in r["findings"] if f["code"] == "stream_item_id_changed"] == [
        line(1)]


def test_a_first_index_other_than_0_is_said_at_its_index():
    text = recording("014_vercel-ai__openai-compatible__anthropic-fallback-tool-call.sse")
    r = analyse(text)
    assert own(r, "client_incompatible") == [(
        "client_incompatible", "warning",
        "The first tool call of this choice has an index other than 0: clients that keep tool "
        "calls in a list by index (appending a new one at the end) then put its deltas in the "
        "wrong call or leave a gap. Number tool calls from 0.",
        "/choices/0/delta/tool_calls/0/index", 7, {"behaviour": "first_index_not_0"})]
    assert r["timeline"][1]["index"] == 1 and r["timeline"][1]["first_line"] == 7
    assert r["timeline"][1]["last_line"] == 13


@pytest.mark.parametrize("deltas, said", [
    ([tcd(0, id="a"), tcd(1, id="b")], []),                 # from 0: fine
    ([tcd(1, id="a")], [line(0)]),                         # first is 1
    ([tcd(0, id="a"), tcd(2, id="b")], []),                # later gaps are not this rule
    ([tcd(None, id="a")], None),                           # no index: missing_index instead
])
def test_first_index_not_0_only_for_the_first_call_with_an_index(deltas, said):
    r = analyse(sse(*[chunk(d) for d in deltas], chunk(fr="stop")))
    got = [f for f in r["findings"] if f.get("behaviour") == "first_index_not_0"]
    if said is None:
        assert got == [] and [f.get("behaviour") for f in r["findings"]
                              if f["code"] == "client_incompatible"] == ["missing_index"]
    else:
        assert [f["line"] for f in got] == said


def test_first_index_not_0_is_per_choice():
    r = analyse(sse({"object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": tcd(0, id="a", function=fn("f", "{}"))},
        {"index": 1, "delta": tcd(3, id="b", function=fn("g", "{}"))}]},
        chunk(fr="stop"), chunk(fr="stop", index=1)))
    assert [(f["pointer"], f["line"]) for f in r["findings"]
            if f.get("behaviour") == "first_index_not_0"] == [
        ("/choices/1/delta/tool_calls/0/index", line(0))]


def test_two_choices_are_two_messages_with_their_own_stop_states():
    r = analyse(sse({"object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": {"role": "assistant", **tcd(0, id="a", function=fn("f", "{}"))},
         "finish_reason": None},
        {"index": 1, "delta": {"content": "hi"}, "finish_reason": None}]},
        chunk(fr="length", index=0), chunk(fr="stop", index=1),
        chunk(tcd(0, id="x", function=fn("h", "{}")), index=2), done=False))
    assert r["items"] == [
        {"index": 0, "message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
         "finish_reason": "length"},
        {"index": 1, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"},
        {"index": 2, "message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "x", "type": "function", "function": {"name": "h", "arguments": "{}"}}]},
         "finish_reason": None},
    ]
    # the cut-off choice's call is incomplete; choice 2 has no finish_reason and no [DONE]
    assert [(c["call_id"], c["item"], c["walk"]["status"], c["verdict"]) for c in r["calls"]] == [
        ("a", 0, "incomplete", "status"), ("x", 2, "incomplete", "status")]
    assert [(t["output_index"], t["type"], t["status"], t["first_line"], t["last_line"],
             t["events"]) for t in r["timeline"]] == [
        (0, "tool_call", "length", line(0), line(0), {"tool_calls": 1}),
        (1, "message", "stop", line(0), line(2), {"content": 1, "finish_reason": 1}),
        (2, "tool_call", None, line(3), line(3), {"tool_calls": 1}),
    ]
    # a finish_reason was seen: the stream is not said to be cut off
    assert "stream_no_terminal" not in codes(r)


def test_without_finish_reason_done_decides_the_stop_state():
    calls = [chunk(tcd(0, id="a", type="function", function=fn("f", "{}")))]
    done = analyse(sse(*calls, done=True))
    assert done["calls"][0]["walk"]["status"] == "completed"
    assert done["items"][0]["finish_reason"] is None
    assert "stream_no_terminal" not in codes(done)
    cut = analyse(sse(*calls, done=False))
    assert cut["calls"][0]["walk"]["status"] == "incomplete"
    assert own(cut, "stream_no_terminal") == [(
        "stream_no_terminal", "error",
        "No chunk carries a finish_reason and no data: [DONE] ends the stream: it was cut off "
        "before the model finished, so its tool calls may be incomplete. Record it again.",
        "", line(0), {})]


def test_no_terminal_is_said_at_the_last_chunk():
    r = analyse(sse(chunk({"content": "a"}), chunk({"content": "b"}), chunk({"content": "c"}),
                    done=False))
    (f,) = own(r, "stream_no_terminal")
    assert (f[3], f[4]) == ("", line(2))


@pytest.mark.parametrize("fr, state", [("length", "incomplete"), ("content_filter", "incomplete"),
                                       ("stop", "completed"), ("", "incomplete"),
                                       (5, "incomplete")])
def test_only_a_non_empty_finish_reason_counts(fr, state):
    r = analyse(sse(chunk(tcd(0, id="a", type="function", function=fn("f", "{}"))),
                    chunk(fr=fr), done=False))
    assert r["calls"][0]["walk"]["status"] == state
    good = isinstance(fr, str) and fr
    assert r["items"][0]["finish_reason"] == (fr if good else None)
    assert ("stream_no_terminal" in codes(r)) is (not good)
    assert r["timeline"][0]["events"] == {"tool_calls": 1}
    assert r["timeline"][0]["status"] == (fr if good else None)


def test_chunks_after_done_are_said_with_their_count():
    text = sse(chunk({"content": "a"}), done=True) + sse(chunk({"content": "b"}),
                                                         chunk(fr="stop"), done=False)
    r = analyse(text)
    assert own(r, "stream_after_terminal") == [(
        "stream_after_terminal", "error",
        "2 chunk(s) after data: [DONE]: a client closed the stream there and never sees them.",
        "", 5, {"count": 2})]
    assert r["items"][0]["message"]["content"] == "ab"


def test_a_bad_line_is_said_with_what_a_client_does():
    r = analyse(sse(chunk({"content": "a"}), "garbage", chunk(fr="stop")))
    assert own(r, "stream_bad_line") == [(
        "stream_bad_line", "error",
        "Line 3 is neither an SSE field nor JSON (not an SSE field (data:, event:, id:, retry:), "
        "a comment or JSON): a client reading this stream stops or drops the chunk here.",
        "", 3, {"text": "garbage"})]
    assert r["summary"]["events"] == 2


def test_values_that_are_not_chunks_are_skipped():
    r = analyse(sse(chunk({"content": "a"}), [1, 2], "data: 5", chunk(fr="stop"),
                    {"object": "chat.completion.chunk", "choices": ["x", {"index": 0}]},
                    chunk("not a delta")))
    assert r["summary"]["events"] == 4
    assert r["items"] == [{"index": 0, "message": {"role": "assistant", "content": "a"},
                           "finish_reason": "stop"}]
    assert r["timeline"][0]["events"] == {"content": 1, "finish_reason": 1}
    assert r["timeline"][0]["last_line"] == line(5)


def test_content_that_is_not_a_string_is_skipped_and_empty_content_is_kept():
    r = analyse(sse(chunk({"content": None}), chunk({"content": ""}), chunk({"content": 5}),
                    chunk(fr="stop")))
    assert r["items"][0]["message"] == {"role": "assistant", "content": ""}
    assert r["timeline"][0]["events"] == {"content": 1, "finish_reason": 1}
    r = analyse(sse(chunk({"role": 5}), chunk({"role": "assistant"}), chunk({"role": "x"}),
                    chunk(fr="stop")))
    assert r["items"][0]["message"] == {"role": "assistant", "content": None}
    r = analyse(sse(chunk({"role": "tool"}), chunk(fr="stop")))
    assert r["items"][0]["message"]["role"] == "tool"


def test_a_message_row_only_for_text_or_a_choice_without_calls():
    r = analyse(sse(chunk({}), chunk(fr="stop")))
    assert [(t["type"], t["events"], t["first_line"], t["last_line"]) for t in r["timeline"]] == [
        ("message", {"finish_reason": 1}, line(0), line(1))]
    r = analyse(sse(chunk({"content": "x", **tcd(0, id="a", function=fn("f", "{}"))}),
                    chunk(fr="stop")))
    assert [t["type"] for t in r["timeline"]] == ["message", "tool_call"]


def test_choices_keyed_by_an_index_that_is_not_a_number():
    r = analyse(sse(chunk({"content": "a"}, index={"k": 1}), chunk({"content": "b"}, index="0"),
                    chunk(fr="stop", index={"k": 1}), chunk(fr="stop", index="0")))
    assert [i["index"] for i in r["items"]] == ['json:{"k":1}', "0"]
    assert [i["message"]["content"] for i in r["items"]] == ["a", "b"]


def test_a_choice_without_a_delta_does_not_stop_the_chunk():
    r = analyse(sse({"object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": "not an object", "finish_reason": None},
        {"index": 1, "delta": {"content": "b"}, "finish_reason": None}]},
        chunk(fr="stop", index=0), chunk(fr="stop", index=1)))
    assert [(i["index"], i["message"]["content"]) for i in r["items"]] == [(0, None), (1, "b")]


def test_a_tool_call_delta_without_function_does_not_stop_the_chunk():
    r = analyse(sse(chunk({"tool_calls": [{"index": 0, "id": "a", "type": "function"},
                                          {"index": 1, "id": "b", "type": "function",
                                           "function": fn("g", "{}")}]}),
                    chunk(tcd(0, function=fn("f", "{}"))), chunk(fr="stop")))
    assert [(t["id"], t["function"]) for t in r["items"][0]["message"]["tool_calls"]] == [
        ("a", {"name": "f", "arguments": "{}"}), ("b", {"name": "g", "arguments": "{}"})]


def test_the_summary_counts_events_and_items():
    text = recording("036_semantic-kernel__Connectors__chat_completion_streaming_multiple_"
                     "function_calls_test_response.txt")
    r = analyse(text)
    assert r["summary"]["events"] == 4 and r["summary"]["items"] == 1
    assert [(c["name"], c["call_id"], c["line"]) for c in r["calls"]] == [
        ("MyPlugin-GetCurrentWeather", "1", 1), ("MyPlugin-FunctionWithException", "2", 3),
        ("MyPlugin-NonExistentFunction", "3", 5), ("MyPlugin-InvalidArguments", "4", 7)]
    assert [t["type"] for t in r["timeline"]] == ["message"] + ["tool_call"] * 4
    assert r["timeline"][0]["events"] == {"finish_reason": 4, "content": 4}


def test_a_real_incremental_stream():
    text = recording("010_vercel-ai__mistral__mistral-incremental-tool-call.chunks.txt")
    r = analyse(text)
    assert r["items"] == [{"index": 0, "message": {
        "role": "assistant", "content": "", "tool_calls": [{
            "id": "chatcmpl-tool-9f149c74c42f265b", "type": "function",
            "function": {"name": "webSearchTool",
                         "arguments": "{\"query\": \"current Berlin weather\"}"}}]},
        "finish_reason": "tool_calls"}]
    assert [t["events"] for t in r["timeline"]] == [{"content": 3, "finish_reason": 1},
                                                    {"tool_calls": 2}]
    assert codes(r) == ["pending_call"]


def test_a_json_array_of_chunks_is_a_stream():
    arr = [chunk(tcd(0, id="a", type="function", function=fn("f", "{}"))), chunk(fr="stop")]
    r = analyse(json.dumps(arr))
    assert r["kind"] == "chat_stream"
    assert r["items"][0]["message"]["tool_calls"][0]["id"] == "a"
    assert r["calls"][0]["walk"]["status"] == "completed"


def test_a_request_s_messages_and_a_response_read_through_the_transcript():
    req = {"messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "ok"}]}
    r = analyse(json.dumps(req))
    assert r["kind"] == "chat_messages"
    assert [(c["call_id"], c["role"], c["walk"]["status"]) for c in r["calls"]] == [
        ("a", "history", "completed")]
    assert r["summary"]["outputs"] == 1
    resp = {"choices": [{"finish_reason": "content_filter", "message": {"tool_calls": [
        {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]}
    r = analyse(json.dumps(resp))
    assert [(c["call_id"], c["walk"]["status"], c["pointer"]) for c in r["calls"]] == [
        ("b", "incomplete", "/choices/0/message/tool_calls/0")]


# --------------------------------------------------------------------------- conversations

def conv_of(value, dialect="chat_completions"):
    reading = Reading(dialect)
    conv = chat.read_conversation(value, reading)
    return conv, reading


def turns(conv) -> list:
    out = []
    for t in conv.turns:
        parts = []
        for p in t.parts:
            row = (p.kind, p.pointer)
            if p.kind == "text":
                row += (p.text,)
            elif p.kind == "image":
                row += (p.url,)
            elif p.kind == "call":
                row += (p.call_id, p.name, json_text(p.args))   # exact: numbers keep their text
            elif p.kind == "output":
                row += (p.call_id, p.content)
            parts.append(row)
        out.append((t.role, t.pointer, parts))
    return out


def lost(reading) -> list:
    return [(x["pointer"], x["what"], x["message"]) for x in reading.lost]


def test_read_conversation_of_a_request():
    value = {"model": "m", "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "developer", "content": [{"type": "text", "text": "dev"}]},
        {"role": "user", "content": [{"type": "text", "text": "look",
                                      "cache_control": {"type": "ephemeral"}},
                                     {"type": "image_url", "image_url": {"url": "u://1",
                                                                         "detail": "high"}},
                                     {"type": "input_audio", "input_audio": {}},
                                     {"type": "text", "text": 5},
                                     {"type": "image_url", "image_url": "u://2"},
                                     {"type": "image_url", "image_url": {"url": 3}},
                                     "no object"]},
        {"role": "assistant", "content": "", "reasoning_content": "thought", "reasoning": "",
         "name": "bot", "tool_calls": [
             {"id": "a", "type": "function", "index": 0, "extra": 1,
              "function": {"name": "f", "arguments": "{\"x\": 1}", "strict": True}},
             {"id": "b", "type": "custom", "function": {"name": "g"}},
             {"id": "c", "function": "no object"},
             {"id": "d", "function": {"name": "h", "arguments": ""}}, 5]},
        {"role": "tool", "tool_call_id": "a", "content": [{"type": "text", "text": "42"},
                                                          {"type": "image_url",
                                                           "image_url": {"url": "u://3"}},
                                                          {"type": "input_audio"}],
         "name": "f"},
        {"role": "function", "content": "old"},
        "not a message",
    ], "tools": [
        {"type": "function", "function": {"name": "f", "description": "d", "parameters": {
            "type": "object"}, "strict": True}, "cache": 1},
        {"function": {"name": "g"}},
        {"type": "web_search"},
        {"type": "function", "function": {"name": 5}},
        {"type": "function", "function": "f"},
        "not an object",
        {"type": "custom", "function": {"name": "c"}},
    ]}
    conv, reading = conv_of(value)
    assert conv.shape == "request"
    assert turns(conv) == [
        ("system", "/messages/0", [("text", "/messages/0/content", "be brief"),
                                   ("text", "/messages/1/content/0", "dev")]),
        ("user", "/messages/2", [("text", "/messages/2/content/0", "look"),
                                 ("image", "/messages/2/content/1", "u://1")]),
        ("assistant", "/messages/3", [
            ("call", "/messages/3/tool_calls/0", "a", "f", "{\"x\":1}"),
            ("call", "/messages/3/tool_calls/3", "d", "h", "{}")]),
        ("user", "/messages/4", [("output", "/messages/4", "a", [("text", "42"),
                                                                 ("image", "u://3")])]),
    ]
    assert [(t.name, t.description, t.parameters, t.pointer) for t in conv.tools] == [
        ("f", "d", {"type": "object"}, "/tools/0"), ("g", None, None, "/tools/1")]
    assert lost(reading) == [
        ("/model", "field", "The envelope's field 'model' has no counterpart in the target: it "
                            "is left out."),
        ("/tools/0/cache", "field", "The tool's field 'cache' has no counterpart in the target: "
                                    "it is left out."),
        ("/tools/0/function/strict", "field", "The tool's field 'strict' has no counterpart in "
                                              "the target: it is left out."),
        ("/tools/2", "tool", "A tool that is not a function tool has no counterpart in the "
                             "target: it is left out."),
        ("/tools/3", "tool", "A tool that is not a function tool has no counterpart in the "
                             "target: it is left out."),
        ("/tools/4", "tool", "A tool that is not a function tool has no counterpart in the "
                             "target: it is left out."),
        ("/tools/5", "tool", "A tool that is not a function tool has no counterpart in the "
                             "target: it is left out."),
        ("/tools/6", "tool", "A tool that is not a function tool has no counterpart in the "
                             "target: it is left out."),
        ("/messages/2/content/0/cache_control", "field", "The text part's field "
                                                         "'cache_control' has no counterpart in "
                                                         "the target: it is left out."),
        ("/messages/2/content/1/image_url/detail", "field", "The image's field 'detail' has no "
                                                            "counterpart in the target: it is "
                                                            "left out."),
        ("/messages/2/content/2", "part", "A content part of type input_audio has no "
                                          "counterpart in the target: it is left out."),
        ("/messages/2/content/3", "part", "A content part of type text has no counterpart in "
                                          "the target: it is left out."),
        ("/messages/2/content/4", "part", "A content part of type image_url has no counterpart "
                                          "in the target: it is left out."),
        ("/messages/2/content/5", "part", "A content part of type image_url has no counterpart "
                                          "in the target: it is left out."),
        ("/messages/2/content/6", "part", "A content part of type None has no counterpart in "
                                          "the target: it is left out."),
        ("/messages/3/name", "field", "The message's field 'name' has no counterpart in the "
                                      "target: it is left out."),
        ("/messages/3/reasoning_content", "reasoning", "The model's reasoning text is bound to "
                                                       "the provider that wrote it: it is left "
                                                       "out."),
        ("/messages/3/tool_calls/0/extra", "field", "The tool call's field 'extra' has no "
                                                    "counterpart in the target: it is left out."),
        ("/messages/3/tool_calls/0/function/strict", "field", "The function's field 'strict' "
                                                              "has no counterpart in the "
                                                              "target: it is left out."),
        ("/messages/3/tool_calls/1", "provider_call", "A tool call that is not a function call "
                                                      "has no counterpart in the target: it is "
                                                      "left out."),
        ("/messages/3/tool_calls/2", "provider_call", "A tool call that is not a function call "
                                                      "has no counterpart in the target: it is "
                                                      "left out."),
        ("/messages/3/tool_calls/4", "provider_call", "A tool call that is not a function call "
                                                      "has no counterpart in the target: it is "
                                                      "left out."),
        ("/messages/4/name", "field", "The tool message's field 'name' has no counterpart in "
                                      "the target: it is left out."),
        ("/messages/4/content/2", "part", "A content part of type input_audio has no counterpart "
                                          "in the target: it is left out."),
        ("/messages/5", "item", "A message of the role 'function' has no counterpart in the "
                                "target: it is left out."),
        ("/messages/6", "item", "A value that is not a message is left out."),
    ]


def test_read_conversation_keeps_the_reasoning_field_s_own_name():
    conv, reading = conv_of({"messages": [{"role": "assistant", "content": "x",
                                           "reasoning": "why"}]})
    assert lost(reading) == [("/messages/0/reasoning", "reasoning", "The model's reasoning text "
                              "is bound to the provider that wrote it: it is left out.")]
    assert turns(conv) == [("assistant", "/messages/0", [("text", "/messages/0/content", "x")])]


def test_read_conversation_of_a_response_takes_the_first_choice():
    value = {"id": "x", "object": "chat.completion", "choices": [
        {"index": 0, "finish_reason": "tool_calls", "logprobs": {"a": 1}, "message": {
            "role": "assistant", "content": "ok", "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}},
        "not a choice",
        {"index": 2, "message": {"role": "assistant", "content": "other"}},
        {"index": 3, "message": {"role": "assistant", "content": "another"}},
    ], "tools": [{"type": "function", "function": {"name": "f"}}]}
    conv, reading = conv_of(value)
    assert conv.shape == "response"
    assert turns(conv) == [("assistant", "/choices/0/message", [
        ("text", "/choices/0/message/content", "ok"),
        ("call", "/choices/0/message/tool_calls/0", "a", "f", "{}")])]
    assert [t.name for t in conv.tools] == ["f"]
    assert lost(reading) == [
        ("/id", "field", "The envelope's field 'id' has no counterpart in the target: it is "
                         "left out."),
        ("/choices/0/logprobs", "field", "The choice's field 'logprobs' has no counterpart in "
                                         "the target: it is left out."),
        ("/choices/2", "choice", "Only the first choice is a turn of the conversation: the "
                                 "other choices are left out."),
        ("/choices/3", "choice", "Only the first choice is a turn of the conversation: the "
                                 "other choices are left out."),
    ]


def test_read_conversation_of_a_response_whose_first_choice_is_no_object():
    # the first choice is the one at position 0: a later one is left out even so
    conv, reading = conv_of({"choices": ["x", {"message": {"role": "assistant",
                                                           "content": "y"}}]})
    assert (conv.shape, conv.turns) == ("response", [])
    assert [x[:2] for x in lost(reading)] == [("/choices/1", "choice")]
    for choices in ("none", None, 5, {"0": {"message": {"role": "user", "content": "x"}}}):
        conv, reading = conv_of({"choices": choices})
        assert (conv.shape, conv.turns, reading.lost) == ("response", [], [])


def test_read_conversation_of_a_bare_list_and_odd_tops():
    conv, reading = conv_of([5, {"role": "user", "content": "hi"}])
    assert conv.shape == "request"
    assert turns(conv) == [("user", "/1", [("text", "/1/content", "hi")])]
    assert lost(reading) == [("/0", "item", "A value that is not a message is left out.")]
    conv, reading = conv_of({"messages": "none", "tools": "none"})
    assert (conv.turns, conv.tools, reading.lost) == ([], [], [])
    conv, reading = conv_of("text")
    assert (conv.shape, conv.turns, reading.lost) == ("request", [], [])


def test_read_conversation_content_edge_cases():
    conv, reading = conv_of({"messages": [
        {"role": "user", "content": ""},
        {"role": "user", "content": None},
        {"role": "assistant", "content": [{"type": "text", "text": ""}], "tool_calls": "no"},
        {"role": "tool", "tool_call_id": "z", "content": "plain"},
        {"role": "tool", "content": None},
    ]})
    assert turns(conv) == [
        ("user", "/messages/0", []),
        ("assistant", "/messages/2", [("text", "/messages/2/content/0", "")]),
        ("user", "/messages/3", [("output", "/messages/3", "z", [("text", "plain")]),
                                 ("output", "/messages/4", None, [])]),
    ]
    assert reading.lost == []


def test_read_conversation_refuses_arguments_that_are_not_an_object():
    from workbench.dialects.conversation import Refused
    with pytest.raises(Refused) as exc:
        conv_of({"messages": [{"role": "assistant", "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "[1]"}}]}]})
    assert (exc.value.code, exc.value.pointer) == (
        "arguments_type", "/messages/0/tool_calls/0/function/arguments")


def test_a_call_in_a_user_message_is_an_assistant_turn_at_the_message():
    conv, reading = conv_of({"messages": [{"role": "user", "content": "x", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]})
    assert turns(conv) == [("user", "/messages/0", [("text", "/messages/0/content", "x")]),
                           ("assistant", "/messages/0", [
                               ("call", "/messages/0/tool_calls/0", "a", "f", "{}")])]
    assert reading.lost == []


def test_a_tool_with_no_type_or_a_call_with_no_type_is_a_function():
    conv, reading = conv_of({"messages": [{"role": "assistant", "tool_calls": [
        {"id": "a", "function": {"name": "f", "arguments": "{}"}}]}],
        "tools": [{"function": {"name": "f"}}]})
    assert [p.call_id for p in conv.calls()] == ["a"]
    assert [t.name for t in conv.tools] == ["f"]
    assert reading.lost == []


def write_of(conv) -> tuple[dict, list]:
    reading = Reading("open_responses")
    return chat.write_conversation(conv, reading), lost(reading)


def test_write_conversation_writes_messages_calls_answers_and_tools():
    conv = Conversation()
    conv.add("system", Part("text", "/s", text="be brief"))
    conv.add("user", Part("text", "/u0", text="look"))
    conv.add("user", Part("image", "/u1", url="u://1"))
    conv.add("assistant", Part("text", "/a0", text="calling"))
    conv.add("assistant", Part("call", "/a1", call_id="a", name="f", args={"x": 1}))
    conv.add("assistant", Part("call", "/a2", call_id=None, name="g", args=None))
    conv.add("user", Part("output", "/o1", call_id="a", content=[("text", "4"), ("text", "2")]))
    conv.add("user", Part("output", "/o2", call_id=None, content=[("image", "u://x")],
                          is_error=True))
    conv.add("user", Part("text", "/u2", text="thanks"))
    conv.add("assistant", Part("image", "/a3", url="u://2"))
    conv.add("assistant", Part("text", "/a4", text="a"))
    conv.add("assistant", Part("text", "/a5", text="b"))
    conv.tools.append(Tool("f", "d", {"type": "object"}, "/t0"))
    conv.tools.append(Tool("g", None, None, "/t1"))
    out, dropped = write_of(conv)
    assert out == {"messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "look"},
                                     {"type": "image_url", "image_url": {"url": "u://1"}}]},
        {"role": "assistant", "content": "calling", "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\"x\":1}"}},
            {"type": "function", "function": {"name": "g", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "42"},
        {"role": "tool", "content": ""},
        {"role": "user", "content": "thanks"},
        {"role": "assistant", "content": [{"type": "text", "text": "a"},
                                          {"type": "text", "text": "b"}]},
    ], "tools": [
        {"type": "function", "function": {"name": "f", "description": "d",
                                          "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "g"}}]}
    assert dropped == [
        ("/o2/is_error", "is_error", "A tool message has no error flag: the content's text is "
                                     "all the model sees."),
        ("/o2", "image", "A tool message holds text only: the images of this output are left "
                         "out."),
        ("/a3", "image", "Chat Completions takes images in user messages only: this one (in a "
                         "assistant turn) is left out."),
    ]


def test_write_conversation_starts_a_new_message_after_calls_or_a_tool_message():
    conv = Conversation()
    conv.add("assistant", Part("call", "/c", call_id="a", name="f", args={}))
    conv.turns[-1].parts.append(Part("text", "/t", text="after the call"))
    conv.add("user", Part("output", "/o", call_id="a", content=[("text", "r")]))
    conv.turns[-1].parts.append(Part("text", "/u", text="after the answer"))
    conv.turns[-1].parts.append(Part("call", "/c2", call_id="b", name="g", args={}))
    out, dropped = write_of(conv)
    assert out == {"messages": [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "assistant", "content": "after the call"},
        {"role": "tool", "tool_call_id": "a", "content": "r"},
        {"role": "user", "content": "after the answer"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}}]},
    ]}
    assert dropped == []


def test_write_conversation_empty_contents():
    conv = Conversation()
    conv.add("user", Part("image", "/i", url="u"))
    conv.add("system", Part("image", "/s", url="u"))
    out, dropped = write_of(conv)
    assert out == {"messages": [
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]},
        {"role": "system", "content": ""}]}
    assert dropped == [("/s", "image", "Chat Completions takes images in user messages only: "
                                       "this one (in a system turn) is left out.")]
    conv = Conversation()
    conv.add("assistant", Part("image", "/a", url="u"))
    out, _ = write_of(conv)
    assert out == {"messages": [{"role": "assistant", "content": None}]}
    out, _ = write_of(Conversation())
    assert out == {"messages": []}


def test_write_conversation_a_call_with_no_name():
    conv = Conversation()
    conv.add("assistant", Part("call", "/c", call_id="a", name=None, args={"k": "v"}))
    out, _ = write_of(conv)
    assert out["messages"][0]["tool_calls"] == [
        {"id": "a", "type": "function", "function": {"arguments": "{\"k\":\"v\"}"}}]


def test_write_conversation_ticks_the_deadline_once_per_turn():
    ticks = []
    reading = Reading("open_responses")
    reading.tick = lambda: ticks.append(1)
    conv = Conversation()
    conv.add("user", Part("text", "/a", text="a"))
    conv.add("assistant", Part("text", "/b", text="b"))
    chat.write_conversation(conv, reading)
    assert len(ticks) == 2


def test_a_round_trip_through_chat_keeps_the_conversation():
    value = {"messages": [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\"n\":1}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "one"}],
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]}
    conv, reading = conv_of(value)
    out, dropped = write_of(conv)
    assert out == value and dropped == [] and reading.lost == []
