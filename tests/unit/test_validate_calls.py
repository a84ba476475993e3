"""Validate and function call items (issue 17): the answer says when the document is a call, the
parsed arguments are validated on request (``target: "arguments"``), and a strict schema is
drafted from examples (``POST /api/validate/draft``) — through the real server."""

from __future__ import annotations

import json

from workbench.limits import DEFAULT_LIMITS
from workbench.validate import validate_value
from workbench.validate.draft import draft_schema, id_pattern
from workbench.validate.review import review_schema

TOOL = json.dumps({
    "type": "function", "name": "lookup_order", "strict": True,
    "parameters": {"type": "object",
                   "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]-\\d{4}$"},
                                  "include_lines": {"type": "boolean"}},
                   "required": ["order_id", "include_lines"], "additionalProperties": False}}, indent=2)
ARGS = '{\n  "order_id": "1042",\n  "include_lines": true,\n  "refund": true\n}'
ITEM = json.dumps({"type": "function_call", "call_id": "call_3c91", "name": "lookup_order", "arguments": ARGS},
                  indent=2)
ACTION = json.dumps({"type": "function_call", "turn_id": "turn_2", "call_id": "call_3c91", "name": "lookup_order",
                     "arguments": json.loads(ARGS)}, indent=2)


def test_a_call_item_gets_a_hint_not_only_a_type_error(server):
    status, out = server.api("validate", {"document": ITEM, "schema": TOOL})
    assert status == 200, out
    assert out["valid"] is False and out["target"] == "document"
    h = out["hint"]
    assert h["kind"] == "function_call_arguments" and h["pointer"] == "/arguments"
    assert h["encoded"] == "string" and h["name"] == "lookup_order"
    assert 'target "arguments"' in h["message"]


def test_plain_arguments_get_no_hint(server):
    status, out = server.api("validate", {"document": ARGS, "schema": TOOL})
    assert status == 200 and "hint" not in out and out["count"] == 2


def test_target_arguments_validates_the_parsed_string(server):
    status, out = server.api("validate", {"document": ITEM, "schema": TOOL, "target": "arguments"})
    assert status == 200, out
    assert out["target"] == "arguments" and "hint" not in out
    assert [(e["pointer"], e["keyword"]) for e in out["errors"]] == [
        ("/order_id", "pattern"), ("/refund", "additionalProperties")]
    # placed in the arguments text (the string's own lines), which the answer carries
    a = out["arguments"]
    assert a["located_in"] == "arguments" and a["text"] == ARGS and a["pointer"] == "/arguments"
    assert [(e["line"], e["column"]) for e in out["errors"]] == [(2, 15), (4, 3)]
    # the same records as validating the arguments themselves
    status, direct = server.api("validate", {"document": ARGS, "schema": TOOL})
    assert [(e["pointer"], e["message"], e["line"]) for e in direct["errors"]] == \
        [(e["pointer"], e["message"], e["line"]) for e in out["errors"]]


def test_target_arguments_of_an_agents_action_places_errors_in_the_document(server):
    status, out = server.api("validate", {"document": ACTION, "schema": TOOL, "target": "arguments"})
    assert status == 200, out
    assert out["arguments"]["encoded"] == "object" and out["arguments"]["located_in"] == "document"
    lines = ACTION.splitlines()
    for e in out["errors"]:
        key = e["pointer"].lstrip("/")
        assert f'"{key}"' in lines[e["line"] - 1], (e, lines)


def test_target_arguments_picks_the_called_tool_from_a_list(server):
    other = {"type": "function", "name": "other", "parameters": {"type": "object"}}
    tools = json.dumps([other, json.loads(TOOL)])
    status, out = server.api("validate", {"document": ITEM, "schema": tools, "target": "arguments"})
    assert status == 200 and out["tool"] == "lookup_order" and out["count"] == 2


def test_target_arguments_refusals(server):
    status, out = server.api("validate", {"document": ARGS, "schema": TOOL, "target": "arguments"})
    assert status == 400 and out["error"]["code"] == "not_a_call" and out["error"]["field"] == "target"
    bad = json.dumps({"type": "function_call", "name": "f", "call_id": "c", "arguments": '{"a": 1,}'})
    status, out = server.api("validate", {"document": bad, "schema": TOOL, "target": "arguments"})
    assert status == 422 and out["error"]["code"] == "parse_error"
    assert out["error"]["message"].startswith("The arguments string at /arguments is not JSON")
    status, out = server.api("validate", {"document": ITEM, "schema": TOOL, "target": "item"})
    assert status == 400 and out["error"]["field"] == "target"


