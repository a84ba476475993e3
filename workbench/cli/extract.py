"""``workbench extract``: RFC 9535 JSONPath on the command line (the core of ``POST /api/extract``).

    workbench extract PATH [FILE] [--engine E] [--paths] [--json] [--jsonl]

One match per line: its exact JSON text (numbers as written; a match that spans lines in the
document is written on one line), or with ``--paths`` the normalized path, a tab, the JSON.
Exit status 0 with matches, 1 with none, 2 when the input cannot be read, is not JSON, or the
path is not valid JSONPath.  With ``--jsonl`` every line of FILE is a document (streamed, never
read whole); a line that is not JSON is reported as ``file:line:column: message`` and makes the
exit status 2 once the log is done.
"""

from __future__ import annotations

import sys

from . import common

HELP = "RFC 9535 JSONPath: one match per line"
DESCRIPTION = "Select with a JSONPath (RFC 9535) and print every match's exact JSON."
EPILOG = common.examples(
    "workbench extract '$..call_id' response.json",
    "workbench extract --paths '$.output[?@.type==\"function_call\"].name' response.json",
    "workbench extract '$..arguments' - < item.json",
    "workbench extract -r '$..name' response.json   # strings as their text, as jq -r",
    "workbench extract --jsonl '$.item.name' log.jsonl | sort | uniq -c",
    "workbench extract --json '$..id' doc.json      # the same object as POST /api/extract",
) + """

exit status: 0 some match, 1 no match, 2 unreadable input, not JSON, or an invalid path."""


Arg = common.Arg

ARGUMENTS = (
    Arg("path", metavar="PATH", help="the JSONPath, e.g. '$..call_id'"),
    "file",
    Arg("--engine", default="rfc9535", choices=["rfc9535", "jsonpath-ng"],
        help="rfc9535 (default; the RFC's compliance suite passes) or jsonpath-ng (its ext "
             "dialect, not RFC 9535)"),
    Arg("--paths", action="store_true", help="print the normalized path, a tab, then the JSON"),
    Arg("-r", "--raw", action="store_true",
        help="a match that is a string is printed as its text, not as JSON (as jq -r); other "
             "matches stay JSON"),
    Arg("--jsonl", action="store_true",
        help="FILE is JSON Lines: run the path on every line (with --paths: the line number, a "
             "tab, the path, a tab, the JSON)"),
    common.json_flag("extract", common.EACH_LINE),
    Arg("--max-matches", type=int, metavar="N", help="stop listing after N matches"),
    "max_depth",
)


def _one_line(json_text: str) -> str:
    """A match's exact text on one line (newlines inside a value are only whitespace)."""
    if "\n" not in json_text and "\r" not in json_text:
        return json_text
    from ..format import format_text
    return format_text(json_text, 0)["formatted"]


def _text(m: dict, raw: bool) -> str:
    """A match as printed: its exact JSON on one line, or with ``raw`` a string's own text."""
    if raw and m["json"].startswith('"'):
        import json
        return json.loads(m["json"])  # a string's exact text (the value may be held as its JSON)
    return _one_line(m["json"])


def _rows(result: dict, paths: bool, prefix=lambda m: "", path=lambda m: m["path"],
          raw: bool = False) -> list[str]:
    """A line per match: its JSON (``raw``: a string's text), or with ``paths`` the ``prefix``
    (of the match), its ``path`` and that, tab-separated."""
    out = []
    for m in result["matches"]:
        text = _text(m, raw)
        out.append(f"{prefix(m)}{path(m)}\t{text}" if paths else text)
    return out


def run(args) -> int:
    from ..errors import WorkbenchError
    from ..extract import handle
    limits = common.limits(args)
    label = common.display_name(args.file)
    if args.jsonl:
        return run_jsonl(args, limits, label)
    try:
        text = common.read_text(args.file, "document")
        result = handle({"document": text, "path": args.path, "engine": args.engine}, limits)
    except (common.Unreadable, WorkbenchError) as exc:
        return common.refused(exc, label, args, labels={"path": "PATH"})
    if args.json:
        common.write_json(result)
    else:
        rows = _rows(result, args.paths, raw=args.raw)
        common.write_text("".join(r + "\n" for r in rows))
    return common.EXIT_OK if result["count"] else common.EXIT_FOUND


def run_jsonl(args, limits, label: str) -> int:
    from ..extract import handle
    try:
        f = common.open_binary(args.file, "document")
    except common.Unreadable as exc:
        common.print_error(exc.body, label, as_json=args.json)
        return common.EXIT_UNREADABLE
    found = 0
    out = sys.stdout.buffer

    def show(n: int, result: dict) -> None:
        nonlocal found
        found += result["count"]
        if args.json:
            common.write_json({"line": n, **result})
        elif result["count"]:
            rows = _rows(result, args.paths, lambda m: f"{n}\t", raw=args.raw)
            out.write("".join(r + "\n" for r in rows).encode("utf-8", "backslashreplace"))

    def each_line(source, first: int = 1):
        return common.run_lines(
            source, args.file, label,
            lambda text: handle({"document": text, "path": args.path, "engine": args.engine}, limits),
            show, as_json=args.json, labels={"path": "PATH"}, first=first)

    # one answer a line (--json), another engine's loop, or a cap per line: line by line
    if args.json or args.engine != "rfc9535" or args.max_matches is not None:
        status = each_line(f)
    else:  # the lines that fall back to each_line are counted by show
        status, in_pieces = _in_pieces(f, args, limits, label, each_line, out)
        found += in_pieces
    if status is not None:
        return status
    return common.EXIT_OK if found else common.EXIT_FOUND


def _in_pieces(f, args, limits, label: str, each_line, out):
    """The log queried a piece at a time (:mod:`workbench.extract.pieces`): ``(status,
    matches)``, status as :func:`common.run_lines` gives it.  A piece with a bad line is
    queried again by ``each_line`` (whose ``show`` counts its matches, not here)."""
    import io

    from ..errors import WorkbenchError
    from ..extract.pieces import query_log
    found, bad = 0, False
    try:
        for first, result in query_log(common.lines_of(f), args.path, limits):
            if isinstance(result, bytes):  # a line that is not UTF-8 or not JSON: line by line
                bad = each_line(io.BytesIO(result), first) is not None or bad
                continue
            found += result["count"]
            rows = _rows(result, args.paths, lambda m: f"{m['line']}\t", raw=args.raw)
            if rows:
                out.write("".join(r + "\n" for r in rows).encode("utf-8", "backslashreplace"))
    except WorkbenchError as exc:  # the path: the same for every line
        common.print_error(exc.to_body(), label, labels={"path": "PATH"})
        return common.EXIT_UNREADABLE, found
    finally:
        sys.stdout.buffer.flush()
        if f is not sys.stdin.buffer:
            f.close()
    return (common.EXIT_UNREADABLE if bad else None), found
