"""The conversion core: read a transcript in its dialect into the neutral conversation (the
dialect room's ``read_conversation``), write it in the target's (``write_conversation``), list
what could not travel, and check the result by the target's rules (the transcript core)."""

from __future__ import annotations

import time
from typing import Any

from ..dialects import anthropic, chat, gemini, open_responses
from ..dialects.conversation import Reading, Refused, write_text
from ..errors import WorkbenchError, bad_request
from ..fields import Field, Fields
from ..jsontext import LineIndex, locate_many, parse, split_pointer
from ..limits import DEFAULT_LIMITS, Limits
from ..runtime.deadline import Deadline

# the target words of the API and the command line, and their dialect rooms
DIALECTS = {"open_responses": open_responses, "chat": chat, "anthropic": anthropic,
            "gemini": gemini}
TARGETS = tuple(DIALECTS)

# the transcript kinds that convert: (dialect word, rebuilt from a stream?)
KINDS = {"response": ("open_responses", False), "item_list": ("open_responses", False),
         "response_stream": ("open_responses", True),
         "chat_completion": ("chat", False), "chat_messages": ("chat", False),
         "chat_stream": ("chat", True),
         "anthropic_messages": ("anthropic", False), "anthropic_stream": ("anthropic", True),
         "gemini_contents": ("gemini", False), "gemini_stream": ("gemini", True)}

MAX_LISTED = 1000   # not_portable entries (and notes) listed in one answer; the counts have all

REQUEST = Fields(
    Field("text", str, required=True, text=True,
          doc="a transcript in one dialect: a response, a request, an item or message list, "
              "or a stream (rebuilt first)"),
    Field("to", str, required=True, what="one of " + ", ".join(f'"{t}"' for t in TARGETS),
          doc="the target dialect", schema={"enum": list(TARGETS)}),
    Field("tools", str, text=True, doc="tool definitions the converted text's calls are gated "
                                       "against, as for the transcript"),
    Field("from", str, default="auto", what="\"auto\" or one of " + ", ".join(
        f'"{t}"' for t in TARGETS), doc="the source dialect (auto: told from the text; a text-only "
        "Anthropic request reads as Chat without it)", schema={"enum": ["auto", *TARGETS]}),
)


def handle(body: dict, limits) -> dict:
    """``POST /api/convert``: ``text`` and ``to`` (required), ``tools``."""
    values = REQUEST.read(body)
    return convert(values["text"], values["to"], values["tools"], source=values["from"],
                   limits=limits)


def check_target(to: Any, field: str = "to") -> str:
    if to not in DIALECTS and not (field == "from" and to == "auto"):
        raise bad_request(f"Unknown {'target' if field == 'to' else 'source'} {to!r}: use "
                          + ("\"auto\" or " if field == "from" else "") + "one of "
                          + ", ".join(TARGETS), field=field, code="bad_option")
    return to


class _Budget:
    """The one work deadline over the three passes (source check, conversion, target check):
    each transcript pass gets what is left of it."""

    def __init__(self, limits: Limits):
        self.limits, self.start = limits, time.monotonic()

    def left(self) -> Limits:
        total = self.limits.work_timeout
        if not total:
            return self.limits
        left = total - (time.monotonic() - self.start)
        if left <= 0:
            Deadline(total, "Converting the transcript", "text").check_now()   # raises timeout
            left = 0.001
        return self.limits.with_(work_timeout=left)


