"""Redaction: every value of a JSON text, JSON Lines or SSE stream becomes a typed placeholder
(see :mod:`.placeholders`), equality-preserving across the whole document, so a redacted
transcript still pairs, gates and reports the same as the original — for bug reports that leak
nothing.

The text is rewritten token by token in place (read by :mod:`workbench.jsontext`, every
replaced string written by its exact writer, numbers kept as their text unless ``numbers``), so
every line stays where it was and the page shows the result as a line diff against the original.

Kept as they are: keys, structure, ``true``/``false``/``null``, and the *type words* — the
values that say what an item is rather than what it holds (:data:`KEEP_KEYS`: ``type``,
``role``, ``status``, event names, finish reasons…), the names of tools where a value is a
call's or a tool's name (:func:`_is_tool_name`: pairing and tool lookup depend on them, and a
tool's name is the interface, not the user's data), and a schema's ``required`` names,
``pattern`` and ``format`` (they refer to keys, which are kept).  A string holding JSON
(``arguments``) is redacted inside and stays JSON.  In a text that streams arguments in pieces
(:data:`STREAMED`) every call's arguments are shaped character by character instead (letters →
x, digits → 0, keys and escapes kept), so the redacted pieces still join up to exactly the
redacted whole; equal values stay equal there, but distinct ones of one shape may meet.
"""

from __future__ import annotations

import re
from collections import Counter

from ..errors import WorkbenchError, bad_request
from ..fields import Field, Fields
from ..jsontext import encode_string, parse
from ..jsontext import lines as jsonl
from ..jsontext.tokens import Scalars, scalars, string_value
from ..limits import DEFAULT_MAX_DEPTH
from ..runtime.deadline import Deadline
from ..runtime.memory import collector_paused
from .placeholders import ArgumentShaper, Registry, number_placeholder, shape, string_placeholder

REQUEST = Fields(
    Field("text", required=True, text=True),
    Field("numbers", bool, default=False, doc="replace numbers too (sign, digit counts and "
                                              "exponent kept)"),
    Field("keep", list, default=(), doc="more member names whose values are kept as they are",
          schema={"type": "array", "items": {"type": "string"}}),
)

#: member names whose string values are type words, kept as they are
KEEP_KEYS = frozenset({
    "type", "object", "status", "role", "event", "phase", "finish_reason", "finishReason",
    "stop_reason", "finish_reasons", "gen_ai.response.finish_reasons", "gen_ai.operation.name",
    "gen_ai.system", "gen_ai.provider.name", "tool_choice", "mode", "format", "pattern",
    "$schema", "$ref", "required", "strict",
    # settings whose values are words of a spec's enum (the spec check reads them)
    "truncation", "service_tier", "effort", "reasoning_effort", "verbosity", "summary",
    "prompt_cache_retention", "detail", "include", "modalities", "media_type", "mime_type",
    "mimeType", "encoding", "scope", "environment", "action", "approval_mode", "allowed_callers",
})
#: and so are the values of every member named ``…_type`` / ``…Type`` (``token_type``, ``finishType``)
KEEP_SUFFIXES = ("_type", "Type")
#: a ``name`` is a tool's name in an object under one of these member names …
TOOL_CONTAINERS = frozenset({"function", "tool", "tools", "functionCall", "function_call",
                             "functionResponse", "function_response", "functionDeclarations",
                             "function_declarations", "tool_calls", "custom", "allowed_tools"})
#: … or in an object holding one of these members
TOOL_SIBLINGS = frozenset({"arguments", "parameters", "call_id", "input_schema", "tool_call_id",
                           "args", "server_label", "tool_use_id"})
