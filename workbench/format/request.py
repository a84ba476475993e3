"""``POST /api/format`` and ``workbench format``: the request's fields and the one entry that sends
strict JSON to :mod:`.core` and JSONC, JSON5 and YAML to :mod:`.lenient` (which writes through core)."""

from __future__ import annotations

from ..fields import Field, Fields
from ..runtime.deadline import Deadline
from .core import format_text

REQUEST = Fields(
    Field("text", required=True, text=True),
    Field("indent", object, default=2, what='0 (minify), 1 to 8 spaces, or "tab"',
          schema={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 8},
                            {"type": "string", "enum": ["tab"]}]}),
    Field("sort_keys", bool, default=False),
    Field("input", str, default="json", what='"json" (strict), "jsonc", "json5" or "yaml"',
          schema={"enum": ["json", "jsonc", "json5", "yaml"]}),
)


def handle(body: dict, limits) -> dict:
    """``POST /api/format``: ``text``, ``indent`` (default 2), ``sort_keys`` (default false)."""
    v = REQUEST.read(body)
    # every input mode under the one work deadline: the pure-Python readers (JSON5, YAML) are
    # library loops, so the interrupting watchdog stops them (no thread without a limit)
    with Deadline(limits.work_timeout, "Formatting", "text").interrupting():
        if v["input"] != "json":   # JSONC / JSON5 / YAML, only when asked for: see lenient.py
            from .lenient import format_lenient  # (imported only then: start-up, issue 25)
            return format_lenient(v["text"], v["input"], v["indent"], v["sort_keys"],
                                  max_depth=limits.max_depth)
        return format_text(v["text"], v["indent"], v["sort_keys"], max_depth=limits.max_depth)
