"""One source for each table (issue 22): the views' table (web/views.py) makes the pages, the API
routes, the OpenAPI paths, the navigation and its Alt+N keys; what is still written elsewhere —
an endpoint's OpenAPI description, a view's template, its CLI subcommand — must agree with it.
A view added to one table and not the others fails here."""

from __future__ import annotations

import re

from conftest import ROOT

from workbench.cli.main import build_parser
from workbench.web import routes
from workbench.web.openapi import ENDPOINTS, spec
from workbench.web.views import VIEWS


def rules(app) -> dict[str, set]:
    return {r.rule: r.methods for r in app.url_map.iter_rules()}


def test_every_view_has_its_page_and_api_route(app):
    served = rules(app)
    for view in VIEWS:
        assert {"GET", "POST"} <= served[f"/{view.name}"], view.name
        assert "POST" in served[f"/api/{view.name}"], view.name
        assert (ROOT / "templates" / f"{view.name}.html").is_file(), view.name


def test_the_api_routes_are_the_api_table_and_each_is_described(app):
    posted = {rule for rule, methods in rules(app).items() if rule.startswith("/api/") and "POST" in methods}
    assert posted == set(routes.API)
    assert set(spec()["paths"]) == set(routes.API)
    assert {f"/api/{name}" for name in ENDPOINTS} == set(routes.API), "a description without a route"


def test_the_navigation_and_its_keys_are_the_views_in_order(client):
    page = client.get("/").get_data(as_text=True)
    nav = re.search(r'<nav class="tabs".*?</nav>', page, re.S).group()
    links = re.findall(r'<a href="/(\w+)"[^>]*data-key="(\d+)"', nav)
    assert links == [(v.name, str(i)) for i, v in enumerate(VIEWS, 1)]
    # the keyboard list says the same: Alt+1…N and every view's title
    row = re.search(r"<kbd>Alt</kbd>\+<kbd>1</kbd>…<kbd>(\d+)</kbd></td><td>go to ([^<]*)</td>", page)
    assert row.group(1) == str(len(VIEWS))
    assert row.group(2) == ", ".join(v.title for v in VIEWS)
    # the page script takes any digit a link has (Alt+N reaches nine views at most)
    assert len(VIEWS) <= 9
    js = (ROOT / "static" / "js" / "shortcuts.js").read_text()
    assert "/^[1-9]$/" in js and not re.search(r"\[1-[0-8]\]", js)


def test_every_view_is_a_subcommand():
    parser = build_parser()
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    for view in VIEWS:
        assert view.name in commands, f"no `workbench {view.name}`"


# --------------------------------------------------------------------------- the limits

def readme_limits() -> dict[str, str]:
    """The README's limits table: flag → its default cell."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| limit | default | flag |"):]
    rows = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[2].strip("`")] = cells[1]
    return rows


def value_of(cell: str) -> float:
    """``64 MiB`` → 67108864, ``1.0 s of CPU`` → 1.0, ``10,000`` → 10000."""
    number, _, rest = cell.partition(" ")
    return float(number.replace(",", "")) * (1024 * 1024 if rest.startswith("MiB") else 1)


def test_the_readme_limits_table_is_the_limits_fields():
    from workbench.limits import Limits
    rows = readme_limits()
    flags = {"--" + f.name.replace("_", "-"): f for f in Limits.fields()}
    assert set(rows) == set(flags)
    for flag, f in flags.items():
        assert value_of(rows[flag]) == f.default, (flag, rows[flag], f.default)


def test_every_limit_flags_help_says_its_default_from_limits():
    from workbench.limits import Limits
    text = build_parser().format_help()
    for f in Limits.fields():
        assert Limits.shown(f.name, f.default) in Limits.help(f.name)
        assert "--" + f.name.replace("_", "-") in text
    assert "(default 64 MiB)" in Limits.help("max_body") and "(default 512 levels)" in Limits.help("max_depth")


# --------------------------------------------------------------------------- the page's thresholds

def test_each_page_is_told_its_thresholds_by_the_server(client):
    import html
    import json

    from workbench.limits import PAGE_LIVE_CHARS, PAGE_THRESHOLDS
    for view in VIEWS:
        page = client.get(f"/{view.name}").get_data(as_text=True)
        told = json.loads(html.unescape(re.search(r"<body [^>]*data-thresholds='([^']*)'", page).group(1)))
        assert told == {"live": PAGE_LIVE_CHARS[view.name], **PAGE_THRESHOLDS}, view.name


def test_no_page_script_writes_a_threshold_of_its_own():
    # the live/big/keep/parse thresholds come from thresholds.js (the server's), nowhere else
    offenders = []
    for path in (ROOT / "static" / "js").glob("*.js"):
        for m in re.finditer(r"(?:LIVE|BIG|KEEP|PARSE)_LIMIT = [\d_]+|(?:live|big|keep)Limit = [\d_]+",
                             path.read_text(encoding="utf-8")):
            offenders.append(f"{path.name}: {m.group()}")
    assert not offenders, offenders


def test_limits_travel_to_a_worker_process_intact():
    """The process pool pickles the request's Limits: they arrive equal, and still immutable
    (a slotted Limits with a refusing __setattr__ once broke every `workbench transcript` of
    several files: each worker died unpickling them)."""
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    import pytest

    from workbench.limits import DEFAULT_LIMITS
    limits = DEFAULT_LIMITS.with_(max_depth=64, work_timeout=3.5)
    assert pickle.loads(pickle.dumps(limits)) == limits
    with ProcessPoolExecutor(1) as pool:
        back = pool.submit(repr, limits).result(timeout=60)
    assert back == repr(limits)
    with pytest.raises(AttributeError):
        pickle.loads(pickle.dumps(limits)).max_depth = 1


def test_limits_and_fields_are_values_that_pickle():
    """Limits and Field are plain classes (no dataclasses import at start-up, issue 25): still
    immutable values, equal by their values, and picklable (``--jobs`` hands them to workers)."""
    import copy
    import pickle

    import pytest

    from workbench.fields import Field
    from workbench.limits import DEFAULT_LIMITS, Limits
    lim = Limits(max_depth=7, work_timeout=0.5)
    assert pickle.loads(pickle.dumps(lim)) == lim == copy.deepcopy(lim) and hash(lim) == hash(Limits(max_depth=7, work_timeout=0.5))
    assert lim.with_(max_depth=8).max_depth == 8 and lim.max_depth == 7 and DEFAULT_LIMITS == Limits()
    with pytest.raises(AttributeError):
        lim.max_depth = 9
    with pytest.raises(TypeError):
        Limits(max_dept=1)
    f = Field("indent", object, default=2, schema={"enum": [2]})
    assert pickle.loads(pickle.dumps(f)) == f and f != Field("indent", object, default=3)
