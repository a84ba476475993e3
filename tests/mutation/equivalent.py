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
    {"group": 'jsontext-pointer', "function": 'pointer_of',
     "old": 'return "".join([f"/{p}" if type(p) is int else (token(p) or _token(p)) for p in parts])',
     "new": 'return "".join([f"/{p}" if (type(p) is int) and False else (token(p) or _token(p)) for p in parts])',
     "why": "an index sent down the name path is written the same: _token(0) is '/' + escape_token('0') == '/0' (and ints are never memoised)"},
    {"group": 'jsontext-pointer', "function": 'pointer_of',
     "old": 'return "".join([f"/{p}" if type(p) is int else (token(p) or _token(p)) for p in parts])',
     "new": 'return "".join([f"/{p}" if type(None) is int else (token(p) or _token(p)) for p in parts])',
     "why": "the same: every index takes the name path, which writes '/0' for 0"},
    {"group": 'jsontext-pointer', "function": 'pointer_of',
     "old": 'return "".join([f"/{p}" if type(p) is int else (token(p) or _token(p)) for p in parts])',
     "new": 'return "".join([f"/{p}" if type(p) is int else (token(None) or _token(p)) for p in parts])',
     "why": "the memo is never read, every name is escaped again: the same pointer, only slower (the memo's filling is pinned by test_names_are_remembered_once_and_at_most_100000)"},
    {"group": 'jsontext-pointer', "function": 'normalized_path',
     "old": 'return "$" + "".join([f"[{p}]" if type(p) is int else (segment(p) or _segment(p)) for p in parts])',
     "new": 'return "$" + "".join([f"[{p}]" if (type(p) is int) and False else (segment(p) or _segment(p)) for p in parts])',
     "why": '_segment writes an int as [n] itself (its isinstance test): the same path'},
    {"group": 'jsontext-pointer', "function": 'normalized_path',
     "old": 'return "$" + "".join([f"[{p}]" if type(p) is int else (segment(p) or _segment(p)) for p in parts])',
     "new": 'return "$" + "".join([f"[{p}]" if type(None) is int else (segment(p) or _segment(p)) for p in parts])',
     "why": 'the same: every index goes to _segment, which writes [n]'},
    {"group": 'jsontext-pointer', "function": 'normalized_path',
     "old": 'return "$" + "".join([f"[{p}]" if type(p) is int else (segment(p) or _segment(p)) for p in parts])',
     "new": 'return "$" + "".join([f"[{p}]" if type(p) is int else (segment(None) or _segment(p)) for p in parts])',
     "why": 'the memo is never read: the same path, written again each time'},
]
