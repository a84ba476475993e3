"""Strict, exact JSON parsing of the user's text: the core every view parses through.

* Strict RFC 8259: no NaN/Infinity, trailing commas, comments, single quotes, control
  characters in strings, byte order mark, or text after the value.
* Every error is a :class:`WorkbenchError` with a plain message, 1-based ``line``/``column``,
  0-based ``offset`` and a ``snippet`` with a caret under the spot.
* Nesting depth is limited (``max_depth``); deeper input is a clear error, never a crash.
* Numbers stay exact: integers are Python ``int``, other numbers ``decimal.Decimal`` (or, for
  the formatter, ``orjson.Fragment`` holding the token's text unchanged).
* Duplicate keys, lone surrogate escapes and integers JavaScript would round are reported as
  warnings with the JSON Pointer and position of each.

The fast path is the C scanner of the standard library's ``json`` with hooks; positions are
only computed (by :mod:`.positions`: :func:`locate_many` and a walker that skips subtrees with the C scanner)
when something needs them, so a 20 MB document parses in a few tenths of a second.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from itertools import compress

from ..errors import WorkbenchError
from ..limits import DEFAULT_MAX_DEPTH
from ..runtime.memory import collector_paused

TYPE_CHECKING = False   # (typing itself is not imported at start-up)
if TYPE_CHECKING:
    from .positions import LineIndex, Span

# positions, the messages for faults and the warnings are read where they are needed (a fault, a
# warning, a place asked for): a small document without any formats without them (start-up,
# issue 25)


class NumberText(str):
    """A number token kept as its exact text (``numbers="text"`` mode)."""

    __slots__ = ()


class _Constant(Exception):
    pass


def _reject_constant(name):
    raise _Constant(name)


class Parsed:
    """A parsed document: the user's ``text``, its exact ``value`` and its ``warnings``;
    ``duplicate_mark``: with keep_duplicates, the tag on repeated keys (see :func:`parse`);
    ``warning_count``: all the warnings, also those a warning_limit left unlisted;
    ``duplicate_count``: the repeated keys the parser met (listed as warnings or not; 0 when
    no warnings, no numbers mode and no ``keep_duplicates`` were asked for: that reading does
    not look for them)."""

    __slots__ = ("text", "value", "warnings", "_lines", "duplicate_mark", "warning_count", "duplicate_count")

    def __init__(self, text: str, value: object, warnings: list[dict] | None = None,
                 _lines: LineIndex | None = None, duplicate_mark: str | None = None,
                 warning_count: int = 0):
        self.text, self.value = text, value
        self.warnings = [] if warnings is None else warnings
        self._lines, self.duplicate_mark, self.warning_count = _lines, duplicate_mark, warning_count
        self.duplicate_count = 0

    def __repr__(self) -> str:
        return f"Parsed(text={self.text[:40]!r}…, warnings={self.warning_count})"

    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            from .positions import LineIndex
            self._lines = LineIndex(self.text)
        return self._lines

    def spans(self, pointers: Iterable[str]) -> dict[str, Span]:
        from .positions import locate_many
        return locate_many(self.text, pointers)


def parse(text: str, *, field: str | None = "document", max_depth: int = DEFAULT_MAX_DEPTH,
          numbers: str = "exact", warnings: bool = True, check_depth: bool = True,
          keep_duplicates: bool = False, warning_limit: int | None = None,
          share_strings: bool = False) -> Parsed:
    """Parse ``text`` strictly (see :func:`_parse` for ``numbers``).

    ``warning_limit``: only the first that many warnings are placed and listed (placing is
    Python work per warning); ``Parsed.warning_count`` counts all of them either way.

    ``keep_duplicates=True`` (the formatter's option) keeps every member of an object with a
    repeated key, in place: the second and later ``"a"`` become the key ``"a" + mark + n`` where
    ``mark`` (``Parsed.duplicate_mark``) is a NUL and a random tag absent from the text, so the
    tree stays a plain dict that orjson writes, sorting stays stable (``"a"`` sorts just before
    ``"a\x00…"``) and the writer's ``duplicate_mark`` argument strips the tag again.  Every
    other caller gets the default: the last value wins, as in Python, JavaScript and Go.

    ``share_strings=True``: equal short string values of objects are one object (the first
    :data:`SHARED_STRINGS` distinct ones seen; keys are shared by the C scanner already) --
    a recording of 100,000 items repeats ``"function_call"`` and ``"completed"`` in each, about
    60 bytes apiece (the transcript's reader)."""
    with collector_paused():
        parsed, found = _parse(text, field=field, max_depth=max_depth, numbers=numbers,
                               keep_duplicates=keep_duplicates, floats=warnings,
                               share_strings=share_strings)
        if check_depth:
            _check_depth(parsed, max_depth, field)
        if warnings and (any(found) or "\\ud" in text or "\\uD" in text):
            from .warnings import _NO_VALUE, find_warnings_counted
            duplicates, long_ints, floats = found
            parsed.warnings, parsed.warning_count = find_warnings_counted(
                text, duplicates, long_ints, parsed.lines, floats,
                duplicates_kept=keep_duplicates, limit=warning_limit,
                value=parsed.value if numbers == "exact" else _NO_VALUE)
        return parsed


SHARED_STRINGS = 4096  # distinct string values share_strings keeps (the repeated ones come early)
SHARED_STRING_CHARS = 40  # the longest string value it shares (types, names, statuses, short ids)

#: what :func:`quick_value` returns for a text it leaves to :func:`parse`
NOT_QUICK = object()
_QUICK_SCAN = json.JSONDecoder(parse_float=Decimal, parse_constant=_reject_constant).scan_once
_JSON_SPACE = " \t\n\r"


def quick_value(text: str, max_depth: int = DEFAULT_MAX_DEPTH):
    """The exact value of ``text`` -- the same as ``parse(text, warnings=False).value`` -- read
    without positions, warnings or hooks but for numbers, for a caller that validates many small
    documents; :data:`NOT_QUICK` for anything :func:`parse` should read and report itself (a
    fault, a byte order mark, a lone surrogate, more brackets than ``max_depth``, an integer
    past Python's digit limit)."""
    if text.startswith("\ufeff") or (len(text) > max_depth and text.count("[") + text.count("{") > max_depth):
        return NOT_QUICK  # (a text no longer than max_depth cannot nest deeper)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return NOT_QUICK
    try:  # the C scanner itself (JSONDecoder.decode is two Python calls around it)
        value, end = _QUICK_SCAN(text, 0 if text[:1] not in _JSON_SPACE else len(text) - len(text.lstrip(_JSON_SPACE)))
    except (StopIteration, ValueError, _Constant, RecursionError, InvalidOperation):
        return NOT_QUICK
    if end != len(text) and text[end:].strip(_JSON_SPACE):
        return NOT_QUICK
    return value


class NotQuickArray(Exception):
    """:func:`array_elements` met something it leaves to :func:`parse` (which reports it)."""


_WS = re.compile(r"[ \t\n\r]*")
_NEXT = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")   # between two elements


def array_elements(text: str, max_depth: int = DEFAULT_MAX_DEPTH):
    """The elements of the JSON array ``text`` one at a time, as ``(value, start, end)``: the
    values ``parse(text, warnings=False)`` holds, and where each sits in the text, from one C
    scan per element (:func:`quick_value`'s scanner) -- nothing is kept, so a caller that
    consumes a long array as it goes holds one element at a time, and needs no second scan
    for the places.  Raises :class:`NotQuickArray` (possibly after some elements) for anything
    :func:`parse` should read and report itself: a text that is not one array, a fault, a byte
    order mark, a lone surrogate, an element with more brackets than ``max_depth`` allows
    below the array, an integer past Python's digit limit, an empty array."""
    if text.startswith("\ufeff"):
        raise NotQuickArray
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise NotQuickArray from None
    i = _WS.match(text, 0).end()
    if text[i:i + 1] != "[":
        raise NotQuickArray
    j = _WS.match(text, i + 1).end()
    scan, nxt, count = _QUICK_SCAN, _NEXT.match, text.count
    below = max_depth - 1   # the array is the first level
    while True:
        try:
            value, end = scan(text, j)
        except (StopIteration, ValueError, _Constant, RecursionError, InvalidOperation):
            raise NotQuickArray from None
        if end - j > below and count("[", j, end) + count("{", j, end) > below:
            raise NotQuickArray   # (a shorter text cannot nest deeper)
        yield value, j, end
        m = nxt(text, end)
        if m is None:
            k = _WS.match(text, end).end()
            if text[k:k + 1] != "]" or _WS.match(text, k + 1).end() != len(text):
                raise NotQuickArray
            return
        j = m.end()


def _decoded(decoder, text: str, max_depth: int, field):
    """``decoder.decode(text)`` with its faults as the located errors; any other ``ValueError``
    (an integer past Python's digit limit) is let through, for the Decimal reading."""
    try:
        return decoder.decode(text)
    except (json.JSONDecodeError, _Constant, RecursionError, InvalidOperation) as exc:
        raise _fault(exc, text, max_depth, field) from None


def _fault(exc: Exception, text: str, max_depth: int, field) -> WorkbenchError:
    """The located error of a fault :func:`_decoded` met (the messages' module is read only
    then)."""
    from .diagnose import constant_error, diagnose, exponent_error, too_deep
    if isinstance(exc, json.JSONDecodeError):   # (after the long integer, the second time)
        return diagnose(text, exc, field)
    if isinstance(exc, _Constant):
        return constant_error(text, str(exc), field)
    if isinstance(exc, RecursionError):
        return too_deep(text, max_depth, field)
    return exponent_error(text, field)


def _parse(text: str, *, field: str | None, max_depth: int, numbers: str,
           keep_duplicates: bool = False, floats: bool = False,
           share_strings: bool = False) -> tuple[Parsed, tuple]:
    """Parse ``text`` strictly.  ``numbers`` is ``"exact"`` (int / Decimal),
    ``"fragment"`` (every number an ``orjson.Fragment`` of its token, for writing out) or
    ``"text"`` (every number a :class:`NumberText`, the token as a ``str`` subclass).

    Raises :class:`WorkbenchError` (422) with the position of the first fault.
    ``check_depth=False`` leaves the depth check to the caller (see :func:`check_depth`).
    """
    if not isinstance(text, str):
        raise WorkbenchError("bad_request", f"'{field}' must be a string holding JSON text",
                             status=400, field=field)
    if text.startswith("\ufeff"):
        from .positions import error_at
        raise error_at(text, 0, "parse_error",
                       "The text starts with a byte order mark (U+FEFF); JSON text must not",
                       field=field)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            from .positions import error_at
            raise error_at(text, exc.start, "parse_error",
                           f"The text holds U+{ord(text[exc.start]):04X}, a lone surrogate that is "
                           "not a character: the input was not valid UTF-8 or UTF-16",
                           field=field) from None

    duplicates: list[str] = []
    long_ints: list[str] = []
    odd_floats: list[str] = []
    marks: list[str] = []  # keep_duplicates: [mark], made at the first repeated key

    shared: dict[str, str] = {}

    def pairs_hook(pairs):
        if share_strings:
            for j, (k, v) in enumerate(pairs):
                if type(v) is str and len(v) <= SHARED_STRING_CHARS:
                    s = shared.get(v)
                    if s is None and len(shared) < SHARED_STRINGS:
                        shared[v] = v
                    elif s is not None:
                        pairs[j] = (k, s)
        d = dict(pairs)
        if len(d) != len(pairs):
            seen = set()
            repeated = [k for k, _ in pairs if k in seen or seen.add(k)]
            duplicates.extend(repeated)
            if keep_duplicates:
                d = _keep_all(pairs, text, marks, len(duplicates) - len(repeated))
        return d

    if numbers == "text":
        number_type = NumberText
    elif numbers == "fragment":
        from orjson import Fragment as number_type  # (imported where used: start-up, issue 25)
    else:
        number_type = None

    def int_hook(token):
        if len(token) > 15:
            long_ints.append(token)
        return int(token) if number_type is None else number_type(token)

    def float_hook(token, _make=number_type or Decimal):
        # only tokens a float64 reader may change: > 15 significant digits or an exponent
        if len(token) > 16 or "e" in token or "E" in token:
            odd_floats.append(token)
        return _make(token)

    def share_hook(d):
        # share_strings without warnings: the C scanner builds each dict (the last duplicate
        # wins, as dict(pairs) does) and only the sharing is Python work -- no list of pairs
        # and no int_hook (a 20 MB Gemini chunk array of 770,000 objects: 0.61 s -> 0.41 s)
        for k, v in d.items():
            if type(v) is str and len(v) <= SHARED_STRING_CHARS:
                s = shared.get(v)
                if s is None:
                    if len(shared) < SHARED_STRINGS:
                        shared[v] = v
                elif s is not v:
                    d[k] = s   # (a value replaced, not a key added: the iteration holds)
        return d

    if not floats and not keep_duplicates and number_type is None:
        # nothing to collect (no warnings asked for, last duplicate wins as in a plain dict):
        # the C scanner builds the objects and the integers itself, without a Python call each
        # but the sharing's
        decoder = json.JSONDecoder(parse_float=Decimal, parse_constant=_reject_constant,
                                   object_hook=share_hook if share_strings else None)
    else:
        decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_int=int_hook,
                                   parse_float=float_hook if floats else number_type or Decimal,
                                   parse_constant=_reject_constant)
    try:
        value = _decoded(decoder, text, max_depth, field)
    except ValueError:
        # an integer beyond Python's int-conversion digit limit: keep it as a Decimal
        duplicates.clear()
        long_ints.clear()
        odd_floats.clear()
        number_type = number_type or Decimal
        decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_int=int_hook,
                                   parse_float=float_hook if floats else number_type,
                                   parse_constant=_reject_constant)
        value = _decoded(decoder, text, max_depth, field)

    parsed = Parsed(text, value)
    parsed.duplicate_mark = marks[0] if marks else None
    parsed.duplicate_count = len(duplicates)
    return parsed, (duplicates, long_ints, odd_floats)


