"""Every rule of the Responses stream walk (workbench/transcript/streams.py), pinned by the finding
it gives: its code, whole message, pointer, line, event and related places (transcript-rules.md,
"Streams").  Written for the survivors of the mutation group ``transcript-streams`` (issue 28):
each test names one behaviour and fails when one comparison, default or word of it changes.

The streams are built the way providers send them (``event:`` + ``data:`` lines, a
``sequence_number`` growing by one, ``data: [DONE]`` at the end unless said otherwise); the line
of an event's ``data:`` line is 2 + 3 × its place in the stream.
"""

from __future__ import annotations

import json

from workbench.transcript import analyse

CREATED = ("response.created", {"response": {"id": "resp_1", "status": "in_progress", "output": []}})


def sse(*events, done=True, seq=True) -> str:
    """Events as (type, fields); a plain string is written as its own line (then a blank)."""
    lines, n = [], -1
    for ev in events:
        if isinstance(ev, str):
            lines += [ev, ""]
            continue
        t, kw = ev
        n += 1
        body = dict(type=t, **kw)
        if seq and "sequence_number" not in kw:
            body["sequence_number"] = n
        lines += [f"event: {t}", "data: " + json.dumps(body), ""]
    if done:
        lines += ["data: [DONE]", ""]
    return "\n".join(lines) + "\n"


def line(k: int) -> int:
    """The data: line of the k-th event (0-based) of a stream written by sse() without strings."""
    return 2 + 3 * k


def own(r: dict, *codes: str) -> list[tuple]:
    """The stream's findings (not the spec's) as (code, message, pointer, line, event, related,
    extra fields); only those of ``codes`` when named."""
    out = []
    for f in r["findings"]:
        if f["code"] == "spec_schema" or (codes and f["code"] not in codes):
            continue
        rel = [(x["role"], x.get("pointer"), x.get("line"), x.get("event"))
               for x in f.get("related", [])]
        extra = {k: v for k, v in f.items() if k not in (
            "code", "severity", "message", "pointer", "line", "column", "event", "related")}
        out.append((f["code"], f["message"], f["pointer"], f["line"], f.get("event"), rel, extra))
    return out


def completed(output=(), status="completed"):
    return ("response.completed", {"response": {"id": "resp_1", "status": status,
                                                "output": list(output)}})


def fc(i=1, **kw) -> dict:
    return dict({"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}", "name": "f",
                 "arguments": "", "status": "in_progress"}, **kw)


def added(oi, item):
    return ("response.output_item.added", {"output_index": oi, "item": item})


def done(oi, item):
    return ("response.output_item.done", {"output_index": oi, "item": item})


def delta(d, **kw):
    return ("response.function_call_arguments.delta", dict(kw, delta=d))


def args_done(a, **kw):
    return ("response.function_call_arguments.done", dict(kw, arguments=a))


def text_event(t, ci, **kw):
    return (t, dict({"output_index": 0, "item_id": "msg_1", "content_index": ci}, **kw))


def rows(r: dict) -> list[tuple]:
    return [(t["response"], t["output_index"], t["item_id"], t["type"], t["status"], t["first_line"],
             t["last_line"], t["events"], [r["findings"][i]["code"] for i in t["broken"]])
            for t in r["timeline"]]


def mismatch(joined: int, what: str, final: int, k: int) -> str:
    return (f"The argument deltas joined ({joined} characters) differ from the arguments of {what} "
            f"({final} characters) from character {k} on: a client that joined the deltas runs a "
            "different call than the one finished. Use the done arguments and report the "
            "provider's stream.")


NEVER_DONE = ("response.completed arrives while {} was never done (no response.output_item.done): "
              "its content is not final.")
NO_TERMINAL = ("The stream ends without response.completed, response.failed or "
               "response.incomplete: it was cut off, so no item in it can be trusted as final. "
               "Record the stream again.")
NOT_FAILED = ("An error event that is not followed by response.failed: the stream must end as "
              "failed after an error, so a client knows no item is final.")
BEFORE_ADDED = ("{} arrives before its item was added (response.output_item.added must come "
                "first): a client has nowhere to put it.")


# --------------------------------------------------------------------------- a clean call

def test_a_clean_call_stream_has_no_stream_finding_and_rebuilds_the_done_item():
    r = analyse(sse(CREATED, added(0, fc()),
                    delta('{"a":', output_index=0, item_id="fc_1"),
                    delta('1}', output_index=0, item_id="fc_1"),
                    args_done('{"a":1}', output_index=0, item_id="fc_1"),
                    done(0, fc(arguments='{"a":1}', status="completed")), completed()))
    assert [f[0] for f in own(r)] == ["pending_call"]
    assert r["items"] == [fc(arguments='{"a":1}', status="completed")]
    assert rows(r) == [(0, 0, "fc_1", "function_call", "completed", line(1), line(5),
                        {"response.output_item.added": 1,
                         "response.function_call_arguments.delta": 2,
                         "response.function_call_arguments.done": 1,
                         "response.output_item.done": 1}, [])]
    assert r["summary"]["errors"] == 0
    assert r["calls"][0]["verdict"] == "ok"


# --------------------------------------------------------------------------- arguments

def test_arguments_done_differing_from_the_deltas_is_a_mismatch_at_the_first_differing_character():
    r = analyse(sse(CREATED, added(0, fc()), delta('{"a":1', output_index=0),
                    delta('2}', output_index=0), args_done('{"a":13}', output_index=0),
                    delta("x", output_index=0),
                    done(0, fc(arguments='{"a":14}', status="completed")),
                    completed([fc(arguments='{"a":1}', status="completed")])))
    assert own(r, "stream_arguments_mismatch", "stream_order") == [
        ("stream_arguments_mismatch",
         mismatch(8, "response.function_call_arguments.done", 8, 6), "/arguments", line(4), 4,
         [("added", "/item", line(1), 1)], {"at": 6}),
        ("stream_order", "An arguments delta after response.function_call_arguments.done: the "
                         "arguments were already final.", "/type", line(5), 5,
         [("done", "/type", line(4), 4)], {}),
        # the done item is compared with the done arguments (not the deltas, which hold an 'x'
        # more); the related place is the slot's, which is now its done event
        ("stream_arguments_mismatch", mismatch(8, "response.output_item.done", 8, 6),
         "/item/arguments", line(6), 6, [("added", "/item", line(6), 6)], {"at": 6}),
        ("stream_arguments_mismatch", mismatch(8, "the final response", 7, 6),
         "/response/output/0/arguments", line(7), 7, [("added", "/item", line(6), 6)], {"at": 6}),
    ]
    assert r["items"][0]["arguments"] == '{"a":14}'  # the done item wins
    assert rows(r)[0][-1] == ["stream_arguments_mismatch", "stream_order",
                              "stream_arguments_mismatch", "stream_arguments_mismatch"]


