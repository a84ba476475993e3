"""What a newcomer reads on the Gate page (issue 27), in a real browser on the real server, with
JavaScript and without: the words beside a stream's counts say what is counted, and agree with
the timeline's (a Chat stream rebuilds one message whose text and tool calls are rows of its
own: "1 rebuilt message" beside "Timeline: 5 parts of the rebuilt message").

Expected counts come from the real POST /api/transcript, never typed in."""

from __future__ import annotations

import pytest
from browser_helpers import own_page

pytestmark = pytest.mark.browser

CHAT = "realworld/streams/035_semantic-kernel__Connectors__chat_completion_streaming_multiple_function_calls_test_async_filter_response.txt"
ANTHROPIC = "realworld2/anthropic/0061_anthropic-sdk-typescript__stream-a-toolrefusal.sse"
RESPONSES = "realworld/streams/045_llm__test_openai_responses__test_responses_tool_use_streaming__i0.txt"


def api_report(server, text: str) -> dict:
    status, report = server.api("transcript", {"text": text})
    assert status == 200, report
    return report


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@pytest.mark.parametrize("name, item_word, row_words", [
    (CHAT, "rebuilt message", ("part", " of the rebuilt message (its text, each tool call)")),
    (ANTHROPIC, "rebuilt message", ("content block", "")),
    (RESPONSES, "output item", ("output item", "")),
])
def test_the_counts_say_what_they_count_with_and_without_javascript(browser, page, server, shared,
                                                                     name, item_word, row_words):
    text = (shared / "reference" / name).read_text()
    report = api_report(server, text)
    s = report["summary"]
    assert s["item_word"] == item_word
    rows = len(report["timeline"])
    if name != RESPONSES:
        assert rows > s["items"]    # the case the issue saw: "1 item" beside "5 output items"
    counted = plural(s["items"], item_word)
    caption = f"Timeline: {plural(rows, row_words[0])}{row_words[1]}, events folded"
    page.goto("/gate")
    page.fill("#item", text)
    page.wait_for_selector("#timeline figcaption", timeout=20000)
    muted = page.inner_text("#report p.muted")
    assert counted in muted.split(" · "), muted
    assert " item" not in muted.replace(item_word, "")
    assert page.inner_text("#timeline figcaption").startswith(caption)
    assert page.locator("#timeline svg .tl-head").first.text_content() == row_words[0]
    with own_page(browser, server, java_script_enabled=False) as plain:
        plain.goto("/gate")
        plain.fill("#item", text)
        with plain.expect_navigation():
            plain.click("#gate-run")
        assert counted in plain.inner_text("#report p.muted").split(" · ")
        assert plain.inner_text("#timeline-title").startswith(caption)
