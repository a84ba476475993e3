"""Tool definitions, read once for every view: the one reader the Gate and Validate share.

What can be pasted where a tool is expected (the ``schema`` field of the Gate and Validate,
the ``tools`` field of the transcript view):

* a bare parameters schema (an object or a boolean) — ``kind == "parameters"``;
* one definition: Responses ``{type: "function", name, parameters, strict?}``, Chat
  Completions ``{type: "function", function: {name, parameters, strict?}}``, Chat's older
  ``functions`` entry ``{name, parameters}`` (no ``type``), a namespace
  ``{type: "namespace", name, tools: [...]}``, or a hosted / provider tool (``web_search``,
  ``file_search``, ``code_interpreter``, ``computer_use_preview``, ``tool_search``, ``mcp``…,
  dated variants such as ``web_search_2025_08_26``, anything with a colon);
* a list of definitions;
* a request body's ``tools`` (``{"tools": [...], ...}``) or an Agents API session's
  ``agent.tools`` (``{"agent": {"tools": [...]}}``, also inside ``{"session": {...}}``).

Hosted tools are kept (``hosted``) but are not function tools: no parameters, no gating.
A list naming one function twice (the same name in the same namespace) is refused: 422
``schema_invalid``, field ``schema``, naming both places (pointers, and line/column when the
text is given) — no first definition silently decides.

Before this module the Gate and Validate each had a reader with its own hosted-tool list, and
``[{"type": "tool_search"}, <function f>]`` was accepted by one and refused by the other; now
Validate checks ``f``'s parameters and the Gate gates against ``f``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import WorkbenchError, bad_request
from .jsontext import line_cols, locate_many, pointer_of

HOSTED_TOOLS = frozenset({
    "web_search", "web_search_preview", "file_search", "code_interpreter", "computer_use_preview",
    "computer_use", "computer", "image_generation", "mcp", "local_shell", "shell", "apply_patch",
    "custom", "tool_search"})

_MISSING = object()


def is_hosted_type(t: Any) -> bool:
    """A hosted or provider tool type: ``web_search``, ``web_search_preview_2025_03_11``,
    ``openai:web_search_preview``…"""
    if not isinstance(t, str):
        return False
    return ":" in t or t in HOSTED_TOOLS or t.rsplit("_", 3)[0] in HOSTED_TOOLS


def _is_legacy_function(v: Any) -> bool:
    """Chat Completions' old ``functions`` entry: ``{name, description?, parameters}``."""
    return (isinstance(v, dict) and "type" not in v and isinstance(v.get("name"), str)
            and isinstance(v.get("parameters"), dict))


