"""A new user's walk through Format, Extract and Gate in Chromium, through the real server:
keyboard only (Tab to the input, type, Ctrl+Enter, the headline), a visible focus ring on every
stop, `?`, no sideways scrolling on a narrow screen, input kept across a reload, the error line
marked beside the input, files that are empty or not UTF-8 said so, long warning lists
shortened, and the viewer's find box reaching folded and off-screen parts of a document."""

from __future__ import annotations

import json
import re

import pytest
from browser_helpers import own_page

pytestmark = pytest.mark.browser

ITEM = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
        "arguments": "{\"city\":\"Zürich\"}", "status": "completed"}

# which element a view's main input is, what to type, and where the verdict appears
VIEWS = {
    "format": ("#text", '{"a": [1, 2.50, {"b": null}]}', "#headline", "Valid JSON"),
    "extract": ("#document", '{"a": [1, 2.50, {"b": null}]}', "#headline", "1 match"),
    "gate": ("#item", json.dumps(ITEM), "#verdict-live", "ok — may be executed"),
}

FOCUS_RING = """() => {
  // the focused element, or what draws its ring (the framed input, the label of a hidden file input)
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  let ring = e;
  if (e.matches('.docin > textarea')) ring = e.parentElement;
  if (e.matches('input[type=file].sr-only')) ring = document.querySelector(`label[for="${e.id}"]`);
  const cs = getComputedStyle(ring);
  return {id: e.id, tag: e.tagName, outline: cs.outlineStyle, width: parseFloat(cs.outlineWidth),
          visible: ring.getBoundingClientRect().width > 2};
}"""


