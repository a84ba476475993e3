"""The findings model of the reporters: a :class:`Case` (one item or file) holds
:class:`Finding` values; :func:`fails` says which fail under ``--fail-on``."""

from __future__ import annotations

from dataclasses import dataclass, field

SEVERITIES = ("error", "warning", "info")
FAIL_ON = ("error", "warning", "never")
_RANK = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str
    message: str
    line: int | None = None
    column: int | None = None


@dataclass
class Case:
    """One item or file: ``name`` (the JUnit testcase), ``file`` (the path as given, or
    ``-`` for standard input) and its findings, in order."""
    name: str
    file: str
    findings: list[Finding] = field(default_factory=list)


def fails(finding: Finding, fail_on: str) -> bool:
    """Whether ``finding`` fails under ``fail_on``."""
    if fail_on == "never":
        return False
    return _RANK[finding.severity] <= _RANK[fail_on]


def failing(cases, fail_on: str) -> bool:
    """Whether any finding of any case fails under ``fail_on`` (the exit status 1)."""
    return any(fails(f, fail_on) for c in cases for f in c.findings)
