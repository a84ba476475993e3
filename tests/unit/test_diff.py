"""Diff semantics through the real server (POST /api/diff) and the core (diff_values)."""

from __future__ import annotations

import json
import re

import jsonpatch
import pytest

from workbench.diff import diff_values, handle
from workbench.jsontext import parse
from workbench.limits import DEFAULT_LIMITS


def diff(server, left, right, **opts):
    body = {"left": left if isinstance(left, str) else json.dumps(left),
            "right": right if isinstance(right, str) else json.dumps(right), **opts}
    status, result = server.api("diff", body)
    assert status == 200, result
    view = result["view"]
    assert sum(s[1] for s in view["segments"]) == view["left"].count("\n") + 1
    right_lines = view["right"].count("\n") + 1 if view["right"] else 0   # lines the same on
    assert sum(s[2] for s in view["segments"] if s[3:] != [1]) == right_lines  # both sides: sent once
    return result


def applied(left_text, patch):
    return jsonpatch.apply_patch(json.loads(left_text), patch)


def items(n, prefix="item"):
    return [{"id": f"{prefix}_{i}", "type": "message", "text": f"hello {i}", "n": i} for i in range(n)]


# ----------------------------------------------------------------------------- arrays

def test_an_item_inserted_at_the_front_is_one_add(server):
    left = items(50)
    right = [{"id": "new", "type": "message", "text": "first", "n": -1}] + left
    r = diff(server, left, right)
    assert r["count"] == 1 and r["summary"] == {"added": 1, "removed": 0, "changed": 0, "moved": 0}
    assert r["changes"][0]["op"] == "add" and r["changes"][0]["pointer"] == "/0"
    assert r["patch"] == [{"op": "add", "path": "/0", "value": right[0]}]
    # the aligned view: one filler block on the left, the rest line for line
    kinds = [s[0] for s in r["view"]["segments"]]
    assert kinds.count("add") == 1 and "del" not in kinds and "chg" not in kinds
    add = next(s for s in r["view"]["segments"] if s[0] == "add")
    assert add[1] == 0 and add[2] == 6


def test_removal_in_the_middle_and_change_of_one_member(server):
    left = items(30)
    right = [dict(x) for x in left]
    del right[10]
    right[20]["text"] = "changed"
    r = diff(server, left, right)
    ops = [(c["op"], c["pointer"]) for c in r["changes"]]
    assert ops == [("remove", "/10"), ("replace", "/21/text")]
    assert r["changes"][1]["right_pointer"] == "/20/text"
    assert applied(json.dumps(left), r["patch"]) == right


def test_a_moved_item_is_one_move(server):
    left = items(20)
    right = left[1:] + left[:1]
    r = diff(server, left, right)
    assert r["summary"]["moved"] == 1 and r["count"] == 1
    move = r["changes"][0]
    assert move["op"] == "move" and move["from"] == "/0" and move["to"] == "/19"
    assert r["patch"] == [{"op": "move", "from": "/0", "path": "/19"}]
    segs = r["view"]["segments"]
    assert segs[move["seg"]][0] == "mvf" and segs[move["seg_to"]][0] == "mvt"


def test_reversed_list_round_trips(server):
    left = list(range(200))
    r = diff(server, left, left[::-1])
    assert applied(json.dumps(left), r["patch"]) == left[::-1]
    assert all(c["op"] == "move" for c in r["changes"])


def test_repeated_values_align_by_edit_distance(server):
    """No value is unique here, so patience finds no anchor: Myers' algorithm aligns them."""
    left = [i % 2 for i in range(3000)]
    right = left[1:] + [0]
    r = diff(server, left, right)
    assert r["count"] <= 2 and applied(json.dumps(left), r["patch"]) == right
    # a repeated value is never "moved": it has no place of its own
    r = diff(server, [0, 1, 0, 1, 0], [1, 0, 1, 0, 0])
    assert r["summary"]["moved"] == 0 and r["count"] <= 2


