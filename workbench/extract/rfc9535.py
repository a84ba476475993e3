"""The RFC 9535 engine: jsonpath-rfc9535 (which passes the whole Compliance Test Suite), configured
to work on the exact tree :func:`workbench.jsontext.parse` builds.  The installed package is not
changed: everything here is a subclass or a wrapper.

* Member names: the library's lexer ends its ``name-char`` class at U+10FF (meant: U+10FFFF), so
  ``$.주문``, ``$.名前`` or ``$.a€`` were syntax errors while ``$.ключ`` worked.
  :class:`NameLexer` reads names with RFC 9535's ``name-first`` / ``name-char`` (ALPHA, ``_``,
  U+0080–U+D7FF, U+E000–U+10FFFF, and DIGIT after the first character).
* Numbers: literals are exact ``int``/``Decimal`` (``0.1 == 0.1`` holds, ``1e400`` is a number),
  comparisons know ``Decimal`` (:mod:`.filters`), and a comparison used as an operand
  (``(@.a<1)==false``) is refused, as the grammar does.
* Speed: filters of simple comparisons are plain predicates, ``..`` is an iterative walk with a
  direct lookup for ``..name``, the common query shapes run on :mod:`.fastpath`, and the last
  segment names its matches without node objects.
* Limits: the descent's depth limit is the server's ``max_depth``; ``match()``/``search()`` run
  with the regex timeout.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from itertools import islice

import regex
from iregexp_check import check
from jsonpath_rfc9535 import JSONPathEnvironment
from jsonpath_rfc9535.exceptions import JSONPathError, JSONPathRecursionError, JSONPathSyntaxError
from jsonpath_rfc9535.filter_expressions import ComparisonExpression, FloatLiteral, IntegerLiteral
from jsonpath_rfc9535.function_extensions._pattern import map_re
from jsonpath_rfc9535.function_extensions.match import Match
from jsonpath_rfc9535.function_extensions.search import Search
from jsonpath_rfc9535.lex import RE_PROPERTY, Lexer
from jsonpath_rfc9535.node import JSONPathNode
from jsonpath_rfc9535.parse import Parser
from jsonpath_rfc9535.query import JSONPathQuery
from jsonpath_rfc9535.segments import JSONPathChildSegment, JSONPathRecursiveDescentSegment
from jsonpath_rfc9535.selectors import FilterSelector, NameSelector
from jsonpath_rfc9535.tokens import Token, TokenStream, TokenType

from ..errors import WorkbenchError
from ..limits import Limits
from .bounds import check_path_bounds
from .fastpath import fast_locations, fast_plan
from .filters import ExactComparison, FastFilterSelector, refuse_uncomparable
from .messages import path_error, tidy

# --------------------------------------------------------------------------- names

# RFC 9535 section 2.5.1.1: name-first = ALPHA / "_" / %x80-D7FF / %xE000-10FFFF;
# name-char = name-first / DIGIT.  (Python strings may hold lone surrogates: they are not names.)
NAME_FIRST = "A-Za-z_\u0080-\ud7ff\ue000-\U0010ffff"


NAME = re.compile(f"[{NAME_FIRST}][{NAME_FIRST}0-9]*")


class NameLexer(Lexer):
    """The library's lexer with RFC 9535's member-name characters."""

    __slots__ = ()

    def accept_match(self, pattern) -> bool:
        return Lexer.accept_match(self, NAME if pattern is RE_PROPERTY else pattern)


def tokenize(query: str) -> list:
    """The library's ``lex.tokenize`` with :class:`NameLexer`."""
    lexer = NameLexer(query)
    lexer.run()
    tokens = lexer.tokens
    if tokens and tokens[-1].type_ == TokenType.ERROR:
        raise JSONPathSyntaxError(tokens[-1].message, token=tokens[-1])
    if lexer.bracket_stack:  # an opening bracket never closed
        ch, index = lexer.bracket_stack[-1]
        msg = f"unbalanced {'brackets' if ch == '[' else 'parentheses'}"
        raise JSONPathSyntaxError(msg, token=Token(TokenType.ERROR, query[index], index, query, msg))
    return tokens


# --------------------------------------------------------------------------- the descendant segment


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


