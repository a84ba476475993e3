"""POST /api/extract through the real server: exact values, paths and pointers, positions,
limits, Decimal-aware filters, both engines, and every error a user can cause."""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from conftest import start_server, stop_server

from workbench.extract import locate_rows
from workbench.jsontext import locate_many, normalized_path, parse, pointer_of


def extract(server, document: str, path: str, **extra):
    return server.api("extract", {"document": document, "path": path, **extra})


def raw_extract(server, document: str, path: str, **extra) -> tuple[int, str]:
    body = json.dumps({"document": document, "path": path, **extra}).encode()
    status, _, data = server.request("POST", "/api/extract", body, {"Content-Type": "application/json"})
    return status, data.decode("utf-8")


# ----------------------------------------------------------------------------- exact values

EXACT = '{"t": 1.10, "e": 1e2, "big": 12345678901234567890123, "neg": -0.0, "s": "caf\\u00e9", "f": 0.1}'


def test_numbers_keep_their_text_in_json_and_value(server):
    status, body = extract(server, EXACT, "$.*")
    assert status == 200
    assert [m["json"] for m in body["matches"]] == ["1.10", "1e2", "12345678901234567890123", "-0.0",
                                                    '"caf\\u00e9"', "0.1"]
    # the response text itself carries the numbers as written (a float would say 1.1, 100.0)
    status, text = raw_extract(server, EXACT, "$.*")
    assert '"value":1.10,' in text and '"value":1e2,' in text
    assert '"value":12345678901234567890123,' in text and '"value":-0.0,' in text
    assert [m["value"] for m in json.loads(text)["matches"]][4] == "café"


def test_a_container_match_is_its_exact_text(server):
    doc = '{\n  "item": {"a": [1.50, 2],\n           "b": null}\n}'
    status, body = extract(server, doc, "$.item")
    (m,) = body["matches"]
    assert m["json"] == '{"a": [1.50, 2],\n           "b": null}'
    assert (m["line"], m["column"]) == (2, 11)
    status, text = raw_extract(server, doc, "$.item.a")
    assert '"value":[1.50, 2]' in text


def test_paths_pointers_and_escaping(server):
    doc = json.dumps({"a/b~c": {"it's": [10, {"x\ny": True}]}, "é": 1, "": 2})
    status, body = extract(server, doc, "$..*")
    rows = {m["pointer"]: m["path"] for m in body["matches"]}
    assert rows["/a~1b~0c"] == "$['a/b~c']"
    assert rows["/a~1b~0c/it's/1/x\ny"] == "$['a/b~c']['it\\'s'][1]['x\\ny']"
    assert rows["/é"] == "$['é']"
    assert rows["/"] == "$['']"
    assert body["count"] == 7


def test_line_and_column_of_each_match(server):
    doc = '[\n  {"id": "é-1"},\n\t{"id": 2}\n]'
    status, body = extract(server, doc, "$[*].id")
    assert [(m["line"], m["column"], m["json"]) for m in body["matches"]] == [(2, 10, '"é-1"'), (3, 9, "2")]


def test_result_order_is_the_rfc_nodelist_order(server):
    status, body = extract(server, json.dumps({"a": 1, "b": 2}), "$['b','a','b']")
    assert [m["pointer"] for m in body["matches"]] == ["/b", "/a", "/b"]


def test_duplicate_keys_warn_and_the_last_value_is_located(server):
    doc = '{"a": {"x": 1}, "b": 0, "a": {"x": 2}}'
    status, body = extract(server, doc, "$.a.x")
    assert status == 200
    assert [w["code"] for w in body["warnings"]] == ["duplicate_key"]
    (m,) = body["matches"]
    assert m["json"] == "2" and m["column"] == doc.rindex("2") + 1


# ----------------------------------------------------------------------------- filters on exact numbers

