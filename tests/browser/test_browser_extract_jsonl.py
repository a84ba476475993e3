"""The Extract page with a pasted log and a pasted stream, in Chromium through the real server:
JSON Lines rows with their line's index and a jump to their line; a stream answered with a link
to the Gate, which the user follows."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

LOG = ('{"type": "function_call", "call_id": "call_1"}\n'
       "\n"
       '{"type": "message", "content": []}\n'
       '{"type": "function_call", "call_id": "call_2"}\n')

STREAM = ('event: response.created\n'
          'data: {"type":"response.created","response":{"id":"resp_1"}}\n\n'
          'event: response.completed\n'
          'data: {"type":"response.completed","response":{"id":"resp_1"}}\n\n')


def run(page, document: str, path: str) -> None:
    page.goto("/extract")
    page.locator("#document").fill(document)
    box = page.locator("#path")
    box.fill("")
    box.press_sequentially(path, delay=10)


def test_a_log_is_queried_line_by_line_and_a_row_jumps_to_its_line(page):
    run(page, LOG, "$.call_id")
    page.locator("#match-count").filter(has_text="2 matches").wait_for()
    assert "JSON Lines (detected): 3 values" in page.locator("#jsonl-note").inner_text()
    rows = page.locator("#match-table tbody tr")
    assert [rows.nth(i).get_attribute("data-pointer") for i in range(rows.count())] == \
        ["/0/call_id", "/2/call_id"]
    assert "$['call_id']" not in rows.nth(1).inner_text() and "$[2]['call_id']" in rows.nth(1).inner_text()
    # the row's place is line 4 of the paste; clicking it selects that line in the input
    jump = rows.nth(1).locator("button.jump")
    at = LOG.index('"call_2"')
    assert jump.inner_text() == f"4:{at - LOG.rindex(chr(10), 0, at)}"
    # (a synthetic click: leaving the expression box fires its "change", on which the stale
    # mark puts a note above the result, so the rows move between a real mouse-down and -up)
    jump.dispatch_event("click")
    box = page.locator("#document")
    assert box.get_attribute("data-marked-line") == "4"
    line_start = LOG.rindex("\n", 0, at) + 1
    assert page.evaluate("[document.getElementById('document').selectionStart, "
                         "document.getElementById('document').selectionEnd]") == \
        [line_start, LOG.index("\n", at)]


def test_a_stream_says_so_and_links_to_the_gate(page, server):
    run(page, STREAM, "$..type")
    page.locator("#headline").filter(has_text="A stream, not JSON").wait_for()
    assert "Server-Sent Events" in page.locator("#error").inner_text()
    link = page.locator("#sse-gate")
    assert link.get_attribute("href") == "/gate"
    with page.expect_navigation(url=f"{server.url}/gate", wait_until="commit"):
        link.dispatch_event("click")  # (synthetic: see above)