def test_myers_is_a_longest_common_subsequence():
    import random

    from workbench.diff.align import myers

    def lcs_len(a, b):
        prev = [0] * (len(b) + 1)
        for x in a:
            cur = [0]
            for j, y in enumerate(b):
                cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
            prev = cur
        return prev[-1]

    rng = random.Random(5)
    for _ in range(500):
        a = [rng.randint(0, 3) for _ in range(rng.randint(0, 15))]
        b = [rng.randint(0, 3) for _ in range(rng.randint(0, 15))]
        pairs = myers(a, b, 0, len(a), 0, len(b))
        assert all(a[i] == b[j] for i, j in pairs)
        assert all(p[0] < q[0] and p[1] < q[1] for p, q in zip(pairs, pairs[1:]))
        assert len(pairs) == lcs_len(a, b)


def test_ignore_order_compares_arrays_as_multisets(server):
    left = items(10)
    right = list(reversed(left))
    assert diff(server, left, right, ignore_order=True)["equal"] is True
    assert diff(server, left, right)["equal"] is False
    right[3] = dict(right[3], text="other")
    r = diff(server, left, right, ignore_order=True)
    assert [(c["op"], c["pointer"]) for c in r["changes"]] == [("replace", "/6/text")]
    # multiset: duplicates count
    assert diff(server, [1, 1, 2], [1, 2, 2], ignore_order=True)["equal"] is False
    assert diff(server, [1, 2, 1], [1, 1, 2], ignore_order=True)["equal"] is True


def test_match_key_pairs_items_by_a_member(server):
    left = [{"call_id": "a", "output": "1"}, {"call_id": "b", "output": "2"}, {"call_id": "c", "output": "3"}]
    right = [{"call_id": "c", "output": "3"}, {"call_id": "a", "output": "1"}, {"call_id": "b", "output": "two"}]
    r = diff(server, left, right, match_key="call_id")
    ops = sorted((c["op"], c["pointer"]) for c in r["changes"])
    assert ops == [("move", "/2"), ("replace", "/1/output")]
    assert applied(json.dumps(left), r["patch"]) == right
    r = diff(server, left, right, match_key="call_id", ignore_order=True)
    assert [(c["op"], c["pointer"], c["right"]) for c in r["changes"]] == [("replace", "/1/output", '"two"')]
    # without the key a different call with the same output is "the same item"
    l2 = [{"call_id": "x", "v": 1}]
    r2 = [{"call_id": "y", "v": 1}]
    assert diff(server, l2, r2, match_key="call_id")["summary"] == {"added": 1, "removed": 1, "changed": 0, "moved": 0}


# ----------------------------------------------------------------------------- options

def test_ignore_paths_jsonpath_and_pointer_patterns(server):
    left = {"id": "resp_1", "created_at": 1, "output": [{"id": "a", "type": "m", "text": "hi"},
                                                         {"id": "b", "type": "m", "text": "yo"}]}
    right = {"id": "resp_2", "created_at": 2, "output": [{"id": "c", "type": "m", "text": "hi"},
                                                          {"id": "d", "type": "m", "text": "YO"}]}
    r = diff(server, left, right, ignore_paths=["$..id", "$.created_at"])
    assert [(c["op"], c["pointer"]) for c in r["changes"]] == [("replace", "/output/1/text")]
    assert r["view"]["segments"][0][0] == "eq"
    assert any(s[0] == "ign" for s in r["view"]["segments"])
    r = diff(server, left, right, ignore_paths=["/output/*/id", "/id", "/created_at"])
    assert r["count"] == 1
    r = diff(server, left, right, ignore_paths=["/output/**/text", "$..id", "$['created_at']"])
    assert r["equal"] is True
    # ignored members keep the patch valid for the real documents
    patched = applied(json.dumps(left), diff(server, left, right, ignore_paths=["$..id"])["patch"])
    assert patched["output"][1]["text"] == "YO" and patched["output"][0]["id"] == "a"


@pytest.mark.parametrize("pattern", ["id", "$[?@.a]", "$.a[1:2]", "$[", "$..", "$['a"])
def test_bad_ignore_paths_are_clear_errors(server, pattern):
    status, body = server.api("diff", {"left": "{}", "right": "{}", "ignore_paths": [pattern]})
    assert status == 422 and body["error"]["code"] == "path_syntax"
    assert body["error"]["field"] == "ignore_paths"


