"""The Flask application factory: security checks before every request, headers after it, and one
hook that turns every :class:`WorkbenchError` into its JSON error body (Datasette's shape).

The routes themselves are declared in :mod:`.routes`; the views they serve in :mod:`.views`.
A request flows: ``check_request`` (Host, Origin) → route → ``json_body``/``form_body`` →
the view core's ``handle(body, limits)`` → ``json_response`` (the exact writer) or the page
template; any WorkbenchError raised on the way → ``on_workbench_error`` (4xx).
"""

from __future__ import annotations

import threading
from pathlib import Path

from flask import Flask, Response, g, request
from werkzeug.exceptions import HTTPException

from ..errors import WorkbenchError, log_fault
from ..limits import FORM_MAX_PARTS, RELEASE_AFTER_BYTES, RELEASE_AFTER_GROWTH, Limits
from ..runtime.memory import release_free_memory, resident_bytes
from . import security
from .routes import HTTP_CODES, PROBLEM, api, error_body_response, error_response, pages, too_large
from .server import InMemoryRequest


def _package_dir(name: str) -> Path:
    """``static``/``templates`` inside the installed package, else beside it in the repo."""
    package = Path(__file__).resolve().parent.parent
    inside = package / name
    return inside if inside.is_dir() else package.parent / name


def json_media_type(mimetype: str) -> bool:
    """Is a request's Content-Type JSON?  ``application/json``, any ``…/…+json``, or none at all
    (a script that sends bare bytes); a form's or ``text/plain`` is not."""
    return not mimetype or mimetype == "application/json" or mimetype.endswith("+json")


def create_app(limits: Limits | None = None, *, port: int | None = None,
               host: str = "127.0.0.1") -> Flask:
    """Build the app.  ``port`` is the port the server listens on (the Host check needs it;
    ``None`` checks the host name only, for in-process test clients)."""
    app = Flask("workbench", static_folder=str(_package_dir("static")),
                template_folder=str(_package_dir("templates")), static_url_path="/static")
    limits = limits or Limits.from_env()
    # a form's text fields may be as large as a body (werkzeug's 500 kB default refused a
    # pasted document); its file parts are kept in memory (:class:`.server.Request`)
    app.request_class = InMemoryRequest
    app.config.update(MAX_CONTENT_LENGTH=limits.max_body, MAX_FORM_MEMORY_SIZE=limits.max_body,
                      MAX_FORM_PARTS=FORM_MAX_PARTS, WORKBENCH_LIMITS=limits,
                      WORKBENCH_PORT=port, WORKBENCH_HOST=host, JSON_SORT_KEYS=False,
                      SEND_FILE_MAX_AGE_DEFAULT=0)
    app.debug = False

    def set_port(new_port: int | None) -> None:
        app.config["WORKBENCH_PORT"] = new_port
        app.config["WORKBENCH_ALLOWED_HOSTS"] = security.allowed_hosts(new_port, host)

    app.set_port = set_port  # type: ignore[attr-defined]
    set_port(port)  # None (in-process test clients): the Host check looks at the name only

    @app.before_request
    def check_request():
        allowed = app.config["WORKBENCH_ALLOWED_HOSTS"]
        host_header = request.headers.get("Host")
        if not security.host_allowed(host_header, allowed, app.config["WORKBENCH_PORT"]):
            return error_response("forbidden_host",
                                  "This server answers only to its own loopback address "
                                  "(127.0.0.1, localhost or [::1] with its port)", 403)
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            if not security.origin_allowed(request.headers.get("Origin"), host_header,
                                           request.headers.get("Sec-Fetch-Site")):
                return error_response("forbidden_origin",
                                      "Requests from other sites are refused: this server only "
                                      "takes requests from its own pages", 403)
            if request.path.startswith("/api/") and not json_media_type(request.mimetype):
                response = error_response(
                    "unsupported_media_type", f"POST {request.path} takes a JSON body "
                    f"(Content-Type: application/json), not {request.mimetype}", 415)
                response.headers["Accept-Post"] = "application/json"
                return response
        g.limits = app.config["WORKBENCH_LIMITS"]
        g.resident = resident_bytes()

    @app.after_request
    def add_headers(response: Response) -> Response:
        if ((request.content_length or 0) > RELEASE_AFTER_BYTES
                or (response.content_length or 0) > RELEASE_AFTER_BYTES
                or resident_bytes() - g.get("resident", 1 << 62) > RELEASE_AFTER_GROWTH):
            # after a large document, answer or piece of work: hand freed memory back to the
            # system once the answer is sent, and again when the server has dropped the
            # request's buffers
            response.call_on_close(release_free_memory)
            response.call_on_close(lambda: threading.Timer(0.5, release_free_memory).start())
        for name, value in security.SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if response.mimetype in ("application/json", PROBLEM) or request.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"   # (Format's text answer too)
        return response

    @app.errorhandler(WorkbenchError)
    def on_workbench_error(exc: WorkbenchError):
        return error_body_response(exc.to_dict(), exc.status)

    @app.errorhandler(HTTPException)
    def on_http_error(exc: HTTPException):
        limit = app.config["MAX_CONTENT_LENGTH"]
        if exc.code == 413 and (request.content_length or 0) > limit:
            error = too_large(limit)
        elif exc.code == 413:  # werkzeug's form parser: too many parts
            error = {"code": "too_large", "limit": app.config["MAX_FORM_PARTS"],
                     "message": f"The form has more than {app.config['MAX_FORM_PARTS']:,} parts"}
        else:
            error = {"code": HTTP_CODES.get(exc.code, "http_error"), "message": exc.description or exc.name}
        response = error_body_response(error, exc.code or 500)
        if getattr(exc, "valid_methods", None):  # 405 names what is allowed (RFC 9110)
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def on_unexpected(exc: Exception):
        log_fault(f"unexpected error in {request.method} {request.path}", exc)
        return error_response("internal_error",
                              "Something went wrong inside the workbench; the error was logged "
                              "without your data. Please report it.", 500)

    app.register_blueprint(pages)
    app.register_blueprint(api)
    return app
