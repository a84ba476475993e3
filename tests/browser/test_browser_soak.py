"""Browser soak: a 20 MB document in every view of the real server, in Chromium.

For each view the document is opened from a file (the page's own file input), the page is
watched while it works, and then used: fold and unfold a node, scroll to the end and back,
search when the viewer offers it.  Asserted: the page keeps answering (a ``page.evaluate`` every
100 ms answers within ``MAX_PING`` seconds), the DOM stays small (row elements a tiny fraction of
the document's lines), and the result is right (counts, the error at the last item, the changes).
Printed per view (also without ``-s``): time to first render, the slowest answer while working,
the longest main-thread task seen by the page itself (``longtask`` entries and a 50 ms interval
timer), and how long each interaction took.

Run: ``.venv/bin/python -m pytest -q tests/test_browser_soak.py`` (about 2-3 minutes on 2 cores).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from common import fixture_items  # noqa: E402
from jsonutil import log_chunks  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TARGET_BYTES = 20_000_000
NEEDLE = "soak-needle-4f1c"       # a unique string in one item near the end (for search)
MAX_PING = 1.0                    # seconds: the slowest answer allowed while a view works
LOAD_TIMEOUT = 90                 # seconds for a view to show its result
MAX_ROW_ELEMENTS = 400            # rendered rows of a viewer (the document has over a million lines)

# A monitor the page runs from its first moment: the longest gap between ticks of a 50 ms
# timer and the longest "longtask" the browser reports, both reset before each step.
MONITOR = """
(() => {
  const s = window.__soak = { gap: 0, longest: 0, tasks: 0 };
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last - 50 > s.gap) s.gap = now - last - 50;
    last = now;
  }, 50);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) { s.tasks++; if (e.duration > s.longest) s.longest = e.duration; }
    }).observe({ type: "longtask" });
  } catch (e) { /* no longtask timing: the timer gap still tells */ }
  s.reset = () => { s.gap = 0; s.longest = 0; s.tasks = 0; last = performance.now(); };
  s.read = () => Math.round(Math.max(s.gap, s.longest));
})();
"""


# ----------------------------------------------------------------------------- the document

@dataclass
class Soak:
    doc: Path
    right: Path
    schema: str
    items: int
    lines: int
    size: int
    call_ids: int
    needle_item: int
    changed: list[int]


def _count_key(value, key: str) -> int:
    n, stack = 0, [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            n += key in v
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return n


@pytest.fixture(scope="session")
def soak(tmp_path_factory) -> Soak:
    """A 20 MB JSON array of Open Responses items (the shared fixtures, one item per line, each
    with ``seq`` and ``score``), a copy with three values changed, and a small items schema that
    exactly the last item breaks."""
    base = tmp_path_factory.mktemp("soak")
    items = fixture_items()
    parts = log_chunks(items, TARGET_BYTES, seed=8)
    n = len(parts)
    needle = n * 9 // 10
    parts[needle] = parts[needle][:-1] + f', "soak_note": "{NEEDLE}"}}'
    text = "[\n" + ",\n".join(parts) + "\n]\n"
    doc = base / "soak.json"
    doc.write_text(text, encoding="utf-8")
    changed = [5, n // 2, n - 2]
    for i in changed:
        parts[i] = parts[i].replace(f'"seq": {i}', f'"seq": {i + 1_000_000}', 1)
    right = base / "soak-changed.json"
    right.write_text("[\n" + ",\n".join(parts) + "\n]\n", encoding="utf-8")
    schema = json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "array",
        "items": {"type": "object", "required": ["seq", "score"],
                  "properties": {"seq": {"type": "integer", "minimum": 0, "maximum": n - 2},
                                 "score": {"type": "number", "minimum": 0, "maximum": 1},
                                 "type": {"type": "string"}}},
    }, indent=2)
    return Soak(doc=doc, right=right, schema=schema, items=n, lines=n + 2, size=len(text.encode()),
                call_ids=_count_key(json.loads(text), "call_id"), needle_item=needle, changed=changed)


# ----------------------------------------------------------------------------- measuring

@dataclass
class Report:
    view: str
    first_render: float = 0.0
    max_ping: float = 0.0
    pings: int = 0
    load_stall_ms: int = 0
    steps: dict = field(default_factory=dict)      # name -> (seconds, longest stall ms) or a note
    dom: str = ""
    problems: list = field(default_factory=list)   # asserted empty at the end of the test

    def check(self) -> None:
        assert not self.problems, f"{self.view}: " + "; ".join(self.problems)

    def line(self) -> str:
        steps = ", ".join(f"{k} {v[0]:.2f} s (stall {v[1]} ms)" if isinstance(v, tuple) else f"{k}: {v}"
                          for k, v in self.steps.items())
        return (f"{self.view:<8} first render {self.first_render:5.1f} s · slowest answer while working "
                f"{self.max_ping * 1000:4.0f} ms over {self.pings} pings · longest main-thread stall "
                f"{self.load_stall_ms} ms · {self.dom}\n{'':<9}{steps}")


REPORTS: list[Report] = []


@pytest.fixture(scope="module", autouse=True)
def print_reports(request):
    yield
    if not REPORTS:
        return
    tr = request.config.pluginmanager.get_plugin("terminalreporter")
    out = tr.write_line if tr else print
    out("")
    out("browser soak, 20 MB per view (first render = file chosen → result and first rows on screen):")
    for r in REPORTS:
        for line in r.line().splitlines():
            out("  " + line)


def soak_page(page, report: Report) -> Report:
    page.add_init_script(MONITOR)
    REPORTS.append(report)
    return report


def watch(page, done_js: str, report: Report, timeout: float = LOAD_TIMEOUT) -> float:
    """Ping the page every 100 ms until ``done_js`` is true; the ping is the check itself, so a
    blocked page shows as a slow answer.  Returns the seconds until done."""
    t0 = time.perf_counter()
    while True:
        s = time.perf_counter()
        done = page.evaluate(done_js)
        took = time.perf_counter() - s
        report.pings += 1
        report.max_ping = max(report.max_ping, took)
        if done:
            return time.perf_counter() - t0
        assert time.perf_counter() - t0 < timeout, f"{report.view}: no result after {timeout} s"
        time.sleep(max(0.0, 0.1 - took))


def step(page, report: Report, name: str, action, done_js: str, timeout: float = 30) -> None:
    """Run one interaction, wait for its effect, record its time and the longest stall."""
    page.evaluate("window.__soak.reset()")
    t0 = time.perf_counter()
    action()
    page.wait_for_function(done_js, timeout=timeout * 1000, polling=50)
    stall = page.evaluate("window.__soak.read()")
    report.steps[name] = (time.perf_counter() - t0, stall)
    if stall >= MAX_PING * 1000:
        report.problems.append(f"{name}: the page was blocked for {stall} ms")


def start(page) -> None:
    page.evaluate("window.__soak.reset()")


def finish_load(page, report: Report, done_js: str) -> None:
    """Wait for the view's result; a page that stopped answering is a problem reported at the
    end of the test (the interactions still run, so that they are measured too)."""
    report.first_render = watch(page, done_js, report)
    report.load_stall_ms = page.evaluate("window.__soak.read()")
    if report.max_ping >= MAX_PING:
        report.problems.append(f"the page took {report.max_ping:.2f} s to answer while working "
                               f"(longest main-thread stall {report.load_stall_ms} ms)")


def rows_of(viewer: str) -> str:
    return f"document.querySelectorAll('{viewer} .jv-row').length"


def check_viewer_dom(page, report: Report, viewer: str, soak: Soak) -> None:
    elements = page.evaluate(rows_of(viewer))
    model = int(page.locator(viewer).first.get_attribute("data-rows"))
    total = page.evaluate("document.getElementsByTagName('*').length")
    report.dom = f"{elements} row elements for {model:,} rows ({soak.lines:,} lines), {total:,} elements in the page"
    assert 0 < elements < MAX_ROW_ELEMENTS
    assert elements < soak.lines / 1000
    assert total < 20_000


def viewer_interactions(page, report: Report, viewer: str, soak: Soak, *, toolbar: bool = True) -> None:
    """Fold and unfold the first item, scroll to the end and back, collapse and expand all,
    search (when the viewer has it)."""
    last = soak.items - 1
    first_row = f'{viewer} .jv-row[data-pointer="/0"]'
    scroller = page.locator(f"{viewer} .jv-scroll").first
    scroller.evaluate("el => { el.scrollTop = 0; }")
    page.locator(first_row).wait_for()
    step(page, report, "fold", lambda: page.locator(f"{first_row} .jv-tog.on").click(),
         f"() => document.querySelector('{first_row}')?.getAttribute('aria-expanded') === 'false'")
    step(page, report, "unfold", lambda: page.locator(f"{first_row} .jv-tog.on").click(),
         f"() => document.querySelector('{first_row}')?.getAttribute('aria-expanded') === 'true'")
    step(page, report, "scroll to end", lambda: scroller.evaluate("el => { el.scrollTop = el.scrollHeight; }"),
         f"""() => !!document.querySelector('{viewer} .jv-row[data-pointer="/{last}"], {viewer} .jv-row[data-pointer^="/{last}/"]')""")
    step(page, report, "scroll back", lambda: scroller.evaluate("el => { el.scrollTop = 0; }"),
         f"() => !!document.querySelector('{first_row}')")
    assert page.evaluate(rows_of(viewer)) < MAX_ROW_ELEMENTS
    if toolbar:
        rows_before = int(page.locator(viewer).get_attribute("data-rows"))
        step(page, report, "collapse all", lambda: page.locator(f'{viewer} button[data-act="collapse"]').click(),
             f"() => Number(document.querySelector('{viewer}').dataset.rows) <= {soak.items + 2}")
        step(page, report, "expand all", lambda: page.locator(f'{viewer} button[data-act="expand"]').click(),
             f"() => Number(document.querySelector('{viewer}').dataset.rows) >= {rows_before}")
        assert page.evaluate(rows_of(viewer)) < MAX_ROW_ELEMENTS
    search(page, report, viewer, soak)


def search(page, report: Report, viewer: str, soak: Soak) -> None:
    """Find NEEDLE (one value, in a folded-or-not item near the end) with the viewer's find
    box: one hit, unfolded, selected and drawn.  When the viewer has no visible find box this
    one step is skipped, with a note."""
    box = page.locator(f'{viewer} input[type="search"]')
    if box.count() == 0:
        report.steps["search"] = "skipped (the viewer has no find box)"
        return
    if not box.first.is_visible():
        report.steps["search"] = "skipped (this viewer hides its find box)"
        return
    pointer = f"/{soak.needle_item}/soak_note"

    def go():
        box.first.fill(NEEDLE)
        box.first.press("Enter")
    step(page, report, "search", go, f"""() => {{
        const v = document.querySelector('{viewer}');
        return v.dataset.findHits === '1' && v.dataset.selectedPointer === '{pointer}'
          && [...v.querySelectorAll('.jv-row')].some((r) => r.dataset.pointer === '{pointer}' && r.textContent.includes('{NEEDLE}'));
    }}""")
    assert page.evaluate(rows_of(viewer)) < MAX_ROW_ELEMENTS


def viewer_ready(viewer: str) -> str:
    return f"""document.querySelector('{viewer}[data-state="ready"] .jv-row[data-pointer]') !== null"""


def open_view(page, soak: Soak, view: str, file_input: str, fill: dict | None = None) -> Report:
    """Open a view watched by the monitor, fill its other inputs, then (the clock reset) choose
    the soak document in its file input; the view's report is returned."""
    report = soak_page(page, Report(view.capitalize()))
    page.goto(f"/{view}")
    for selector, value in (fill or {}).items():
        page.locator(selector).fill(value)
    start(page)
    page.set_input_files(file_input, str(soak.doc))
    return report