def convert(text: str, to: str, tools: str | None = None, *, source: str = "auto",
            limits: Limits = DEFAULT_LIMITS) -> dict:
    """The answer of ``POST /api/convert``: ``text`` converted to the dialect ``to`` (from the
    dialect ``source``, or the one its kind tells)."""
    from ..transcript import analyse
    to = check_target(to)
    given = check_target(source or "auto", "from")
    if not isinstance(text, str):
        raise WorkbenchError("bad_type", "'text' must be a string", status=400, field="text")
    tools = tools if tools and tools.strip() else None
    budget = _Budget(limits)
    deadline = Deadline(limits.work_timeout or None, "Converting the transcript", "text")
    body = text[1:] if text.startswith("\ufeff") else text
    kind, value, _rebuilt_value = _source(body, tools, budget, limits)
    origin, rebuilt = KINDS[kind]
    if given != "auto" and given != origin:
        if rebuilt:
            raise bad_request(f"The text is a {kind.replace('_', ' ')}, not {given}: leave "
                              "'from' at \"auto\" for a stream", field="from", code="bad_option")
        origin = given   # an envelope two dialects share (a text-only Anthropic request)
    reading = Reading(origin, limits.max_depth, rebuilt, deadline, MAX_LISTED)
    with deadline:
        try:
            conv = DIALECTS[origin].read_conversation(value, reading)
            del value   # (the conversation holds what it needs of it)
            if to == origin and not rebuilt:
                out_text = text   # the same dialect: nothing to convert
                reading.clear()
                reading.note("", "same_dialect", "The text is in this dialect already: it is "
                             "answered as it is, checked by the same rules.")
            else:
                out_text = write_text(DIALECTS[to].write_conversation(conv, reading)) + "\n"
        except Refused as exc:
            where = _places(body, [{"pointer": exc.pointer}], rebuilt)[0]
            raise WorkbenchError(exc.code, exc.message, field="text", line=where["line"],
                                 column=where["column"], pointer=exc.pointer,
                                 **exc.extra) from None
        deadline.check_now()
    counts = {"shape": conv.shape, "turns": len(conv.turns), "calls": len(conv.calls()),
              "outputs": sum(1 for t in conv.turns for p in t.parts if p.kind == "output")}
    del conv   # (its memory is free for the target's check)
    target = analyse(out_text, tools, limits=budget.left())
    told = KINDS.get(target["kind"], (None,))[0]
    if told != to:
        reading.note("", "checked_as", f"The converted text reads as {target['kind']} (it holds "
                     f"nothing only {to} has), so it was checked by those rules.")
    lost = _places(body, reading.lost, rebuilt)
    notes = _places(body, reading.notes, rebuilt)
    n_lost = sum(reading.lost_by_what.values())
    errors = [f for f in target["findings"] if f["severity"] == "error"]
    return {
        "from": origin, "to": to, "text": out_text,
        "not_portable": lost, "findings": target["findings"], "clean": not errors,
        "notes": notes,
        "summary": {
            "source_kind": kind, "rebuilt": rebuilt, "shape": counts["shape"],
            "target_kind": target["kind"],
            "turns": counts["turns"], "calls": counts["calls"], "outputs": counts["outputs"],
            "not_portable": n_lost,
            "not_portable_by_what": dict(reading.lost_by_what),
            "notes": reading.notes_count,
            "errors": target["summary"]["errors"], "warnings": target["summary"]["warnings"]},
        "calls": target["calls"],
        "truncated": {"not_portable": n_lost - len(lost),
                      "notes": reading.notes_count - len(notes)},
    }


def _source(body: str, tools, budget: _Budget, limits: Limits) -> tuple[str, Any, bool]:
    """``(kind, value, rebuilt)`` of the source text: one JSON document, read exactly (numbers as
    fragments of their text) and told by the transcript's classifier; a stream (SSE, JSON Lines,
    an array of events or chunks) rebuilt by the transcript core, its items the value."""
    from ..transcript import analyse
    from ..transcript.kinds import kind_of_value
    try:
        parsed = parse(body, field="text", numbers="fragment", max_depth=limits.max_depth,
                       warning_limit=10)
    except WorkbenchError as exc:
        if exc.code != "parse_error":
            raise
        parsed, fault = None, exc   # SSE or JSON Lines, or text that is not JSON
    kind = kind_of_value(parsed.value) if parsed is not None else None
    if parsed is None or kind not in KINDS or KINDS[kind][1]:
        checked = analyse(body, tools, limits=budget.left())
        kind = checked["kind"]
        if parsed is None and not (kind in KINDS and KINDS[kind][1]):
            if checked["source"] == "json_lines" and kind in KINDS:
                raise WorkbenchError(
                    "not_convertible", f"This text is {_a(kind.replace('_', ' '))} in JSON Lines: "
                    "conversion reads one JSON document (or a stream). Put the lines in one JSON "
                    "array ([line, line, …]) to convert them as one conversation.", field="text",
                    kind=kind)
            raise fault   # not a stream: the text's own fault
        if kind in KINDS and KINDS[kind][1]:
            return kind, _rebuilt(kind, checked["items"]), True
        if kind not in KINDS or checked["source"] != "json":
            raise WorkbenchError(
                "not_convertible",
                f"This text is {_kind_words(checked)}: conversion reads one conversation (a "
                "response, request or message list of Open Responses, Chat Completions, "
                "Anthropic Messages or Gemini, or a stream of one, rebuilt first); sessions, "
                "traces, logs and single items do not convert.", field="text", kind=kind)
        # (a kind told by an exact number: a Gemini error body's integer code)
    dup = next((w for w in parsed.warnings if w["code"] == "duplicate_key"), None)
    if dup is not None:
        raise WorkbenchError("duplicate_key", f"The key {dup.get('key')!r} appears twice in one "
                             "object: readers disagree on which value counts, so the "
                             "conversation cannot be converted exactly. Remove one of them.",
                             field="text", line=dup.get("line"), column=dup.get("column"),
                             pointer=dup["pointer"])
    return kind, parsed.value, False


