"""``workbench transcript``: the checks between items on the command line.

    workbench transcript FILE [--tools FILE] [--json]

FILE is a response, an item list, JSON Lines, an SSE stream, a Chat Completions payload or
stream, or an Agents API session (``-`` reads standard input).  Prints the calls with their
verdicts, then the findings as ``file:line:column: severity code message``.  With ``--json``:
the same object as ``POST /api/transcript``.  Exit status: 0 when no finding is an error, 1 when
some is, 2 when the input cannot be read (a missing file, a document that is not JSON).
"""

from __future__ import annotations

from . import common

_LABELS = {"tools": "--tools FILE"}


HELP = "check a transcript, stream or session: pairing, state, streams, every call gated"
DESCRIPTION = ("Check the items of a transcript against each other (transcript-rules,\n"
               "agents-rules) and gate every call in it.")
EPILOG = common.examples(
    "workbench transcript response.json",
    "workbench transcript stream.sse --tools tools.json",
    "workbench transcript session.json --json",
) + "\n\nexit status: 0 no error finding, 1 some, 2 unreadable input."

ARGUMENTS = (
    common.Arg("file", metavar="FILE", help="the transcript ('-' reads standard input)"),
    common.Arg("--tools", metavar="FILE", help="tool definitions (one, a list, or a request's "
                                               "tools) to gate the calls against"),
    common.json_flag("transcript"),
    "max_depth",
)


def run(args) -> int:
    from ..errors import WorkbenchError
    from ..transcript import analyse
    label = common.display_name(args.file)
    try:
        text = common.read_text(args.file, "text")
        tools = common.read_text(args.tools, "tools") if args.tools else None
    except common.Unreadable as exc:
        common.print_error(exc.body, label, command="transcript", as_json=args.json,
                           labels=_LABELS)
        return common.EXIT_UNREADABLE
    try:
        result = analyse(text, tools, limits=common.limits(args))
    except WorkbenchError as exc:
        shown = args.tools if exc.field == "tools" and args.tools else label
        common.print_error(exc.to_body(), shown, command="transcript", as_json=args.json)
        return common.EXIT_UNREADABLE
    failed = any(f["severity"] == "error" for f in result["findings"])
    if args.json:
        common.write_json(result)
    else:
        common.write_text(render(result, label))
    return common.EXIT_FOUND if failed else common.EXIT_OK


def render(result: dict, label: str) -> str:
    paint = common.painter()
    m = common.marks()
    s = result["summary"]
    lines = [f"{label}: {result['kind'].replace('_', ' ')} ({result['source']}) — "
             f"{s['calls']} call{'s' if s['calls'] != 1 else ''}, {s['outputs']} output"
             f"{'s' if s['outputs'] != 1 else ''}, {s['errors']} error"
             f"{'s' if s['errors'] != 1 else ''}, {s['warnings']} warning"
             f"{'s' if s['warnings'] != 1 else ''}, {s['infos']} info"]
    if result["calls"]:
        lines.append("")
        lines.append("calls:")
    for c in result["calls"]:
        ok = c["verdict"] == "ok"
        mark = paint(m["pass"] if ok else m["fail"], "green" if ok else "red")
        pin = f"{c.get('turn_id')}/{c.get('call_id')}" if c.get("turn_id") else c.get("call_id")
        extra = ""
        if c.get("pending") is not None:
            extra = " pending" if c["pending"] else " history"
        lines.append(f"  {mark} {label}:{c['line']}:{c['column']}: {c.get('name')} ({pin}) "
                     f"[{c['dialect']}{extra}] {m['arrow']} {c['verdict']}")
    if result["findings"]:
        lines.append("")
        lines.append("findings:")
    colour = {"error": "red", "warning": "yellow", "info": "cyan"}
    for f in result["findings"]:
        lines.append(f"{label}:{f['line']}:{f['column']}: {paint(f['severity'], colour[f['severity']])}"
                     f" {f['code']} {f['message']}")
    left = result["truncated"]["findings"]
    if left:
        lines.append(f"({left} more finding{'s' if left != 1 else ''} left off)")
    return "\n".join(lines) + "\n"
