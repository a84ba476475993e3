"""Schema Validate: every error of a document against a JSON Schema, exactly located, with
nothing fetched and in bounded time.

* The dialect comes from ``$schema`` (2020-12 when absent; 2019-09, draft 7, 6 and 4); an
  unknown ``$schema`` is a 422 ``schema_invalid``, never a silent fallback.  The schema is
  checked against its metaschema first (422 ``schema_invalid`` with the pointer of the fault).
* No network, no disk: references resolve through a ``referencing.Registry`` whose ``retrieve``
  refuses everything; only the bundled metaschemas are known besides the schema itself.  Every
  ``$ref`` is resolved once up front, so an unresolvable one is a 422 ``ref_unresolvable``
  naming it even when validation would not reach it.
* Bounded time: patterns run on the ``regex`` package with ``limits.regex_timeout`` (422
  ``timeout``; the package counts the CPU time of one match, so on a loaded machine the wall
  time is a multiple of it), and the whole run stops at ``limits.work_timeout``
  (see :mod:`workbench.validate_keywords`).  Recursion: a recursive schema is followed about
  100-250 levels deep into the document (Python's recursion limit); deeper is 422 ``too_deep``.
* Results: all errors, in document order, each with the JSON Pointer of the failing instance,
  the keyword, a readable message and the pointer of the keyword in the schema.  A missing
  ``required`` key is reported at ``/that_key`` (positioned on its parent object), an extra
  key of ``additionalProperties: false`` at ``/that_key`` (positioned on the key).
* Compiled validators (after the metaschema and reference checks) are cached by schema.
* Two paths, one answer: a schema the compiler of :mod:`workbench.validate_compiled` accepts
  (most real schemas: no ``unevaluated*``, dynamic references, embedded ``$id``) is validated
  by generated Python functions, several times faster; any other by jsonschema with this
  project's keywords.  Both give the same error records (``tests/test_validate_compiled.py``
  runs the official suite through both); ``run(..., path=)`` can force one.
"""

from __future__ import annotations

import contextlib

import threading
from collections import OrderedDict
from decimal import Decimal

# first: it imports jsonschema without the slow iri grammar (see there)
from .keywords import (BASES, CLASSES, DRAFT_ALIASES, DRAFT_URIS, FORMAT_CHECKERS, Budget,  # isort: skip
                                PatternError, WorkTimeout, class_for_vocabularies, compile_pattern,
                                dialect_of)

import referencing  # noqa: E402
import referencing.jsonschema  # noqa: E402
from jsonschema.exceptions import best_match  # noqa: E402
from referencing.exceptions import NoSuchResource, Unresolvable  # noqa: E402

from ..errors import WorkbenchError, bad_request, log_fault  # noqa: E402
from ..fields import Field, Fields  # noqa: E402
from ..jsontext import dumps_value  # noqa: E402
from ..limits import DEFAULT_LIMITS  # noqa: E402
from ..jsontext import error_at, line_cols, locate_many, parse, pointer_of  # noqa: E402
from ..runtime import collector_paused
from ..tools import choose as choose_tool  # noqa: E402
from .compiled import call_bounded  # noqa: E402
from .compiled import compile_schema as compile_fast  # noqa: E402


SUPPORTED = "2020-12, 2019-09, draft-07, draft-06 and draft-04"


def _refuse(uri: str):
    raise NoSuchResource(ref=uri)


#: resolves nothing by itself: combined with the bundled metaschemas, and never fetches
NO_NETWORK = referencing.Registry(retrieve=_refuse)

# --------------------------------------------------------------------------- errors

def _schema_error(message: str, parts=(), code: str = "schema_invalid", **extra) -> WorkbenchError:
    return WorkbenchError(code, message, field="schema", pointer=pointer_of(parts), **extra)


def _timeout(limits) -> WorkbenchError:
    return WorkbenchError("timeout", f"Validation took longer than the limit of {limits.work_timeout:g} s "
                          "and was stopped", limit=limits.work_timeout)


