"""Numbers as written: the text of every number whose exact value would be written otherwise.

The exact parse gives ``Decimal('1E+2')`` for ``1e2`` and ``Decimal('2.50E+3')`` for ``2.50e+3``
(the value and its digits are kept, the spelling of the exponent is not), ``1E-7`` for
``0.0000001``, and the integer ``0`` for ``-0``.  The diff shows numbers as the user wrote them, on
both sides and at every size, so a document holding such a number is decoded once more with
hooks that remember each one's text (``id(Decimal) → text``; ``-0`` becomes ``Decimal('-0')``,
the same number as ``0``, written differently).  The writers of the view, the change texts and
the patches look the texts up.  A document without such a number (checked with one regular
expression) costs nothing more.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

# cheap tests first (a 5 MB text is searched in ~30 ms): a number with an exponent that does not
# continue a word (a hex id such as "fc_01e4" is not one; a string that looks like a number
# only costs one more decode), six zeros after a point, a minus zero that ends there
_EXPONENT = re.compile(r"[0-9][eE][-+]?[0-9]")
_NEG_ZERO = re.compile(r"-0(?![.0-9eE])")


def suspect(text: str) -> bool:
    """Whether ``text`` may hold a number whose exact value is written otherwise."""
    return (_exponent(text) or "0.000000" in text
            or ("-0" in text and _NEG_ZERO.search(text) is not None))


def _exponent(text: str) -> bool:
    """A number with an exponent: a digit, e, a digit, where the digits before do not continue
    a word (a JSON number follows ``[``, ``,``, ``:`` or a space; a hex id does not)."""
    for m in _EXPONENT.finditer(text):
        i = m.start()
        while i and text[i - 1] in "0123456789.-":
            i -= 1
        if not i or not (text[i - 1].isalnum() or text[i - 1] == "_"):
            return True
    return False


class NumberTexts(dict):
    """``id(Decimal) → text`` for the numbers whose ``str`` is not their text; it also keeps
    the values (and parses of JSON strings) alive so the ids stay theirs."""

    def __init__(self):
        super().__init__()
        self.keep: list = []

    def decode(self, text: str, value):
        """``value`` (the exact parse of ``text``), or the same tree decoded again with its
        number texts recorded when ``text`` holds a number that would be written otherwise."""
        if not suspect(text):
            return value

        # every number recorded is kept alive here, not only through the tree: a value that a
        # later duplicate key replaces (or a decode that fails half-way) is dropped by the
        # decoder, and a new number could then be given its id and take its text
        keep = self.keep.append

        def flt(token):
            d = Decimal(token)
            if str(d) != token:
                self[id(d)] = token
                keep(d)
            return d

        def integer(token):
            if token == "-0":
                d = Decimal("-0")
                self[id(d)] = "-0"
                keep(d)
                return d
            return int(token)

        try:
            again = json.JSONDecoder(parse_float=flt, parse_int=integer).decode(text)
        except (ValueError, RecursionError, ArithmeticError):
            return value
        self.keep.append(again)
        return again

    def parse_string(self, parse, text: str, max_depth: int):
        """Parse the JSON held by a string (for the walk), its number texts recorded."""
        parsed = parse(text, field=None, max_depth=max_depth, warnings=False)
        parsed.value = self.decode(text, parsed.value)
        self.keep.append(parsed)
        return parsed
