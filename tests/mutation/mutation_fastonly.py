"""A pytest plugin for mutation runs (``-p mutation_fastonly``): keep only the in-process tests.

Tests that start the real server, a browser or the command line in a subprocess are deselected:
a mutant lives in the test process (mutmut switches it on per test), and those tests take
seconds each, which multiplied by hundreds of mutants does not fit two shared cores.  Hypothesis
tests are deselected too: they take 7-14 s each and, searching at random, kill a mutant in one
run and not the next; a rule they cover is pinned by an example test instead.  Tests that time
themselves (``time.monotonic``/``perf_counter`` in the test) are deselected as well: under
mutmut's trampolines and ``nice -n 19`` on shared cores they measure the harness (the 3 s
uniqueItems test took 3.5 s on the unmutated copy at load 5 and failed mutmut's first run).
"""

from __future__ import annotations

SLOW_FIXTURES = {"server", "page", "browser"}
SUBPROCESS_HELPERS = {"run_workbench", "on_a_terminal", "start_server"}
CLOCKS = {"monotonic", "perf_counter"}


def _slow(item) -> bool:
    if set(getattr(item, "fixturenames", ())) & SLOW_FIXTURES:
        return True
    if item.get_closest_marker("browser") or item.get_closest_marker("slow"):
        return True
    function = getattr(item, "function", None)
    if getattr(function, "is_hypothesis_test", False):
        return True
    if CLOCKS & set(getattr(getattr(function, "__code__", None), "co_names", ())):
        return True
    return _runs_a_subprocess(function, 2)


def _runs_a_subprocess(function, depth: int) -> bool:
    """The test, or a helper of its module it calls (``wb`` → ``run_workbench``, two levels
    down), names one of the SUBPROCESS_HELPERS."""
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    names = set(code.co_names)
    if names & SUBPROCESS_HELPERS:
        return True
    if depth:
        module_globals = getattr(function, "__globals__", {})
        for name in names:
            helper = module_globals.get(name)
            if callable(helper) and getattr(helper, "__module__", None) == function.__module__ \
                    and _runs_a_subprocess(helper, depth - 1):
                return True
    return False


def pytest_collection_modifyitems(config, items):
    keep, drop = [], []
    for item in items:
        (drop if _slow(item) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def command_line_id(text: str) -> str:
    """``text`` as a test id without a backslash.  mutmut hands each mutant's tests back to pytest
    as node ids on its command line, and an id pytest escaped (``\\cA``, ``\\xe9`` for ``é``)
    is not found there: pytest exits 4, mutmut's worker exits 255 and reports the mutant as a
    timeout, which the score counted as killed (the run of 2026-12-02: every mutant of
    kw_pattern, kw_format, _short and the first of kw_type)."""
    return text.encode("unicode_escape").decode("ascii").replace("\\", "%")


def pytest_make_parametrize_id(config, val, argname):
    if isinstance(val, str):
        safe = command_line_id(val)
        if safe != val:
            return safe
    return None
