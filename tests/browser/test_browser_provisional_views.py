"""Provisional first rows in Validate, Gate and Diff (issue 25): for a several-MB document the page
shows rows it read from the text itself (static/js/scan.js: itemsScan, diffScan, in a worker) while
the real server works — Validate the first items it is about to check, Gate the first calls it will
gate, Diff the first places where the two documents' values differ — marked provisional and never a
verdict; the server's answer replaces them (its rows the same rows, asked of the server here on its
own), an error answer removes them, and where the page cannot be sure it shows none.  And diffScan
itself, in Chromium, against the server's changes on generated pairs."""

from __future__ import annotations

import json
import random

import pytest
from test_browser_provisional import PASTE, big_document, entry

pytestmark = pytest.mark.browser

# every panel of provisional rows the page puts up, recorded as it appears (the answer may take
# it away at any time after): its head and each row's cells as text
RECORD = """() => {
  window.__provisional = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!(n instanceof Element) || n.dataset.provisional !== 'true') continue;
      window.__provisional.push({
        busy: n.getAttribute('aria-busy'),
        tag: n.querySelector('.provisional-tag')?.textContent,
        head: n.querySelector('.provisional-head')?.textContent,
        rows: [...n.querySelectorAll('tr[data-provisional-row]')].map((tr) => [...tr.cells].map((td) => td.textContent)),
      });
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""

SCHEMA = {"type": "object", "required": ["object", "data"], "properties": {
    "data": {"type": "array", "items": {"type": "object", "required": ["seq", "item"],
                                         "properties": {"seq": {"type": "integer", "minimum": 0}}}}}}


def recorded(page) -> list[dict]:
    return page.evaluate("() => window.__provisional")


def clip(text: str, n: int) -> str:
    return text[:n] + "…" if len(text) > n else text


@pytest.fixture(scope="module")
def doc_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("provisional_views") / "log.json"
    path.write_text(big_document(3), encoding="utf-8")
    return path


def give(page, how: str, textarea: str, file_input: str, path) -> None:
    if how == "file":
        page.set_input_files(file_input, str(path))
    else:
        page.evaluate(PASTE, [textarea, path.read_text(encoding="utf-8")])


# ----------------------------------------------------------------------------- Validate

@pytest.mark.parametrize("how", ["file", "paste"])
def test_validate_lists_the_first_items_provisionally_then_the_verdict(page, server, doc_file, how):
    text = doc_file.read_text(encoding="utf-8")
    page.goto("/validate")
    page.fill("#schema", json.dumps(SCHEMA))
    page.evaluate(RECORD)
    give(page, how, "#document", "#document_file", doc_file)
    page.wait_for_function("() => document.getElementById('summary').dataset.provisional === 'replaced'", timeout=60_000)
    shown = recorded(page)
    assert len(shown) == 1, shown
    panel = shown[0]
    assert panel["tag"] == "Provisional" and panel["busy"] == "true"
    # the same items, places and texts as the server's own reading of them
    status, items = server.api("extract", {"document": text, "path": "$.data[*]"})
    assert status == 200
    assert panel["head"].endswith(f"the first 50 items of {items['count']:,} items in /data")
    assert panel["rows"] == [[str(n + 1), m["pointer"], f"line {m['line']}, column {m['column']}", clip(m["json"], 120)]
                             for n, m in enumerate(items["matches"][:50])]
    assert not any(word in panel["head"].lower() for word in ("valid", "error"))   # no verdict: that is the answer's
    assert page.locator("#provisional").count() == 0
    assert page.locator("#headline").inner_text().startswith("Valid")
    status, answer = server.api("validate", {"document": text, "schema": json.dumps(SCHEMA)})
    assert status == 200 and answer["valid"] is True


def test_validate_shows_no_items_when_a_repeated_key_replaces_the_list(page, tmp_path, doc_file):
    twice = tmp_path / "twice.json"
    twice.write_text(doc_file.read_text(encoding="utf-8").rstrip()[:-1] + ', "data": [{"seq": -1, "item": {}}]}',
                     encoding="utf-8")
    page.goto("/validate")
    page.fill("#schema", json.dumps(SCHEMA))
    page.evaluate(RECORD)
    page.set_input_files("#document_file", str(twice))
    page.locator("#headline.bad").wait_for(timeout=60_000)
    assert recorded(page) == []
    assert page.locator("#errors li").first.get_attribute("data-pointer") == "/data/0/seq"


def broken_late(text: str, token: str, bad: str) -> str:
    """``text`` with the last ``token`` written ``bad`` (a number JSON does not have, in a late
    item the page's pass skips whole: the server finds it)."""
    at = text.rindex(token)
    return text[:at] + bad + text[at + len(token):]


def test_validate_an_invalid_document_loses_its_items_to_the_error(page, tmp_path, doc_file):
    broken = tmp_path / "broken.json"
    broken.write_text(broken_late(doc_file.read_text(encoding="utf-8"), '"seq": ', '"seq": +'), encoding="utf-8")
    page.goto("/validate")
    page.fill("#schema", json.dumps(SCHEMA))
    page.evaluate(RECORD)
    page.set_input_files("#document_file", str(broken))
    page.locator("#headline.bad").wait_for(timeout=60_000)
    assert len(recorded(page)) == 1                     # shown while the server read it …
    assert "not valid JSON" in page.locator("#headline").inner_text()
    assert page.locator("#provisional").count() == 0
    assert page.locator("#summary").get_attribute("data-provisional") is None


# ----------------------------------------------------------------------------- Gate

def request_body(target_mb: float, seed: int = 26, extra: str = "") -> str:
    """A Responses request body of about ``target_mb`` MB: calls (from test_browser_provisional's
    entries) each followed by its output, one item a line, now and then a message."""
    rnd = random.Random(seed)
    items, size, n = [], 0, 0
    while size < target_mb * 1e6:
        call = entry(rnd, n)["item"]
        call = {"type": "function_call", "id": f"fc_{n}", **{k: v for k, v in call.items() if k != "type"}, "status": "completed"}
        out = {"type": "function_call_output", "call_id": call["call_id"], "output": json.dumps({"ok": True, "n": n})}
        batch = [call, out] + ([{"type": "message", "role": "user", "content": "next ü"}] if n % 5 == 0 else [])
        for it in batch:
            line = json.dumps(it, ensure_ascii=n % 2 == 0)
            items.append(line)
            size += len(line) + 2
        n += 1
    return '{"model": "gpt-5", "input": [\n' + ",\n".join(items) + "\n]" + extra + "}\n"


@pytest.fixture(scope="module")
def body_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("provisional_gate") / "request.json"
    path.write_text(request_body(3), encoding="utf-8")
    return path


@pytest.mark.parametrize("how", ["file", "paste"])
def test_gate_lists_the_first_calls_provisionally_then_the_report(page, server, body_file, how):
    text = body_file.read_text(encoding="utf-8")
    page.goto("/gate")
    page.evaluate(RECORD)
    give(page, how, "#item", "#item_file", body_file)
    page.wait_for_function("() => document.getElementById('result-body').dataset.provisional", timeout=60_000)
    shown = recorded(page)
    assert len(shown) == 1, shown
    panel = shown[0]
    assert panel["tag"] == "Provisional" and panel["busy"] == "true"
    assert "the first 50 calls" in panel["head"]
    status, report = server.api("transcript", {"text": text})
    assert status == 200 and report["kind"] == "item_list"
    assert panel["rows"] == [[str(n + 1), c["name"], c["call_id"], c["pointer"], f"line {c['line']}, column {c['column']}"]
                             for n, c in enumerate(report["calls"][:50])]
    # the page found the report's first calls the same, and the report replaced them
    assert page.locator("#result-body").get_attribute("data-provisional") == "confirmed"
    assert page.locator("#provisional").count() == 0
    assert page.locator("#calls li.call").count() > 0


def test_gate_lists_no_calls_for_a_shape_it_is_not_sure_of(page, tmp_path):
    """A member no Responses request has: which kind the server reads is its to say."""
    odd = tmp_path / "odd.json"
    odd.write_text(request_body(2, extra=', "contents": []'), encoding="utf-8")
    page.goto("/gate")
    page.evaluate(RECORD)
    page.set_input_files("#item_file", str(odd))
    page.locator("#report").wait_for(timeout=60_000)
    assert recorded(page) == []


def test_gate_an_unreadable_text_loses_its_calls_to_the_error(page, tmp_path, body_file):
    broken = tmp_path / "broken.json"
    broken.write_text(broken_late(body_file.read_text(encoding="utf-8"), '"status": "completed"', '"status": +1'), encoding="utf-8")
    page.goto("/gate")
    page.evaluate(RECORD)
    page.set_input_files("#item_file", str(broken))
    page.locator("#error").wait_for(timeout=60_000)
    assert len(recorded(page)) == 1                     # shown while the server read it …
    assert page.locator("#provisional").count() == 0    # … and gone with its answer
    assert page.locator("#result-body").get_attribute("data-provisional") is None


# ----------------------------------------------------------------------------- Diff

def changed(text: str, every: int = 40) -> str:
    """The log with every ``every``-th entry line changed (its seq and a word of its text)."""
    lines = text.split("\n")
    for i in range(1, len(lines) - 1, every):
        lines[i] = lines[i].replace('{"seq": ', '{"seq": 1', 1).replace("read_file", "write_file", 1)
    return "\n".join(lines)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    d = tmp_path_factory.mktemp("provisional_diff")
    text = big_document(1.5, seed=27)
    (d / "left.json").write_text(text, encoding="utf-8")
    (d / "right.json").write_text(changed(text), encoding="utf-8")
    return d / "left.json", d / "right.json"


def choose_pair(page, left, right):
    page.set_input_files("#left_file", str(left))
    page.wait_for_function("() => !!document.getElementById('left-big') || document.getElementById('left').value.length > 0",
                           timeout=60_000)
    page.set_input_files("#right_file", str(right))


def test_diff_shows_the_first_differences_provisionally_then_the_changes(page, server, pair):
    left, right = pair
    page.goto("/diff")
    page.evaluate(RECORD)
    choose_pair(page, left, right)
    page.wait_for_function("() => document.getElementById('diffview').dataset.provisional", timeout=60_000)
    shown = recorded(page)
    assert len(shown) == 1, shown
    panel = shown[0]
    assert panel["tag"] == "Provisional" and panel["busy"] == "true"
    rows = panel["rows"]
    assert len(rows) == 10
    status, answer = server.api("diff", {"left": left.read_text(encoding="utf-8"), "right": right.read_text(encoding="utf-8")})
    assert status == 200 and not answer["equal"]
    by_pointer = {c["pointer"]: c for c in answer["changes"]}
    for n, (num, pointer, lcell, rcell) in enumerate(rows):
        assert num == str(n + 1)
        c = by_pointer[pointer]       # each place is one of the answer's changes …
        assert c["op"] == "replace"
        assert lcell.startswith(clip(c["left"], 60) + " line ") and rcell.startswith(clip(c["right"], 60) + " line ")
    # … and they are its first ones, in order
    assert [r[1] for r in rows] == [c["pointer"] for c in answer["changes"][:10]]
    assert page.locator("#diffview").get_attribute("data-provisional") == "confirmed"
    assert page.locator("#provisional").count() == 0
    assert page.locator("#dgrid .drow").count() > 0


def test_diff_shows_nothing_for_values_written_differently(page, tmp_path, pair):
    """1.0 against 1 at the first difference: maybe one value (a note, not a change): no rows."""
    left, _ = pair
    text = left.read_text(encoding="utf-8")
    right = tmp_path / "right.json"
    right.write_text(text.replace('"seq": 0,', '"seq": 0.0,', 1), encoding="utf-8")
    page.goto("/diff")
    page.evaluate(RECORD)
    choose_pair(page, left, right)
    page.wait_for_function("() => /differences|change/i.test(document.getElementById('headline')?.textContent || '')", timeout=60_000)
    assert recorded(page) == []


def test_diff_an_invalid_side_loses_the_rows_to_the_error(page, tmp_path, pair):
    left, right = pair
    broken = tmp_path / "broken.json"
    broken.write_text(broken_late(right.read_text(encoding="utf-8"), '"seq": ', '"seq": +'), encoding="utf-8")
    page.goto("/diff")
    page.evaluate(RECORD)
    choose_pair(page, left, broken)
    page.locator("#headline.bad").wait_for(timeout=60_000)
    assert len(recorded(page)) == 1                     # shown while the server read it …
    assert page.locator("#provisional").count() == 0    # … and gone with its answer
    assert "not valid JSON" in page.locator("#headline").inner_text()


DIFF_JS = """async (cases) => {
  const { diffScan } = await import('/static/js/scan.js');
  const enc = (s) => new TextEncoder().encode(s);
  return cases.map(([l, r]) => diffScan(enc(l), enc(r), { maxRows: 3 }));
}"""


def mutate(rnd: random.Random, text: str) -> str:
    """A small change somewhere: a digit, a letter, a literal, a number written otherwise."""
    for _ in range(20):
        i = rnd.randrange(len(text))
        ch = text[i]
        if ch.isdigit():
            return text[:i] + rnd.choice("0123456789") + text[i + 1:]
        if ch in "sx":
            return text[:i] + rnd.choice("tyü") + text[i + 1:]
        if text.startswith("true", i):
            return text[:i] + rnd.choice(["false", "null", "1", '"true"']) + text[i + 4:]
    return text.replace("1", "1.0", 1)


def test_diff_scan_agrees_with_the_server_on_generated_pairs(page, server):
    from test_browser_provisional import small_value
    rnd = random.Random(2026)
    cases = []
    for _ in range(300):
        left = small_value(rnd)
        right = mutate(rnd, left)
        cases.append([left, right])
    page.goto("/diff")
    got = page.evaluate(DIFF_JS, cases)
    checked = 0
    for (left, right), mine in zip(cases, got):
        if not mine:
            continue
        status, answer = server.api("diff", {"left": left, "right": right})
        if status != 200:
            continue   # not JSON: the error replaces the rows
        assert not answer["equal"], (left, right, mine)
        for row in mine["rows"]:
            p = row["pointer"]
            assert any(c["pointer"] == p or p.startswith(c["pointer"] + "/") or c["pointer"] == ""
                       for c in answer["changes"]), (left, right, row, answer["changes"])
        checked += 1
    assert checked > 50
