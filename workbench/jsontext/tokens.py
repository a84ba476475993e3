"""The scalar tokens of a valid JSON text, in text order, with where each sits: for rewriting a
text token by token (redaction) so that everything else — layout, keys, line breaks — stays.

Only for text that :func:`workbench.jsontext.parse` has accepted: the tokens are then cut by one
regular expression in C, and every string token is a well-formed literal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"{}\[\]:,]+|[{}\[\]:,]', re.S)
_scanstring = json.decoder.scanstring


@dataclass
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


@dataclass
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
    containers they sit in.  ``check`` is called once per token (a work deadline's ``check``)."""
    values: list[Scalar] = []
    containers: list[Container] = []
    stack: list[int] = []
    key: str | None = None       # the member name read last, while its value is pending
    expect_key = False
    for m in _TOKEN.finditer(text):
        if check is not None:
            check()
        tok = m.group()
        c = tok[0]
        if c in ",:":
            if c == "," and stack and containers[stack[-1]].kind == "{":
                expect_key = True
            continue
        top = stack[-1] if stack else -1
        in_array = top >= 0 and containers[top].kind == "["
        if c in "{[":
            name = containers[top].key if in_array else key
            containers.append(Container(c, name if not in_array else None, top))
            if in_array:
                containers[-1].key = containers[top].key  # an array's elements share its name
            stack.append(len(containers) - 1)
            expect_key = c == "{"
            key = None
            continue
        if c in "}]":
            stack.pop()
            expect_key = False
            key = None
            continue
        if c == '"' and expect_key:
            key = _scanstring(text, m.start() + 1)[0]
            containers[top].keys.add(key)
            expect_key = False
            continue
        if c == '"':
            kind = "string"
        elif c in "-0123456789":
            kind = "number"
        else:
            key = None
            continue   # true, false, null
        values.append(Scalar(kind, m.start(), m.end(),
                             containers[top].key if in_array else key, in_array, top))
        key = None
    return Scalars(values, containers)


def string_value(text: str, s: Scalar) -> str:
    """The decoded value of a string token."""
    return _scanstring(text, s.start + 1)[0]
