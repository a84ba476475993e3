"""Warnings about valid JSON that readers disagree on: duplicate keys (with both places), lone
surrogate escapes, integers beyond ±(2^53−1).  Each is ``{code, message, pointer, line, column}``."""

from __future__ import annotations

import bisect
import json
import re

from .pointer import pointer_of
from .positions import LineIndex, walk

JS_SAFE_INTEGER = 2**53 - 1
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def find_warnings(text: str, duplicate_keys: list[str], long_int_tokens: list[str],
              lines: LineIndex) -> list[dict]:
    found: list[tuple[int, dict]] = []
    dup_keys_check = bool(duplicate_keys)
    surrogates = [m.start() for m in _SURROGATE_ESCAPE.finditer(text)]
    unsafe = {t for t in long_int_tokens if len(t) > 4000 or abs(int(t)) > JS_SAFE_INTEGER}
    long_ints = _occurrences(text, unsafe)
    if not (dup_keys_check or surrogates or long_ints):
        return []
    key_offsets = _occurrences(text, {s for k in set(duplicate_keys)
                                      for s in (json.dumps(k, ensure_ascii=False), json.dumps(k))}
                               ) if dup_keys_check else []
    interesting = sorted(set(key_offsets) | set(surrogates) | set(long_ints))

    def where(offset):
        line, column = lines.line_col(offset)
        return {"line": line, "column": column, "offset": offset}

    def visit(kind, parts, start, end, extra):
        if kind == "duplicate":
            first, second = where(start), where(end)
            found.append((end, {
                "code": "duplicate_key",
                "message": f"Duplicate key {json.dumps(extra, ensure_ascii=False)}: most parsers "
                           "keep only the last value, some the first",
                "pointer": pointer_of(parts), "key": extra, **second,
                "first": first, "second": second}))
        elif kind == "string" and surrogates:
            k = bisect.bisect_left(surrogates, start)
            if k < len(surrogates) and surrogates[k] < end:
                value = json.loads(text[start:end])
                for idx, c in enumerate(value):
                    o = ord(c)
                    if 0xD800 <= o <= 0xDFFF:
                        found.append((start, {
                            "code": "lone_surrogate",
                            "message": f"The string holds the lone surrogate \\u{o:04x}: it is not a "
                                       "character and many tools reject or replace it",
                            "pointer": pointer_of(parts), **where(start)}))
                        break
        elif kind == "number" and long_ints:
            token = text[start:end]
            if re.fullmatch(r"-?\d+", token) and abs(int(token) if len(token) < 4000 else 2**60) > JS_SAFE_INTEGER:
                found.append((start, {
                    "code": "unsafe_integer",
                    "message": f"The integer {token if len(token) < 40 else token[:37] + '…'} is "
                               "beyond ±(2^53−1): JavaScript and many JSON tools will round it",
                    "pointer": pointer_of(parts), **where(start)}))

    try:
        walk(text, interesting, visit)
    except RecursionError:
        # nesting near Python's own limit (a caller that checks depth later): the positions
        # cannot be walked; say what was found, without places
        return [{"code": "duplicate_key" if dup_keys_check else "unsafe_integer" if unsafe else
                 "lone_surrogate", "pointer": "", "message": "The document nests too deeply to "
                 "place its warnings (duplicate keys, lone surrogates or unsafe integers)"}]
    if dup_keys_check and sum(w["code"] == "duplicate_key" for _, w in found) < len(duplicate_keys):
        # a key written with escapes was not found by its plain spelling: walk every object
        found.clear()
        walk(text, sorted(set(m.start() for m in re.finditer(r"\{", text)) | set(surrogates)
                           | set(long_ints)), visit)
    found.sort(key=lambda t: t[0])
    return [w for _, w in found]


def _occurrences(text: str, needles: set[str]) -> list[int]:
    """Offsets of every occurrence of the given strings (candidates for the walker)."""
    offsets: list[int] = []
    for needle in needles:
        start = text.find(needle)
        while start != -1:
            offsets.append(start)
            start = text.find(needle, start + 1)
    return offsets
