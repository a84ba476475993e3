"""A Server-Sent Events stream pasted into Format: the page says what it is and offers the Gate,
with JavaScript (live result) and without (the plain form), through the real server."""

from __future__ import annotations

import pytest
from browser_helpers import own_page

pytestmark = pytest.mark.browser

STREAM = ('event: response.created\ndata: {"type": "response.created", "sequence_number": 0}\n\n'
          'event: response.completed\ndata: {"type": "response.completed", "sequence_number": 1}\n\n')


def test_a_pasted_stream_offers_the_gate(page):
    page.goto("/format")
    page.locator("#text").fill(STREAM)
    page.keyboard.press("Control+Enter")
    hint = page.locator("#sse-hint")
    hint.wait_for()
    assert "stream of events" in hint.inner_text()
    assert "Not valid JSON" in page.locator("#headline").inner_text()
    link = hint.get_by_role("link", name="open the Gate")
    assert link.get_attribute("href") == "/gate"
    link.click()
    page.wait_for_url("**/gate")


def test_the_plain_form_offers_the_gate_too(browser, server):
    with own_page(browser, server, java_script_enabled=False) as page:
        page.goto("/format")
        page.locator("#text").fill(STREAM)
        page.locator("#run").click()
        hint = page.locator("#sse-hint")
        hint.wait_for()
        assert "open the Gate" in hint.inner_text()
        assert hint.get_by_role("link").get_attribute("href") == "/gate"
