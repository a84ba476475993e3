"""Formatting: re-indent a document exactly (numbers keep their text), minify, sort keys.

Parsing goes through :mod:`workbench.jsontext` with every number kept as an ``orjson.Fragment``
of its token, so ``1.10``, ``1e400``, ``-0.0`` and ``12345678901234567890123`` are written back
byte for byte; the one writer (:mod:`workbench.jsontext.write`) writes the tree (measured: ~30 ms for 20 MB).  Strings are re-encoded
canonically (UTF-8, non-ASCII kept as is, only the escapes JSON requires).
"""

from __future__ import annotations

from typing import Any

import orjson

from ..errors import bad_request
from ..fields import Field, Fields
from ..jsontext import ORJSON_MAX_DEPTH, check_depth, dumps_tree, parse, plain_dumps
from ..limits import DEFAULT_MAX_DEPTH


REQUEST = Fields(
    Field("text", required=True, text=True),
    Field("indent", object, default=2, what='0 (minify), 1 to 8 spaces, or "tab"',
          schema={"oneOf": [{"type": "integer", "minimum": 0, "maximum": 8},
                            {"type": "string", "enum": ["tab"]}]}),
    Field("sort_keys", bool, default=False),
)


def check_indent(indent: Any) -> int | str:
    if indent == "tab" or indent == "\t":
        return "tab"
    if isinstance(indent, bool) or not isinstance(indent, int) or not 0 <= indent <= 8:
        raise bad_request("'indent' must be 0 (minify), 1 to 8 spaces, or \"tab\"", field="indent",
                          code="bad_option")
    return indent


def format_text(text: str, indent: Any = 2, sort_keys: bool = False, *,
                max_depth: int = DEFAULT_MAX_DEPTH, field: str = "text") -> dict:
    """Format ``text``; returns ``{"formatted", "warnings", "stats"}``."""
    indent = check_indent(indent)
    if not isinstance(sort_keys, bool):
        raise bad_request("'sort_keys' must be true or false", field="sort_keys", code="bad_option")
    parsed = parse(text, field=field, max_depth=max_depth, numbers="fragment", check_depth=False)
    if max_depth < ORJSON_MAX_DEPTH:
        check_depth(parsed, max_depth, field)
    try:
        # orjson refuses trees deeper than it writes, so success also proves depth <= its limit
        formatted = dumps_tree(parsed.value, indent, sort_keys)
    except (orjson.JSONEncodeError, TypeError):
        check_depth(parsed, max_depth, field)
        # lone surrogates in strings, or deeper than orjson writes: the plain writer
        tree = parse(text, field=field, max_depth=max_depth, numbers="text", warnings=False).value
        formatted = plain_dumps(tree, indent, sort_keys)
    return {"formatted": formatted, "warnings": parsed.warnings,
            "stats": {"chars_in": len(text), "chars_out": len(formatted),
                      "lines_out": formatted.count("\n") + 1}}


def handle(body: dict, limits) -> dict:
    """``POST /api/format``: ``text``, ``indent`` (default 2), ``sort_keys`` (default false)."""
    v = REQUEST.read(body)
    return format_text(v["text"], v["indent"], v["sort_keys"], max_depth=limits.max_depth)
