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

Each answer is read by its dialect room (``read_answer``, ``text_of``, ``is_reasoning``,
``ARGUMENTS``): this module knows no envelope.  :meth:`Neutral.source` maps a pointer into the
neutral form back to the place in the answer it came from (the Diff page's "each side's own text
a click away"); a converter can reuse :func:`reduce` for the same reading.
"""

from __future__ import annotations

from typing import Any, Callable

from . import anthropic, chat, classify, gemini, open_responses

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


def reduce(value: Any, *, piece=None,
           parse_arguments: Callable[[str], Any] | None = None) -> Neutral | None:
    """The neutral form of one answer, or None when ``value`` is not an answer of a known
    dialect.  ``parse_arguments(text)``: how a JSON-text ``arguments`` is parsed (default:
    the exact parse); it may raise, and the text then stays a string."""
    kind = classify(value)
    if not _is_answer(kind, value):
        return None
    room = ANSWERS[kind]
    parse_args = parse_arguments or _exact
    out = Neutral(room.NAME, kind)
    entries, state = room.read_answer(value, piece)
    out.value["state"] = state
    parts = out.parts
    joining = False      # the last part is text this answer may continue
    for e in entries:
        at = e.place.pointer if e.place is not None else ""
        if e.kind == "call":
            if e.hosted:
                out.left_out.append({"pointer": at, "what": "a call the provider runs"})
                joining = False
                continue
            args = e.args
            suffix, as_text = room.ARGUMENTS
            if isinstance(args, str):
                try:
                    args = parse_args(args)
                except Exception:   # not JSON: compared as the text it is
                    as_text = False
            parts.append({"type": "call", "name": e.name, "arguments": args})
            out._from.append(([at], at + suffix, as_text))
            joining = False
        elif e.kind == "other":
            texts = [(t, below) for t, below in room.text_of(e.item) if t]
            if texts or room.text_of(e.item):
                for text, below in texts:
                    if joining:
                        parts[-1]["text"] += text
                        out._from[-1][0].append(at + below)
                    else:
                        parts.append({"type": "text", "text": text})
                        out._from.append(([at + below], None, False))
                        joining = True
                continue
            if room.is_reasoning(e.item):
                out.left_out.append({"pointer": at, "what": "reasoning bound to its provider"})
                continue   # reasoning between two texts does not split them
            out.left_out.append({"pointer": at, "what": "neither text nor a function call"})
            joining = False
        else:   # an answer to a call inside an answer (not the model's words)
            out.left_out.append({"pointer": at, "what": "a tool's output"})
            joining = False
    return out
