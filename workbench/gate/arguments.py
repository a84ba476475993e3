"""Reading an Open Responses ``arguments`` string (rule 6): strict RFC 8259, no repeated key.

Two readers with one contract — the value, or ``BAD`` — so the rule engine can take either:

* :func:`read_fast`, for the verdict path (``--jsonl`` logs): the C scanner with a
  duplicate-refusing hook reads the common case; anything unusual (whitespace around the
  value, a byte order mark, NaN, huge numbers, deep nesting, lone surrogates) is handed to the
  strict parser, so its answer is always the strict parser's;
* :class:`Explained`, for the explained walk: the strict parser itself (:func:`workbench.jsontext.parse`),
  keeping the fault (the parse error or every repeated key, positioned inside the string) and
  the warnings Format gives for the same text (big integers, lone surrogates…).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from ..errors import WorkbenchError
from ..jsontext import escape_token, parse
from ..limits import Limits

BAD = object()      # rule 6 fails
MISSING = object()  # a field that is not there


def parse_text(text: str, field: str, limits: Limits):
    """:func:`workbench.jsontext.parse`, with a number too large for an exact Decimal (an
    exponent beyond the decimal context, e.g. ``1e1000000000000000000``) as a 422 — except in
    an ``arguments`` string, where such a number is valid JSON (:func:`_huge_numbers`)."""
    try:
        return parse(text, field=field, max_depth=limits.max_depth)
    except WorkbenchError as exc:
        if exc.code != "number_too_large" or field != "arguments":
            raise
        return _huge_numbers(text, limits)
    except ArithmeticError:
        raise WorkbenchError("parse_error", "A number here has an exponent too large to hold "
                             "exactly; the text cannot be read", field=field) from None


def _huge_numbers(text: str, limits: Limits):
    """A valid JSON text holding a number whose exponent no Decimal holds
    (``[1e4000000000000000000]``): read with the numbers as their text (Format's warnings,
    ``float_overflow`` among them, come with it), then each number as the parser gives it,
    one beyond any Decimal as ±Infinity (its exponent's sign decides; a negative exponent is
    0), so the schema step still sees a number.  The string itself stays as written."""
    parsed = parse(text, field="arguments", max_depth=limits.max_depth, numbers="text")
    parsed.value = _number_values(parsed.value)
    return parsed


def _number(token: str):
    if not any(c in token for c in ".eE"):
        try:
            return int(token)
        except ValueError:   # beyond Python's int-conversion digit limit
            return Decimal(token)
    try:
        return Decimal(token)
    except ArithmeticError:
        exponent = token.lower().partition("e")[2]
        if exponent.startswith("-") or not token.lower().partition("e")[0].strip("-.0"):
            return Decimal("-0") if token.startswith("-") else Decimal(0)
        return Decimal("-Infinity") if token.startswith("-") else Decimal("Infinity")


def _number_values(value):
    """``value`` with every NumberText replaced by its number (iteratively: depth is bounded
    by the parse, not by the stack)."""
    from ..jsontext.parse import NumberText
    root = [value]
    stack = [(root, 0)]
    while stack:
        holder, k = stack.pop()
        v = holder[k]
        if type(v) is NumberText:
            holder[k] = _number(v)
        elif type(v) is dict:
            for key in v:
                stack.append((v, key))
        elif type(v) is list:
            stack.extend((v, i) for i in range(len(v)))
    return root[0]


class _Duplicate(Exception):
    pass


class _Constant(Exception):
    pass


def _pairs_no_duplicates(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Duplicate
    return d


def _reject_constant(name):
    raise _Constant(name)


_SCAN = json.JSONDecoder(object_pairs_hook=_pairs_no_duplicates, parse_float=Decimal,
                         parse_constant=_reject_constant).scan_once


def read_fast(text: str, limits: Limits):
    """The parsed arguments string, or ``BAD`` when rule 6 fails."""
    try:
        value, end = _SCAN(text, 0)
    except _Duplicate:
        return BAD
    except (StopIteration, ValueError, _Constant, RecursionError, ArithmeticError):
        return read_strict(text, limits)
    if end != len(text):
        return read_strict(text, limits)
    if not text.isascii() and not _encodable(text):
        return BAD
    if len(text) > limits.max_depth and text.count("{") + text.count("[") > limits.max_depth:
        return read_strict(text, limits)
    return value


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def read_strict(text: str, limits: Limits):
    """The strict parser's answer alone (what read_fast is tested against): the value, or
    ``BAD`` for a text it refuses or one with a repeated key."""
    try:
        parsed = parse_text(text, "arguments", limits)
    except WorkbenchError:
        return BAD
    if any(w["code"] == "duplicate_key" for w in parsed.warnings):
        return BAD
    return parsed.value


class Explained:
    """The strict reader, remembering why (``problem``) and what it warned (``warnings``)."""

    __slots__ = ("limits", "problem", "warnings")

    def __init__(self, limits: Limits):
        self.limits = limits
        self.problem: dict | None = None
        self.warnings: list[dict] = []

    def __call__(self, text: str, limits: Limits | None = None):
        try:
            parsed = parse_text(text, "arguments", self.limits)
        except WorkbenchError as exc:
            err = exc.to_dict()
            err.pop("field", None)
            self.problem = {"parse_error": err}
            return BAD
        dups = [w for w in parsed.warnings if w["code"] == "duplicate_key"]
        self.warnings = [w for w in parsed.warnings if w["code"] != "duplicate_key"]
        if dups:
            self.problem = {"duplicates": [
                {"key": w["key"], "pointer": w["pointer"] + "/" + escape_token(w["key"]),
                 "object": w["pointer"], "first": w["first"], "second": w["second"],
                 "message": w["message"]} for w in dups]}
            return BAD
        return parsed.value


def compare(a: Any, b: Any, limits: Limits) -> bool:
    """Two ``arguments`` values compared as parsed JSON: strings are parsed (whitespace and
    key order are not a change), exact numbers; unreadable strings compare as text."""
    from ..jsontext import json_equal
    if isinstance(a, str) and isinstance(b, str):
        if a == b:
            return True
        va, vb = read_fast(a, limits), read_fast(b, limits)
        if va is not BAD and vb is not BAD:
            return json_equal(va, vb)
        return False
    return json_equal(a, b)
