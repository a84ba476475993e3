"""The shared page code told by the server (issue 22): Alt+N goes to the N-th view of the
navigation the server numbered, and the scripts' size thresholds are the ones it told."""

from __future__ import annotations

import pytest

from workbench.limits import PAGE_LIVE_CHARS, PAGE_THRESHOLDS
from workbench.web.views import VIEWS

pytestmark = pytest.mark.browser


def test_alt_and_a_number_goes_to_that_view(page):
    page.goto("/")
    for i, view in enumerate(VIEWS, 1):
        page.keyboard.press(f"Alt+{i}")
        page.wait_for_url(f"**/{view.name}")
    page.keyboard.press(f"Alt+{len(VIEWS) + 1}")  # no such view: nothing happens
    page.wait_for_timeout(200)
    assert page.url.endswith(f"/{VIEWS[-1].name}")


@pytest.mark.parametrize("view", ["format", "diff"])
def test_the_scripts_thresholds_are_the_servers(page, view):
    page.goto(f"/{view}")
    told = page.evaluate("""async () => {
        const { threshold } = await import("/static/js/thresholds.js");
        return ["live", "big", "keep", "parse"].map(threshold);
    }""")
    assert told == [PAGE_LIVE_CHARS[view], PAGE_THRESHOLDS["big"], PAGE_THRESHOLDS["keep"],
                    PAGE_THRESHOLDS["parse"]]
