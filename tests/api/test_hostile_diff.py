"""Hostile pairs against POST /api/diff (issue 21): deep, long, repeated, huge numbers, reversed
arrays, bad escapes, with every option (ignore paths, match_key, tolerance, preset, the DeepDiff
engine).  Every answer is a 200 or a 4xx with a stable ``code`` (never a 500), within the work
deadline plus a margin.  In process (Flask's test client) with a 2 s deadline so it fits CI."""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from workbench.limits import DEFAULT_LIMITS
from workbench.web import create_app

WORK = 2.0          # the deadline these requests run under
MARGIN = 3.0        # parse, answer writing and a loaded 2-core machine
LIMITS = DEFAULT_LIMITS.with_(work_timeout=WORK)
CODES = {"parse_error", "too_deep", "too_large", "timeout", "bad_type", "bad_value", "bad_request",
         "missing_field", "bad_json", "path_syntax"}
SEEN: Counter = Counter()

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def hostile_client():
    return create_app(LIMITS).test_client()


# ----------------------------------------------------------------------------- documents

def _num(n: int) -> str:
    return str(n)


HUGE_NUMBERS = ["1e999999999", "-1e-999999999", "1" * 4000, "9" * 4301, "0." + "0" * 3000 + "1",
                "12345678901234567890.12345678901234567890e-300", "-0", "-0.0", "1E400", "1.0"]
BAD_ESCAPES = ['"\\ud800"', '"\\udc00\\ud800"', '"\\x41"', '"\\u12"', '"\\', '"\t"', '"\\ud83d\\ude00"']


@st.composite
def shapes(draw):
    """One hostile document as JSON text."""
    kind = draw(st.sampled_from(["deep", "long", "repeated", "numbers", "escapes", "wide",
                                 "items", "strings"]))
    n = draw(st.sampled_from([0, 1, 7, 300, 5_000, 40_000, 150_000]))
    if kind == "deep":
        depth = draw(st.sampled_from([1, 60, 120, 254, 255, 511, 512, 513, 700]))
        opener = draw(st.sampled_from(["[", '{"a":']))
        closer = "]" if opener == "[" else "}"
        return opener * depth + draw(st.sampled_from(["1", "[]", '"x"'])) + closer * depth
    if kind == "long":
        return "[" + ",".join(_num(i) for i in range(n)) + "]"
    if kind == "repeated":
        period = draw(st.integers(1, 4))
        return "[" + ",".join(_num(i % period) for i in range(n)) + "]"
    if kind == "numbers":
        picks = draw(st.lists(st.sampled_from(HUGE_NUMBERS), min_size=1, max_size=30))
        return "[" + ",".join(picks) + "]"
    if kind == "escapes":
        picks = draw(st.lists(st.sampled_from(BAD_ESCAPES), min_size=1, max_size=10))
        return '{"s":[' + ",".join(picks) + "]}"
    if kind == "wide":
        return json.dumps({f"k{i}": i % 7 for i in range(min(n, 20_000))})
    if kind == "items":
        return json.dumps([{"id": f"call_{i}", "type": "function_call", "name": "f",
                            "arguments": json.dumps({"i": i, "x": [i] * 3})}
                           for i in range(min(n, 3000))])
    return json.dumps(["x" * draw(st.integers(0, 50_000)), "\u00e9\u4e2d" * 100])


@st.composite
def pairs(draw):
    left = draw(shapes())
    how = draw(st.sampled_from(["same", "reversed", "other", "tiny", "edit"]))
    if how == "same":
        right = left
    elif how == "reversed":
        try:
            value = json.loads(left)
        except (ValueError, RecursionError):
            value = None
        right = json.dumps(value[::-1]) if isinstance(value, list) else draw(shapes())
    elif how == "tiny":
        right = draw(st.sampled_from(["[2]", "{}", "[]", "null", '"x"', "1e999999999"]))
    elif how == "edit":
        cut = draw(st.integers(0, max(0, len(left) - 1)))
        right = left[:cut] + draw(st.sampled_from(["", "1", ",", "0", "\\ud800"])) + left[cut + 1:]
    else:
        right = draw(shapes())
    if draw(st.booleans()):
        left, right = right, left
    return left, right


