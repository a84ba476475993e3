"""The dialects Validate knows, and the one registry that fetches nothing.

* :data:`DIALECTS` maps each supported ``$schema`` URI to its draft name; :func:`dialect_of`
  reads a URI (an empty fragment and http/https ignored); :func:`normalize_draft` reads the
  ``draft`` option (``"7"``, ``"draft-07"``, ``"2020-12"`` …).
* :data:`NO_NETWORK` is the ``referencing.Registry`` every validator starts from: its
  ``retrieve`` refuses every URI, so nothing outside the schema and the bundled metaschemas ever
  resolves (no network, no disk).
* :data:`VOCABULARIES`: the keywords of each 2019-09 / 2020-12 vocabulary (for metaschemas that
  declare ``$vocabulary``).
* :func:`subschemas`: the one table of the keywords whose values are subschemas (the reference
  check, the strictness review and the pointer walk all read it).
"""

from __future__ import annotations

import referencing
import referencing.jsonschema
from referencing.exceptions import NoSuchResource

from ..errors import bad_request

SUPPORTED = "2020-12, 2019-09, draft-07, draft-06 and draft-04"

DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "https://json-schema.org/draft/2019-09/schema": "2019-09",
    "http://json-schema.org/draft-07/schema": "draft-07",
    "http://json-schema.org/draft-06/schema": "draft-06",
    "http://json-schema.org/draft-04/schema": "draft-04",
}
DRAFT_URIS = {v: k for k, v in DIALECTS.items()}
DRAFT_ALIASES = {
    "2020-12": "2020-12", "draft2020-12": "2020-12", "draft-2020-12": "2020-12",
    "2019-09": "2019-09", "draft2019-09": "2019-09", "draft-2019-09": "2019-09",
    "7": "draft-07", "draft7": "draft-07", "draft-07": "draft-07", "draft-7": "draft-07",
    "6": "draft-06", "draft6": "draft-06", "draft-06": "draft-06", "draft-6": "draft-06",
    "4": "draft-04", "draft4": "draft-04", "draft-04": "draft-04", "draft-4": "draft-04",
}


def dialect_of(uri: str) -> str | None:
    """The draft a ``$schema`` URI names (an empty fragment and http/https ignored), or None."""
    if not isinstance(uri, str):
        return None
    u = uri.strip()
    if u.endswith("#"):
        u = u[:-1]
    found = DIALECTS.get(u)
    if found is None and u.startswith("https://json-schema.org/draft-0"):
        found = DIALECTS.get("http://" + u[len("https://"):])
    if found is None and u.startswith("http://json-schema.org/draft/20"):
        found = DIALECTS.get("https://" + u[len("http://"):])
    return found


def normalize_draft(draft: str) -> str:
    """The draft name of the ``draft`` option; 400 ``bad_option`` for an unknown one."""
    found = DRAFT_ALIASES.get(str(draft).strip().lower())
    if found is None:
        raise bad_request(f"Unknown draft {draft!r}: use one of {SUPPORTED}", field="draft", code="bad_option")
    return found


def specification(draft: str):
    """The ``referencing`` specification of a draft."""
    return referencing.jsonschema.specification_with(DRAFT_URIS[draft])


def _refuse(uri: str):
    raise NoSuchResource(ref=uri)


#: resolves nothing by itself: combined with the bundled metaschemas, and never fetches
NO_NETWORK = referencing.Registry(retrieve=_refuse)


def with_metaschemas(registry):
    """``registry`` plus the bundled metaschemas (for a ``$schema`` naming a custom metaschema)."""
    from jsonschema_specifications import REGISTRY as SPECIFICATIONS
    return SPECIFICATIONS.combine(registry)


# --------------------------------------------------------------------------- subschema keywords

#: keywords whose value is one subschema
IN_VALUE = ("additionalItems", "additionalProperties", "contains", "contentSchema", "else", "if", "items",
            "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties")
#: keywords whose value is an array of subschemas (``items`` up to 2019-09)
IN_ARRAY = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
#: keywords whose value is an object of subschemas (``dependencies``: those members that are schemas)
IN_VALUES = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties", "dependencies")


def subschemas(node: dict):
    """``(keyword, key or index or None, subschema)`` of every object subschema directly inside
    the schema object ``node``: the one table of where subschemas sit."""
    for kw in IN_VALUE:
        v = node.get(kw)
        if isinstance(v, dict):
            yield kw, None, v
    for kw in IN_ARRAY:
        v = node.get(kw)
        if isinstance(v, list):
            for i, s in enumerate(v):
                if isinstance(s, dict):
                    yield kw, i, s
    for kw in IN_VALUES:
        v = node.get(kw)
        if isinstance(v, dict):
            for k, s in v.items():
                if isinstance(s, dict):
                    yield kw, k, s


# keywords of each 2019-09 / 2020-12 vocabulary (for metaschemas that declare $vocabulary)
VOCABULARIES = {
    "2020-12": {
        "https://json-schema.org/draft/2020-12/vocab/core":
            {"$id", "$schema", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs"},
        "https://json-schema.org/draft/2020-12/vocab/applicator":
            {"prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
             "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not"},
        "https://json-schema.org/draft/2020-12/vocab/unevaluated": {"unevaluatedItems", "unevaluatedProperties"},
        "https://json-schema.org/draft/2020-12/vocab/validation":
            {"type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
             "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains",
             "minContains", "maxProperties", "minProperties", "required", "dependentRequired"},
        "https://json-schema.org/draft/2020-12/vocab/format-annotation": {"format"},
        "https://json-schema.org/draft/2020-12/vocab/format-assertion": {"format"},
        "https://json-schema.org/draft/2020-12/vocab/content": {"contentEncoding", "contentMediaType", "contentSchema"},
        "https://json-schema.org/draft/2020-12/vocab/meta-data":
            {"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples"},
    },
    "2019-09": {
        "https://json-schema.org/draft/2019-09/vocab/core":
            {"$id", "$schema", "$ref", "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment", "$defs"},
        "https://json-schema.org/draft/2019-09/vocab/applicator":
            {"additionalItems", "unevaluatedItems", "items", "contains", "additionalProperties",
             "unevaluatedProperties", "properties", "patternProperties", "dependentSchemas", "propertyNames",
             "if", "then", "else", "allOf", "anyOf", "oneOf", "not"},
        "https://json-schema.org/draft/2019-09/vocab/validation":
            {"type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
             "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains",
             "minContains", "maxProperties", "minProperties", "required", "dependentRequired"},
        "https://json-schema.org/draft/2019-09/vocab/format": {"format"},
        "https://json-schema.org/draft/2019-09/vocab/content": {"contentEncoding", "contentMediaType", "contentSchema"},
        "https://json-schema.org/draft/2019-09/vocab/meta-data":
            {"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples"},
    },
}

