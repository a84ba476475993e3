"""Typed placeholders that keep the shape of a value, and the registry that keeps them
equality-preserving: within one document equal values get equal placeholders and distinct values
distinct ones (the n-th distinct id of a shape is ``call_0001``, ``call_0002``, …).

The placeholders are those of the page's first redaction (``static/js/redact.js``):

  ids          call_3c91 → call_0001 (the prefix and separator kept, the rest a counter)
  e-mail       jane.doe@corp.com → userxxxx@example.invalid (the local part's length kept)
  URL          https://host/a/b?q=1 → https://example.invalid/x/x?x=0 (the scheme kept)
  UUID, dates  hex digits and digits → 0 (00000000-0000-…, 0000-00-00T00:00:00Z)
  other text   letters → x / X, digits → 0; spaces and punctuation kept (so is the length)
  numbers      1741476542 → 1000000000, 0.0125 → 0.0000 (sign, digit counts, exponent kept)

A second distinct value of the same shape gets the next *variant* of its placeholder: the
placeholder characters (``x``, ``X``, ``0``) count up from the right within their own class
(``xxxxx`` → ``xxxxa``, ``Xxx 00`` → ``Xxx 01``), so length and character classes stay.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

RE_EMAIL = re.compile(r"([^@\s\"]{1,64})@([^@\s\"]+\.[^@\s\"]+)")
RE_URL = re.compile(r"([a-z][a-z0-9+.-]*://)([^/?#\s]*)(.*)", re.I | re.S)
RE_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
RE_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")
RE_ID = re.compile(r"([A-Za-z][A-Za-z0-9]{0,15}[_-])([A-Za-z0-9_-]{3,})")
RE_NUMBER = re.compile(r"(-?)(\d+)(\.\d+)?([eE][+-]?\d+)?")
_ALNUM = re.compile(r"[A-Za-z0-9]")
_DIGIT = re.compile(r"[0-9]")
_HEX = re.compile(r"[0-9a-fA-F]")

# the digits of each placeholder class, the placeholder itself first
_CLASSES = {"x": "xabcdefghijklmnopqrstuvwyz", "X": "XABCDEFGHIJKLMNOPQRSTUVWYZ", "0": "0123456789"}


def shape(s: str) -> str:
    """Letters → x / X (upper case), digits → 0, everything else kept."""
    out = s.translate(_ASCII_SHAPE)
    if s.isascii():
        return out
    return _NON_ASCII.sub(_shape_char, out)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@lru_cache(maxsize=4096)
def _char_shape(ch: str) -> str:
    cat = unicodedata.category(ch)
    return "X" if cat == "Lu" else "x" if cat[0] == "L" else "0" if cat[0] == "N" else ch


def _shape_char(m) -> str:
    return _char_shape(m.group())


_ASCII_SHAPE = str.maketrans({**{chr(c): "X" for c in range(65, 91)},
                              **{chr(c): "x" for c in range(97, 123)},
                              **{chr(c): "0" for c in range(48, 58)}})


def variant(base: str, n: int, positions: list[int] | None = None) -> str | None:
    """The ``n``-th variant of ``base`` (0: ``base``): its placeholder characters at
    ``positions`` (default: every ``x``, ``X`` and ``0``) count as a mixed-radix number from
    the right.  None when ``n`` is beyond what they can count."""
    if n == 0:
        return base
    if positions is None:
        positions = [i for i, ch in enumerate(base) if ch in _CLASSES]
    chars = list(base)
    for i in reversed(positions):
        digits = _CLASSES[base[i]]
        n, d = divmod(n, len(digits))
        chars[i] = digits[d]
        if not n:
            return "".join(chars)
    return None


class Registry:
    """The placeholders of one document: ``of(kind, value, base)`` gives every equal
    ``(kind, value)`` the same placeholder and distinct ones distinct ones."""

    def __init__(self):
        self.given: dict[tuple, str] = {}
        self.used: set[str] = set()
        self.next: dict[str, int] = {}   # the next variant to try, per base
        self.positions: dict[str, list[int]] = {}   # the placeholder characters of each base

    def of(self, kind: str, value: str, base: str, first: int = 0, positions=None,
           widen=None, own: bool = False) -> str:
        """The placeholder of ``(kind, value)``; ``own``: it may be ``value`` itself (a
        number's placeholder may be the number; a string's never is the string)."""
        key = (kind, value)
        out = self.given.get(key)
        if out is not None:
            return out
        n = self.next.get(base, first)
        if positions is None:
            positions = self.positions.get(base)
            if positions is None:
                positions = [i for i, ch in enumerate(base) if ch in _CLASSES]
                if len(self.positions) < 100_000:
                    self.positions[base] = positions
        while True:
            out = variant(base, n, positions)
            if out is None:   # every variant of this shape taken: a longer one
                out = widen(base, n) if widen else f"{base}~{n}"
            n += 1
            if out not in self.used and (own or out != value):
                break
        self.next[base] = n
        self.given[key] = out
        self.used.add(out)
        return out


def string_placeholder(s: str, registry: Registry) -> tuple[str, str]:
    """``(kind, placeholder)`` for one string value that is not JSON text."""
    m = RE_EMAIL.fullmatch(s)
    if m:
        n = len(m[1])
        local = ("user" + "x" * max(0, n - 4))[:n]
        # variants count in the local part after "user" (or in all of a short one)
        positions = list(range(min(4, n) if n > 4 else 0, n))
        return "email", registry.of("email", s, f"{local}@example.invalid",
                                    positions=[i for i in positions if local[i] in _CLASSES],
                                    widen=lambda base, k: f"{local}{k}@example.invalid")
    m = RE_URL.fullmatch(s)
    if m:
        head = m[1].lower() + "example.invalid"
        rest = shape(m[3])
        positions = [len(head) + i for i, ch in enumerate(rest) if ch in _CLASSES]
        return "url", registry.of("url", s, head + rest, positions=positions,
                                  widen=lambda base, n: f"{m[1].lower()}example-{n}.invalid{rest}")
    if RE_UUID.fullmatch(s):
        return "uuid", registry.of("uuid", s, _HEX.sub("0", s))
    if RE_DATE.fullmatch(s):
        return "date", registry.of("date", s, _DIGIT.sub("0", s))
    m = RE_ID.fullmatch(s)
    if m and _DIGIT.search(m[2]):
        body = _ALNUM.sub("0", m[2])
        return "id", registry.of("id", s, m[1] + body, first=1,
                                 positions=[len(m[1]) + i for i, ch in enumerate(body) if ch == "0"])
    return "text", registry.of("text", s, shape(s))


def number_placeholder(token: str, registry: Registry) -> str:
    """A number of the same sign, digit counts and exponent (still a valid JSON number);
    distinct numbers (by their text) get distinct ones."""
    m = RE_NUMBER.fullmatch(token)
    if not m:
        return token
    sign, whole, frac, exp = m[1], m[2], m[3] or "", m[4] or ""
    int_part = "0" if whole == "0" else "1" + "0" * (len(whole) - 1)
    frac_part = "." + "0" * (len(frac) - 1) if frac else ""
    base = sign + int_part + frac_part + exp
    mantissa_end = len(sign) + len(int_part) + len(frac_part)
    positions = [i for i in range(len(sign), mantissa_end) if base[i] == "0"]

    def widen(_base, n):   # more distinct numbers than the digits count: a longer integer part
        return f"{sign}{10 ** len(int_part) + n}{frac_part}{exp}"

    return registry.of("number", token, base, positions=positions, widen=widen, own=True)


class ArgumentShaper:
    """Tool-call arguments, character by character: a string's letters → x / X and digits → 0
    (escapes kept), keys, structure, ``true``/``false``/``null`` kept, numbers kept (or, with
    ``numbers``, 1 then 0s).  Carried across the pieces of a streamed call (its state kept), so
    the redacted deltas join up to exactly the redacted whole, which stays JSON."""

    __slots__ = ("numbers", "stack", "in_string", "escape", "is_key", "expect_key", "in_number")

    def __init__(self, numbers: bool = False):
        self.numbers = numbers
        self.stack: list[str] = []
        self.in_string = False
        self.escape = ""         # an escape read so far (a piece may end inside one)
        self.is_key = False
        self.expect_key = False
        self.in_number = False

    def _unescaped(self, esc: str) -> str:
        """An escape as written, but ``\\uXXXX`` of a letter or digit outside a key: its
        placeholder character (``\\u00e9`` → ``x``)."""
        if esc[1] != "u" or self.is_key:
            return esc
        try:
            ch = chr(int(esc[2:], 16))
        except ValueError:
            return esc
        out = shape(ch)
        return esc if out == ch else out

    def feed(self, piece: str) -> str:
        out = []
        add = out.append
        for ch in piece:
            if self.in_string:
                if self.escape:          # inside an escape: held until it is whole
                    self.escape += ch
                    esc = self.escape
                    if esc[1] != "u" or len(esc) == 6:
                        self.escape = ""
                        add(self._unescaped(esc))
                elif ch == "\\":
                    self.escape = ch
                elif ch == '"':
                    self.in_string = False
                    add(ch)
                else:
                    add(ch if self.is_key else shape(ch))
                continue
            if ch in "0123456789":
                if self.numbers:
                    add(("1" if ch != "0" else "0") if not self.in_number else "0")
                else:
                    add(ch)
                self.in_number = True
                continue
            if ch not in ".eE+-":
                self.in_number = False
            if ch == '"':
                self.in_string, self.is_key = True, self.expect_key
                self.expect_key = False
            elif ch in "{[":
                self.stack.append(ch)
                self.expect_key = ch == "{"
            elif ch in "}]":
                if self.stack:
                    self.stack.pop()
                self.expect_key = False
            elif ch == ",":
                self.expect_key = bool(self.stack) and self.stack[-1] == "{"
            elif ch == ":":
                self.expect_key = False
            elif ch.isalpha() and ch.lower() not in "truefalsn":
                ch = shape(ch)   # not JSON: no word but true, false and null is kept
            add(ch)
        return "".join(out)
