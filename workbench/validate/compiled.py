"""Schemas compiled to Python functions: the Validate core's fast path.

:func:`compile_schema` turns a (metaschema-checked) JSON Schema into two small generated Python
functions per subschema:

* ``v<N>(value) -> bool`` -- valid or not, returning at the first failure; and
* ``e<N>(value, path, schema_path, out)`` -- the errors, as :class:`Error` records carrying
  what :mod:`workbench.validate` reads from a jsonschema ``ValidationError`` (keyword, keyword
  value, instance, schema, instance path, evaluation path, the missing/extra key...), appended
  to ``out`` in the order jsonschema yields them (keywords in schema order).  An error
  function descends only into values its validity function refused, so a mostly valid
  document costs little more than the validity check.

The keyword semantics are those of :mod:`workbench.validate_keywords` (this project's jsonschema
classes): exact numbers (``int``/``Decimal``; an integral ``Decimal`` is an integer from draft 6
on, not in draft 4), ECMA-262 patterns on the ``regex`` package with a timeout (no timeout only
for patterns proven to backtrack linearly, on short strings), one error per missing or extra
key, linear ``uniqueItems``, ``$ref`` siblings ignored up to draft 7.  The work deadline is
checked in array loops and on entering combinators and references; a recursion too deep for
Python raises ``RecursionError`` (the caller answers ``too_deep``).

Anything outside the compiled subset makes :func:`compile_schema` return None, and the caller
uses jsonschema: ``unevaluated*``, ``$dynamicRef``/``$recursiveRef``, a ``$ref`` that is not a
JSON Pointer into the schema itself, an embedded ``$id`` or ``$schema``, custom vocabularies.
``tests/test_validate_compiled.py`` runs the official suite through both paths.

**Injection safety**: no text from the schema is ever written into the generated source.  Every
schema value (property names, patterns, enums, bounds, the subschemas themselves) is an entry
of the constants table ``C`` the code indexes; the source holds only our own identifiers,
keyword names and integers we computed.
"""

from __future__ import annotations

import re
import time
from decimal import Decimal

import referencing
from jsonschema._utils import equal
from referencing.exceptions import NoSuchResource

from .keywords import (CLASSES, PatternError, WorkTimeout, _state, dialect_of,
                                first_duplicate, is_integral, is_multiple, matcher)

__all__ = ["compile_schema", "call_bounded", "CompiledSchema", "Error", "Unsupported"]


class Unsupported(Exception):
    """The schema uses something this compiler leaves to jsonschema."""


# --------------------------------------------------------------------------- error records

class Error:
    """One error of the compiled path, shaped like a jsonschema ``ValidationError`` for
    :func:`workbench.validate.describe` and :func:`workbench.validate.run`: ``validator`` (the
    keyword; None for a false schema), ``validator_value``, ``instance``, ``schema``,
    ``absolute_path``/``relative_path`` (instance path, relative inside a context),
    ``relative_schema_path`` (jsonschema's evaluation path: ``$ref`` and ``if`` left out),
    ``context`` (the alternatives' errors of anyOf/oneOf, computed when first read) and the
    ``wb_*`` details of :mod:`workbench.validate_keywords`."""

    __slots__ = ("validator", "validator_value", "instance", "schema", "absolute_path",
                 "relative_schema_path", "_context", "wb_kind", "wb_key", "wb_because", "wb_pair",
                 "wb_matched", "wb_matches", "wb_pname")

    def __init__(self, validator, value, instance, schema, path, spath):
        self.validator = validator
        self.validator_value = value
        self.instance = instance
        self.schema = schema
        self.absolute_path = path
        self.relative_schema_path = spath
        self._context = None

    @property
    def relative_path(self):
        return self.absolute_path

    @property
    def context(self) -> list:
        c = self._context
        if c is None:
            return []
        if type(c) is tuple:  # (error functions of the alternatives, instance): run them now
            funcs, instance = c
            found: list = []
            for i, fn in enumerate(funcs):
                fn(instance, (), (i,), found)
            self._context = c = found
        return c

    @context.setter
    def context(self, value):
        self._context = value or None

    @property
    def message(self) -> str:
        return f"fails {self.validator or 'false'}"

    def __repr__(self):
        return f"<Error {self.validator} at {self.absolute_path!r}>"


def _keyed(validator, value, instance, schema, path, spath, key, kind, because=None) -> Error:
    e = Error(validator, value, instance, schema, path, spath)
    e.wb_key = key
    e.wb_kind = kind
    if because is not None:
        e.wb_because = because
    return e


def _named(found: list, name: str, out) -> None:
    """Errors of a property name (``propertyNames``): reported at that key."""
    for e in found:
        if getattr(e, "wb_pname", None) is None:
            e.wb_pname = name
        out.append(e)


# --------------------------------------------------------------------------- runtime helpers

def _true(v) -> bool:
    return True


