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
VALIDATE_KEYWORDS = "tests/unit/test_pinned_keywords.py"   # the survivors of validate-keywords
DIFF_OPTIONS = "tests/unit/test_pinned_diff_options.py"    # the survivors of diff-options
WARNINGS = "tests/unit/test_pinned_warnings.py"            # the survivors of jsontext-warnings
STREAMS = "tests/unit/test_pinned_streams.py"              # the survivors of transcript-streams
POSITIONS = "tests/unit/test_pinned_positions.py"          # the survivors of jsontext-positions
CHAT = "tests/unit/test_pinned_chat.py"                    # the survivors of dialects-chat
DIALECTS = "tests/unit/test_pinned_dialects.py"            # of dialects-responses-agents

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
        # test_warnings_lines.py: a line's warnings from its parsed value (_from_value) against the walker
        "tests": [PINNED, CORES, WARNINGS, "tests/unit/test_format.py", "tests/unit/test_warnings_lines.py"],
    },
    # test_format.py's 900,000-character document took 2.7 s of the 5.4 s of tests each mutant of
    # skip_value, walk, _measure and LineIndex ran (2026-12-02): deselected, what it reaches
    # is pinned in POSITIONS on an 83,000-character one
    "jsontext-positions": {
        "mutate": ["workbench/jsontext/positions.py"],
        "tests": [PINNED, CORES, POSITIONS, "tests/unit/test_format.py",
                  "tests/unit/test_extract.py"],
        "deselect": ["tests/unit/test_format.py::test_duplicate_keys_deep_in_a_large_document"],
    },
    "gate-rules-engine": {
        "mutate": ["workbench/gate/rules.py", "workbench/gate/engine.py"],
        "tests": [PINNED, CORES, "tests/unit/test_gate.py", "tests/unit/test_gate_agents.py"],
    },
    "gate-agents": {
        "mutate": ["workbench/gate/agents.py"],
        "tests": [PINNED, CORES, "tests/unit/test_gate_agents.py"],
    },
    # test_transcript_mustshow.py and test_dialects.py reach the stream walk too (43 and 123 of
    # their tests, over the shared recordings) but take 6.4 s and 7.3 s for those: every
    # survivor would pay it; the shapes of those recordings are pinned in STREAMS instead.
    # test_providers_streams.py (Anthropic, Gemini) never reaches it.
    "transcript-streams": {
        "mutate": ["workbench/transcript/streams.py"],
        "tests": [PINNED, CORES, STREAMS, "tests/unit/test_transcript.py",
                  "tests/unit/test_gate_transcript_cases.py",
                  "tests/unit/test_transcript_refinements.py",
                  "tests/unit/test_transcript_shapes.py", "tests/unit/test_transcript_guards.py"],
    },
    "transcript-report": {
        "mutate": ["workbench/transcript/report.py"],
        "tests": [PINNED, CORES, "tests/unit/test_transcript.py"],
    },
    "diff-options": {
        "mutate": ["workbench/diff/options.py"],
        # test_diff.py asks the real server (deselected here: a mutant lives in this process)
        "tests": [PINNED, CORES, DIFF_OPTIONS, "tests/unit/test_diff.py",
                  "tests/unit/test_diff_providers.py"],
    },
    # the keywords the Validate view replaces (one error per key, exact numbers, short messages)
    # and the exact number rules they use; the official suite (tests/conformance) is left out:
    # one test per draft, 30 s each, would run against nearly every mutant
    "validate-keywords": {
        "mutate": ["workbench/validate/keywords.py", "workbench/validate/numbers.py"],
        "tests": [CORES, VALIDATE_KEYWORDS, "tests/unit/test_validate.py",
                  "tests/unit/test_validate_strict.py"],
    },
    # the registry and the envelopes a call is read from: which dialect a value is, which node
    # is a call, the neutral call and the item the gate walks for it
    "dialects-responses-agents": {
        "mutate": ["workbench/dialects/__init__.py", "workbench/dialects/open_responses.py",
                   "workbench/dialects/agents.py"],
        "tests": [PINNED, CORES, DIALECTS, CHAT, "tests/unit/test_dialects.py",
                  "tests/unit/test_transcript.py"],
    },
    "dialects-chat": {
        "mutate": ["workbench/dialects/chat.py"],
        "tests": [PINNED, CORES, CHAT, "tests/unit/test_dialects.py",
                  "tests/unit/test_transcript.py", "tests/unit/test_providers_streams.py"],
    },
}
