"""Provisional first rows of a large document (issue 25): the page shows rows it made from the
text itself (static/js/scan.js) while the real server works, marked provisional, and the
server's answer replaces them — its first rows the same rows, asked of the server here on its
own — for a several-MB file chosen and pasted.  A document the page cannot answer exactly gets
no rows (never different ones); an invalid one loses them to the server's error.  And scan.js itself, in Chromium, against the
server's answers on generated documents."""

from __future__ import annotations

import json
import random

import pytest

pytestmark = pytest.mark.browser

# every panel of provisional rows the page puts up, recorded as it appears (the answer may
# take it away at any time after)
RECORD = """() => {
  window.__provisional = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!(n instanceof Element) || n.dataset.provisional !== 'true') continue;
      window.__provisional.push({
        busy: n.getAttribute('aria-busy'),
        tag: n.querySelector('.provisional-tag')?.textContent,
        head: n.querySelector('.provisional-head')?.textContent,
        lines: [...n.querySelectorAll('.prow .ptext')].map((c) => c.textContent),
        rows: [...n.querySelectorAll('tr[data-provisional-row]')].map((tr) => ({
          path: tr.querySelector('td:nth-child(2) code').textContent,
          pointer: tr.querySelector('td:nth-child(2) code.muted').textContent,
          json: tr.querySelector('.match-value').getAttribute('title') ? null : tr.querySelector('.match-value').textContent,
          at: tr.querySelector('td:nth-child(4)').textContent })),
      });
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def entry(rnd: random.Random, n: int) -> dict:
    """A log entry with what makes an exact reading hard: 64-bit ids, decimals that a float
    would change, escapes and non-ASCII text, a call_id nested before the entry's own."""
    return {
        "seq": n, "trace_id": rnd.getrandbits(64), "cost": f"{rnd.randint(0, 99999) / 1000:.3f}0",
        "item": {"type": "function_call", "call_id": f"call_{rnd.getrandbits(48):x}", "name": rnd.choice(["search", "read_file"]),
                 "arguments": json.dumps({"city": rnd.choice(["Zürich", "東京", "São Paulo", "a \"quoted\" / slash"]),
                                          "days": rnd.randint(1, 9)}, ensure_ascii=rnd.random() < 0.5)},
        "call_id": f"call_{n}",
        "tags": [] if n % 3 else ["x", {"deep": [n, None, True]}],
    }


def big_document(target_mb: float, seed: int = 25) -> str:
    """About ``target_mb`` MB: ``{"object": "list", "data": [entries…], "model": …}``, numbers
    written as they are (the decimals keep their trailing zero, the ids stay exact)."""
    rnd = random.Random(seed)
    parts, size, n = [], 0, 0
    while size < target_mb * 1e6:
        e = entry(rnd, n)
        text = json.dumps(e, ensure_ascii=n % 2 == 0, indent=1 if n % 7 == 0 else None)  # now and then over lines
        text = text.replace(f'"cost": "{e["cost"]}"', f'"cost": {e["cost"]}')
        parts.append(text)
        size += len(text) + 4
        n += 1
    return '{"object": "list", "data": [\n  ' + ",\n  ".join(parts) + '\n], "model": "gpt-5 \\u00fc \\/"}\n'


@pytest.fixture(scope="module")
def doc_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("provisional") / "log.json"
    path.write_text(big_document(4), encoding="utf-8")
    return path


def recorded(page) -> list[dict]:
    return page.evaluate("() => window.__provisional")


PASTE = """([selector, text]) => {
  const data = new DataTransfer();
  data.setData('text/plain', text);
  document.querySelector(selector).dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
}"""


def give(page, how: str, textarea: str, file_input: str, path) -> None:
    """The document as a user gives it: a file chosen, or the text pasted into the textarea."""
    if how == "file":
        page.set_input_files(file_input, str(path))
    else:
        page.evaluate(PASTE, [textarea, path.read_text(encoding="utf-8")])


@pytest.mark.parametrize(("how", "indent"), [("file", 2), ("paste", 2), ("file", "tab")])
def test_format_shows_the_first_lines_provisionally_then_the_servers(page, server, doc_file, how, indent):
    text = doc_file.read_text(encoding="utf-8")
    page.goto("/format")
    page.select_option("#indent", str(indent))
    page.evaluate(RECORD)
    give(page, how, "#text", "#text_file", doc_file)
    page.wait_for_function("() => document.getElementById('viewer').dataset.provisional")
    shown = recorded(page)
    assert len(shown) == 1, shown
    panel = shown[0]
    assert panel["tag"] == "Provisional" and panel["busy"] == "true"
    assert "first 200 lines" in panel["head"]
    lines = panel["lines"]
    assert len(lines) == 200
    status, answer = server.api("format", {"text": text, "indent": indent})
    assert status == 200
    assert lines == answer["formatted"].split("\n")[:len(lines)]
    # the answer replaced them, and the page found its first lines the same
    assert page.locator("#viewer").get_attribute("data-provisional") == "confirmed"
    assert page.locator("#provisional").count() == 0
    assert page.locator("#headline").inner_text().startswith("Valid JSON")
    assert page.locator("#viewer .jv-row[data-pointer]").count() > 0


