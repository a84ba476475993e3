"""The parts of ``jsonschema`` the Validate view replaces, and why.

* **Patterns in bounded time, with ECMA-262 meaning.**  ``pattern``, ``patternProperties`` (and
  the places that consult it: ``additionalProperties``, ``unevaluatedProperties``) and the
  ``regex`` format run on the ``regex`` package with a timeout, never on Python's ``re``
  (``^(a|aa)+$`` on 60 ``a``s and a ``!`` would run for hours).  Patterns are first translated
  from ECMA-262, the dialect JSON Schema specifies: ``\\d``/``\\w``/``\\b`` are ASCII, ``\\s``
  is ECMA white space, ``$`` is the end of the string (Python's ``$`` also matches before a
  final newline, so ``^[A-Z]-\\d{4}$`` would accept ``"A-1234\\n"``), ``.`` stops at every line
  terminator, ``\\cX`` and ``\\u{…}`` escapes work; ``\\p{…}`` is kept (``regex`` has it).
  A pattern proven to backtrack at most linearly (:func:`linear_limit`) skips the timeout, whose
  clock costs more than matching a short string.
* **Exact numbers.**  The parser hands over ``int`` and ``decimal.Decimal``.  From draft 6 on an
  integral ``Decimal`` (``1.0``, ``1e2``) is an ``integer``; ``multipleOf`` is computed exactly,
  also for ``1e400`` or ``0.0001``, without ``InvalidOperation`` or a giant power of ten.
* **One error per key.**  ``required``, ``dependentRequired``/``dependencies``,
  ``additionalProperties: false`` and ``unevaluatedProperties`` report each missing or extra
  key separately and carry it (``error.wb_key``), so the error points at ``/order_id`` or
  ``/refund`` instead of naming them inside a message.
* **Every error at its place**: the library's error for a ``false`` subschema lacks the path of
  the descent (``properties: {"refund": false}`` was reported at the object), and a
  ``propertyNames`` error is marked with its key (``error.wb_pname``) instead of being guessed
  from the schema path (which a property literally named ``propertyNames`` fooled).
* **Linear ``uniqueItems``** (jsonschema falls back to comparing every pair of objects).
* **2019-09 ``unevaluatedProperties``** next to a non-boolean ``additionalProperties``: the
  library counts the subschema's own keywords as evaluated keys; fixed here.
* **A work deadline**: every step into a subschema (``evolve``) checks the clock, so a
  request ends within about ``limits.work_timeout`` whatever the schema does.
* **``$schema`` inside a subschema** selects one of these classes, not the library's own
  (which would bring back ``re`` and float-only integers).
"""

from __future__ import annotations

import copy
import threading
import time
from decimal import Decimal

import sys

import attrs
import regex


def _import_jsonschema_without_iri_grammar():
    """Import jsonschema without ``rfc3987_syntax``, whose grammar takes 1-3 s to build at import
    (the first validation of a fresh server paid it) and whose parser is slow; ``iri`` and
    ``iri-reference`` are checked by :func:`iri_check` instead.  Nothing changes when
    jsonschema is already imported."""
    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        import jsonschema  # noqa: F401
        return
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]
    try:
        import jsonschema  # noqa: F401
    finally:
        del sys.modules["rfc3987_syntax"]


_import_jsonschema_without_iri_grammar()

from jsonschema import _types, validators  # noqa: E402
from jsonschema._utils import equal, is_valid
from jsonschema.exceptions import FormatError, ValidationError
from referencing.jsonschema import lookup_recursive_ref

from ..errors import WorkbenchError

# --------------------------------------------------------------------------- per-call state

_state = threading.local()
_NEVER = float("inf")


def _deadline() -> float:
    return getattr(_state, "deadline", float("inf"))


class WorkTimeout(Exception):
    """Raised inside validation when the request's work deadline has passed."""


class Budget:
    """Context manager: set the regex timeout and the work deadline for this thread."""

    def __init__(self, regex_timeout: float, work_timeout: float):
        self.regex_timeout = regex_timeout
        self.work_timeout = work_timeout

    def __enter__(self):
        self.saved = (getattr(_state, "deadline", None), getattr(_state, "regex_timeout", None),
                      getattr(_state, "memo", None))
        _state.deadline = time.monotonic() + self.work_timeout
        _state.regex_timeout = self.regex_timeout
        _state.memo = {}
        return self

    def __exit__(self, *exc):
        _state.deadline, _state.regex_timeout, _state.memo = self.saved
        for name in ("deadline", "regex_timeout", "memo"):
            if getattr(_state, name) is None:
                delattr(_state, name)
        return False


# --------------------------------------------------------------------------- ECMA-262 patterns

_ECMA_SPACE = "\\t\\n\\x0b\\f\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_WORD = "A-Za-z0-9_"
_OUTSIDE = {
    "d": "[0-9]", "D": "[^0-9]", "w": f"[{_WORD}]", "W": f"[^{_WORD}]",
    "s": f"[{_ECMA_SPACE}]", "S": f"[^{_ECMA_SPACE}]",
    "b": f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
}
_INSIDE = {"d": "0-9", "w": _WORD, "s": _ECMA_SPACE}
_HEX = set("0123456789abcdefABCDEF")


