"""Which patterns may skip the regex timeout: a proof that matching backtracks at most linearly.

``regex`` checks its timeout with a CPU clock: that adds about 2 µs to every search, several
times the cost of matching a short string.  A pattern that provably cannot backtrack more
than linearly is run without it on strings of bounded length (the result is the same: only
the bound on time is proven instead of measured).  The proof is the classic one for
backtracking engines: a pattern whose Glushkov automaton is deterministic (at every point
the characters that may come next pick one way on, and no repetition can end and restart on
the same character), with no empty repetition, lookaround or backreference, parses every
string in one way; the engine then tries each way at most once per character.

:func:`linear_bound` reads a pattern already translated to the ``regex`` package's syntax
(:func:`workbench.validate.patterns.ecma_to_python`); :func:`workbench.validate.patterns.linear_limit`
caches it per ECMA-262 pattern.
"""

from __future__ import annotations

HEX = frozenset("0123456789abcdefABCDEF")
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
            if len(digits) != width or not set(digits) <= HEX:
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



def linear_bound(text: str) -> int:
    """The longest string the translated pattern ``text`` is matched without the timeout: 0
    unless the pattern provably backtracks at most linearly (see the module doc)."""
    try:
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
            return LINEAR_ANCHORED_MAX if anchored else LINEAR_UNANCHORED_MAX
    except (_NotLinear, RecursionError, ValueError):
        pass
    return 0
