"""Browser benchmark: time to the first rows of each view for a 20 MB document (a 5 MB pair for
Diff), in Debian's Chromium driven by Playwright against the real server, each beside
``JSON.parse`` of the same text in the same tab.

    .venv/bin/python bench/bench_browser.py               # 20 MB (Diff: 5 MB per side)
    .venv/bin/python bench/bench_browser.py --size-mb 2   # quick (Diff: 0.5 MB per side)
    .venv/bin/python bench/bench_browser.py --only format --only extract

The documents are the realistic log of bench/common.py (``realistic_log``; the Diff's right side
has 1 % of its entries changed).  For each view the page is opened, its other inputs filled,
then the document chosen in the view's own file input, as a user does; the clock starts at the
input's ``change`` event and is read in the page (each animation frame):

* first rows: the first rows on screen — the provisional rows the page makes from the text
  itself (static/js/scan.js: ``[data-provisional] [data-provisional-row]``), or, where the page
  makes none, the server's answer;
* answer: the server's answer drawn:
  - Format: the viewer drawn (``#viewer[data-state=ready]`` with a row);
  - Extract ``$..call_id``: the first row of the match table;
  - Validate (the entries' schema of bench_memory.py): the headline says valid or errors, and
    the viewer is drawn;
  - Gate: the realistic transcript (``realistic_transcript``: calls paired with their outputs),
    the report and its first call row;
  - Diff: the headline counts the changes and the first row of the grid is drawn;
* longest task: the longest main-thread task from the file chosen to the first rows, and to the
  answer (the long tasks API; "none" when no task took over 50 ms).

Then in the same tab: the same file read (``File.text()``, through an input of our own), and
``JSON.parse`` of its text timed (best of three).  ratio = our time / ``JSON.parse`` (issue 25 wants
≤ 3× for the 20 MB views and ≤ 5× for the 5 MB diff).  Chromium is launched as tests/conftest.py
does (no browser download; ``WORKBENCH_CHROMIUM`` or /usr/bin/chromium).  ``main()`` returns the rows.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Server, print_table, realistic_log, realistic_transcript, rel  # noqa: E402

CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 300  # seconds a view may take before the run gives up on it

# rows the page made itself (scan.js), marked provisional until the server's answer replaces them
PROVISIONAL = "!!document.querySelector('[data-provisional=\"true\"] [data-provisional-row]')"
VIEWER_READY = "!!document.querySelector('#viewer[data-state=\"ready\"] .jv-row[data-pointer]')"
VIEWS = [  # name, page, file input, other inputs to fill first (None: the schema), the answer's
    # "first rows" condition (the Gate reads the realistic transcript: the log's entries wrap their items)
    ("Format", "/format", "#text_file", {}, VIEWER_READY),
    ("Extract $..call_id", "/extract", "#document_file", {"#path": "$..call_id"},
     "!!document.querySelector('#match-table tbody tr')"),
    ("Validate", "/validate", "#document_file", None,
     f"/valid|error/i.test(document.getElementById('headline')?.textContent || '') && {VIEWER_READY}"),
    ("Gate (a transcript)", "/gate", "#item_file", {},
     "!!document.querySelector('#report') && !!document.querySelector('#calls li.call')"),
]
DIFF_DONE = ("/changes?/.test(document.getElementById('headline')?.textContent || '') "
             "&& !!document.querySelector('#dgrid .drow')")

# in every page: when a file was chosen (the clock starts), and the main thread's long tasks
INIT_JS = """
window.__bench = { chosen: null, tasks: [] };
document.addEventListener('change', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type === 'file' && e.target.id !== '__bench_file')
    window.__bench.chosen = performance.now();
}, true);
try {
  new PerformanceObserver((list) => {
    for (const t of list.getEntries()) window.__bench.tasks.push([t.startTime, t.duration]);
  }).observe({ type: 'longtask', buffered: true });
} catch (e) { /* no long task timing */ }
"""

# JSON.parse of the file in the input, in the page: (read ms, best parse ms of three)
PARSE_JS = """async (selector) => {
  const file = document.querySelector(selector).files[0];
  const t0 = performance.now();
  const text = await file.text();
  const read = performance.now() - t0;
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    JSON.parse(text);
    best = Math.min(best, performance.now() - s);
  }
  return [read, best];
}"""


def until(page, condition: str) -> float:
    """Seconds from the file chosen until ``condition`` holds (read in the page, each frame)."""
    at = page.wait_for_function(f"() => ({condition}) && window.__bench.chosen !== null && performance.now()",
                                timeout=TIMEOUT * 1000, polling="raf").json_value()
    return (at - page.evaluate("() => window.__bench.chosen")) / 1000


def longest_task(page, within: float | None = None) -> float:
    """The longest main-thread task (seconds) since the file was chosen (``within``: in the first
    that many seconds after; 0: none over 50 ms)."""
    return page.evaluate("""(within) => { const t0 = window.__bench.chosen;
        return Math.max(0, ...window.__bench.tasks.filter(([start, d]) => start + d >= t0
            && (within === null || start <= t0 + within * 1000)).map(([, d]) => d)); }""", within) / 1000


def json_parse(page, path: Path) -> tuple[float, float]:
    """(seconds to read ``path``'s text, best seconds of ``JSON.parse`` of it), in this tab: the
    file given to an input of our own (the page's inputs let go of their file once read)."""
    page.evaluate("""() => { const i = document.createElement('input'); i.type = 'file';
                             i.id = '__bench_file'; i.hidden = true; document.body.append(i); }""")
    page.set_input_files("#__bench_file", str(path))
    read_ms, parse_ms = page.evaluate(PARSE_JS, "#__bench_file")
    page.evaluate("() => document.getElementById('__bench_file').remove()")
    return read_ms / 1000, parse_ms / 1000


def measure(page, answer: str, *, wait_answer: bool = True) -> dict:
    """The first rows (provisional, or the answer's when the page made none) and the answer."""
    first = until(page, f"{PROVISIONAL} || ({answer})")
    provisional = page.evaluate(f"() => {PROVISIONAL}")
    first_task = longest_task(page, first)
    done = until(page, answer) if wait_answer else None
    return {"seconds": round(first, 3), "provisional": provisional, "answer_s": done and round(done, 3),
            "first_task_s": round(first_task, 3), "task_s": round(longest_task(page), 3)}


def best_of(runs: list[dict]) -> dict:
    """The first run (its answer and longest task), with the best first rows of all."""
    out = dict(runs[0])
    out["seconds"] = min(r["seconds"] for r in runs)
    return out


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=20, help="the document in MB (default 20; Diff: a quarter)")
    ap.add_argument("--only", action="append", metavar="VIEW", help="Format, Extract, Validate, Gate or Diff")
    ap.add_argument("--repeat", type=int, default=1, help="times each view's first rows are measured, the best kept "
                    "(the answer is waited for once); JSON.parse is best of three each time")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set WORKBENCH_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise SystemExit("playwright is not installed (pip install -e '.[test]')") from None
    from bench_memory import SCHEMA, changed_copy

    doc = realistic_log(args.size_mb)
    transcript = realistic_transcript(args.size_mb)
    left = realistic_log(args.size_mb / 4)
    right = changed_copy(left)
    wanted = lambda name: not args.only or any(name.lower().startswith(o.lower()) for o in args.only)  # noqa: E731
    print(f"document: {rel(doc)} ({doc.stat().st_size / 1e6:.1f} MB); diff: {rel(left)} and {rel(right)}")
    rows = []
    with Server() as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            for name, url, file_input, fill, done in VIEWS:
                if not wanted(name):
                    continue
                path = transcript if name.startswith("Gate") else doc
                runs, parse, read = [], float("inf"), float("inf")
                for n in range(args.repeat):
                    context = browser.new_context(base_url=server.url)
                    context.add_init_script(INIT_JS)
                    page = context.new_page()
                    page.goto(url)
                    for selector, value in (fill if fill is not None else {"#schema": json.dumps(SCHEMA)}).items():
                        page.locator(selector).fill(value)
                    page.set_input_files(file_input, str(path))
                    runs.append(measure(page, done, wait_answer=n == 0))
                    r_s, p_s = json_parse(page, path)
                    read, parse = min(read, r_s), min(parse, p_s)
                    context.close()
                got = best_of(runs)
                rows.append({"view": name, "mb": round(path.stat().st_size / 1e6, 1), **got,
                             "read_s": round(read, 3), "parse_s": round(parse, 3),
                             "ratio": round(got["seconds"] / parse, 1), "answer_ratio": round(got["answer_s"] / parse, 1),
                             "want": 3})
                print(f"  {name}: first rows {got['seconds']:.2f} s ({'provisional' if got['provisional'] else 'the answer'}); "
                      f"answer {got['answer_s']:.2f} s; JSON.parse {parse:.3f} s; longest task {got['task_s']:.3f} s", flush=True)
            if wanted("Diff"):
                runs, parse = [], float("inf")
                for n in range(args.repeat):
                    context = browser.new_context(base_url=server.url)
                    context.add_init_script(INIT_JS)
                    page = context.new_page()
                    page.goto("/diff")
                    page.set_input_files("#left_file", str(left))
                    page.wait_for_function("() => !!document.getElementById('left-big') "
                                           "|| document.getElementById('left').value.length > 0",
                                           timeout=TIMEOUT * 1000)
                    page.evaluate("() => { window.__bench.chosen = null; }")
                    page.set_input_files("#right_file", str(right))
                    runs.append(measure(page, DIFF_DONE, wait_answer=n == 0))
                    parse = min(parse, sum(json_parse(page, p)[1] for p in (left, right)))
                    context.close()
                got = best_of(runs)
                rows.append({"view": "Diff (first changes)", "mb": round(left.stat().st_size / 1e6, 1), **got,
                             "read_s": None, "parse_s": round(parse, 3),
                             "ratio": round(got["seconds"] / parse, 1), "answer_ratio": round(got["answer_s"] / parse, 1),
                             "want": 5})
                print(f"  Diff: first changes {got['seconds']:.2f} s ({'provisional' if got['provisional'] else 'the answer'}); "
                      f"answer {got['answer_s']:.2f} s; JSON.parse of both {parse:.3f} s; longest task {got['task_s']:.3f} s",
                      flush=True)
        finally:
            browser.close()
    print_table(("view", "document", "first rows", "ours / JSON.parse", "want", "rows from", "answer",
                 "answer / JSON.parse", "JSON.parse in the tab", "longest task: to first rows / to the answer"),
                [(r["view"], f"{r['mb']:.1f} MB" + (" per side" if r["view"].startswith("Diff") else ""),
                  f"{r['seconds']:.2f} s", f"{r['ratio']:.1f}×", f"≤ {r['want']}×",
                  "the page (provisional)" if r["provisional"] else "the server's answer",
                  f"{r['answer_s']:.2f} s", f"{r['answer_ratio']:.1f}×", f"{r['parse_s']:.3f} s",
                  " / ".join(f"{t * 1000:.0f} ms" if t else "none over 50 ms" for t in (r["first_task_s"], r["task_s"])))
                 for r in rows])
    print("first rows: from choosing the file (the right side, for the diff) until the first rows are drawn — "
          "provisional rows the page made from the text (scan.js), or the server's answer where the page makes "
          "none; answer: until the server's answer is drawn; JSON.parse: best of three of the same text in the "
          "same tab (both sides for the diff); longest task: the longest main-thread task from the file chosen to the "
          "first rows, and to the answer (long tasks API: tasks over 50 ms).")
    print("Load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return rows


if __name__ == "__main__":
    main()