def test_the_done_item_compared_with_the_joined_deltas_when_no_arguments_done_came():
    # the deltas are a prefix of the final arguments: they differ from the shorter one's end on
    r = analyse(sse(CREATED, added(0, fc()), delta('{"a":1}', output_index=0),
                    done(0, fc(arguments='{"a":1}  ', status="completed")), completed()))
    assert own(r, "stream_arguments_mismatch") == [
        ("stream_arguments_mismatch", mismatch(7, "response.output_item.done", 9, 7),
         "/item/arguments", line(3), 3, [("added", "/item", line(3), 3)], {"at": 7})]


def test_equal_arguments_at_every_step_are_no_mismatch():
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=0),
                    args_done("{}", output_index=0), done(0, fc(arguments="{}", status="completed")),
                    completed([fc(arguments="{}", status="completed")])))
    assert own(r, "stream_arguments_mismatch", "stream_order") == []
    # without the arguments.done event the deltas are compared, and agree too
    r = analyse(sse(CREATED, added(0, fc()), delta("{", output_index=0), delta("}", output_index=0),
                    done(0, fc(arguments="{}", status="completed")),
                    completed([fc(arguments="{}", status="completed")])))
    assert own(r, "stream_arguments_mismatch", "stream_order") == []


def test_arguments_done_without_deltas_is_no_mismatch_but_sets_the_arguments():
    r = analyse(sse(CREATED, added(0, fc()), args_done('{"b":2}', output_index=0), completed(),
                    done=False))
    assert own(r, "stream_arguments_mismatch") == []
    assert r["items"][0]["arguments"] == '{"b":2}'
    # a non-string arguments (or delta) is not taken
    r = analyse(sse(CREATED, added(0, fc()), delta(7, output_index=0), delta("{}", output_index=0),
                    args_done(5, output_index=0), completed(), done=False))
    assert r["items"][0]["arguments"] == "{}"
    assert own(r, "stream_arguments_mismatch") == []


def test_the_final_response_is_matched_to_its_item_by_id_else_by_index():
    r = analyse(sse(CREATED, added(0, fc(1)), delta("{}", output_index=0), added(1, fc(2)),
                    delta("[]", output_index=1),
                    done(0, fc(1, arguments="{}", status="completed")),
                    done(1, fc(2, arguments="[]", status="completed")),
                    completed([dict(fc(1, arguments="{1}", status="completed"), id=None),
                               {"type": "message"},
                               fc(2, arguments="[1]", status="completed"),
                               dict(fc(9), arguments=5), 3, fc(8, arguments="x")])))
    assert own(r, "stream_arguments_mismatch") == [
        ("stream_arguments_mismatch", mismatch(2, "the final response", 3, 1),
         "/response/output/0/arguments", line(7), 7, [("added", "/item", line(5), 5)], {"at": 1}),
        ("stream_arguments_mismatch", mismatch(2, "the final response", 3, 1),
         "/response/output/2/arguments", line(7), 7, [("added", "/item", line(6), 6)], {"at": 1})]


def test_the_final_response_is_not_compared_for_an_item_without_deltas():
    r = analyse(sse(CREATED, added(0, fc(1)), done(0, fc(1, arguments="{}", status="completed")),
                    completed([fc(1, arguments="[]", status="completed")])))
    assert own(r, "stream_arguments_mismatch") == []
    # with only arguments.done and no delta: not compared either
    r = analyse(sse(CREATED, added(0, fc(1)), args_done("{}", output_index=0),
                    done(0, fc(1, arguments="{}", status="completed")),
                    completed([fc(1, arguments="[]", status="completed")])))
    assert own(r, "stream_arguments_mismatch") == []


def test_the_final_response_compares_the_done_arguments_over_the_deltas():
    r = analyse(sse(CREATED, added(0, fc(1)), delta("{", output_index=0),
                    args_done("{}", output_index=0),
                    completed([fc(1, arguments="{}", status="completed")]), done=False))
    assert own(r, "stream_arguments_mismatch") == [
        ("stream_arguments_mismatch", mismatch(1, "response.function_call_arguments.done", 2, 1),
         "/arguments", line(3), 3, [("added", "/item", line(1), 1)], {"at": 1})]


# --------------------------------------------------------------------------- ids and places

def test_an_item_whose_ids_change_is_named_at_each_changed_id():
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=0, item_id="fc_X"),
                    done(0, fc(id="fc_Y", call_id="call_Z", arguments="{}", status="completed")),
                    completed()))
    assert own(r, "stream_item_id_changed") == [
        ("stream_item_id_changed",
         'This response.function_call_arguments.delta event names item_id "fc_X", but output item 0 '
         'was added as "fc_1": a client attaching deltas by item_id loses them. The ids of one '
         "item must not change.", "/item_id", line(2), 2, [("added", "/item", line(1), 1)], {}),
        ("stream_item_id_changed",
         'This response.output_item.done event names item_id "fc_Y", but output item 0 was added '
         'as "fc_1": a client attaching deltas by item_id loses them. The ids of one item must not '
         "change.", "/item/id", line(3), 3, [("added", "/item", line(1), 1)], {}),
        ("stream_item_id_changed",
         'The done item\'s call_id "call_Z" differs from "call_1", the call_id it was added with: '
         "an output keyed by either matches only one of them. The ids of one item must not change "
         "between its events.", "/item/call_id", line(3), 3,
         [("added", "/item/call_id", line(1), 1)], {})]
    assert r["summary"]["warnings"] - len([f for f in r["findings"] if f["code"] == "spec_schema"]) == 3


def test_a_done_event_naming_the_old_item_id_but_holding_a_new_one_is_said_by_the_done_rule():
    r = analyse(sse(CREATED, added(0, fc()),
                    ("response.output_item.done", {"output_index": 0, "item_id": "fc_1",
                                                   "item": fc(id="fc_Y", status="completed")}),
                    completed()))
    assert own(r, "stream_item_id_changed") == [
        ("stream_item_id_changed",
         'The done item\'s id "fc_Y" differs from "fc_1", the id it was added with: the ids of one '
         "item must not change between its events.", "/item/id", line(2), 2,
         [("added", "/item/id", line(1), 1)], {})]


