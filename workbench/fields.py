"""A request's fields, declared once per endpoint: read (and type-checked) by the core, turned into
form fields by the web layer, and described by the OpenAPI document from the same declaration.

Each view core declares ``REQUEST = Fields(Field(...), ...)`` and starts ``handle`` with
``values = REQUEST.read(body)``; deeper checks (an indent of 0–8, a known engine) stay in the core.
"""

from __future__ import annotations

from .errors import require

_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number", list: "array", dict: "object"}
_JSON_TYPES = {**_TYPES, type(None): "null"}


class Field:
    """One field of a request body (a plain class: no dataclasses import at start-up, issue 25).

    ``text``: the user's text, kept exactly as typed (a file upload may fill it); ``what``: for
    the error message ("'indent' must be <what>"); ``schema``: extra JSON Schema for the OpenAPI
    description."""

    __slots__ = ("name", "kind", "required", "default", "text", "what", "doc", "schema")

    def __init__(self, name: str, kind: type | tuple = str, required: bool = False, default: object = None,
                 text: bool = False, what: str = "", doc: str = "", schema: dict | None = None):
        for key, value in (("name", name), ("kind", kind), ("required", required), ("default", default),
                           ("text", text), ("what", what), ("doc", doc),
                           ("schema", {} if schema is None else schema)):
            object.__setattr__(self, key, value)

    def __setattr__(self, name, value):
        raise AttributeError("a Field is immutable")

    def __reduce__(self):   # pickled by its values
        return Field, tuple(getattr(self, k) for k in Field.__slots__)

    def __eq__(self, other):
        return (type(other) is Field
                and all(getattr(self, k) == getattr(other, k) for k in Field.__slots__))

    __hash__ = None  # (its schema is a dict)

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.kind!r})"

    def describe(self) -> str:
        if self.what:
            return self.what
        if self.text:
            return "a string holding JSON text"
        return {str: "a string", bool: "true or false", int: "a whole number",
                list: "a list"}.get(self.kind, "a value") if isinstance(self.kind, type) else "a value"

    @property
    def takes_integer(self) -> bool:
        """Does the declared type admit a whole number (the field's kind, or its JSON Schema)?"""
        def admits(schema: dict) -> bool:
            kinds = schema.get("type", ())
            return ("integer" in kinds if isinstance(kinds, list) else kinds == "integer") or any(
                admits(branch) for branch in schema.get("oneOf", []) + schema.get("anyOf", []))
        return self.kind is int or admits(self.schema)

    def read(self, body: dict) -> object:
        if self.required:
            return require(body, self.name, self.kind, what=self.describe())
        return require(body, self.name, self.kind, default=self.default, what=self.describe())

    def json_schema(self) -> dict:
        out: dict = {}
        if self.kind in _TYPES:
            out["type"] = _TYPES[self.kind]
        elif "enum" in self.schema and "type" not in self.schema:  # typed by its values
            out["type"] = sorted({_JSON_TYPES[type(v)] for v in self.schema["enum"]})
        if self.text:
            out["description"] = "the user's text exactly as typed"
        elif self.doc:
            out["description"] = self.doc
        if not self.required and self.default is not None:
            out["default"] = self.default
        out.update(self.schema)
        return out


class Fields:
    """The fields of one endpoint's request body, in order."""

    def __init__(self, *fields: Field):
        self.fields = fields
        self.by_name = {f.name: f for f in fields}

    def read(self, body: dict, skip: tuple = ()) -> dict:
        """Every declared field of ``body`` (but those named in ``skip``): required ones checked
        present, all type-checked, defaults filled in.  Undeclared fields are ignored.

        A whole-valued number (``2.0``) in a field whose type admits integers is that integer,
        in ``body`` too: JSON Schema, and so the OpenAPI document, calls ``2.0`` an integer."""
        for f in self.fields:
            value = body.get(f.name)
            if type(value) is float and value.is_integer() and f.takes_integer:
                body[f.name] = int(value)
        return {f.name: f.read(body) for f in self.fields if f.name not in skip}

    @property
    def text_fields(self) -> list[str]:
        return [f.name for f in self.fields if f.text]

    @property
    def list_fields(self) -> list[str]:
        """Fields that take a list of strings (a form's textarea sends them as lines)."""
        return [f.name for f in self.fields if f.schema.get("type") == "array" or f.kind is list]

    def json_schema(self) -> dict:
        return {"type": "object", "required": [f.name for f in self.fields if f.required],
                "properties": {f.name: f.json_schema() for f in self.fields}}