def _keep_all(pairs, text: str, marks: list, counted: int) -> dict:
    """The members of one object with every repeated key kept: later copies get the key
    ``key + mark + nnnnnnnnn`` (a running count, so sorted output keeps them in order)."""
    if not marks:
        mark = "\x00wbdup" + os.urandom(6).hex()
        while mark[1:] in text:
            mark = "\x00wbdup" + os.urandom(6).hex()
        marks.append(mark)
    mark = marks[0]
    d: dict = {}
    n = counted
    for k, v in pairs:
        if k in d:
            n += 1
            k = f"{k}{mark}{n:09d}"
        d[k] = v
    return d


ORJSON_MAX_DEPTH = 254  # orjson refuses to write deeper trees (measured: 255 fails)


def check_depth(parsed: "Parsed", max_depth: int, field=None) -> None:
    """Raise ``too_deep`` when the parsed value nests deeper than ``max_depth``.

    Cheapest proof first: fewer brackets in the text than the limit; then, for a limit of 254
    or more, orjson writing the tree (in C; it refuses more than 254 levels); then a walk level
    by level.  Only a document over the limit pays for finding the spot of the fault."""
    text = parsed.text
    if text.count("[") + text.count("{") <= max_depth:
        return
    if max_depth >= ORJSON_MAX_DEPTH:
        import orjson
        try:
            orjson.dumps(parsed.value, default=str)
            return
        except TypeError:  # (orjson.JSONEncodeError is a TypeError)
            pass  # deeper than orjson writes, integers beyond 64 bits, lone surrogates
    if _deeper_than(parsed.value, max_depth):
        from .diagnose import too_deep
        raise too_deep(text, max_depth, field)


_check_depth = check_depth  # for parse(), whose keyword argument has the same name

_IS_CONTAINER = frozenset({dict, list}).__contains__


def _deeper_than(root: object, limit: int) -> bool:
    """Whether ``root`` nests containers more than ``limit`` levels deep (the root is level 1);
    level by level, the containers of each level picked out in C."""
    level = [root] if type(root) in (dict, list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list = []
        add = below.extend
        for node in level:
            values = node.values() if type(node) is dict else node
            add(compress(values, map(_IS_CONTAINER, map(type, values))))
        level = below
    return False


