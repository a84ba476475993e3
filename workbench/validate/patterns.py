"""Patterns with ECMA-262 meaning, in bounded time.

JSON Schema's ``pattern``, ``patternProperties`` and the ``regex`` format are ECMA-262 regular
expressions.  They run on the ``regex`` package with a per-match timeout, never on Python's
``re`` (``^(a|aa)+$`` on 60 ``a``s and a ``!`` would run for hours):

* :func:`not_ecma` refuses what ECMA-262 does not have, naming the construct: inline flags
  ``(?i)``, Python's ``(?P<n>…)``/``(?P=n)``, comments ``(?#…)``, atomic groups ``(?>…)``,
  possessive quantifiers ``a++``, conditionals, and escapes such as ``\\a``, ``\\A``, ``\\Z``,
  ``\\z``, ``\\h``, ``\\e``, ``\\G``, ``\\N{…}`` (a JavaScript engine refuses them or reads them
  differently).  Lookbehind ``(?<=…)``/``(?<!…)`` and named groups ``(?<n>…)`` are ECMA 2018.
* :func:`ecma_to_python` translates the rest: ``\\d``/``\\w``/``\\b`` are ASCII, ``\\s`` is ECMA
  white space, ``$`` is the end of the string (Python's ``$`` also matches before a final
  newline, so ``^[A-Z]-\\d{4}$`` would accept ``"A-1234\\n"``), ``.`` stops at every line
  terminator, ``\\cX`` and ``\\u{…}`` escapes work; ``\\p{…}`` is kept (``regex`` has it).
* :func:`search` / :func:`matcher` match under the regex timeout (``limits.regex_timeout``, set
  for the thread by :func:`regex_time_limit`) and never past the work deadline of
  :func:`workbench.runtime.current`.  A pattern proven to backtrack at most linearly
  (:mod:`workbench.validate.linear`) skips the timeout, whose clock costs more than matching a
  short string.
"""

from __future__ import annotations

import threading

import regex

from ..errors import WorkbenchError
from ..limits import PATTERN_CACHE_BUDGET, PATTERN_MAX_SIZE
from ..runtime import current
from .linear import HEX as _HEX
from .linear import linear_bound

# --------------------------------------------------------------------------- ECMA-262 or not

#: letters an ECMA-262 escape may start with (outside a class; ``\\b`` inside is a backspace)
_ECMA_ESCAPES = frozenset("dDwWsSbBfnrtvcxupPk0123456789")
_PYTHON_ESCAPES = {
    "a": "the bell escape \\a", "A": "the start-of-string anchor \\A", "Z": "the end-of-string anchor \\Z",
    "z": "the end-of-string anchor \\z", "G": "the \\G anchor", "h": "the horizontal-space class \\h",
    "H": "the class \\H", "e": "the escape character \\e", "N": "the named character \\N{…}",
    "K": "the match-reset \\K", "R": "the line-break class \\R", "X": "the grapheme class \\X",
    "Q": "the quote \\Q…\\E", "E": "the quote end \\E", "U": "the escape \\U", "L": "the escape \\L",
    "l": "the escape \\l", "g": "the group reference \\g", "m": "the word-start \\m", "M": "the word-end \\M",
    "V": "the class \\V", "C": "the single-byte escape \\C", "o": "the octal escape \\o{…}",
}


