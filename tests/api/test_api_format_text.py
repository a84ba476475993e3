"""POST /api/format with ``"answer": "text"`` through the real server (issue 25): the formatted text
itself as the body, every other member of the answer in a ``Workbench-*`` header, and every refusal
still the JSON error body."""

from __future__ import annotations

import json

import pytest

TEXT = "text/plain; charset=utf-8"

CASES = [
    ('{"a": "tab\\there \\"q\\" back\\\\slash \\u0001 \\u2028 é 😀", "n": [1.10, -0.0, 1e400, 12345678901234567890123]}',
     {}),
    ('{"b": 1, "a": {"x": [], "y": {}}, "b": 2}', {"indent": "tab", "sort_keys": True}),   # a repeated key
    ('{"a": 1}\n{"b": "x\\ny"}\n[3]\n', {"indent": 0}),                                  # JSON Lines
    ('"lone \\ud800"', {"indent": 4}),                                                  # the plain writer's fallback
    ('[1e999, 0.1000000000000000055511151231257827, 1e-400]', {}),                      # float warnings
    ('[' + ', '.join(f'{{"id": {2**60 + i}, "p": {i}.50, "s": "Zürich \\\\ {i}"}}' for i in range(3000)) + ']',
     {"indent": 3}),                                                                     # large: orjson's path
    ('{"a": [1, 2,], // note\n "b": "ü"}', {"input": "jsonc"}),                         # JSONC
]


def post(server, body: dict, headers: dict | None = None):
    """(status, headers with lower-case names, body bytes)."""
    status, head, data = server.request("POST", "/api/format", json.dumps(body).encode(),
                                        {"Content-Type": "application/json", **(headers or {})})
    return status, {k.lower(): v for k, v in head.items()}, data


def members(head: dict) -> dict:
    """The Workbench-* headers as the answer's members (``workbench-warning-count`` →
    ``warning_count``), each read as JSON."""
    return {k.removeprefix("workbench-").replace("-", "_"): json.loads(v)
            for k, v in head.items() if k.startswith("workbench-")}


@pytest.mark.parametrize("text, options", CASES)
def test_the_text_answer_is_the_json_answers_text_byte_for_byte(server, text, options):
    status, answer = server.api("format", {"text": text, **options})
    assert status == 200
    status, head, data = post(server, {"text": text, **options, "answer": "text"})
    assert status == 200
    assert head["content-type"] == TEXT
    assert data == answer["formatted"].encode("utf-8")
    assert int(head["content-length"]) == len(data)
    # every other member of the JSON answer, in a header of its own, the same value; the
    # warnings: the first ones, all of them when they fit (truncated says when not)
    rest = {k: v for k, v in answer.items() if k != "formatted"}
    got = members(head)
    listed, warnings = got.pop("warnings"), rest.pop("warnings")
    assert listed == warnings[:len(listed)]
    if len(warnings) <= 20:
        assert listed == warnings and got == rest
    else:   # the large case: 3,000 warnings, 1,000 in the JSON answer, those that fit in headers
        assert answer["warning_count"] == 3000 and 0 < len(listed) < len(warnings)
        assert got == {**rest, "truncated": True}
    assert all(v.isascii() for k, v in head.items() if k.startswith("workbench-"))


def test_the_headers_name_the_answers_members(server):
    text = '{"region": "global",\n"region": "apac", "big": 9007199254740993}'
    status, head, data = post(server, {"text": text, "indent": 0, "answer": "text"})
    assert status == 200 and data == b'{"region":"global","region":"apac","big":9007199254740993}'
    assert head["workbench-warning-count"] == "2" and head["workbench-truncated"] == "false"
    warnings = json.loads(head["workbench-warnings"])
    assert [w["code"] for w in warnings] == ["duplicate_key", "unsafe_integer"]
    assert warnings[0]["key"] == "region" and (warnings[0]["second"]["line"], warnings[0]["second"]["column"]) == (2, 1)
    assert json.loads(head["workbench-stats"]) == {"chars_in": len(text), "chars_out": len(data),
                                                   "lines_out": 1}
    assert head["cache-control"] == "no-store" and head["x-content-type-options"] == "nosniff"


def test_many_warnings_list_what_fits_and_say_so(server):
    from workbench.format.request import TEXT_WARNINGS_BYTES
    from workbench.limits import FORMAT_MAX_WARNINGS
    text = "[" + ",".join(str(2**60 + 7 * i) for i in range(3000)) + "]"
    status, answer = server.api("format", {"text": text, "indent": 0})
    assert answer["warning_count"] == 3000 and len(answer["warnings"]) == FORMAT_MAX_WARNINGS
    status, head, data = post(server, {"text": text, "indent": 0, "answer": "text"})
    assert status == 200 and data == answer["formatted"].encode()
    listed = json.loads(head["workbench-warnings"])
    assert 0 < len(listed) < FORMAT_MAX_WARNINGS
    assert listed == answer["warnings"][:len(listed)]
    assert len(head["workbench-warnings"]) <= TEXT_WARNINGS_BYTES
    # the next warning would not have fitted
    assert len(head["workbench-warnings"]) + 1 + len(json.dumps(answer["warnings"][len(listed)],
                                                              separators=(",", ":"))) > TEXT_WARNINGS_BYTES
    assert head["workbench-warning-count"] == "3000" and head["workbench-truncated"] == "true"


def test_the_default_answer_is_unchanged(server):
    status, head, data = post(server, {"text": "[1.10]"})
    assert status == 200 and head["content-type"] == "application/json"
    assert not [k for k in head if k.startswith("workbench-")]
    assert json.loads(data)["formatted"] == "[\n  1.10\n]"
    status, head, data = post(server, {"text": "[1.10]", "answer": "json"})
    assert status == 200 and json.loads(data)["formatted"] == "[\n  1.10\n]"


@pytest.mark.parametrize("text, code, place", [
    ('{"a": 1,}', "parse_error", (1, 8)),
    ("[" * 600 + "]" * 600, "too_deep", (1, 513)),
    ('event: response.created\ndata: {"type": "response.created"}\n\n', "parse_error", (1, 1)),
])
def test_a_refusal_is_still_the_json_error(server, text, code, place):
    status, head, data = post(server, {"text": text, "answer": "text"})
    assert status == 422 and head["content-type"] == "application/json"
    assert not [k for k in head if k.startswith("workbench-")]
    error = json.loads(data)["error"]
    assert error["code"] == code and error["field"] == "text" and (error["line"], error["column"]) == place
    status, head, data = post(server, {"text": text, "answer": "text"}, {"Accept": "application/problem+json"})
    problem = json.loads(data)
    assert status == 422 and head["content-type"] == "application/problem+json"
    assert problem["status"] == 422 and problem["error"]["code"] == code


@pytest.mark.parametrize("answer", ["xml", "TEXT", 5, None, True])
def test_an_unknown_answer_is_a_400(server, answer):
    status, head, data = post(server, {"text": "[1]", "answer": answer})
    if answer is None:      # null is the default, as for every optional field
        assert status == 200 and head["content-type"] == "application/json"
        return
    error = json.loads(data)["error"]
    assert status == 400 and head["content-type"] == "application/json"
    assert error["field"] == "answer"
    assert error["code"] == ("bad_option" if isinstance(answer, str) else "bad_type")
