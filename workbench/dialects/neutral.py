"""The neutral form of one model answer, in any dialect (``providers-rules.md``, "Comparing two
providers' answers"): what the answer *says*, without its envelope.

::

    {"state": "completed" | "incomplete" | …,
     "parts": [{"type": "text", "text": "Let me look that up."},
               {"type": "call", "name": "get_weather", "arguments": {"city": "Paris"}}]}

* ``parts`` in the answer's order: the model's text (consecutive text pieces of one answer
  joined, as a client shows them) and its function calls as name + **parsed** arguments (a
  JSON text is parsed exactly; text that does not parse stays a string).
* ``state``: the dialect's stop state (``stop_reason`` / ``finishReason`` / ``finish_reason``
  / ``status`` read by the dialect: a call cut off by the token budget is ``incomplete``).
* What each provider mints for itself (ids, call ids, timestamps, usage, the model's name)
  has no place in it; what is bound to one provider (reasoning, thinking blocks, thought
  parts, calls the provider runs) or is not text or a call is listed in :attr:`Neutral.left_out`
  with its place, never dropped silently.

Each answer is read by its dialect room's one reader, the conversation reader
(``read_conversation``, :mod:`.conversation`; the stop state by ``answer_state``): this module
knows no envelope, it reduces the answer's turn to text and calls and says in its own words what
the reader left out.  :meth:`Neutral.source` maps a pointer into the neutral form back to the
place in the answer it came from (the Diff page's "each side's own text a click away").
"""

from __future__ import annotations

from typing import Any, Callable

from . import anthropic, chat, classify, gemini, open_responses
from .conversation import Reading

_REASONING = "reasoning bound to its provider"

# the answer kinds and the room that reads each (an answer, not a request or a stream)
ANSWERS = {"response": open_responses, "chat_completion": chat,
           "anthropic_messages": anthropic, "gemini_contents": gemini}
WORDS = {open_responses.NAME: "OpenAI Responses", chat.NAME: "Chat Completions",
         anthropic.NAME: "Anthropic", gemini.NAME: "Gemini"}


def _is_answer(kind: str, value: Any) -> bool:
    room = ANSWERS.get(kind)
    if room is None:
        return False
    if room in (anthropic, gemini, open_responses):
        return room.is_response(value)
    return True


def dialect_of_answer(value: Any) -> str | None:
    """The dialect of one answer (:data:`ANSWERS`), or None for anything else."""
    kind = classify(value)
    return ANSWERS[kind].NAME if _is_answer(kind, value) else None


def _exact(text: str) -> Any:
    from ..jsontext import parse
    return parse(text, field="arguments", warnings=False).value


class Neutral:
    """One answer in the neutral form: ``dialect``, ``kind``, ``value`` (the neutral form),
    ``left_out`` (``{pointer, what}`` of what it does not carry) and, per part, where it came
    from."""

    __slots__ = ("dialect", "kind", "value", "left_out", "_from")

    def __init__(self, dialect: str, kind: str):
        self.dialect, self.kind = dialect, kind
        self.value: dict = {"state": None, "parts": []}
        self.left_out: list[dict] = []
        self._from: list[tuple] = []    # per part: (pointers, arguments pointer, args as text)

    @property
    def parts(self) -> list:
        return self.value["parts"]

    @property
    def word(self) -> str:
        """The dialect in words ("Anthropic")."""
        return WORDS.get(self.dialect, self.dialect)

    def source(self, pointer: str) -> tuple[str, str | None] | None:
        """Where a pointer into the neutral form came from: ``(pointer in the answer, pointer
        inside the JSON text there or None)``; None for the state and the parts list itself."""
        bits = pointer.split("/")
        if len(bits) < 3 or bits[1] != "parts" or not bits[2].isdigit():
            return None
        i = int(bits[2])
        if i >= len(self._from):
            return None
        pointers, args_at, as_text = self._from[i]
        if len(bits) >= 4 and bits[3] == "arguments" and args_at is not None:
            rest = "/".join([""] + bits[4:]) if len(bits) > 4 else ""
            return (args_at, rest) if as_text else (args_at + rest, None)
        return pointers[0], None


