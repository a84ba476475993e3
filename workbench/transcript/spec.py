"""Items and events against the component schemas of the bundled spec (``spec/``: the Open
Responses OpenAPI document of 2026-04-24, Apache-2.0; see ``spec/NOTICE``).

* An output item (a response's ``output``, a stream's items and ``output_item`` events) is
  checked against its output schema (``FunctionCall``, ``Message``, ``FunctionCallOutput``…), an
  input item (a request's ``input``, an item list) against its ``*ItemParam`` schema (which does
  not require ``id`` or ``status``), and each stream event against its ``*StreamingEvent``.
* References resolve only inside the document: the registry holds the spec and nothing else, and
  its ``retrieve`` refuses every other URI, so nothing is ever fetched.
* One validator per component, compiled once per process and cached.
* Speed on large logs: a value whose *shape* already passed is not validated again.  The shape
  keeps every key, every type, the text of strings under keys the spec constrains with an
  ``enum`` (``type``, ``status``, ``role``…), and for other strings and numbers just the class
  the spec's bounds tell apart (empty, ≤ 64 characters of ``[A-Za-z0-9_-]``, ≤ 64, ≤ 512, …;
  numbers below 0, 0, 1–15, 16–20, above).  After the first ``FULL_SHAPES`` values the shape is
  taken at the top level only (nested objects and arrays by their type), so a fault deep inside
  a value whose top-level shape already passed thousands of times is not looked for again.  The
  answer's ``spec`` says how many values were checked and how many skipped as same-shaped.  A
  value shaped like one that failed gets that failure (its message, pointer and keyword) at its
  own place without being validated again.
* A spec failure is a ``spec_schema`` warning naming the schema, the pointer and the keyword.
  The spec's rules are not the gate's: the gate is stricter on purpose (an input call may omit
  ``status`` in the spec; the gate still requires ``completed`` before executing).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..jsontext import dumps_value
from ..limits import TRANSCRIPT_FULL_SHAPES as FULL_SHAPES
from ..limits import TRANSCRIPT_MAX_SPEC_FINDINGS as MAX_SPEC_FINDINGS
from .report import Place

SPEC_FILE = Path(__file__).resolve().parent / "spec" / "openresponses-openapi-2026-04-24.json"
SPEC_URI = "urn:workbench:openresponses:2026-04-24"


OUTPUT_SCHEMAS = {"message": "Message", "function_call": "FunctionCall",
                  "function_call_output": "FunctionCallOutput", "reasoning": "ReasoningBody",
                  "compaction": "CompactionBody"}
INPUT_SCHEMAS = {"function_call": "FunctionCallItemParam",
                 "function_call_output": "FunctionCallOutputItemParam",
                 "reasoning": "ReasoningItemParam", "compaction": "CompactionSummaryItemParam"}
MESSAGE_PARAMS = {"user": "UserMessageItemParam", "system": "SystemMessageItemParam",
                  "developer": "DeveloperMessageItemParam",
                  "assistant": "AssistantMessageItemParam"}

SPEC_NOTE = ("spec_schema findings are the spec's rules (the component schemas of Open Responses "
             "2026-04-24, bundled, nothing fetched). The gate's verdicts are the gate's rules, "
             "stricter on purpose: an input function_call may omit status in the spec "
             "(FunctionCallItemParam), but the gate requires status completed before executing.")


@lru_cache(maxsize=1)
def _spec() -> dict:
    return json.loads(SPEC_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _registry():
    from referencing import Registry, Resource
    from referencing.exceptions import NoSuchResource
    from referencing.jsonschema import DRAFT202012

    def refuse(uri: str):
        raise NoSuchResource(ref=uri)

    resource = Resource.from_contents(_spec(), default_specification=DRAFT202012)
    return Registry(retrieve=refuse).with_resource(SPEC_URI, resource)


@lru_cache(maxsize=None)
def validator(name: str):
    """The compiled validator of component ``name`` (cached for the process)."""
    from jsonschema import Draft202012Validator
    schema = {"$ref": f"{SPEC_URI}#/components/schemas/{name}"}
    return Draft202012Validator(schema, registry=_registry())


@lru_cache(maxsize=1)
def event_schemas() -> dict[str, str]:
    out = {}
    for name, s in _spec()["components"]["schemas"].items():
        if not name.endswith("StreamingEvent"):
            continue
        enum = ((s.get("properties") or {}).get("type") or {}).get("enum")
        if isinstance(enum, list) and len(enum) == 1:
            out[enum[0]] = name
    return out


@lru_cache(maxsize=1)
def enum_keys() -> frozenset:
    """Property names the spec constrains with an enum (directly or through a $ref)."""
    schemas = _spec()["components"]["schemas"]
    enum_schemas = {n for n, s in schemas.items() if isinstance(s, dict) and "enum" in s}
    keys = set()

    def has_enum(s) -> bool:
        text = json.dumps(s)
        return '"enum"' in text or any(f"schemas/{n}\"" in text for n in enum_schemas)

    def walk(x):
        if isinstance(x, dict):
            props = x.get("properties")
            if isinstance(props, dict):
                for k, v in props.items():
                    if has_enum(v):
                        keys.add(k)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(schemas)
    return frozenset(keys)


_NAME = re.compile(r"[a-zA-Z0-9_-]+")


def _string_class(s: str) -> int:
    n = len(s)
    if n == 0:
        return 0
    if n <= 64:
        return 1 if _NAME.fullmatch(s) else 2
    if n <= 512:
        return 3
    if n <= 10485760:
        return 4
    return 5


def _number_class(v) -> tuple:
    t = "i" if type(v) is int else "d"
    if v < 0:
        return (t, -1)
    if v == 0:
        return (t, 0)
    if v < 16:
        return (t, 1)
    if v <= 20:
        return (t, 16)
    return (t, 21)


def shape(v: Any, keys: frozenset, depth: int = 0):
    """The shape of ``v`` as far as the spec's schemas can tell values apart (module doc)."""
    if depth > 24:
        raise ValueError("too deep for a shape")
    t = type(v)
    if t is dict:
        return ("o",) + tuple(
            (k, val if (type(val) is str and k in keys) else shape(val, keys, depth + 1))
            for k, val in v.items())
    if t is list:
        return ("a",) + tuple(shape(x, keys, depth + 1) for x in v)
    if t is str:
        return ("s", _string_class(v))
    if t is bool or v is None:
        return v
    if t is int or t is Decimal or t is float:
        return _number_class(v)
    return ("?", t.__name__)