def test_arguments_warnings_are_given(server):
    args = '{"order_id": "A-1234", "include_lines": true, "n": 12345678901234567890}'
    item = json.dumps({"type": "function_call", "name": "lookup_order", "call_id": "c", "arguments": args})
    status, out = server.api("validate", {"document": item, "schema": "{}", "target": "arguments"})
    assert status == 200
    status, f = server.api("format", {"text": args})
    assert out["arguments"]["warnings"] == f["warnings"] and f["warnings"]


# --------------------------------------------------------------------------- drafting a strict schema

EXAMPLES = [
    {"order_id": "A-1042", "status": "open", "call_id": "call_8fK2abcd91", "qty": 2, "price": 19.99,
     "lines": [{"sku": "ABC-123", "n": 1}], "at": "2026-01-01T10:00:00Z"},
    {"order_id": "B-2210", "status": "open", "call_id": "call_Zx91pQrs22", "qty": 1, "price": 5,
     "lines": [], "at": "2026-01-02T10:00:00Z"},
    {"order_id": "C-0007", "status": "closed", "call_id": "call_0000aaaa11", "qty": 3, "price": 1.5,
     "lines": [{"sku": "XYZ-999", "n": 2}], "at": "2026-01-03T10:00:00Z"},
]


def test_draft_from_examples_is_strict_and_takes_its_examples(server):
    text = "\n".join(json.dumps(e) for e in EXAMPLES)
    status, out = server.api("validate/draft", {"examples": text})
    assert status == 200, out
    s = out["schema"]
    assert out["examples"] == 3 and out["all_valid"] is True and out["review"] == []
    assert s["additionalProperties"] is False and s["required"] == list(EXAMPLES[0])
    assert s["properties"]["order_id"]["pattern"] == "^[A-Z]-\\d{4}$"
    assert s["properties"]["call_id"]["pattern"] == "^call_[A-Za-z0-9]+$"
    assert s["properties"]["status"]["enum"] == ["open", "closed"]
    assert s["properties"]["qty"]["type"] == "integer" and s["properties"]["price"]["type"] == "number"
    item = s["properties"]["lines"]["items"]
    assert item["additionalProperties"] is False and item["required"] == ["sku", "n"]
    assert json.loads(out["text"]) == s
    # the draft really validates its examples, and the strict review finds nothing open
    for e in EXAMPLES:
        assert validate_value(s, e)["valid"]
    assert review_schema(s, strict=True, is_tool=True) == []
    # and it is strict: a made-up id and an extra key are refused
    wrong = {**EXAMPLES[0], "order_id": "1042", "refund": True}
    assert {e["keyword"] for e in validate_value(s, wrong)["errors"]} == {"pattern", "additionalProperties"}


def test_draft_from_a_call_item_as_a_strict_tool(server):
    status, out = server.api("validate/draft", {"examples": ITEM, "target": "arguments", "name": "lookup_order"})
    assert status == 200, out
    tool = out["schema"]
    assert tool["type"] == "function" and tool["strict"] is True and tool["name"] == "lookup_order"
    # the drafted tool validates the call's arguments through Validate itself
    status, v = server.api("validate", {"document": ITEM, "schema": out["text"], "target": "arguments"})
    assert status == 200 and v["valid"] is True and v["review"] == [], v


def test_draft_notes_a_key_missing_from_some_examples():
    schema, notes = draft_schema([{"a": 1, "b": "x"}, {"a": 2}])
    assert schema["required"] == ["a"]
    assert [n["code"] for n in notes] == ["not_always_present"] and notes[0]["pointer"] == "/properties/b"
    assert validate_value(schema, {"a": 2})["valid"]


def test_draft_refuses_what_is_not_json(server):
    status, out = server.api("validate/draft", {"examples": "{not json"})
    assert status == 422 and out["error"]["field"] == "examples"
    status, out = server.api("validate/draft", {})
    assert status == 400


def test_id_patterns():
    assert id_pattern(["A-1042", "B-99"]) == "^[A-Z]-\\d{2,4}$"
    assert id_pattern(["fc_68a1b2c3d4", "fc_0099zzXX"]) == "^fc_[A-Za-z0-9]+$"
    assert id_pattern(["2eb8aa08-aa98-11ea-b4aa-73b441d16380"]).startswith("^[0-9a-f]{8}-")
    assert id_pattern(["A-1", "1-A"]) is None
    for p in ("^[A-Z]-\\d{2,4}$", "^fc_[A-Za-z0-9]+$"):
        assert validate_value({"pattern": p}, "A-104", limits=DEFAULT_LIMITS)["count"] in (0, 1)