def test_whitespace_inside_json_strings_is_no_change(server):
    left = {"type": "function_call", "call_id": "c1", "arguments": '{"region": "eu", "n": [1, 2]}'}
    right = {"type": "function_call", "call_id": "c1", "arguments": '{"n":[1,2],"region":"eu"}'}
    r = diff(server, left, right)
    assert r["equal"] is True and r["changes"] == []
    assert r["notes"][0]["pointer"] == "/arguments"
    # the patch still reproduces right's text exactly
    assert applied(json.dumps(left), r["patch"]) == right
    # as plain strings they differ
    r = diff(server, left, right, parse_strings=False)
    assert [(c["op"], c["pointer"]) for c in r["changes"]] == [("replace", "/arguments")]


def test_a_change_inside_a_json_string_has_an_inner_pointer(server):
    left = {"arguments": '{"region": "eu", "days": 3}'}
    right = {"arguments": '{"region":"us","days":3,"units":"C"}'}
    r = diff(server, left, right)
    got = [(c["op"], c["pointer"], c.get("inner_pointer"), c.get("in_string")) for c in r["changes"]]
    assert got == [("replace", "/arguments", "/region", True), ("add", "/arguments", "/units", True)]
    assert r["changes"][0]["left"] == '"eu"' and r["changes"][0]["right"] == '"us"'
    assert r["patch"] == [{"op": "replace", "path": "/arguments", "value": right["arguments"]}]


# ----------------------------------------------------------------------------- values

def test_big_integers_compare_exactly_and_keep_their_text(server):
    r = diff(server, '{"n": 12345678901234567890}', '{"n": 12345678901234567891}')
    assert r["equal"] is False
    c = r["changes"][0]
    assert (c["left"], c["right"]) == ("12345678901234567890", "12345678901234567891")
    assert r["patch"][0]["value"] == 12345678901234567891
    assert '"value":12345678901234567891' in r["patch_text"].replace(" ", "")
    assert diff(server, "[123456789012345678901234567890]", "[123456789012345678901234567890]")["equal"]


def test_numbers_equal_by_value_with_a_note_for_the_text(server):
    r = diff(server, '{"a": 1.0, "b": 1.10}', '{"a": 1, "b": 1.1}')
    assert r["equal"] is True and r["count"] == 0
    assert [(n["pointer"], n["left"], n["right"]) for n in r["notes"]] == [("/a", "1.0", "1"), ("/b", "1.10", "1.1")]
    r = diff(server, '{"a": 1.10}', '{"a": 1.2}')
    assert (r["changes"][0]["left"], r["changes"][0]["right"]) == ("1.10", "1.2")


@pytest.mark.parametrize("left,right", [("1", '"1"'), ("1", "true"), ("0", "false"), ("null", "false"),
                                        ("[]", "{}"), ('""', "null"), ("1.0", "true"), ("[1]", "[true]"),
                                        ('{"a": 0}', '{"a": false}')])
def test_type_changes_are_changes(server, left, right):
    r = diff(server, left, right)
    assert r["equal"] is False and r["summary"]["changed"] == 1
    assert r["changes"][0]["op"] == "replace"


def test_key_order_never_matters(server):
    assert diff(server, '{"a": 1, "b": {"x": [1, {"p": 1, "q": 2}]}}',
                '{"b": {"x": [1, {"q": 2, "p": 1}]}, "a": 1}')["equal"] is True


def test_changes_carry_exact_text_and_input_lines(server):
    left = '{\n  "a": 1,\n  "b": "caf\\u00e9",\n  "c": [1, 2]\n}'
    right = '{\n  "a": 1,\n  "b": "cafe",\n  "c": [1, 2, 3]\n}'
    r = diff(server, left, right)
    b = next(c for c in r["changes"] if c["pointer"] == "/b")
    assert b["left"] == '"caf\\u00e9"' and b["left_line"] == 3 and b["right_line"] == 3
    add = next(c for c in r["changes"] if c["op"] == "add")
    assert add["pointer"] == "/c/2" and add["right"] == "3" and add["right_line"] == 4


