"""Who reads a gate answer (issue 27): where to go next is said in the reader's terms — the Gate
page names its buttons and its Item box, the API its endpoints, the command line its commands —
and a single Chat tool call, which the gate walks as its Open Responses equivalent, is told so.
Every sentence of every gallery case in the page's words names no endpoint."""

from __future__ import annotations

import json
import re

import pytest
from conftest import run_workbench

from workbench.errors import WorkbenchError
from workbench.gallery import ALL, text_of, tools_of
from workbench.gate import handle
from workbench.limits import DEFAULT_LIMITS

CHAT_CALL = json.dumps({"id": "call_1", "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}})
ITEMS = json.dumps([{"type": "message", "role": "user", "content": "hi"},
                    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
                     "arguments": "{}", "status": "completed"},
                    {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "g",
                     "arguments": "{}", "status": "completed"}])
API_ONLY = re.compile(r"POST|/api/|\bworkbench (gate|transcript)\b|envelope\.calls")


def gate(item: str, words: str | None = None, **more) -> dict:
    body = {"item": item, **more}
    if words is not None:
        body["words"] = words
    return handle(body, DEFAULT_LIMITS)


def sentences(answer: dict) -> list[str]:
    """Every sentence an answer shows: its reason, each step's, the envelope's message."""
    out = [answer["reason"]]
    out += [s.get("reason") or s.get("note") or "" for s in answer["steps"]]
    if answer.get("envelope"):
        out.append(answer["envelope"]["message"])
    return [s for s in out if s]


def test_a_single_chat_tool_call_is_told_to_walk_its_equivalent_in_each_readers_words():
    page = gate(CHAT_CALL, "page")["reason"]
    assert "press \u201cWalk the equivalent item\u201d below" in page
    assert "paste the whole Chat Completions response or request it came from into Item" in page
    assert not API_ONLY.search(page), page
    api = gate(CHAT_CALL)["reason"]   # the API's words by default
    assert "POST its Open Responses equivalent (envelope.calls[0].equivalent) to /api/gate" in api
    assert "POST the whole Chat Completions response or request it came from to /api/transcript" in api
    assert "\u201cWalk" not in api and "into Item" not in api
    # not "one Chat Completions tool call, not one item": it is one call, in another envelope
    answer = gate(CHAT_CALL, "page")
    assert "not an Open Responses function_call item" in answer["reason"]
    assert "walk one of them" not in answer["envelope"]["message"]
    # the equivalent the words point at is the call the gate lets through
    eq = answer["envelope"]["calls"][0]["equivalent"]
    assert gate(json.dumps(eq), "page")["verdict"] == "ok"


def test_a_value_holding_calls_names_the_button_or_the_endpoint():
    page = gate(ITEMS, "page")["reason"]
    assert "It holds 2 function calls; walk one of them with its \u201cWalk this call\u201d button below" in page
    assert not API_ONLY.search(page), page
    api = gate(ITEMS, "api")["reason"]
    assert "walk one of them: POST its envelope.calls[].json to /api/gate as the item" in api
    assert "POST it to /api/transcript as text" in api
    cli = gate(ITEMS, "cli")["reason"]
    assert "run workbench gate FILE" in cli and "run workbench transcript on it" in cli
    assert "/api/" not in cli


def test_words_is_checked():
    with pytest.raises(WorkbenchError) as e:
        gate(CHAT_CALL, "browser")
    assert (e.value.status, e.value.code, e.value.field) == (400, "bad_option", "words")


def test_no_gallery_case_in_the_page_words_names_an_endpoint():
    seen = 0
    for case in ALL:
        body = {"item": text_of(case), "words": "page"}
        if tools_of(case):
            body["schema"] = tools_of(case)
        if case.get("original"):
            body["original"] = case["original"]
        try:
            answer = handle(body, DEFAULT_LIMITS)
        except WorkbenchError:
            continue
        for s in sentences(answer):
            seen += 1
            assert not API_ONLY.search(s), (case["name"], s)
    assert seen > 100


def test_the_command_line_says_the_commands(files):
    code, out, _ = run_workbench("gate", files("call.json", CHAT_CALL), env={"NO_COLOR": "1"})
    assert code == 1
    assert "run workbench transcript on the whole Chat Completions response" in out
    assert "/api/" not in out and "the page's" not in out
    code, out, _ = run_workbench("gate", files("items.json", ITEMS), env={"NO_COLOR": "1"})
    assert "save it (listed below) to a file and run workbench gate FILE" in out
    assert "/api/" not in out
