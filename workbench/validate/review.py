"""Strictness review of a tool's parameters schema: the doors a model's arguments can walk
through.  Warnings only (the schema is valid either way), each ``{code, message, pointer}``
with the pointer into the reviewed schema:

* ``open_object``: an object without ``additionalProperties: false`` accepts any extra key;
* ``optional_property``: a property not listed in ``required`` may be left out (OpenAI's
  strict mode requires every property to be required; optional ones are made nullable);
* ``free_id_string``: a string whose name says id, code or key (``order_id``, ``id``,
  ``country_code``, ``api_key``, …) with no ``pattern``, ``enum``, ``const`` or ``format``;
* ``not_object``: a tool's arguments are a JSON object, but the schema does not say so.
"""

from __future__ import annotations

import re

from ..jsontext import pointer_of
from .dialects import subschemas

_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
ID_WORDS = {"id", "ids", "uuid", "uuids", "guid", "code", "codes", "key", "keys", "sku", "skus", "slug",
            "iban", "isbn", "ean", "upc", "ssn", "vin"}
#: subschemas the walk leaves alone (properties are walked with their names above)
_NOT_WALKED = frozenset({"properties", "propertyNames", "contentSchema", "dependencies"})
#: subschemas that describe the same value as their parent: they keep its property name
_SAME_VALUE = frozenset({"items", "allOf", "anyOf", "oneOf", "prefixItems", "if", "then", "else", "not"})


def looks_like_id(name: str) -> bool:
    """``order_id``, ``orderId``, ``ID``, ``country_code``, ``zipcode``, ``api_key``, ``sku`` …"""
    if not isinstance(name, str) or not name:
        return False
    words = [w.lower() for w in _WORDS.findall(name)]
    if any(w in ID_WORDS for w in words):
        return True
    return any(w.endswith("code") for w in words)


def _types(node: dict) -> set:
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _is_object_schema(node: dict) -> bool:
    types = _types(node)
    if types:
        return "object" in types
    return any(k in node for k in ("properties", "required", "patternProperties"))


def _free_string(node) -> bool:
    if not isinstance(node, dict):
        return False
    types = _types(node)
    if "string" not in types:
        return False
    return not any(k in node for k in ("pattern", "enum", "const", "format"))


def review_schema(schema, *, strict: bool = False, is_tool: bool = True, limit: int = 1000) -> list[dict]:
    """Warnings for the doors ``schema`` leaves open (see the module doc)."""
    out: list[dict] = []
    if not isinstance(schema, dict):
        return out
    if is_tool and not _types(schema) and not _is_object_schema(schema) and "$ref" not in schema:
        out.append({"code": "not_object", "pointer": "",
                    "message": "The parameters schema does not say \"type\": \"object\": tool arguments "
                               "are an object, and this schema also accepts any other JSON"})
    elif is_tool and _types(schema) and "object" not in _types(schema):
        out.append({"code": "not_object", "pointer": "",
                    "message": f"The parameters schema has \"type\": {sorted(_types(schema))}; tool arguments "
                               "are a JSON object"})
    strict_note = " (strict mode requires it)" if strict else ""
    seen: set = set()
    stack: list = [(schema, (), None)]
    while stack and len(out) < limit:
        node, parts, name = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        where = pointer_of(parts) or "the root"
        if _is_object_schema(node):
            aP = node.get("additionalProperties", True)
            if (aP is True or aP == {}) and node.get("unevaluatedProperties", True) is not False:
                what = "The arguments object" if not parts else f"The object at {where}"
                out.append({"code": "open_object", "pointer": pointer_of(parts),
                            "message": f"{what} accepts any extra property: add \"additionalProperties\": "
                                       f"false{strict_note}"})
            props = node.get("properties")
            required = node.get("required") if isinstance(node.get("required"), list) else []
            if isinstance(props, dict):
                for prop in props:
                    if prop not in required:
                        out.append({"code": "optional_property",
                                    "pointer": pointer_of(parts + ("properties", prop)),
                                    "message": f"Property \"{prop}\" is not in \"required\": the model may leave "
                                               "it out" + ("; strict mode requires every property in required "
                                                           "(make it nullable instead)" if strict else "")})
                for prop, sub in props.items():
                    stack.append((sub, parts + ("properties", prop), prop))
        if name is not None and looks_like_id(name):
            if _free_string(node):
                out.append({"code": "free_id_string", "pointer": pointer_of(parts),
                            "message": f"\"{name}\" is a free string, but an id, code or key has a fixed shape: "
                                       "add a \"pattern\" (or an \"enum\") so a made-up value is refused"})
        for kw, key, sub in subschemas(node):
            if kw in _NOT_WALKED:
                continue
            sub_parts = parts + (kw,) if key is None else parts + (kw, key)
            sub_name = name if kw in _SAME_VALUE else key if kw in ("$defs", "definitions") else None
            stack.append((sub, sub_parts, sub_name))
    order = {id(w): i for i, w in enumerate(out)}
    out.sort(key=lambda w: (w["pointer"], order[id(w)]))
    return out[:limit]
