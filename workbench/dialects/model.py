"""The neutral model every dialect reads into: a :class:`Call`, an :class:`Output`, an
:class:`Other` item (something that shows the transcript went on), each at its :class:`Place`.

The transcript's checks (pairing, ids, duplicates, state) run on these and nothing else, so
they are written once for every envelope; each dialect module turns its own envelope into them
(``read``) and back (``write``), and says which item the gate walks for a call (``walkable``).

A call's *id pair* is ``(id, call_id)`` (the stored item's id and the id an answer names; Chat
has one ``id`` for both) and, in the Agents API, ``(turn_id, call_id)``.  ``args`` is the
arguments exactly as the envelope holds them (a JSON text in Open Responses and Chat, an object
in the Agents API); ``status`` is the call's stop state: ``"completed"``, ``"incomplete"``,
``"in_progress"`` or ``None`` (not said).
"""

from __future__ import annotations

from typing import Any

from ..jsontext import dumps_value


class Place:
    """Where something is: a pointer into a piece, or a bare line/column (a bad line)."""

    __slots__ = ("piece", "pointer", "line", "column")

    def __init__(self, piece, pointer: str = "", line=None, column=None):
        self.piece, self.pointer, self.line, self.column = piece, pointer, line, column

    def child(self, suffix: str) -> "Place":
        """The place at ``suffix`` (``/call_id``…) below this one, in the same piece."""
        return Place(self.piece, self.pointer + suffix)


class Call:
    """One function call, in any dialect."""

    kind = "call"
    __slots__ = ("dialect", "name", "call_id", "turn_id", "id", "args", "status", "place",
                 "pos", "item", "answered", "continues", "hosted")

    def __init__(self, dialect: str, place: Place | None, pos: int, item: Any = None, *,
                 name=None, call_id=None, turn_id=None, id=None, args=None, status=None):
        self.dialect, self.place, self.pos, self.item = dialect, place, pos, item
        self.name, self.call_id, self.turn_id, self.id = name, call_id, turn_id, id
        self.args, self.status = args, status
        self.answered: list | tuple = ()   # the outputs answering it (a list from the first)
        self.continues = True
        self.hosted = False   # a call the provider runs (the host never answers it)

    def add_answer(self, output) -> None:
        """``output`` answers this call (no list is made for a call never answered)."""
        if self.answered:
            self.answered.append(output)
        else:
            self.answered = [output]


class Output:
    """One answer to a call (``function_call_output``, a Chat ``role: "tool"`` message, an
    Agents API ``tool_result``), naming the call by ``call_id`` (and ``turn_id``)."""

    kind = "output"
    __slots__ = ("dialect", "call_id", "turn_id", "place", "pos", "item", "continues")

    def __init__(self, dialect: str, place: Place | None, pos: int, item: Any = None, *,
                 call_id=None, turn_id=None):
        self.dialect, self.place, self.pos, self.item = dialect, place, pos, item
        self.call_id, self.turn_id = call_id, turn_id
        self.continues = True


class Other:
    """Any other item; ``continues``: it shows the transcript went on after the calls before
    it (a message does, a reasoning item or a system message does not)."""

    kind = "other"
    __slots__ = ("dialect", "place", "pos", "item", "continues")

    def __init__(self, dialect: str, place: Place | None, pos: int, item: Any = None, *,
                 continues: bool = True):
        self.dialect, self.place, self.pos, self.item = dialect, place, pos, item
        self.continues = continues


def text_or_none(v: Any) -> str | None:
    """``v`` when it is a string, else None (an id or a name of the wrong type names nothing)."""
    return v if isinstance(v, str) else None


def first_of(value: Any, member: str) -> dict:
    """The first element of ``value[member]`` when it is an object (a response's first choice
    or candidate), else ``{}``."""
    xs = value.get(member) if type(value) is dict else None
    return xs[0] if isinstance(xs, list) and xs and type(xs[0]) is dict else {}


def named(v: Any) -> str:
    """A name for a message: the name when it is a non-empty string, else what is missing (no
    message prints ``None`` or an empty name for a missing value)."""
    return v if isinstance(v, str) and v else "(no name)"


def key(v):
    """``v`` as a dict key: strings, numbers, booleans and null as they are; anything else
    (an object or array where an id or index belongs) as its JSON text."""
    if v is None or type(v) in (str, int, bool):
        return v
    try:
        return "json:" + dumps_value(v).decode("utf-8")
    except Exception:  # pragma: no cover - every parsed value is writable
        return repr(v)


def arguments_object(call: "Call"):
    """A call's arguments as a value for an envelope that carries them parsed (Anthropic's
    ``input``, Gemini's ``args``): the exact parse of the text, ``{}`` when it does not parse."""
    args = call.args
    if isinstance(args, str):
        from ..jsontext import parse
        try:
            return parse(args, field="arguments", warnings=False).value
        except Exception:
            return {}
    return args
