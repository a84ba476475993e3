"""The Diff's guards (issue 21 rows 5 and 7, issue 28): absurd tolerances are a 400 on
``tolerance``, the tolerance boundary is inclusive, every phase of a diff runs under the work
deadline, and the answer and memory stay bounded on hostile pairs."""

from __future__ import annotations

import json

import pytest

from workbench.diff import handle
from workbench.errors import WorkbenchError
from workbench.limits import DEFAULT_LIMITS


def run(left, right, limits=DEFAULT_LIMITS, **opts):
    body = {"left": left if isinstance(left, str) else json.dumps(left),
            "right": right if isinstance(right, str) else json.dumps(right), **opts}
    return handle(body, limits)


# ----------------------------------------------------------------------------- tolerance (row 7)

@pytest.mark.parametrize("tolerance", [
    "1e9999999%", "1e9999999", "1e-9999999", "1e-9999999%", "9" * 5000, "1" * 5000 + "%",
    10 ** 5000, -(10 ** 5000), {"relative": "1e999999999"}, {"absolute": "1e-999999999"},
    "1e999999999%", "Infinity", "NaN%", "-1%", "0x10", "1e", "%",
], ids=lambda t: f"{type(t).__name__}-{len(str(t)) if type(t) is not int else t.bit_length()}-{str(t)[:12]}" if type(t) is not int else f"int-{t.bit_length()}bits")
def test_an_absurd_tolerance_is_a_400_on_tolerance(tolerance):
    with pytest.raises(WorkbenchError) as e:
        run("[1.5, 2]", "[1.6, 3]", tolerance=tolerance)
    assert e.value.status == 400
    assert e.value.field == "tolerance"
    assert e.value.code in ("bad_value", "bad_type")


def test_an_absurd_tolerance_through_the_api(client):
    r = client.post("/api/diff", json={"left": "[1]", "right": "[2]", "tolerance": "1e9999999%"})
    assert r.status_code == 400
    assert r.get_json()["error"]["field"] == "tolerance"
    assert r.get_json()["error"]["code"] == "bad_value"


@pytest.mark.parametrize("tolerance", ["1e300", "1e-300%", 10 ** 90, "0.5%", {"absolute": "1e-300"}],
                         ids=lambda t: f"{type(t).__name__}-{len(str(t)) if type(t) is not int else t.bit_length()}-{str(t)[:12]}" if type(t) is not int else f"int-{t.bit_length()}bits")
def test_large_but_sane_tolerances_still_work(tolerance):
    assert run("[1.5]", "[1.5000000001]", tolerance=tolerance)["count"] in (0, 1)


# ----------------------------------------------------------------------------- boundary (issue 28)

@pytest.mark.parametrize("tolerance,left,right,equal", [
    ("0.5", "10", "10.5", True),          # |l - r| == absolute: not a change
    ("0.5", "10.5", "10", True),
    ("0.5", "10", "10.50000000000000000000000001", False),   # one past it: a change
    ("0.5", "-10", "-10.5", True),
    ("10%", "100", "90", True),           # |l - r| == 10% of max(|l|, |r|) = 10
    ("10%", "100", "89.99999999999999999999999999", False),
    ("10%", "90", "100", True),
    ({"absolute": "0.25"}, "1", "1.25", True),
    ({"absolute": "0.25"}, "1", "1.2500000001", False),
    ({"relative": "0.5"}, "2", "4", True),
    ({"relative": "0.5"}, "2", "4.0000001", False),
    # exact at any size: 1e70 + 0.5 is past 1e70 (a 60-digit subtraction rounded it to 1e70)
    ("1e70", "1" + "0" * 70 + ".5", "0", False),
    ("1e70", "1" + "0" * 70, "0", True),
    ("1e-80", "0." + "0" * 79 + "2", "0." + "0" * 79 + "1", True),
    ("1%", "100." + "0" * 69 + "1", "99", False),     # 1 + 1e-70 against 1 + 1e-72
    ("1%", "100." + "0" * 69 + "1", "99." + "0" * 69 + "1", True),
])
def test_the_tolerance_boundary_is_inclusive(tolerance, left, right, equal):
    out = run(f"[{left}]", f"[{right}]", tolerance=tolerance)
    assert out["equal"] is equal
    if equal:
        assert [n["kind"] for n in out["notes"]] == ["tolerance"]
    else:
        assert out["changes"][0]["op"] == "replace" and out["changes"][0]["pointer"] == "/0"
