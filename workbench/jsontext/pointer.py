"""JSON Pointer (RFC 6901) and RFC 9535 normalized paths: the one place both are written."""

from __future__ import annotations

from collections.abc import Iterable


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


_TOKENS: dict = {}     # name → "/" + its escaped token (at most 100,000 names)
_SEGMENTS: dict = {}   # name → "['name']" written as a normalized path writes it


def pointer_of(parts: Iterable[str | int]) -> str:
    """RFC 6901 pointer of path parts, e.g. ``/data/0/agent_id``.  Names are escaped once and
    remembered: Extract writes a pointer for each of up to a million rows."""
    token = _TOKENS.get
    return "".join([f"/{p}" if type(p) is int else (token(p) or _token(p)) for p in parts])


def _token(part) -> str:
    token = "/" + escape_token(str(part))
    if type(part) is str and len(_TOKENS) < 100_000:
        _TOKENS[part] = token
    return token


def split_pointer(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"JSON Pointer must start with '/': {pointer!r}")
    if "~" not in pointer:      # nothing escaped (the common case): the tokens as they are
        return pointer[1:].split("/")
    return [unescape_token(t) for t in pointer[1:].split("/")]


def normalized_path(parts: Iterable[str | int]) -> str:
    """RFC 9535 normalized path, e.g. ``$['data'][0]['agent_id']``."""
    segment = _SEGMENTS.get
    return "$" + "".join([f"[{p}]" if type(p) is int else (segment(p) or _segment(p)) for p in parts])


def _segment(part) -> str:
    if isinstance(part, int):  # an int subclass
        return f"[{part}]"
    seg = "['" + _escape_normalized(part) + "']"
    if type(part) is str and len(_SEGMENTS) < 100_000:
        _SEGMENTS[part] = seg
    return seg


def _escape_normalized(name: str) -> str:
    res = []
    for ch in name:
        if ch == "\\":
            res.append("\\\\")
        elif ch == "'":
            res.append("\\'")
        elif ch in "\b\f\n\r\t":
            res.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif ord(ch) < 0x20:
            res.append(f"\\u{ord(ch):04x}")
        else:
            res.append(ch)
    return "".join(res)


