"""The Format view: re-indent or minify a document exactly, sorted keys on request."""

from .core import check_indent, format_text

__all__ = ["REQUEST", "format_text", "check_indent", "handle", "written_answer"]


def __getattr__(name: str):
    # the request (its fields and the work deadline) is read when first asked for: the command
    # line calls format_text alone, and starts without it (issue 25)
    if name in ("REQUEST", "handle", "written_answer"):
        from . import request
        globals().update(REQUEST=request.REQUEST, handle=request.handle, written_answer=request.written_answer)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
