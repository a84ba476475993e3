"""The explanations: one sentence per failing step (the answer's ``reason``), in the words of
the rule that failed, and the sentence for ``ok``.  They only describe what the rule engine
decided (:mod:`.engine`); no check is made here."""

from __future__ import annotations

from typing import Any

from ..tools import kind_of
from .arguments import MISSING
from .rules import AGENTS, AGENTS_RULE, RULE


def short(value: Any, limit: int = 80) -> str:
    """A value as short JSON text for a sentence."""
    if value is MISSING:
        return "missing"
    try:
        from ..jsontext import dumps_value
        text = dumps_value(value).decode("utf-8")
    except Exception:  # pragma: no cover - any tree parse() builds is writable
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def kind(value: Any) -> str:
    return "missing" if value is MISSING else kind_of(value)


def _listed(names: list[str], n: int = 8) -> str:
    return ", ".join(names[:n]) + (f" and {len(names) - n} more" if len(names) > n else "")


def reason(code: str, item: Any, step: dict, dialect: str) -> str:
    agents = dialect == AGENTS
    n = (AGENTS_RULE if agents else RULE)[code]["number"]
    what = "action" if agents else "item"
    if code == "namespaced":
        if step.get("pointer") == "":
            return (f"The pasted JSON is {step['found']}, not an {what} object with a type, so the "
                    f"gate cannot treat it as a tool call (rule {n}).")
        if not step.get("present"):
            return (f"The pasted object has no type, so it is not an {what} the gate can run "
                    f"(rule {n}).")
        t = item.get("type")
        if isinstance(t, str):
            return (f"type is {short(t)}: the colon marks a provider extension (prefix "
                    f"{short(t.split(':', 1)[0])}), not a generic tool call, so it is never "
                    f"answered{' with a function_call_output' if not agents else ''} (rule {n}).")
        return f"type is {kind(t)} ({short(t)}), not a string (rule {n})."
    if code == "not_function_call":
        answer = "a tool_result" if agents else "a function_call_output"
        return (f"type is {step['found']}, not \"function_call\": only function calls are executed "
                f"and answered with {answer} (rule {n}).")
    if code == "status":
        if not step.get("present"):
            return ("status is missing: input items (FunctionCallItemParam) may omit it in the "
                    "spec, but then nothing shows the call is complete, and the gate runs a call "
                    f"only once status is \"completed\" (rule {n}).")
        return (f"status is {step['found']}, not \"completed\": the arguments may be cut off, and "
                f"a call is only executed once it is complete (rule {n}).")
    if code == "not_pending":
        return (f"status is {step['found']}, not \"completed\": a status is not an action. Only "
                "required_actions[] are pending; this function_call may still be receiving its "
                f"arguments, so it is not executed and no tool_result is written (rule {n}).")
    if code == "missing_fields":
        parts = [f"{f} is {v}" for f, v in step["found"].items()]
        if agents:
            return (f"{'; '.join(parts)}: a pending action needs turn_id, call_id and name as "
                    "non-empty strings, and its tool_result copies the turn_id/call_id pair "
                    f"exactly (rule {n}).")
        return (f"{'; '.join(parts)}: a replayable call needs id, name and call_id as non-empty "
                f"strings, and without call_id no output can be matched to it (rule {n}).")
    if code == "arguments_type":
        if agents:
            return (f"arguments is {step['found']}, not a JSON object: in the Agents API an "
                    "action's arguments are an object (a JSON string is the Open Responses form), "
                    f"and the gate does not repair it (rule {n}).")
        return (f"arguments is {step['found']}, not a string holding JSON: the stored form is "
                f"already wrong for Open Responses (rule {n}).")
    if code == "arguments_parse":
        if "duplicates" in step:
            d = step["duplicates"][0]
            return (f"The arguments string repeats the key {short(d['key'])} (line "
                    f"{d['first']['line']}, column {d['first']['column']} and line "
                    f"{d['second']['line']}, column {d['second']['column']} inside the string): "
                    f"two parsers would read two different calls (rule {n}).")
        e = step["parse_error"]
        where = f" (line {e['line']}, column {e['column']} inside the string)" if "line" in e else ""
        return (f"The arguments string is not valid JSON: {e['message']}{where}; there is nothing "
                f"to check or run (rule {n}).")
    if code == "unknown_tool":
        return _unknown_tool(item, step, n)
    if code == "arguments_schema":
        fails = step["fail"]
        first = fails[0] if fails else {"path": "", "reason": "?", "message": ""}
        more = f" (and {len(fails) - 1} more)" if len(fails) > 1 else ""
        who = f"tool {step['called_as']}" if step.get("called_as") else "the given schema"
        if first["reason"] == "type" and first["path"] == "" and step.get("not_object"):
            return (f"The arguments are {step['not_object']}, not a JSON object: a function "
                    f"tool's parameters are always an object{more} (rule {n}).")
        door = "the host's check (door 2) of " if agents else ""
        return (f"The arguments do not pass {door}the parameters of {who}: {first['path'] or '/'} "
                f"fails {first['reason']}{': ' + first['message'] if first.get('message') else ''}"
                f"{more} (rule {n}).")
    if code == "replay_mismatch":
        parts = []
        for d in step["differences"]:
            if d["blocking"]:
                if d["field"] == "":
                    parts.append(d["note"])
                else:
                    parts.append(f"{d['field']} {d.get('left', 'missing')} → "
                                 f"{d.get('right', 'missing')}")
        return (f"The replay is not the same call as the original: {'; '.join(parts)} "
                f"(rule {n}).")
    return ""  # pragma: no cover


