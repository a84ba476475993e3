"""The scalar tokens of a valid JSON text, in text order, with where each sits: for rewriting a
text token by token (redaction) so that everything else — layout, keys, line breaks — stays.

Only for text that :func:`workbench.jsontext.parse` has accepted: the tokens are then cut by one
regular expression in C, and every string token is a well-formed literal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

# a member name (a string and its colon: group 2), a string value (1), a number or a literal
# (3), an opening (4) or closing (5) bracket; a comma matches no group
_TOKEN = re.compile(r'("(?:[^"\\]|\\.)*")([ \t\n\r]*:)?|([^\s"{}\[\],:]+)|([{\[])|([}\]])|,', re.S)
_scanstring = json.decoder.scanstring


@dataclass(slots=True)
class Scalar:
    """One string or number value: ``start``/``end`` its token's offsets, ``key`` the member
    name it is the value of (for an array element: the array's member name), ``in_array``
    whether it is an array element, ``container`` the index of its container in
    :attr:`Scalars.containers` (-1 at the top)."""

    kind: str  # "string" | "number"
    start: int
    end: int
    key: str | None
    in_array: bool
    container: int


@dataclass(slots=True)
class Container:
    """An object or array: ``kind`` ``"{"`` or ``"["``, ``key`` its member name in its parent,
    ``parent`` the parent's index (-1 at the top), ``keys`` the member names of an object."""

    kind: str
    key: str | None
    parent: int
    keys: set = field(default_factory=set)


@dataclass
class Scalars:
    values: list
    containers: list


def scalars(text: str, check=None) -> Scalars:
    """Every string and number value of the valid JSON ``text`` (keys are not values), with the
    containers they sit in.  ``check`` is called once per value (a work deadline's ``check``)."""
    values: list[Scalar] = []
    containers: list[Container] = []
    stack: list[int] = []
    top = -1
    in_array = False
    key: str | None = None       # the member name read last, while its value is pending
    add = values.append
    for m in _TOKEN.finditer(text):
        kind = m.lastindex
        if kind is None:          # a comma
            continue
        if kind == 2:             # a member name
            key = m.group(1)[1:-1]
            if "\\" in key:
                key = _scanstring(text, m.start() + 1)[0]
            containers[top].keys.add(key)
            continue
        if kind == 4:
            c = m.group(4)
            name = containers[top].key if in_array else key
            containers.append(Container(c, name, top))
            top = len(containers) - 1
            stack.append(top)
            in_array = c == "["
            key = None
            continue
        if kind == 5:
            stack.pop()
            top = stack[-1] if stack else -1
            in_array = top >= 0 and containers[top].kind == "["
            key = None
            continue
        if check is not None:
            check()
        if kind == 1:
            add(Scalar("string", m.start(), m.end(), containers[top].key if in_array else key,
                       in_array, top))
        elif m.group(3)[0] in "-0123456789":
            add(Scalar("number", m.start(), m.end(), containers[top].key if in_array else key,
                       in_array, top))
        key = None if not in_array else key
    return Scalars(values, containers)


def string_value(text: str, s: Scalar) -> str:
    """The decoded value of a string token."""
    return _scanstring(text, s.start + 1)[0]
