"""Validating a document against a checked schema: every error, in document order, each with
the JSON Pointer of the failing instance, the keyword, a readable message and the pointer of
the keyword in the schema.

* Two paths, one answer: a schema the compiler of :mod:`workbench.validate.compiled` accepts
  (most real schemas: no ``unevaluated*``, dynamic references, embedded ``$id``) is validated
  by generated Python functions, several times faster; any other by jsonschema with this
  project's keywords.  Both give the same error records
  (``tests/conformance/test_validate_compiled.py`` runs the official suite through both);
  ``evaluate(..., path=)`` can force one.
* A missing ``required`` key is reported at ``/that_key`` (positioned on its parent object), an
  extra key of ``additionalProperties: false`` at ``/that_key`` (positioned on the key).
* Identical records (same pointer, keyword, message and schema pointer: a ``$ref`` into a
  metaschema reaches one keyword along several paths) are given once.
* Recursion: a recursive schema is followed about 100-250 levels deep into the document
  (Python's recursion limit); deeper is 422 ``too_deep``.
"""

from __future__ import annotations

from dataclasses import dataclass

import referencing.jsonschema

from ..errors import WorkbenchError, log_fault
from ..jsontext import pointer_of
from ..limits import DEFAULT_LIMITS
from ..runtime import Deadline
from .checked import CheckedSchema, bounded, compile_schema, too_deep
from .dialects import DRAFT_URIS
from .messages import error_text
from .patterns import DEFAULT_REGEX_TIMEOUT, PatternError, regex_time_limit


@dataclass(slots=True, eq=False)
class _Found:
    order: tuple
    path: tuple
    at: str
    schema_path: tuple
    err: object

    @staticmethod
    def key(f):
        return f.order


def _order(root, parts, cache) -> tuple:
    key = []
    node = root
    for p in parts:
        if type(node) is dict:
            idx = cache.get(id(node))
            if idx is None:
                idx = cache[id(node)] = {k: i for i, k in enumerate(node)}
            key.append(idx.get(p, -1))
            node = node.get(p)
        elif type(node) is list and type(p) is int:
            key.append(p)
            node = node[p] if 0 <= p < len(node) else None
        else:
            key.append(-1)
            node = None
    return tuple(key)


def _light(err):
    """Keep what messages need; drop the rest of a big error tree."""
    if err.validator not in ("anyOf", "oneOf", "unevaluatedProperties"):
        err.context = []
    err.parent = None
    return err


class _Sink:
    """Collects the errors of one run: counts every error, keeps the first ``max_errors`` in
    document order (cut back whenever the list doubles, so a flood of errors costs no more
    memory than that) with where each is placed (``at``: value, key or parent)."""

    def __init__(self, instance, max_errors: int):
        self.instance = instance
        self.max_errors = max_errors
        self.found: list[_Found] = []
        self.count = 0
        self.cache: dict = {}

    def append(self, err) -> None:
        self.count += 1
        path = tuple(err.absolute_path)
        kind = getattr(err, "wb_kind", None)
        at = "value"
        if kind in ("extra", "missing"):
            at = "key" if kind == "extra" else "parent"
            path = path + (err.wb_key,)
        else:
            pname = getattr(err, "wb_pname", None)
            if pname is not None:  # from propertyNames: the key itself
                at = "key"
                path = path + (pname,)
        order = (_order(self.instance, path[:-1] if at == "parent" else path, self.cache), self.count)
        spath = tuple(err.relative_schema_path)
        if err.validator in ("minContains", "maxContains") and spath[-1:] == ("contains",):
            spath = spath[:-1] + (err.validator,)  # reported by "contains", written as its own keyword
        found = self.found
        found.append(_Found(order, path, at, spath, err))
        if len(found) >= 2 * self.max_errors + 64:
            found.sort(key=_Found.key)
            del found[self.max_errors:]

    def errors(self, compiled: "CheckedSchema") -> list[dict]:
        """The kept errors as records, identical ones given once (and counted once)."""
        self.found.sort(key=_Found.key)
        out = []
        seen: set = set()
        for f in self.found[:self.max_errors]:
            keyword, message = error_text(f.err)
            record = {"pointer": pointer_of(f.path), "keyword": str(keyword), "message": message,
                      "schema_pointer": schema_pointer(compiled, f.schema_path), "at": f.at}
            key = (record["pointer"], record["keyword"], message, record["schema_pointer"], f.at)
            if key in seen:
                self.count -= 1
                continue
            seen.add(key)
            out.append(record)
        return out