#: flattened span attributes (OpenTelemetry, OpenInference) whose value is a tool's name (not
#: ``code.function.name``: that is the instrumented code's own function, the user's data)
TOOL_NAME_KEYS = ("tool_call.function.name", ".tool.name")
#: a flattened attribute whose last dotted segment is one of these holds a type word too
#: (``llm.input_messages.2.message.role``, ``llm.finish_reason``)
FLAT_KEEP = frozenset({"type", "object", "status", "role", "event", "finish_reason",
                       "finish_reasons", "stop_reason"})
#: an id the instrumentation made up for a call the provider gave none: ``<tool name>_<n>``
#: (``get_current_weather_0``; the transcript reports it as ``invented_call_id``)
INVENTED_ID = re.compile(r"(.+)_(\d+)")
#: the members that hold a call's arguments: the caller's data, where no value is a type word or
#: a tool's name (an argument named ``summary`` or ``status`` holds the user's text) …
DATA_KEYS = frozenset({"arguments", "args"})
#: … and so does an ``input`` object beside a call's ``name`` (Anthropic ``tool_use``, Bedrock)
DATA_INPUT = "input"
#: a type word is one word: a value with white space in it (or this long) is text, redacted
_NOT_A_WORD = re.compile(r"\s|\\[nrtu]")
_WORD_MAX = 200
#: SSE field lines whose value is kept (``event:`` names the event type; ``retry:`` a number)
SSE_KEEP = ("event:", "retry:")
_KINDS = ("text", "id", "email", "url", "uuid", "date", "arguments", "json", "number")
#: member names of tool-call arguments, whole or streamed in pieces (see :func:`_argument_plan`)
ARGUMENT_KEYS = frozenset({"arguments", "delta", "partial_json"})
#: a text that streams arguments in pieces (then every call's arguments are shaped character by
#: character, so the pieces join up to the whole; otherwise arguments are redacted as JSON)
STREAMED = re.compile(r"function_call_arguments\.delta|chat\.completion\.chunk|partial_json|"
                      r"input_json_delta")
#: the members that say which streamed call a piece belongs to
_STREAM_IDS = ("index", "item_id", "output_index", "content_index")


