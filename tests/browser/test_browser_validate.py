"""The Validate page in Chromium: errors listed, clickable, live; works as a plain form too."""

import pytest
from browser_helpers import own_page

pytestmark = pytest.mark.browser


def test_invalid_document_shows_errors_and_clicking_marks_the_line(page):
    page.goto("/validate")
    page.select_option("#example", "lookup_order")
    headline = page.locator("#headline")
    headline.filter(has_text="3 errors").wait_for()
    assert "draft 2020-12" in headline.inner_text()
    assert "tool lookup_order" in headline.inner_text()
    items = page.locator("#errors li")
    assert items.count() == 3
    pointers = [items.nth(i).get_attribute("data-pointer") for i in range(3)]
    assert pointers == ["/order_id", "/include_items", "/refund"]  # document order
    # the example document: "refund" is on line 4
    page.locator('#errors li[data-pointer="/refund"] button.err-jump').click()
    doc = page.locator("#document")
    assert doc.get_attribute("data-marked-line") == "4"
    selected = page.evaluate("""() => { const t = document.getElementById('document');
        return t.value.slice(t.selectionStart, t.selectionEnd); }""")
    assert '"refund": 25.00' in selected
    # the viewer reveals the node
    page.wait_for_function("() => document.getElementById('viewer').dataset.selectedPointer === '/refund'")
    # another entry marks its own line
    page.locator('#errors li[data-pointer="/order_id"] button.err-jump').click()
    assert doc.get_attribute("data-marked-line") == "2"
    # review of the strict tool: nothing left open except the free string check passes (it has a pattern)
    assert page.locator("#review-title").inner_text().startswith("Strictness review")
    # the schema status shows the draft
    assert "draft 2020-12" in page.locator("#schema-status").inner_text()


def test_live_revalidation_and_valid_headline(page):
    page.goto("/validate")
    page.select_option("#example", "valid")
    page.locator("#headline").filter(has_text="Valid").wait_for()
    assert page.locator("#errors li").count() == 0
    # typing a mistake re-validates without pressing anything
    doc = page.locator("#document")
    doc.fill('{"location": "Zürich, CH", "unit": "kelvin", "days": 3}')
    page.locator("#headline").filter(has_text="1 error").wait_for()
    assert page.locator("#errors li").first.get_attribute("data-pointer") == "/unit"
    assert "kelvin" in page.locator("#errors li").first.inner_text()


def test_draft7_example_and_schema_errors_are_located(page):
    page.goto("/validate")
    page.select_option("#example", "draft7")
    page.locator("#headline").filter(has_text="errors").wait_for()
    assert "draft-07" in page.locator("#headline").inner_text()
    pointers = page.eval_on_selector_all("#errors li", "els => els.map(e => e.dataset.pointer)")
    assert pointers == ["/1/sku", "/1/qty", "/1/price", "/2/sku"]
    # a broken schema: the error box names the schema field and its line
    page.locator("#schema").fill('{\n  "type": "object",\n  "required": "name"\n}')
    page.locator("#error[data-code='schema_invalid']").wait_for()
    assert "line 3" in page.locator("#error").inner_text()
    page.locator("#error button.jump").click()
    assert page.locator("#schema").get_attribute("data-marked-line") == "3"


def test_plain_form_without_javascript(browser, server):
    with own_page(browser, server, java_script_enabled=False) as pg:
        pg.goto("/validate")
        pg.fill("#document", '{"order_id": "X-1", "refund": true}')
        pg.fill("#schema", '{"type": "object", "properties": {"order_id": {"type": "string", '
                           '"pattern": "^[A-Z]-\\\\d{4}$"}}, "required": ["order_id", "reason"], '
                           '"additionalProperties": false}')
        pg.click("#run")
        pg.wait_for_load_state("load")
        assert "3 errors" in pg.locator("#headline").inner_text()
        assert pg.eval_on_selector_all("#errors li", "els => els.map(e => e.dataset.pointer)") == \
            ["/reason", "/order_id", "/refund"]
        # the form keeps what was typed
        assert pg.locator("#document").input_value() == '{"order_id": "X-1", "refund": true}'


