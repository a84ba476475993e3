"""Every limit in one place, with its default written once: each is a field of :class:`Limits`
with its help text and unit (the ``workbench serve`` flags and their help are made from them),
settable by the flag ``--max-body`` … or the environment variable ``WORKBENCH_MAX_BODY`` ….
The README's limits table is checked against these fields (tests/unit/test_tables.py).
"""

from __future__ import annotations

import os

MiB = 1024 * 1024
DEFAULT_MAX_DEPTH = 512


class LimitField:
    """One limit: its ``name``, ``type`` (``"int"`` or ``"float"``), ``default`` and ``metadata``
    (``unit``, ``help``) -- what ``dataclasses.fields`` gave, without importing dataclasses (and
    its inspect, ast, dis…) for every command's start-up (issue 25)."""

    __slots__ = ("name", "type", "default", "metadata")

    def __init__(self, name: str, type_: str, default, unit: str, help: str):
        self.name, self.type, self.default = name, type_, default
        self.metadata = {"unit": unit, "help": help}

    def __repr__(self) -> str:
        return f"LimitField({self.name!r}, default={self.default!r})"


def _limit(default, unit: str, help: str) -> tuple:
    return default, unit, help


# name: (default, unit, help); the order of the flags and of the README's table
_DECLARED = {
    "max_body": _limit(64 * MiB, "bytes", "largest request body in bytes"),
    "max_depth": _limit(DEFAULT_MAX_DEPTH, "levels", "deepest nesting of objects/arrays"),
    "regex_timeout": _limit(1.0, "s", "seconds one schema pattern may run"),
    "max_matches": _limit(10_000, "", "JSONPath matches returned"),
    "max_changes": _limit(10_000, "", "diff changes returned"),
    "max_errors": _limit(1_000, "", "validation errors returned"),
    "diff_max_bytes": _limit(32 * MiB, "bytes", "largest document per diff side in bytes"),
    "work_timeout": _limit(20.0, "s", "seconds one request's work may take (0: no limit)"),
    "max_line": _limit(0, "bytes", "longest line of a JSON Lines file on the command line in bytes (0: max_body)"),
}
LIMIT_FIELDS = {name: LimitField(name, type(d).__name__, d, unit, help)
                for name, (d, unit, help) in _DECLARED.items()}


