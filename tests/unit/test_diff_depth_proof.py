"""The diff's depth proof (issue 25): the walk notes when every container of both trees was walked
or written whole by orjson (``Differ.depth_proven``), and the request's own depth check is then
skipped -- but a pair nesting deeper than the limit is still refused, whichever way it nests."""

from __future__ import annotations

import json

import orjson
import pytest

from workbench.diff import core
from workbench.diff.walk import PROVEN_DEPTH, Differ
from workbench.errors import WorkbenchError
from workbench.jsontext import ORJSON_MAX_DEPTH, parse
from workbench.limits import DEFAULT_LIMITS, DIFF_DEPTH_CAP, Limits


def arrays(levels: int, leaf: str = "1") -> str:
    """``levels`` arrays around ``leaf`` (``levels`` levels of nesting)."""
    return "[" * levels + leaf + "]" * levels


def objects(levels: int, inner: str) -> str:
    """``levels`` objects ``{"k": …}`` around ``inner``."""
    return '{"k":' * levels + inner + "}" * levels


def items(n: int = 40, changed: int = 7) -> list[str]:
    """``n`` small items, the ``changed``-th of the right side different (for the positional path)."""
    left = [f'{{"id": {i}, "v": "x{i}"}}' for i in range(n)]
    right = list(left)
    right[changed] = f'{{"id": {changed}, "v": "changed"}}'
    return left, right


def walked(left: str, right: str, **options) -> Differ:
    differ = Differ(**options)
    differ.diff(parse(left, check_depth=False).value, parse(right, check_depth=False).value)
    return differ


def answer(left: str, right: str, limits: Limits = DEFAULT_LIMITS, **options) -> dict:
    return core.handle({"left": left, "right": right, "view": False, **options}, limits)


@pytest.fixture
def depth_checks(monkeypatch):
    """How many times the request ran its own depth check (check_depth, once per side)."""
    calls = []
    real = core.check_depth

    def counted(parsed, max_depth, field=None):
        calls.append(field)
        return real(parsed, max_depth, field)

    monkeypatch.setattr(core, "check_depth", counted)
    return calls


def test_the_bound_is_the_walks_cap_and_orjsons_depth():
    assert PROVEN_DEPTH == DIFF_DEPTH_CAP + ORJSON_MAX_DEPTH
    assert DEFAULT_LIMITS.max_depth >= PROVEN_DEPTH
    orjson.dumps(json.loads(arrays(ORJSON_MAX_DEPTH)))              # what the proof stands on
    with pytest.raises(TypeError):
        orjson.dumps(json.loads(arrays(ORJSON_MAX_DEPTH + 1)))


def test_a_realistic_pair_is_proven_and_not_checked_again(depth_checks):
    left_items, right_items = items(600)
    deep_item = objects(8, arrays(4, '{"trace": [1, {"e": 2.50}]}'))
    left = '{"items": [' + ",".join(left_items) + "], " + f'"deep": {deep_item}, "index": {{"u1": 1, "u2": 2}}}}'
    right = '{"items": [' + ",".join(right_items) + "], " + f'"deep": {deep_item}, "index": {{"u1": 1, "u2": 3}}}}'
    assert left.count("[") + left.count("{") > DEFAULT_LIMITS.max_depth   # (no cheap proof by counting)
    assert walked(left, right).depth_proven is True
    out = answer(left, right)
    assert out["count"] == 2 and depth_checks == []
    # a limit below the proof's bound: the request checks itself
    out = answer(left, right, Limits(max_depth=PROVEN_DEPTH - 1))
    assert out["count"] == 2 and depth_checks == ["left", "right"]


DEEP = arrays(600)
DEEPER = arrays(600, "2")
LEFT_ITEMS, RIGHT_ITEMS = items()

