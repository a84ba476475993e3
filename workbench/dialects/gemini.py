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
from .model import Call, Other, Output, Place, arguments_object, first_of, named, text_or_none

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


def answer_state(value: Any) -> str:
    """The stop state of one answer (a ``generateContent`` response: its first candidate's
    ``finishReason``)."""
    return stop_state(first_of(value, "candidates").get("finishReason"))


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


# --------------------------------------------------------------------------- conversations
# (conversion between dialects: workbench/convert; the neutral model: .conversation)

_TOP_CARRIED = frozenset({"contents", "candidates", "systemInstruction", "system_instruction",
                          "tools"})
_ROLES = {"user": "user", "model": "assistant", "function": "user", "tool": "user"}
_PROVIDER_PARTS = ("executableCode", "codeExecutionResult", "executable_code",
                   "code_execution_result")


def read_conversation(value: Any, reading) -> Any:
    """The neutral conversation of a request (``systemInstruction``, ``contents``, ``tools``)
    or a response (its first candidate's content).  A call without ``id`` (Gemini 2.x) gets one
    by order (``gemini_call_N``, said in a note) and its response the id of the call it answers:
    by id, else by name and position in the turn before."""
    from .conversation import Conversation, Part
    conv = Conversation("response" if is_response(value) else "request")
    if type(value) is not dict:
        return conv
    reading.fields(value, "", _TOP_CARRIED, "The envelope's")
    si_key = "systemInstruction" if "systemInstruction" in value else "system_instruction"
    si = value.get(si_key)
    if type(si) is dict:
        for j, part in enumerate(si.get("parts") if type(si.get("parts")) is list else ()):
            q = f"/{si_key}/parts/{j}"
            if type(part) is dict and type(part.get("text")) is str:
                conv.add("system", Part("text", q, text=part["text"]), q)
            else:
                reading.drop(q, "part", "A system instruction part that is not text is left out.")
    elif type(si) is str and si:
        conv.add("system", Part("text", "/" + si_key, text=si), "/" + si_key)
    _read_tools(value.get("tools"), conv, reading)
    if conv.shape == "response":
        cands = value.get("candidates") if type(value.get("candidates")) is list else []
        placed = []
        for i, cand in enumerate(cands):
            if i > 0:
                reading.drop(f"/candidates/{i}", "choice", "Only the first candidate is a turn "
                             "of the conversation: the others are left out.")
                continue
            if type(cand) is dict:
                reading.fields(cand, f"/candidates/{i}", {"content", "index", "finishReason"},
                               "The candidate's")
                placed.append((cand.get("content"), f"/candidates/{i}/content"))
    else:
        contents = value.get("contents")
        placed = [(c, f"/contents/{i}") for i, c in enumerate(contents if type(contents) is list
                                                              else ())]
    state = {"n": 0, "previous": []}   # calls numbered; the calls of the turn before
    for c, p in placed:
        _read_content(c, p, conv, reading, state)
    return conv


def _read_tools(tools: Any, conv, reading) -> None:
    from .conversation import Tool
    for i, t in enumerate(tools if type(tools) is list else ()):
        p = f"/tools/{i}"
        if type(t) is not dict:
            continue
        for k, v in t.items():
            if k in ("functionDeclarations", "function_declarations") and type(v) is list:
                for j, d in enumerate(v):
                    q = f"{p}/{k}/{j}"
                    if type(d) is dict and type(d.get("name")) is str:
                        pk = "parametersJsonSchema" if "parametersJsonSchema" in d else "parameters"
                        conv.tools.append(Tool(d["name"], d.get("description"), d.get(pk), q))
                        reading.fields(d, q, {"name", "description", pk}, "The declaration's")
            else:
                reading.drop(f"{p}/{k}", "tool", f"The {k} tool is Gemini's own: it has no "
                             "counterpart in the target and is left out.")