def tab_to(page, selector: str, limit: int = 40) -> list[dict]:
    """Press Tab until `selector` has the focus; every stop on the way must show a focus ring."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUS_RING)
        if info:
            stops.append(info)
            assert info["outline"] != "none" and info["width"] >= 2 and info["visible"], f"no visible focus ring: {info}"
        if page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
            return stops
    raise AssertionError(f"{selector} not reached with Tab; stops: {[s['tag'] + '#' + s['id'] for s in stops]}")


@pytest.mark.parametrize("view", list(VIEWS))
def test_keyboard_only_run_and_headline(page, view):
    selector, text, headline, verdict = VIEWS[view]
    page.goto(f"/{view}")
    stops = tab_to(page, selector)
    # the input is labelled
    label = page.evaluate("s => { const e = document.querySelector(s); return (e.labels[0] || document.getElementById(e.getAttribute('aria-labelledby')))?.textContent || ''; }", selector)
    assert label.strip()
    # the file button is a stop before the input, with its ring on the visible label
    assert any(s["tag"] == "INPUT" and s["id"].endswith("_file") for s in stops)
    page.keyboard.type(text)
    if view == "extract":
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "path"
        page.keyboard.type("$.a[2].b")
    page.keyboard.press("Control+Enter")
    page.locator(headline, has_text=verdict).wait_for()
    # the verdict is announced: it sits in (or is) a polite live region
    live = page.evaluate("s => !!document.querySelector(s).closest('[aria-live]')", headline)
    assert live
    # `?` outside a field shows the shortcuts; Esc closes them
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("?")
    assert page.evaluate("document.getElementById('shortcuts').open")
    if view != "gate":   # the viewer's find keys are listed where a viewer has its toolbar
        assert "in a viewer" in page.locator("#shortcuts").inner_text()
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('shortcuts').open")


@pytest.mark.parametrize("view", list(VIEWS))
def test_narrow_screen_never_scrolls_sideways(browser, server, view):
    # own_page also fails the test on a JavaScript error or a request to another host
    with own_page(browser, server, viewport={"width": 420, "height": 900}) as page:
        page.goto(f"/{view}")
        selector, text, headline, verdict = VIEWS[view]
        # a long unbroken line and a result with a viewer, tables and the rules
        long_text = text if view == "gate" else json.dumps({"a": [1, 2.50, {"b": None}], "k" * 300: "v" * 500})
        page.fill(selector, long_text)
        if view == "extract":
            page.fill("#path", "$..*")
        page.keyboard.press("Control+Enter")
        page.locator(headline).filter(has_text=verdict if view == "gate" else "").wait_for()
        page.wait_for_timeout(300)
        width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        assert width <= inner, f"{view}: the page scrolls sideways ({width} > {inner})"


# per view: the fields filled (a <select> is chosen), where the live result appears and what it says
KEPT = {
    "format": ({"#text": '{"kept": 1.10}', "#indent": "4"}, "#headline", "Valid JSON"),
    "extract": ({"#document": '{"kept": [1, 2]}', "#path": "$.kept[1]"}, "#headline", "1 match"),
    "gate": ({"#item": json.dumps(ITEM)}, "#verdict-live", "ok"),
}


@pytest.mark.parametrize("view", KEPT)
def test_input_survives_reload(page, view):
    fields, live, said = KEPT[view]
    page.goto(f"/{view}")
    for selector, value in fields.items():
        field = page.locator(selector)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.locator(live, has_text=said).wait_for()
    page.reload()
    assert {s: page.locator(s).input_value() for s in fields} == fields
    page.locator(live, has_text=said).wait_for()
    assert "kept" not in page.url and "get_weather" not in page.url


def test_error_line_is_marked_beside_the_input(page):
    page.goto("/format")
    bad = '{\n  "type": "acme:telemetry_chunk",\n  "status": "completed"\n  "request_id": "req_123"\n}'
    page.fill("#text", bad)
    page.locator("#headline", has_text="Not valid JSON").wait_for()
    assert "line 4, column 3" in page.locator("#headline").inner_text()
    marked = page.locator("#text-status").locator("xpath=..").locator(".docin-nums .marked")
    marked.wait_for()
    assert marked.inner_text() == "4"
    assert page.locator("#text").get_attribute("data-error-line") == "4"
    band = page.locator(".docin-band")
    assert band.is_visible()
    # the band lies over line 4 of the textarea
    top, ta_top, line_h = page.evaluate("""() => { const b = document.querySelector('.docin-band').getBoundingClientRect();
      const t = document.getElementById('text'); const cs = getComputedStyle(t);
      return [b.top, t.getBoundingClientRect().top + parseFloat(cs.paddingTop) + parseFloat(cs.borderTopWidth), parseFloat(cs.lineHeight)]; }""")
    assert abs(top - (ta_top + 3 * line_h)) < 2
    # fixing the text clears the mark
    page.fill("#text", bad.replace('"completed"\n', '"completed",\n'))
    page.locator("#headline", has_text="Valid JSON").wait_for()
    assert page.locator(".docin-nums .marked").count() == 0 and band.is_hidden()

    # the Gate marks the line of a parse error in the item too
    page.goto("/gate")
    page.fill("#item", '[\n# a comment\n  {"type": "x"}\n]')
    # (an array is read as a transcript first: its headline says it cannot be read)
    page.locator("#verdict-live", has_text=re.compile("Cannot (gate|read)")).wait_for()
    page.locator("#item-status", has_text="error at 2:1").wait_for()
    assert page.locator("#gate-form .docin-nums .marked").first.inner_text() == "2"


def test_empty_and_not_utf8_files_are_said_so(page, tmp_path):
    page.goto("/format")
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    page.set_input_files("#text_file", str(empty))
    page.locator("#text-status", has_text="empty.json is empty").wait_for()
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"city": "Zürich"}'.encode("latin-1"))
    page.set_input_files("#text_file", str(latin1))
    page.locator("#headline", has_text="Valid JSON").wait_for()
    # the note stays after the toast is gone, beside the verdict on the replaced text
    page.wait_for_timeout(1800)
    assert "not UTF-8" in page.locator("#text-status").inner_text()
    # typing makes it the user's own text: the note goes
    page.locator("#text").press("End")
    page.keyboard.type(" ")
    page.wait_for_function("() => !document.getElementById('text-status').textContent.includes('not UTF-8')")
    page.locator("#text-status", has_text="valid JSON").wait_for()


def test_long_warning_list_is_shortened(page):
    page.goto("/format")
    doc = "[" + ", ".join(str(2 ** 60 + i) for i in range(12)) + "]"
    page.fill("#text", doc)
    page.locator("#headline", has_text="12 warnings").wait_for()
    assert page.locator("#warnings li[data-code]").count() == 5
    more = page.locator("#warnings button.more")
    assert more.inner_text() == "Show 7 more warnings"
    more.click()
    assert page.locator("#warnings li[data-code]").count() == 12
    # the viewer is still on the first screen
    page.goto("/format")
    page.fill("#text", doc)
    page.locator("#headline", has_text="12 warnings").wait_for()
    assert page.locator("#viewer .jv-scroll").bounding_box()["y"] < 900


def test_viewer_find_reaches_folded_and_unrendered_rows(page):
    doc = {"items": [{"id": i, "meta": {"tags": {"deep": {"note": f"note {i}"}}}} for i in range(3000)]}
    doc["items"][2990]["meta"]["tags"]["deep"]["note"] = "the Needle here"
    doc["items"][5]["meta"]["tags"]["deep"]["needle"] = True
    page.goto("/format")
    page.fill("#text", json.dumps(doc))
    page.wait_for_selector('#viewer[data-state="ready"]')
    target = '#viewer .jv-row[data-pointer="/items/2990/meta/tags/deep/note"]'
    assert page.locator(target).count() == 0   # folded (depth 5) and far below
    # Ctrl+F inside the viewer goes to the find box
    page.locator("#viewer .jv-scroll").focus()
    page.keyboard.press("Control+f")
    assert page.evaluate("document.activeElement.classList.contains('jv-find')")
    page.keyboard.type("needle")
    count = page.locator("#viewer .jv-find-count")
    count.filter(has_text="1 of 2").wait_for()
    # the first hit is a key, in document order; Enter goes on to the value
    assert page.get_attribute("#viewer", "data-selected-pointer") == "/items/5/meta/tags/deep/needle"
    page.keyboard.press("Enter")
    count.filter(has_text="2 of 2").wait_for()
    row = page.locator(target)
    row.wait_for()
    assert "jv-found-current" in row.get_attribute("class")
    assert row.locator("mark.jv-hit").inner_text() == "Needle"
    assert page.get_attribute("#viewer", "data-selected-pointer") == "/items/2990/meta/tags/deep/note"
    assert page.locator("#viewer .jv-path").inner_text() == "$['items'][2990]['meta']['tags']['deep']['note']"
    # Shift+Enter goes back; the focus stays in the box
    page.keyboard.press("Shift+Enter")
    count.filter(has_text="1 of 2").wait_for()
    assert page.evaluate("document.activeElement.classList.contains('jv-find')")
    # a quote is found as written inside a string too; nothing found says so
    page.keyboard.press("Control+a")
    page.keyboard.type("zzz-not-there")
    count.filter(has_text="No matches").wait_for()
    page.keyboard.press("Escape")
    assert page.locator("#viewer .jv-find").input_value() == ""
    assert page.locator("#viewer .jv-row.jv-found").count() == 0


def test_viewer_find_in_extract_escaped_strings(page):
    page.goto("/extract")
    doc = {"output": [{"type": "function_call", "arguments": "{\"location\":\"Paris\"}"}]}
    page.fill("#document", json.dumps(doc))
    page.fill("#path", "$.output[0].type")
    page.locator("#headline", has_text="1 match").wait_for()
    page.wait_for_selector('#viewer[data-state="ready"]')
    page.fill("#viewer .jv-find", '"location"')
    page.locator("#viewer .jv-find").press("Enter")
    page.locator("#viewer .jv-find-count", has_text="1 of 1").wait_for()
    assert page.get_attribute("#viewer", "data-selected-pointer") == "/output/0/arguments"
