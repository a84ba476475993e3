"""The Format view: re-indent or minify a document exactly, sorted keys on request."""

from .core import check_indent, format_text

_REQUEST_NAMES = ("REQUEST", "handle", "respond", "written_answer")
__all__ = ["format_text", "check_indent", *_REQUEST_NAMES]


def __getattr__(name: str):
    # the request (its fields and the work deadline) is read when first asked for: the command
    # line calls format_text alone, and starts without it (issue 25)
    if name in _REQUEST_NAMES:
        from . import request
        globals().update({n: getattr(request, n) for n in _REQUEST_NAMES})
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
