"""The command line: ``workbench [serve]`` runs the local server; every other subcommand calls
the same core as the web layer (one module per subcommand in this package)."""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from . import common, completion, diff, extract, gate, serve, transcript, validate
from . import redact as redact_cmd
from . import format as format_cmd

# each module declares its subcommand's parser (HELP, DESCRIPTION, EPILOG, ARGUMENTS: see
# common.add_subcommand) and ``run(args)``; order = order in --help.  ``serve``, whose flags the
# bare ``workbench`` takes too, adds its own.
SUBCOMMANDS = [format_cmd, extract, validate, diff, gate, transcript, redact_cmd]


EPILOG = """examples:
  workbench                                   # serve on http://127.0.0.1:8765/
  workbench format doc.json                   # exact: numbers keep their text
  workbench extract '$..call_id' response.json
  workbench validate args.json --schema tool.json
  workbench diff --patch before.json after.json
  workbench gate --jsonl log.jsonl --schema tools.json --jobs 4

Every command reads a FILE or - (standard input), prints errors as file:line:column: message,
takes --json (the HTTP API's answer) and exits 0 (ok), 1 (blocked, invalid, different, no
match), 2 (unreadable input: missing, not JSON, too large) or 64 (a usage error: an unknown
option, a missing argument). gate, transcript and validate take many files and folders and
--format github|junit|sarif for CI. `workbench COMMAND --help` for more;
`workbench completion bash|zsh|fish` prints a completion script."""


def build_parser() -> argparse.ArgumentParser:
    parser = common.Parser(prog="workbench",
                                     description="JSON Workbench: format, extract, validate, diff "
                                                 "and gate JSON, locally.",
                                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help=common.COLOR_ARG.kw["help"])
    serve.add_server_flags(parser)  # bare ``workbench`` serves
    sub = parser.add_subparsers(dest="command")
    serve.add_parser(sub)
    for module in SUBCOMMANDS:
        common.add_subcommand(sub, module)
    completion.add_parser(sub, parser)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    common.COLOR["mode"] = args.color
    if args.command is None:
        return serve.serve(args)
    for stream in (sys.stdout, sys.stderr):  # a lone surrogate in a report: its escape, \ud800
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    try:
        return args.func(args)
    except BrokenPipeError:  # `workbench … | head -1`: the reader left before the end
        return common.output_closed(args.command)
    except KeyboardInterrupt:
        print(f"workbench {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
