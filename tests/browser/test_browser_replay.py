""""Replay to…" on the Gate page's transcript report, in a real browser on the real server: an
Anthropic conversation (with a thinking block) converted to Open Responses and to Gemini shows
the original and the converted text side by side, the thinking block listed as not portable (a
click selects its line in the input), and the target's findings; a conversion the target's rules
fault is shown as not clean; and the same works as a plain form without JavaScript.

Expected values come from the real POST /api/convert, never typed in."""

from __future__ import annotations

import json

import pytest
from browser_helpers import own_page

pytestmark = pytest.mark.browser

TEXT = json.dumps({"system": "Be brief.", "messages": [
    {"role": "user", "content": "Weather in Zürich?"},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "look it up", "signature": "c2lnbmF0dXJl"},
        {"type": "tool_use", "id": "toolu_01", "name": "get_weather",
         "input": {"city": "Zürich", "lat": 47.3769, "n": 12345678901234567890123}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01",
                                  "content": "4 °C"}]}]}, ensure_ascii=False, indent=2)

# an unanswered call in the middle: Anthropic refuses it (an error), Gemini takes it (a warning)
DANGLING = json.dumps({"input": [
    {"type": "message", "role": "user", "content": "a"},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    {"type": "message", "role": "user", "content": "b"}]}, indent=2)


def _api(server, text, to):
    status, answer = server.api("convert", {"text": text, "to": to})
    assert status == 200, answer
    return answer


def _paste(page, text, label):
    page.goto("/gate")
    page.fill("#item", text)
    page.wait_for_function("([want]) => document.getElementById('summary-line')?.textContent.startsWith(want)",
                           arg=[label], timeout=20000)


def test_replay_shows_both_texts_what_did_not_travel_and_the_findings(page, server):
    want = _api(server, TEXT, "open_responses")
    _paste(page, TEXT, "Anthropic")
    page.select_option("#replay-to", "open_responses")
    page.click("#replay-run")
    page.wait_for_selector("#replay-result")
    assert page.inner_text("#replay-original") == TEXT
    assert page.inner_text("#replay-converted").rstrip("\n") == want["text"].rstrip("\n")
    assert '"arguments": "{\\"city\\":\\"Zürich\\",\\"lat\\":47.3769,\\"n\\":12345678901234567890123}"' \
        in page.inner_text("#replay-converted")
    headline = page.inner_text("#replay-headline")
    assert headline.startswith("anthropic → open responses") and "clean" in headline
    whats = page.locator("#replay-not-portable li").evaluate_all("els => els.map(e => e.dataset.what)")
    assert whats == [e["what"] for e in want["not_portable"]] and "thinking" in whats
    # a click on the place of the thinking block selects its line in the input
    thinking = next(e for e in want["not_portable"] if e["what"] == "thinking")
    page.click("#replay-not-portable li[data-what='thinking'] button.place")
    selected = page.evaluate("() => { const t = document.getElementById('item'); return t.value.slice(t.selectionStart, t.selectionEnd); }")
    assert selected == TEXT.split("\n")[thinking["line"] - 1]
    assert "No finding" in page.inner_text("#replay-findings")

    # a target whose rules fault the conversation: not clean, its findings listed
    bad = _api(server, DANGLING, "anthropic")
    assert not bad["clean"]
    _paste(page, DANGLING, "item list")
    page.select_option("#replay-to", "anthropic")
    page.click("#replay-run")
    page.wait_for_selector("#replay-result[data-clean='false']")
    codes = page.locator("#replay-findings li").evaluate_all("els => els.map(e => e.dataset.code)")
    assert codes == [f["code"] for f in bad["findings"]] and "unanswered_call" in codes
    assert "1 error under anthropic's rules" in page.inner_text("#replay-headline")


def test_replay_works_as_a_plain_form_without_javascript(browser, server):
    want = _api(server, TEXT, "gemini")
    with own_page(browser, server, java_script_enabled=False) as page:
        page.goto("/gate")
        page.fill("#item", TEXT)
        with page.expect_navigation():
            page.click("#gate-run")
        assert page.inner_text("#summary-line").lower().startswith("anthropic")
        page.select_option("#replay-to", "gemini")
        with page.expect_navigation():
            page.click("#replay-run")
        assert page.url.endswith("/gate/convert")
        assert page.get_attribute("#replay-result", "data-to") == "gemini"
        assert json.loads(page.inner_text("#replay-converted")) == json.loads(want["text"])
        assert page.inner_text("#replay-original") == TEXT
        whats = page.locator("#replay-not-portable li").evaluate_all("els => els.map(e => e.dataset.what)")
        assert whats == [e["what"] for e in want["not_portable"]]
        assert page.input_value("#item") == TEXT   # the form keeps what was pasted
        assert page.input_value("#replay-to") == "gemini"
