"""Surviving mutants reviewed and named equivalent: each changes no behaviour a user or a caller
can see, for the reason given.  ``tests/mutation/run mutmut`` matches a survivor to an entry by
its group, function and changed line (``old`` → ``new``, as ``mutmut show`` prints them,
stripped); a survivor matched by none is unreviewed and fails the run.  Every other survivor
was killed by a new test (tests/unit/test_pinned_*.py).
"""

from __future__ import annotations

EQUIVALENT: list[dict] = [
    {"group": "web-security", "function": "allowed_hosts",
     "old": 'if extra_host and extra_host not in ("0.0.0.0", "::", ""):',
     "new": 'if extra_host and extra_host not in ("0.0.0.0", "::", "XXXX"):',
     "why": "the empty string never reaches the tuple: `extra_host and` already refuses it"},
]
