"""The Gate page's report for what is not one item, in a real browser on the real server:
a recorded stream that was cut off shows its timeline drawn broken, a click on the broken end
lands on its finding and the line in the input; a place link selects its line; a call of a
stream is walked through the gate; an Agents session's chain is drawn with the drifted pin as a
broken arrow (the two ids, the differing characters marked) that leads to its finding; a large
stream stays usable (lists shown a chunk at a time, the text held in memory); and the page
renders the same report as a plain form without JavaScript.

Expected values (finding lines, counts) come from the real POST /api/transcript, never typed in."""

from __future__ import annotations

import json

import pytest
from browser_helpers import own_page

from workbench.gallery.agents import EXAMPLE_ACTION, LOOKUP_ORDER

pytestmark = pytest.mark.browser

CUT_OFF = "realworld/streams/042_semantic-kernel__OpenAIResponseAgentTests__line504.txt"
WITH_CALL = "realworld/streams/045_llm__test_openai_responses__test_responses_tool_use_streaming__i0.txt"

# agents-rules.md's example (the gallery's tool and pending action): the action answered with a
# pair that drifted by a character
SESSION = json.dumps({
    "session": {
        "id": "sess_8f21", "object": "agent.session", "status": "requires_action",
        "agent": {"id": "agent_main", "model": "gpt-5", "tools": [LOOKUP_ORDER]},
        "items": [
            {"type": "message", "role": "user", "content": "Where is order A-1042?"},
            {"type": "function_call", "turn_id": "turn_1", "call_id": "call_0001", "name": "lookup_order",
             "arguments": {"order_id": "A-1042", "include_lines": False}}],
        "required_actions": [EXAMPLE_ACTION]},
    "events": [
        {"type": "agent.session.input.tool_result", "turn_id": "turn_2", "call_id": "call_3c9l",
         "success": False, "error": "order_id failed schema: expected ^[A-Z]-\\d{4}$"}],
}, indent=2)


def api_report(server, text: str, tools: str | None = None) -> dict:
    body = {"text": text}
    if tools:
        body["tools"] = tools
    status, report = server.api("transcript", body)
    assert status == 200, report
    return report


def finding_index(report: dict, code: str) -> int:
    return next(i for i, f in enumerate(report["findings"]) if f["code"] == code)


def paste_report(page, text: str, kind_label: str):
    """Paste ``text`` into a fresh Gate page and wait for its report, whose summary line
    starts with ``kind_label``."""
    page.goto("/gate")
    page.fill("#item", text)
    page.wait_for_selector("#report")
    page.wait_for_function("([want]) => document.getElementById('summary-line')?.textContent.startsWith(want)",
                           arg=[kind_label], timeout=20000)


def selected_text(page) -> str:
    return page.evaluate("() => { const t = document.getElementById('item'); return t.value.slice(t.selectionStart, t.selectionEnd); }")


def test_cut_off_stream_timeline_finding_and_line(page, server, shared):
    text = (shared / "reference" / CUT_OFF).read_text()
    report = api_report(server, text)
    assert report["kind"] == "response_stream"
    end = finding_index(report, "stream_no_terminal")
    end_line = report["findings"][end]["line"]
    paste_report(page, text, "response stream")
    summary = page.inner_text("#summary-line")
    errors = sum(f["severity"] == "error" for f in report["findings"])
    assert f"{errors} errors" in summary and "0 calls" in summary
    assert page.inner_text("#verdict-live") == summary
    # the timeline: one row per output item, the end drawn broken
    page.wait_for_selector("#timeline svg")
    assert page.locator("#timeline .tl-row").count() == len(report["timeline"])
    assert "message" in page.locator("#timeline .tl-row").first.text_content()
    assert page.locator("#timeline .tl-seg.tl-done.missing").count() == 1   # the item never got its done
    broken_end = page.locator("#timeline .tl-end.broken")
    assert broken_end.get_attribute("role") == "button"
    assert "ends without a terminal event" in page.locator("#timeline .timeline-text").text_content()
    # click the broken end: its finding is current and focused, its line marked in the input
    broken_end.click()
    finding = page.locator(f"#finding-{end}")
    assert finding.get_attribute("data-code") == "stream_no_terminal"
    page.wait_for_function("([id]) => document.activeElement?.id === id", arg=[f"finding-{end}"])
    assert "current" in finding.get_attribute("class")
    assert page.get_attribute("#item", "data-marked-line") == str(end_line)
    assert selected_text(page) == text.split("\n")[end_line - 1]
    # a finding's place link selects its line in the input
    bad = next(f for f in report["findings"] if f["code"] == "stream_bad_line" and f["line"] > 1)
    page.click(f"#finding-{report['findings'].index(bad)} button.place")
    assert page.evaluate("() => document.activeElement.id") == "item"
    assert selected_text(page) == text.split("\n")[bad["line"] - 1]
    assert selected_text(page).startswith("content block")
    # grouped by severity, errors first
    groups = page.locator("#findings .sev-group").evaluate_all("els => els.map(e => e.dataset.severity)")
    assert groups == [s for s in ("error", "warning", "info") if any(f["severity"] == s for f in report["findings"])]


