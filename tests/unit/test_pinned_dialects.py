"""The dialect registry (workbench/dialects/__init__.py), Open Responses
(workbench/dialects/open_responses.py) and the Agents API (workbench/dialects/agents.py), pinned
through their public faces: recognising a value, reading items, run states and calls, the item
the gate walks, writing a call and a conversation.  Written for the survivors of the mutation
group ``dialects-responses-agents`` (issue 28): each test names one behaviour and fails when one
comparison, default or word of it changes.
"""

from __future__ import annotations

import pytest

from workbench import dialects
from workbench.dialects import agents, chat, open_responses
from workbench.dialects.conversation import Conversation, Part, Reading, Refused, Tool, json_text
from workbench.dialects.model import Call, Place


def entry_rows(entries) -> list[tuple]:
    out = []
    for e in entries:
        row = (e.kind, e.pos, e.place.pointer if e.place is not None else None)
        if e.kind == "call":
            row += (e.name, e.call_id, e.id, e.args, e.status, e.hosted)
        elif e.kind == "output":
            row += (e.call_id,)
        else:
            row += (e.continues,)
        out.append(row)
    return out


def lost(reading) -> list:
    return [(x["pointer"], x["what"], x["message"]) for x in reading.lost]


# --------------------------------------------------------------------------- the registry

def test_the_registry_order_and_names():
    assert [d.NAME for d in dialects.DIALECTS] == [
        "agents_api", "open_responses", "anthropic", "gemini", "otel", "chat_completions"]
    assert dialects.BY_NAME["open_responses"] is open_responses
    assert dialects.BY_NAME["agents_api"] is agents
    assert dialects.LABELS["assistants_run"] == "an Assistants API run waiting for tool outputs"
    assert dialects.LABELS["container"] == "a JSON value that holds items"
    assert dialects.LABELS["request"] == "a request body"
    assert dialects.LABELS["agents_session"] == ("an Agents API session waiting for tool "
                                                 "results")
    assert dialects.LABELS["chat_tool_call"] == "one Chat Completions tool call"
    assert open_responses.LABELS == {"response": "a whole response",
                                     "stream_event": "a streaming event",
                                     "item_list": "a list of items", "request": "a request body"}
    assert (open_responses.NAME, open_responses.GATE) == ("open_responses", "open_responses")
    assert open_responses.KINDS == ("response", "item_list", "response_stream", "item")
    assert (agents.NAME, agents.GATE, agents.KINDS) == ("agents_api", "agents_api",
                                                        ("agents_session",))
    assert agents.RESULT_TYPE == "agent.session.input.tool_result"


@pytest.mark.parametrize("value, kind", [
    ({"object": "response", "output": []}, "response"),
    ({"output": []}, "response"),
    ({"input": []}, "item_list"),
    ({"input": "hello"}, "item_list"),
    ({"input": {}}, "unknown"),
    ({"input": [], "type": "x"}, "item"),
    ({"type": "response.created"}, "response_stream"),
    ({"type": "error"}, "response_stream"),
    ({"type": "function_call"}, "item"),
    ({"items": []}, "agents_session"),
    ({"required_actions": []}, "agents_session"),
    ({"choices": [{"delta": {}}]}, "chat_stream"),
    ({"choices": []}, "chat_completion"),
    ({"messages": []}, "chat_messages"),
    ({"$schemaVersion": "1", "generatedItems": []}, "item_list"),
    ({}, "unknown"),
    ({"type": 5}, "unknown"),
    ([], "unknown"),
    ("x", "unknown"),
])
def test_classify(value, kind):
    assert dialects.classify(value) == kind


@pytest.mark.parametrize("value, word", [
    ([], "item_list"),
    ("x", None),
    ({"object": "response"}, "response"),
    ({"choices": []}, "chat_completion"),
    ({"required_actions": []}, "agents_session"),
    ({"required_action": {}}, "assistants_run"),
    ({"type": "submit_tool_outputs"}, "assistants_run"),
    ({"type": "other"}, None),
    ({}, None),
])
def test_envelope_kind(value, word):
    assert dialects.envelope_kind(value) == word


def test_dialect_of_call_walkable_and_gate_dialect():
    action = {"type": "function_call", "turn_id": "t", "call_id": "c", "name": "f",
              "arguments": {}}
    assert dialects.dialect_of_call(action) is agents
    assert dialects.dialect_of_call({"type": "function_call", "call_id": "c"}) is open_responses
    assert dialects.dialect_of_call({"function": {}}, "tool_calls") is chat
    assert dialects.dialect_of_call({"function": {}}) is None
    assert dialects.dialect_of_call("x") is None
    a = agents.read_call(action)
    assert dialects.walkable(a) is action and dialects.gate_dialect(a) == "agents_api"
    c = chat.read_call({"id": "c", "function": {"name": "f", "arguments": "{}"}}, None, 0,
                       "completed")
    assert dialects.gate_dialect(c) == "open_responses"
    assert dialects.walkable(c) == {"type": "function_call", "id": "c", "call_id": "c",
                                    "name": "f", "arguments": "{}", "status": "completed"}


# --------------------------------------------------------------------------- Open Responses: recognising

