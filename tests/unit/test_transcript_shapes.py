"""Every shape of an Agents session reads the same (agents-rules.md, "Refinements 2026-12":
every shape of a session; the chain names every id it was given), issue 23."""

from __future__ import annotations

import json

import pytest

from workbench import gallery
from workbench.transcript import analyse

# the rules' own objects: a create_subagent_call (agent_id: who asked), a handoff item (no
# Agents API type) and a function call attributed to the subagent; the orchestration items
# carry no turn_id, as the rules' table writes them
ITEMS = [
    {"type": "create_subagent_call", "agent_id": "agent_main", "subagent_id": "sub_7a12",
     "call_id": "call_s"},
    {"type": "handoff", "id": "h_1", "target": "sub_7a12"},
    {"type": "function_call", "turn_id": "turn_2", "call_id": "call_3c91",
     "name": "lookup_order", "agent_id": "sub_7a12",
     "arguments": {"order_id": "A-1042", "include_lines": True}},
]


def forms(items: list) -> dict[str, tuple[str, str]]:
    """Each shape a list of session items is pasted in: (text, pointer prefix of item 0)."""
    return {
        "session": (json.dumps({"id": "sess_1", "status": "idle", "items": items}, indent=1),
                    "/items"),
        "list_object": (json.dumps({"object": "list", "data": items}, indent=1), "/data"),
        "data": (json.dumps({"data": items}), "/data"),
        "bare_array": (json.dumps(items, indent=2), ""),
        "bundle": (json.dumps({"session": {"id": "sess_1", "items": items}, "events": []}),
                   "/session/items"),
        "json_lines": ("\n".join(json.dumps(it) for it in items), None),
    }


def codes(r: dict) -> list[str]:
    return [f["code"] for f in r["findings"]]


def one(r: dict, code: str) -> dict:
    (f,) = [f for f in r["findings"] if f["code"] == code]
    return f


@pytest.mark.parametrize("form", list(forms(ITEMS)))
def test_every_form_finds_the_handoff_and_the_subagents_call(form):
    text, prefix = forms(ITEMS)[form]
    r = analyse(text)
    assert r["kind"] == "agents_session", (form, r["kind"])
    h, s = one(r, "handoff_type"), one(r, "subagent_function_call")
    assert h["severity"] == s["severity"] == "error"
    if prefix is None:   # JSON Lines: the place is the line, the pointer within its value
        assert (h["line"], h["pointer"]) == (2, "/type")
        assert (s["line"], s["pointer"]) == (3, "/agent_id")
    else:
        assert h["pointer"] == f"{prefix}/1/type"
        assert s["pointer"] == f"{prefix}/2/agent_id"
        assert s["related"][0]["pointer"] == f"{prefix}/0"
    assert "sub_7a12" in s["message"]
    # the subagent's call is never listed as executable, and no answer is written for it
    (c,) = r["calls"]
    assert (c["call_id"], c["execute"], c["role"]) == ("call_3c91", False, "history")
    assert not c.get("tool_result")
    assert r["summary"]["blocked"] == 0 and r["summary"]["errors"] == 2
    # the chain: the agent who asked, the subagent, the handoff (broken), the call (broken)
    links = r["chain"]["links"]
    assert [(l["object"], l.get("id") or l.get("call_id")) for l in links] == [
        ("agent", "agent_main"), ("subagent", "sub_7a12"), ("handoff", "h_1"),
        ("turn", "turn_2"), ("function_call", "call_3c91")]
    assert [l.get("broken", False) for l in links] == [False, False, True, False, True]


def test_the_forms_give_the_same_findings_and_calls():
    seen = set()
    for text, _prefix in forms(ITEMS).values():
        r = analyse(text)
        seen.add((tuple(sorted(codes(r))),
                  tuple((c["call_id"], c["verdict"], c["execute"]) for c in r["calls"])))
    assert len(seen) == 1, seen


@pytest.mark.parametrize("form", ["session", "list_object", "bare_array", "json_lines"])
def test_the_gallerys_subagent_case_in_every_form(form):
    case = gallery.by_name("agents-session-subagent-function")
    items = json.loads(gallery.text_of(case))["session"]["items"]
    r = analyse(forms(items)[form][0])
    assert r["kind"] == "agents_session"
    assert codes(r).count("subagent_function_call") == 1
    (c,) = r["calls"]
    assert c["execute"] is False and c["role"] == "history"


