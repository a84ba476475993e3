"""jsontext.element_spans (each element's place in a JSON array, in one pass: a stream pasted as
one array of chunks) gives the spans locate_many gives, each span holding its element — over
every JSONTestSuite parsing file that parses (as it is, as the one element of an array and as
one of several), arrays of awkward values and generated chunk arrays; and the exact parse
without warnings (the C scanner's own objects and integers) reads what the hooked one reads."""

from __future__ import annotations

import json
import random

import pytest

from workbench.errors import WorkbenchError
from workbench.jsontext import element_spans, locate_many, parse


def _same(a, b) -> bool:
    """Equal as exact values: Decimal spellings, int/Decimal kinds and key order included."""
    return repr(a) == repr(b)


def check(text: str) -> None:
    try:
        want = parse(text, field="text", warnings=False).value
    except WorkbenchError:
        return
    # the reading without warnings is the hooked reading (duplicates: the last wins, in the
    # first one's place; integers and decimals exact)
    hooked = parse(text, field="text", warnings=True, check_depth=False).value
    assert _same(want, hooked), text[:200]
    if type(want) is not list:
        return
    spans = element_spans(text)
    located = locate_many(text, [f"/{i}" for i in range(len(want))])
    assert spans == [(located[f"/{i}"].start, located[f"/{i}"].end) for i in range(len(want))]
    for (start, end), v in zip(spans, want):
        assert _same(parse(text[start:end], warnings=False, check_depth=False).value, v)


def suite(conformance):
    root = conformance / "jsontestsuite" / "test_parsing"
    for path in sorted(root.glob("*.json")):
        try:
            yield path.name, path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue


def test_every_jsontestsuite_file_is_placed_as_locate_many_places_it(conformance):
    n = 0
    for _name, text in suite(conformance):
        for t in (text, f"[{text}]", f" [ 1 ,{text} , {{\"a\": [{text}]}} ]\n"):
            check(t)
            n += 1
    assert n > 800


@pytest.mark.parametrize("text", [
    "[]", " [ ] ", "[1]", "[1,2 , 3]", '[{"a":1,"a":2}, {"a": 3}]', "[1e2, 1.50, -0, 12345678901234567890]",
    "[" + "9" * 5000 + "]", '["\\ud800"]', "[1,]", "[1] x", "[1 2]", "[NaN]", "\ufeff[1]",
    "[" * 600 + "]" * 600, "[" * 20 + "]" * 20, '[{"k": "é"}, "\\u00e9"]', "[\n1,\n\n2\n]\n",
])
def test_awkward_arrays(text):
    check(text)


def test_generated_chunk_arrays():
    rng = random.Random(5)
    for _ in range(50):
        chunks = [{"candidates": [{"content": {"parts": [{"text": "x" * rng.randint(0, 9)}]},
                                   "index": 0, "n": rng.choice([1, 1.5, 10**20, -0.0])}]}
                  for _ in range(rng.randint(0, 30))]
        sep = rng.choice([",", ",\n", " ,\r\n  "])
        check("[" + sep.join(json.dumps(c, indent=rng.choice([None, 2])) for c in chunks) + "]")


def test_a_stream_pasted_as_one_array_keeps_its_lines():
    from workbench.transcript import analyse
    chunks = [{"candidates": [{"content": {"role": "model", "parts": [{"text": f"t{i}"}]},
                               "index": 0}]} for i in range(5)]
    chunks.append({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "f", "args": {"a": 1}}}]}, "finishReason": "STOP", "index": 0}]})
    text = "[" + ",\n".join(json.dumps(c, indent=1) for c in chunks) + "]"
    r = analyse(text)
    (call,) = r["calls"]
    line = text.splitlines()[call["line"] - 1]
    assert '"functionCall"' in line
    rows = r["timeline"]
    assert [row["type"] for row in rows] == ["text", "function_call"]
    assert rows[0]["events"]["chunks"] == 5 and rows[0]["first_line"] == 1
    assert text.splitlines()[rows[1]["first_line"] - 1].startswith("{")
