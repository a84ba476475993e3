"""The Diff's providers preset across dialects (providers-rules.md, "Comparing two providers'
answers"): two answers of different dialects compared in the neutral form (text parts, calls as
name + parsed arguments, in order), through the real server (POST /api/diff), over real
recordings of realworld2 and hand-made answers; and the neutral reduction itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.dialects import neutral
from workbench.jsontext import parse

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "realworld2"
if not REAL.is_dir():
    REAL = Path("/work/shared/reference/realworld2")
ANTHROPIC = REAL / "anthropic" / "0006_anthropic-sdk-go__cassettes__tool_runner_basic__i0_response.json"
GEMINI = REAL / "gemini" / "0143_logfire__test_google_genai__test_instrument_google_genai__i0_response.json"
needs_real = pytest.mark.skipif(not ANTHROPIC.is_file() or not GEMINI.is_file(),
                                reason="realworld2 is not on this machine")


def api(server, left, right, **opts):
    status, body = server.api("diff", {"left": left, "right": right, "preset": "providers", **opts})
    assert status == 200, body
    return body


def openai_answer(text, calls, *, status="completed"):
    """An OpenAI Responses answer: a reasoning item, the text, then the calls (arguments as
    JSON text written with their own spacing), with ids and usage of its own."""
    out = [{"type": "reasoning", "id": "rs_9", "summary": [], "encrypted_content": "gAAA"}]
    if text:
        out.append({"type": "message", "id": "msg_9", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]})
    for i, (name, args) in enumerate(calls):
        out.append({"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}XyZ",
                    "name": name, "arguments": args, "status": "completed"})
    return json.dumps({"id": "resp_0af3", "object": "response", "created_at": 1767225600,
                       "status": status, "model": "gpt-5", "output": out,
                       "usage": {"input_tokens": 402, "output_tokens": 31}}, indent=2)


def chat_answer(text, calls, finish="tool_calls"):
    return json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600,
                       "model": "gpt-4o", "choices": [{"index": 0, "finish_reason": finish,
                       "message": {"role": "assistant", "content": text, "tool_calls": [
                           {"id": f"call_{i}", "type": "function",
                            "function": {"name": n, "arguments": a}}
                           for i, (n, a) in enumerate(calls)]}}],
                       "usage": {"prompt_tokens": 9, "completion_tokens": 3}}, indent=2)


# ----------------------------------------------------------------------------- OpenAI vs Anthropic

@needs_real
def test_openai_and_anthropic_calling_the_same_tool_alike_compare_equal(server):
    right = ANTHROPIC.read_text(encoding="utf-8")
    left = openai_answer("I'll get the current weather in San Francisco for you in Fahrenheit.",
                         [("get_weather", '{"units": "fahrenheit", "city": "San Francisco"}')])
    plain = server.api("diff", {"left": left, "right": right})[1]
    assert plain["count"] > 10                      # as documents they share almost nothing
    r = api(server, left, right)
    assert r["equal"] is True and r["count"] == 0 and r["changes"] == [], r["changes"]
    a = r["across"]
    assert (a["left"]["dialect"], a["right"]["dialect"]) == ("open_responses", "anthropic")
    assert a["says"] == []
    assert json.loads(a["right"]["neutral"]) == json.loads(a["left"]["neutral"]) == {
        "state": "completed", "parts": [
            {"type": "text", "text": "I'll get the current weather in San Francisco for you in "
                                     "Fahrenheit."},
            {"type": "call", "name": "get_weather",
             "arguments": {"city": "San Francisco", "units": "fahrenheit"}}]}
    # each side's own text is carried whole (the page's toggle shows it)
    assert a["left"]["text"] == left and a["right"]["text"] == right
    assert a["left"]["left_out"] == [{"pointer": "/output/0",
                                      "what": "reasoning bound to its provider"}]
    # the view shows the neutral form, not the envelopes
    assert '"arguments"' in r["view"]["left"] and "toolu_" not in r["view"]["left"] + r["view"]["right"]


@needs_real
def test_one_argument_changed_is_exactly_one_change_at_that_argument(server):
    right = ANTHROPIC.read_text(encoding="utf-8")
    left = openai_answer("I'll get the current weather in San Francisco for you in Fahrenheit.",
                         [("get_weather", '{"city": "San Francisco", "units": "celsius"}')])
    r = api(server, left, right)
    assert r["count"] == 1, r["changes"]
    (c,) = r["changes"]
    assert (c["op"], c["pointer"]) == ("replace", "/parts/1/arguments/units")
    assert (c["left"], c["right"]) == ('"celsius"', '"fahrenheit"')
    # a click away: where each side says it, in its own text
    assert c["left_source"]["pointer"] == "/output/2/arguments"
    assert c["left_source"]["inner_pointer"] == "/units"
    assert left.splitlines()[c["left_source"]["line"] - 1].lstrip().startswith('"arguments"')
    assert c["right_source"] == {"pointer": "/content/1/input/units", "line": 1}
    assert r["across"]["says"] == [
        'OpenAI Responses called get_weather {"city":"San Francisco","units":"celsius"}; '
        'Anthropic called it with {"city":"San Francisco","units":"fahrenheit"}.']
    assert r["patch"] == [{"op": "replace", "path": "/parts/1/arguments/units",
                           "value": "fahrenheit"}]


@needs_real
def test_an_added_argument_and_a_missing_call_are_said(server):
    right = ANTHROPIC.read_text(encoding="utf-8")
    left = openai_answer("I'll get the current weather in San Francisco for you in Fahrenheit.",
                         [("get_weather", '{"city": "San Francisco"}'),
                          ("get_time", '{"city": "San Francisco"}')])
    r = api(server, left, right)
    got = sorted((c["op"], c["pointer"]) for c in r["changes"])
    assert got == [("add", "/parts/1/arguments/units"), ("remove", "/parts/2")], r["changes"]
    add = next(c for c in r["changes"] if c["op"] == "add")
    assert add["right_source"]["pointer"] == "/content/1/input/units"
    assert "left_source" not in add
    assert r["across"]["says"][1].startswith("OpenAI Responses called get_time")
    assert r["across"]["says"][1].endswith("Anthropic did not call it.")


# ----------------------------------------------------------------------------- Gemini vs Chat

@needs_real
def test_gemini_and_chat_compare_equal_and_one_change_is_one(server):
    left = GEMINI.read_text(encoding="utf-8")
    same = chat_answer(None, [("get_current_weather", '{"location":"Boston, MA"}')])
    r = api(server, left, same)
    assert r["equal"] is True and r["count"] == 0, r["changes"]
    assert (r["across"]["left"]["word"], r["across"]["right"]["word"]) == \
        ("Gemini", "Chat Completions")
    other = chat_answer(None, [("get_current_weather", '{"location":"Boston, NY"}')])
    r = api(server, left, other)
    assert [(c["op"], c["pointer"]) for c in r["changes"]] == \
        [("replace", "/parts/0/arguments/location")]
    c = r["changes"][0]
    assert c["left_source"]["pointer"] == "/candidates/0/content/parts/0/functionCall/args/location"
    assert left.splitlines()[c["left_source"]["line"] - 1].strip() == '"location": "Boston, MA"'
    assert c["right_source"]["pointer"] == "/choices/0/message/tool_calls/0/function/arguments"
    assert c["right_source"]["inner_pointer"] == "/location"


def test_numbers_keep_their_text_and_differ_only_in_spelling_as_a_note(server):
    gem = json.dumps({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "pay", "args": {"amount": 10.50, "id": 12345678901234567890}}}]},
        "finishReason": "STOP"}]})
    gem = gem.replace("10.5", "10.50")
    chat = chat_answer("", [("pay", '{"id": 12345678901234567891, "amount": 10.5}')])
    r = api(server, gem, chat)
    # an argument named id is the caller's data: compared (the preset's $..id is not applied)
    assert [(c["pointer"], c["left"], c["right"]) for c in r["changes"]] == \
        [("/parts/0/arguments/id", "12345678901234567890", "12345678901234567891")]
    assert [(n["pointer"], n["left"], n["right"]) for n in r["notes"]] == \
        [("/parts/0/arguments/amount", "10.50", "10.5")]


def test_a_call_cut_off_by_the_token_budget_is_a_change_of_state(server):
    ant = json.dumps({"id": "msg_1", "type": "message", "role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}],
        "stop_reason": "max_tokens"})
    chat = chat_answer(None, [("f", '{"a":1}')])
    r = api(server, ant, chat)
    assert [(c["pointer"], c["left"], c["right"]) for c in r["changes"]] == \
        [("/state", '"incomplete"', '"completed"')]


def test_same_dialect_and_non_answers_are_compared_as_documents(server):
    a = chat_answer("hi", [])
    b = chat_answer("hi", [], finish="stop")
    r = api(server, a, b)
    assert "across" not in r and [c["pointer"] for c in r["changes"]] == \
        ["/choices/0/finish_reason"]
    r = api(server, '{"a": 1}', chat_answer("hi", []))
    assert "across" not in r


def test_a_too_deep_argument_is_refused_not_a_500(server):
    deep = "[" * 3000 + "]" * 3000
    gem = '{"candidates": [{"content": {"role": "model", "parts": [{"functionCall": ' \
          '{"name": "f", "args": {"x": ' + deep + '}}}]}, "finishReason": "STOP"}]}'
    status, body = server.api("diff", {"left": gem, "right": chat_answer(None, [("f", "{}")]),
                                       "preset": "providers"})
    assert status == 422 and body["error"]["code"] == "too_deep", body
    # arguments text nested past the limit stays the text it is (a string, compared as one)
    text = '{"x": ' + deep + "}"
    r = api(server, openai_answer("", [("f", text)]), chat_answer(None, [("f", text)]))
    assert r["equal"] is True and "across" in r
    r = api(server, openai_answer("", [("f", text)]), chat_answer(None, [("f", "{}")]))
    assert [(c["op"], c["pointer"]) for c in r["changes"]] == [("replace", "/parts/0/arguments")]


# ----------------------------------------------------------------------------- the reduction

def _reduce(text):
    return neutral.reduce(parse(text, field=None).value)


def test_the_neutral_form_joins_text_and_lists_what_it_leaves_out():
    ant = json.dumps({"type": "message", "role": "assistant", "stop_reason": "tool_use",
                      "content": [{"type": "text", "text": "Let me "},
                                  {"type": "thinking", "thinking": "…", "signature": "s"},
                                  {"type": "text", "text": "look."},
                                  {"type": "server_tool_use", "id": "srvtoolu_1",
                                   "name": "web_search", "input": {"query": "x"}},
                                  {"type": "tool_use", "id": "t", "name": "f", "input": {}}]})
    n = _reduce(ant)
    assert n.dialect == "anthropic" and n.parts == [
        {"type": "text", "text": "Let me look."}, {"type": "call", "name": "f", "arguments": {}}]
    assert n.left_out == [{"pointer": "/content/1", "what": "reasoning bound to its provider"},
                          {"pointer": "/content/3",
                           "what": "a call bound to its provider, or its result"}]
    assert n.source("/parts/0/text") == ("/content/0/text", None)
    assert n.source("/parts/1/arguments/a/b") == ("/content/4/input/a/b", None)
    gem = json.dumps({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "thinking…", "thought": True}, {"text": "Sure"}, {"text": ""},
        {"functionCall": {"name": "g", "args": {"k": [1]}}, "thoughtSignature": "c2ln"}]},
        "finishReason": "MAX_TOKENS"}]})
    n = _reduce(gem)
    assert n.value == {"state": "incomplete", "parts": [
        {"type": "text", "text": "Sure"}, {"type": "call", "name": "g", "arguments": {"k": [1]}}]}
    assert n.source("/parts/1/arguments/k/0") == \
        ("/candidates/0/content/parts/3/functionCall/args/k/0", None)
    # arguments that are not JSON stay the text they are
    chat = chat_answer(None, [("h", '{"a": ')])
    assert _reduce(chat).parts == [{"type": "call", "name": "h", "arguments": '{"a": '}]
    # not an answer: a request, an item, a stream event
    for v in ({"messages": [{"role": "user", "content": "hi"}]}, {"type": "function_call"},
              {"type": "message_start", "message": {}}, [1, 2]):
        assert neutral.reduce(v) is None and neutral.dialect_of_answer(v) is None


@needs_real
def test_the_plain_form_says_it_too(client):
    """With JavaScript off the Diff page's form post renders the same: the sentence, and each
    side's neutral form and own text."""
    ant = ANTHROPIC.read_text(encoding="utf-8")
    chat = chat_answer("I'll get the current weather in San Francisco for you in Fahrenheit.",
                       [("get_weather", '{"city":"San Francisco","units":"celsius"}')])
    r = client.post("/diff", data={"left": ant, "right": chat, "preset": "providers"},
                    headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert 'id="across"' in page and "/parts/1/arguments/units" in page
    assert ("Anthropic called get_weather {&#34;city&#34;:&#34;San Francisco&#34;,&#34;units&#34;:"
            "&#34;fahrenheit&#34;}; Chat Completions called it with") in page
    assert "toolu_01TZR6ZrLHdpAWdmhVPuDfjQ" in page     # the left side's own text, a click away


# ----------------------------------------------------------------------------- one reader

def _at(value, pointer):
    """The node at a JSON pointer, or KeyError."""
    node = value
    for t in pointer.split("/")[1:]:
        t = t.replace("~1", "/").replace("~0", "~")
        node = node[int(t)] if isinstance(node, list) else node[t]
    return node


def test_what_the_conversation_reader_leaves_out_is_listed_not_made_a_call():
    """The neutral form is the conversation reader's turn: a Chat reasoning text is listed
    (it was silently ignored by a second reader before), a custom tool call is left out with
    its place instead of becoming a call without name or arguments, and a tool's output in an
    answer is said as one."""
    chat = json.loads(chat_answer("Paris.", [("f", '{"a": 1}')]))
    chat["choices"][0]["message"]["reasoning_content"] = "The user wants…"
    n = neutral.reduce(parse(json.dumps(chat), field=None).value)
    assert n.parts == [{"type": "text", "text": "Paris."},
                       {"type": "call", "name": "f", "arguments": {"a": 1}}]
    assert n.left_out == [{"pointer": "/choices/0/message/reasoning_content",
                           "what": "reasoning bound to its provider"}]
    assert n.source("/parts/1/arguments/a") == ("/choices/0/message/tool_calls/0/function/arguments",
                                                "/a")
    resp = json.loads(openai_answer("Done.", []))
    resp["output"].insert(1, {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_c",
                              "name": "write_sql", "input": "SELECT 1"})
    n = neutral.reduce(parse(json.dumps(resp), field=None).value)
    assert n.parts == [{"type": "text", "text": "Done."}]
    assert n.left_out == [{"pointer": "/output/0", "what": "reasoning bound to its provider"},
                          {"pointer": "/output/1",
                           "what": "a call bound to its provider, or its result"}]
    ant = {"type": "message", "role": "assistant", "stop_reason": "end_turn", "content": [
        {"type": "text", "text": "a"},
        {"type": "tool_result", "tool_use_id": "t", "content": "42"},
        {"type": "text", "text": "b"}]}
    n = neutral.reduce(parse(json.dumps(ant), field=None).value)
    assert n.parts == [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    assert n.left_out == [{"pointer": "/content/1", "what": "a tool's output"}]


@needs_real
def test_every_real_answer_reduces_with_places_that_exist():
    """Over every real recorded answer: the neutral form's calls are the conversation
    reader's calls, and each part's place and each left-out place is a node of the answer."""
    from workbench.dialects.conversation import Reading, Refused
    seen = 0
    for f in sorted(list(REAL.rglob("*.json")) + list((REAL.parent / "realworld").rglob("*.json"))):
        try:
            value = parse(f.read_text(encoding="utf-8"), field=None).value
        except Exception:
            continue
        n = neutral.reduce(value)
        if n is None:
            continue
        seen += 1
        try:    # (conversion refuses arguments that are not JSON; the Diff keeps the text)
            conv = neutral.ANSWERS[n.kind].read_conversation(value, Reading(n.dialect))
        except Refused:
            conv = None
        if conv is not None:
            assert [p["name"] for p in n.parts if p["type"] == "call"] == \
                [c.name for c in conv.calls()], f.name
        for i, p in enumerate(n.parts):
            where, inner = n.source(f"/parts/{i}/{'text' if p['type'] == 'text' else 'arguments'}")
            node = _at(value, where)
            if p["type"] == "text":
                assert isinstance(node, str) and node in p["text"], f.name
            elif inner is not None:
                assert isinstance(node, str), f.name
        for lo in n.left_out:
            _at(value, lo["pointer"])
    assert seen > 50


def test_a_big_hostile_answer_reduces_in_bounded_time():
    """40,000 blocks of thinking, text, odd values and calls with arguments that are not
    objects: one joined text per run, each oddity listed at its place, within seconds."""
    import time
    blocks: list = []
    for i in range(10_000):
        blocks += [{"type": "thinking", "thinking": "x", "signature": "s"},
                   {"type": "text", "text": f"{i} "}, [i],
                   {"type": "tool_use", "id": f"t{i}", "name": "f", "input": [i] if i % 2 else None}]
    ant = {"type": "message", "role": "assistant", "stop_reason": "end_turn", "content": blocks}
    value = parse(json.dumps(ant), field=None).value
    started = time.monotonic()
    n = neutral.reduce(value)
    took = time.monotonic() - started
    assert took < 10, took
    assert len(n.parts) == 20_000 and n.parts[0] == {"type": "text", "text": "0 "}
    assert n.parts[1] == {"type": "call", "name": "f", "arguments": None}
    assert n.parts[3]["arguments"] == [1]
    assert n.source("/parts/3/arguments/0") == ("/content/7/input/0", None)
    assert n.left_out[:2] == [{"pointer": "/content/0", "what": "reasoning bound to its provider"},
                              {"pointer": "/content/2", "what": "neither text nor a function call"}]
    assert len(n.left_out) == 20_000