def _too_deep() -> WorkbenchError:
    return WorkbenchError("too_deep", "Validation nests too deeply for this workbench to follow: the "
                          "document and a recursive schema (or a $ref that refers to itself) go "
                          "deeper than about 200 levels", field="schema")


def _unresolvable(exc: Exception, parts=()) -> WorkbenchError:
    ref = getattr(exc, "ref", None)
    if not isinstance(ref, str):
        ref = str(exc)
    detail = ""
    anchor = getattr(exc, "anchor", None)
    if anchor:
        detail = f" (no anchor {anchor!r} there)"
    elif type(exc).__name__ == "PointerToNowhere":
        detail = " (that JSON Pointer names nothing)"
    return _schema_error(
        f"The reference {ref!r} does not resolve inside the schema{detail}: the workbench resolves "
        "references only within the given schema and the bundled metaschemas, and never fetches "
        "anything from the network or disk", parts, code="ref_unresolvable", ref=ref)


# --------------------------------------------------------------------------- compiling

class Compiled:
    """A checked schema and its validator."""

    def __init__(self, schema, draft, validator, registry, resolver, fast=None):
        self.schema = schema
        self.draft = draft
        self.validator = validator
        #: the schema compiled to Python functions (:mod:`workbench.validate_compiled`), or None
        self.fast = fast
        self.registry = registry
        self.resolver = resolver
        self._index: dict | None = None
        self.locations: dict = {}

    def index(self) -> dict:
        """id(node) → path parts of every object and array inside the schema."""
        if self._index is None:
            idx: dict = {}
            stack = [(self.schema, ())]
            while stack:
                node, parts = stack.pop()
                if isinstance(node, dict):
                    idx[id(node)] = parts
                    stack.extend((v, parts + (k,)) for k, v in node.items() if isinstance(v, (dict, list)))
                elif isinstance(node, list):
                    idx[id(node)] = parts
                    stack.extend((v, parts + (i,)) for i, v in enumerate(node) if isinstance(v, (dict, list)))
            self._index = idx
        return self._index


_CACHE: OrderedDict = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 64
_META: dict = {}


def normalize_draft(draft: str) -> str:
    found = DRAFT_ALIASES.get(str(draft).strip().lower())
    if found is None:
        raise bad_request(f"Unknown draft {draft!r}: use one of {SUPPORTED}", field="draft", code="bad_option")
    return found


def _meta_validator(draft: str):
    v = _META.get(draft)
    if v is None:
        cls = CLASSES[draft]
        v = _META[draft] = cls(BASES[draft].META_SCHEMA, format_checker=FORMAT_CHECKERS[draft],
                               registry=NO_NETWORK)
    return v


def _spec(draft: str):
    return referencing.jsonschema.specification_with(DRAFT_URIS[draft])


def _dialect(schema, default: str, combined):
    """(draft, validator class, metaschema validator) for a schema."""
    if isinstance(schema, dict) and "$schema" in schema:
        uri = schema["$schema"]
        if not isinstance(uri, str):
            raise _schema_error("\"$schema\" must be a string: the URI of a JSON Schema dialect", ("$schema",))
        draft = dialect_of(uri)
        if draft is not None:
            return draft, CLASSES[draft], _meta_validator(draft)
        meta = None
        try:
            meta = combined.resolver().lookup(uri).contents
        except Exception:  # unknown, refused, malformed URI: all mean "not known here"
            meta = None
        if isinstance(meta, dict) and dialect_of(meta.get("$schema")) is not None:
            draft = dialect_of(meta["$schema"])
            vocab = meta.get("$vocabulary")
            try:
                cls = class_for_vocabularies(draft, vocab) if isinstance(vocab, dict) else CLASSES[draft]
            except ValueError as exc:
                raise _schema_error(f"The metaschema {uri!r} requires vocabularies this workbench does not "
                                    f"support: {exc}", ("$schema",)) from None
            return draft, cls, CLASSES[draft](meta, format_checker=FORMAT_CHECKERS[draft], registry=combined)
        hint = " (draft 3 is not supported)" if "draft-03" in uri else ""
        raise _schema_error(
            f"Unknown \"$schema\" {uri!r}{hint}: this workbench validates {SUPPORTED} schemas "
            f"(for example \"{DRAFT_URIS['2020-12']}\"), and does not fetch metaschemas",
            ("$schema",), schema_uri=uri)
    return default, CLASSES[default], _meta_validator(default)