TOO_DEEP = {
    "equal deep member": ('{"a": %s, "b": 1}' % DEEP, '{"a": %s, "b": 2}' % DEEP, {}),
    "deep member removed": ('{"a": %s, "b": 1}' % DEEP, '{"b": 2}', {}),
    "deep member added": ('{"b": 1}', '{"a": %s, "b": 2}' % DEEP, {}),
    "deep member replaced by a number": ('{"a": %s}' % DEEP, '{"a": 5}', {}),
    "deep value changed far down": (DEEP, DEEPER, {}),
    "deep item among equal items": ("[" + ",".join([DEEP] + LEFT_ITEMS) + "]",
                                    "[" + ",".join([DEEP] + RIGHT_ITEMS) + "]", {}),
    "deep item removed": ("[" + ",".join(LEFT_ITEMS + [DEEP]) + "]", "[" + ",".join(RIGHT_ITEMS) + "]", {}),
    "ignore_order": ("[" + ",".join([DEEP] + LEFT_ITEMS) + "]", "[" + ",".join(RIGHT_ITEMS + [DEEP]) + "]",
                     {"ignore_order": True}),
    "match_key": ('[{"id": 1, "d": %s}, {"id": 2}]' % DEEP, '[{"id": 2}, {"id": 1, "d": %s}]' % DEEP,
                  {"match_key": "id"}),
    "ignored deep member": ('{"a": %s, "b": 1}' % DEEP, '{"a": %s, "b": 2}' % DEEPER, {"ignore_paths": ["/a"]}),
    "deep member in the preset": ('{"output": [{"type": "message", "d": %s}]}' % DEEP,
                                  '{"output": [{"type": "message", "d": %s}]}' % DEEPER, {"preset": "providers"}),
}


@pytest.mark.parametrize("case", TOO_DEEP)
def test_a_too_deep_pair_is_still_refused(case):
    left, right, options = TOO_DEEP[case]
    with pytest.raises(WorkbenchError) as caught:
        answer(left, right, **options)
    assert caught.value.code == "too_deep" and caught.value.status == 422
    assert caught.value.to_dict()["field"] in ("left", "right")


@pytest.mark.parametrize("case", ["equal deep member", "deep member removed", "deep member added",
                                  "deep member replaced by a number", "deep value changed far down",
                                  "deep item among equal items", "deep item removed", "ignore_order"])
def test_the_walk_does_not_claim_a_depth_it_did_not_see(case):
    left, right, options = TOO_DEEP[case]
    options = {k: v for k, v in options.items() if k == "ignore_order"}
    assert walked(left, right, **options).depth_proven is False


def test_the_proof_counts_the_levels_walked_above_what_orjson_wrote():
    # every write succeeds (254 levels each), but 50 levels are walked above them: 305 in all
    inner = '{"deep": %s, "y": %s}'
    left = objects(50, inner % (arrays(ORJSON_MAX_DEPTH), 1))
    right = objects(50, inner % (arrays(ORJSON_MAX_DEPTH), 2))
    assert walked(left, right).depth_proven is True
    answer(left, right, Limits(max_depth=305))
    with pytest.raises(WorkbenchError) as caught:
        answer(left, right, Limits(max_depth=304))
    assert caught.value.code == "too_deep"


def test_a_root_array_one_level_over_a_limit_of_254_is_refused():
    # the changed item nests 254 levels, inside the root array: 255 in all.  Every canonical write
    # succeeds, yet the walk went down into the changed item: no proof (it was taken for one
    # before, when every item of a root array had been written, and the limit was 254 or more)
    left = "[" + ",".join([arrays(ORJSON_MAX_DEPTH, "1")] + LEFT_ITEMS) + "]"
    right = "[" + ",".join([arrays(ORJSON_MAX_DEPTH, "2")] + LEFT_ITEMS) + "]"
    assert walked(left, right).depth_proven is False
    assert answer(left, right, Limits(max_depth=255))["count"] == 1
    with pytest.raises(WorkbenchError) as caught:
        answer(left, right, Limits(max_depth=254))
    assert caught.value.code == "too_deep"
