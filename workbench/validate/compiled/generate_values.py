"""The compiler's keywords for values themselves: any type, combinators and references,
numbers, sizes and strings."""

from __future__ import annotations

from ..patterns import matcher
from .records import Unsupported
from .tables import TYPE_EXPR, is_count, is_num


class ValueKeywords:
    """Mixed into :class:`~workbench.validate.compiled.generator.Generator`."""

    # -- any type ---------------------------------------------------------------------------

    def kw_type(self, value, s, S, kw):
        names = [value] if type(value) is str else value
        if type(names) is not list or not names or any(n not in TYPE_EXPR for n in names):
            raise Unsupported
        exprs = []
        for n in names:
            exprs.append("t is int" if n == "integer" and self.draft == "draft-04" else TYPE_EXPR[n])
        test = " or ".join(exprs)
        K = self.const(value)
        return self.refuse(f"not ({test})", "type", K, S)

    def kw_enum(self, value, s, S, kw):
        if type(value) is not list:
            raise Unsupported
        K = self.const(value)
        if value and all(type(x) is str for x in value):
            KS = self.const(frozenset(value))
            test = f"t is not str or v not in {KS}"
        else:
            test = f"not inenum(v, {K})"
        return self.refuse(test, "enum", K, S)

    def kw_const(self, value, s, S, kw):
        K = self.const(value)
        test = f"not eq(v, {K})"
        return self.refuse(test, "const", K, S)

    def kw_format(self, value, s, S, kw):
        K = self.const(value)
        FC = self.const(self.fc.conforms)
        test = f"not {FC}(v, {K})"
        return self.refuse(test, "format", K, S)

    def kw_allOf(self, value, s, S, kw):
        if type(value) is not list or not value:
            raise Unsupported
        return self.each_sub(value, lambda i, fv: (f"not {fv}(v)", "v", "p", f"('allOf', {i})"))

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
            f"if not ({test}):", *self.err_with("anyOf", K, S, f"_context = ({funcs}, v)")]

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
                 "if not ok:", *self.err_with("oneOf", K, S, f"_context = ({funcs}, v)"),
                 "elif len(ok) > 1:", *self.err_with("oneOf", K, S, "wb_matched = ok")]
        return valid, error

    def kw_not(self, value, s, S, kw):
        fv, _ = self.node(value)
        K = self.const(value)
        if fv == "FALSE":
            return [], []
        return self.refuse(f"{fv}(v)", "not", K, S)

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

    def _limit(self, kw, value, S, fails: str, allowed=is_num):
        """A bound: the value fails when ``<fails> K`` holds (``"v <"``, ``"len(v) >"``...), ``K``
        being the keyword's value, which must pass ``allowed``."""
        if not allowed(value):
            raise Unsupported
        K = self.const(value)
        return self.refuse(f"{fails} {K}", kw, K, S)

    def kw_minimum(self, value, s, S, kw):
        strict = self.draft == "draft-04" and s.get("exclusiveMinimum", False)
        return self._limit(kw, value, S, "v <=" if strict else "v <")

    def kw_maximum(self, value, s, S, kw):
        strict = self.draft == "draft-04" and s.get("exclusiveMaximum", False)
        return self._limit(kw, value, S, "v >=" if strict else "v >")

    def kw_exclusiveMinimum(self, value, s, S, kw):
        return self._limit(kw, value, S, "v <=")

    def kw_exclusiveMaximum(self, value, s, S, kw):
        return self._limit(kw, value, S, "v >=")

    def kw_multipleOf(self, value, s, S, kw):
        if not is_num(value) or not value > 0:
            raise Unsupported
        K = self.const(value)
        return self.refuse(f"not mult(v, {K})", kw, K, S)

    # -- sizes -------------------------------------------------------------------------------

    def _at_least(self, value, s, S, kw):
        return self._limit(kw, value, S, "len(v) <", is_count)

    def _at_most(self, value, s, S, kw):
        return self._limit(kw, value, S, "len(v) >", is_count)

    kw_minLength = kw_minItems = kw_minProperties = _at_least
    kw_maxLength = kw_maxItems = kw_maxProperties = _at_most

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
        return self.refuse(test, kw, K, S)