class Limits:
    """Every settable limit (see :data:`LIMIT_FIELDS`): an immutable value, ``Limits(max_depth=64)``,
    equal and hashed by its values."""

    __slots__ = tuple(LIMIT_FIELDS)

    def __init__(self, **values):
        unknown = set(values) - LIMIT_FIELDS.keys()
        if unknown:
            raise TypeError(f"Limits() got unexpected limits: {', '.join(sorted(unknown))}")
        for name, f in LIMIT_FIELDS.items():
            object.__setattr__(self, name, values.get(name, f.default))

    def __setattr__(self, name, value):
        raise AttributeError(f"Limits are immutable: use .with_({name}=…)")

    def __reduce__(self):   # pickled by its values (``--jobs`` hands the limits to the workers)
        return _limits_of, (dict(zip(LIMIT_FIELDS, self._values())),)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in LIMIT_FIELDS)

    def __eq__(self, other):
        return self._values() == other._values() if type(other) is Limits else NotImplemented

    def __hash__(self):
        return hash(self._values())

    def __repr__(self) -> str:
        return "Limits(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in LIMIT_FIELDS) + ")"

    @staticmethod
    def fields() -> list[LimitField]:
        """Every limit, in order (as ``dataclasses.fields`` listed them)."""
        return list(LIMIT_FIELDS.values())

    @property
    def line_limit(self) -> int:
        """The longest line a JSON Lines reader takes, in bytes (``max_line``, else ``max_body``)."""
        return self.max_line or self.max_body

    @staticmethod
    def shown(name: str, value) -> str:
        """A limit's value as people read it: ``64 MiB``, ``512 levels``, ``1.0 s``, ``10,000``."""
        unit = LIMIT_FIELDS[name].metadata["unit"]
        if unit == "bytes":
            if not value:
                return "0"
            return f"{value // MiB} MiB" if value % MiB == 0 else f"{value:,} bytes"
        return f"{value:,} {unit}".strip() if unit != "s" else f"{value} s"

    @staticmethod
    def help(name: str) -> str:
        """The help text of a limit's flag, its default from the field."""
        f = LIMIT_FIELDS[name]
        return f"{f.metadata['help']} (default {Limits.shown(name, f.default)})"

    @classmethod
    def from_env(cls, environ=None, **overrides) -> "Limits":
        environ = os.environ if environ is None else environ
        values = {}
        for f in LIMIT_FIELDS.values():
            raw = environ.get("WORKBENCH_" + f.name.upper())
            if raw:
                values[f.name] = float(raw) if f.type in ("float", float) else int(raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def with_(self, **changes) -> "Limits":
        return Limits(**{**{n: getattr(self, n) for n in LIMIT_FIELDS}, **changes})


def _limits_of(values: dict) -> Limits:
    return Limits(**values)


DEFAULT_LIMITS = Limits()


# --------------------------------------------------------------------------- bounds inside the cores
# Not settable: each caps what one answer lists or how far a core looks, measured where it
# matters; an answer cut by one says so (``truncated``, a count of all).  Tuning constants of
# an algorithm (alignment budgets, compiled-schema sizes) stay beside their algorithm.

TRANSCRIPT_MAX_CALLS = 1_000  # calls listed in a transcript answer (the count has all)
TRANSCRIPT_FREE_PIECES = 10_000  # lines / events / array elements a transcript may hold whatever its size
TRANSCRIPT_CHARS_PER_PIECE = 64  # beyond those, characters per value it must carry (memory ≤ 10× the text; real recordings carry ≥ 180)
TRANSCRIPT_FREE_LINES = 100_000  # lines of JSON Lines or SSE (blank, comment, id: lines too) a text may hold whatever its size
TRANSCRIPT_CHARS_PER_LINE = 16  # beyond those, characters per line (6M blank SSE lines were read for 8-17 s; real streams carry ≥ 25)
TRANSCRIPT_MAX_SPEC_FINDINGS = 200  # spec_schema findings in one answer
TRANSCRIPT_FULL_SHAPES = 2000  # values checked against the spec in full before only their top-level shape is compared
STREAM_MAX_ORDER_FINDINGS = 200  # stream_order findings in one answer
STREAM_MAX_SEQUENCE_FINDINGS = 20  # stream_sequence findings in one answer
NEAR_MISS_BUDGET = 200_000  # edit-distance comparisons for the near-miss ids of one transcript
ENVELOPE_MAX_LISTED = 200  # calls listed when a whole response or log is pasted into the one-item gate
ENVELOPE_MAX_NODES = 500_000  # nodes searched for calls in such a paste
DEEPDIFF_MAX_CHARS = 500_000  # bytes per side (written as compact JSON) the DeepDiff engine takes in order (~2 s; 413 above)
DEEPDIFF_MAX_CHARS_UNORDERED = 100_000  # the same with ignore_order (~2 s)
DIFF_MAX_TEXT = 100_000  # characters of one side's JSON text in a change (longer texts are cut, and say so)
DIFF_LOCATE_LIMIT = 2_000_000  # characters above which change texts are written from the parse, not sliced from the text
DIFF_TOLERANCE_MAX_CHARS = 100  # characters of a diff tolerance number (a 5,000-digit tolerance means nothing)
DIFF_TOLERANCE_MAX_EXPONENT = 1000  # a diff tolerance lies within 1e-1000 .. 1e1000 (1e9999999% would overflow the arithmetic)
DIFF_MERGE_MAX_NOTES = 1000  # places a merge patch cannot express listed in one answer (merge_patch_note_count has all)
DIFF_MAX_WARNINGS = 100  # warnings listed per side of a diff (unsafe integers, duplicate keys…; warning_count has all)
EXTRACT_MAX_WARNINGS = 1000  # warnings Extract places and lists (as Format: 49,725 placed took most of a 20 MB query; warning_count has all)
VALIDATE_MAX_WARNINGS = 1000  # a document's warnings Validate places and lists (as Format; warning_count has all)
FORMAT_MAX_WARNINGS = 1000  # warnings Format places and lists (placing is Python work per warning: 48k took 1.7 s CPU on 20 MB; warning_count has all)
DIFF_DEPTH_CAP = 100  # levels below which a differing subtree is one replace
DRAFT_MAX_EXAMPLES = 1000  # examples a drafted schema is inferred from
RELEASE_AFTER_BYTES = 4 * 1024 * 1024  # request bodies or answers above which the heap is trimmed after the answer
RELEASE_AFTER_GROWTH = 16 * 1024 * 1024  # growth of the resident memory during one request above which the heap is trimmed after it
LENIENT_MAX_CHARS = 1_000_000  # JSON5 / YAML input to Format (the pure-Python parsers take ~15 s and ~8 s per MB)
PATH_MAX_SEGMENTS = 512  # segments (`.name`, `..name`, `[…]`) in one JSONPath, filters' included: the engines nest a generator or a call per segment (50k crashed the process); 512 = the document depth, so a normalized path of any match fits
PATH_MAX_NESTING = 64  # levels of brackets, parentheses, `!` and chained `&&`/`||` in one JSONPath: both parsers recurse per level (measured: 64 runs with 250 frames already on the stack)
FORM_MAX_PARTS = 1000  # parts of one plain form post (a page has fewer than 20 fields)
REFUSED_BODY_LINGER = 10.0  # seconds the server reads and drops a refused body, so a client that sends before it reads still sees the 413
PATTERN_MAX_SIZE = 100_000  # atoms one pattern (or all of one schema's) compiles to, repetitions expanded (~28 MB, ~0.1 s to compile)
PATTERN_CACHE_BUDGET = 200_000  # atoms of compiled patterns kept in the caches (patterns and checked schemas) at once
VALIDATE_FRAMES = 12_000  # Python frames validation may recurse (jsonschema takes ~12 per schema level: max_depth's 512 levels need ~6,000; 8 MB thread stacks hold 11,500 of the deepest C frames)
LENIENT_MAX_EXPANSION = 2_000_000  # YAML: nodes + characters repeated by aliases in one document (a 370-byte 'billion laughs' expanded to 69 MB); bounds the output to about input + this
JSON5_MAX_DEPTH = 40  # JSON5 nesting: the json5 package is recursive pure Python (~18 frames a level; it hit Python's recursion limit at ~55)

# characters at which the pages change how they work, told to the page by the server
# (``<body data-thresholds>``, read by static/js/thresholds.js)
PAGE_LIVE_CHARS = {"format": 1_000_000, "extract": 1_000_000, "validate": 1_000_000,
                   "diff": 200_000, "gate": 200_000}  # a view runs as you type below this (all its inputs)
PAGE_THRESHOLDS = {
    "big": 2_000_000,  # a larger file or paste is held in memory, not in the textarea
    "keep": 2_000_000,  # a larger input is not kept in the tab's session storage
    "parse": 2_000_000,  # a larger text is not parsed in the page (the Gate's paste sniffing)
}
