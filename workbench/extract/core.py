"""JSONPath Extract: every match of an RFC 9535 JSONPath with its normalized path, JSON Pointer,
exact JSON text and position in the document.

Engines
* ``"rfc9535"`` (default): jsonpath-rfc9535, which passes the whole RFC 9535 Compliance Test
  Suite.  Configured here so that it works on the exact tree :func:`workbench.parse.parse`
  builds: non-integer numbers are ``decimal.Decimal`` (the library only compares ``int`` and
  ``float``, so ``$[?@.p < 3]`` would miss ``1.5``), so comparisons are made exact for
  ``Decimal`` and number literals in the expression become exact ``Decimal``/``int`` too
  (``0.1 == 0.1`` holds, ``1e400`` is a number, not a crash).  The nesting limit is raised
  to the server's ``max_depth``, ``match()``/``search()`` run with the regex timeout.
* ``"jsonpath-ng"``: jsonpath-ng's ``ext`` parser, for people who rely on its extensions.
  It is *not* RFC 9535 (it accepts many invalid selectors and misreads some valid ones);
  responses say so.  It works on a float view of the document (what its users feed it);
  values and texts returned are still taken from the document exactly.

Speed: the common query shapes (names, indices, ``*``, ``..``, filters of comparisons and
existence tests joined by ``&&``/``||``/``!``) run on the parsed tree as plain loops over
``(value, location)`` pairs (:func:`fast_plan`); other shapes run in the library.  Either
way only locations come out: path strings, pointers, exact texts and positions are built for
the rows returned (``limit``), never for all matches (``count`` says how many).  The texts
are found by walking the document text along the wanted locations only (:func:`locate_rows`:
scalar members are passed over with one regex, other values skipped by the C scanner, and an
array of wanted items is walked element by element).  The garbage collector is paused for the
request (millions of objects, none cyclic).  Every request runs under the ``work_timeout``
watchdog.
"""

from __future__ import annotations

import ctypes
import json
import re
import threading
from decimal import Decimal, InvalidOperation
from itertools import islice
from typing import Any

import jsonpath_ng.ext  # noqa: F401  (imported here, never under a request's watchdog)
import jsonpath_rfc9535  # noqa: F401
import orjson

from ..errors import WorkbenchError, bad_request, log_fault
from ..fields import Field, Fields
from ..jsontext import dumps_value
from ..limits import DEFAULT_LIMITS, Limits
from ..jsontext import (error_at, escape_token, line_cols, locate_many, normalized_path, parse,
                        pointer_of)
from ..runtime import collector_paused

ENGINES = {  # name → label (with {v}, the library's version)
    "rfc9535": "RFC 9535 (jsonpath-rfc9535 {v})",
    "jsonpath-ng": "jsonpath-ng {v} ext (not RFC 9535)",
}
DEFAULT_ENGINE = "rfc9535"


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:  # pragma: no cover - metadata missing
        return "?"


ENGINE_VERSIONS = {"rfc9535": _version("jsonpath-rfc9535"), "jsonpath-ng": _version("jsonpath-ng")}


# --------------------------------------------------------------------------- time limits

class _WorkTimeout(BaseException):
    """Raised asynchronously in the working thread when the work budget is spent.

    A ``BaseException`` so that no ``except Exception`` inside an engine swallows it."""


