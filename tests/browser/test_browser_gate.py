"""The Gate page in a real browser: every gallery case loads with one click and shows its
verdict (one item) or its report (a transcript, a stream, a session: the findings it teaches);
a blocked item is walked and the failing path read in the schema step; the calls of a whole
response or a Chat payload are walked one by one; the ok output is copied; and the page works as
a plain form without JavaScript."""

from __future__ import annotations

import json

import pytest
from browser_helpers import own_page

from workbench.gallery import CASES, SESSION_CASES, TRANSCRIPT_CASES
from workbench.gallery.items import SALES_SCHEMA
from workbench.web.paste import one_item

pytestmark = pytest.mark.browser


def expected_headline(verdict: str) -> str:
    return "ok — may be executed" if verdict == "ok" else f"Blocked: {verdict}"


def wait_verdict(page, verdict: str):
    page.wait_for_function(
        "([want]) => document.getElementById('verdict-live').textContent.includes(want)",
        arg=[expected_headline(verdict)], timeout=15000)


def click_case(page, name: str, verdict: str | None = None) -> None:
    """Click a gallery case; wait for its verdict (one item) or, with no verdict, its report."""
    page.click(f'a[data-case="{name}"]')
    if verdict is None:
        page.wait_for_selector("#report")
    else:
        wait_verdict(page, verdict)


def open_case(page, name: str, verdict: str | None = None) -> None:
    """The Gate page, fresh, with one gallery case loaded (see :func:`click_case`)."""
    page.goto("/gate")
    click_case(page, name, verdict)


ITEM_CASES = [c for c in CASES if one_item(c["item"])]
REPORT_CASES = [c for c in CASES if not one_item(c["item"])] + TRANSCRIPT_CASES + SESSION_CASES


def test_the_gallery_is_grouped_by_what_the_page_does():
    # a whole response and a Chat payload are transcripts on this page (their calls are listed)
    assert {c["name"] for c in CASES if not one_item(c["item"])} >= {"whole-response", "chat-completion"}
    assert {c.get("kind") for c in REPORT_CASES} >= {"session", "transcript"}
    assert any(c.get("group") == "stream" for c in TRANSCRIPT_CASES)


def test_each_gallery_group_is_shown_with_its_sentence(page):
    page.goto("/gate")
    groups = page.locator("#gallery .case-group").evaluate_all("els => els.map(e => e.dataset.group)")
    assert groups == ["item", "transcript", "stream", "session"]
    for case in ITEM_CASES[:1] + REPORT_CASES:
        link = page.locator(f'a[data-case="{case["name"]}"]')
        assert case["teaches"][:40] in link.inner_text()


def test_each_report_case_loads_with_one_click(page, server):
    page.goto("/gate")
    for case in REPORT_CASES:
        text = case.get("item", case.get("text"))
        tools = case.get("schema") or case.get("tools")
        status, report = server.api("transcript", {"text": text, **({"tools": tools} if tools else {})})
        assert status == 200 and report["kind"] != "item"
        page.click(f'a[data-case="{case["name"]}"]')
        # the click starts the run (#result-body aria-busy) at once: wait for its answer, not for a
        # previous case's report that happens to have as many findings
        page.wait_for_function("([n]) => document.querySelector('#report') && document.getElementById('item').value.length === n"
                               " && !document.getElementById('result-body').hasAttribute('aria-busy')", arg=[len(text)])
        page.wait_for_function("([n]) => document.querySelectorAll('#findings li.finding').length === n", arg=[len(report["findings"])])
        codes = page.locator("#findings li.finding").evaluate_all("els => els.map(e => e.dataset.code)")
        assert sorted(codes) == sorted(f["code"] for f in report["findings"])
        assert set(case.get("findings", [])) <= set(codes), case["name"]
        assert page.locator("#calls li.call").count() == min(len(report["calls"]), 100)
        if report["kind"] == "agents_session":
            page.wait_for_selector("#chain svg")
        if report["kind"] == "response_stream":
            page.wait_for_selector("#timeline svg")


def test_each_gallery_case_loads_with_one_click(page):
    page.goto("/gate")
    for case in ITEM_CASES:
        click_case(page, case["name"], case["verdict"])
        assert page.input_value("#item") == case["item"]
        assert page.input_value("#schema") == case.get("schema", "")
        assert page.input_value("#original") == case.get("original", "")
        banner = page.locator("#verdict-banner")
        assert banner.get_attribute("data-verdict") == case["verdict"]
        statuses = page.locator("ol.walk > li").evaluate_all("els => els.map(e => e.dataset.status)")
        assert len(statuses) >= 3
        if case["verdict"] == "ok":
            assert "fail" not in statuses
        else:
            assert statuses.count("fail") == 1
            failing = page.locator("ol.walk > li[data-status=fail]")
            assert failing.locator(".mark").inner_text() == "✗"
            assert "failed:" in failing.locator(".sr-only").first.inner_text()
        for path, reason in case.get("fail_paths", []):
            row = page.locator(f'#schema-fails tr[data-path="{path}"]')
            assert row.locator("td").nth(1).inner_text() == reason


