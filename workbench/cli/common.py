"""What every subcommand shares, once: reading a file or standard input, the error line, the
marks and colours of the text reports, and JSON on standard output.

* Exit statuses: :data:`EXIT_OK` (0), :data:`EXIT_FOUND` (1: blocked, invalid, different, no
  match), :data:`EXIT_UNREADABLE` (2: the input cannot be read or parsed, is over a size
  limit, or the output pipe closed), :data:`EXIT_USAGE` (64: the command line itself is
  wrong; one line, from :class:`Parser`).
* An error is printed on standard error as ``file:line:column: message`` (the form editors and
  CI logs link), followed by the caret snippet when there is one; with ``--json`` the API's
  error body goes to standard output instead.
* Colour (``--color auto``) only when the stream is a terminal, never when ``NO_COLOR`` is set
  (no-color.org) or ``TERM`` is ``dumb``; ``--color always`` / ``never`` decide alone.
* Inputs are bounded: a whole file over ``max_body`` is refused from its size before it is
  read, a JSON Lines line over ``max_line`` when it is met (:func:`read_bytes`, :func:`lines_of`).

Imports are kept light (no Flask, no jsonschema): ``workbench format`` starts in tens of
milliseconds.
"""

from __future__ import annotations

import argparse
import os
import sys

from ..limits import Limits

EXIT_OK, EXIT_FOUND, EXIT_UNREADABLE = 0, 1, 2
EXIT_USAGE = 64  # a command line argparse (or a subcommand) refuses: BSD's EX_USAGE
STDIN = "-"
COLOR = {"mode": "auto"}  # --color: auto (a terminal, no NO_COLOR, TERM not dumb), always, never


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line and exit status :data:`EXIT_USAGE`
    (not 2, which is "unreadable input")."""

    def error(self, message):
        usage_error(self.prog, message)

    def _get_formatter(self):
        # the width as shutil.get_terminal_size finds it, without importing shutil (and its
        # bz2, lzma, zlib) for every command: argparse builds a formatter per argument
        return self.formatter_class(prog=self.prog, width=terminal_columns() - 2)


def terminal_columns() -> int:
    """``$COLUMNS``, else the width of standard output's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def usage_error(prog: str, message: str):
    """One line on standard error, then exit :data:`EXIT_USAGE`."""
    sys.stderr.write(f"{prog}: usage error: {message} (see '{prog} --help')\n")
    raise SystemExit(EXIT_USAGE)


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


def too_large(path: str, limit: int, field: str | None) -> Unreadable:
    return Unreadable(error_body(
        "too_large", f"{display_name(path)} is larger than the limit of {limit:,} bytes "
                     "(WORKBENCH_MAX_BODY sets it)", field, limit=limit))


def read_bytes(path: str, field: str | None, limit: int | None = None) -> bytes:
    """The bytes of ``path`` (``-``: standard input); :class:`Unreadable` if it cannot be read
    or holds more than ``limit`` bytes (default: the ``max_body`` limit), refused from the
    file's size before reading it, or after reading one byte more than the limit from a pipe."""
    if limit is None:
        limit = limits(None).max_body
    try:
        if path == STDIN:
            f = sys.stdin.buffer
            data = f.read(limit + 1)
        else:
            with open(path, "rb") as f:
                st = os.fstat(f.fileno())
                if st.st_size > limit:
                    raise too_large(path, limit, field)
                data = f.read(limit + 1)
    except OSError as exc:
        raise cannot_open(exc, path, field) from None
    if len(data) > limit:
        raise too_large(path, limit, field)
    return data


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


def lines_of(f, first: int = 1):
    """Lines of a binary stream, one at a time (never the whole file in memory, no line longer
    than the ``max_line`` limit: a longer one raises ``line_too_long``, a WorkbenchError)."""
    from ..jsontext.lines import read_lines
    return read_lines(f, limits(None).line_limit, first=first)


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
    # the loop of every line, kept lean (issue 25: validate --jsonl against a jsonschema-rs loop):
    # the reading's OSError caught here, not by a generator around the lines; a line decoded in
    # place, the message of a bad byte made only for a line that has one
    lines = lines_of(f, first)
    n = first - 1
    try:
        while True:
            try:
                raw = next(lines)
            except StopIteration:
                break
            except OSError as exc:
                raise cannot_open(exc, path, "document") from None
            n += 1
            if not raw.strip():
                continue
            try:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    text = decode(raw, path, "document")   # raises its Unreadable
                result = answer(text.rstrip("\r\n"))
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
    except WorkbenchError as exc:  # a line over the bound (the reading stops there)
        print_error(exc.to_body(), label)
        return EXIT_UNREADABLE
    except Unreadable as exc:  # the file stopped being readable mid-way (an I/O error)
        print_error(exc.body, label)
        return EXIT_UNREADABLE
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
    if COLOR["mode"] != "auto":
        return COLOR["mode"] == "always"
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


def refused(exc: Exception, label: str, args, **options) -> int:
    """Print why an input was refused — an :class:`Unreadable` file or a core's
    ``WorkbenchError`` — through :func:`print_error` (``options``: its ``command`` and
    ``labels``) and give the exit status for it (:data:`EXIT_UNREADABLE`)."""
    body = exc.body if isinstance(exc, Unreadable) else exc.to_body()
    print_error(body, label, as_json=args.json, **options)
    return EXIT_UNREADABLE


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