@pytest.mark.parametrize("where", ["arguments_object", "arguments_text", "output_text"])
def test_a_subagent_named_in_its_create_calls_arguments_or_output(where):
    # agents-rules.md: each subagent joined to its create_subagent_call (its agent_id /
    # subagent_id in the call's arguments or output)
    create = {"type": "create_subagent_call", "turn_id": "turn_1", "call_id": "call_s",
              "agent_id": "agent_main"}
    inner = {"agent_id": "sub_9"}
    if where == "arguments_object":
        create["arguments"] = inner
    elif where == "arguments_text":
        create["arguments"] = json.dumps(inner)
    else:
        create["arguments"] = {"instructions": "Check the shipping."}
        create["output"] = json.dumps({"status": "created", **inner})
    call = {"type": "function_call", "turn_id": "turn_1", "call_id": "call_9", "name": "f",
            "arguments": {}, "from": "sub_9"}
    for text, _ in forms([create, call]).values():
        r = analyse(text)
        f = one(r, "subagent_function_call")
        assert f["pointer"].endswith("/from") and '"sub_9"' in f["message"]
        sub = next(l for l in r["chain"]["links"] if l["object"] == "subagent")
        assert (sub["id"], sub["via"], sub["via_id"], sub["agent_id"]) == (
            "sub_9", "create_subagent_call", "call_s", "agent_main")
        assert r["calls"][0]["execute"] is False


def test_the_callers_own_agent_id_is_never_the_subagent():
    # agent_id on the create_subagent_call is who asked: a call by agent_main is no fault
    create = {"type": "create_subagent_call", "turn_id": "turn_1", "call_id": "call_s",
              "agent_id": "agent_main", "arguments": {"instructions": "go"}}
    call = {"type": "function_call", "turn_id": "turn_1", "call_id": "call_1", "name": "f",
            "arguments": {}, "agent_id": "agent_main"}
    r = analyse(json.dumps([create, call]))
    assert "subagent_function_call" not in codes(r)


def test_an_id_the_paste_does_not_give_is_unknown_with_its_reason_never_null():
    create = {"type": "create_subagent_call", "turn_id": "turn_1", "arguments": {"x": 1}}
    session = {"id": "sess_1", "agent": {"model": "gpt-5"}, "items": [
        create, {"type": "handoff"}, {"type": "wait_for_subagents_call", "turn_id": "turn_1"}]}
    r = analyse(json.dumps(session))
    links = r["chain"]["links"]
    for link in links:
        assert None not in link.values(), link
    agent = links[0]
    assert agent["object"] == "agent" and "id" not in agent
    assert "neither an id nor a name" in agent["unknown"]
    sub = next(l for l in links if l["object"] == "subagent")
    assert "id" not in sub and "names no subagent" in sub["unknown"]
    assert "null" not in json.dumps(r["chain"])


# --------------------------------------------------------------------------- program callers

PROGRAM = "transcripts/069_vercel-ai__openai__programmatic-tool-calling.1.json"
LATER = "transcripts/070_vercel-ai__openai__programmatic-tool-calling.2.json"
PROGRAM_STREAM = "streams/031_vercel-ai__openai__programmatic-tool-calling.1.chunks.txt"


def test_a_program_call_names_the_place_of_its_calling_item(shared):
    real = shared / "reference" / "realworld"
    d = json.loads((real / PROGRAM).read_text(encoding="utf-8"))
    r = analyse((real / PROGRAM).read_text(encoding="utf-8"))
    (c,) = r["calls"]
    caller = c["caller"]
    k = int(caller["pointer"].rsplit("/", 1)[1])
    # the calling item is the program item whose call_id the caller names
    assert d["output"][k]["type"] == "program" == caller["type"]
    assert d["output"][k]["call_id"] == caller["caller_id"] == c["caller_id"]
    assert caller["line"] < c["line"]
    # in a stream: the calling item's event is named too
    r = analyse((real / PROGRAM_STREAM).read_text(encoding="utf-8"))
    (c,) = r["calls"]
    assert c["caller"]["type"] == "program" and isinstance(c["caller"]["event"], int)
    # a later response holds only the call: the link says why it is not drawn, never null
    r = analyse((real / LATER).read_text(encoding="utf-8"))
    (c,) = r["calls"]
    assert set(c["caller"]) == {"caller_id", "missing"} and "earlier response" in \
        c["caller"]["missing"]


def test_a_call_without_a_program_caller_has_no_caller_link():
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
            "status": "completed", "arguments": "{}", "caller": {"type": "model"}}
    r = analyse(json.dumps({"object": "response", "status": "completed", "output": [item]}))
    assert "caller" not in r["calls"][0]