def _false(v) -> bool:
    return False


def _efalse(v, p, sp, out) -> None:
    out.append(Error(None, None, v, False, p, sp))


def _multiple(value, divisor) -> bool:
    try:
        return is_multiple(value, divisor)
    except (ValueError, TypeError, ArithmeticError):
        return False


def _in_enum(v, options) -> bool:
    for each in options:
        if equal(each, v):
            return True
    return False


_MISS = object()
_INF = float("inf")
_TICKS = 512


def _tick(counter) -> None:
    """The work deadline (``Budget``), checked every few hundred steps."""
    counter[0] = _TICKS
    if time.monotonic() > getattr(_state, "deadline", _INF):
        raise WorkTimeout()


_NUM = frozenset({int, float, Decimal})
_NUMF = frozenset({float, Decimal})


# --------------------------------------------------------------------------- the compiled form

class CompiledSchema:
    """``is_valid(instance) -> bool`` and ``errors(instance, out)`` (appends :class:`Error`
    records in jsonschema's order; nothing for a valid instance)."""

    __slots__ = ("draft", "is_valid", "_errors", "functions", "source", "needs_budget")

    def __init__(self, draft, is_valid, errors, functions, source, needs_budget=True):
        self.draft = draft
        self.is_valid = is_valid
        self._errors = errors
        self.functions = functions
        self.source = source
        #: False when the work is bounded without a clock: no pattern (the regex timeout), no
        #: reference (recursion), no asserted format; then ``is_valid`` may run without a Budget
        self.needs_budget = needs_budget

    def errors(self, instance, out) -> None:
        if not self.is_valid(instance):
            self._errors(instance, (), (), out)

    def iter_errors(self, instance) -> list:
        out: list = []
        self.errors(instance, out)
        return out


def call_bounded(fn, value, regex_timeout: float, work_timeout: float):
    """``fn(value)`` with the regex timeout and a work deadline set for this thread (a leaner
    :class:`~workbench.validate_keywords.Budget` for one validity check)."""
    st = _state
    saved = (getattr(st, "deadline", None), getattr(st, "regex_timeout", None))
    st.deadline = time.monotonic() + work_timeout
    st.regex_timeout = regex_timeout
    try:
        return fn(value)
    finally:
        if saved[0] is None:
            del st.deadline
        else:
            st.deadline = saved[0]
        if saved[1] is None:
            del st.regex_timeout
        else:
            st.regex_timeout = saved[1]


def _refuse(uri: str):
    raise NoSuchResource(ref=uri)


_NO_NETWORK = referencing.Registry(retrieve=_refuse)


def compile_schema(schema, draft: str | None = None, *, resolver=None, format_checker=None):
    """The compiled validator of ``schema`` (a parsed value), or None when it uses anything
    outside the compiled subset (see the module doc).

    ``draft`` is the dialect (``"2020-12"``, ``"draft-07"``...; None: from ``$schema``, else
    2020-12); ``resolver`` a ``referencing`` resolver for ``$ref`` (default: the schema alone,
    nothing fetched); ``format_checker`` a jsonschema ``FormatChecker`` to assert ``format``
    with (default: ``format`` is an annotation).  The schema should have passed its metaschema
    (:func:`workbench.validate.compile_schema` does that first); a few malformed keyword
    values are refused here too, never guessed at."""
    if draft is None:
        uri = schema.get("$schema") if isinstance(schema, dict) else None
        draft = "2020-12" if uri is None else dialect_of(uri)
        if draft is None:
            return None
    if draft not in CLASSES:
        return None
    try:
        if resolver is None and isinstance(schema, dict):
            resolver = CLASSES[draft](schema, registry=_NO_NETWORK)._resolver
        return _Generator(schema, draft, resolver, format_checker).build()
    except (Unsupported, RecursionError, PatternError):
        return None


# --------------------------------------------------------------------------- the generator

_UNSUPPORTED = frozenset({"$recursiveRef", "$dynamicRef", "unevaluatedItems", "unevaluatedProperties"})
_BRANCHING = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "$ref", "contains", "dependencies",
                        "dependentSchemas"})
_GROUP = {
    "properties": "object", "patternProperties": "object", "additionalProperties": "object",
    "required": "object", "minProperties": "object", "maxProperties": "object",
    "propertyNames": "object", "dependencies": "object", "dependentRequired": "object",
    "dependentSchemas": "object",
    "items": "array", "prefixItems": "array", "additionalItems": "array", "contains": "array",
    "minItems": "array", "maxItems": "array", "uniqueItems": "array",
    "minLength": "string", "maxLength": "string", "pattern": "string",
    "minimum": "number", "maximum": "number", "exclusiveMinimum": "number",
    "exclusiveMaximum": "number", "multipleOf": "number",
}
_GUARD = {"object": "t is dict", "array": "t is list", "string": "t is str", "number": "t in NUM"}
_TYPE_OF_GROUP = {"object": ("object",), "array": ("array",), "string": ("string",),
                  "number": ("number", "integer")}