def test_a_done_event_with_a_new_item_id_and_no_index_is_a_new_item():
    # an id names an item: a done event for an id never added is a new row, out of order
    r = analyse(sse(CREATED, added(0, fc()),
                    ("response.output_item.done", {"item": fc(id="fc_Y", status="completed")}),
                    completed()))
    assert own(r, "stream_item_id_changed") == []
    assert [f[:5] for f in own(r, "stream_order")] == [
        ("stream_order", BEFORE_ADDED.format("response.output_item.done"), "/type", line(2), 2),
        ("stream_order", NEVER_DONE.format("output item 0 (fc_1)"), "/type", line(3), 3)]
    assert [(t[1], t[2], t[4]) for t in rows(r)] == [(0, "fc_1", "in_progress"),
                                                      (None, "fc_Y", "completed")]


def test_the_same_ids_and_a_non_string_call_id_are_no_change():
    r = analyse(sse(CREATED, added(0, fc(call_id=5)), delta("{}", output_index=0, item_id="fc_1"),
                    done(0, fc(call_id="call_1", arguments="{}", status="completed")), completed()))
    assert own(r, "stream_item_id_changed") == []
    r = analyse(sse(CREATED, added(0, fc()),
                    done(0, fc(call_id=7, id=8, arguments="{}", status="completed")), completed()))
    assert own(r, "stream_item_id_changed") == []


def test_an_item_moved_to_another_output_index_is_named():
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=3, item_id="fc_1"),
                    done(0, fc(arguments="{}", status="completed")), completed()))
    assert own(r, "stream_item_id_changed") == [
        ("stream_item_id_changed",
         'This response.function_call_arguments.delta event puts item "fc_1" at output_index 3, '
         "but it was added at 0: the place of one item must not change.", "/output_index",
         line(2), 2, [("added", "/item", line(1), 1)], {})]
    assert r["items"][0]["arguments"] == "{}"


def test_ids_rotating_on_every_event_are_said_three_times_then_counted():
    r = analyse(sse(CREATED, added(0, fc()),
                    *[delta("x", output_index=0, item_id=f"fc_{k}") for k in "ABCDE"],
                    delta("y", output_index=0, item_id="fc_A"), completed(), done=False))
    found = own(r, "stream_item_id_changed")
    assert [(f[2], f[3]) for f in found] == [("/item_id", line(2)), ("/item_id", line(3)),
                                             ("/item_id", line(4))]
    assert ['"fc_A"' in found[0][1], '"fc_B"' in found[1][1], '"fc_C"' in found[2][1]] == [True] * 3
    assert r["truncated"]["findings"] == 2
    spec = len([f for f in r["findings"] if f["code"] == "spec_schema"])
    assert r["summary"]["warnings"] == 3 + 2 + spec
    # every delta still went to the one item
    assert r["items"][0]["arguments"] == "xxxxxy"


def test_an_item_added_without_id_learns_it_from_its_events_and_is_found_by_it():
    r = analyse(sse(CREATED,
                    added(0, {"type": "function_call", "call_id": "c1", "name": "f",
                              "arguments": "", "status": "in_progress"}),
                    delta('{"a"', output_index=0, item_id="fc_7"), delta(":1}", item_id="fc_7"),
                    added(0, fc(7, call_id="c1")),
                    ("response.failed", {"response": {"id": "r", "status": "failed", "output": []}})))
    assert own(r, "stream_order", "stream_item_id_changed") == [
        ("stream_order", "output item 0 is added a second time.", "/type", line(4), 4, [], {})]
    assert r["items"] == [fc(7, call_id="c1", arguments='{"a":1}')]
    assert rows(r) == [(0, 0, "fc_7", "function_call", "in_progress", line(1), line(4),
                        {"response.output_item.added": 2,
                         "response.function_call_arguments.delta": 2}, ["stream_order"])]


def test_an_item_id_learnt_from_the_added_item_finds_later_events_by_id():
    r = analyse(sse(CREATED, ("response.output_item.added", {"item": fc()}),
                    added(1, fc(2)), delta("{}", item_id="fc_1"), delta("[]", item_id="fc_2"),
                    completed(), done=False))
    assert [(i["id"], i["arguments"]) for i in r["items"]] == [("fc_2", "[]"), ("fc_1", "{}")]
    assert own(r, "stream_item_id_changed") == []


def test_events_naming_nothing_go_to_the_item_added_last_and_new_ones_get_their_own_row():
    r = analyse(sse(CREATED, ("response.output_text.delta", {"content_index": 0, "delta": "a"}),
                    ("response.output_text.delta", {"content_index": 0, "delta": "b"}),
                    ("response.function_call_arguments.delta", {"item_id": "fc_3", "delta": "{}"}),
                    ("response.function_call_arguments.delta", {"delta": "[]"}),
                    completed(), done=False))
    assert r["items"] == [{"type": "message", "content": [{"type": "output_text", "text": "ab"}]},
                          {"type": "function_call", "arguments": "{}[]", "id": "fc_3"}]
    assert [f[:5] for f in own(r, "stream_order")] == [
        ("stream_order", BEFORE_ADDED.format("response.output_text.delta"), "/type", line(1), 1),
        ("stream_order", BEFORE_ADDED.format("response.function_call_arguments.delta"), "/type",
         line(3), 3)]
    assert [(t[1], t[2], t[5], t[6]) for t in rows(r)] == [(None, None, line(1), line(2)),
                                                            (None, "fc_3", line(3), line(4))]


# --------------------------------------------------------------------------- order

def test_text_events_out_of_their_part_order():
    m = {"type": "message", "id": "msg_1", "role": "assistant", "content": [],
         "status": "in_progress"}
    r = analyse(sse(CREATED, added(0, m),
                    text_event("response.content_part.added", 0,
                               part={"type": "output_text", "text": ""}),
                    text_event("response.output_text.delta", 0, delta="Hel"),
                    text_event("response.output_text.delta", 1, delta="x"),
                    text_event("response.output_text.done", 0, text="Hello"),
                    text_event("response.output_text.delta", 0, delta="!"),
                    text_event("response.content_part.done", 0),
                    text_event("response.output_text.delta", 0, delta="?"),
                    text_event("response.content_part.done", 2),
                    completed(), done=False))
    assert own(r, "stream_order") == [
        ("stream_order", "response.output_text.delta before its content part was added "
                         "(response.content_part.added comes first).", "/type", line(4), 4, [], {}),
        ("stream_order", "response.output_text.delta after the text was done.", "/type", line(6),
         6, [], {}),
        ("stream_order", "response.output_text.delta after its content part was done.", "/type",
         line(8), 8, [], {}),
        ("stream_order", "response.output_text.delta after the text was done.", "/type", line(8),
         8, [], {}),
        ("stream_order", "content_part.done for a part that was never added.", "/type", line(9),
         9, [], {}),
        ("stream_order", NEVER_DONE.format("output item 0 (msg_1)"), "/type", line(10), 10,
         [("added", "/item", line(1), 1)], {})]
    # the done text replaces its deltas; later deltas are still kept (and were flagged)
    assert r["items"][0]["content"] == [{"type": "output_text", "text": "Hello!?"},
                                        {"type": "output_text", "text": "x"}]
    # each finding is the item's (placed at a text event: filed by the walk, not by its place)
    assert rows(r)[0][-1] == ["stream_order"] * 6


