"""The OpenAPI 3.1 description of the workbench's own HTTP API, served at /api/openapi.json.

Written by hand from docs/api.md so that outside tools (and the Schemathesis fuzz test) can
check the contract: field names, types, status codes and the error body.
"""

from __future__ import annotations

from .. import __version__
from .views import API, core_of


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _obj(required: list[str], **properties) -> dict:
    """An answer's object: the named fields typed, more fields allowed (answers grow)."""
    return {"type": "object", "required": required, "properties": properties}


STRING, INTEGER, BOOLEAN = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
PLACE = {"type": ["integer", "null"], "minimum": 1}  # a 1-based line or column, when there is one
ANY = {"type": ["object", "array", "string", "number", "boolean", "null"]}  # a piece of the user's data

# the shapes the answers share, each once (``#/components/schemas/…``)
COMPONENTS = {
    "Error": _obj(["code", "message"], code=STRING, message=STRING, field=STRING,
                  line={"type": "integer", "minimum": 1}, column={"type": "integer", "minimum": 1},
                  offset={"type": "integer", "minimum": 0}, snippet=STRING),
    "ErrorBody": _obj(["error"], error=ref("Error")),
    "Problem": {"description": "RFC 9457 problem details (Accept: application/problem+json), "
                               "the same error object beside them",
                **_obj(["type", "title", "status", "detail", "error"], type=STRING, title=STRING,
                       status={"type": "integer", "minimum": 400, "maximum": 599}, detail=STRING,
                       error=ref("Error"))},
    "Warning": _obj(["code", "message", "pointer"], code=STRING, message=STRING, pointer=STRING,
                    line=PLACE, column=PLACE),
    "Finding": _obj(["code", "severity", "message", "pointer", "line", "column"], code=STRING,
                    severity={"type": "string", "enum": ["error", "warning", "info"]},
                    message=STRING, pointer={"type": ["string", "null"]}, line=PLACE, column=PLACE,
                    related={"type": "array", "items": {"type": "object"}}),
    "Call": _obj(["pointer", "line", "column", "dialect", "name", "call_id", "verdict"],
                 pointer=STRING, line=PLACE, column=PLACE, dialect=STRING,
                 name={"type": ["string", "null"]}, call_id={"type": ["string", "null"]},
                 turn_id={"type": ["string", "null"]}, verdict={"type": ["string", "null"]},
                 role={"type": "string", "enum": ["pending", "history"]}),
    "Match": _obj(["path", "pointer", "value", "json"], path=STRING, pointer=STRING, value=ANY,
                  json=STRING, line=PLACE, column=PLACE),
    "ValidationError": _obj(["pointer", "keyword", "message", "schema_pointer"], pointer=STRING,
                            keyword=STRING, message=STRING, schema_pointer=STRING,
                            line=PLACE, column=PLACE),
    "Change": _obj(["op", "pointer"], op={"type": "string", "enum": ["add", "remove", "replace", "move"]},
                   pointer=STRING),
    "PatchOperation": _obj(["op", "path"], op={"type": "string", "enum": [
                               "add", "remove", "replace", "move", "copy", "test"]},
                           path=STRING, value=ANY, **{"from": STRING}),
    "Step": _obj(["check", "status"], check=STRING,
                 status={"type": "string", "enum": ["pass", "fail", "skipped"]}),
}


def _list(name: str) -> dict:
    return {"type": "array", "items": ref(name)}


