"""Conversion between dialects (issue 24, ``providers-rules.md`` "Replaying to another provider:
conversion"), behind ``POST /api/convert`` and ``workbench convert``.  No Flask here.

Request (``REQUEST``): ``text`` (required: a transcript in one dialect — an Open Responses
response, request or item list; a Chat Completions request, message list or response; an
Anthropic Messages request or response; a Gemini ``generateContent`` request or response; or a
stream of any of them, rebuilt first by the transcript's readers), ``to`` (required:
``open_responses`` | ``chat`` | ``anthropic`` | ``gemini``), ``tools`` (optional: tool
definitions the converted calls are gated against).

Response (200)::

    {"from": "open_responses", "to": "anthropic",
     "text": "{\\n  \\"messages\\": …}\\n",      # the converted request, exact JSON text
     "not_portable": [                          # what could not travel, placed in the SOURCE
        {"pointer": "/input/1", "line": 9, "column": 5, "what": "reasoning",
         "message": "A reasoning item is bound to the provider that made it …",
         "rebuilt": true}],                     # (streams: the pointer is into the rebuilt
                                                #  items, which have no line in the text)
     "findings": [...],                         # the target's transcript findings on "text"
     "clean": true,                             # no error finding among them
     "notes": [{"pointer", "line", "column", "what": "call_id_assigned" | "system_moved"
                | "result_moved" | "same_dialect", "message", "call_id"?}],
     "calls": [...],                            # the target's calls with their verdicts
     "summary": {"source_kind", "rebuilt", "shape": "request" | "response", "target_kind",
                 "turns", "calls", "outputs", "not_portable", "not_portable_by_what",
                 "notes", "source_errors", "errors", "warnings"},
     "truncated": {"not_portable": 0, "notes": 0}}

``what`` of a not-portable entry: ``reasoning`` (an Open Responses reasoning item, a Chat
``reasoning_content``, a Gemini thought part), ``thinking`` (Anthropic thinking /
redacted_thinking blocks), ``thought_signature``, ``provider_call`` (a call the provider runs or
a tool kind of its own, with its result), ``field`` (a member with no counterpart: item ids,
``status``, ``cache_control``, the envelope's ``model``…), ``tool`` (a provider's own tool),
``part`` / ``item`` (content the target has no form for), ``image`` (an image the target cannot
take there), ``is_error`` (the error flag of a tool result, where the target has none),
``choice`` (choices or candidates after the first).

The rules: each call keeps its pair (its id carried; a Gemini call without id gets
``gemini_call_N`` by order and its response the same, said in ``notes``); arguments become an
object and back exactly (numbers keep their text: :class:`~workbench.jsontext.NumberText`);
a duplicate key (in the text, or inside an arguments text) or arguments that are not a JSON
object refuse the conversion with a 422 at their place.  The converted text is always a
*request* of the target (a response becomes the history it would be replayed as).

The reading and writing of each envelope live in its dialect room
(``workbench/dialects/NAME.py``: ``read_conversation`` / ``write_conversation``), the neutral
classes in :mod:`workbench.dialects.conversation`; this package drives them.
"""

from .core import REQUEST, TARGETS, comparable, convert, handle

__all__ = ["REQUEST", "TARGETS", "comparable", "convert", "handle"]