def _read_content(c: Any, p: str, conv, reading, state: dict) -> None:
    """One content of the history: its parts into the conversation (a call without id numbered
    by ``state["n"]``; a response matched to the calls of the turn before)."""
    from .conversation import Part
    if type(c) is not dict:
        reading.drop(p, "item", "A value that is not a content is left out.")
        return
    role = _ROLES.get(c.get("role", "user"))
    if role is None:
        reading.drop(p, "item", f"A content of the role {c.get('role')!r} is left out.")
        return
    reading.fields(c, p, {"role", "parts"}, "The content's")
    conv.add(role, None, p)
    calls: list = []
    pool = list(state["previous"])
    for j, part in enumerate(c.get("parts") if type(c.get("parts")) is list else ()):
        q = f"{p}/parts/{j}"
        if type(part) is not dict:
            continue
        for k in SIGNATURE_KEYS:
            if k in part:
                reading.drop(f"{q}/{k}", "thought_signature", "A thoughtSignature is bound "
                             "to Gemini (only it can read the reasoning it stands for): it "
                             "is left out.")
        fc, fr = part_call(part), part_response(part)
        if fc is not None:
            key = call_key(part)
            fc = fc if type(fc) is dict else {}
            reading.fields(part, q, {key, *SIGNATURE_KEYS}, "The part's")
            reading.fields(fc, f"{q}/{key}", {"name", "args", "id"}, "The functionCall's")
            args = reading.arguments(fc.get("args", {}), f"{q}/{key}/args")   # (an object: itself)
            cid = fc.get("id") if type(fc.get("id")) is str and fc.get("id") else None
            call = Part("call", q, call_id=cid, name=fc.get("name"), args=args)
            if cid is None:
                state["n"] += 1
                call.call_id, call.assigned = f"gemini_call_{state['n']}", True
                reading.note(f"{q}/{key}", "call_id_assigned", "This functionCall has no id: "
                             f"it was given the id {call.call_id!r} by order, and its "
                             "functionResponse (matched by name and position) the same.",
                             call_id=call.call_id)
            calls.append(call)
            conv.add(role, call, p)
        elif fr is not None:
            key = next(k for k in RESPONSE_KEYS if k in part)
            fr = fr if type(fr) is dict else {}
            reading.fields(part, q, {key, *SIGNATURE_KEYS}, "The part's")
            reading.fields(fr, f"{q}/{key}", {"name", "response", "id"},
                           "The functionResponse's")
            rid = fr.get("id") if type(fr.get("id")) is str and fr.get("id") else None
            match = next((x for x in pool if rid is not None and x.call_id == rid), None) or \
                next((x for x in pool if rid is None and x.name == fr.get("name")), None)
            if match is not None:
                pool.remove(match)
            resp = fr.get("response")
            content, is_error = [("json", resp)], False
            if type(resp) is dict and len(resp) == 1 and type(next(iter(resp.values()))) is str:
                (k1, v1), = resp.items()
                if k1 in ("result", "output", "error"):
                    content, is_error = [("text", v1)], k1 == "error"
            conv.add(role, Part("output", q, call_id=rid or (match.call_id if match else None),
                                name=fr.get("name"), content=content, is_error=is_error), p)
        elif type(part.get("text")) is str:
            if part.get("thought") is True:
                reading.drop(q, "reasoning", "A thought part (the model's reasoning summary) "
                             "is bound to Gemini: it is left out.")
                continue
            reading.fields(part, q, {"text", *SIGNATURE_KEYS}, "The part's")
            conv.add(role, Part("text", q, text=part["text"]), p)
        elif any(k in part for k in _PROVIDER_PARTS):
            reading.drop(q, "provider_call", "Code Gemini runs itself (executableCode / "
                         "codeExecutionResult) has no counterpart in the target: it is left out.")
        elif type(part.get("inlineData")) is dict and \
                str(part["inlineData"].get("mimeType", "")).startswith("image/"):
            d = part["inlineData"]
            from .conversation import data_url
            conv.add(role, Part("image", q, url=data_url(d.get("mimeType"), d.get("data"))), p)
        else:
            reading.drop(q, "part", "A part of a kind the target has no form for (a file, "
                         "audio, video…) is left out.")
    state["previous"] = calls


def write_conversation(conv, reading) -> dict:
    """The conversation as a ``generateContent`` request: ``systemInstruction`` (the system
    texts, wherever they were), ``contents`` (``model`` for the assistant, one content per
    turn), ``tools`` (one ``functionDeclarations`` list)."""
    from .conversation import output_json, output_text, split_data_url, system_texts
    system: list = []
    contents: list = []
    names: dict = {}
    for t in conv.turns:
        reading.tick()
        if t.role == "system":
            system += [{"text": text} for text in system_texts(
                t, reading, moved=bool(contents), field="Gemini takes system text in systemInstruction")]
            continue
        parts: list = []
        for p in t.parts:
            if p.kind == "text":
                parts.append({"text": p.text})
            elif p.kind == "image":
                data = split_data_url(p.url)
                if data is None:
                    reading.drop(p.pointer, "image", "Gemini takes an image by its bytes "
                                 "(inlineData) or an uploaded file, not by a web address: this "
                                 "image is left out.")
                else:
                    parts.append({"inlineData": {"mimeType": data[0], "data": data[1]}})
            elif p.kind == "call":
                names[p.call_id] = p.name
                fc = {k: v for k, v in (("name", p.name), ("args", p.args if p.args is not None
                                                               else {})) if v is not None}
                if p.call_id is not None:
                    fc["id"] = p.call_id
                parts.append({"functionCall": fc})
            elif p.kind == "output":
                if any(c[0] == "image" for c in p.content):
                    reading.drop(p.pointer, "image", "A functionResponse holds a JSON object: "
                                 "the images of this output are left out.")
                obj = None if p.is_error else output_json(p.content)
                resp = obj if obj is not None else \
                    {"error" if p.is_error else "result": output_text(p.content)}
                fr = {"name": p.name if p.name is not None else names.get(p.call_id),
                      "response": resp}
                if p.call_id is not None:
                    fr["id"] = p.call_id
                parts.append({"functionResponse": {k: v for k, v in fr.items() if v is not None}})
        if not parts:
            continue
        role = "model" if t.role == "assistant" else "user"
        if contents and contents[-1]["role"] == role:
            contents[-1]["parts"].extend(parts)
        else:
            contents.append({"role": role, "parts": parts})
    out: dict = {}
    if system:
        out["systemInstruction"] = {"parts": system}
    out["contents"] = contents
    if conv.tools:
        out["tools"] = [{"functionDeclarations": [
            {k: v for k, v in (("name", t.name), ("description", t.description),
                               ("parameters", t.parameters)) if v is not None}
            for t in conv.tools]}]
    return out
