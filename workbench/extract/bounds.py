"""The size of a JSONPath, bounded before either engine reads it.

Both engines nest a generator or a call per segment and their parsers recurse per level of
brackets, parentheses and operators; tens of thousands of them overflowed the C stack (the
process died) or ran into Python's recursion limit (blamed on the document).  One scan of the
text, which never recurses, counts the segments (:data:`~workbench.limits.PATH_MAX_SEGMENTS`)
and the nesting (:data:`~workbench.limits.PATH_MAX_NESTING`) and refuses the path at the place
the bound is passed: 422 ``path_syntax`` on ``path`` with its column.
"""

from __future__ import annotations

import re

from ..limits import PATH_MAX_NESTING, PATH_MAX_SEGMENTS
from .messages import path_error


def _refused(path: str, at: int, message: str, limit: int):
    # without the caret snippet: the place is said, and the command line prints one line
    error = path_error(path, at, message, limit=limit)
    error.extra.pop("snippet", None)
    return error

# string literals (skipped whole, even unterminated: the parser says so), a number's decimal
# point, and the tokens that make a segment or a level; jsonpath-ng's `where`/`wherenot`
# chains and its single `&`/`|` nest the same way
_TOKENS = re.compile(r"""(?P<skip>'[^'\\]*(?:\\.[^'\\]*)*'?|"[^"\\]*(?:\\.[^"\\]*)*"?"""
                     r"""|(?<=\d)\.(?=\d)|!=)|\.\.|\.|[\[\]()]|!|&&?|\|\|?|\bwhere(?:not)?\b""",
                     re.S)
_OPEN, _CLOSE, _CHAIN = "[(", "])", "!&|"


def check_path_bounds(path: str) -> None:
    """Raise the ``path_syntax`` error where ``path`` passes a bound; nothing otherwise."""
    segments = depth = 0
    chained: list[int] = []  # per open bracket or parenthesis: the `!`, `&&`, `||` inside it
    after_descent = -1  # where the last `..` ended: a `[` right there is the same segment
    for m in _TOKENS.finditer(path):
        if m.lastgroup == "skip":
            continue
        token, at = m.group(), m.start()
        first = token[0]
        if first == "." or first == "w" or (first == "[" and at != after_descent):
            segments += 1
            if segments > PATH_MAX_SEGMENTS:
                raise _refused(path, at, f"The path has more than {PATH_MAX_SEGMENTS} segments",
                               PATH_MAX_SEGMENTS)
            if token == "..":
                after_descent = m.end()
        if first in _CLOSE:
            if chained:
                depth -= 1 + chained.pop()
            continue
        if first in _OPEN:
            chained.append(0)
        elif first in _CHAIN and chained:
            chained[-1] += 1
        else:
            continue
        depth += 1
        if depth > PATH_MAX_NESTING:
            raise _refused(path, at, f"The path is nested more than {PATH_MAX_NESTING} levels "
                           "deep (brackets, parentheses, '!', '&&' and '||' chains)",
                           PATH_MAX_NESTING)