def _set_async_exc(thread_id: int, exc) -> None:
    """Raise ``exc`` in thread ``thread_id`` at its next bytecode; ``exc=None`` withdraws an
    exception that is still pending (CPython's PyThreadState_SetAsyncExc)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               None if exc is None else ctypes.py_object(exc))


class Watchdog:
    """Bound the time of pure-Python work in the current thread (``with Watchdog(20): ...``).

    A timer thread raises :class:`_WorkTimeout` inside the working thread when the budget is
    spent; the engines are plain Python loops, so this interrupts them at the next bytecode,
    without slowing them down with checks.  Under the lock, finishing withdraws an exception
    that was set but not yet raised, so it can never escape after the work is done."""

    def __init__(self, seconds: float, what: str = "The query"):
        self.seconds = seconds
        self.what = what
        self._lock = threading.Lock()
        self._done = False
        self.fired = False

    def _fire(self) -> None:
        with self._lock:
            if not self._done:
                self.fired = True
                _set_async_exc(self._thread_id, _WorkTimeout)

    def __enter__(self) -> "Watchdog":
        self._thread_id = threading.get_ident()
        self._timer = threading.Timer(self.seconds, self._fire)
        self._timer.daemon = True
        try:
            self._timer.start()
            return self
        except _WorkTimeout:  # a budget shorter than starting a thread: __exit__ reports it
            return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        try:
            with self._lock:
                self._done = True
                if self.fired:
                    _set_async_exc(self._thread_id, None)
            self._timer.cancel()
        except _WorkTimeout:
            exc_type = _WorkTimeout
        if exc_type is _WorkTimeout or self.fired:
            raise WorkbenchError(
                "timeout", f"{self.what} ran longer than the limit of {self.seconds:g} s and was "
                "stopped (set --work-timeout or WORKBENCH_WORK_TIMEOUT to change it)",
                field="path", limit=self.seconds) from None
        return False


# --------------------------------------------------------------------------- rfc9535 engine

def _rfc9535_env(limits: Limits):
    from jsonpath_rfc9535 import JSONPathEnvironment
    from jsonpath_rfc9535.filter_expressions import (ComparisonExpression, FloatLiteral,
                                                     IntegerLiteral, JSONPathNodeList,
                                                     FilterExpressionLiteral, LogicalExpression,
                                                     PrefixExpression, RelativeFilterQuery,
                                                     RootFilterQuery, StringLiteral, _eq)
    from jsonpath_rfc9535.function_extensions.match import Match
    from jsonpath_rfc9535.function_extensions.search import Search
    from jsonpath_rfc9535.function_extensions._pattern import map_re
    from jsonpath_rfc9535.exceptions import JSONPathRecursionError, JSONPathSyntaxError
    from jsonpath_rfc9535.parse import Parser
    from jsonpath_rfc9535.segments import JSONPathRecursiveDescentSegment
    from jsonpath_rfc9535.selectors import FilterSelector, NameSelector
    import regex
    from iregexp_check import check

    numbers = (int, float, Decimal)

    def lt(left, right) -> bool:
        if isinstance(left, str) and isinstance(right, str):
            return left < right
        if isinstance(left, bool) or isinstance(right, bool):
            return False
        if isinstance(left, numbers) and isinstance(right, numbers):
            return left < right
        return False

    EMPTY = JSONPathNodeList()  # a missing singular query (never mutated)

    def singular_getter(expr):
        """For a singular query (``@.a.b[0]``, ``$.x``) a function ``(current, root) ->
        value`` (EMPTY when there is none) using plain lookups, without building nodes;
        for a literal a function returning it; else None."""
        if isinstance(expr, FilterExpressionLiteral):
            literal = expr.value
            return lambda current, root: literal
        if not isinstance(expr, (RelativeFilterQuery, RootFilterQuery)):
            return None
        if not expr.query.singular_query():
            return None
        steps = tuple(seg.selectors[0].name if isinstance(seg.selectors[0], NameSelector)
                      else seg.selectors[0].index for seg in expr.query.segments)
        relative = isinstance(expr, RelativeFilterQuery)

        if relative and len(steps) == 1 and type(steps[0]) is str:
            name = steps[0]

            def get_member(current, root):
                if type(current) is dict:
                    return current.get(name, EMPTY)
                return EMPTY
            return get_member

        def get(current, root):
            v = current if relative else root
            for step in steps:
                if type(step) is str:
                    if type(v) is not dict:
                        return EMPTY
                    v = v.get(step, EMPTY)
                    if v is EMPTY:
                        return EMPTY
                else:
                    if type(v) is not list or not -len(v) <= step < len(v):
                        return EMPTY
                    v = v[step]
            return v

        return get

    def compare(left, op, right) -> bool:
        if op == "==":
            return _eq(left, right)
        if op == "!=":
            return not _eq(left, right)
        if op == "<":
            return lt(left, right)
        if op == ">":
            return lt(right, left)
        if op == "<=":
            return lt(left, right) or _eq(left, right)
        if op == ">=":
            return lt(right, left) or _eq(left, right)
        return False

    class ExactComparison(ComparisonExpression):
        """A comparison that treats ``Decimal`` as the number it is (the library's ``<``
        only knows ``int``/``float``); ``==`` already compares ``Decimal`` exactly.
        Singular-query operands are looked up directly (same values, no node objects)."""

        __slots__ = ("_lget", "_rget")

        def __init__(self, token, left, operator, right):
            super().__init__(token, left, operator, right)
            self._lget = singular_getter(left)
            self._rget = singular_getter(right)

        def evaluate(self, context) -> bool:
            if self._lget is not None:
                left = self._lget(context.current, context.root)
            else:
                left = self.left.evaluate(context)
                if isinstance(left, JSONPathNodeList) and len(left) == 1:
                    left = left[0].value
            if self._rget is not None:
                right = self._rget(context.current, context.root)
            else:
                right = self.right.evaluate(context)
                if isinstance(right, JSONPathNodeList) and len(right) == 1:
                    right = right[0].value
            return compare(left, self.operator, right)

        def predicate(self):
            """``(current, root) -> bool`` when both operands are direct lookups or
            literals (the common ``@.status == 'completed'``), else None."""
            lget, rget, op = self._lget, self._rget, self.operator
            if lget is None or rget is None:
                return None
            if isinstance(self.right, StringLiteral) and op in ("==", "!="):
                # _eq with a string: equal only to the same string (EMPTY, numbers, bools never)
                lit = self.right.value
                if op == "==":
                    def equals(current, root):
                        return lget(current, root) == lit
                    name = _member_name(self.left)
                    if name is not None:
                        # for the fast path's loop: (member, string) of ``@.member == 'string'``
                        equals.member_equals = (name, lit)
                    return equals
                return lambda current, root: lget(current, root) != lit
            return lambda current, root: compare(lget(current, root), op, rget(current, root))

    def _member_name(expr):
        """``name`` for the relative query ``@.name`` (``@['name']``), else None."""
        if (type(expr) is not RelativeFilterQuery or len(expr.query.segments) != 1
                or not expr.query.singular_query()):
            return None
        selectors = expr.query.segments[0].selectors
        if len(selectors) == 1 and type(selectors[0]) is NameSelector:
            return selectors[0].name
        return None

    def fast_predicate(expr):
        """``(current, root) -> bool`` for a filter made of comparisons of direct lookups
        and literals, existence tests of singular queries (``@.a``, ``$.b[0]``), ``&&``,
        ``||`` and ``!``; None for anything else (functions, ``@..a``, ``@.*``, bare ``@``),
        which the library evaluates.  Same truth values as the library's ``evaluate``."""
        kind = type(expr)
        if kind is ExactComparison:
            return expr.predicate()
        if kind is LogicalExpression and expr.operator in ("&&", "||"):
            left, right = fast_predicate(expr.left), fast_predicate(expr.right)
            if left is None or right is None:
                return None
            if expr.operator == "&&":
                return lambda current, root: left(current, root) and right(current, root)
            return lambda current, root: left(current, root) or right(current, root)
        if kind is PrefixExpression and expr.operator == "!":
            inner = fast_predicate(expr.right)
            if inner is None:
                return None
            return lambda current, root: not inner(current, root)
        if kind in (RelativeFilterQuery, RootFilterQuery) and expr.query.segments:
            # an existence test: true when the singular query selects a node (even null);
            # a bare ``@`` is left to the library (it tests the value's truthiness there)
            get = singular_getter(expr)
            if get is None:
                return None
            return lambda current, root: get(current, root) is not EMPTY
        return None

    class FastFilterSelector(FilterSelector):
        """The filter selector, evaluating simple comparisons without a context object
        per candidate; anything else goes through the library unchanged."""

        __slots__ = ("_pred",)

        def __init__(self, *, env, token, expression):
            super().__init__(env=env, token=token, expression=expression)
            self._pred = fast_predicate(expression.expression)

        def locations(self, nodes):
            """Locations of the matches (no node objects), for a last segment; else None."""
            pred = self._pred
            if pred is None or self.env.nondeterministic:
                return None
            return self._locations(nodes, pred)

        @staticmethod
        def _locations(nodes, pred):
            for node in nodes:
                value, root, loc = node.value, node.root, node.location
                if type(value) is dict:
                    for name, val in value.items():
                        if pred(val, root):
                            yield loc + (name,)
                elif type(value) is list:
                    for i, element in enumerate(value):
                        if pred(element, root):
                            yield loc + (i,)

        def resolve(self, node):
            pred = self._pred
            if pred is None or self.env.nondeterministic:
                yield from super().resolve(node)
                return
            value = node.value
            root = node.root
            if type(value) is dict:
                for name, val in value.items():
                    if pred(val, root):
                        yield node.new_child(val, name, node)
            elif type(value) is list:
                for i, element in enumerate(value):
                    if pred(element, root):
                        yield node.new_child(element, i, node)

    class FastDescent(JSONPathRecursiveDescentSegment):
        """The descendant segment with an iterative walk (same pre-order, same depth limit)
        and a direct lookup for the common single-name case (``$..call_id``)."""

        def resolve(self, nodes):
            if self.env.nondeterministic:
                yield from super().resolve(nodes)
                return
            selectors = self.selectors
            name = (selectors[0].name if len(selectors) == 1 and type(selectors[0]) is NameSelector
                    else None)
            for node in nodes:
                for inner in self._visit(node):
                    if name is not None:
                        value = inner.value
                        if isinstance(value, dict) and name in value:
                            yield inner.new_child(value[name], name, inner)
                    else:
                        for selector in selectors:
                            yield from selector.resolve(inner)

        def locations(self, nodes):
            """Locations of the matches (no node objects), for a last segment; else None."""
            selectors = self.selectors
            if (self.env.nondeterministic or len(selectors) != 1
                    or type(selectors[0]) is not NameSelector):
                return None
            return self._name_locations(nodes, selectors[0].name)

        def _name_locations(self, nodes, name):
            for node in nodes:
                for inner in self._visit(node):
                    value = inner.value
                    if isinstance(value, dict) and name in value:
                        yield inner.location + (name,)

        def _visit(self, node, depth: int = 1):
            limit = self.env.max_recursion_depth
            if depth > limit:
                raise JSONPathRecursionError("recursion limit exceeded", token=self.token)
            yield node
            stack = [(node, _members(node.value), depth)]
            while stack:
                parent, members, d = stack[-1]
                for key, value in members:
                    if isinstance(value, (dict, list)):
                        if d + 1 > limit:
                            raise JSONPathRecursionError("recursion limit exceeded", token=self.token)
                        child = parent.new_child(value, key, parent)
                        yield child
                        stack.append((child, _members(value), d + 1))
                        break
                else:
                    stack.pop()

    def _members(value):
        if isinstance(value, dict):
            return iter(value.items())
        if isinstance(value, list):
            return enumerate(value)
        return iter(())

    def exact_number(text: str, token):
        try:
            d = Decimal(text)
        except InvalidOperation:
            raise JSONPathSyntaxError("invalid number literal", token=token) from None
        if d == d.to_integral_value() and d.adjusted() < 64:
            return int(d)
        return d

    class ExactParser(Parser):
        def parse_integer_literal(self, stream):
            value = stream.current.value
            if value.startswith("0") and len(value) > 1:
                raise JSONPathSyntaxError("invalid integer literal", token=stream.current)
            return IntegerLiteral(stream.current, value=exact_number(value, stream.current))

        def parse_float_literal(self, stream):
            value = stream.current.value
            if value.startswith("0") and len(value.split(".")[0]) > 1:
                raise JSONPathSyntaxError("invalid float literal", token=stream.current)
            return FloatLiteral(stream.current, value=exact_number(value, stream.current))

        def parse_query(self, stream, *, in_filter: bool = False):
            for segment in super().parse_query(stream, in_filter=in_filter):
                if type(segment) is JSONPathRecursiveDescentSegment:
                    segment = FastDescent(env=segment.env, token=segment.token,
                                          selectors=segment.selectors)
                yield segment

        def parse_filter_selector(self, stream):
            sel = super().parse_filter_selector(stream)
            if type(sel) is FilterSelector:
                sel = FastFilterSelector(env=sel.env, token=sel.token, expression=sel.expression)
            return sel

        def parse_infix_expression(self, stream, left):
            expr = super().parse_infix_expression(stream, left)
            if type(expr) is ComparisonExpression:
                expr = ExactComparison(expr.token, expr.left, expr.operator, expr.right)
            return expr

    timeout = limits.regex_timeout

    def pattern_timeout(pattern: str):
        return WorkbenchError("timeout", f"The pattern {pattern[:60]!r} ran longer than "
                              f"{timeout:g} s on one string and was stopped", field="path",
                              limit=timeout)

    class TimedMatch(Match):
        def __call__(self, string, pattern) -> bool:
            if not isinstance(pattern, str) or not isinstance(string, str) or not check(pattern):
                return False
            try:
                return bool(regex.fullmatch(map_re(pattern), string, timeout=timeout))
            except TimeoutError:
                raise pattern_timeout(pattern) from None
            except (TypeError, regex.error):
                return False

    class TimedSearch(Search):
        def __call__(self, string, pattern) -> bool:
            if not isinstance(pattern, str) or not isinstance(string, str) or not check(pattern):
                return False
            try:
                return bool(regex.search(map_re(pattern), string, regex.VERSION1, timeout=timeout))
            except TimeoutError:
                raise pattern_timeout(pattern) from None
            except (TypeError, regex.error):
                return False

    class Env(JSONPathEnvironment):
        parser_class = ExactParser
        max_recursion_depth = limits.max_depth + 1

        def setup_function_extensions(self) -> None:
            super().setup_function_extensions()
            self.function_extensions["match"] = TimedMatch()
            self.function_extensions["search"] = TimedSearch()

    return Env()