# ----------------------------------------------------------------------------- the views

def test_format(page, soak):
    report = open_view(page, soak, "format", "#text_file")
    finish_load(page, report, f"() => {viewer_ready('#viewer')}")
    assert "Valid JSON" in page.locator("#headline").inner_text()
    check_viewer_dom(page, report, "#viewer", soak)
    viewer_interactions(page, report, "#viewer", soak)
    report.check()

def test_extract(page, soak):
    report = open_view(page, soak, "extract", "#document_file", {"#path": "$..call_id"})
    count = f"{soak.call_ids:,} matches"
    finish_load(page, report, f"""() => (document.getElementById('match-count')?.textContent || '') === '{count}'
        && {viewer_ready('#viewer')}""")
    assert page.locator("#match-table tbody tr").count() <= 200
    assert page.locator("#viewer .jv-row.match").count() > 0     # matches marked in the viewer
    check_viewer_dom(page, report, "#viewer", soak)
    viewer_interactions(page, report, "#viewer", soak)
    report.check()

def test_validate(page, soak):
    report = open_view(page, soak, "validate", "#document_file", {"#schema": soak.schema})
    finish_load(page, report, f"""() => /^1 error/.test(document.getElementById('headline')?.textContent || '')
        && {viewer_ready('#viewer')}""")
    check_viewer_dom(page, report, "#viewer", soak)
    # the one error is the last item's seq: revealing it goes to the end of the document
    error = page.locator("#errors li").first
    assert error.get_attribute("data-pointer") == f"/{soak.items - 1}/seq"
    target = f'#viewer .jv-row.error[data-pointer="/{soak.items - 1}/seq"]'
    step(page, report, "reveal the error", lambda: error.locator("button.err-jump").click(),
         f"() => !!document.querySelector('{target}')")
    viewer_interactions(page, report, "#viewer", soak)
    report.check()

