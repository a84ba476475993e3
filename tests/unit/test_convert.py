"""Conversion between dialects (issue 24, ``providers-rules.md`` "Replaying to another provider"):
round trips over every shared transcript, exact arguments, pairs kept, refusals at their place.

How a round trip is compared: the source text A (dialect a) is converted to dialect b (r1), and
r1's text back to a (r2, told ``from=b``: a text-only Anthropic request reads as Chat without
it).  Both A and r2's text are read by dialect a's own reader into the neutral conversation and
written in its canonical form (:func:`workbench.dialects.conversation.canonical`: the system
text, the turns merged by role, each call as ``[call, id, name, exact arguments text]``, each
output as ``[output, id, content, is_error]``, texts, images by URL, the tools).  What r1 lists
as ``not_portable`` is taken out of A's form first: the reader already leaves out what is bound
to the source (reasoning, thinking, signatures, provider calls, fields), and ``comparable``'s
``minus`` takes out what the writer of b could not write (an image, an ``is_error`` flag).  When
r2 moved tool results before other blocks (Anthropic's rule, said in its ``notes`` as
``result_moved``), A's user turns are compared with their outputs first.  A stream is compared
against its rebuilt conversation written in its own dialect (its places are in the rebuilt
items, not in the text).  The two forms must be equal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.convert import TARGETS, comparable, convert
from workbench.errors import WorkbenchError
from workbench.gallery import PROVIDER_CASES, TRANSCRIPT_CASES, text_of
from workbench.transcript import analyse

FOLDERS = ("realworld/transcripts", "realworld/streams", "realworld2/anthropic",
           "realworld2/gemini")


def _round_trips(sources) -> dict:
    """Every source converted to every other dialect and back; the counts, and what failed."""
    counts = {"sources": 0, "converted": 0, "round_trips": 0, "calls_compared": 0,
              "refused": [], "not_convertible": 0, "failed": [], "unclean": []}
    for name, text in sources:
        counts["sources"] += 1
        try:
            first = convert(text, "open_responses")
        except WorkbenchError as exc:
            if exc.code == "not_convertible":
                counts["not_convertible"] += 1
            else:
                counts["refused"].append((name, exc.code, exc.line, exc.column))
            continue
        counts["converted"] += 1
        a = first["from"]
        # the source's own findings, by its own dialect's rules (the transcript core)
        source_errors = analyse(text)["summary"]["errors"]
        rebuilt = first["summary"]["rebuilt"]
        for b in TARGETS:
            if b == a:
                continue
            r1 = convert(text, b)
            r2 = convert(r1["text"], a, source=b)
            stored = any(e["what"] == "stored_history" for e in r1["not_portable"])
            if not r1["clean"] and not source_errors and not stored:
                counts["unclean"].append((name, a, b, [f["code"] for f in r1["findings"]
                                                       if f["severity"] == "error"]))
            moved = any(n["what"] == "result_moved" for n in r2["notes"])
            if rebuilt:
                base = comparable(convert(text, a)["text"], a, results_first=moved)
            else:
                base = comparable(text.lstrip("\ufeff"), a, r1["not_portable"],
                                  results_first=moved)
            got = comparable(r2["text"], a)
            if base != got:
                counts["failed"].append((name, a, b, json.dumps(base)[:300],
                                         json.dumps(got)[:300]))
            else:
                counts["round_trips"] += 1
                counts["calls_compared"] += sum(1 for _r, parts in got["turns"] for p in parts
                                                if p[0] == "call")
    return counts


def _check(counts: dict, label: str) -> None:
    print(f"\n{label}: {counts['sources']} sources, {counts['converted']} converted, "
          f"{counts['round_trips']} round trips equal ({counts['calls_compared']} calls compared), "
          f"{len(counts['refused'])} refused at their place, {counts['not_convertible']} not "
          f"convertible kinds, {len(counts['failed'])} failed, {len(counts['unclean'])} unclean")
    assert not counts["failed"], counts["failed"][:3]
    assert not counts["unclean"], counts["unclean"][:3]
    assert counts["round_trips"] >= 3 * counts["converted"] - 3 * len(counts["refused"]) - 3
    assert counts["calls_compared"] > 0


def test_gallery_transcripts_round_trip_through_every_dialect():
    sources = [(c["name"], text_of(c)) for c in TRANSCRIPT_CASES + PROVIDER_CASES]
    counts = _round_trips(sources)
    _check(counts, "gallery")
    # every dialect's cases took part (a gallery that stopped converting would show here)
    froms = {convert(t, "chat")["from"] for _n, t in sources
             if _kind_converts(t)}
    assert froms == {"open_responses", "chat", "anthropic", "gemini"}


def _kind_converts(text: str) -> bool:
    try:
        convert(text, "chat")
    except WorkbenchError:
        return False
    return True


def test_real_recordings_round_trip_through_every_dialect(shared: Path):
    sources = []
    for folder in FOLDERS:
        for f in sorted((shared / "reference" / folder).iterdir()):
            if f.name != "index.jsonl" and f.is_file():
                sources.append((f.name, f.read_text(encoding="utf-8")))
    counts = _round_trips(sources)
    _check(counts, "real recordings")
    # a refusal is a call whose arguments are not JSON: the source's own transcript says so too
    texts = dict(sources)
    for name, code, _line, _column in counts["refused"]:
        assert code == "arguments_parse", (name, code)
        verdicts = {c["verdict"] for c in analyse(texts[name])["calls"]}
        assert "arguments_parse" in verdicts, (name, verdicts)


# --------------------------------------------------------------------------- exact arguments

ARGS = ('{"n":12345678901234567890123,"d":1.10,"e":1E+400,"z":-0,"neg":-0.000,'
        '"s":"Zürich ☃ 東京","nested":{"l":[1.50,2e-7]}}')


def _or_request(arguments: str) -> str:
    return json.dumps({"input": [
        {"type": "message", "role": "user", "content": "go"},
        {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": arguments},
        {"type": "function_call_output", "call_id": "call_1", "output": "done"}]},
        ensure_ascii=False)


@pytest.mark.parametrize("via", ["anthropic", "gemini", "chat"])
def test_arguments_keep_their_exact_text_across_dialects(via):
    r1 = convert(_or_request(ARGS), via)
    for token in ("12345678901234567890123", "1.10", "1E+400", "-0", "-0.000", "Zürich ☃ 東京",
                  "1.50", "2e-7"):
        assert token in r1["text"]
    back = convert(r1["text"], "open_responses", source=via)
    items = json.loads(back["text"])["input"]
    call = next(it for it in items if it["type"] == "function_call")
    assert call["arguments"] == ARGS   # compact in, compact out: the very same text
    assert call["call_id"] == "call_1"
    out = next(it for it in items if it["type"] == "function_call_output")
    assert out["call_id"] == "call_1" and out["output"] == "done"
    assert r1["clean"] and back["clean"]


def test_anthropic_input_object_becomes_the_exact_arguments_text():
    text = ('{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":'
            '"tool_use","id":"toolu_1","name":"f","input":{"big":98765432109876543210,'
            '"price":1.10,"city":"Malmö"}}]},{"role":"user","content":[{"type":"tool_result",'
            '"tool_use_id":"toolu_1","content":"ok","is_error":true}]}]}')
    r = convert(text, "chat")
    msgs = json.loads(r["text"])["messages"]
    assert msgs[1]["tool_calls"][0]["function"]["arguments"] == \
        '{"big":98765432109876543210,"price":1.10,"city":"Malmö"}'
    assert msgs[2] == {"role": "tool", "tool_call_id": "toolu_1", "content": "ok"}
    lost = {e["what"]: e for e in r["not_portable"]}
    assert lost["is_error"]["pointer"] == "/messages/2/content/0/is_error"
    # placed at the member's name in the source
    assert (lost["is_error"]["line"], lost["is_error"]["column"]) == (1, text.index(
        '"is_error"') + 1)
    # Gemini has a form for the error flag: {"error": text}, read back as is_error
    g = convert(text, "gemini")
    resp = json.loads(g["text"])["contents"][2]["parts"][0]["functionResponse"]
    assert resp == {"name": "f", "response": {"error": "ok"}, "id": "toolu_1"}
    assert "is_error" not in {e["what"] for e in g["not_portable"]}


# --------------------------------------------------------------------------- refusals

def test_duplicate_key_in_arguments_refuses_at_the_arguments():
    text = _or_request('{"city":"Paris","city":"Lyon"}')
    with pytest.raises(WorkbenchError) as e:
        convert(text, "anthropic")
    exc = e.value
    assert exc.status == 422 and exc.code == "duplicate_key"
    assert exc.extra["pointer"] == "/input/1/arguments"
    assert exc.column == text.index('"arguments"') + 1 and exc.line == 1
    assert "'city'" in exc.message


def test_duplicate_key_in_the_text_refuses_at_its_place():
    text = '{"messages": [\n  {"role": "user", "content": "a", "content": "b"}]}'
    with pytest.raises(WorkbenchError) as e:
        convert(text, "gemini")
    assert e.value.code == "duplicate_key" and e.value.status == 422
    assert (e.value.line, e.value.column) == (2, text.split("\n")[1].index('"content": "b"') + 1)


def test_arguments_that_are_not_json_refuse_the_conversion():
    with pytest.raises(WorkbenchError) as e:
        convert(_or_request('{"city": Paris}'), "gemini")
    assert e.value.code == "arguments_parse" and e.value.extra["pointer"] == "/input/1/arguments"


def test_kinds_that_do_not_convert_say_which_do():
    session = json.dumps({"id": "sess_1", "agent": {"id": "a"}, "required_actions": [
        {"type": "function_call", "turn_id": "t", "call_id": "c", "name": "f", "arguments": {}}]})
    with pytest.raises(WorkbenchError) as e:
        convert(session, "chat")
    assert e.value.code == "not_convertible" and e.value.status == 422
    assert "Anthropic Messages" in e.value.message and "stream" in e.value.message
    assert e.value.extra["kind"] == "agents_session"
    with pytest.raises(WorkbenchError) as e:
        convert("{}", "sideways")
    assert e.value.status == 400 and e.value.field == "to"


# --------------------------------------------------------------------------- what cannot travel

def test_reasoning_thinking_signatures_and_provider_calls_are_listed_in_the_source():
    text = json.dumps({"model": "claude-x", "max_tokens": 100, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control":
                                      {"type": "ephemeral"}}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "hmm", "signature": "c2ln"},
            {"type": "server_tool_use", "id": "srv_1", "name": "web_search", "input": {"q": "x"}},
            {"type": "web_search_tool_result", "tool_use_id": "srv_1", "content": []},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": "ok"}]}]}, indent=1)
    r = convert(text, "open_responses")
    by = {(e["what"], e["pointer"]) for e in r["not_portable"]}
    assert ("thinking", "/messages/1/content/0") in by
    assert ("provider_call", "/messages/1/content/1") in by
    assert ("provider_call", "/messages/1/content/2") in by
    assert ("field", "/messages/0/content/0/cache_control") in by
    assert ("field", "/model") in by and ("field", "/max_tokens") in by
    lines = text.split("\n")
    for e in r["not_portable"]:   # each place is the member's own line in the source
        assert lines[e["line"] - 1][e["column"] - 1] in '"{['
    assert r["clean"]
    items = json.loads(r["text"])["input"]
    assert [it["type"] for it in items] == ["message", "function_call", "function_call_output"]


def test_gemini_calls_without_ids_get_ids_by_order_and_say_so():
    text = json.dumps({"contents": [
        {"role": "user", "parts": [{"text": "multiply"}]},
        {"role": "model", "parts": [
            {"functionCall": {"name": "multiply", "args": {"x": 5}}, "thoughtSignature": "c2ln"},
            {"functionCall": {"name": "add", "args": {"x": 1}}}]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "add", "response": {"result": 2}}},
            {"functionResponse": {"name": "multiply", "response": {"result": 25}}}]}]})
    r = convert(text, "open_responses")
    items = json.loads(r["text"])["input"]
    calls = {it["name"]: it["call_id"] for it in items if it["type"] == "function_call"}
    assert calls == {"multiply": "gemini_call_1", "add": "gemini_call_2"}
    outs = [(it["call_id"], it["output"]) for it in items if it["type"] == "function_call_output"]
    assert outs == [("gemini_call_2", '{"result":2}'), ("gemini_call_1", '{"result":25}')]
    assert [n["call_id"] for n in r["notes"] if n["what"] == "call_id_assigned"] == \
        ["gemini_call_1", "gemini_call_2"]
    assert {e["what"] for e in r["not_portable"]} == {"thought_signature"}
    assert r["clean"]
    a = convert(text, "anthropic")
    assert a["clean"], a["findings"]


def test_a_stream_is_rebuilt_then_converted():
    from workbench.gallery import by_name
    case = next(c for c in PROVIDER_CASES if c["name"].startswith("anthropic-stream"))
    r = convert(text_of(by_name(case["name"])), "open_responses")
    assert r["summary"]["rebuilt"] and r["from"] == "anthropic"
    assert all(e["line"] is None and e["rebuilt"] for e in r["not_portable"])
    assert any(it.get("type") == "function_call" for it in json.loads(r["text"])["input"])


def test_images_travel_where_the_target_has_their_form():
    png = "iVBORw0KGgo="
    text = json.dumps({"input": [{"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "what is this?"},
        {"type": "input_image", "image_url": f"data:image/png;base64,{png}"},
        {"type": "input_image", "image_url": "https://example.com/cat.jpg"}]}]})
    a = json.loads(convert(text, "anthropic")["text"])["messages"][0]["content"]
    assert a[1] == {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                "data": png}}
    assert a[2] == {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.jpg"}}
    c = json.loads(convert(text, "chat")["text"])["messages"][0]["content"]
    assert c[2] == {"type": "image_url", "image_url": {"url": "https://example.com/cat.jpg"}}
    g = convert(text, "gemini")
    parts = json.loads(g["text"])["contents"][0]["parts"]
    assert parts[1] == {"inlineData": {"mimeType": "image/png", "data": png}}
    assert len(parts) == 2   # Gemini takes no image by a web address: listed, at its place
    [lost] = g["not_portable"]
    assert lost["what"] == "image" and lost["pointer"] == "/input/0/content/2"
    # and back: the same conversation minus the image that did not travel
    back = convert(g["text"], "open_responses")
    assert comparable(back["text"], "open_responses") == \
        comparable(text, "open_responses", g["not_portable"])


def test_the_api_list_form_converts_and_a_log_of_exchanges_is_refused():
    items = [{"type": "message", "role": "user", "content": "hi"},
             {"type": "function_call", "call_id": "c", "name": "f", "arguments": '{"a":1.10}'},
             {"type": "function_call_output", "call_id": "c", "output": "x"}]
    r = convert(json.dumps({"object": "list", "data": items}), "anthropic")
    assert r["clean"] and r["summary"]["calls"] == 1 and r["not_portable"] == []
    assert '"a": 1.10' in r["text"]
    log = json.dumps([{"object": "response", "output": items[1:2]}, {"input": items[2:]}])
    with pytest.raises(WorkbenchError) as e:
        convert(log, "chat")
    assert e.value.code == "not_convertible" and e.value.status == 422


def test_json_lines_of_items_say_how_to_convert_them():
    lines = "\n".join(json.dumps(it) for it in [
        {"type": "message", "role": "user", "content": "hi"},
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}])
    with pytest.raises(WorkbenchError) as e:
        convert(lines, "gemini")
    assert e.value.code == "not_convertible" and "one JSON array" in e.value.message
    r = convert("[" + lines.replace("\n", ",") + "]", "gemini")   # as the message says
    assert r["summary"]["calls"] == 1


def test_not_portable_is_listed_up_to_its_bound_and_counted_whole():
    from workbench.convert.core import MAX_LISTED
    n = MAX_LISTED + 200
    items = []
    for i in range(n):
        items += [{"type": "reasoning", "id": f"rs_{i}", "summary": []},
                  {"type": "function_call", "call_id": f"c{i}", "name": "f", "arguments": "{}"},
                  {"type": "function_call_output", "call_id": f"c{i}", "output": "ok"}]
    r = convert(json.dumps({"input": items}), "gemini")
    assert len(r["not_portable"]) == MAX_LISTED
    assert r["summary"]["not_portable"] == n == r["summary"]["not_portable_by_what"]["reasoning"]
    assert r["truncated"]["not_portable"] == n - MAX_LISTED
    assert r["summary"]["calls"] == n


@pytest.mark.parametrize("to, field", [("anthropic", "system"), ("gemini", "systemInstruction")])
def test_a_system_message_after_the_start_moves_to_the_system_field_and_says_where(to, field):
    text = ('{"model": "m", "input": [\n'
            ' {"role": "system", "content": "be brief"},\n'
            ' {"role": "user", "content": "hi"},\n'
            ' {"role": "system", "content": "answer in French"}\n]}')
    r = convert(text, to)
    moved = [n for n in r["notes"] if n["what"] == "system_moved"]
    assert [(n["pointer"], n["line"]) for n in moved] == [("/input/2", 4)]   # the first one was not moved
    assert moved[0]["message"].endswith("only: this system message was moved there from the "
                                        "middle of the conversation.")
    out = json.loads(r["text"])
    texts = [out[field]] if to == "anthropic" and type(out[field]) is str else \
        [b["text"] for b in (out[field] if to == "anthropic" else out[field]["parts"])]
    assert texts == ["be brief", "answer in French"]
    assert "answer in French" not in json.dumps(out["messages" if to == "anthropic" else "contents"])