def sse(events: list[dict]) -> str:
    return "\n".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': n})}\n" for n, e in enumerate(events))


def test_a_broken_order_is_drawn_broken_and_leads_to_its_finding(page, server):
    item = {"id": "fc_1", "type": "function_call", "status": "in_progress", "arguments": "", "call_id": "call_1", "name": "lookup"}
    text = sse([
        {"type": "response.created", "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"q\":"},   # before added
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "\"x\"}"},
        {"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": "{\"q\":\"x\"}"},
        {"type": "response.output_item.done", "output_index": 0, "item": {**item, "status": "completed", "arguments": "{\"q\":\"x\"}"}},
        {"type": "response.completed", "response": {"id": "resp_1", "object": "response", "status": "completed", "output": []}}])
    report = api_report(server, text)
    order = finding_index(report, "stream_order")
    assert order in report["timeline"][0]["broken"]
    paste_report(page, text, "response stream")
    page.wait_for_selector("#timeline .tl-row.broken")
    assert page.locator("#timeline .tl-end.broken").count() == 0      # it did end
    assert page.locator("#timeline .tl-terminal").first.text_content() == ""   # a box, its label beside
    assert "response.completed" in page.locator("#timeline .tl-end").text_content()
    mark = page.locator("#timeline .tl-row.broken .tl-break")
    assert mark.get_attribute("data-finding") == str(order)
    mark.click()
    page.wait_for_function("([id]) => document.activeElement?.id === id", arg=[f"finding-{order}"])
    line = report["findings"][order]["line"]
    assert page.get_attribute("#item", "data-marked-line") == str(line)
    assert selected_text(page) == text.split("\n")[line - 1]
    assert "stream_order" in page.locator("#timeline .timeline-text").text_content()


def test_a_stream_call_is_walked_through_the_gate(page, server, shared):
    text = (shared / "reference" / WITH_CALL).read_text()
    report = api_report(server, text)
    assert [c["name"] for c in report["calls"]] == ["multiply"]
    paste_report(page, text, "response stream")
    call = page.locator("#calls li.call")
    assert call.count() == 1
    assert call.get_attribute("data-verdict") == report["calls"][0]["verdict"]
    page.click("#calls button[data-walk='0']")
    page.wait_for_selector("#call-walk-verdict")
    verdict = report["calls"][0]["verdict"]
    assert page.inner_text("#call-walk-verdict") == ("ok — may be executed" if verdict == "ok" else f"Blocked: {verdict}")
    steps = page.locator("#call-walk ol.walk > li").evaluate_all("els => els.map(e => e.dataset.check)")
    assert steps[:1] == ["format"] and "schema" in steps
    # the tools came from the stream's response.created: the schema step checked multiply
    assert "multiply" in page.inner_text("#call-walk li[data-check=schema]")
    # the pasted stream stays in the input; the item can be opened in the Gate on its own
    assert page.input_value("#item") == text
    page.click("#walk-in-gate")
    page.wait_for_function("() => document.getElementById('verdict-live').textContent.includes('may be executed') || document.getElementById('verdict-live').textContent.startsWith('Blocked')")
    assert json.loads(page.input_value("#item"))["call_id"] == report["calls"][0]["call_id"]


