"""The table of views: name, title, purpose and core of each page and its API endpoint.

One row per view, in navigation order.  A core module exposes ``handle(body, limits) -> dict``
(the API's answer and the page's result), ``REQUEST`` (its fields, see :mod:`workbench.fields`)
and, optionally, ``page_context(args) -> dict`` (more for its page's template, and a ``form``
to prefill and run, as ``/gate?case=NAME`` does without JavaScript).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from .. import diff, extract, format, gate, validate


@dataclass(frozen=True)
class View:
    name: str
    title: str
    purpose: str
    core: ModuleType

    @property
    def text_fields(self) -> list[str]:
        return self.core.REQUEST.text_fields

    @property
    def list_fields(self) -> list[str]:
        return self.core.REQUEST.list_fields

    def page_context(self, args) -> dict:
        hook = getattr(self.core, "page_context", None)
        return hook(args) if hook else {}


VIEWS = [
    View("format", "Format", "Re-indent or minify exactly; numbers keep their text, duplicate keys are reported.", format),
    View("extract", "Extract", "RFC 9535 JSONPath with the normalized path and JSON Pointer of every match.", extract),
    View("validate", "Validate", "JSON Schema validation: every error, located, nothing fetched.", validate),
    View("diff", "Diff", "Two documents side by side: semantic, line-aligned, with a JSON Patch.", diff),
    View("gate", "Gate", "May this tool call be replayed? Format → schema → diff, one verdict.", gate),
]
VIEW = {v.name: v for v in VIEWS}
