"""The recordings the must-show tests run over (issue 23: "every shared recording"): the SDKs'
real run states kept with the tests (tests/data/run_state), and, when ../shared is here, every
recorded transcript and stream of realworld, realworld2's providers and the Open Responses
fixtures' streams.  One list for the unit and the browser tests."""

from __future__ import annotations

from pathlib import Path

RUN_STATES = Path(__file__).resolve().parent / "data" / "run_state"


def recordings() -> list[Path]:
    from conftest import shared_dir
    files = sorted(RUN_STATES.glob("*/*.json"))
    root = shared_dir()
    if root is None:
        return files
    ref = root / "reference"
    for base in (ref / "realworld" / "transcripts", ref / "realworld" / "streams"):
        files += sorted(p for p in base.iterdir() if p.name != "index.jsonl")
    files += sorted(p for p in (ref / "realworld2").rglob("*") if p.is_file()
                    and p.suffix in (".json", ".sse", ".txt", ".jsonl")
                    and p.name != "index.jsonl")
    files += sorted((ref / "openresponses-fixtures").glob("stream_*.txt"))
    return files
