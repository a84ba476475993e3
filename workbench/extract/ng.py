"""The jsonpath-ng engine (``engine: "jsonpath-ng"``): its ``ext`` parser, for people who rely on
its extensions.  It is *not* RFC 9535 (it accepts many invalid selectors and misreads some valid
ones); responses say so.  It runs on a float view of the document (what its users feed it);
the values and texts returned are still taken from the document exactly.
"""

from __future__ import annotations

import re

from jsonpath_ng.ext import parse as ng_parse
from jsonpath_ng.ext.string import Sub
from jsonpath_ng.jsonpath import Fields, Index, Root, This

from ..errors import WorkbenchError
from .bounds import check_path_bounds
from .messages import path_error


def compile_ng(path: str):
    check_path_bounds(path)
    try:
        query = ng_parse(path)
    except RecursionError:
        raise path_error(path, None, "The expression is nested too deeply") from None
    except Exception as exc:  # JsonPathLexerError, JsonPathParserError and plain errors
        message = str(exc)
        offset = None
        # "Parse error at 1:4 near token b" or "Error on line 1, col 4: ...": 0-based columns
        m = re.search(r"\bat (\d+):(\d+)", message) or re.search(r"line (\d+), col (\d+)", message)
        if m:
            line, col = int(m.group(1)), int(m.group(2))
            lines = path.split("\n")
            offset = sum(len(x) + 1 for x in lines[:line - 1]) + col
            offset = min(max(offset, 0), len(path))
        message = f"jsonpath-ng: {message}"[:500]
        if offset is not None and offset < len(path) and not path[offset].isascii():
            message += (". jsonpath-ng reads dot names of ASCII letters (and CJK U+4E00–U+9FA5) "
                        "only: write ['name'], or use the RFC 9535 engine, which reads every name")
        raise path_error(path, offset, message) from None
    if _ng_uses_regex(query):
        # jsonpath-ng runs these with Python's re, in C, where no time limit can stop them
        at = max(path.find("=~"), path.find("`sub("))
        raise path_error(path, at if at >= 0 else None,
                         "Regular expressions (=~, `sub()`) are not run with the jsonpath-ng engine "
                         "here: they cannot be time-limited. Use match() or search() with the "
                         "RFC 9535 engine, which are time-limited") from None
    return query


def _ng_uses_regex(query) -> bool:
    """Whether a parsed jsonpath-ng expression contains ``=~`` or `` `sub(...)` ``."""
    stack, seen = [query], 0
    while stack and seen < 10_000:
        node = stack.pop()
        seen += 1
        if isinstance(node, Sub) or getattr(node, "op", None) == "=~":
            return True
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif type(node).__module__.startswith("jsonpath_ng"):
            stack.extend(v for v in vars(node).values() if not isinstance(v, (str, int, float)))
    return False


def ng_parts(match, root) -> list | None:
    """The location of a jsonpath-ng match as path parts, or None when the match is a
    computed value (``len``, arithmetic, ``sorted``...) that is not in the document."""
    chain = []
    datum = match
    while datum is not None:
        chain.append(datum.path)
        datum = datum.context
    parts: list = []
    here = root
    for step in reversed(chain):
        if isinstance(step, (Root, This)):
            continue
        if isinstance(step, Fields) and len(step.fields) == 1:
            key = step.fields[0]
            if not isinstance(here, dict) or key not in here:
                return None
            parts.append(key)
            here = here[key]
        elif isinstance(step, Index) and len(_indices(step)) == 1:
            i = _indices(step)[0]
            if not isinstance(here, list) or not -len(here) <= i < len(here):
                return None
            i = i % len(here)
            parts.append(i)
            here = here[i]
        else:
            return None
    # a computed value (`split`, `str()`...) may sit on a chain that ends in a real node
    return parts if here is match.value else None


def _indices(step) -> list:
    indices = getattr(step, "indices", None)
    if indices is None:
        indices = [getattr(step, "index", None)]
    return [i for i in indices if isinstance(i, int)]


def ng_int(token: str):
    return int(token) if len(token) < 4000 else float(token)


def run_ng(query, value, limit: int):
    try:
        found = query.find(value)
    except RecursionError:
        raise WorkbenchError("too_deep", "The document is nested too deeply for jsonpath-ng",
                             field="document") from None
    except Exception as exc:
        # jsonpath-ng raises plain Python errors for some queries (e.g. arithmetic on strings)
        raise WorkbenchError("path_error", f"jsonpath-ng could not run this query: "
                             f"{type(exc).__name__}: {str(exc)[:300]}", field="path") from None
    kept = []
    for m in found[:limit]:
        parts = ng_parts(m, value)
        kept.append(tuple(parts) if parts is not None else Computed(m.value))
    return len(found), kept


class Computed:
    """A jsonpath-ng result that is not a node of the document (``len``, arithmetic...)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value