options = st.fixed_dictionaries({}, optional={
    "ignore_order": st.booleans(),
    "match_key": st.one_of(st.none(), st.sampled_from(["id", "call_id", "", "a", "k1"]),
                           st.integers(), st.text(max_size=4)),
    "ignore_paths": st.one_of(st.none(), st.lists(st.sampled_from(
        ["$..id", "/s/*", "$.a", "$[0]", "/**/x", "$..", "$[?@.a]", "[", "/~2", "$..*"]), max_size=3),
        st.text(max_size=6)),
    "tolerance": st.one_of(st.none(), st.sampled_from(
        ["1e9999999%", "0.5", "1%", "1e-1000", "1e1000", "1e1001", "-1", "x", "%", "NaN", "1" * 200]),
        st.integers(-5, 10**40), st.floats(allow_nan=True, allow_infinity=True),
        st.fixed_dictionaries({"absolute": st.sampled_from([0.1, "1e9999", -1, "z"])})),
    "preset": st.sampled_from(["providers", None, "nope", 1]),
    "engine": st.sampled_from(["workbench", "deepdiff", "jd"]),
    "parse_strings": st.booleans(),
    "merge_patch": st.booleans(),
    "view": st.booleans(),
})


valid_options = st.fixed_dictionaries({}, optional={
    "ignore_order": st.booleans(),
    "match_key": st.sampled_from(["id", "call_id", "k1"]),
    "ignore_paths": st.lists(st.sampled_from(["$..id", "/s/*", "$[0]", "/**/x", "$..arguments"]),
                             max_size=2),
    "tolerance": st.sampled_from(["0.5", "1%", "1e-1000", "1e1000", {"relative": "0.1"}]),
    "preset": st.just("providers"),
    "engine": st.sampled_from(["workbench", "workbench", "deepdiff"]),
    "merge_patch": st.booleans(),
    "view": st.booleans(),
})


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(pair=pairs(), opts=st.one_of(valid_options, options))
@example(pair=("[1.5]", "[1.6]"), opts={"tolerance": "1e9999999%"})                   # row 7
@example(pair=("[1]", "[2]"), opts={"tolerance": {"relative": "1e999999999"}})
@example(pair=("[" + ",".join(str(i % 10) for i in range(300_000)) + "]", "[2]"),     # row 5
         opts={"merge_patch": True})
@example(pair=("[" + ",".join(str(i % 3) for i in range(40_000)) + "]",
               "[" + ",".join(str((i * 7) % 3) for i in range(40_000)) + "]"), opts={})
def test_hostile_pairs_answer_200_or_a_coded_4xx_in_time(hostile_client, pair, opts):
    left, right = pair
    body = json.dumps({"left": left, "right": right, **opts})
    t = time.monotonic()
    r = hostile_client.post("/api/diff", data=body, content_type="application/json")
    took = time.monotonic() - t
    assert r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:300], opts)
    assert took < WORK + MARGIN, (took, len(left), len(right), opts)
    answer = r.get_json()
    if r.status_code == 200:
        assert isinstance(answer["equal"], bool)
        assert len(answer.get("changes", answer.get("deepdiff", []))) <= LIMITS.max_changes
        SEEN["200"] += 1
    else:
        error = answer["error"]
        assert error["code"] in CODES, error
        assert error["message"]
        SEEN[error["code"]] += 1


def test_hostile_coverage_report():
    """What the run above answered (for the log; it must have seen both kinds)."""
    print("hostile diff answers:", dict(SEEN))
    if SEEN:
        assert SEEN["200"] and sum(SEEN.values()) > SEEN["200"]