_ENV_CACHE: dict = {}


def rfc9535_env(limits: Limits):
    key = (limits.max_depth, limits.regex_timeout)
    env = _ENV_CACHE.get(key)
    if env is None:
        env = _ENV_CACHE[key] = _rfc9535_env(limits)
    return env


_TOKEN_WORDS = {
    "EOF": "the end of the expression", "RBRACKET": "']'", "LBRACKET": "'['", "RPAREN": "')'",
    "LPAREN": "'('", "COMMA": "','", "COLON": "':'", "DOT": "'.'", "DOUBLE_DOT": "'..'",
    "ROOT": "'$'", "CURRENT": "'@'", "WILD": "'*'", "FILTER": "'?'", "EQ": "'=='", "NE": "'!='",
    "LT": "'<'", "LE": "'<='", "GT": "'>'", "GE": "'>='", "AND": "'&&'", "OR": "'||'",
    "NOT": "'!'", "INT": "a number", "FLOAT": "a number", "INDEX": "an index",
    "PROPERTY": "a name", "SHORTHAND_PROPERTY": "a name", "FUNCTION": "a function",
    "DOUBLE_QUOTE_STRING": "a string", "SINGLE_QUOTE_STRING": "a string", "TRUE": "true",
    "FALSE": "false", "NULL": "null",
}