_TYPE_EXPR = {
    "null": "v is None",
    "boolean": "t is bool",
    "object": "t is dict",
    "array": "t is list",
    "string": "t is str",
    "number": "t in NUM",
    "integer": "(t is int or (t in NUMF and isint(v)))",
}
_MAX_FUNCTIONS = 5000
#: keywords that check the value itself without descending: a subschema of only these is a
#: "leaf", whose checks are written inline into a parent's property checks (no call)
_LEAF = frozenset({"type", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
                   "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
                   "minItems", "maxItems", "minProperties", "maxProperties", "required",
                   "uniqueItems"})
_INLINE_PROPERTIES = 24
_WORD_V = re.compile(r"\bv\b")
_WORD_T = re.compile(r"\bt\b")
_MAX_UNROLL = 256


def _is_num(v) -> bool:
    return type(v) in _NUM


def _is_count(v) -> bool:
    return type(v) in _NUM and is_integral(v) and v >= 0


class _Generator:
    def __init__(self, root, draft: str, resolver, format_checker):
        self.root = root
        self.draft = draft
        self.resolver = resolver
        self.fc = format_checker
        self.known = CLASSES[draft].VALIDATORS
        self.legacy_ref = draft in ("draft-04", "draft-06", "draft-07")
        self.consts: list = []
        self.sources: list[str] = []
        self.tail: list[str] = []
        self.memo: dict = {}
        self.keep: list = []
        self.count = 0
        self.tables = 0
        self.leaves: dict[str, list] = {}
        self.needs_budget = format_checker is not None

    # -- helpers ---------------------------------------------------------------------------

    def const(self, value) -> str:
        self.consts.append(value)
        return f"C[{len(self.consts) - 1}]"

    def table(self, expr: str) -> str:
        """A module-level name for ``expr`` (built after every function is defined)."""
        self.tables += 1
        name = f"T{self.tables}"
        self.tail.append(f"{name} = {expr}")
        return name

    def build(self) -> CompiledSchema:
        self._prescan(self.root)
        v, e = self.node(self.root)
        namespace = {
            "C": self.consts, "E": Error, "KE": _keyed, "NAMED": _named, "TRUE": _true,
            "FALSE": _false, "EFALSE": _efalse, "NUM": _NUM, "NUMF": _NUMF, "isint": is_integral,
            "mult": _multiple, "eq": equal, "inenum": _in_enum, "dup": first_duplicate,
            "CK": [_TICKS], "TICK": _tick, "len": len, "type": type, "dict": dict, "list": list,
            "str": str, "bool": bool, "int": int, "enumerate": enumerate, "range": range,
            "tuple": tuple, "zip": zip, "getattr": getattr, "MISS": _MISS,
        }
        source = "\n\n".join(self.sources + ["\n".join(self.tail)])
        exec(compile(source, "<compiled schema>", "exec"), namespace)  # our source only: see module doc
        return CompiledSchema(self.draft, namespace[v], namespace[e] if e else None,
                              self.count, source, self.needs_budget)

    def _prescan(self, root) -> None:
        """Refuse what changes how references resolve or which dialect applies below the root:
        an embedded ``$id`` (``id`` in draft 4) or ``$schema`` anywhere (conservatively, also
        inside data such as ``enum``)."""
        stack = [(root, True)]
        id_key = "id" if self.draft == "draft-04" else "$id"
        seen = 0
        while stack:
            node, is_root = stack.pop()
            seen += 1
            if seen > 200_000:
                raise Unsupported
            if type(node) is dict:
                if not is_root and (type(node.get(id_key)) is str or type(node.get("$schema")) is str):
                    raise Unsupported
                stack.extend((v, False) for v in node.values() if type(v) in (dict, list))
            elif type(node) is list:
                stack.extend((v, False) for v in node if type(v) in (dict, list))

    def node(self, s) -> tuple:
        """(validity function name, error function name) of subschema ``s``."""
        if s is True:
            return "TRUE", None
        if s is False:
            return "FALSE", "EFALSE"
        if type(s) is not dict:
            raise Unsupported
        hit = self.memo.get(id(s))
        if hit is not None:
            return hit
        if self.legacy_ref and s.get("$ref") is not None:
            keywords = ["$ref"]
        else:
            keywords = [k for k in s if k in self.known]
        if any(k in _UNSUPPORTED for k in keywords):
            raise Unsupported
        if self.fc is None and "format" in keywords:
            keywords.remove("format")
        if not keywords:
            self.memo[id(s)] = ("TRUE", None)
            return "TRUE", None
        self.count += 1
        if self.count > _MAX_FUNCTIONS:
            raise Unsupported
        names = (f"v{self.count}", f"e{self.count}")
        self.memo[id(s)] = names
        self.keep.append(s)
        self._emit(s, keywords, names)
        return names

    # -- one subschema ---------------------------------------------------------------------

    def _emit(self, s: dict, keywords: list, names: tuple) -> None:
        S = self.const(s)
        groups: dict[str, list] = {"any": [], "object": [], "array": [], "string": [], "number": []}
        first: list[str] = []  # type, enum, const: cheap and decisive, checked first
        errors: list[str] = []
        types = None
        for kw in keywords:
            valid, error = self._keyword(kw, s, S)
            group = _GROUP.get(kw, "any")
            if kw == "type":
                types = [s[kw]] if type(s[kw]) is str else list(s[kw])
                first.extend(valid)
            elif kw in ("enum", "const"):
                first.extend(valid)
            else:
                groups[group].extend(valid)
            if error:
                if group != "any":
                    errors.append(f"if {_GUARD[group]}:")
                    errors.extend("    " + line for line in error)
                else:
                    errors.extend(error)
        body: list[str] = []
        if any(k in _BRANCHING for k in keywords):
            body += ["CK[0] -= 1", "if CK[0] < 0: TICK(CK)"]
        body.append("t = type(v)")
        body += first
        only = None
        if types is not None and len(types) == 1:
            only = types[0]
        chain = "if"
        for group in ("object", "array", "string", "number"):
            lines = groups[group]
            if not lines:
                continue
            if types is not None and not any(t in _TYPE_OF_GROUP[group] for t in types):
                continue  # the type check already refused every value these apply to
            if only is not None and only in _TYPE_OF_GROUP[group]:
                body.extend(lines)
                continue
            body.append(f"{chain} {_GUARD[group]}:")
            body.extend("    " + line for line in lines)
            chain = "elif"
        body += groups["any"]
        vname, ename = names
        if all(k in _LEAF for k in keywords):
            self.leaves[vname] = body[:]  # to inline where a parent checks a property
        body.append("return True")
        self.sources.append(f"def {vname}(v):\n" + "\n".join("    " + line for line in body))
        ebody = ["t = type(v)"] + (errors or ["pass"])
        self.sources.append(f"def {ename}(v, p, sp, out):\n" + "\n".join("    " + line for line in ebody))

    def _keyword(self, kw: str, s: dict, S: str) -> tuple[list, list]:
        """(validity lines, error lines) of one keyword."""
        value = s[kw]
        method = getattr(self, "kw_" + kw.lstrip("$"), None)
        if method is None:
            raise Unsupported
        return method(value, s, S, kw)

    def err(self, kw: str, value_ref: str, S: str, inst: str = "v", extra: str = "") -> str:
        """The line that appends a plain error of keyword ``kw`` (our own keyword names only)."""
        return f"out.append(E({kw!r}, {value_ref}, {inst}, {S}, p, sp + ({kw!r},){extra}))"

    # -- any type ---------------------------------------------------------------------------

    def kw_type(self, value, s, S, kw):
        names = [value] if type(value) is str else value
        if type(names) is not list or not names or any(n not in _TYPE_EXPR for n in names):
            raise Unsupported
        exprs = []
        for n in names:
            exprs.append("t is int" if n == "integer" and self.draft == "draft-04" else _TYPE_EXPR[n])
        test = " or ".join(exprs)
        K = self.const(value)
        return [f"if not ({test}): return False"], [f"if not ({test}):", "    " + self.err("type", K, S)]

    def kw_enum(self, value, s, S, kw):
        if type(value) is not list:
            raise Unsupported
        K = self.const(value)
        if value and all(type(x) is str for x in value):
            KS = self.const(frozenset(value))
            test = f"t is not str or v not in {KS}"
        else:
            test = f"not inenum(v, {K})"
        return [f"if {test}: return False"], [f"if {test}:", "    " + self.err("enum", K, S)]

    def kw_const(self, value, s, S, kw):
        K = self.const(value)
        test = f"not eq(v, {K})"
        return [f"if {test}: return False"], [f"if {test}:", "    " + self.err("const", K, S)]

    def kw_format(self, value, s, S, kw):
        K = self.const(value)
        FC = self.const(self.fc.conforms)
        test = f"not {FC}(v, {K})"
        return [f"if {test}: return False"], [f"if {test}:", "    " + self.err("format", K, S)]

    def kw_allOf(self, value, s, S, kw):
        if type(value) is not list or not value:
            raise Unsupported
        valid, error = [], []
        for i, sub in enumerate(value):
            fv, fe = self.node(sub)
            if fv == "TRUE":
                continue
            valid.append(f"if not {fv}(v): return False")
            error.append(f"if not {fv}(v): {fe}(v, p, sp + ('allOf', {i}), out)")
        return valid, error

    def kw_anyOf(self, value, s, S, kw):
        if type(value) is not list or not value:
            raise Unsupported
        subs = [self.node(sub) for sub in value]
        if subs[0][0] == "TRUE":
            return [], []
        # in order, as jsonschema tries them (a pattern before a true alternative still runs)
        test = " or ".join(f"{fv}(v)" for fv, _ in subs)
        funcs = self.table("(" + ", ".join(fe or "EFALSE" for _, fe in subs) + ",)")
        K = self.const(value)
        return [f"if not ({test}): return False"], [
            f"if not ({test}):",
            f"    e = E('anyOf', {K}, v, {S}, p, sp + ('anyOf',))",
            f"    e._context = ({funcs}, v)",
            "    out.append(e)"]

    def kw_oneOf(self, value, s, S, kw):
        if type(value) is not list or not value:
            raise Unsupported
        subs = [self.node(sub) for sub in value]
        checks = self.table("(" + ", ".join(fv for fv, _ in subs) + ",)")
        funcs = self.table("(" + ", ".join(fe or "EFALSE" for _, fe in subs) + ",)")
        K = self.const(value)
        valid = ["n = 0", f"for f in {checks}:", "    if f(v):", "        n += 1",
                 "        if n > 1: return False", "if n == 0: return False"]
        error = [f"ok = [i for i, f in enumerate({checks}) if f(v)]",
                 "if not ok:",
                 f"    e = E('oneOf', {K}, v, {S}, p, sp + ('oneOf',))",
                 f"    e._context = ({funcs}, v)",
                 "    out.append(e)",
                 "elif len(ok) > 1:",
                 f"    e = E('oneOf', {K}, v, {S}, p, sp + ('oneOf',))",
                 "    e.wb_matched = ok",
                 "    out.append(e)"]
        return valid, error

    def kw_not(self, value, s, S, kw):
        fv, _ = self.node(value)
        K = self.const(value)
        if fv == "FALSE":
            return [], []
        return [f"if {fv}(v): return False"], [f"if {fv}(v):", "    " + self.err("not", K, S)]

    def kw_if(self, value, s, S, kw):
        has_then, has_else = "then" in s, "else" in s
        if not (has_then or has_else):
            return [], []
        fi, _ = self.node(value)
        tv, te = self.node(s["then"]) if has_then else ("TRUE", None)
        ev, ee = self.node(s["else"]) if has_else else ("TRUE", None)
        valid = [f"if {fi}(v):", f"    if not {tv}(v): return False", "else:",
                 f"    if not {ev}(v): return False"]
        error = [f"if {fi}(v):"]
        error.append(f"    if not {tv}(v): {te}(v, p, sp + ('then',), out)" if te else "    pass")
        error.append("else:")
        error.append(f"    if not {ev}(v): {ee}(v, p, sp + ('else',), out)" if ee else "    pass")
        return valid, error

    def kw_ref(self, value, s, S, kw):
        if type(value) is not str or not (value == "#" or value.startswith("#/")):
            raise Unsupported
        self.needs_budget = True
        try:
            target = self.resolver.lookup(value).contents
        except Exception:
            raise Unsupported from None
        fv, fe = self.node(target)
        if fv == "TRUE":
            return [], []
        return [f"if not {fv}(v): return False"], [f"if not {fv}(v): {fe}(v, p, sp, out)"]

    # -- numbers ----------------------------------------------------------------------------

    def _bound(self, kw, value, S, op):
        if not _is_num(value):
            raise Unsupported
        K = self.const(value)
        return [f"if v {op} {K}: return False"], [f"if v {op} {K}:", "    " + self.err(kw, K, S)]

    def kw_minimum(self, value, s, S, kw):
        strict = self.draft == "draft-04" and s.get("exclusiveMinimum", False)
        return self._bound(kw, value, S, "<=" if strict else "<")

    def kw_maximum(self, value, s, S, kw):
        strict = self.draft == "draft-04" and s.get("exclusiveMaximum", False)
        return self._bound(kw, value, S, ">=" if strict else ">")

    def kw_exclusiveMinimum(self, value, s, S, kw):
        return self._bound(kw, value, S, "<=")

    def kw_exclusiveMaximum(self, value, s, S, kw):
        return self._bound(kw, value, S, ">=")

    def kw_multipleOf(self, value, s, S, kw):
        if not _is_num(value) or not value > 0:
            raise Unsupported
        K = self.const(value)
        return [f"if not mult(v, {K}): return False"], [f"if not mult(v, {K}):", "    " + self.err(kw, K, S)]

    # -- sizes -------------------------------------------------------------------------------

    def _size(self, kw, value, S, op):
        if not _is_count(value):
            raise Unsupported
        K = self.const(value)
        return [f"if len(v) {op} {K}: return False"], [f"if len(v) {op} {K}:", "    " + self.err(kw, K, S)]

    def kw_minLength(self, value, s, S, kw):
        return self._size(kw, value, S, "<")

    def kw_maxLength(self, value, s, S, kw):
        return self._size(kw, value, S, ">")

    def kw_minItems(self, value, s, S, kw):
        return self._size(kw, value, S, "<")

    def kw_maxItems(self, value, s, S, kw):
        return self._size(kw, value, S, ">")

    def kw_minProperties(self, value, s, S, kw):
        return self._size(kw, value, S, "<")

    def kw_maxProperties(self, value, s, S, kw):
        return self._size(kw, value, S, ">")

    # -- strings -----------------------------------------------------------------------------

    def _matcher(self, pattern: str):
        self.needs_budget = True
        return matcher(pattern)

    def _match_test(self, pattern: str, subject: str) -> str:
        """An expression true when ``pattern`` finds no match in ``subject`` (bounded time)."""
        m = self._matcher(pattern)
        if not m.limit:
            return f"not {self.const(m)}({subject})"
        fast = self.const(m.fast)
        return (f"({fast}({subject}) is None if len({subject}) <= {int(m.limit)} "
                f"else not {self.const(m)}({subject}))")

    def kw_pattern(self, value, s, S, kw):
        if type(value) is not str:
            raise Unsupported
        test = self._match_test(value, "v")
        K = self.const(value)
        return [f"if {test}: return False"], [f"if {test}:", "    " + self.err(kw, K, S)]

    # -- arrays ------------------------------------------------------------------------------

    def kw_uniqueItems(self, value, s, S, kw):
        if type(value) is not bool:
            raise Unsupported
        if not value:
            return [], []
        K = self.const(value)
        return ["if len(v) > 1 and dup(v) is not None: return False"], [
            "pr = dup(v) if len(v) > 1 else None",
            "if pr is not None:",
            f"    e = E('uniqueItems', {K}, v, {S}, p, sp + ('uniqueItems',))",
            "    e.wb_pair = pr",
            "    out.append(e)"]

    def _each(self, sub, start: int, spath: str) -> tuple[list, list]:
        """Every item from ``start`` on against ``sub``."""
        fv, fe = self.node(sub)
        if fv == "TRUE":
            return [], []
        rng = f"range({start}, len(v))" if start else "range(len(v))"
        valid = [f"for i in {rng}:",
                 "    if not i & 255:",
                 "        CK[0] -= 1",
                 "        if CK[0] < 0: TICK(CK)",
                 f"    if not {fv}(v[i]): return False"]
        error = [f"for i in {rng}:",
                 "    if not i & 255:",
                 "        CK[0] -= 1",
                 "        if CK[0] < 0: TICK(CK)",
                 "    x = v[i]",
                 f"    if not {fv}(x): {fe}(x, p + (i,), sp + {spath}, out)"]
        if not start:
            valid = ["for i, x in enumerate(v):",
                     "    if not i & 255:",
                     "        CK[0] -= 1",
                     "        if CK[0] < 0: TICK(CK)",
                     f"    if not {fv}(x): return False"]
            error = ["for i, x in enumerate(v):",
                     "    if not i & 255:",
                     "        CK[0] -= 1",
                     "        if CK[0] < 0: TICK(CK)",
                     f"    if not {fv}(x): {fe}(x, p + (i,), sp + {spath}, out)"]
        return valid, error

    def _tuple(self, subs: list, kw: str) -> tuple[list, list]:
        """Items at the same index as ``subs`` (items array / prefixItems)."""
        if len(subs) > _MAX_UNROLL:
            raise Unsupported
        valid, error = [], []
        for i, sub in enumerate(subs):
            fv, fe = self.node(sub)
            if fv == "TRUE":
                continue
            valid.append(f"if len(v) > {i} and not {fv}(v[{i}]): return False")
            error.append(f"if len(v) > {i} and not {fv}(v[{i}]): {fe}(v[{i}], p + ({i},), sp + ({kw!r}, {i}), out)")
        return valid, error

    def kw_items(self, value, s, S, kw):
        if self.draft == "2020-12":
            if type(value) is list:
                raise Unsupported
            prefix = s.get("prefixItems", [])
            if type(prefix) is not list:
                raise Unsupported
            start = len(prefix)
            if value is False:
                K = self.const(value)
                test = f"len(v) > {start}"
                return [f"if {test}: return False"], [f"if {test}:", "    " + self.err("items", K, S)]
            return self._each(value, start, "('items',)")
        if type(value) is list:
            return self._tuple(value, "items")
        if self.draft == "draft-04" and type(value) is not dict:
            raise Unsupported
        return self._each(value, 0, "('items',)")

    def kw_prefixItems(self, value, s, S, kw):
        if type(value) is not list:
            raise Unsupported
        return self._tuple(value, "prefixItems")

    def kw_additionalItems(self, value, s, S, kw):
        items = s.get("items", {})
        if type(items) is dict:
            return [], []
        if type(items) is not list:
            raise Unsupported  # the library fails on a boolean items with additionalItems
        start = len(items)
        if value is False:
            K = self.const(value)
            test = f"len(v) > {start}"
            return [f"if {test}: return False"], [f"if {test}:", "    " + self.err(kw, K, S)]
        if value is True:
            return [], []
        return self._each(value, start, "('additionalItems',)")

    def kw_contains(self, value, s, S, kw):
        fv, _ = self.node(value)
        K = self.const(value)
        if self.draft in ("draft-06", "draft-07"):
            valid = ["for x in v:", f"    if {fv}(x): break", "else:", "    return False"]
            error = ["for x in v:", f"    if {fv}(x): break", "else:", "    " + self.err("contains", K, S)]
            return valid, error
        lo = s.get("minContains", 1)
        hi = s.get("maxContains", None)
        if not _is_count(lo) or (hi is not None and not _is_count(hi)):
            raise Unsupported
        LO = self.const(lo)
        valid = ["m = 0", "for x in v:", f"    if {fv}(x):", "        m += 1"]
        error = ["m = 0", "over = False", "for x in v:", f"    if {fv}(x):", "        m += 1"]
        if hi is not None:
            HI = self.const(hi)
            valid.append(f"        if m > {HI}: return False")
            error += [f"        if m > {HI}:",
                      f"            out.append(E('maxContains', {HI}, v, {S}, p, sp + ('contains',)))",
                      "            over = True",
                      "            break"]
        valid.append(f"if m < {LO}: return False")
        error += [f"if not over and m < {LO}:",
                  "    if not m:",
                  "        " + self.err("contains", K, S),
                  "    else:",
                  f"        e = E('minContains', {LO}, v, {S}, p, sp + ('contains',))",
                  "        e.wb_matches = m",
                  "        out.append(e)"]
        return valid, error

    # -- objects -----------------------------------------------------------------------------

    def kw_required(self, value, s, S, kw):
        if type(value) is not list or any(type(x) is not str for x in value):
            raise Unsupported
        if not value:
            return [], []
        K = self.const(value)
        RS = self.const(frozenset(value))
        return [f"if not (v.keys() >= {RS}): return False"], [
            f"if not (v.keys() >= {RS}):",
            f"    for r in {K}:",
            "        if r not in v:",
            f"            out.append(KE('required', {K}, v, {S}, p, sp + ('required',), r, 'missing'))"]

    def _property_table(self, props: dict) -> tuple[str | None, str | None]:
        """(dict name -> validity function, tuple of (name, validity, error, schema path))
        for the properties whose schema is not trivially true."""
        names, vfs, efs, spaths = [], [], [], []
        for name, sub in props.items():
            fv, fe = self.node(sub)
            if fv == "TRUE":
                continue
            names.append(name)
            vfs.append(fv)
            efs.append(fe)
            spaths.append(("properties", name))
        if not names:
            return None, None
        N = self.const(tuple(names))
        P = self.const(tuple(spaths))
        vt = "(" + ", ".join(vfs) + ",)"
        et = "(" + ", ".join(efs) + ",)"
        get = self.table(f"dict(zip({N}, {vt})).get")
        rows = self.table(f"tuple(zip({N}, {vt}, {et}, {P}))")
        return get, rows

    def kw_properties(self, value, s, S, kw):
        if type(value) is not dict:
            raise Unsupported
        get, rows = self._property_table(value)
        if get is None:
            return [], []
        if len(value) <= _INLINE_PROPERTIES:
            valid = self._inline_properties(value)
        else:
            valid = ["for k, x in v.items():",
                     f"    f = {get}(k)",
                     "    if f is not None and not f(x): return False"]
        error = [f"for k, fv, fe, spk in {rows}:",
                 "    if k in v:",
                 "        x = v[k]",
                 "        if not fv(x): fe(x, p + (k,), sp + spk, out)"]
        return valid, error

    def _inline_properties(self, props: dict) -> list:
        """Validity lines checking each property present: a leaf subschema's checks written in
        place (on ``x``, its type in ``tx``), any other a call.  The leaf lines are our own
        generated code (see :meth:`_emit`); renaming ``v``/``t`` in them is safe because they
        hold no other word ``v`` or ``t`` (schema text never appears in them at all)."""
        lines = []
        for name, sub in props.items():
            fv, _ = self.node(sub)
            if fv == "TRUE":
                continue
            lines.append(f"x = v.get({self.const(name)}, MISS)")
            leaf = self.leaves.get(fv)
            if leaf is None:
                lines.append(f"if x is not MISS and not {fv}(x): return False")
                continue
            lines.append("if x is not MISS:")
            for line in leaf:
                line = _WORD_T.sub("tx", _WORD_V.sub("x", line))
                lines.append("    " + line)
        return lines

    def _pattern_rows(self, pats: dict) -> list:
        rows = []
        for pattern, sub in pats.items():
            if type(pattern) is not str:
                raise Unsupported
            rows.append((pattern, self._matcher(pattern), self.node(sub)))
        return rows

    def kw_patternProperties(self, value, s, S, kw):
        if type(value) is not dict:
            raise Unsupported
        # a row whose schema is true is kept: jsonschema evaluates its pattern (and may time out)
        rows = [(pat, m, fv, fe or "EFALSE") for pat, m, (fv, fe) in self._pattern_rows(value)]
        if not rows:
            return [], []
        ms = self.const(tuple(m for _, m, _, _ in rows))
        sps = self.const(tuple(("patternProperties", pat) for pat, _, _, _ in rows))
        vt = "(" + ", ".join(fv for _, _, fv, _ in rows) + ",)"
        et = "(" + ", ".join(fe for _, _, _, fe in rows) + ",)"
        table = self.table(f"tuple(zip({ms}, {vt}, {et}, {sps}))")
        valid = ["for k, x in v.items():",
                 f"    for m, fv, fe, spk in {table}:",
                 "        if m(k) and not fv(x): return False"]
        error = [f"for m, fv, fe, spk in {table}:",
                 "    for k, x in v.items():",
                 "        if m(k) and not fv(x): fe(x, p + (k,), sp + spk, out)"]
        return valid, error

    def kw_additionalProperties(self, value, s, S, kw):
        if value is True:
            return [], []
        props = s.get("properties", {})
        pats = s.get("patternProperties", {})
        if type(props) is not dict or type(pats) is not dict:
            raise Unsupported
        PR = self.const(frozenset(props))
        if pats:
            if any(type(p) is not str for p in pats):
                raise Unsupported
            MS = self.const(tuple(self._matcher(p) for p in pats))
            extra = f"k not in {PR} and not any(m(k) for m in {MS})"
        else:
            extra = f"k not in {PR}"
        K = self.const(value)
        if value is False:
            valid = ["for k in v:", f"    if {extra}: return False"]
            error = ["for k in v:", f"    if {extra}:",
                     f"        out.append(KE('additionalProperties', {K}, v, {S}, p, "
                     "sp + ('additionalProperties',), k, 'extra'))"]
            if not pats:  # a set comparison in C
                valid = [f"if not (v.keys() <= {PR}): return False"]
            return valid, error
        fv, fe = self.node(value)
        if fv == "TRUE":
            return [], []
        valid = ["for k, x in v.items():", f"    if {extra} and not {fv}(x): return False"]
        error = ["for k, x in v.items():",
                 f"    if {extra} and not {fv}(x): {fe}(x, p + (k,), sp + ('additionalProperties',), out)"]
        return valid, error

    def kw_propertyNames(self, value, s, S, kw):
        fv, fe = self.node(value)
        if fv == "TRUE":
            return [], []
        valid = ["for k in v:", f"    if not {fv}(k): return False"]
        error = ["for k in v:",
                 f"    if not {fv}(k):",
                 "        found = []",
                 f"        {fe}(k, p, sp + ('propertyNames',), found)",
                 "        NAMED(found, k, out)"]
        return valid, error

    def _depend_names(self, kw, prop, names, S, K):
        if type(names) is not list or any(type(x) is not str for x in names):
            raise Unsupported
        if not names:
            return [], []
        P = self.const(prop)
        RS = self.const(frozenset(names))
        L = self.const(tuple(names))
        return [f"if {P} in v and not (v.keys() >= {RS}): return False"], [
            f"if {P} in v and not (v.keys() >= {RS}):",
            f"    for r in {L}:",
            "        if r not in v:",
            f"            out.append(KE({kw!r}, {K}, v, {S}, p, sp + ({kw!r},), r, 'missing', {P}))"]

    def _depend_schema(self, kw, prop, sub):
        fv, fe = self.node(sub)
        if fv == "TRUE":
            return [], []
        P = self.const(prop)
        SP = self.const((kw, prop))
        return [f"if {P} in v and not {fv}(v): return False"], [
            f"if {P} in v and not {fv}(v): {fe}(v, p, sp + {SP}, out)"]

    def _depends(self, kw, value, S, names_ok: bool, schemas_ok: bool):
        if type(value) is not dict:
            raise Unsupported
        K = self.const(value)
        valid, error = [], []
        for prop, dep in value.items():
            if type(dep) is list and names_ok:
                a, b = self._depend_names(kw, prop, dep, S, K)
            elif type(dep) in (dict, bool) and schemas_ok:
                if self.draft == "draft-04" and type(dep) is bool:
                    raise Unsupported
                a, b = self._depend_schema(kw, prop, dep)
            else:
                raise Unsupported
            valid += a
            error += b
        return valid, error

    def kw_dependencies(self, value, s, S, kw):
        return self._depends(kw, value, S, True, True)

    def kw_dependentRequired(self, value, s, S, kw):
        return self._depends(kw, value, S, True, False)

    def kw_dependentSchemas(self, value, s, S, kw):
        return self._depends(kw, value, S, False, True)
