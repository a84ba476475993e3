"""Plain messages for what is wrong in a text that is not JSON: what was expected, what was
found, and where (every error a :class:`WorkbenchError` placed by :func:`error_at`)."""

from __future__ import annotations

import json
import re

from ..errors import WorkbenchError
from .positions import error_at

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_BRACKET_OR_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.S)
_scanstring = json.decoder.scanstring


def too_deep(text: str, max_depth: int, field) -> WorkbenchError:
    depth = 0
    for m in _BRACKET_OR_STRING.finditer(text):
        ch = m.group()[0]
        if ch == "[" or ch == "{":
            depth += 1
            if depth > max_depth:
                return error_at(text, m.start(), "too_deep",
                                f"Nesting is deeper than the limit of {max_depth} levels "
                                "(objects and arrays inside each other)", field=field,
                                limit=max_depth)
        elif ch == "]" or ch == "}":
            depth -= 1
    return WorkbenchError("too_deep", f"Nesting is deeper than the limit of {max_depth} levels",
                          field=field, limit=max_depth)


def exponent_error(text: str, field) -> WorkbenchError:
    """A valid number whose exponent no exact decimal can hold (e.g. ``1e`` + 200 digits)."""
    m = _HUGE_EXPONENT.search(text)
    message = ("This number's exponent is too large to compare or validate exactly (Format "
               "still keeps it as written)")
    if m:
        return error_at(text, m.start(), "number_too_large", message, field=field)
    return WorkbenchError("number_too_large", message, field=field)


_HUGE_EXPONENT = re.compile(r"-?\d+(?:\.\d+)?[eE][+-]?\d{18,}")


def constant_error(text: str, name: str, field) -> WorkbenchError:
    # find the first occurrence of the constant outside a string
    for m in re.finditer(r"-?(?:NaN|Infinity)", text):
        prefix = _STRING.sub("", text[:m.start()])
        if prefix.count('"') == 0:
            return error_at(text, m.start(), "parse_error",
                            f"{m.group()} is not valid JSON: JSON numbers must be finite "
                            "(write null or a string instead)", field=field)
    return WorkbenchError("parse_error", f"{name} is not valid JSON", field=field)



def _open_containers(prefix: str) -> str:
    """The stack of containers still open at the end of ``prefix`` (e.g. ``'{['``)."""
    stripped = _STRING.sub("", prefix)
    brackets = _NOT_BRACKET.sub("", stripped)
    while True:
        reduced = brackets.replace("[]", "").replace("{}", "")
        if reduced == brackets:
            return reduced
        brackets = reduced


_NOT_BRACKET = re.compile(r"[^\[\]{}]+")

_LITERAL_HINTS = {"True": "true", "False": "false", "None": "null", "TRUE": "true",
                  "FALSE": "false", "NULL": "null", "Null": "null", "undefined": "null"}


def _previous_char(text: str, pos: int) -> tuple[str, int]:
    j = pos - 1
    while j >= 0 and text[j] in " \t\r\n":
        j -= 1
    return (text[j], j) if j >= 0 else ("", -1)


def _last_key(text: str, pos: int) -> str | None:
    m = re.search(r'"((?:[^"\\]|\\.)*)"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[-\w.+]+)\s*$', text[max(0, pos - 2000):pos])
    if not m:
        return None
    try:
        return json.loads('"' + m.group(1) + '"')
    except ValueError:
        return None


def _found(text: str, pos: int) -> str:
    """What stands at ``pos``, in words: a string is quoted whole (cut when long)."""
    ch = text[pos:pos + 1]
    if ch == '"':
        try:
            value, _ = _scanstring(text, pos + 1)
        except ValueError:
            return "'\"'"
        shown = value if len(value) <= 40 else value[:37] + "…"
        return "the string " + json.dumps(shown, ensure_ascii=False)
    return _describe(ch)


def _describe(ch: str) -> str:
    if ch == "":
        return "the end of the input"
    if ch == "\n":
        return "a line break"
    if ord(ch) < 0x20:
        return f"control character U+{ord(ch):04X}"
    return repr(ch) if ch != "'" else '"\'"'


