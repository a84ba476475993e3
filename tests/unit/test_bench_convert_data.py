"""bench/bench_convert.py's transcript converts: the shared generator's items without the
fixtures' function calls a conversion refuses (``common.convertible``: SDK test fragments with
no ``arguments`` or arguments that are not JSON), while every other benchmark keeps the items
as they were (those fragments included, which the converter refuses with a 422 at their
place, as api.md says)."""

from __future__ import annotations

import json
import sys
from itertools import islice
from pathlib import Path

import pytest

from workbench.convert import convert
from workbench.errors import WorkbenchError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import common  # noqa: E402

N = 1500


def transcript(items) -> str:
    return '{"model": "gpt-5", "input": [\n' + ",\n".join(
        json.dumps(i, ensure_ascii=False) for i in items) + "\n]}\n"


@pytest.fixture(scope="module")
def fixtures(shared):
    assert common.fixture_items_path().exists()
    return common.fixture_items()


def test_the_fixture_fragments_are_what_a_conversion_refuses(fixtures):
    refused = [i for i in fixtures if not common.convertible(i)]
    assert {"type": "function_call", "name": "test_tool"} in refused
    assert {"type": "function_call", "name": "toolA", "call_id": "cid-safe",
            "arguments": "original"} in refused
    assert all(i["type"] == "function_call" for i in refused) and len(refused) == 13
    for item in refused:
        with pytest.raises(WorkbenchError) as exc:
            convert(transcript([item]), "anthropic")
        assert exc.value.code in ("arguments_type", "arguments_parse")
        assert exc.value.extra["pointer"] == "/input/0/arguments"
    # an empty arguments text is {} to the converter: kept
    assert common.convertible({"type": "function_call", "call_id": "c", "name": "n",
                               "arguments": ""})


def test_the_benchmark_transcript_converts_to_every_dialect(fixtures):
    items = list(islice(common.realistic_items(keep=common.convertible), N))
    text = transcript(items)
    calls = sum(1 for i in items if i.get("type") == "function_call")
    for to in ("anthropic", "gemini", "chat"):
        r = convert(text, to)
        assert r["to"] == to and r["summary"]["calls"] == calls
    # the other benchmarks' items are unchanged: the fragments are among them, and refused
    plain = list(islice(common.realistic_items(), N))
    assert any(not common.convertible(i) for i in plain)
    with pytest.raises(WorkbenchError) as exc:
        convert(transcript(plain), "anthropic")
    assert exc.value.status == 422 and exc.value.code == "arguments_type"
