"""What every subcommand shares, once: reading a file or standard input, the error line, the
marks and colours of the text reports, and JSON on standard output.

* Exit statuses: :data:`EXIT_OK` (0), :data:`EXIT_FOUND` (1: blocked, invalid, different, no
  match), :data:`EXIT_UNREADABLE` (2: the input cannot be read or parsed).
* An error is printed on standard error as ``file:line:column: message`` (the form editors and
  CI logs link), followed by the caret snippet when there is one; with ``--json`` the API's
  error body goes to standard output instead.
* Colour only when the stream is a terminal, never when ``NO_COLOR`` is set (no-color.org) or
  ``TERM`` is ``dumb``.

Imports are kept light (no Flask, no jsonschema): ``workbench format`` starts in tens of
milliseconds.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..limits import Limits

EXIT_OK, EXIT_FOUND, EXIT_UNREADABLE = 0, 1, 2
STDIN = "-"


class Unreadable(Exception):
    """An input that cannot be read; ``body`` is the API-style error body."""

    def __init__(self, body: dict):
        super().__init__(body.get("error", {}).get("message", ""))
        self.body = body


def error_body(code: str, message: str, field: str | None, **extra) -> dict:
    return {"error": {"code": code, "message": message, "field": field, **extra}}


def display_name(path: str) -> str:
    return "standard input" if path == STDIN else path


def cannot_open(exc: OSError, path: str, field: str | None) -> Unreadable:
    """The :class:`Unreadable` for an ``OSError`` met opening or reading ``path``."""
    if isinstance(exc, FileNotFoundError):
        return Unreadable(error_body("file_not_found", f"No such file: {path}", field))
    if isinstance(exc, IsADirectoryError):
        return Unreadable(error_body("file_unreadable", f"{path} is a folder, not a file", field))
    return Unreadable(error_body("file_unreadable", f"Cannot read {path}: {exc.strerror}", field))


def read_bytes(path: str, field: str | None) -> bytes:
    """The bytes of ``path`` (``-``: standard input); :class:`Unreadable` if it cannot be read."""
    try:
        if path == STDIN:
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise cannot_open(exc, path, field) from None


def decode(data: bytes, path: str, field: str | None) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(error_body(
            "parse_error", f"{display_name(path)} is not UTF-8 text: byte 0x{data[exc.start]:02x} at "
                           f"byte offset {exc.start} is not valid", field, offset=exc.start)) from None


def read_text(path: str, field: str | None) -> str:
    """The UTF-8 text of ``path`` (``-``: standard input); :class:`Unreadable` otherwise."""
    return decode(read_bytes(path, field), path, field)


def open_binary(path: str, field: str | None, buffering: int = 1 << 20):
    """A binary file to stream (``-``: standard input's buffer); :class:`Unreadable` otherwise."""
    if path == STDIN:
        return sys.stdin.buffer
    try:
        return open(path, "rb", buffering=buffering)
    except OSError as exc:
        raise cannot_open(exc, path, field) from None


def lines_of(f):
    """Lines of a binary stream, one at a time (never the whole file in memory)."""
    return iter(f.readline, b"")


def run_lines(f, path: str, label: str, answer, show, *, as_json: bool,
              labels: dict | None = None, first: int = 1) -> int | None:
    """``--jsonl``: ``answer(text)`` on every non-blank line of the binary stream ``f`` (one
    document a line, read one at a time), each result handed to ``show(n, result)``.  A line
    that is not UTF-8 or whose document is refused is reported with its line number and passed
    over; an error in any other field (the same for every line: the path, the schema) stops.
    Returns :data:`EXIT_UNREADABLE` when a line was passed over or it stopped, else ``None``;
    ``f`` is closed (standard input is not) and standard output flushed.  ``first``: the line
    number of ``f``'s first line (a piece of a longer log)."""
    from ..errors import WorkbenchError
    bad = 0
    try:
        for n, raw in enumerate(lines_of(f), first):
            if not raw.strip():
                continue
            try:
                result = answer(decode(raw, path, "document").rstrip("\r\n"))
            except Unreadable as exc:
                bad += 1
                print_error(error_body(
                    "parse_error", exc.body["error"]["message"], "document", line=n), label)
                continue
            except WorkbenchError as exc:
                if exc.field != "document":  # the same for every line
                    print_error(exc.to_body(), label, as_json=as_json, labels=labels)
                    return EXIT_UNREADABLE
                bad += 1
                body = exc.to_body()
                body["error"]["line"] = n
                body["error"].pop("snippet", None)
                if as_json:
                    write_json({"line": n, **body})
                else:
                    print_error(body, label)
                continue
            show(n, result)
    finally:
        sys.stdout.buffer.flush()
        if f is not sys.stdin.buffer:
            f.close()
    return EXIT_UNREADABLE if bad else None


# --------------------------------------------------------------------------- output

def marks(stream=None) -> dict:
    """The report's marks, in ASCII where the stream cannot encode ✓✗–→…."""
    enc = getattr(stream or sys.stdout, "encoding", None) or "ascii"
    try:
        "✓✗–→…".encode(enc)
        return {"pass": "✓", "fail": "✗", "skipped": "–", "arrow": "→", "more": "…"}
    except (UnicodeEncodeError, LookupError):
        return {"pass": "+", "fail": "x", "skipped": "-", "arrow": "->", "more": "..."}


_STYLES = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "cyan": "36", "bold": "1",
           "dim": "2"}


