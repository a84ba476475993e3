"""The mutmut campaign of the rule cores: which files are mutated, and the fast unit tests that
run against each mutant (``tests/mutation/run mutmut GROUP``).

Each group runs in its own scratch copy with only its tests: mutmut first runs them once to learn
which test reaches which function, then runs each mutant against the tests of its function
only.  Tests that start the server, a browser or a subprocess are left out
(``mutation_fastonly``): they would multiply the run by their start-up time.
"""

from __future__ import annotations

PINNED = "tests/unit/test_pinned_rules.py"
SECURITY = "tests/unit/test_pinned_security.py"
CORES = "tests/unit/test_pinned_cores.py"  # written below, with the survivors of each group

GROUPS: dict[str, dict] = {
    "web-security": {
        "mutate": ["workbench/web/security.py"],
        "tests": [SECURITY, PINNED],
    },
    "jsontext-pointer": {
        "mutate": ["workbench/jsontext/pointer.py"],
        "tests": [PINNED, CORES, "tests/unit/test_extract.py"],
    },
    "jsontext-warnings": {
        "mutate": ["workbench/jsontext/warnings.py"],
        "tests": [PINNED, CORES, "tests/unit/test_format.py"],
    },
    "jsontext-positions": {
        "mutate": ["workbench/jsontext/positions.py"],
        "tests": [PINNED, CORES, "tests/unit/test_format.py", "tests/unit/test_extract.py"],
    },
    "gate-rules-engine": {
        "mutate": ["workbench/gate/rules.py", "workbench/gate/engine.py"],
        "tests": [PINNED, CORES, "tests/unit/test_gate.py", "tests/unit/test_gate_agents.py"],
    },
    "gate-agents": {
        "mutate": ["workbench/gate/agents.py"],
        "tests": [PINNED, CORES, "tests/unit/test_gate_agents.py"],
    },
    "transcript-streams": {
        "mutate": ["workbench/transcript/streams.py"],
        "tests": [PINNED, CORES, "tests/unit/test_transcript.py"],
    },
    "transcript-report": {
        "mutate": ["workbench/transcript/report.py"],
        "tests": [PINNED, CORES, "tests/unit/test_transcript.py"],
    },
    "diff-options": {
        "mutate": ["workbench/diff/options.py"],
        "tests": [PINNED, CORES, "tests/unit/test_diff.py", "tests/unit/test_diff_providers.py"],
    },
}
