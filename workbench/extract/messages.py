"""The one ``path_syntax`` error of both engines, and the library's messages in plain words."""

from __future__ import annotations

import re

from ..errors import WorkbenchError
from ..jsontext import error_at

_TOKEN_WORDS = {
    "EOF": "the end of the expression", "RBRACKET": "']'", "LBRACKET": "'['", "RPAREN": "')'",
    "LPAREN": "'('", "COMMA": "','", "COLON": "':'", "DOT": "'.'", "DOUBLE_DOT": "'..'",
    "ROOT": "'$'", "CURRENT": "'@'", "WILD": "'*'", "FILTER": "'?'", "EQ": "'=='", "NE": "'!='",
    "LT": "'<'", "LE": "'<='", "GT": "'>'", "GE": "'>='", "AND": "'&&'", "OR": "'||'",
    "NOT": "'!'", "INT": "a number", "FLOAT": "a number", "INDEX": "an index",
    "PROPERTY": "a name", "SHORTHAND_PROPERTY": "a name", "FUNCTION": "a function",
    "DOUBLE_QUOTE_STRING": "a string", "SINGLE_QUOTE_STRING": "a string", "TRUE": "true",
    "FALSE": "false", "NULL": "null",
}


def tidy(message: str) -> str:
    """A jsonpath-rfc9535 message with its token names (``TokenType.RBRACKET``) in words."""
    message = re.sub(r"<TokenType\.(\w+): \d+>", lambda m: _TOKEN_WORDS.get(m.group(1), m.group(1)),
                     message)
    message = re.sub(r"'([A-Z_]+)'", lambda m: _TOKEN_WORDS.get(m.group(1), m.group(0)), message)
    message = re.sub(r"\b(found|expected) ([A-Z_]{2,})\b",
                     lambda m: f"{m.group(1)} {_TOKEN_WORDS.get(m.group(2), m.group(2))}", message)
    return message[:1].upper() + message[1:]


def path_error(path: str, offset: int | None, message: str, **extra) -> WorkbenchError:
    """A 422 ``path_syntax`` error pointing at ``offset`` (0-based) in the expression."""
    if offset is None or offset < 0 or offset > len(path):
        offset = len(path)
    return error_at(path, offset, "path_syntax", message, field="path", **extra)
