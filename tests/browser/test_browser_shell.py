"""The page shell in Chromium: every page opens, navigation works, no request leaves the origin."""

import pytest

pytestmark = pytest.mark.browser

VIEWS = ["Format", "Extract", "Validate", "Diff", "Gate"]


def test_every_page_opens_and_navigation_works(page, server):
    page.goto("/")
    assert "nothing leaves this machine" in page.locator("header .local").inner_text()
    for label in VIEWS:
        page.get_by_role("link", name=label, exact=True).first.click()
        page.wait_for_load_state("load")
        assert page.url.rstrip("/").endswith("/" + label.lower())
        current = page.locator('.tabs a[aria-current="page"]')
        assert current.inner_text() == label
    assert page.requests_made, "the recorder saw no requests"
    assert all(u.startswith(server.url) for u in page.requests_made)


def test_question_mark_shows_the_shortcuts(page):
    page.goto("/")
    page.keyboard.press("?")
    assert page.locator("#shortcuts").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#shortcuts").is_visible()


def test_the_shortcut_list_names_the_tree_keys_on_every_page(page):
    for label in VIEWS:
        page.goto("/" + label.lower())
        page.keyboard.press("?")
        dialog = page.locator("#shortcuts")
        assert dialog.is_visible(), label
        text = dialog.inner_text()
        assert "↑ ↓ in a tree" in text and "→ / ← in a tree" in text, label
        page.keyboard.press("Escape")
        # the split modules load on every page (a missing export would be a JavaScript error)
        assert page.evaluate("() => !!document.querySelector('[data-redact]')"), label