def top_shape(v: dict):
    """The shape at the top level only (see the module docstring): the keys in order and the
    values the spec's top-level constraints turn on (``type``, ``status``, ``role``, the
    ``name`` pattern, the 64-character bound of ``call_id``)."""
    cid = v.get("call_id")
    return (tuple(v), v.get("type"), v.get("status"), v.get("role"), v.get("name"),
            type(cid), len(cid) > 64 if type(cid) is str else None, type(v.get("arguments")),
            type(v.get("item")), type(v.get("delta")), type(v.get("output_index")))


def _pointer(path) -> str:
    from ..jsontext import pointer_of
    return pointer_of(list(path))


class SpecCheck:
    """Collects ``spec_schema`` findings for one analysis."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.checked = 0
        self.skipped = 0
        self.failed = 0
        self.passed: set = set()
        self.failed_shapes: dict = {}
        self.by_schema: dict[str, int] = {}

    def _check(self, name: str, value: Any, piece, pointer: str, what: str) -> None:
        """``value`` against component ``name``, unless a value of its shape (module doc) passed
        before; a finding at ``pointer`` of ``piece`` when it fails."""
        try:
            if self.checked + self.skipped >= FULL_SHAPES and type(value) is dict:
                sig = (name, "top", top_shape(value))
            else:
                sig = (name, shape(value, enum_keys()))
            seen = sig in self.passed
        except (ValueError, RecursionError, TypeError):  # too deep, or unhashable where a
            sig, seen = None, False                      # string was expected: no shape
        if seen:
            self.skipped += 1
            return
        ctx = self.ctx
        ctx.deadline.check()
        failure = self.failed_shapes.get(sig) if sig is not None else None
        if failure is not None:
            self.skipped += 1  # the same shape failed before: the same failure, not looked for again
        else:
            self.checked += 1
            try:
                errors = list(validator(name).iter_errors(value))
            except RecursionError:  # pragma: no cover - parse() bounds depth
                return
            if not errors:
                if sig is not None:
                    self.passed.add(sig)
                return
            from jsonschema.exceptions import best_match
            e = best_match(errors)
            failure = (_pointer(e.absolute_path), _short(_as_json(e)), str(e.validator),
                       len(errors))
            if sig is not None:
                self.failed_shapes[sig] = failure
        self.failed += 1
        self.by_schema[name] = self.by_schema.get(name, 0) + 1
        if self.failed > MAX_SPEC_FINDINGS:
            ctx.report.counts["warning"] += 1
            ctx.report.left_off += 1
            return
        ptr, message, keyword, count = failure
        more = count - 1
        ctx.report.add(
            "spec_schema",
            f"{what} does not fit the spec's {name} schema: at {ptr or 'the top'}, "
            f"{message} (keyword {keyword})"
            + (f"; {more} more failure{'s' if more != 1 else ''}" if more else "")
            + ". This is the spec's rule; the gate's own rules are checked for each call.",
            Place(piece, pointer + ptr), schema=name, keyword=keyword,
            rule="spec", failures=count)

    def items(self, placed, *, inputs: bool) -> None:
        for it, place in placed:
            if type(it) is not dict:
                continue
            t = it.get("type")
            if not isinstance(t, str):
                continue
            if inputs:
                role = it.get("role")
                name = (MESSAGE_PARAMS.get(role) if isinstance(role, str) else None) \
                    if t == "message" else INPUT_SCHEMAS.get(t)
            else:
                name = OUTPUT_SCHEMAS.get(t)
            if name is None:
                continue
            if inputs and t in OUTPUT_SCHEMAS:
                self._output_only(it, t, name, place)
            self._check(name, it, place.piece, place.pointer,
                        ("This input " if inputs else "This ") + t + " item")

    def _output_only(self, it: dict, t: str, name: str, place) -> None:
        """``output_only_field``: a property of an input item that its input schema lacks and
        its output schema has (an output replayed as input as it was)."""
        out_name = OUTPUT_SCHEMAS[t]
        for prop in output_only(out_name, name) & it.keys():
            self.ctx.report.add(
                "output_only_field",
                f"This input {t} item carries {prop}, which the spec's {out_name} (the output "
                f"item) has and {name} (the input item) does not: it was copied from an output. "
                "Providers refuse unknown parameters (the OpenAI API answers 400 "
                f"\"Unknown parameter\"): leave {prop} out when replaying.",
                place.child("/" + prop), property=prop, output_schema=out_name,
                input_schema=name)

    def events(self, pieces) -> None:
        names = event_schemas()
        for p in pieces:
            v = p.value
            if type(v) is not dict:
                continue
            t = v.get("type")
            name = names.get(t) if isinstance(t, str) else None
            if name is not None:
                self._check(name, v, p, "", "This " + t + " event")

    def summary(self) -> dict:
        return {"checked": self.checked, "skipped_same_shape": self.skipped,
                "failed": self.failed, "by_schema": self.by_schema,
                "version": "2026-04-24", "note": SPEC_NOTE}


@lru_cache(maxsize=None)
def output_only(output_name: str, input_name: str) -> frozenset:
    """The properties the spec's output schema ``output_name`` has and its input schema
    ``input_name`` lacks (derived from the bundled spec, not listed by hand)."""
    schemas = _spec()["components"]["schemas"]

    def props(n):
        return set(schemas.get(n, {}).get("properties", {}))
    return frozenset(props(output_name) - props(input_name))


def _as_json(e) -> str:
    """The validator's message with the value written as JSON, as it stands in the text (the
    library writes Python's repr: ``None``, ``True``, single quotes)."""
    r = repr(e.instance)
    if r not in e.message:
        return e.message
    try:
        written = dumps_value(e.instance).decode("utf-8")
    except Exception:  # pragma: no cover - every parsed value is writable
        return e.message
    return e.message.replace(r, _short(written, 100), 1)


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
