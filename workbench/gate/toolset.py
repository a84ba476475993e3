"""The tools the gate checks against: :func:`workbench.tools.read_tools` (the one reader of
tool definitions), each function tool's parameters checked and compiled once by the Validate
core, and the choice of the tool for an item (by ``name``, and ``namespace`` when the item
carries one)."""

from __future__ import annotations

from typing import Any

from .. import validate
from ..errors import WorkbenchError
from ..limits import Limits
from ..tools import ToolDef, read_tools


class Tool:
    """One function tool (a :class:`workbench.tools.ToolDef`) with its compiled check."""

    __slots__ = ("d", "name", "namespace", "parameters", "pointer", "style", "strict", "limits",
                 "checker", "compiled")

    def __init__(self, d: ToolDef, limits: Limits):
        self.d = d
        self.name, self.namespace, self.parameters = d.name, d.namespace, d.parameters
        self.pointer, self.style, self.strict = d.pointer, d.style, d.strict
        self.limits = limits
        self.checker = None
        self.compiled = None

    def prepare(self) -> None:
        """Have the Validate core check and compile the schema (422 schema_invalid…)."""
        if self.parameters is None:
            return
        try:
            self.compiled = validate.compile_schema(self.parameters, limits=self.limits)
        except WorkbenchError as exc:
            if exc.code in ("schema_invalid", "ref_unresolvable"):
                where = f" ({self.label()}, at {self.pointer or '/'} in the schema)"
                exc.message = exc.message.rstrip(".") + where
                exc.field = "schema"
                exc.extra.setdefault("tool", self.name)
                exc.extra.setdefault("schema_at", self.pointer)
            raise
        self.checker = validate.validity_check(self.compiled, self.limits)

    def label(self) -> str:
        if self.name is None:
            return "the given parameters schema"
        return f"tool {self.called_as()}"

    def qualified(self) -> str:
        return self.d.qualified()

    def called_as(self) -> str:
        return self.d.called_as()

    def fits(self, args: Any) -> bool:
        """Do the parsed arguments pass the parameters schema?  (No schema: yes.)"""
        checker = self.checker
        if checker is not None:
            try:
                return checker(args)
            except RecursionError:
                pass
        if self.parameters is None:
            return True
        return validate.evaluate(self.compiled, args, self.limits, max_errors=0)["valid"]

    def errors(self, args: Any) -> dict:
        """The Validate core's full answer for the arguments (errors in document order)."""
        return validate.validate_value(self.parameters, args, limits=self.limits)


class ToolSet:
    """What the ``schema`` field held: a bare parameters schema (``kind == "parameters"``) or
    tool definitions (``kind == "tools"``)."""

    def __init__(self, value: Any, limits: Limits, text: str | None = None):
        read = read_tools(value, text=text)
        self.limits = limits
        self.kind, self.source = read.kind, read.source
        self.tools = [Tool(d, limits) for d in read.tools]
        self.skipped = read.hosted  # hosted / provider tools: not function tools
        self.index: dict = {}
        self.by_name: dict = {}
        for tool in self.tools:
            self.index[(tool.namespace, tool.name)] = tool
            self.by_name.setdefault(tool.name, []).append(tool)
        self.has_namespaces = any(t.namespace for t in self.tools)
        self.plain = {name: tool for (ns, name), tool in self.index.items() if ns is None}
        for tool in self.tools:
            tool.prepare()

    def pick(self, item: dict) -> Tool | None:
        """The tool for an item: a bare schema always; else by name — a plain name, or the
        name in the item's namespace.  A tool in a namespace answers a call with that
        namespace, or a call with no namespace when it is the only tool of that name."""
        if self.kind == "parameters":
            return self.tools[0]
        name = item.get("name")
        ns = item.get("namespace")
        if ns is None:
            tool = self.plain.get(name)
            if tool is not None:
                return tool
        ns = ns if isinstance(ns, str) and ns else None
        tool = self.index.get((ns, name))
        if tool is None:
            same = self.by_name.get(name)
            if same and ((ns is not None and not self.has_namespaces) or
                         (ns is None and len(same) == 1)):
                tool = same[0]
        return tool

    def names(self) -> list[str]:
        """How each tool is called (``spawn_agent (namespace multi_agent_v1)``)."""
        return list(dict.fromkeys(t.called_as() for t in self.tools))
