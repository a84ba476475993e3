"""JSON Pointer (RFC 6901) and RFC 9535 normalized paths: the one place both are written."""

from __future__ import annotations

from typing import Iterable


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer_of(parts: Iterable[str | int]) -> str:
    return "".join("/" + escape_token(str(p)) for p in parts)


def split_pointer(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"JSON Pointer must start with '/': {pointer!r}")
    return [unescape_token(t) for t in pointer[1:].split("/")]


def normalized_path(parts: Iterable[str | int]) -> str:
    """RFC 9535 normalized path, e.g. ``$['data'][0]['agent_id']``."""
    out = ["$"]
    for p in parts:
        if isinstance(p, int):
            out.append(f"[{p}]")
        else:
            out.append("['" + _escape_normalized(p) + "']")
    return "".join(out)


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


