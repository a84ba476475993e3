"""The one exact JSON writer: every answer, formatted document and change text is written here.

Numbers are written as their text: trees parsed with ``numbers="fragment"`` carry each number
as an ``orjson.Fragment`` of its token and orjson writes them back byte for byte (~30 ms for
20 MB); ``Decimal`` is written as its text and integers of any size exactly.  Strings are
re-encoded canonically (UTF-8, non-ASCII kept, only the escapes JSON requires).  A pure-Python
writer takes what orjson refuses (lone surrogates, more than 254 levels, integers over 64 bits).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

from .parse import NumberText

# orjson is imported where it writes (its own import brings uuid, dataclasses, datetime…: most
# of a small command's start-up, issue 25); the plain writer below needs nothing


def dumps_tree(value: object, indent: int | str = 2, sort_keys: bool = False,
               duplicate_mark: str | None = None, *, as_bytes: bool = False) -> str | bytes:
    """Write a tree whose numbers are ``orjson.Fragment`` (or plain Python values) as JSON
    text with orjson.  Raises ``TypeError`` where orjson cannot (lone surrogates, depth > 254);
    :func:`plain_dumps` writes those.  ``duplicate_mark``: the tree was parsed with
    ``keep_duplicates`` (``Parsed.duplicate_mark``); every repeated key is written as itself.
    ``as_bytes``: UTF-8 bytes instead of ``str`` (the command line writes them as they are)."""
    import orjson
    option = orjson.OPT_SORT_KEYS if sort_keys else 0
    if indent == 0:
        out = orjson.dumps(value, option=option)
    else:
        out = orjson.dumps(value, option=option | orjson.OPT_INDENT_2)
        if indent != 2:
            unit = b"\t" if indent == "tab" else b" " * indent
            out = _REINDENT_B.sub(lambda m: b"\n" + unit * (len(m.group(1)) // 2), out)
    if duplicate_mark:
        out = strip_duplicate_marks(out, duplicate_mark)
    return out if as_bytes else out.decode()


def strip_duplicate_marks(out, mark: str | None):
    """The written text (``str`` or ``bytes``) with the tags of repeated keys (see
    ``parse(keep_duplicates=True)``) removed: ``"a\\u0000wbdup…000000001"`` is ``"a"`` again."""
    if not mark:
        return out
    tag = re.escape(encode_string(mark)[1:-1]) + r"[0-9]{9}"
    if isinstance(out, bytes):
        return re.sub(tag.encode(), b"", out)
    return re.sub(tag, "", out)


_REINDENT_B = re.compile(rb"\n( +)")
_SURROGATE = re.compile("[\ud800-\udfff]")


def encode_string(s: str) -> str:
    """JSON string literal, non-ASCII kept, lone surrogates written as \\uXXXX escapes."""
    out = json.dumps(s, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", out) if _SURROGATE.search(out) else out


def plain_dumps(value: object, indent: int | str = 0, sort_keys: bool = False,
                duplicate_mark: str | None = None, *, decimal=None) -> str:
    """Pure-Python writer for trees parsed with ``numbers="text"`` (any depth, any string), and
    for what orjson refuses elsewhere: ``decimal`` writes a ``Decimal`` (default: its text)."""
    if duplicate_mark:
        return strip_duplicate_marks(plain_dumps(value, indent, sort_keys, decimal=decimal),
                                     duplicate_mark)
    unit = "\t" if indent == "tab" else " " * indent if indent else ""
    out: list[str] = []
    nl = "\n" if unit else ""
    sep = ": " if unit else ":"
    decimal = decimal or _decimal_text

    # iterative writer: (value, depth) work items and literal strings
    stack: list = [(value, 0)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        v, depth = item
        if isinstance(v, dict):
            if not v:
                out.append("{}")
                continue
            keys = sorted(v) if sort_keys else list(v)
            out.append("{")
            work: list = []
            for n, k in enumerate(keys):
                work.append(nl + unit * (depth + 1) + encode_string(k) + sep)
                work.append((v[k], depth + 1))
                if n < len(keys) - 1:
                    work.append(",")
            work.append(nl + unit * depth + "}")
            stack.extend(reversed(work))
        elif isinstance(v, list):
            if not v:
                out.append("[]")
                continue
            out.append("[")
            work = []
            for n, c in enumerate(v):
                work.append(nl + unit * (depth + 1))
                work.append((c, depth + 1))
                if n < len(v) - 1:
                    work.append(",")
            work.append(nl + unit * depth + "]")
            stack.extend(reversed(work))
        else:
            out.append(scalar_text(v, decimal))
    return "".join(out)


def scalar_text(v: object, decimal=None) -> str:
    """The JSON text of a scalar: a number as its text (``decimal`` writes a ``Decimal``;
    default: its text), a string canonically encoded."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    t = type(v)
    if t is int:
        return int.__repr__(v)
    if t is Decimal:
        return (decimal or _decimal_text)(v)
    if isinstance(v, NumberText):
        return str.__str__(v)
    if t is bytes:  # the diff's mark of an ignored item (walk.IGN_ID) in a canonical text
        return str(v)
    return encode_string(v) if isinstance(v, str) else json.dumps(v)


ORJSON_SLACK = 4096  # orjson (3.13) hands back its whole write buffer: a 17-byte text holds 4 KB


def tight(out: bytes) -> bytes:
    """``out`` (an orjson text) in an allocation of its own size when it is short: orjson's
    result keeps its 4 KB buffer, so 200,000 canonical texts of small objects held 800 MB
    (the diff's item identities: 100,000 objects against their reverse peaked at 1.1 GB)."""
    return bytes(memoryview(out)) if len(out) < ORJSON_SLACK else out


def dumps_value(value: object) -> bytes:
    """Compact exact JSON (UTF-8 bytes) of a value tree: ``Decimal`` written as its text,
    integers of any size exact, ``orjson.Fragment`` embedded as is.  Used for API bodies."""
    import orjson
    try:
        return tight(orjson.dumps(value, default=_default))
    except orjson.JSONEncodeError:
        # integers beyond 64 bits or lone surrogates: the plain writer
        return plain_dumps(_to_text_numbers(value)).encode("utf-8")


def _default(obj):
    if isinstance(obj, Decimal):
        from orjson import Fragment
        return Fragment(_decimal_text(obj))
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"cannot write {type(obj).__name__} as JSON")


def _decimal_text(d: Decimal) -> str:
    if not d.is_finite():
        raise TypeError("non-finite number")
    return str(d)


def _to_text_numbers(value: object) -> object:
    if isinstance(value, dict):
        return {k: _to_text_numbers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_text_numbers(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return NumberText(str(value))
    if isinstance(value, Decimal):
        return NumberText(_decimal_text(value))
    if isinstance(value, float):
        return NumberText(repr(value))
    import orjson
    if isinstance(value, orjson.Fragment):
        return NumberText(orjson.dumps(value).decode())
    return value
