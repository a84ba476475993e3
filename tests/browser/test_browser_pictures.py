"""The Gate page's pictures (issue 27) in Chromium, measured: the chain's and the timeline's text
is at least 12 px high at the default size on a 1400 px window (it was scaled down to about 8 px),
no label is struck through by an arrow ("no action" was), a picture wider than its box says so
and scrolls (at 390 px it was cut off with no hint), and a chain starts at its first column (a
lone result started after three blank columns).  Sizes are getBoundingClientRect of the SVG text
and the font size times the picture's scale."""

from __future__ import annotations

import json

import pytest
from browser_helpers import own_page

from workbench.gallery.agents import EXAMPLE_ACTION, SESSION_CASES

pytestmark = pytest.mark.browser

CUT_OFF = "reference/realworld/streams/042_semantic-kernel__OpenAIResponseAgentTests__line504.txt"
# a pending action left unanswered, and a result that answers no action: "no action" drawn
ORPHAN = json.dumps({
    "session": {"id": "sess_1", "object": "agent.session", "status": "requires_action",
                "agent": {"id": "agent_main"}, "items": [], "required_actions": [EXAMPLE_ACTION]},
    "events": [{"type": "agent.session.input.tool_result", "turn_id": "turn_9", "call_id": "call_zz99",
                "success": True, "output": "x"}]})
# only a result: nothing in the agent, turn and call columns
LONE_RESULT = json.dumps([{"type": "agent.session.input.tool_result", "turn_id": "turn_2",
                           "call_id": "call_zz99", "success": True, "output": "x"}])

MEASURE = """(id) => {
  const fig = document.getElementById(id);
  const svg = fig.querySelector("svg"), box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const rect = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height }; };
  const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim()).map((t) => ({
    text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale, ...rect(t) }));
  // the points along every arrow and break mark, every 2 px, on the screen
  const lines = [];
  for (const el of svg.querySelectorAll(".chain-arrow, .tl-arrow, .chain-zigzag, .tl-zigzag")) {
    const m = el.getScreenCTM(), n = el.getTotalLength();
    for (let d = 0; d <= n; d += 2) {
      const p = el.getPointAtLength(d);
      lines.push([m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f]);
    }
  }
  const drawn = [...svg.querySelectorAll(".chain-box, .tl-seg, .chain-arrow, .tl-label")].map(rect);
  const scroll = fig.querySelector(".svg-scroll"), hint = fig.querySelector(".svg-hint");
  return { texts, lines, left: box.left, width: box.width, first: Math.min(...drawn.map((r) => r.left)),
           overflows: scroll.scrollWidth > scroll.clientWidth + 1,
           hint: Boolean(hint && hint.offsetParent !== null && hint.textContent.trim()) };
}"""


def show(page, text: str, figure: str) -> dict:
    page.goto("/gate")
    page.fill("#item", text)
    page.wait_for_selector(f"#{figure} svg", timeout=20000)
    return page.evaluate(MEASURE, figure)


def show_case(page, name: str) -> dict:
    page.goto(f"/gate?case={name}")
    page.wait_for_selector("#chain svg", timeout=20000)
    return page.evaluate(MEASURE, "chain")


def struck(m: dict) -> list:
    """Texts an arrow or break mark runs through: a point of its line inside the text's box
    (less the 3 px of line spacing above and below the letters)."""
    return [t["text"] for t in m["texts"]
            if any(t["left"] < x < t["right"] and t["top"] + 3 < y < t["bottom"] - 3 for x, y in m["lines"])]


@pytest.fixture
def wide(browser, server):
    with own_page(browser, server, viewport={"width": 1400, "height": 900}) as page:
        yield page


@pytest.fixture
def narrow(browser, server):
    with own_page(browser, server, viewport={"width": 390, "height": 844}, is_mobile=True) as page:
        yield page


def test_chain_text_is_at_least_12px_on_a_wide_window(wide):
    for case in [c["name"] for c in SESSION_CASES] :
        m = show_case(wide, case)
        small = [(t["text"], round(t["px"], 1), t["height"]) for t in m["texts"] if t["px"] < 12 or t["height"] < 12]
        assert small == [], (case, small)


def test_timeline_text_is_at_least_12px_on_a_wide_window(wide, shared):
    m = show(wide, (shared / CUT_OFF).read_text(), "timeline")
    small = [(t["text"], round(t["px"], 1), t["height"]) for t in m["texts"] if t["px"] < 12 or t["height"] < 12]
    assert small == []
    assert not m["overflows"] and not m["hint"]   # it fits: no hint


def test_nothing_is_struck_through(wide, shared):
    m = show(wide, ORPHAN, "chain")
    assert "no action" in [t["text"] for t in m["texts"]]
    assert struck(m) == []
    for case in [c["name"] for c in SESSION_CASES]:
        assert struck(show_case(wide, case)) == [], case
    assert struck(show(wide, (shared / CUT_OFF).read_text(), "timeline")) == []


def test_a_picture_wider_than_the_screen_says_so(narrow, shared):
    for text, figure in [(ORPHAN, "chain"), ((shared / CUT_OFF).read_text(), "timeline")]:
        m = show(narrow, text, figure)
        assert m["overflows"], figure
        assert m["hint"], figure
        assert min(t["px"] for t in m["texts"]) >= 12, figure   # scrolled, not shrunk
    hint = narrow.locator("#timeline .svg-hint")
    assert "scroll" in hint.inner_text()


def test_a_chain_starts_at_its_first_drawn_column(wide):
    m = show(wide, LONE_RESULT, "chain")
    assert m["first"] - m["left"] < 130, m   # the "no action" stub, then the result: no blank columns
    m = show_case(wide, "agents-session-pass")
    assert m["first"] - m["left"] < 20