@pytest.mark.parametrize("value, expected", [
    ({"type": "response.created"}, True), ({"type": "error"}, True),
    ({"type": "responses.x"}, False), ({"type": "errors"}, False), ({"type": 5}, False),
    ({}, False), ("response.x", False)])
def test_is_event(value, expected):
    assert open_responses.is_event(value) is expected


@pytest.mark.parametrize("value, expected", [
    ({"type": "function_call"}, True), ({"type": "function_call_output"}, True),
    ({"type": "x", "call_id": None}, True), ({"type": "message"}, False),
    ({"call_id": "c"}, False), ({"type": 1, "call_id": "c"}, False), ("x", False)])
def test_shaped(value, expected):
    assert open_responses.shaped(value) is expected


def test_is_call_and_is_hosted():
    assert open_responses.is_call({"type": "function_call"}) is True
    assert open_responses.is_call({"type": "function_call_output"}, "x") is False
    assert open_responses.is_call(["function_call"]) is False
    for t in ("web_search_call", "file_search_call", "code_interpreter_call", "tool_search_call",
              "mcp_call", "image_generation_call", "x_search_call", "program", "xai:search_call"):
        assert open_responses.is_hosted(t) is True, t
    for t in ("function_call", "xai:search", "search_call", None, 5, "shell_call"):
        assert open_responses.is_hosted(t) is False, t


@pytest.mark.parametrize("value, expected", [
    ({"object": "response"}, True), ({"output": []}, True), ({"output": [], "type": "x"}, False),
    ({"output": [], "type": 5}, True), ({"output": {}}, False), ({}, False), ([], False)])
def test_is_response(value, expected):
    assert open_responses.is_response(value) is expected


@pytest.mark.parametrize("value, expected", [
    ({"$schemaVersion": "1", "generatedItems": []}, True),
    ({"currentAgent": {}, "modelResponses": []}, True),
    ({"current_agent": {}, "generated_items": []}, True),
    ({"currentTurn": 1, "model_responses": []}, True),
    ({"current_turn": 1, "generatedItems": []}, True),
    ({"currentTurn": 1, "originalInput": []}, False),      # the input alone is no run state
    ({"currentTurn": 1, "generatedItems": {}}, False),
    ({"generatedItems": []}, False),
    ({"$schemaVersion": "1", "generatedItems": [], "type": "x"}, False),
    ({"$schemaVersion": "1", "generatedItems": [], "type": 5}, True),
    ([], False),
])
def test_is_run_state(value, expected):
    assert open_responses.is_run_state(value) is expected


@pytest.mark.parametrize("value, kind", [
    ({"object": "response"}, "response"),
    ({"$schemaVersion": "1", "generatedItems": []}, "item_list"),
    ({"input": "text"}, "item_list"),
    ({"input": [], "type": "x"}, None),
    ({"input": 5}, None),
    ({"type": "response.done"}, "response_stream"),
    ({}, None), (["x"], None)])
def test_recognise(value, kind):
    assert open_responses.recognise(value) == kind


@pytest.mark.parametrize("value, word", [
    ({"object": "response"}, "response"),
    ({"output": []}, "response"),
    ({"output": [], "type": "x"}, None),
    ({"type": "response.created", "response": {}}, "stream_event"),
    ({"type": "response.output_item.done", "item": {}}, "stream_event"),
    ({"type": "response.created"}, None),
    ({"type": "responses.created", "response": {}}, None),
    ({"type": 5, "response": {}}, None),
    ({"tools": [], "input": []}, "request"),
    ({"tools": [], "input": "x"}, None),
    ({"input": []}, None),
    ({}, None)])
def test_open_responses_envelope_kind(value, word):
    assert open_responses.envelope_kind(value) == word


# --------------------------------------------------------------------------- Open Responses: reading

def test_read_call():
    it = {"type": "function_call", "id": "fc", "call_id": "c", "name": "f", "arguments": "{}",
          "status": "in_progress", "turn_id": "t"}
    c = open_responses.read_call(it, Place("p", "/0"), 4)
    assert (c.dialect, c.name, c.call_id, c.id, c.args, c.status, c.turn_id, c.pos,
            c.place.pointer) == ("open_responses", "f", "c", "fc", "{}", "in_progress", "t", 4,
                                 "/0")
    assert c.item is it
    c = open_responses.read_call({})
    assert (c.place, c.pos, c.name, c.status) == (None, 0, None, None)


