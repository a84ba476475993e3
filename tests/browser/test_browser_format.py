"""The Format view and the shared JSON viewer in Chromium, through the real server."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from browser_helpers import own_page
from jsonutil import log_chunks

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
READY = '#viewer[data-state="ready"]'


def paste(page, text: str) -> None:
    """Put `text` on the clipboard and paste it into the (cleared) input with Ctrl+V."""
    page.evaluate("t => navigator.clipboard.writeText(t)", text)
    box = page.locator("#text")
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.press("Control+V")
    assert box.input_value() == text


def copied(page, button: str) -> str:
    """Click a copy button; the text it put on the clipboard (copyText is asynchronous)."""
    page.evaluate("window.__workbenchLastCopy = null")
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_function("() => window.__workbenchLastCopy !== null")
    return page.evaluate("window.__workbenchLastCopy")


def row(page, pointer: str):
    return page.locator(f'#viewer .jv-row[data-pointer="{pointer}"]')


def test_invalid_json_shows_line_column_and_marks_the_input(page, server):
    bad = '{\n  "model": "gpt-4.1",\n  "temperature": 1.10\n  "top_p": 1\n}\n'
    status, body = server.api("format", {"text": bad})
    assert status == 422 and body["error"]["line"] == 4 and body["error"]["column"] == 3
    page.goto("/format")
    paste(page, bad)
    headline = page.locator("#headline")
    headline.filter(has_text="Not valid JSON").wait_for()
    assert "line 4, column 3" in headline.inner_text()
    error = page.locator("#error")
    assert "line 4, column 3" in error.locator(".where").inner_text()
    assert body["error"]["message"] in error.inner_text()
    snippet = error.locator("pre.snippet").inner_text()
    assert '"top_p": 1' in snippet and snippet.rstrip().endswith("^")
    assert "error at 4:3" in page.locator("#text-status").inner_text()
    # the input is scrolled to and marks line 4
    box = page.locator("#text")
    assert box.get_attribute("data-marked-line") == "4"
    start, end = page.evaluate("() => { const t = document.getElementById('text'); return [t.selectionStart, t.selectionEnd]; }")
    assert bad[start:end] == '  "top_p": 1'
    assert page.locator("#viewer").is_hidden()
    # fixing the text turns it valid again, live, without a click
    page.evaluate("""() => { const t = document.getElementById('text');
        t.value = t.value.replace('1.10\\n', '1.10,\\n'); t.dispatchEvent(new InputEvent('input', {inputType: 'insertText', bubbles: true})); }""")
    page.locator("#headline", has_text=re.compile(r"^Valid JSON")).wait_for()
    assert page.locator("#text-status").inner_text().endswith("· valid JSON")
    assert page.locator("#viewer").is_visible()


def test_fold_select_and_copy_path_and_pointer(page):
    doc = {"data": [{"agent_id": "a1", "weird/key~": {"it's": 1.5, "b": [True, None]}}, {"agent_id": "a2"}],
           "count": 2}
    page.goto("/format")
    paste(page, json.dumps(doc))
    page.wait_for_selector(READY)
    viewer = page.locator("#viewer")
    # fold /data: the folded row shows the item count, its members leave the DOM
    data = row(page, "/data")
    assert data.get_attribute("aria-expanded") == "true"
    rows_before = int(viewer.get_attribute("data-rows"))
    data.locator(".jv-tog").click()
    assert data.get_attribute("aria-expanded") == "false"
    assert "[…] 2 items" in data.inner_text()
    assert row(page, "/data/0").count() == 0
    assert int(viewer.get_attribute("data-rows")) < rows_before
    # unfold it again by clicking the summary
    data.locator(".jv-fold").click()
    assert row(page, "/data/0/agent_id").count() == 1
    # depth 3 is folded by default: {…} 2 keys
    weird = row(page, "/data/0/weird~1key~0")
    assert "{…} 2 keys" in weird.inner_text()
    weird.locator(".jv-tog").click()
    value = row(page, "/data/0/weird~1key~0/it's")
    value.locator(".jv-num").click()
    assert "selected" in (value.get_attribute("class") or "")
    assert page.locator("#viewer .jv-path").inner_text() == "$['data'][0]['weird/key~']['it\\'s']"
    assert copied(page, "Copy path") == "$['data'][0]['weird/key~']['it\\'s']"
    assert page.evaluate("navigator.clipboard.readText()") == "$['data'][0]['weird/key~']['it\\'s']"
    assert copied(page, "Copy pointer") == "/data/0/weird~1key~0/it's"
    assert copied(page, "Copy value") == "1.5"
    # keyboard: the tree is reachable and arrows move the selection
    page.locator("#viewer .jv-scroll").focus()
    page.keyboard.press("ArrowDown")
    assert viewer.get_attribute("data-selected-pointer") == "/data/0/weird~1key~0/b"
    b = row(page, "/data/0/weird~1key~0/b")
    assert "[…] 2 items" in b.inner_text()  # depth 4: folded by default
    page.keyboard.press("ArrowRight")  # unfolds it
    assert b.get_attribute("aria-expanded") == "true" and row(page, "/data/0/weird~1key~0/b/1").count() == 1
    page.keyboard.press("ArrowLeft")  # folds it again
    assert b.get_attribute("aria-expanded") == "false"
    page.keyboard.press("ArrowLeft")  # folded: goes to the parent
    assert viewer.get_attribute("data-selected-pointer") == "/data/0/weird~1key~0"
    # collapse all / expand all
    page.get_by_role("button", name="Collapse all").click()
    assert int(viewer.get_attribute("data-rows")) == 4  # {, "data": […], "count": 2, }
    page.get_by_role("button", name="Expand all").click()
    assert row(page, "/data/0/weird~1key~0/b/1").count() == 1
    # copy all is the formatted text
    assert json.loads(copied(page, "Copy all")) == doc


def test_numbers_and_strings_stay_exact_in_the_viewer(page):
    text = ('{"a": 1.10, "big": 12345678901234567890123, "neg": -0.0, "huge": 1e400, "small": 1E-7,'
            ' "s": "caf\\u00e9 \\"q\\" \\/", "arr": [0.1, 100000000000000000001]}')
    page.goto("/format")
    paste(page, text)
    page.wait_for_selector(READY)
    nums = page.locator("#viewer .jv-num").all_inner_texts()
    assert nums == ["1.10", "12345678901234567890123", "-0.0", "1e400", "1E-7", "0.1", "100000000000000000001"]
    assert "Valid JSON · 3 warnings" in page.locator("#headline").inner_text()
    codes = page.locator("#warnings li[data-code]").evaluate_all("els => els.map(e => [e.dataset.code, e.dataset.pointer])")
    assert codes == [["unsafe_integer", "/big"], ["float_overflow", "/huge"], ["unsafe_integer", "/arr/1"]]
    page.locator("#warnings button.jump").first.click()
    assert page.locator("#viewer").get_attribute("data-selected-pointer") == "/big"
    assert page.locator("#text").get_attribute("data-marked-line") == "1"
    row(page, "/a").click()
    assert copied(page, "Copy value") == "1.10"


def test_viewer_alone_shows_duplicates_escapes_and_marks(page):
    """The viewer reads text itself: both duplicate keys, escapes as written, exact numbers."""
    page.goto("/format")
    result = page.evaluate("""async () => {
        const { JsonViewer } = await import('/static/js/viewer.js');
        const el = document.createElement('div'); document.querySelector('main').append(el);
        const picked = [];
        const v = new JsonViewer(el, { onSelect: (n) => picked.push(n), maxAutoExpandDepth: 1 });
        await v.setText('{"k": 1, "k": 2.50, "e": "\\\\u00e9\\\\n", "deep": {"x": [1, {"y": 3}]}}');
        const rows = [...el.querySelectorAll('.jv-row[data-pointer]')].map(r => r.textContent);
        const found = v.highlight(['/deep/x/1/y', '/nope'], 'match');
        const marked = [...el.querySelectorAll('.jv-row.match')].map(r => r.dataset.pointer);
        v.reveal('/deep/x/0');
        const bad = document.createElement('div'); document.querySelector('main').append(bad);
        const w = new JsonViewer(bad);
        await w.setText('{"a": 1,}');
        return { rows, found, marked, picked, state: bad.dataset.state, msg: bad.querySelector('.jv-msg').textContent };
    }""")
    texts = result["rows"]
    assert any('"k": 1,' in t for t in texts) and any('"k": 2.50,' in t for t in texts)
    assert any('"e": "\\u00e9\\n",' in t for t in texts)
    assert any('"deep": {…} 1 key' in t for t in texts)
    assert result["found"] == 1 and result["marked"] == ["/deep/x/1/y"]
    assert result["picked"][-1]["pointer"] == "/deep/x/0"
    assert result["picked"][-1]["path"] == "$['deep']['x'][0]"
    assert result["picked"][-1]["text"] == "1"
    assert result["state"] == "invalid" and "line 1, column 9" in result["msg"]


def test_text_survives_a_reload(page):
    text = '{"kept": [1.10, "über"], "n": 12345678901234567890123}'
    page.goto("/format")
    paste(page, text)
    page.wait_for_selector(READY)
    page.select_option("#indent", "4")
    page.reload()
    assert page.locator("#text").input_value() == text
    assert page.locator("#indent").input_value() == "4"
    page.wait_for_selector(READY)
    assert "Valid JSON" in page.locator("#headline").inner_text()
    assert "1.10" in page.locator("#viewer .jv-scroll").inner_text()
    assert "kept" not in page.url and "1.10" not in page.url


def test_open_a_small_file_and_sample(page, tmp_path):
    f = tmp_path / "item.json"
    f.write_text('{"type": "function_call", "arguments": "{}", "n": 1.10}', encoding="utf-8")
    page.goto("/format")
    page.set_input_files("#text_file", str(f))
    page.wait_for_selector(READY)
    assert page.locator("#text").input_value() == f.read_text(encoding="utf-8")
    assert page.locator("#viewer .jv-num").all_inner_texts() == ["1.10"]
    page.get_by_role("button", name="Sample").click()
    page.locator("#headline", has_text=re.compile(r"^Valid JSON · 2 warnings")).wait_for()
    codes = page.locator("#warnings li strong").all_inner_texts()
    assert sorted(codes) == ["duplicate_key", "unsafe_integer"]
    assert "1.10" in page.locator("#viewer .jv-scroll").inner_text()
    dup = page.locator('#warnings li[data-code="duplicate_key"]')
    assert "first at input line" in dup.inner_text() and "again at input line" in dup.inner_text()
    dup.get_by_role("button", name="show").click()
    assert page.locator("#viewer").get_attribute("data-selected-pointer") == ""
    assert page.locator("#text").get_attribute("data-marked-line") is not None
    page.get_by_role("button", name="Clear").click()
    assert page.locator("#text").input_value() == ""
    assert page.locator("#viewer").is_hidden()


def test_a_large_input_runs_on_ctrl_enter(page):
    items = ",\n".join(json.dumps({"seq": n, "score": "1.10", "v": 1.10 + n}) for n in range(30_000))
    text = "[\n" + items + "\n]"
    assert 1_000_000 < len(text) < 2_000_000
    page.goto("/format")
    page.evaluate("""t => { const ta = document.getElementById('text'); ta.value = t;
        ta.dispatchEvent(new InputEvent('input', {inputType: 'insertFromPaste', bubbles: true})); }""", text)
    status = page.locator("#text-status")
    status.filter(has_text="large input").wait_for()
    page.wait_for_timeout(600)  # no live run for a large input
    assert page.locator("#placeholder").is_visible()
    page.locator("#text").focus()
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(READY)
    assert page.locator("#headline").inner_text().startswith("Valid JSON")
    assert status.inner_text().endswith("valid JSON")
    assert int(page.locator("#viewer").get_attribute("data-rows")) > 30_000


def test_the_page_works_with_javascript_off(browser, server):
    with own_page(browser, server, java_script_enabled=False) as pg:
        pg.goto("/format")
        pg.fill("#text", '{"a": 1.10,\n "b": [1, 2,]}')
        pg.click("button#run")
        pg.wait_for_load_state("load")
        assert "Not valid JSON" in pg.locator("#headline").inner_text()
        assert "line 2, column" in pg.locator("#error").inner_text()
        pg.fill("#text", '{"a": 1.10, "a": 2, "n": 12345678901234567890123}')
        pg.select_option("#indent", "4")
        pg.click("button#run")
        pg.wait_for_load_state("load")
        assert "Valid JSON · 2 warnings" in pg.locator("#headline").inner_text()
        out = pg.locator("#output").inner_text()
        assert '\n    "a": 2' in out and "12345678901234567890123" in out
        # JSONC when the user says so, with what it changed: the plain form has the choice too
        pg.fill("#text", '{\n  // note\n  "a": 1.10,\n}')
        pg.select_option("#input_kind", "jsonc")
        pg.click("button#run")
        pg.wait_for_load_state("load")
        assert pg.locator("#headline").inner_text().startswith("Valid JSONC")
        assert "comments removed: 1 · trailing commas removed: 1" in pg.locator("#converted").inner_text()
        assert pg.locator("#output").inner_text() == '{\n    "a": 1.10\n}'
        # JSON Lines are named, with their count (issue 27)
        pg.fill("#text", '{"a": 1}\n{"a": 12345678901234567890}\n')
        pg.select_option("#input_kind", "json")
        pg.click("button#run")
        pg.wait_for_load_state("load")
        assert pg.locator("#headline").inner_text() == "Valid JSON Lines · 2 values · 1 warning"
        assert "value 2, input line 2" in pg.locator("#warnings").inner_text()


def make_big_document(path: Path, target_bytes: int, shared: Path | None) -> int:
    """A JSON array of Open Responses items (from the shared fixtures when present)."""
    items = []
    fixtures = shared / "reference" / "openresponses-fixtures" / "items.jsonl" if shared else None
    if fixtures and fixtures.exists():
        for line in fixtures.read_text(encoding="utf-8").splitlines():
            if line.strip():
                items.append(json.loads(line)["item"])
    if not items:
        items = [{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
                  "arguments": "{\"city\":\"Zürich\"}", "status": "completed"}]
    parts = log_chunks(items, target_bytes, seed=7)
    path.write_text("[\n" + ",\n".join(parts) + "\n]\n", encoding="utf-8")
    return len(parts)


def test_twenty_megabytes_stay_usable(page, tmp_path, request):
    try:
        shared = request.getfixturevalue("shared")
    except pytest.skip.Exception:
        shared = None
    big = tmp_path / "big.json"
    n_items = make_big_document(big, 20 * 1024 * 1024, shared)
    size = big.stat().st_size
    page.goto("/format")
    t0 = time.perf_counter()
    page.set_input_files("#text_file", str(big))
    # while the page works, it keeps answering
    latencies = []
    deadline = t0 + 120
    while page.locator(READY).count() == 0 and time.perf_counter() < deadline:
        s = time.perf_counter()
        assert page.evaluate("1 + 1") == 2
        latencies.append(time.perf_counter() - s)
        time.sleep(0.05)
    page.wait_for_selector(READY + " .jv-row[data-pointer]", timeout=5000)
    first_render = time.perf_counter() - t0
    s = time.perf_counter()
    page.evaluate("document.title")
    after = time.perf_counter() - s
    rows_in_dom = page.locator("#viewer .jv-row").count()
    model_rows = int(page.locator("#viewer").get_attribute("data-rows"))
    headline = page.locator("#headline").inner_text()
    detail = page.locator("#summary .detail").inner_text()
    print(f"\n20 MB format view: {size / 1e6:.1f} MB, {n_items} items; first rows after {first_render:.2f} s; "
          f"slowest page answer while working {max(latencies or [0]) * 1000:.0f} ms over {len(latencies)} probes; "
          f"answer after render {after * 1000:.0f} ms; {rows_in_dom} row elements for {model_rows} rows in the model; "
          f"{headline} / {detail}")
    assert first_render < 60
    assert after < 0.5
    assert max(latencies or [0]) < 1.5
    assert rows_in_dom < 300
    assert model_rows > 100_000
    # scroll to the end: the last item is there, still few elements
    page.locator("#viewer .jv-scroll").evaluate("el => { el.scrollTop = el.scrollHeight; }")
    page.wait_for_selector(f'#viewer .jv-row[data-pointer="/{n_items - 1}/seq"]')
    assert page.locator("#viewer .jv-row").count() < 300
    # expand everything, then reveal a deep node
    page.get_by_role("button", name="Expand all").click()
    assert int(page.locator("#viewer").get_attribute("data-rows")) >= model_rows
    page.evaluate("() => document.querySelector('#viewer .jv-scroll').scrollTop = 0")
    row(page, "/0").wait_for()


def test_json_lines_say_so_and_show_every_value(page, server):
    # issue 27: 50 lines of items read "Valid JSON · 1 warning" while the tree said in red
    # "Not valid JSON (line 21 …) Shown as plain text"; the page never said JSON Lines
    items = [{"type": "function_call", "call_id": f"call_{i}", "n": i} for i in range(50)]
    items[7]["n"] = 12345678901234567890   # one warning, in the 8th value
    text = "\n".join(json.dumps(x) for x in items) + "\n"
    status, body = server.api("format", {"text": text})
    assert status == 200 and body["jsonl"] is True and body["lines"] == 50
    page.goto("/format")
    paste(page, text)
    page.wait_for_selector(READY)
    headline = page.locator("#headline").inner_text()
    assert "JSON Lines" in headline and "50 values" in headline and "1 warning" in headline
    assert "Not valid" not in page.locator("#viewer").inner_text()
    assert page.locator("#viewer").get_attribute("data-state") == "ready"
    # the tree holds the 50 values; the warning is marked at its value
    assert row(page, "/0").count() == 1
    assert int(page.locator("#viewer").get_attribute("data-rows")) >= 50 * 5
    assert "value 8" in page.locator("#warnings").inner_text()
    page.locator("#warnings button.jump").click()
    row(page, "/7/n").wait_for()
    assert '12345678901234567890' in row(page, "/7/n").inner_text()
    # the output to copy stays JSON Lines (one value after another), not the array of the tree
    lines_out = copied(page, "Copy JSON Lines")
    assert lines_out == body["formatted"]
    # minified: one value per line, said so
    page.select_option("#indent", "0")
    page.locator("#minified-text").wait_for()
    assert "one value per line" in page.locator("#minified").inner_text()
    assert page.locator("#minified-text").inner_text().count("\n") == 49
