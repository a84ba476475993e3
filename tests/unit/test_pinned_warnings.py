"""The warnings' finders (workbench/jsontext/warnings.py), pinned for ``tests/mutation/run mutmut
jsontext-warnings`` (issue 28): lone surrogates in keys and strings and next to escape pairs,
big integers after multi-byte characters (the byte-to-character offsets), exponents no Decimal
holds, many distinct short number tokens, repeated tokens, and find_warnings' own arguments.
Each asserts the exact warnings: code, pointer and place."""

from __future__ import annotations

import pytest

from workbench.jsontext import parse
from workbench.jsontext.positions import LineIndex
from workbench.jsontext.warnings import find_warnings, find_warnings_counted, float_change

OVERFLOW = ("The number {} is beyond the float64 range (about ±1.8e308): JavaScript's JSON.parse and "
            "Python's float read it as {}Infinity, Go's encoding/json refuses it")
UNDERFLOW = ("The number {} is closer to 0 than the smallest float64 (about 5e-324): JavaScript, "
             "Python's float and other float64 readers read it as 0")
LONE = ("The string holds the lone surrogate \\u{}: it is not a character and many tools reject "
        "or replace it")


def placed(text):
    warnings = parse(text, numbers="fragment", keep_duplicates=True, check_depth=False).warnings
    return [(w["code"], w["pointer"], w["line"], w["column"], w["offset"]) for w in warnings]


@pytest.mark.parametrize("token, change", [
    ("1e4000000000000000000", ("float_overflow", OVERFLOW.format("1e4000000000000000000", ""))),
    ("-1E+4000000000000000000", ("float_overflow", OVERFLOW.format("-1E+4000000000000000000", "-"))),
    ("1e-4000000000000000000", ("float_underflow", UNDERFLOW.format("1e-4000000000000000000"))),
    ("-" + "1" * 45 + "e-4000000000000000000",
     ("float_underflow", UNDERFLOW.format("-" + "1" * 36 + "…"))),
    ("-" + "2" * 45 + "e4000000000000000000",
     ("float_overflow", OVERFLOW.format("-" + "2" * 36 + "…", "-"))),
    ("1e400", ("float_overflow", OVERFLOW.format("1e400", ""))),
    ("-1e400", ("float_overflow", OVERFLOW.format("-1e400", "-"))),
    ("1e", None), ("1ex5", None), ("-0.0e999999999999999999999", None), (".e9999999999999999999999", None),
    # not a number (two exponents): the first "e" splits it, and "5e999" is no exponent
    ("1e5e999", None), ("1e-5e999", None),
])
def test_float_change_of_exponents_past_any_decimal(token, change):
    assert float_change(token) == change


def test_a_lone_surrogate_in_a_key_is_the_whole_warning():
    w = parse('{"a": 1, "k\\ud800": 1}', numbers="fragment", keep_duplicates=True).warnings
    assert w == [{"code": "lone_surrogate", "message": LONE.format("d800"), "pointer": "/k\ud800",
                  "line": 1, "column": 10, "offset": 9}]


@pytest.mark.parametrize("text, found", [
    # both ends of the surrogate range, in keys (the key path) and in strings
    ('{"\\udfff": 1, "\\ud800x": 2}', [("lone_surrogate", "/\udfff", 1, 2, 1),
                                      ("lone_surrogate", "/\ud800x", 1, 15, 14)]),
    ('["\\udfff", "\\ud800"]', [("lone_surrogate", "/0", 1, 2, 1), ("lone_surrogate", "/1", 1, 12, 11)]),
    # an escaped backslash, the text uD83D, then a lone low escape: no pair, one warning
    ('["\\\\uD83D\\uDC00"]', [("lone_surrogate", "/0", 1, 2, 1)]),
    ('{"\\\\uD83D\\uDC00": 1}', [("lone_surrogate", "/\\uD83D\udc00", 1, 2, 1)]),
    # a lone high escape right before a pair: the pair is skipped, the lone one is not
    ('["\\uD800\\uD83D\\uDE00"]', [("lone_surrogate", "/0", 1, 2, 1)]),
    ('["\\uD83D\\uDE00", "\\uD83D\\uDE00\\uDE00"]', [("lone_surrogate", "/1", 1, 18, 17)]),
    # a surrogate escape written as text (after an escaped backslash) next to U+E000 (just past the
    # range): nothing to warn about
    ('{"\\\\uD800\ue000": "\\\\uDFFF\ue000"}', []),
    # U+E000 before the lone surrogate: the message names the surrogate
    ('["\\ue000\\udc00"]', [("lone_surrogate", "/0", 1, 2, 1)]),
    # strings after the last candidate are walked too
    ('[["\\ud800"], "x", {"b": "y", "c": ["z"]}, 12345678901234567890]',
     [("lone_surrogate", "/0/0", 1, 3, 2), ("unsafe_integer", "/3", 1, 43, 42)]),
])
def test_lone_surrogates_placed(text, found):
    assert placed(text) == found