def test_read_items_sorts_calls_outputs_and_other_items():
    items = [
        {"type": "function_call", "id": "fc", "call_id": "a", "name": "f", "arguments": "{}",
         "status": "completed"},
        {"type": "function_call_output", "call_id": "a", "output": "ok"},
        {"type": "shell_call_output", "call_id": "b"},
        {"type": "shell_call_output", "call_id": 5},
        {"type": "tool_search_output", "call_id": "t"},
        {"type": "web_search_call", "id": "ws", "call_id": "w"},
        {"type": "message", "call_id": "m", "role": "assistant"},
        {"call_id": "r", "role": "user"},
        {"call_id": "x"},
        {"type": "reasoning"},
        {"type": 7},
        "not an item",
        {"type": "message"},
        {"type": "function_call_output"},
        {"type": "function_call", "name": "g"},
        {"type": "message", "call_id": "m2"},
    ]
    placed = [(it, Place("piece", f"/input/{i}")) for i, it in enumerate(items)]
    assert entry_rows(open_responses.read_items(placed, 10)) == [
        ("call", 10, "/input/0", "f", "a", "fc", "{}", "completed", False),
        ("output", 11, "/input/1", "a"),
        ("output", 12, "/input/2", "b"),
        ("other", 13, "/input/3", True),
        ("other", 14, "/input/4", True),
        ("call", 15, "/input/5", None, "w", "ws", None, None, True),
        ("other", 16, "/input/6", True),
        ("other", 17, "/input/7", True),
        ("call", 18, "/input/8", None, "x", None, None, None, False),
        ("other", 19, "/input/9", False),
        ("other", 20, "/input/10", True),
        ("other", 22, "/input/12", True),
        ("output", 23, "/input/13", None),
        ("call", 24, "/input/14", "g", None, None, None, None, False),
        ("other", 25, "/input/15", True),
    ]
    entries = open_responses.read_items(placed, 10)
    assert {e.dialect for e in entries} == {"open_responses"}
    assert [e.item for e in entries] == [it for it in items if type(it) is dict]
    assert all(e.item is it for e, it in zip(entries, [it for it in items if type(it) is dict]))
    assert [e.pos for e in open_responses.read_items(placed[:2])] == [0, 1]


def test_read_items_takes_the_positions_of_a_list_of_pieces():
    class Placed(list):
        def positions(self):
            return iter([5, 9])
    placed = Placed([({"type": "message"}, Place(None, "/a")),
                     ({"type": "function_call", "call_id": "c"}, Place(None, "/b"))])
    assert [e.pos for e in open_responses.read_items(placed)] == [5, 9]
    # pos0 other than 0: counted from it, the pieces' positions are not asked
    assert [e.pos for e in open_responses.read_items(placed, 2)] == [2, 3]


@pytest.mark.parametrize("value, state", [
    ({"status": "incomplete"}, "incomplete"), ({"status": 5}, "completed"), ({}, "completed"),
    ("x", "completed")])
def test_answer_state(value, state):
    assert open_responses.answer_state(value) == state


# --------------------------------------------------------------------------- run states

def test_run_state_items_camel_case():
    v = {"$schemaVersion": "1",
         "originalInput": [{"type": "message", "role": "user", "content": "hi"}],
         "generatedItems": [
             {"type": "tool_call_item", "rawItem": {"type": "function_call", "callId": "a",
                                                    "name": "f", "id": "fc"}},
             {"type": "tool_approval_item", "rawItem": {"type": "function_call", "callId": "a",
                                                        "name": "f", "id": "fc"}},
             {"type": "tool_call_output_item", "rawItem": {"type": "function_call_result",
                                                           "callId": "a", "output": "x"}},
             {"type": "x", "rawItem": "not an object"},
             "not an object", 7,
             {"type": "tool_approval_item", "rawItem": {"type": "function_call", "callId": "b"}},
         ],
         "modelResponses": [{"output": [{"type": "ignored"}]}],
         "currentStep": {"data": {"interruptions": [
             {"type": "tool_approval_item", "rawItem": {"type": "function_call", "callId": "a",
                                                        "name": "f", "id": "fc"}},
             {"type": "tool_approval_item", "rawItem": {"type": "function_call", "callId": "c"}},
             {"rawItem": 5}, 7]}}}
    assert open_responses.run_state_items(v) == [
        ({"type": "message", "role": "user", "content": "hi"}, "/originalInput/0"),
        ({"type": "function_call", "callId": "a", "call_id": "a", "name": "f", "id": "fc"},
         "/generatedItems/0/rawItem"),
        ({"type": "function_call_output", "callId": "a", "call_id": "a", "output": "x"},
         "/generatedItems/2/rawItem"),
        ({"type": "function_call", "callId": "b", "call_id": "b"}, "/generatedItems/6/rawItem"),
        ({"type": "function_call", "callId": "c", "call_id": "c"},
         "/currentStep/data/interruptions/1/rawItem"),
    ]


def test_run_state_items_snake_case_from_model_responses():
    v = {"current_agent": {}, "original_input": "text",
         "generated_items": [],
         "model_responses": [
             {"output": [{"type": "function_call", "call_id": "a", "id": "fc"}, 3]},
             {"output": "no list"}, "no object",
             {"output": [{"type": "function_call_result", "callId": "b"}]}],
         "current_step": {"data": {"interruptions": [
             {"type": "tool_approval_item", "raw_item": {"type": "function_call",
                                                         "call_id": "a", "id": "fc"}},
             {"type": "tool_approval_item", "raw_item": {"type": "function_call",
                                                         "call_id": "z"}}]}}}
    assert open_responses.run_state_items(v) == [
        ({"type": "function_call", "call_id": "a", "id": "fc"}, "/model_responses/0/output/0"),
        (3, "/model_responses/0/output/1"),
        ({"type": "function_call_output", "callId": "b", "call_id": "b"},
         "/model_responses/3/output/0"),
        ({"type": "function_call", "call_id": "z"}, "/current_step/data/interruptions/1/raw_item"),
    ]


