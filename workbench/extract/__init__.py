"""The Extract view: RFC 9535 JSONPath (and jsonpath-ng, labelled) with the normalized path,
JSON Pointer, exact text and line of every match.

core (handle, REQUEST, extract) · rfc9535 (the engine adapter: lexer, parser, environment) ·
filters (exact comparisons, fast predicates) · fastpath (common shapes on the tree) ·
ng (jsonpath-ng) · locate (where matches are in the text) · rows (the response rows) ·
pieces (a JSON Lines log queried a piece at a time) · bounds (the path's size) ·
messages (the path_syntax error)."""

from .core import ENGINES, REQUEST, extract, handle
from .locate import locate_rows
from .rfc9535 import compile_rfc9535, run_rfc9535

__all__ = ["REQUEST", "handle", "extract", "ENGINES", "compile_rfc9535", "run_rfc9535", "locate_rows"]
