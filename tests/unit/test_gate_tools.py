"""The one reader of tool definitions (workbench/tools.py) shared by Gate and Validate, and the
gate's refinements of replay-rules.md: arguments that are not an object, arguments compared as
parsed JSON, a tool named twice, namespaced tools named as they are called, a pasted non-item's
headline, a missing status, and the warnings Format gives for the arguments string."""

from __future__ import annotations

import json

import pytest

from workbench.errors import WorkbenchError
from workbench.gallery.items import NAMESPACE_TOOL, OK_ITEM, SALES_SCHEMA, SALES_TOOL
from workbench.gate import Gate, gate
from workbench.jsontext import parse
from workbench.tools import choose, read_tools

PARAMS = {"type": "object", "properties": {"q": {"type": "string", "minLength": 2}},
          "required": ["q"], "additionalProperties": False}
F = {"type": "function", "name": "f", "parameters": PARAMS}


def call(name="f", arguments="{\"q\":\"ok\"}", **extra) -> dict:
    item = {"type": "function_call", "id": "fc_1", "name": name, "call_id": "call_1",
            "status": "completed", "arguments": arguments}
    item.update(extra)
    return item


def api(client, name, **body):
    r = client.post(f"/api/{name}", json=body)
    return r.status_code, r.get_json()


def both(item, schema=None, original=None) -> dict:
    """The explained walk, checked against the verdict path (one engine)."""
    text = json.dumps(item)
    r = gate(text, schema, original)
    assert Gate(schema, original).verdict(parse(text).value) == r["verdict"]
    return r


# --------------------------------------------------------------------------- one reader

@pytest.mark.parametrize("value, kind, names, pointers, hosted", [
    (PARAMS, "parameters", [], [""], []),
    (F, "tools", ["f"], ["/parameters"], []),
    ({"type": "function", "function": {"name": "g", "parameters": PARAMS}}, "tools", ["g"],
     ["/function/parameters"], []),
    ({"name": "h", "parameters": PARAMS}, "tools", ["h"], ["/parameters"], []),
    ({"type": "web_search_2025_08_26"}, "tools", [], [], ["web_search_2025_08_26"]),
    ([{"type": "tool_search"}, F], "tools", ["f"], ["/1/parameters"], ["tool_search"]),
    ([{"type": "mcp", "server_label": "x"}, {"type": "code_interpreter"},
      {"type": "computer_use_preview"}, {"type": "file_search"}, {"type": "acme:thing"}, F],
     "tools", ["f"], ["/5/parameters"],
     ["mcp", "code_interpreter", "computer_use_preview", "file_search", "acme:thing"]),
    (NAMESPACE_TOOL, "tools", ["spawn_agent"], ["/tools/0/parameters"], []),
    ({"model": "m", "tools": [F], "input": []}, "tools", ["f"], ["/tools/0/parameters"], []),
    ({"agent": {"model": "m", "tools": [F]}}, "tools", ["f"], ["/agent/tools/0/parameters"], []),
    ({"session": {"agent": {"tools": [F]}}, "events": []}, "tools", ["f"],
     ["/session/agent/tools/0/parameters"], []),
])
def test_read_tools_every_shape(value, kind, names, pointers, hosted):
    t = read_tools(value)
    assert t.kind == kind and t.names() == names
    assert [d.pointer for d in t.tools] == pointers
    assert [h["type"] for h in t.hosted] == hosted


def test_namespaced_tools_are_two_fields_not_one_name():
    t = read_tools(NAMESPACE_TOOL)
    assert t.tools[0].namespace == "multi_agent_v1" and t.tools[0].name == "spawn_agent"
    assert t.tools[0].called_as() == "spawn_agent (namespace multi_agent_v1)"


@pytest.mark.parametrize("value", [[1], [{"type": "function", "parameters": {}}], "text",
                                   [{"type": "function", "name": "f", "parameters": 5}],
                                   {"type": "namespace", "name": "n"}])
def test_read_tools_refuses_what_is_not_a_tool_list(value):
    with pytest.raises(WorkbenchError) as exc:
        read_tools(value)
    assert exc.value.code == "schema_invalid" and exc.value.field == "schema"