_IN_VALUE = ("additionalItems", "additionalProperties", "contains", "contentSchema", "else", "if", "items",
             "not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties")
_IN_ARRAY = ("allOf", "anyOf", "oneOf", "prefixItems", "items")
_IN_VALUES = ("$defs", "definitions", "dependentSchemas", "patternProperties", "properties", "dependencies")


def _static_check(schema, draft: str, resolver) -> None:
    """Resolve every ``$ref``/``$dynamicRef`` and compile every pattern, up front."""
    stack = [(schema, (), resolver, _spec(draft))]
    first = True
    while stack:
        node, parts, res, spec = stack.pop()
        if not isinstance(node, dict):
            continue
        if "$schema" in node and isinstance(node["$schema"], str) and dialect_of(node["$schema"]):
            spec = _spec(dialect_of(node["$schema"]))
        if not first:
            try:
                res = res.in_subresource(spec.create_resource(node))
            except Exception:
                pass
        first = False
        for kw in ("$ref", "$dynamicRef"):
            ref = node.get(kw)
            if isinstance(ref, str):
                try:
                    res.lookup(ref)
                except Exception as exc:
                    raise _unresolvable(exc, parts + (kw,)) from None
        pat = node.get("pattern")
        if isinstance(pat, str):
            try:
                compile_pattern(pat)
            except PatternError as exc:
                raise _schema_error(f"The pattern {pat!r} is not a valid regular expression: {exc.detail}",
                                    parts + ("pattern",)) from None
        pp = node.get("patternProperties")
        if isinstance(pp, dict):
            for key in pp:
                try:
                    compile_pattern(key)
                except PatternError as exc:
                    raise _schema_error(f"The patternProperties key {key!r} is not a valid regular "
                                        f"expression: {exc.detail}", parts + ("patternProperties", key)) from None
        for kw in _IN_VALUE:
            v = node.get(kw)
            if isinstance(v, dict):
                stack.append((v, parts + (kw,), res, spec))
        for kw in _IN_ARRAY:
            v = node.get(kw)
            if isinstance(v, list):
                stack.extend((s, parts + (kw, i), res, spec) for i, s in enumerate(v) if isinstance(s, dict))
        for kw in _IN_VALUES:
            v = node.get(kw)
            if isinstance(v, dict):
                stack.extend((s, parts + (kw, k), res, spec) for k, s in v.items() if isinstance(s, dict))


@contextlib.contextmanager
def _bounded(limits):
    """Run under the pattern and work budgets; what the schema or the clock refuses becomes
    the API's 422 (timeout, too_deep, schema_invalid for a bad pattern, ref_unresolvable)."""
    with Budget(limits.regex_timeout, limits.work_timeout):
        try:
            yield
        except WorkTimeout:
            raise _timeout(limits) from None
        except RecursionError:
            raise _too_deep() from None
        except PatternError as exc:
            raise _schema_error(f"The pattern {exc.pattern!r} is not a valid regular expression: "
                                f"{exc.detail}") from None
        except Unresolvable as exc:
            raise _unresolvable(exc) from None


