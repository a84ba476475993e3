"""The one error type every core raises, and its HTTP body (see docs/api.md)."""

from __future__ import annotations


class WorkbenchError(Exception):
    """A fault in what the user sent, with a stable ``code`` and, when known, where it is.

    ``status`` is the HTTP status the web layer answers with (422 for content that cannot be
    processed, 400 for a malformed request).  ``line``/``column`` are 1-based, ``offset`` is
    0-based in characters.  Extra keyword arguments are copied into the error body.
    """

    def __init__(self, code: str, message: str, *, status: int = 422, field: str | None = None,
                 line: int | None = None, column: int | None = None, offset: int | None = None,
                 **extra):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.field = field
        self.line = line
        self.column = column
        self.offset = offset
        self.extra = extra

    def to_dict(self) -> dict:
        body = {"code": self.code, "message": self.message}
        if self.field is not None:
            body["field"] = self.field
        for name in ("line", "column", "offset"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        body.update(self.extra)
        return body

    def to_body(self) -> dict:
        return {"error": self.to_dict()}


def bad_request(message: str, field: str | None = None, code: str = "bad_request") -> WorkbenchError:
    """A malformed request (400): missing field, wrong type, unknown option value."""
    return WorkbenchError(code, message, status=400, field=field)


_MISSING = object()


def require(body: dict, name: str, kind: type | tuple = str, *, default=_MISSING, what: str = "a string"):
    """Field ``name`` of a request body: required (no default) or optional, of type ``kind``."""
    value = body.get(name, _MISSING)
    if value is _MISSING or (value is None and default is not _MISSING):
        if default is _MISSING:
            raise bad_request(f"The request needs the field '{name}' ({what})", field=name,
                              code="missing_field")
        return default
    if isinstance(value, bool) and kind not in (bool, object) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise bad_request(f"'{name}' must be {what}", field=name, code="bad_type")
    if not isinstance(value, kind):
        raise bad_request(f"'{name}' must be {what}", field=name, code="bad_type")
    return value


def log_fault(what: str, exc: BaseException, logger_name: str = "workbench") -> None:
    """Log an unexpected exception for the developer: its type and where it happened, never
    its message (it may quote the user's data) and never the request's body."""
    import logging
    import traceback

    logging.getLogger(logger_name).error("%s: %s\n%s", what, type(exc).__name__,
                                         "".join(traceback.format_tb(exc.__traceback__)))
