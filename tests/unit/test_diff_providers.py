"""The Diff's provider preset, numbers as written, tolerance, merge patch, the DeepDiff engine and
the match-key suggestion — through the real server (POST /api/diff) and the package face."""

from __future__ import annotations

import json

import pytest
from jsonutil import merge_apply

from workbench.diff import diff_texts, handle
from workbench.limits import DEFAULT_LIMITS


def provider_pair():
    """One request answered by two providers: ids, call_ids, timestamps, usage, fingerprints,
    encrypted reasoning, key order and the whitespace inside ``arguments`` all differ; one
    argument value (days: 3 → 4) is the real difference.  Returns the two texts (the left one
    indented, the right one indented in its own key order)."""
    left = {
        "id": "resp_68a1f0c2d4e8819", "object": "response", "created_at": 1767225600,
        "status": "completed", "model": "gpt-oss-120b",
        "output": [
            {"id": "rs_01", "type": "reasoning", "summary": [],
             "encrypted_content": "gAAAAABo1x-left"},
            {"id": "fc_01", "type": "function_call", "status": "completed", "name": "get_weather",
             "call_id": "call_A1b2",
             "arguments": "{\"location\": \"Paris\", \"unit\": \"celsius\", \"days\": 3}"},
        ],
        "usage": {"input_tokens": 328, "output_tokens": 52, "total_tokens": 380},
        "system_fingerprint": "fp_a1",
    }
    right = {
        "object": "response", "model": "gpt-oss-120b", "status": "completed",
        "id": "resp_01JQ7Z9X", "created_at": 1767225611, "system_fingerprint": "fp_zz9",
        "usage": {"total_tokens": 395, "input_tokens": 330, "output_tokens": 65},
        "output": [
            {"type": "reasoning", "id": "rs_9f", "encrypted_content": "ZXhhbXBsZQ==", "summary": []},
            {"type": "function_call", "name": "get_weather", "id": "fc_77", "call_id": "call_Zz9",
             "arguments": "{\"location\":\"Paris\",\"days\":4,\"unit\":\"celsius\"}",
             "status": "completed"},
        ],
    }
    return json.dumps(left, indent=2), json.dumps(right, indent=2)


def api(server, left, right, **opts):
    status, body = server.api("diff", {"left": left, "right": right, **opts})
    assert status == 200, body
    return body


# ----------------------------------------------------------------------------- the preset

def test_providers_preset_leaves_exactly_the_argument_change(server):
    left, right = provider_pair()
    plain = api(server, left, right)
    assert plain["count"] >= 8                      # every minted field differs
    r = api(server, left, right, preset="providers")
    assert r["count"] == 1, r["changes"]
    (c,) = r["changes"]
    assert c["op"] == "replace" and c["pointer"] == "/output/1/arguments"
    assert c["in_string"] is True and c["inner_pointer"] == "/days"
    assert (c["left"], c["right"]) == ("3", "4")
    # the line of the arguments string in the left input
    assert left.splitlines()[c["left_line"] - 1].lstrip().startswith('"arguments"')
    # nothing is hidden silently: every pattern that hid something says what and where
    hid = {x["pattern"]: x for x in r["ignored"] if x["count"]}
    assert hid["$..id"]["count"] == 3
    assert sorted(hid["$..id"]["pointers"]) == ["/id", "/output/0/id", "/output/1/id"]
    assert hid["$..call_id"]["pointers"] == ["/output/1/call_id"]
    assert set(hid) == {"$..id", "$..call_id", "$..created_at", "$..usage",
                        "$..system_fingerprint", "$..encrypted_content"}
    assert all(x["preset"] for x in r["ignored"])
    assert r["options"]["preset"] == "providers"


def test_a_preset_pattern_can_be_turned_back_on(server):
    left, right = provider_pair()
    r = api(server, left, right, preset="providers", preset_keep=["$..usage"])
    pointers = sorted(c["pointer"] for c in r["changes"])
    assert pointers == ["/output/1/arguments", "/usage/input_tokens", "/usage/output_tokens",
                        "/usage/total_tokens"]
    assert "$..usage" not in [x["pattern"] for x in r["ignored"]]


def test_the_preset_never_ignores_inside_arguments(server):
    call = {"type": "function_call", "name": "lookup_user", "call_id": "c1",
            "arguments": json.dumps({"id": 7, "created_at": "2024-01-01"})}
    other = dict(call, call_id="c2", arguments=json.dumps({"id": 8, "created_at": "2024-01-01"}))
    r = api(server, json.dumps({"output": [call]}), json.dumps({"output": [other]}), preset="providers")
    assert [(c["pointer"], c["inner_pointer"]) for c in r["changes"]] == [("/output/0/arguments", "/id")]


