"""A pytest plugin for mutation runs (``-p mutation_fastonly``): keep only the in-process tests.

Tests that start the real server, a browser or the command line in a subprocess are deselected:
a mutant lives in the test process (mutmut switches it on per test), and those tests take
seconds each, which multiplied by hundreds of mutants does not fit two shared cores.
"""

from __future__ import annotations

SLOW_FIXTURES = {"server", "page", "browser"}
SUBPROCESS_HELPERS = {"run_workbench", "on_a_terminal", "start_server"}


def _slow(item) -> bool:
    if set(getattr(item, "fixturenames", ())) & SLOW_FIXTURES:
        return True
    if item.get_closest_marker("browser") or item.get_closest_marker("slow"):
        return True
    code = getattr(getattr(item, "function", None), "__code__", None)
    return code is not None and bool(set(code.co_names) & SUBPROCESS_HELPERS)


def pytest_collection_modifyitems(config, items):
    keep, drop = [], []
    for item in items:
        (drop if _slow(item) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
