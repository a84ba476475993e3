"""The security baseline every route passes through (no Flask app state beyond config).

* ``Host`` must be this server's loopback name and port (stops DNS rebinding);
* a POST with an ``Origin`` other than the app's own is refused (no Origin: scripts, curl);
* every response carries a strict Content-Security-Policy and friends.
"""

from __future__ import annotations

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def allowed_hosts(port: int | None, extra_host: str | None = None) -> set[str]:
    """The ``Host`` header values this server answers to."""
    names = list(LOOPBACK_NAMES)
    if extra_host and extra_host not in ("0.0.0.0", "::", ""):
        names.append(f"[{extra_host}]" if ":" in extra_host and not extra_host.startswith("[") else extra_host)
    hosts = set()
    for name in names:
        if port is None:
            hosts.add(name)
        else:
            hosts.add(f"{name}:{port}")
            if port == 80:
                hosts.add(name)
    return hosts


def host_allowed(host: str | None, allowed: set[str], port: int | None) -> bool:
    if not host:
        return False
    host = host.strip().lower()
    if port is None:  # port not known (tests with a client that has none): check the name only
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name in {h.rsplit(":", 1)[0] if not h.endswith("]") else h for h in allowed}
    return host in allowed


def origin_allowed(origin: str | None, host: str | None, fetch_site: str | None = None) -> bool:
    """May this state-changing request be served?

    * A browser's ``Sec-Fetch-Site`` (which pages cannot forge) other than ``same-origin`` or
      ``none`` (typed by the user) is refused outright.
    * No ``Origin`` at all: not a browser page (curl, scripts, the command line): served.
    * ``Origin`` must be our own ``http://host:port``.  The one exception: with
      ``Referrer-Policy: no-referrer`` a browser sends ``Origin: null`` on a plain form post
      from our own page; that is served only when the browser also says ``same-origin``.
    """
    if fetch_site is not None and fetch_site.strip().lower() not in ("same-origin", "none"):
        return False
    if origin is None:
        return True
    origin = origin.strip().lower()
    if origin == "null":
        return fetch_site is not None and fetch_site.strip().lower() == "same-origin"
    return bool(host) and origin == f"http://{host.strip().lower()}"