def test_output_items_align_by_type_and_name(server):
    calls = [{"type": "function_call", "name": n, "call_id": f"c{i}", "arguments": "{}"}
             for i, n in enumerate(["search", "fetch", "summarize"])]
    left = {"output": calls}
    extra = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "thinking"}]}
    right = {"output": [extra] + [dict(c, call_id="x" + c["call_id"]) for c in calls]}
    r = api(server, json.dumps(left), json.dumps(right), preset="providers")
    assert [(c["op"], c["pointer"]) for c in r["changes"]] == [("add", "/output/0")]


# ----------------------------------------------------------------------------- numbers as written

@pytest.mark.parametrize("big", [False, True])
def test_numbers_are_shown_as_written_at_every_size(server, big):
    pad = [{"n": i, "t": "x" * 40} for i in range(50_000)] if big else []
    left = json.dumps({"pad": pad, "a": 1, "b": 2})[:-1] + ', "e": 1e2, "f": 2.50e+3, "g": [1E2, 7]}'
    right = json.dumps({"pad": pad, "a": 1, "b": 2})[:-1] + ', "e": 1e2, "f": 2.50e+3, "g": [1E2, 8], "h": 0.0000001}'
    assert (len(left) > 2_000_000) == big
    r = api(server, left, right, merge_patch=True)
    texts = {(c["pointer"], c.get("left"), c.get("right")) for c in r["changes"]}
    assert texts == {("/g/1", "7", "8"), ("/h", None, "0.0000001")}
    assert r["exact_text"] == {"left": not big, "right": not big}
    for side in ("left", "right"):
        shown = r["view"][side] if side == "left" else r["view"]["left"] + r["view"]["right"]
        assert "1e2" in shown and "2.50e+3" in shown and "1E2" in shown
        assert "E+" not in shown
    assert '"value":0.0000001' in r["patch_text"]
    assert "1E-7" not in r["patch_text"] + r["merge_patch_text"]


def test_equal_values_written_differently_are_never_a_move(server):
    r = api(server, "[0, -0.0]", "[-0.0, 0]")
    assert r["equal"] is True and r["count"] == 0 and r["summary"]["moved"] == 0
    assert [n["kind"] for n in r["notes"]] == ["number", "number"]
    r = api(server, "[0, -0.0, 5]", "[-0.0, 0, 6]")
    assert [(c["op"], c["pointer"]) for c in r["changes"]] == [("replace", "/2")]


def test_equal_never_stands_beside_an_unexplained_patch(server):
    r = api(server, '{"a": 1.0, "b": 1e2, "c": -0}', '{"a": 1, "b": 100, "c": 0}')
    assert r["equal"] is True and len(r["patch"]) == 3 and r["note_count"] == 3
    assert r["patch_note"].startswith("No changes: the 3 patch operations only rewrite")
    assert api(server, '{"a": 1}', '{"a": 1}').get("patch_note") is None


# ----------------------------------------------------------------------------- tolerance

def test_tolerance_absolute_and_relative(server):
    left, right = '{"t": 20.00, "p": 1000, "n": 5}', '{"t": 20.004, "p": 1009, "n": 5.5}'
    exact = api(server, left, right)
    assert exact["count"] == 3
    r = api(server, left, right, tolerance=0.01)
    assert [c["pointer"] for c in r["changes"]] == ["/p", "/n"]
    assert [n["kind"] for n in r["notes"]] == ["tolerance"]
    r = api(server, left, right, tolerance="1%")
    assert [c["pointer"] for c in r["changes"]] == ["/n"]
    r = api(server, left, right, tolerance={"absolute": 0.01, "relative": 0.2})
    assert r["count"] == 0 and r["note_count"] == 3
    status, body = server.api("diff", {"left": left, "right": right, "tolerance": -1})
    assert status == 400 and body["error"]["field"] == "tolerance"


# ----------------------------------------------------------------------------- merge patch



def test_merge_patch_and_what_it_cannot_say(server):
    left = {"a": {"b": 1, "c": 2}, "d": [1, 2], "keep": True}
    right = {"a": {"b": 5}, "d": [1, 3], "keep": True, "new": {"x": 1}}
    r = api(server, json.dumps(left), json.dumps(right), merge_patch=True)
    merge = json.loads(r["merge_patch_text"])
    assert merge == {"a": {"b": 5, "c": None}, "d": [1, 3], "new": {"x": 1}}
    assert r["merge_patch_exact"] is True and merge_apply(left, merge) == right
    nully = dict(right, a={"b": None}, new={"x": None})
    r = api(server, json.dumps(left), json.dumps(nully), merge_patch=True)
    assert r["merge_patch_exact"] is False
    assert {(n["pointer"], n["reason"]) for n in r["merge_patch_notes"]} == {
        ("/a/b", "null_value"), ("/new/x", "null_inside")}


