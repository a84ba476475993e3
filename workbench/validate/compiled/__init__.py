"""Schemas compiled to Python functions: the Validate core's fast path.

:func:`compile_functions` turns a (metaschema-checked) JSON Schema into two small generated Python
functions per subschema:

* ``v<N>(value) -> bool`` -- valid or not, returning at the first failure; and
* ``e<N>(value, path, schema_path, out)`` -- the errors, as :class:`Error` records carrying
  what :mod:`workbench.validate.evaluate` reads from a jsonschema ``ValidationError`` (keyword, keyword
  value, instance, schema, instance path, evaluation path, the missing/extra key...), appended
  to ``out`` in the order jsonschema yields them (keywords in schema order).  An error
  function descends only into values its validity function refused, so a mostly valid
  document costs little more than the validity check.

The keyword semantics are those of :mod:`workbench.validate.classes` (this project's jsonschema
classes): exact numbers (``int``/``Decimal``; an integral ``Decimal`` is an integer from draft 6
on, not in draft 4), ECMA-262 patterns on the ``regex`` package with a timeout (no timeout only
for patterns proven to backtrack linearly, on short strings), one error per missing or extra
key, linear ``uniqueItems``, ``$ref`` siblings ignored up to draft 7.  The work deadline is
checked in array loops and on entering combinators and references; a recursion too deep for
Python raises ``RecursionError`` (the caller answers ``too_deep``).

Anything outside the compiled subset makes :func:`compile_functions` return None, and the caller
uses jsonschema: ``unevaluated*``, ``$dynamicRef``/``$recursiveRef``, a ``$ref`` that is not a
JSON Pointer into the schema itself, an embedded ``$id`` or ``$schema``, custom vocabularies.
``tests/conformance/test_validate_compiled.py`` runs the official suite through both paths.

**Injection safety**: no text from the schema is ever written into the generated source.  Every
schema value (property names, patterns, enums, bounds, the subschemas themselves) is an entry
of the constants table ``C`` the code indexes; the source holds only our own identifiers,
keyword names and integers we computed.

Layout: :mod:`.records` (the error records, the runtime helpers the generated code calls, and
:class:`SchemaFunctions`), :mod:`.tables` (keyword groups), :mod:`.generator` (one subschema →
two functions) with the keywords in :mod:`.generate_values` and :mod:`.generate_containers`.
"""

from __future__ import annotations

from ..classes import CLASSES
from ..dialects import NO_NETWORK, dialect_of
from ..patterns import PatternError
from .generator import Generator
from .records import Error, SchemaFunctions, Unsupported

__all__ = ["compile_functions", "SchemaFunctions", "Error", "Unsupported"]


def compile_functions(schema, draft: str | None = None, *, resolver=None, format_checker=None):
    """The compiled validator (:class:`SchemaFunctions`) of ``schema`` (a parsed value), or None
    when it uses anything outside the compiled subset (see the module doc).

    ``draft`` is the dialect (``"2020-12"``, ``"draft-07"``...; None: from ``$schema``, else
    2020-12); ``resolver`` a ``referencing`` resolver for ``$ref`` (default: the schema alone,
    nothing fetched); ``format_checker`` a jsonschema ``FormatChecker`` to assert ``format``
    with (default: ``format`` is an annotation).  The schema should have passed its metaschema
    (:func:`workbench.validate.compile_schema` does that first); a few malformed keyword
    values are refused here too, never guessed at."""
    if draft is None:
        uri = schema.get("$schema") if isinstance(schema, dict) else None
        draft = "2020-12" if uri is None else dialect_of(uri)
        if draft is None:
            return None
    if draft not in CLASSES:
        return None
    try:
        if resolver is None and isinstance(schema, dict):
            resolver = CLASSES[draft](schema, registry=NO_NETWORK)._resolver
        return Generator(schema, draft, resolver, format_checker).build()
    except (Unsupported, RecursionError, PatternError):
        return None
    except BaseException as exc:  # a RecursionError inside referencing's Rust maps (rpds) panics
        if type(exc).__name__ != "PanicException":
            raise
        return None
