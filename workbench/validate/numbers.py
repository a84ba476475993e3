"""Exact numbers for the keywords: the parser hands over ``int`` and ``decimal.Decimal``.

From draft 6 on an integral ``Decimal`` (``1.0``, ``1e2``) is an ``integer`` (draft 4: only a
number written without fraction or exponent); ``multipleOf`` is computed exactly, also for
``1e400`` or ``0.0001``, without ``InvalidOperation`` or a giant power of ten; ``uniqueItems``
compares canonical keys in linear time (``1 == 1.0``, key order ignored, ``true != 1``).
"""

from __future__ import annotations

from decimal import Decimal

from jsonschema import _types

from ..jsontext import json_equal as equal  # the one JSON equality
from . import library  # noqa: F401  (first: jsonschema without the iri grammar)


def _parts(x) -> tuple[int, int]:
    """``x`` as ``(mantissa, exponent)`` with ``x == mantissa * 10**exponent`` exactly."""
    if isinstance(x, int):
        return x, 0
    if isinstance(x, float):
        x = Decimal(repr(x))
    sign, digits, exp = x.as_tuple()
    if not isinstance(exp, int):
        raise ValueError("not a finite number")
    # int() of a Decimal is exact in any context (scaleb rounds to the context's 28 digits)
    mantissa = int(Decimal((0, digits, 0))) if len(digits) > 18 else int("".join(map(str, digits)) or "0")
    return (-mantissa if sign and mantissa > 0 else mantissa), exp


def is_multiple(value, divisor) -> bool:
    """Exact ``value`` is a whole multiple of ``divisor`` (both finite numbers, divisor > 0)."""
    if type(value) is int and type(divisor) is int:
        return value % divisor == 0
    ma, ea = _parts(value)
    mb, eb = _parts(divisor)
    if ma == 0:
        return True
    if mb == 0:
        return False
    mb = abs(mb)
    d = ea - eb
    if d >= 0:
        # only the factors 2 and 5 of mb can use the power of ten: cap it (same answer)
        return (ma * 10 ** min(d, mb.bit_length())) % mb == 0
    d = -d
    if d > abs(ma).bit_length():  # mb * 10**d > |ma| > 0
        return False
    return ma % (mb * 10 ** d) == 0


def is_integral(x) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return True
    if isinstance(x, Decimal):
        sign, digits, exp = x.as_tuple()
        if not isinstance(exp, int):
            return False
        if exp >= 0:
            return True
        return not any(digits[exp:])
    if isinstance(x, float):
        return x.is_integer()
    return False


def _is_integer(checker, instance) -> bool:
    return is_integral(instance)


def _is_integer_draft4(checker, instance) -> bool:
    # draft 4: "a JSON number without a fraction or exponent part" -- 1.0 is not one
    return isinstance(instance, int) and not isinstance(instance, bool)


TYPE_CHECKER = _types.draft202012_type_checker.redefine("integer", _is_integer)
TYPE_CHECKER_DRAFT4 = _types.draft4_type_checker.redefine("integer", _is_integer_draft4)


def canonical(v):
    """A hashable key equal for JSON-equal values (``1 == 1.0``, key order ignored, ``true != 1``)."""
    t = type(v)
    if t is str:
        return v
    if v is True or v is False:
        return ("b", v)
    if v is None:
        return ("z",)
    if t is dict:
        return ("o", frozenset((k, canonical(x)) for k, x in v.items()))
    if t is list:
        return ("a", tuple(canonical(x) for x in v))
    if isinstance(v, (int, float, Decimal)):
        if type(v) is int and -10**30 < v < 10**30:
            return ("n", v)
        d = Decimal(v) if not isinstance(v, Decimal) else v
        sign, digits, exp = d.as_tuple()
        if not isinstance(exp, int):
            return ("n", str(d))
        digits = list(digits)
        while len(digits) > 1 and digits[-1] == 0:
            digits.pop()
            exp += 1
        if digits == [0]:
            return ("n", 0)
        if exp >= 0 and len(digits) + exp <= 30:    # below 10**30, as an int is keyed above
            return ("n", (-1 if sign else 1) * int("".join(map(str, digits))) * 10 ** exp)
        return ("n", sign, tuple(digits), exp)
    if isinstance(v, dict):
        return ("o", frozenset((k, canonical(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return ("a", tuple(canonical(x) for x in v))
    return ("?", repr(v))


def first_duplicate(items: list):
    """``(first, index)`` of the first item equal to an earlier one (JSON equality), or None."""
    seen: dict = {}
    for index, item in enumerate(items):
        try:
            key = canonical(item)
            first = seen.setdefault(key, index)
        except TypeError:  # unhashable oddity: fall back to pairwise equality
            first = next((j for j in range(index) if equal(items[j], item)), index)
        if first != index:
            return first, index
    return None