def test_diff(page, soak):
    report = open_view(page, soak, "diff", "#left_file")
    page.locator("#left-big").wait_for()
    page.set_input_files("#right_file", str(soak.right))
    finish_load(page, report, """() => /3 changes/.test(document.getElementById('headline')?.textContent || '')
        && !!document.querySelector('#dgrid .drow')""")
    rows = lambda: page.evaluate("document.querySelectorAll('#dgrid .drow').length")  # noqa: E731
    shown = int(page.locator("#dgrid").get_attribute("data-rows"))
    total = page.evaluate("document.getElementsByTagName('*').length")
    report.dom = (f"{rows()} row elements for {shown:,} rows shown (unchanged runs folded), "
                  f"{total:,} elements in the page")
    assert 0 < rows() < MAX_ROW_ELEMENTS and total < 20_000
    assert int(page.locator("#diffview").get_attribute("data-changes")) == 3
    # walk the three changes with the keyboard: the last one is near the end of the document
    page.locator("#headline").click()
    for i in range(3):
        step(page, report, f"change {i + 1}", lambda: page.keyboard.press("n"),
             f"() => document.getElementById('diffview').dataset.current === '{i}' && !!document.querySelector('#dgrid .drow.current')")
    # unfold one run of unchanged lines, then all of them (over a million rows)
    step(page, report, "unfold a run", lambda: page.locator("#dgrid button.fold").first.click(),
         f"() => Number(document.getElementById('dgrid').dataset.rows) > {shown}")
    step(page, report, "unfold all", lambda: page.locator("#expand-all").click(),
         f"() => Number(document.getElementById('dgrid').dataset.rows) > {3 * soak.lines}")
    assert rows() < MAX_ROW_ELEMENTS
    grid = page.locator("#dgrid")
    all_rows = int(grid.get_attribute("data-rows"))
    report.dom += f"; {all_rows:,} rows unfolded"
    # the end really is reachable: the last line numbers of the formatted documents are drawn
    step(page, report, "scroll to end", lambda: grid.evaluate("el => { el.scrollTop = el.scrollHeight; }"),
         f"""() => [...document.querySelectorAll('#dgrid .ln')].some((e) => Number(e.textContent) >= {all_rows - 50})""")
    step(page, report, "scroll back", lambda: grid.evaluate("el => { el.scrollTop = 0; }"),
         """() => [...document.querySelectorAll('#dgrid .ln')].some((e) => e.textContent === '1')""")
    assert rows() < MAX_ROW_ELEMENTS
    report.steps["search"] = "n/a (the diff grid has no search)"
    report.check()

def test_gate(page, soak):
    """A 20 MB log pasted into the Gate is a transcript: the report (kind, counts, the calls with
    their verdicts, the findings) comes from the server; the page shows the first rows of each
    list and walks one call on a click."""
    report = open_view(page, soak, "gate", "#item_file")
    finish_load(page, report, """() => !!document.querySelector('#report')
        && !!document.querySelector('#calls li.call')""")
    assert page.locator("#report").get_attribute("data-kind") in ("item_list", "agents_session")
    assert "call" in page.locator("#summary-line").inner_text()
    calls = page.locator("#calls li.call")
    assert 0 < calls.count() <= 100                         # the first rows; "show more" has the rest
    elements = page.evaluate("document.getElementsByTagName('*').length")
    report.dom = f"{calls.count()} call rows, {elements:,} elements in the page"
    step(page, report, "show more calls", lambda: page.locator("#calls button.more").first.click(),
         "() => document.querySelectorAll('#calls li.call').length > 100")
    # walk one of the listed calls through the one-item gate (the 20 MB input stays)
    step(page, report, "walk a call", lambda: calls.first.locator("button.walk-call").click(),
         "() => !!document.getElementById('call-walk-verdict')")
    report.check()