def diagnose(text: str, exc: json.JSONDecodeError, field) -> WorkbenchError:
    pos = exc.pos
    msg = exc.msg
    ch = text[pos:pos + 1]
    prev, prev_at = _previous_char(text, pos)

    def err(message, at=pos):
        return error_at(text, at, "parse_error", message, field=field)

    if msg.startswith("Unterminated string"):
        return err("This string is never closed: a '\"' is missing at its end")
    if msg.startswith("Invalid control character"):
        names = {"\n": "a line break (write \\n)", "\t": "a tab (write \\t)", "\r": "a carriage return (write \\r)"}
        what = names.get(ch, f"control character U+{ord(ch):04X} (write \\u{ord(ch):04x})" if ch else "a control character")
        return err(f"A string may not contain {what} unescaped")
    if msg.startswith("Invalid \\uXXXX"):
        return err("Invalid \\u escape: it needs exactly four hex digits")
    if msg.startswith("Invalid \\escape"):
        bad = text[pos:pos + 2]
        return err(f"Invalid escape {bad!r} in a string: allowed are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
    if msg.startswith("Extra data"):
        return err(f"Unexpected {_describe(ch)} after the end of the JSON value: a document holds "
                   "exactly one value (for one value per line, use JSON Lines)")
    if ch == "" and msg != "Extra data":
        if not text.strip():
            return err("The input is empty: expected a JSON value")
        return err("Unexpected end of the input: the document stops before it is complete")
    if ch == "/":
        return err("Comments are not allowed in JSON")
    if ch == "'":
        return err("Strings and keys must use double quotes (\"), not single quotes")
    if msg.startswith("Expecting value"):
        if ch in "]}" and prev == ",":
            return err(f"Trailing comma: JSON does not allow ',' before {ch!r}", at=prev_at)
        word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[pos:pos + 40])
        if word:
            w = word.group()
            if w in ("NaN", "Infinity"):
                return err(f"{w} is not valid JSON: numbers must be finite (write null or a string)")
            if w in _LITERAL_HINTS:
                return err(f"'{w}' is not JSON: write {_LITERAL_HINTS[w]}")
            return err(f"Unexpected word '{w}': expected a value (a string in double quotes, a "
                       "number, an object, an array, true, false or null)")
        if ch == "-" or ch == "+" or ch == ".":
            return err("Invalid number: a number starts with '-' or a digit and has digits on "
                       "both sides of '.' (e.g. 0.5, -1, 2e10)")
        if ch == ",":
            return err("Expected a value before ','")
        return err(f"Unexpected {_describe(ch)}: expected a value")
    if msg.startswith("Expecting property name"):
        if ch == "}" and prev == ",":
            return err("Trailing comma: JSON does not allow ',' before '}'", at=prev_at)
        return err(f"Expected a key in double quotes, found {_describe(ch)}")
    if msg.startswith("Expecting ':'"):
        return err(f"Expected ':' after the key, found {_found(text, pos)}")
    if msg.startswith("Expecting ',' delimiter"):
        number_fault = _number_fault(text, pos, field)
        if number_fault:
            return number_fault
        stack = _open_containers(text[:pos])
        inner = stack[-1:] or "?"
        if inner == "{":
            key = _last_key(text, pos)
            after = f"the value of {json.dumps(key, ensure_ascii=False)}" if key is not None else "a member"
            return err(f"Expected ',' or '}}' after {after}, found {_found(text, pos)}")
        return err(f"Expected ',' or ']' after an array item, found {_found(text, pos)}")
    return err(msg)


def _number_fault(text: str, pos: int, field) -> WorkbenchError | None:
    m = re.search(r"-?\d[\d.eE+-]*$", text[max(0, pos - 400):pos])
    if not m:
        return None
    tail = re.match(r"[\d.eE+-]*", text[pos:pos + 400]).group()
    if not tail:
        return None
    token = m.group() + tail
    start = pos - len(m.group())
    if re.match(r"-?0\d", token):
        why = "leading zeros are not allowed"
    elif re.search(r"\.(?!\d)", token):
        why = "a digit must follow the decimal point"
    elif re.search(r"[eE][+-]?(?!\d)", token):
        why = "the exponent needs digits"
    else:
        why = "it is not a JSON number"
    return error_at(text, start, "parse_error", f"Invalid number {token!r}: {why}", field=field)