NUMS = '{"a": [{"p": 1.5}, {"p": 3}, {"p": 2.50}, {"p": 0.1}, {"p": 1e400}, {"p": "2"}, {"p": true}, {"p": 12345678901234567890123}]}'


@pytest.mark.parametrize("path, expected", [
    ("$.a[?@.p < 3].p", ["1.5", "2.50", "0.1"]),
    ("$.a[?@.p <= 2.5].p", ["1.5", "2.50", "0.1"]),
    ("$.a[?@.p > 2].p", ["3", "2.50", "1e400", "12345678901234567890123"]),
    ("$.a[?@.p == 0.1].p", ["0.1"]),
    ("$.a[?@.p == 2.5].p", ["2.50"]),
    ("$.a[?@.p >= 1e400].p", ["1e400"]),
    ("$.a[?@.p == 12345678901234567890123].p", ["12345678901234567890123"]),
    ("$.a[?@.p != 3].p", ["1.5", "2.50", "0.1", "1e400", '"2"', "true", "12345678901234567890123"]),
    ("$.a[?@.p == 1].p", []),
])
def test_filters_compare_exact_numbers(server, path, expected):
    status, body = extract(server, NUMS, path)
    assert status == 200, body
    assert [m["json"] for m in body["matches"]] == expected


def test_filters_on_the_engines_agree_where_both_are_right(server):
    doc = json.dumps({"data": [{"status": "completed", "n": i / 4} for i in range(8)]})
    a = extract(server, doc, "$.data[?@.n > 1.2].n")[1]
    b = extract(server, doc, "$.data[?(@.n > 1.2)].n", engine="jsonpath-ng")[1]
    assert [m["json"] for m in a["matches"]] == [m["json"] for m in b["matches"]] == ["1.25", "1.5", "1.75"]
    assert [m["pointer"] for m in a["matches"]] == [m["pointer"] for m in b["matches"]]


# ----------------------------------------------------------------------------- limits

def test_limit_truncates_and_counts_everything(server):
    doc = json.dumps({"data": [{"call_id": f"c{i}"} for i in range(25)]})
    status, body = extract(server, doc, "$..call_id", limit=10)
    assert status == 200
    assert (body["count"], body["returned"], body["truncated"], len(body["matches"])) == (25, 10, True, 10)
    assert body["matches"][-1]["json"] == '"c9"'
    status, body = extract(server, doc, "$..call_id", limit=0)
    assert (body["count"], body["returned"], body["truncated"]) == (25, 0, True)
    status, body = extract(server, doc, "$..call_id")
    assert (body["count"], body["returned"], body["truncated"]) == (25, 25, False)


@pytest.mark.parametrize("limit", [-1, "10", True, 1.5])
def test_bad_limit_is_400(server, limit):
    status, body = extract(server, "[]", "$", limit=limit)
    assert status == 400 and body["error"]["field"] == "limit"


def test_limit_above_the_server_maximum_is_cut_to_it():
    small = start_server("--max-matches", "4")
    try:
        status, body = small.api("extract", {"document": json.dumps(list(range(10))), "path": "$[*]", "limit": 100})
        assert status == 200 and (body["count"], body["returned"], body["limit"]) == (10, 4, 4)
    finally:
        stop_server(small)


# ----------------------------------------------------------------------------- engines

def test_default_engine_is_rfc9535_and_jsonpath_ng_is_labelled(server):
    doc = json.dumps({"a": [1, 2, 3]})
    status, body = extract(server, doc, "$.a[-1]")
    assert body["engine"] == "rfc9535" and body["rfc9535"] is True
    assert body["engine_label"].startswith("RFC 9535 (jsonpath-rfc9535")
    status, body = extract(server, doc, "$.a[-1]", engine="jsonpath-ng")
    assert status == 200 and body["engine"] == "jsonpath-ng" and body["rfc9535"] is False
    assert "not RFC 9535" in body["engine_label"]
    assert [(m["path"], m["pointer"], m["json"]) for m in body["matches"]] == [("$['a'][2]", "/a/2", "3")]
    # jsonpath-ng extensions: a computed value has no place in the document
    status, body = extract(server, doc, "$.a.`len`", engine="jsonpath-ng")
    assert status == 200
    assert body["matches"] == [{"path": None, "pointer": None, "value": 3, "json": "3", "line": None,
                                "column": None, "computed": True}]
    # an expression jsonpath-ng cannot read: path_syntax with its column
    status, body = extract(server, doc, "$.a b", engine="jsonpath-ng")
    assert status == 422 and body["error"]["code"] == "path_syntax" and body["error"]["column"] == 5


