"""The Format view: re-indent or minify a document exactly, sorted keys on request."""

from .core import check_indent, format_text
from .request import REQUEST, handle

__all__ = ["REQUEST", "format_text", "check_indent", "handle"]