def test_a_large_document_is_held_in_memory_and_its_errors_revealed(page):
    import json
    items = [{"seq": i, "level": "info", "msg": "x" * 150} for i in range(15_000)]
    items[12_345]["level"] = "LOUD"
    text = "[\n" + ",\n".join(json.dumps(it) for it in items) + "\n]\n"
    assert len(text) > 2_000_000
    page.goto("/validate")
    page.locator("#schema").fill('{"items": {"properties": {"level": {"enum": ["info", "warn"]}}}}')
    page.set_input_files("#document_file", files=[{"name": "log.json", "mimeType": "application/json",
                                                    "buffer": text.encode()}])
    page.locator("#bigtext").wait_for()
    assert "log.json" in page.locator("#bigtext").inner_text()
    assert page.locator("#document").is_hidden()
    page.locator("#headline").filter(has_text="1 error").wait_for(timeout=60_000)
    item = page.locator("#errors li").first
    assert item.get_attribute("data-pointer") == "/12345/level"
    assert item.get_attribute("data-line") == "12347"
    item.locator("button.err-jump").click()
    page.wait_for_function("() => document.getElementById('viewer').dataset.selectedPointer === '/12345/level'",
                           timeout=30_000)


# --------------------------------------------------------------------------- function call items and drafted schemas

CALL_TOOL = """{
  "type": "function", "name": "lookup_order", "strict": true,
  "parameters": {"type": "object",
    "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]-\\\\d{4}$"},
                   "include_lines": {"type": "boolean"}},
    "required": ["order_id", "include_lines"], "additionalProperties": false}
}"""
CALL_ITEM = ('{"type": "function_call", "call_id": "call_3c91", "name": "lookup_order",\n'
             ' "arguments": "{\\"order_id\\": \\"1042\\", \\"include_lines\\": true, \\"refund\\": true}"}')


def test_a_function_call_item_offers_to_validate_its_arguments(page):
    page.goto("/validate")
    page.locator("#schema").fill(CALL_TOOL)
    page.locator("#document").fill(CALL_ITEM)
    hint = page.locator("#call-hint")
    hint.wait_for()
    assert hint.get_attribute("data-pointer") == "/arguments"
    assert "function call to 'lookup_order'" in hint.inner_text()
    # one click: the parsed arguments against the tool, the Gate's schema step
    page.locator("#validate-arguments").click()
    headline = page.locator("#headline")
    headline.filter(has_text="the arguments at /arguments").wait_for()
    assert "2 errors" in headline.inner_text()
    pointers = page.eval_on_selector_all("#errors li", "els => els.map(e => e.dataset.pointer)")
    assert pointers == ["/order_id", "/refund"]
    assert page.locator("#call-hint").count() == 0
    # the viewer shows the arguments the errors are placed in, and reveals one on click
    page.locator('#errors li[data-pointer="/refund"] button.err-jump').click()
    page.wait_for_function("() => document.getElementById('viewer').dataset.selectedPointer === '/refund'")
    # back to the whole document
    page.locator("#validate-document").click()
    page.locator("#call-hint").wait_for()


