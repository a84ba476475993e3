"""Fuzzing every endpoint through the real server (issue 8).

Random and adversarial text in every field — invalid UTF-8 (as lone surrogates), huge numbers,
deep nesting, long keys, control characters, JSONPath and schema edge cases — must give 200 or a
4xx with the error body of docs/api.md, never a 5xx or a hang.  Bounded in count and time.
"""

from __future__ import annotations

import http.client
import json
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow

EXAMPLES = 120
TRIED: Counter = Counter()

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
json_docs = st.recursive(scalars, lambda c: st.lists(c, max_size=4) |
                         st.dictionaries(st.text(max_size=8), c, max_size=4), max_leaves=20)

adversarial = st.sampled_from([
    "", " ", "\x00", "\ud800", "\udcff", '"\\ud800"', "[" * 3000, "[" * 600 + "]" * 600,
    '{"a":1,"a":2}', "1e999999", "-0", "1" * 5000, "[1,]", "{'a':1}", "NaN", "// x\n{}",
    '{"' + "k" * 10000 + '":1}', '"' + "\\u0000" * 50 + '"', "\ufeff{}", "[1]]", "{}{}",
    '{"$ref":"http://example.com/s.json"}', '{"$ref":"file:///etc/passwd"}',
    '{"pattern":"^(a+)+$"}', '{"type":"object","required":"name"}', '{"$schema":"urn:nope"}',
    '{"type":"function_call","arguments":"{\\"a\\":1,\\"a\\":2}"}',
    "$", "$..", "$[?@.a==", "$.a[?(@.*!=42)]", "$['\\n']", "$[-0]", "$..[?length(@)>1]",
    "$[1:2:0]", "$.a.b.c.d" * 200, "$[" + "9" * 40 + "]",
])
texts = st.one_of(adversarial, st.text(max_size=200), json_docs.map(json.dumps),
                  json_docs.map(lambda d: json.dumps(d, indent=2)))

FIELDS = {
    "format": {"text": texts, "indent": st.one_of(st.integers(-2, 10), st.just("tab"), st.text(max_size=3)),
               "sort_keys": st.booleans()},
    "extract": {"document": texts, "path": st.one_of(adversarial, st.text(max_size=40),
                                                      st.sampled_from(["$..a", "$.a[0]", "$[*]", "$..*"])),
                "engine": st.sampled_from(["rfc9535", "jsonpath-ng", "nope"])},
    "validate": {"document": texts, "schema": st.one_of(texts, json_docs.map(lambda d: json.dumps({"properties": d}))),
                 "format_assert": st.booleans()},
    "diff": {"left": texts, "right": texts, "ignore_order": st.booleans(),
             "match_key": st.one_of(st.none(), st.text(max_size=5)),
             "ignore_paths": st.one_of(st.none(), st.lists(st.text(max_size=10), max_size=3))},
    "gate": {"item": texts, "schema": st.one_of(st.none(), texts), "original": st.one_of(st.none(), texts)},
}


def bodies(name):
    fields = FIELDS[name]
    required = {"format": ["text"], "extract": ["document", "path"], "validate": ["document", "schema"],
                "diff": ["left", "right"], "gate": ["item"]}[name]
    return st.fixed_dictionaries({k: fields[k] for k in required},
                                 optional={k: v for k, v in fields.items() if k not in required})


@pytest.fixture(scope="module")
def conn(server):
    c = http.client.HTTPConnection(server.host, server.port, timeout=30)
    yield c
    c.close()
    print("\nfuzz cases tried per endpoint:", dict(TRIED))


def check(conn, name, body):
    TRIED[name] += 1
    payload = json.dumps(body)
    started = time.monotonic()
    conn.request("POST", f"/api/{name}", payload, {"Content-Type": "application/json"})
    r = conn.getresponse()
    data = r.read()
    elapsed = time.monotonic() - started
    assert r.status < 500, (name, r.status, data[:500], payload[:300])
    assert elapsed < 15, (name, elapsed, payload[:300])
    # exact numbers of any length come back (a 5,000-digit integer is valid JSON): read them as text
    answer = json.loads(data, parse_int=lambda t: int(t) if len(t) < 4000 else t)
    if r.status >= 400:
        err = answer["error"]
        assert isinstance(err["code"], str) and isinstance(err["message"], str) and err["message"]
        for k in ("line", "column"):
            if k in err:
                assert isinstance(err[k], int) and err[k] >= 1
    else:
        assert r.status == 200


@pytest.mark.parametrize("name", list(FIELDS))
def test_fuzz_endpoint(conn, name):
    @settings(max_examples=EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.function_scoped_fixture])
    @given(bodies(name))
    def run(body):
        check(conn, name, body)
    run()


TEXT_FIELDS = ("text", "document", "path", "schema", "left", "right", "item", "original")
WRONG = {
    "indent": ["x", 9, -1, True, [2]], "engine": [123, "nope", ["rfc9535"]],
    "match_key": [123, ["x"], {"a": 1}], "ignore_paths": [123, [1], {"a": 1}],
    "sort_keys": ["yes", 3, []], "ignore_order": ["yes", 3, []], "format_assert": ["yes", 3, []],
}


@pytest.mark.parametrize("name", list(FIELDS))
def test_wrong_types_in_every_field_are_400(conn, name):
    for field in FIELDS[name]:
        for wrong in WRONG.get(field, [123, ["x"], {"a": 1}, True]):
            body = {k: ("$" if k == "path" else "{}") for k in FIELDS[name] if k in TEXT_FIELDS}
            body[field] = wrong
            TRIED[name] += 1
            conn.request("POST", f"/api/{name}", json.dumps(body), {"Content-Type": "application/json"})
            r = conn.getresponse()
            data = json.loads(r.read())
            assert 400 <= r.status < 500, (name, field, wrong, r.status, data)
            assert "error" in data
