"""The keywords of ``jsonschema`` the Validate view replaces (the validator classes of
:mod:`workbench.validate.classes` use them), and why.

* **Patterns in bounded time, with ECMA-262 meaning** (:mod:`workbench.validate.patterns`):
  ``pattern``, ``patternProperties`` and the places that consult it (``additionalProperties``,
  ``unevaluatedProperties``).
* **Exact numbers** (:mod:`workbench.validate.numbers`): ``multipleOf`` and ``uniqueItems``.
* **One error per key.**  ``required``, ``dependentRequired``/``dependencies``,
  ``additionalProperties: false`` and ``unevaluatedProperties`` report each missing or extra
  key separately and carry it (``error.wb_key``), so the error points at ``/order_id`` or
  ``/refund`` instead of naming them inside a message.
* A ``propertyNames`` error is marked with its key (``error.wb_pname``) instead of being guessed
  from the schema path (which a property literally named ``propertyNames`` fooled).
* **2019-09 ``unevaluatedProperties``** next to a non-boolean ``additionalProperties``: the
  library counts the subschema's own keywords as evaluated keys; fixed here.
* **Short messages**: the library's quote the whole instance with ``repr()`` (megabytes per
  error for a big container); the readable ones are built later by
  :mod:`workbench.validate.messages` from the error's fields.
"""

from __future__ import annotations

import base64  # noqa: E402
import binascii  # noqa: E402

from jsonschema._utils import is_valid  # noqa: E402
from jsonschema.exceptions import FormatError, ValidationError  # noqa: E402
from referencing.jsonschema import lookup_recursive_ref  # noqa: E402

from ..errors import WorkbenchError  # noqa: E402
from ..jsontext import json_equal as equal  # noqa: E402  (the one JSON equality)
from . import library  # noqa: F401  (first: jsonschema without the iri grammar)
from .numbers import first_duplicate, is_multiple  # noqa: E402
from .patterns import search  # noqa: E402


def _keyed(message: str, key: str, kind: str) -> ValidationError:
    err = ValidationError(message)
    err.wb_key = key
    err.wb_kind = kind
    return err


def kw_pattern(validator, patrn, instance, schema):
    if validator.is_type(instance, "string") and not search(patrn, instance):
        yield ValidationError(f"{_short(instance)} does not match {patrn!r}")


