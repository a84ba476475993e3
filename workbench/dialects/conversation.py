"""The neutral *conversation*: what every dialect reads a whole conversation into and writes back
from (conversion between dialects, ``providers-rules.md`` "Replaying to another provider").

A :class:`Conversation` is its :class:`Turn` s (``role``: ``system``, ``user`` or ``assistant``;
the answers to calls sit in ``user`` turns, as Anthropic and Gemini put them) of :class:`Part` s:

* ``text``   — ``text``;
* ``image``  — ``url`` (an ``https:`` address or a ``data:<mime>;base64,…`` URL);
* ``call``   — ``call_id``, ``name``, ``args`` (an object, each number an ``orjson.Fragment``
  of its text: written back byte for byte);
* ``output`` — ``call_id``, ``name`` (of the call it answers, when known), ``content`` (a list of
  ``text`` / ``image`` parts, or one ``json`` value: a Gemini ``response`` object),
  ``is_error``;

and its ``tools`` (:class:`Tool`: name, description, parameters).  Everything a reader does not
carry over (reasoning, thinking blocks, thought signatures, provider-run calls, provider fields,
unsupported parts) it says to its :class:`Reading` (``lost``), with its pointer in the source;
a writer says what it cannot write the same way.  Each part keeps the ``pointer`` it was read
at, so what a writer loses is placed in the source too.

Each dialect room provides ``read_conversation(value, reading) -> Conversation`` and
``write_conversation(conv, reading) -> value`` (:mod:`workbench.convert` drives them).  The
reader is the room's one reader of message content: the Diff's neutral form of an answer
(:mod:`.neutral`) is its turn reduced to text and calls, with a :class:`Reading` of its own.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from ..jsontext import dumps_tree, dumps_value, parse, plain_dumps
from ..jsontext.write import _to_text_numbers


class _Duplicate(Exception):
    pass


def _pairs(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Duplicate
    return d


def _constant(name):
    raise ValueError(name)


# the quick reading of an arguments text: numbers as fragments of their text, a repeated key
# stops it (then parse() reads the text again, to say where)
_QUICK = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=orjson.Fragment,
                          parse_float=orjson.Fragment, parse_constant=_constant)


class Refused(Exception):
    """The conversion cannot be made exactly (a duplicate key, arguments that are not JSON): the
    core answers 422 at ``pointer`` of the source."""

    def __init__(self, code: str, message: str, pointer: str, **extra):
        super().__init__(message)
        self.code, self.message, self.pointer, self.extra = code, message, pointer, extra


class Part:
    __slots__ = ("kind", "pointer", "text", "url", "call_id", "name", "args", "content",
                 "is_error", "assigned")

    def __init__(self, kind: str, pointer: str, **kw):
        self.kind, self.pointer = kind, pointer
        self.text = self.url = self.call_id = self.name = self.args = self.content = None
        self.is_error = False
        self.assigned = False   # the call_id was assigned by order (Gemini without ids)
        for k, v in kw.items():
            setattr(self, k, v)


class Turn:
    __slots__ = ("role", "parts", "pointer")

    def __init__(self, role: str, pointer: str, parts: list | None = None):
        self.role, self.pointer, self.parts = role, pointer, parts if parts is not None else []


class Tool:
    __slots__ = ("name", "description", "parameters", "pointer")

    def __init__(self, name, description, parameters, pointer: str):
        self.name, self.description, self.parameters, self.pointer = \
            name, description, parameters, pointer


class Conversation:
    def __init__(self, shape: str = "request"):
        self.turns: list[Turn] = []
        self.tools: list[Tool] = []
        self.shape = shape   # "request" or "response": what the source was

    def add(self, role: str, part: Part | None, pointer: str = "") -> None:
        """Append ``part`` to the last turn when it has ``role``, else to a new turn."""
        if not self.turns or self.turns[-1].role != role:
            self.turns.append(Turn(role, pointer))
        if part is not None:
            self.turns[-1].parts.append(part)

    def calls(self):
        return [p for t in self.turns for p in t.parts if p.kind == "call"]


class Reading:
    """What one conversion collects while it reads and writes: ``lost`` (the not portable
    entries, pointer in the source), ``notes`` (what was done that the reader should know:
    ids assigned, system text moved), and, for the writer, the ``part`` being written."""

    def __init__(self, dialect: str, max_depth: int = 512, rebuilt: bool = False,
                 deadline=None, keep: int = 1000):
        self.dialect, self.max_depth, self.rebuilt, self.keep = dialect, max_depth, rebuilt, keep
        self.lost: list[dict] = []     # the first ``keep`` of each list; the counts have all
        self.notes: list[dict] = []
        self.lost_by_what: dict[str, int] = {}
        self.notes_count = 0
        self.tick = deadline.check if deadline is not None else _nothing

    def drop(self, pointer: str, what: str, message: str) -> None:
        self.lost_by_what[what] = self.lost_by_what.get(what, 0) + 1
        if len(self.lost) < self.keep:
            self.lost.append({"pointer": pointer, "what": what, "message": message})

    def note(self, pointer: str, what: str, message: str, **extra) -> None:
        self.notes_count += 1
        if len(self.notes) < self.keep:
            self.notes.append({"pointer": pointer, "what": what, "message": message, **extra})

    def clear(self) -> None:
        """Forget what was lost (the text is answered as it is)."""
        self.lost.clear()
        self.lost_by_what.clear()

    def fields(self, obj: dict, pointer: str, carried, what_of: str) -> None:
        """Every member of ``obj`` not in ``carried`` that says something (not null, not an
        empty string, list or object) is a provider field that does not travel."""
        self.tick()
        for k, v in obj.items():
            if k in carried or v is None or (type(v) in (str, list, dict) and not v):
                continue
            self.drop(f"{pointer}/{escape(k)}", "field",
                      f"{what_of} field {k!r} has no counterpart in the target: it is left out.")

    def arguments(self, text: Any, pointer: str) -> Any:
        """A call's arguments text as an object, exactly (numbers keep their text); an empty
        text is ``{}``; duplicate keys, text that is not JSON, or JSON that is not an object
        refuse the conversion at ``pointer``."""
        self.tick()
        if type(text) is not str:
            if type(text) is dict:
                return text
            raise Refused("arguments_type", "The call's arguments are neither a JSON text nor an "
                          "object: the call cannot be written as an object in the target.",
                          pointer)
        if not text.strip():
            return {}
        if len(text) < self.max_depth or text.count("[") + text.count("{") <= self.max_depth:
            try:
                value = _QUICK.decode(text)
            except (_Duplicate, ValueError, RecursionError):
                pass   # read again below, to say what and where
            else:
                if type(value) is dict and "\\u" not in text:   # (a lone surrogate: below)
                    return value
        from ..errors import WorkbenchError
        try:
            parsed = parse(text, field="arguments", numbers="fragment", max_depth=self.max_depth)
        except WorkbenchError as exc:
            raise Refused("arguments_parse", f"The call's arguments are not JSON ({exc.message}, "
                          f"at line {exc.line}, column {exc.column} of the arguments text): they "
                          "cannot become an object in the target. Fix or drop the call first.",
                          pointer) from None
        dup = next((w for w in parsed.warnings if w["code"] == "duplicate_key"), None)
        if dup is not None:
            where = f" inside {dup['pointer']}" if dup["pointer"] else ""
            raise Refused("duplicate_key", f"The call's arguments hold the key {dup.get('key')!r} "
                          f"twice{where} (line {dup.get('line')}, column {dup.get('column')} of "
                          "the arguments text): readers disagree on which value counts, so the "
                          "arguments cannot be converted exactly. Remove one of them.",
                          pointer, arguments_pointer=dup["pointer"])
        if type(parsed.value) is not dict:
            raise Refused("arguments_type", "The call's arguments are JSON but not an object: the "
                          "target carries arguments as an object.", pointer)
        return parsed.value


def escape(token: str) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def is_text(v: Any) -> bool:
    """A string of the document (not a number kept as its text)."""
    return type(v) is str


def _nothing() -> None:
    return None


def json_text(v: Any) -> str:
    """Compact exact JSON text of a value (numbers as written)."""
    return dumps_value(v).decode("utf-8")


def write_text(v: Any) -> str:
    """The converted value as JSON text, two spaces a level, numbers as written (orjson; the
    plain writer for what it refuses: lone surrogates, more than 254 levels, big integers)."""
    try:
        return dumps_tree(v, indent=2)
    except TypeError:
        return plain_dumps(_to_text_numbers(v), indent=2)


def output_json(content: list) -> Any:
    """The JSON object an output's content is, when it is one text holding a JSON object (the
    form Gemini's ``response`` needs), else None."""
    if len(content) == 1 and content[0][0] == "text":
        t = content[0][1]
        if t[:1] == "{" or t.lstrip()[:1] == "{":
            try:
                v = parse(t, field="output", numbers="fragment", warnings=False).value
            except Exception:
                return None
            return v if type(v) is dict else None
    if len(content) == 1 and content[0][0] == "json" and type(content[0][1]) is dict:
        return content[0][1]
    return None


