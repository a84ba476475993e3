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
RELEASE_AFTER_BYTES = 4 * 1024 * 1024  # request bodies above which the heap is trimmed after the answer
LENIENT_MAX_CHARS = 1_000_000  # JSON5 / YAML input to Format (the pure-Python parsers take ~15 s and ~8 s per MB)