def test_jsonpath_ng_edges(server):
    doc = '{"a": "x,y", "n": [3, 1], "big": ' + "9" * 5000 + "}"
    # a computed value on a chain that ends in a real node is not passed off as that node
    status, body = extract(server, doc, "$.a.`split(,, 0, -1)`", engine="jsonpath-ng")
    assert status == 200 and body["matches"][0]["path"] is None and body["matches"][0]["json"] == '"x"'
    status, text = raw_extract(server, doc, "$.big", engine="jsonpath-ng")
    assert status == 200 and f'"value":{"9" * 5000},"json":"{"9" * 5000}"' in text
    # regular expressions run in C with no time limit there: refused, pointing at them
    for path, column in [('$.n[?(@ =~ "(a|aa)+$")]', 9), ("$.a.`sub(/x/, y)`", 5)]:
        status, body = extract(server, doc, path, engine="jsonpath-ng")
        assert status == 422 and body["error"]["code"] == "path_syntax", body
        assert body["error"]["column"] == column and "match()" in body["error"]["message"]


@pytest.mark.parametrize("engine", ["RFC9535", "jsonpath_ng", "python-jsonpath", 3])
def test_unknown_engine_is_400(server, engine):
    status, body = extract(server, "[]", "$", engine=engine)
    assert status == 400 and body["error"]["field"] == "engine"


# ----------------------------------------------------------------------------- errors

@pytest.mark.parametrize("path, column", [
    ("", 1), ("a.b", 1), (" $", 1), ("$.", 3), ("$[", 3), ("$.a[?@.b ==]", 12),
    ("$[?@.a==--1]", 9), ("$['a'", 6), ("$..", 4), ("$[?count(1)>2]", 4), ("$.a]", 4),
])
def test_invalid_expression_is_422_path_syntax_with_column(server, path, column):
    status, body = extract(server, "{}", path)
    assert status == 422, body
    error = body["error"]
    assert (error["code"], error["field"], error["column"]) == ("path_syntax", "path", column), error
    assert error["snippet"].split("\n")[1].index("^") == column - 1
    assert error["message"] and "TokenType" not in error["message"]


def test_expression_errors_come_before_document_errors(server):
    status, body = extract(server, "{oops", "$[")
    assert status == 422 and body["error"]["field"] == "path"


def test_document_errors_come_from_the_parser(server):
    status, body = extract(server, '{\n  "a": 1,\n  "b": [1 2]\n}', "$.a")
    assert status == 422
    error = body["error"]
    assert (error["code"], error["field"], error["line"], error["column"]) == ("parse_error", "document", 3, 11)
    status, body = extract(server, "[" * 600 + "]" * 600, "$")
    assert status == 422 and body["error"]["code"] == "too_deep" and body["error"]["field"] == "document"


@pytest.mark.parametrize("body", [{"path": "$"}, {"document": "[]"}, {"document": [], "path": "$"},
                                  {"document": "[]", "path": 1}, {"document": "[]", "path": None}])
def test_missing_or_mistyped_fields_are_400(server, body):
    status, answer = server.api("extract", body)
    assert status == 400 and answer["error"]["code"] in ("missing_field", "bad_type")


