"""The transcript core (being built): see the package docstring for the response shape."""

from __future__ import annotations

from ..errors import WorkbenchError

try:
    from ..fields import Field, Fields
    REQUEST = Fields(Field("text", str, required=True, text=True),
                     Field("tools", str, text=True))
except ImportError:  # pragma: no cover
    REQUEST = None


def analyse(text, tools=None, *, limits=None):
    raise WorkbenchError("not_available", "The transcript view is not built yet", status=404)


def handle(body: dict, limits) -> dict:
    values = REQUEST.read(body)
    return analyse(values["text"], values["tools"], limits=limits)
