"""Request bodies: the API's JSON body, and a plain HTML form read as the same body (so every page
works with JavaScript off)."""

from __future__ import annotations

import json
import re
import sys

import orjson
from flask import request

from ..errors import WorkbenchError, bad_request

# a whole number as a form sends it: ASCII digits (str.isdigit also takes "²"), no more than
# int() reads (4,300 digits by default)
_WHOLE = re.compile(r"-?[0-9]{1,%d}" % (sys.get_int_max_str_digits() or 4300))


def json_body() -> dict:
    raw = request.get_data(cache=False)
    _let_go_of_the_body()
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


def _let_go_of_the_body() -> None:
    """Close the server's copy of the body once it is read: waitress keeps it until the answer
    is sent, beside the text the core works on (an 11 MB transcript: 13 MB more at its peak)."""
    stream = request.environ.get("wsgi.input")
    close = getattr(stream, "close", None)
    if close is not None:
        try:
            close()
        except (OSError, ValueError):
            pass


def form_body(text_fields: list[str], list_fields: list[str] = ()) -> dict:
    """A plain HTML form as an API body: text fields kept exactly, a file upload filling its
    text field, checkboxes as booleans, whole numbers as ints (not in ``list_fields``: lines of
    patterns, which the core reads from their text)."""
    body: dict = {}
    for key, value in request.form.items():
        if key in list_fields:
            body[key] = value
        elif key in text_fields:
            body[key] = value.replace("\r\n", "\n")
        elif value in ("on", "true"):
            body[key] = True
        elif value == "false":
            body[key] = False
        elif _WHOLE.fullmatch(value.strip()):
            body[key] = int(value)  # other text (a "²", 5,000 digits) stays text: the core says what it needs
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