def test_run_state_items_snake_case_generated_items():
    v = {"current_turn": 2, "original_input": [{"role": "user", "content": "hi"}],
         "generated_items": [{"type": "tool_call_item", "raw_item": {"type": "function_call",
                                                                     "call_id": "a"}}],
         "model_responses": [{"output": [{"type": "ignored"}]}]}
    assert open_responses.run_state_items(v) == [
        ({"role": "user", "content": "hi"}, "/original_input/0"),
        ({"type": "function_call", "call_id": "a"}, "/generated_items/0/raw_item")]


def test_run_state_items_without_lists():
    assert open_responses.run_state_items({"currentTurn": 1}) == []
    assert open_responses.run_state_items({"currentTurn": 1, "currentStep": {"data": 5}}) == []
    assert open_responses.run_state_items({"currentTurn": 1, "currentStep": 5}) == []


def test_a_protocol_item_keeps_its_own_call_id():
    v = {"currentTurn": 1, "generatedItems": [
        {"rawItem": {"type": "function_call", "callId": "js", "call_id": "py"}},
        {"rawItem": {"type": "message", "role": "user"}}]}
    items = open_responses.run_state_items(v)
    assert items[0][0] == {"type": "function_call", "callId": "js", "call_id": "py"}
    assert items[1][0] is v["generatedItems"][1]["rawItem"]   # no callId: the item itself
    # a result without callId is still an output
    (item, _), = open_responses.run_state_items({"currentTurn": 1, "generatedItems": [
        {"rawItem": {"type": "function_call_result", "call_id": "p", "output": "x"}}]})
    assert item == {"type": "function_call_output", "call_id": "p", "output": "x"}


def test_run_state_waits():
    v = {"generatedItems": [
        {"type": "tool_approval_item", "rawItem": {"callId": "a"}, "agent": {"name": "Helper"}},
        {"type": "tool_approval_item", "rawItem": {"call_id": "b"}, "agent": {"name": ""}},
        {"type": "tool_approval_item", "rawItem": {"call_id": ""}},
        {"type": "tool_approval_item", "rawItem": "x"},
        {"type": "tool_call_item", "rawItem": {"call_id": "n"}},
        "x"],
        "currentStep": {"data": {"interruptions": [
            {"type": "tool_approval_item", "raw_item": {"call_id": "a"},
             "agent": {"name": "Other"}},
            {"type": "tool_approval_item", "raw_item": {"call_id": "c"}, "agent": "Bob"},
            {"type": "tool_approval_item", "raw_item": {"call_id": "d"},
             "agent": {"name": 5}}]}},
        "pendingAgentToolRuns": {"sub:e": {}, "sub:a": {}, "nocolon": {}, "x:": {},
                                 "outer:inner:f": {}}}
    assert open_responses.run_state_waits(v) == {
        "a": ("approval", "Helper"), "b": ("approval", None), "c": ("approval", None),
        "d": ("approval", None), "e": ("nested_run", None), "nocolon": ("nested_run", None),
        "f": ("nested_run", None)}
    assert open_responses.run_state_waits(
        {"current_step": {"data": {"interruptions": [
            {"type": "tool_approval_item", "rawItem": {"call_id": "s"}}]}},
         "pending_agent_tool_runs": {"t:u": 1}}) == {"s": ("approval", None),
                                                     "u": ("nested_run", None)}
    assert open_responses.run_state_waits({"pendingAgentToolRuns": ["a:b"]}) == {}
    assert open_responses.run_state_waits({}) == {}


# --------------------------------------------------------------------------- Open Responses: writing

def test_walkable_settles_the_id_and_status_only_where_the_item_differs():
    item = {"type": "function_call", "call_id": "c", "status": "in_progress"}
    c = open_responses.read_call(item)
    assert open_responses.walkable(c) is item
    c.id, c.status = "fc", "completed"
    assert open_responses.walkable(c) == {"type": "function_call", "call_id": "c",
                                          "status": "completed", "id": "fc"}
    c.id, c.status = None, "in_progress"
    assert open_responses.walkable(c) is item
    c.item = "not an object"
    assert open_responses.walkable(c) == "not an object"


def test_write():
    c = Call("agents_api", None, 0, name="f", call_id="c", id="i", args={"a": [1]},
             status="completed")
    assert open_responses.write(c) == {"type": "function_call", "id": "i", "call_id": "c",
                                       "name": "f", "arguments": "{\"a\":[1]}",
                                       "status": "completed"}
    assert open_responses.write(Call("x", None, 0, args=[1, 2], status=5)) == {
        "type": "function_call", "arguments": "[1,2]"}
    assert open_responses.write(Call("x", None, 0, args="", call_id="")) == {
        "type": "function_call", "call_id": "", "arguments": ""}
    assert open_responses.write(Call("x", None, 0)) == {"type": "function_call"}


# --------------------------------------------------------------------------- Open Responses: conversations

def read(value):
    reading = Reading("open_responses")
    conv = open_responses.read_conversation(value, reading)
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


