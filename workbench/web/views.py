"""The table of views: name, title, purpose and core of each page and its API endpoint.

One row per view, in navigation order.  A core module exposes ``handle(body, limits) -> dict``
(the API's answer and the page's result), ``REQUEST`` (its fields, see :mod:`workbench.fields`)
and, optionally, ``page_context(args) -> dict`` (more for its page's template, and a ``form``
to prefill and run, as ``/gate?case=NAME`` does without JavaScript).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from .. import diff, extract, format, gate, redact, validate
from ..validate import draft as validate_draft


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


# --------------------------------------------------------------------------- the API's cores

def _transcript():
    from .. import transcript  # the Gate page's report (imported on first use: not at start-up)
    return transcript


def _convert():
    from .. import convert  # "Replay to…" on a transcript report (imported on first use)
    return convert


# every POST of the API: one per view (``/api/<view>``, from the views' table), and the two that
# are not a view's (a function where the core is imported on first use)
API = {
    **{f"/api/{v.name}": v.core for v in VIEWS},
    "/api/validate/draft": validate_draft,  # "Draft a strict schema" (the Validate page)
    "/api/transcript": _transcript,
    "/api/convert": _convert,  # "Replay to…" on the Gate page's transcript report
    "/api/redact": redact,  # "copy redacted" on every page
}


def core_of(path: str):
    """The core that answers ``POST path`` (imported now if it is imported on first use)."""
    core = API[path]
    return core() if callable(core) else core
