"""A schema checked and ready: its dialect, its metaschema, every ``$ref`` and pattern, its
validator class and its compiled functions — cached by schema text.

* The dialect comes from ``$schema`` (2020-12 when absent; 2019-09, draft 7, 6 and 4); an
  unknown ``$schema`` is a 422 ``schema_invalid``, never a silent fallback.  The schema is
  checked against its metaschema first (422 ``schema_invalid`` with the pointer of the fault).
* No network, no disk: references resolve through :data:`~workbench.validate.dialects.NO_NETWORK`;
  only the bundled metaschemas are known besides the schema itself.  Every ``$ref`` is resolved
  once up front, so an unresolvable one is a 422 ``ref_unresolvable`` naming it even when
  validation would not reach it; every pattern is compiled up front (422 ``schema_invalid`` at
  its pointer, also for a pattern that is not ECMA-262).
* :func:`bounded` is the one place the limits of a run are set: the work deadline
  (:class:`workbench.runtime.Deadline`, ``limits.work_timeout``), the per-match regex timeout
  (``limits.regex_timeout``) and the validators' memo; what the schema or the clock refuses
  becomes the API's 422 (``timeout``, ``too_deep``, ``schema_invalid``, ``ref_unresolvable``).
"""

from __future__ import annotations

import contextlib
import resource
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from jsonschema.exceptions import best_match  # noqa: E402
from referencing.exceptions import Unresolvable  # noqa: E402

from ..errors import WorkbenchError  # noqa: E402
from ..jsontext import dumps_value, pointer_of  # noqa: E402
from ..limits import (  # noqa: E402
    DEFAULT_LIMITS,  # noqa: E402
    PATTERN_CACHE_BUDGET,
    PATTERN_MAX_SIZE,
    VALIDATE_FRAMES,
)
from ..runtime import Deadline  # noqa: E402
from .classes import CLASSES, class_for_vocabularies, evolve_memo  # first: see library
from .compiled import compile_functions  # noqa: E402
from .dialects import (  # noqa: E402
    DRAFT_URIS,
    NO_NETWORK,
    SUPPORTED,
    dialect_of,
    normalize_draft,
    specification,
    subschemas,
    with_metaschemas,
)
from .formats import FORMAT_CHECKERS
from .library import BASES  # noqa: E402
from .messages import error_text, kind_of  # noqa: E402
from .patterns import PatternError, compile_ecma, compiled_pattern, regex_time_limit, too_large_detail  # noqa: E402

# --------------------------------------------------------------------------- errors

def _schema_error(message: str, parts=(), code: str = "schema_invalid", **extra) -> WorkbenchError:
    return WorkbenchError(code, message, field="schema", pointer=pointer_of(parts), **extra)


def too_deep() -> WorkbenchError:
    return WorkbenchError("too_deep", "Validation nests too deeply for this workbench to follow: documents "
                          "and schemas are followed to their depth limit (max_depth, 512 levels by "
                          f"default), but here the schema's references ($ref) lead from one schema to "
                          f"the next more than about {VALIDATE_FRAMES // 12:,} times in a row",
                          field="schema")