def _tidy(message: str) -> str:
    message = re.sub(r"<TokenType\.(\w+): \d+>", lambda m: _TOKEN_WORDS.get(m.group(1), m.group(1)),
                     message)
    message = re.sub(r"'([A-Z_]+)'", lambda m: _TOKEN_WORDS.get(m.group(1), m.group(0)), message)
    message = re.sub(r"\b(found|expected) ([A-Z_]{2,})\b",
                     lambda m: f"{m.group(1)} {_TOKEN_WORDS.get(m.group(2), m.group(2))}", message)
    return message[:1].upper() + message[1:]


def path_error(path: str, offset: int | None, message: str, **extra) -> WorkbenchError:
    """A 422 ``path_syntax`` error pointing at ``offset`` (0-based) in the expression."""
    if offset is None or offset < 0 or offset > len(path):
        offset = len(path)
    return error_at(path, offset, "path_syntax", message, field="path", **extra)


def compile_rfc9535(path: str, limits: Limits):
    from jsonpath_rfc9535.exceptions import JSONPathError
    from jsonpath_rfc9535.tokens import Token

    env = rfc9535_env(limits)
    if not path.startswith("$"):
        raise path_error(path, 0, "A JSONPath starts with '$' (the root, nothing before it), "
                                  "e.g. $.data[0]")
    try:
        return env.compile(path)
    except JSONPathError as exc:
        token = exc.token or next((a for a in exc.args if isinstance(a, Token)), None)
        message = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
        offset = token.index if token is not None else None
        raise path_error(path, offset, _tidy(message)) from None
    except RecursionError:
        raise path_error(path, None, "The expression is nested too deeply") from None
    except (ValueError, ArithmeticError) as exc:  # defensive: never a 500
        raise path_error(path, None, f"Invalid JSONPath: {exc}") from None


def run_rfc9535(query, value, limit: int, use_fast: bool = True):
    """All matches of ``query``: (count, the locations of the first ``limit``)."""
    from jsonpath_rfc9535.exceptions import JSONPathError, JSONPathRecursionError

    try:
        locations = _locations(query, value, use_fast)
        kept = list(islice(locations, limit))
        count = len(kept)
        for _ in locations:
            count += 1
    except JSONPathRecursionError:
        raise WorkbenchError("too_deep", "The document is nested deeper than the query engine "
                             "allows", field="document") from None
    except RecursionError:
        raise WorkbenchError("too_deep", "The document is nested too deeply for this query",
                             field="document") from None
    except JSONPathError as exc:
        raise path_error(query_text(query), getattr(exc.token, "index", None),
                         _tidy(str(exc.args[0]) if exc.args else str(exc))) from None
    return count, kept


def _locations(query, value, use_fast: bool = True):
    """The locations of every match, in order: the fast path for the common shapes, else
    ``query.finditer`` without building a node object per match when the last segment can
    name its matches directly (a name, a simple filter, ``..name``).  ``use_fast=False``
    (for tests) always takes the library's way."""
    from jsonpath_rfc9535.node import JSONPathNode
    from jsonpath_rfc9535.segments import JSONPathChildSegment
    from jsonpath_rfc9535.selectors import NameSelector

    if use_fast:
        plan = fast_plan(query)
        if plan is not None:
            return fast_locations(plan, value)
    segments = query.segments
    nodes = [JSONPathNode(value=value, location=(), parent=None, root=value)]
    if not segments:
        return (node.location for node in nodes)
    for segment in segments[:-1]:
        nodes = segment.resolve(nodes)
    last = segments[-1]
    tail = None
    if hasattr(last, "locations"):
        tail = last.locations(nodes)
    elif type(last) is JSONPathChildSegment and len(last.selectors) == 1:
        selector = last.selectors[0]
        if type(selector) is NameSelector:
            tail = _child_name_locations(nodes, selector.name)
        elif hasattr(selector, "locations"):
            tail = selector.locations(nodes)
    if tail is not None:
        return tail
    return (node.location for node in last.resolve(nodes))


# --------------------------------------------------------------------------- the fast path
#
# The common query shapes (names, indices, ``*``, ``..``, filters whose predicate
# ``fast_predicate`` could build) are evaluated on the parsed tree with plain loops over
# ``(value, location)`` pairs instead of the library's node objects: the same nodes in the
# same order (RFC 9535's, as the library produces it: descendants in pre-order, members in
# document order), checked against the library on random documents and queries by the tests.
# Every step is a generator, so nothing but the kept rows is held in memory.

_NAME, _INDEX, _WILD, _FILTER = "name", "index", "wild", "filter"
_ABSENT = object()  # a missing member: equal to no string


def fast_plan(query):
    """``query`` as ``[(descendant, ((kind, arg), ...)), ...]`` for :func:`fast_locations`,
    or None when a segment holds a selector it does not know (slices, filters with
    functions...): the library runs those."""
    from jsonpath_rfc9535.segments import JSONPathChildSegment, JSONPathRecursiveDescentSegment
    from jsonpath_rfc9535.selectors import (FilterSelector, IndexSelector, NameSelector,
                                            WildcardSelector)

    plan = []
    for segment in query.segments:
        if isinstance(segment, JSONPathRecursiveDescentSegment):
            descendant = True
        elif type(segment) is JSONPathChildSegment:
            descendant = False
        else:
            return None
        selectors = []
        for selector in segment.selectors:
            kind = type(selector)
            if kind is NameSelector:
                selectors.append((_NAME, selector.name))
            elif kind is IndexSelector:
                selectors.append((_INDEX, selector.index))
            elif kind is WildcardSelector:
                selectors.append((_WILD, None))
            elif isinstance(selector, FilterSelector) and getattr(selector, "_pred", None):
                selectors.append((_FILTER, selector._pred))
            else:
                return None
        plan.append((descendant, tuple(selectors)))
    return plan


