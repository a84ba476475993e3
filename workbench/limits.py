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
| work_timeout | 20 s for one request's work | WORKBENCH_WORK_TIMEOUT |
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
