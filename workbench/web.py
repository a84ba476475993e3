"""The thin web layer: a Flask application factory that turns HTTP into calls of the cores.

Every core module (``format``, ``extract``, ``validate``, ``diff``, ``gate``) exposes
``handle(body: dict, limits) -> dict``: the same function answers ``POST /api/<name>``
(JSON in, JSON out) and the plain HTML form of its page (works with JavaScript off).
"""

from __future__ import annotations

import ctypes
import gc
import importlib
import json
import threading
from pathlib import Path

import orjson
from flask import Flask, Response, abort, g, render_template, request
from werkzeug.exceptions import HTTPException

from . import __version__, security
from .errors import WorkbenchError, bad_request, log_fault
from .format import dumps_value
from .limits import Limits


# name, title, one-line purpose (order = navigation order)
VIEWS = [
    ("format", "Format", "Re-indent or minify exactly; numbers keep their text, duplicate keys are reported."),
    ("extract", "Extract", "RFC 9535 JSONPath with the normalized path and JSON Pointer of every match."),
    ("validate", "Validate", "JSON Schema validation: every error, located, nothing fetched."),
    ("diff", "Diff", "Two documents side by side: semantic, line-aligned, with a JSON Patch."),
    ("gate", "Gate", "May this tool call be replayed? Format → schema → diff, one verdict."),
]
VIEW_NAMES = [v[0] for v in VIEWS]

# request fields that hold the user's text (kept as typed; a file upload may fill them)
TEXT_FIELDS = {
    "format": ["text"],
    "extract": ["document", "path"],
    "validate": ["document", "schema"],
    "diff": ["left", "right"],
    "gate": ["item", "schema", "original"],
}


RELEASE_AFTER_BYTES = 4 * 1024 * 1024