def not_ecma(pattern: str) -> str | None:
    """What in ``pattern`` is not ECMA-262 (a phrase naming the construct), or None."""
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                return None  # a trailing backslash: the regex compiler says so
            e = pattern[i + 1]
            if e.isascii() and e.isalpha() and e not in _ECMA_ESCAPES:
                return _PYTHON_ESCAPES.get(e, f"the escape \\{e}")
            if e == "k" and not in_class and not pattern.startswith("<", i + 2):
                return "\\k without a group name in <…>"
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            i += 1
            continue
        if c == "[":
            in_class = True
            i += 1
            if pattern.startswith("^]", i) or pattern.startswith("]", i):
                i += 1 if pattern[i] == "]" else 2  # [] and [^] are ECMA: the class ends here
                in_class = False
            continue
        if c == "(":
            if pattern.startswith("(?", i):
                rest = pattern[i + 2:i + 4]
                if rest[:1] in (":", "=", "!") or rest in ("<=", "<!"):
                    pass
                elif rest[:1] == "<":
                    close = pattern.find(">", i + 3)
                    name = pattern[i + 3:close] if close != -1 else ""
                    if not name or not (name[0].isalpha() or name[0] in "_$") or \
                            not all(ch.isalnum() or ch in "_$" for ch in name):
                        return f"the group name in {pattern[i:close + 1 if close != -1 else i + 4]!r}"
                elif rest[:1] == "P":
                    return ("Python's named group (?P<name>…) (ECMA-262 writes (?<name>…))"
                            if rest == "P<" else "Python's named backreference (?P=name) (ECMA-262 writes \\k<name>)"
                            if rest == "P=" else "Python's (?P…) group syntax")
                elif rest[:1] == "#":
                    return "the inline comment (?#…)"
                elif rest[:1] == ">":
                    return "the atomic group (?>…)"
                elif rest[:1] == "|":
                    return "the branch-reset group (?|…)"
                elif rest[:1] == "(":
                    return "the conditional group (?(…)…)"
                elif rest[:1] in ("R", "&", "+", "-") or rest[:1].isdigit():
                    return "the recursive group (?R) / (?&name)"
                else:
                    end = i + 2
                    while end < n and pattern[end].isalpha():
                        end += 1
                    flags = pattern[i:end + 1] if end < n and pattern[end] in ":)" else pattern[i:end]
                    return f"the inline flag group {flags!r} (ECMA-262 has flags only outside the pattern)"
            i += 1
            continue
        if c in "*+?" or (c == "{" and _quantifier_end(pattern, i) is not None):
            end = i + 1 if c != "{" else _quantifier_end(pattern, i)
            if end < n and pattern[end] == "+":
                return f"the possessive quantifier {pattern[i:end + 1]!r}"
            if end < n and pattern[end] == "?":
                end += 1
            i = end
            continue
        i += 1
    return None


def _quantifier_end(pattern: str, i: int) -> int | None:
    """The index after ``{n}``, ``{n,}`` or ``{n,m}`` at ``i``, or None (a literal brace)."""
    close = pattern.find("}", i)
    if close == -1:
        return None
    a, comma, b = pattern[i + 1:close].partition(",")
    if not (a.isascii() and a.isdigit()) or (b and not (b.isascii() and b.isdigit())):
        return None
    return close + 1


def expanded_size(pattern: str, stop: int = PATTERN_MAX_SIZE) -> int:
    """How many atoms (characters, classes, escapes, anchors) the ECMA-262 ``pattern`` compiles
    to with its counted repetitions written out: the ``regex`` package copies the atom of
    ``{n}`` and ``{n,}`` n times (``(?:a{1000}){3000}`` is 3,000,000 atoms: +800 MB and 10 s to
    compile), and ``{n,m}`` once more for its optional part.  One linear pass, no recursion;
    stops counting once past ``stop`` (the answer is then just above it)."""
    # one entry per open group: [finished branches, the current branch, the last atom]
    stack = [[0, 0, 0]]
    i, n = 0, len(pattern)
    too_big = stop + 1
    while i < n:
        c = pattern[i]
        top = stack[-1]
        if c == "\\":
            j = i + 2
            if j < n and pattern[i + 1] in "upPk" and pattern[j] in "{<":
                close = pattern.find("}" if pattern[j] == "{" else ">", j)
                j = close + 1 if close != -1 else j
            atom, i = 1, j
        elif c == "[":
            j = i + 1
            if pattern.startswith("^", j):
                j += 1
            while j < n and pattern[j] != "]":  # ECMA-262: "[]" and "[^]" end at once
                j += 2 if pattern[j] == "\\" else 1
            atom, i = 1, j + 1
        elif c == "(":
            stack.append([0, 0, 0])
            i += 1
            if pattern.startswith("?", i):  # (?: (?= (?! (?<= (?<! (?<name>
                close = pattern.find(">", i) if pattern.startswith("?<", i) and \
                    not pattern.startswith(("?<=", "?<!"), i) else -1
                i = close + 1 if close != -1 else i + (3 if pattern.startswith("?<", i) else 2)
            continue
        elif c == ")":
            atom = 1
            if len(stack) > 1:
                group = stack.pop()
                atom, top = group[0] + group[1], stack[-1]
            i += 1
        elif c == "|":
            top[0] += top[1]
            top[1] = top[2] = 0
            i += 1
            continue
        elif c in "*+?" or (c == "{" and _quantifier_end(pattern, i) is not None):
            end = i + 1 if c != "{" else _quantifier_end(pattern, i)
            copies = 2 if c == "+" else 1
            if c == "{":
                lo, comma, hi = pattern[i + 1:end - 1].partition(",")
                low = int(lo) if len(lo) <= 9 else too_big
                copies = max(1, min(low, too_big) + (1 if comma and hi != lo else 0))
            if end < n and pattern[end] == "?":
                end += 1
            top[1] += top[2] * (copies - 1)
            top[2] *= copies
            i = end
            if top[0] + top[1] > stop:
                return too_big
            continue
        else:
            atom = 1
            i += 1
        top[1] += atom
        top[2] = atom
        if top[0] + top[1] > stop:
            return too_big
    while len(stack) > 1:  # unbalanced: the compiler refuses it; count what is there
        group = stack.pop()
        stack[-1][1] += group[0] + group[1]
    return min(stack[0][0] + stack[0][1], too_big)