def compile_schema(schema, *, default_draft: str = "2020-12", format_assert: bool = False,
                   registry=None, limits=DEFAULT_LIMITS) -> Compiled:
    """Check ``schema`` (a parsed value) and build its validator; cached."""
    default_draft = normalize_draft(default_draft)
    key = (dumps_value(schema), default_draft, bool(format_assert), id(registry))
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit.registry is (registry or NO_NETWORK):
            _CACHE.move_to_end(key)
            return hit
    base = registry if registry is not None else NO_NETWORK
    combined = _with_specs(base)
    with _bounded(limits):
        draft, cls, meta = _dialect(schema, default_draft, combined)
        problems = list(meta.iter_errors(schema))
        if problems:
            raise _meta_error(problems, draft)
        if not isinstance(schema, (dict, bool)):
            raise _schema_error(f"A schema must be an object or a boolean, not {_kind(schema)}")
        validator = cls(schema, registry=base,
                        format_checker=FORMAT_CHECKERS[draft] if format_assert else None)
        _static_check(schema, draft, validator._resolver)
    fast = None
    if cls is CLASSES[draft]:  # not for a custom metaschema's vocabularies
        fast = compile_fast(schema, draft, resolver=validator._resolver,
                            format_checker=FORMAT_CHECKERS[draft] if format_assert else None)
    compiled = Compiled(schema, draft, validator, base, validator._resolver, fast)
    with _CACHE_LOCK:
        _CACHE[key] = compiled
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return compiled


def _with_specs(registry):
    from jsonschema_specifications import REGISTRY as SPECIFICATIONS
    return SPECIFICATIONS.combine(registry)


def _meta_error(problems, draft) -> WorkbenchError:
    best = best_match(problems)
    while best.context and best.validator in ("anyOf", "oneOf"):
        best = best_match(best.context)
    parts = tuple(best.absolute_path)
    where = pointer_of(parts) or "the root"
    listed = []
    for p in sorted(problems, key=lambda e: len(e.absolute_path))[:10]:
        listed.append({"pointer": pointer_of(p.absolute_path), "keyword": p.validator or "false",
                       "message": describe(p)[1]})
    return _schema_error(f"The schema is not a valid {draft} schema: {describe(best)[1]} (at {where})",
                         parts, draft=draft, problems=listed)


# --------------------------------------------------------------------------- messages

def _kind(v) -> str:
    if v is None:
        return "null"
    if v is True or v is False:
        return "boolean"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (int, float, Decimal)):
        return "number"
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    return type(v).__name__