# --------------------------------------------------------------------------- parser and environment


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
            refuse_uncomparable(expr)
            expr = ExactComparison(expr.token, expr.left, expr.operator, expr.right)
        return expr


def _pattern_timeout(pattern: str, timeout: float) -> WorkbenchError:
    return WorkbenchError("timeout", f"The pattern {pattern[:60]!r} ran longer than {timeout:g} s "
                          "on one string and was stopped", field="path", limit=timeout)


class _Timed:
    """A regex filter function with the regex timeout (the library's have none): ``_run`` is
    the match itself."""

    def __init__(self, timeout: float):
        self.timeout = timeout

    def __call__(self, string, pattern) -> bool:
        if not isinstance(pattern, str) or not isinstance(string, str) or not check(pattern):
            return False
        try:
            return bool(self._run(map_re(pattern), string))
        except TimeoutError:
            raise _pattern_timeout(pattern, self.timeout) from None
        except (TypeError, regex.error):
            return False


class TimedMatch(_Timed, Match):
    """``match()``: the whole string."""

    def _run(self, pattern: str, string: str):
        return regex.fullmatch(pattern, string, timeout=self.timeout)


class TimedSearch(_Timed, Search):
    """``search()``: anywhere in the string."""

    def _run(self, pattern: str, string: str):
        return regex.search(pattern, string, regex.VERSION1, timeout=self.timeout)


class ExactEnvironment(JSONPathEnvironment):
    """The environment of one set of limits (``max_depth``, ``regex_timeout``)."""

    parser_class = ExactParser

    def __init__(self, max_depth: int, regex_timeout: float):
        self.max_recursion_depth = max_depth + 1
        self.regex_timeout = regex_timeout
        super().__init__()

    def setup_function_extensions(self) -> None:
        super().setup_function_extensions()
        self.function_extensions["match"] = TimedMatch(self.regex_timeout)
        self.function_extensions["search"] = TimedSearch(self.regex_timeout)

    def compile(self, query: str) -> JSONPathQuery:
        """The library's ``compile`` with :func:`tokenize` (RFC 9535 member names)."""
        return JSONPathQuery(env=self, segments=tuple(self.parser.parse(TokenStream(tokenize(query)))))


_ENV_CACHE: dict = {}


def rfc9535_env(limits: Limits) -> ExactEnvironment:
    key = (limits.max_depth, limits.regex_timeout)
    env = _ENV_CACHE.get(key)
    if env is None:
        env = _ENV_CACHE[key] = ExactEnvironment(limits.max_depth, limits.regex_timeout)
    return env


# --------------------------------------------------------------------------- compile and run


def compile_rfc9535(path: str, limits: Limits):
    """The compiled query (kept: a log's lines and a page's live runs ask the same again; a
    compiled query holds no state of its own)."""
    return _compiled(path, limits.max_depth, limits.regex_timeout)


@lru_cache(maxsize=128)
def _compiled(path: str, max_depth: int, regex_timeout: float):
    env = rfc9535_env(Limits(max_depth=max_depth, regex_timeout=regex_timeout))
    if not path.startswith("$"):
        raise path_error(path, 0, "A JSONPath starts with '$' (the root, nothing before it), "
                                  "e.g. $.data[0]")
    check_path_bounds(path)
    try:
        return env.compile(path)
    except JSONPathError as exc:
        token = exc.token or next((a for a in exc.args if isinstance(a, Token)), None)
        message = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
        offset = token.index if token is not None else None
        raise path_error(path, offset, tidy(message)) from None
    except RecursionError:
        raise path_error(path, None, "The expression is nested too deeply") from None
    except (ValueError, ArithmeticError) as exc:  # defensive: never a 500
        raise path_error(path, None, f"Invalid JSONPath: {exc}") from None


def run_rfc9535(query, value, limit: int, use_fast: bool = True):
    """All matches of ``query``: (count, the locations of the first ``limit``)."""
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
                         tidy(str(exc.args[0]) if exc.args else str(exc))) from None
    return count, kept


def _locations(query, value, use_fast: bool = True):
    """The locations of every match, in order: the fast path for the common shapes, else
    ``query.finditer`` without building a node object per match when the last segment can
    name its matches directly (a name, a simple filter, ``..name``).  ``use_fast=False``
    (for tests) always takes the library's way."""
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