def test_read_conversation_of_a_request():
    value = {"model": "m", "instructions": "be brief", "previous_response_id": "resp_1",
             "conversation": "", "input": [
                 {"type": "message", "role": "developer", "content": "dev", "id": "msg"},
                 {"role": "user", "content": [
                     {"type": "input_text", "text": "look"},
                     {"type": "input_image", "image_url": "u://1", "detail": "auto"},
                     {"type": "input_image", "file_id": "f"},
                     {"type": "output_text", "text": "t", "annotations": [1], "logprobs": [1],
                      "extra": 1},
                     {"type": "text", "text": 5},
                     "x"]},
                 {"type": "message", "role": "critic", "content": "no"},
                 {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{\"x\":1}",
                  "id": "fc", "status": "completed"},
                 {"type": "function_call_output", "call_id": "a", "output": "42", "id": "o"},
                 {"type": "function_call_output", "call_id": "b", "output": [
                     {"type": "input_text", "text": "t"},
                     {"type": "input_image", "image_url": "u://2"},
                     {"type": "input_file", "file_id": "f"}]},
                 {"type": "reasoning", "id": "rs"},
                 {"type": "web_search_call", "call_id": "w"},
                 {"type": "web_search_call_output", "call_id": "w"},
                 {"type": "program", "id": "p"},
                 {"type": "function_call_output", "call_id": "w", "output": "x"},
                 {"type": "shell_call_output", "call_id": "q"},
                 {"type": "item/kind"},
                 {"role": 5},
                 7,
                 {"type": "shell_call", "call_id": "s"},
                 {"type": "shell_call_output", "call_id": "s"}],
             "tools": [{"type": "function", "name": "f", "description": "d",
                        "parameters": {"type": "object"}, "strict": True},
                       {"type": "web_search"}, {"type": "function", "name": 3}, "x"]}
    conv, reading = read(value)
    assert conv.shape == "request"
    assert turns(conv) == [
        ("system", "/instructions", [("text", "/instructions", "be brief"),
                                     ("text", "/input/0/content", "dev")]),
        ("user", "/input/1", [("text", "/input/1/content/0", "look"),
                              ("image", "/input/1/content/1", "u://1"),
                              ("text", "/input/1/content/3", "t")]),
        ("assistant", "/input/3", [("call", "/input/3", "a", "f", "{\"x\":1}")]),
        ("user", "/input/4", [("output", "/input/4", "a", [("text", "42")]),
                              ("output", "/input/5", "b", [("text", "t"), ("image", "u://2")])]),
    ]
    assert [(t.name, t.description, t.parameters, t.pointer) for t in conv.tools] == [
        ("f", "d", {"type": "object"}, "/tools/0")]
    stored = ("has no such history, so the calls and messages held there are missing from the "
              "converted text (the outputs that answer them have no call). Paste the whole "
              "history to convert it.")
    assert lost(reading) == [
        ("/model", "field", "The envelope's field 'model' has no counterpart in the target: it "
                            "is left out."),
        ("/previous_response_id", "stored_history", "The request continues the history the "
         "server stores (previous_response_id): another provider " + stored),
        ("/tools/0/strict", "field", "The tool's field 'strict' has no counterpart in the "
                                     "target: it is left out."),
        ("/tools/1", "tool", "A tool of the provider's own (not a function tool) has no "
                             "counterpart in the target: it is left out."),
        ("/tools/2", "tool", "A tool of the provider's own (not a function tool) has no "
                             "counterpart in the target: it is left out."),
        ("/tools/3", "tool", "A tool of the provider's own (not a function tool) has no "
                             "counterpart in the target: it is left out."),
        ("/input/0/id", "field", "The message's field 'id' has no counterpart in the target: it "
                                 "is left out."),
        ("/input/1/content/1/detail", "field", "The image part's field 'detail' has no "
                                               "counterpart in the target: it is left out."),
        ("/input/1/content/2", "part", "A content part of type input_image has no counterpart "
                                       "in the target: it is left out."),
        ("/input/1/content/3/extra", "field", "The text part's field 'extra' has no counterpart "
                                              "in the target: it is left out."),
        ("/input/1/content/4", "part", "A content part of type text has no counterpart in the "
                                       "target: it is left out."),
        ("/input/1/content/5", "part", "A content part of type None has no counterpart in the "
                                       "target: it is left out."),
        ("/input/2", "item", "A message of the role 'critic' has no counterpart in the target: "
                             "it is left out."),
        ("/input/3/id", "field", "The call's field 'id' has no counterpart in the target: it is "
                                 "left out."),
        ("/input/3/status", "field", "The call's field 'status' has no counterpart in the "
                                     "target: it is left out."),
        ("/input/4/id", "field", "The output's field 'id' has no counterpart in the target: it "
                                 "is left out."),
        ("/input/5/output/2", "part", "A content part of type input_file has no counterpart in "
                                      "the target: it is left out."),
        ("/input/6", "reasoning", "A reasoning item is bound to the provider that made it (its "
                                  "encrypted_content only that provider reads): it is left out."),
        ("/input/7", "provider_call", "A web_search_call item is a tool kind of this provider "
         "(run by it, or with a shape of its own): it has no counterpart in the target and is "
         "left out (with its output)."),
        ("/input/8", "provider_call", "The web_search_call_output of a call that does not "
                                      "travel is left out with it."),
        ("/input/9", "provider_call", "A program item is a tool kind of this provider (run by "
         "it, or with a shape of its own): it has no counterpart in the target and is left out "
         "(with its output)."),
        ("/input/10", "provider_call", "The output of a call that does not travel is left out "
                                       "with it."),
        ("/input/11", "item", "An item of type 'shell_call_output' has no counterpart in the "
                              "target: it is left out."),
        ("/input/12", "item", "An item of type 'item~1kind' has no counterpart in the target: it "
                              "is left out."),
        ("/input/13", "item", "A message of the role 5 has no counterpart in the target: it is "
                              "left out."),
        ("/input/14", "item", "A value that is not an item is left out."),
        ("/input/15", "provider_call", "A shell_call item is a tool kind of this provider (run by "
         "it, or with a shape of its own): it has no counterpart in the target and is left out "
         "(with its output)."),
        ("/input/16", "provider_call", "The shell_call_output of a call that does not travel is "
                                       "left out with it."),
    ]


def test_read_conversation_of_contents_that_are_no_list():
    conv, reading = read({"input": [
        {"type": "message", "role": "user", "content": None},
        {"type": "message", "role": "user", "content": {"type": "input_text", "text": "x"}},
        {"type": "function_call_output", "call_id": "a", "output": None},
        {"type": "function_call_output", "call_id": "b", "output": {"k": 1}}]})
    assert turns(conv) == [("user", "/input/0", [("output", "/input/2", "a", []),
                                                 ("output", "/input/3", "b", [])])]
    assert reading.lost == []


def test_an_untyped_item_is_a_message_only_with_a_role():
    conv, reading = read({"input": [{"content": "no role"}, {"type": "custom", "role": "user",
                                                            "content": "typed"}]})
    assert conv.turns == []
    assert lost(reading) == [
        ("/input/0", "item", "An item of type 'None' has no counterpart in the target: it is left "
                             "out."),
        ("/input/1", "item", "An item of type 'custom' has no counterpart in the target: it is "
                             "left out.")]


def test_read_conversation_of_a_text_input_and_a_conversation_id():
    conv, reading = read({"input": "hello", "conversation": "conv_1", "instructions": ""})
    assert turns(conv) == [("user", "/input", [("text", "/input", "hello")])]
    assert [x[:2] for x in lost(reading)] == [("/conversation", "stored_history")]
    assert "(conversation)" in reading.lost[0]["message"]


def test_read_conversation_of_a_response():
    conv, reading = read({"object": "response", "id": "r", "status": "completed", "output": [
        {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "ok", "annotations": []}]},
        {"type": "function_call", "call_id": "a", "name": "f", "arguments": ""}],
        "input": [{"role": "user", "content": "not read"}]})
    assert conv.shape == "response"
    assert turns(conv) == [("assistant", "/output/0", [
        ("text", "/output/0/content/0", "ok"), ("call", "/output/1", "a", "f", "{}")])]
    # the request's input beside a response's output is carried (a log's element), not said
    assert [x[0] for x in lost(reading)] == ["/id", "/status"]


