"""The compiler's keywords for arrays and objects."""

from __future__ import annotations

from .records import Unsupported
from .tables import INLINE_PROPERTIES, MAX_UNROLL, WORD_T, WORD_V, is_count


def _some_names(names) -> bool:
    """True for a list of property names, False for none (``[]``); Unsupported otherwise."""
    if type(names) is not list or any(type(x) is not str for x in names):
        raise Unsupported
    return bool(names)


class ContainerKeywords:
    """Mixed into :class:`~workbench.validate.compiled.generator.Generator`."""

    # -- arrays ------------------------------------------------------------------------------

    def kw_uniqueItems(self, value, s, S, kw):
        if type(value) is not bool:
            raise Unsupported
        if not value:
            return [], []
        K = self.const(value)
        return ["if len(v) > 1 and dup(v) is not None: return False"], [
            "pr = dup(v) if len(v) > 1 else None",
            "if pr is not None:", *self.err_with("uniqueItems", K, S, "wb_pair = pr")]

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
        if len(subs) > MAX_UNROLL:
            raise Unsupported
        return self.each_sub(subs, lambda i, fv: (f"len(v) > {i} and not {fv}(v[{i}])", f"v[{i}]",
                                                  f"p + ({i},)", f"({kw!r}, {i})"))

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
                return self.refuse(test, "items", K, S)
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
            return self.refuse(test, kw, K, S)
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
        if not is_count(lo) or (hi is not None and not is_count(hi)):
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
                  *self.err_with("minContains", LO, S, "wb_matches = m", "        ", "contains")]
        return valid, error

    # -- objects -----------------------------------------------------------------------------

    def kw_required(self, value, s, S, kw):
        if not _some_names(value):
            return [], []
        K = self.const(value)
        return self._missing_names("", value, f"'required', {K}, v, {S}, p, sp + ('required',), r, "
                                              "'missing'", K)

    def _missing_names(self, when: str, names: list, record: str, L: str | None = None) -> tuple[list, list]:
        """``v`` must have every name of ``names`` (only ``when``: a guard ending in `` and ``, or
        nothing); the error part appends ``KE(record)`` for each name of the constant ``L`` (the
        names in order; default: a new tuple constant) that is missing, ``r`` being the name."""
        RS = self.const(frozenset(names))
        if L is None:
            L = self.const(tuple(names))
        test = f"{when}not (v.keys() >= {RS})"
        return [f"if {test}: return False"], [
            f"if {test}:",
            f"    for r in {L}:",
            "        if r not in v:",
            f"            out.append(KE({record}))"]

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
        if len(value) <= INLINE_PROPERTIES:
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
                line = WORD_T.sub("tx", WORD_V.sub("x", line))
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
        if not _some_names(names):
            return [], []
        P = self.const(prop)
        return self._missing_names(f"{P} in v and ", names,
                                   f"{kw!r}, {K}, v, {S}, p, sp + ({kw!r},), r, 'missing', {P}")

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
