"""The Gate page's words for every gallery case, in a real browser on the real server: no
page text (outside the JSON shown as code) prints ``None``, ``null`` or ``undefined`` standing
for a missing value (issue 23, "What it must show"; the answers' messages are checked for every
gallery case and every shared recording by tests/unit/test_dialects.py)."""

from __future__ import annotations

import pytest
from browser_helpers import MISSING_WORDS, PAGE_WORDS

from workbench.gallery import CASES, SESSION_CASES, TRANSCRIPT_CASES, text_of
from workbench.gate import AGENTS_RULES, RULES

pytestmark = pytest.mark.browser

# the rules' own sentences name null as a value a field may hold ("an object, null, missing…"),
# not as a missing value
RULE_WORDS = {r[k].strip() for r in RULES + AGENTS_RULES for k in ("text", "plain", "full")
              if k in r}


def test_no_page_text_prints_a_missing_value_as_none_null_or_undefined(page):
    page.goto("/gate")
    found = {}
    for case in [*CASES, *TRANSCRIPT_CASES, *SESSION_CASES]:
        page.click(f'a[data-case="{case["name"]}"]')
        # the click starts the run at once: wait for this case's text and its answer
        page.wait_for_function(
            "([n]) => document.getElementById('item').value.length === n && "
            "!document.getElementById('result-body').hasAttribute('aria-busy') && "
            "document.getElementById('verdict-live').textContent.trim()",
            arg=[len(text_of(case))], timeout=20000)
        words = [w for w in page.evaluate(PAGE_WORDS) if MISSING_WORDS.search(w) and
                 w not in RULE_WORDS]
        if words:
            found[case["name"]] = words[:5]
    assert found == {}, "\n".join(f"{k}: {w}" for k, ws in found.items() for w in ws)