def test_the_merge_patch_is_sent_only_when_asked_and_once(server):
    """Issue 25: a changed array makes the merge patch the whole right array, so it is not in
    the answer unless asked for (merge_patch: true), and then only as its text."""
    left = json.dumps({"big": list(range(20_000)), "k": 1})
    right = json.dumps({"big": list(range(1, 20_001)), "k": 2})
    plain = api(server, left, right)
    assert not {"merge_patch", "merge_patch_text", "merge_patch_notes"} & set(plain)
    asked = api(server, left, right, merge_patch=True, view=False)
    assert "merge_patch" not in asked                   # the text is the one carrier
    assert json.loads(asked["merge_patch_text"]) == {"big": list(range(1, 20_001)), "k": 2}
    assert asked["merge_patch_exact"] is True and asked["merge_patch_notes"] == []
    raw = json.dumps(asked)
    assert raw.count("19999,20000]") == 1               # the whole array written once
    status, body = server.api("diff", {"left": left, "right": right, "merge_patch": "yes"})
    assert status == 400 and body["error"]["field"] == "merge_patch"


# ----------------------------------------------------------------------------- DeepDiff engine

def test_deepdiff_engine_gives_its_own_report_with_pointers(server):
    left, right = provider_pair()
    r = api(server, left, right, engine="deepdiff", preset="providers")
    assert r["engine"] == "deepdiff" and r["engine_version"]
    # DeepDiff compares the arguments as text: its one change is the whole string
    assert [(d["type"], d["path"], d["pointer"]) for d in r["deepdiff"]] == [
        ("values_changed", "root['output'][1]['arguments']", "/output/1/arguments")]
    plain = api(server, '{"a": [1, 2], "b": 1.0}', '{"a": [1], "b": 1, "c": "x"}', engine="deepdiff")
    kinds = {(d["type"], d["pointer"]) for d in plain["deepdiff"]}
    assert kinds == {("iterable_item_removed", "/a/1"), ("dictionary_item_added", "/c")}


def test_deepdiff_is_refused_above_its_size_and_stopped_at_the_deadline(server):
    from workbench.diff.engines import MAX_CHARS, MAX_CHARS_UNORDERED
    big = json.dumps([{"k": i} for i in range(MAX_CHARS // 9)])
    assert len(big) > MAX_CHARS
    status, body = server.api("diff", {"left": big, "right": big, "engine": "deepdiff"})
    assert status == 413 and body["error"]["code"] == "too_large" and body["error"]["field"] == "engine"
    mid = json.dumps([{"k": i, "v": [i, i + 1]} for i in range(MAX_CHARS_UNORDERED // 34)])
    assert len(mid) <= MAX_CHARS_UNORDERED
    other = json.dumps([{"k": i, "v": [i + 1, i]} for i in range(MAX_CHARS_UNORDERED // 34)])
    with pytest.raises(Exception) as info:
        handle({"left": mid, "right": other, "engine": "deepdiff", "ignore_order": True},
               DEFAULT_LIMITS.with_(work_timeout=0.05))
    assert getattr(info.value, "code", None) == "timeout"


# ----------------------------------------------------------------------------- suggestion

def test_reordered_items_with_ids_suggest_a_match_key(server):
    items = [{"type": "function_call_output", "call_id": f"call_{i}", "output": f"result {i}",
              "status": "completed"} for i in range(6)]
    moved = [dict(x, status="done") for x in reversed(items)]
    r = api(server, json.dumps(items), json.dumps(moved))
    sg = r["suggest"]
    assert sg["match_key"] == "call_id" and sg["changes_now"] == r["count"]
    keyed = api(server, json.dumps(items), json.dumps(moved), match_key="call_id")
    assert sg["changes_with"] == keyed["count"] < r["count"]
    assert "suggest" not in keyed
    assert "suggest" not in api(server, json.dumps(items), json.dumps(items[:3]))


# ----------------------------------------------------------------------------- the package face

def test_diff_texts_is_the_api_answer_without_the_view():
    left, right = provider_pair()
    out = diff_texts(left, right, preset="providers", merge_patch=True)
    assert out["count"] == 1 and "view" not in out
    answer = handle({"left": left, "right": right, "preset": "providers", "view": False,
                     "merge_patch": True}, DEFAULT_LIMITS)
    assert out["merge_patch"] == json.loads(answer["merge_patch_text"])
    assert {k: v for k, v in out.items() if k != "merge_patch"} == {
        k: v for k, v in answer.items() if k != "merge_patch"}
    with pytest.raises(Exception) as info:
        diff_texts(left, right, preset="nope")
    assert getattr(info.value, "field", None) == "preset"


@pytest.mark.parametrize("preset", [{}, [], 1, "nope"])
def test_a_preset_of_the_wrong_kind_is_a_400(client, preset):
    r = client.post("/api/diff", json={"left": "{}", "right": "{}", "preset": preset})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "preset"