def fast_locations(plan, value):
    """The locations of every match of a :func:`fast_plan`, in RFC 9535 order (a generator)."""
    nodes = iter(((value, ()),))
    for descendant, selectors in plan:
        if descendant and len(selectors) == 1 and selectors[0][0] is _NAME:
            nodes = _descendant_name(nodes, selectors[0][1])
        else:
            nodes = _children(_preorder(nodes) if descendant else nodes, selectors, value)
    return (loc for _, loc in nodes)


def _children(nodes, selectors, root):
    """The child segment ``[selectors]`` applied to each node in turn."""
    if len(selectors) != 1:
        for node in nodes:
            single = (node,)
            for selector in selectors:
                yield from _children(single, (selector,), root)
        return
    kind, arg = selectors[0]
    if kind is _NAME:
        for value, loc in nodes:
            if type(value) is dict and arg in value:
                yield value[arg], loc + (arg,)
    elif kind is _INDEX:
        for value, loc in nodes:
            if type(value) is list:
                i = arg if arg >= 0 else len(value) + arg
                if 0 <= i < len(value):
                    yield value[i], loc + (i,)
    elif kind is _WILD:
        for value, loc in nodes:
            if type(value) is dict:
                for key, child in value.items():
                    yield child, loc + (key,)
            elif type(value) is list:
                for i, child in enumerate(value):
                    yield child, loc + (i,)
    elif hasattr(arg, "member_equals"):  # ``[?@.name == 'string']``, the predicate inlined
        name, string = arg.member_equals
        for value, loc in nodes:
            if type(value) is list:
                for i, child in enumerate(value):
                    if type(child) is dict and child.get(name, _ABSENT) == string:
                        yield child, loc + (i,)
            elif type(value) is dict:
                for key, child in value.items():
                    if type(child) is dict and child.get(name, _ABSENT) == string:
                        yield child, loc + (key,)
    else:  # _FILTER
        pred = arg
        for value, loc in nodes:
            if type(value) is dict:
                for key, child in value.items():
                    if pred(child, root):
                        yield child, loc + (key,)
            elif type(value) is list:
                for i, child in enumerate(value):
                    if pred(child, root):
                        yield child, loc + (i,)


def _preorder(nodes):
    """Each node and then its descendants, containers only (selectors select nothing from
    the others), depth first, parents before children, members and elements in order.
    The document's depth was proven within the limit, so no depth check is needed."""
    for value, loc in nodes:
        kind = type(value)
        if kind is dict:
            stack = [(iter(value.items()), loc)]
        elif kind is list:
            stack = [(enumerate(value), loc)]
        else:
            continue
        yield value, loc
        while stack:
            members, base = stack[-1]
            for key, child in members:
                kind = type(child)
                if kind is dict:
                    here = base + (key,)
                    yield child, here
                    stack.append((iter(child.items()), here))
                    break
                if kind is list:
                    here = base + (key,)
                    yield child, here
                    stack.append((enumerate(child), here))
                    break
            else:
                stack.pop()


def _descendant_name(nodes, name):
    """``..name``: :func:`_preorder` and the name selector in one loop."""
    for value, loc in nodes:
        kind = type(value)
        if kind is dict:
            if name in value:
                yield value[name], loc + (name,)
            stack = [(iter(value.items()), loc)]
        elif kind is list:
            stack = [(enumerate(value), loc)]
        else:
            continue
        while stack:
            members, base = stack[-1]
            for key, child in members:
                kind = type(child)
                if kind is dict:
                    here = base + (key,)
                    if name in child:
                        yield child[name], here + (name,)
                    stack.append((iter(child.items()), here))
                    break
                if kind is list:
                    stack.append((enumerate(child), base + (key,)))
                    break
            else:
                stack.pop()


def _child_name_locations(nodes, name):
    for node in nodes:
        value = node.value
        if isinstance(value, dict) and name in value:
            yield node.location + (name,)


def query_text(query) -> str:
    try:
        return query.segments[0].token.query
    except Exception:
        return str(query)


# --------------------------------------------------------------------------- jsonpath-ng engine

def compile_ng(path: str):
    from jsonpath_ng.ext import parse as ng_parse

    try:
        query = ng_parse(path)
    except RecursionError:
        raise path_error(path, None, "The expression is nested too deeply") from None
    except Exception as exc:  # JsonPathLexerError, JsonPathParserError and plain errors
        message = str(exc)
        offset = None
        # "Parse error at 1:4 near token b" or "Error on line 1, col 4: ...": 0-based columns
        m = re.search(r"\bat (\d+):(\d+)", message) or re.search(r"line (\d+), col (\d+)", message)
        if m:
            line, col = int(m.group(1)), int(m.group(2))
            lines = path.split("\n")
            offset = sum(len(x) + 1 for x in lines[:line - 1]) + col
            offset = min(max(offset, 0), len(path))
        raise path_error(path, offset, f"jsonpath-ng: {message}"[:500]) from None
    if _ng_uses_regex(query):
        # jsonpath-ng runs these with Python's re, in C, where no time limit can stop them
        at = max(path.find("=~"), path.find("`sub("))
        raise path_error(path, at if at >= 0 else None,
                         "Regular expressions (=~, `sub()`) are not run with the jsonpath-ng engine "
                         "here: they cannot be time-limited. Use match() or search() with the "
                         "RFC 9535 engine, which are time-limited") from None
    return query


def _ng_uses_regex(query) -> bool:
    """Whether a parsed jsonpath-ng expression contains ``=~`` or `` `sub(...)` ``."""
    from jsonpath_ng.ext.string import Sub

    stack, seen = [query], 0
    while stack and seen < 10_000:
        node = stack.pop()
        seen += 1
        if isinstance(node, Sub) or getattr(node, "op", None) == "=~":
            return True
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif type(node).__module__.startswith("jsonpath_ng"):
            stack.extend(v for v in vars(node).values() if not isinstance(v, (str, int, float)))
    return False


def _ng_parts(match, root) -> list | None:
    """The location of a jsonpath-ng match as path parts, or None when the match is a
    computed value (``len``, arithmetic, ``sorted``...) that is not in the document."""
    from jsonpath_ng.jsonpath import Fields, Index, Root, This

    chain = []
    datum = match
    while datum is not None:
        chain.append(datum.path)
        datum = datum.context
    parts: list = []
    here = root
    for step in reversed(chain):
        if isinstance(step, (Root, This)):
            continue
        if isinstance(step, Fields) and len(step.fields) == 1:
            key = step.fields[0]
            if not isinstance(here, dict) or key not in here:
                return None
            parts.append(key)
            here = here[key]
        elif isinstance(step, Index) and len(_indices(step)) == 1:
            i = _indices(step)[0]
            if not isinstance(here, list) or not -len(here) <= i < len(here):
                return None
            i = i % len(here)
            parts.append(i)
            here = here[i]
        else:
            return None
    # a computed value (`split`, `str()`...) may sit on a chain that ends in a real node
    return parts if here is match.value else None