class Redactor:
    """The redaction of one document: one :class:`Registry` for all its values and lines."""

    def __init__(self, numbers: bool = False, max_depth: int = DEFAULT_MAX_DEPTH,
                 deadline: Deadline | None = None, keep=(), tools=()):
        self.numbers = numbers
        self.keep = frozenset(keep)
        self.max_depth = max_depth
        self.check = deadline.check if deadline is not None else None
        self.registry = Registry()
        self.counts: Counter = Counter()
        self.streams: dict[tuple, ArgumentShaper] = {}   # the state of each streamed call
        self.streamed = False   # arguments come in pieces somewhere in the document
        self.tools: set[str] = set(tools)   # the tool names kept so far (and known before)
        self.late: set[str] = set()   # `<name>_<n>` ids met before any tool of that name
        self.data = 0   # > 0 while redacting JSON inside a call's arguments (nothing kept there)

    # ------------------------------------------------------------------ one JSON text
    def json_text(self, text: str, field: str = "text") -> str:
        """The redaction of the JSON text ``text`` (raises its parse error when it is not JSON)."""
        value = parse(text, field=field, max_depth=self.max_depth, numbers="text",
                      warnings=False).value
        toks = scalars(text, self.check)
        plan = None
        if any(t.key in ARGUMENT_KEYS and t.kind == "string" for t in toks.values):
            plan = _argument_plan(value)
            if len(plan) != sum(t.key in ARGUMENT_KEYS and t.kind == "string" for t in toks.values):
                plan = None   # a repeated key: the parse kept one of two (no streams there)
        planned = iter(plan or ())
        data = _data_containers(toks)
        parts: list[str] = []
        at = 0
        for tok in toks.values:
            if tok.kind == "number":
                if not self.numbers:
                    continue
                raw = text[tok.start:tok.end]
                out = number_placeholder(raw, self.registry)
                self.counts["number"] += 1
            else:
                in_data = self.data > 0 or (tok.container >= 0 and data[tok.container])
                if tok.key in self.keep or not in_data and _kept(tok, toks, text):
                    if _names_a_tool(tok) and len(self.tools) < _MAX_TOOLS:
                        self.tools.add(string_value(text, tok))
                    continue
                value = string_value(text, tok)
                step = (next(planned, None) if plan is not None else ("whole", ())) \
                    if tok.key in ARGUMENT_KEYS else None
                if step is not None and (step[0] == "piece" or tok.key == "arguments" and self.streamed):
                    new = self.arguments(value, step)
                elif tok.key in DATA_KEYS or tok.key == DATA_INPUT:
                    self.data += 1   # arguments as a JSON string: the caller's data inside
                    try:
                        new = self.string(value)
                    finally:
                        self.data -= 1
                else:
                    new = self.string(value)
                if new == value:
                    continue
                out = encode_string(new)
            parts.append(text[at:tok.start])
            parts.append(out)
            at = tok.end
        parts.append(text[at:])
        return "".join(parts)

    def string(self, s: str) -> str:
        """The placeholder of one string value (JSON inside it redacted inside)."""
        if not s:
            return s
        t = s.strip()
        if t[:1] in "{[" and t[-1:] in "}]":
            try:
                inner = self.json_text(s)
            except WorkbenchError:
                pass   # not JSON after all: a string like any other
            else:
                self.counts["json"] += 1
                return inner
        m = INVENTED_ID.fullmatch(s)
        if m is not None:
            if m[1] in self.tools:
                # an invented id keeps its tool's name; its number counts the tool's distinct ids
                digits = len(m[2])
                self.counts["id"] += 1
                return self.registry.of("invented", s, f"{m[1]}_{'0' * digits}", own=True,
                                        positions=list(range(len(m[1]) + 1, len(m[1]) + 1 + digits)),
                                        widen=lambda base, n, tool=m[1]: f"{tool}_{n}")
            if len(self.late) < _MAX_TOOLS:
                self.late.add(m[1])
        kind, out = string_placeholder(s, self.registry)
        self.counts[kind] += 1
        return out

    def arguments(self, s: str, step: tuple) -> str:
        """Tool-call arguments in a text that streams them: shaped character by character
        (:class:`ArgumentShaper`), a streamed piece continuing its call's state, so the pieces
        join up to the redacted whole (which is shaped the same way)."""
        mode, key = step
        if mode == "piece":
            shaper = self.streams.get(key)
            if shaper is None:
                shaper = self.streams[key] = ArgumentShaper(self.numbers)
        else:
            shaper = ArgumentShaper(self.numbers)
        out = shaper.feed(s)
        if out != s:
            self.counts["arguments"] += 1
        return out

    def fragment(self, s: str) -> str:
        """A piece of text that is not a JSON value (a line cut short, a comment): its shape,
        each distinct one distinct."""
        if not s.strip():
            return s
        self.counts["text"] += 1
        return self.registry.of("text", s, shape(s))

    # ------------------------------------------------------------------ documents
    def document(self, text: str, field: str = "text") -> tuple[str, str]:
        """``(form, redacted text)``: form ``json``, ``jsonl`` or ``sse``.  A byte order mark
        is kept (the transcript reader skips it too)."""
        if text.startswith("\ufeff"):
            form, out = self.document(text[1:], field)
            return form, "\ufeff" + out
        self.streamed = STREAMED.search(text) is not None
        try:
            return "json", self.json_text(text, field)
        except WorkbenchError as exc:
            if exc.code != "parse_error":
                raise
            form = _lines_form(text, self.max_depth)
            if form is None:
                raise
            return form, self.lines(text, self.sse_line if form == "sse" else self.json_line)

    def lines(self, text: str, one) -> str:
        out = []
        for line in text.split("\n"):
            cr = line.endswith("\r")
            body = line[:-1] if cr else line
            out.append(one(body) + ("\r" if cr else ""))
        return "\n".join(out)

    def json_line(self, line: str) -> str:
        """One line of JSON Lines: its value redacted, or (a line that is not one) its shape."""
        start = len(line) - len(line.lstrip())
        end = len(line.rstrip())
        if start == end:
            return line
        try:
            return line[:start] + self.json_text(line[start:end]) + line[end:]
        except WorkbenchError as exc:
            if exc.code != "parse_error":
                raise
            return line[:start] + self.fragment(line[start:end]) + line[end:]

    def sse_line(self, line: str) -> str:
        """One line of an SSE stream: a ``data:`` line's JSON redacted (``[DONE]`` kept), event
        names kept, an ``id:`` redacted as an id, anything else by its shape."""
        if not line.strip() or line.startswith(SSE_KEEP):
            return line
        for name in ("data:", "id:", ":"):
            if line.startswith(name):
                head, value = name, line[len(name):]
                break
        else:
            return self.json_line(line)
        lead = value[:len(value) - len(value.lstrip(" "))]
        value = value[len(lead):]
        if head == "data:":
            if value.strip() == "[DONE]":
                return line
            return head + lead + self.json_line(value)
        if head == "id:":
            return head + lead + self.string(value)
        return head + lead + self.fragment(value)