def test_session_chain_drifted_pin_leads_to_its_finding(page, server):
    report = api_report(server, SESSION)
    assert report["kind"] == "agents_session"
    mismatch = finding_index(report, "result_pair_mismatch")
    paste_report(page, SESSION, "Agents API session")
    page.wait_for_selector("#chain svg")
    objects = page.locator("#chain .chain-node").evaluate_all("els => els.map(e => e.dataset.object)")
    assert objects.count("function_call") == 2 and "agent" in objects and "turn" in objects
    assert "tool_result" in objects
    drift = page.locator("#chain .chain-drift")
    assert drift.count() == 1
    # the two ids one above the other, the differing character marked in each
    ids = drift.locator("text").all_text_contents()
    assert ids == ["call_3c91", "call_3c9l"]
    assert drift.locator("tspan.diff-char").all_text_contents() == ["1", "l"]
    assert "drifted pin" in page.locator("#chain .chain-text").text_content()
    drift.click()
    page.wait_for_function("([id]) => document.activeElement?.id === id", arg=[f"finding-{mismatch}"])
    finding = page.locator(f"#finding-{mismatch}")
    assert "call_3c9l" in finding.inner_text() and "call_3c91" in finding.inner_text()
    assert page.get_attribute("#item", "data-marked-line") == str(report["findings"][mismatch]["line"])
    # by keyboard too
    page.click("#report h3")
    drift.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("([id]) => document.activeElement?.id === id", arg=[f"finding-{mismatch}"])


def test_a_pending_agents_action_is_walked_with_its_dialect(page, server):
    paste_report(page, SESSION, "Agents API session")
    pending = page.locator("#calls li.call", has_text="pending")
    assert pending.count() == 1
    pending.locator("button.walk-call").click()
    page.wait_for_selector("#call-walk-verdict")
    assert page.inner_text("#call-walk-verdict").startswith("Blocked")
    # the Agents API answer: the tool_result event to send, never a function_call_output
    page.wait_for_selector("#call-walk #tool-result")
    event = json.loads(page.inner_text("#call-walk #tool-result"))
    assert event["type"] == "agent.session.input.tool_result"
    assert (event["turn_id"], event["call_id"], event["success"]) == ("turn_2", "call_3c91", False)
    assert page.locator("#call-walk #fco").count() == 0
    page.click("#copy-tool-result")
    page.wait_for_function("() => window.__workbenchLastCopy !== undefined")
    assert json.loads(page.evaluate("window.__workbenchLastCopy"))["call_id"] == "call_3c91"


def big_stream(calls: int) -> str:
    """A Responses stream of `calls` function calls (added, two deltas, done each), then completed."""
    out, seq = [], 0

    def event(obj):
        nonlocal seq
        obj["sequence_number"] = seq
        seq += 1
        out.append(f"event: {obj['type']}\ndata: {json.dumps(obj, separators=(',', ':'))}\n")

    event({"type": "response.created", "response": {"id": "resp_big", "object": "response", "status": "in_progress", "output": []}})
    for i in range(calls):
        item = {"id": f"fc_{i}", "type": "function_call", "status": "in_progress", "arguments": "",
                "call_id": f"call_{i}", "name": "lookup"}
        event({"type": "response.output_item.added", "output_index": i, "item": item})
        for part in ('{"q":', f'"{i}"}}'):
            event({"type": "response.function_call_arguments.delta", "item_id": item["id"], "output_index": i, "delta": part})
        done = {**item, "status": "completed", "arguments": f'{{"q":"{i}"}}'}
        event({"type": "response.function_call_arguments.done", "item_id": item["id"], "output_index": i, "arguments": done["arguments"]})
        event({"type": "response.output_item.done", "output_index": i, "item": done})
    event({"type": "response.completed", "response": {"id": "resp_big", "object": "response", "status": "completed", "output": []}})
    return "\n".join(out)