class _Reading(Reading):
    """The conversation reading as the Diff needs it: what is left out kept in full (its
    ``what`` in the neutral form's words), the envelope's fields not listed (they are no part
    of what the answer says), and an arguments text parsed by ``parse`` or kept as the text it
    is (never refused); each call's arguments pointer, in reading order."""

    def __init__(self, dialect: str, parse_args: Callable[[str], Any]):
        super().__init__(dialect)
        self.parse_args = parse_args
        self.dropped: list[tuple[str, str]] = []
        self.args_at: list[tuple[str, bool]] = []   # per call: (pointer, parsed from a text)

    def drop(self, pointer: str, what: str, message: str) -> None:
        self.dropped.append((pointer, what))

    def fields(self, obj, pointer, carried, what_of) -> None:
        return None

    def arguments(self, text: Any, pointer: str) -> Any:
        if isinstance(text, str):
            try:
                value = self.parse_args(text)
            except Exception:   # not JSON: compared as the text it is
                self.args_at.append((pointer, False))
                return text
            self.args_at.append((pointer, True))
            return value
        self.args_at.append((pointer, False))
        return text


# what the conversation reading leaves out, in the neutral form's words; None: the envelope's
# (tools, stored history, provider fields), no part of what the answer says
_LEFT_OUT = {"reasoning": _REASONING, "thinking": _REASONING, "thought_signature": _REASONING,
             "provider_call": "a call bound to its provider, or its result",
             "part": "neither text nor a function call", "item": "neither text nor a function call",
             "choice": "another choice (only the first is compared)",
             "field": None, "tool": None, "stored_history": None}


def _order(pointer: str) -> str:
    """A key that sorts pointers in document order: a parent before its members, array indexes
    as numbers (by length, then digits) before member names."""
    return "\0".join("\1" + chr(48 + len(t)) + t if t.isdigit() else "\2" + t
                      for t in pointer.split("/"))


def _text_at(value: Any, pointer: str) -> str:
    """Where a text part's text is: at its pointer when that is the string itself (a
    ``content`` string), else its ``text`` member."""
    node = value
    for t in pointer.split("/")[1:]:
        t = t.replace("~1", "/").replace("~0", "~")
        if type(node) is dict:
            node = node.get(t)
        elif type(node) is list and t.isdigit() and int(t) < len(node):
            node = node[int(t)]
        else:
            return pointer + "/text"
    return pointer if isinstance(node, str) else pointer + "/text"


def reduce(value: Any, *, parse_arguments: Callable[[str], Any] | None = None) -> Neutral | None:
    """The neutral form of one answer, or None when ``value`` is not an answer of a known
    dialect: the assistant turn of the dialect's own conversation reading
    (``read_conversation``), its texts joined and its calls with parsed arguments.
    ``parse_arguments(text)``: how a JSON-text ``arguments`` is parsed (default: the exact
    parse); it may raise, and the text then stays a string."""
    kind = classify(value)
    if not _is_answer(kind, value):
        return None
    room = ANSWERS[kind]
    out = Neutral(room.NAME, kind)
    reading = _Reading(room.NAME, parse_arguments or _exact)
    conv = room.read_conversation(value, reading)
    out.value["state"] = room.answer_state(value)
    args_at = iter(reading.args_at)
    # the parts and what was left out, in the answer's order
    events: list = []
    for turn in conv.turns:
        for part in turn.parts:
            if part.kind == "call":
                got = next(args_at, (None, False))    # each call reads its arguments once
                if got[0] is None or not got[0].startswith(part.pointer + "/"):
                    got = (None, False)
                events.append((part.pointer, part, got))
            elif turn.role == "system":
                continue    # (an envelope's instructions: not the answer's words)
            else:
                events.append((part.pointer, part, None))
    listed = False
    for pointer, what in reading.dropped:
        words = _LEFT_OUT.get(what, "neither text nor a function call")
        if words is not None:
            events.append((pointer, words, None))
            listed = True
    if listed:      # (the parts are in order; what was left out goes between them)
        events.sort(key=lambda e: _order(e[0]))
    parts = out.parts
    joining = False      # the last part is text this answer may continue
    for at, part, args in events:
        if isinstance(part, str):
            out.left_out.append({"pointer": at, "what": part})
            if part != _REASONING:
                joining = False   # reasoning between two texts does not split them
        elif part.kind == "call":
            parts.append({"type": "call", "name": part.name, "arguments": part.args})
            out._from.append(([at], args[0], args[1]))
            joining = False
        elif part.kind == "text" and isinstance(part.text, str) and part.text:
            below = _text_at(value, at)
            if joining:
                parts[-1]["text"] += part.text
                out._from[-1][0].append(below)
            else:
                parts.append({"type": "text", "text": part.text})
                out._from.append(([below], None, False))
                joining = True
        elif part.kind == "text":
            continue   # an empty text: nothing said, nothing split
        elif part.kind == "output":   # an answer to a call inside an answer
            out.left_out.append({"pointer": at, "what": "a tool's output"})
            joining = False
        else:
            out.left_out.append({"pointer": at, "what": "neither text nor a function call"})
            joining = False
    return out