def test_text_in_order_is_no_finding_and_each_part_is_rebuilt_in_index_order():
    m = {"type": "message", "id": "msg_1", "role": "assistant", "content": [],
         "status": "in_progress"}
    ev = []
    for ci, words in ((1, ("Wor", "ld")), (0, ("Hel", "lo"))):
        ev.append(text_event("response.content_part.added", ci))
        ev += [text_event("response.output_text.delta", ci, delta=w) for w in words]
        ev.append(text_event("response.output_text.done", ci, text="".join(words)))
        ev.append(text_event("response.content_part.done", ci))
    r = analyse(sse(CREATED, added(0, m), *ev,
                    done(0, dict(m, status="completed",
                                 content=[{"type": "output_text", "text": "Hello",
                                           "annotations": []},
                                          {"type": "output_text", "text": "World",
                                           "annotations": []}])),
                    completed()))
    assert own(r, "stream_order") == []
    # cut off before its done item: the parts are rebuilt from the deltas, in content_index order
    r = analyse(sse(CREATED, added(0, m), *ev, done=False))
    assert r["items"][0]["content"] == [{"type": "output_text", "text": "Hello"},
                                        {"type": "output_text", "text": "World"}]
    assert own(r, "stream_order") == []


def test_refusal_and_text_done_without_parts():
    r = analyse(sse(CREATED, added(0, {"type": "message", "id": "m1", "role": "assistant",
                                       "content": [], "status": "in_progress"}),
                    ("response.refusal.delta", {"output_index": 0, "content_index": 1, "delta": "no"}),
                    ("response.refusal.done", {"output_index": 0, "content_index": 1,
                                               "refusal": "no", "text": "IGN"}),
                    ("response.output_text.done", {"output_index": 0, "content_index": 0, "text": "A"}),
                    ("response.output_text.done", {"output_index": 0, "content_index": 2, "text": 5}),
                    ("response.output_text.delta", {"output_index": 0, "content_index": 3,
                                                    "delta": 5}),
                    ("response.incomplete", {"response": {"id": "r", "status": "incomplete",
                                                          "output": []}})))
    # no content_part.added at all: the text events are not said to come before their parts
    assert own(r, "stream_order") == []
    # a refusal.done's text is not taken (only output_text.done's); a non-string text neither
    assert r["items"][0]["content"] == [{"type": "output_text", "text": "A"},
                                        {"type": "output_text", "text": "no"}]


def test_a_refusal_delta_after_its_done_is_out_of_order():
    r = analyse(sse(CREATED, added(0, {"type": "message", "id": "m1", "content": [],
                                       "status": "in_progress"}),
                    ("response.refusal.done", {"output_index": 0, "content_index": 0, "refusal": "n"}),
                    ("response.refusal.delta", {"output_index": 0, "content_index": 0, "delta": "o"}),
                    ("response.failed", {"response": {"id": "r", "status": "failed"}})))
    assert own(r, "stream_order") == [
        ("stream_order", "response.refusal.delta after the text was done.", "/type", line(3), 3,
         [], {})]


def test_an_event_before_its_item_is_said_once_per_item_and_after_done_each_time():
    r = analyse(sse(CREATED, delta("{", output_index=0, item_id="fc_1"),
                    delta("}", output_index=0, item_id="fc_1"),
                    done(0, fc(arguments="{}", status="completed")),
                    delta("x", output_index=0), args_done("{}x", output_index=0),
                    done(0, fc(arguments="{}", status="completed")),
                    completed()))
    after = ("{} arrives after response.output_item.done for this item: a done item never "
             "changes again.")
    assert [f[:6] for f in own(r, "stream_order")] == [
        ("stream_order", BEFORE_ADDED.format("response.function_call_arguments.delta"), "/type",
         line(1), 1, []),
        ("stream_order", after.format("response.function_call_arguments.delta"), "/type", line(4),
         4, [("done", "/type", line(3), 3)]),
        ("stream_order", after.format("response.function_call_arguments.done"), "/type", line(5),
         5, [("done", "/type", line(3), 3)])]


def test_an_added_item_that_is_no_object_is_an_empty_item():
    r = analyse(sse(CREATED, added(0, [1]), done(0, {"type": "message", "id": "m", "role": "assistant",
                                                     "status": "completed", "content": []}),
                    done(1, "x"), completed()))
    assert own(r, "stream_order") == [
        ("stream_order", BEFORE_ADDED.format("response.output_item.done"), "/type", line(3), 3,
         [], {})]
    # the second done (no object) makes no done item: it stays an empty, never-done row
    assert [t[1:5] for t in rows(r)] == [(0, "m", "message", "completed"), (1, None, None, None)]


# --------------------------------------------------------------------------- the terminal event

def test_completed_with_items_never_done_names_each_in_words():
    r = analyse(sse(CREATED, ("response.output_item.added", {"item": fc(call_id="c1")}),
                    added(1, {"type": "reasoning"}), added(2, 7), added(3, {"type": "", "id": ""}),
                    ("response.completed", {"response": {"id": "r", "output": []}})))
    assert own(r, "stream_order") == [
        ("stream_order", NEVER_DONE.format(f"output item {words}"), "/type", line(5), 5,
         [("added", "/item", line(k), k)], {})
        for k, words in ((1, "(its output_index missing) (fc_1)"), (2, "1 (reasoning)"),
                         (3, "2 (no item id or type)"), (4, "3 (no item id or type)"))]
    # a completed event without a status is read as completed: its open item is a finding
    (f,) = own(r, "completed_response_open_items")
    assert f[2:4] == ("/type", line(5))
    # the rows: by output_index, the one without it last
    assert [t[1] for t in rows(r)] == [1, 2, 3, None]


def test_only_a_completed_stream_wants_every_item_done():
    for t in ("response.failed", "response.incomplete"):
        r = analyse(sse(CREATED, added(0, fc()), (t, {"response": {"id": "r", "output": []}})))
        assert own(r, "stream_order") == []


