"""The dialect rooms: one module per envelope, each the only place that knows it.

Registered modules (:data:`DIALECTS`, in the order a value is tried): :mod:`.agents` (the
Agents API), :mod:`.open_responses` (Open Responses / the Responses API), :mod:`.chat` (Chat
Completions).  What they read into is :mod:`.model` (a :class:`~.model.Call` — dialect, name,
id pair, arguments, place, stop state —, an :class:`~.model.Output`, an
:class:`~.model.Other` item); the transcript's checks (pairing, ids, duplicates, state) run on
that model only, and the gate walks each call by its dialect's rule table.

A dialect module provides::

    NAME        the word in every answer's "dialect" ("chat_completions", …)
    GATE        the gate's rule table its calls are walked by ("open_responses" | "agents_api";
                a dialect without its own table names the one its walkable item obeys)
    KINDS       the transcript kinds (transcript-rules.md's kinds table) it reads
    LABELS      {envelope word: "a Chat Completions response", …} for the one-item gate
    recognise(value) -> kind | None          one pasted JSON value: is it this envelope?
    envelope_kind(value) -> word | None      the same, in the one-item gate's finer words
    is_call(node, parent_key) -> bool        one call of this dialect, found inside a value
    read_call(node, place, pos, ...) -> Call the neutral call of one native call
    walkable(call) -> item                   the item the gate walks for the call
    write(call) -> native                    the neutral call written back (conversion)

and, for the four envelopes a conversation converts between (``open_responses``, ``chat``,
``anthropic``, ``gemini``; :mod:`workbench.convert`)::

    read_conversation(value, reading) -> Conversation   a whole request / response / list, into
                                             the neutral conversation (:mod:`.conversation`);
                                             what does not travel said to ``reading``
    write_conversation(conv, reading) -> value           the conversation as a request of this
                                             envelope; what it cannot write said to ``reading``

and whatever readers its envelope needs (``read_items``, ``read_completion``,
``read_messages``, ``read_result``…).  A dialect with a stream rebuilds it here too
(:class:`.chat.ChatStream`: findings to the transcript's report, calls into the same model);
the Open Responses stream's rebuilder is still :mod:`workbench.transcript.streams`.

Adding a dialect (issue 24: anthropic, gemini, otel): write ``workbench/dialects/NAME.py``
with the names above and add it to :data:`DIALECTS` below (one line); :func:`classify`,
:func:`dialect_of_call` and :func:`walkable` then know it.
"""

from __future__ import annotations

from typing import Any

from . import agents, anthropic, chat, gemini, open_responses, otel
from .model import Call, Other, Output, Place, key

# the registry: every envelope, in the order a value is tried
# issue 24: the other providers, tried before Chat (an Anthropic request has messages[] too)
DIALECTS = (agents, open_responses, anthropic, gemini, otel, chat)
BY_NAME = {d.NAME: d for d in DIALECTS}

__all__ = ["DIALECTS", "BY_NAME", "Call", "Output", "Other", "Place", "key", "classify",
           "envelope_kind", "dialect_of_call", "walkable", "gate_dialect", "LABELS"]

LABELS: dict[str, str] = {"assistants_run": "an Assistants API run waiting for tool outputs",
                          "container": "a JSON value that holds items"}
for _d in DIALECTS:
    LABELS.update(_d.LABELS)


def classify(value: Any) -> str:
    """The kind of one pasted JSON value (the kinds table of ``transcript-rules.md``):
    the first registered dialect that recognises it; else ``item`` for one typed object and
    ``unknown`` for any other shape.  (A JSON array
    is told by its elements: :func:`workbench.transcript.kinds.detect`.)  The one classifier:
    the transcript, the gate's envelope and the Gate page (its form, and the page script
    through the transcript's ``kind``) all ask it."""
    for d in DIALECTS:
        kind = d.recognise(value)
        if kind is not None:
            return kind
    # one item is an object with a type; anything else is a shape no kind reads
    return "item" if type(value) is dict and isinstance(value.get("type"), str) else "unknown"


def envelope_kind(value: Any) -> str | None:
    """The one-item gate's word for a pasted value that is not one item, or None."""
    if isinstance(value, list):
        return "item_list"
    if not isinstance(value, dict):
        return None
    found = None
    for d in (open_responses, chat, agents):   # the gate's order: a response first
        found = d.envelope_kind(value)
        if found is not None:
            return found
    if "required_action" in value or value.get("type") == "submit_tool_outputs":
        return "assistants_run"   # only labelled: its calls are Chat tool calls
    return None


def dialect_of_call(node: Any, parent_key: Any = None):
    """The dialect module of a call found inside a pasted value, or None."""
    for d in DIALECTS:
        if d.is_call(node, parent_key):
            return d
    return None


def walkable(call: Call) -> Any:
    """The item the gate walks for ``call`` (its dialect's mapping, the only one)."""
    return BY_NAME[call.dialect].walkable(call)


def gate_dialect(call: Call) -> str:
    """The gate's rule table for ``call``."""
    return BY_NAME[call.dialect].GATE
