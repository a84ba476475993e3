"""Every route, declared: the pages (``/format`` … ``/gate``, each also a plain form) and the API
(``POST /api/format`` …).  A route that only hands the request to a core is a row of a table
(:data:`API`, :data:`PAGES`); the others have a decorator each."""

from __future__ import annotations

from functools import partial
from http import HTTPStatus

from flask import Blueprint, Response, current_app, g, render_template, request
from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

from .. import __version__
from ..errors import WorkbenchError
from ..jsontext import dumps_value
from ..limits import PAGE_LIVE_CHARS, PAGE_THRESHOLDS
from .forms import form_body, json_body
from .openapi import spec
from .views import API, VIEW, VIEWS, View, core_of

pages = Blueprint("pages", __name__)
api = Blueprint("api", __name__)


def json_response(obj, status: int = 200, mimetype: str = "application/json") -> Response:
    return Response(dumps_value(obj), status=status, mimetype=mimetype)


PROBLEM = "application/problem+json"


def error_document(error: dict, status: int, accept: str | None) -> tuple[dict, str]:
    """The body of every refusal and its media type: ``{"error": {code, message, …}}``; asked for
    with ``Accept: application/problem+json``, RFC 9457's members beside the same ``error``
    (``type`` is ``about:blank``: the ``code`` says which fault, the title is the status's)."""
    if accept and parse_accept_header(accept, MIMEAccept).best_match(["application/json", PROBLEM]) == PROBLEM:
        title = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        return {"type": "about:blank", "title": title, "status": status,
                "detail": error.get("message", ""), "error": error}, PROBLEM
    return {"error": error}, "application/json"


# the code of each refusal the HTTP layers make themselves (werkzeug's and waitress's)
HTTP_CODES = {400: "bad_request", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
              413: "too_large", 415: "unsupported_media_type", 431: "headers_too_large",
              501: "not_implemented"}


def too_large(limit: int) -> dict:
    """The 413 for a body over the limit, from whichever layer sees it first."""
    return {"code": "too_large", "limit": limit,
            "message": f"The request body is larger than the limit of {limit:,} bytes "
                       f"(set --max-body to change it)"}


def error_body_response(error: dict, status: int) -> Response:
    body, mimetype = error_document(error, status, request.headers.get("Accept"))
    return json_response(body, status, mimetype)


def error_response(code: str, message: str, status: int, **extra) -> Response:
    return error_body_response({"code": code, "message": message, **extra}, status)


# --------------------------------------------------------------------------- the API

def answer(path: str) -> Response:
    """A core's answer to the request's JSON body (``core.handle(body, limits)``; a core that
    writes its answer itself has ``respond(body, limits)`` → ``(bytes, media type, headers)``:
    Format, issue 25)."""
    core = core_of(path)
    respond = getattr(core, "respond", None)
    if respond is not None:
        data, media_type, headers = respond(json_body(), g.limits)
        return Response(data, content_type=media_type, headers=headers)
    return json_response(core.handle(json_body(), g.limits))


for _path in API:  # endpoint api.api_format, api.api_validate_draft, …
    api.add_url_rule(_path, "api_" + _path.removeprefix("/api/").replace("/", "_"),
                     partial(answer, _path), methods=["POST"])


@api.get("/api/openapi.json")
def api_openapi():
    return json_response(spec())


@api.get("/api/health")
def api_health():
    return json_response({"ok": True, "version": __version__, "views": {v.name: True for v in VIEWS}})


# --------------------------------------------------------------------------- the pages

def page(view: View):
    """A view's page: empty on GET (or prefilled by its ``page_context``), the form's result on
    POST; a WorkbenchError is shown on the page with its status."""
    form, result, error, status = {}, None, None, 200
    extra = view.page_context(request.args)
    prefill = extra.pop("form", None)
    try:
        form = form_body(view.text_fields, view.list_fields) if request.method == "POST" else prefill
        if form:
            result = view.core.handle(form, g.limits)
    except WorkbenchError as exc:
        error, status = exc.to_dict(), exc.status
        form = form or request.form.to_dict()  # what was typed stays on the page
    return render_template(f"{view.name}.html", view=view.name, form=form or {}, result=result,
                           error=error, **extra), status


@pages.get("/")
def home():
    return render_template("home.html", view="home")


# every view's page (``/<view>``, from the views' table), rendered by :func:`page`, but those with
# a route of their own below
OWN_PAGES = {"gate"}
PAGES = {f"/{v.name}": v.name for v in VIEWS if v.name not in OWN_PAGES}

for _path, _name in PAGES.items():  # endpoint pages.format_page, …
    pages.add_url_rule(_path, f"{_name}_page", partial(page, VIEW[_name]), methods=["GET", "POST"])


@pages.route("/gate", methods=["GET", "POST"])
def gate_page():
    """The Gate page: "paste anything".  A text that is not one item (a transcript, a stream, an
    Agents session: :func:`.paste.one_item`) is answered by the transcript core and rendered as
    its report (``transcript``), so the page stays a plain form without JavaScript; one item (or
    the core's ``kind: "item"``) is the gate's walk, as :func:`page` renders it.  The page's
    context (rules, the gallery grouped, a ``?case=`` loaded) is :func:`.paste.page_context`."""
    return _gate()


@pages.post("/gate/convert")
def gate_convert_page():
    """"Replay to…" without JavaScript: the Gate form posted with a target (``to``); the page
    shows the transcript's report and, beside the original, the converted text with what did not
    travel and the target's findings (:func:`.paste.replay`)."""
    return _gate(replay=True)


def _gate(replay: bool = False):
    from . import paste
    view = VIEW["gate"]
    extra = paste.page_context(request.args)
    prefill = extra.pop("form", None)
    form, result, transcript, error, status, mode = {}, None, None, None, 200, "item"
    try:
        form = form_body(view.text_fields) if request.method == "POST" else prefill
        if form and not paste.one_item(form.get("item", "")):
            mode = "transcript"
            transcript = paste.report(form, g.limits)
            mode = "transcript" if transcript is not None else "item"
        if form and transcript is None:
            result = view.core.handle({**form, "words": "page"}, g.limits)   # the page's words
    except WorkbenchError as exc:
        error, status = exc.to_dict(), exc.status
    if replay and transcript is not None:
        extra.update(paste.replay(form, request.form.get("to", ""), g.limits))
    return render_template("gate.html", view=view.name, form=form or {}, result=result,
                           transcript=transcript, error=error, error_mode=mode, **extra), status


@pages.app_context_processor
def page_context():
    return {"views": [(v.name, v.title, v.purpose) for v in VIEWS], "version": __version__,
            "limits": current_app.config["WORKBENCH_LIMITS"], "thresholds": page_thresholds}


def page_thresholds(view: str) -> dict:
    """The size thresholds a page's scripts work by (``<body data-thresholds>``)."""
    return {"live": PAGE_LIVE_CHARS.get(view, PAGE_LIVE_CHARS["format"]), **PAGE_THRESHOLDS}
