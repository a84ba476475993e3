"""Browser benchmark: time to the first rows of each view for a 20 MB document (a 5 MB pair for
Diff), in Debian's Chromium driven by Playwright against the real server, each beside
``JSON.parse`` of the same text in the same tab.

    .venv/bin/python bench/bench_browser.py               # 20 MB (Diff: 5 MB per side)
    .venv/bin/python bench/bench_browser.py --size-mb 2   # quick (Diff: 0.5 MB per side)

The documents are the realistic log of bench/common.py (``realistic_log``; the Diff's right side
has 1 % of its entries changed).  For each view the page is opened, its other inputs filled,
then (the clock started) the document chosen in the view's own file input, as a user does; the
time runs until the first rows are on screen:

* Format: the viewer drawn (``#viewer[data-state=ready]`` with a row);
* Extract ``$..call_id``: the first row of the match table;
* Validate (the entries' schema of bench_memory.py): the headline says valid or errors, and
  the viewer is drawn;
* Gate: the realistic transcript (``realistic_transcript``: calls paired with their outputs),
  the report and its first call row;
* Diff: the headline counts the changes and the first row of the grid is drawn.

Then in the same tab: the same file read (``File.text()``, through an input of our own), and
``JSON.parse`` of its text timed (best of three).  ratio = our time / ``JSON.parse`` (issue 25 wants ≤ 3× for the 20 MB views and
≤ 5× for the 5 MB diff).  Chromium is launched as tests/conftest.py does (no browser download;
``WORKBENCH_CHROMIUM`` or /usr/bin/chromium).  ``main()`` returns the rows.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Server, print_table, realistic_log, realistic_transcript, rel  # noqa: E402

CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 300  # seconds a view may take before the run gives up on it

VIEWER_READY = "!!document.querySelector('#viewer[data-state=\"ready\"] .jv-row[data-pointer]')"
VIEWS = [  # name, page, file input, other inputs to fill first, "first rows" condition (the Gate
    # reads the realistic transcript: the log's entries wrap their items)
    ("Format", "/format", "#text_file", {}, f"() => {VIEWER_READY}"),
    ("Extract $..call_id", "/extract", "#document_file", {"#path": "$..call_id"},
     "() => !!document.querySelector('#match-table tbody tr')"),
    ("Validate", "/validate", "#document_file", None,
     f"() => /valid|error/i.test(document.getElementById('headline')?.textContent || '') && {VIEWER_READY}"),
    ("Gate (a transcript)", "/gate", "#item_file", {},
     "() => !!document.querySelector('#report') && !!document.querySelector('#calls li.call')"),
]
DIFF_DONE = ("() => /changes?/.test(document.getElementById('headline')?.textContent || '') "
             "&& !!document.querySelector('#dgrid .drow')")

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


def first_rows(page, done_js: str) -> float:
    t0 = time.perf_counter()
    page.wait_for_function(done_js, timeout=TIMEOUT * 1000, polling=20)
    return time.perf_counter() - t0


def json_parse(page, path: Path) -> tuple[float, float]:
    """(seconds to read ``path``'s text, best seconds of ``JSON.parse`` of it), in this tab: the
    file given to an input of our own (the page's inputs let go of their file once read)."""
    page.evaluate("""() => { const i = document.createElement('input'); i.type = 'file';
                             i.id = '__bench_file'; i.hidden = true; document.body.append(i); }""")
    page.set_input_files("#__bench_file", str(path))
    read_ms, parse_ms = page.evaluate(PARSE_JS, "#__bench_file")
    page.evaluate("() => document.getElementById('__bench_file').remove()")
    return read_ms / 1000, parse_ms / 1000


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=20, help="the document in MB (default 20; Diff: a quarter)")
    ap.add_argument("--only", action="append", metavar="VIEW", help="Format, Extract, Validate, Gate or Diff")
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
                context = browser.new_context(base_url=server.url)
                page = context.new_page()
                page.goto(url)
                for selector, value in (fill if fill is not None else {"#schema": json.dumps(SCHEMA)}).items():
                    page.locator(selector).fill(value)
                path = transcript if name.startswith("Gate") else doc
                t0 = time.perf_counter()
                page.set_input_files(file_input, str(path))
                first_rows(page, done)
                seconds = time.perf_counter() - t0  # from choosing the file
                read, parse = json_parse(page, path)
                rows.append({"view": name, "mb": round(path.stat().st_size / 1e6, 1), "seconds": round(seconds, 3),
                             "read_s": round(read, 3), "parse_s": round(parse, 3),
                             "ratio": round(seconds / parse, 1), "want": 3})
                print(f"  {name}: first rows {seconds:.2f} s; JSON.parse {parse:.3f} s", flush=True)
                context.close()
            if wanted("Diff"):
                context = browser.new_context(base_url=server.url)
                page = context.new_page()
                page.goto("/diff")
                page.set_input_files("#left_file", str(left))
                page.wait_for_function("() => !!document.getElementById('left-big') "
                                       "|| document.getElementById('left').value.length > 0",
                                       timeout=TIMEOUT * 1000)
                t0 = time.perf_counter()
                page.set_input_files("#right_file", str(right))
                first_rows(page, DIFF_DONE)
                seconds = time.perf_counter() - t0
                parse = sum(json_parse(page, p)[1] for p in (left, right))
                rows.append({"view": "Diff (first changes)", "mb": round(left.stat().st_size / 1e6, 1),
                             "seconds": round(seconds, 3), "read_s": None, "parse_s": round(parse, 3),
                             "ratio": round(seconds / parse, 1), "want": 5})
                print(f"  Diff: first changes {seconds:.2f} s; JSON.parse of both {parse:.3f} s", flush=True)
                context.close()
        finally:
            browser.close()
    print_table(("view", "document", "first rows", "JSON.parse in the tab", "ours / JSON.parse", "want"),
                [(r["view"], f"{r['mb']:.1f} MB" + (" per side" if r["view"].startswith("Diff") else ""),
                  f"{r['seconds']:.2f} s", f"{r['parse_s']:.3f} s", f"{r['ratio']:.1f}×", f"≤ {r['want']}×")
                 for r in rows])
    print("first rows: from choosing the file (the right side, for the diff) until the first rows are drawn; "
          "JSON.parse: best of three of the same text in the same tab (both sides for the diff).")
    print("Load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return rows


if __name__ == "__main__":
    main()