def test_walk_a_blocked_item_and_read_the_failing_path(page):
    page.goto("/gate")
    item = {"type": "function_call", "id": "fc_009", "name": "get_latest_sales_report",
            "call_id": "call_129", "status": "completed", "arguments": "{\"region\":\"global\"}"}
    page.fill("#item", json.dumps(item, indent=2))
    page.click("#schema-pane > summary")
    page.fill("#schema", SALES_SCHEMA)
    page.click("#gate-run")
    wait_verdict(page, "arguments_schema")
    steps = page.locator("ol.walk > li")
    assert steps.nth(0).get_attribute("data-status") == "pass"
    assert steps.nth(1).get_attribute("data-status") == "fail"
    assert steps.nth(2).get_attribute("data-status") == "skipped"
    schema_step = page.locator("li[data-check=schema]")
    assert schema_step.locator(".fail-path").all_inner_texts() == ["/region"]
    assert "enum" in schema_step.locator("#schema-fails").inner_text()
    assert "rule 8" in schema_step.locator(".rule-plain").inner_text().lower()
    # the spec's wording is one click away
    details = schema_step.locator("details.spec")
    assert details.get_attribute("open") is None
    details.locator("summary").click()
    assert "never silently changed" in details.inner_text()
    # the failing value is marked in the arguments viewer
    page.wait_for_selector("li[data-check=schema] .jv-row.error[data-pointer='/region']")
    # the three marks are text, not colour alone
    assert [m for m in page.locator("ol.walk .mark").all_inner_texts()] == ["✓", "✗", "–"]
    assert "/region" in page.inner_text("#verdict-banner")


def test_format_failure_marks_the_field_in_the_item(page):
    open_case(page, "incomplete", "status")
    fmt = page.locator("li[data-check=format]")
    assert fmt.locator(".fail-field").inner_text() == "status"
    page.wait_for_selector("li[data-check=format] .item-viewer .jv-row.error[data-pointer='/status']")
    click_case(page, "trailing-comma", "arguments_parse")
    text = page.inner_text("li[data-check=format]")
    assert "line 3, column 1" in text or "line 2" in text
    assert "^" in page.inner_text("li[data-check=format] pre.snippet")


def test_ok_output_is_copied(page):
    open_case(page, "ok", "ok")
    fco = page.inner_text("#fco")
    assert json.loads(fco) == {"type": "function_call_output", "call_id": "call_123", "output": ""}
    page.click("#copy-fco")
    page.wait_for_function("() => window.__workbenchLastCopy !== undefined")
    assert json.loads(page.evaluate("window.__workbenchLastCopy"))["call_id"] == "call_123"


def test_the_calls_of_a_whole_response_are_walked(page):
    open_case(page, "whole-response")
    assert "response" in page.inner_text("#report h3")
    calls = page.locator("#calls li.call")
    assert calls.count() == 2
    assert calls.evaluate_all("els => els.map(e => e.dataset.verdict)") == ["ok", "arguments_schema"]
    page.click("#calls button[data-walk='1']")
    page.wait_for_selector("#call-walk-verdict")
    assert page.inner_text("#call-walk-verdict") == "Blocked: arguments_schema (rule 8)"
    assert page.locator("#call-walk li[data-check=schema] .fail-path").all_inner_texts() == ["/region"]
    # the response stays in the input; the call can be opened in the Gate on its own
    assert json.loads(page.input_value("#item"))["object"] == "response"
    page.click("#walk-in-gate")
    wait_verdict(page, "arguments_schema")
    assert json.loads(page.input_value("#item"))["call_id"] == "call_129"


def test_a_chat_completions_call_is_walked_as_its_open_responses_item(page, server):
    case = next(c for c in CASES if c["name"] == "chat-completion")
    _, report = server.api("transcript", {"text": case["item"], "tools": case["schema"]})
    assert report["kind"] == "chat_completion"
    open_case(page, "chat-completion")
    call = page.locator("#calls li.call")
    assert call.count() == 1 and "chat completions" in call.inner_text()
    page.click("#calls button[data-walk='0']")
    page.wait_for_selector("#call-walk-verdict")
    assert page.inner_text("#call-walk-verdict").startswith(expected_headline(report["calls"][0]["verdict"]))
    walked = json.loads(page.locator("#call-walk details.walked-item pre").text_content())
    assert walked["type"] == "function_call" and walked["call_id"] == "call_abc123"