def test_a_large_stream_stays_usable(page, server, tmp_path):
    text = big_stream(3000)
    assert len(text) > 2_000_000          # held in memory, not in the text box
    path = tmp_path / "big-stream.sse"
    path.write_text(text)
    page.goto("/gate")
    page.evaluate("""() => { window.__long = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long = Math.max(window.__long, e.duration); }).observe({ type: "longtask", buffered: true }); }""")
    page.set_input_files("#item_file", str(path))
    page.wait_for_selector("#report", timeout=90000)
    assert page.locator("#item-big").is_visible()
    assert "3,000 calls" in page.inner_text("#summary-line")
    # the calls are laid out a hundred at a time
    assert page.locator("#calls li.call").count() == 100
    page.click("#calls button.more")
    assert page.locator("#calls li.call").count() == 200
    assert page.locator("#timeline .tl-row").count() == 300      # the first rows drawn
    assert "more output items are not drawn" in page.locator("#timeline .timeline-text").text_content()
    # a place of a text held in memory is shown in the report
    page.click("#calls li.call >> nth=0 >> button.place")
    assert "fc_0" in page.inner_text("#place-preview")
    longest = page.evaluate("window.__long")
    print(f"large stream ({len(text) / 1e6:.1f} MB): longest main-thread task {longest:.0f} ms")
    assert longest < 2000


def test_plain_form_renders_the_report_without_javascript(browser, server, shared):
    text = (shared / "reference" / CUT_OFF).read_text()
    report = api_report(server, text)
    with own_page(browser, server, java_script_enabled=False) as page:
        page.goto("/gate")
        page.fill("#item", text)
        with page.expect_navigation():
            page.click("#gate-run")
        assert page.inner_text("#summary-line").startswith("response stream")
        assert page.inner_text("#verdict-live") == page.inner_text("#summary-line")
        assert page.locator("#timeline tbody tr").count() == len(report["timeline"]) + 1   # + the broken end
        assert "stream_no_terminal" in page.inner_text("#timeline tr.broken")
        codes = page.locator("#findings li.finding").evaluate_all("els => els.map(e => e.dataset.code)")
        assert sorted(codes) == sorted(f["code"] for f in report["findings"])
        # the broken end links to its finding
        end = finding_index(report, "stream_no_terminal")
        assert page.get_attribute("#timeline tr.broken a", "href") == f"#finding-{end}"
        # a session: the chain as a list, each call walked with a plain form
        page.fill("#item", SESSION)
        with page.expect_navigation():
            page.click("#gate-run")
        assert page.inner_text("#summary-line").startswith("Agents API session")
        assert "result_pair_mismatch" in page.inner_text("#chain li.broken >> nth=0")
        with page.expect_navigation():
            page.click("#calls button[data-walk='1']")
        assert page.inner_text("#verdict-live").startswith(("Blocked", "ok"))
        assert "call_3c91" in page.input_value("#item")
        assert page.locator("ol.walk > li").count() >= 3


REAL2 = ("realworld2/anthropic/0062_anthropic-sdk-typescript__incomplete_partial_json_response.sse",
         "realworld2/gemini/0284_llm-gemini__test_gemini__test_tools__i0_stream.json")


def test_anthropic_stream_timeline_draws_blocks_and_the_cut_off_call(page, server, shared):
    """A recorded Anthropic stream cut off inside a tool_use block: one row per content block
    (start → deltas → stop), the block that never stopped drawn broken (its stop missing) and
    leading to its finding; the stream's end is message_stop."""
    text = (shared / "reference" / REAL2[0]).read_text()
    report = api_report(server, text)
    assert report["kind"] == "anthropic_stream"
    paste_report(page, text, "Anthropic Messages stream")
    page.wait_for_selector("#timeline svg")
    rows = page.locator("#timeline .tl-row")
    assert rows.count() == len(report["timeline"]) == 2
    assert rows.nth(0).locator(".tl-label").text_content() == "text"
    assert rows.nth(1).locator(".tl-label").text_content() == "tool_use make_file"
    # the text block: started, 5 deltas, stopped; the tool_use block: its stop is missing
    assert rows.nth(0).locator(".tl-count").all_text_contents() == ["added", "5 deltas", "done"]
    assert "broken" not in rows.nth(0).get_attribute("class")
    assert rows.nth(1).locator(".tl-count").all_text_contents() == ["added", "4 deltas", "missing"]
    assert rows.nth(1).locator(".tl-seg.tl-done.missing").count() == 1
    assert "broken" in rows.nth(1).get_attribute("class")
    mark = rows.nth(1).locator(".tl-break")
    fi = int(mark.get_attribute("data-finding"))
    assert report["findings"][fi]["code"] in ("stream_order", "call_cut_off")
    mark.click()
    page.wait_for_function("([id]) => document.activeElement?.id === id", arg=[f"finding-{fi}"])
    assert "message_stop" in page.locator("#timeline .tl-end").text_content()
    listed = page.locator("#timeline .timeline-text li").all_text_contents()
    assert listed[1].startswith("tool_use make_file toolu_") and "1 added, 4 deltas, 0 done" in listed[1]


