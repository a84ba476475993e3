"""Gemini (``generateContent``): the only place that knows its envelope (``providers-rules.md``).

* A response is ``{candidates: [{content: {role: "model", parts}, finishReason}]}``; a request
  holds the history in ``contents[] {role, parts}`` and the tools in
  ``tools[].functionDeclarations``; a stream (``streamGenerateContent``) is a JSON array of
  responses or SSE ``data:`` lines of them (rebuilt by :mod:`workbench.transcript.providers`).
  An error body is ``{error: {code, message, status}}``.
* A call is a part ``{functionCall: {name, args, id?}}`` (``function_call`` in some clients'
  requests), its arguments an **object**; the answer a part ``{functionResponse: {name,
  response, id?}}`` in the next turn.  Paired by ``id`` when present, else by name and
  position within the turn (:func:`workbench.transcript.providers` does it).
* Its stop state is ``finishReason`` (a word, or an integer with ``enum-encoding=int``):
  ``MAX_TOKENS`` and ``MALFORMED_FUNCTION_CALL`` cut a call off.
* The gate walks a call as the Open Responses item carrying it.
"""

from __future__ import annotations

from typing import Any

from . import open_responses
from .model import Call, Other, Output, Place, arguments_object, named, text_or_none

NAME = "gemini"
GATE = "open_responses"
KINDS = ("gemini_contents", "gemini_stream")
LABELS = {"gemini_contents": "a Gemini generateContent response or request",
          "gemini_stream": "a Gemini streamGenerateContent stream"}
CALL_KEYS = ("functionCall", "function_call")
RESPONSE_KEYS = ("functionResponse", "function_response")
SIGNATURE_KEYS = ("thoughtSignature", "thought_signature")
# FinishReason: 2 MAX_TOKENS, 10 MALFORMED_FUNCTION_CALL (google.ai.generativelanguage)
CUT_OFF = ("MAX_TOKENS", "MALFORMED_FUNCTION_CALL", 2, 10)
# the names of the id a call carries and the one its answer names (in every finding's words)
ID_WORDS = ("functionCall.id", "functionResponse.id")


# --------------------------------------------------------------------------- recognising

def is_response(v: Any) -> bool:
    return type(v) is dict and isinstance(v.get("candidates"), list)


def is_error(v: Any) -> bool:
    """A Google API error body (``status`` a word like ``INVALID_ARGUMENT``)."""
    e = v.get("error") if type(v) is dict else None
    return type(e) is dict and isinstance(e.get("status"), str) and type(e.get("code")) is int


def is_request(v: Any) -> bool:
    return type(v) is dict and isinstance(v.get("contents"), list)


def _member(p: Any, keys) -> Any:
    """The first of ``keys`` (a member's spellings) in the part ``p``, or None."""
    if type(p) is not dict:
        return None
    return next((p[k] for k in keys if k in p), None)


def part_call(p: Any) -> Any:
    """The ``functionCall`` of a part (either spelling), or None."""
    return _member(p, CALL_KEYS)


def part_response(p: Any) -> Any:
    """The ``functionResponse`` of a part (either spelling), or None."""
    return _member(p, RESPONSE_KEYS)


def call_key(p: dict) -> str:
    return next(k for k in CALL_KEYS if k in p)


def is_call(node: Any, parent_key: Any = None) -> bool:
    return type(node) is dict and parent_key in CALL_KEYS and "name" in node


def recognise(v: Any) -> str | None:
    if is_response(v) or is_request(v) or is_error(v):
        return "gemini_contents"
    return None


def envelope_kind(v: dict) -> str | None:
    return "gemini_contents" if recognise(v) else None


# --------------------------------------------------------------------------- reading

def stop_state(reason: Any, *, finished: bool = True) -> str:
    if reason is None:
        return "completed" if finished else "incomplete"
    return "incomplete" if reason in CUT_OFF else "completed"


def read_call(fc: dict, place: Place | None = None, pos: int = 0,
              status: str | None = "completed") -> Call:
    """The neutral call of one ``functionCall`` (``id`` only when the provider gave one)."""
    fc = fc if type(fc) is dict else {}
    return Call(NAME, place, pos, fc, name=fc.get("name"), call_id=fc.get("id"),
                id=fc.get("id"), args=fc.get("args"), status=status)


def read_response(fr: dict, place: Place | None, pos: int) -> Output:
    fr = fr if type(fr) is dict else {}
    return Output(NAME, place, pos, fr, call_id=fr.get("id"))


def parts_of(content: Any, place: Place) -> list[tuple[Any, Place]]:
    """``(part, place)`` of a content's ``parts`` (none when it has no list of parts)."""
    parts = content.get("parts") if type(content) is dict else None
    return [(p, place.child(f"/parts/{j}")) for j, p in enumerate(parts)] \
        if isinstance(parts, list) else []


def read_parts(parts: list, t: int, status: str | None) -> list:
    """The neutral entries of one turn's placed parts: a call at its ``functionCall``, a
    response at its ``functionResponse``, any other part an :class:`Other` at the part."""
    out: list = []
    for p, place in parts:
        fc = part_call(p)
        fr = part_response(p)
        if fc is not None:
            out.append(read_call(fc, place.child("/" + call_key(p)), t, status))
        elif fr is not None:
            key = next(k for k in RESPONSE_KEYS if k in p)
            out.append(read_response(fr, place.child("/" + key), t))
        else:
            out.append(Other(NAME, place, t, p))
    return out


def read_answer(value: dict, piece=None) -> tuple[list, str]:
    """One answer (a ``generateContent`` response): the entries of its first candidate and
    its stop state."""
    cands = value.get("candidates") if type(value) is dict else None
    cand = cands[0] if isinstance(cands, list) and cands and type(cands[0]) is dict else {}
    status = stop_state(cand.get("finishReason"))
    parts = parts_of(cand.get("content"), Place(piece, "/candidates/0/content"))
    return read_parts(parts, 0, status), status


# the arguments below a call's place (its functionCall), and whether they are a JSON text
ARGUMENTS = ("/args", False)


def text_of(part: Any) -> list[tuple[str, str]]:
    """The text of a part that is the model's answer (not a ``thought``): ``(text, pointer
    below the part)``."""
    if type(part) is dict and isinstance(part.get("text"), str) and not part.get("thought"):
        return [(part["text"], "/text")]
    return []


def is_reasoning(part: Any) -> bool:
    """A thought part (its text is the model's reasoning, bound to the provider)."""
    return type(part) is dict and bool(part.get("thought"))


# --------------------------------------------------------------------------- writing

def walkable(call: Call) -> dict:
    """The Open Responses item carrying the call; a call without ``id`` (Gemini 2.x) is paired
    by name and position, so it is walked with that as its call_id (``name@turn``)."""
    item = open_responses.write(call)
    if "call_id" not in item:
        item["call_id"] = f"{named(call.name)}@{call.pos}"
        item.setdefault("id", item["call_id"])
    return item


def write(call: Call) -> dict:
    """The neutral call as a ``functionCall`` part."""
    args = arguments_object(call)
    fc: dict = {}
    if text_or_none(call.name) is not None:
        fc["name"] = call.name
    fc["args"] = args if args is not None else {}
    if call.call_id is not None:
        fc["id"] = call.call_id
    return {"functionCall": fc}