def _deep_enough() -> None:
    """Let this process recurse ``VALIDATE_FRAMES`` deep (Python's default of 1,000 frames gave
    up at 80 nested ``properties``), when the threads' stacks hold that many: 8 MB (Linux's
    default) holds 11,500 of the deepest C frames measured; a smaller stack gets its share."""
    stack = threading.stack_size()
    if not stack:  # glibc gives new threads the main thread's limit (2 MB when unlimited)
        if sys.platform.startswith("linux"):
            soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
            stack = soft if soft > 0 else 2 * 1024 * 1024
        else:  # macOS threads get 512 kB: Python's default stands
            stack = 512 * 1024
    frames = min(VALIDATE_FRAMES, stack * VALIDATE_FRAMES // (8 * 1024 * 1024))
    if sys.getrecursionlimit() < frames:
        sys.setrecursionlimit(frames)


_deep_enough()


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

@dataclass(eq=False, repr=False)
class CheckedSchema:
    """A checked schema and its validator."""

    schema: object
    draft: str
    validator: object
    registry: object
    resolver: object
    #: the schema compiled to Python functions (:mod:`workbench.validate.compiled`), or None
    fast: object = None
    #: expanded size of all its patterns (:func:`workbench.validate.patterns.expanded_size`)
    pattern_size: int = 0
    _index: dict | None = field(default=None, init=False)
    locations: dict = field(default_factory=dict, init=False)

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
_CACHE: OrderedDict = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 64
_META: dict = {}


def _meta_validator(draft: str):
    v = _META.get(draft)
    if v is None:
        cls = CLASSES[draft]
        v = _META[draft] = cls(BASES[draft].META_SCHEMA, format_checker=FORMAT_CHECKERS[draft],
                               registry=NO_NETWORK)
    return v


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


def _static_check(schema, draft: str, resolver) -> int:
    """Resolve every ``$ref``/``$dynamicRef`` and compile every pattern, up front; the expanded
    size of all the patterns (at most ``PATTERN_MAX_SIZE`` for the whole schema)."""
    total = 0

    def pattern(text: str, where: tuple, what: str = "The pattern") -> None:
        nonlocal total
        try:
            total += compiled_pattern(text)[1]
        except PatternError as exc:
            raise _schema_error(exc.sentence(what), where) from None
        if total > PATTERN_MAX_SIZE:
            raise _schema_error(f"{what} {text[:200]!r} is one too many: "
                                + too_large_detail(total, whole="with their counted repetitions "
                                                   "written out, the schema's patterns together"), where)
    stack = [(schema, (), resolver, specification(draft))]
    first = True
    while stack:
        node, parts, res, spec = stack.pop()
        if not isinstance(node, dict):
            continue
        if "$schema" in node and isinstance(node["$schema"], str) and dialect_of(node["$schema"]):
            spec = specification(dialect_of(node["$schema"]))
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
            pattern(pat, parts + ("pattern",))
        pp = node.get("patternProperties")
        if isinstance(pp, dict):
            for key in pp:
                pattern(key, parts + ("patternProperties", key), "The patternProperties key")
        for kw, key, sub in subschemas(node):
            stack.append((sub, parts + (kw,) if key is None else parts + (kw, key), res, spec))
    return total


@contextlib.contextmanager
def bounded(limits):
    """Run under the limits of one validation (see the module doc)."""
    with Deadline(limits.work_timeout, "Validation"), regex_time_limit(limits.regex_timeout), evolve_memo():
        try:
            yield
        except RecursionError:
            raise too_deep() from None
        except PatternError as exc:
            raise _schema_error(exc.sentence()) from None
        except Unresolvable as exc:
            raise _unresolvable(exc) from None


def compile_schema(schema, *, default_draft: str = "2020-12", format_assert: bool = False,
                   registry=None, limits=DEFAULT_LIMITS) -> CheckedSchema:
    """Check ``schema`` (a parsed value) and build its validator; cached."""
    default_draft = normalize_draft(default_draft)
    key = (dumps_value(schema), default_draft, bool(format_assert), id(registry))
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit.registry is (registry or NO_NETWORK):
            _CACHE.move_to_end(key)
            return hit
    base = registry if registry is not None else NO_NETWORK
    combined = with_metaschemas(base)
    with bounded(limits):
        draft, cls, meta = _dialect(schema, default_draft, combined)
        problems = list(meta.iter_errors(schema))
        if problems:
            raise _meta_error(problems, draft)
        if not isinstance(schema, (dict, bool)):
            raise _schema_error(f"A schema must be an object or a boolean, not {kind_of(schema)}")
        # a metaschema with the format-assertion vocabulary asserts formats (true or false: the
        # value only says whether a validator without it may go on)
        asserted = format_assert or getattr(cls, "wb_format_assertion", False)
        checker = FORMAT_CHECKERS[draft] if asserted else None
        validator = cls(schema, registry=base, format_checker=checker)
        pattern_size = _static_check(schema, draft, validator._resolver)
    fast = None
    if cls is CLASSES[draft]:  # not for a custom metaschema's vocabularies
        fast = compile_functions(schema, draft, resolver=validator._resolver, format_checker=checker)
    compiled = CheckedSchema(schema, draft, validator, base, validator._resolver, fast, pattern_size)
    if pattern_size > PATTERN_CACHE_BUDGET // 10:
        return compiled  # its compiled patterns are large: never kept past the request
    with _CACHE_LOCK:
        _CACHE[key] = compiled
        while len(_CACHE) > _CACHE_SIZE or sum(c.pattern_size for c in _CACHE.values()) > PATTERN_CACHE_BUDGET:
            _CACHE.popitem(last=False)
    return compiled


def _meta_error(problems, draft) -> WorkbenchError:
    best = best_match(problems)
    while best.context and best.validator in ("anyOf", "oneOf"):
        best = best_match(best.context)
    parts = tuple(best.absolute_path)
    if best.validator == "format" and best.validator_value == "regex" and isinstance(best.instance, str):
        try:
            compile_ecma(best.instance)
        except PatternError as exc:  # say what is wrong with the pattern, not only that it is
            key = getattr(best, "wb_pname", None)  # a patternProperties key (propertyNames)
            if key is not None:
                return _schema_error(exc.sentence("The patternProperties key"), parts + (key,), draft=draft)
            return _schema_error(exc.sentence(), parts, draft=draft)
    where = pointer_of(parts) or "the root"
    listed = []
    for p in sorted(problems, key=lambda e: len(e.absolute_path))[:10]:
        listed.append({"pointer": pointer_of(p.absolute_path), "keyword": p.validator or "false",
                       "message": error_text(p)[1]})
    return _schema_error(f"The schema is not a valid {draft} schema: {error_text(best)[1]} (at {where})",
                         parts, draft=draft, problems=listed)