def test_gemini_stream_timeline_draws_its_parts_and_calls(page, server, shared):
    """A recorded Gemini stream (a JSON array of chunks): one row per rebuilt part — the
    thought, each functionCall — each closed by the candidate's finishReason."""
    text = (shared / "reference" / REAL2[1]).read_text()
    report = api_report(server, text)
    assert report["kind"] == "gemini_stream"
    kinds = [(row["type"], row["name"]) for row in report["timeline"]]
    assert kinds[0] == ("thought", None)
    calls = [name for kind, name in kinds if kind == "function_call"]
    assert calls and calls == [c["name"] for c in report["calls"]]
    paste_report(page, text, "Gemini stream")
    page.wait_for_selector("#timeline svg")
    rows = page.locator("#timeline .tl-row")
    assert rows.count() == len(kinds)
    listed = page.locator("#timeline .timeline-text li").all_text_contents()
    for (k, n), li in zip(kinds, listed):
        assert li.startswith(f"{k} {n} " if n else f"{k} "), li
    assert rows.nth(1).locator(".tl-label").text_content().startswith("function_call pelican")
    for i in range(rows.count()):
        counts = rows.nth(i).locator(".tl-count").all_text_contents()
        assert counts[0] == "first chunk" and counts[2] == "STOP", counts
    assert page.locator("#timeline .tl-row.broken").count() == 0
    assert page.locator("#timeline .tl-seg.missing").count() == 0
    assert "finishReason STOP" in page.locator("#timeline .tl-end").text_content()


def test_gemini_timeline_counts_the_chunks_each_part_came_in(page, server, shared):
    """The deltas column of a Gemini part row counts the chunks after the first: a part that
    came whole in one chunk says "no more chunks" (it showed "0 chunks", which reads as none at
    all, beside the API's ``chunks: 1``), a text joined from three says "2 more chunks"; the
    text equivalent says what the API says ("in 1 chunk"), and the caption counts parts (it
    called every row a function call)."""
    recorded = json.loads((shared / "reference" / REAL2[1]).read_text())
    words = [{"candidates": [{"content": {"role": "model", "parts": [{"text": w}]}, "index": 0}]}
             for w in ("Two ", "pelican ", "names.")]
    text = json.dumps(recorded[:1] + words + recorded[1:], indent=2)
    report = api_report(server, text)
    rows = report["timeline"]
    assert [(r["type"], r["events"]["chunks"]) for r in rows] == [
        ("thought", 1), ("text", 3), ("function_call", 1)]
    paste_report(page, text, "Gemini stream")
    page.wait_for_selector("#timeline svg")
    drawn = page.locator("#timeline .tl-row")
    assert [drawn.nth(i).locator(".tl-count").all_text_contents() for i in range(drawn.count())] == [
        ["first chunk", "no more chunks", "STOP"], ["first chunk", "2 more chunks", "STOP"],
        ["first chunk", "no more chunks", "STOP"]]
    assert drawn.nth(1).locator(".tl-seg.tl-deltas title").text_content() == "chunks after the first: 2"
    listed = page.locator("#timeline .timeline-text li").all_text_contents()
    assert listed[0].endswith("): in 1 chunk, closed by STOP"), listed[0]
    assert listed[1].endswith("): in 3 chunks, closed by STOP"), listed[1]
    assert listed[2].startswith("function_call pelican_name_generator") and \
        listed[2].endswith("): in 1 chunk, closed by STOP"), listed[2]
    assert "0 chunks" not in page.locator("#timeline").text_content()
    assert page.locator("#timeline figcaption").text_content().startswith(
        "Timeline: 3 parts of the rebuilt response")
