"""The official JSON Schema Test Suite through the Validate core, exact numbers, no network.

Every required test (``tests/<draft>/*.json``) and every optional one (``optional/``, with
``format_assert`` on for ``optional/format/``) of draft 4, 6, 7, 2019-09 and 2020-12 runs through :func:`workbench.validate.validate_value` with the schema and the data as
:func:`workbench.jsontext.parse` reads them from the suite's files (ints and Decimals, exactly as
written).  References to ``http://localhost:1234/…`` are served from the suite's ``remotes/``
folder by a local ``referencing.Registry`` given to the core -- never the network.

Expected failures: none.  ``$vocabulary`` (the two ``vocabulary.json`` files) is supported: a
custom metaschema's vocabularies select the keywords evaluated.  The list below stays for
honesty; it must only ever name tests that fail for a stated reason.

A sample of the cases also goes through ``POST /api/validate`` on the real server.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import referencing
import referencing.jsonschema
from referencing.exceptions import NoSuchResource

from workbench.errors import WorkbenchError
from workbench.jsontext import dumps_value, parse
from workbench.limits import DEFAULT_LIMITS
from workbench.validate import validate_value

DRAFTS = {
    "draft4": "draft-04",
    "draft6": "draft-06",
    "draft7": "draft-07",
    "draft2019-09": "2019-09",
    "draft2020-12": "2020-12",
}
SPECS = {
    "draft4": referencing.jsonschema.DRAFT4,
    "draft6": referencing.jsonschema.DRAFT6,
    "draft7": referencing.jsonschema.DRAFT7,
    "draft2019-09": referencing.jsonschema.DRAFT201909,
    "draft2020-12": referencing.jsonschema.DRAFT202012,
}
REMOTE = "http://localhost:1234/"

# "draft/file.json :: case description :: test description" -> why it may fail
EXPECTED_FAILURES: dict[str, str] = {}


def suite_dir(conformance: Path) -> Path:
    return conformance / "json-schema-test-suite"


def remotes_registry(suite: Path, folder: str) -> referencing.Registry:
    """The suite's remotes/ as http://localhost:1234/…, read from disk by the test only."""
    root = (suite / "remotes").resolve()

    def retrieve(uri: str):
        if not uri.startswith(REMOTE):
            raise NoSuchResource(ref=uri)
        rel = uri[len(REMOTE):].split("#", 1)[0]
        path = (root / rel).resolve()
        if root not in path.parents or not path.is_file():
            raise NoSuchResource(ref=uri)
        contents = parse(path.read_text(encoding="utf-8"), field="remote").value
        top = rel.split("/", 1)[0]
        spec = SPECS.get(top, SPECS[folder])
        return referencing.Resource.from_contents(contents, default_specification=spec)

    return referencing.Registry(retrieve=retrieve)


def cases(suite: Path, folder: str):
    for path in sorted((suite / "tests" / folder).glob("*.json")):
        for case in parse(path.read_text(encoding="utf-8"), field=path.name).value:
            for test in case["tests"]:
                name = f"{folder}/{path.name} :: {case['description']} :: {test['description']}"
                yield name, case["schema"], test["data"], test["valid"]


def run_case(schema, data, draft, registry):
    try:
        out = validate_value(schema, data, default_draft=draft, registry=registry,
                             limits=DEFAULT_LIMITS)
    except WorkbenchError as exc:
        return f"{exc.code}: {exc.message}"
    return out["valid"]


@pytest.mark.parametrize("folder", list(DRAFTS))
def test_required_suite(conformance, folder):
    suite = suite_dir(conformance)
    registry = remotes_registry(suite, folder)
    passed, failed = 0, []
    for name, schema, data, expected in cases(suite, folder):
        got = run_case(schema, data, DRAFTS[folder], registry)
        if got is expected:
            passed += 1
        else:
            failed.append((name, expected, got))
    total = passed + len(failed)
    print(f"\n{folder}: {passed}/{total} required tests pass")
    unexpected = [f for f in failed if f[0] not in EXPECTED_FAILURES]
    for name, expected, got in failed:
        print(f"  FAIL {name}: expected {expected}, got {got}")
    assert total > 500
    assert not unexpected, f"{len(unexpected)} unexpected failures: {unexpected[:20]}"


