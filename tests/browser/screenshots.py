"""Screenshots for the README: Format, Gate and Diff, light and dark, 1280x800, real items.

Run by hand (not collected by pytest: no test_ prefix):

    .venv/bin/python tests/browser/screenshots.py [--out static/img]

It starts the real server on a loopback port (as the browser tests do), opens Debian's Chromium
with Playwright, fills each view with an item from ../shared/reference, waits for the answer and
saves static/img/<view>-<light|dark>.png.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))   # tests/: conftest's server helpers

from conftest import CHROMIUM, ROOT, shared_dir, start_server, stop_server  # noqa: E402


def reference() -> Path:
    s = shared_dir()
    if s is None:
        sys.exit("../shared (or $WORKBENCH_SHARED) is needed: the screenshots show real items")
    return s / "reference"


def jsonl(path: Path, kind: str, name: str) -> dict:
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        body = rec.get("item") or rec.get("tool") or {}
        if rec.get("kind", "").startswith(kind) and body.get("name") == name:
            return body
    raise SystemExit(f"no {kind} named {name} in {path}")


def fill(page, selector: str, text: str) -> None:
    page.locator(selector).fill(text)
    page.locator(selector).evaluate("t => { t.setSelectionRange(0, 0); t.scrollTop = 0; t.blur(); }")


def top(page) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(200)


def show_format(page, ref: Path) -> None:
    doc = (ref / "realworld/transcripts/142_openai-dotnet__ResponsesTests__FunctionCallWorksAsync__i0_response.json").read_text()
    page.goto("/format")
    fill(page, "#text", doc)
    page.wait_for_selector('#viewer[data-state="ready"]')
    args = page.locator('#viewer .jv-row[data-pointer="/output/0/arguments"] .jv-json')
    if args.count():
        args.click()   # the arguments string, opened as a nested tree
        page.wait_for_selector('#viewer .jv-nested .jv[data-state="ready"]')
    page.locator('#viewer .jv-row[data-pointer="/output/0/call_id"]').click()


def show_gate(page, ref: Path) -> None:
    fixtures = ref / "openresponses-fixtures"
    item = jsonl(fixtures / "items.jsonl", "item:function_call", "get_current_weather")
    tool = jsonl(fixtures / "tools.jsonl", "tool", "get_current_weather")
    page.goto("/gate")
    fill(page, "#item", json.dumps(item, indent=2, ensure_ascii=False))
    page.locator("#schema-pane").evaluate("d => { d.open = true; }")
    fill(page, "#schema", json.dumps(tool, indent=2, ensure_ascii=False))
    page.wait_for_function("() => /may be executed|Blocked/.test(document.getElementById('verdict-live').textContent)")


def show_diff(page, ref: Path) -> None:
    t = ref / "realworld/transcripts"
    left = (t / "140_openai-dotnet__ResponsesTests__FunctionCallWorks__i0_response.json").read_text()
    right = (t / "142_openai-dotnet__ResponsesTests__FunctionCallWorksAsync__i0_response.json").read_text()
    page.goto("/diff")
    fill(page, "#left", left)
    fill(page, "#right", right)
    page.locator("#headline").wait_for()
    page.wait_for_function("() => !document.querySelector('#headline .spinner')")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "static" / "img"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ref = reference()
    from playwright.sync_api import sync_playwright

    server = start_server()
    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
    try:
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme,
                                          base_url=server.url, device_scale_factor=1)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            for view, show in (("format", show_format), ("gate", show_gate), ("diff", show_diff)):
                path = out / f"{view}-{scheme}.png"
                show(page, ref)      # the view filled and answered; then the shot from the top
                top(page)
                page.screenshot(path=str(path))
                print(f"{path}  ({path.stat().st_size:,} bytes){'  JS errors: ' + '; '.join(errors) if errors else ''}")
                errors.clear()
            context.close()
    finally:
        browser.close()
        pw.stop()
        stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