def test_the_message_names_the_surrogate_not_the_character_before_it():
    for text in ('["\\ue000\\udc00"]', '{"\\ue000\\udc00": 0}'):
        (w,) = parse(text, numbers="fragment").warnings
        assert w["message"] == LONE.format("dc00")


@pytest.mark.parametrize("text, found", [
    # a long number right after a digit and a comma: not inside the run before it
    ("[1,12345678901234567890]", [("unsafe_integer", "/1", 1, 4, 3)]),
    # multi-byte characters before each number: character offsets, not byte offsets
    ('{"é": 12345678901234567890, "ü€": [98765432109876543210, "x", '
     '1234567890123456789012345678901234567890, 11111111111111111111]}',
     [("unsafe_integer", "/é", 1, 7, 6), ("unsafe_integer", "/ü€/0", 1, 36, 35),
      ("unsafe_integer", "/ü€/2", 1, 63, 62), ("unsafe_integer", "/ü€/3", 1, 105, 104)]),
    ('["€€€", 12345678901234567890, "😀", 1.00000000000000001]',
     [("unsafe_integer", "/1", 1, 9, 8), ("float_precision", "/3", 1, 36, 35)]),
    # a run of 40 digits (the sixteen-zero search hits inside it) and numbers after it
    ("[1234567890123456789012345678901234567890, 98765432109876543210]",
     [("unsafe_integer", "/0", 1, 2, 1), ("unsafe_integer", "/1", 1, 44, 43)]),
    # more than eight distinct short tokens (the candidate regex) after a long one
    ("[12345678901234567890, 1e400, 2e400, 3e400, 4e400, 5e400, 6e400, 7e400, 8e400, 9e400]",
     [("unsafe_integer", "/0", 1, 2, 1)] + [("float_overflow", f"/{i}", 1, 17 + 7 * i, 16 + 7 * i)
                                           for i in range(1, 10)]),
    # one short token written three times: every one
    ("[1e400,1e400,1e400]", [("float_overflow", "/0", 1, 2, 1), ("float_overflow", "/1", 1, 8, 7),
                             ("float_overflow", "/2", 1, 14, 13)]),
    ('["1e400", 1e400, "1e400", 1e400]', [("float_overflow", "/1", 1, 11, 10),
                                          ("float_overflow", "/3", 1, 27, 26)]),
])
def test_number_warnings_placed(text, found):
    assert placed(text) == found


def test_find_warnings_passes_its_arguments_on():
    text = '{"a": 1, "a": 2, "n": 1.00000000000000001}'
    got = find_warnings(text, ["a"], [], LineIndex(text), ["1.00000000000000001"], duplicates_kept=True)
    assert [(w["code"], w["pointer"], w["line"], w["column"]) for w in got] == \
        [("duplicate_key", "", 1, 10), ("float_precision", "/n", 1, 23)]
    assert got[0]["message"].startswith('Duplicate key "a" (both members are kept here, in place): ')
    plain = find_warnings(text, ["a"], [], LineIndex(text), ["1.00000000000000001"])
    assert plain[0]["message"].startswith('Duplicate key "a": readers differ')


def test_find_warnings_counted_by_default_lists_all_and_keeps_no_duplicate():
    # its defaults, as a caller other than parse() gets them: no "both members kept" note, no
    # limit (every warning listed and counted)
    text = '{"a": 1, "a": 2, "n": [1e400, 2e400, 3e400]}'
    listed, count = find_warnings_counted(text, ["a"], [], LineIndex(text), ["1e400", "2e400", "3e400"])
    assert [(w["code"], w["pointer"], w["offset"]) for w in listed] == \
        [("duplicate_key", "", 9), ("float_overflow", "/n/0", 23), ("float_overflow", "/n/1", 30),
         ("float_overflow", "/n/2", 37)]
    assert count == 4
    assert listed[0]["message"].startswith('Duplicate key "a": readers differ')


