"""A call made by a program (programmatic tool calling, ``caller: {type: "program",
caller_id}``) shows its link to the calling item in the Gate page's calls list
(transcript-rules.md, "Program callers": their link to the calling item is drawn), with
JavaScript and without, on the real recordings (issue 23).

Expected places come from the real POST /api/transcript, never typed in."""

from __future__ import annotations

import pytest
from browser_helpers import own_page

pytestmark = pytest.mark.browser

FIRST = "realworld/transcripts/069_vercel-ai__openai__programmatic-tool-calling.1.json"
SECOND = "realworld/transcripts/070_vercel-ai__openai__programmatic-tool-calling.2.json"
STREAM = "realworld/streams/031_vercel-ai__openai__programmatic-tool-calling.1.chunks.txt"


def api_report(server, text: str) -> dict:
    status, report = server.api("transcript", {"text": text})
    assert status == 200, report
    return report


def paste(page, text: str, kind_label: str) -> None:
    page.goto("/gate")
    page.fill("#item", text)
    page.wait_for_selector("#report")
    page.wait_for_function("([want]) => document.getElementById('summary-line')?.textContent.startsWith(want)",
                           arg=[kind_label], timeout=20000)


def selected_text(page) -> str:
    return page.evaluate("() => { const t = document.getElementById('item'); return t.value.slice(t.selectionStart, t.selectionEnd); }")


@pytest.mark.parametrize("name, kind", [(FIRST, "response"), (STREAM, "response stream")])
def test_the_calls_list_links_a_program_call_to_its_caller(page, server, shared, name, kind):
    text = (shared / "reference" / name).read_text(encoding="utf-8")
    (call,) = api_report(server, text)["calls"]
    caller = call["caller"]
    assert caller["type"] == "program" and caller["caller_id"] == call["caller_id"]
    paste(page, text, kind)
    row = page.locator("#calls li.call").first
    line = row.locator(".call-caller")
    assert line.get_attribute("data-caller-id") == caller["caller_id"]
    assert line.inner_text().startswith(f"Called by the program {caller['caller_id']}")
    button = line.locator("button.caller-place")
    assert button.inner_text() == f"program at line {caller['line']}, column {caller['column']}"
    # the link leads to the calling item: its line is marked in the input, not the call's
    assert caller["line"] != call["line"]
    button.click()
    assert page.get_attribute("#item", "data-marked-line") == str(caller["line"])
    assert selected_text(page) == text.split("\n")[caller["line"] - 1]
    for word in ("undefined", "null", "None"):
        assert word not in line.inner_text().split()


def test_a_caller_that_is_not_in_the_text_says_why(page, server, shared):
    text = (shared / "reference" / SECOND).read_text(encoding="utf-8")
    (call,) = api_report(server, text)["calls"]
    assert "line" not in call["caller"] and call["caller"]["missing"]
    paste(page, text, "response")
    line = page.locator("#calls li.call .call-caller")
    assert line.locator("button").count() == 0
    assert call["caller"]["missing"] in line.inner_text()
    assert call["caller_id"] in line.inner_text()


def test_the_caller_link_without_javascript(browser, server, shared):
    for name in (FIRST, SECOND):
        text = (shared / "reference" / name).read_text(encoding="utf-8")
        (call,) = api_report(server, text)["calls"]
        caller = call["caller"]
        with own_page(browser, server, java_script_enabled=False) as page:
            page.goto("/gate")
            page.fill("#item", text)
            with page.expect_navigation():
                page.click("#gate-run")
            said = page.inner_text("#calls li.call .call-caller")
            assert said.startswith(f"Called by the program {caller['caller_id']}")
            if "line" in caller:
                assert f"its program at line {caller['line']}, column {caller['column']}" in said
                assert caller["pointer"] in said
            else:
                assert caller["missing"] in said
