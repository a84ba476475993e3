"""POST /api/format and the plain /format form through the real server."""

from __future__ import annotations

import uuid

import pytest


def test_numbers_keep_their_text_through_the_api(server):
    text = '{"price": 1.10, "big": 12345678901234567890123, "tiny": 1e400, "neg": -0.0}'
    status, body = server.api("format", {"text": text, "indent": 0})
    assert status == 200
    assert body["formatted"] == text.replace(" ", "")


def test_duplicate_keys_are_reported_through_the_api(server):
    status, body = server.api("format", {"text": '{"region":"global",\n"region":"apac"}'})
    assert status == 200
    (w,) = body["warnings"]
    assert w["code"] == "duplicate_key" and w["pointer"] == "" and w["key"] == "region"
    assert (w["first"]["line"], w["first"]["column"]) == (1, 2)
    assert (w["second"]["line"], w["second"]["column"]) == (2, 1)
    assert set(w) >= {"code", "message", "pointer", "line", "column"}


@pytest.mark.parametrize("depth", [513, 2000, 200000])
def test_deep_nesting_is_422_not_500(server, depth):
    status, body = server.api("format", {"text": "[" * depth + "]" * depth})
    assert status == 422 and body["error"]["code"] == "too_deep"
    assert body["error"]["column"] == 513


def test_depth_limit_is_configurable():
    from conftest import start_server, stop_server
    s = start_server("--max-depth", "3")
    try:
        assert s.api("format", {"text": "[[[1]]]"})[0] == 200
        status, body = s.api("format", {"text": "[[[[1]]]]"})
        assert status == 422 and body["error"]["limit"] == 3
    finally:
        stop_server(s)


@pytest.mark.parametrize("text", ["", " ", "\x00", "[" * 10, '"\\u12"', "1" * 100000 + "x", "-", "\ud800"])
def test_odd_input_is_a_4xx_with_a_position(server, text):
    status, body = server.api("format", {"text": text})
    assert status == 422
    err = body["error"]
    assert err["code"] == "parse_error" and err["field"] == "text" and "line" in err


def test_plain_form_works_without_javascript(server):
    boundary = uuid.uuid4().hex
    def multipart(fields, files=()):
        parts = []
        for k, v in fields.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode())
        for k, name, data in files:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"; filename="{name}"\r\n'
                         f'Content-Type: application/json\r\n\r\n'.encode() + data + b"\r\n")
        return b"".join(parts) + f"--{boundary}--\r\n".encode()
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    status, _, html = server.request("POST", "/format", multipart({"text": '{"a":1.10}', "indent": "0"}), headers)
    assert status == 200 and b"{&#34;a&#34;:1.10}" in html
    status, _, html = server.request("POST", "/format", multipart({"text": '{"a":1,}'}), headers)
    assert status == 422 and b"Trailing comma" in html and b"{&#34;a&#34;:1,}" in html  # input kept
    # a file that is not UTF-8: a clear error naming the byte
    status, _, html = server.request("POST", "/format", multipart({"text": ""}, [("text_file", "x.json", b'["\xff"]')]), headers)
    assert status == 422 and b"0xff" in html


def test_a_repeated_key_is_kept_through_the_api(server):
    status, body = server.api("format", {"text": '{"a": 1, "b": 0, "a": 2}', "indent": 0, "sort_keys": True})
    assert status == 200 and body["formatted"] == '{"a":1,"a":2,"b":0}'
    assert [w["code"] for w in body["warnings"]] == ["duplicate_key"]


def test_float64_warnings_through_the_api(server):
    status, body = server.api("format", {"text": '[1e999, 0.1000000000000000055511151231257827, 1e-400]'})
    assert status == 200
    assert [(w["code"], w["pointer"]) for w in body["warnings"]] == [
        ("float_overflow", "/0"), ("float_precision", "/1"), ("float_underflow", "/2")]
    assert all(set(w) >= {"code", "message", "pointer", "line", "column"} for w in body["warnings"])


def test_json_lines_through_the_api(server):
    status, body = server.api("format", {"text": '{"a":1}\n{"b":[2]}\n', "indent": 0})
    assert status == 200 and body["jsonl"] is True and body["lines"] == 2
    assert body["formatted"] == '{"a":1}\n{"b":[2]}'


def test_a_pasted_stream_gets_the_gate_hint_through_the_api(server):
    status, body = server.api("format", {"text": 'event: response.created\ndata: {"type": "response.created"}\n\n'})
    assert status == 422
    e = body["error"]
    assert e["code"] == "parse_error" and e["hint"] == "sse_stream" and "/gate" in e["message"]
    assert (e["line"], e["column"]) == (1, 1)


# the API's answer is written from the formatted bytes (issue 25): the formatted text embedded as
# written, never decoded into a str and escaped again -- the same bytes as writing handle()'s answer
WRITTEN_CASES = [
    ('{"a": "tab\\there \\"q\\" back\\\\slash \\u0001 \\u2028 é 😀", "n": [1.10, -0.0, 1e400, 12345678901234567890123]}',
     {}),
    ('{"b": 1, "a": {"x": [], "y": {}}, "b": 2}', {"indent": "tab", "sort_keys": True}),
    ('{"a": 1}\n{"b": "x\\ny"}\n[3]\n', {"indent": 0}),   # JSON Lines
    ('"lone \\ud800"', {"indent": 4}),                    # the plain writer's fallback
    ('[' + ', '.join(f'{{"id": {2**60 + i}, "p": {i}.50, "s": "Zürich \\\\ {i}"}}' for i in range(3000)) + ']',
     {"indent": 3}),                                       # large: orjson's path
]


@pytest.mark.parametrize("text, options", WRITTEN_CASES)
def test_the_written_answer_is_the_answer_written(text, options):
    from workbench.format import handle, written_answer
    from workbench.jsontext import dumps_value
    from workbench.limits import DEFAULT_LIMITS
    body = {"text": text, **options}
    assert written_answer(dict(body), DEFAULT_LIMITS) == dumps_value(handle(dict(body), DEFAULT_LIMITS))


def test_the_written_answer_through_the_server(server):
    text, options = WRITTEN_CASES[0]
    status, body = server.api("format", {"text": text, **options})
    assert status == 200
    assert "\t" in body["formatted"] or "\\t" in body["formatted"]
    assert '"tab\\there \\"q\\" back\\\\slash \\u0001 \u2028 é 😀"' in body["formatted"]
    assert body["stats"] == {"chars_in": len(text), "chars_out": len(body["formatted"]),
                             "lines_out": body["formatted"].count("\n") + 1}
    assert list(body["stats"]) == ["chars_in", "chars_out", "lines_out"]
