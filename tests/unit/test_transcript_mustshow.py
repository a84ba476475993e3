"""Issue 23's "What it must show", over every gallery case and every shared recording, through
the real parts (the transcript core and the Gate page the server renders without JavaScript):

* a paste that is not one item is never ``kind: "item"``; an unrecognised shape says what it saw;
* the headline counts blocked calls ("5 calls · 1 blocked") and is green only when nothing is
  blocked and no error is found;
* no page text (the answer the page says in its own words, without JavaScript) prints ``None``,
  ``null`` or ``undefined`` standing for a missing value, for every case and recording; every
  single recorded item (the shared ``items.jsonl`` files) is answered without them, and a chain
  never holds a null.

(The BOM / CR / CRLF / re-serialised property and "the calls list and the walk agree" run over
the same recordings in tests/unit/test_dialects.py.)"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from workbench import gallery
from workbench.transcript import analyse

RUN_STATES = Path(__file__).resolve().parents[1] / "data" / "run_state"
# what holds items (transcript-rules.md, "Reading": an object holding items is read for them)
HOLDERS = ("items", "data", "output", "input", "messages", "required_actions", "contents",
           "generatedItems", "generated_items", "modelResponses", "model_responses", "choices",
           "resourceSpans", "session", "events")


def _recordings() -> list[Path]:
    from conftest import shared_dir
    files = sorted(RUN_STATES.glob("*/*.json"))
    root = shared_dir()
    if root is None:
        return files
    ref = root / "reference"
    for base in (ref / "realworld" / "transcripts", ref / "realworld" / "streams"):
        files += sorted(p for p in base.iterdir() if p.name != "index.jsonl")
    files += sorted(p for p in (ref / "realworld2").rglob("*") if p.is_file()
                    and p.suffix in (".json", ".sse", ".txt", ".jsonl")
                    and p.name != "index.jsonl")
    files += sorted((ref / "openresponses-fixtures").glob("stream_*.txt"))
    return files


def _texts():
    for c in gallery.ALL:
        yield pytest.param(gallery.text_of(c), gallery.tools_of(c) or "", id=c["name"])
    for p in _recordings():
        yield pytest.param(p.read_text(encoding="utf-8"), "", id=p.name)


def _records():
    from conftest import shared_dir
    root = shared_dir()
    if root is None:
        return []
    out = []
    for name in ("realworld/items.jsonl", "openresponses-fixtures/items.jsonl"):
        for i, line in enumerate((root / "reference" / name).read_text(encoding="utf-8")
                                 .splitlines()):
            rec = json.loads(line)
            text = rec.get("text") if isinstance(rec.get("text"), str) else \
                json.dumps(rec["item"], indent=1)
            out.append(pytest.param(text, id=f"{name.split('/')[0]}:{i}"))
    return out


def one_item(value) -> bool:
    """One item, told without the classifier: an object with a type string that holds no
    items (the rules: an object holding items is read for its items)."""
    return type(value) is dict and isinstance(value.get("type"), str) and \
        not any(isinstance(value.get(k), (list, dict)) for k in HOLDERS
                if k not in ("output", "input"))   # a shell_call_output's output is a list


@pytest.fixture(scope="module")
def gate_page():
    """One application for the module (made once: a new one per text is most of the time)."""
    from workbench.web import create_app
    return create_app().test_client()


class _Words(HTMLParser):
    """The text of the page's answer (inside ``#result-body``) outside code, JSON and form
    fields: what the page says in its own words."""

    SKIP = {"pre", "code", "textarea", "script", "style", "input"}
    VOID = {"input", "br", "img", "hr", "meta", "link", "source", "wbr"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool, bool]] = []   # (tag, in the body, skipped)
        self.words: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        inside = (self.stack[-1][1] if self.stack else False) or a.get("id") == "result-body"
        skip = (self.stack[-1][2] if self.stack else False) or tag in self.SKIP or \
            "json" in (a.get("class") or "").split()
        if tag not in self.VOID:
            self.stack.append((tag, inside, skip))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.stack and self.stack[-1][1] and not self.stack[-1][2] and data.strip():
            self.words.append(data.strip())


def page_words(page: str) -> list[str]:
    """The page's own words in its answer, the rules' sentences left out (they name null as a
    value a field may hold, not as a missing value)."""
    from workbench.gate import AGENTS_RULES, RULES
    rule_words = {r[k].strip() for r in RULES + AGENTS_RULES for k in ("text", "plain", "full")
                  if k in r}
    parser = _Words()
    parser.feed(page)
    return [w for w in parser.words if w not in rule_words]


def gate_page_for(client, text: str, tools: str) -> str:
    r = client.post("/gate", data={"item": text, "schema": tools})
    assert r.status_code in (200, 400, 413, 422), r.status_code
    return r.get_data(as_text=True)


def headline(page: str) -> tuple[str, str] | None:
    """The Gate page's headline, as the server renders it (no JavaScript): (its words, its
    class); None when the page walked the text as one item."""
    if 'id="report"' not in page:
        return None
    m = re.search(r'<div id="verdict-live" class="headline ([a-z]+)"[^>]*>(.*?)</div>', page, re.S)
    return html.unescape(m.group(2)).strip(), m.group(1)


@pytest.mark.parametrize("text, tools", list(_texts()))
def test_kind_headline_and_words(gate_page, text, tools):
    r = analyse(text, tools or None)
    page = gate_page_for(gate_page, text, tools)
    # the page's own words: no None / undefined, and null only where the text holds one (a
    # schema's words may name the type)
    words = page_words(page)
    assert words, "the page said nothing"
    assert not [w for w in words if re.search(r"\bNone\b|\bundefined\b", w)]
    if "null" not in text:
        assert not [w for w in words if re.search(r"\bnull\b", w) and "schema" not in w], words
    try:
        value = json.loads(text.removeprefix("\ufeff"))
    except ValueError:
        value = None   # JSON Lines, SSE: never one item
    if r["kind"] == "item":
        assert one_item(value), "a paste that is not one item read as kind item"
    if r["kind"] == "unknown":
        (f,) = [f for f in r["findings"] if f["code"] == "unrecognised_shape"]
        assert "The pasted JSON is" in f["message"]
    if r["kind"] in ("item", "unknown"):
        return   # the page walks it through the one-item gate instead (its own headline)
    s = r["summary"]
    blocked = sum(1 for c in r["calls"] if not c["execute"] and c.get("role") != "history")
    assert s["blocked"] == blocked
    words, cls = headline(page)
    assert words.startswith(f"{words.split(' · ')[0]} · {s['calls']:,} call")
    assert (f" · {blocked:,} blocked" in words) == (blocked > 0), words
    assert f"{s['errors']:,} error" in words
    assert cls == ("good" if s["errors"] == 0 and blocked == 0 else "bad"), (words, cls)


def test_the_headline_says_blocked_calls_for_a_case_with_them(gate_page):
    # at least one case of each colour is in the corpus above: the test above can fail
    texts = [(gallery.text_of(c), gallery.tools_of(c) or "") for c in gallery.ALL]
    lines = [h for h in (headline(gate_page_for(gate_page, t, tools)) for t, tools in texts) if h]
    assert any(" blocked" in w and c == "bad" for w, c in lines)
    assert any(" blocked" not in w and c == "good" for w, c in lines)
    # "5 calls · 0 errors" in green while a call is blocked was the bug: never again
    assert not [w for w, c in lines if " blocked" in w and c == "good"]


@pytest.mark.parametrize("text", _records())
def test_every_recorded_item_is_answered_without_none_null_or_undefined(text):
    r = analyse(text)
    value = json.loads(text)
    if r["kind"] == "item":
        assert one_item(value)
    said = [(f["code"], f["message"]) for f in r["findings"]]
    said += [("call", c.get(k)) for c in r["calls"] for k in ("reason", "note")
             if isinstance(c.get(k), str)]
    said += [("chain", link.get("unknown", "")) for link in (r["chain"] or {}).get("links", [])]
    assert not [w for _who, w in said if re.search(r"\bNone\b|\bundefined\b", w)]
    if "null" not in text:
        assert not [w for who, w in said if who != "spec_schema" and re.search(r"\bnull\b", w)]
    for link in (r["chain"] or {}).get("links", []):
        assert None not in link.values(), link


@pytest.mark.parametrize("value", [
    {"object": "list", "data": [{"type": "function_call", "turn_id": "t", "call_id": "c",
                                 "name": "f", "arguments": {}}]},
    {"data": [{"type": "message", "role": "user", "content": "hi"}]},
    {"id": "sess_1", "status": "idle", "items": []},
    {"input": [{"type": "message", "role": "user", "content": "hi"}]},
    {"output": [], "status": "completed"},
    {"messages": [{"role": "user", "content": "hi"}]},
    {"$schemaVersion": "1.0", "currentTurn": 0, "generatedItems": []},
    [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
], ids=lambda v: ",".join(v) if isinstance(v, dict) else "array")
def test_a_value_holding_items_is_never_one_item(value):
    r = analyse(json.dumps(value))
    assert r["kind"] != "item", r["kind"]