def test_a_terminal_event_status_comes_from_its_response_else_from_its_type():
    # response.completed whose response says incomplete: read as incomplete
    r = analyse(sse(CREATED, added(0, fc()), done(0, fc(arguments="{}", status="completed")),
                    completed(status="incomplete")))
    (f,) = own(r, "incomplete_response_all_completed")
    assert f[2:4] == ("/response/status", line(3))
    # a status that is no string: the type's word
    r = analyse(sse(CREATED, added(0, fc()), done(0, fc(arguments="{}", status="completed")),
                    ("response.incomplete", {"response": {"id": "r", "status": 3}})))
    (f,) = own(r, "incomplete_response_all_completed")
    assert f[2:4] == ("/response/status", line(3))
    r = analyse(sse(CREATED, added(0, fc()), done(0, fc(arguments="{}", status="completed")),
                    ("response.incomplete", {"response": 3})))
    (f,) = own(r, "incomplete_response_all_completed")
    assert f[2:4] == ("/type", line(3))


def test_no_terminal_event_points_at_the_last_event_and_names_a_trailing_done():
    r = analyse(sse(CREATED, added(0, fc())))
    assert own(r, "stream_no_terminal") == [
        ("stream_no_terminal", NO_TERMINAL + " (A trailing data: [DONE] is no terminal event.)",
         "", line(1), 1, [], {})]
    r = analyse(sse(CREATED, added(0, fc()), done=False))
    assert own(r, "stream_no_terminal") == [("stream_no_terminal", NO_TERMINAL, "", line(1), 1, [], {})]


def test_no_terminal_in_a_stream_without_events_points_at_its_last_line():
    r = analyse("\n\ndata: [DONE]\n\n")
    assert own(r) == [("stream_no_terminal", NO_TERMINAL + " (A trailing data: [DONE] is no "
                                                           "terminal event.)", "", 4, None, [], {})]
    r = analyse('event: x\ndata: {"type": \n\n')
    assert [f[0] for f in own(r)] == ["stream_bad_line", "stream_no_terminal"]
    assert own(r, "stream_no_terminal") == [("stream_no_terminal", NO_TERMINAL, "", 3, None, [], {})]


def test_events_after_the_terminal_and_after_done_are_counted_from_the_first():
    r = analyse(sse(CREATED, ("response.failed", {"response": {"id": "r"}}),
                    ("response.in_progress", {}), ("response.completed", {"response": {}}),
                    "data: [DONE]", ("response.output_text.delta", {"delta": "x"}), "data: [DONE]"))
    assert own(r, "stream_after_terminal") == [
        ("stream_after_terminal", "2 events after the terminal response.failed: nothing may "
                                  "follow it but data: [DONE]; a client stopped reading already.",
         "/type", line(2), 2, [("terminal", "/type", line(1), 1)], {"count": 2}),
        ("stream_after_terminal", "1 event after data: [DONE]: a client closed the stream there "
                                  "and never sees them.", "/type", 16, 4, [], {"count": 1})]


def test_one_event_after_the_terminal_and_two_after_done():
    r = analyse(sse(CREATED, ("response.incomplete", {}), ("response.in_progress", {}),
                    "data: [DONE]", ("response.in_progress", {}), ("x.y", {}), done=False))
    assert own(r, "stream_after_terminal") == [
        ("stream_after_terminal", "1 event after the terminal response.incomplete: nothing may "
                                  "follow it but data: [DONE]; a client stopped reading already.",
         "/type", line(2), 2, [("terminal", "/type", line(1), 1)], {"count": 1}),
        ("stream_after_terminal", "2 events after data: [DONE]: a client closed the stream there "
                                  "and never sees them.", "/type", 13, 3, [], {"count": 2})]


def test_an_error_must_be_followed_by_failed_later_not_before():
    r = analyse(sse(CREATED, ("error", {"message": "a"}),
                    ("response.failed", {"response": {"status": "failed"}}),
                    ("error", {"message": "b"}), done=False))
    assert own(r, "stream_error_not_failed") == [
        ("stream_error_not_failed", NOT_FAILED, "/type", line(3), 3, [], {})]
    r = analyse(sse(CREATED, ("error", {"message": "a"}), ("error", {"message": "b"}),
                    ("response.failed", {"response": {"status": "failed"}})))
    assert own(r, "stream_error_not_failed", "stream_no_terminal") == []


# --------------------------------------------------------------------------- lines and numbers

def test_a_json_line_that_is_no_object_is_out_of_order_at_its_line():
    r = analyse(sse(CREATED, "data: [1, 2]", completed()))
    assert own(r, "stream_order") == [
        ("stream_order", "This line is JSON but not an event object.", "", 4, 1, [], {})]


def test_sequence_numbers_must_grow_by_exactly_one():
    r = analyse(sse(CREATED, ("response.in_progress", {"sequence_number": 5}),
                    ("response.in_progress", {"sequence_number": 5}),
                    ("response.in_progress", {"sequence_number": 6}),
                    ("response.in_progress", {"sequence_number": "7"}),
                    ("response.in_progress", {"sequence_number": 8}),
                    completed(), seq=False))
    assert own(r, "stream_sequence") == [
        ("stream_sequence", "sequence_number 5 follows 5: it must grow by exactly one, so an event "
                            "was lost, repeated or reordered here.", "/sequence_number", line(2),
         2, [("previous", "/sequence_number", line(1), 1)], {}),
        ("stream_sequence", "sequence_number 8 follows 6: it must grow by exactly one, so an event "
                            "was lost, repeated or reordered here.", "/sequence_number", line(5),
         5, [("previous", "/sequence_number", line(3), 3)], {})]


def test_twenty_sequence_findings_at_most():
    r = analyse(sse(CREATED, *[("response.in_progress", {"sequence_number": 2 * k})
                               for k in range(23)], completed(), seq=False))
    found = own(r, "stream_sequence")
    assert len(found) == 20
    assert found[-1][3] == line(21)


def test_two_hundred_order_findings_at_most_then_counted():
    r = analyse(sse(CREATED, *[added(0, fc())] * 203, completed()))
    assert len(own(r, "stream_order")) == 200
    assert r["truncated"]["findings"] == 3
    # 202 second adds + 1 never done, and the completed response's open item
    assert r["summary"]["errors"] == 204


def test_non_response_events_and_starts_make_no_item():
    r = analyse(sse(CREATED, ("response.queued", {}), ("response.in_progress", {}),
                    ("ping", {}), ("error", {"message": "x"}),
                    ("response.failed", {"response": {"id": "r", "status": "failed", "output": []}})))
    assert r["timeline"] == [] and r["items"] == []
    assert own(r) == []


# --------------------------------------------------------------------------- the final output

