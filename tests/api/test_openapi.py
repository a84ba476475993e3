"""The OpenAPI document (/api/openapi.json, issue 26): valid OpenAPI 3.1 by a validator, every
field typed, the shared shapes reusable components, and the API takes what it declares
(``indent: 2.0`` is an integer to JSON Schema, so it is one to the API)."""

from __future__ import annotations

import json

import pytest
from openapi_spec_validator import validate

from workbench.web.openapi import spec


@pytest.fixture(scope="module")
def document(server):
    status, _, body = server.get("/api/openapi.json")
    assert status == 200
    return json.loads(body)


def test_the_document_is_valid_openapi_3_1(document):
    validate(document)  # raises on any fault
    assert document["openapi"].startswith("3.1")


def untyped(schema: dict, where: str):
    """Every place in ``schema`` (properties, items, branches) that says nothing of its type."""
    if "$ref" in schema:
        return
    branches = schema.get("oneOf", []) + schema.get("anyOf", [])
    if branches:
        for i, branch in enumerate(branches):
            yield from untyped(branch, f"{where}/oneOf/{i}")
    elif "type" not in schema:
        yield where
    for name, sub in schema.get("properties", {}).items():
        yield from untyped(sub, f"{where}/{name}")
    if isinstance(schema.get("items"), dict):
        yield from untyped(schema["items"], f"{where}/items")


def test_every_field_is_typed(document):
    missing = [w for name, schema in document["components"]["schemas"].items()
               for w in untyped(schema, name)]
    for path, item in document["paths"].items():
        for status, answer in item["post"]["responses"].items():
            for media, content in answer.get("content", {}).items():
                missing += untyped(content["schema"], f"{path} {status} {media}")
    assert not missing, missing


def test_the_shared_shapes_are_components_used_by_reference(document):
    schemas = document["components"]["schemas"]
    for name in ("Error", "Problem", "Warning", "Finding", "Call", "Match", "Change"):
        assert name in schemas
    text = json.dumps(document["paths"])
    for name in ("ErrorBody", "Problem", "Warning", "Finding", "Call", "FormatRequest"):
        assert f'"#/components/schemas/{name}"' in text
    refusals = document["paths"]["/api/format"]["post"]["responses"]
    assert {"400", "403", "413", "415", "422"} <= set(refusals)
    assert refusals["415"]["content"]["application/problem+json"]["schema"] == {
        "$ref": "#/components/schemas/Problem"}


def test_limit_and_tool_are_typed(document):
    schemas = document["components"]["schemas"]
    assert schemas["ExtractRequest"]["properties"]["limit"]["type"] == "integer"
    assert schemas["ValidateRequest"]["properties"]["tool"]["type"] == ["string", "integer"]


@pytest.mark.parametrize("name, body, check", [
    ("format", {"text": "[1]", "indent": 2.0}, lambda a: a["formatted"] == "[\n  1\n]"),
    ("format", {"text": "[1]", "indent": 0.0}, lambda a: a["formatted"] == "[1]"),
    ("extract", {"document": "[1, 2, 3]", "path": "$[*]", "limit": 2.0},
     lambda a: a["count"] == 3 and len(a["matches"]) == 2),
])
def test_a_whole_valued_number_is_taken_where_an_integer_is(server, name, body, check):
    status, answer = server.api(name, body)
    assert status == 200, answer
    assert check(answer)


@pytest.mark.parametrize("name, body, field", [
    ("format", {"text": "[1]", "indent": 2.5}, "indent"),
    ("extract", {"document": "[1]", "path": "$", "limit": 1.5}, "limit"),
])
def test_a_fraction_is_still_refused(server, name, body, field):
    status, answer = server.api(name, body)
    assert status == 400 and answer["error"]["field"] == field


def test_the_in_process_document_is_the_served_one(document):
    assert json.loads(json.dumps(spec())) == document