def output_text(content: list) -> str:
    """An output's content as one text (a JSON value as its exact text; texts joined)."""
    return "".join(c[1] if c[0] == "text" else json_text(c[1]) if c[0] == "json" else ""
                   for c in content)


def system_texts(turn, reading, *, moved: bool, field: str) -> list[str]:
    """The texts of a system turn for a provider that takes system text in one request field
    (``field``), not as a message: noted ``system_moved`` when the turn stood after the
    conversation had begun (``moved``)."""
    if moved:
        reading.note(turn.pointer, "system_moved", f"{field} only: this system message was moved "
                     "there from the middle of the conversation.")
    return [p.text for p in turn.parts if p.kind == "text"]


def data_url(mime: Any, data: Any) -> str | None:
    if not (is_text(data) and data):
        return None
    return f"data:{mime if is_text(mime) and mime else 'application/octet-stream'};base64,{data}"


def split_data_url(url: str) -> tuple[str, str] | None:
    """``(mime, base64 data)`` of a ``data:…;base64,`` URL, else None."""
    if not url.startswith("data:") or ";base64," not in url:
        return None
    head, _, data = url.partition(",")
    return head[5:].split(";")[0] or "application/octet-stream", data


def canonical(conv: Conversation) -> dict:
    """The conversation in a form two readings can be compared in: the system texts, then the
    turns with consecutive turns of one role merged; a call as ``[call, id, name, args text]``,
    an output as ``[output, id, content, is_error]`` (content: a JSON object when it is one, else
    its text), a text, an image by its URL."""
    system: list = []
    turns: list = []
    for t in conv.turns:
        if t.role == "system":
            system += [p.text for p in t.parts if p.kind == "text"]
            continue
        parts = []
        for p in t.parts:
            if p.kind == "text":
                if p.text:
                    parts.append(["text", p.text])
            elif p.kind == "image":
                parts.append(["image", p.url])
            elif p.kind == "call":
                parts.append(["call", p.call_id, p.name, json_text(p.args)])
            elif p.kind == "output":
                obj = output_json(p.content)
                parts.append(["output", p.call_id,
                              json_text(obj) if obj is not None else
                              [c[0] if c[0] != "text" else c[1] for c in p.content]
                              if any(c[0] == "image" for c in p.content) else
                              output_text(p.content), bool(p.is_error)])
        if not parts:
            continue
        if turns and turns[-1][0] == t.role:
            turns[-1][1].extend(parts)
        else:
            turns.append([t.role, parts])
    # adjacent texts of one turn are one text in some envelopes (a Chat content string)
    for _role, parts in turns:
        merged: list = []
        for p in parts:
            if p[0] == "text" and merged and merged[-1][0] == "text":
                merged[-1] = ["text", merged[-1][1] + p[1]]
            else:
                merged.append(p)
        parts[:] = [p for p in merged if p != ["text", ""]]
    turns = [t for t in turns if t[1]]
    # a function without parameters takes an object (Anthropic's input_schema is required)
    tools = [[t.name, t.description, json_text(t.parameters if t.parameters is not None
                                               else {"type": "object"})] for t in conv.tools]
    return {"system": "".join(system), "turns": turns, "tools": tools}
