"""Issue 26, HTTP: RFC 9457 problem details when asked for, 415 for a body that says it is not JSON
(through the real server)."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest

PROBLEM = {"Accept": "application/problem+json", "Content-Type": "application/json"}


def test_problem_details_beside_the_unchanged_error(server):
    status, headers, body = server.request("POST", "/api/format", b'{"text": "[1,]"}', PROBLEM)
    assert status == 422
    assert headers["Content-Type"] == "application/problem+json"
    assert headers["Cache-Control"] == "no-store" and "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    doc = json.loads(body)
    plain = json.loads(server.request("POST", "/api/format", b'{"text": "[1,]"}',
                                      {"Content-Type": "application/json"})[2])
    assert doc["error"] == plain["error"]  # the error object is the same one
    assert doc["error"]["code"] == "parse_error" and doc["error"]["line"] == 1
    assert doc["type"] == "about:blank" and doc["title"] == "Unprocessable Entity"
    assert doc["status"] == 422 and doc["detail"] == doc["error"]["message"]
    assert set(plain) == {"error"}  # not asked for: the error object alone


@pytest.mark.parametrize("accept, problem", [
    ("application/problem+json", True),
    ("application/json, application/problem+json;q=0.5", False),
    ("application/problem+json, application/json;q=0.9", True),
    ("*/*", False),
    ("text/html", False),
])
def test_problem_details_follow_the_accept_header(server, accept, problem):
    status, headers, body = server.request("POST", "/api/format", b"{}",
                                           {"Accept": accept, "Content-Type": "application/json"})
    assert status == 400
    doc = json.loads(body)
    assert doc["error"]["code"] == "missing_field" and doc["error"]["field"] == "text"
    assert ("status" in doc) is problem
    assert headers["Content-Type"] == ("application/problem+json" if problem else "application/json")


@pytest.mark.parametrize("path, method, status, code", [
    ("/api/nope", "GET", 404, "not_found"),
    ("/api/format", "GET", 405, "method_not_allowed"),
])
def test_the_http_refusals_are_problem_details_too(server, path, method, status, code):
    got, headers, body = server.request(method, path, headers={"Accept": "application/problem+json"})
    doc = json.loads(body)
    assert got == status and doc["status"] == status and doc["error"]["code"] == code
    assert headers["Content-Type"] == "application/problem+json"


def test_the_servers_own_413_is_a_problem_when_asked(server):
    from test_refusals import raw
    head = (b"POST /api/format HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAccept: application/problem+json\r\n"
            b"Content-Length: 99999999999999" % server.port)
    status, headers, body = raw(server, head)
    doc = json.loads(body)
    assert status == 413 and headers["content-type"] == "application/problem+json"
    assert doc["status"] == 413 and doc["title"] == HTTPStatus(413).phrase
    assert doc["error"]["code"] == "too_large" and doc["detail"] == doc["error"]["message"]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/xml"])
def test_a_body_that_is_not_json_by_its_type_is_415(server, content_type):
    status, headers, body = server.request("POST", "/api/format", b'{"text": "[1]"}',
                                           {"Content-Type": content_type})
    error = json.loads(body)["error"]
    assert status == 415 and error["code"] == "unsupported_media_type"
    assert content_type.split(";")[0] in error["message"]
    assert headers["Accept-Post"] == "application/json"


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "application/merge-patch+json", None])
def test_json_bodies_and_untyped_ones_are_read(server, content_type):
    from test_refusals import raw  # a socket: urllib would add a form's type to an untyped body
    typed = b"\r\nContent-Type: " + content_type.encode() if content_type else b""
    head = b"POST /api/format HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 15%s" % (server.port, typed)
    status, _, body = raw(server, head, b'{"text": "[1]"}')
    assert status == 200 and json.loads(body)["formatted"] == "[\n  1\n]"


def test_the_pages_plain_forms_are_still_served(server):
    status, _, page = server.request("POST", "/format", b"text=%5B1%5D", {
        "Content-Type": "application/x-www-form-urlencoded", "Origin": server.url,
        "Sec-Fetch-Site": "same-origin"})
    assert status == 200 and b"[\n  1\n]" in page
