"""Reporters a CI system reads: the findings of ``gate``, ``transcript`` and ``validate`` as
GitHub workflow commands (:mod:`.github`), JUnit XML (:mod:`.junit`) or SARIF 2.1.0
(:mod:`.sarif`).  No Flask, no command line: the subcommands turn their answers into
:class:`Case` values (one per item or file) and pick a writer from :data:`WRITERS`.

* A :class:`Finding` is ``(code, severity, message, line, column)``; ``severity`` is
  ``error``, ``warning`` or ``info`` (the transcript's words; a blocked gate verdict and a
  schema error are errors, a document's warning a warning).
* ``fail_on`` (``error``, ``warning`` or ``never``) says which findings fail: :func:`failing`.
  JUnit lists those as ``<failure>``; the exit status of a command is 1 when any case has one.
* The output is deterministic: no times, no dates, cases and findings in the order given.
"""

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


def write(kind: str, cases: list[Case], *, tool: str, fail_on: str = "error") -> str:
    """The report of ``cases`` in format ``kind`` (a key of :data:`WRITERS`) as text."""
    return WRITERS[kind](cases, tool=tool, fail_on=fail_on)


def _writers() -> dict:
    from . import github, junit, sarif
    return {"github": github.render, "junit": junit.render, "sarif": sarif.render}


class _Lazy(dict):
    def __missing__(self, key):
        self.update(_writers())
        return dict.__getitem__(self, key)


WRITERS: dict = _Lazy()
FORMATS = ("github", "junit", "sarif")