def _stdout_to_nowhere() -> None:
    """Standard output pointed at the null device: what is still buffered for it (and the
    interpreter's flush at exit) cannot fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def output_closed(command: str) -> int:
    """Standard output was closed before the answer was written (``| head -1``): said in one
    line on standard error, :data:`EXIT_UNREADABLE`; the rest of the output goes nowhere."""
    _stdout_to_nowhere()
    print(f"workbench {command}: standard output was closed before the output was written "
          "(broken pipe)", file=sys.stderr)
    return EXIT_UNREADABLE


def io_failed(command: str, exc: OSError) -> int:
    """Reading or writing failed mid-way (an I/O error, a full disk): said in one line on standard
    error, :data:`EXIT_UNREADABLE`; what was not written goes nowhere."""
    _stdout_to_nowhere()
    where = f" ({exc.filename})" if exc.filename else ""
    print(f"workbench {command}: {exc.strerror or exc}{where}", file=sys.stderr)
    return EXIT_UNREADABLE


def write_json(value) -> None:
    """One JSON value on standard output (the exact writer; UTF-8)."""
    from ..jsontext import dumps_value
    out = sys.stdout
    out.flush()
    out.buffer.write(dumps_value(value) + b"\n")
    out.buffer.flush()


def write_json_lines(values) -> None:
    """JSON values on standard output, one a line (JSON Lines)."""
    from ..jsontext import dumps_value
    sys.stdout.flush()
    sys.stdout.buffer.write(b"".join(dumps_value(v) + b"\n" for v in values))


def exit_for(found: bool, fail_on: str = "error") -> int:
    """:data:`EXIT_FOUND` when something was found that fails (``--fail-on never``: nothing
    does), else :data:`EXIT_OK`."""
    return EXIT_FOUND if found and fail_on != "never" else EXIT_OK


def write_report(kind: str, cases: list, tool: str, fail_on: str) -> int:
    """``--format github|junit|sarif``: the report of ``cases`` on standard output; the exit
    status its findings give under ``fail_on``."""
    from ..report import failing, write
    write_text(write(kind, cases, tool=tool, fail_on=fail_on))
    return EXIT_FOUND if failing(cases, fail_on) else EXIT_OK


_EACH: dict = {}


def _captured(path: str):
    """In a forked worker: ``_EACH["one"](path)`` with its standard output and error kept;
    ``(status, stdout bytes, stderr text, its report cases)``."""
    import io
    out, err = io.BytesIO(), io.StringIO()
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", errors="backslashreplace",
                                  write_through=True)
    sys.stderr = err
    cases: list = []
    status = _EACH["one"](path, cases)
    sys.stdout.flush()
    return status, out.getvalue(), err.getvalue(), cases


def each_file(paths: list[str], jobs: int | None, one, cases: list) -> int:
    """``one(path, cases)`` (which prints one file's answer and returns its exit status) for
    every path, in order; the worst status.  With ``jobs`` > 1 the files run on forked worker
    processes, each one's output kept and printed here in the files' order (the same bytes as
    ``jobs`` 1)."""
    if jobs is None or jobs <= 1 or len(paths) < 2:   # (multiprocessing not imported: start-up)
        return max((one(path, cases) for path in paths), default=EXIT_OK)
    import multiprocessing

    from ..runtime.pool import map_ordered
    if "fork" not in multiprocessing.get_all_start_methods():
        return max((one(path, cases) for path in paths), default=EXIT_OK)
    status = EXIT_OK
    colour = use_colour(sys.stderr)
    _EACH["one"] = one
    saved = COLOR["mode"]
    COLOR["mode"] = "always" if colour else "never"  # the workers' streams are not terminals
    try:
        for st, out, err, got in map_ordered(_captured, paths, min(jobs, len(paths))):
            write_bytes(out)
            sys.stderr.write(err)
            cases.extend(got)
            status = max(status, st)
    finally:
        COLOR["mode"] = saved
        _EACH.clear()
    return status


def expand(paths, extensions: tuple[str, ...]) -> list[str]:
    """The files named: each path as given (``-`` too), and for a folder its files ending in
    one of ``extensions``, recursively, in sorted order (so the same tree, the same order)."""
    out = []
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs.sort()
                out.extend(os.path.join(root, n) for n in sorted(names)
                           if n.lower().endswith(extensions))
        else:
            out.append(path)
    return out


def write_text(text: str) -> None:
    """Text on standard output as UTF-8; a lone surrogate (JSON allows ``"\\ud800"``) is
    written as its escape, ``\\ud800``."""
    write_bytes(text.encode("utf-8", "backslashreplace"))


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
              "work_timeout": 0.0, "diff_max_bytes": 1 << 50}


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
    "report": Arg("--format", dest="report", choices=("github", "junit", "sarif"), default=None,
                  help="print a CI report instead: GitHub workflow commands (::error file=…), "
                       "JUnit XML (one testcase per item or file) or SARIF 2.1.0"),
    "fail_on": Arg("--fail-on", choices=("error", "warning", "never"), default="error",
                   help="which findings make the exit status 1 (default: error)"),
    "jobs": Arg("--jobs", type=int, default=None, metavar="N",
                help="check the files on N processes (default: every core for many files); "
                     "the same output in the same order"),
}
COLOR_ARG = Arg("--color", choices=("auto", "always", "never"), default=argparse.SUPPRESS,
                help="colour the output: auto (default: on a terminal, unless NO_COLOR is set), "
                     "always or never")
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
    COLOR_ARG.add(p)
    p.set_defaults(func=module.run)
    return p


def examples(*lines: str) -> str:
    """The ``--help`` epilog: examples, one per line."""
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)
