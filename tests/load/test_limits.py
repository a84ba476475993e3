"""Every limit is configurable and gives a clear answer at the limit (issue 8).

One server runs with every limit set small; each test shows the clear error (or the bounded,
labelled result) right at its limit. Defaults are listed in the README and workbench/limits.py.
"""

from __future__ import annotations

import json

import pytest
from conftest import start_server, stop_server

from workbench.limits import Limits


@pytest.fixture(scope="module")
def small():
    s = start_server("--max-body", "200000", "--max-depth", "5", "--regex-timeout", "0.2",
                     "--max-matches", "3", "--max-changes", "2", "--max-errors", "2",
                     "--diff-max-bytes", "5000")
    yield s
    stop_server(s)


def test_defaults_are_the_documented_ones():
    d = Limits()
    assert (d.max_body, d.max_depth, d.regex_timeout, d.max_matches, d.max_changes, d.max_errors,
            d.diff_max_bytes, d.work_timeout) == (64 << 20, 512, 1.0, 10_000, 10_000, 1_000, 32 << 20, 20.0)


def test_limits_from_environment():
    assert Limits.from_env({"WORKBENCH_MAX_DEPTH": "7", "WORKBENCH_REGEX_TIMEOUT": "0.5"}).max_depth == 7
    assert Limits.from_env({"WORKBENCH_REGEX_TIMEOUT": "0.5"}).regex_timeout == 0.5


def test_body_size(small):
    status, body = small.api("format", {"text": "[" + "1," * 150000 + "1]"})
    assert status == 413 and body["error"]["code"] == "too_large" and body["error"]["limit"] == 200000


def test_depth(small):
    assert small.api("format", {"text": "[[[[[1]]]]]"})[0] == 200
    for name, body in [("format", {"text": "[[[[[[1]]]]]]"}),
                       ("extract", {"document": "[[[[[[1]]]]]]", "path": "$"}),
                       ("validate", {"document": "[[[[[[1]]]]]]", "schema": "{}"}),
                       ("diff", {"left": "[[[[[[1]]]]]]", "right": "[]"})]:
        status, answer = small.api(name, body)
        assert status == 422, (name, answer)
        assert answer["error"]["code"] == "too_deep" and "5 levels" in answer["error"]["message"]
        assert answer["error"]["column"] == 6


def test_regex_time(small):
    document = json.dumps({"s": "a" * 60 + "!"})
    schema = json.dumps({"properties": {"s": {"pattern": "^(a|aa)+$"}}})
    status, answer = small.api("validate", {"document": document, "schema": schema})
    assert status == 422 and answer["error"]["code"] == "timeout", answer
    assert "0.2" in answer["error"]["message"]


def test_match_count(small):
    status, answer = small.api("extract", {"document": json.dumps(list(range(10))), "path": "$[*]"})
    assert status == 200
    assert answer["count"] == 10 and len(answer["matches"]) == 3 and answer["truncated"] is True


def test_error_count(small):
    schema = json.dumps({"items": {"type": "string"}})
    status, answer = small.api("validate", {"document": json.dumps(list(range(10))), "schema": schema})
    assert status == 200 and answer["valid"] is False
    assert len(answer["errors"]) == 2 and answer["truncated"] is True and answer["count"] == 10


def test_change_count(small):
    status, answer = small.api("diff", {"left": json.dumps({"a": 1, "b": 2, "c": 3}),
                                        "right": json.dumps({"a": 9, "b": 9, "c": 9})})
    assert status == 200 and answer["equal"] is False
    assert len(answer["changes"]) == 2 and answer["truncated"] is True


def test_diff_size(small):
    status, answer = small.api("diff", {"left": json.dumps(["x" * 6000]), "right": "[]"})
    assert status in (413, 422) and answer["error"]["code"] == "too_large"
    assert answer["error"]["field"] == "left"