def _lines_form(text: str, max_depth: int) -> str | None:
    """How a text that is not one JSON value is read line by line: ``sse`` when a line is an
    SSE ``data:`` or ``event:`` field (a recording may start with a line of its own), ``jsonl``
    when one of its first lines is a JSON value (the first or last may be cut short), else None
    (not JSON: its parse error stands)."""
    rows = jsonl.value_lines(text)
    first = [next(rows, None) for _ in range(10)]
    first = [r for r in first if r is not None]
    if len(first) < 2:
        return None
    if jsonl.looks_like_sse(text) is not None or any(
            text.startswith(("data:", "event:"), r[1]) for r in first):
        return "sse"
    for _, start, end, _ in first:
        try:
            parse(text[start:end], max_depth=max_depth, warnings=False)
        except WorkbenchError:
            continue
        return "jsonl"
    return None


def _argument_plan(value) -> list[tuple]:
    """For each string under an :data:`ARGUMENT_KEYS` member, in text order (the order of the
    tokenizer): ``("whole", ())`` for a call's arguments, ``("piece", stream)`` for a streamed
    piece of them (Chat ``delta.tool_calls[].function.arguments``, a Responses
    ``…function_call_arguments.delta``, Anthropic's ``partial_json``; ``stream`` is the ids of
    the objects around it: the choice and call index, the item id, output index), ``None`` for
    any other ``delta`` (text)."""
    plan: list = []
    stack = [(value, None, (), False, None)]
    while stack:
        v, key, ids, under_delta, owner = stack.pop()
        if type(v) is dict:
            here = ids + tuple((k, str(v[k])) for k in _STREAM_IDS
                               if k in v and not isinstance(v[k], (dict, list)))
            for k, child in reversed(list(v.items())):
                stack.append((child, k, here, under_delta or k == "delta", v))
        elif type(v) is list:
            for child in reversed(v):
                stack.append((child, key, ids, under_delta, owner))
        elif isinstance(v, str) and key in ARGUMENT_KEYS \
                and not _is_number(v):
            if key == "arguments":
                plan.append(("piece", ids) if under_delta else ("whole", ()))
            elif key == "partial_json":
                plan.append(("piece", ids))
            else:
                kind = owner.get("type") if type(owner) is dict else None
                plan.append(("piece", ids) if isinstance(kind, str) and "arguments" in kind else None)
    return plan


def _is_number(v) -> bool:
    from ..jsontext import NumberText
    return isinstance(v, NumberText)


