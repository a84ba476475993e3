"""Request bodies: the API's JSON body, and a plain HTML form read as the same body (so every page
works with JavaScript off)."""

from __future__ import annotations

import json

import orjson
from flask import request

from ..errors import WorkbenchError, bad_request


def json_body() -> dict:
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


def form_body(text_fields: list[str]) -> dict:
    """A plain HTML form as an API body: text fields kept exactly, a file upload filling its
    text field, checkboxes as booleans, whole numbers as ints."""
    body: dict = {}
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