def test_read_conversation_of_the_api_s_list_form_and_a_bare_list():
    conv, reading = read({"object": "list", "data": [{"role": "user", "content": "a"}],
                          "has_more": False, "first_id": ""})
    assert turns(conv) == [("user", "/data/0", [("text", "/data/0/content", "a")])]
    assert reading.lost == []   # the list's own fields (has_more, first_id) are not read
    conv, reading = read({"data": [{"role": "user", "content": "b"}]})
    assert turns(conv) == [("user", "/data/0", [("text", "/data/0/content", "b")])]
    conv, reading = read({"object": "thing", "data": [{"role": "user", "content": "c"}]})
    assert (turns(conv), reading.lost) == ([], [])   # another object's data: not the list form
    conv, reading = read([{"role": "user", "content": "d"}, 5])
    assert turns(conv) == [("user", "/0", [("text", "/0/content", "d")])]
    assert lost(reading) == [("/1", "item", "A value that is not an item is left out.")]
    conv, reading = read("text")
    assert (conv.turns, reading.lost) == ([], [])


def test_read_conversation_refuses_a_log():
    with pytest.raises(Refused) as exc:
        read([{"role": "user", "content": "a"}, {"object": "response", "output": []}])
    assert (exc.value.code, exc.value.pointer) == ("not_convertible", "")
    assert exc.value.message == ("This is a log of several exchanges (responses and the requests "
                                 "that replay them): convert one request or response at a time.")
    for doc in ({"output": []}, {"input": []}, {"object": "response"}):
        with pytest.raises(Refused):
            read([doc])
    # the first 500 values tell: a document after them is read as an item
    conv, reading = read([{"role": "user", "content": "a"}] * 500 + [{"output": []}])
    assert len(conv.turns) == 1 and len(conv.turns[0].parts) == 500
    assert lost(reading) == [("/500", "item", "An item of type 'None' has no counterpart in the "
                              "target: it is left out.")]
    # a typed item with an output list is an item, not a document
    conv, reading = read([{"type": "shell_call_output", "output": []}])
    assert [x[1] for x in lost(reading)] == ["item"]


