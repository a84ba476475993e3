"""The OpenAPI 3.1 description of the workbench's own HTTP API, served at /api/openapi.json.

Written by hand from docs/api.md so that outside tools (and the Schemathesis fuzz test) can
check the contract: field names, types, status codes and the error body.
"""

from __future__ import annotations

from .. import __version__
from .routes import core_of



ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "field": {"type": "string"},
                "line": {"type": "integer", "minimum": 1},
                "column": {"type": "integer", "minimum": 1},
                "offset": {"type": "integer", "minimum": 0},
                "snippet": {"type": "string"},
            },
        }
    },
}

WARNING = {
    "type": "object",
    "required": ["code", "message", "pointer"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                   "pointer": {"type": "string"}, "line": {"type": "integer"},
                   "column": {"type": "integer"}},
}

ENDPOINTS = {
    "format": {
        "summary": "Format or minify JSON exactly",
        "response": {"required": ["formatted", "warnings"], "properties": {
            "formatted": {"type": "string"}, "warnings": {"type": "array", "items": WARNING}}},
    },
    "extract": {
        "summary": "Evaluate an RFC 9535 JSONPath expression",
        "response": {"required": ["matches", "count"], "properties": {
            "matches": {"type": "array", "items": {"type": "object",
                                                   "required": ["path", "pointer", "value", "json"]}},
            "count": {"type": "integer"}}},
    },
    "validate": {
        "summary": "Validate a document against a JSON Schema (nothing fetched)",
        "response": {"required": ["valid", "errors", "draft"], "properties": {
            "valid": {"type": "boolean"},
            "errors": {"type": "array", "items": {"type": "object", "required": [
                "pointer", "keyword", "message", "schema_pointer"]}},
            "draft": {"type": "string"}}},
    },
    "diff": {
        "summary": "Semantic diff of two documents with an RFC 6902 patch",
        "response": {"required": ["equal", "changes", "patch"], "properties": {
            "equal": {"type": "boolean"},
            "changes": {"type": "array", "items": {"type": "object", "required": ["op", "pointer"],
                                                   "properties": {"op": {"enum": [
                                                       "add", "remove", "replace", "move"]}}}},
            "patch": {"type": "array", "items": {"type": "object", "required": ["op", "path"]}}}},
    },
    "gate": {
        "summary": "Gate one Open Responses item: may this tool call be replayed?",
        "response": {"required": ["verdict", "execute", "steps", "function_call_output"], "properties": {
            "verdict": {"type": "string", "enum": [
                "namespaced", "not_function_call", "status", "missing_fields", "arguments_type",
                "arguments_parse", "unknown_tool", "arguments_schema", "replay_mismatch", "ok"]},
            "execute": {"type": "boolean"},
            "steps": {"type": "array", "items": {"type": "object", "required": ["check", "status"]}},
            "function_call_output": {"type": ["object", "null"]}}},
    },
    "validate/draft": {
        "summary": "Draft a strict schema from example documents (shown for editing, never applied)",
        "response": {"required": ["schema"], "properties": {"schema": {"type": "object"}}},
    },
    "transcript": {
        "summary": "Check a transcript, stream or session: pairing, state, streams, every call gated",
        "response": {"required": ["kind", "calls", "findings", "items", "chain"], "properties": {
            "kind": {"type": "string", "enum": [
                "response", "item_list", "response_stream", "chat_completion", "chat_messages",
                "chat_stream", "agents_session", "item"]},
            "calls": {"type": "array", "items": {"type": "object", "required": [
                "pointer", "line", "column", "dialect", "name", "call_id", "verdict"]}},
            "findings": {"type": "array", "items": {"type": "object", "required": [
                "code", "severity", "message", "pointer", "line", "column"], "properties": {
                "severity": {"enum": ["error", "warning", "info"]}}}},
            "items": {"type": "array"},
            "chain": {"type": ["object", "null"]}}},
    },
}


def spec() -> dict:
    paths = {}
    for name, e in ENDPOINTS.items():
        # the request fields come from the core's declaration (workbench/fields.py)
        request_schema = core_of(f"/api/{name}").REQUEST.json_schema()
        paths[f"/api/{name}"] = {"post": {
            "operationId": name.replace("/", "_"),
            "summary": e["summary"],
            "requestBody": {"required": True, "content": {"application/json": {"schema": request_schema}}},
            "responses": {
                "200": {"description": "the result",
                        "content": {"application/json": {"schema": {"type": "object", **e["response"]}}}},
                "400": {"description": "malformed request", "content": {"application/json": {"schema": ERROR}}},
                "403": {"description": "not from this machine's own pages", "content": {"application/json": {"schema": ERROR}}},
                "413": {"description": "body over the limit", "content": {"application/json": {"schema": ERROR}}},
                "422": {"description": "content that cannot be processed", "content": {"application/json": {"schema": ERROR}}},
            },
        }}
    return {
        "openapi": "3.1.0",
        "info": {"title": "JSON Workbench API", "version": __version__,
                 "description": "Documents travel as text; every error is a 4xx with the error body."},
        "servers": [{"url": "/"}],
        "paths": paths,
    }
