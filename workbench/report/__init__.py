"""Reporters a CI system reads: the findings of ``gate``, ``transcript`` and ``validate`` as
GitHub workflow commands (:mod:`.github`), JUnit XML (:mod:`.junit`) or SARIF 2.1.0
(:mod:`.sarif`).  No Flask, no command line: the subcommands turn their answers into
:class:`Case` values (one per item or file) and pick a writer from :data:`WRITERS`.

* A :class:`Finding` is ``(code, severity, message, line, column)``; ``severity`` is
  ``error``, ``warning`` or ``info`` (the transcript's words; a blocked gate verdict and a
  schema error are errors, a document's warning a warning).
* ``fail_on`` (``error``, ``warning`` or ``never``) says which findings fail (:mod:`.model`).
  JUnit lists those as ``<failure>``; the exit status of a command is 1 when any case has one.
* The output is deterministic: no times, no dates, cases and findings in the order given.
"""

from __future__ import annotations

from . import github, junit, sarif
from .model import FAIL_ON, SEVERITIES, Case, Finding, failing, fails

WRITERS = {"github": github.render, "junit": junit.render, "sarif": sarif.render}
FORMATS = tuple(WRITERS)

__all__ = ["Case", "Finding", "fails", "failing", "write", "WRITERS", "FORMATS", "FAIL_ON",
           "SEVERITIES"]


def write(kind: str, cases: list[Case], *, tool: str, fail_on: str = "error") -> str:
    """The report of ``cases`` in format ``kind`` (a key of :data:`WRITERS`) as text."""
    return WRITERS[kind](cases, tool=tool, fail_on=fail_on)
