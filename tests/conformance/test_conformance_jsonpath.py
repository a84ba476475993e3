"""Every case of the RFC 9535 JSONPath Compliance Test Suite through ``POST /api/extract``
on the real server (default engine).

* valid selectors: the values of the matches (parsed from their exact ``json`` text) must
  equal the case's ``result`` — or one of its ``results`` when several orders are allowed —
  and the normalized paths must equal ``result_paths`` / the matching ``results_paths``;
* invalid selectors: 422 with ``path_syntax`` on the field ``path`` and a column.

One HTTP connection is reused for the 703 requests.
"""

from __future__ import annotations

import http.client
import json

import pytest


def canonical(value) -> str:
    """Type-exact comparison text: 1, 1.0 and true stay different."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def check_case(case: dict, status: int, body: dict) -> str | None:
    """None when the answer is right, else why not."""
    if case.get("invalid_selector"):
        if status != 422:
            return f"invalid selector answered {status}"
        error = body.get("error", {})
        if error.get("code") != "path_syntax" or error.get("field") != "path":
            return f"invalid selector gave {error}"
        if not isinstance(error.get("column"), int) or error["column"] < 1:
            return f"no column in {error}"
        return None
    if status != 200:
        return f"valid selector answered {status}: {body}"
    matches = body["matches"]
    if body["count"] != len(matches) or body["truncated"]:
        return "count/truncated wrong"
    values = [canonical(json.loads(m["json"])) for m in matches]
    if [canonical(m["value"]) for m in matches] != values:
        return "value and json disagree"
    paths = [m["path"] for m in matches]
    options = [case["result"]] if "result" in case else case["results"]
    path_options = ([case["result_paths"]] if "result_paths" in case
                    else case.get("results_paths") or [None] * len(options))
    for expected, expected_paths in zip(options, path_options):
        if [canonical(v) for v in expected] == values and (expected_paths is None or expected_paths == paths):
            return None
    return f"got {values[:5]} at {paths[:5]}, expected {options[0][:5]} at {(path_options[0] or [])[:5]}"


def test_rfc9535_compliance_test_suite(server, conformance):
    cases = json.loads((conformance / "jsonpath-cts" / "cts.json").read_text(encoding="utf-8"))["tests"]
    assert len(cases) == 703
    conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
    failures = []
    invalid = valid = 0
    try:
        for case in cases:
            body = {"document": json.dumps(case.get("document", None), ensure_ascii=False),
                    "path": case["selector"]}
            conn.request("POST", "/api/extract", json.dumps(body).encode("utf-8"),
                         {"Content-Type": "application/json"})
            response = conn.getresponse()
            answer = json.loads(response.read())
            why = check_case(case, response.status, answer)
            if why:
                failures.append(f"{case['name']} {case['selector']!r}: {why}")
            elif case.get("invalid_selector"):
                invalid += 1
            else:
                valid += 1
    finally:
        conn.close()
    passed = len(cases) - len(failures)
    print(f"\nRFC 9535 CTS through POST /api/extract: {passed}/{len(cases)} pass "
          f"({valid} valid selectors with values and paths, {invalid} invalid selectors refused)")
    assert not failures, "\n".join(failures[:40])
    assert passed == 703


@pytest.mark.parametrize("selector", ["$[?(@.*!=42)]", "$..", "$.a[?@.b==1]]", "$[?@.a==--1]"])
def test_jsonpath_ng_is_labelled_and_differs(server, selector):
    """The second engine answers for its users, labelled as not RFC 9535; the default refuses
    the selectors the suite calls invalid (one of them jsonpath-ng reads as 'everything')."""
    document = json.dumps([{"a": 1}, {"a": 42}])
    status, body = server.api("extract", {"document": document, "path": selector})
    assert status == 422 and body["error"]["code"] == "path_syntax"
    status, body = server.api("extract", {"document": document, "path": selector, "engine": "jsonpath-ng"})
    if status == 200:
        assert body["engine"] == "jsonpath-ng" and body["rfc9535"] is False
        assert "not RFC 9535" in body["engine_label"]
    else:
        assert status == 422 and body["error"]["message"].startswith("jsonpath-ng:")
