"""json-patch-tests (../shared/conformance/json-patch-tests) through the real server: for every
test with both ``doc`` and ``expected``, no ``error`` and not disabled, POST the two documents
to /api/diff and apply the returned ``patch`` to ``doc`` with the independent ``jsonpatch``
package: the result must be exactly ``expected`` (1, 1.0 and true distinct)."""

from __future__ import annotations

import copy
import json

import jsonpatch
import pytest
from jsonutil import merge_apply, strict_equal

pytestmark = pytest.mark.conformance


def cases(conformance):
    out = []
    for name in ("tests.json", "spec_tests.json"):
        for n, t in enumerate(json.loads((conformance / "json-patch-tests" / name).read_text("utf-8"))):
            if "doc" in t and "expected" in t and "error" not in t and not t.get("disabled"):
                out.append((f"{name}#{n}", t))
    return out


def test_every_patch_round_trips(server, conformance):
    selected = cases(conformance)
    assert len(selected) >= 70, "the suite looks truncated"
    failures = []
    for name, t in selected:
        status, body = server.api("diff", {"left": json.dumps(t["doc"]), "right": json.dumps(t["expected"])})
        assert status == 200, (name, body)
        try:
            result = jsonpatch.apply_patch(copy.deepcopy(t["doc"]), body["patch"])
        except Exception as exc:  # noqa: BLE001 - report every failure together
            failures.append((name, t.get("comment"), body["patch"], repr(exc)))
            continue
        if not strict_equal(result, t["expected"]):
            failures.append((name, t.get("comment"), body["patch"], result))
        if body["equal"] != strict_equal(t["doc"], t["expected"]):
            failures.append((name, "equal flag", body["equal"]))
        if body["equal"]:
            assert body["changes"] == [] and body["patch"] == []
    print(f"\njson-patch-tests: {len(selected) - len(failures)}/{len(selected)} diffs round-trip "
          "through jsonpatch.apply_patch")
    assert not failures, failures




def test_every_merge_patch_round_trips_or_names_its_nulls(server, conformance):
    """The same documents through RFC 7386: the merge patch applied to ``doc`` gives
    ``expected``, except where ``expected`` sets a member to null (which a merge patch cannot
    say), and those places are named in ``merge_patch_notes``."""
    selected = cases(conformance)
    exact = 0
    failures = []
    for name, t in selected:
        status, body = server.api("diff", {"left": json.dumps(t["doc"]), "right": json.dumps(t["expected"]),
                                           "merge_patch": True})   # sent only when asked (issue 25)
        assert status == 200, (name, body)
        body["merge_patch"] = json.loads(body["merge_patch_text"])
        merged = merge_apply(copy.deepcopy(t["doc"]), body["merge_patch"])
        if body["merge_patch_exact"]:
            exact += 1
            if not strict_equal(merged, t["expected"]):
                failures.append((name, t.get("comment"), body["merge_patch"], merged))
        elif not all(n["reason"] in ("null_value", "null_inside") for n in body["merge_patch_notes"]):
            failures.append((name, "notes", body["merge_patch_notes"]))
        elif "null" not in json.dumps(t["expected"]):
            failures.append((name, "inexact without a null", body["merge_patch_notes"]))
    print(f"\njson-patch-tests: {exact}/{len(selected)} merge patches exact, "
          f"{len(selected) - exact - len(failures)} name the nulls they cannot carry")
    assert exact >= len(selected) - 10
    assert not failures, failures


def test_patch_ops_are_minimal_for_the_spec_examples(server, conformance):
    """The RFC's own examples: one operation each, not a rewrite of the document."""
    for name, t in cases(conformance):
        if not name.startswith("spec_tests") or t["doc"] == t["expected"]:
            continue
        status, body = server.api("diff", {"left": json.dumps(t["doc"]), "right": json.dumps(t["expected"])})
        assert status == 200
        assert 1 <= len(body["patch"]) <= 2, (t.get("comment"), body["patch"])
