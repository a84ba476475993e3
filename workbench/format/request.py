"""``POST /api/format`` and ``workbench format``: the request's fields and the one entry that sends
strict JSON to :mod:`.core` and JSONC, JSON5 and YAML to :mod:`.lenient` (which writes through core)."""

from __future__ import annotations

from ..errors import bad_request
from ..fields import Field, Fields
from ..runtime.deadline import Deadline
from .core import format_text, json_string_of

ANSWERS = ("json", "text")

REQUEST = Fields(
    Field("text", required=True, text=True),
    Field("indent", object, default=2, what='0 (minify), 1 to 8 spaces, or "tab"',
          schema={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 8},
                            {"type": "string", "enum": ["tab"]}]}),
    Field("sort_keys", bool, default=False),
    Field("input", str, default="json", what='"json" (strict), "jsonc", "json5" or "yaml"',
          schema={"enum": ["json", "jsonc", "json5", "yaml"]}),
    Field("answer", str, default="json", what='"json" (the answer object) or "text" (the formatted '
          "text itself, the rest of the answer in Workbench-* headers)",
          doc='"json" (default): the answer object; "text": the formatted text itself as the body '
              "(text/plain; charset=utf-8), every other member of the answer in a Workbench-* header",
          schema={"enum": list(ANSWERS)}),
)


def _answer(body: dict, limits, as_bytes: bool) -> dict:
    """The answer to ``body`` (``formatted`` as UTF-8 bytes with ``as_bytes``, but for JSONC, JSON5
    and YAML input, whose answer keeps a ``str``)."""
    v = REQUEST.read(body)
    # every input mode under the one work deadline: the pure-Python readers (JSON5, YAML) are
    # library loops, so the interrupting watchdog stops them (no thread without a limit)
    with Deadline(limits.work_timeout, "Formatting", "text").interrupting():
        if v["input"] != "json":   # JSONC / JSON5 / YAML, only when asked for: see lenient.py
            from .lenient import format_lenient  # (imported only then: start-up, issue 25)
            return format_lenient(v["text"], v["input"], v["indent"], v["sort_keys"],
                                  max_depth=limits.max_depth)
        return format_text(v["text"], v["indent"], v["sort_keys"], max_depth=limits.max_depth,
                           as_bytes=as_bytes)


def handle(body: dict, limits, *, written: bool = False) -> dict:
    """``POST /api/format``: ``text``, ``indent`` (default 2), ``sort_keys`` (default false).

    ``written`` (the API's answer, :func:`written_answer`): ``formatted`` is the JSON string of the
    formatted text as an ``orjson.Fragment``, made from the written UTF-8 bytes -- never decoded
    into a ``str`` to be escaped again (on 20 MB: ~0.1 s, and four bytes a character of memory
    for a text holding an emoji)."""
    answer = _answer(body, limits, as_bytes=written)
    data = answer["formatted"]
    if isinstance(data, bytes):
        answer["formatted"] = json_string_of(data)
        _count_characters(answer, data)
    return answer


def _count_characters(answer: dict, data: bytes) -> None:
    """``stats`` of an answer written as bytes, as the ``str`` answer has them (``chars_out``)."""
    stats = answer["stats"]
    answer["stats"] = {"chars_in": stats["chars_in"], "chars_out": utf8_chars(data),
                       "lines_out": stats["lines_out"]}


_NOT_CONTINUATION = bytes(range(0x80)) + bytes(range(0xC0, 0x100))


def utf8_chars(data: bytes) -> int:
    """The characters of UTF-8 ``data`` (its bytes but the continuation bytes)."""
    return len(data) - len(data.translate(None, _NOT_CONTINUATION))


def written_answer(body: dict, limits) -> bytes:
    """The body of ``POST /api/format``'s answer: :func:`handle`'s answer, written (its text
    embedded as written, see ``written``)."""
    from ..jsontext import dumps_value
    return dumps_value(handle(body, limits, written=True))


TEXT = "text/plain; charset=utf-8"
#: the ``Workbench-Warnings`` header lists the first warnings that fit in this many bytes (a header
#: line is read whole: Python's http.client refuses one over 65,536 bytes, Chromium all of them
#: over 256 kB); ``Workbench-Truncated`` says when it lists fewer than ``Workbench-Warning-Count``
TEXT_WARNINGS_BYTES = 16_384


def respond(body: dict, limits) -> tuple[bytes, str, dict]:
    """``POST /api/format``'s answer as ``(body, media type, headers)``.

    ``answer: "json"`` (the default): the answer object, written (:func:`written_answer`).
    ``answer: "text"``: the formatted text itself, UTF-8, as the body (``text/plain;
    charset=utf-8``: a 20 MB answer is not a JSON string to escape and read back), and every other
    member of the answer in a header of its own (:func:`text_headers`)."""
    how = REQUEST.by_name["answer"].read(body)
    if how not in ANSWERS:
        raise bad_request("'answer' must be \"json\" or \"text\"", field="answer", code="bad_option")
    if how == "json":
        return written_answer(body, limits), "application/json", {}
    answer = _answer(body, limits, as_bytes=True)
    data = answer.pop("formatted")
    if isinstance(data, bytes):
        _count_characters(answer, data)
    else:   # (JSONC, JSON5, YAML: the writers escape every lone surrogate)
        data = data.encode("utf-8")
    return data, TEXT, text_headers(answer)


def header_name(member: str) -> str:
    """``warning_count`` → ``Workbench-Warning-Count``."""
    return "Workbench-" + "-".join(part.capitalize() for part in member.split("_"))


def text_headers(answer: dict) -> dict:
    """The answer's members (but ``formatted``) as headers: ``Workbench-`` and the member's name
    (``warning_count`` → ``Workbench-Warning-Count``) holding its value as JSON, ASCII only
    (``\\u`` escapes), in the answer's order.  ``Workbench-Warnings`` lists the first warnings
    that fit in :data:`TEXT_WARNINGS_BYTES` and ``Workbench-Truncated`` is true when it lists
    fewer than ``warning_count``."""
    import json
    dump = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode
    warnings = answer.get("warnings", [])
    listed, size = [], 1       # the header's length so far: "[", each warning and its "," or "]"
    for w in warnings:
        text = dump(w)
        size += len(text) + 1
        if size > TEXT_WARNINGS_BYTES:
            break
        listed.append(text)
    out = {}
    for member, value in answer.items():
        if member == "warnings":
            out[header_name(member)] = "[" + ",".join(listed) + "]"
        elif member == "truncated":
            out[header_name(member)] = dump(answer.get("warning_count", len(warnings)) > len(listed))
        else:
            out[header_name(member)] = dump(value)
    if len(listed) < len(warnings):     # (an answer without ``truncated``: JSONC, JSON5, YAML)
        out.setdefault(header_name("truncated"), "true")
    return out
