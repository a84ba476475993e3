"""Ignore patterns for the diff: which members are not compared.

A pattern is either JSONPath-like or JSON-Pointer-like:

* JSONPath (starts with ``$``): ``$..id`` (every member named ``id`` at any depth),
  ``$.output[*].id``, ``$['created_at']``, ``$..["a","b"]``, ``$.items[0]``, ``$..*``.
  Supported selectors: names (``.name``, ``['name']``, ``["name"]``, unions of names),
  wildcards (``.*``, ``[*]``), array indices (``[0]``) and the descendant segment ``..``.
  Filters and slices are refused with a clear ``path_syntax`` error.
* JSON Pointer (starts with ``/``): ``/output/*/id`` where ``*`` matches any one member
  name or index and ``**`` any number of levels (``/output/**/id``); a numeric token matches
  an array index or a member of that name.

A path is the list of parts from the root (member names as ``str``, array indices as ``int``).
Matching runs as a small NFA over the parts, so a whole set of patterns costs one pass.
"""

from __future__ import annotations

import json
import re

from ..errors import WorkbenchError
from ..jsontext import unescape_token


class Step:
    """One step of a pattern: ``desc`` = may skip any number of levels first."""

    __slots__ = ("desc", "names", "indices", "wild")

    def __init__(self, desc: bool, names=(), indices=(), wild: bool = False):
        self.desc = desc
        self.names = frozenset(names)
        self.indices = frozenset(indices)
        self.wild = wild

    def matches(self, part) -> bool:
        if self.wild:
            return True
        if type(part) is int:
            return part in self.indices
        return part in self.names


def _syntax(pattern: str, message: str) -> WorkbenchError:
    return WorkbenchError("path_syntax", f"Ignore path {pattern!r}: {message}", field="ignore_paths")


_NAME = re.compile(r"[A-Za-z_\u0080-\U0010ffff][A-Za-z0-9_\-\u0080-\U0010ffff]*")
_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")
_INT = re.compile(r"-?\d+")