def test_gate_and_validate_agree_on_a_list_with_a_hosted_tool(client):
    """Issue 11: [{"type":"tool_search"}, <function f>] was accepted by the Gate and refused by
    Validate (422).  Now Validate checks f's parameters and the Gate gates against f."""
    schema = json.dumps([{"type": "tool_search"}, F])
    status, v = api(client, "validate", document=json.dumps({"q": "x", "extra": 1}), schema=schema)
    assert status == 200, v
    assert v["tool"] == "f" and v["valid"] is False
    assert {(e["pointer"], e["keyword"]) for e in v["errors"]} == \
        {("/q", "minLength"), ("/extra", "additionalProperties")}
    assert all(e["schema_pointer"].startswith("/1/parameters") for e in v["errors"])
    status, ok = api(client, "validate", document=json.dumps({"q": "xy"}), schema=schema)
    assert status == 200 and ok["valid"] is True
    status, g = api(client, "gate", item=json.dumps(call(arguments="{\"q\":\"x\",\"extra\":1}")),
                    schema=schema)
    assert status == 200 and g["verdict"] == "arguments_schema"
    s = next(s for s in g["steps"] if s["check"] == "schema")
    assert s["tool"] == "f" and s["schema_at"] == "/1/parameters"
    assert {(f["path"], f["reason"]) for f in s["fail"]} == \
        {("/q", "minLength"), ("/extra", "additionalProperties")}
    assert g["verdict"] != "unknown_tool"
    status, g = api(client, "gate", item=json.dumps(call()), schema=schema)
    assert status == 200 and g["verdict"] == "ok"


def test_a_tool_named_twice_is_refused_by_both_views_naming_both_places(client):
    schema = json.dumps([F, {"type": "web_search"}, dict(F, description="again")], indent=2)
    for name, body in (("gate", {"item": json.dumps(call()), "schema": schema}),
                       ("validate", {"document": "{}", "schema": schema})):
        status, r = api(client, name, **body)
        assert status == 422, (name, r)
        e = r["error"]
        assert e["code"] == "schema_invalid" and e["field"] == "schema"
        assert [p["pointer"] for p in e["places"]] == ["/0", "/2"]
        for p in e["places"]:
            assert isinstance(p["line"], int) and isinstance(p["column"], int)
            assert "/" + str(p["pointer"][1:]) in e["message"]
            assert f"line {p['line']}, column {p['column']}" in e["message"]
        assert (e["line"], e["column"]) == (e["places"][1]["line"], e["places"][1]["column"])
        assert schema[e["offset"]] == "{"


def test_same_name_in_two_namespaces_is_not_a_duplicate():
    other = dict(NAMESPACE_TOOL, name="multi_agent_v2")
    t = read_tools([NAMESPACE_TOOL, other])
    assert [d.qualified() for d in t.tools] == ["multi_agent_v1.spawn_agent",
                                                "multi_agent_v2.spawn_agent"]
    item = call(name="spawn_agent", namespace="multi_agent_v2", arguments="{}")
    assert both(item, json.dumps([NAMESPACE_TOOL, other]))["verdict"] == "ok"


def test_validate_choose_picks_by_name_or_the_first():
    c = choose([{"type": "tool_search"}, F, dict(F, name="g")], "g")
    assert c.name == "g" and c.prefix == (2, "parameters")
    c = choose([{"type": "tool_search"}, F, dict(F, name="g")])
    assert c.name == "f" and c.notes[0]["code"] == "several_tools"
    assert choose(PARAMS).schema is PARAMS and choose(PARAMS).is_tool is False


# --------------------------------------------------------------------------- refinements

@pytest.mark.parametrize("arguments, shown", [
    ("null", "null"), ("[1,2]", "an array"), ("\"hello\"", "a string"),
    ("\"{\\\"q\\\":\\\"ok\\\"}\"", "a string"), ("7", "a number"), ("true", "a boolean")])
@pytest.mark.parametrize("schema", [None, json.dumps(F), json.dumps({})])
def test_arguments_that_are_not_an_object_fail_step_8(arguments, shown, schema):
    r = both(call(arguments=arguments), schema)
    assert r["verdict"] == "arguments_schema" and r["rule"]["number"] == 8
    s = next(s for s in r["steps"] if s["check"] == "schema")
    assert s["fail"][0]["path"] == "" and s["fail"][0]["reason"] == "type"
    assert shown in r["reason"] and "object" in r["reason"]


@pytest.mark.parametrize("replayed, verdict", [
    ("{\"q\":\"ok\"}", "ok"),
    ("{ \"q\" :  \"ok\" }", "ok"),                                # whitespace is not a change
    ("{\"q\":\"ok\",\"n\":1}", "replay_mismatch"),
    ("{\"q\":\"Paris\"}", "replay_mismatch"),                      # Lyon -> Paris is
])
def test_arguments_compared_as_parsed_json(replayed, verdict):
    original = call(arguments="{\"q\":\"ok\"}")
    r = both(call(arguments=replayed, id="fc_2"), None, json.dumps(original))
    assert r["verdict"] == verdict
    diff = next(s for s in r["steps"] if s["check"] == "diff")
    assert ("arguments" in diff["blocking"]) is (verdict == "replay_mismatch")


