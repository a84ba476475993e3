"""Draft a strict schema from example documents (``POST /api/validate/draft``): the first door
of the Agents API rules — a tool's parameters written strict — started from real arguments.

The draft is shown for the user to edit; nothing applies it.  What it writes:

* every object ``"additionalProperties": false`` and every property in ``required`` (a property
  missing from some examples is left out of ``required`` and named in ``notes``: a schema that
  refuses its own examples would be no start);
* ``type`` from the values seen (``integer`` when every number is integral — exact numbers, so
  ``1.0`` counts as integral only from draft 6 on, as Validate reads it);
* ``enum`` for a small set of repeated short strings (at most :data:`ENUM_MAX` values, each seen
  more than once overall);
* ``pattern`` for id-like strings — names the review calls ids (``order_id``, ``sku``…) or values
  shaped like provider ids (``call_…``, ``fc_…``, ``msg_…``): ``A-1042`` → ``^[A-Z]-\\d{4}$``,
  ``call_8fK2…`` → ``^call_[A-Za-z0-9]+$``;
* ``format: "date-time"`` when every value is an RFC 3339 date-time.

The answer carries the draft as ``schema`` and as indented ``text``, ``checks`` (each example
validated against it) and the strictness ``review`` of it (empty when nothing is left open).

Measured against genson (MIT, 1.4.0) on the same examples: genson refuses ``Decimal`` (the exact
numbers every view keeps), writes ``$schema: "http://json-schema.org/schema#"`` (not a dialect
Validate knows), marks required only what every example has, and writes no
``additionalProperties``, ``enum`` or ``pattern`` — each would need rewriting afterwards, so
this module writes the draft itself (about 150 lines) and adds no dependency.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ..errors import WorkbenchError, bad_request
from ..fields import Field, Fields
from ..jsontext import dumps_tree, escape_token, parse, plain_dumps
from ..limits import DRAFT_MAX_EXAMPLES as MAX_EXAMPLES
from .calls import find_call
from .evaluate import validate_value
from .formats_strict import date_time
from .review import looks_like_id, review_schema

ENUM_MAX = 5
ENUM_LENGTH = 32

_PROVIDER_ID = re.compile(r"([a-z]{2,12})_([A-Za-z0-9]{6,})")

REQUEST = Fields(
    Field("examples", required=True, text=True,
          what="a string holding one JSON document, or several as JSON Lines"),
    Field("target", default="document", what='"document" or "arguments"',
          doc='"arguments": an example that is a function call item contributes its parsed arguments',
          schema={"enum": ["document", "arguments"]}),
    Field("name", doc="wrap the draft as a strict function tool of this name"),
)


class _Node:
    """What was seen at one place of the examples."""

    __slots__ = ("types", "strings", "props", "seen", "items", "integral")

    def __init__(self):
        self.types: set = set()
        self.strings: list = []
        self.props: dict = {}
        self.seen = 0          # objects seen here (for required)
        self.items: _Node | None = None
        self.integral = True

    def add(self, v) -> None:
        if v is None:
            self.types.add("null")
        elif v is True or v is False:
            self.types.add("boolean")
        elif isinstance(v, str):
            self.types.add("string")
            self.strings.append(v)
        elif isinstance(v, (int, Decimal, float)):
            self.types.add("number")
            if not (isinstance(v, int) or (isinstance(v, Decimal) and v == v.to_integral_value())):
                self.integral = False
        elif isinstance(v, list):
            self.types.add("array")
            if self.items is None:
                self.items = _Node()
            for x in v:
                self.items.add(x)
        elif isinstance(v, dict):
            self.types.add("object")
            self.seen += 1
            for k, x in v.items():
                node = self.props.get(k)
                if node is None:
                    node = self.props[k] = _Node()
                node.add(x)


def _shape(value: str) -> list:
    """``A-1042`` → ``[("A-Z", 1), ("-",), ("0-9", 4)]``: runs of one character class."""
    out: list = []
    for m in re.finditer(r"[A-Z]+|[a-z]+|[0-9]+|[^A-Za-z0-9]", value):
        t = m.group()
        if t.isdigit():
            out.append(["\\d", len(t), len(t)])
        elif t.isalpha() and t.isascii():
            out.append(["[A-Z]" if t.isupper() else "[a-z]", len(t), len(t)])
        else:
            out.append([re.escape(t) if t not in "-_" else t])
    return out


def id_pattern(values: list) -> str | None:
    """A pattern every value matches, from the shape they share, or None."""
    if not values or not all(v.isascii() and v for v in values):
        return None
    m = [_PROVIDER_ID.fullmatch(v) for v in values]
    if all(m) and len({x.group(1) for x in m}) == 1:
        return f"^{m[0].group(1)}_[A-Za-z0-9]+$"
    if all(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", v) for v in values):
        return "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
    shapes = [_shape(v) for v in values]
    first = shapes[0]
    if len(first) > 12:
        return None
    for s in shapes[1:]:
        if len(s) != len(first) or any(a[0] != b[0] for a, b in zip(first, s)):
            return None
        for a, b in zip(first, s):
            if len(a) == 3:
                a[1], a[2] = min(a[1], b[1]), max(a[2], b[2])
    out = []
    for run in first:
        if len(run) == 1:
            out.append(run[0])
        else:
            cls, lo, hi = run
            out.append(cls + ("" if lo == hi == 1 else f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}"))
    return "^" + "".join(out) + "$"


def _looks_like_provider_id(values: list) -> bool:
    return bool(values) and all(_PROVIDER_ID.fullmatch(v) for v in values)


class _Drafter:
    def __init__(self):
        self.notes: list[dict] = []
        self.counts: dict[int, dict] = {}

    def schema(self, node: _Node, name: str | None, where: str, presence: dict, spath: str = "") -> dict:
        """The schema of one place: ``where`` is its pointer pattern in the examples (array
        items as ``/0``), ``spath`` its pointer in the draft (for the notes)."""
        types = set(node.types)
        if "number" in types and node.integral:
            types = (types - {"number"}) | {"integer"}
        order = ["object", "array", "string", "integer", "number", "boolean", "null"]
        listed = [t for t in order if t in types]
        out: dict = {}
        if listed:
            out["type"] = listed[0] if len(listed) == 1 else listed
        if "object" in types:
            props = {}
            required = []
            for key, child in node.props.items():
                props[key] = self.schema(child, key, f"{where}/{key}", presence,
                                         f"{spath}/properties/{escape_token(key)}")
                n = presence.get((where, key), 0)
                if n == node.seen:
                    required.append(key)
                else:
                    self.notes.append({"code": "not_always_present",
                                       "pointer": f"{spath}/properties/{escape_token(key)}",
                                       "message": f"\"{key}\" is in {n} of {node.seen} examples: left out of "
                                                  "required (strict mode requires it: make it nullable and "
                                                  "always send it, or drop it)"})
            out["properties"] = props
            out["required"] = required
            out["additionalProperties"] = False
        if "array" in types and node.items is not None:
            out["items"] = (self.schema(node.items, name, f"{where}/0", presence, f"{spath}/items")
                            if node.items.types else {})
        if "string" in types:
            self._string(node.strings, name, spath, out)
        return out

    def _string(self, values: list, name: str | None, where: str, out: dict) -> None:
        distinct = list(dict.fromkeys(values))
        id_like = (name is not None and looks_like_id(name)) or _looks_like_provider_id(distinct)
        if id_like:
            pattern = id_pattern(distinct)
            if pattern:
                out["pattern"] = pattern
                self.notes.append({"code": "pattern_suggested", "pointer": where,
                                   "message": f"pattern {pattern} drawn from {len(distinct)} example "
                                              f"value{'s' if len(distinct) != 1 else ''}: check it fits every real id"})
                return
        if 1 < len(values) and len(distinct) <= min(ENUM_MAX, len(values) - 1) \
                and all(len(v) <= ENUM_LENGTH for v in distinct) and out.get("type") == "string":
            out["enum"] = distinct
            self.notes.append({"code": "enum_suggested", "pointer": where,
                               "message": f"enum of the {len(distinct)} values seen: add any value the examples lack"})
            return
        if distinct and all(date_time(v) for v in distinct):
            out["format"] = "date-time"


def _presence(value, where: str, counts: dict) -> None:
    """How many objects at each place have each key (for required)."""
    if isinstance(value, dict):
        for k, x in value.items():
            counts[(where, k)] = counts.get((where, k), 0) + 1
            _presence(x, f"{where}/{k}", counts)
    elif isinstance(value, list):
        for x in value:
            _presence(x, f"{where}/0", counts)


def draft_schema(examples: list) -> tuple[dict, list]:
    """``(schema, notes)`` drafted from parsed example values."""
    root = _Node()
    presence: dict = {}
    for v in examples:
        root.add(v)
        _presence(v, "", presence)
    d = _Drafter()
    return d.schema(root, None, "", presence), d.notes


def example_depth(limits) -> int:
    """How deep an example may nest: its draft takes two levels per level (``items`` or
    ``properties`` and the subschema) and one more, and must be a schema Validate reads back
    (``max_depth``): 255 levels for the default 512."""
    return max(1, (limits.max_depth - 1) // 2)


def _parse_example(text: str, limits):
    try:
        return parse(text, field="examples", max_depth=example_depth(limits)).value
    except WorkbenchError as exc:
        if exc.code == "too_deep":
            exc.message += (f" (a drafted schema nests two levels for each level of its examples, and "
                            f"Validate reads schemas up to {limits.max_depth} levels: examples may nest "
                            f"{example_depth(limits)} levels)")
        raise


def _read_examples(text: str, limits) -> list:
    try:
        return [_parse_example(text, limits)]
    except WorkbenchError as whole:
        lines = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
        if len(lines) < 2:
            raise whole
        out = []
        for _number, line in lines:
            try:
                out.append(_parse_example(line, limits))
            except WorkbenchError:
                raise whole from None  # neither one document nor JSON Lines: the first reading's error
        return out


def _indented(schema) -> str:
    try:
        return dumps_tree(schema, indent=2)
    except TypeError:  # lone surrogates, or deeper than orjson writes: the plain writer
        return plain_dumps(schema, indent=2)


def handle(body: dict, limits) -> dict:
    """``POST /api/validate/draft``: ``examples`` (one document, or JSON Lines), ``target``
    (``"arguments"``: function call items contribute their parsed arguments), ``name`` (wrap
    as a strict tool).  See the module doc for what the draft holds."""
    v = REQUEST.read(body)
    examples = _read_examples(v["examples"], limits)
    if len(examples) > MAX_EXAMPLES:
        raise bad_request(f"At most {MAX_EXAMPLES} examples", field="examples", code="too_many")
    if v["target"] == "arguments":
        values = []
        for _i, ex in enumerate(examples):
            call = find_call(ex)
            args = call.arguments if call is not None else ex
            if isinstance(args, str):
                args = _parse_example(args, limits)
            values.append(args)
        examples = values
    schema, notes = draft_schema(examples)
    checks = [validate_value(schema, ex, limits=limits) for ex in examples]
    out_schema = schema
    if v["name"]:
        out_schema = {"type": "function", "name": v["name"], "strict": True, "parameters": schema}
    return {
        "schema": out_schema, "text": _indented(out_schema),
        "examples": len(examples), "notes": notes,
        "checks": [{"valid": c["valid"], "count": c["count"]} for c in checks],
        "all_valid": all(c["valid"] for c in checks),
        "review": review_schema(schema, strict=True, is_tool=True),
    }
