"""The Gate page's "paste anything" without JavaScript (workbench/web/paste.py): which texts are
one item and which are transcripts, streams or sessions — every recorded stream and transcript of
../shared/reference/realworld a report, every recorded single item a walk — the page's report
with each call's item text for its plain "walk this call" form, and the gallery's examples
finding what they teach (through the real transcript core)."""

from __future__ import annotations

import json

import pytest

from workbench import gallery
from workbench.gallery import CASES, SESSION_CASES, TRANSCRIPT_CASES
from workbench.gallery.providers import PROVIDER_CASES
from workbench.gate import handle as gate
from workbench.limits import Limits
from workbench.transcript import analyse
from workbench.web.paste import one_item, page_context, report


def test_recorded_streams_and_transcripts_are_reports(shared):
    real = shared / "reference" / "realworld"
    files = sorted((real / "streams").glob("0*")) + sorted((real / "transcripts").glob("*.json"))
    assert len(files) > 100
    items = [f.name for f in files if one_item(f.read_text(encoding="utf-8"))]
    assert items == []


def test_recorded_single_items_are_walked(shared):
    for line in (shared / "reference" / "realworld" / "items.jsonl").read_text().splitlines():
        rec = json.loads(line)
        text = rec.get("text") or json.dumps(rec["item"], indent=2)
        # a Chat Completions *response* holds its calls (a transcript); everything else is one item
        assert one_item(text) == (rec["kind"] != "chat_completion"), rec["source"]


@pytest.mark.parametrize("text, expected", [
    ('{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}', True),
    ('{\n  "type": "function_call",\n}', True),             # broken: the gate says where
    ('{"a":\n 1\n,', True),                                  # a bare literal line is not JSON Lines
    ("", True),
    ('[{"type": "function_call"}]', False),
    ('{"output": [], "status": "completed"}', False),
    ('{"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text"}]}', True),
    ('{"session": {"items": []}, "events": []}', False),
    ('{"type": "response.created", "response": {}}', False),  # one event
    ('data: {"type": "response.created"}\n\n', False),
    ('junk 0: event: response.created\ndata: {}\n', False),
    ('{"type": "response.created", "resp\n{"type": "response.completed"}\n', False),   # first line cut
])
def test_one_item_or_not(text, expected):
    assert one_item(text) is expected


def test_report_gives_each_call_its_item_for_the_walk_form():
    case = next(c for c in CASES if c["name"] == "whole-response")
    r = report({"item": case["item"], "schema": case["schema"]}, Limits())
    assert r["kind"] == "response"
    verdicts = [gate({"item": c["walk_item"], "schema": case["schema"]}, Limits())["verdict"] for c in r["calls"]]
    assert verdicts == [c["verdict"] for c in r["calls"]] == ["ok", "arguments_schema"]
    chat = next(c for c in CASES if c["name"] == "chat-completion")
    r = report({"item": chat["item"], "schema": chat["schema"]}, Limits())
    walked = json.loads(r["calls"][0]["walk_item"])
    assert walked["type"] == "function_call" and walked["call_id"] == "call_abc123"
    # a session's tools come from agent.tools for the walk forms
    s = report({"item": SESSION_CASES[0]["text"]}, Limits())
    assert s["kind"] == "agents_session" and "lookup_order" in s["walk_schema"]


def test_report_of_one_item_goes_back_to_the_gate():
    assert report({"item": CASES[0]["item"]}, Limits()) is None


def test_the_stream_cases_find_what_they_teach():
    streams = [c for c in TRANSCRIPT_CASES if c["group"] == "stream"]
    assert "stream-arguments-mismatch" in {c["name"] for c in streams}   # was the page's own
    for case in streams:
        r = analyse(case["text"])
        assert r["kind"] in ("response_stream", "chat_stream")
        assert set(case["findings"]) <= {f["code"] for f in r["findings"]}, case["name"]


def test_gallery_groups():
    ctx = page_context({})
    cases, groups = ctx["gallery"], ctx["gallery_groups"]
    assert [g["key"] for g in groups] == ["item", "transcript", "stream", "session"]
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names))                 # each case once
    assert set(names) == {c["name"] for c in CASES + TRANSCRIPT_CASES + SESSION_CASES +
                          PROVIDER_CASES}
    assert cases is gallery.ALL
    assert sum(len(g["cases"]) for g in groups) == len(cases)
    by = {c["name"]: g["key"] for g in groups for c in g["cases"]}
    assert by["whole-response"] == by["transcript-near-miss"] == "transcript"
    assert by["stream-cut-off"] == by["stream-arguments-mismatch"] == "stream"
    assert by[SESSION_CASES[0]["name"]] == "session"
    assert all(c.get("teaches") for c in cases)
