"""``workbench redact``: typed, equality-preserving placeholders on the command line (the core of
``POST /api/redact``).

    workbench redact [FILE] [--numbers] [--json]

Prints the redacted text (JSON, JSON Lines or an SSE stream, laid out as it was); the count of
values replaced goes to standard error.  Exit status 0, 2 when the input cannot be read or is not
JSON (``file:line:column: message``).
"""

from __future__ import annotations

import sys

from . import common

HELP = "replace every value by a typed placeholder (equal values stay equal) for a bug report"
DESCRIPTION = ("Redact a JSON document, JSON Lines or an SSE stream: string values (and numbers\n"
               "with --numbers) become placeholders of their kind and length; equal values get\n"
               "equal placeholders and distinct ones distinct ones, so a redacted transcript\n"
               "pairs and gates as the original. Keys, structure, type words and tool names stay.")
EPILOG = common.examples(
    "workbench redact transcript.json > redacted.json",
    "workbench redact --numbers stream.sse",
    "workbench redact --json log.jsonl       # the same object as POST /api/redact",
) + "\n\nexit status: 0 redacted, 2 unreadable or not JSON."

ARGUMENTS = (
    "file",
    common.Arg("--numbers", action="store_true",
               help="replace numbers too (sign, digit counts and exponent kept)"),
    common.json_flag("redact"),
    "quiet",
    "max_depth",
)


def run(args) -> int:
    from ..errors import WorkbenchError
    from ..redact import redact
    label = common.display_name(args.file)
    try:
        text = common.read_text(args.file, "text")
        result = redact(text, args.numbers, max_depth=common.limits(args).max_depth)
    except (common.Unreadable, WorkbenchError) as exc:
        return common.refused(exc, label, args)
    if args.json:
        common.write_json(result)
        return common.EXIT_OK
    out = result["text"]
    common.write_text(out if out.endswith("\n") else out + "\n")
    if not args.quiet:
        print(f"{label}: {result['replaced']:,} values replaced ({result['form']})", file=sys.stderr)
    return common.EXIT_OK