def test_sample_through_the_api(server, conformance):
    """Every 20th required case through POST /api/validate on the real server: remotes are not
    served there, so a case that needs one must be refused with 422, never fetched."""
    suite = suite_dir(conformance)
    checked = refused = 0
    for folder, draft in DRAFTS.items():
        for n, (name, schema, data, expected) in enumerate(cases(suite, folder)):
            if n % 20:
                continue
            body = {"document": dumps_value(data).decode(), "schema": dumps_value(schema).decode(),
                    "draft": draft}
            status, out = server.api("validate", body)
            assert status in (200, 422), (name, status, out)
            if status == 422:
                assert REMOTE in body["schema"], (name, out)
                assert out["error"]["code"] in ("ref_unresolvable", "schema_invalid"), (name, out)
                refused += 1
                continue
            assert out["valid"] is expected, (name, out)
            assert out["draft"] == draft
            assert out["count"] == len(out["errors"]) or out["truncated"]
            checked += 1
    print(f"\nAPI sample: {checked} cases agree, {refused} refused (need remotes)")
    assert checked > 200


# "draft/optional/file.json :: case :: test" -> why it may fail.  Only what needs a network may be
# listed here; the suite's remotes (http://localhost:1234/, cross-draft and format-assertion
# metaschemas included) are served from disk by remotes_registry, so today nothing is.
OPTIONAL_NEEDS_NETWORK: dict[str, str] = {}


def asserted(rel: Path) -> bool:
    """Files whose tests assume assertion: optional/format/* and draft 7's content.json
    (contentEncoding/contentMediaType, which draft 7 lets a validator assert)."""
    return "format" in rel.parts[:-1] or rel.name == "content.json"


@pytest.mark.parametrize("folder", list(DRAFTS))
def test_optional_suite(conformance, folder):
    """Every file of optional/ (format/ with format_assert on), per-file counts printed; the
    only failures allowed are listed in OPTIONAL_NEEDS_NETWORK with their reason."""
    suite = suite_dir(conformance)
    registry = remotes_registry(suite, folder)
    root = suite / "tests" / folder / "optional"
    files = sorted(root.rglob("*.json"))
    assert files, root
    lines, failed = [], []
    passed_all = total_all = 0
    for path in files:
        rel = path.relative_to(root)
        passed = total = 0
        for case in parse(path.read_text(encoding="utf-8"), field=path.name).value:
            for test in case["tests"]:
                total += 1
                try:
                    got = validate_value(case["schema"], test["data"], default_draft=DRAFTS[folder],
                                         registry=registry, format_assert=asserted(rel))["valid"]
                except WorkbenchError as exc:
                    got = f"{exc.code}: {exc.message}"
                if got is test["valid"]:
                    passed += 1
                else:
                    failed.append((f"{folder}/optional/{rel.as_posix()} :: {case['description']} :: "
                                   f"{test['description']}", test["valid"], got))
        lines.append(f"  {rel.as_posix()}: {passed}/{total}")
        passed_all += passed
        total_all += total
    print(f"\n{folder} optional/: {passed_all}/{total_all} tests pass in {len(files)} files")
    print("\n".join(lines))
    for name, expected, got in failed:
        print(f"  FAIL {name}: expected {expected}, got {got}"
              + (f"  (needs a network: {OPTIONAL_NEEDS_NETWORK[name]})" if name in OPTIONAL_NEEDS_NETWORK else ""))
    unexpected = [f for f in failed if f[0] not in OPTIONAL_NEEDS_NETWORK]
    assert total_all > 300
    assert not unexpected, f"{len(unexpected)} unexpected failures: {unexpected[:20]}"
