"""The keyword tables of the schema compiler: which keywords it leaves to jsonschema, which
branch, which apply to one type, and the type tests it writes."""

from __future__ import annotations

import re
from decimal import Decimal

from ..numbers import is_integral

_NUM = frozenset({int, float, Decimal})

UNSUPPORTED = frozenset({"$recursiveRef", "$dynamicRef", "unevaluatedItems", "unevaluatedProperties"})
BRANCHING = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "$ref", "contains", "dependencies",
                        "dependentSchemas"})
GROUP = {
    "properties": "object", "patternProperties": "object", "additionalProperties": "object",
    "required": "object", "minProperties": "object", "maxProperties": "object",
    "propertyNames": "object", "dependencies": "object", "dependentRequired": "object",
    "dependentSchemas": "object",
    "items": "array", "prefixItems": "array", "additionalItems": "array", "contains": "array",
    "minItems": "array", "maxItems": "array", "uniqueItems": "array",
    "minLength": "string", "maxLength": "string", "pattern": "string",
    "minimum": "number", "maximum": "number", "exclusiveMinimum": "number",
    "exclusiveMaximum": "number", "multipleOf": "number",
}
GUARD = {"object": "t is dict", "array": "t is list", "string": "t is str", "number": "t in NUM"}
TYPE_OF_GROUP = {"object": ("object",), "array": ("array",), "string": ("string",),
                  "number": ("number", "integer")}
TYPE_EXPR = {
    "null": "v is None",
    "boolean": "t is bool",
    "object": "t is dict",
    "array": "t is list",
    "string": "t is str",
    "number": "t in NUM",
    "integer": "(t is int or (t in NUMF and isint(v)))",
}
MAX_FUNCTIONS = 5000
#: keywords that check the value itself without descending: a subschema of only these is a
#: "leaf", whose checks are written inline into a parent's property checks (no call)
LEAF = frozenset({"type", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
                   "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
                   "minItems", "maxItems", "minProperties", "maxProperties", "required",
                   "uniqueItems"})
INLINE_PROPERTIES = 24
WORD_V = re.compile(r"\bv\b")
WORD_T = re.compile(r"\bt\b")
MAX_UNROLL = 256


def is_num(v) -> bool:
    return type(v) in _NUM


def is_count(v) -> bool:
    return type(v) in _NUM and is_integral(v) and v >= 0

