"""The Extract view: RFC 9535 JSONPath (and jsonpath-ng, labelled) with the normalized path,
JSON Pointer, exact text and line of every match."""

from .core import REQUEST, ENGINES, compile_rfc9535, handle, locate_rows, run_rfc9535

__all__ = ["REQUEST", "handle", "ENGINES", "compile_rfc9535", "run_rfc9535", "locate_rows"]