# --------------------------------------------------------------------------- translation

_ECMA_SPACE = "\\t\\n\\x0b\\f\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_WORD = "A-Za-z0-9_"
_OUTSIDE = {
    "d": "[0-9]", "D": "[^0-9]", "w": f"[{_WORD}]", "W": f"[^{_WORD}]",
    "s": f"[{_ECMA_SPACE}]", "S": f"[^{_ECMA_SPACE}]",
    "b": f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
}
_INSIDE = {"d": "0-9", "w": _WORD, "s": _ECMA_SPACE}
# single characters written otherwise: inside a class (a literal "[") and outside one
_CLASS_CHAR = {"[": "\\["}
_CHAR = {"$": "\\Z", ".": "[^\\n\\r\\u2028\\u2029]"}


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
            out.append(_CLASS_CHAR.get(c, c))
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
        out.append(_CHAR.get(c, c))
        i += 1
    return "".join(out)


class PatternError(Exception):
    """A pattern that is not ECMA-262 (``ecma=False``), does not compile, or is too large to
    compile (``too_large``: its expanded size, see :func:`expanded_size`)."""

    def __init__(self, pattern: str, detail: str, ecma: bool = True, too_large: bool = False):
        super().__init__(detail)
        self.pattern = pattern
        self.detail = detail
        self.ecma = ecma
        self.too_large = too_large

    def sentence(self, what: str = "The pattern") -> str:
        """``The pattern '(?i)a' is not …``: for the 422 message."""
        shown = self.pattern if len(self.pattern) <= 200 else self.pattern[:200] + "…"
        if self.too_large:
            return f"{what} {shown!r} is too large to compile: {self.detail}"
        if not self.ecma:
            return f"{what} {shown!r} is not an ECMA-262 regular expression: {self.detail}"
        return f"{what} {shown!r} is not a valid regular expression: {self.detail}"


def too_large_detail(size: int, limit: int = PATTERN_MAX_SIZE, whole: str = "") -> str:
    """Why a pattern (or, with ``whole``, all of a schema's) is refused for its expanded size."""
    amount = f"more than {limit:,}" if size > limit else f"{size:,}"
    return (f"{whole or 'with its counted repetitions written out it'} is {amount} atoms, and the "
            f"limit is {limit:,} (a regular expression engine copies the atom of a{{n}} n times; "
            "use a smaller count, or minLength/maxLength for a length)")


_COMPILED: dict[str, tuple] = {}  # pattern -> (compiled regex or PatternError, expanded size)
_LINEAR: dict[str, int] = {}
_COMPILED_LOCK = threading.Lock()
_cached_size = 0  # expanded size of the compiled patterns in _COMPILED
_CACHE_ENTRIES = 2048
_CACHE_MAX_TEXT = 10_000  # longer pattern texts are not kept


