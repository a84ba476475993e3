"""web/security.py, rule by rule (issue 28's mutation campaign): which Host names this server
answers to, which Origins and Sec-Fetch-Site values may POST, exactly.  Table-driven, in
process; the HTTP side of the same rules is in test_pinned_rules.py and tests/api/test_server.py.
"""

from __future__ import annotations

import pytest

from workbench.web.security import allowed_hosts, host_allowed, origin_allowed

LOOPBACK = {"127.0.0.1", "localhost", "[::1]"}


def with_port(names, port):
    return {f"{n}:{port}" for n in names}


@pytest.mark.parametrize("port, extra, expected", [
    (8765, None, with_port(LOOPBACK, 8765)),
    (None, None, LOOPBACK),
    (80, None, with_port(LOOPBACK, 80) | LOOPBACK),      # port 80: the bare name too
    (81, None, with_port(LOOPBACK, 81)),
    (8765, "0.0.0.0", with_port(LOOPBACK, 8765)),         # wildcard binds add no name
    (8765, "::", with_port(LOOPBACK, 8765)),
    (8765, "", with_port(LOOPBACK, 8765)),
    (8765, "192.168.1.5", with_port(LOOPBACK | {"192.168.1.5"}, 8765)),
    (8765, "fe80::1", with_port(LOOPBACK | {"[fe80::1]"}, 8765)),    # IPv6: bracketed once
    (8765, "[fe80::1]", with_port(LOOPBACK | {"[fe80::1]"}, 8765)),
    (None, "box.lan", LOOPBACK | {"box.lan"}),
])
def test_allowed_hosts(port, extra, expected):
    assert allowed_hosts(port, extra) == expected


@pytest.mark.parametrize("host, allowed", [
    ("127.0.0.1:8765", True), ("LOCALHOST:8765", True), (" [::1]:8765 ", True),
    ("127.0.0.1", False), ("127.0.0.1:8766", False), ("127.0.0.1:87650", False),
    ("127.0.0.1:8765.evil.example", False), ("evil.example:8765", False),
    ("", False), (None, False),
])
def test_host_with_a_known_port(host, allowed):
    assert host_allowed(host, allowed_hosts(8765), 8765) is allowed


@pytest.mark.parametrize("host, allowed", [
    ("127.0.0.1", True), ("127.0.0.1:1234", True), ("localhost:5000", True), ("[::1]", True),
    ("[::1]:5000", True), ("evil.example", False), ("evil.example:8765", False),
    ("127.0.0.1.evil.example", False), ("[::2]", False), ("", False), (None, False),
])
@pytest.mark.parametrize("allowed_set", [allowed_hosts(None), allowed_hosts(8765)],
                         ids=["names", "with-ports"])
def test_host_with_no_known_port_checks_the_name_only(host, allowed, allowed_set):
    assert host_allowed(host, allowed_set, None) is allowed


OURS = "http://127.0.0.1:8765"


@pytest.mark.parametrize("origin, host, fetch_site, allowed", [
    (None, "127.0.0.1:8765", None, True),               # curl, scripts: no Origin at all
    (OURS, "127.0.0.1:8765", None, True),
    (OURS, "127.0.0.1:8765", "same-origin", True),
    (OURS, "127.0.0.1:8765", " Same-Origin ", True),
    (OURS, "127.0.0.1:8765", "none", True),             # typed or bookmarked by the user
    (OURS, "127.0.0.1:8765", "NONE", True),
    (OURS, "127.0.0.1:8765", "same-site", False),
    (OURS, "127.0.0.1:8765", "cross-site", False),
    (None, "127.0.0.1:8765", "cross-site", False),      # the browser's word wins
    ("http://localhost:8765", "localhost:8765", None, True),
    ("http://localhost:8765", "LOCALHOST:8765", None, True),
    (" HTTP://LOCALHOST:8765 ", "localhost:8765", None, True),
    ("http://localhost:8765", "127.0.0.1:8765", None, False),
    (OURS, None, None, False), (OURS, "", None, False),
    ("null", "127.0.0.1:8765", "same-origin", True),    # a form post under no-referrer
    ("null", "127.0.0.1:8765", None, False),
    ("null", "127.0.0.1:8765", "none", False),
    ("null", "127.0.0.1:8765", "cross-site", False),
    ("NULL", "127.0.0.1:8765", "same-origin", True),
    ("http://attacker.example", "127.0.0.1:8765", None, False),
])
def test_origin(origin, host, fetch_site, allowed):
    assert origin_allowed(origin, host, fetch_site) is allowed
