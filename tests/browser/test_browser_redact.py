"""Copy redacted (issue 27) in Chromium through the real server: the page's preview comes from
the redaction core (POST /api/redact) and stays a diff against the original; distinct ids stay
distinct (the first redaction merged them, and a clean transcript's copy then showed
duplicate_call_id), and the copy reads the same through the transcript core."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from test_browser_everyday import copied

pytestmark = pytest.mark.browser

A, B = "call_J7YUh2vX0pQeKq1mTnR8sWzL", "call_bppU4cF9dLxM2aYkVt6eNqHz"
TRANSCRIPT = {"input": [
    {"type": "message", "role": "user", "content": "Weather in Zürich and in Bern?"},
    {"type": "function_call", "id": "fc_67ccd2c0a1b48190", "call_id": A, "name": "get_weather",
     "arguments": json.dumps({"city": "Zürich"}), "status": "completed"},
    {"type": "function_call", "id": "fc_67ccd2c0a1b48191", "call_id": B, "name": "get_weather",
     "arguments": json.dumps({"city": "Bern"}), "status": "completed"},
    {"type": "function_call_output", "call_id": A, "output": "7 °C"},
    {"type": "function_call_output", "call_id": B, "output": "9 °C"},
]}


def open_preview(page, view: str, box: str, text: str):
    page.goto(f"/{view}")
    page.locator(f"#{box}").fill(text)
    page.locator(f"#{view}-form [data-redact]").first.click()
    dialog = page.locator('#redact-dialog[data-state="ready"]')
    dialog.wait_for()
    return dialog


def codes(answer: dict) -> list:
    return sorted(Counter(f["code"] for f in answer["findings"]).items())


def test_distinct_call_ids_stay_distinct_and_the_copy_reads_the_same(page, server):
    text = json.dumps(TRANSCRIPT, indent=2, ensure_ascii=False)
    dialog = open_preview(page, "format", "text", text)
    adds = dialog.locator(".redact-diff .add").all_inner_texts()
    dels = dialog.locator(".redact-diff .del").all_inner_texts()
    assert len(adds) == len(dels) > 0   # line for line against the original
    red = json.loads(copied(page, lambda: dialog.locator("#redact-copy").click()))
    ids = [item.get("call_id") for item in red["input"][1:]]
    assert ids[0] == ids[2] != ids[1] == ids[3]
    assert ids[0] == "call_" + "0" * 23 + "1" and ids[1] == "call_" + "0" * 23 + "2"
    assert "Zürich" not in json.dumps(red, ensure_ascii=False)
    _, before = server.api("transcript", {"text": text})
    _, after = server.api("transcript", {"text": json.dumps(red, ensure_ascii=False)})
    assert "duplicate_call_id" not in dict(codes(after))
    assert codes(after) == codes(before)
    assert [c["verdict"] for c in after["calls"]] == [c["verdict"] for c in before["calls"]]


def test_short_ids_stay_distinct_and_the_summary_counts_values(page):
    dialog = open_preview(page, "validate", "document", json.dumps({"ids": ["1", "2", "3", "4", "5"]}))
    red = json.loads(copied(page, lambda: dialog.locator("#redact-copy").click()))
    assert len(set(red["ids"])) == 5
    page.locator("#validate-form [data-redact]").first.click()
    summary = page.locator('#redact-dialog[data-state="ready"] #redact-summary').inner_text()
    assert "5 values replaced" in summary


def test_not_json_is_refused_with_its_place(page):
    page.goto("/format")
    page.locator("#text").fill('{"a": "x",\n "b": }')
    page.locator("#format-form [data-redact]").first.click()
    dialog = page.locator('#redact-dialog[data-state="invalid"]')
    dialog.wait_for()
    assert "line 2, column 7" in dialog.locator("#redact-summary").inner_text()
    assert dialog.locator("#redact-copy").is_disabled()