def test_depth_up_to_the_limit_works_with_descendant_queries(server):
    doc = "[" * 512 + "7" + "]" * 512
    status, body = extract(server, doc, "$..[?@ == 7]")
    assert status == 200 and body["count"] == 1
    assert body["matches"][0]["pointer"] == "/0" * 512
    status, body = extract(server, doc, "$..*", limit=1)
    assert status == 200 and body["count"] == 512


def test_slow_queries_stop_at_the_work_timeout():
    slow = start_server("--work-timeout", "1", "--regex-timeout", "0.2")
    try:
        deep = "[" * 300 + "]" * 300
        started = time.monotonic()
        status, body = slow.api("extract", {"document": deep, "path": "$..*..*..*..*"})
        assert status == 422 and body["error"]["code"] == "timeout", body
        assert time.monotonic() - started < 10
        doc = json.dumps(["a" * 60 + "!"])
        status, body = slow.api("extract", {"document": doc, "path": "$[?match(@, '(a|aa)+')]"})
        assert status == 422 and body["error"]["code"] == "timeout" and "0.2" in body["error"]["message"]
        # the server is fine afterwards
        status, body = slow.api("extract", {"document": "[1]", "path": "$[0]"})
        assert status == 200 and body["count"] == 1
    finally:
        stop_server(slow)


# ----------------------------------------------------------------------------- the locator

def random_value(rng: random.Random, depth: int = 0):
    kind = rng.random()
    if depth > 4 or kind < 0.35:
        return rng.choice([1, -0.5, "s", "a/b~", True, None, 1e-7, "é\"\\"])
    if kind < 0.7:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(["a", "b", "a/b", "~", "", "é", "x y"]) + str(i): random_value(rng, depth + 1)
            for i in range(rng.randint(0, 4))}


