"""``workbench format``: the exact formatter on the command line (the core of ``POST /api/format``).

    workbench format [FILE] [--indent N|tab] [--sort-keys] [--json]

Exit status 0 (warnings, such as duplicate keys, go to standard error as
``file:line:column: warning: message`` and do not fail), 2 when the input cannot be read or is
not JSON (``file:line:column: message`` and the caret on standard error).

Start-up is kept small: this module imports only the format core (no Flask, no jsonschema, no
JSONPath engines); the document is read as bytes, formatted, and written to standard output in
one write.
"""

from __future__ import annotations

import argparse
import sys

from . import common

HELP = "re-indent or minify exactly (numbers keep their text)"
DESCRIPTION = "Format a JSON document exactly: re-indent or minify, sort keys on request."
EPILOG = common.examples(
    "workbench format doc.json                 # indent 2, numbers exactly as written",
    "workbench format --indent 0 doc.json      # minify (JSON Lines stay one value per line)",
    "workbench format --indent tab --sort-keys - < doc.json",
    "curl -s https://… | workbench format      # standard input",
    "workbench format --json doc.json          # the same object as POST /api/format",
) + """

Numbers keep their text (1.10, 12345678901234567890123, 1e400); a repeated key keeps both
members, in place (also with --sort-keys), and is warned about. Text with one JSON value per
line (JSON Lines) is formatted value by value. A Server-Sent Events stream is refused with a
hint to use `workbench transcript` or the Gate page.

exit status: 0 formatted (warnings do not fail), 2 unreadable or not JSON."""


def _indent(value: str):
    if value in ("tab", "\\t", "\t"):
        return "tab"
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError("use 0 (minify), 1 to 8 spaces, or tab") from None
    if not 0 <= n <= 8:
        raise argparse.ArgumentTypeError("use 0 (minify), 1 to 8 spaces, or tab")
    return n


ARGUMENTS = (
    "file",
    common.Arg("--indent", type=_indent, default=2, metavar="N|tab",
               help="0 (minify), 1 to 8 spaces, or tab (default 2)"),
    common.Arg("--sort-keys", action="store_true", help="sort object members by key"),
    common.json_flag("format"),
    "quiet",
    "max_depth",
)


def print_warnings(warnings: list[dict], label: str) -> None:
    paint = common.painter(sys.stderr)
    out = []
    for w in warnings:
        at = common.where(label, w)
        out.append(f"{paint(at, 'bold')}: {paint('warning', 'yellow')}: {w['message']}"
                   + (f" (at {w['pointer']})" if w.get("pointer") else ""))
    if out:
        sys.stderr.write("\n".join(out) + "\n")


def run(args) -> int:
    from ..errors import WorkbenchError
    from ..format import format_text
    label = common.display_name(args.file)
    try:
        text = common.read_text(args.file, "text")
        result = format_text(text, args.indent, args.sort_keys, as_bytes=not args.json,
                             max_depth=common.limits(args).max_depth)
    except common.Unreadable as exc:
        common.print_error(exc.body, label, as_json=args.json)
        return common.EXIT_UNREADABLE
    except WorkbenchError as exc:
        common.print_error(exc.to_body(), label, as_json=args.json)
        if exc.extra.get("hint") == "sse_stream" and not args.json:
            print(f"(a stream: workbench transcript {args.file})", file=sys.stderr)
        return common.EXIT_UNREADABLE
    if args.json:
        common.write_json(result)
        return common.EXIT_OK
    common.write_bytes(result["formatted"] + b"\n")
    if not args.quiet:
        print_warnings(result["warnings"], label)
        if result.get("truncated"):
            print(f"{label}: {result['warning_count'] - len(result['warnings']):,} more warnings "
                  "not listed", file=sys.stderr)
    return common.EXIT_OK
