"""Every limit in one place, with its default; each can be set by CLI flag or environment.

| name | default | env variable |
| --- | --- | --- |
| max_body | 64 MiB | WORKBENCH_MAX_BODY |
| max_depth | 512 levels | WORKBENCH_MAX_DEPTH |
| regex_timeout | 1.0 s | WORKBENCH_REGEX_TIMEOUT |
| max_matches | 10,000 matches returned | WORKBENCH_MAX_MATCHES |
| max_changes | 10,000 changes returned | WORKBENCH_MAX_CHANGES |
| max_errors | 1,000 validation errors returned | WORKBENCH_MAX_ERRORS |
| diff_max_bytes | 32 MiB per side | WORKBENCH_DIFF_MAX_BYTES |
| work_timeout | 20 s for one request's work (0: no limit, the command line's default) | WORKBENCH_WORK_TIMEOUT |
| max_line | one line of a JSON Lines file on the command line (0: the same as max_body) | WORKBENCH_MAX_LINE |
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace

MiB = 1024 * 1024
DEFAULT_MAX_DEPTH = 512


@dataclass(frozen=True)
class Limits:
    max_body: int = 64 * MiB
    max_depth: int = DEFAULT_MAX_DEPTH
    regex_timeout: float = 1.0
    max_matches: int = 10_000
    max_changes: int = 10_000
    max_errors: int = 1_000
    diff_max_bytes: int = 32 * MiB
    work_timeout: float = 20.0
    max_line: int = 0

    @property
    def line_limit(self) -> int:
        """The longest line a JSON Lines reader takes, in bytes (``max_line``, else ``max_body``)."""
        return self.max_line or self.max_body

    @classmethod
    def from_env(cls, environ=None, **overrides) -> "Limits":
        environ = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            raw = environ.get("WORKBENCH_" + f.name.upper())
            if raw:
                values[f.name] = float(raw) if f.type in ("float", float) else int(raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def with_(self, **changes) -> "Limits":
        return replace(self, **changes)


DEFAULT_LIMITS = Limits()


# --------------------------------------------------------------------------- bounds inside the cores
# Not settable: each caps what one answer lists or how far a core looks, measured where it
# matters; an answer cut by one says so (``truncated``, a count of all).  Tuning constants of
# an algorithm (alignment budgets, compiled-schema sizes) stay beside their algorithm.

TRANSCRIPT_MAX_CALLS = 100_000  # calls listed in a transcript answer (the count has all)
TRANSCRIPT_FREE_PIECES = 10_000  # lines / events / array elements a transcript may hold whatever its size
TRANSCRIPT_CHARS_PER_PIECE = 64  # beyond those, characters per value it must carry (memory ≤ 10× the text; real recordings carry ≥ 180)
TRANSCRIPT_MAX_SPEC_FINDINGS = 200  # spec_schema findings in one answer
TRANSCRIPT_FULL_SHAPES = 2000  # values checked against the spec in full before only their top-level shape is compared
STREAM_MAX_ORDER_FINDINGS = 200  # stream_order findings in one answer
STREAM_MAX_SEQUENCE_FINDINGS = 20  # stream_sequence findings in one answer
NEAR_MISS_BUDGET = 200_000  # edit-distance comparisons for the near-miss ids of one transcript
ENVELOPE_MAX_LISTED = 200  # calls listed when a whole response or log is pasted into the one-item gate
ENVELOPE_MAX_NODES = 500_000  # nodes searched for calls in such a paste
DEEPDIFF_MAX_CHARS = 500_000  # characters per side the DeepDiff engine takes in order (~2 s; 413 above)
DEEPDIFF_MAX_CHARS_UNORDERED = 100_000  # the same with ignore_order (~2 s)
DIFF_MAX_TEXT = 100_000  # characters of one side's JSON text in a change (longer texts are cut, and say so)
DIFF_LOCATE_LIMIT = 2_000_000  # characters above which change texts are written from the parse, not sliced from the text
DIFF_TOLERANCE_MAX_CHARS = 100  # characters of a diff tolerance number (a 5,000-digit tolerance means nothing)
DIFF_TOLERANCE_MAX_EXPONENT = 1000  # a diff tolerance lies within 1e-1000 .. 1e1000 (1e9999999% would overflow the arithmetic)
DIFF_MERGE_MAX_NOTES = 1000  # places a merge patch cannot express listed in one answer (merge_patch_note_count has all)
DIFF_MAX_WARNINGS = 100  # warnings listed per side of a diff (unsafe integers, duplicate keys…; warning_count has all)
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
