"""JSON equality on exact values: ``1`` equals ``1.0`` (numbers compare by value, exactly), but
``true`` is not ``1`` and ``false`` is not ``0``; object key order never matters."""

from __future__ import annotations

from decimal import Decimal

from .write import plain_dumps, tight

# orjson is imported where it writes (a command that never compares starts without it, issue 25)

_NUMBER_TYPES = (int, Decimal, float)


def json_equal(a: object, b: object) -> bool:
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


# --------------------------------------------------------------------------- same JSON, spelled the same
# ``json_equal`` asks "the same value?"; the functions below ask "the same JSON, spelled the same?"
# (``1`` and ``1.0`` differ here, key order still never matters).  The diff skips equal subtrees with
# them: Python's ``==`` first (C speed), confirmed by a canonical write (orjson, sorted keys).


def _canon_default(obj):
    if isinstance(obj, Decimal):
        # 'd' prefix: a decimal never equals an integer written the same ('12.3e1' vs 123)
        from orjson import Fragment
        return Fragment(b"d" + str(obj).encode())
    raise TypeError


def ctext(value) -> bytes:
    """Canonical text of a value: equal bytes ⇔ same JSON value written the same way
    (object key order aside).  Types are never confused."""
    import orjson
    try:
        return tight(orjson.dumps(value, default=_canon_default, option=orjson.OPT_SORT_KEYS))
    except (orjson.JSONEncodeError, TypeError, RecursionError):
        return _py_canon(value)


def ctext_fast(value) -> bytes:
    """Like :func:`ctext`, but a decimal is written as a JSON string of its text (orjson calls
    the C ``str`` instead of a Python function).  Equal bytes are only trusted together with
    Python equality (``x == y``), which rules out a string standing against a number."""
    import orjson
    try:
        return tight(orjson.dumps(value, default=str, option=orjson.OPT_SORT_KEYS))
    except (orjson.JSONEncodeError, TypeError, RecursionError):
        return _py_canon(value)


def identical(x, y, write=None) -> bool:
    """For two containers already equal for Python (``x == y``): are they the same JSON,
    types and number spellings included?  Small flat containers are checked item by item
    (no serialization); anything else by :func:`ctext_fast` (or ``write``, a caller's own
    wrapping of it: the diff's walk notes what orjson refused)."""
    tx = type(x)
    if len(x) <= 16:
        if tx is list:
            pairs = zip(x, y)
        elif tx is dict:
            pairs = ((v, y[k]) for k, v in x.items())
        else:
            pairs = None
        if pairs is not None:
            for a, b in pairs:
                ta = type(a)
                if ta is not type(b):
                    return False
                if ta is dict or ta is list:
                    break
                if ta is Decimal and str(a) != str(b):
                    return False
            else:
                return True
    write = write or ctext_fast
    return write(x) == write(y)


def _py_canon(value) -> bytes:
    """Canonical text of what orjson refuses (big ints, lone surrogates, depth): the plain writer,
    keys sorted, a decimal ``d`` and its text."""
    text = plain_dumps(value, 0, True, decimal=_canon_decimal)
    # a first byte orjson never writes: the two writers' texts can never be confused
    return b"\x01" + text.encode("utf-8", "surrogatepass")


def _canon_decimal(d: Decimal) -> str:
    return "d" + str(d)


def same_json(x, y) -> bool:
    """The same JSON spelled the same: equal values of one type, with the same number texts
    inside (``1.0`` is not ``1.00``, ``1`` is not ``true``; key order never matters).  Python's
    ``==`` first (C speed), then :func:`identical` for containers."""
    tx = type(x)
    if tx is not type(y):
        return False
    try:
        if x != y:
            return False
    except RecursionError:
        return ctext(x) == ctext(y)
    if tx is dict or tx is list:
        return identical(x, y)
    return tx is not Decimal or str(x) == str(y)
