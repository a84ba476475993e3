"""One subschema → two generated functions (see :mod:`workbench.validate.compiled`): the
generator's frame; the keywords are in :mod:`.generate_values` and :mod:`.generate_containers`."""

from __future__ import annotations

from ..classes import CLASSES
from .generate_containers import ContainerKeywords
from .generate_values import ValueKeywords
from .records import SchemaFunctions, Unsupported, runtime_names
from .tables import BRANCHING, GROUP, GUARD, LEAF, MAX_FUNCTIONS, TYPE_OF_GROUP, UNSUPPORTED


class Generator(ValueKeywords, ContainerKeywords):
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

    def build(self) -> SchemaFunctions:
        self._prescan(self.root)
        v, e = self.node(self.root)
        namespace = runtime_names(self.consts)
        source = "\n\n".join(self.sources + ["\n".join(self.tail)])
        exec(compile(source, "<compiled schema>", "exec"), namespace)  # our source only: see module doc
        return SchemaFunctions(self.draft, namespace[v], namespace[e] if e else None,
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
        if any(k in UNSUPPORTED for k in keywords):
            raise Unsupported
        if self.fc is None:  # annotations unless asserted (content: draft 7, see classes)
            keywords = [k for k in keywords if k not in ("format", "contentEncoding", "contentMediaType")]
        if not keywords:
            self.memo[id(s)] = ("TRUE", None)
            return "TRUE", None
        self.count += 1
        if self.count > MAX_FUNCTIONS:
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
            group = GROUP.get(kw, "any")
            if kw == "type":
                types = [s[kw]] if type(s[kw]) is str else list(s[kw])
                first.extend(valid)
            elif kw in ("enum", "const"):
                first.extend(valid)
            else:
                groups[group].extend(valid)
            if error:
                if group != "any":
                    errors.append(f"if {GUARD[group]}:")
                    errors.extend("    " + line for line in error)
                else:
                    errors.extend(error)
        body: list[str] = []
        if any(k in BRANCHING for k in keywords):
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
            if types is not None and not any(t in TYPE_OF_GROUP[group] for t in types):
                continue  # the type check already refused every value these apply to
            if only is not None and only in TYPE_OF_GROUP[group]:
                body.extend(lines)
                continue
            body.append(f"{chain} {GUARD[group]}:")
            body.extend("    " + line for line in lines)
            chain = "elif"
        body += groups["any"]
        vname, ename = names
        if all(k in LEAF for k in keywords):
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

    def refuse(self, test: str, kw: str, value_ref: str, S: str) -> tuple[list, list]:
        """(validity lines, error lines) of a keyword that fails when ``test`` holds: a plain
        error of ``kw``."""
        return [f"if {test}: return False"], [f"if {test}:", "    " + self.err(kw, value_ref, S)]

    def err_with(self, kw: str, value_ref: str, S: str, detail: str, indent: str = "    ",
                 at: str | None = None) -> list:
        """The lines that append an error of ``kw`` carrying one more attribute (``detail``:
        ``"wb_pair = pr"``); ``at``: the schema path's keyword when it is not ``kw``."""
        return [f"{indent}e = E({kw!r}, {value_ref}, v, {S}, p, sp + ({at or kw!r},))",
                f"{indent}e.{detail}",
                f"{indent}out.append(e)"]

    def each_sub(self, subs, line) -> tuple[list, list]:
        """The lines of a list of subschemas applied in turn: ``line(i, fv)`` gives the
        test, the value, its path and its schema path of the ``i``-th; a subschema that is
        trivially true is left out."""
        valid, error = [], []
        for i, sub in enumerate(subs):
            fv, fe = self.node(sub)
            if fv == "TRUE":
                continue
            test, x, path, spath = line(i, fv)
            valid.append(f"if {test}: return False")
            error.append(f"if {test}: {fe}({x}, {path}, sp + {spath}, out)")
        return valid, error
