"""The command line: ``workbench [serve]`` runs the local server; every other subcommand calls
the same core as the web layer (one module per subcommand in this package)."""

from __future__ import annotations

import argparse
import importlib
import sys

from .. import __version__
from . import common, serve

# each module declares its subcommand's parser (HELP, DESCRIPTION, EPILOG, ARGUMENTS: see
# common.add_subcommand) and ``run(args)``; order = order in --help.  ``serve``, whose flags the
# bare ``workbench`` takes too, adds its own.  Named, not imported: `workbench format …` imports
# and builds only the format subcommand (start-up, issue 25); the whole table is read for the
# bare `workbench`, --help, `completion` and a name it does not know.
SUBCOMMANDS = ["format", "extract", "validate", "diff", "gate", "transcript", "convert", "redact"]


def _only(argv) -> str | None:
    """The subcommand ``argv`` runs, when its first word names one of :data:`SUBCOMMANDS`
    (then the parser needs only that one); None otherwise (build them all)."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return first if first in SUBCOMMANDS else None


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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole ``workbench`` parser; with ``only`` (a subcommand's name), the top level and
    that subcommand alone."""
    parser = common.Parser(prog="workbench",
                                     description="JSON Workbench: format, extract, validate, diff "
                                                 "and gate JSON, locally.",
                                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help=common.COLOR_ARG.kw["help"])
    serve.add_server_flags(parser)  # bare ``workbench`` serves
    sub = parser.add_subparsers(dest="command")
    if only is None:
        serve.add_parser(sub)
    for name in SUBCOMMANDS:
        if only is None or name == only:
            common.add_subcommand(sub, importlib.import_module(f"{__package__}.{name}"))
    if only is None:
        from . import completion
        completion.add_parser(sub, parser)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_only(argv))
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
        status = args.func(args)
        sys.stdout.flush()  # a full disk says so here, not as a traceback at exit
        return status
    except BrokenPipeError:  # `workbench … | head -1`: the reader left before the end
        return common.output_closed(args.command)
    except OSError as exc:  # a file unreadable mid-way (EIO), standard output on a full disk
        return common.io_failed(args.command, exc)
    except KeyboardInterrupt:
        print(f"workbench {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