def ecma_to_python(pattern: str) -> str:
    """Translate an ECMA-262 pattern to the ``regex`` package's syntax (see module doc)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            if e in "dDwWsSbB" and not (in_class and e in "bB"):
                if in_class:
                    out.append(_INSIDE.get(e, "\\" + e))
                else:
                    out.append(_OUTSIDE[e])
                i += 2
            elif e == "c" and i + 2 < n and pattern[i + 2].isascii() and pattern[i + 2].isalpha():
                out.append(f"\\x{ord(pattern[i + 2]) % 32:02x}")
                i += 3
            elif e == "u" and pattern.startswith("{", i + 2):
                close = pattern.find("}", i + 3)
                digits = pattern[i + 3:close] if close != -1 else ""
                if digits and set(digits) <= _HEX and int(digits, 16) <= 0x10FFFF:
                    out.append(f"\\U{int(digits, 16):08x}")
                    i = close + 1
                else:
                    out.append("\\u")
                    i += 2
            elif e == "u" and i + 6 <= n and set(pattern[i + 2:i + 6]) <= _HEX:
                cp = int(pattern[i + 2:i + 6], 16)
                if (0xD800 <= cp <= 0xDBFF and pattern.startswith("\\u", i + 6)
                        and set(pattern[i + 8:i + 12]) <= _HEX and len(pattern[i + 8:i + 12]) == 4
                        and 0xDC00 <= int(pattern[i + 8:i + 12], 16) <= 0xDFFF):
                    low = int(pattern[i + 8:i + 12], 16)
                    out.append(f"\\U{0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00):08x}")
                    i += 12
                else:
                    out.append(pattern[i:i + 6])
                    i += 6
            elif e == "k" and pattern.startswith("<", i + 2) and pattern.find(">", i + 3) != -1:
                close = pattern.find(">", i + 3)
                out.append(f"(?P={pattern[i + 3:close]})")
                i = close + 1
            elif e in "pP" and pattern.startswith("{", i + 2) and pattern.find("}", i + 3) != -1:
                close = pattern.find("}", i + 3)
                out.append(pattern[i:close + 1])
                i = close + 1
            elif e == "/":
                out.append("/")
                i += 2
            else:
                out.append(pattern[i:i + 2])
                i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
                out.append("]")
            elif c == "[":
                out.append("\\[")
            else:
                out.append(c)
            i += 1
            continue
        if c == "[":
            if pattern.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            if pattern.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            in_class = True
            out.append("[")
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            continue
        if c == "$":
            out.append("\\Z")
        elif c == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
        else:
            out.append(c)
        i += 1
    return "".join(out)


class PatternError(Exception):
    def __init__(self, pattern: str, detail: str):
        super().__init__(detail)
        self.pattern = pattern
        self.detail = detail


_COMPILED: dict[str, object] = {}
_COMPILED_LOCK = threading.Lock()


def compile_pattern(pattern: str):
    """The compiled ``regex`` of an ECMA-262 pattern (cached); raises :class:`PatternError`."""
    found = _COMPILED.get(pattern)
    if found is None:
        try:
            found = regex.compile(ecma_to_python(pattern), flags=regex.V0)
        except (regex.error, ValueError, OverflowError, RecursionError) as exc:
            found = PatternError(pattern, str(exc))
        with _COMPILED_LOCK:
            if len(_COMPILED) > 2048:
                _COMPILED.clear()
            _COMPILED[pattern] = found
    if isinstance(found, PatternError):
        raise found
    return found


def pattern_timeout_error(pattern: str, limit: float) -> WorkbenchError:
    return WorkbenchError(
        "timeout",
        f"The pattern {pattern!r} ran longer than the limit of {limit:g} s on one string "
        "(catastrophic backtracking?): simplify it, e.g. avoid nested repetition like (a+)+",
        field="schema", pattern=pattern, limit=limit)


def search(pattern: str, string: str) -> bool:
    """Whether the ECMA-262 ``pattern`` finds a match in ``string``, in bounded time."""
    compiled = compile_pattern(pattern)
    if len(string) <= linear_limit(pattern):  # provably bounded: no timeout (see below)
        return compiled.search(string) is not None
    limit = getattr(_state, "regex_timeout", 1.0)
    remaining = _deadline() - time.monotonic()
    if remaining <= 0:
        raise WorkTimeout()
    try:
        return compiled.search(string, timeout=min(limit, remaining)) is not None
    except TimeoutError:
        if remaining < limit:
            raise WorkTimeout() from None
        raise pattern_timeout_error(pattern, limit) from None


# --------------------------------------------------------------------------- linear patterns

# ``regex`` checks its timeout with a CPU clock: that adds about 2 µs to every search, several
# times the cost of matching a short string.  A pattern that provably cannot backtrack more
# than linearly is run without it on strings of bounded length (the result is the same: only
# the bound on time is proven instead of measured).  The proof is the classic one for
# backtracking engines: a pattern whose Glushkov automaton is deterministic (at every point
# the characters that may come next pick one way on, and no repetition can end and restart on
# the same character), with no empty repetition, lookaround or backreference, parses every
# string in one way; the engine then tries each way at most once per character.

_MAX_CP = 0x10FFFF
_UNIVERSAL = ((0, _MAX_CP),)
#: strings at most this long are matched without the timeout by a linear pattern anchored at
#: its start (one match attempt: O(n · size)); unanchored ones try every start: O(n² · size)
LINEAR_ANCHORED_MAX = 20_000
LINEAR_UNANCHORED_MAX = 256
_LINEAR_POSITIONS = 200


class _NotLinear(Exception):
    pass


def _ranges(ranges) -> tuple:
    out: list = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def _complement(ranges) -> tuple:
    out, at = [], 0
    for lo, hi in ranges:
        if lo > at:
            out.append((at, lo - 1))
        at = hi + 1
    if at <= _MAX_CP:
        out.append((at, _MAX_CP))
    return tuple(out)


def _overlap(a, b) -> bool:
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i][1] < b[j][0]:
            i += 1
        elif b[j][1] < a[i][0]:
            j += 1
        else:
            return True
    return False


_SPACE_RANGES = _ranges([(9, 13), (32, 32), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
                         (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000),
                         (0xFEFF, 0xFEFF)])
_CLASS_ESCAPES = {
    "d": _ranges([(48, 57)]),
    "w": _ranges([(48, 57), (65, 90), (95, 95), (97, 122)]),
    "s": _SPACE_RANGES,
}
_CHAR_ESCAPES = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13}


class _ShapeParser:
    """Reads a translated pattern (:func:`ecma_to_python`'s output) into a small tree:
    ``("set", ranges)``, ``("cat", [..])``, ``("alt", [..])``, ``("rep", node, min, max)``;
    anything outside that shape raises :class:`_NotLinear`."""

    def __init__(self, text: str):
        self.s = text
        self.i = 0

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def alternation(self, depth: int):
        branches = [self.sequence(depth)]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence(depth))
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def sequence(self, depth: int):
        items = []
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in "|)":
                break
            if c == "\\" and s.startswith("\\Z", self.i):
                if depth or self.i + 2 != len(s):
                    raise _NotLinear
                self.i += 2
                break
            items.append(self.quantified(self.atom(depth)))
        return ("cat", items)

    def atom(self, depth: int):
        s = self.s
        c = s[self.i]
        if c == "(":
            if s.startswith("(?:", self.i):
                self.i += 3
            elif s.startswith("(?P<", self.i):
                close = s.find(">", self.i)
                if close == -1:
                    raise _NotLinear
                self.i = close + 1
            elif s.startswith("(?", self.i):
                raise _NotLinear  # lookaround, backreference, flags...
            else:
                self.i += 1
            inner = self.alternation(depth + 1)
            if self.peek() != ")":
                raise _NotLinear
            self.i += 1
            return inner
        if c == "[":
            return ("set", self.char_class())
        if c in "*+?{^$.)|":
            raise _NotLinear  # '.' and '$' never survive the translation
        if c == "\\":
            got = self.escape(in_class=False)
            return ("set", got if isinstance(got, tuple) else ((got, got),))
        self.i += 1
        return ("set", ((ord(c), ord(c)),))

    def escape(self, in_class: bool):
        """After a backslash: a code point (int) or a set (tuple of ranges)."""
        s = self.s
        if self.i + 1 >= len(s):
            raise _NotLinear
        e = s[self.i + 1]
        self.i += 2
        if e in "dws":
            return _CLASS_ESCAPES[e]
        if e in "DWS":
            return _complement(_CLASS_ESCAPES[e.lower()])
        if e in "pP":
            if self.peek() != "{" or s.find("}", self.i) == -1:
                raise _NotLinear
            self.i = s.find("}", self.i) + 1
            return _UNIVERSAL  # a Unicode property: assume it may hold anything
        if e in _CHAR_ESCAPES:
            return _CHAR_ESCAPES[e]
        if e == "b" and in_class:
            return 8
        if e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            digits = s[self.i:self.i + width]
            if len(digits) != width or not set(digits) <= _HEX:
                raise _NotLinear
            self.i += width
            cp = int(digits, 16)
            if cp > _MAX_CP:
                raise _NotLinear
            return cp
        if e == "0" and not self.peek().isdigit():
            return 0
        if e.isascii() and e.isalnum():
            raise _NotLinear  # backreference, \b, \A, \Z inside, \N... : not analysed
        return ord(e)

    def char_class(self) -> tuple:
        s = self.s
        self.i += 1
        negate = False
        if self.peek() == "^":
            negate = True
            self.i += 1
        ranges: list = []
        first = True
        while True:
            if self.i >= len(s):
                raise _NotLinear
            c = s[self.i]
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            if c == "[":
                raise _NotLinear  # POSIX classes and set operations: not analysed
            if c == "\\":
                lo = self.escape(in_class=True)
            else:
                lo = ord(c)
                self.i += 1
            if isinstance(lo, tuple):
                ranges.extend(lo)
                continue
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.i += 1
                if self.peek() == "\\":
                    hi = self.escape(in_class=True)
                    if isinstance(hi, tuple):
                        raise _NotLinear
                else:
                    hi = ord(self.peek())
                    self.i += 1
                if hi < lo:
                    raise _NotLinear
                ranges.append((lo, hi))
            else:
                ranges.append((lo, lo))
        found = _ranges(ranges)
        return _complement(found) if negate else found

    def quantified(self, node):
        s = self.s
        c = self.peek()
        if c == "*":
            lo, hi = 0, None
            self.i += 1
        elif c == "+":
            lo, hi = 1, None
            self.i += 1
        elif c == "?":
            lo, hi = 0, 1
            self.i += 1
        elif c == "{":
            close = s.find("}", self.i)
            body = s[self.i + 1:close] if close != -1 else ""
            a, comma, b = body.partition(",")
            if not (a or b) or not (a.isdigit() or (comma and not a)) or (b and not b.isdigit()) \
                    or not a.isascii() or not b.isascii():
                raise _NotLinear
            lo = int(a) if a else 0
            hi = (int(b) if b else None) if comma else lo
            if hi is not None and hi < lo:
                raise _NotLinear
            self.i = close + 1
        else:
            return node
        if self.peek() in ("?", "+"):
            raise _NotLinear  # lazy or possessive
        return ("rep", node, lo, hi)


class _Glushkov:
    def __init__(self):
        self.classes: list = []
        self.follow: list = []

    def position(self, ranges) -> int:
        if len(self.classes) >= _LINEAR_POSITIONS:
            raise _NotLinear
        self.classes.append(ranges)
        self.follow.append(set())
        return len(self.classes) - 1

    def link(self, lasts, firsts) -> None:
        for p in lasts:
            f = self.follow[p]
            for q in firsts:
                if q in f:
                    raise _NotLinear  # two ways to the same place: an ambiguous repetition
                f.add(q)

    def build(self, node):
        """(first positions, last positions, nullable) of ``node``."""
        kind = node[0]
        if kind == "set":
            p = self.position(node[1])
            return [p], [p], False
        if kind == "cat":
            first: list = []
            last: list = []
            nullable = True
            for item in node[1]:
                f, l, n = self.build(item)
                self.link(last, f)
                if nullable:
                    first = first + f
                last = (last + l) if n else l
                nullable = nullable and n
            return first, last, nullable
        if kind == "alt":
            first, last, nullable = [], [], False
            for item in node[1]:
                f, l, n = self.build(item)
                first += f
                last += l
                nullable = nullable or n
            return first, last, nullable
        # repetition
        _, inner, lo, hi = node
        if hi == 0:
            raise _NotLinear
        if inner[0] == "set":  # one character class: copies follow only each other
            parts = []
            if lo:
                parts.append(("set", inner[1]))
            if hi is None or hi > lo:
                p = self.position(inner[1])
                if hi is None or hi - lo > 1:
                    self.link([p], [p])
                if not parts:
                    return [p], [p], True
                f, l, _n = self.build(parts[0])
                self.link(l, [p])
                return f, l + [p], False
            return self.build(parts[0])
        if lo > 16 or (hi is not None and hi - lo > 16):
            raise _NotLinear
        first: list = []
        last: list = []
        nullable = True
        for _ in range(lo):
            f, l, n = self.build(inner)
            if n:
                raise _NotLinear
            self.link(last, f)
            if nullable:
                first = f
            last, nullable = l, False
        if hi is None:
            f, l, n = self.build(inner)
            if n:
                raise _NotLinear
            self.link(l, f)
            self.link(last, f)
            if nullable:
                first = f
            last = last + l
            return first, last, nullable
        # hi - lo nested optional copies: (r(r(r)?)?)?, each after the one before
        prev = last
        for k in range(hi - lo):
            f, l, n = self.build(inner)
            if n:
                raise _NotLinear
            self.link(prev, f)
            if k == 0 and nullable:
                first = f
            last = last + l
            prev = l
        return first, last, nullable

    def deterministic(self, first) -> bool:
        for group in [first] + [list(f) for f in self.follow]:
            for a in range(len(group)):
                for b in range(a + 1, len(group)):
                    if _overlap(self.classes[group[a]], self.classes[group[b]]):
                        return False
        return True


_LINEAR: dict[str, int] = {}


def linear_limit(pattern: str) -> int:
    """The longest string ``pattern`` (ECMA-262) is matched without the timeout: 0 unless the
    pattern provably backtracks at most linearly (see above)."""
    found = _LINEAR.get(pattern)
    if found is None:
        found = 0
        try:
            text = ecma_to_python(pattern)
            anchored = text.startswith("^")
            parser = _ShapeParser(text)
            if anchored:
                parser.i = 1
            tree = parser.alternation(0)
            if parser.i != len(text):
                raise _NotLinear
            if tree[0] == "alt":
                anchored = False  # "^a|b": the anchor binds to the first branch only
            g = _Glushkov()
            first, _last, _nullable = g.build(tree)
            if g.deterministic(first):
                found = LINEAR_ANCHORED_MAX if anchored else LINEAR_UNANCHORED_MAX
        except (_NotLinear, RecursionError, ValueError):
            found = 0
        with _COMPILED_LOCK:
            if len(_LINEAR) > 2048:
                _LINEAR.clear()
            _LINEAR[pattern] = found
    return found


def matcher(pattern: str):
    """A function ``string -> bool``: :func:`search` for one pattern, with the checks done once
    (the compiled pattern, and whether short strings can skip the timeout)."""
    compiled = compile_pattern(pattern)
    limit = linear_limit(pattern)
    fast = compiled.search

    def match(string: str) -> bool:
        if len(string) <= limit:
            return fast(string) is not None
        return search(pattern, string)
    match.pattern = pattern
    match.limit = limit
    match.fast = fast
    return match


# --------------------------------------------------------------------------- exact numbers

def _parts(x) -> tuple[int, int]:
    """``x`` as ``(mantissa, exponent)`` with ``x == mantissa * 10**exponent`` exactly."""
    if isinstance(x, int):
        return x, 0
    if isinstance(x, float):
        x = Decimal(repr(x))
    sign, digits, exp = x.as_tuple()
    if not isinstance(exp, int):
        raise ValueError("not a finite number")
    mantissa = int(x.scaleb(-exp)) if len(digits) > 18 else int("".join(map(str, digits)) or "0")
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
        if exp >= 0 and len(digits) + exp < 30:
            return ("n", (-1 if sign else 1) * int("".join(map(str, digits))) * 10 ** exp)
        return ("n", sign, tuple(digits), exp)
    if isinstance(v, dict):
        return ("o", frozenset((k, canonical(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return ("a", tuple(canonical(x) for x in v))
    return ("?", repr(v))


# --------------------------------------------------------------------------- keywords

def _keyed(message: str, key: str, kind: str) -> ValidationError:
    err = ValidationError(message)
    err.wb_key = key
    err.wb_kind = kind
    return err


def kw_pattern(validator, patrn, instance, schema):
    if validator.is_type(instance, "string") and not search(patrn, instance):
        yield ValidationError(f"{_short(instance)} does not match {patrn!r}")


def kw_patternProperties(validator, patternProperties, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patternProperties.items():
        for k, v in instance.items():
            if search(pattern, k):
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


def additional_keys(instance, schema) -> list:
    """Keys of ``instance`` covered neither by ``properties`` nor ``patternProperties``."""
    properties = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    out = []
    for key in instance:
        if key in properties:
            continue
        if patterns and any(search(p, key) for p in patterns):
            continue
        out.append(key)
    return out


def kw_additionalProperties(validator, aP, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    extras = additional_keys(instance, schema)
    if validator.is_type(aP, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], aP, path=extra)
    elif not aP:
        for extra in extras:
            yield _keyed(f"Additional property {extra!r} is not allowed", extra, "extra")


def kw_required(validator, required, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for prop in required:
        if prop not in instance:
            yield _keyed(f"{prop!r} is a required property", prop, "missing")


def kw_dependentRequired(validator, dependentRequired, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for prop, dependency in dependentRequired.items():
        if prop not in instance:
            continue
        for each in dependency:
            if each not in instance:
                err = _keyed(f"{each!r} is a dependency of {prop!r}", each, "missing")
                err.wb_because = prop
                yield err


def kw_dependencies(validator, dependencies, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for prop, dependency in dependencies.items():
        if prop not in instance:
            continue
        if validator.is_type(dependency, "array"):
            for each in dependency:
                if each not in instance:
                    err = _keyed(f"{each!r} is a dependency of {prop!r}", each, "missing")
                    err.wb_because = prop
                    yield err
        else:
            yield from validator.descend(instance, dependency, schema_path=prop)


def kw_multipleOf(validator, dB, instance, schema):
    if not validator.is_type(instance, "number"):
        return
    try:
        ok = is_multiple(instance, dB)
    except (ValueError, TypeError, ArithmeticError):
        ok = False
    if not ok:
        yield ValidationError(f"{_short(instance)} is not a multiple of {dB}")


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


def kw_uniqueItems(validator, uI, instance, schema):
    if not (uI and validator.is_type(instance, "array")):
        return
    pair = first_duplicate(instance)
    if pair is not None:
        err = ValidationError(f"items {pair[0]} and {pair[1]} are equal")
        err.wb_pair = pair
        yield err


def kw_propertyNames(validator, propertyNames, instance, schema):
    """As the library's, with each error marked with the property name it is about
    (``error.wb_pname``): it is reported at that key."""
    if not validator.is_type(instance, "object"):
        return
    for prop in instance:
        for err in validator.descend(instance=prop, schema=propertyNames):
            if getattr(err, "wb_pname", None) is None:
                err.wb_pname = prop
            yield err


def _uneval_props(finder):
    def unevaluatedProperties(validator, uP, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        evaluated = set(finder(validator, instance, schema))
        for prop in instance:
            if prop in evaluated:
                continue
            if uP is False:
                yield _keyed(f"Unevaluated property {prop!r} is not allowed", prop, "extra")
                continue
            errors = list(validator.descend(instance[prop], uP, path=prop))
            if errors:
                err = ValidationError(
                    f"Unevaluated property {prop!r} is invalid under the unevaluatedProperties schema",
                    path=[prop], context=errors)
                err.wb_inner = errors
                yield err
    return unevaluatedProperties


def _evaluated_keys_2020(validator, instance, schema):
    """Like jsonschema._utils.find_evaluated_property_keys_by_schema, bounded regexes."""
    if validator.is_type(schema, "boolean"):
        return []
    keys: list = []
    for keyword in ("$ref", "$dynamicRef"):
        ref = schema.get(keyword)
        if ref is not None:
            resolved = validator._resolver.lookup(ref)
            keys.extend(_evaluated_keys_2020(
                validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                instance, resolved.contents))
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        keys += properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        subschema = schema.get(keyword)
        if subschema is None:
            continue
        keys += (k for k, v in instance.items() if is_valid(validator.descend(v, subschema)))
    if "patternProperties" in schema:
        for prop in instance:
            if any(search(p, prop) for p in schema["patternProperties"]):
                keys.append(prop)
    if "dependentSchemas" in schema:
        for prop, subschema in schema["dependentSchemas"].items():
            if prop in instance:
                keys += _evaluated_keys_2020(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if is_valid(validator.descend(instance, subschema)):
                keys += _evaluated_keys_2020(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys += _evaluated_keys_2020(validator, instance, schema["if"])
            if "then" in schema:
                keys += _evaluated_keys_2020(validator, instance, schema["then"])
        elif "else" in schema:
            keys += _evaluated_keys_2020(validator, instance, schema["else"])
    return keys


def _evaluated_keys_2019(validator, instance, schema):
    """2019-09 version; unlike the library's, a schema-valued ``additionalProperties`` /
    ``unevaluatedProperties`` evaluates the keys it applies to, not keys named like its
    own keywords."""
    if validator.is_type(schema, "boolean"):
        return []
    keys: list = []
    ref = schema.get("$ref")
    if ref is not None:
        resolved = validator._resolver.lookup(ref)
        keys.extend(_evaluated_keys_2019(
            validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
            instance, resolved.contents))
    if "$recursiveRef" in schema:
        resolved = lookup_recursive_ref(validator._resolver)
        keys.extend(_evaluated_keys_2019(
            validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
            instance, resolved.contents))
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        keys += properties.keys() & instance.keys()
    if "additionalProperties" in schema:
        aP = schema["additionalProperties"]
        extras = additional_keys(instance, schema)
        if aP is True:
            keys += extras
        elif validator.is_type(aP, "object"):
            keys += (k for k in extras if is_valid(validator.descend(instance[k], aP)))
    if "unevaluatedProperties" in schema:
        uP = schema["unevaluatedProperties"]
        if uP is True:
            keys += instance.keys()
        elif validator.is_type(uP, "object"):
            keys += (k for k, v in instance.items() if is_valid(validator.descend(v, uP)))
    if "patternProperties" in schema:
        for prop in instance:
            if any(search(p, prop) for p in schema["patternProperties"]):
                keys.append(prop)
    if "dependentSchemas" in schema:
        for prop, subschema in schema["dependentSchemas"].items():
            if prop in instance:
                keys += _evaluated_keys_2019(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if next(validator.descend(instance, subschema), None) is None:
                keys += _evaluated_keys_2019(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys += _evaluated_keys_2019(validator, instance, schema["if"])
            if "then" in schema:
                keys += _evaluated_keys_2019(validator, instance, schema["then"])
        elif "else" in schema:
            keys += _evaluated_keys_2019(validator, instance, schema["else"])
    return keys


def kw_format(validator, format, instance, schema):
    if validator.format_checker is not None:
        try:
            validator.format_checker.check(instance, format)
        except FormatError as error:
            yield ValidationError(f"{_short(instance)} is not a {format!r}", cause=error.cause)


# The library's messages quote the whole instance with repr(): for a big container that is
# megabytes per error, and nested anyOf/oneOf repeat it at every level.  These keywords do what
# the library's do, with short messages (the readable ones are built later from the error).

def kw_type(validator, types, instance, schema):
    types = [types] if isinstance(types, str) else types
    if not any(validator.is_type(instance, t) for t in types):
        yield ValidationError(f"{_short(instance)} is not of type {', '.join(map(repr, types))}")


def kw_enum(validator, enums, instance, schema):
    if all(not equal(each, instance) for each in enums):
        yield ValidationError(f"{_short(instance)} is not one of the enum values")


def kw_const(validator, const, instance, schema):
    if not equal(instance, const):
        yield ValidationError(f"{_short(const)} was expected")


def kw_minItems(validator, mI, instance, schema):
    if validator.is_type(instance, "array") and len(instance) < mI:
        yield ValidationError(f"{_short(instance)} is too short")


def kw_maxItems(validator, mI, instance, schema):
    if validator.is_type(instance, "array") and len(instance) > mI:
        yield ValidationError(f"{_short(instance)} is too long")


def kw_minProperties(validator, mP, instance, schema):
    if validator.is_type(instance, "object") and len(instance) < mP:
        yield ValidationError(f"{_short(instance)} does not have enough properties")


def kw_maxProperties(validator, mP, instance, schema):
    if validator.is_type(instance, "object") and len(instance) > mP:
        yield ValidationError(f"{_short(instance)} has too many properties")


def kw_not(validator, not_schema, instance, schema):
    if validator.evolve(schema=not_schema).is_valid(instance):
        yield ValidationError(f"{_short(instance)} should not be valid under the not schema")


def kw_anyOf(validator, anyOf, instance, schema):
    all_errors = []
    for index, subschema in enumerate(anyOf):
        errs = list(validator.descend(instance, subschema, schema_path=index))
        if not errs:
            break
        all_errors.extend(errs)
    else:
        yield ValidationError(f"{_short(instance)} is not valid under any of the given schemas",
                              context=all_errors)


def kw_oneOf(validator, oneOf, instance, schema):
    subschemas = enumerate(oneOf)
    all_errors = []
    first = None
    for index, subschema in subschemas:
        errs = list(validator.descend(instance, subschema, schema_path=index))
        if not errs:
            first = index
            break
        all_errors.extend(errs)
    else:
        yield ValidationError(f"{_short(instance)} is not valid under any of the given schemas",
                              context=all_errors)
    more = [i for i, each in subschemas if validator.evolve(schema=each).is_valid(instance)]
    if more:
        err = ValidationError(f"{_short(instance)} is valid under more than one of the given schemas")
        err.wb_matched = [first, *more]
        yield err


def kw_contains(validator, contains, instance, schema):
    if not validator.is_type(instance, "array"):
        return
    matches = 0
    min_contains = schema.get("minContains", 1)
    max_contains = schema.get("maxContains", len(instance))
    contains_validator = validator.evolve(schema=contains)
    for each in instance:
        if contains_validator.is_valid(each):
            matches += 1
            if matches > max_contains:
                yield ValidationError(f"Too many items match the contains schema (at most {max_contains})",
                                      validator="maxContains", validator_value=max_contains)
                return
    if matches < min_contains:
        if not matches:
            yield ValidationError("No item matches the contains schema")
        else:
            err = ValidationError(f"Too few items match the contains schema (at least {min_contains}, "
                                  f"only {matches})", validator="minContains", validator_value=min_contains)
            err.wb_matches = matches
            yield err


def kw_contains_draft6_draft7(validator, contains, instance, schema):
    if not validator.is_type(instance, "array"):
        return
    if not any(validator.evolve(schema=contains).is_valid(element) for element in instance):
        yield ValidationError("No item matches the contains schema")


def _short(v) -> str:
    if isinstance(v, str):
        return repr(v if len(v) <= 60 else v[:57] + "…")
    if isinstance(v, (dict, list)):
        return f"<{type(v).__name__} of {len(v)}>"
    s = str(v)
    return s if len(s) <= 60 else s[:57] + "…"




# --------------------------------------------------------------------------- validator classes

DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "https://json-schema.org/draft/2019-09/schema": "2019-09",
    "http://json-schema.org/draft-07/schema": "draft-07",
    "http://json-schema.org/draft-06/schema": "draft-06",
    "http://json-schema.org/draft-04/schema": "draft-04",
}
DRAFT_URIS = {v: k for k, v in DIALECTS.items()}
DRAFT_ALIASES = {
    "2020-12": "2020-12", "draft2020-12": "2020-12", "draft-2020-12": "2020-12",
    "2019-09": "2019-09", "draft2019-09": "2019-09", "draft-2019-09": "2019-09",
    "7": "draft-07", "draft7": "draft-07", "draft-07": "draft-07", "draft-7": "draft-07",
    "6": "draft-06", "draft6": "draft-06", "draft-06": "draft-06", "draft-6": "draft-06",
    "4": "draft-04", "draft4": "draft-04", "draft-04": "draft-04", "draft-4": "draft-04",
}


def dialect_of(uri: str) -> str | None:
    """The draft a ``$schema`` URI names (an empty fragment and http/https ignored), or None."""
    if not isinstance(uri, str):
        return None
    u = uri.strip()
    if u.endswith("#"):
        u = u[:-1]
    found = DIALECTS.get(u)
    if found is None and u.startswith("https://json-schema.org/draft-0"):
        found = DIALECTS.get("http://" + u[len("https://"):])
    if found is None and u.startswith("http://json-schema.org/draft/20"):
        found = DIALECTS.get("https://" + u[len("http://"):])
    return found

def regex_format(instance) -> bool:
    if not isinstance(instance, str):
        return True
    compile_pattern(instance)
    return True


_UCSCHAR = ((0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF)) + tuple(
    (0x10000 * k, 0x10000 * k + 0xFFFD) for k in range(1, 14)) + ((0xE1000, 0xEFFFD),)
_IPRIVATE = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))


def _in(ranges, cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def iri_check(rule: str):
    """RFC 3987 ``IRI`` / ``IRI-reference`` in linear time: an IRI is a URI whose unreserved
    characters may also be ``ucschar`` (and whose query may hold ``iprivate``), so each of
    those becomes the ASCII ``g`` and RFC 3986's grammar decides.  (The ``rfc3987_syntax``
    parser jsonschema would use takes about a second per 1,500 characters.)"""
    from rfc3986_validator import validate_rfc3986

    uri_rule = "URI" if rule == "iri" else "URI_reference"

    def check(instance) -> bool:
        if not isinstance(instance, str):
            return True
        if instance.isascii():
            return bool(validate_rfc3986(instance, rule=uri_rule))
        stop = next((i for i, c in enumerate(instance) if c in ":/?#"), len(instance))
        if stop < len(instance) and instance[stop] == ":" and not instance[:stop].isascii():
            return False  # a scheme is ASCII only
        query = instance.find("?")
        fragment = instance.find("#")
        out = []
        for i, c in enumerate(instance):
            cp = ord(c)
            if cp < 0x80:
                out.append(c)
            elif _in(_UCSCHAR, cp):
                out.append("g")
            elif _in(_IPRIVATE, cp) and query != -1 and query < i and (fragment == -1 or i < fragment):
                out.append("g")
            else:
                return False
        return bool(validate_rfc3986("".join(out), rule=uri_rule))
    return check


def format_checker_for(base_cls):
    """The draft's format checker (non-GPL set) with ``regex`` checked by the ``regex``
    package in ECMA-262 syntax."""
    fc = copy.copy(base_cls.FORMAT_CHECKER)
    fc.checkers = dict(fc.checkers)
    fc.checkers["regex"] = (regex_format, (PatternError,))
    if base_cls not in (validators.Draft4Validator, validators.Draft6Validator):
        for name in ("iri", "iri-reference"):
            fc.checkers[name] = (iri_check(name), (ValueError,))
    for name in _NO_NEWLINE:
        if name in fc.checkers:
            fn, raises = fc.checkers[name]
            fc.checkers[name] = (_no_newline(fn), raises)
    return fc


# formats whose grammar has no line break; several checkers match with Python's ``$``, which
# lets a trailing newline through ("2026-01-01T00:00:00Z\n", "example.com\n")
_NO_NEWLINE = ("date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
               "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template")


def _no_newline(fn):
    def check(instance):
        if isinstance(instance, str) and ("\n" in instance or "\r" in instance):
            return False
        return fn(instance)
    return check


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

BASES = {
    "draft-04": validators.Draft4Validator,
    "draft-06": validators.Draft6Validator,
    "draft-07": validators.Draft7Validator,
    "2019-09": validators.Draft201909Validator,
    "2020-12": validators.Draft202012Validator,
}

# keywords of each 2019-09 / 2020-12 vocabulary (for metaschemas that declare $vocabulary)
VOCABULARIES = {
    "2020-12": {
        "https://json-schema.org/draft/2020-12/vocab/core":
            {"$id", "$schema", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs"},
        "https://json-schema.org/draft/2020-12/vocab/applicator":
            {"prefixItems", "items", "contains", "additionalProperties", "properties", "patternProperties",
             "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf", "oneOf", "not"},
        "https://json-schema.org/draft/2020-12/vocab/unevaluated": {"unevaluatedItems", "unevaluatedProperties"},
        "https://json-schema.org/draft/2020-12/vocab/validation":
            {"type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
             "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains",
             "minContains", "maxProperties", "minProperties", "required", "dependentRequired"},
        "https://json-schema.org/draft/2020-12/vocab/format-annotation": {"format"},
        "https://json-schema.org/draft/2020-12/vocab/format-assertion": {"format"},
        "https://json-schema.org/draft/2020-12/vocab/content": {"contentEncoding", "contentMediaType", "contentSchema"},
        "https://json-schema.org/draft/2020-12/vocab/meta-data":
            {"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples"},
    },
    "2019-09": {
        "https://json-schema.org/draft/2019-09/vocab/core":
            {"$id", "$schema", "$ref", "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment", "$defs"},
        "https://json-schema.org/draft/2019-09/vocab/applicator":
            {"additionalItems", "unevaluatedItems", "items", "contains", "additionalProperties",
             "unevaluatedProperties", "properties", "patternProperties", "dependentSchemas", "propertyNames",
             "if", "then", "else", "allOf", "anyOf", "oneOf", "not"},
        "https://json-schema.org/draft/2019-09/vocab/validation":
            {"type", "const", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
             "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains",
             "minContains", "maxProperties", "minProperties", "required", "dependentRequired"},
        "https://json-schema.org/draft/2019-09/vocab/format": {"format"},
        "https://json-schema.org/draft/2019-09/vocab/content": {"contentEncoding", "contentMediaType", "contentSchema"},
        "https://json-schema.org/draft/2019-09/vocab/meta-data":
            {"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples"},
    },
}


def _make_class(draft: str, drop: frozenset = frozenset()):
    base = BASES[draft]
    table = dict(base.VALIDATORS)
    for name, fn in _OVERRIDES_ALL.items():
        if name in table:
            table[name] = fn
    if "dependentRequired" in table:
        table["dependentRequired"] = kw_dependentRequired
    if "dependencies" in table:
        table["dependencies"] = kw_dependencies
    if "contains" in table:
        table["contains"] = kw_contains if draft in ("2019-09", "2020-12") else kw_contains_draft6_draft7
    if draft == "2020-12":
        table["unevaluatedProperties"] = _uneval_props(_evaluated_keys_2020)
    elif draft == "2019-09":
        table["unevaluatedProperties"] = _uneval_props(_evaluated_keys_2019)
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
    if time.monotonic() > getattr(_state, "deadline", _NEVER):
        raise WorkTimeout()
    memo = getattr(_state, "memo", None)
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
FORMAT_CHECKERS = {draft: format_checker_for(base) for draft, base in BASES.items()}


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
    return _make_class(draft, drop) if drop else CLASSES[draft]