# --------------------------------------------------------------------------- warning_limit

HEAD = 1 << 20   # warnings._HEAD: the characters whose number candidates are tried first


def _big(before: str, at_head: str, after: str) -> str:
    """A document over 2 * HEAD characters: ``before`` near the start, ``at_head`` written so it
    straddles character HEAD, ``after`` near the end."""
    pad = HEAD - len(before) - 12 - len(at_head) // 2
    mid = 2 * HEAD + 100
    return "[" + before + '"' + "p" * pad + '", ' + at_head + ', "' + "q" * mid + '", ' + after + "]"


LIMITED = [
    '[1e400, {"a": 1, "a": 2}, "\\ud800", 12345678901234567890, 1.00000000000000001, "\\udc00"]',
    # more than eight distinct repeated keys: every object entered
    "[" + ", ".join(f'{{"k{i}": 1, "k{i}": 2}}' for i in range(10)) + ', "\\ud800", 1e400]',
    # a repeated key spelled with an escape the plain search misses
    '[{"a": 1, "\\u0061": 2}, {"b": 1, "b": 2}, 1e400, 2e400, "\\udfff"]',
    '[{"\\u0061": 1, "a": 2}, 1e400, 2e400, 3e400]',
    # lone surrogates past the cut are counted
    '[1e400, 2e400, "\\ud800", "\\ud801", {"x": "\\udc02"}]',
    '["\\ud800", 1e400, 2e400, 3e400, "\\ud801", "\\ud802"]',
    '[1e400, 2e400, 3e400, 4e400]',
    '[12345678901234567890, 12345678901234567891, 12345678901234567892]',
    # lone surrogates in keys: the limited walks visit keys too (before the cut, past it, and
    # in the walk over every object a repeated key with an escape sends them to)
    '[1e400, 2e400, {"\\ud801": 1}]',
    '[{"\\ud800": 1}, 1e400, 2e400, {"\\udc00x": 2}]',
    '[{"a":1,"\\u0061":2}, {"\\ud800":1}, 1e400, 2e400]',
    # a repeated key holding a lone surrogate: two warnings at one offset, kept in walk order
    '{"\\ud800": 1, "\\ud800": 2}',
]


@pytest.mark.parametrize("text", LIMITED)
@pytest.mark.parametrize("limit", [1, 2, 3])
def test_a_limited_list_is_the_head_of_the_whole_and_counts_all(text, limit):
    whole = parse(text, numbers="fragment", keep_duplicates=True, check_depth=False)
    cut = parse(text, numbers="fragment", keep_duplicates=True, check_depth=False, warning_limit=limit)
    assert cut.warnings == whole.warnings[:limit]
    assert cut.warning_count == whole.warning_count == len(whole.warnings)


BIG = [
    # warnings in the head and past it: the head's are enough
    (_big("1e400, 2e400, 3e400, ", "4e400", "5e400, 12345678901234567890"), 2),
    # one warning in the head, the rest past it: the whole text is walked
    (_big("1e400, ", "7", "5e400, 6e400, 12345678901234567890"), 3),
    # a long number straddling the head's end
    (_big("", "123456789012345678901234567890123456789012345678901234567890", "1e400, 2e400"), 2),
    (_big("", "1.5", "1e400, 2e400"), 1),
    # nothing in the head, nothing after
    (_big("", "8", "9"), 2),
    # a lone surrogate in a key past the head: the walk of the whole text visits keys
    (_big("1e400, ", "7", '{"\\ud800": 1}, 5e400'), 2),
    # exactly the limit found in the head, more past it: the whole text is walked (and counted)
    (_big("1e400, ", "7", "5e400, 6e400"), 1),
    # lone surrogates past the head found before the numbers past it: the whole text is walked
    (_big("1e400, ", "7", '5e400, "\\ud800", "\\ud801"'), 2),
    # a number run straddling the head's end, in a text whose second character is a digit
    (_big("1e400, ", "123456789012345678901234567890123456789012345678901234567890", "2e400"), 1),
]


