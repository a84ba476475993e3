"""Formatting: re-indent a document exactly (numbers keep their text), minify, sort keys.

Parsing goes through :mod:`workbench.jsontext` with every number kept as an ``orjson.Fragment``
of its token, so ``1.10``, ``1e400``, ``-0.0`` and ``12345678901234567890123`` are written back
byte for byte; the one writer (:mod:`workbench.jsontext.write`) writes the tree (measured: ~30 ms for 20 MB).  Strings are re-encoded
canonically (UTF-8, non-ASCII kept as is, only the escapes JSON requires).
"""

from __future__ import annotations

from ..errors import WorkbenchError, bad_request
from ..jsontext import ORJSON_MAX_DEPTH, check_depth, dumps_tree, parse, plain_dumps
from ..limits import DEFAULT_MAX_DEPTH, FORMAT_MAX_WARNINGS
from ..runtime.memory import collector_paused


def check_indent(indent: object) -> int | str:
    if indent == "tab" or indent == "\t":
        return "tab"
    if isinstance(indent, bool) or not isinstance(indent, int) or not 0 <= indent <= 8:
        raise bad_request("'indent' must be 0 (minify), 1 to 8 spaces, or \"tab\"", field="indent",
                          code="bad_option")
    return indent


def format_text(text: str, indent: object = 2, sort_keys: bool = False, *,
                max_depth: int = DEFAULT_MAX_DEPTH, field: str = "text",
                as_bytes: bool = False) -> dict:
    """Format ``text``; returns ``{"formatted", "warnings", "warning_count", "truncated",
    "stats"}`` (the first FORMAT_MAX_WARNINGS warnings listed, the count has all; ``as_bytes``: the
    formatted text as UTF-8 bytes, for the command line; ``stats`` then counts bytes out).

    Every member of an object is kept, a repeated key too (in place; also with ``sort_keys``,
    where the copies stay in their order) and warned about.  Text that is JSON Lines (two or
    more lines, each a value) is formatted value by value — the answer then says
    ``jsonl: true`` and ``lines`` (how many values), and minified output keeps one value per
    line.  A pasted Server-Sent Events stream is a ``parse_error`` with ``hint: "sse_stream"``
    that names the Gate."""
    indent = check_indent(indent)
    if not isinstance(sort_keys, bool):
        raise bad_request("'sort_keys' must be true or false", field="sort_keys", code="bad_option")
    # the collector paused for the whole call, as the other views do (runtime.collector_paused):
    # resumed after the parse, its passes walked the whole tree while it was written (measured
    # on 80 MB: 3.17 -> 2.53 s CPU; the tree is gone by the time it runs again)
    with collector_paused():
        return _format_text(text, indent, sort_keys, max_depth, field, as_bytes)


def _format_text(text, indent, sort_keys: bool, max_depth: int, field: str, as_bytes: bool) -> dict:
    try:
        parsed = parse(text, field=field, max_depth=max_depth, numbers=_numbers(text),
                       check_depth=False, keep_duplicates=True, warning_limit=FORMAT_MAX_WARNINGS)
    except WorkbenchError as exc:
        if exc.code != "parse_error" or not isinstance(text, str):
            raise
        from ..jsontext import lines as jsonl  # (text that is not one value: read only then)
        at = jsonl.looks_like_sse(text)
        if at is not None:
            raise jsonl.sse_error(text, at, field, exc.message) from None
        if not _first_line_is_a_value(text, max_depth, field):
            raise
        return _format_lines(text, indent, sort_keys, max_depth, field, as_bytes)
    formatted = _write(parsed, text, indent, sort_keys, max_depth, field, as_bytes=as_bytes,
                       plain=_numbers(text) == "text")
    return {"formatted": formatted, "warnings": parsed.warnings, **counted(parsed),
            "stats": stats(text, formatted)}


#: texts up to this many characters are written by the plain writer (numbers kept as their text):
#: the same bytes as orjson's (tests/unit/test_format_fast.py), and a small document is formatted
#: without importing orjson, whose import is most of a command's start-up (issue 25)
PLAIN_MAX_CHARS = 32_000


def _numbers(text) -> str:
    """How the parser keeps numbers for the writer: as text for the plain writer (a small
    document), else as ``orjson.Fragment``."""
    return "text" if isinstance(text, str) and len(text) <= PLAIN_MAX_CHARS else "fragment"