def _indices(step) -> list:
    indices = getattr(step, "indices", None)
    if indices is None:
        indices = [getattr(step, "index", None)]
    return [i for i in indices if isinstance(i, int)]


def _ng_int(token: str):
    return int(token) if len(token) < 4000 else float(token)


def run_ng(query, value, limit: int):
    try:
        found = query.find(value)
    except RecursionError:
        raise WorkbenchError("too_deep", "The document is nested too deeply for jsonpath-ng",
                             field="document") from None
    except Exception as exc:
        # jsonpath-ng raises plain Python errors for some queries (e.g. arithmetic on strings)
        raise WorkbenchError("path_error", f"jsonpath-ng could not run this query: "
                             f"{type(exc).__name__}: {str(exc)[:300]}", field="path") from None
    kept = []
    for m in found[:limit]:
        parts = _ng_parts(m, value)
        kept.append(tuple(parts) if parts is not None else _Computed(m.value))
    return len(found), kept


class _Computed:
    """A jsonpath-ng result that is not a node of the document (``len``, arithmetic...)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


# --------------------------------------------------------------------------- rows

_SEGMENT_CACHE: dict = {}
_TOKEN_CACHE: dict = {}
_SIMPLE_KEY = re.compile(r"[^'\\\x00-\x1f]*\Z")


def _path_segment(part) -> str:
    if isinstance(part, int):
        return f"[{part}]"
    seg = _SEGMENT_CACHE.get(part)
    if seg is None:
        seg = f"['{part}']" if _SIMPLE_KEY.match(part) else normalized_path([part])[1:]
        if len(_SEGMENT_CACHE) < 100_000:
            _SEGMENT_CACHE[part] = seg
    return seg


def _pointer_token(part) -> str:
    token = _TOKEN_CACHE.get(part)
    if token is None:
        token = "/" + escape_token(part)
        if len(_TOKEN_CACHE) < 100_000:
            _TOKEN_CACHE[part] = token
    return token


def path_of(parts) -> str:
    segment = _SEGMENT_CACHE.get
    return "$" + "".join([f"[{p}]" if type(p) is int else (segment(p) or _path_segment(p))
                          for p in parts])


def pointer_from(parts) -> str:
    token = _TOKEN_CACHE.get
    return "".join([f"/{p}" if type(p) is int else (token(p) or _pointer_token(p))
                    for p in parts])


# Regexes over valid JSON text (possessive quantifiers, Python 3.11+: a token never needs
# to give back characters, and not backtracking is a quarter faster)
_WSC = "[ \t\n\r]*+"
_WS = re.compile(_WSC)
_COMMA = re.compile(_WSC + "," + _WSC)
# a member name written without escapes, up to its value: the name is the text between quotes
_PLAIN_NAME = re.compile(r'"([^"\\]*+)"' + _WSC + ":" + _WSC)
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_PLAIN_STRING = r'"[^"\\]*+"'  # a string without escapes
_SCALAR = "(?:" + _STRING + r"|-?[0-9][-+.0-9eE]*+|true|false|null)"
# after a member's value: the members left, when all of them hold scalars, and the '}'
_FLAT_REST = re.compile("(?:" + _WSC + "," + _WSC + _STRING + _WSC + ":" + _WSC + _SCALAR + ")*+"
                        + _WSC + r"\}", re.S)
_FINDABLE = re.compile(r'[^"\\\x00-\x1f]*\Z')
_FINDERS: dict = {}
_scanstring = json.decoder.scanstring
_SKIPPER = json.JSONDecoder(parse_float=len, parse_int=len, parse_constant=len)
_SCAN = _SKIPPER.scan_once  # (value, end) of the JSON value at an offset, in C


def _finder(names: tuple, budget: list):
    """A regex that, from just inside an object (after '{' or ','), passes over members
    with plain names and scalar values and stops at the value of the first member called
    one of ``names`` (group 1: the name): a member is found in one C call.  None when a
    name could be written in several ways (quotes, backslashes, control characters), for
    more than 4 names, or once ``budget[0]`` regexes were compiled for this walk (a
    document of objects with ever new names is walked member by member, not compiled
    for)."""
    if len(names) > 4:
        return None
    found = _FINDERS.get(names, 0)
    if found == 0:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        found = None
        if all(_FINDABLE.match(n) for n in names):
            either = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
            found = re.compile(_WSC + "(?:" + _PLAIN_STRING + _WSC + ":" + _WSC + _SCALAR + _WSC + ","
                               + _WSC + ')*?"(' + either + ')"' + _WSC + ":" + _WSC, re.S)
        if len(_FINDERS) >= 1000:
            _FINDERS.clear()
        _FINDERS[names] = found
    return found


def locate_rows(text: str, locations: list, early_exit: bool = True) -> list:
    """``(start, end)`` offsets in ``text`` (valid JSON) of the value at each location (a
    tuple of names and indices), or None where there is nothing.

    Walks only along the wanted locations: members before a wanted one are passed over with
    one regex when they hold scalars, other values are skipped with the C scanner, and the
    walk stops as soon as every wanted value is found.  It takes the first member of a name:
    ``early_exit=False`` (for documents with duplicate names, where the parsed tree holds the
    last one) walks every member of the objects on the way instead."""
    if not early_exit:
        return _locate_rows_all(text, locations)
    return _locate(text, locations, _array_run(locations))


def _locate(text: str, locations: list, run) -> list:
    """:func:`locate_rows` (first members) for locations whose :func:`_array_run` is ``run``."""
    spans: list = [None] * len(locations)
    visit = _visitor(text, spans)
    if run is not None:
        _locate_run(text, locations, run, spans, visit)
        return spans
    root: list = [{}, None]
    for n, loc in enumerate(locations):
        node = root
        for part in loc:
            children = node[0]
            child = children.get(part)
            if child is None:
                child = children[part] = [{}, None]
            node = child
        if node[1] is None:
            node[1] = [n]
        else:
            node[1].append(n)
    if root[0] or root[1] is not None:
        visit(_WS.match(text, 0).end(), root, False)
    return spans


def _visitor(text: str, spans: list):
    """The walk of :func:`locate_rows`: ``visit(offset, node, need_end)`` records in
    ``spans`` the wanted values inside the value at ``offset``, where ``node`` is
    ``[{name or index: node}, [row numbers] or None]``; it returns the value's end offset
    when ``need_end`` (else None once the last wanted value inside is recorded)."""
    ws = _WS.match
    comma = _COMMA.match
    plain_name = _PLAIN_NAME.match
    flat_rest = _FLAT_REST.match
    scan = _SCAN
    scanstring = _scanstring
    budget = [50]

    def visit(i: int, node: list, need_end: bool):
        children, rows = node
        if not children:
            end = scan(text, i)[1]
            for n in rows:
                spans[n] = (i, end)
            return end
        if rows is not None:
            need_end = True
        todo = len(children)
        if text[i] == "{":
            finder = _finder(tuple(children), budget) if todo <= 4 else None
            p = i + 1  # after '{' or ','
            while True:
                m = finder.match(text, p) if finder is not None else None
                if m is not None:
                    name = m.group(1)
                    j = m.end()
                else:
                    p = ws(text, p).end()
                    if text[p] == "}":
                        end = p + 1
                        break
                    m = plain_name(text, p)
                    if m is not None:
                        name = m.group(1)
                        j = m.end()
                    else:
                        name, j = scanstring(text, p + 1)
                        j = ws(text, ws(text, j).end() + 1).end()
                child = children.get(name) if todo else None
                if child is not None:
                    todo -= 1
                    if todo == 0:
                        if not need_end:
                            visit(j, child, False)
                            return None
                        finder = None
                        j = visit(j, child, True)
                        m = flat_rest(text, j)
                        if m is not None:
                            end = m.end()
                            break
                    else:
                        j = visit(j, child, True)
                else:
                    j = scan(text, j)[1]
                m = comma(text, j)
                if m is None:
                    end = ws(text, j).end() + 1
                    break
                p = m.end()
        elif text[i] == "[":
            j = ws(text, i + 1).end()
            if text[j] == "]":
                end = j + 1
            else:
                get = children.get
                index = 0
                while True:
                    child = get(index) if todo else None
                    if child is not None:
                        todo -= 1
                        if todo == 0 and not need_end:
                            visit(j, child, False)
                            return None
                        j = visit(j, child, True)
                    else:
                        j = scan(text, j)[1]
                    m = comma(text, j)
                    if m is None:
                        end = ws(text, j).end() + 1
                        break
                    j = m.end()
                    index += 1
        else:
            end = scan(text, i)[1]
        if rows is not None:
            for n in rows:
                spans[n] = (i, end)
        return end

    return visit


def _array_run(locations: list):
    """``(k, suffix)`` when every location is ``prefix + (index,) + suffix``, with one
    ``prefix`` of ``k`` parts, one ``suffix`` of at most one name and increasing indices:
    the shape of big results (``$..call_id`` over a log, ``$.data[?@.status=='done']``),
    located element after element without a tree of the wanted locations.  Else None."""
    if len(locations) < 32:
        return None
    first, last = locations[0], locations[-1]
    size = len(first)
    if len(last) != size:
        return None
    k = next((i for i in range(size) if first[i] != last[i]), None)
    if k is None or type(first[k]) is not int:
        return None
    prefix, suffix = first[:k], first[k + 1:]
    if len(suffix) > 1 or (suffix and type(suffix[0]) is not str):
        return None
    previous = -1
    after = k + 1
    for loc in locations:
        index = loc[k] if len(loc) == size else None
        if type(index) is not int or index <= previous or loc[:k] != prefix or loc[after:] != suffix:
            return None
        previous = index
    return k, suffix


def _element_finder(name: str):
    """A regex matching a whole object whose members before ``name`` and after it hold
    scalars, with the value of ``name`` as group 1; None when ``name`` has no single
    spelling (see :func:`_finder`)."""
    found = _FINDERS.get(("element", name), 0)
    if found == 0:
        found = None
        if len(_FINDERS) >= 1000:
            _FINDERS.clear()
        if _FINDABLE.match(name):
            found = re.compile(r"\{" + _WSC + "(?:" + _PLAIN_STRING + _WSC + ":" + _WSC + _SCALAR + _WSC
                               + "," + _WSC + ')*?"' + re.escape(name) + '"' + _WSC + ":" + _WSC
                               + "(" + _SCALAR + ")" + _FLAT_REST.pattern, re.S)
        _FINDERS[("element", name)] = found
    return found


def _locate_run(text: str, locations: list, run: tuple, spans: list, visit) -> None:
    """:func:`locate_rows` for the locations of an :func:`_array_run`: the array's elements
    are passed over in C, a wanted element's member is matched with one regex when the
    element holds scalars (else walked by ``visit``)."""
    k, suffix = run
    comma = _COMMA.match
    scan = _SCAN
    i = _value_start(text, locations[0][:k])
    j = _WS.match(text, i + 1).end()  # the first element (the array holds the wanted ones)
    element = _element_finder(suffix[0]) if suffix else None
    total = len(locations)
    n = 0
    target = locations[0][k]
    index = 0
    while True:
        if index == target:
            if not suffix:
                end = scan(text, j)[1]
                spans[n] = (j, end)
            else:
                m = element.match(text, j) if element is not None else None
                if m is not None:
                    spans[n] = m.span(1)
                    end = m.end()
                else:
                    end = visit(j, [{suffix[0]: [{}, [n]]}, None], True)
            n += 1
            if n == total:
                return
            target = locations[n][k]
        else:
            end = scan(text, j)[1]
        m = comma(text, end)
        if m is None:  # cannot happen: the wanted elements are in the array
            return
        j = m.end()
        index += 1


def _value_start(text: str, parts) -> int:
    """The offset where the value at ``parts`` starts (its end is not needed)."""
    ws = _WS.match
    i = ws(text, 0).end()
    for part in parts:
        if type(part) is int:
            j = ws(text, i + 1).end()
            for _ in range(part):
                j = _COMMA.match(text, _SCAN(text, j)[1]).end()
            i = j
            continue
        finder = _finder((part,), [1])
        p = i + 1
        while True:
            m = finder.match(text, p) if finder is not None else None
            if m is not None:
                i = m.end()
                break
            p = ws(text, p).end()
            m = _PLAIN_NAME.match(text, p)
            if m is not None:
                name, j = m.group(1), m.end()
            else:
                name, j = _scanstring(text, p + 1)
                j = ws(text, ws(text, j).end() + 1).end()
            if name == part:
                i = j
                break
            p = _COMMA.match(text, _SCAN(text, j)[1]).end()
    return i


def _locate_rows_all(text: str, locations: list) -> list:
    """:func:`locate_rows` walking every member of the objects on the way, so that the last
    of duplicate names wins (as in the parsed tree): the parser's own locator."""
    pointers = [pointer_of(loc) for loc in locations]
    found = locate_many(text, set(pointers))
    return [(found[p].start, found[p].end) if p in found else None for p in pointers]


