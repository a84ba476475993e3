"""The gallery: every ready case of the Gate page, in one place (items for the gate, transcripts,
streams and Agents API sessions for the transcript core).  Pages only show it.

* :mod:`.items` — ``CASES``: one item (or pasted value) each, ``kind: "item"``, with the verdict
  the gate must give (the Open Responses worked examples, then the Agents API actions);
* :mod:`.agents` — ``SESSION_CASES``: whole Agents API sessions, ``kind: "session"``;
* :mod:`.transcripts` — ``TRANSCRIPT_CASES``: transcripts and streams, ``kind: "transcript"``,
  each with its ``group`` (``pairing``, ``state``, ``stream``, ``spec``) and the ``findings``
  the transcript core must report.

Each case has ``name``, ``title``, ``teaches`` and its text (:func:`text_of`: ``item`` or
``text``) and tools (:func:`tools_of`: ``schema`` or ``tools``); the tests check every one
through the real cores.
"""

from __future__ import annotations

from .agents import SESSION_CASES
from .items import CASES
from .providers import PROVIDER_CASES
from .transcripts import TRANSCRIPT_CASES

ALL: list[dict] = CASES + TRANSCRIPT_CASES + SESSION_CASES + PROVIDER_CASES

# the groups the Gate page shows the gallery in: what the page does with a case's text
GROUPS = [("item", "One item", "walked through format → schema → diff: one verdict"),
          ("transcript", "Transcripts", "a response, a request's input, a Chat payload: the checks between the items"),
          ("stream", "Streams", "recorded events: the order of the spec, the end, the rebuilt items"),
          ("session", "Agents API sessions", "pending actions, their tool_result events and the chain of pins")]


def by_name(name: str) -> dict | None:
    return next((c for c in ALL if c["name"] == name), None)


def text_of(case: dict) -> str:
    return case.get("item") or case.get("text") or ""


def tools_of(case: dict) -> str:
    return case.get("schema") or case.get("tools") or ""


def grouped(one_item) -> list[dict]:
    """The groups of :data:`GROUPS` with their cases, ``[{key, title, note, cases}]``: a case
    goes to the group of what the page does with its text (``one_item(text)``: walked by the
    gate; else a transcript, a stream or a session) — a whole response is a transcript there,
    whatever the gate calls it."""
    groups = {key: {"key": key, "title": title, "note": note, "cases": []}
              for key, title, note in GROUPS}
    for c in ALL:
        kind = "stream" if c.get("group") == "stream" else c.get("kind")
        key = kind if kind in groups and kind != "item" else (
            "item" if one_item(text_of(c)) else "transcript")
        groups[key]["cases"].append(c)
    return [g for g in groups.values() if g["cases"]]
