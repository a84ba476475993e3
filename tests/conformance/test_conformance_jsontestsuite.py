"""JSONTestSuite (nst/JSONTestSuite test_parsing, 318 files) through POST /api/format.

Every ``y_`` file must answer 200, every ``n_`` file 422, every ``i_`` file 200 or 422 with a
clear message; nothing may answer 5xx.  Files that are not UTF-8 are sent as the text a browser
would get with invalid bytes kept as lone surrogates (surrogateescape), which the parser refuses.
"""

from __future__ import annotations

import http.client
import json

import pytest

pytestmark = pytest.mark.conformance


def _send(conn, text: str):
    body = json.dumps({"text": text})
    conn.request("POST", "/api/format", body, {"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


def test_jsontestsuite_through_the_api(server, conformance):
    folder = conformance / "jsontestsuite" / "test_parsing"
    files = sorted(folder.glob("*.json"))
    assert len(files) >= 300
    conn = http.client.HTTPConnection(server.host, server.port, timeout=60)
    counts = {"y": [0, 0], "n": [0, 0], "i": [0, 0, 0]}  # y/n: [right, wrong]; i: [200, 422, other]
    wrong = []
    for path in files:
        raw = path.read_bytes()
        text = raw.decode("utf-8", errors="surrogateescape")
        status, body = _send(conn, text)
        assert status < 500, (path.name, status, body)
        kind = path.name[0]
        if kind == "y":
            ok = status == 200
            counts["y"][0 if ok else 1] += 1
        elif kind == "n":
            ok = status == 422 and body["error"]["code"] in ("parse_error", "too_deep")
            counts["n"][0 if ok else 1] += 1
        else:
            ok = status in (200, 422)
            counts["i"][0 if status == 200 else 1 if status == 422 else 2] += 1
        if status == 422:
            err = body["error"]
            # a clear message: words, and a position whenever the text has one
            assert len(err["message"]) > 15 and err["field"] == "text", (path.name, err)
            assert "line" in err and "column" in err, (path.name, err)
        if not ok:
            wrong.append((path.name, status, body))
    print(f"\nJSONTestSuite via /api/format: y_ {counts['y'][0]}/{sum(counts['y'])} accepted, "
          f"n_ {counts['n'][0]}/{sum(counts['n'])} rejected, "
          f"i_ {counts['i'][0]} accepted + {counts['i'][1]} rejected (of {sum(counts['i'])}), 0 5xx")
    assert not wrong, wrong