def test_format_makes_no_rows_it_cannot_be_sure_of(page, doc_file):
    """Sorted keys need the whole object: no provisional rows, the answer alone."""
    page.goto("/format")
    page.check("#sort_keys")
    page.evaluate(RECORD)
    page.set_input_files("#text_file", str(doc_file))
    page.wait_for_function("() => document.getElementById('viewer').dataset.state === 'ready'", timeout=60_000)
    assert recorded(page) == []


def test_an_invalid_document_loses_its_provisional_rows_to_the_error(page, tmp_path, doc_file):
    broken = tmp_path / "broken.json"
    broken.write_text(doc_file.read_text(encoding="utf-8")[:-3] + ",]", encoding="utf-8")  # a trailing comma at the end
    page.goto("/format")
    page.evaluate(RECORD)
    page.set_input_files("#text_file", str(broken))
    page.locator("#headline.bad").wait_for(timeout=60_000)
    assert len(recorded(page)) == 1          # shown while the server read it …
    assert page.locator("#provisional").count() == 0   # … and gone with its answer
    assert "Not valid JSON" in page.locator("#headline").inner_text()


@pytest.mark.parametrize(("how", "path"), [("file", "$..call_id"), ("paste", "$..call_id"), ("file", "$.data[*].item.call_id"),
                                         ("file", "$.data[3]"), ("paste", "$.model")])
def test_extract_shows_the_first_matches_provisionally_then_the_servers(page, server, doc_file, how, path):
    text = doc_file.read_text(encoding="utf-8")
    page.goto("/extract")
    page.fill("#path", path)
    page.evaluate(RECORD)
    give(page, how, "#document", "#document_file", doc_file)
    page.wait_for_function("() => document.getElementById('matches').dataset.provisional", timeout=60_000)
    shown = recorded(page)
    assert len(shown) == 1, shown
    panel = shown[0]
    assert panel["tag"] == "Provisional" and panel["busy"] == "true"
    status, answer = server.api("extract", {"document": text, "path": path})
    assert status == 200
    assert panel["head"].endswith(f"{answer['count']:,} match" + ("" if answer["count"] == 1 else "es"))
    rows = panel["rows"]
    assert 0 < len(rows) <= 50 and len(rows) == min(50, answer["count"])
    want = [{"path": m["path"], "pointer": m["pointer"], "json": m["json"] if len(m["json"]) <= 160 else None,
             "at": f"{m['line']}:{m['column']}"} for m in answer["matches"][:len(rows)]]
    assert rows == want
    assert page.locator("#matches").get_attribute("data-provisional") == "confirmed"
    assert page.locator("#provisional").count() == 0
    assert page.locator("#match-table tbody tr").count() > 0


def test_extract_gives_up_on_a_repeated_key_that_matters(page, server, tmp_path, doc_file):
    """A second "data" at the end: readers keep the last one, so the first rows the page saw are
    not the answer's — it shows none."""
    twice = tmp_path / "twice.json"
    twice.write_text(doc_file.read_text(encoding="utf-8").rstrip()[:-1] + ', "data": [{"call_id": "last"}]}', encoding="utf-8")
    page.goto("/extract")
    page.fill("#path", "$.data[*].call_id")
    page.evaluate(RECORD)
    page.set_input_files("#document_file", str(twice))
    page.locator("#match-table tbody tr").first.wait_for(timeout=60_000)
    assert recorded(page) == []
    assert page.locator("#match-count").inner_text() == "1 match"


def test_extract_reads_a_file_that_is_not_utf8_as_the_page_decoded_it(page, server, tmp_path, doc_file):
    """A bad byte early on: the page's pass gives up on the file's bytes and reads the text the page
    decoded (U+FFFD for the byte), which is what the server is sent."""
    raw = doc_file.read_bytes()
    bad = tmp_path / "latin1.json"
    bad.write_bytes(raw[:200] + raw[200:].replace(b'"name": "search"', b'"name": "s\xe9arch"', 1))
    text = bad.read_bytes().decode("utf-8", errors="replace")
    assert "\ufffd" in text
    page.goto("/extract")
    page.fill("#path", "$.data[*].item.name")
    page.evaluate(RECORD)
    page.set_input_files("#document_file", str(bad))
    page.wait_for_function("() => document.getElementById('matches').dataset.provisional", timeout=60_000)
    rows = recorded(page)[-1]["rows"]
    status, answer = server.api("extract", {"document": text, "path": "$.data[*].item.name"})
    assert status == 200
    assert rows == [{"path": m["path"], "pointer": m["pointer"], "json": m["json"], "at": f"{m['line']}:{m['column']}"}
                    for m in answer["matches"][:len(rows)]]
    assert any("\ufffd" in r["json"] for r in rows)
    assert page.locator("#matches").get_attribute("data-provisional") == "confirmed"