def test_a_stream_of_only_a_final_response_is_rebuilt_from_its_output():
    msg = {"type": "message", "id": "m1", "role": "assistant", "status": "completed",
           "content": [{"type": "output_text", "text": "hi", "annotations": []}]}
    r = analyse(sse(CREATED, completed([msg, 5, fc(2, status="completed", arguments="{}"),
                                        dict(fc(3, status="completed", arguments="{}"), id=4)])))
    assert r["items"] == [msg, fc(2, status="completed", arguments="{}"),
                          dict(fc(3, status="completed", arguments="{}"), id=4)]
    assert [(t[1], t[2], t[5], t[6], t[7]) for t in rows(r)] == [
        (0, "m1", line(1), line(1), {"response.completed": 1}),
        (2, "fc_2", line(1), line(1), {"response.completed": 1}),
        (3, None, line(1), line(1), {"response.completed": 1})]
    pending = own(r, "pending_call")
    assert [f[2:4] for f in pending] == [("/response/output/2", line(1)),
                                         ("/response/output/3", line(1))]


# --------------------------------------------------------------------------- items never added

def test_findings_about_an_item_never_added_name_no_added_place():
    # (a related "added" without a place used to be printed at line 1, column 1)
    r = analyse(sse(CREATED, delta("{", output_index=0, item_id="fc_1"),
                    delta("}", output_index=0, item_id="fc_2"),
                    ("response.output_item.done", {"output_index": 0, "item_id": "fc_1",
                                                   "item": fc(id="fc_Y", arguments="{}x",
                                                              status="completed")}),
                    delta("x", item_id="fc_2"), completed()))
    assert [f[:6] for f in own(r, "stream_item_id_changed", "stream_arguments_mismatch")] == [
        ("stream_item_id_changed",
         'This response.function_call_arguments.delta event names item_id "fc_2", but output item 0 '
         'was added as "fc_1": a client attaching deltas by item_id loses them. The ids of one '
         "item must not change.", "/item_id", line(2), 2, []),
        ("stream_item_id_changed",
         'The done item\'s id "fc_Y" differs from "fc_1", the id it was added with: the ids of one '
         "item must not change between its events.", "/item/id", line(3), 3, []),
        ("stream_arguments_mismatch", mismatch(2, "response.output_item.done", 3, 2),
         "/item/arguments", line(3), 3, [])]
    # the changed id still finds the item: the late delta (naming only fc_2) is that item's
    assert [f[:4] for f in own(r, "stream_order")] == [
        ("stream_order", BEFORE_ADDED.format("response.function_call_arguments.delta"), "/type",
         line(1)),
        ("stream_order", "response.function_call_arguments.delta arrives after "
                         "response.output_item.done for this item: a done item never changes "
                         "again.", "/type", line(4))]
    assert len(r["timeline"]) == 1 and r["timeline"][0]["events"] == {
        "response.function_call_arguments.delta": 3, "response.output_item.done": 1}


def test_a_message_added_with_content_and_cut_off_keeps_its_content():
    m = {"type": "message", "id": "m", "role": "assistant", "status": "in_progress",
         "content": [{"type": "output_text", "text": "kept"}]}
    r = analyse(sse(CREATED, added(0, m), done=False))
    assert r["items"] == [m]
    # a call added and cut off keeps its (empty) arguments, and gets no content
    r = analyse(sse(CREATED, added(0, fc()), done=False))
    assert r["items"] == [fc()]


def test_arguments_done_alone_rebuilds_a_call():
    r = analyse(sse(CREATED, args_done("{}", output_index=0, item_id="fc_1"), completed(),
                    done=False))
    assert r["items"] == [{"type": "function_call", "arguments": "{}", "id": "fc_1"}]
    assert [(t[1], t[2], t[3]) for t in rows(r)] == [(0, "fc_1", "function_call")]


def test_an_item_added_without_index_keeps_none_when_its_events_name_one():
    r = analyse(sse(CREATED, ("response.output_item.added", {"item": fc()}),
                    delta("{}", output_index=0, item_id="fc_1"),
                    done(0, fc(arguments="{}", status="completed")), completed()))
    assert own(r, "stream_item_id_changed", "stream_order") == []
    assert [(t[1], t[2], t[7]) for t in rows(r)] == [(None, "fc_1", {
        "response.output_item.added": 1, "response.function_call_arguments.delta": 1,
        "response.output_item.done": 1})]


def test_an_output_index_that_is_no_integer_is_missing():
    r = analyse(sse(CREATED, added("0", fc()), delta("{}", output_index="0", item_id="fc_1"),
                    completed(), done=False))
    assert [f[1] for f in own(r, "stream_order")] == [
        NEVER_DONE.format("output item (its output_index missing) (fc_1)")]
    assert [(t[1], t[2]) for t in rows(r)] == [(None, "fc_1")]
    assert r["items"][0]["arguments"] == "{}"


def test_a_done_call_with_arguments_that_are_no_string_is_not_compared():
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=0),
                    done(0, fc(arguments=5, status="completed")),
                    completed([fc(arguments=5), fc(arguments=6)])))
    assert own(r, "stream_arguments_mismatch") == []


def test_the_event_line_names_an_event_whose_data_has_no_type():
    text = ('event: response.created\ndata: {"response": {"id": "r"}}\n\n'
            'event: response.completed\ndata: {"response": {"id": "r", "status": "completed"}}\n\n')
    r = analyse(text)
    assert own(r) == []
    r = analyse(text.replace("response.completed", "response.output_item.added"))
    assert [f[0] for f in own(r)] == ["stream_no_terminal"]


def test_only_event_objects_are_counted_as_events():
    r = analyse(sse(CREATED, "data: [1]", "data: 2", completed()))
    assert r["summary"]["events"] == 2
    assert [f[3] for f in own(r, "stream_order")] == [4, 6]


def test_a_bad_line_says_what_a_client_does_with_it():
    r = analyse('event: x\ndata: {"type": \n\n')
    (f,) = [f for f in r["findings"] if f["code"] == "stream_bad_line"]
    assert f["message"] == ("Line 2 is neither an SSE field nor JSON (Unexpected end of the input: "
                            "the document stops before it is complete): a client reading this "
                            "stream stops or drops the event here (a cut-off line, or junk "
                            "between events).")
    assert (f["line"], f["pointer"]) == (2, "")


def test_no_terminal_without_events_is_at_the_last_line_column_one():
    r = analyse("\n\ndata: [DONE]\n\n")
    (f,) = r["findings"]
    assert (f["line"], f["column"], f["pointer"]) == (4, 1, "")


def test_an_item_type_or_id_that_is_no_string_is_not_printed():
    r = analyse(sse(CREATED, added(0, {"type": 7, "id": 5}), added(1, {"type": ["x"], "id": ""}),
                    completed()))
    assert [f[1] for f in own(r, "stream_order")] == [
        NEVER_DONE.format("output item 0 (no item id or type)"),
        NEVER_DONE.format("output item 1 (no item id or type)")]


