"""Schema Validate over HTTP: ``POST /api/validate`` (and the plain form).  Every error of a
document against a JSON Schema or a tool definition, exactly located in both texts, with
nothing fetched and in bounded time.

The request is read (:data:`REQUEST`), both texts parsed (:func:`workbench.jsontext.parse`:
exact numbers, positions, warnings), the tool definition read by :func:`workbench.tools.choose`,
the schema checked and compiled (:mod:`.checked`), the document validated (:mod:`.evaluate`),
and each error placed at its line and column in the document and its keyword in the schema;
the strictness review (:mod:`.review`) runs for tool definitions.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import WorkbenchError, bad_request, log_fault
from ..fields import Field, Fields
from ..jsontext import NOT_QUICK, error_at, line_cols, locate_many, parse, pointer_of, quick_value
from ..limits import VALIDATE_MAX_WARNINGS as MAX_WARNINGS
from ..runtime import collector_paused
from ..tools import choose as choose_tool
from .calls import find_call, hint
from .checked import compile_schema, too_deep
from .dialects import normalize_draft
from .evaluate import evaluate, validity_check

# --------------------------------------------------------------------------- tool definitions

def tool_parameters(schema_value) -> tuple:
    """``(parameters schema, tool name)`` of a function tool definition (Responses
    ``{type: "function", name, parameters}`` or Chat Completions ``{type: "function",
    function: {name, parameters}}``); a bare schema gives ``(schema, None)``.  Read by
    :func:`workbench.tools.choose`, the one reader of tool definitions."""
    info = choose_tool(schema_value)
    return info.schema, info.name


# --------------------------------------------------------------------------- HTTP

REQUEST = Fields(
    Field("document", required=True, text=True, what="a string holding the JSON document"),
    Field("schema", required=True, text=True, what="a string holding a JSON Schema or a tool definition"),
    Field("format_assert", bool, default=False),
    Field("review", bool, doc="the strictness review (default: on when a tool definition is given)"),
    Field("tool", object, doc="which tool of a list of definitions", schema={"type": ["string", "integer"]}),
    Field("draft", default="2020-12", what='a draft name such as "2020-12"',
          doc="the dialect when the schema has no $schema: 2020-12, 2019-09, draft-07, draft-06, draft-04"),
    Field("target", default="document", what='"document" or "arguments"',
          doc='what is validated: the document (default), or the parsed arguments of the function '
              'call item the document is ("arguments": the Gate\'s schema step)',
          schema={"enum": ["document", "arguments"]}),
)


def handle(body: dict, limits) -> dict:
    """``POST /api/validate``: see :class:`Validation`.  The cyclic garbage collector is paused
    for the request (see parse.collector_paused)."""
    with collector_paused():
        v = REQUEST.read(body)
        return Validation(v, body, limits).run(v["document"])


def prepare(body: dict, limits, *, warnings: bool = True) -> "Validation":
    """The schema side of a request without its ``document``, read once, for validating many
    documents against one schema (``workbench validate --jsonl``): ``.run(document_text)``.
    The schema is checked now (the same for every document), not at the first document.
    ``warnings=False``: the documents' warnings are not looked for (their ``warnings`` is
    empty; for a caller that shows none, like ``--quiet``): about half the time of a line."""
    validation = Validation(REQUEST.read(body, skip=("document",)), body, limits, warnings=warnings)
    if validation.target == "document":
        validation._tool(validation.tool)
    return validation


class Validation:
    """``POST /api/validate``: ``document``, ``schema`` (text), ``format_assert`` (false),
    ``review`` (default: on when a tool definition is given), ``tool`` (name, for a list of
    tools), ``draft`` (dialect when ``$schema`` is absent, default 2020-12).

    The schema text is parsed when this is made; the tool it holds is read, checked, compiled and
    reviewed on the first :meth:`run` that needs it (the document is parsed first, so a document
    that is not JSON is reported before a schema that is not a valid schema), and kept.

    Pointers about the schema (``schema_pointer`` of errors, ``review`` and ``schema_invalid``
    pointers) are relative to the *schema text as sent* (so a tool definition's are under
    ``/parameters``); ``schema_root`` is where the validated schema sits in it.
    """

    def __init__(self, v: dict, body: dict, limits, *, warnings: bool = True):
        self.limits = limits
        self.warnings = warnings
        self.format_assert, self.review = v["format_assert"], v["review"]
        tool = body.get("tool")
        if isinstance(tool, int) and not isinstance(tool, bool):
            tool = str(tool)
        if tool is not None and not isinstance(tool, str):
            raise bad_request("'tool' must be a tool name", field="tool", code="bad_type")
        self.tool = tool or None
        self.draft = normalize_draft(v["draft"] or "2020-12")
        self.target = v["target"] or "document"
        if self.target not in ("document", "arguments"):
            raise bad_request("'target' must be \"document\" or \"arguments\"", field="target",
                              code="bad_option")
        self.schema = parse(v["schema"], field="schema", max_depth=limits.max_depth)
        self._infos: dict = {}          # tool name (or None) -> what tools.choose read
        self._tools: dict = {}          # tool name (or None) -> its _Tool
        self._schema_places: dict = {}  # schema pointer -> (line, column) or None
        self._valid_answers: dict = {}  # tool name (or None) -> the quick path's answer

    def run(self, document: str) -> dict:
        """The answer for one document text."""
        if not self.warnings and self.target == "document":  # the quick path (see prepare)
            value = quick_value(document, self.limits.max_depth)
            if value is not NOT_QUICK:
                answer = self._valid_answer(value)
                if answer is not None:
                    return answer
        limits = self.limits
        # the first VALIDATE_MAX_WARNINGS placed and listed (placing is Python work per warning)
        parsed_doc = parse(document, field="document", max_depth=limits.max_depth, warnings=self.warnings,
                           warning_limit=MAX_WARNINGS)
        call = find_call(parsed_doc.value)
        # where the validated value sits: ``located`` is the parsed text its errors are placed in,
        # ``at`` the pointer of the value inside that text
        located, at, instance, arguments = parsed_doc, "", parsed_doc.value, None
        tool = self._called_tool(call)
        if self.target == "arguments":
            located, at, instance, arguments = _arguments(call, parsed_doc, limits)
        side = self._tool(tool)
        prefix = side.prefix
        with self._schema_faults(prefix):
            if side.valid is not None and side.valid(instance):  # the quick check: nothing to locate
                if call is None:   # (a document, not a call: the one answer of a valid document)
                    return dict(self._known_valid(tool, side), warnings=parsed_doc.warnings,
                                warning_count=parsed_doc.warning_count)
                out = side.valid_out
            else:
                out = evaluate(side.compiled, instance, limits)

        # place every error in the text it came from (the document, or the arguments string)
        wanted = set()
        for e in out["errors"]:
            p = at + e["pointer"]
            wanted.add(p.rsplit("/", 1)[0] if e["at"] == "parent" else p)
        # one walk of the text, along the returned errors' pointers only
        spans = located.spans(wanted) if wanted else {}
        offsets = {}
        for e in out["errors"]:
            where = e["at"]
            p = at + e["pointer"]
            span = spans.get(p.rsplit("/", 1)[0] if where == "parent" else p)
            if span is not None:
                offsets[id(e)] = span.key if where == "key" and span.key is not None else span.start
        wanted = sorted(set(offsets.values()))
        places = dict(zip(wanted, line_cols(located.text, wanted)))
        schema_places = self._places({prefix + e["schema_pointer"] for e in out["errors"]})
        for e in out["errors"]:
            offset = offsets.get(id(e))
            if offset is not None:
                e["line"], e["column"] = places[offset]
                e["offset"] = offset
            else:
                e["line"] = e["column"] = None
            e["schema_pointer"] = prefix + e["schema_pointer"]
            place = schema_places[e["schema_pointer"]]
            if place is not None:
                e["schema_line"], e["schema_column"] = place
        return self._answer(out, side, tool, call, arguments, parsed_doc.warnings, parsed_doc.warning_count)

    def _valid_answer(self, value) -> dict | None:
        """The answer for a document the compiled check finds valid (nothing to place), or None:
        the full path answers (an invalid document, no compiled form, anything raised)."""
        call = find_call(value)
        tool = self._called_tool(call) if call is not None else self.tool
        side = self._tools.get(tool) or self._tool(tool)
        valid = side.valid
        if valid is None:
            return None
        try:
            if not valid(value):
                return None
        except Exception:  # the full path reports it (too_deep, timeout...) in its own words
            return None
        if call is not None:
            return self._answer(side.valid_out, side, tool, call, None, [])
        return dict(self._known_valid(tool, side))  # a shallow copy: its lists are shared, read them only

    def _known_valid(self, tool, side: "_Tool") -> dict:
        """The answer for a valid document that is no call, without warnings: the same for
        every such document, made once (read it only: its lists are shared)."""
        known = self._valid_answers.get(tool)
        if known is None:
            known = self._valid_answers[tool] = self._answer(side.valid_out, side, tool, None, None, [])
        return known

    def _called_tool(self, call) -> str | None:
        """The tool asked for, else the one of a list the call names (for either target)."""
        if self.tool is None and call is not None and call.name:
            names = self._info(None).names
            if len(names) > 1 and call.name in names:
                return call.name
        return self.tool

    def _answer(self, out: dict, side: "_Tool", tool, call, arguments, warnings: list,
                warning_count: int | None = None) -> dict:
        info = side.info
        answer = {
            "valid": out["valid"], "errors": out["errors"], "count": out["count"],
            "truncated": out["truncated"], "draft": out["draft"], "format_assert": self.format_assert,
            "tool": info.name, "tools": info.names if len(info.names) > 1 else [],
            "tool_chosen_by": "request" if self.tool else "call" if tool else "first" if len(info.names) > 1 else None,
            "schema_root": side.prefix, "reviewed": side.reviewed,
            "review": [dict(w) for w in side.warnings],
            "warnings": warnings, "warning_count": len(warnings) if warning_count is None else warning_count,
            "schema_warnings": self.schema.warnings,
            "target": self.target,
        }
        if arguments is not None:
            answer["arguments"] = arguments
        elif call is not None:
            answer["hint"] = hint(call)
        return answer

    def _tool(self, name: str | None) -> "_Tool":
        """The tool ``name`` of the schema text (None: the one tool, or the bare schema): read,
        compiled and reviewed once."""
        side = self._tools.get(name)
        if side is None:
            side = self._tools[name] = self._read_tool(name)
        return side

    def _info(self, name: str | None):
        """What :func:`workbench.tools.choose` reads of tool ``name`` in the schema text (once)."""
        info = self._infos.get(name)
        if info is None:
            info = self._infos[name] = choose_tool(self.schema.value, name, text=self.schema.text)
        return info

    def _read_tool(self, name: str | None) -> "_Tool":
        from .review import review_schema
        limits = self.limits
        info = self._info(name)
        prefix = pointer_of(info.prefix)
        with self._schema_faults(prefix):
            compiled = compile_schema(info.schema, default_draft=self.draft,
                                      format_assert=self.format_assert, limits=limits)
        do_review = info.is_tool if self.review is None else self.review
        warnings_ = list(info.notes)
        if do_review:
            warnings_.extend(review_schema(info.schema, strict=info.strict, is_tool=info.is_tool,
                                           limit=limits.max_errors))
        for w in warnings_:
            w["pointer"] = prefix + w["pointer"] if w.get("pointer") is not None else prefix
        # the review's pointers placed in the schema text (in order of place; not found: first)
        places = self._places({w["pointer"] for w in warnings_})
        for w in warnings_:
            place = places[w["pointer"]]
            if place is not None:
                w["line"], w["column"] = place
        warnings_.sort(key=lambda w: places[w["pointer"]] or (0, 0))
        valid = validity_check(compiled, limits) if compiled.fast is not None else None
        return _Tool(info, prefix, compiled, bool(do_review), warnings_, valid)

    def _places(self, pointers: set) -> dict:
        """``(line, column)`` (None: not found) of each schema pointer in the schema text; a
        pointer is looked for once, and the new ones of a document with one walk."""
        known = self._schema_places
        new = [p for p in pointers if p not in known]
        if new:
            spans = locate_many(self.schema.text, new)
            for p in new:
                s = spans.get(p)
                known[p] = None if s is None else self.schema.lines.line_col(
                    s.key if s.key is not None else s.start)
        return known

    @contextmanager
    def _schema_faults(self, prefix: str):
        """A schema fault placed at its line in the schema text; anything else the validator
        raises is reported (never a 500 for what a user typed) and logged for us."""
        try:
            yield
        except WorkbenchError as exc:
            if exc.field == "schema" and "pointer" in exc.extra:
                _place_schema_error(exc, self.schema.text, prefix)
            raise
        except RecursionError:
            raise too_deep() from None
        except Exception as exc:
            log_fault("validation failed", exc)
            raise WorkbenchError("validation_failed", "The validator could not evaluate this schema "
                                 f"({type(exc).__name__}); please report it", field="schema") from None


@dataclass(frozen=True)
class _Tool:
    """One tool of the schema text, ready: what :func:`workbench.tools.choose` read, where its
    schema sits (``prefix``), its compiled validator and its (placed) review warnings."""
    info: object
    prefix: str
    compiled: object
    reviewed: bool
    warnings: list
    #: the compiled validity check (``value -> bool``, see :func:`.evaluate.validity_check`): a
    #: valid document is answered without the error functions; None without a compiled form
    valid: object = None

    @property
    def valid_out(self) -> dict:
        """What :func:`.evaluate.evaluate` answers for a valid document."""
        return {"valid": True, "errors": [], "count": 0, "truncated": False, "draft": self.compiled.draft}


def _arguments(call, parsed_doc, limits):
    """``(parsed text, pointer in it, value, description)`` of the arguments of the function
    call item ``parsed_doc`` is (``target: "arguments"``): a string is parsed as the JSON it
    holds (errors are then placed in that text, and its warnings given), an object is used as is
    (errors placed in the document)."""
    if call is None:
        raise bad_request("target \"arguments\" needs a function call item as the document (an Open "
                          "Responses function_call, an Agents API action or a Chat Completions tool "
                          "call); this document is not one", field="target", code="not_a_call")
    described = {"pointer": call.pointer, "name": call.name, "encoded": call.encoded}
    if not isinstance(call.arguments, str):
        described["located_in"] = "document"
        return parsed_doc, call.pointer, call.arguments, described
    try:
        inner = parse(call.arguments, field="document", max_depth=limits.max_depth)
    except WorkbenchError as exc:
        exc.message = f"The arguments string at {call.pointer} is not JSON: {exc.message}"
        exc.extra["arguments_pointer"] = call.pointer
        exc.extra["located_in"] = "arguments"
        raise
    described.update(located_in="arguments", text=call.arguments, warnings=inner.warnings)
    return inner, "", inner.value, described


def _place_schema_error(exc: WorkbenchError, text: str, prefix: str) -> None:
    """Give a schema fault the line/column (and snippet) of its pointer in the schema text."""
    pointer = prefix + (exc.extra.get("pointer") or "")
    exc.extra["pointer"] = pointer
    spans = locate_many(text, [pointer])
    span = spans.get(pointer)
    if span is None:
        return
    placed = error_at(text, span.start, exc.code, exc.message, field="schema")
    exc.line, exc.column, exc.offset = placed.line, placed.column, placed.offset
    exc.extra["snippet"] = placed.extra.get("snippet")