def kind_of(value: Any) -> str:
    """What a parsed JSON value is, for a sentence: "null", "a string", "an object"…"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "a number"


@dataclass
class ToolDef:
    """One function tool.  ``parts`` is the path to its definition in the pasted value,
    ``params_parts`` the path to its parameters (where they are or would be);
    ``parameters`` is None when the definition declares none."""

    name: str | None
    namespace: str | None
    parameters: Any
    parts: tuple
    params_parts: tuple
    style: str                  # "parameters", "responses", "chat_completions", "legacy",
    #                             "anthropic", "gemini"
    strict: bool = False

    @property
    def pointer(self) -> str:
        """Where the parameters schema is (or would be) in the pasted value."""
        return pointer_of(self.params_parts)

    def qualified(self) -> str:
        return f"{self.namespace}.{self.name}" if self.namespace else str(self.name)

    def called_as(self) -> str:
        """How a call names this tool: ``name`` alone, or name and namespace as two fields."""
        if self.namespace:
            return f"{self.name} (namespace {self.namespace})"
        return str(self.name)


@dataclass
class ToolList:
    """What was pasted: ``kind`` ``"parameters"`` (one bare schema, ``tools[0]`` with no name)
    or ``"tools"`` (function ``tools`` and ``hosted`` ones, each ``{pointer, type}``)."""

    kind: str
    source: str
    tools: list = field(default_factory=list)
    hosted: list = field(default_factory=list)

    def names(self) -> list[str]:
        return [t.name for t in self.tools if isinstance(t.name, str)]


def _placed(text: str | None, pointers: list[str]) -> list[dict]:
    """Where the value at each pointer starts in ``text``: ``{line, column, offset}``, or ``{}``
    when there is no text or no such value."""
    if text is None:
        return [{} for _ in pointers]
    spans = locate_many(text, pointers)
    found = [spans[p].start for p in pointers if p in spans]
    places = iter(line_cols(text, found))
    out = []
    for p in pointers:
        if p in spans:
            line, column = next(places)
            out.append({"line": line, "column": column, "offset": spans[p].start})
        else:
            out.append({})
    return out


def _fault(message: str, parts, field_name: str, text: str | None) -> WorkbenchError:
    where = pointer_of(parts)
    place, = _placed(text, [where])
    return WorkbenchError("schema_invalid", message, field=field_name, schema_at=where, **place)


class _Reader:
    def __init__(self, text: str | None, field_name: str):
        self.text = text
        self.field = field_name
        self.out = ToolList("tools", "")

    def entry(self, entry: Any, parts: tuple, namespace: str | None = None) -> None:
        where = pointer_of(parts) or "/"
        if _provider_entry(self, entry, parts, namespace):   # issue 24: Anthropic, Gemini
            return
        if _is_legacy_function(entry):
            self.out.tools.append(ToolDef(entry["name"], namespace, entry["parameters"], parts,
                                          parts + ("parameters",), "legacy",
                                          entry.get("strict") is True))
            return
        if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
            raise _fault(f"The entry at {where} is not a tool definition (an object with a type, "
                         "such as {\"type\": \"function\", \"name\": …, \"parameters\": {…}}), but "
                         f"{kind_of(entry)}", parts, self.field, self.text)
        t = entry["type"]
        if t == "function":
            fn = entry.get("function")
            if isinstance(fn, dict):
                holder, hparts, style = fn, parts + ("function",), "chat_completions"
            else:
                holder, hparts, style = entry, parts, "responses"
            name = holder.get("name")
            if not isinstance(name, str) or not name:
                raise _fault(f"The function tool at {where} has no name (a non-empty string)",
                             parts, self.field, self.text)
            params = holder.get("parameters", None)
            pparts = hparts + ("parameters",)
            if params is not None and not isinstance(params, (dict, bool)):
                raise _fault(f"The parameters of tool {name} (at {pointer_of(pparts)}) must be a "
                             f"JSON Schema object, not {kind_of(params)}", pparts, self.field,
                             self.text)
            self.out.tools.append(ToolDef(name, namespace, params, parts, pparts, style,
                                          holder.get("strict") is True))
        elif t == "namespace" and namespace is None:
            ns, tools = entry.get("name"), entry.get("tools")
            if not isinstance(ns, str) or not ns or not isinstance(tools, list):
                raise _fault(f"The namespace tool at {where} needs a name and a list of tools",
                             parts, self.field, self.text)
            for i, sub in enumerate(tools):
                self.entry(sub, parts + ("tools", i), ns)
        else:
            # hosted or provider tools (web_search, tool_search, acme:search…): not functions
            self.out.hosted.append({"pointer": pointer_of(parts), "type": t})

    def many(self, entries: list, parts: tuple) -> None:
        for i, e in enumerate(entries):
            self.entry(e, parts + (i,))


# Gemini's own tools beside functionDeclarations (provider-run: not functions)
GEMINI_HOSTED = frozenset({"googleSearch", "googleSearchRetrieval", "codeExecution", "urlContext",
                           "google_search", "google_search_retrieval", "code_execution",
                           "url_context", "retrieval", "googleMaps", "google_maps", "fileSearch",
                           "file_search", "computerUse", "computer_use"})


def _gemini_schema(v: Any) -> Any:
    """A Gemini (OpenAPI-subset) schema as JSON Schema: its ``type`` words in lower case
    (``"OBJECT"`` → ``"object"``); anything else as it is."""
    if isinstance(v, dict):
        return {k: (x.lower() if k == "type" and isinstance(x, str) else _gemini_schema(x))
                for k, x in v.items()}
    if isinstance(v, list):
        return [_gemini_schema(x) for x in v]
    return v


def _provider_entry(reader: "_Reader", entry: Any, parts: tuple, namespace) -> bool:
    """An Anthropic tool ``{name, description?, input_schema}`` or a Gemini tool
    ``{functionDeclarations: [{name, parameters | parametersJsonSchema}]}`` (or one of Gemini's
    own tools): read, True; anything else: False."""
    if not isinstance(entry, dict):
        return False
    if isinstance(entry.get("input_schema"), (dict, bool)) and isinstance(entry.get("name"), str) \
            and entry["name"] and entry.get("type") in (None, "custom"):
        reader.out.tools.append(ToolDef(entry["name"], namespace, entry["input_schema"], parts,
                                        parts + ("input_schema",), "anthropic",
                                        entry.get("strict") is True))
        return True
    key = next((k for k in ("functionDeclarations", "function_declarations")
                if isinstance(entry.get(k), list)), None)
    if key is not None and "type" not in entry:
        for j, d in enumerate(entry[key]):
            dparts = parts + (key, j)
            name = d.get("name") if isinstance(d, dict) else None
            if not isinstance(name, str) or not name:
                raise _fault(f"The function declaration at {pointer_of(dparts)} has no name (a "
                             "non-empty string)", dparts, reader.field, reader.text)
            pkey = "parametersJsonSchema" if "parametersJsonSchema" in d else "parameters"
            params = d.get(pkey)
            if pkey == "parameters" and params is not None:
                params = _gemini_schema(params)
            reader.out.tools.append(ToolDef(name, namespace, params, dparts,
                                            dparts + (pkey,), "gemini", False))
        return True
    if "type" not in entry and entry and all(k in GEMINI_HOSTED for k in entry):
        reader.out.hosted.append({"pointer": pointer_of(parts), "type": next(iter(entry))})
        return True
    return False


def _agent_tools(value: dict) -> tuple[list, tuple] | None:
    for parts in (("agent",), ("session", "agent")):
        node = value
        for p in parts:
            node = node.get(p) if isinstance(node, dict) else None
        if isinstance(node, dict) and isinstance(node.get("tools"), list):
            return node["tools"], parts + ("tools",)
    return None


def read_tools(value: Any, *, text: str | None = None, field_name: str = "schema") -> ToolList:
    """The tools in a parsed value (see the module doc).  ``text``, the value's exact JSON
    text, places faults (line/column).  Raises WorkbenchError 422 ``schema_invalid``."""
    reader = _Reader(text, field_name)
    out = reader.out
    if isinstance(value, list):
        out.source = f"a list of {len(value)} tool definition{'s' if len(value) != 1 else ''}"
        reader.many(value, ())
    elif isinstance(value, dict):
        t = value.get("type")
        agent = _agent_tools(value) if "type" not in value else None
        if t in ("function", "namespace") or _is_legacy_function(value):
            out.source = "a namespace of tools" if t == "namespace" else "one tool definition"
            reader.entry(value, ())
        elif is_hosted_type(t):
            out.source = f"one {t} tool (not a function tool)"
            reader.entry(value, ())
        elif isinstance(value.get("tools"), list) and "properties" not in value:
            out.source = f"the tools of the pasted request ({len(value['tools'])})"
            reader.many(value["tools"], ("tools",))
        elif agent is not None:
            out.source = f"the tools of the pasted session's agent ({len(agent[0])})"
            reader.many(*agent)
        elif "input_schema" in value or "functionDeclarations" in value or \
                "function_declarations" in value:   # one Anthropic / Gemini tool
            out.source = "one tool definition"
            reader.entry(value, ())
        else:
            return _bare(value)
    elif isinstance(value, bool):
        return _bare(value)
    else:
        raise WorkbenchError("schema_invalid", f"The {field_name} is {kind_of(value)}: give a "
                             "parameters schema (an object), one tool definition, or a list of "
                             "them", field=field_name)
    _refuse_duplicates(out, text, field_name)
    return out


def _bare(value: Any) -> ToolList:
    return ToolList("parameters", "a parameters schema",
                    [ToolDef(None, None, value, (), (), "parameters")])


def _refuse_duplicates(out: ToolList, text: str | None, field_name: str) -> None:
    seen: dict = {}
    for tool in out.tools:
        key = (tool.namespace, tool.name)
        first = seen.setdefault(key, tool)
        if first is tool:
            continue
        pointers = [pointer_of(t.parts) for t in (first, tool)]
        where = _placed(text, pointers)
        places = [{"pointer": p, **place} for p, place in zip(pointers, where)]

        def at(p):
            return p["pointer"] + (f" (line {p['line']}, column {p['column']})" if "line" in p else "")
        raise WorkbenchError(
            "schema_invalid",
            f"Two tool definitions are named {tool.called_as()}: at {at(places[0])} and at "
            f"{at(places[1])}. A provider refuses such a list, and which one the model meant "
            "cannot be known: remove or rename one",
            field=field_name, schema_at=pointers[1], places=places, tool=tool.name, **where[1])


# --------------------------------------------------------------------------- one tool for Validate

@dataclass
class Choice:
    """The schema Validate checks a document against: ``schema`` (the chosen tool's
    parameters, or the pasted value itself), where it sits (``prefix``), and notes."""

    schema: Any
    name: str | None = None
    prefix: tuple = ()
    is_tool: bool = False
    strict: bool = False
    names: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def choose(value: Any, name: str | None = None, *, text: str | None = None) -> Choice:
    """The parameters of the function tool called ``name`` (else the first one, with a note
    when there are several), or ``value`` itself when it is a bare schema.  A name no function
    has is a 400 ``unknown_tool`` (field ``tool``)."""
    if not isinstance(value, (dict, list, bool)):
        return Choice(value)
    tools = read_tools(value, text=text)
    if tools.kind == "parameters":
        return Choice(value)
    names = tools.names()
    notes: list = []
    funcs = tools.tools
    if name is not None:
        chosen = [t for t in funcs if t.name == name or t.qualified() == name]
        if not chosen:
            raise bad_request(f"No function tool named {name!r} here; the tools are: "
                              f"{', '.join(names) or 'none'}", field="tool", code="unknown_tool")
        tool = chosen[0]
    elif funcs:
        tool = funcs[0]
        if len(funcs) > 1:
            notes.append({"code": "several_tools", "pointer": "",
                          "message": f"{len(funcs)} function tools were given; the document is "
                                     f"validated against the first, {tool.name!r} (choose another "
                                     "with the tool option)"})
    else:
        hosted = tools.hosted[0]["type"] if tools.hosted else None
        notes.append({"code": "no_parameters", "pointer": "",
                      "message": f"The tool {hosted!r} is a hosted tool without a parameters "
                                 "schema: nothing in the document is checked"})
        return Choice({}, hosted, (), True, False, names, notes)
    holder_parts = tool.params_parts[:-1]
    if tool.parameters is None:
        notes.append({"code": "no_parameters", "pointer": "",
                      "message": f"The function {tool.name!r} declares no parameters schema: any "
                                 "arguments are accepted"})
        return Choice({}, tool.name, holder_parts, True, tool.strict, names, notes)
    return Choice(tool.parameters, tool.name, tool.params_parts, True, tool.strict, names, notes)