def test_an_agents_action_gets_door_1_and_the_tool_result(page, server):
    case = next(c for c in CASES if c["name"] == "agents-lookup-order")
    _, answer = server.api("gate", {"item": case["item"], "schema": case["schema"]})
    assert answer["dialect"] == "agents_api"
    open_case(page, "agents-lookup-order", answer["verdict"])
    checks = page.locator("ol.walk > li").evaluate_all("els => els.map(e => e.dataset.check)")
    assert checks == [s["check"] for s in answer["steps"]]
    assert "review" in checks                      # door 1, its own step
    assert "door 1" in page.inner_text("li[data-check=review]")
    # the failing rule is the Agents API dialect's own, in its words
    assert "door 2" in page.inner_text("li[data-check=schema] .rule-plain")
    assert "turn_id" in page.inner_text("li[data-check=format]")
    # the host-validation report and the tool_result event, never a function_call_output
    assert json.loads(page.inner_text("#host-report")) == answer["report"]
    assert json.loads(page.inner_text("#tool-result")) == answer["tool_result"]
    assert page.locator("#fco").count() == 0
    page.click("#copy-tool-result")
    page.wait_for_function("() => window.__workbenchLastCopy !== undefined")
    assert json.loads(page.evaluate("window.__workbenchLastCopy")) == answer["tool_result"]


def test_unreadable_item_points_at_the_spot(page):
    page.goto("/gate")
    page.fill("#item", '{\n  "type": "function_call",\n}')
    page.click("#gate-run")
    page.wait_for_selector("#error .msg")
    assert "could not be read" in page.inner_text("#verdict-live")
    assert "line 2" in page.inner_text("#error")
    assert "error at 2:" in page.inner_text("#item-status")


def test_live_result_as_you_type(page):
    open_case(page, "ok", "ok")
    text = page.input_value("#item").replace('"completed"', '"in_progress"')
    page.fill("#item", text)
    wait_verdict(page, "status")


def test_input_survives_a_reload(page):
    open_case(page, "unknown-tool", "unknown_tool")
    page.reload()
    wait_verdict(page, "unknown_tool")
    assert "delete_sales_report" in page.input_value("#item")


def test_rules_section_lists_the_codes_in_order(page):
    page.goto("/gate")
    codes = page.locator(".rules-table tbody tr td:nth-child(2)").all_inner_texts()
    assert codes == ["namespaced", "not_function_call", "status", "missing_fields", "arguments_type",
                     "arguments_parse", "unknown_tool", "arguments_schema", "replay_mismatch", "ok"]


def test_plain_form_without_javascript(browser, server):
    with own_page(browser, server, java_script_enabled=False) as page:
        page.goto("/gate?case=schema-enum")
        assert "Blocked: arguments_schema" in page.inner_text("#verdict-live")
        assert page.locator("li[data-check=schema] .fail-path").all_inner_texts() == ["/region"]
        # the gallery links are plain links
        with page.expect_navigation():
            page.click('a[data-case="ok"]')
        assert "ok — may be executed" in page.inner_text("#verdict-live")
        assert "function_call_output" in page.inner_text("#fco")
        # the form posts
        page.fill("#item", page.input_value("#item").replace("call_123", ""))
        with page.expect_navigation():
            page.click("#gate-run")
        assert "Blocked: missing_fields" in page.inner_text("#verdict-live")
        # a whole response's calls can be walked with plain forms too
        page.goto("/gate?case=whole-response")
        assert page.inner_text("#summary-line").startswith("response · 2 calls")
        with page.expect_navigation():
            page.click("#calls button[data-walk='1']")
        assert "Blocked: arguments_schema" in page.inner_text("#verdict-live")
        assert "call_129" in page.input_value("#item")
        # an Agents API action: the tool_result event, no function_call_output
        page.goto("/gate?case=agents-lookup-order")
        assert json.loads(page.inner_text("#tool-result"))["call_id"] == "call_3c91"
        assert page.locator("#fco").count() == 0


def test_an_answer_on_its_way_is_not_shown_once_the_item_is_emptied(page):
    """A live run still on its way when the item is cleared must not put its verdict back: it
    belongs to an item that is gone."""
    page.goto("/gate")
    held = []
    page.route("**/api/*", lambda route: held.append(route))
    page.fill("#item", json.dumps({"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}))
    for _ in range(100):   # the live run's request, held on its way
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "no live run was sent"
    page.fill("#item", "")
    with page.expect_response("**/api/*") as answer:
        held[0].continue_()
    assert answer.value.ok
    page.wait_for_timeout(200)   # the page has read the answer
    assert page.locator("#verdict-live").inner_text() == ""
    assert page.locator("#placeholder").count() == 1