def json_string_of(formatted: bytes):
    """The JSON string holding the written ``formatted`` text (UTF-8), as an ``orjson.Fragment``
    to embed in an answer: the bytes orjson writes for the same text as a ``str``.  Written text
    holds no control character but its newlines and tabs (a string's are escaped), so escaping
    the backslash, the quote, the newline and the tab is all there is to do (in C)."""
    from orjson import Fragment
    return Fragment(b'"' + formatted.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
                    .replace(b"\n", b"\\n").replace(b"\t", b"\\t") + b'"')


def counted(parsed) -> dict:
    """``warning_count`` (all the warnings) and ``truncated`` (only the first
    FORMAT_MAX_WARNINGS are listed)."""
    return {"warning_count": parsed.warning_count,
            "truncated": parsed.warning_count > len(parsed.warnings)}


def stats(text: str, formatted) -> dict:
    """``chars_in``, ``chars_out`` (``bytes_out`` for bytes) and ``lines_out``."""
    nl = b"\n" if isinstance(formatted, bytes) else "\n"
    return {"chars_in": len(text),
            "bytes_out" if isinstance(formatted, bytes) else "chars_out": len(formatted),
            "lines_out": formatted.count(nl) + 1}


def _write(parsed, text: str, indent, sort_keys: bool, max_depth: int, field: str,
           values=None, *, as_bytes: bool = False, plain: bool = False):
    """The formatted text of ``parsed`` (or of each of ``values``, one per line: ``parsed`` is
    then their array, and ``max_depth`` counts it)."""
    mark = parsed.duplicate_mark
    if plain:   # a small document (its numbers kept as text): the plain writer
        check_depth(parsed, max_depth, field)
        if values is None:
            out = plain_dumps(parsed.value, indent, sort_keys, mark)
        else:
            out = "\n".join([plain_dumps(v, indent, sort_keys, mark) for v in values])
        return out.encode("utf-8") if as_bytes else out
    # orjson refuses trees deeper than it writes: its success proves the depth of what it
    # wrote (the lines' values are one level inside the array)
    if max_depth - (values is not None) < ORJSON_MAX_DEPTH:
        check_depth(parsed, max_depth, field)
    try:
        if values is None:
            return dumps_tree(parsed.value, indent, sort_keys, mark, as_bytes=as_bytes)
        return ("\n" if not as_bytes else b"\n").join(
            [dumps_tree(v, indent, sort_keys, mark, as_bytes=as_bytes) for v in values])
    except TypeError:  # (orjson.JSONEncodeError is one)
        check_depth(parsed, max_depth, field)
        # lone surrogates in strings, or deeper than orjson writes: the plain writer
        tree = parse(text, field=field, max_depth=max_depth + (values is not None),
                     numbers="text", warnings=False, keep_duplicates=True)
        if values is None:
            out = plain_dumps(tree.value, indent, sort_keys, tree.duplicate_mark)
        else:
            out = "\n".join([plain_dumps(v, indent, sort_keys, tree.duplicate_mark)
                             for v in tree.value])
        return out.encode("utf-8") if as_bytes else out


def _first_line_is_a_value(text: str, max_depth: int, field: str) -> bool:
    """Two or more non-blank lines, and the first one is a JSON value by itself: then the text is
    taken for JSON Lines, and a fault is reported at its own line."""
    from ..jsontext import lines as jsonl
    lines = jsonl.value_lines(text)
    first, second = next(lines, None), next(lines, None)
    if first is None or second is None:
        return False
    try:
        parse(text[first[1]:first[2]], field=field, max_depth=max_depth, warnings=False)
    except WorkbenchError:
        return False
    return True


def _format_lines(text: str, indent, sort_keys: bool, max_depth: int, field: str,
                  as_bytes: bool = False) -> dict:
    from ..jsontext import lines as jsonl
    log = jsonl.read_json_lines(text, max_depth=max_depth, forced=True, field=field,
                                numbers=_numbers(text), check_depth=False, keep_duplicates=True,
                                warning_limit=FORMAT_MAX_WARNINGS)
    parsed, values = log.parsed, log.values
    formatted = _write(parsed, log.array_text, indent, sort_keys, max_depth + 1, field, values,
                       as_bytes=as_bytes, plain=_numbers(text) == "text")
    return {"formatted": formatted, "warnings": [_record(w) for w in parsed.warnings],
            **counted(parsed),
            "jsonl": True, "lines": len(values), "stats": stats(text, formatted)}


def _record(warning: dict) -> dict:
    """A warning of one line's value: ``record`` is the value's number (1-based) and the
    pointer is inside that value."""
    ptr = warning.get("pointer") or ""
    head, _, rest = ptr[1:].partition("/")
    if ptr.startswith("/") and head.isdigit():
        warning["record"] = int(head) + 1
        warning["pointer"] = "/" + rest if rest else ""
    return warning
