"""The warnings of one JSON Lines line (``workbench validate --jsonl`` parses each line on its own)
are those of the whole log read as one document, and the per-line answer read from the parsed
value (``warnings._from_value``, issue 25) is the walker's, warning for warning: the same codes,
messages, pointers, lines and columns.  On seeded generated lines: integers at and past
±(2^53−1), floats a float64 changes (long fractions, 1e400, 1e-400, exponents it keeps), number
tokens repeated inside strings and keys, duplicate keys (also spelt with escapes), lone
surrogates in strings and keys, names with ``/`` and ``~``, non-ASCII text before a number,
nested objects and arrays, roots that are arrays or numbers."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import workbench.jsontext.warnings as warnings_module
from workbench.jsontext import parse
from workbench.jsontext.lines import read_json_lines
from workbench.limits import DEFAULT_LIMITS
from workbench.validate import prepare

SAFE = 2**53 - 1
BIG_INTS = [str(SAFE), str(SAFE + 1), str(-SAFE), str(-SAFE - 1), "18446744073709551615",
            "12673578006418194066", "-9223372036854775808", "1" + "0" * 30, "1234567890123456"]
FLOATS = ["0.73608748438528604", "0.1", "2.5", "1e400", "-1e400", "1e-400", "1.5E+3", "1E-7",
          "0.1000000000000000055511151231257827", "123456789012345678.5", "3.0000000000000000001",
          "0.30000000000000004", "1.7976931348623157e308", "5e-324", "-0.0"]
# what this line may hold: repeated keys, lone surrogates, number tokens in strings and keys
HOSTILE = {"repeated": True, "surrogate": True, "token": True}
WORDS = ["ok", "Zürich", "日本", "a/b", "t~0", "", "x y"]


def _number(rng):
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(BIG_INTS)
    if roll < 0.45:
        return str(rng.getrandbits(64) * rng.choice((1, -1)))
    if roll < 0.75:
        return rng.choice(FLOATS)
    if roll < 0.85:
        return f"{rng.random():.17f}"
    return str(rng.randrange(-1000, 1000))


def _string(rng, numbers: list[str]):
    roll = rng.random()
    if roll < 0.15 and HOSTILE["token"]:   # a number token inside a string (met before or after as a number)
        token = rng.choice(numbers + BIG_INTS + FLOATS)
        return json.dumps(rng.choice(("id ", "[", "")) + token, ensure_ascii=rng.random() < 0.5)
    if 0.15 <= roll < 0.2 and HOSTILE["surrogate"]:
        return rng.choice(['"\\ud800"', '"a\\udc00b"', '"\\ud83d\\ude00"', '"\\\\ud800"'])
    return json.dumps(rng.choice(WORDS), ensure_ascii=rng.random() < 0.5)


def _key(rng, numbers: list[str]):
    roll = rng.random()
    if roll < 0.05 and HOSTILE["token"]:
        return json.dumps(rng.choice(numbers + BIG_INTS + FLOATS))
    if 0.05 <= roll < 0.08 and HOSTILE["surrogate"]:
        return '"k\\udbff"'
    return json.dumps(rng.choice(["seq", "trace_id", "ratio", "a/b", "t~1", "ü", "n", "m"]),
                      ensure_ascii=rng.random() < 0.5)


def _respelt(rng, key: str) -> str:
    """The member name ``key`` (JSON text) as written, or with its first character escaped."""
    name = json.loads(key)
    if rng.random() < 0.5 or not name or ord(name[0]) >= 128 or key[1] == "\\":
        return key
    return '"\\u%04x' % ord(name[0]) + key[2:]


def _value(rng, depth: int, numbers: list[str]) -> str:
    roll = rng.random()
    if depth < 3 and roll < 0.25:
        return _object(rng, depth + 1, numbers)
    if depth < 3 and roll < 0.35:
        return "[" + ", ".join(_value(rng, depth + 1, numbers) for _ in range(rng.randrange(4))) + "]"
    if roll < 0.75:
        token = _number(rng)
        numbers.append(token)
        return token
    if roll < 0.9:
        return _string(rng, numbers)
    return rng.choice(["true", "false", "null"])


def _object(rng, depth: int, numbers: list[str]) -> str:
    members = []
    for _ in range(rng.randrange(1, 7)):
        key = _key(rng, numbers)
        members.append(f"{key}:{_value(rng, depth, numbers)}")
        if HOSTILE["repeated"] and rng.random() < 0.06:   # a repeated key, as written or spelt with an escape
            members.append(f"{_respelt(rng, key)}: {_value(rng, depth, numbers)}")
    return "{" + ", ".join(members) + "}"


def generated_lines(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        numbers: list[str] = []
        for feature in HOSTILE:
            HOSTILE[feature] = rng.random() < 0.25
        roll = rng.random()
        if roll < 0.08:
            line = _number(rng)
        elif roll < 0.2:
            line = "[" + ",".join(_value(rng, 1, numbers) for _ in range(rng.randrange(1, 5))) + "]"
        else:
            line = _object(rng, 0, numbers)
        lines.append(line)
    return lines


def placed(w: dict) -> tuple:
    """What a warning says and where, without its offset (the whole text's differs)."""
    out = (w["code"], w["message"], w["pointer"], w.get("line"), w.get("column"), w.get("key", ""))
    for side in ("first", "second"):
        if side in w:
            out += (w[side]["line"], w[side]["column"])
    return out


@pytest.fixture(scope="module")
def lines():
    out = generated_lines(20261202, 1500)
    for line in out:
        json.loads(line)   # every generated line is JSON (lone surrogates and all)
    return out


def test_from_value_is_the_walkers_answer(lines, monkeypatch):
    """Each line's warnings read from its value equal the walker's, field for field (offsets
    too), also with the line written over several lines, and the value was the answer on most
    lines (else this test would prove nothing)."""
    taken = []
    real = warnings_module._from_value

    def counted(*args):
        got = real(*args)
        taken.append(got is not None)
        return got

    monkeypatch.setattr(warnings_module, "_from_value", counted)
    # and each line written over several lines (no generated string holds ", "): places on
    # later lines of a small document
    lines = lines + [line.replace(", ", ",\n  ") for line in lines if ", " in line][:500]
    quick = [parse(line).warnings for line in lines]
    # most lines with number warnings alone were answered from the value, and the walker
    # answered the others (repeated keys, surrogates, tokens in strings): both were compared
    assert sum(taken) > 250 and sum(taken) > 0.7 * len(taken), (sum(taken), len(taken))
    assert sum(1 for w in quick if w) - sum(taken) > 200
    monkeypatch.setattr(warnings_module, "_from_value", lambda *args: None)
    walked = [parse(line).warnings for line in lines]
    assert sum(map(len, quick)) > 1000
    for line, a, b in zip(lines, quick, walked):
        assert a == b, line


def test_per_line_answers_are_the_whole_documents(lines):
    """Line ``n`` parsed alone warns as the log read as one document (read_json_lines, the path
    of Format and Extract) does at ``/{n-1}…`` on line ``n``: code, message, pointer, column."""
    text = "\n".join(lines) + "\n"
    whole = read_json_lines(text, max_depth=DEFAULT_LIMITS.max_depth, forced=True).parsed.warnings
    per_line = []
    for n, line in enumerate(lines, 1):
        for w in parse(line).warnings:
            row = list(placed(w))
            row[2] = f"/{n - 1}{w['pointer']}"
            row[3] = n
            if "first" in w:
                row[6] = row[8] = n
            per_line.append(tuple(row))
    assert [placed(w) for w in whole] == per_line
    codes = {w["code"] for w in whole}
    assert codes >= {"unsafe_integer", "float_precision", "float_overflow", "float_underflow",
                     "duplicate_key", "lone_surrogate"}, codes


def test_validate_jsonl_line_warnings(lines):
    """The validator of ``--jsonl`` (prepare once, run per line) gives each line parse's
    warnings, the count with them, and for a valid line the answer the full path builds (the
    one cached valid answer with the line's warnings: no field differs)."""
    schema = '{"type": ["object", "array"], "properties": {"seq": {"type": "boolean"}}}'
    validation = prepare({"schema": schema}, DEFAULT_LIMITS)
    full = prepare({"schema": schema}, DEFAULT_LIMITS)
    full._tools[None] = dataclasses.replace(full._tool(None), valid=None)   # evaluate, place, answer
    valid = 0
    for line in lines[:400]:
        answer = validation.run(line)
        assert answer["warnings"] == parse(line).warnings
        assert answer["warning_count"] == len(answer["warnings"])
        assert answer == full.run(line), line
        valid += answer["valid"]
    assert 100 < valid < 350, valid


def test_a_line_of_the_benchmark_is_answered_from_its_value(monkeypatch):
    taken = []
    real = warnings_module._from_value
    monkeypatch.setattr(warnings_module, "_from_value", lambda *a: taken.append(real(*a)) or taken[-1])
    line = ('{"seq":13,"user":{"id":5,"country":"CH"},"msg":"id 12673578006418194066",'
            '"trace_id":12673578006418194066,"attrs":{"a/b":[1,0.73608748438528604]}}')
    big, ratio = line.index("12673578006418194066,"), line.index("0.736")
    got = [(w["code"], w["pointer"], w["line"], w["column"], w["offset"]) for w in parse(line).warnings]
    # the token inside "msg" follows a blank: one place too many, the walker answers
    assert got == [("unsafe_integer", "/trace_id", 1, big + 1, big),
                   ("float_precision", "/attrs/a~1b/1", 1, ratio + 1, ratio)]
    assert taken == [None]
    clean = line.replace('"id 12673578006418194066"', '"ok"')
    big, ratio = clean.index("12673578006418194066"), clean.index("0.736")
    got = [(w["code"], w["pointer"], w["column"]) for w in parse(clean).warnings]
    assert got == [("unsafe_integer", "/trace_id", big + 1), ("float_precision", "/attrs/a~1b/1", ratio + 1)]
    assert taken[1] is not None and [w["pointer"] for w in taken[1][0]] == ["/trace_id", "/attrs/a~1b/1"]
    # a token after a number character is inside another: left out, still answered from the value
    inside = '{"a":"x-12673578006418194066","b":[12673578006418194066]}'
    got = [(w["code"], w["pointer"], w["column"]) for w in parse(inside).warnings]
    assert got == [("unsafe_integer", "/b/0", inside.index("[1") + 2)]
    assert taken[2] is not None
