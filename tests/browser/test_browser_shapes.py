"""Issue 23's real shapes on the Gate page, in a real browser on the real server, on the real
recordings: a call made by a program (``caller: {type: "program", caller_id}``) shows its link
to the calling item in the calls list, with JavaScript and without (transcript-rules.md,
"Program callers"); every shared recording reads without None / null / undefined and its
headline counts blocked calls; a chain id the paste does not give is drawn unknown, with the
reason; "walk this call" gives the listed verdict.

Expected places and verdicts come from the real POST /api/transcript, never typed in."""

from __future__ import annotations

import json
import re

import pytest
from browser_helpers import MISSING_WORDS, PAGE_WORDS, api_report, own_page
from recordings import recordings

pytestmark = pytest.mark.browser

FIRST = "realworld/transcripts/069_vercel-ai__openai__programmatic-tool-calling.1.json"
SECOND = "realworld/transcripts/070_vercel-ai__openai__programmatic-tool-calling.2.json"
STREAM = "realworld/streams/031_vercel-ai__openai__programmatic-tool-calling.1.chunks.txt"



def paste(page, text: str, kind: str) -> None:
    """Paste ``text`` into a fresh Gate page and wait for its report of ``kind`` (the report's
    ``data-kind``: the page's words for a kind may change, its kind does not)."""
    page.goto("/gate")
    page.fill("#item", text)
    page.wait_for_function("([kind]) => document.getElementById('report')?.dataset.kind === kind && "
                           "!document.getElementById('result-body').hasAttribute('aria-busy')",
                           arg=[kind], timeout=20000)


def selected_text(page) -> str:
    return page.evaluate("() => { const t = document.getElementById('item'); return t.value.slice(t.selectionStart, t.selectionEnd); }")


@pytest.mark.parametrize("name, kind", [(FIRST, "response"), (STREAM, "response_stream")])
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


# --------------------------------------------------------------------------- every recording



def test_every_recording_reads_without_none_null_or_undefined_and_counts_blocked(page, server):
    """issue 23: no page text prints None / null / undefined for a missing value, over every
    shared recording (and the SDK run states), with JavaScript; the headline counts the blocked
    calls and is green only when none is blocked and no error is found."""
    paths = recordings()
    assert len(paths) > 100
    page.goto("/gate")
    found, checked = {}, 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        report = api_report(server, text)
        page.evaluate("() => document.getElementById('report')?.setAttribute('data-old', '')")
        page.set_input_files("#item_file", str(path))   # opened as a file: it runs at once
        try:
            page.wait_for_function(
                "() => { const r = document.getElementById('report'); return r && !r.hasAttribute('data-old') && "
                "!document.getElementById('result-body').hasAttribute('aria-busy'); }", timeout=20000)
        except Exception as exc:
            raise AssertionError(f"{path.name} ({checked} checked): no report — "
                                 f"{page.inner_text('#verdict-live')!r}") from exc
        live = page.locator("#verdict-live")
        said, cls = live.inner_text(), live.get_attribute("class").split()
        blocked = report["summary"]["blocked"]
        assert (f"· {blocked:,} blocked" in said) == (blocked > 0), (path.name, said)
        good = report["summary"]["errors"] == 0 and blocked == 0
        assert ("good" if good else "bad") in cls, (path.name, said, cls)
        words = [w for w in page.evaluate(PAGE_WORDS) if MISSING_WORDS.search(w)]
        # a null the text holds may be named, and a schema's words name the type null
        words = [w for w in words if re.search(r"\b(None|undefined)\b", w) or
                 ("null" not in text and "schema" not in w)]
        if words:
            found[path.name] = words[:5]
        checked += 1
    assert found == {}, "\n".join(f"{k}: {w}" for k, ws in found.items() for w in ws)
    assert checked == len(paths)


# --------------------------------------------------------------------------- the chain's unknown ids

UNKNOWN_IDS = json.dumps({"id": "sess_1", "agent": {"model": "gpt-5"}, "items": [
    {"type": "create_subagent_call", "turn_id": "turn_1", "arguments": {"instructions": "go"}},
    {"type": "function_call", "turn_id": "turn_1", "call_id": "call_1", "name": "lookup_order",
     "arguments": {"order_id": "A-1"}}]}, indent=1)


def test_an_id_the_paste_does_not_give_is_drawn_unknown(page, server):
    # agents-rules.md: a link whose id is absent from the paste is drawn as unknown, with the
    # reason, never as null
    report = api_report(server, UNKNOWN_IDS)
    unknown = [l for l in report["chain"]["links"] if "unknown" in l]
    assert [l["object"] for l in unknown] == ["agent", "subagent"]
    paste(page, UNKNOWN_IDS, "agents_session")
    page.wait_for_selector("#chain svg, figure.chain svg")
    boxes = page.locator(".chain-node[data-object='agent'], .chain-node[data-object='subagent']")
    assert boxes.count() == 2
    for k in range(2):
        assert "id unknown" in boxes.nth(k).text_content()
    said = page.locator(".chain-text").text_content()
    for l in unknown:
        assert f"(id unknown: {l['unknown']})" in said
    assert not re.search(r"\b(null|undefined|None)\b", said)
    with own_page(page.context.browser, server, java_script_enabled=False) as plain:
        plain.goto("/gate")
        plain.fill("#item", UNKNOWN_IDS)
        with plain.expect_navigation():
            plain.click("#gate-run")
        listed = plain.inner_text("#chain")
        for l in unknown:
            assert f"id unknown: {l['unknown']}" in listed
        assert not re.search(r"\b(null|undefined|None)\b", listed)


# --------------------------------------------------------------------------- the walk agrees

WALKED = [
    # a Gemini request whose own tools the gate cannot read (enum-encoded types): listed and
    # walked without them
    "realworld2/gemini/0142_opentelemetry-python-contrib__cassettes__test_tool_events__i0_request.json",
    # a program's call (its caller link beside it)
    FIRST,
]


@pytest.mark.parametrize("name", WALKED)
def test_walk_this_call_gives_the_listed_verdict(page, server, shared, name):
    text = (shared / "reference" / name).read_text(encoding="utf-8")
    report = api_report(server, text)
    paste(page, text, report["kind"])
    assert report["calls"]
    for i, c in enumerate(report["calls"]):
        page.evaluate("() => document.getElementById('call-walk-verdict')?.remove()")
        page.click(f"#calls button[data-walk='{i}']")
        want = "ok — may be executed" if c["verdict"] == "ok" else f"Blocked: {c['verdict']}"
        page.wait_for_function("([want]) => document.getElementById('call-walk-verdict')?.textContent === want",
                               arg=[want], timeout=20000)
    if report.get("tools_unread"):
        assert report["tools_unread"] in page.inner_text("#report")
