"""The Extract view in Chromium, through the real server: live results as you type, the match
count, copy buttons, highlights in the viewer, the caret under an invalid expression, the
viewer offering a node's path, and the plain form with JavaScript off."""

from __future__ import annotations

import json

import pytest
from browser_helpers import own_page

pytestmark = pytest.mark.browser

READY = '#viewer[data-state="ready"]'

DOC = {
    "output": [
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": "{}"},
        {"type": "function_call", "call_id": "call_2", "name": "create_subagent",
         "arguments": "{\"task\": \"x\"}"},
    ],
    "data": [{"type": "create_subagent_call", "agent_id": "agt/1~x", "call_id": "call_3",
              "cost": 1.1}],
}
TEXT = json.dumps(DOC, indent=2).replace('"cost": 1.1', '"cost": 1.10')  # a number as written


def set_value(page, selector: str, text: str) -> None:
    page.locator(selector).fill(text)


def type_expression(page, text: str) -> None:
    box = page.locator("#path")
    box.fill("")
    box.press_sequentially(text, delay=15)


def copied(page, locator) -> str:
    page.evaluate("window.__workbenchLastCopy = null")
    locator.click()
    page.wait_for_function("() => window.__workbenchLastCopy !== null")
    return page.evaluate("window.__workbenchLastCopy")


def test_type_expression_see_count_and_copy_pointer(page, server):
    page.goto("/extract")
    set_value(page, "#document", TEXT)
    type_expression(page, "$..call_id")
    count = page.locator("#match-count")
    count.filter(has_text="3 matches").wait_for()
    assert "RFC 9535" in page.locator("#engine-name").inner_text()
    rows = page.locator("#match-table tbody tr")
    assert rows.count() == 3
    assert rows.nth(2).get_attribute("data-pointer") == "/data/0/call_id"
    # copy a match's pointer, path and exact value
    assert copied(page, rows.nth(2).locator('button[data-copy="pointer"]')) == "/data/0/call_id"
    assert copied(page, rows.nth(2).locator('button[data-copy="path"]')) == "$['data'][0]['call_id']"
    assert copied(page, rows.nth(0).locator('button[data-copy="value"]')) == '"call_1"'
    # the matches are marked in the document viewer
    page.wait_for_selector(READY)
    page.locator('#viewer .jv-row.match[data-pointer="/output/0/call_id"]').wait_for()

    # typing on: a filter with an exact number and a pointer that needs escaping
    type_expression(page, "$.data[?@.cost > 1.05].agent_id")
    count.filter(has_text="1 match").wait_for()
    row = page.locator("#match-table tbody tr").first
    assert copied(page, row.locator('button[data-copy="pointer"]')) == "/data/0/agent_id"
    assert copied(page, row.locator('button[data-copy="value"]')) == '"agt/1~x"'
    type_expression(page, "$.data[0].cost")
    count.filter(has_text="1 match").wait_for()
    page.locator("#match-table .match-value", has_text="1.10").wait_for()
    assert copied(page, page.locator('#match-table button[data-copy="value"]')) == "1.10"


def test_invalid_expression_shows_message_and_caret(page, server):
    page.goto("/extract")
    set_value(page, "#document", json.dumps(DOC))
    type_expression(page, "$.output[?@.x ==]")
    headline = page.locator("#headline")
    headline.filter(has_text="Invalid JSONPath").wait_for()
    status, body = server.api("extract", {"document": json.dumps(DOC), "path": "$.output[?@.x ==]"})
    assert status == 422 and body["error"]["code"] == "path_syntax"
    column = body["error"]["column"]
    assert f"column {column}" in headline.inner_text()
    assert body["error"]["message"] in page.locator("#error").inner_text()
    caret = page.locator("#path-caret").inner_text().split("\n")
    assert caret[0] == "$.output[?@.x ==]"
    assert caret[1].index("^") == column - 1
    assert page.locator("#path").get_attribute("aria-invalid") == "true"
    # fixing it brings the matches back
    type_expression(page, "$.output[?@.name == 'get_weather'].call_id")
    page.locator("#match-count").filter(has_text="1 match").wait_for()
    assert page.locator("#path").get_attribute("aria-invalid") is None