def test_duplicate_keys_are_reported_as_warnings(server):
    r = diff(server, '{"a": 1, "a": 2}', '{"a": 2}')
    assert r["equal"] is True
    assert r["warnings"][0]["code"] == "duplicate_key" and r["warnings"][0]["field"] == "left"


def test_openresponses_fixture_items(server, shared):
    lines = (shared / "reference" / "openresponses-fixtures" / "items.jsonl").read_text("utf-8").splitlines()
    calls = [json.loads(line)["item"] for line in lines if line.strip()]
    calls = [c for c in calls if c.get("type") == "function_call" and "call_id" in c and "arguments" in c]
    assert calls
    for item in calls[:20]:
        text = json.dumps(item)
        assert diff(server, text, json.dumps(item, indent=2))["equal"] is True
        other = dict(item, call_id=item["call_id"] + "_2")
        try:
            args = json.loads(item["arguments"])
        except ValueError:
            continue
        other["arguments"] = json.dumps(args, indent=3)
        r = diff(server, text, json.dumps(other))
        assert [c["pointer"] for c in r["changes"]] == ["/call_id"], r["changes"]


# ----------------------------------------------------------------------------- requests

def test_request_errors(server):
    status, body = server.api("diff", {"left": "{}"})
    assert status == 400 and body["error"]["code"] == "missing_field" and body["error"]["field"] == "right"
    status, body = server.api("diff", {"left": "{}", "right": "{\n  \"a\": 1,\n}"})
    assert status == 422 and body["error"]["code"] == "parse_error"
    assert (body["error"]["field"], body["error"]["line"]) == ("right", 2)
    for bad in ({"ignore_order": "yes"}, {"match_key": ["id"]}, {"ignore_paths": [1]},
                {"parse_strings": 1}, {"left": 5}):
        status, body = server.api("diff", {"left": "{}", "right": "{}", **bad})
        assert status == 400, (bad, body)


def test_too_large_is_a_clear_error():
    from conftest import start_server, stop_server
    s = start_server(env={"WORKBENCH_DIFF_MAX_BYTES": "1000"})
    try:
        status, body = s.api("diff", {"left": json.dumps(list(range(400))), "right": "[]"})
        assert status == 413 and body["error"]["code"] == "too_large"
        assert body["error"]["field"] == "left" and body["error"]["limit"] == 1000
    finally:
        stop_server(s)


def test_deep_documents_do_not_break(server):
    deep = "[" * 500 + "1" + "]" * 500
    deep2 = "[" * 500 + "2" + "]" * 500
    r = diff(server, deep, deep2)
    assert r["count"] == 1 and len(r["patch"]) == 1
    op = r["patch"][0]          # jsonpatch itself recurses too deep here: apply the one replace
    assert op["op"] == "replace" and re.fullmatch(r"(/0)+", op["path"])
    doc = json.loads(deep)
    parts = op["path"].split("/")[1:]
    target = doc
    for p in parts[:-1]:
        target = target[int(p)]
    target[int(parts[-1])] = op["value"]
    assert doc == json.loads(deep2)
    status, body = server.api("diff", {"left": "[" * 600 + "]" * 600, "right": "[]"})
    assert status == 422 and body["error"]["code"] == "too_deep"


@pytest.mark.parametrize("depth", [150, 450])
def test_deep_mixed_nesting_with_changes_at_every_depth(server, depth):
    def build(bottom, flip):
        v = bottom
        for d in range(depth):
            v = {"k": v, "n": d + (flip and d % 30 == 1)} if d % 2 else [v, d]
        return v
    left, right = json.dumps(build(1, False)), json.dumps(build(2, True))
    r = diff(server, left, right)
    assert r["count"] >= 2
    if depth <= 150:
        assert applied(left, r["patch"]) == json.loads(right)