def build_rows(text: str, parsed, kept: list) -> list[dict]:
    """The response rows for the kept matches: path, pointer, value, exact text, position."""
    duplicates = any(w.get("code") == "duplicate_key" for w in parsed.warnings)
    located = [loc for loc in kept if type(loc) is tuple]
    run = _array_run(located) if len(located) == len(kept) else None
    spans = None
    if not duplicates:
        try:
            spans = _locate(text, located, run)
        except (StopIteration, LookupError, ValueError, TypeError, AttributeError) as exc:
            # never expected (the tests compare it with the parser's locator on random
            # documents); should it happen, the plain walk answers and the fault is logged
            log_fault("extract: fast locator", exc)
    if spans is None:
        spans = _locate_rows_all(text, located)
    if run is not None and None not in spans:
        return _run_rows(text, located, run, spans)
    positions = iter(line_cols(text, [span[0] for span in spans if span is not None]))
    spans = iter(spans)
    rows = []
    append = rows.append
    fragment = orjson.Fragment
    for loc in kept:
        if type(loc) is not tuple:  # a value jsonpath-ng computed
            append({"path": None, "pointer": None, "value": loc.value,
                    "json": dumps_value(loc.value).decode("utf-8"), "line": None,
                    "column": None, "computed": True})
            continue
        span = next(spans)
        if span is None:  # cannot happen for locations taken from the parsed tree
            append({"path": path_of(loc), "pointer": pointer_from(loc), "value": None,
                    "json": None, "line": None, "column": None})
            continue
        js = text[span[0]:span[1]]
        line, column = next(positions)
        append({"path": path_of(loc), "pointer": pointer_from(loc), "value": fragment(js),
                "json": js, "line": line, "column": column})
    return rows