def jtext(v, width: int = 60) -> str:
    """A short JSON rendering of a value for messages (never the whole of a big container)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        s = v if len(v) <= width else v[:width - 1] + "…"
        return dumps_value(s).decode()
    if isinstance(v, (int, Decimal, float)):
        try:
            s = str(v)
        except ValueError:
            return "a very long number"
        return s if len(s) <= width else s[:width - 1] + "…"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return f"an object with {len(v)} propert{'y' if len(v) == 1 else 'ies'}"
    if isinstance(v, list):
        if not v:
            return "[]"
        return f"an array of {len(v)} item{'' if len(v) == 1 else 's'}"
    return str(v)[:width]


def _got(v) -> str:
    k = _kind(v)
    if k in ("object", "array"):
        return jtext(v)
    if k == "null":
        return "null"
    return f"{k} {jtext(v)}"


def _list(values, limit: int = 8) -> str:
    shown = ", ".join(jtext(x, 40) for x in values[:limit])
    if len(values) > limit:
        shown += f", … ({len(values) - limit} more)"
    return shown


def _types(v) -> str:
    if isinstance(v, list):
        return " or ".join(str(t) for t in v)
    return str(v)


def describe(err) -> tuple[str, str]:
    """(keyword, readable message) of a jsonschema error."""
    kw = err.validator
    v = err.validator_value
    inst = err.instance
    kind = getattr(err, "wb_kind", None)
    key = getattr(err, "wb_key", None)
    prefix = ""
    if getattr(err, "wb_pname", None) is not None and isinstance(inst, str):
        prefix = f"Property name {jtext(inst)}: "
    try:
        msg = _message(err, kw, v, inst, kind, key)
    except Exception:  # a message must never break validation
        msg = err.message
    return (kw or "false"), prefix + msg


def _message(err, kw, v, inst, kind, key) -> str:
    schema = err.schema if isinstance(err.schema, dict) else {}
    if kw is None:
        return "No value is allowed here: the schema at this place is false"
    if kind == "missing":
        because = getattr(err, "wb_because", None)
        if because is not None:
            return f"Property {jtext(key)} is required when {jtext(because)} is present"
        return f"Required property {jtext(key)} is missing"
    if kind == "extra":
        if kw == "unevaluatedProperties":
            return f"Property {jtext(key)} is not allowed (\"unevaluatedProperties\": false)"
        allowed = list(schema.get("properties", {}) or {})
        tail = f"; allowed: {_list(allowed)}" if allowed and "patternProperties" not in schema else ""
        if "patternProperties" in schema:
            tail = "; it matches no name in properties and no patternProperties pattern"
        return f"Property {jtext(key)} is not allowed (\"additionalProperties\": false){tail}"
    if kw == "type":
        return f"Expected {_types(v)}, got {_got(inst)}"
    if kw == "pattern":
        return f"{jtext(inst)} does not match the pattern {v}"
    if kw == "enum":
        values = v if isinstance(v, list) else [v]
        return f"{jtext(inst)} is not one of the allowed values: {_list(values)}"
    if kw == "const":
        return f"Expected exactly {jtext(v)}, got {jtext(inst)}"
    if kw == "minimum":
        if schema.get("exclusiveMinimum") is True:
            return f"{jtext(inst)} must be greater than {jtext(v)}"
        return f"{jtext(inst)} is less than the minimum {jtext(v)}"
    if kw == "maximum":
        if schema.get("exclusiveMaximum") is True:
            return f"{jtext(inst)} must be less than {jtext(v)}"
        return f"{jtext(inst)} is greater than the maximum {jtext(v)}"
    if kw == "exclusiveMinimum":
        return f"{jtext(inst)} must be greater than {jtext(v)} (exclusiveMinimum)"
    if kw == "exclusiveMaximum":
        return f"{jtext(inst)} must be less than {jtext(v)} (exclusiveMaximum)"
    if kw == "multipleOf":
        return f"{jtext(inst)} is not a multiple of {jtext(v)}"
    if kw in ("minLength", "maxLength") and isinstance(inst, str):
        n = len(inst)
        word = "short" if kw == "minLength" else "long"
        bound = "at least" if kw == "minLength" else "at most"
        return f"String too {word}: {n} character{'s' if n != 1 else ''}, {bound} {jtext(v)} allowed"
    if kw in ("minItems", "maxItems") and isinstance(inst, list):
        n = len(inst)
        bound = "at least {} required" if kw == "minItems" else "at most {} allowed"
        return f"Array has {n} item{'s' if n != 1 else ''}; " + bound.format(jtext(v))
    if kw in ("minProperties", "maxProperties") and isinstance(inst, dict):
        n = len(inst)
        bound = "at least {} required" if kw == "minProperties" else "at most {} allowed"
        return f"Object has {n} propert{'y' if n == 1 else 'ies'}; " + bound.format(jtext(v))
    if kw == "uniqueItems":
        pair = getattr(err, "wb_pair", None)
        if pair:
            return f"Items {pair[0]} and {pair[1]} are equal, but uniqueItems requires every item to differ"
        return "The array has equal items, but uniqueItems requires every item to differ"
    if kw == "format":
        return f"{jtext(inst)} is not a valid {v}"
    if kw in ("items", "additionalItems") and v is False and isinstance(inst, list):
        before = schema.get("prefixItems" if kw == "items" else "items", [])
        n = len(before) if isinstance(before, list) else 0
        return (f"Array has {len(inst)} item{'s' if len(inst) != 1 else ''}; at most {n} allowed "
                f"(\"{kw}\": false)")
    if kw == "not":
        return "The value matches the schema in \"not\", so it is refused"
    if kw in ("anyOf", "oneOf"):
        n = len(v) if isinstance(v, list) else 0
        if kw == "oneOf" and not err.context:
            matched = getattr(err, "wb_matched", None)
            which = f" ({', '.join(map(str, matched))})" if matched else ""
            return (f"The value matches more than one of the {n} alternatives in oneOf{which}; "
                    "exactly one must match")
        closest = ""
        if err.context:
            # follow the closest alternative down through nested anyOf/oneOf to a plain failure
            best, parts = err, []
            while best.context:
                best = _closest(best.context)
                parts.extend(best.relative_path)
                if best.validator not in ("anyOf", "oneOf"):
                    break
            where = pointer_of(parts)
            closest = f"; closest alternative: {describe(best)[1]}" + (f" at {where}" if where else "")
        return f"The value matches none of the {n} alternatives in {kw}{closest}"
    if kw == "unevaluatedProperties":
        inner = getattr(err, "wb_inner", None)
        if inner:
            return f"Unevaluated property fails \"unevaluatedProperties\": {describe(inner[0])[1]}"
    if kw == "contains":
        return "No item of the array matches the \"contains\" schema"
    if kw == "minContains":
        got = getattr(err, "wb_matches", None)
        return (f"Only {got} item{' matches' if got == 1 else 's match'} the \"contains\" schema; "
                f"at least {jtext(v)} must")
    if kw == "maxContains":
        return f"More than {jtext(v)} items match the \"contains\" schema (maxContains)"
    return err.message


def _closest(context):
    """The first error of the alternative that came closest: one whose type matched, with the
    fewest errors."""
    alts: dict = {}
    for e in context:
        alts.setdefault(e.relative_schema_path[0] if e.relative_schema_path else 0, []).append(e)

    def score(item):
        errs = item[1]
        wrong_type = any(e.validator == "type" and not e.relative_path for e in errs)
        return (wrong_type, len(errs))

    return min(alts.items(), key=score)[1][0]


# --------------------------------------------------------------------------- validating

class _Found:
    __slots__ = ("order", "path", "at", "schema_path", "err")

    def __init__(self, order, path, at, schema_path, err):
        self.order = order
        self.path = path
        self.at = at
        self.schema_path = schema_path
        self.err = err

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

    def errors(self, compiled: "Compiled") -> list[dict]:
        self.found.sort(key=_Found.key)
        out = []
        for f in self.found[:self.max_errors]:
            keyword, message = describe(f.err)
            out.append({"pointer": pointer_of(f.path), "keyword": str(keyword), "message": message,
                        "schema_pointer": schema_pointer(compiled, f.schema_path), "at": f.at})
        return out


def run(compiled: Compiled, instance, limits=DEFAULT_LIMITS, max_errors: int | None = None,
        path: str = "auto") -> dict:
    """Validate; errors in document order with pointers, messages and schema pointers, plus
    where each is placed (``at``: value, key or parent) for the text locator.

    Every error is counted; only the first ``max_errors`` in document order are kept.
    ``max_errors=0`` stops at the first error (validity only).

    ``path``: ``"auto"`` uses the compiled form of the schema when there is one
    (:mod:`workbench.validate_compiled`), else jsonschema; ``"compiled"`` / ``"jsonschema"``
    force one (tests and the benchmark compare them; ``"compiled"`` without a compiled form
    is a ValueError).  ``result["path"]`` says which one ran."""
    max_errors = limits.max_errors if max_errors is None else max_errors
    fast = compiled.fast if path != "jsonschema" else None
    if path == "compiled" and fast is None:
        raise ValueError("this schema has no compiled form")
    with _bounded(limits):
        sink = None
        if fast is not None:
            try:
                sink = _run_compiled(fast, instance, max_errors)
            except (WorkbenchError, WorkTimeout, RecursionError, PatternError):
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


def validity_check(compiled: Compiled, limits=DEFAULT_LIMITS):
    """A function ``value -> bool`` answering validity alone, as fast as it gets: the compiled
    ``is_valid`` itself when its work is bounded without a clock, else that check under the
    regex timeout and work deadline of ``limits`` (422 ``timeout``/``too_deep`` as
    WorkbenchError), else :func:`run` with ``max_errors=0`` (jsonschema)."""
    fast = compiled.fast
    if fast is None:
        return lambda value: run(compiled, value, limits, max_errors=0)["valid"]
    if not fast.needs_budget:
        return fast.is_valid
    check, regex_timeout, work_timeout = fast.is_valid, limits.regex_timeout, limits.work_timeout

    def bounded(value) -> bool:
        try:
            return call_bounded(check, value, regex_timeout, work_timeout)
        except WorkTimeout:
            raise _timeout(limits) from None
        except RecursionError:
            raise _too_deep() from None
    return bounded


def _run_compiled(fast, instance, max_errors: int) -> _Sink:
    sink = _Sink(instance, max_errors)
    if max_errors == 0:
        if not fast.is_valid(instance):
            sink.count = 1
    elif fast._errors is not None:  # one pass: error functions run validity checks as they go
        fast._errors(instance, (), (), sink)
    return sink


def schema_pointer(compiled: Compiled, schema_path: tuple) -> str:
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
        else:
            break
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
    ``limits.max_errors``); ``path`` is ``"compiled"`` or ``"jsonschema"`` (see :func:`run`).
    ``default_draft`` is the dialect when the schema has no ``$schema``; ``registry`` is a
    ``referencing.Registry`` of extra resources (tests: the suite's remotes) -- without it
    nothing outside the schema and the bundled metaschemas resolves.

    Raises WorkbenchError 422 ``schema_invalid`` / ``ref_unresolvable`` / ``timeout`` /
    ``too_deep`` (with ``pointer`` into the schema for the schema faults).
    """
    compiled = compile_schema(schema, default_draft=default_draft, format_assert=format_assert,
                              registry=registry, limits=limits)
    out = run(compiled, instance, limits)
    for e in out["errors"]:
        del e["at"]
    return out