def use_colour(stream=None) -> bool:
    """Colour only on a terminal; ``NO_COLOR`` (any non-empty value) and ``TERM=dumb`` turn it off."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def painter(stream=None):
    """``paint(text, style)``: ANSI-coloured text when :func:`use_colour`, else the text."""
    if not use_colour(stream):
        return lambda text, style: text
    return lambda text, style: f"\033[{_STYLES[style]}m{text}\033[0m"


def where(label: str, e: dict) -> str:
    """``file:line:column`` (or ``file`` when the error has no position)."""
    if e.get("line") is not None:
        return f"{label}:{e['line']}:{e.get('column', 1)}"
    return label


def print_error(body: dict, label: str, *, command: str | None = None, as_json: bool = False,
                labels: dict | None = None) -> None:
    """Print an error body: ``file:line:column: message`` (and the caret snippet) on standard
    error, prefixed ``workbench COMMAND:`` when ``command`` is given; with ``as_json`` the body
    as JSON on standard output.  ``labels`` maps the body's ``field`` to the name to show (e.g.
    ``{"schema": "--schema FILE"}``); the default is ``label``."""
    if as_json:
        write_json(body)
        return
    e = body["error"]
    field = e.get("field")
    shown = (labels or {}).get(field, label) if field else label
    paint = painter(sys.stderr)
    prefix = f"workbench {command}: " if command else ""
    print(f"{prefix}{paint(where(shown, e), 'bold')}: {paint(e['message'], 'red')}", file=sys.stderr)
    if e.get("snippet"):
        print(e["snippet"], file=sys.stderr)
    if e.get("hint_message"):
        print(e["hint_message"], file=sys.stderr)


def write_json(value) -> None:
    """One JSON value on standard output (the exact writer; UTF-8)."""
    from ..jsontext import dumps_value
    out = sys.stdout
    out.flush()
    out.buffer.write(dumps_value(value) + b"\n")
    out.buffer.flush()


def write_text(text: str) -> None:
    write_bytes(text.encode("utf-8"))


def write_bytes(data: bytes) -> None:
    out = sys.stdout
    out.flush()
    try:
        out.buffer.write(data)
        out.buffer.flush()
    except BrokenPipeError:  # `workbench format big.json | head`: the reader left, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())


# on the command line everything is returned (no 10,000-row cap) and there is no request timer
# (work_timeout 0: no deadline, and no watchdog thread started for each line of a log);
# a WORKBENCH_<NAME> variable or a flag still sets any limit
CLI_LIMITS = {"max_matches": 10**12, "max_errors": 10**12, "max_changes": 10**12,
              "work_timeout": 0.0, "diff_max_bytes": 1 << 50, "max_body": 1 << 50}


def limits(args):
    """The :class:`~workbench.limits.Limits` of a subcommand: its flags, then the environment,
    then :data:`CLI_LIMITS`."""
    from ..limits import Limits
    over = {k: v for k, v in CLI_LIMITS.items() if "WORKBENCH_" + k.upper() not in os.environ}
    for name in ("max_depth", "regex_timeout", "max_matches", "max_errors", "max_changes"):
        value = getattr(args, name, None)
        if value is not None:
            over[name] = value
    return Limits.from_env(**over)


# --------------------------------------------------------------------------- the parsers
# Each subcommand's module declares its parser: ``HELP`` (its line in ``workbench --help``),
# ``DESCRIPTION``, ``EPILOG`` (both printed as written) and ``ARGUMENTS``, a table in ``--help``
# order; :func:`add_subcommand` builds it.  An argument several subcommands share is declared
# once, in :data:`SHARED`, and named in their tables by its key.

class Arg:
    """One argument of a subcommand: the names and keywords of ``add_argument``."""

    def __init__(self, *names: str, **kw):
        self.names, self.kw = names, kw

    def add(self, parser) -> None:
        parser.add_argument(*self.names, **self.kw)


class OneOf:
    """Arguments of which at most one may be given (a mutually exclusive group)."""

    def __init__(self, *args):
        self.args = args

    def add(self, parser) -> None:
        group = parser.add_mutually_exclusive_group()
        for arg in self.args:
            _declared(arg).add(group)


SHARED = {
    "file": Arg("file", nargs="?", default=STDIN, metavar="FILE",
                help="the document ('-' or nothing: standard input)"),
    "quiet": Arg("-q", "--quiet", action="store_true", help="do not print warnings"),
    "max_depth": Arg("--max-depth", type=int, help=Limits.help("max_depth")),
    "regex_timeout": Arg("--regex-timeout", type=float, help=Limits.help("regex_timeout")),
}
EACH_LINE = 'one per line, with its "line"'  # what --json prints with --jsonl (extract, validate)


def json_flag(endpoint: str, with_jsonl: str | None = None) -> Arg:
    """``--json``: the answer of ``POST /api/<endpoint>`` (``with_jsonl``: what it prints then)."""
    more = f" (with --jsonl: {with_jsonl})" if with_jsonl else ""
    return Arg("--json", action="store_true",
               help=f"print the same JSON object as POST /api/{endpoint}{more}")


def _declared(arg) -> Arg | OneOf:
    return SHARED[arg] if isinstance(arg, str) else arg


def add_subcommand(subparsers, module) -> argparse.ArgumentParser:
    """The parser a subcommand's module declares (see above), named as the module is, that
    calls its ``run(args)``."""
    p = subparsers.add_parser(module.__name__.rpartition(".")[2], help=module.HELP,
                              description=module.DESCRIPTION, epilog=module.EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    for arg in module.ARGUMENTS:
        _declared(arg).add(p)
    p.set_defaults(func=module.run)
    return p


def examples(*lines: str) -> str:
    """The ``--help`` epilog: examples, one per line."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)
