"""The one rule engine: :func:`decide` runs the rules of :mod:`.rules` in order and the first
that fails decides the verdict.

Both ways in call it — :meth:`Gate.verdict` (the verdict alone, for ``--jsonl`` logs and the
transcript view) and :meth:`Gate.report` (the explained walk, :mod:`.walk`) — so they cannot
disagree: the walk only *describes* the outcome :func:`decide` returned.  The only thing that
differs between the two is the reader of an Open Responses arguments string, and both readers
have one contract (:mod:`.arguments`: the strict parser's answer, the fast one only reads the
common case faster).

Schema checks use the Validate view's safe validator (nothing is fetched, bounded time): a
tool's parameters schema is checked and compiled once by that core (:mod:`.toolset`), and
each verdict calls its compiled validity check.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..jsontext import json_equal
from ..limits import DEFAULT_LIMITS, Limits
from .arguments import BAD, MISSING, parse_text, read_fast
from .rules import (
    AGENTS,
    AGENTS_BLOCKING_FIELDS,
    AGENTS_REQUIRED_FIELDS,
    BLOCKING_FIELDS,
    OPEN,  # noqa: F401  (bad_fields: read here before, kept)
    REQUIRED_FIELDS,
    program_waiting,
)
from .toolset import ToolSet
from .walk import explain, explain_text


def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


def dialect_of(item: Any, dialect: str) -> str:
    """``auto``: an item with a ``turn_id`` is an Agents API action, anything else is read as
    Open Responses."""
    if dialect == "auto":
        return AGENTS if type(item) is dict and "turn_id" in item else OPEN
    return dialect


class Decision(NamedTuple):
    """What :func:`decide` found: the verdict, the dialect the item was read in, the parsed
    arguments (``MISSING`` when not reached) and the chosen tool (or None) — what the walk
    describes."""

    verdict: str
    dialect: str
    arguments: Any = MISSING
    tool: Any = None


def _format(item: dict, dialect: str, read_args, limits):
    """The format step after the type (rules 3–6 / 3–4): the failing verdict or None, and the
    parsed arguments."""
    get = item.get
    if dialect == OPEN:
        waits = get("status") != "completed"
        if waits and not program_waiting(item):
            return "status", MISSING
        for f in REQUIRED_FIELDS:
            v = get(f)
            if type(v) is not str or not v:
                return "missing_fields", MISSING
        a = get("arguments")
        if type(a) is not str:
            return "arguments_type", MISSING
        args = read_args(a, limits)
        if args is BAD:   # a program's call whose arguments do not parse may be cut off: status
            return ("status" if waits else "arguments_parse"), MISSING
        return None, args
    if "status" in item and get("status") != "completed":
        return "not_pending", MISSING   # a status is not an action (agents-rules.md)
    for f in AGENTS_REQUIRED_FIELDS:  # Agents API: no status rule; the pair and the name
        v = get(f)
        if type(v) is not str or not v:
            return "missing_fields", MISSING
    args = get("arguments", MISSING)
    if type(args) is not dict:  # arguments an object
        return "arguments_type", MISSING
    return None, args


def decide(g: "Gate", item: Any, dialect: str = "auto", read_args=read_fast) -> Decision:
    """Run the rules in order; the first that fails decides (:class:`Decision`)."""
    dialect = dialect_of(item, dialect)
    if type(item) is not dict:
        return Decision("namespaced", dialect)
    t = item.get("type")
    if type(t) is not str or ":" in t:
        return Decision("namespaced", dialect)
    if t != "function_call":
        return Decision("not_function_call", dialect)
    failed, args = _format(item, dialect, read_args, g.limits)
    if failed is not None:
        return Decision(failed, dialect)
    tools = g.tools
    tool = None if tools is None else tools.pick(item)
    if tool is None and tools is not None:
        return Decision("unknown_tool", dialect, args, tool)
    if type(args) is not dict:
        return Decision("arguments_schema", dialect, args, tool)
    if tool is not None:
        checker = tool.checker
        if checker is None:
            fits = tool.fits(args)
        else:
            try:
                fits = checker(args)
            except RecursionError:
                fits = tool.fits(args)
        if not fits:
            return Decision("arguments_schema", dialect, args, tool)
    if g.original is not MISSING and g.blocking_differences(item, dialect, args):
        return Decision("replay_mismatch", dialect, args, tool)
    return Decision("ok", dialect, args, tool)


class Gate:
    """The tool schema and the original item, read once; then any number of items.

    ``Gate(schema_text, original_text)`` reads texts (the API, the page, the command line);
    :meth:`from_values` takes already parsed values (the transcript view)."""

    def __init__(self, schema_text: str | None = None, original_text: str | None = None, *,
                 limits: Limits = DEFAULT_LIMITS):
        self.limits = limits
        self.tools: ToolSet | None = None
        self.schema_warnings: list[dict] = []
        self.schema_text = None if _blank(schema_text) else schema_text
        self.schema_value: Any = None  # the tools as parsed (exact values), for other readers
        if not _blank(schema_text):
            parsed = parse_text(schema_text, "schema", limits)
            self.schema_value = parsed.value
            self.schema_warnings = parsed.warnings
            self.tools = ToolSet(parsed.value, limits, schema_text)
        self.original: Any = MISSING
        self.original_text = None
        self._original_args: Any = MISSING
        if not _blank(original_text):
            self._set_original(parse_text(original_text, "original", limits).value)
            self.original_text = original_text

    @classmethod
    def from_values(cls, tools: Any = None, original: Any = MISSING, *,
                    limits: Limits = DEFAULT_LIMITS) -> "Gate":
        g = cls(None, None, limits=limits)
        if tools is not None:
            g.tools = ToolSet(tools, limits)
        if original is not MISSING and original is not None:
            g._set_original(original)
        return g

    def with_original(self, original: Any) -> "Gate":
        """The same tools (compiled once) with another original item."""
        import copy
        g = copy.copy(self)
        g.original_text = None
        g._set_original(original)
        return g

    def _set_original(self, original: Any) -> None:
        self.original = original
        self._original_args = MISSING
        if isinstance(original, dict) and "arguments" in original:
            a = original["arguments"]
            self._original_args = read_fast(a, self.limits) if isinstance(a, str) else a

    # -- rule 9: the same call --------------------------------------------------------

    def _same_arguments(self, left: Any, right: Any, args: Any) -> bool:
        parsed = self._original_args
        if isinstance(left, str) and isinstance(right, str) and left == right:
            return True
        if args is not MISSING and parsed is not BAD and parsed is not MISSING:
            return json_equal(parsed, args)
        return json_equal(left, right)

    def blocking_differences(self, item: dict, dialect: str, args: Any = MISSING) -> list[str]:
        """The fields that make the item another call than the original (rule 9): type,
        (turn_id,) call_id, name, and the arguments as parsed JSON."""
        o = self.original if isinstance(self.original, dict) else None
        if o is None:
            return [""]  # the original is not an item at all
        fields = AGENTS_BLOCKING_FIELDS if dialect == AGENTS else BLOCKING_FIELDS
        out = []
        for f in fields:
            left, right = o.get(f, MISSING), item.get(f, MISSING)
            if left is MISSING or right is MISSING:
                if left is not right:
                    out.append(f)
            elif f == "arguments":
                if not self._same_arguments(left, right, args):
                    out.append(f)
            elif not json_equal(left, right):
                out.append(f)
        return out

    # -- the two ways in --------------------------------------------------------------

    def decide(self, item: Any, dialect: str = "auto", read_args=read_fast) -> Decision:
        """:func:`decide` for this gate (the walk asks it with the strict arguments reader)."""
        return decide(self, item, dialect, read_args)

    def verdict(self, item: Any, dialect: str = "auto") -> str:
        """The verdict for a parsed item: :func:`decide`'s (with the fast arguments reader),
        so the verdict path is the engine, not a copy."""
        return decide(self, item, dialect).verdict

    def report(self, item: Any, item_text: str | None = None, dialect: str = "auto") -> dict:
        """The explained walk for a parsed item (``item_text``: its exact text, for
        positions): the same dict as ``POST /api/gate`` without the pasted text's warnings."""
        return explain(self, item, item_text, dialect)

    def run(self, item_text: str, *, envelope: bool = True, dialect: str = "auto",
            words: str = "api") -> dict:
        """The explained walk for one pasted item (text): the answer of ``POST /api/gate``
        (``words``: who reads its sentences, :data:`.sentences.AUDIENCES`)."""
        return explain_text(self, item_text, envelope=envelope, dialect=dialect, words=words)