# --------------------------------------------------------------------------- tool definitions

def tool_parameters(schema_value) -> tuple:
    """``(parameters schema, tool name)`` of a function tool definition (Responses
    ``{type: "function", name, parameters}`` or Chat Completions ``{type: "function",
    function: {name, parameters}}``); a bare schema gives ``(schema, None)``.  Read by
    :func:`workbench.tools.choose`, the one reader of tool definitions."""
    info = choose_tool(schema_value)
    return info.schema, info.name


# --------------------------------------------------------------------------- HTTP

REQUEST = Fields(
    Field("document", required=True, text=True, what="a string holding the JSON document"),
    Field("schema", required=True, text=True, what="a string holding a JSON Schema or a tool definition"),
    Field("format_assert", bool, default=False),
    Field("review", bool, doc="the strictness review (default: on when a tool definition is given)"),
    Field("tool", object, doc="which tool of a list of definitions"),
    Field("draft", default="2020-12", what='a draft name such as "2020-12"',
          doc="the dialect when the schema has no $schema: 2020-12, 2019-09, draft-07, draft-06, draft-04"),
)


def handle(body: dict, limits) -> dict:
    """``POST /api/validate``: see :func:`_handle`.  The cyclic garbage collector is paused for
    the request (see parse.collector_paused)."""
    with collector_paused():
        return _handle(body, limits)


