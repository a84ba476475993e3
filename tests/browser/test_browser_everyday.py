"""Everyday use (issue 17) in Chromium, through the real server: a stale result is marked at once
in every view, JSON inside a string opens as a nested tree, Minify shows the minified text,
Extract copies its matches, a large document not kept across a reload says so, keyboard order,
the redaction preview, and JSONC read on request."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser

READY = '#viewer[data-state="ready"]'

ITEM = {"type": "function_call", "id": "fc_67ccd2c0a1b48190", "call_id": "call_3c91", "name": "get_weather",
        "arguments": json.dumps({"location": "Zürich, CH", "days": 3, "precise": 12345678901234567890123,
                                 "ratio": 1.10, "contact": "jane.doe@corp.example"}).replace("1.1,", "1.10,"),
        "status": "completed"}


def copied(page, click) -> str:
    page.evaluate("window.__workbenchLastCopy = null")
    click()
    page.wait_for_function("() => window.__workbenchLastCopy !== null")
    return page.evaluate("window.__workbenchLastCopy")


def edit_in_page(page, selector: str, text: str) -> dict:
    """Change a field as typing does, and read the stale marks in the same task: 'at once'."""
    return page.evaluate("""([sel, text]) => {
        const el = document.querySelector(sel);
        el.value = text;
        el.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText" }));
        const marked = [...document.querySelectorAll("[data-stale]")].map((e) => e.id);
        return { marked, note: document.getElementById("stale-note")?.textContent || null };
    }""", [selector, text])


# ------------------------------------------------------------------------------ stale results

VIEWS = {
    # view: (fields to fill, the field to change, a selector that shows a result, the result element)
    "format": ({"#text": '{"ok": true}'}, "#text", "#headline.good", "summary"),
    "extract": ({"#document": json.dumps({"a": [1, 2]}), "#path": "$.a[*]"}, "#path", "#match-count", "summary"),
    "validate": ({"#document": '{"a": 1}', "#schema": '{"type": "object"}'}, "#document", "#headline", "summary"),
    "diff": ({"#left": '{"a": 1}', "#right": '{"a": 2}'}, "#right", "#headline", "summary"),
    "gate": ({"#item": json.dumps(ITEM)}, "#item", "#walk, #result-body .report, #result-body > *:not(#placeholder)", "result-body"),
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_a_stale_result_is_marked_at_once_in_every_view(page, view):
    fields, changed, shows, result_id = VIEWS[view]
    page.goto(f"/{view}")
    for sel, text in fields.items():
        page.locator(sel).fill(text)
    page.locator(shows).first.wait_for()
    page.wait_for_function(f"() => !document.getElementById('{result_id}').dataset.stale")
    seen = edit_in_page(page, changed, page.locator(changed).input_value() + " ")
    assert result_id in seen["marked"], seen
    assert seen["note"] and "Out of date" in seen["note"]
    assert page.locator(f"#{result_id}").evaluate("e => getComputedStyle(e).opacity") != "1"
    # the live run answers for the new input: the mark goes
    page.wait_for_function(f"() => !document.getElementById('{result_id}').dataset.stale", timeout=15000)
    assert page.locator("#stale-note").count() == 0


def test_a_large_invalid_input_marks_the_old_result_until_it_runs(page):
    page.goto("/format")
    page.locator("#text").fill('{"ok": true}')
    page.locator("#headline.good").wait_for()
    big = '{"items": [' + ",".join(['{"n": 1}'] * 140_000) + ",]}"   # 1.3 MB, past the live limit, invalid
    page.locator("#text").fill(big)
    note = page.locator("#stale-note")
    note.wait_for()
    assert "Press Format" in note.inner_text()
    assert page.locator("#summary").get_attribute("data-stale") == "true"
    assert "Valid JSON" in page.locator("#headline").inner_text()   # still there, but marked
    page.keyboard.press("Control+Enter")
    page.locator("#headline.bad").wait_for()
    assert page.locator("#stale-note").count() == 0
    # strict parsing stopped at a trailing comma: reading it as JSONC is offered
    assert "trailing comma" in page.locator("#lenient-offer").inner_text()


# ------------------------------------------------------------------------------ JSON in strings

def test_a_string_holding_json_opens_as_a_nested_tree(page):
    page.goto("/format")
    page.locator("#text").fill(json.dumps({"output": [ITEM]}, indent=2))
    page.wait_for_selector(READY)
    args = page.locator('#viewer .jv-row[data-pointer="/output/0/arguments"]')
    args.locator(".jv-json").click()
    nested = page.locator("#viewer .jv-nested")
    nested.wait_for()
    assert "parsed from a string" in nested.locator(".jv-nested-head").inner_text()
    assert nested.get_attribute("data-nested-for") == "/output/0/arguments"
    page.wait_for_selector('#viewer .jv-nested .jv[data-state="ready"]')
    nums = nested.locator(".jv-num").all_inner_texts()
    assert nums == ["3", "12345678901234567890123", "1.10"]   # the nested tokenizer keeps the text
    assert nested.locator('.jv-row[data-pointer="/location"]').count() == 1
    # the outer document is unchanged; closing removes the nested tree
    assert page.locator('#viewer > .jv-scroll .jv-row[data-pointer="/output/0/arguments"] .jv-str').count() == 1
    nested.get_by_role("button", name="Close", exact=True).click()
    assert page.locator("#viewer .jv-nested").count() == 0


def test_extract_viewer_opens_a_string_with_the_keyboard(page):
    page.goto("/extract")
    page.locator("#document").fill(json.dumps({"output": [ITEM]}))
    page.locator("#path").fill("$..call_id")
    page.wait_for_selector(READY)
    page.locator('#viewer .jv-row[data-pointer="/output/0/arguments"]').click()
    page.keyboard.press("Enter")
    page.wait_for_selector('#viewer .jv-nested .jv[data-state="ready"]')
    assert page.locator("#viewer").get_attribute("data-nested") == "/output/0/arguments"


# ------------------------------------------------------------------------------ minify, copy matches

def test_minify_shows_the_minified_text(page, server):
    doc = json.dumps({"output": [ITEM], "n": 1.10}, indent=2).replace('"n": 1.1', '"n": 1.10')
    page.goto("/format")
    page.locator("#text").fill(doc)
    page.wait_for_selector(READY)
    page.locator("#indent").select_option("0")
    page.locator("#minified-text").wait_for()
    status, answer = server.api("format", {"text": doc, "indent": 0})
    assert status == 200
    assert page.locator("#minified-text").inner_text() == answer["formatted"]
    assert "\n" not in answer["formatted"] and '"n":1.10' in answer["formatted"]
    assert page.locator("#viewer").is_hidden()
    detail = page.locator("#summary .detail").inner_text()
    assert "1 line" in detail and "minified" in detail
    assert copied(page, lambda: page.locator('#minified [data-act="copy-minified"]').click()) == answer["formatted"]
    # back to an indent: the tree again
    page.locator("#indent").select_option("2")
    page.wait_for_selector(READY)
    assert page.locator("#minified").is_hidden()


def test_extract_copies_matches_as_a_json_array_and_as_json_lines(page, server):
    doc = json.dumps({"output": [ITEM, {**ITEM, "call_id": "call_77aa", "n": 1.50}]}, indent=2)
    doc = doc.replace('"n": 1.5', '"n": 1.50')
    page.goto("/extract")
    page.locator("#document").fill(doc)
    page.locator("#path").fill("$.output[*]")
    page.locator("#match-count", has_text="2 matches").wait_for()
    status, answer = server.api("extract", {"document": doc, "path": "$.output[*]"})
    exact = [m["json"] for m in answer["matches"]]
    assert "\n" in exact[0]   # each match is written over several lines in the document
    array = copied(page, lambda: page.locator('[data-copy-matches="array"]').click())
    assert json.loads(array) == [json.loads(t) for t in exact]
    assert all(t in array for t in exact)   # the exact text of each match, as written
    lines = copied(page, lambda: page.locator('[data-copy-matches="jsonl"]').click()).splitlines()
    assert len(lines) == 2
    assert [json.loads(x, parse_float=str) for x in lines] == [json.loads(t, parse_float=str) for t in exact]
    assert '"n":1.50' in lines[1]


# ------------------------------------------------------------------------------ reload

def test_a_large_file_not_kept_across_a_reload_says_so_and_reopens(page, tmp_path):
    path = tmp_path / "big-log.json"
    path.write_text(json.dumps({"items": [{"call_id": f"call_{i:06d}", "text": "x" * 40} for i in range(40_000)]}))
    assert path.stat().st_size > 2_000_000
    page.goto("/format")
    page.locator("#text_file").set_input_files(str(path))
    page.locator("#bigtext").wait_for()
    page.locator("#headline.good").wait_for(timeout=30000)
    # the panel no longer asks to press Format once it has formatted
    assert "Press Format" not in page.locator("#bigtext").inner_text()
    assert "answer for it is shown" in page.locator("#bigtext .bighint").inner_text()
    page.reload()
    note = page.locator("#bigtext-lost")
    note.wait_for()
    text = note.inner_text()
    assert "big-log.json" in text and "was not kept across the reload" in text and "session storage" in text
    with page.expect_file_chooser() as chooser:
        note.get_by_role("button", name="Reopen big-log.json").click()
    chooser.value.set_files(str(path))
    page.locator("#headline.good").wait_for(timeout=30000)
    assert note.is_hidden()


# ------------------------------------------------------------------------------ keyboard

def tab_order(page, limit=40):
    page.locator("body").focus()
    page.evaluate("document.activeElement.blur()")
    order = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    return order


@pytest.mark.parametrize("view,box,run", [("format", "text", "run"), ("extract", "document", "run"),
                                          ("validate", "document", "run"), ("diff", "left", "run"),
                                          ("gate", "item", "gate-run")])
def test_the_text_box_comes_before_the_run_button(page, view, box, run):
    page.goto(f"/{view}")
    order = tab_order(page)
    assert box in order and run in order, order
    assert order.index(box) < order.index(run)


def test_shortcut_list_has_the_tree_keys_and_an_empty_gate_says_what_is_missing(page):
    page.goto("/format")
    page.keyboard.press("?")
    dialog = page.locator("#shortcuts")
    assert dialog.is_visible()
    assert "in a tree" in dialog.inner_text() and "↑" in dialog.inner_text() and "→" in dialog.inner_text()
    page.keyboard.press("Escape")
    page.goto("/gate")
    page.locator("#item").fill("")
    page.locator("#item").press("Control+Enter")
    assert "Nothing to gate yet" in page.locator("#verdict-live").inner_text()


# ------------------------------------------------------------------------------ redaction

def test_copy_redacted_shows_the_diff_before_copying(page):
    doc = json.dumps({"output": [ITEM]}, indent=2)
    page.goto("/format")
    page.locator("#text").fill(doc)
    page.wait_for_selector(READY)
    page.evaluate("window.__workbenchLastCopy = null")
    page.locator('#format-form [data-redact]').click()
    dialog = page.locator("#redact-dialog")
    dialog.wait_for()
    assert dialog.get_attribute("data-state") == "ready"
    dels = dialog.locator(".redact-diff .del").all_inner_texts()
    adds = dialog.locator(".redact-diff .add").all_inner_texts()
    assert any("call_3c91" in d for d in dels) and any("call_0001" in a for a in adds)
    assert any("fc_0000000000000001" in a for a in adds)   # issue 27: a counter, not XXXX
    assert not any("function_call" in d for d in dels)   # type values are kept
    assert page.evaluate("window.__workbenchLastCopy") is None   # nothing copied before the click
    text = copied(page, lambda: dialog.locator("#redact-copy").click())
    red = json.loads(text)
    item = red["output"][0]
    assert set(item) == set(ITEM) and item["type"] == "function_call" and item["call_id"] == "call_0001"
    args = json.loads(item["arguments"])   # JSON inside the string is redacted inside, keys kept
    assert set(args) == {"location", "days", "precise", "ratio", "contact"}
    assert args["contact"].endswith("@example.invalid") and len(args["location"]) == len("Zürich, CH")
    assert "Zürich" not in text and "jane.doe" not in text
    assert args["precise"] == 12345678901234567890123   # numbers only on request
    page.locator("#redact-dialog").wait_for(state="detached")   # the dialog closes once copied


def test_redaction_numbers_on_request_and_every_view_offers_it(page):
    page.goto("/validate")
    page.locator("#document").fill('{"id": "call_3c91", "n": 1741476542, "f": 0.0125}')
    page.locator('[data-redact="document"]').click()
    page.locator("#redact-numbers").check()
    adds = page.locator("#redact-dialog .redact-diff .add").all_inner_texts()
    assert any('"n": 1000000000' in a and '"f": 0.0000' in a for a in adds), adds
    page.locator("#redact-dialog [data-close]").click()
    for view in ["format", "extract", "diff", "gate"]:
        page.goto(f"/{view}")
        assert page.locator("[data-redact]").count() >= 1, view


# ------------------------------------------------------------------------------ JSONC on request

def test_jsonc_is_offered_after_a_comment_and_says_what_it_changed(page):
    text = '{\n  // the editor font\n  "size": 14,\n  "ratio": 1.10,\n}\n'
    page.goto("/format")
    page.locator("#text").fill(text)
    offer = page.locator("#lenient-offer")
    offer.wait_for()
    assert "a comment" in offer.inner_text()
    assert page.locator("#headline").inner_text().startswith("Not valid JSON")   # never silently
    offer.get_by_role("button", name="Read it as JSONC").click()
    page.locator("#headline", has_text="Valid JSONC").wait_for()
    converted = page.locator("#converted").inner_text()
    assert "comments removed: 1" in converted and "trailing commas removed: 1" in converted
    page.wait_for_selector(READY)
    assert page.locator("#viewer .jv-num").all_inner_texts() == ["14", "1.10"]


def test_yaml_read_when_the_user_says_so(page, server):
    text = "# a call, as YAML\ntype: function_call\ncall_id: call_3c91\ntemperature: 1.10\nbig: 12345678901234567890123\ntype: message\n"
    page.goto("/format")
    page.locator("#input_kind").select_option("yaml")
    page.locator("#text").fill(text)
    page.locator("#headline", has_text="Valid YAML").wait_for()
    assert "converted from YAML" in page.locator("#converted").inner_text()
    assert "duplicate_key" in page.locator("#warnings").inner_text()
    page.wait_for_selector(READY)
    assert page.locator("#viewer .jv-num").all_inner_texts() == ["1.10", "12345678901234567890123"]
    # strict JSON stays the default for the next visit's API calls
    status, body = server.api("format", {"text": text})
    assert status == 422 and body["error"]["code"] == "parse_error"


def test_json_lines_are_redacted_line_by_line(page):
    page.goto("/extract")
    page.locator("#document").fill('{"call_id": "call_3c91", "text": "Call Bob"}\n{"call_id": "call_77aa", "type": "message"}\n')
    page.locator('[data-redact="document"]').click()
    dialog = page.locator("#redact-dialog")
    dialog.wait_for()
    assert dialog.get_attribute("data-state") == "ready" and dialog.get_attribute("data-changed") == "2"
    text = copied(page, lambda: dialog.locator("#redact-copy").click())
    assert [json.loads(x) for x in text.splitlines()] == [   # issue 27: distinct ids stay distinct
        {"call_id": "call_0001", "text": "Xxxx Xxx"}, {"call_id": "call_0002", "type": "message"}]