def _unknown_tool(item: dict, step: dict, n: int) -> str:
    """Never names a tool as available in a form the gate would then refuse: a tool in a
    namespace is listed as ``spawn_agent (namespace multi_agent_v1)``, and a call that wrote
    the two fields as one name is told how to write them."""
    avail = step.get("available") or []
    name, ns = item.get("name"), item.get("namespace")
    shown = f"{short(name)} in namespace {short(ns)}" if isinstance(ns, str) and ns else short(name)
    listed = (f" (the tools are: {_listed(avail)})" if avail
              else " (no function tools were given)")
    hint = ""
    for tool in step.get("namespaced_tools") or ():
        tname, tns = tool
        if isinstance(name, str) and name in (f"{tns}.{tname}", f"{tns}__{tname}", f"{tns}/{tname}"):
            hint = (f". A call to a tool in a namespace carries name {short(tname)} and namespace "
                    f"{short(tns)} as two fields, not the joined name {short(name)}")
            break
        if name == tname and isinstance(ns, str) and ns and ns != tns:
            hint = f". {short(tname)} is only in namespace {short(tns)}"
            break
    return (f"No given tool definition is called {shown}{listed}{hint}: there is no schema to "
            f"check the arguments against (rule {n}).")


def ok_reason(item: dict, tool, dialect: str) -> str:
    what = f"run {tool.called_as()}" if tool is not None and tool.name else f"run {item.get('name')}"
    if dialect == AGENTS:
        return (f"Every check passed: {what}, then send an agent.session.input.tool_result with "
                f"turn_id {short(item.get('turn_id'))} and call_id {short(item.get('call_id'))} "
                "copied exactly, success true and the result as a string "
                f"(rule {AGENTS_RULE['ok']['number']}).")
    waits = ""
    if item.get("status") == "in_progress":   # a program caller (the engine let it pass)
        waits = (f" The status is in_progress by design: the call was made by code running on "
                 f"the provider (caller {short(item.get('caller'))}), which waits for this output; "
                 "its arguments parse completely, so they are not cut off. Echo the caller "
                 "object in the output.")
    return (f"Every check passed: {what}, then attach a function_call_output with call_id "
            f"{short(item.get('call_id'))} (rule {RULE['ok']['number']}).{waits}")


#: who reads an answer's sentences: where to go next is said in the reader's own terms (the
#: page's buttons, the API's endpoints, the command line's commands)
AUDIENCES = ("api", "page", "cli")

#: how to walk the one call a pasted value holds / one of the calls it holds
_WALK = {
    "api": ("walk it: POST its envelope.calls[0].json to /api/gate as the item",
            "walk one of them: POST its envelope.calls[].json to /api/gate as the item"),
    "page": ("walk it with \u201cWalk this call\u201d below",
             "walk one of them with its \u201cWalk this call\u201d button below"),
    "cli": ("walk it: save it (listed below) to a file and run workbench gate FILE",
            "walk one of them: save it (listed below) to a file and run workbench gate FILE"),
}
#: one call in another envelope (a Chat Completions tool call): how to walk it as an item
_WALK_EQUIVALENT = {
    "api": "POST its Open Responses equivalent (envelope.calls[0].equivalent) to /api/gate as "
           "the item",
    "page": "press \u201cWalk the equivalent item\u201d below",
    "cli": "save its Open Responses equivalent (envelope.calls[0].equivalent in workbench gate "
           "--json) to a file and run workbench gate FILE",
}
#: where the checks between items are
_WHOLE = {
    "api": "POST {it} to /api/transcript as text (transcript-rules.md)",
    "page": "paste {it} into Item: the page then reports the checks between the items",
    "cli": "run workbench transcript on {it} (transcript-rules.md)",
}


def pasted_headline(env: dict, base: str, words: str = "api") -> str:
    """The headline for a pasted value that is not one item: what was pasted first, then the
    rule's sentence, the calls inside, and where whole transcripts are checked — the last two
    in ``words`` (:data:`AUDIENCES`): the page names its buttons, the API its endpoints."""
    n = env["total"]
    if env["kind"] == "chat_tool_call":   # the pasted value is one call, in the Chat envelope
        inside = (" The gate walks Open Responses function_call items: to walk this call as "
                  f"one, {_WALK_EQUIVALENT[words]}.")
        whole = _WHOLE[words].format(it="the whole Chat Completions response or request it "
                                        "came from")
        return (f"The pasted JSON is {env['label']}, not an Open Responses function_call "
                f"item, so the verdict is for it as it is: {base[0].lower() + base[1:]}{inside} To check it with "
                f"its tool message and the calls around it, {whole}.")
    inside = (f" It holds {n} function call{'s' if n != 1 else ''}; "
              f"{_WALK[words][0 if n == 1 else 1]}." if n else " It holds no function call.")
    whole = _WHOLE[words].format(it="the whole of it" if words == "page" else "it")
    return (f"The pasted JSON is {env['label']}, not one item, so the verdict is for the pasted "
            f"value as a whole: {base[0].lower() + base[1:]}{inside} To check the whole of it "
            f"(every call, its output, the order), {whole}.")
