"""The compiled path of the Validate core (:mod:`workbench.validate.compiled`) against its
jsonschema path: same validity, same errors.

* Every required test of the official suite (draft 4, 6, 7, 2019-09, 2020-12) whose schema
  compiles runs through BOTH paths of :func:`workbench.validate.evaluate`: the validity must be the
  suite's, and the error records must be the same -- the same set of ``(pointer, keyword)``
  (asserted for every test), and record for record the same pointer, keyword, message,
  ``schema_pointer``, placement and order (asserted too; the few known differences are listed
  with their reason).  How many schemas compile per draft is printed.
* The optional format tests, with ``format`` asserted, through both paths.
* Hypothesis: generated instances (valid, near-valid and arbitrary) against realistic tool
  schemas (the shared Open Responses fixtures and a few hand-written ones): both paths agree.
* Safety: schema text never reaches the generated source; the deadline and depth limits hold;
  what the compiler leaves to jsonschema is refused, not guessed.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_conformance_jsonschema import DRAFTS, remotes_registry, suite_dir

from workbench.errors import WorkbenchError
from workbench.jsontext import parse
from workbench.limits import DEFAULT_LIMITS
from workbench.validate import compile_schema, evaluate, validate_value
from workbench.validate.compiled import compile_functions

LIMITS = DEFAULT_LIMITS.with_(max_errors=100_000)


def both(compiled, instance, limits=LIMITS):
    a = evaluate(compiled, instance, limits, path="compiled")
    b = evaluate(compiled, instance, limits, path="jsonschema")
    assert a["path"] == "compiled" and b["path"] == "jsonschema"
    return a, b


def pairs(result) -> set:
    return {(e["pointer"], e["keyword"]) for e in result["errors"]}


def groups(suite: Path, folder: str, sub: str = ""):
    base = suite / "tests" / folder / sub if sub else suite / "tests" / folder
    for path in sorted(base.glob("*.json")):
        for group in parse(path.read_text(encoding="utf-8"), field=path.name).value:
            yield path.name, group


def compiled_groups(suite: Path, folder: str, sub: str, count: dict, registry=None,
                    format_assert=lambda fname: False):
    """The groups of ``folder``/``sub`` whose schema the compiler takes (a refusal comes before
    either path runs, the same for both): (file name, group, compiled).  ``count`` gets
    ``"groups"`` (all) and ``"compiled"`` added to."""
    for fname, group in groups(suite, folder, sub):
        count["groups"] += 1
        try:
            compiled = compile_schema(group["schema"], default_draft=DRAFTS[folder], registry=registry,
                                      format_assert=format_assert(fname))
        except WorkbenchError:
            continue
        if compiled.fast is None:
            continue
        count["compiled"] += 1
        yield fname, group, compiled


# --------------------------------------------------------------------------- the official suite

SUITE_COMPILED: dict[str, tuple[int, int]] = {}


@pytest.mark.parametrize("folder", list(DRAFTS))
def test_official_suite_through_both_paths(conformance, folder):
    suite = suite_dir(conformance)
    registry = remotes_registry(suite, folder)
    draft = DRAFTS[folder]
    n_groups = n_compiled = n_tests = 0
    record_diffs = []
    for fname, group in groups(suite, folder):
        n_groups += 1
        try:
            compiled = compile_schema(group["schema"], default_draft=draft, registry=registry)
        except WorkbenchError:
            continue  # refused before either path runs (same for both)
        if compiled.fast is None:
            continue
        n_compiled += 1
        for test in group["tests"]:
            name = f"{folder}/{fname} :: {group['description']} :: {test['description']}"
            a, b = both(compiled, test["data"])
            n_tests += 1
            assert a["valid"] is test["valid"], (name, a)
            assert b["valid"] is test["valid"], (name, b)
            assert a["count"] == b["count"], (name, a, b)
            assert pairs(a) == pairs(b), (name, a["errors"], b["errors"])
            if a["errors"] != b["errors"]:
                record_diffs.append((name, a["errors"], b["errors"]))
    SUITE_COMPILED[folder] = (n_compiled, n_groups)
    print(f"\n{folder}: {n_compiled}/{n_groups} schemas compile; {n_tests} tests agree on both paths")
    for name, x, y in record_diffs:
        print("  records differ:", name, x, y)
    assert not record_diffs
    assert n_compiled >= n_groups * 0.5


@pytest.mark.parametrize("folder", list(DRAFTS))
def test_optional_formats_asserted_through_both_paths(conformance, folder):
    count = Counter()
    for fname, group, compiled in compiled_groups(suite_dir(conformance), folder, "optional/format",
                                                  count, format_assert=lambda fname: True):
        for test in group["tests"]:
            a, b = both(compiled, test["data"])
            assert a == {**b, "path": "compiled"}, (fname, group["description"], test["description"])
    print(f"\n{folder} optional/format: {count['compiled']}/{count['groups']} schemas compile")
    assert count["groups"] > 6 and count["compiled"] == count["groups"]


@pytest.mark.parametrize("folder", list(DRAFTS))
def test_optional_suite_through_both_paths(conformance, folder):
    """The rest of optional/ (bignum, ecmascript-regex, non-bmp-regex, dependencies-compatibility…):
    every schema the compiler takes gives the same records on both paths."""
    suite = suite_dir(conformance)
    count = Counter()
    tests = 0
    for fname, group, compiled in compiled_groups(suite, folder, "optional", count,
                                                  registry=remotes_registry(suite, folder),
                                                  format_assert=lambda fname: fname == "content.json"):
        for test in group["tests"]:
            a, b = both(compiled, test["data"])
            tests += 1
            assert a["valid"] is test["valid"], (fname, group["description"], test["description"], a)
            assert a == {**b, "path": "compiled"}, (fname, group["description"], test["description"])
    print(f"\n{folder} optional/: {count['compiled']}/{count['groups']} schemas compile; "
          f"{tests} tests agree on both paths")
    assert count["compiled"] >= count["groups"] * 0.4


# --------------------------------------------------------------------------- realistic schemas

def fixture_tools(shared: Path) -> list[tuple[str, dict]]:
    out = []
    for line in (shared / "reference" / "openresponses-fixtures" / "tools.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        tool = parse(line).value.get("tool")
        holder = tool.get("function", tool) if isinstance(tool, dict) else None
        params = holder.get("parameters") if isinstance(holder, dict) else None
        if isinstance(params, dict) and params:
            out.append((str(holder.get("name")), params))
    return out


HAND_WRITTEN = {
    "lookup_order": {
        "type": "object",
        "properties": {"order_id": {"type": "string", "pattern": "^[A-Z]-\\d{4}$"},
                       "include_items": {"type": "boolean"},
                       "reason": {"enum": ["late", "damaged", "other", None]}},
        "required": ["order_id", "reason"], "additionalProperties": False},
    "log_entry_items": {
        "type": "array",
        "items": {"type": "object",
                  "properties": {"seq": {"type": "integer", "minimum": 0},
                                 "level": {"enum": ["debug", "info", "warn", "error"]},
                                 "latency_ms": {"type": "number", "minimum": 0, "multipleOf": 0.1},
                                 "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                                          "maxItems": 3}},
                  "required": ["seq", "level"], "additionalProperties": False}},
    "refs_and_combinators": {
        "$defs": {"money": {"type": "object", "properties": {"amount": {"type": "number", "exclusiveMinimum": 0},
                                                              "currency": {"type": "string", "minLength": 3,
                                                                           "maxLength": 3}},
                            "required": ["amount", "currency"]},
                  "node": {"type": "object", "properties": {"value": {"type": "integer"},
                                                             "children": {"type": "array",
                                                                          "items": {"$ref": "#/$defs/node"}}}}},
        "type": "object",
        "properties": {"price": {"$ref": "#/$defs/money"},
                       "tree": {"$ref": "#/$defs/node"},
                       "kind": {"oneOf": [{"const": "a"}, {"const": "b"}, {"type": "integer"}]},
                       "either": {"anyOf": [{"type": "string", "pattern": "^x"}, {"type": "integer", "maximum": 5}]},
                       "never": {"not": {"type": "null"}}},
        "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        "then": {"required": ["price"]},
        "else": {"properties": {"price": False}},
        "dependentRequired": {"price": ["kind"]},
        "patternProperties": {"^x-": {"type": "string"}},
        "propertyNames": {"maxLength": 8},
        "minProperties": 1},
    "tuples": {
        "type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
        "items": {"type": "boolean"}, "contains": {"const": True}, "minContains": 1, "maxContains": 2},
    "draft7_legacy": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"pos": {"type": "integer", "minimum": 1}},
        "type": "object",
        "properties": {"n": {"$ref": "#/definitions/pos", "maximum": 0},
                       "pair": {"items": [{"type": "string"}, {"type": "number"}], "additionalItems": False},
                       "dep": {"type": "object", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}},
        "additionalProperties": {"type": ["string", "null"]}},
}

_keys = st.sampled_from(["a", "b", "c", "d", "n", "x-1", "kind", "price", "value", "order_id", "reason",
                         "seq", "level", "tags", "a longer name", "ünï", ""])
_scalars = (st.none() | st.booleans() | st.integers(-10**20, 10**20)
            | st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-10**6, max_value=10**6)
            | st.sampled_from([Decimal("1.0"), Decimal("0.3"), Decimal("1e2"), 0, 1, 5, -1, 2**53 + 1])
            | st.text(max_size=12)
            | st.sampled_from(["A-1234", "X-1", "A-1234\n", "late", "info", "eur", "EUR", "x", "xa", "a", "b"]))
json_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(_keys, inner, max_size=6), max_leaves=25)


def near(schema, depth=0):
    """Instances shaped by ``schema``: mostly valid, with wrong values mixed in."""
    if depth > 4 or not isinstance(schema, dict):
        return json_values
    options = []
    if "enum" in schema:
        options.append(st.sampled_from(schema["enum"]))
    if "const" in schema:
        options.append(st.just(schema["const"]))
    t = schema.get("type")
    if t == "object" or "properties" in schema:
        props = schema.get("properties", {})
        fields = {k: near(v, depth + 1) for k, v in props.items()}
        options.append(st.fixed_dictionaries({}, optional=fields).flatmap(
            lambda d: st.dictionaries(_keys, json_values, max_size=2).map(lambda extra: {**d, **extra})
            | st.just(d)))
        options.append(st.fixed_dictionaries({}, optional=fields))
    if t == "array" or "items" in schema:
        items = schema.get("items")
        options.append(st.lists(near(items, depth + 1) if isinstance(items, dict) else json_values, max_size=5))
    if t == "string":
        options.append(st.text(max_size=10) | st.sampled_from(["A-1234", "B-0001", "A-12345", "eur"]))
    if t in ("integer", "number"):
        options.append(st.integers(-3, 10) | st.decimals(-3, 10, places=1))
    if "$ref" in schema:
        options.append(json_values)
    options.append(json_values)
    return st.one_of(options)


def realistic(shared):
    found = dict(HAND_WRITTEN)
    for name, params in fixture_tools(shared):
        found.setdefault(f"fixture {name}", params)
    return found


def test_realistic_schemas_compile(shared):
    schemas = realistic(shared)
    refused = [name for name, s in schemas.items() if compile_schema(s).fast is None]
    print(f"\nrealistic schemas: {len(schemas) - len(refused)}/{len(schemas)} compile; refused: {refused}")
    assert not [r for r in refused if not r.startswith("fixture")]
    assert len(refused) <= len(schemas) // 5


@pytest.mark.parametrize("name", list(HAND_WRITTEN))
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hypothesis_both_paths_agree(name, data):
    schema = HAND_WRITTEN[name]
    compiled = compile_schema(schema)
    assert compiled.fast is not None
    instance = data.draw(near(schema))
    a, b = both(compiled, instance)
    assert a == {**b, "path": "compiled"}


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hypothesis_fixture_tools_both_paths_agree(shared, data):
    tools = [(n, s) for n, s in fixture_tools(shared) if compile_schema(s).fast is not None]
    name, schema = data.draw(st.sampled_from(tools))
    compiled = compile_schema(schema)
    instance = data.draw(near(schema))
    a, b = both(compiled, instance)
    assert a == {**b, "path": "compiled"}, name


# --------------------------------------------------------------------------- safety and limits

def test_schema_text_never_reaches_the_source():
    evil = "'); __import__('os').system('echo pwned') #\"\"\"\n"
    schema = {"type": "object",
              "properties": {evil: {"const": evil, "pattern": "^" + "x"}, "b": {"enum": [evil, 1]}},
              "patternProperties": {evil.replace("(", "\\(").replace(")", "\\)"): {"type": "string"}},
              "required": [evil], "dependentRequired": {evil: ["b"]}}
    fast = compile_functions(schema, "2020-12")
    assert fast is not None
    assert "pwned" not in fast.source and "__import__" not in fast.source
    assert fast.is_valid({evil: "x", "b": 1}) is False  # const: the value must be evil itself
    assert fast.is_valid({evil: evil, "b": evil}) is False  # the pattern ^x fails
    compiled = compile_schema(schema)
    a, b = both(compiled, {"b": 2})
    assert a == {**b, "path": "compiled"}
    assert [(e["pointer"], e["keyword"]) for e in a["errors"]] == [
        ("/" + evil.replace("~", "~0").replace("/", "~1"), "required"), ("/b", "enum")]


def test_refused_constructs_fall_back_to_jsonschema():
    for schema in [{"unevaluatedProperties": False}, {"$dynamicRef": "#x"},
                   {"$defs": {"a": {"$id": "http://example.com/a"}}, "$ref": "#/$defs/a"},
                   {"properties": {"a": {"$schema": "http://json-schema.org/draft-07/schema#"}}},
                   {"$ref": "http://example.com/x"}]:
        assert compile_functions(schema, "2020-12") is None, schema
    compiled = compile_schema({"properties": {"a": {"type": "string"}}, "unevaluatedProperties": False})
    assert compiled.fast is None
    out = validate_value(compiled.schema, {"a": 1, "b": 2})
    assert out["path"] == "jsonschema" and [e["pointer"] for e in out["errors"]] == ["/a", "/b"]
    with pytest.raises(ValueError):
        evaluate(compiled, {}, path="compiled")


def test_exact_numbers_and_draft4_integers():
    big = 2**64 + 1
    s = {"type": "integer", "maximum": big}
    assert compile_functions(s, "2020-12").is_valid(big) is True
    assert compile_functions(s, "2020-12").is_valid(big + 1) is False
    assert compile_functions({"type": "integer"}, "2020-12").is_valid(Decimal("1.0")) is True
    assert compile_functions({"type": "integer"}, "draft-04").is_valid(Decimal("1.0")) is False
    assert compile_functions({"type": "integer"}, "2020-12").is_valid(True) is False
    assert compile_functions({"multipleOf": Decimal("0.1")}, "2020-12").is_valid(Decimal("0.3")) is True
    assert compile_functions({"multipleOf": Decimal("0.1")}, "2020-12").is_valid(Decimal("0.35")) is False
    assert compile_functions({"enum": [1]}, "2020-12").is_valid(Decimal("1.00")) is True
    assert compile_functions({"enum": [1]}, "2020-12").is_valid(True) is False


def test_catastrophic_pattern_is_bounded_on_the_compiled_path():
    for schema, instance in [({"type": "string", "pattern": "^(a|aa)+$"}, "a" * 60 + "!"),
                             ({"patternProperties": {"^(a|aa)+$": {"type": "integer"}}}, {"a" * 60 + "!": 1}),
                             ({"properties": {"b": {}}, "patternProperties": {"^(a|aa)+$": {}},
                               "additionalProperties": False}, {"a" * 60 + "!": 1})]:
        compiled = compile_schema(schema)
        assert compiled.fast is not None
        t0 = time.monotonic()
        with pytest.raises(WorkbenchError) as exc:
            evaluate(compiled, instance, DEFAULT_LIMITS.with_(regex_timeout=0.3), path="compiled")
        assert exc.value.code == "timeout" and exc.value.extra["pattern"] == "^(a|aa)+$"
        assert time.monotonic() - t0 < 2


def test_work_deadline_on_the_compiled_path():
    # exponential by construction: every level tries both alternatives of the next
    defs = {f"l{i}": {"anyOf": [{"$ref": f"#/$defs/l{i + 1}"}, {"$ref": f"#/$defs/l{i + 1}"}]} for i in range(40)}
    defs["l40"] = {"type": "string"}
    compiled = compile_schema({"$defs": defs, "$ref": "#/$defs/l0"})
    assert compiled.fast is not None
    t0 = time.monotonic()
    with pytest.raises(WorkbenchError) as exc:
        evaluate(compiled, 1, DEFAULT_LIMITS.with_(work_timeout=0.5), path="compiled")
    assert exc.value.code == "timeout"
    assert time.monotonic() - t0 < 3


def test_depth_on_the_compiled_path():
    compiled = compile_schema({"$defs": {"t": {"type": "array", "items": {"$ref": "#/$defs/t"}}},
                               "$ref": "#/$defs/t"})
    deep = []
    node = deep
    for _ in range(480):
        node.append([])
        node = node[0]
    node.append("x")
    try:
        out = evaluate(compiled, deep, path="compiled")
    except WorkbenchError as exc:
        assert exc.code == "too_deep"
    else:
        assert out["valid"] is False and out["errors"][0]["keyword"] == "type"


def test_the_api_uses_the_compiled_path(server):
    doc = json.dumps({"order_id": "X-1", "refund": True})
    status, out = server.api("validate", {"document": doc, "schema": json.dumps(HAND_WRITTEN["lookup_order"])})
    assert status == 200, out
    assert [(e["pointer"], e["keyword"], e["line"]) for e in out["errors"]] == [
        ("/reason", "required", 1), ("/order_id", "pattern", 1), ("/refund", "additionalProperties", 1)]


# --------------------------------------------------------------------------- random schemas

_names = st.sampled_from(["a", "b", "c", "x-1", ""])
_num = st.sampled_from([0, 1, 2, 3, -1, Decimal("0.5"), Decimal("2.0"), 10**20])
_count = st.sampled_from([0, 1, 2, 3])
_patterns = st.sampled_from(["^a", "b$", "^[a-c]+$", "x", "^(a|b)*$", "\\d", "^$", "(a+)+b"])


def schemas(draft: str):
    leaf = st.one_of(
        st.booleans(),
        st.fixed_dictionaries({}, optional={
            "type": st.sampled_from(["null", "boolean", "object", "array", "number", "integer", "string",
                                     ["string", "null"], ["integer", "boolean"]]),
            "enum": st.lists(_scalars, min_size=1, max_size=4),
            "minimum": _num, "maximum": _num, "multipleOf": st.sampled_from([1, 2, Decimal("0.5")]),
            "minLength": _count, "maxLength": _count, "pattern": _patterns,
            "minItems": _count, "maxItems": _count, "uniqueItems": st.booleans(),
            "minProperties": _count, "maxProperties": _count,
            "required": st.lists(_names, min_size=1, max_size=3, unique=True),
            **({"const": _scalars, "exclusiveMinimum": _num, "exclusiveMaximum": _num}
               if draft != "draft-04" else {"exclusiveMinimum": st.booleans(), "exclusiveMaximum": st.booleans()}),
        }))

    def extend(inner):
        subs = st.lists(inner, min_size=1, max_size=3)
        optional = {
            "properties": st.dictionaries(_names, inner, max_size=3),
            "patternProperties": st.dictionaries(_patterns, inner, max_size=2),
            "additionalProperties": inner,
            "items": inner if draft != "draft-04" else inner.filter(lambda s: isinstance(s, dict)),
            "allOf": subs, "anyOf": subs, "oneOf": subs, "not": inner,
            "dependencies" if draft in ("draft-04", "draft-07") else "dependentRequired":
                st.dictionaries(_names, st.lists(_names, min_size=1, max_size=2, unique=True), max_size=2),
        }
        if draft != "draft-04":
            optional.update({"contains": inner, "propertyNames": inner})
        if draft in ("draft-07", "2020-12"):
            optional.update({"if": inner, "then": inner, "else": inner})
        if draft == "2020-12":
            optional.update({"prefixItems": subs, "minContains": _count, "maxContains": _count,
                             "dependentSchemas": st.dictionaries(_names, inner, max_size=2)})
        return st.fixed_dictionaries({}, optional=optional)

    return st.recursive(leaf, extend, max_leaves=8)


@pytest.mark.parametrize("draft", ["2020-12", "draft-07", "draft-04"])
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hypothesis_random_schemas_both_paths_agree(draft, data):
    schema = data.draw(schemas(draft))
    try:
        compiled = compile_schema(schema, default_draft=draft)
    except WorkbenchError:
        return  # not a valid schema of this draft: refused before either path runs
    if compiled.fast is None:
        return
    for _ in range(3):
        instance = data.draw(near(schema) if isinstance(schema, dict) else json_values)
        a, b = both(compiled, instance, LIMITS.with_(regex_timeout=0.2))
        assert a == {**b, "path": "compiled"}, (schema, instance)


def test_errors_at_their_place_on_both_paths():
    """A false subschema's error sits at the value it refuses (the library's own error lacked
    the path), and a property literally named "propertyNames" is not taken for the keyword."""
    cases = [({"properties": {"refund": False}}, {"refund": 1}, [("/refund", "false", "/properties/refund")]),
             ({"items": False}, [1, 2], [("", "items", "/items")]),  # 2020-12: one error, at the array
             ({"$schema": "http://json-schema.org/draft-07/schema#", "items": False}, [1, 2],
              [("/0", "false", "/items"), ("/1", "false", "/items")]),
             ({"properties": {"propertyNames": {"maxLength": 1}}}, {"propertyNames": "abc"},
              [("/propertyNames", "maxLength", "/properties/propertyNames/maxLength")]),
             ({"propertyNames": {"maxLength": 1}}, {"ab": 1}, [("/ab", "maxLength", "/propertyNames/maxLength")])]
    for schema, instance, expected in cases:
        compiled = compile_schema(schema)
        a, b = both(compiled, instance)
        assert a == {**b, "path": "compiled"}
        assert [(e["pointer"], e["keyword"], e["schema_pointer"]) for e in a["errors"]] == expected


# --------------------------------------------------------------------------- linear patterns

def test_linear_pattern_analysis():
    from workbench.validate.patterns import linear_limit
    for p in ["^[A-Z]-\\d{4}$", "^req_[0-9a-f]{8}$", "^[a-z0-9]+(?:-[a-z0-9]+)*$", "^(\\.\\d+){0,2}$",
              "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$", "^\\p{L}+$", "^(a|b)*$"]:
        assert linear_limit(p) > 256, p
    for p in ["^(a+)+$", "^(a|aa)+$", "(a*)*", "^a*a*$", "^.*x$", "(.*a){20}", "^([a-z]+)\\1$", "^(?=a)a$",
              "\\bword\\b", "^[^@]+@[^@]+\\.[a-z]{2,}$", "^(foo|far)$", "^a*?$"]:
        assert linear_limit(p) == 0, p
    assert linear_limit("abc") == 256  # not anchored: every start is tried, so short strings only


def test_patterns_called_linear_are_fast_on_adversarial_strings():
    import random

    from workbench.validate.patterns import compile_ecma, linear_limit
    rng = random.Random(5)
    atoms = ["a", "b", "[ab]", "(?:a|b)", "(?:ab)", "(?:a+b)", "(?:ba*)", "[^b]", "(?:a|bb)"]
    quants = ["", "*", "+", "?", "{2}", "{1,3}", "{2,}"]
    strings = ["a" * 3000 + "c", "ab" * 1500 + "c", "b" * 3000 + "c", "aab" * 1000 + "c", "abb" * 1000 + "c"]
    linear = 0
    for _ in range(1500):
        p = ("^" if rng.random() < 0.8 else "") + "".join(
            rng.choice(atoms) + rng.choice(quants) for _ in range(rng.randint(1, 5))) + ("$" if rng.random() < 0.7 else "")
        limit = linear_limit(p)
        if not limit:
            continue
        linear += 1
        compiled = compile_ecma(p)
        for s in strings:
            s = s[:limit]
            t0 = time.perf_counter()
            compiled.search(s)
            assert time.perf_counter() - t0 < 0.25, (p, s[:12], len(s))
    assert linear > 300


# --------------------------------------------------------------------------- the quick path of --jsonl

@pytest.mark.parametrize("folder", list(DRAFTS))
def test_official_suite_quick_path_answers_as_the_full_path(conformance, folder):
    """``prepare(..., warnings=False)`` (``workbench validate --jsonl --quiet``) reads each line
    with :func:`workbench.jsontext.quick_value` and answers a document the compiled check finds
    valid without the error functions: on every required test of the official suite its answer
    is the full path's, warnings aside (issue 25)."""
    from workbench.jsontext import dumps_value
    from workbench.validate import prepare
    suite = suite_dir(conformance)
    n_quick = n_tests = 0
    for fname, group in groups(suite, folder):
        body = {"schema": dumps_value(group["schema"]).decode(), "draft": DRAFTS[folder]}
        try:
            quick = prepare(body, LIMITS, warnings=False)
            full = prepare(body, LIMITS)
        except WorkbenchError:
            continue  # refused up front, the same for both
        for test in group["tests"]:
            document = dumps_value(test["data"]).decode()
            name = f"{folder}/{fname} :: {group['description']} :: {test['description']}"
            try:
                a = quick.run(document)
            except WorkbenchError as exc:
                a = ("refused", exc.code)
            try:
                b = full.run(document)
            except WorkbenchError as exc:
                b = ("refused", exc.code)
            n_tests += 1
            if isinstance(b, dict):
                assert b["valid"] is test["valid"] or b.get("tool") is not None, name
                b["warnings"], b["warning_count"] = [], 0   # the quick path reads no warnings
                n_quick += b["valid"]
            assert a == b, name
    print(f"\n{folder}: {n_tests} tests, {n_quick} valid answered by the quick path, all as the full path")
    assert n_tests > 500
