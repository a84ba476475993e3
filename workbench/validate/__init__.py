"""The Validate view: JSON Schema (2020-12, 2019-09, draft 7/6/4), every error located, nothing
fetched, bounded pattern time, and a strictness review of tool schemas.

The rooms, from the HTTP face down:

* :mod:`.core` — ``handle`` (``POST /api/validate``): read, parse, place errors in the texts;
* :mod:`.checked` — ``compile_schema``: dialect, metaschema, references, patterns, cache, and
  ``bounded`` (the limits of a run: one :class:`workbench.runtime.Deadline`, the regex timeout);
* :mod:`.evaluate` — ``evaluate``/``validate_value``/``validity_check``: the errors in document order;
* :mod:`.compiled` — the fast path: a schema as generated Python functions;
* :mod:`.classes` + :mod:`.keywords` — jsonschema's classes with this project's keywords;
* :mod:`.patterns` (ECMA-262 patterns, bounded time) and :mod:`.linear` (when a pattern may skip
  the timeout); :mod:`.numbers` (exact numbers); :mod:`.formats` (format checkers);
* :mod:`.dialects` — drafts, vocabularies, the no-network registry, the subschema keyword table;
* :mod:`.messages` (the error sentences), :mod:`.review` (strictness of tool schemas),
  :mod:`.library` (jsonschema, imported without its slow iri grammar).
"""

from . import library  # noqa: F401  (first: jsonschema without the iri grammar)
from .checked import CheckedSchema, compile_schema  # noqa: E402
from .core import REQUEST, Validation, handle, prepare, tool_parameters  # noqa: E402
from .evaluate import evaluate, validate_value, validity_check  # noqa: E402

__all__ = ["REQUEST", "handle", "compile_schema", "CheckedSchema", "evaluate", "validate_value",
           "tool_parameters", "validity_check", "Validation", "prepare"]