def _handle(body: dict, limits) -> dict:
    """``POST /api/validate``: ``document``, ``schema`` (text), ``format_assert`` (false),
    ``review`` (default: on when a tool definition is given), ``tool`` (name, for a list of
    tools), ``draft`` (dialect when ``$schema`` is absent, default 2020-12).

    Pointers about the schema (``schema_pointer`` of errors, ``review`` and ``schema_invalid``
    pointers) are relative to the *schema text as sent* (so a tool definition's are under
    ``/parameters``); ``schema_root`` is where the validated schema sits in it.
    """
    from .review import review_schema

    v = REQUEST.read(body)
    document, schema_text = v["document"], v["schema"]
    format_assert, review = v["format_assert"], v["review"]
    tool = body.get("tool")
    if isinstance(tool, int) and not isinstance(tool, bool):
        tool = str(tool)
    if tool is not None and not isinstance(tool, str):
        raise bad_request("'tool' must be a tool name", field="tool", code="bad_type")
    tool = tool or None
    draft = normalize_draft(v["draft"] or "2020-12")

    parsed_schema = parse(schema_text, field="schema", max_depth=limits.max_depth)
    parsed_doc = parse(document, field="document", max_depth=limits.max_depth)
    info = choose_tool(parsed_schema.value, tool, text=parsed_schema.text)
    prefix = pointer_of(info.prefix)
    try:
        compiled = compile_schema(info.schema, default_draft=draft, format_assert=format_assert, limits=limits)
        out = run(compiled, parsed_doc.value, limits)
    except WorkbenchError as exc:
        if exc.field == "schema" and "pointer" in exc.extra:
            _place_schema_error(exc, schema_text, prefix)
        raise
    except Exception as exc:  # never a 500 for what a user typed: report, and log for us
        log_fault("validation failed", exc)
        raise WorkbenchError("validation_failed", "The validator could not evaluate this schema "
                             f"({type(exc).__name__}); please report it", field="schema") from None

    # place every error in the document text
    wanted = set()
    for e in out["errors"]:
        p = e["pointer"]
        wanted.add(p.rsplit("/", 1)[0] if e["at"] == "parent" else p)
    # one walk of the document text, along the returned errors' pointers only
    spans = parsed_doc.spans(wanted) if wanted else {}
    schema_ptrs = {prefix + e["schema_pointer"] for e in out["errors"]}
    schema_spans = locate_many(parsed_schema.text, schema_ptrs) if schema_ptrs else {}
    slines = parsed_schema.lines
    offsets = {}
    for e in out["errors"]:
        at = e["at"]
        p = e["pointer"]
        span = spans.get(p.rsplit("/", 1)[0] if at == "parent" else p)
        if span is not None:
            offsets[id(e)] = span.key if at == "key" and span.key is not None else span.start
    wanted = sorted(set(offsets.values()))
    places = dict(zip(wanted, line_cols(parsed_doc.text, wanted)))
    for e in out["errors"]:
        offset = offsets.get(id(e))
        if offset is not None:
            e["line"], e["column"] = places[offset]
            e["offset"] = offset
        else:
            e["line"] = e["column"] = None
        e["schema_pointer"] = prefix + e["schema_pointer"]
        sspan = schema_spans.get(e["schema_pointer"])
        if sspan is not None:
            soff = sspan.key if sspan.key is not None else sspan.start
            e["schema_line"], e["schema_column"] = slines.line_col(soff)

    do_review = info.is_tool if review is None else review
    warnings_ = list(info.notes)
    if do_review:
        warnings_.extend(review_schema(info.schema, strict=info.strict, is_tool=info.is_tool,
                                       limit=limits.max_errors))
    for w in warnings_:
        w["pointer"] = prefix + w["pointer"] if w.get("pointer") is not None else prefix
    rspans = locate_many(parsed_schema.text, {w["pointer"] for w in warnings_}) if warnings_ else {}
    offsets = {}
    for w in warnings_:
        s = rspans.get(w["pointer"])
        if s is not None:
            offsets[id(w)] = s.key if s.key is not None else s.start
            w["line"], w["column"] = slines.line_col(offsets[id(w)])
    warnings_.sort(key=lambda w: offsets.get(id(w), -1))

    return {
        "valid": out["valid"], "errors": out["errors"], "count": out["count"],
        "truncated": out["truncated"], "draft": out["draft"], "format_assert": format_assert,
        "tool": info.name, "tools": info.names if len(info.names) > 1 else [],
        "schema_root": prefix, "reviewed": bool(do_review), "review": warnings_,
        "warnings": parsed_doc.warnings, "schema_warnings": parsed_schema.warnings,
    }


def _place_schema_error(exc: WorkbenchError, text: str, prefix: str) -> None:
    """Give a schema fault the line/column (and snippet) of its pointer in the schema text."""
    pointer = prefix + (exc.extra.get("pointer") or "")
    exc.extra["pointer"] = pointer
    spans = locate_many(text, [pointer])
    span = spans.get(pointer)
    if span is None:
        return
    placed = error_at(text, span.start, exc.code, exc.message, field="schema")
    exc.line, exc.column, exc.offset = placed.line, placed.column, placed.offset
    exc.extra["snippet"] = placed.extra.get("snippet")