def _a(words: str) -> str:
    return ("an " if words[:1] in "aeiou" else "a ") + words


def _kind_words(source: dict) -> str:
    kind = source["kind"].replace("_", " ")
    if source["kind"] in KINDS:
        return f"{_a(kind)} in {source['source'].replace('_', ' ')} (a log)"
    return {"agents_session": "an Agents API session", "otel_trace": "an OpenTelemetry trace",
            "item": "one item", "unknown": "a shape no kind reads"}.get(source["kind"], _a(kind))


def _rebuilt(kind: str, items: list) -> Any:
    """The value a stream's rebuilt items stand for, in its dialect's envelope."""
    if kind == "response_stream":
        return items
    if kind == "chat_stream":
        return {"choices": items}
    if kind == "anthropic_stream":
        if len(items) == 1:
            return items[0]
        return {"messages": [{"role": "assistant", "content": m.get("content", [])}
                             for m in items if type(m) is dict]}
    return items[0] if items else {"candidates": []}


def _places(text: str, entries: list[dict], rebuilt: bool) -> list[dict]:
    """Each entry with the ``line`` / ``column`` of its pointer in the source (the nearest
    enclosing value when the pointer names a member that is not there).  A stream's pointers are
    into its rebuilt items (``rebuilt: true``), which have no place in the text."""
    out = []
    if rebuilt:
        return [{"pointer": e["pointer"], "line": None, "column": None, "rebuilt": True,
                 **{k: v for k, v in e.items() if k != "pointer"}} for e in entries]
    wanted = set()
    for e in entries:
        parts = split_pointer(e["pointer"])
        for n in range(len(parts), -1, -1):
            wanted.add("".join("/" + _esc(p) for p in parts[:n]))
    spans = locate_many(text, wanted)
    lines = LineIndex(text)
    for e in entries:
        parts = split_pointer(e["pointer"])
        span = None
        for n in range(len(parts), -1, -1):
            span = spans.get("".join("/" + _esc(p) for p in parts[:n]))
            if span is not None:
                break
        at = span.key if span is not None and span.key is not None else \
            span.start if span is not None else 0
        line, column = lines.line_col(at)
        out.append({"pointer": e["pointer"], "line": line, "column": column,
                    **{k: v for k, v in e.items() if k != "pointer"}})
    return out


def _esc(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def comparable(text: str, dialect: str, minus: list[dict] = (), *, results_first: bool = False,
               limits: Limits = DEFAULT_LIMITS) -> dict:
    """The neutral form of a conversation in ``dialect`` (:func:`~workbench.dialects.conversation
    .canonical`), without what ``minus`` (a conversion's ``not_portable``) says a writer left out
    (an image, an ``is_error`` flag): two texts of one conversation compare equal in it.
    ``results_first``: each user turn's outputs before its other parts (as a conversion to
    Anthropic moves them, said in its notes as ``result_moved``)."""
    from ..dialects.conversation import canonical
    value = parse(text, field="text", numbers="fragment", max_depth=limits.max_depth,
                  warnings=False).value
    reading = Reading(dialect, limits.max_depth)
    conv = DIALECTS[dialect].read_conversation(value, reading)
    gone = {e["pointer"] for e in minus}
    for t in conv.turns:
        kept = []
        for p in t.parts:
            if p.pointer + "/is_error" in gone:
                p.is_error = False
            if p.pointer in gone:
                if p.kind == "output":   # its images were left out
                    p.content = [c for c in p.content if c[0] != "image"]
                else:
                    continue
            kept.append(p)
        if results_first:
            kept = [p for p in kept if p.kind == "output"] + [p for p in kept if p.kind != "output"]
        t.parts = kept
    return canonical(conv)
