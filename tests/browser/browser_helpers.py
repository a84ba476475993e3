"""Helpers for the browser tests that need a page of their own (JavaScript off, a narrow screen)
rather than the shared ``page`` fixture of tests/conftest.py.

(Not a conftest.py: a second module named ``conftest`` would take the place of tests/conftest.py
for the ``from conftest import …`` lines of other test folders.)"""

from __future__ import annotations

import re
from contextlib import contextmanager

from conftest import _same_origin


@contextmanager
def own_page(browser, server, **options):
    """A page in a browser context of its own on the real server (``options`` go to
    ``new_context``, e.g. ``java_script_enabled=False``), closed afterwards.  Like the ``page``
    fixture it fails the test if the page requested another host or raised a JavaScript error."""
    context = browser.new_context(base_url=server.url, **options)
    requests: list[str] = []
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda r: requests.append(r.url))
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page
    finally:
        context.close()
    foreign = [u for u in requests if not _same_origin(u, server)]
    assert not foreign, f"the page requested other hosts: {foreign}"
    assert not errors, f"JavaScript errors on the page: {errors}"


MISSING_WORDS = re.compile(r"\b(None|null|undefined)\b")
# the page's own words in its answer: every text node of #result-body outside code, JSON and
# form fields (the no-None/null/undefined tests read them)
PAGE_WORDS = """() => {
  const root = document.getElementById('result-body');
  const skip = 'PRE, CODE, TEXTAREA, INPUT, SCRIPT, STYLE, .json';
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    if (!n.parentElement.closest(skip) && n.textContent.trim()) out.push(n.textContent.trim());
  }
  return out;
}"""


def api_report(server, text: str) -> dict:
    """The transcript API's answer for ``text`` (a 200 is asserted)."""
    status, report = server.api("transcript", {"text": text})
    assert status == 200, report
    return report
