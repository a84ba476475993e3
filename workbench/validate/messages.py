"""The sentences of Validate's errors: each jsonschema ``ValidationError`` (or compiled-path
:class:`~workbench.validate.compiled.Error`, which has the same fields) as one readable message,
with values shown briefly (never the whole of a big container)."""

from __future__ import annotations

from decimal import Decimal

from ..jsontext import dumps_value, pointer_of
from .patterns import PatternError, compile_ecma


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not an ECMA-262 regular expression the workbench can run, or None."""
    try:
        compile_ecma(pattern)
    except PatternError as exc:
        return exc.detail
    return None


def kind_of(v) -> str:
    if v is None:
        return "null"
    if v is True or v is False:
        return "boolean"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (int, float, Decimal)):
        return "number"
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    return type(v).__name__


def jtext(v, width: int = 60) -> str:
    """A short JSON rendering of a value for messages (never the whole of a big container)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        s = v if len(v) <= width else v[:width - 1] + "…"
        return dumps_value(s).decode()
    if isinstance(v, (int, Decimal, float)):
        try:
            s = str(v)
        except ValueError:
            return "a very long number"
        return s if len(s) <= width else s[:width - 1] + "…"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return f"an object with {len(v)} propert{'y' if len(v) == 1 else 'ies'}"
    if isinstance(v, list):
        if not v:
            return "[]"
        return f"an array of {len(v)} item{'' if len(v) == 1 else 's'}"
    return str(v)[:width]


def _got(v) -> str:
    k = kind_of(v)
    if k in ("object", "array"):
        return jtext(v)
    if k == "null":
        return "null"
    return f"{k} {jtext(v)}"


def _list(values, limit: int = 8) -> str:
    shown = ", ".join(jtext(x, 40) for x in values[:limit])
    if len(values) > limit:
        shown += f", … ({len(values) - limit} more)"
    return shown


def _types(v) -> str:
    if isinstance(v, list):
        return " or ".join(str(t) for t in v)
    return str(v)


def error_text(err) -> tuple[str, str]:
    """(keyword, readable message) of a jsonschema error."""
    kw = err.validator
    v = err.validator_value
    inst = err.instance
    kind = getattr(err, "wb_kind", None)
    key = getattr(err, "wb_key", None)
    prefix = ""
    if getattr(err, "wb_pname", None) is not None and isinstance(inst, str):
        prefix = f"Property name {jtext(inst)}: "
    try:
        msg = _message(err, kw, v, inst, kind, key)
    except Exception:  # a message must never break validation
        msg = err.message
    return (kw or "false"), prefix + msg


# the keywords whose message needs only the keyword's value ``v`` and the instance ``i``
_PLAIN = {
    "type": lambda v, i: f"Expected {_types(v)}, got {_got(i)}",
    "pattern": lambda v, i: f"{jtext(i)} does not match the pattern {v}",
    "enum": lambda v, i: (f"{jtext(i)} is not one of the allowed values: "
                          f"{_list(v if isinstance(v, list) else [v])}"),
    "const": lambda v, i: f"Expected exactly {jtext(v)}, got {jtext(i)}",
    "exclusiveMinimum": lambda v, i: f"{jtext(i)} must be greater than {jtext(v)} (exclusiveMinimum)",
    "exclusiveMaximum": lambda v, i: f"{jtext(i)} must be less than {jtext(v)} (exclusiveMaximum)",
    "multipleOf": lambda v, i: f"{jtext(i)} is not a multiple of {jtext(v)}",
    "contentEncoding": lambda v, i: f"{jtext(i)} is not valid {v} (contentEncoding)",
    "contentMediaType": lambda v, i: f"The string does not hold a valid {v} document (contentMediaType)",
    "not": lambda v, i: "The value matches the schema in \"not\", so it is refused",
    "contains": lambda v, i: "No item of the array matches the \"contains\" schema",
    "maxContains": lambda v, i: f"More than {jtext(v)} items match the \"contains\" schema (maxContains)",
}
# minimum/maximum: the draft-4 flag that makes the bound exclusive, the words for each case
_BOUNDS = {"minimum": ("exclusiveMinimum", "greater than", "less than the minimum"),
           "maximum": ("exclusiveMaximum", "less than", "greater than the maximum")}