def all_locations(value, parts=()):
    yield parts
    if isinstance(value, dict):
        for k, v in value.items():
            yield from all_locations(v, parts + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from all_locations(v, parts + (i,))


@pytest.mark.parametrize("seed", range(40))
def test_locate_rows_agrees_with_the_parser(seed):
    """The extract locator (which stops early) gives the same spans as parse.locate_many."""
    rng = random.Random(seed)
    value = random_value(rng)
    text = json.dumps(value, indent=rng.choice([None, 1, "\t"]), ensure_ascii=rng.random() < 0.5)
    locations = list(all_locations(parse(text).value))
    chosen = rng.sample(locations, k=min(len(locations), rng.randint(1, 6)))
    expected = locate_many(text, [pointer_of(p) for p in chosen])
    got = locate_rows(text, chosen)
    for loc, span in zip(chosen, got):
        ref = expected[pointer_of(loc)]
        assert span == (ref.start, ref.end), (text, loc)


# ----------------------------------------------------------------------------- the tuned engine

QUERIES = ["$..a", "$..*", "$..[0]", "$..[?@.a > 0.5]", "$..[?@.a == 'x']", "$[?@..a]", "$..a..b",
           "$.*[?@.a != 1]", "$..[?length(@) > 1]", "$..[?@ == 0.5]", "$..['a','b']", "$[?@.a < @.b]",
           "$..[?@.b >= $.a]", "$..[?!@.a]", "$..[?@[-1] == 1]", "$..b[?@ <= 'x']", "$..[?@.a.b == null]"]


def random_doc(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 4 or r < 0.35:
        return rng.choice([0, 1, 2, 0.5, 1.25, -3, "x", "y", True, False, None])
    if r < 0.65:
        return [random_doc(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice("abc"): random_doc(rng, depth + 1) for _ in range(rng.randint(0, 4))}


@pytest.mark.parametrize("seed", range(30))
def test_tuned_engine_matches_the_stock_library(seed):
    """The configured jsonpath-rfc9535 (exact numbers, direct lookups in filters, iterative
    descent) finds the same nodes in the same order as the library as shipped."""
    from jsonpath_rfc9535 import JSONPathEnvironment

    from workbench.extract import compile_rfc9535, run_rfc9535
    from workbench.limits import DEFAULT_LIMITS

    rng = random.Random(seed)
    stock = JSONPathEnvironment()
    for _ in range(5):
        doc = random_doc(rng)
        text = json.dumps(doc)
        exact = parse(text).value
        for query in QUERIES:
            expected = [node.location for node in stock.find(query, json.loads(text))]
            count, got = run_rfc9535(compile_rfc9535(query, DEFAULT_LIMITS), exact, 10**6)
            assert got == expected and count == len(expected), (query, text)


# ----------------------------------------------------------------------------- the fast path
#
# Common shapes (names, indices, wildcards, descendants, filters of comparisons / existence
# tests / && || !) are evaluated directly on the tree; everything else by the library.  Both
# must give the same nodes in the same order, on any document and query.

from hypothesis import HealthCheck, assume, event, given, settings  # noqa: E402
from hypothesis import strategies as st

from workbench.extract import compile_rfc9535, run_rfc9535  # noqa: E402
from workbench.extract.fastpath import fast_plan  # noqa: E402
from workbench.extract.locate import array_run, locate_rows_all  # noqa: E402
from workbench.limits import DEFAULT_LIMITS  # noqa: E402

NAMES = ["a", "b", "c", "é", "a b", "it's", 'q"', "back\\slash", "tab\t"]
LITERALS = ["0", "1", "2", "-3", "0.5", "1.25", "1e0", "'x'", "'y'", "''", "true", "false", "null"]

json_scalars = st.sampled_from([0, 1, 2, -3, 0.5, 1.25, "x", "y", "", True, False, None])
json_docs = st.recursive(
    json_scalars,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.sampled_from(NAMES[:4]), kids, max_size=4),
    max_leaves=25)


def quoted(name: str) -> str:
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'").replace("\t", "\\t") + "'"


name_selectors = st.sampled_from(NAMES[:5]).map(quoted)
index_selectors = st.integers(-3, 3).map(str)
singular = st.builds(lambda root, steps: root + "".join(steps), st.sampled_from(["@", "@", "$"]),
                     st.lists(st.sampled_from([".a", ".b", "['c']", "[0]", "[-1]", "['é']"]),
                              min_size=0, max_size=2))
comparable = st.one_of(singular, st.sampled_from(LITERALS), st.just("length(@.a)"))
comparisons = st.builds(lambda a, op, b: f"{a} {op} {b}", comparable,
                        st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), comparable)
existence = st.one_of(singular, st.sampled_from(["@..a", "@.*", "@[*]", "$.a[?@ == 1]"]))
filters = st.recursive(
    st.one_of(comparisons, existence),
    lambda inner: st.one_of(
        st.builds(lambda a, b: f"{a} && {b}", inner, inner),
        st.builds(lambda a, b: f"{a} || {b}", inner, inner),
        inner.map(lambda a: f"!({a})"), inner.map(lambda a: f"({a})")),
    max_leaves=4)
selectors = st.one_of(name_selectors, index_selectors, st.just("*"), filters.map(lambda f: "?" + f),
                      st.just("1:3"))
segments = st.builds(lambda descend, sels: (".." if descend else "") + "[" + ", ".join(sels) + "]",
                     st.booleans(), st.lists(selectors, min_size=1, max_size=2)) | \
    st.sampled_from([".a", ".b", "..a", ".*", "..*", "[0]", "..c"])
queries = st.lists(segments, max_size=4).map(lambda segs: "$" + "".join(segs))


def stock_locations(query: str, text: str):
    from jsonpath_rfc9535 import JSONPathEnvironment

    return [node.location for node in JSONPathEnvironment().find(query, json.loads(text))]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=json_docs, query=queries)
