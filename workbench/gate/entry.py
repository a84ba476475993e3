"""The ways into the gate: ``POST /api/gate`` (:func:`handle`), one pasted item as text
(:func:`gate`), one already parsed item (:func:`gate_value`, for the transcript view).  (The Gate
page's context is the page's: :func:`workbench.web.paste.page_context`.)"""

from __future__ import annotations

from typing import Any

from ..errors import WorkbenchError, bad_request
from ..fields import Field, Fields
from ..limits import DEFAULT_LIMITS, Limits
from .arguments import MISSING
from .engine import Gate
from .rules import DIALECTS
from .sentences import AUDIENCES


def gate(item_text: str, schema_text: str | None = None, original_text: str | None = None, *,
         dialect: str = "auto", limits: Limits = DEFAULT_LIMITS, words: str = "api") -> dict:
    """Gate one item (text).  Raises WorkbenchError 422 when the item, schema or original
    cannot be read (``parse_error`` …) or the schema is not a valid schema or tool list."""
    return Gate(schema_text, original_text, limits=limits).run(item_text, dialect=dialect,
                                                               words=words)


def prepare(tools: Any = None, original: Any = MISSING, *, limits: Limits = DEFAULT_LIMITS) -> Gate:
    """Tool definitions (parsed) read and compiled once, for many :func:`gate_value` calls."""
    return Gate.from_values(tools, original, limits=limits)


def gate_value(item_value: Any, tools: Any = None, original: Any = MISSING, *,
               dialect: str = "auto", item_text: str | None = None,
               limits: Limits = DEFAULT_LIMITS) -> dict:
    """The gate's answer for one **already parsed** item: the same dict as ``POST /api/gate``
    (``verdict``, ``execute``, ``dialect``, ``reason``, ``rule``, ``step``, ``steps``,
    ``function_call_output``; for the Agents API dialect also ``report`` and ``tool_result``),
    for the transcript core to call once per call it finds.

    * ``item_value``: the item as parsed by :func:`workbench.jsontext.parse` (exact numbers).
    * ``tools``: ``None`` (only the object rule in the schema step), the parsed value of tool
      definitions (anything :func:`workbench.tools.read_tools` reads: a parameters schema, one
      definition, a list, a namespace, a request's ``tools``, a session's ``agent.tools``), or —
      to read and compile them once for many calls — the :class:`Gate` returned by
      :func:`prepare` (its original is used unless ``original`` is given).
    * ``original``: the parsed original item (rule 9), or ``None`` / leave it out.
    * ``dialect``: ``"auto"`` (an item with ``turn_id`` is an Agents API action),
      ``"open_responses"`` or ``"agents_api"``.
    * ``item_text``: the item's exact text when known (positions in the steps).

    ``warnings`` holds the arguments string's warnings (big integers, lone surrogates…, the
    objects Format gives, with ``"in": "arguments"``); the item text's own warnings are the
    caller's, who parsed it.  No ``envelope`` (the caller knows where the call was found).
    Raises WorkbenchError 422 ``schema_invalid`` when ``tools`` is not a usable tool list.
    """
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}")
    if original is None:
        original = MISSING  # None means "no original", as in the API's optional field
    if isinstance(tools, Gate):
        g = tools if original is MISSING else tools.with_original(original)
    else:
        g = Gate.from_values(tools, original, limits=limits)
    return g.report(item_value, item_text, dialect)


REQUEST = Fields(
    Field("item", required=True, text=True, what="a string holding the item's JSON text"),
    Field("schema", text=True, doc="a parameters schema, one function tool definition, or a list of them"),
    Field("original", text=True, doc="the item as the first provider sent it"),
    Field("dialect", default="auto", what='"auto", "open_responses" or "agents_api"',
          doc="which rules: auto (an item with turn_id is an Agents API action), open_responses "
              "or agents_api", schema={"enum": list(DIALECTS)}),
    Field("words", default="api", what='"api", "page" or "cli"',
          doc="who reads the answer's sentences: where to go next is said as an endpoint (api), "
              "a button of the Gate page (page) or a command (cli)",
          schema={"enum": list(AUDIENCES)}),
)


def handle(body: dict, limits) -> dict:
    """``POST /api/gate``: ``item`` (required), ``schema``, ``original``, ``dialect``."""
    v = REQUEST.read(body)
    item, schema, original, dialect = v["item"], v["schema"], v["original"], v["dialect"]
    if dialect not in DIALECTS:
        raise bad_request(f"'dialect' must be one of {', '.join(DIALECTS)}", field="dialect",
                          code="bad_option")
    if v["words"] not in AUDIENCES:
        raise bad_request(f"'words' must be one of {', '.join(AUDIENCES)}", field="words",
                          code="bad_option")
    if not item.strip():
        raise WorkbenchError("parse_error", "The item is empty: paste one Open Responses item "
                             "or Agents API action (a JSON object)", field="item", line=1,
                             column=1, offset=0)
    return gate(item, schema, original, dialect=dialect, limits=limits, words=v["words"])