def release_free_memory() -> None:
    """Collect garbage and ask glibc to return freed heap pages (no-op elsewhere)."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _package_dir(name: str) -> Path:
    """``static``/``templates`` inside the installed package, else beside it in the repo."""
    here = Path(__file__).resolve().parent
    inside = here / name
    return inside if inside.is_dir() else here.parent / name


def core(name: str):
    """The core module of a view, or None while it is not built yet."""
    try:
        module = importlib.import_module(f"workbench.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"workbench.{name}":
            return None
        raise
    return module if hasattr(module, "handle") else None


def json_response(obj, status: int = 200) -> Response:
    return Response(dumps_value(obj), status=status, mimetype="application/json")


def error_response(code: str, message: str, status: int, **extra) -> Response:
    return json_response({"error": {"code": code, "message": message, **extra}}, status)


def create_app(limits: Limits | None = None, *, port: int | None = None,
               host: str = "127.0.0.1") -> Flask:
    """Build the app.  ``port`` is the port the server listens on (the Host check needs it;
    ``None`` checks the host name only, for in-process test clients)."""
    app = Flask("workbench", static_folder=str(_package_dir("static")),
                template_folder=str(_package_dir("templates")), static_url_path="/static")
    limits = limits or Limits.from_env()
    app.config.update(MAX_CONTENT_LENGTH=limits.max_body, WORKBENCH_LIMITS=limits,
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
        g.limits = app.config["WORKBENCH_LIMITS"]

    @app.after_request
    def add_headers(response: Response) -> Response:
        if (request.content_length or 0) > RELEASE_AFTER_BYTES:
            # after a large document: hand freed memory back to the system once the answer is
            # sent, and again when the server has dropped the request's buffers
            response.call_on_close(release_free_memory)
            response.call_on_close(lambda: threading.Timer(0.5, release_free_memory).start())
        for name, value in security.SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if response.mimetype == "application/json":
            response.headers["Cache-Control"] = "no-store"
        return response


    @app.errorhandler(WorkbenchError)
    def on_workbench_error(exc: WorkbenchError):
        return json_response(exc.to_body(), exc.status)

    @app.errorhandler(HTTPException)
    def on_http_error(exc: HTTPException):
        codes = {400: "bad_request", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
                 413: "too_large", 415: "unsupported_media_type"}
        message = exc.description or exc.name
        if exc.code == 413:
            message = (f"The request body is larger than the limit of "
                       f"{app.config['MAX_CONTENT_LENGTH']:,} bytes (set --max-body to change it)")
        extra = {"limit": app.config["MAX_CONTENT_LENGTH"]} if exc.code == 413 else {}
        response = error_response(codes.get(exc.code, "http_error"), message, exc.code or 500, **extra)
        if getattr(exc, "valid_methods", None):  # 405 names what is allowed (RFC 9110)
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def on_unexpected(exc: Exception):
        log_fault(f"unexpected error in {request.method} {request.path}", exc)
        return error_response("internal_error",
                              "Something went wrong inside the workbench; the error was logged "
                              "without your data. Please report it.", 500)

    @app.context_processor
    def page_context():
        return {"views": VIEWS, "version": __version__, "limits": app.config["WORKBENCH_LIMITS"],
                "available": {name: core(name) is not None for name in VIEW_NAMES}}

    @app.get("/")
    def home():
        return render_template("home.html", view="home")

    @app.post("/api/<name>")
    def api(name: str):
        module = core(name) if name in VIEW_NAMES else None
        if module is None:
            if name in VIEW_NAMES:
                return error_response("not_available", f"The {name} view is not available yet", 404)
            abort(404)
        return json_response(module.handle(_json_body(), g.limits))

    @app.get("/api/openapi.json")
    def openapi():
        from .openapi import spec
        return json_response(spec())

    @app.get("/api/health")
    def health():
        return json_response({"ok": True, "version": __version__,
                              "views": {n: core(n) is not None for n in VIEW_NAMES}})

    @app.route("/<name>", methods=["GET", "POST"])
    def view(name: str):
        if name not in VIEW_NAMES:
            abort(404)
        module = core(name)
        if module is None:
            return render_template("unavailable.html", view=name), 200
        form, result, error, status = {}, None, None, 200
        # a core may give its page more context (a gallery, say) and a form to prefill and run
        # from the query string (``/gate?case=NAME`` works with JavaScript off)
        extra = module.page_context(request.args) if hasattr(module, "page_context") else {}
        prefill = extra.pop("form", None)
        try:
            form = _form_body(name) if request.method == "POST" else prefill
            if form:
                result = module.handle(form, g.limits)
        except WorkbenchError as exc:
            error, status = exc.to_dict(), exc.status
        return render_template(f"{name}.html", view=name, form=form or {}, result=result,
                               error=error, **extra), status

    return app


def _json_body() -> dict:
    raw = request.get_data(cache=False)
    try:
        # orjson is twice as fast on a 35 MB body; it refuses lone-surrogate escapes inside the
        # strings, which the standard parser takes (the cores then report them where they are)
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        try:
            body = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise bad_request(f"The request body is not UTF-8 (bad byte at {exc.start})",
                              code="bad_json") from None
        except ValueError as exc:
            raise bad_request(f"The request body is not JSON: {exc}", code="bad_json") from None
        except RecursionError:
            raise bad_request("The request body is nested too deeply", code="bad_json") from None
    if not isinstance(body, dict):
        raise bad_request("The request body must be a JSON object of fields", code="bad_json")
    return body


def _form_body(name: str) -> dict:
    """A plain HTML form as an API body: text fields kept exactly, a file upload filling its
    text field, checkboxes as booleans, whole numbers as ints."""
    body: dict = {}
    text_fields = TEXT_FIELDS.get(name, [])
    for key, value in request.form.items():
        if key in text_fields:
            body[key] = value.replace("\r\n", "\n")
        elif value in ("on", "true"):
            body[key] = True
        elif value == "false":
            body[key] = False
        elif value.strip().lstrip("-").isdigit():
            body[key] = int(value)
        elif value != "":
            body[key] = value
    for key in text_fields:
        upload = request.files.get(key + "_file")
        if upload and upload.filename:
            data = upload.read()
            try:
                body[key] = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise WorkbenchError("parse_error",
                                     f"The file {upload.filename!r} is not UTF-8 text: byte "
                                     f"0x{data[exc.start]:02x} at byte offset {exc.start} is not valid",
                                     field=key, offset=exc.start) from None
    return body