def test_read_conversation_of_a_run_state():
    conv, reading = read({"$schemaVersion": "1", "originalInput": "ignored", "generatedItems": [
        {"rawItem": {"type": "function_call", "callId": "a", "name": "f", "arguments": "{}"}},
        {"rawItem": {"type": "function_call_result", "callId": "a", "output": "r"}}]})
    assert turns(conv) == [
        ("assistant", "/generatedItems/0/rawItem",
         [("call", "/generatedItems/0/rawItem", "a", "f", "{}")]),
        ("user", "/generatedItems/1/rawItem",
         [("output", "/generatedItems/1/rawItem", "a", [("text", "r")])])]
    assert [x[0] for x in lost(reading)] == ["/generatedItems/0/rawItem/callId",
                                             "/generatedItems/1/rawItem/callId"]


def test_read_conversation_refuses_arguments_that_are_not_json():
    with pytest.raises(Refused) as exc:
        read({"input": [{"type": "function_call", "call_id": "a", "name": "f",
                         "arguments": "{nope"}]})
    assert (exc.value.code, exc.value.pointer) == ("arguments_parse", "/input/0/arguments")


def write(conv) -> tuple[dict, list]:
    reading = Reading("chat_completions")
    return open_responses.write_conversation(conv, reading), lost(reading)


def test_write_conversation():
    conv = Conversation()
    conv.add("system", Part("text", "/s", text="be brief"))
    conv.add("user", Part("text", "/u", text="look"))
    conv.add("user", Part("image", "/i", url="u://1"))
    conv.add("assistant", Part("text", "/a", text="ok"))
    conv.add("assistant", Part("image", "/ai", url="u://2"))
    conv.add("assistant", Part("call", "/c", call_id="a", name="f", args={"x": 1}))
    conv.add("assistant", Part("call", "/c2", call_id=None, name=None, args=None))
    conv.add("assistant", Part("text", "/a2", text="after"))
    conv.add("user", Part("output", "/o", call_id="a", content=[("text", "4"), ("json", [2])]))
    conv.add("user", Part("output", "/o2", call_id="b", content=[
        ("text", "t"), ("image", "u://3"), ("json", {"k": 1})], is_error=True))
    conv.add("user", Part("text", "/u2", text="thanks"))
    conv.tools.append(Tool("f", "d", {"type": "object"}, "/t"))
    conv.tools.append(Tool("g", None, None, "/t2"))
    out, dropped = write(conv)
    assert out == {"input": [
        {"type": "message", "role": "developer", "content": "be brief"},
        {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "look"}, {"type": "input_image", "image_url": "u://1"}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                              "text": "ok"}]},
        {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{\"x\":1}"},
        {"type": "function_call", "arguments": "{}"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                              "text": "after"}]},
        {"type": "function_call_output", "call_id": "a", "output": "4[2]"},
        {"type": "function_call_output", "call_id": "b", "output": [
            {"type": "input_text", "text": "t"}, {"type": "input_image", "image_url": "u://3"},
            {"type": "input_text", "text": "{\"k\":1}"}]},
        {"type": "message", "role": "user", "content": "thanks"},
    ], "tools": [{"type": "function", "name": "f", "description": "d",
                  "parameters": {"type": "object"}},
                 {"type": "function", "name": "g"}]}
    assert dropped == [
        ("/ai", "image", "An image in the model's own turn has no form in Open Responses: it is "
                         "left out."),
        ("/o2/is_error", "is_error", "A function_call_output has no error flag: the output's "
                                     "text is all the model sees."),
    ]
    out, dropped = write(Conversation())
    assert (out, dropped) == ({"input": []}, [])


def test_write_conversation_a_json_text_beside_an_image():
    # the JSON string "text" is written as its JSON text, not taken for a text part
    conv = Conversation()
    conv.add("user", Part("output", "/o", call_id="a", content=[("image", "u"), ("json", "text")]))
    out, _ = write(conv)
    assert out["input"] == [{"type": "function_call_output", "call_id": "a", "output": [
        {"type": "input_image", "image_url": "u"}, {"type": "input_text", "text": "\"text\""}]}]


def test_write_conversation_ticks_once_per_turn():
    ticks = []
    reading = Reading("chat_completions")
    reading.tick = lambda: ticks.append(1)
    conv = Conversation()
    conv.add("user", Part("text", "/a", text="a"))
    conv.add("assistant", Part("text", "/b", text="b"))
    conv.add("user", Part("text", "/c", text="c"))
    open_responses.write_conversation(conv, reading)
    assert len(ticks) == 3


def test_a_round_trip_through_open_responses_keeps_the_request():
    value = {"input": [
        {"type": "message", "role": "user", "content": "hi"},
        {"type": "function_call", "call_id": "a", "name": "f", "arguments": "{\"n\":1}"},
        {"type": "function_call_output", "call_id": "a", "output": "one"}],
        "tools": [{"type": "function", "name": "f", "parameters": {}}]}
    conv, reading = read(value)
    out, dropped = write(conv)
    assert out == value and dropped == [] and reading.lost == []