def _message(err, kw, v, inst, kind, key) -> str:
    schema = err.schema if isinstance(err.schema, dict) else {}
    if kw is None:
        return "No value is allowed here: the schema at this place is false"
    if kind == "missing":
        because = getattr(err, "wb_because", None)
        if because is not None:
            return f"Property {jtext(key)} is required when {jtext(because)} is present"
        return f"Required property {jtext(key)} is missing"
    if kind == "extra":
        if kw == "unevaluatedProperties":
            return f"Property {jtext(key)} is not allowed (\"unevaluatedProperties\": false)"
        allowed = list(schema.get("properties", {}) or {})
        tail = f"; allowed: {_list(allowed)}" if allowed and "patternProperties" not in schema else ""
        if "patternProperties" in schema:
            tail = "; it matches no name in properties and no patternProperties pattern"
        return f"Property {jtext(key)} is not allowed (\"additionalProperties\": false){tail}"
    plain = _PLAIN.get(kw)
    if plain is not None:
        return plain(v, inst)
    bound = _BOUNDS.get(kw)
    if bound is not None:
        flag, strict, beyond = bound
        if schema.get(flag) is True:
            return f"{jtext(inst)} must be {strict} {jtext(v)}"
        return f"{jtext(inst)} is {beyond} {jtext(v)}"
    if kw in ("minLength", "maxLength") and isinstance(inst, str):
        n = len(inst)
        word = "short" if kw == "minLength" else "long"
        bound = "at least" if kw == "minLength" else "at most"
        return f"String too {word}: {n} character{'s' if n != 1 else ''}, {bound} {jtext(v)} allowed"
    if kw in ("minItems", "maxItems") and isinstance(inst, list):
        n = len(inst)
        bound = "at least {} required" if kw == "minItems" else "at most {} allowed"
        return f"Array has {n} item{'s' if n != 1 else ''}; " + bound.format(jtext(v))
    if kw in ("minProperties", "maxProperties") and isinstance(inst, dict):
        n = len(inst)
        bound = "at least {} required" if kw == "minProperties" else "at most {} allowed"
        return f"Object has {n} propert{'y' if n == 1 else 'ies'}; " + bound.format(jtext(v))
    if kw == "uniqueItems":
        pair = getattr(err, "wb_pair", None)
        if pair:
            return f"Items {pair[0]} and {pair[1]} are equal, but uniqueItems requires every item to differ"
        return "The array has equal items, but uniqueItems requires every item to differ"
    if kw == "format":
        if v == "regex" and isinstance(inst, str):
            detail = pattern_problem(inst)
            if detail:
                return f"{jtext(inst)} is not a valid regex: {detail}"
        return f"{jtext(inst)} is not a valid {v}"
    if kw in ("items", "additionalItems") and v is False and isinstance(inst, list):
        before = schema.get("prefixItems" if kw == "items" else "items", [])
        n = len(before) if isinstance(before, list) else 0
        return (f"Array has {len(inst)} item{'s' if len(inst) != 1 else ''}; at most {n} allowed "
                f"(\"{kw}\": false)")
    if kw in ("anyOf", "oneOf"):
        n = len(v) if isinstance(v, list) else 0
        if kw == "oneOf" and not err.context:
            matched = getattr(err, "wb_matched", None)
            which = f" ({', '.join(map(str, matched))})" if matched else ""
            return (f"The value matches more than one of the {n} alternatives in oneOf{which}; "
                    "exactly one must match")
        closest = ""
        if err.context:
            # follow the closest alternative down through nested anyOf/oneOf to a plain failure
            best, parts = err, []
            while best.context:
                best = _closest(best.context)
                parts.extend(best.relative_path)
                if best.validator not in ("anyOf", "oneOf"):
                    break
            where = pointer_of(parts)
            closest = f"; closest alternative: {error_text(best)[1]}" + (f" at {where}" if where else "")
        return f"The value matches none of the {n} alternatives in {kw}{closest}"
    if kw == "unevaluatedProperties":
        inner = getattr(err, "wb_inner", None)
        if inner:
            return f"Unevaluated property fails \"unevaluatedProperties\": {error_text(inner[0])[1]}"
    if kw == "minContains":
        got = getattr(err, "wb_matches", None)
        return (f"Only {got} item{' matches' if got == 1 else 's match'} the \"contains\" schema; "
                f"at least {jtext(v)} must")
    return err.message


def _closest(context):
    """The first error of the alternative that came closest: one whose type matched, with the
    fewest errors."""
    alts: dict = {}
    for e in context:
        alts.setdefault(e.relative_schema_path[0] if e.relative_schema_path else 0, []).append(e)

    def score(item):
        errs = item[1]
        wrong_type = any(e.validator == "type" and not e.relative_path for e in errs)
        return (wrong_type, len(errs))

    return min(alts.items(), key=score)[1][0]

