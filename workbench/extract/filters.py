"""Filter expressions on the exact tree: comparisons that know ``Decimal``, and the plain
predicates the fast path runs.

jsonpath-rfc9535 compares only ``int`` and ``float``; the parsed tree holds ``Decimal`` for every
non-integer number, so :class:`ExactComparison` compares them as the numbers they are (``==``
already did).  Its operands that are singular queries (``@.a.b[0]``, ``$.x``) are looked up
directly, without node objects, and :func:`fast_predicate` turns a filter made of such
comparisons, existence tests, ``&&``, ``||`` and ``!`` into a ``(current, root) -> bool`` that
:class:`FastFilterSelector` and the fast path call per candidate.
"""

from __future__ import annotations

from decimal import Decimal

from jsonpath_rfc9535.exceptions import JSONPathSyntaxError
from jsonpath_rfc9535.filter_expressions import (
    ComparisonExpression,
    FilterExpressionLiteral,
    FilterQuery,
    FunctionExtension,
    JSONPathNodeList,
    LogicalExpression,
    PrefixExpression,
    RelativeFilterQuery,
    RootFilterQuery,
    StringLiteral,
    _eq,
)
from jsonpath_rfc9535.selectors import FilterSelector, NameSelector

_NUMBERS = (int, float, Decimal)


def lt(left, right) -> bool:
    if isinstance(left, str) and isinstance(right, str):
        return left < right
    if isinstance(left, bool) or isinstance(right, bool):
        return False
    if isinstance(left, _NUMBERS) and isinstance(right, _NUMBERS):
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


_COMPARABLE = (FilterExpressionLiteral, FilterQuery, FunctionExtension)


def refuse_uncomparable(comparison: ComparisonExpression) -> None:
    """RFC 9535 compares literals, singular queries and function results (``comparable``);
    the library also takes a comparison, a negation or a logical expression as an operand
    (``$[?(@.key<44)==false]``), which the grammar has no reading for: refuse it at the
    operator."""
    for side in (comparison.left, comparison.right):
        if not isinstance(side, _COMPARABLE):
            what = ("A negation (!)" if isinstance(side, PrefixExpression) else
                    "A logical expression (&&, ||)" if isinstance(side, LogicalExpression) else
                    "A comparison")
            raise JSONPathSyntaxError(
                f"{what} cannot be an operand of {comparison.operator!r}: compare a literal, a "
                "singular query (@.key) or a function result (length(@.a)); to negate a "
                "comparison, write !(@.key < 44)", token=comparison.token)


def _operand(get, side, context):
    """A comparison's operand: looked up directly (``get``), or evaluated, one node standing
    for its value."""
    if get is not None:
        return get(context.current, context.root)
    value = side.evaluate(context)
    if isinstance(value, JSONPathNodeList) and len(value) == 1:
        return value[0].value
    return value


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
        return compare(_operand(self._lget, self.left, context), self.operator,
                       _operand(self._rget, self.right, context))

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