def test_fast_path_finds_what_the_library_finds(doc, query):
    """Same nodes, same order: the fast path, the configured library without it, and the
    library as shipped (on a float tree; the documents' numbers are exact in binary)."""
    from workbench.errors import WorkbenchError

    text = json.dumps(doc, ensure_ascii=False)
    try:
        compiled = compile_rfc9535(query, DEFAULT_LIMITS)
    except WorkbenchError:
        assume(False)
    exact = parse(text).value
    fast = run_rfc9535(compiled, exact, 10**6)
    event("fast path" if fast_plan(compiled) is not None else "library")
    event("some matches" if fast[0] else "no match")
    assert fast == run_rfc9535(compiled, exact, 10**6, use_fast=False), (query, text)
    assert fast[1] == stock_locations(query, text), (query, text)
    # the limit keeps the first rows and counts them all
    count, kept = run_rfc9535(compiled, exact, 2)
    assert (count, kept) == (fast[0], fast[1][:2])


@pytest.mark.parametrize("query, fast", [
    ("$..call_id", True), ("$.data[*].id", True), ("$.data[?@.status=='completed']", True),
    ("$.data[?@.n > 1 && @.t != 'x' || !@.k]", True), ("$..[?@.a.b]", True), ("$['a','b'][0]", True),
    ("$..[?@.b >= $.a]", True), ("$.a..b.*", True), ("$", True),
    ("$[0:2]", False), ("$[?length(@.a) > 1]", False), ("$[?@..a]", False), ("$[?@]", False),
    ("$[?@.*]", False), ("$.a[?match(@.b, 'x')]", False),
])
def test_common_shapes_take_the_fast_path(query, fast):
    assert (fast_plan(compile_rfc9535(query, DEFAULT_LIMITS)) is not None) is fast


def test_deeply_nested_filters_are_fine(server):
    """As deep as the path's bound allows (PATH_MAX_NESTING levels, the filter's bracket one of
    them); deeper is refused at the level that passes it (issue 21: 50k crashed the server)."""
    from workbench.limits import PATH_MAX_NESTING
    doc = json.dumps([{"a": 1}, {"b": 2}])
    status, body = extract(server, doc, "$[?" + "!" * (PATH_MAX_NESTING - 2) + "@.a]")
    assert status == 200 and body["count"] == 1 and body["matches"][0]["pointer"] == "/0"
    status, body = extract(server, doc, "$[?" + "!" * 400 + "@.a]")
    assert status == 422 and body["error"]["code"] == "path_syntax"
    assert body["error"]["column"] == 3 + PATH_MAX_NESTING


# ----------------------------------------------------------------------------- the locator, at length

def reference_spans(text: str, locations: list) -> list:
    found = locate_many(text, [pointer_of(loc) for loc in locations])
    return [(found[pointer_of(loc)].start, found[pointer_of(loc)].end) for loc in locations]


def render(value, data) -> str:
    """JSON text of ``value`` in a random layout, some names spelled with escapes."""
    text = json.dumps(value, indent=data.draw(st.sampled_from([None, 0, 1, "\t"])),
                      separators=data.draw(st.sampled_from([(",", ":"), (", ", ": "), (" ,", " : ")])),
                      ensure_ascii=data.draw(st.booleans()))
    if data.draw(st.booleans()):
        # "id" written as "i\u0064" here and there: the same name, another spelling
        text = re.sub(r'"id"(\s*):', lambda m: ('"i\\u0064"' if data.draw(st.booleans()) else '"id"')
                      + m.group(1) + ":", text)
    return text


ODD_STRINGS = ["x", "", "{\"not\": [\"json\"]}", "a\\\"b", "}]", "é", "id"]


def random_item_value(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 2 or r < 0.6:
        return rng.choice([0, -1.5, 1e-7, True, None] + ODD_STRINGS)
    if r < 0.8:
        return [random_item_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["id", "x", "y\"", "é"]): random_item_value(rng, depth + 1)
            for _ in range(rng.randint(0, 3))}