def test_plain_form_without_javascript(server):
    import urllib.parse
    form = urllib.parse.urlencode({"left": '{"a": 1, "b": [1, 2]}', "right": '{"a": 2, "b": [0, 1, 2]}',
                                   "parse_strings": "on", "ignore_paths": ""}).encode()
    status, _, html = server.request("POST", "/diff", form,
                                     {"Content-Type": "application/x-www-form-urlencoded"})
    import html as html_lib
    page = html_lib.unescape(html.decode())
    assert status == 200
    assert re.search(r'id="headline">\s*2 changes: 1 added, 0 removed, 1 changed', page)
    assert re.search(r'<table[^>]*id="change-list"', page) and "/b/0" in page
    patch = re.search(r'<pre class="output" id="patch">(.*?)</pre>', page, re.S).group(1)
    assert json.loads(patch) == [{"op": "replace", "path": "/a", "value": 2},
                                 {"op": "add", "path": "/b/0", "value": 0}]
    # the options survive the round trip; an unchecked box sends the hidden "false"
    form = urllib.parse.urlencode([("left", "[1, 2]"), ("right", "[2, 1]"), ("ignore_order", "true"),
                                   ("parse_strings", "false")]).encode()
    status, _, html = server.request("POST", "/diff", form, {"Content-Type": "application/x-www-form-urlencoded"})
    page = html.decode()
    assert status == 200 and "No differences" in page
    assert re.search(r'id="ignore_order"[^>]*checked', page) and not re.search(r'id="parse_strings"[^>]*checked', page)
    # the merge patch only when its box is ticked (issue 25)
    assert 'id="merge-patch-ask"' in page and 'id="merge-patch"' not in page
    form = urllib.parse.urlencode({"left": '{"a": 1, "d": [1]}', "right": '{"a": 2, "d": [2]}',
                                   "merge_patch": "true"}).encode()
    status, _, html = server.request("POST", "/diff", form, {"Content-Type": "application/x-www-form-urlencoded"})
    page = html_lib.unescape(html.decode())
    merge = re.search(r'<pre class="output" id="merge-patch">(.*?)</pre>', page, re.S).group(1)
    assert status == 200 and json.loads(merge) == {"a": 2, "d": [2]}
    assert re.search(r'id="merge_patch"[^>]*checked', page)
    # a parse error names the side and the line
    form = urllib.parse.urlencode({"left": "{}", "right": '{"a": }'}).encode()
    status, _, html = server.request("POST", "/diff", form, {"Content-Type": "application/x-www-form-urlencoded"})
    page = html.decode()
    assert status == 422 and "right document is not valid JSON" in page and "line 1, column 7" in page


def test_core_api_for_the_gate():
    left = parse('{"call_id": "c1", "arguments": "{\\"a\\": 1}", "n": 1.0}').value
    right = parse('{"call_id": "c2", "arguments": "{\\"a\\":1}", "n": 1}').value
    r = diff_values(left, right, ignore_paths=["$..id"])
    assert set(r) >= {"equal", "changes", "patch", "summary"}
    assert [(c["op"], c["pointer"], c["left"], c["right"]) for c in r["changes"]] == [
        ("replace", "/call_id", '"c1"', '"c2"')]
    assert diff_values(left, right, ignore_paths=["$.call_id"])["equal"] is True
    assert diff_values(left, left, limits=DEFAULT_LIMITS)["patch"] == []


def test_ignored_index_inside_array_items_is_no_500():
    # the items' identities carry the ignore mark (bytes) that orjson refuses: the canonical
    # writer's fallback must write it, as before the plain writers were folded (a TypeError)
    from workbench.diff import handle
    from workbench.limits import Limits
    r = handle({"left": "[[1, 2], [3]]", "right": "[[9, 2], [4], [5]]",
                "ignore_paths": ["$[*][0]"]}, Limits())
    assert r["summary"] == {"added": 1, "removed": 0, "changed": 0, "moved": 0}


def test_a_number_a_duplicate_key_drops_lends_its_text_to_no_other():
    """``1e2`` under a key written twice is dropped by the decoder; a number made after it could
    take its id (and, by id, its text): the view showed ``1e2`` where the user wrote 0.50."""
    left = "[" + ",".join('{"a":1e2,"a":5},%d.50' % i for i in range(50)) + "]"
    right = "[" + ",".join('{"a":5},%d.51' % i for i in range(50)) + "]"
    r = handle({"left": left, "right": right}, DEFAULT_LIMITS)
    view = r["view"]["left"]
    assert "1e2" not in view
    assert all(f"{i}.50" in view for i in range(50))
    assert [c["left"] for c in r["changes"]][:3] == ["0.50", "1.50", "2.50"]