@pytest.mark.parametrize("text, limit", BIG, ids=[f"big{i}" for i in range(len(BIG))])
def test_a_limited_list_of_a_big_text(text, limit):
    whole = parse(text, numbers="fragment", check_depth=False)
    cut = parse(text, numbers="fragment", check_depth=False, warning_limit=limit)
    assert [(w["code"], w["pointer"], w["offset"]) for w in cut.warnings] == \
        [(w["code"], w["pointer"], w["offset"]) for w in whole.warnings[:limit]]
    assert cut.warnings == whole.warnings[:limit]
    assert cut.warning_count == whole.warning_count == len(whole.warnings)


@pytest.mark.parametrize("text, pointer, column", [
    ('{"n":[],"\\u006e":[]}', "", 9),              # after a member array: nothing wanted inside it
    ('{"n":[1],"\\u006e":[2]}', "", 10),
    ('{"a":{"n":[],"\\u006e":[]}}', "/a", 14),
    ('[{"n":[[1]],"\\u006e":[]}, 5, {"x":[1]}]', "/0", 13),
])
def test_a_repeated_key_written_with_an_escape_is_found_after_a_member_array(text, pointer, column):
    # the escaped spelling is found only by walking every object; an array with no wanted offset
    # ahead must not end that walk (found by tests/unit/test_gate_fast_exact.py's generated lines:
    # the gate's fast reader refused these arguments, the strict parser saw no repeated key)
    warnings = parse(text).warnings
    assert [(w["code"], w["pointer"], w["key"], w["line"], w["column"]) for w in warnings] == \
        [("duplicate_key", pointer, "n", 1, column)]


def test_a_repeated_key_holding_a_lone_surrogate_lists_both_warnings_at_its_place():
    # the second key's lone_surrogate and the duplicate_key sit at one offset: the walk's order
    # is kept (sorted by offset only, the warnings themselves are never compared)
    got = parse('{"\\ud800": 1, "\\ud800": 2}').warnings
    assert [(w["code"], w["pointer"], w["offset"]) for w in got] == \
        [("lone_surrogate", "/\ud800", 1), ("lone_surrogate", "/\ud800", 14),
         ("duplicate_key", "", 14)]


def test_a_document_that_is_one_huge_integer_with_a_limit():
    # the head's end moves over the number characters up to the end of the text
    text = "1" * (2 * HEAD + 10)
    cut = parse(text, check_depth=False, warning_limit=1)
    assert [(w["code"], w["pointer"], w["offset"]) for w in cut.warnings] == [("unsafe_integer", "", 0)]
    assert cut.warning_count == 1


def test_too_deep_to_place_with_a_limit_says_what_was_found(monkeypatch):
    from workbench.jsontext import warnings as w

    def deep(*_a, **_k):
        raise RecursionError
    monkeypatch.setattr(w, "walk", deep)
    msg = ("The document nests too deeply to place its warnings (duplicate keys, lone "
           "surrogates or unsafe integers)")
    for text, dups, ints, code in [('{"a":1,"a":2}', ["a"], [], "duplicate_key"),
                                   ("[12345678901234567890]", [], ["12345678901234567890"],
                                    "unsafe_integer"),
                                   ('["\\ud800"]', [], [], "lone_surrogate")]:
        for limit in (None, 1, 5):
            assert find_warnings_counted(text, dups, ints, LineIndex(text), limit=limit) == \
                ([{"code": code, "pointer": "", "message": msg}], 1)


def test_a_string_after_the_last_surrogate_holding_a_number_candidate():
    # the unsafe token's text inside a string after the last surrogate escape sends the walk
    # into that string: it holds no surrogate, and nothing is read past the candidates' end
    text = '["\\ud800", "12345678901234567890", 12345678901234567890]'
    assert placed(text) == [("lone_surrogate", "/0", 1, 2, 1), ("unsafe_integer", "/2", 1, 36, 35)]


def test_a_limited_list_of_a_big_text_whose_candidates_are_not_in_it():
    # find_warnings_counted takes any superset of the float tokens: none found, none counted
    text = '["' + "p" * (2 * HEAD + 10) + '"]'
    assert find_warnings_counted(text, [], [], LineIndex(text), ["1e400"], limit=1) == ([], 0)
