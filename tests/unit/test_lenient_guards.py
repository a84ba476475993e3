"""Issue 21: the lenient doors of Format (JSONC, JSON5, YAML) bounded in time, depth, expansion
and exactness; every fault a 4xx with its code, field and place (never a 500)."""

from __future__ import annotations

import json
import time

import pytest

from workbench.errors import WorkbenchError
from workbench.format import handle
from workbench.format.lenient import format_lenient, strip_jsonc
from workbench.limits import Limits


def fmt(text, kind, indent=2, sort_keys=False, max_depth=512):
    return format_lenient(text, kind, indent, sort_keys, max_depth=max_depth)


def refused(text, kind, **kw) -> WorkbenchError:
    with pytest.raises(WorkbenchError) as e:
        fmt(text, kind, **kw)
    assert e.value.status in (400, 413, 422) and e.value.field == "text"
    return e.value


# ------------------------------------------------------------------ row 2: JSONC in linear time

def test_jsonc_many_unterminated_comments_is_linear_and_placed():
    # 25,000 "/*" after commas (75 KB) took ~21 s (quadratic): now one pass, and the first
    # comment that never closes is the error at its place
    text = "[1" + ",/*" * 25000
    t = time.perf_counter()
    e = refused(text, "jsonc")
    assert time.perf_counter() - t < 1.0
    assert e.code == "parse_error" and (e.line, e.column, e.offset) == (1, 4, 3)
    assert "never closed" in e.message


def test_jsonc_many_comments_between_commas_stay_linear():
    text = "[" + "1,/* c */" * 20000 + "]"
    t = time.perf_counter()
    blank, counts = strip_jsonc(text)
    assert time.perf_counter() - t < 1.0
    assert counts == {"comments": 20000, "trailing_commas": 1}
    assert json.loads(blank) == [1] * 20000


def test_jsonc_trailing_commas_through_comments_and_strings_untouched():
    text = '{"a": "x, ]", "b": [1, // c\n /* d */ ], "u": "//"  ,\n}'
    blank, counts = strip_jsonc(text)
    assert len(blank) == len(text)
    assert json.loads(blank) == {"a": "x, ]", "b": [1], "u": "//"}
    assert counts == {"comments": 2, "trailing_commas": 2}


def test_format_runs_under_the_work_deadline():
    # a request's work is bounded by work_timeout in every input mode
    text = "a: [" + ", ".join(["b"] * 200000) + "]"   # pure-Python YAML: seconds of work
    t = time.perf_counter()
    with pytest.raises(WorkbenchError) as e:
        handle({"text": text, "input": "yaml"}, Limits(work_timeout=0.2))
    assert e.value.code == "timeout" and e.value.status == 422
    assert time.perf_counter() - t < 2.0
