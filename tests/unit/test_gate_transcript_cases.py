"""The gallery's transcript and stream cases: one or more per group of transcript-rules.md, each
walked through POST /api/transcript finding exactly the codes it teaches (and the clean case none
that is an error)."""

from __future__ import annotations

import pytest

from workbench.gallery import by_name as case_by_name
from workbench.gallery.transcripts import TRANSCRIPT_CASES


def test_every_group_has_a_case():
    assert {c["group"] for c in TRANSCRIPT_CASES} == {"pairing", "state", "stream", "spec"}


@pytest.mark.parametrize("case", TRANSCRIPT_CASES, ids=lambda c: c["name"])
def test_case_finds_what_it_teaches(client, case):
    body = {"text": case["text"]}
    if case.get("tools"):
        body["tools"] = case["tools"]
    r = client.post("/api/transcript", json=body)
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    codes = [f["code"] for f in answer["findings"]]
    for code in case["findings"]:
        assert code in codes, (case["name"], codes)
    if not case["findings"]:
        assert not [f for f in answer["findings"] if f["severity"] in ("error", "warning")], codes
    # every finding is placed in the pasted text
    for f in answer["findings"]:
        assert f["line"] >= 1 and f["column"] >= 1
    assert case_by_name(case["name"]) is case
    assert len(case["teaches"]) > 40


def test_case_loads_on_the_page_without_javascript(client):
    r = client.get("/gate?case=stream-cut-off")
    assert r.status_code == 200
    assert "response.output_item.added" in r.get_data(as_text=True)