def evaluate(compiled: CheckedSchema, instance, limits=DEFAULT_LIMITS, max_errors: int | None = None,
        path: str = "auto") -> dict:
    """Validate; errors in document order with pointers, messages and schema pointers, plus
    where each is placed (``at``: value, key or parent) for the text locator.

    Every error is counted; only the first ``max_errors`` in document order are kept.
    ``max_errors=0`` stops at the first error (validity only).

    ``path``: ``"auto"`` uses the compiled form of the schema when there is one
    (:mod:`workbench.validate.compiled`), else jsonschema; ``"compiled"`` / ``"jsonschema"``
    force one (tests and the benchmark compare them; ``"compiled"`` without a compiled form
    is a ValueError).  ``result["path"]`` says which one ran."""
    max_errors = limits.max_errors if max_errors is None else max_errors
    fast = compiled.fast if path != "jsonschema" else None
    if path == "compiled" and fast is None:
        raise ValueError("this schema has no compiled form")
    with bounded(limits):
        sink = None
        if fast is not None:
            try:
                sink = _run_compiled(fast, instance, max_errors)
            except (WorkbenchError, RecursionError, PatternError):
                raise
            except Exception as exc:  # a fault of the compiled form: say so, answer with jsonschema
                if path == "compiled":
                    raise
                log_fault("the compiled schema failed; validating with jsonschema", exc)
                fast = sink = None
        if sink is None:
            sink = _Sink(instance, max_errors)
            for err in compiled.validator.iter_errors(instance):
                if max_errors == 0:
                    sink.count += 1
                    break
                sink.append(_light(err))
        errors = sink.errors(compiled)  # inside the budget: messages may evaluate alternatives
    count = sink.count
    return {"valid": count == 0, "errors": errors, "count": count,
            "truncated": count > max_errors, "draft": compiled.draft,
            "path": "compiled" if fast is not None else "jsonschema"}


def validity_check(compiled: CheckedSchema, limits=DEFAULT_LIMITS):
    """A function ``value -> bool`` answering validity alone, as fast as it gets: the compiled
    ``is_valid`` itself when its work is bounded without a clock, else that check under the
    regex timeout and work deadline of ``limits`` (422 ``timeout``/``too_deep`` as
    WorkbenchError), else :func:`evaluate` with ``max_errors=0`` (jsonschema)."""
    fast = compiled.fast
    if fast is None:
        return lambda value: evaluate(compiled, value, limits, max_errors=0)["valid"]
    if not fast.needs_budget:
        return fast.is_valid
    check, regex_timeout, work_timeout = fast.is_valid, limits.regex_timeout, limits.work_timeout
    if not work_timeout and regex_timeout == DEFAULT_REGEX_TIMEOUT:
        return check  # no deadline, and search() falls back to this very regex timeout: no contexts

    def check_bounded(value) -> bool:
        try:
            with Deadline(work_timeout, "Validation"), regex_time_limit(regex_timeout):
                return check(value)
        except RecursionError:
            raise too_deep() from None
    return check_bounded


def _run_compiled(fast, instance, max_errors: int) -> _Sink:
    sink = _Sink(instance, max_errors)
    if max_errors == 0:
        if not fast.is_valid(instance):
            sink.count = 1
    elif fast._errors is not None:  # one pass: error functions run validity checks as they go
        fast._errors(instance, (), (), sink)
    return sink


def schema_pointer(compiled: CheckedSchema, schema_path: tuple) -> str:
    """Where the failing keyword sits in the schema: the evaluation path of jsonschema (which
    leaves out ``$ref``) followed through references back to the schema's own text."""
    hit = compiled.locations.get(schema_path)
    if hit is not None:
        return hit
    index = compiled.index()
    node, parts, res = compiled.schema, (), compiled.resolver
    steps = 0
    for k in schema_path:
        while True:
            steps += 1
            if steps > len(schema_path) + 64:
                break
            if isinstance(node, dict) and k in node:
                child = node[k]
                if isinstance(child, dict):
                    try:
                        res = res.in_subresource(referencing.jsonschema.specification_with(
                            DRAFT_URIS[compiled.draft]).create_resource(child))
                    except Exception:
                        pass
                node, parts = child, parts + (k,)
                break
            if isinstance(node, list) and isinstance(k, int) and 0 <= k < len(node):
                node, parts = node[k], parts + (k,)
                break
            ref = None
            if isinstance(node, dict) and isinstance(node.get("$ref"), str):
                ref = node["$ref"]
            elif isinstance(node, str) and parts and parts[-1] in ("$dynamicRef", "$recursiveRef"):
                ref = node
            if ref is None:
                break
            try:
                resolved = res.lookup(ref)
            except Exception:
                break
            target = index.get(id(resolved.contents))
            if target is None:  # into a metaschema: stop at the reference
                if isinstance(node, dict):
                    parts = parts + ("$ref",)
                node = None
                break
            node, parts, res = resolved.contents, target, resolved.resolver
        if node is None:
            break
    out = pointer_of(parts)
    if len(compiled.locations) < 10_000:
        compiled.locations[schema_path] = out
    return out



def validate_value(schema, instance, *, limits=DEFAULT_LIMITS, format_assert: bool = False,
                   default_draft: str = "2020-12", registry=None) -> dict:
    """Validate a parsed ``instance`` against a parsed ``schema`` (numbers as int/Decimal).

    Returns ``{"valid", "errors": [{pointer, keyword, message, schema_pointer}], "draft",
    "count", "truncated", "path"}`` with errors in document order (at most
    ``limits.max_errors``); ``path`` is ``"compiled"`` or ``"jsonschema"`` (see :func:`evaluate`).
    ``default_draft`` is the dialect when the schema has no ``$schema``; ``registry`` is a
    ``referencing.Registry`` of extra resources (tests: the suite's remotes) -- without it
    nothing outside the schema and the bundled metaschemas resolves.

    Raises WorkbenchError 422 ``schema_invalid`` / ``ref_unresolvable`` / ``timeout`` /
    ``too_deep`` (with ``pointer`` into the schema for the schema faults).
    """
    compiled = compile_schema(schema, default_draft=default_draft, format_assert=format_assert,
                              registry=registry, limits=limits)
    out = evaluate(compiled, instance, limits)
    for e in out["errors"]:
        del e["at"]
    return out

