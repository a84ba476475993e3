"""``workbench transcript``: the checks between items on the command line.

    workbench transcript FILE|DIR… [--tools FILE] [--json] [--format github|junit|sarif]
                         [--fail-on error|warning|never] [--jobs N]

FILE is a response, an item list, JSON Lines, an SSE stream, a Chat Completions payload or
stream, or an Agents API session (``-`` reads standard input).  Prints the calls with their
verdicts, then the findings as ``file:line:column: severity code message``.  With ``--json``:
the same object as ``POST /api/transcript``.  Exit status: 0 when no finding is an error, 1 when
some is, 2 when the input cannot be read (a missing file, a document that is not JSON).
Several files (or folders) are checked in order, on ``--jobs`` processes, with one combined
exit status (the worst) and, on standard error, a count of the files passed and failed.
"""

from __future__ import annotations

import sys

from . import common

_LABELS = {"tools": "--tools FILE"}


HELP = "check a transcript, stream or session: pairing, state, streams, every call gated"
DESCRIPTION = ("Check the items of a transcript against each other (transcript-rules,\n"
               "agents-rules) and gate every call in it.")
EPILOG = common.examples(
    "workbench transcript response.json",
    "workbench transcript stream.sse --tools tools.json",
    "workbench transcript session.json --json",
    "workbench transcript recordings/ --jobs 4 --format junit > transcripts.xml",
) + ("\n\nexit status: 0 no error finding (--fail-on warning: no warning either), 1 some, "
     "2 unreadable input, 64 usage error; over many files the worst.")

ARGUMENTS = (
    common.Arg("file", metavar="FILE", nargs="+",
               help="transcripts: files ('-' reads standard input) or folders (their *.json, "
                    "*.jsonl, *.ndjson, *.sse and *.txt files, recursively)"),
    common.Arg("--tools", metavar="FILE", help="tool definitions (one, a list, or a request's "
                                               "tools) to gate the calls against"),
    common.json_flag("transcript", "with several files: one object per file, JSON Lines, "
                                   "each with its \"file\""),
    "report",
    "fail_on",
    "jobs",
    "max_depth",
)
EXTENSIONS = (".json", ".jsonl", ".ndjson", ".sse", ".txt")
MANY_FILES = 8  # without --jobs: fewer files are checked in this process


def _check(job) -> tuple[str, dict]:
    """``("ok", answer)`` or ``("error", error body)`` for one file's text (in a worker)."""
    from ..errors import WorkbenchError
    from ..transcript import analyse
    text, tools, limits = job
    if isinstance(text, dict):  # the file could not be read: its error body
        return "error", text
    try:
        return "ok", analyse(text, tools, limits=limits)
    except WorkbenchError as exc:
        return "error", exc.to_body()


def _texts(paths, tools, limits):
    for path in paths:
        try:
            yield common.read_text(path, "text"), tools, limits
        except common.Unreadable as exc:
            yield exc.body, tools, limits


def run(args) -> int:
    from ..runtime.pool import default_jobs, map_ordered
    paths = common.expand(args.file, EXTENSIONS)
    many = len(paths) != 1 or paths != args.file  # several files, or a folder: one line each
    try:
        tools = common.read_text(args.tools, "tools") if args.tools else None
    except common.Unreadable as exc:
        common.print_error(exc.body, args.tools, command="transcript", as_json=args.json,
                           labels=_LABELS)
        return common.EXIT_UNREADABLE
    if not paths:
        common.print_error(common.error_body("file_not_found", "no transcript file (*.json, "
                                             "*.jsonl, *.ndjson, *.sse, *.txt) in "
                                             + ", ".join(args.file), "text"),
                           args.file[0], command="transcript", as_json=args.json)
        return common.EXIT_UNREADABLE
    limits = common.limits(args)
    jobs = args.jobs if args.jobs is not None else (default_jobs() if len(paths) >= MANY_FILES else 1)
    status = common.EXIT_OK
    cases = []
    counts = {"ok": 0, "failed": 0, "unreadable": 0}
    for path, (kind, answer) in zip(paths, map_ordered(_check, _texts(paths, tools, limits),
                                                        min(jobs, len(paths))), strict=True):
        one = _show(args, path, kind, answer, many, tools, cases)
        counts[("ok", "failed", "unreadable")[one]] += 1
        status = max(status, one)
    if args.report:
        reported = common.write_report(args.report, cases, "transcript", args.fail_on)
        status = common.EXIT_UNREADABLE if status == common.EXIT_UNREADABLE else reported
    if many:
        print(f"workbench transcript: {len(paths)} files: {counts['ok']} passed, "
              f"{counts['failed']} failed, {counts['unreadable']} unreadable", file=sys.stderr)
    return status


def _show(args, path: str, kind: str, answer: dict, many: bool, tools, cases: list) -> int:
    """Print one file's answer (or error) as asked; its exit status."""
    label = common.display_name(path)
    if kind == "error":
        e = answer["error"]
        shown = args.tools if e.get("field") == "tools" and args.tools else label
        if args.report:
            from ..report import Case, Finding
            cases.append(Case(path, path, [Finding(e["code"], "error", e["message"],
                                                   e.get("line"), e.get("column"))]))
            common.print_error(answer, shown, command="transcript")
        elif args.json and many:
            common.write_json({"file": path, **answer})
        else:
            common.print_error(answer, shown, command="transcript", as_json=args.json)
        return common.EXIT_UNREADABLE
    from ..report import Case, Finding, fails
    findings = [Finding(f["code"], f["severity"], f["message"], f.get("line"), f.get("column"))
                for f in answer["findings"]]
    if args.report:
        cases.append(Case(path, path, findings))
    elif args.json:
        common.write_json({"file": path, **answer} if many else answer)
    else:
        common.write_text(render(answer, label))
    failed = any(fails(f, args.fail_on) for f in findings)
    return common.EXIT_FOUND if failed else common.EXIT_OK


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def render(result: dict, label: str) -> str:
    paint = common.painter()
    m = common.marks()
    s = result["summary"]
    counted = ""   # a stream's events and what they rebuild, in the page's words
    if s.get("events"):
        counted += f"{_plural(s['events'], 'event')}, "
    if s.get("events") and s.get("items"):
        counted += f"{_plural(s['items'], s.get('item_word') or 'item')}, "
    lines = [f"{label}: {result['kind'].replace('_', ' ')} ({result['source']}) — {counted}"
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
