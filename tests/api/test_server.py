"""The foundation through the real server: pages, static files, security baseline, limits."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT, start_server, stop_server

VIEWS = ["format", "extract", "validate", "diff", "gate"]
CSP_PARTS = ["default-src 'self'", "frame-ancestors 'none'"]


@pytest.mark.parametrize("path", ["/", *[f"/{v}" for v in VIEWS]])
def test_every_page_is_served_with_the_csp(server, path):
    status, headers, body = server.get(path)
    assert status == 200
    assert headers["Content-Type"].startswith("text/html")
    csp = headers["Content-Security-Policy"]
    for part in CSP_PARTS:
        assert part in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    html = body.decode()
    # every view is linked from the navigation
    for v in VIEWS:
        assert f'href="/{v}"' in html
    # the page's CSS and JS load from the app itself
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    for asset in assets:
        s, h, _ = server.get(asset)
        assert s == 200, asset


def test_home_says_nothing_leaves_the_machine(server):
    _, _, body = server.get("/")
    assert b"nothing leaves this machine" in body.lower()


def test_foreign_host_header_is_refused(server):
    status, _, body = server.get("/", headers={"Host": f"attacker.example:{server.port}"})
    assert status == 403
    assert b'"forbidden_host"' in body
    # the right name on the wrong port is refused too (another local service's page)
    status, _, _ = server.get("/", headers={"Host": f"127.0.0.1:{server.port + 1}"})
    assert status == 403


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_loopback_names_are_served(server, host):
    status, _, _ = server.get("/", headers={"Host": f"{host}:{server.port}"})
    assert status == 200


def test_post_from_another_origin_is_refused(server):
    status, body = server.api("format", {"text": "[1]"}, headers={"Origin": "http://attacker.example"})
    assert status == 403
    assert body["error"]["code"] == "forbidden_origin"
    status, body = server.api("format", {"text": "[1]"}, headers={"Origin": "null"})
    assert status == 403
    # a browser's own word that the request comes from another site is final
    for site in ("cross-site", "same-site"):
        status, _ = server.api("format", {"text": "[1]"}, headers={"Sec-Fetch-Site": site})
        assert status == 403
        status, _ = server.api("format", {"text": "[1]"}, headers={"Origin": server.url, "Sec-Fetch-Site": site})
        assert status == 403


def test_plain_form_post_from_our_own_page_is_served(server):
    # Referrer-Policy: no-referrer makes browsers send "Origin: null" on a same-origin form post
    status, _ = server.api("format", {"text": "[1]"}, headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"})
    assert status == 200


def test_post_from_own_origin_and_without_origin_is_served(server):
    assert server.api("format", {"text": "[1]"}, headers={"Origin": server.url})[0] == 200
    assert server.api("format", {"text": "[1]"})[0] == 200


def test_body_over_the_limit_gets_413_with_the_error_body(server):
    big = b'{"text": "' + b"x" * (65 * 1024 * 1024) + b'"}'
    status, headers, body = server.request("POST", "/api/format", big,
                                           {"Content-Type": "application/json"})
    assert status == 413
    import json
    err = json.loads(body)["error"]
    assert err["code"] == "too_large" and "limit" in err["message"]


def test_limit_is_configurable():
    s = start_server("--max-body", "1000")
    try:
        status, body = s.api("format", {"text": "[" + "1," * 600 + "1]"})
        assert status == 413 and body["error"]["limit"] == 1000
        assert s.api("format", {"text": "[1]"})[0] == 200
    finally:
        stop_server(s)


def test_malformed_requests_get_400_with_the_error_body(server):
    status, _, body = server.request("POST", "/api/format", b"not json", {"Content-Type": "application/json"})
    assert status == 400 and b'"bad_json"' in body
    status, body = server.api("format", {})
    assert status == 400 and body["error"]["field"] == "text"
    status, body = server.api("format", {"text": 12})
    assert status == 400 and body["error"]["field"] == "text"
    status, body = server.api("format", {"text": "1", "indent": 9})
    assert status == 400 and body["error"]["field"] == "indent"
    status, _, body = server.request("POST", "/api/format", b"\xff\xfe", {"Content-Type": "application/json"})
    assert status == 400


def test_unknown_api_is_404_json(server):
    status, _, body = server.request("POST", "/api/nope", b"{}", {"Content-Type": "application/json"})
    assert status == 404 and b'"error"' in body


def test_no_template_or_static_file_names_another_host():
    offenders = []
    for folder in ("templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".html", ".js", ".css", ".svg"}:
                text = path.read_text(encoding="utf-8")
                for m in re.finditer(r"(?:https?:)?//[a-zA-Z0-9.-]+\.[a-z]{2,}", text):
                    if text.startswith("http://www.w3.org/2000/svg", m.start()):  # XML namespace name
                        continue
                    # JSON Schema dialect identifiers ("$schema") in examples: names, never fetched
                    if re.match(r"https?://json-schema\.org/(draft[-/]0?\d+|draft/20\d\d-\d\d)/schema", text[m.start():]):
                        continue
                    # a placeholder under the ".invalid" name, which never resolves (RFC 6761):
                    # what "copy redacted" writes for a URL
                    if re.fullmatch(r"(?:https?:)?//(?:[a-z0-9-]+\.)*invalid", m.group()):
                        continue
                    offenders.append(f"{path.relative_to(ROOT)}: {m.group()}")
    assert not offenders, offenders


def test_cli_prints_the_address_and_warns_off_loopback():
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "--port", "0", "--host", "0.0.0.0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        assert re.search(r"http://0\.0\.0\.0:\d+/", line)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    assert "WARNING" in err and "not on loopback" in err
    assert "stopped" in out  # SIGTERM/Ctrl-C stops cleanly
