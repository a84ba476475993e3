"""SARIF 2.1.0: one run of the ``workbench`` driver; every finding code met is a rule (its
``help`` text from the rules pages: :mod:`.rules`), every finding a result at its physical
location (the file as a relative URI, the line and column when known; a finding without a
line points at the file).  Validated against the OASIS schema in the tests."""

from __future__ import annotations

from urllib.parse import quote

from .. import __version__
from ..jsontext import dumps_value
from .rules import help_text

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _uri(path: str) -> str:
    if path == "-":
        return "stdin"
    return quote(path.replace("\\", "/"), safe="/:@!$&'()*+,;=-._~")


def render(cases, *, tool: str, fail_on: str = "error") -> str:
    rules: list[dict] = []
    index: dict[str, int] = {}
    results = []
    for case in cases:
        for f in case.findings:
            if f.code not in index:
                index[f.code] = len(rules)
                short, full = help_text(tool, f.code)
                rules.append({"id": f.code, "name": f.code,
                              "shortDescription": {"text": short},
                              "fullDescription": {"text": full},
                              "help": {"text": full},
                              "defaultConfiguration": {"level": _LEVEL[f.severity]}})
            location = {"artifactLocation": {"uri": _uri(case.file)}}
            if f.line is not None:
                region = {"startLine": max(1, f.line)}
                if f.column is not None:
                    region["startColumn"] = max(1, f.column)
                location["region"] = region
            results.append({"ruleId": f.code, "ruleIndex": index[f.code],
                            "level": _LEVEL[f.severity], "message": {"text": f.message},
                            "locations": [{"physicalLocation": location}]})
    log = {"$schema": SCHEMA, "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "workbench", "version": __version__,
                                         "rules": rules}},
                     "results": results}]}
    return dumps_value(log).decode("utf-8") + "\n"