def _run_rows(text: str, locations: list, run: tuple, spans: list) -> list[dict]:
    """:func:`build_rows` for the locations of an :func:`_array_run`: every path and pointer
    is the prefix's, the index and the suffix's, written once."""
    k, suffix = run
    prefix = locations[0][:k]
    path_before, path_after = path_of(prefix), path_of(suffix)[1:]
    pointer_before, pointer_after = pointer_from(prefix), pointer_from(suffix)
    fragment = orjson.Fragment
    count, rfind = text.count, text.rfind
    rows = []
    append = rows.append
    # the values of a run are in document order: newlines are counted once, along the way
    line, pos, line_start = 1, 0, 0
    for loc, (start, end) in zip(locations, spans):
        n = count("\n", pos, start)
        if n:
            line += n
            line_start = rfind("\n", pos, start) + 1
        pos = start
        i = loc[k]
        js = text[start:end]
        append({"path": f"{path_before}[{i}]{path_after}",
                "pointer": f"{pointer_before}/{i}{pointer_after}", "value": fragment(js),
                "json": js, "line": line, "column": start - line_start + 1})
    return rows


# --------------------------------------------------------------------------- entry points

def check_engine(engine: Any) -> str:
    if engine not in ENGINES:
        raise bad_request(f"Unknown engine {engine!r}: use \"rfc9535\" (default) or \"jsonpath-ng\"",
                          field="engine", code="bad_option")
    return engine


def check_limit(limit: Any, limits: Limits) -> int:
    if limit is None:
        return limits.max_matches
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise bad_request("'limit' must be a whole number of matches to return (0 or more)",
                          field="limit", code="bad_option")
    return min(limit, limits.max_matches)


def extract(document_text: str, path: str, engine: str = DEFAULT_ENGINE, limit: int | None = None,
            limits: Limits = DEFAULT_LIMITS) -> dict:
    """Run ``path`` on the document; see the module docstring and docs/api.md."""
    engine = check_engine(engine)
    limit = check_limit(limit, limits)
    if not isinstance(path, str):
        raise bad_request("'path' must be a string holding a JSONPath expression", field="path",
                          code="bad_type")
    # the collector paused for the whole request: the walks and the rows create many objects,
    # none cyclic, and each of its passes would go over the millions in the parsed tree
    with collector_paused(), Watchdog(limits.work_timeout):
        if engine == "rfc9535":
            query = compile_rfc9535(path, limits)
        else:
            query = compile_ng(path)
        parsed = parse(document_text, field="document", max_depth=limits.max_depth)
        if engine == "rfc9535":
            count, kept = run_rfc9535(query, parsed.value, limit)
        else:
            # a float view, what jsonpath-ng users feed it (integers too long for int(): floats)
            view = json.loads(document_text, parse_int=_ng_int)
            count, kept = run_ng(query, view, limit)
        rows = build_rows(document_text, parsed, kept)
    return {
        "matches": rows,
        "count": count,
        "returned": len(rows),
        "truncated": count > len(rows),
        "limit": limit,
        "engine": engine,
        "engine_label": ENGINES[engine].format(v=ENGINE_VERSIONS[engine]),
        "rfc9535": engine == "rfc9535",
        "warnings": parsed.warnings,
    }


def handle(body: dict, limits: Limits) -> dict:
    """``POST /api/extract``: ``document``, ``path``, ``engine`` (default ``"rfc9535"``),
    ``limit`` (default ``limits.max_matches``)."""
    v = REQUEST.read(body)
    return extract(v["document"], v["path"], v["engine"] or DEFAULT_ENGINE, body.get("limit"), limits)


REQUEST = Fields(
    Field("document", required=True, text=True),
    Field("path", required=True, text=True, what="a string holding a JSONPath expression"),
    Field("engine", default=DEFAULT_ENGINE, what='"rfc9535" or "jsonpath-ng"',
          schema={"enum": list(ENGINES)}),
    Field("limit", object, what="a whole number of matches to return",
          schema={"minimum": 0}),
)