def compiled_pattern(pattern: str) -> tuple:
    """``(compiled regex, expanded size)`` of an ECMA-262 pattern; raises :class:`PatternError`
    for what is not ECMA-262, does not compile, or passes ``PATTERN_MAX_SIZE`` expanded (refused
    before compiling).  Compiled under the work deadline; cached within ``PATTERN_CACHE_BUDGET``
    (a pattern above a tenth of it is compiled each time, never kept)."""
    found = _COMPILED.get(pattern)
    if found is None:
        size = 0
        construct = not_ecma(pattern)
        if construct is not None:
            got = PatternError(pattern, f"{construct} is not ECMA-262 syntax", ecma=False)
        else:
            size = expanded_size(pattern)
            if size > PATTERN_MAX_SIZE:
                got, size = PatternError(pattern, too_large_detail(size), too_large=True), 0
            else:
                deadline = current()
                if deadline is not None:
                    deadline.check_now()
                try:
                    got = regex.compile(ecma_to_python(pattern), flags=regex.V0)
                except (regex.error, ValueError, OverflowError, RecursionError) as exc:
                    got, size = PatternError(pattern, str(exc)), 0
        found = (got, size)
        _remember(pattern, found)
    if isinstance(found[0], PatternError):
        raise found[0]
    return found


def _remember(pattern: str, found: tuple) -> None:
    global _cached_size
    size = found[1]
    if size > PATTERN_CACHE_BUDGET // 10 or len(pattern) > _CACHE_MAX_TEXT:
        return
    with _COMPILED_LOCK:
        if len(_COMPILED) >= _CACHE_ENTRIES or _cached_size + size > PATTERN_CACHE_BUDGET:
            _COMPILED.clear()
            _cached_size = 0
        if pattern not in _COMPILED:
            _COMPILED[pattern] = found
            _cached_size += size


def compile_ecma(pattern: str):
    """The compiled ``regex`` of an ECMA-262 pattern (see :func:`compiled_pattern`)."""
    return compiled_pattern(pattern)[0]


def linear_limit(pattern: str) -> int:
    """The longest string ``pattern`` (ECMA-262) is matched without the timeout: 0 unless the
    pattern provably backtracks at most linearly (:mod:`workbench.validate.linear`)."""
    found = _LINEAR.get(pattern)
    if found is None:
        try:
            found = linear_bound(ecma_to_python(pattern))
        except (RecursionError, ValueError):
            found = 0
        with _COMPILED_LOCK:
            if len(_LINEAR) > 2048:
                _LINEAR.clear()
            _LINEAR[pattern] = found
    return found


# --------------------------------------------------------------------------- matching in bounded time

_state = threading.local()
DEFAULT_REGEX_TIMEOUT = 1.0  # a thread that set no regex_time_limit (the default of limits.regex_timeout)


class regex_time_limit:  # noqa: N801  (used as a function: ``with regex_time_limit(s):``)
    """Let one match of a pattern run at most ``seconds`` (CPU time) in this thread.  A plain
    class, not a generator context (entered once per document: ``validate --jsonl``'s lines)."""

    __slots__ = ("seconds", "saved")

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self) -> None:
        self.saved = getattr(_state, "regex_timeout", None)
        _state.regex_timeout = self.seconds

    def __exit__(self, *exc) -> bool:
        if self.saved is None:
            del _state.regex_timeout
        else:
            _state.regex_timeout = self.saved
        return False


def pattern_timeout_error(pattern: str, limit: float) -> WorkbenchError:
    return WorkbenchError(
        "timeout",
        f"The pattern {pattern!r} ran longer than the limit of {limit:g} s on one string "
        "(catastrophic backtracking?): simplify it, e.g. avoid nested repetition like (a+)+",
        field="schema", pattern=pattern, limit=limit)


def search(pattern: str, string: str) -> bool:
    """Whether the ECMA-262 ``pattern`` finds a match in ``string``, in bounded time."""
    compiled = compile_ecma(pattern)
    if len(string) <= linear_limit(pattern):  # provably bounded: no timeout (see above)
        return compiled.search(string) is not None
    limit = getattr(_state, "regex_timeout", DEFAULT_REGEX_TIMEOUT)
    deadline = current()
    remaining = deadline.remaining() if deadline is not None else None
    if remaining is not None and remaining <= 0:
        raise deadline.error()
    try:
        return compiled.search(string, timeout=limit if remaining is None else min(limit, remaining)) is not None
    except TimeoutError:
        if remaining is not None and remaining < limit:
            raise deadline.error() from None
        raise pattern_timeout_error(pattern, limit) from None


def matcher(pattern: str):
    """A function ``string -> bool``: :func:`search` for one pattern, with the checks done once
    (the compiled pattern, and whether short strings can skip the timeout)."""
    compiled = compile_ecma(pattern)
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