def test_key_order_and_exact_numbers_in_the_replay():
    original = json.dumps(call(arguments="{\"a\":1,\"b\":2.50}"))
    assert both(call(arguments="{\"b\":2.5,\"a\":1.0}"), None, original)["verdict"] == "ok"
    r = both(call(arguments="{\"a\":1,\"b\":2.5000000000000000001}"), None, original)
    assert r["verdict"] == "replay_mismatch"  # exact numbers: not the same value


def test_namespace_messages_never_contradict_the_verdict():
    schema = json.dumps(NAMESPACE_TOOL)
    for name in ("multi_agent_v1.spawn_agent", "multi_agent_v1__spawn_agent"):
        r = both(call(name=name, arguments="{}"), schema)
        assert r["verdict"] == "unknown_tool"
        s = next(s for s in r["steps"] if s["check"] == "schema")
        # every tool named as available really is available, called the way it is listed
        for listed in s["available"]:
            assert "." not in listed
            tname, _, ns = listed.partition(" (namespace ")
            ok = both(call(name=tname, namespace=ns.rstrip(")") or None, arguments="{}"), schema)
            assert ok["verdict"] == "ok"
        assert "namespace \"multi_agent_v1\" as two fields" in r["reason"]
    r = both(call(name="spawn_agent", namespace="multi_agent_v1", arguments="{}"), schema)
    assert r["verdict"] == "ok" and "multi_agent_v1.spawn_agent" not in r["reason"]


@pytest.mark.parametrize("pasted, label", [
    ([OK_ITEM], "a list of items"),
    ({"object": "response", "output": [OK_ITEM]}, "a whole response"),
    ({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}}]},
     "a Chat Completions response"),
    (42, None), ("function_call", None), ({"id": "x"}, None),
])
def test_a_pasted_non_item_says_what_was_pasted(pasted, label):
    r = both(pasted, SALES_SCHEMA)
    assert r["verdict"] == "namespaced"
    assert "colon" not in r["reason"] and "provider extension" not in r["reason"]
    if label is not None:
        assert r["reason"].startswith(f"The pasted JSON is {label}, not one item")
        assert "transcript" in r["reason"]
    else:
        assert r["reason"].startswith("The pasted")


def test_a_missing_status_is_explained_as_missing():
    item = {k: v for k, v in OK_ITEM.items() if k != "status"}
    r = both(item, SALES_SCHEMA)
    assert r["verdict"] == "status"
    assert r["reason"].startswith("status is missing") and "FunctionCallItemParam" in r["reason"]
    assert "in_progress" not in r["reason"]
    r = both(dict(OK_ITEM, status="in_progress"), SALES_SCHEMA)
    assert "in_progress" in r["reason"]


# --------------------------------------------------------------------------- warnings

@pytest.mark.parametrize("arguments", [
    "{\"region\":\"apac\",\"n\":12345678901234567890}",
    "{\"region\":\"apac\",\"s\":\"\\ud800\"}",
    "{\"region\":\"apac\",\"x\":1e999}",
    "{\"region\":\"apac\",\"x\":0.1000000000000000055511151231257827}",
])
def test_arguments_warnings_are_the_ones_format_gives(client, arguments):
    item = dict(OK_ITEM, arguments=arguments)
    status, r = api(client, "gate", item=json.dumps(item))
    assert status == 200
    status, f = api(client, "format", text=arguments)
    assert status == 200
    inside = [w for w in r["warnings"] if w.get("in") == "arguments"]
    assert [{k: v for k, v in w.items() if k != "in"} for w in inside] == f["warnings"]
    if "12345678901234567890" in arguments or "ud800" in arguments:
        assert inside  # these two Format warns about today; the others follow jsontext.warnings


def test_agents_arguments_warnings_come_with_the_item_text(client):
    from workbench.gallery.agents import LOOKUP_ORDER, PASSING_ACTION
    item = dict(PASSING_ACTION, arguments={"order_id": "A-1042", "include_lines": True,
                                           "n": 12345678901234567890})
    text = json.dumps(item)
    status, r = api(client, "gate", item=text, schema=json.dumps(LOOKUP_ORDER))
    status, f = api(client, "format", text=text)
    assert [w["code"] for w in r["warnings"]] == [w["code"] for w in f["warnings"]] != []
    assert SALES_TOOL["name"] not in r["reason"]