def kw_patternProperties(validator, patternProperties, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patternProperties.items():
        for k, v in instance.items():
            if search(pattern, k):
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


def additional_keys(instance, schema) -> list:
    """Keys of ``instance`` covered neither by ``properties`` nor ``patternProperties``."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    out = []
    for key in instance:
        if key in properties:
            continue
        if patterns and any(search(p, key) for p in patterns):
            continue
        out.append(key)
    return out


def kw_additionalProperties(validator, aP, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    extras = additional_keys(instance, schema)
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP:
        for extra in extras:
            yield _keyed(f"Additional property {extra!r} is not allowed", extra, "extra")


def kw_required(validator, required, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for prop in required:
        if prop not in instance:
            yield _keyed(f"{prop!r} is a required property", prop, "missing")


def _missing_because(prop, names, instance):
    """One error per name of ``names`` that ``instance`` (which has ``prop``) lacks."""
    for each in names:
        if each not in instance:
            err = _keyed(f"{each!r} is a dependency of {prop!r}", each, "missing")
            err.wb_because = prop
            yield err


def kw_dependentRequired(validator, dependentRequired, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for prop, dependency in dependentRequired.items():
        if prop in instance:
            yield from _missing_because(prop, dependency, instance)


def kw_dependencies(validator, dependencies, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for prop, dependency in dependencies.items():
        if prop not in instance:
            continue
        if validator.is_type(dependency, "array"):
            yield from _missing_because(prop, dependency, instance)
        else:
            yield from validator.descend(instance, dependency, schema_path=prop)


def kw_multipleOf(validator, dB, instance, schema):
    if not validator.is_type(instance, "number"):
        return
    try:
        ok = is_multiple(instance, dB)
    except (ValueError, TypeError, ArithmeticError):
        ok = False
    if not ok:
        yield ValidationError(f"{_short(instance)} is not a multiple of {dB}")



def kw_uniqueItems(validator, uI, instance, schema):
    if not (uI and validator.is_type(instance, "array")):
        return
    pair = first_duplicate(instance)
    if pair is not None:
        err = ValidationError(f"items {pair[0]} and {pair[1]} are equal")
        err.wb_pair = pair
        yield err


def kw_propertyNames(validator, propertyNames, instance, schema):
    """As the library's, with each error marked with the property name it is about
    (``error.wb_pname``): it is reported at that key."""
    if not validator.is_type(instance, "object"):
        return
    for prop in instance:
        for err in validator.descend(instance=prop, schema=propertyNames):
            if getattr(err, "wb_pname", None) is None:
                err.wb_pname = prop
            yield err


def uneval_props(finder):
    def unevaluatedProperties(validator, uP, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        evaluated = set(finder(validator, instance, schema))
        for prop in instance:
            if prop in evaluated:
                continue
            if uP is False:
                yield _keyed(f"Unevaluated property {prop!r} is not allowed", prop, "extra")
                continue
            errors = list(validator.descend(instance[prop], uP, path=prop))
            if errors:
                err = ValidationError(
                    f"Unevaluated property {prop!r} is invalid under the unevaluatedProperties schema",
                    path=[prop], context=errors)
                err.wb_inner = errors
                yield err
    return unevaluatedProperties


def _keys_in(finder, validator, instance, resolved) -> list:
    """The keys evaluated by a referenced schema (``resolved``: a referencing lookup)."""
    return finder(validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                  instance, resolved.contents)


def _applied_keys(finder, validator, instance, schema) -> list:
    """The keys evaluated through patternProperties, dependentSchemas, allOf/oneOf/anyOf and
    if/then/else: the same in 2019-09 and 2020-12; ``finder`` is the draft's own function,
    for the subschemas."""
    keys: list = []
    if "patternProperties" in schema:
        for prop in instance:
            if any(search(p, prop) for p in schema["patternProperties"]):
                keys.append(prop)
    if "dependentSchemas" in schema:
        for prop, subschema in schema["dependentSchemas"].items():
            if prop in instance:
                keys += finder(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if is_valid(validator.descend(instance, subschema)):
                keys += finder(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys += finder(validator, instance, schema["if"])
            if "then" in schema:
                keys += finder(validator, instance, schema["then"])
        elif "else" in schema:
            keys += finder(validator, instance, schema["else"])
    return keys


def evaluated_keys_2020(validator, instance, schema):
    """Like jsonschema._utils.find_evaluated_property_keys_by_schema, bounded regexes."""
    if validator.is_type(schema, "boolean"):
        return []
    keys: list = []
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            keys += _keys_in(evaluated_keys_2020, validator, instance, resolved)
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        keys += properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        subschema = schema.get(keyword)
        if subschema is None:
            continue
        keys += (k for k, v in instance.items() if is_valid(validator.descend(v, subschema)))
    keys += _applied_keys(evaluated_keys_2020, validator, instance, schema)
    return keys


def evaluated_keys_2019(validator, instance, schema):
    """2019-09 version; unlike the library's, a schema-valued ``additionalProperties`` /
    ``unevaluatedProperties`` evaluates the keys it applies to, not keys named like its
    own keywords."""
    if validator.is_type(schema, "boolean"):
        return []
    keys: list = []
    ref = schema.get("$ref")
    if ref is not None:
        resolved = validator._resolver.lookup(ref)
        keys += _keys_in(evaluated_keys_2019, validator, instance, resolved)
    if "$recursiveRef" in schema:
        resolved = lookup_recursive_ref(validator._resolver)
        keys += _keys_in(evaluated_keys_2019, validator, instance, resolved)
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        keys += properties.keys() & instance.keys()
    if "additionalProperties" in schema:
        aP = schema["additionalProperties"]
        extras = additional_keys(instance, schema)
        if aP is True:
            keys += extras
        elif validator.is_type(aP, "object"):
            keys += (k for k in extras if is_valid(validator.descend(instance[k], aP)))
    if "unevaluatedProperties" in schema:
        uP = schema["unevaluatedProperties"]
        if uP is True:
            keys += instance.keys()
        elif validator.is_type(uP, "object"):
            keys += (k for k, v in instance.items() if is_valid(validator.descend(v, uP)))
    keys += _applied_keys(evaluated_keys_2019, validator, instance, schema)
    return keys


def kw_format(validator, format, instance, schema):
    if validator.format_checker is not None:
        try:
            validator.format_checker.check(instance, format)
        except FormatError as error:
            yield ValidationError(f"{_short(instance)} is not a {format!r}", cause=error.cause)


# The library's messages quote the whole instance with repr(): for a big container that is
# megabytes per error, and nested anyOf/oneOf repeat it at every level.  These keywords do what
# the library's do, with short messages (the readable ones are built later from the error).

def kw_type(validator, types, instance, schema):
    types = [types] if isinstance(types, str) else types
    if not any(validator.is_type(instance, t) for t in types):
        yield ValidationError(f"{_short(instance)} is not of type {', '.join(map(repr, types))}")


def kw_enum(validator, enums, instance, schema):
    if type(instance) is str and type(enums) is list:  # a string equals only the same string
        if instance not in enums:
            yield ValidationError(f"{_short(instance)} is not one of the enum values")
        return
    if all(not equal(each, instance) for each in enums):
        yield ValidationError(f"{_short(instance)} is not one of the enum values")


def kw_const(validator, const, instance, schema):
    if not equal(instance, const):
        yield ValidationError(f"{_short(const)} was expected")


# minItems/maxItems/minProperties/maxProperties: one check each way, made once per keyword

def _at_least(kind: str, message: str):
    def keyword(validator, bound, instance, schema):
        if validator.is_type(instance, kind) and len(instance) < bound:
            yield ValidationError(f"{_short(instance)} {message}")
    return keyword


def _at_most(kind: str, message: str):
    def keyword(validator, bound, instance, schema):
        if validator.is_type(instance, kind) and len(instance) > bound:
            yield ValidationError(f"{_short(instance)} {message}")
    return keyword


kw_minItems = _at_least("array", "is too short")
kw_maxItems = _at_most("array", "is too long")
kw_minProperties = _at_least("object", "does not have enough properties")
kw_maxProperties = _at_most("object", "has too many properties")


def kw_not(validator, not_schema, instance, schema):
    if validator.evolve(schema=not_schema).is_valid(instance):
        yield ValidationError(f"{_short(instance)} should not be valid under the not schema")


def kw_anyOf(validator, anyOf, instance, schema):
    all_errors = []
    for index, subschema in enumerate(anyOf):
        errs = list(validator.descend(instance, subschema, schema_path=index))
        if not errs:
            break
        all_errors.extend(errs)
    else:
        yield ValidationError(f"{_short(instance)} is not valid under any of the given schemas",
                              context=all_errors)


def kw_oneOf(validator, oneOf, instance, schema):
    subschemas = enumerate(oneOf)
    all_errors = []
    first = None
    for index, subschema in subschemas:
        errs = list(validator.descend(instance, subschema, schema_path=index))
        if not errs:
            first = index
            break
        all_errors.extend(errs)
    else:
        yield ValidationError(f"{_short(instance)} is not valid under any of the given schemas",
                              context=all_errors)
    more = [i for i, each in subschemas if validator.evolve(schema=each).is_valid(instance)]
    if more:
        err = ValidationError(f"{_short(instance)} is valid under more than one of the given schemas")
        err.wb_matched = [first, *more]
        yield err


def kw_contains(validator, contains, instance, schema):
    if not validator.is_type(instance, "array"):
        return
    matches = 0
    min_contains = schema.get("minContains", 1)
    max_contains = schema.get("maxContains", len(instance))
    contains_validator = validator.evolve(schema=contains)
    for each in instance:
        if contains_validator.is_valid(each):
            matches += 1
            if matches > max_contains:
                yield ValidationError(f"Too many items match the contains schema (at most {max_contains})",
                                      validator="maxContains", validator_value=max_contains)
                return
    if matches < min_contains:
        if not matches:
            yield ValidationError("No item matches the contains schema")
        else:
            err = ValidationError(f"Too few items match the contains schema (at least {min_contains}, "
                                  f"only {matches})", validator="minContains", validator_value=min_contains)
            err.wb_matches = matches
            yield err


def kw_contains_draft6_draft7(validator, contains, instance, schema):
    if not validator.is_type(instance, "array"):
        return
    if not any(validator.evolve(schema=contains).is_valid(element) for element in instance):
        yield ValidationError("No item matches the contains schema")


def _short(v) -> str:
    if isinstance(v, str):
        return repr(v if len(v) <= 60 else v[:57] + "…")
    if isinstance(v, (dict, list)):
        return f"<{type(v).__name__} of {len(v)}>"
    s = str(v)
    return s if len(s) <= 60 else s[:57] + "…"


# draft 7 lets a validator assert contentEncoding / contentMediaType: this one does when formats
# are asserted (format_assert), for base64 and application/json

def _base64(text: str):
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return None


def kw_contentEncoding(validator, encoding, instance, schema):
    if validator.format_checker is None or not isinstance(instance, str):
        return
    if isinstance(encoding, str) and encoding.lower() == "base64" and _base64(instance) is None:
        yield ValidationError(f"{_short(instance)} is not base64")


def kw_contentMediaType(validator, media, instance, schema):
    if validator.format_checker is None or not isinstance(instance, str):
        return
    if not isinstance(media, str) or media.split(";")[0].strip().lower() != "application/json":
        return
    text = instance
    encoding = schema.get("contentEncoding")
    if isinstance(encoding, str) and encoding.lower() == "base64":
        raw = _base64(instance)
        if raw is None:
            return  # contentEncoding reports it
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
    from ..jsontext import parse
    try:
        ok = text is not None and parse(text, field="document") is not None
    except WorkbenchError:
        ok = False
    if not ok:
        yield ValidationError(f"{_short(instance)} is not a JSON document")