def test_sample_examples_engine_and_use_as_expression(page):
    page.goto("/extract")
    page.get_by_role("button", name="Load sample").click()
    page.locator("#match-count").wait_for()
    expected = {
        "$.parameters.required": "1 match",
        "$..call_id": "5 matches",
        "$.data[?@.type=='create_subagent_call'].agent_id": "2 matches",
        "$.output[-1]": "1 match",
        "$..[?length(@.arguments) > 100]": "1 match",
    }
    for example, count in expected.items():
        page.locator(f'button.example[data-path="{example}"]').click()
        assert page.locator("#path").input_value() == example
        page.locator("#match-count").filter(has_text=count).wait_for()
        assert page.locator("#match-count").inner_text() == count, example

    # the other engine answers and says so; it does not know RFC 9535 functions
    page.locator("#engine").select_option("jsonpath-ng")
    page.locator("#headline").filter(has_text="Invalid JSONPath").wait_for()
    assert "jsonpath-ng" in page.locator("#error").inner_text()
    page.locator('button.example[data-path="$..call_id"]').click()
    page.locator("#engine-name").filter(has_text="jsonpath-ng").wait_for()
    assert "not RFC 9535" in page.locator("#engine-name").inner_text()
    assert page.locator("#match-count").inner_text() == "5 matches"
    page.locator("#engine").select_option("rfc9535")
    page.locator("#engine-name").filter(has_text="RFC 9535 (jsonpath-rfc9535").wait_for()

    # clicking a node in the viewer offers its path as the expression
    page.wait_for_selector(READY)
    page.locator('#viewer .jv-row[data-pointer="/parameters/required"]').click()
    page.locator("#selected-path").filter(has_text="$['parameters']['required']").wait_for()
    page.locator("#use-path").click()
    assert page.locator("#path").input_value() == "$['parameters']['required']"
    page.locator("#match-count").filter(has_text="1 match").wait_for()
    assert page.locator("#match-table tbody tr").first.get_attribute("data-pointer") == "/parameters/required"

    # the document and the expression survive a reload of the tab
    page.reload()
    assert page.locator("#path").input_value() == "$['parameters']['required']"
    assert '"create_subagent"' in page.locator("#document").input_value()
    page.locator("#match-count").filter(has_text="1 match").wait_for()


def test_document_error_points_at_the_line(page):
    page.goto("/extract")
    set_value(page, "#path", "$.a")
    page.locator("#document").fill('{\n  "a": 1,\n  "b": [1 2]\n}')
    headline = page.locator("#headline")
    headline.filter(has_text="Not valid JSON").wait_for()
    assert "line 3" in headline.inner_text()
    assert "error at 3:" in page.locator("#document-status").inner_text()


def test_plain_form_without_javascript(browser, server):
    with own_page(browser, server, java_script_enabled=False) as pg:
        pg.goto("/extract")
        pg.locator("#document").fill(json.dumps(DOC))
        pg.locator("#path").fill("$..agent_id")
        pg.locator("#run").click()
        pg.wait_for_load_state()
        assert pg.locator("#match-count").inner_text() == "1 match"
        row = pg.locator("#match-table tbody tr").first
        assert row.get_attribute("data-pointer") == "/data/0/agent_id"
        assert "$['data'][0]['agent_id']" in row.inner_text()
        assert '"agt/1~x"' in row.inner_text()
        # the form keeps what was typed
        assert pg.locator("#path").input_value() == "$..agent_id"
        # an invalid expression: the message and the caret
        pg.locator("#path").fill("$..[")
        pg.locator("#run").click()
        pg.wait_for_load_state()
        assert "Invalid JSONPath" in pg.locator("#headline").inner_text()
        assert pg.locator("#path-caret").inner_text().split("\n")[0] == "$..["


def test_large_document_from_a_file_runs_on_enter(page, tmp_path):
    items = [{"type": "function_call", "call_id": f"call_{i}", "status": "completed" if i % 2 else "failed",
              "arguments": "{\"x\": %d}" % i} for i in range(30_000)]
    file = tmp_path / "log.json"
    file.write_text(json.dumps({"data": items}, indent=1), encoding="utf-8")
    assert file.stat().st_size > 2_000_000  # held in memory, not in the text box
    page.goto("/extract")
    page.locator("#path").fill("$.data[?@.status=='failed'].call_id")
    page.locator("#document_file").set_input_files(str(file))
    page.locator("#bigtext").wait_for()
    assert page.locator("#document").is_hidden()
    page.locator("#match-count").filter(has_text="15,000 matches").wait_for(timeout=60_000)
    assert page.locator("#match-table tbody tr").count() == 200
    page.locator("#more-matches").click()
    assert page.locator("#match-table tbody tr").count() == 400
    # a new expression on a large document runs on Enter, not on every key
    page.locator("#path").fill("$.data[-1].call_id")
    page.locator("#path").press("Enter")
    page.locator("#match-count").filter(has_text="1 match").wait_for(timeout=60_000)
    row = page.locator("#match-table tbody tr").first
    assert copied(page, row.locator('button[data-copy="value"]')) == '"call_29999"'
