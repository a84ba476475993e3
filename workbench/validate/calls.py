"""A function call item pasted as the document: where its arguments are.

Pasting the call instead of its arguments is the first thing a newcomer does; validating the
item against the tool's parameters then says only "Expected object, got string".  This finds the
arguments so the answer can say so (``hint``) and validate them on request
(``target: "arguments"`` — the Gate's schema step, reachable from Validate):

* an Open Responses ``function_call`` item: ``arguments`` is a JSON *string* (``/arguments``);
* an Agents API pending action (``required_actions[]``): ``type: "function_call"`` with
  ``arguments`` as a JSON *object*;
* a Chat Completions tool call ``{id, type: "function", function: {name, arguments}}``
  (``/function/arguments``, a string).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..jsontext import pointer_of


@dataclass(frozen=True)
class Call:
    parts: tuple          # where the arguments sit in the document
    name: str | None      # the function called
    arguments: Any        # a string (JSON text) or the object itself

    @property
    def pointer(self) -> str:
        return pointer_of(self.parts)

    @property
    def encoded(self) -> str:
        return "string" if isinstance(self.arguments, str) else "object"


def find_call(value: Any) -> Call | None:
    """The function call the document is, or None."""
    if not isinstance(value, dict):
        return None
    if value.get("type") == "function_call" and "arguments" in value:
        name = value.get("name")
        return Call(("arguments",), name if isinstance(name, str) else None, value["arguments"])
    fn = value.get("function")
    if value.get("type") == "function" and isinstance(fn, dict) and "arguments" in fn and "parameters" not in fn:
        name = fn.get("name")
        return Call(("function", "arguments"), name if isinstance(name, str) else None, fn["arguments"])
    return None


def hint(call: Call) -> dict:
    """What the answer says when the document is a call and its arguments were not the target."""
    what = ("a JSON string holding the call's arguments" if call.encoded == "string"
            else "the call's arguments object")
    who = f" to {call.name!r}" if call.name else ""
    return {"kind": "function_call_arguments", "pointer": call.pointer, "name": call.name,
            "encoded": call.encoded,
            "message": f"The document is a function call{who}: {call.pointer} is {what}. Validate "
                       "the parsed arguments against the tool (target \"arguments\") — the schema "
                       "describes them, not the call item."}