def _unquote(token: str, pattern: str) -> str:
    body = token[1:-1]
    if token[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    try:
        return json.loads('"' + body + '"')
    except ValueError:
        raise _syntax(pattern, f"bad escape in the name {token}") from None


def _member(pattern: str, i: int, desc: bool, steps: list) -> int:
    """The ``*`` or member name at ``i`` (after ``.`` or ``..``: ``desc``) as a step; the
    position after it."""
    if i < len(pattern) and pattern[i] == "*":
        steps.append(Step(desc, wild=True))
        return i + 1
    m = _NAME.match(pattern, i)
    if not m:
        raise _syntax(pattern, f"expected a member name after '{'..' if desc else '.'}' "
                               f"at position {i}")
    steps.append(Step(desc, names=[m.group()]))
    return m.end()


def _parse_jsonpath(pattern: str) -> list[Step]:
    steps: list[Step] = []
    i, n = 1, len(pattern)
    while i < n:
        desc = False
        if pattern.startswith("..", i):
            desc = True
            i += 2
            if i < n and pattern[i] != "[":
                i = _member(pattern, i, True, steps)   # $..name or $..*
                continue
        elif pattern[i] == ".":
            i = _member(pattern, i + 1, False, steps)  # $.name or $.*
            continue
        if i >= n or pattern[i] != "[":
            raise _syntax(pattern, f"unexpected {pattern[i:i + 1]!r} at position {i}")
        names, indices, wild = [], [], False
        j = i + 1
        while True:
            while j < n and pattern[j] == " ":
                j += 1
            if j >= n:
                raise _syntax(pattern, "a '[' is never closed")
            ch = pattern[j]
            if ch == "*":
                wild = True
                j += 1
            elif ch in "'\"":
                m = _QUOTED.match(pattern, j)
                if not m:
                    raise _syntax(pattern, f"unterminated name at position {j}")
                names.append(_unquote(m.group(), pattern))
                j = m.end()
            elif ch == "?":
                raise _syntax(pattern, "filters ([?...]) are not supported in ignore paths")
            else:
                m = _INT.match(pattern, j)
                if not m:
                    raise _syntax(pattern, f"unexpected {ch!r} at position {j}")
                if pattern.startswith(":", m.end()):
                    raise _syntax(pattern, "slices are not supported in ignore paths")
                value = int(m.group())
                if value < 0:
                    raise _syntax(pattern, "negative indices are not supported in ignore paths")
                indices.append(value)
                j = m.end()
            while j < n and pattern[j] == " ":
                j += 1
            if j < n and pattern[j] == ",":
                j += 1
                continue
            if j < n and pattern[j] == "]":
                j += 1
                break
            raise _syntax(pattern, f"expected ',' or ']' at position {j}")
        steps.append(Step(desc, names=names, indices=indices, wild=wild))
        i = j
    return steps


def _parse_pointer(pattern: str) -> list[Step]:
    steps: list[Step] = []
    desc = False
    for token in pattern[1:].split("/"):
        if token == "**":
            desc = True
            continue
        if token == "*":
            steps.append(Step(desc, wild=True))
        else:
            name = unescape_token(token)
            indices = [int(name)] if re.fullmatch(r"0|[1-9]\d*", name) else []
            steps.append(Step(desc, names=[name], indices=indices))
        desc = False
    if desc:   # a trailing /** : everything below
        steps.append(Step(True, wild=True))
    return steps


def compile_pattern(pattern: str) -> list[Step]:
    if not isinstance(pattern, str):
        raise WorkbenchError("bad_type", "'ignore_paths' must be a list of strings", status=400,
                             field="ignore_paths")
    p = pattern.strip()
    if p.startswith("$"):
        steps = _parse_jsonpath(p)
    elif p.startswith("/"):
        steps = _parse_pointer(p)
    else:
        raise _syntax(pattern, "a pattern starts with '$' (JSONPath, e.g. $..id) or '/' "
                               "(JSON Pointer, e.g. /output/*/id)")
    if not steps:
        raise _syntax(pattern, "it names the whole document; nothing would be compared")
    return steps


def _step(patterns: list, states, part) -> set:
    """The NFA states ``(pattern number, step number)`` after one more path part."""
    nxt = set()
    for k, s in states:
        steps = patterns[k]
        if s >= len(steps):
            continue
        st = steps[s]
        if st.desc:
            nxt.add((k, s))
        if st.matches(part):
            nxt.add((k, s + 1))
    return nxt


class Ignore:
    """A set of compiled patterns; ``match(parts)`` tells whether a path is ignored,
    ``below(parts)`` whether anything under it could be."""

    def __init__(self, patterns, outside_strings=()):
        self.patterns = [compile_pattern(p) for p in patterns]
        self.sources = list(patterns)
        # patterns (by number) that do not reach into the JSON held by a string (the providers
        # preset's: an ``id`` inside ``arguments`` is the caller's data, not a minted id)
        self.outside = frozenset(outside_strings)

    def __bool__(self):
        return bool(self.patterns)

    def _states(self, parts) -> list[tuple[int, int]]:
        states = [(k, 0) for k in range(len(self.patterns))]
        for part in parts:
            states = list(_step(self.patterns, states, part))
            if not states:
                break
        return states

    def match(self, parts) -> bool:
        return any(s == len(self.patterns[k]) for k, s in self._states(parts))

    def below(self, parts) -> bool:
        """Whether some path strictly under ``parts`` may match."""
        return any(s < len(self.patterns[k]) for k, s in self._states(parts))

    def state(self, parts):
        return frozenset(self._states(parts))

    # ---------------------------------------------------------------- incremental use by the walk
    # A walk state is ``(states, names)``: the NFA states of the general patterns, and the map
    # name → pattern numbers of the patterns that are one member name at any depth (``$..id``,
    # ``/**/id``: the preset's), which never change on the way down — one dict lookup per
    # member instead of a step of every pattern.  None: nothing below can match.

    def _split(self):
        if hasattr(self, "_general"):
            return
        general, names_all, names_in = [], {}, {}
        for k, steps in enumerate(self.patterns):
            st = steps[0] if len(steps) == 1 else None
            if st is not None and st.desc and not st.wild and not st.indices and st.names:
                for name in st.names:
                    names_all.setdefault(name, ())
                    names_all[name] += (k,)
                    if k not in self.outside:
                        names_in.setdefault(name, ())
                        names_in[name] += (k,)
            else:
                general.append(k)
        self._general = general
        self._names_all = names_all or None
        self._names_in = names_in or None

    @property
    def names_only(self) -> bool:
        """Only any-depth name patterns: every member they skip is in an object, so what the
        walk finds equal is identical (the view may write equal runs once for both sides)."""
        self._split()
        return not self._general

    def start(self):
        self._split()
        gen = frozenset((k, 0) for k in self._general)
        if not gen and self._names_all is None:
            return None
        return (gen, self._names_all)

    def child(self, state, part):
        """``(ignored?, state below, numbers of the patterns that matched)`` for one more part."""
        gen, names = state
        hit = names.get(part) if names is not None and type(part) is str else None
        if gen:
            patterns = self.patterns
            nxt = _step(patterns, gen, part)
            acc = tuple(k for k, s in nxt if s == len(patterns[k]))
            if hit:
                acc = tuple(sorted(set(acc) | set(hit)))
            if not nxt and names is None:
                return bool(acc), None, acc
            return bool(acc), (frozenset(nxt), names), acc
        if hit:
            return True, state, hit
        return False, (state if names is not None else None), ()

    def into_string(self, state):
        """The state to carry into the JSON inside a string: without the patterns that stay
        outside strings (the preset's)."""
        if state is None:
            return None
        gen, names = state
        if self.outside:
            gen = frozenset((k, s) for k, s in gen if k not in self.outside)
            names = self._names_in
        if not gen and names is None:
            return None
        return (gen, names)
