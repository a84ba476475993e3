"""The validator classes: jsonschema's draft classes with this project's keywords.

* Keywords from :mod:`workbench.validate.keywords` (patterns, exact numbers, one error per key).
* **Every error at its place**: the library's error for a ``false`` subschema lacks the path of
  the descent (``properties: {"refund": false}`` was reported at the object); here it has it.
* **A work deadline**: every step into a subschema (``evolve``) checks the deadline of
  :func:`workbench.runtime.current`, so a request ends within about ``limits.work_timeout``
  whatever the schema does; :func:`evolve_memo` reuses the validators of one run.
* **``$schema`` inside a subschema** selects one of these classes, not the library's own
  (which would bring back ``re`` and float-only integers).
* :func:`class_for_vocabularies`: a custom metaschema's ``$vocabulary`` selects the keywords.
"""

from __future__ import annotations

import contextlib
import threading

import attrs
from jsonschema import validators  # noqa: E402
from jsonschema.exceptions import ValidationError  # noqa: E402

from ..runtime import current  # noqa: E402
from .dialects import VOCABULARIES, dialect_of  # noqa: E402
from .keywords import (  # noqa: E402
    evaluated_keys_2019,
    evaluated_keys_2020,
    kw_additionalProperties,
    kw_anyOf,
    kw_const,
    kw_contains,
    kw_contains_draft6_draft7,
    kw_contentEncoding,
    kw_contentMediaType,
    kw_dependencies,
    kw_dependentRequired,
    kw_enum,
    kw_format,
    kw_maxItems,
    kw_maxProperties,
    kw_minItems,
    kw_minProperties,
    kw_multipleOf,
    kw_not,
    kw_oneOf,
    kw_pattern,
    kw_patternProperties,
    kw_propertyNames,
    kw_required,
    kw_type,
    kw_uniqueItems,
    uneval_props,
)
from .library import BASES
from .numbers import TYPE_CHECKER, TYPE_CHECKER_DRAFT4  # noqa: E402

_memo = threading.local()


@contextlib.contextmanager
def evolve_memo():
    """Within one run, the same subschema under the same resolver gives the same validator:
    reuse it (a quarter of the run time goes into building them)."""
    saved = getattr(_memo, "memo", None)
    _memo.memo = {}
    try:
        yield
    finally:
        _memo.memo = saved


_OVERRIDES_ALL = {
    "type": kw_type,
    "enum": kw_enum,
    "const": kw_const,
    "minItems": kw_minItems,
    "maxItems": kw_maxItems,
    "minProperties": kw_minProperties,
    "maxProperties": kw_maxProperties,
    "not": kw_not,
    "anyOf": kw_anyOf,
    "oneOf": kw_oneOf,
    "pattern": kw_pattern,
    "patternProperties": kw_patternProperties,
    "additionalProperties": kw_additionalProperties,
    "required": kw_required,
    "multipleOf": kw_multipleOf,
    "uniqueItems": kw_uniqueItems,
    "format": kw_format,
    "propertyNames": kw_propertyNames,
}

def _make_class(draft: str, drop: frozenset = frozenset()):
    base = BASES[draft]
    table = dict(base.VALIDATORS)
    for name, fn in _OVERRIDES_ALL.items():
        if name in table:
            table[name] = fn
    if "dependentRequired" in table:
        table["dependentRequired"] = kw_dependentRequired
    if "dependencies" in table or draft in ("2019-09", "2020-12"):
        # 2019-09 split it into dependentRequired/dependentSchemas; kept for compatibility
        table["dependencies"] = kw_dependencies
    if "contains" in table:
        table["contains"] = kw_contains if draft in ("2019-09", "2020-12") else kw_contains_draft6_draft7
    if draft == "draft-07":
        table["contentEncoding"] = kw_contentEncoding
        table["contentMediaType"] = kw_contentMediaType
    if draft == "2020-12":
        table["unevaluatedProperties"] = uneval_props(evaluated_keys_2020)
    elif draft == "2019-09":
        table["unevaluatedProperties"] = uneval_props(evaluated_keys_2019)
    for name in drop:
        table.pop(name, None)
    cls = validators.extend(
        base, validators=table,
        type_checker=TYPE_CHECKER_DRAFT4 if draft == "draft-04" else TYPE_CHECKER)
    # extend() only adds/overrides keywords: rebuild the table without the dropped ones
    if drop:
        cls.VALIDATORS = {k: v for k, v in cls.VALIDATORS.items() if k not in drop}
    cls.evolve = _evolve
    cls.descend = _descend_false_at_its_place(cls.descend)
    cls.wb_draft = draft
    return cls


