"""What a newcomer reads on the Gate page (issue 27), in a real browser on the real server, with
JavaScript and without: the words beside a stream's counts say what is counted, and agree with
the timeline's (a Chat stream rebuilds one message whose text and tool calls are rows of its
own: "1 rebuilt message" beside "Timeline: 5 parts of the rebuilt message").

Expected counts come from the real POST /api/transcript, never typed in."""

from __future__ import annotations

import json
import re

import pytest
from browser_helpers import api_report, own_page

pytestmark = pytest.mark.browser

CHAT = "realworld/streams/035_semantic-kernel__Connectors__chat_completion_streaming_multiple_function_calls_test_async_filter_response.txt"
ANTHROPIC = "realworld2/anthropic/0061_anthropic-sdk-typescript__stream-a-toolrefusal.sse"
RESPONSES = "realworld/streams/045_llm__test_openai_responses__test_responses_tool_use_streaming__i0.txt"



def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@pytest.mark.parametrize("name, item_word, row_words", [
    (CHAT, "rebuilt message", ("part", " of the rebuilt message (its text and each tool call)")),
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


CHAT_CALL = ('{"id": "call_1", "type": "function", "function": {"name": "get_weather", '
             '"arguments": "{\\"city\\": \\"Oslo\\"}"}}')
API_ONLY = ("POST", "/api/", "envelope.calls", "workbench gate", "workbench transcript")


def test_a_single_chat_tool_call_speaks_the_pages_words_and_its_button_walks_on(browser, page, server):
    # the issue: the verdict told a browser user "POST /api/transcript", and "Walk this call"
    # walked the same pasted text again (the same verdict, for ever)
    status, api = server.api("gate", {"item": CHAT_CALL})
    assert status == 200 and "/api/transcript" in api["reason"]          # the API keeps its words
    for js in (True, False):
        with own_page(browser, server, java_script_enabled=js) as p:
            p.goto("/gate")
            p.fill("#item", CHAT_CALL)
            if js:
                p.wait_for_selector("#envelope")
            else:
                with p.expect_navigation():
                    p.click("#gate-run")
            words = p.inner_text(".verdict-reason")
            assert "press \u201cWalk the equivalent item\u201d below" in words, words
            assert "into Item" in words
            assert not [w for w in API_ONLY if w in words], words
            assert p.locator("#envelope button[data-walk]").count() == 0   # no walk in a circle
            button = p.locator("#envelope .toolbar button[data-walk-equivalent='0'], "
                               "#envelope form button[data-walk-equivalent='0']")
            assert button.count() == 1 and button.inner_text() == "Walk the equivalent item"
            if js:
                button.click()
                p.wait_for_function("() => document.getElementById('verdict-banner')?.dataset.verdict === 'ok'")
            else:
                with p.expect_navigation():
                    button.click()
                assert p.locator("#verdict-live").inner_text().startswith("ok")
            assert json.loads(p.input_value("#item")) == api["envelope"]["calls"][0]["equivalent"]


PROVIDER_CASES = ["anthropic-merged-turns", "anthropic-stream-block-open", "gemini-response-count",
                  "otel-invented-id"]


@pytest.mark.parametrize("js", [True, False])
def test_provider_reports_name_what_was_pasted_in_words_and_say_what_is_missing(browser, server, js):
    # the page printed its kind codes ("What was pasted: gemini_contents") and "call_id ?" for
    # a Gemini call, which has no call_id
    from workbench.gallery import by_name, text_of
    with own_page(browser, server, java_script_enabled=js) as p:
        p.goto("/gate")
        for name in PROVIDER_CASES:
            status, report = server.api("transcript", {"text": text_of(by_name(name))})
            assert status == 200
            if js:
                p.click(f"a.case[data-case='{name}']")
                p.wait_for_function("([k]) => document.getElementById('report')?.dataset.kind === k",
                                    arg=[report["kind"]])
            else:
                p.goto(f"/gate?case={name}")
            heading = p.inner_text("#report h3")
            assert heading.startswith("What was pasted: ") and "_" not in heading, heading
            assert report["kind"] not in p.inner_text("#summary-line")
            calls = p.locator("#calls li").all_inner_texts()
            assert len(calls) == len(report["calls"])
            for text, call in zip(calls, report["calls"]):
                assert " ? " not in text and "call_id ?" not in text, text
                assert (f"call_id {call['call_id']}" if call.get("call_id") else "no call_id") in text


def test_places_in_messages_say_whose_lines_they_are(page):
    # the tree beside a result numbers its own (re-indented) lines: a bare "line 28" sent a
    # reader to the wrong line of it
    page.goto("/format")
    page.click("[data-action=sample]")
    page.locator("#warnings li[data-code=unsafe_integer]").wait_for()
    text = page.input_value("#text").split("\n")
    where = page.inner_text("#warnings li[data-code=unsafe_integer]")
    line = int(re.search(r"\(input line (\d+), column \d+\)", where)[1])
    assert "trace_seq" in text[line - 1]
    dup = page.inner_text("#warnings li[data-code=duplicate_key]")
    first, again = map(int, re.search(r"first at input line (\d+), column \d+; again at input line (\d+)", dup).groups())
    assert '"status"' in text[first - 1] and '"status"' in text[again - 1]
    page.goto("/validate")
    page.select_option("#example", "draft7")
    page.locator("#errors li").first.wait_for()
    doc = page.input_value("#document").split("\n")
    for li in page.locator("#errors li").all_inner_texts():
        m = re.search(r"document line (\d+), column \d+", li)
        assert m, li
        assert doc[int(m[1]) - 1].strip().startswith("{"), (li, doc[int(m[1]) - 1])


def test_the_patch_says_why_it_has_more_operations_than_changes(page, server):
    # the Diff sample: "7 changes" above, "JSON Patch · 8 operations" below (1.0 → 1 is a note)
    page.goto("/diff")
    for b in page.locator("[data-action=sample]").all():
        b.click()
    page.locator("#patch-note").wait_for()
    left, right = page.input_value("#left"), page.input_value("#right")
    status, body = server.api("diff", {"left": left, "right": right})
    assert status == 200 and len(body["patch"]) == body["count"] + 1
    note = page.inner_text("#patch-note")
    assert "One of them rewrites an equal value written differently (a note, not a change)" in note
    assert f"{len(body['patch'])} operations" in page.inner_text("#patch-title")


def test_the_expression_label_names_the_chosen_engines_syntax(page):
    page.goto("/extract")
    assert page.inner_text("#path-label") == "JSONPath expression (RFC 9535)"
    page.select_option("#engine", "jsonpath-ng")
    assert page.inner_text("#path-label") == "JSONPath expression (jsonpath-ng syntax, not RFC 9535)"
    page.reload()   # the engine is kept for the tab, and so is its label
    assert page.input_value("#engine") == "jsonpath-ng"
    assert page.inner_text("#path-label").endswith("(jsonpath-ng syntax, not RFC 9535)")
    page.select_option("#engine", "rfc9535")
    assert page.inner_text("#path-label") == "JSONPath expression (RFC 9535)"