def test_two_responses_one_after_another_are_each_walked_alone():
    first = sse(CREATED, added(0, fc()), delta("{}", output_index=0),
                done(0, fc(arguments="{}", status="completed")), completed(), done=False)
    r = analyse(first + sse(CREATED, added(0, fc(2)), delta("[]", output_index=0), completed(),
                            seq=False))
    # no event of the second is "after the terminal" of the first, nor its sequence a gap
    assert [f[0] for f in own(r, "stream_order", "stream_after_terminal", "stream_sequence")] == [
        "stream_order"]
    assert own(r, "stream_order")[0][1:4] == (NEVER_DONE.format("output item 0 (fc_2)"), "/type",
                                              26)
    assert [(t[0], t[1], t[2], t[4]) for t in rows(r)] == [(0, 0, "fc_1", "completed"),
                                                           (1, 0, "fc_2", "in_progress")]


def test_the_new_id_of_a_done_item_is_said_once_even_when_later_events_name_it():
    r = analyse(sse(CREATED, added(0, fc()),
                    ("response.output_item.done", {"output_index": 0, "item_id": "fc_1",
                                                   "item": fc(id="fc_Y", status="completed")}),
                    delta("x", output_index=0, item_id="fc_Y"), completed()))
    assert [(f[2], f[3]) for f in own(r, "stream_item_id_changed")] == [("/item/id", line(2))]
    assert [f[3] for f in own(r, "stream_order")] == [line(3)]  # the delta after done


# --------------------------------------------------------------------------- a stream's status

def test_a_stream_cut_off_has_no_status_an_incomplete_item_could_contradict():
    # no terminal event: the response's status is unknown, so an incomplete item is said by
    # nothing but the cut-off (a status of "" would read as 'the response says ""')
    r = analyse(sse(CREATED, added(0, fc()), done(0, fc(arguments="{}", status="incomplete")),
                    done=False))
    assert [f[0] for f in own(r)] == ["stream_no_terminal"]
    # with a terminal event that says otherwise, it is a mismatch
    r = analyse(sse(CREATED, added(0, fc()), done(0, fc(arguments="{}", status="incomplete")),
                    completed(), done=False))
    assert [f[0] for f in own(r)] == ["incomplete_response_mismatch"]


def test_a_rebuilt_message_orders_its_parts_by_the_value_of_their_index():
    # twelve parts sent 11 … 0: part 10 comes after part 9 (as text, "10" sorted before "2")
    m = {"type": "message", "id": "msg_1", "role": "assistant", "content": [],
         "status": "in_progress"}
    ev = [text_event("response.output_text.delta", ci, delta=f"<{ci}>") for ci in range(11, -1, -1)]
    r = analyse(sse(CREATED, added(0, m), *ev, done=False))
    assert [p["text"] for p in r["items"][0]["content"]] == [f"<{ci}>" for ci in range(12)]
    # an index that is no integer comes after the integers, by its text
    ev = [text_event("response.output_text.delta", ci, delta=str(ci)) for ci in ("b", 3, None, "a", 1)]
    r = analyse(sse(CREATED, added(0, m), *ev, done=False))
    assert [p["text"] for p in r["items"][0]["content"]] == ["1", "3", "None", "a", "b"]


# --------------------------------------------------------------------------- each finding in its row

def test_an_id_changed_at_a_delta_is_filed_under_its_item_row():
    # the finding is placed at the delta, which is neither the item's added nor its done event:
    # only the walk's own note (the slot passed to the finding) puts it in the row
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=0, item_id="fc_X"),
                    done(0, fc(arguments="{}", status="completed")), completed()))
    assert rows(r) == [(0, 0, "fc_1", "function_call", "completed", line(1), line(3),
                        {"response.output_item.added": 1,
                         "response.function_call_arguments.delta": 1,
                         "response.output_item.done": 1}, ["stream_item_id_changed"])]


def test_each_repeated_add_is_filed_under_the_row_not_only_the_last():
    # the second add's finding sits at an added event the third add replaces
    r = analyse(sse(CREATED, added(0, fc()), added(0, fc()), added(0, fc()),
                    done(0, fc(status="completed")), completed()))
    assert [f[:4] for f in own(r, "stream_order")] == [
        ("stream_order", "output item 0 is added a second time.", "/type", line(2)),
        ("stream_order", "output item 0 is added a second time.", "/type", line(3))]
    assert rows(r)[0][-1] == ["stream_order", "stream_order"]


def test_ids_changed_at_two_done_events_are_each_filed_under_the_row():
    # both done events name the item by its first id: the done rule says each new id and call_id,
    # and the first done event is no longer the item's done piece when the second comes
    r = analyse(sse(CREATED, added(0, fc()),
                    ("response.output_item.done", {"output_index": 0, "item_id": "fc_1", "item": fc(
                        id="fc_Y", call_id="call_Y", status="completed")}),
                    ("response.output_item.done", {"output_index": 0, "item_id": "fc_1", "item": fc(
                        id="fc_Z", call_id="call_Z", status="completed")}),
                    completed()))
    assert [(f[0], f[2], f[3]) for f in own(r, "stream_item_id_changed")] == [
        ("stream_item_id_changed", "/item/id", line(2)),
        ("stream_item_id_changed", "/item/call_id", line(2)),
        ("stream_item_id_changed", "/item/id", line(3)),
        ("stream_item_id_changed", "/item/call_id", line(3))]
    assert rows(r)[0][-1] == ["stream_item_id_changed"] * 4


# --------------------------------------------------------------------------- items without an index

def test_an_item_without_index_or_id_is_the_final_outputs_item_at_its_place():
    # no output_index, no item_id: the item is keyed by its place, so the final response's
    # output 0 (whose id names no item) is compared with it
    r = analyse(sse(CREATED, ("response.function_call_arguments.delta", {"delta": "{}"}),
                    completed([fc(arguments="[]", status="completed")]), done=False))
    assert own(r, "stream_arguments_mismatch") == [
        ("stream_arguments_mismatch", mismatch(2, "the final response", 2, 0),
         "/response/output/0/arguments", line(2), 2, [], {"at": 0})]
    assert [(t[1], t[2], t[-1]) for t in rows(r)] == [
        (None, None, ["stream_order", "stream_arguments_mismatch"])]


