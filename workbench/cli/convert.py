"""``workbench convert``: the same conversation in another dialect (the core of
``POST /api/convert``).

    workbench convert --to open_responses|chat|anthropic|gemini [FILE] [--from D] [--tools FILE]
                      [--json]

Prints the converted text (a request of the target); what could not travel and the target's
findings go to standard error as ``file:line:column: …`` (the places are in FILE).  With
``--json``: the whole answer, as ``POST /api/convert``.  Exit status: 0 when the converted text has
no error finding under the target's rules, 1 when it has some, 2 when FILE cannot be read or
converted (not JSON, a duplicate key, arguments that are not JSON, a kind that does not convert).
"""

from __future__ import annotations

import sys

from . import common

HELP = "convert a transcript to another provider's dialect and check it by that dialect's rules"
DESCRIPTION = ("Convert a transcript (Open Responses, Chat Completions, Anthropic Messages or\n"
               "Gemini; a stream is rebuilt first) into a request of another dialect: each call\n"
               "keeps its pair, arguments stay exact, and everything that cannot travel is listed\n"
               "(not_portable). The converted text is checked by the target's transcript rules.")
EPILOG = common.examples(
    "workbench convert --to anthropic request.json > anthropic.json",
    "workbench convert --to gemini stream.sse",
    "workbench convert --to open_responses --from anthropic messages.json",
    "workbench convert --to chat response.json --json | jq .not_portable",
) + ("\n\nexit status: 0 the converted text has no error finding, 1 it has some, 2 unreadable or "
     "not convertible, 64 usage error.")

_TARGETS = ("open_responses", "chat", "anthropic", "gemini")

ARGUMENTS = (
    "file",
    common.Arg("--to", required=True, choices=_TARGETS, help="the target dialect"),
    common.Arg("--from", dest="source", choices=("auto", *_TARGETS), default="auto",
               help="the source dialect (default auto: told from the text; a text-only "
                    "Anthropic request reads as Chat without it)"),
    common.Arg("--tools", metavar="FILE", help="tool definitions the converted calls are gated "
                                               "against"),
    common.json_flag("convert"),
    "quiet",
    "max_depth",
)


def run(args) -> int:
    from ..convert import convert
    from ..errors import WorkbenchError
    label = common.display_name(args.file)
    try:
        text = common.read_text(args.file, "text")
        tools = common.read_text(args.tools, "tools") if args.tools else None
        result = convert(text, args.to, tools, source=args.source, limits=common.limits(args))
    except common.Unreadable as exc:
        return common.refused(exc, label, args, command="convert")
    except WorkbenchError as exc:
        shown = args.tools if exc.field == "tools" and args.tools else label
        return common.refused(exc, shown, args, command="convert")
    if args.json:
        common.write_json(result)
    else:
        common.write_text(result["text"])
        if not args.quiet:
            _report(result, label)
    return common.EXIT_OK if result["clean"] else common.EXIT_FOUND


def _report(result: dict, label: str) -> None:
    """What did not travel (placed in FILE) and the target's findings, on standard error."""
    out = sys.stderr
    s = result["summary"]
    print(f"{label}: {result['from']} → {result['to']}: {s['turns']} turns, {s['calls']} calls, "
          f"{s['not_portable']} not portable, {s['errors']} errors, {s['warnings']} warnings "
          f"under {result['to']}'s rules", file=out)
    for e in result["not_portable"]:
        where = f"{label}:{e['line']}:{e['column']}" if e.get("line") else \
            f"{label}:(rebuilt){e['pointer']}"
        print(f"{where}: not portable {e['what']} {e['message']}", file=out)
    for n in result["notes"]:
        where = f"{label}:{n['line']}:{n['column']}" if n.get("line") else label
        print(f"{where}: note {n['what']} {n['message']}", file=out)
    for f in result["findings"]:
        print(f"converted:{f['line']}:{f['column']}: {f['severity']} {f['code']} {f['message']}",
              file=out)
