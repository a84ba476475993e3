"""The ``jsonschema`` library, imported once for the Validate view: without the slow iri
grammar, and its draft classes (:data:`BASES`) that :mod:`workbench.validate.classes` extends."""

from __future__ import annotations

import sys

#: optional modules jsonschema's format checkers import that this project never uses -- or imports
#: itself where it checks the format: ``rfc3986_validator`` (``uri``, ``uri-reference``; its
#: regular expressions were ~0.1 s of ``workbench validate``'s ~0.3 s start-up, issue 25) is
#: imported by :func:`workbench.validate.formats.uri_check` when a URI is checked
_UNUSED = ("rfc3987_syntax", "isoduration", "rfc3986_validator")


def _import_jsonschema_without_iri_grammar():
    """Import jsonschema without ``rfc3987_syntax``, whose grammar takes 1-3 s to build at import
    (the first validation of a fresh server paid it) and whose parser is slow; ``iri`` and
    ``iri-reference`` are checked by :func:`workbench.validate.formats.iri_check` instead.  Nor
    ``isoduration`` (~0.1 s of every command's start-up: its 80 regular expressions): ``duration``
    is :func:`workbench.validate.formats_strict.duration`.  Nothing changes when jsonschema is
    already imported."""
    if "jsonschema" in sys.modules or any(name in sys.modules for name in _UNUSED):
        import jsonschema  # noqa: F401
        return
    for name in _UNUSED:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        import jsonschema  # noqa: F401
    finally:
        for name in _UNUSED:
            del sys.modules[name]


_import_jsonschema_without_iri_grammar()

from jsonschema import validators  # noqa: E402

BASES = {
    "draft-04": validators.Draft4Validator,
    "draft-06": validators.Draft6Validator,
    "draft-07": validators.Draft7Validator,
    "2019-09": validators.Draft201909Validator,
    "2020-12": validators.Draft202012Validator,
}