def _descend_false_at_its_place(descend):
    """The library's ``descend`` into a ``false`` subschema yields its error without the path
    and schema path of the descent (``properties: {"refund": false}`` was reported at the
    object, under ``/properties``): here it carries both, like every other error."""
    def wrapped(self, instance, schema, path=None, schema_path=None, resolver=None):
        if schema is False:
            err = ValidationError("False schema does not allow this value", validator=None,
                                  validator_value=None, instance=instance, schema=schema)
            if path is not None:
                err.path.appendleft(path)
            if schema_path is not None:
                err.schema_path.appendleft(schema_path)
            yield err
            return
        yield from descend(self, instance, schema, path, schema_path, resolver)
    return wrapped


_INIT_FIELDS = [(f.name, f.alias) for f in attrs.fields(validators.Draft202012Validator) if f.init]
# _evolve copies these by hand (faster than a loop); fail loudly if the library adds a field
assert {a for _, a in _INIT_FIELDS} == {"schema", "resolver", "format_checker", "registry", "_resolver"}, _INIT_FIELDS


def _evolve(self, **changes):
    """Like the library's ``evolve``, but an embedded ``$schema`` selects one of our classes.
    Every ``descend`` into a subschema comes through here: the work deadline is checked here."""
    deadline = current()
    if deadline is not None:
        deadline.check()
    memo = getattr(_memo, "memo", None)
    if memo is not None and len(changes) == 2 and "_resolver" in changes and "schema" in changes:
        # descend(): the same subschema under the same resolver gives the same validator;
        # reuse it (a quarter of the run time goes into building them).  Identity is checked,
        # so a recycled id() can never return a wrong one.
        schema, resolver = changes["schema"], changes["_resolver"]
        key = (id(schema), id(resolver), id(self.__class__), id(self.format_checker))
        hit = memo.get(key)
        if hit is not None and hit[0] is schema and hit[1] is resolver and hit[2] is self.__class__ \
                and hit[3] is self.format_checker:
            return hit[4]
        made = _evolve_new(self, changes)
        if len(memo) < 50_000:
            memo[key] = (schema, resolver, self.__class__, self.format_checker, made)
        return made
    return _evolve_new(self, changes)


def _evolve_new(self, changes):
    schema = changes.setdefault("schema", self.schema)
    new_cls = self.__class__
    if isinstance(schema, dict):
        dialect = schema.get("$schema")
        if isinstance(dialect, str):
            draft = dialect_of(dialect)
            if draft is not None and draft != new_cls.wb_draft:
                new_cls = CLASSES[draft]
    if "_resolver" not in changes:
        changes["_resolver"] = self._resolver
    if "format_checker" not in changes:
        changes["format_checker"] = self.format_checker
    if "registry" not in changes:
        changes["registry"] = self._registry
    if "resolver" not in changes:
        changes["resolver"] = self._ref_resolver
    return new_cls(**changes)


CLASSES = {draft: _make_class(draft) for draft in BASES}


def class_for_vocabularies(draft: str, vocabularies: dict):
    """A class for a custom metaschema's ``$vocabulary``: keywords of vocabularies it leaves out
    are not evaluated.  Raises ValueError for a required vocabulary this workbench lacks."""
    known = VOCABULARIES.get(draft)
    if not known:
        return CLASSES[draft]
    unknown_required = [uri for uri, req in vocabularies.items() if req is True and uri not in known]
    if unknown_required:
        raise ValueError(", ".join(unknown_required))
    keep: set = set()
    for uri in vocabularies:
        keep |= known.get(uri, set())
    every = set().union(*known.values())
    drop = frozenset(every - keep)
    asserting = any(uri.endswith("/vocab/format-assertion") for uri in vocabularies)
    if not drop and not asserting:
        return CLASSES[draft]
    cls = _make_class(draft, drop)
    cls.wb_format_assertion = asserting
    return cls
