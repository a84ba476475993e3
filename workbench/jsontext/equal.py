"""JSON equality on exact values: ``1`` equals ``1.0`` (numbers compare by value, exactly), but
``true`` is not ``1`` and ``false`` is not ``0``; object key order never matters."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

_NUMBER_TYPES = (int, Decimal, float)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 equals 1.0, but true is not 1 and false is not 0."""
    ta, tb = type(a), type(b)
    if ta is bool or tb is bool:
        return ta is tb and a == b
    if a is None or b is None:
        return a is b
    if ta in _NUMBER_TYPES and tb in _NUMBER_TYPES:
        return a == b
    if ta is str and tb is str:
        return a == b
    if ta is list and tb is list:
        return len(a) == len(b) and all(map(json_equal, a, b))
    if ta is dict and tb is dict:
        return a.keys() == b.keys() and all(json_equal(v, b[k]) for k, v in a.items())
    return False
