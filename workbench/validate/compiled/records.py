"""What the generated functions produce and call: :class:`Error` records (shaped like
jsonschema's ``ValidationError``), the runtime helpers, and :class:`SchemaFunctions` (the
compiled form of one schema)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from ...jsontext import json_equal as equal  # the one JSON equality
from ...runtime import current
from ..numbers import is_multiple


class Unsupported(Exception):
    """The schema uses something this compiler leaves to jsonschema."""


# --------------------------------------------------------------------------- error records

@dataclass(slots=True, eq=False)
class Error:
    """One error of the compiled path, shaped like a jsonschema ``ValidationError`` for
    :func:`workbench.validate.messages.error_text` and :func:`workbench.validate.evaluate`: ``validator`` (the
    keyword; None for a false schema), ``validator_value``, ``instance``, ``schema``,
    ``absolute_path``/``relative_path`` (instance path, relative inside a context),
    ``relative_schema_path`` (jsonschema's evaluation path: ``$ref`` and ``if`` left out),
    ``context`` (the alternatives' errors of anyOf/oneOf, computed when first read) and the
    ``wb_*`` details of :mod:`workbench.validate.keywords`."""

    validator: str | None
    validator_value: object
    instance: object
    schema: object
    absolute_path: tuple
    relative_schema_path: tuple
    # set only where a keyword has them (read with getattr(e, name, None)); left unset, not set
    # to None, so that making a record stores only the six values above
    _context: list | tuple | None = field(init=False)
    wb_kind: str = field(init=False)
    wb_key: str = field(init=False)
    wb_because: str = field(init=False)
    wb_pair: tuple = field(init=False)
    wb_matched: list = field(init=False)
    wb_matches: int = field(init=False)
    wb_pname: str = field(init=False)

    @property
    def relative_path(self):
        return self.absolute_path

    @property
    def context(self) -> list:
        try:
            c = self._context
        except AttributeError:
            return []
        if c is None:
            return []
        if type(c) is tuple:  # (error functions of the alternatives, instance): run them now
            funcs, instance = c
            found: list = []
            for i, fn in enumerate(funcs):
                fn(instance, (), (i,), found)
            self._context = c = found
        return c

    @context.setter
    def context(self, value):
        self._context = value or None

    @property
    def message(self) -> str:
        return f"fails {self.validator or 'false'}"

    def __repr__(self):
        return f"<Error {self.validator} at {self.absolute_path!r}>"


def _keyed(validator, value, instance, schema, path, spath, key, kind, because=None) -> Error:
    e = Error(validator, value, instance, schema, path, spath)
    e.wb_key = key
    e.wb_kind = kind
    if because is not None:
        e.wb_because = because
    return e


def _named(found: list, name: str, out) -> None:
    """Errors of a property name (``propertyNames``): reported at that key."""
    for e in found:
        if getattr(e, "wb_pname", None) is None:
            e.wb_pname = name
        out.append(e)


# --------------------------------------------------------------------------- runtime helpers

def _true(v) -> bool:
    return True


def _false(v) -> bool:
    return False


def _efalse(v, p, sp, out) -> None:
    out.append(Error(None, None, v, False, p, sp))


def _multiple(value, divisor) -> bool:
    try:
        return is_multiple(value, divisor)
    except (ValueError, TypeError, ArithmeticError):
        return False


def _in_enum(v, options) -> bool:
    for each in options:
        if equal(each, v):
            return True
    return False


_MISS = object()
_TICKS = 512


def _tick(counter) -> None:
    """The work deadline (:func:`workbench.runtime.current`), checked every few hundred steps."""
    counter[0] = _TICKS
    deadline = current()
    if deadline is not None:
        deadline.check_now()


_NUM = frozenset({int, float, Decimal})
_NUMF = frozenset({float, Decimal})


# --------------------------------------------------------------------------- the compiled form

@dataclass(slots=True, eq=False, repr=False)
class SchemaFunctions:
    """``is_valid(instance) -> bool`` and ``errors(instance, out)`` (appends :class:`Error`
    records in jsonschema's order; nothing for a valid instance)."""

    draft: str
    is_valid: object
    _errors: object  # the root error function (``errors`` runs it)
    functions: dict
    source: str
    #: False when the work is bounded without a clock: no pattern (the regex timeout), no
    #: reference (recursion), no asserted format; then ``is_valid`` may run without a deadline
    needs_budget: bool = True

    def errors(self, instance, out) -> None:
        if not self.is_valid(instance):
            self._errors(instance, (), (), out)

    def iter_errors(self, instance) -> list:
        out: list = []
        self.errors(instance, out)
        return out



def runtime_names(consts: list) -> dict:
    """The names the generated source may use (the constants table ``C`` and our helpers)."""
    from ..numbers import first_duplicate, is_integral
    return {
        "C": consts, "E": Error, "KE": _keyed, "NAMED": _named, "TRUE": _true,
        "FALSE": _false, "EFALSE": _efalse, "NUM": _NUM, "NUMF": _NUMF, "isint": is_integral,
        "mult": _multiple, "eq": equal, "inenum": _in_enum, "dup": first_duplicate,
        "CK": [_TICKS], "TICK": _tick, "len": len, "type": type, "dict": dict, "list": list,
        "str": str, "bool": bool, "int": int, "enumerate": enumerate, "range": range,
        "tuple": tuple, "zip": zip, "getattr": getattr, "MISS": _MISS,
    }