# ----------------------------------------------------------------------------- scan.js itself

def small_value(rnd: random.Random, depth: int = 0) -> str:
    r = rnd.random()
    if depth > 3 or r < 0.35:
        return rnd.choice(['1', '-0', '2.50', '1e400', '12345678901234567890', 'true', 'null', '"s"', '"\\u00fc\\n"',
                           '"\\ud800"', '"😀"', '"q\\"uo\\\\te"', '"\\/"', '"\\u001F"'])
    ws = rnd.choice(["", " ", "\n", "\n  "])
    if r < 0.65:
        return "[" + ws + ("," + ws).join(small_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))) + ws + "]"
    keys = [rnd.choice(["a", "b", "call_id", "x", "ü", "a b", "it's"]) for _ in range(rnd.randint(0, 4))]
    if rnd.random() < 0.8:
        keys = list(dict.fromkeys(keys))   # a repeated key now and then
    return "{" + ws + ("," + ws).join(json.dumps(k, ensure_ascii=rnd.random() < 0.3) + ws + ":" + ws + small_value(rnd, depth + 1)
                                      for k in keys) + ws + "}"


SCAN_JS = """async (cases) => {
  const { formatPrefix, parseSimplePath, extractScan } = await import('/static/js/scan.js');
  const out = [];
  for (const c of cases) {
    const f = formatPrefix(c.doc, { indent: c.indent });
    const e = await extractScan(new TextEncoder().encode(c.doc), parseSimplePath(c.path), { maxRows: 3 });
    out.push({ lines: f ? f.lines : null, extract: e });
  }
  return out;
}"""


def test_scan_js_agrees_with_the_server_on_generated_documents(page, server):
    rnd = random.Random(2025)
    paths = ["$..call_id", "$..a", "$.a", "$.a.b", "$[*]", "$.*", "$[0]", "$[1].a", "$.a[*].x", "$..x",
             "$['a b']", "$.b..a", "$[*][*]", "$..ü", "$.*.*"]
    cases = []
    for _ in range(300):
        doc = small_value(rnd)
        if rnd.random() < 0.1:
            doc = doc[:-1]
        cases.append({"doc": doc, "path": rnd.choice(paths), "indent": rnd.choice([2, 4, "tab", 1])})
    page.goto("/format")
    got = page.evaluate(SCAN_JS, cases)
    lines_checked = rows_checked = 0
    for case, mine in zip(cases, got):
        _, fmt = server.api("format", {"text": case["doc"], "indent": case["indent"]})
        if mine["lines"] and "formatted" in fmt:   # (an invalid document: the server's error replaces them)
            assert mine["lines"] == fmt["formatted"].split("\n")[:len(mine["lines"])], case
            lines_checked += 1
        _, ext = server.api("extract", {"document": case["doc"], "path": case["path"]})
        if mine["extract"] and "matches" in ext:
            want = [{k: m[k] for k in ("path", "pointer", "json", "line", "column")} for m in ext["matches"][:3]]
            assert mine["extract"]["rows"] == want, case
            assert mine["extract"]["count"] == ext["count"], case
            rows_checked += 1
    assert lines_checked > 200 and rows_checked > 200


def test_scan_js_knows_utf8_as_the_browser_decodes_it(page):
    """validUtf8 (which decides whether a file's bytes are the text) against TextDecoder's fatal mode."""
    page.goto("/format")
    disagree = page.evaluate("""async () => {
      const { validUtf8 } = await import('/static/js/scan.js');
      const strict = new TextDecoder('utf-8', { fatal: true });
      let seed = 7, bad = [];
      const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      for (let n = 0; n < 50000; n++) {
        const whole = Uint8Array.from({ length: 4 + (n % 23) }, () => rnd() < 0.4 ? 0x80 + Math.floor(rnd() * 0x80) : Math.floor(rnd() * 128));
        const u8 = whole.subarray(n % 4);   // (read four bytes at a time where aligned)
        let ok = true; try { strict.decode(u8); } catch { ok = false; }
        if (ok !== validUtf8(u8)) bad.push([...u8]);
      }
      return bad.slice(0, 5);
    }""")
    assert disagree == []
