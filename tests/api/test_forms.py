"""Every page's plain form (JavaScript off) with a value no field can take in any non-text field:
a 4xx naming the field, the page shown again with what was typed and the error (issue 21 row 7:
a ``²`` — ``str.isdigit`` says yes, ``int`` says no — or a number over 4,300 digits was a 500)."""

from __future__ import annotations

import html
import re

import pytest

from workbench.web.views import VIEWS

TEXTS = {  # a valid text for each required text field, unique enough to find on the page again
    "text": '["kept-format"]', "document": '{"kept": "document"}', "path": "$.kept",
    "schema": '{"title": "kept-schema"}', "left": '["kept-left"]', "right": '["kept-right"]',
    "item": '{"type": "function_call", "id": "fc_kept", "name": "f", "call_id": "c1", '
            '"status": "completed", "arguments": "{}"}',
}
BAD = {"superscript two": "²", "5,000 digits": "9" * 5000, "4,301 digits": "1" * 4301}
SAME_ORIGIN = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}


def cases():
    for view in VIEWS:
        for field in view.core.REQUEST.fields:
            if not field.text:
                for what, value in BAD.items():
                    yield pytest.param(view, field.name, value, id=f"{view.name}-{field.name}-{what}")


@pytest.mark.parametrize("view, field, value", cases())
def test_a_bad_value_in_any_field_is_a_4xx_naming_it_with_the_form_kept(client, view, field, value):
    form = {f.name: TEXTS[f.name] for f in view.core.REQUEST.fields if f.text and f.name in TEXTS}
    r = client.post(f"/{view.name}", data={**form, field: value}, headers=SAME_ORIGIN)
    assert r.status_code in (200, 400, 422), r.status_code
    page = html.unescape(r.get_data(as_text=True))
    for text in form.values():
        assert text in page, f"{text!r} was not kept"
    if r.status_code != 200:
        # the field named beside the message, or in it
        assert re.search(rf"<strong>{field}:\s*</strong>|'{field}'", page), f"the error does not name {field}"


@pytest.mark.parametrize("value", BAD.values(), ids=BAD.keys())
def test_format_indent_says_what_it_takes(client, value):
    r = client.post("/format", data={"text": "[1]", "indent": value}, headers=SAME_ORIGIN)
    assert r.status_code == 400
    page = html.unescape(r.get_data(as_text=True))
    assert "'indent' must be 0 (minify), 1 to 8 spaces, or \"tab\"" in page


def test_whole_numbers_are_still_numbers(client):
    r = client.post("/format", data={"text": "[1]", "indent": "4"}, headers=SAME_ORIGIN)
    assert r.status_code == 200 and "[\n    1\n]" in html.unescape(r.get_data(as_text=True))