# --------------------------------------------------------------------------- the Agents API

@pytest.mark.parametrize("value, expected", [
    ({"type": "agent.session.created"}, True), ({"type": "agent.sessions"}, True),
    ({"type": "agent"}, False), ({"type": 5}, False), ({}, False), ("agent.session", False)])
def test_agents_is_event(value, expected):
    assert agents.is_event(value) is expected


@pytest.mark.parametrize("value, expected", [
    ({"type": "agent.session.input.tool_result"}, True),
    ({"turn_id": "t", "call_id": "c", "success": True}, True),
    ({"type": "x", "turn_id": "t", "call_id": "c", "success": True}, False),
    ({"turn_id": "t", "call_id": "c"}, False),
    ({"turn_id": "t", "success": True}, False),
    ({"call_id": "c", "success": True}, False),
    ("x", False)])
def test_agents_is_result(value, expected):
    assert agents.is_result(value) is expected


@pytest.mark.parametrize("node, expected", [
    ({"type": "function_call", "turn_id": None}, True),
    ({"type": "function_call"}, False),
    ({"type": "tool_call", "turn_id": "t"}, False),
    (["function_call"], False)])
def test_agents_is_call(node, expected):
    assert agents.is_call(node) is expected and agents.is_call(node, "x") is expected


@pytest.mark.parametrize("value, expected", [
    ({"type": "message", "turn_id": "t"}, True),
    ({"type": "create_subagent_call"}, True),
    ({"type": "send_subagent_input_call"}, True),
    ({"type": "wait_for_subagents_call"}, True),
    ({"type": "interrupt_subagent_call"}, True),
    ({"type": "agent_message"}, True),
    ({"type": "handoff"}, True),
    ({"type": "message"}, False),
    ({"type": "agent.session.created", "turn_id": "t"}, False),
    ({"turn_id": "t"}, False),
    ("x", False)])
def test_agents_is_item(value, expected):
    assert agents.is_item(value) is expected


@pytest.mark.parametrize("value, expected", [
    ({"items": []}, True),
    ({"items": [], "type": "x"}, False),
    ({"items": {}}, False),
    ({"session": {}, "events": []}, True),
    ({"session": {}, "type": "agent.session.x"}, True),
    ({"session": {}}, False),
    ({"session": [], "events": []}, False),
    ({"type": "agent.session.created"}, True),
    ({"required_actions": None}, True),
    ({"turn_id": "t", "call_id": "c", "success": False}, True),
    ({"object": "agent.session"}, True),
    ({"object": "agents"}, True),
    ({"object": "response"}, False),
    ({"object": 5}, False),
    ({"agent": {}, "input": []}, True),
    ({"agent": {}, "items": {}}, True),
    ({"agent": {}, "environment": {}}, True),
    ({"agent": {}, "status": "x"}, True),
    ({"agent": {}}, False),
    ({"agent": "a", "input": []}, False),
    ({}, False), ([], False)])
def test_agents_is_session(value, expected):
    assert agents.is_session(value) is expected
    assert agents.recognise(value) == ("agents_session" if expected else None)


@pytest.mark.parametrize("value, word", [
    ({"required_actions": []}, "agents_session"),
    ({"type": "agent.session.requires_action"}, "agents_session"),
    ({"session": {"required_actions": []}}, "agents_session"),
    ({"session": {}}, None),
    ({"session": "required_actions"}, None),
    ({"type": "agent.session.created"}, None),
    ({}, None)])
def test_agents_envelope_kind(value, word):
    assert agents.envelope_kind(value) == word


def test_agents_read_call_read_result_walkable_and_write():
    action = {"type": "function_call", "turn_id": "t", "call_id": "c", "id": "i", "name": "f",
              "arguments": {"a": 1}, "status": "in_progress"}
    c = agents.read_call(action, Place("p", "/x"), 2)
    assert (c.dialect, c.name, c.call_id, c.turn_id, c.id, c.args, c.status, c.pos,
            c.place.pointer) == ("agents_api", "f", "c", "t", "i", {"a": 1}, "in_progress", 2,
                                 "/x")
    assert agents.read_call(action, pending=True).status == "completed"
    d = agents.read_call({})
    assert (d.place, d.pos, d.status, d.name) == (None, 0, None, None)
    assert agents.walkable(c) is action
    assert agents.write(c) == {"type": "function_call", "turn_id": "t", "call_id": "c",
                               "name": "f", "arguments": {"a": 1}}
    assert agents.write(Call("x", None, 0, args="")) == {"type": "function_call",
                                                        "arguments": ""}
    assert agents.write(Call("x", None, 0)) == {"type": "function_call"}
    res = {"type": agents.RESULT_TYPE, "turn_id": "t", "call_id": "c"}
    o = agents.read_result(res, Place("p", "/r"), 7)
    assert (o.kind, o.dialect, o.call_id, o.turn_id, o.pos, o.place.pointer, o.item) == (
        "output", "agents_api", "c", "t", 7, "/r", res)
