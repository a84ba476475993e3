"""The gallery's provider cases (workbench/gallery/providers.py): each walked through
POST /api/transcript finds exactly the codes it teaches, the clean one nothing worse than info;
every code only these dialects have has a case."""

from __future__ import annotations

import pytest

from workbench.gallery import ALL, by_name
from workbench.gallery.providers import PROVIDER_CASES
from workbench.transcript.providers import SEVERITY


@pytest.mark.parametrize("case", PROVIDER_CASES, ids=lambda c: c["name"])
def test_provider_case_finds_what_it_teaches(client, case):
    r = client.post("/api/transcript", json={"text": case["text"], "tools": case.get("tools")})
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    bad = {f["code"] for f in answer["findings"] if f["severity"] != "info"}
    assert bad <= set(case["findings"]), (case["name"], bad)   # nothing it does not teach
    codes = {f["code"] for f in answer["findings"]}
    assert set(case["findings"]) <= codes, (case["name"], codes)
    if not case["findings"]:
        assert not bad, answer["findings"]
    assert by_name(case["name"]) is case and case in ALL and len(case["teaches"]) > 40


def test_every_provider_code_has_a_case():
    taught = {code for c in PROVIDER_CASES for code in c["findings"]}
    assert set(SEVERITY) <= taught, sorted(set(SEVERITY) - taught)