ENDPOINTS = {
    "format": {
        "summary": "Format or minify JSON exactly",
        "response": _obj(["formatted", "warnings"], formatted=STRING, warnings=_list("Warning")),
        # ``answer: "text"``: the formatted text itself, the rest of the answer in headers
        "text": {"schema": STRING, "headers": {
            name: {"description": what, "schema": STRING} for name, what in (
                ("Workbench-Warnings", "the first warnings (JSON, ASCII) that fit in 16 kB"),
                ("Workbench-Warning-Count", "all the warnings (JSON: a number)"),
                ("Workbench-Truncated", "true when Workbench-Warnings lists fewer than all"),
                ("Workbench-Stats", "chars_in, chars_out, lines_out (a JSON object)"))}},
    },
    "extract": {
        "summary": "Evaluate an RFC 9535 JSONPath expression",
        "response": _obj(["matches", "count"], matches=_list("Match"), count=INTEGER),
    },
    "validate": {
        "summary": "Validate a document against a JSON Schema (nothing fetched)",
        "response": _obj(["valid", "errors", "draft"], valid=BOOLEAN, errors=_list("ValidationError"),
                         draft=STRING, warnings=_list("Warning")),
    },
    "diff": {
        "summary": "Semantic diff of two documents with an RFC 6902 patch",
        "response": _obj(["equal", "changes", "patch"], equal=BOOLEAN, changes=_list("Change"),
                         patch=_list("PatchOperation")),
    },
    "gate": {
        "summary": "Gate one Open Responses item: may this tool call be replayed?",
        "response": _obj(["verdict", "execute", "steps", "function_call_output"],
                         verdict={"type": "string", "enum": [
                             "namespaced", "not_function_call", "status", "missing_fields",
                             "arguments_type", "arguments_parse", "unknown_tool",
                             "arguments_schema", "replay_mismatch", "ok"]},
                         execute=BOOLEAN, steps=_list("Step"), dialect=STRING,
                         function_call_output={"type": ["object", "null"]}),
    },
    "validate/draft": {
        "summary": "Draft a strict schema from example documents (shown for editing, never applied)",
        "response": _obj(["schema"], schema={"type": ["object", "boolean"]}, text=STRING),
    },
    "transcript": {
        "summary": "Check a transcript, stream or session: pairing, state, streams, every call gated",
        "response": _obj(["kind", "calls", "findings", "items", "chain"], kind=STRING,
                         calls=_list("Call"), findings=_list("Finding"),
                         items={"type": "array", "items": {"type": "object"}},
                         chain={"type": ["object", "null"]}),
    },
    "convert": {
        "summary": "Convert a transcript to another dialect: pairs kept, arguments exact, what "
                   "cannot travel listed, the result checked by the target's rules",
        "response": _obj(["from", "to", "text", "not_portable", "findings", "clean"],
                         **{"from": STRING}, to=STRING, text=STRING,
                         not_portable={"type": "array", "items": _obj(
                             ["pointer", "line", "column", "what", "message"], pointer=STRING,
                             line=PLACE, column=PLACE, what=STRING, message=STRING)},
                         findings=_list("Finding"), clean=BOOLEAN,
                         notes={"type": "array", "items": {"type": "object"}},
                         summary={"type": "object"}),
    },
    "redact": {
        "summary": "Replace every value by a typed placeholder, equal values equal (copy redacted)",
        "response": _obj(["text", "replaced"], text=STRING, replaced=INTEGER,
                         counts={"type": "object"}, form={"type": "string", "enum": ["json", "jsonl", "sse"]}),
    },
}

# the refusals every POST of the API may answer, each with the error body (or, asked for, the
# problem details)
REFUSALS = {
    "400": "malformed request: body not JSON, a field missing or of the wrong type, an unknown option",
    "403": "not from this machine's own pages",
    "413": "body over the limit",
    "415": "a body whose Content-Type is not JSON",
    "422": "content that cannot be processed",
}


def _refusal(description: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": ref("ErrorBody")},
                        "application/problem+json": {"schema": ref("Problem")}}}


def _result(e: dict) -> dict:
    """The 200 answer: the answer object, and for Format's ``answer: "text"`` the text itself."""
    out = {"description": "the result", "content": {"application/json": {"schema": e["response"]}}}
    if "text" in e:
        out["description"] += ('; with "answer": "text", the formatted text itself (text/plain), '
                               "every other member of the answer in a Workbench-* header")
        out["content"]["text/plain"] = {"schema": e["text"]["schema"]}
        out["headers"] = e["text"]["headers"]
    return out


def spec() -> dict:
    paths, schemas = {}, dict(COMPONENTS)
    for path in API:  # every POST route; a route without a description here is a KeyError
        name = path.removeprefix("/api/")
        e = ENDPOINTS[name]
        # the request fields come from the core's declaration (workbench/fields.py)
        request_name = "".join(part.title() for part in name.split("/")) + "Request"
        schemas[request_name] = core_of(f"/api/{name}").REQUEST.json_schema()
        paths[f"/api/{name}"] = {"post": {
            "operationId": name.replace("/", "_"),
            "summary": e["summary"],
            "requestBody": {"required": True, "content": {"application/json": {"schema": ref(request_name)}}},
            "responses": {
                "200": _result(e),
                **{status: _refusal(text) for status, text in REFUSALS.items()},
            },
        }}
    return {
        "openapi": "3.1.0",
        "info": {"title": "JSON Workbench API", "version": __version__,
                 "description": "Documents travel as text; every error is a 4xx with the error body."},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": schemas},
    }
