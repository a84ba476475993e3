"""Issue 21 rows 6 and 10: a stream is read with every line ending SSE allows (CR, LF, CRLF),
and a transcript or stream of many tiny lines or events is bounded in memory (≤ 10× the
input, measured as peak RSS in a child process) or refused with its place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.errors import WorkbenchError
from workbench.transcript import analyse

from test_transcript import WEATHER_TOOL, fc_stream, sse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ending", ["\r", "\r\n", "\n"])
def test_an_sse_stream_reads_alike_with_every_line_ending(ending):
    lf = analyse(sse(*fc_stream()), json.dumps([WEATHER_TOOL]))
    r = analyse(sse(*fc_stream()).replace("\n", ending), json.dumps([WEATHER_TOOL]))
    assert r["kind"] == "response_stream" and r["source"] == "sse"
    assert [(c["name"], c["call_id"], c["verdict"]) for c in r["calls"]] == \
        [("get_weather", "call_1", "ok")]
    assert [f["code"] for f in r["findings"]] == [f["code"] for f in lf["findings"]]
    assert r["summary"]["lines"] == lf["summary"]["lines"]
    assert [(c["line"], c["column"]) for c in r["calls"]] == \
        [(c["line"], c["column"]) for c in lf["calls"]]


def test_a_cr_only_stream_places_a_bad_line_at_its_line():
    text = sse(*fc_stream()).replace("event: response.output_item.done",
                                     "garbage here\nevent: response.output_item.done")
    r = analyse(text.replace("\n", "\r"))
    (f,) = [f for f in r["findings"] if f["code"] == "stream_bad_line"]
    assert text.splitlines()[f["line"] - 1] == "garbage here"


def test_cr_only_json_lines_are_lines():
    lines = [json.dumps(e) for e in fc_stream()]
    r = analyse("\r".join(lines))
    assert r["source"] == "json_lines" and r["summary"]["lines"] == len(lines)
    assert [c["verdict"] for c in r["calls"]] == ["ok"]