def test_an_item_added_by_id_alone_does_not_take_the_place_of_a_later_index():
    # fc_2 (no output_index) is keyed by its id: the item added at output_index 1 is a new one
    r = analyse(sse(CREATED, added(0, fc(1)), ("response.output_item.added", {"item": fc(2)}),
                    added(1, fc(3)), completed(), done=False))
    assert own(r, "stream_item_id_changed") == []
    assert [f[1] for f in own(r, "stream_order")] == [
        NEVER_DONE.format("output item 0 (fc_1)"),
        NEVER_DONE.format("output item (its output_index missing) (fc_2)"),
        NEVER_DONE.format("output item 1 (fc_3)")]
    assert [(t[1], t[2], t[5]) for t in rows(r)] == [(0, "fc_1", line(1)), (1, "fc_3", line(3)),
                                                      (None, "fc_2", line(2))]


def test_an_item_keeps_the_first_id_it_was_seen_with():
    # a delta names fc_1 first; the item added later says fc_2 (said as a change): the row keeps
    # fc_1, and events naming either id find the item
    r = analyse(sse(CREATED, delta("{", output_index=0, item_id="fc_1"), added(0, fc(2)),
                    delta("}", item_id="fc_2"), completed(), done=False))
    assert [(t[1], t[2], t[7]) for t in rows(r)] == [
        (0, "fc_1", {"response.function_call_arguments.delta": 2, "response.output_item.added": 1})]
    assert [f[:4] for f in own(r, "stream_item_id_changed")] == [
        ("stream_item_id_changed", 'This response.output_item.added event names item_id "fc_2", '
         'but output item 0 was added as "fc_1": a client attaching deltas by item_id loses them. '
         "The ids of one item must not change.", "/item/id", line(2))]
    assert r["items"] == [fc(2, arguments="{}")]


def test_an_event_after_the_item_was_done_is_filed_under_its_row():
    r = analyse(sse(CREATED, added(0, fc()), done(0, fc(arguments="{}", status="completed")),
                    delta("x", output_index=0), completed()))
    assert [f[:4] for f in own(r, "stream_order")] == [
        ("stream_order", "response.function_call_arguments.delta arrives after "
                         "response.output_item.done for this item: a done item never changes "
                         "again.", "/type", line(3))]
    assert rows(r)[0][-1] == ["stream_order"]


def test_an_item_moved_to_another_index_is_filed_under_its_row():
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=3, item_id="fc_1"),
                    done(0, fc(arguments="{}", status="completed")), completed()))
    assert [(t[1], t[2], t[-1]) for t in rows(r)] == [(0, "fc_1", ["stream_item_id_changed"])]


def test_a_final_output_whose_id_is_no_string_is_matched_by_its_index():
    # an id that is an array (unhashable) or a number names no item: the output's index does
    r = analyse(sse(CREATED, added(0, fc(1)), delta("{}", output_index=0),
                    added(1, fc(2)), delta("{}", output_index=1),
                    completed([dict(fc(1, arguments="[]", status="completed"), id=["fc_1"]),
                               dict(fc(2, arguments="[]", status="completed"), id=2)]),
                    done=False))
    assert [(f[2], f[3], f[5]) for f in own(r, "stream_arguments_mismatch")] == [
        ("/response/output/0/arguments", line(5), [("added", "/item", line(1), 1)]),
        ("/response/output/1/arguments", line(5), [("added", "/item", line(3), 3)])]


def test_an_item_keeps_its_first_id_when_a_changed_one_comes_again():
    r = analyse(sse(CREATED, added(0, fc()), delta("{", output_index=0, item_id="fc_X"),
                    delta("}", output_index=0, item_id="fc_X"),
                    done(0, fc(arguments="{}", status="completed")), completed()))
    assert [(f[0], f[3]) for f in own(r, "stream_item_id_changed")] == [
        ("stream_item_id_changed", line(2))]
    assert [(t[1], t[2]) for t in rows(r)] == [(0, "fc_1")]


def test_an_item_never_done_in_a_completed_stream_is_filed_under_its_row():
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=0), completed()))
    assert [(f[0], f[3]) for f in own(r, "stream_order")] == [("stream_order", line(3))]
    assert rows(r)[0][-1] == ["stream_order"]


def test_a_final_output_call_without_deltas_is_passed_over_not_the_end_of_the_comparison():
    r = analyse(sse(CREATED, added(0, fc(1)), added(1, fc(2)), delta("{}", output_index=1),
                    completed([fc(1, arguments="[]", status="completed"),
                               fc(2, arguments="[]", status="completed")]), done=False))
    assert [(f[2], f[3]) for f in own(r, "stream_arguments_mismatch")] == [
        ("/response/output/1/arguments", line(4))]


def test_items_rebuilt_from_a_final_response_count_its_terminal_event():
    r = analyse(sse(CREATED, ("response.incomplete", {"response": {
        "id": "r", "status": "incomplete", "output": [fc(1, status="incomplete", arguments="{}")]}})))
    assert [(t[1], t[2], t[7]) for t in rows(r)] == [(0, "fc_1", {"response.incomplete": 1})]


def test_rows_are_in_output_index_order_and_items_without_one_last_in_stream_order():
    r = analyse(sse(CREATED, added(2, fc(3)), ("response.output_item.added", {"item": fc(8)}),
                    added(0, fc(1)), ("response.output_item.added", {"item": fc(9)}),
                    added(1, fc(2)), completed(), done=False))
    assert [(t[1], t[2]) for t in rows(r)] == [(0, "fc_1"), (1, "fc_2"), (2, "fc_3"),
                                               (None, "fc_8"), (None, "fc_9")]
    assert [i["id"] for i in r["items"]] == ["fc_1", "fc_2", "fc_3", "fc_8", "fc_9"]


def test_a_bad_line_is_passed_over_and_the_events_after_it_are_read():
    text = 'data: {"type": \n\n' + sse(CREATED, added(0, fc()), done(0, fc(status="completed")),
                                       completed())
    r = analyse(text)
    assert [f[0] for f in own(r)] == ["stream_bad_line", "pending_call"]
    assert [(t[1], t[2], t[4]) for t in rows(r)] == [(0, "fc_1", "completed")]


def test_text_deltas_for_a_call_give_it_no_content():
    r = analyse(sse(CREATED, added(0, fc()), delta("{}", output_index=0),
                    ("response.output_text.delta", {"output_index": 0, "content_index": 0,
                                                    "delta": "hi"}), done=False))
    assert r["items"] == [fc(arguments="{}")]


def test_a_call_rebuilt_from_deltas_alone_is_placed_at_its_first_event_line():
    # never added nor done: no piece holds the item, so its place is its first line, column 1
    r = analyse(sse(CREATED, CREATED, delta("{}", item_id="fc_1", output_index=0),
                    delta("", item_id="fc_1", output_index=0), completed(), done=False))
    assert [(c["pointer"], c["line"], c["column"], c["id"], c["item"]) for c in r["calls"]] == [
        ("", line(2), 1, "fc_1", 0)]