def test_plain_form_offers_and_runs_the_arguments(server):
    """Without JavaScript: the hint is a submit button of the form (target=arguments)."""
    from urllib.parse import urlencode
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _, html = server.request("POST", "/validate", urlencode({"document": ITEM, "schema": TOOL}).encode(), form)
    text = html.decode()
    assert status == 200 and 'id="call-hint"' in text and 'name="target" value="arguments"' in text
    body = urlencode({"document": ITEM, "schema": TOOL, "target": "arguments"}).encode()
    status, _, html = server.request("POST", "/validate", body, form)
    text = html.decode()
    assert status == 200 and "2 errors" in text and 'id="arguments-note"' in text
    assert 'data-pointer="/refund"' in text and 'id="call-hint"' not in text


# --------------------------------------------------------------------------- issue 27: the tool the call names

RECORDED = "reference/realworld/transcripts/156_llm__test_openai_responses__test_responses_round_trips_encrypted_reasoning__i2_request.json"


def recorded_call_and_tools(shared) -> tuple[str, str]:
    """A real request (simonw/llm's recording): tools [lookup_population, can_have_dragons] and
    a function_call to the second, whose arguments the first tool refuses."""
    body = json.loads((shared / RECORDED).read_text())
    call = next(x for x in body["input"] if x.get("type") == "function_call" and x["name"] == "can_have_dragons")
    assert [t["name"] for t in body["tools"]] == ["lookup_population", "can_have_dragons"]
    return json.dumps(call, indent=2), json.dumps(body["tools"], indent=2)


def test_a_call_is_checked_against_the_tool_it_names_for_either_target(client, shared):
    document, tools = recorded_call_and_tools(shared)
    r = client.post("/api/validate", json={"document": document, "schema": tools})
    out = r.get_json()
    assert r.status_code == 200 and out["tool"] == "can_have_dragons", out
    assert out["tools"] == ["lookup_population", "can_have_dragons"] and out["hint"]["name"] == "can_have_dragons"
    r = client.post("/api/validate", json={"document": document, "schema": tools, "target": "arguments"})
    out = r.get_json()
    assert (out["tool"], out["valid"], out["count"]) == ("can_have_dragons", True, 0)
    # a tool named in the request still wins
    r = client.post("/api/validate", json={"document": document, "schema": tools, "target": "arguments",
                                           "tool": "lookup_population"})
    out = r.get_json()
    assert (out["tool"], out["valid"]) == ("lookup_population", False)
    assert [(e["keyword"], e["pointer"]) for e in out["errors"]] == [("required", "/country")]


def test_the_plain_form_checks_the_called_tool(client, shared):
    """JavaScript off: the page's form (Tool left on its default) agrees with the API."""
    document, tools = recorded_call_and_tools(shared)
    page = client.post("/validate", data={"document": document, "schema": tools, "tool": ""}).get_data(as_text=True)
    assert "against can_have_dragons" in page and "· tool can_have_dragons" in page
    assert '<option value="" selected>can_have_dragons (named by the call)</option>' in page
    page = client.post("/validate", data={"document": document, "schema": tools, "tool": "",
                                          "target": "arguments"}).get_data(as_text=True)
    assert "Valid" in page and "· tool can_have_dragons" in page
    page = client.post("/validate", data={"document": document, "schema": tools, "tool": "lookup_population",
                                          "target": "arguments"}).get_data(as_text=True)
    assert "1 error" in page and "· tool lookup_population" in page
    assert '<option value="lookup_population" selected>' in page


def test_a_documents_warnings_are_listed_up_to_a_cap_and_counted():
    """Issue 25: as Format, Extract and Diff, Validate places and lists the first
    VALIDATE_MAX_WARNINGS of a document's warnings (placing is Python work per warning) and
    counts all of them."""
    import json as _json

    from workbench.limits import DEFAULT_LIMITS, VALIDATE_MAX_WARNINGS
    from workbench.validate import handle
    n = VALIDATE_MAX_WARNINGS + 250
    doc = "[" + ", ".join(str(2**60 + i) for i in range(n)) + "]"
    out = handle({"document": doc, "schema": _json.dumps({"type": "array"})}, DEFAULT_LIMITS)
    assert out["valid"] and out["warning_count"] == n and len(out["warnings"]) == VALIDATE_MAX_WARNINGS
    assert [w["pointer"] for w in out["warnings"][:2]] == ["/0", "/1"]
    small = handle({"document": "[9007199254740993, 1]", "schema": "{}"}, DEFAULT_LIMITS)
    assert small["warning_count"] == len(small["warnings"]) == 1
