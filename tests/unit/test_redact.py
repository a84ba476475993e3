"""Redaction (issue 27): typed placeholders, equality-preserving per document and across its
lines, JSON inside strings redacted inside, numbers on request, the layout kept; every
recording of ../shared/reference/realworld* redacted reads the same through the transcript core
and leaks none of its values; bounded by the limits and the work deadline."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import run_workbench

from workbench.errors import WorkbenchError
from workbench.jsontext import dumps_value
from workbench.limits import DEFAULT_LIMITS
from workbench.redact import INVENTED_ID, TOOL_NAME_KEYS, handle, redact, type_word_key
from workbench.transcript import handle as transcript


def red(text, **kw):
    return redact(text, **kw)["text"]


# ----------------------------------------------------------------------------- placeholders

def test_distinct_ids_get_distinct_placeholders_equal_ones_equal():
    # the two real call ids, which the page's first redaction merged
    a, b = "call_J7YUh2vX0pQeKq1mTnR8sWzL", "call_bppU4cF9dLxM2aYkVt6eNqHz"
    doc = json.dumps([{"call_id": a}, {"call_id": b}, {"call_id": a}])
    out = json.loads(red(doc))
    assert out[0]["call_id"] == out[2]["call_id"] != out[1]["call_id"]
    assert out[0]["call_id"] == "call_" + "0" * 23 + "1"
    assert out[1]["call_id"] == "call_" + "0" * 23 + "2"
    assert all(len(o["call_id"]) == len(a) for o in out)


def test_short_digit_ids_stay_distinct():
    out = json.loads(red(json.dumps({"ids": ["1", "2", "3", "4", "5", "1"]})))
    assert out["ids"][:5] == ["0", "1", "2", "3", "4"] and out["ids"][5] == "0"


def test_the_typed_placeholders_keep_shape_and_length():
    doc = {"id": "call_3c91", "mail": "jane.doe@corp.com", "url": "https://host.example.com/a/b?q=1",
           "uuid": "3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b", "at": "2026-12-02T00:10:00Z",
           "text": "Hello World 42", "other": "Jello World 42"}
    out = json.loads(red(json.dumps(doc)))
    assert out["id"] == "call_0001"
    assert out["mail"] == "userxxxx@example.invalid"
    assert out["url"] == "https://example.invalid/x/x?x=0"
    assert out["uuid"] == "00000000-0000-0000-0000-000000000000"
    assert out["at"] == "0000-00-00T00:00:00Z"
    assert out["text"] == "Xxxxx Xxxxx 00"
    assert out["other"] == "Xxxxx Xxxxx 01"    # the same shape, a distinct value: its variant


def test_keys_type_words_and_tool_names_are_kept():
    doc = {"type": "function_call", "role": "assistant", "status": "completed", "name": "get_weather",
           "call_id": "call_1", "arguments": "{}", "user": {"name": "Jane Doe"}}
    out = json.loads(red(json.dumps(doc)))
    assert (out["type"], out["role"], out["status"], out["name"]) == (
        "function_call", "assistant", "completed", "get_weather")
    assert out["user"] == {"name": "Xxxx Xxx"}   # a person's name is not a tool's
    assert set(out) == set(doc)


def test_an_invented_id_keeps_its_tool_name_and_counts_its_number():
    # OTel's Vertex instrumentation makes ids up as `<tool>_<n>`: the transcript reports
    # invented_call_id only while the id still starts with the call's name
    part = '{{"arguments": {{"location": "{loc}"}}, "name": "get_current_weather", "id": "{id}"}}'
    doc = "[" + ", ".join(part.format(loc=loc, id=i) for loc, i in (
        ("New Delhi", "get_current_weather_7"), ("Paris", "get_current_weather_3"),
        ("New Delhi", "get_current_weather_7"))) + "]"
    out = json.loads(red(doc))
    assert [o["id"] for o in out] == ["get_current_weather_0", "get_current_weather_1",
                                      "get_current_weather_0"]
    # the id before its tool's name (a second pass knows the names), and a `<word>_<n>` that
    # names no tool is an id like any other
    out = json.loads(red(json.dumps([{"id": "lookup_12", "type": "tool_call", "name": "lookup",
                                      "arguments": "{}"}, {"ref": "secret_42"}])))
    assert out[0]["id"] == "lookup_00" and out[1]["ref"] == "xxxxxx_00"


def test_type_word_members_inside_arguments_are_the_callers_data():
    essay = "This 500-word essay explores three companion animals"
    anthropic = {"type": "tool_use", "id": "toolu_01X", "name": "submit_analysis",
                 "input": {"summary": essay, "status": "Alice", "type": "secret"}}
    out = json.loads(red(json.dumps({"role": "assistant", "content": [anthropic]})))["content"][0]
    assert out["type"] == "tool_use" and out["name"] == "submit_analysis"
    assert out["input"] == {"summary": "Xxxx 000-xxxx xxxxx xxxxxxxx xxxxx xxxxxxxxx xxxxxxx",
                            "status": "Xxxxx", "type": "xxxxxx"}
    chat = {"type": "function", "function": {"name": "f", "arguments": json.dumps(
        {"mode": "private", "role": "ceo"})}}
    out = json.loads(red(json.dumps(chat)))
    assert json.loads(out["function"]["arguments"]) == {"mode": "xxxxxxx", "role": "xxx"}
    # a type word is one word: an error message under a `…type` member is text
    out = json.loads(red(json.dumps({"error.type": "Permission denied", "finish_type": "stop"})))
    assert out == {"error.type": "Xxxxxxxxxx xxxxxx", "finish_type": "stop"}


def test_flattened_span_attributes_keep_roles_and_tool_names_not_code_names():
    attrs = {"llm.input_messages.2.message.role": "tool", "llm.finish_reason": "tool_calls",
             "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "get_weather",
             "gen_ai.tool.name": "get_weather", "code.function.name": "acme.billing.charge_card",
             "llm.input_messages.0.message.content": "hi there"}
    out = json.loads(red(json.dumps(attrs)))
    assert out == {**attrs, "code.function.name": "xxxx.xxxxxxx.xxxxxx_xxxx",
                   "llm.input_messages.0.message.content": "xx xxxxx"}


def test_json_inside_a_string_is_redacted_inside_and_stays_json():
    args = '{"city": "Paris", "when": "tomorrow \\"early\\"", "n": 12, "ok": true, "tags": ["a\\u00e9"]}'
    out = json.loads(red(json.dumps({"type": "function_call", "name": "f", "arguments": args})))
    inner = json.loads(out["arguments"])
    assert inner == {"city": "Xxxxx", "when": 'xxxxxxxx "xxxxx"', "n": 12, "ok": True, "tags": ["xx"]}
    other = json.loads(red(json.dumps({"output": '{"secret": "abcdef", "id": "call_9a1"}'})))
    assert json.loads(other["output"]) == {"secret": "xxxxxx", "id": "call_001"}


def test_numbers_only_on_request_and_exact_otherwise():
    text = '{"a": 1.10, "b": 12345678901234567890123, "c": -0.0125, "d": 1e400, "e": 1741476542, "f": 1741476543}'
    assert red(text) == text
    out = redact(text, numbers=True)
    assert out["text"] == ('{"a": 1.00, "b": 10000000000000000000000, "c": -0.0000, "d": 1e400, '
                           '"e": 1000000000, "f": 1000000001}')
    assert out["counts"]["number"] == 6 and out["replaced"] == 6


def test_layout_kept_line_for_line():
    text = '{\n  "a": "secret value",\n\n  "b": [1, "call_77ab"],\n  "c": null\n}\n'
    out = red(text)
    assert out == '{\n  "a": "xxxxxx xxxxx",\n\n  "b": [1, "call_0001"],\n  "c": null\n}\n'


def test_equal_across_json_lines_and_sse_events():
    lines = "\n".join(json.dumps({"call_id": c, "text": t}) for c, t in
                      [("call_ab12", "one"), ("call_cd34", "two"), ("call_ab12", "one")])
    r = redact(lines)
    got = [json.loads(x) for x in r["text"].splitlines()]
    assert r["form"] == "jsonl"
    assert got[0] == got[2] != got[1]
    sse = ("event: response.output_item.added\n"
           'data: {"type":"response.output_item.added","item":{"id":"fc_1a2b","call_id":"call_x9z"}}\n\n'
           "event: response.output_item.done\n"
           'data: {"type":"response.output_item.done","item":{"id":"fc_1a2b","call_id":"call_x9z"}}\n\n'
           "data: [DONE]\n")
    r = redact(sse)
    assert r["form"] == "sse"
    assert r["text"] == sse.replace("fc_1a2b", "fc_0001").replace("call_x9z", "call_001")


def test_streamed_argument_pieces_join_up_to_the_redacted_whole():
    whole = '{"location": "San Francisco, CA", "unit": "c\\u00e9lsius", "days": 3}'
    pieces = [whole[:7], whole[7:20], whole[20:40], whole[40:]]
    events = [{"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0,
               "delta": p} for p in pieces]
    events.append({"type": "response.function_call_arguments.done", "item_id": "fc_1",
                   "output_index": 0, "arguments": whole})
    text = "\n".join(json.dumps(e) for e in events)
    out = [json.loads(x) for x in red(text).splitlines()]
    joined = "".join(e["delta"] for e in out[:-1])
    assert joined == out[-1]["arguments"]
    assert json.loads(joined) == {"location": "Xxx Xxxxxxxxx, XX", "unit": "c\u00e9lsius".replace(
        "c\u00e9lsius", "xxxxxxx"), "days": 3}


def test_a_repeated_placeholder_value_is_not_its_own_original():
    # "xxxx" is its own shape: it gets a variant, never itself
    out = json.loads(red(json.dumps({"a": "xxxx", "b": "abcd"})))
    assert out["a"] != "xxxx" and out["b"] != out["a"]


# ----------------------------------------------------------------------------- the endpoint

def test_api_answers_text_and_replaced(client):
    r = client.post("/api/redact", json={"text": '{"a": "secret", "b": 5}', "numbers": True})
    assert r.status_code == 200
    body = r.get_json()
    assert body["text"] == '{"a": "xxxxxx", "b": 1}' and body["replaced"] == 2
    assert body["counts"] == {"text": 1, "number": 1} and body["form"] == "json"


def test_api_refusals_are_located(client):
    r = client.post("/api/redact", json={"text": '{"a": "x",\n "b": }'})
    assert r.status_code == 422
    err = r.get_json()["error"]
    assert (err["code"], err["field"], err["line"], err["column"]) == ("parse_error", "text", 2, 7)
    r = client.post("/api/redact", json={})
    assert r.status_code == 400 and r.get_json()["error"]["code"] == "missing_field"
    r = client.post("/api/redact", json={"text": "{}", "numbers": "yes"})
    assert r.status_code == 400 and r.get_json()["error"] == {
        "code": "bad_type", "message": "'numbers' must be true or false", "field": "numbers"}


def test_cli_redacts_a_file(files):
    path = files("t.json", '{"call_id": "call_3c91", "n": 7}\n')
    code, out, err = run_workbench("redact", path)
    assert (code, out) == (0, '{"call_id": "call_0001", "n": 7}\n')
    assert "1 values replaced (json)" in err
    code, out, _ = run_workbench("redact", "--numbers", "--json", path)
    assert code == 0 and json.loads(out)["text"] == '{"call_id": "call_0001", "n": 1}\n'
    code, _, err = run_workbench("redact", files("bad.json", '{"a": '))
    assert code == 2 and "bad.json:1:" in err


# ----------------------------------------------------------------------------- hostile input

def test_too_deep_is_refused_at_its_place():
    text = "[" * 600 + "]" * 600
    with pytest.raises(WorkbenchError) as e:
        handle({"text": text}, DEFAULT_LIMITS)
    assert (e.value.code, e.value.field, e.value.line) == ("too_deep", "text", 1)


def test_json_nested_in_strings_many_times_is_bounded():
    # each level of JSON-in-a-string doubles the escapes: 20 levels, ~1 MB of backslashes
    s = '"secret"'
    for _ in range(18):
        s = json.dumps(s)
    start = time.monotonic()
    out = red('{"a": %s}' % s)
    assert time.monotonic() - start < 5
    assert "secret" not in out and len(out) == len('{"a": %s}' % s)


def test_the_work_deadline_stops_a_large_redaction():
    text = json.dumps([f"value number {i}" for i in range(300_000)])
    with pytest.raises(WorkbenchError) as e:
        handle({"text": text}, DEFAULT_LIMITS.with_(work_timeout=0.05))
    assert (e.value.code, e.value.field) == ("timeout", "text")


def test_many_distinct_values_of_one_shape_stay_distinct_and_fast():
    values = [f"k{i:05d}"[::-1] for i in range(20_000)]   # "00000k" … all one shape
    start = time.monotonic()
    out = json.loads(red(json.dumps(values)))
    assert time.monotonic() - start < 10
    assert len(set(out)) == len(values)


# ----------------------------------------------------------------------------- the recordings

def recordings(shared: Path) -> list[Path]:
    out = []
    for folder in sorted(shared.glob("reference/realworld*")):
        out += sorted(p for p in folder.rglob("*") if p.is_file()
                      and p.suffix in (".json", ".txt", ".sse", ".jsonl")
                      and p.name not in ("index.jsonl", "items.jsonl"))
    return out


def summary(answer: dict):
    return (answer["kind"],
            [(c.get("name"), c.get("call_id") is None, c["verdict"], c.get("role")) for c in answer["calls"]],
            sorted(Counter(f["code"] for f in answer["findings"]).items()))


def strings_of(text: str):
    """Every key and string value of a text read as the redactor reads it (a document, its lines,
    an SSE stream's data), JSON inside strings included: (keys, values, kept values)."""
    keys, values, kept = set(), set(), set()
    pieces = []   # the strings under argument members, in order: streamed pieces join up

    def walk(v, key=None, data=False):
        # data: inside a call's arguments, where no value is a type word or a tool's name
        if isinstance(v, dict):
            for k, c in v.items():
                keys.add(k)
                walk(c, k, data or k in ("arguments", "args") or (k == "input" and "name" in v))
        elif isinstance(v, list):
            for c in v:
                walk(c, key, data)
        elif isinstance(v, str):
            values.add(v)
            if key in ("arguments", "delta", "partial_json"):
                pieces.append(v)
            if not data and (type_word_key(key) and (key == "pattern" or not re.search(r"\s", v))
                             or key == "name" or (key or "").endswith(TOOL_NAME_KEYS)):
                kept.add(v)   # type words (one word each) and (what may be) tools' names
            if v.strip()[:1] in "{[":
                try:
                    walk(json.loads(v), key, data)
                except ValueError:
                    pass

    def one(t):
        try:
            walk(json.loads(t))
        except ValueError:
            pass
    one(text.lstrip("\ufeff"))
    for line in text.splitlines():
        line = line.strip()
        one(line[5:].strip() if line.startswith("data:") else line)
    keys |= set(re.findall(r'"((?:[^"\\]|\\.)*)"\s*:', "".join(pieces)))
    return keys, values, kept


def only_keys(v: str, keys: set) -> bool:
    """Every word of ``v`` is (part of) a key: nothing of it is a value."""
    return all(any(w in k for k in keys) for w in re.findall(r"[^\W\d_]+", v))


def test_every_recording_redacted_reads_the_same_and_leaks_nothing(shared):
    files = recordings(shared)
    assert len(files) > 250
    leaks, changed = [], []
    for path in files:
        text = path.read_text(encoding="utf-8")
        before = transcript({"text": text}, DEFAULT_LIMITS)
        r = redact(text)
        after = transcript({"text": r["text"]}, DEFAULT_LIMITS)
        if summary(before) != summary(after):
            changed.append((path.name, summary(before), summary(after)))
        keys, values, kept = strings_of(text)
        # a stream's rebuilt calls: the keys of arguments that came only in pieces
        keys |= strings_of(dumps_value(before.get("items") or []).decode())[0]
        tool_names = {c.get("name") for c in before["calls"]}
        # an id the instrumentation made up (`get_current_weather_0`) is a tool's name and a
        # counter: redaction keeps that shape so the transcript still reports invented_call_id
        invented = {v for v in values if (m := INVENTED_ID.fullmatch(v)) and m[1] in tool_names | kept}
        allowed = keys | kept | tool_names | invented
        for v in values - allowed:
            if only_keys(v, keys):   # arguments of keys and numbers only ('{"a": 1231}', '{"ci')
                continue
            if len(v) > 3 and (json.dumps(v) in r["text"] or (len(v) >= 8 and v in r["text"])):
                leaks.append((path.name, v[:60]))
    print(f"{len(files)} recordings redacted; {len(changed)} read differently, {len(leaks)} leaks")
    assert changed == []
    assert sorted(set(leaks)) == []


def test_keep_names_more_members_to_keep(client):
    r = client.post("/api/redact", json={"text": '{"model": "gpt-5", "note": "gpt-5"}', "keep": ["model"]})
    assert r.get_json()["text"] == '{"model": "gpt-5", "note": "xxx-0"}'
    r = client.post("/api/redact", json={"text": "{}", "keep": [1]})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "keep"
