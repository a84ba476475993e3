"""``POST /api/format`` and ``workbench format``: the request's fields and the one entry that sends
strict JSON to :mod:`.core` and JSONC, JSON5 and YAML to :mod:`.lenient` (which writes through core)."""

from __future__ import annotations

from ..fields import Field, Fields
from ..runtime.deadline import Deadline
from .core import format_text, json_string_of

REQUEST = Fields(
    Field("text", required=True, text=True),
    Field("indent", object, default=2, what='0 (minify), 1 to 8 spaces, or "tab"',
          schema={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 8},
                            {"type": "string", "enum": ["tab"]}]}),
    Field("sort_keys", bool, default=False),
    Field("input", str, default="json", what='"json" (strict), "jsonc", "json5" or "yaml"',
          schema={"enum": ["json", "jsonc", "json5", "yaml"]}),
)


def handle(body: dict, limits, *, written: bool = False) -> dict:
    """``POST /api/format``: ``text``, ``indent`` (default 2), ``sort_keys`` (default false).

    ``written`` (the API's answer, :func:`written_answer`): ``formatted`` is the JSON string of the
    formatted text as an ``orjson.Fragment``, made from the written UTF-8 bytes -- never decoded
    into a ``str`` to be escaped again (on 20 MB: ~0.1 s, and four bytes a character of memory
    for a text holding an emoji)."""
    v = REQUEST.read(body)
    # every input mode under the one work deadline: the pure-Python readers (JSON5, YAML) are
    # library loops, so the interrupting watchdog stops them (no thread without a limit)
    with Deadline(limits.work_timeout, "Formatting", "text").interrupting():
        if v["input"] != "json":   # JSONC / JSON5 / YAML, only when asked for: see lenient.py
            from .lenient import format_lenient  # (imported only then: start-up, issue 25)
            return format_lenient(v["text"], v["input"], v["indent"], v["sort_keys"],
                                  max_depth=limits.max_depth)
        if not written:
            return format_text(v["text"], v["indent"], v["sort_keys"], max_depth=limits.max_depth)
        answer = format_text(v["text"], v["indent"], v["sort_keys"], max_depth=limits.max_depth,
                             as_bytes=True)
    data, stats = answer["formatted"], answer["stats"]
    answer["formatted"] = json_string_of(data)
    answer["stats"] = {"chars_in": stats["chars_in"], "chars_out": utf8_chars(data), "lines_out": stats["lines_out"]}
    return answer


_NOT_CONTINUATION = bytes(range(0x80)) + bytes(range(0xC0, 0x100))


def utf8_chars(data: bytes) -> int:
    """The characters of UTF-8 ``data`` (its bytes but the continuation bytes)."""
    return len(data) - len(data.translate(None, _NOT_CONTINUATION))


def written_answer(body: dict, limits) -> bytes:
    """The body of ``POST /api/format``'s answer: :func:`handle`'s answer, written (its text
    embedded as written, see ``written``)."""
    from ..jsontext import dumps_value
    return dumps_value(handle(body, limits, written=True))