def type_word_key(key: str | None) -> bool:
    """Does the member ``key`` hold a type word (kept): :data:`KEEP_KEYS`, a ``…_type``, or a
    flattened attribute ending in one of :data:`FLAT_KEEP`?"""
    if key is None:
        return False
    return key in KEEP_KEYS or key.endswith(KEEP_SUFFIXES) or (
        "." in key and key.rsplit(".", 1)[1] in FLAT_KEEP)


def _kept(tok, toks: Scalars, text: str) -> bool:
    """Is this string value a type word, a tool's name or a schema's key name (kept)?  A type
    word is one word (a schema's ``pattern`` may hold spaces)."""
    key = tok.key
    if type_word_key(key):
        return key == "pattern" or (tok.end - tok.start <= _WORD_MAX
                                    and _NOT_A_WORD.search(text, tok.start + 1, tok.end - 1) is None)
    if key is not None and key.endswith(TOOL_NAME_KEYS):
        return True
    return key == "name" and not tok.in_array and _is_tool_name(toks.containers[tok.container])


def _data_containers(toks: Scalars) -> list[bool]:
    """For each container: is it (inside) a call's arguments (:data:`DATA_KEYS`, a flattened
    ``….arguments``, an ``input`` object beside a ``name``)?  Parents come before children."""
    flags: list[bool] = []
    containers = toks.containers
    for c in containers:
        key = c.key
        here = key is not None and (key in DATA_KEYS or key.endswith(".arguments") or (
            key == DATA_INPUT and c.kind == "{" and c.parent >= 0
            and "name" in containers[c.parent].keys))
        flags.append(here or (c.parent >= 0 and flags[c.parent]))
    return flags


def _names_a_tool(tok) -> bool:
    """Is this kept string value a tool's name (not a type word)?"""
    return tok.key == "name" or tok.key.endswith(TOOL_NAME_KEYS)


#: at most this many tool names are remembered for invented ids (a hostile text may hold more)
_MAX_TOOLS = 10_000


def _is_tool_name(obj) -> bool:
    return obj.key in TOOL_CONTAINERS or not obj.keys.isdisjoint(TOOL_SIBLINGS) or (
        "type" in obj.keys and obj.key in ("output", "input", "content", "items", "content_block"))


def redact(text: str, numbers: bool = False, *, max_depth: int = DEFAULT_MAX_DEPTH,
           deadline: Deadline | None = None, field: str = "text", keep=()) -> dict:
    """The redacted ``text``: ``{text, replaced, counts, form}`` (form ``json``, ``jsonl`` or
    ``sse``; ``replaced`` counts the values replaced, those inside JSON strings included)."""
    if not isinstance(text, str):
        raise WorkbenchError("bad_type", f"'{field}' must be a string holding JSON text",
                             status=400, field=field)
    r = Redactor(numbers, max_depth, deadline, keep)
    with collector_paused():   # millions of token records, none cyclic: no collector passes
        form, out = r.document(text, field)
        if not r.late.isdisjoint(r.tools):
            # an invented id came before its tool's name: once more, the names known from the start
            r = Redactor(numbers, max_depth, deadline, keep, tools=r.tools)
            form, out = r.document(text, field)
    counts = {k: r.counts[k] for k in _KINDS if r.counts[k]}
    return {"text": out, "replaced": sum(n for k, n in counts.items() if k != "json"),
            "counts": counts, "form": form}


def handle(body: dict, limits) -> dict:
    """``POST /api/redact``: **``text``**, ``numbers`` (default false) → ``text``, ``replaced``."""
    v = REQUEST.read(body)
    if not all(isinstance(k, str) for k in v["keep"]):
        raise bad_request("'keep' must be a list of member names (strings)", field="keep",
                          code="bad_type")
    deadline = Deadline(limits.work_timeout, "Redaction", "text")
    with deadline:
        return redact(v["text"], v["numbers"], max_depth=limits.max_depth, deadline=deadline,
                      keep=v["keep"])