def test_draft_a_strict_schema_from_examples_and_use_it(page):
    page.goto("/validate")
    examples = "\n".join([
        '{"order_id": "A-1042", "status": "open", "call_id": "call_8fK2abcd91", "qty": 2}',
        '{"order_id": "B-2210", "status": "open", "call_id": "call_Zx91pQrs22", "qty": 1}',
        '{"order_id": "C-0007", "status": "closed", "call_id": "call_0000aaaa11", "qty": 3}',
    ])
    page.locator("#document").fill(examples)
    page.locator("#schema").fill("")
    page.locator("#draft-schema").click()
    page.locator("#headline").filter(has_text="Drafted strict schema").wait_for()
    assert "not applied" in page.locator("#headline").inner_text()
    checks = page.locator("#draft-checks").inner_text()
    assert "validates 3 of 3 examples" in checks and "strict, nothing left open" in checks
    drafted = page.locator("#drafted-schema").input_value()
    assert '"additionalProperties": false' in drafted and '"^call_[A-Za-z0-9]+$"' in drafted
    assert '"^[A-Z]-\\\\d{4}$"' in drafted and '"enum"' in drafted
    # nothing was applied: the schema pane is still empty
    assert page.locator("#schema").input_value() == ""
    # the user edits and applies it: the first line then is a valid object, the whole text JSON Lines
    page.locator("#use-draft").click()
    page.locator("#document").fill('{"order_id": "A-1234", "status": "open", "call_id": "call_abcdef12", "qty": 5}')
    page.locator("#headline").filter(has_text="Valid").wait_for()
    page.locator("#document").fill('{"order_id": "1042", "status": "open", "call_id": "call_abcdef12", "qty": 5, "x": 1}')
    page.locator("#headline").filter(has_text="2 errors").wait_for()


# --------------------------------------------------------------------------- issue 27: the tool the call names

def _recorded_call_and_tools(shared):
    """simonw/llm's recorded request: tools [lookup_population, can_have_dragons] and a
    function_call to can_have_dragons (the first tool refuses its arguments)."""
    import json
    body = json.loads((shared / "reference/realworld/transcripts/156_llm__test_openai_responses__"
                                "test_responses_round_trips_encrypted_reasoning__i2_request.json").read_text())
    call = next(x for x in body["input"] if x.get("type") == "function_call" and x["name"] == "can_have_dragons")
    return json.dumps(call, indent=2), json.dumps(body["tools"], indent=2)


def _selected_tool(pg) -> str:
    return pg.eval_on_selector("#tool", "s => s.options[s.selectedIndex].textContent")


def test_a_call_is_validated_against_the_tool_it_names(page, shared):
    document, tools = _recorded_call_and_tools(shared)
    page.goto("/validate")
    page.locator("#schema").fill(tools)
    page.locator("#document").fill(document)
    button = page.locator("#validate-arguments")
    button.wait_for()
    assert button.inner_text() == "Validate the parsed arguments against can_have_dragons"
    assert _selected_tool(page) == "can_have_dragons (named by the call)"
    assert "tool can_have_dragons" in page.locator("#headline").inner_text()
    button.click()
    headline = page.locator("#headline")
    headline.filter(has_text="the arguments at /arguments").wait_for()
    assert headline.inner_text().startswith("Valid") and "tool can_have_dragons" in headline.inner_text()
    assert _selected_tool(page) == "can_have_dragons (named by the call)"
    # choosing the other tool checks against it, and the choice stays
    page.select_option("#tool", "lookup_population")
    headline.filter(has_text="1 error").wait_for()
    assert "tool lookup_population" in headline.inner_text()
    assert _selected_tool(page) == "lookup_population"


def test_a_call_is_validated_against_the_tool_it_names_without_javascript(browser, server, shared):
    document, tools = _recorded_call_and_tools(shared)
    with own_page(browser, server, java_script_enabled=False) as pg:
        pg.goto("/validate")
        pg.fill("#document", document)
        pg.fill("#schema", tools)
        pg.click("#run")
        pg.wait_for_load_state("load")
        assert pg.locator("#validate-arguments").inner_text() == \
            "Validate the parsed arguments against can_have_dragons"
        assert _selected_tool(pg) == "can_have_dragons (named by the call)"
        pg.click("#validate-arguments")
        pg.wait_for_load_state("load")
        headline = pg.locator("#headline").inner_text()
        assert headline.startswith("Valid") and "tool can_have_dragons" in headline, headline