def random_item(rng: random.Random):
    """An object with an "id" somewhere among other members, or (rarely) something else."""
    if rng.random() < 0.1:
        return random_item_value(rng)
    before = {rng.choice(["type", "n", "é", "w\\"]): random_item_value(rng)
              for _ in range(rng.randint(0, 3))}
    after = {rng.choice(["status", "m", "z"]): random_item_value(rng) for _ in range(rng.randint(0, 3))}
    return {**before, "id": random_item_value(rng), **after}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), size=st.one_of(st.integers(0, 4), st.integers(36, 70)), data=st.data())
def test_locate_rows_on_arrays_of_items(seed, size, data):
    """The walk along many elements (a run of locations: one regex per element holding
    scalars, the member walk otherwise) agrees with the parser's locator."""
    rng = random.Random(seed)
    value = {"object": "list", "data": [random_item(rng) for _ in range(size)]}
    text = render(value, data)
    tree = parse(text).value
    for suffix in [("id",), ()]:
        locations = [("data", i) + suffix for i, item in enumerate(tree["data"])
                     if not suffix or (isinstance(item, dict) and "id" in item)]
        if data.draw(st.booleans()):
            locations = locations[:data.draw(st.integers(0, len(locations)))]
        event(f"run of {suffix}" if array_run(locations) else "no run")
        assert locate_rows(text, locations) == reference_spans(text, locations), text
        assert locate_rows_all(text, locations) == reference_spans(text, locations), text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.recursive(json_scalars, lambda kids: st.lists(kids, max_size=4)
                        | st.dictionaries(st.sampled_from(NAMES + ["id", "\x01", "/~"]), kids, max_size=5),
                        max_leaves=30),
       data=st.data())
def test_locate_rows_on_any_document(doc, data):
    text = render(doc, data)
    locations = list(all_locations(parse(text).value))
    chosen = data.draw(st.lists(st.sampled_from(locations), min_size=1, max_size=8))
    assert locate_rows(text, chosen) == reference_spans(text, chosen), text


def test_rows_of_a_long_log_through_the_api(server):
    """Many rows of one array (the fast row builder): text, position, path and pointer of
    each, with names spelled with escapes, nested values and odd spacing among the items."""
    rng = random.Random(7)
    items = []
    for i in range(300):
        item = {"type": rng.choice(["function_call", "message"]), "id": f"fc_{i}",
                "status": rng.choice(["completed", "incomplete"])}
        if i % 7 == 0:
            item["id"] = {"nested": [i, {"id": "inner"}]}
        if i % 11 == 0:
            item = {"content": [{"text": "}], \"id\": 1"}], **item}
        items.append(item)
    parts = []
    for i, item in enumerate(items):
        one = json.dumps(item, separators=(",", ":") if i % 2 else (", ", ": "))
        if i % 5 == 0:
            one = one.replace('"id"', '"i\\u0064"', 1)
        parts.append(one)
    text = '{"data": [\n' + ",\n  ".join(parts) + "\n]}"
    tree = parse(text).value
    for path in ["$..id", "$.data[*].id", "$.data[?@.status == 'completed']",
                 "$.data[?@.type == 'message'].status"]:
        status, body = extract(server, text, path, limit=1000)
        assert status == 200, body
        expected = run_rfc9535(compile_rfc9535(path, DEFAULT_LIMITS), tree, 10**6, use_fast=False)[1]
        assert body["count"] == len(expected) == len(body["matches"]) > 40
        spans = reference_spans(text, expected)
        for row, loc, (start, end) in zip(body["matches"], expected, spans):
            line = text.count("\n", 0, start) + 1
            column = start - (text.rfind("\n", 0, start) + 1) + 1
            assert (row["path"], row["pointer"]) == (normalized_path(loc), pointer_of(loc))
            assert (row["json"], row["line"], row["column"]) == (text[start:end], line, column)
            assert row["value"] == json.loads(text[start:end])
