"""``workbench validate``: JSON Schema on the command line (the core of ``POST /api/validate``).

    workbench validate DOC --schema FILE [--format-assert] [--jsonl] [--json]

One error per line on standard output: ``pointer line:column keyword message`` (the root is
``/``; a place that cannot be found is ``-``).  Warnings about the document (duplicate keys…)
and the tool-schema review go to standard error as ``file:line:column: warning: message``.
Exit status 0 valid, 1 invalid, 2 when a file cannot be read, is not JSON, or the schema is not
a valid schema.  With ``--jsonl`` every line of DOC is a document (streamed): the errors carry
the line of the log, and the exit status is 1 if any line is invalid (2 if any is not JSON).
"""

from __future__ import annotations

import sys

from . import common

HELP = "JSON Schema validation: one error per line"
DESCRIPTION = ("Validate a JSON document against a JSON Schema (2020-12, 2019-09, draft "
               "7/6/4; nothing fetched) or a function tool definition.")
EPILOG = common.examples(
    "workbench validate order.json --schema order.schema.json",
    "workbench validate args.json --schema tool.json          # a tool definition: its parameters",
    "workbench validate --jsonl calls.jsonl --schema args.schema.json",
    "workbench validate doc.json --schema s.json --format-assert --json",
    "workbench validate docs/ --schema s.json --format github",
) + """

output: one error per line, `pointer line:column keyword message`, e.g.
  /region 3:13 enum "global" is not one of "apac", "emea", "amer"

exit status: 0 valid, 1 invalid, 2 unreadable input, not JSON, or an invalid schema,
64 usage error; over many documents the worst."""


Arg = common.Arg

ARGUMENTS = (
    Arg("document", metavar="DOC", nargs="+",
        help="the documents: files ('-': standard input) or folders (their *.json files, "
             "with --jsonl their *.jsonl and *.ndjson files, recursively)"),
    Arg("--schema", metavar="FILE", required=True,
        help="the JSON Schema, or a tool definition (its parameters are used)"),
    Arg("--format-assert", action="store_true",
        help="check `format` (email, date-time, uri…) instead of treating it as a note"),
    Arg("--draft", default=None,
        help="the dialect when the schema has no $schema (default 2020-12)"),
    Arg("--tool", default=None, help="which tool of a list of definitions"),
    Arg("--jsonl", action="store_true", help="DOC is JSON Lines: validate every line"),
    common.json_flag("validate", common.EACH_LINE + "; with several files each with its "
                                 "\"file\""),
    "report",
    "fail_on",
    "jobs",
    "quiet",
    Arg("--max-errors", type=int, metavar="N", help="list at most N errors per document"),
    "regex_timeout",
    "max_depth",
)


def error_lines(result: dict, line: int | None = None) -> list[str]:
    """``pointer line:column keyword message`` per error (``line``: the log's line)."""
    out = []
    for e in result["errors"]:
        at = "-"
        if e.get("line") is not None:
            at = f"{line if line is not None else e['line']}:{e['column']}"
        elif line is not None:
            at = f"{line}:-"
        out.append(f"{e['pointer'] or '/'} {at} {e['keyword']} {e['message']}")
    return out


def _warnings(result: dict, doc_label: str, schema_label: str, line: int | None = None,
              schema_too: bool = True, paint=None) -> None:
    """The document's warnings (``line``: the log's line) and, with ``schema_too``, the
    schema's, on standard error; ``paint``: the painter of standard error (one per log)."""
    if not result.get("warnings") and not (schema_too and (result.get("schema_warnings")
                                                           or result.get("review"))):
        return   # (most lines of a log: nothing to write)
    paint = paint or common.painter(sys.stderr)
    out = []
    for w in result.get("warnings") or []:
        w = dict(w, line=line) if line is not None else w
        out.append(f"{paint(common.where(doc_label, w), 'bold')}: {paint('warning', 'yellow')}: "
                   f"{w['message']}")
    if schema_too:  # the schema's own notes (once for a log)
        for w in (result.get("schema_warnings") or []) + (result.get("review") or []):
            out.append(f"{paint(common.where(schema_label, w), 'bold')}: "
                       f"{paint('review' if 'severity' in w or 'code' in w else 'warning', 'yellow')}: "
                       f"{w['message']}")
    if out:
        sys.stderr.write("\n".join(out) + "\n")


def run(args) -> int:
    from ..errors import WorkbenchError
    from ..validate import prepare
    limits = common.limits(args)
    paths = common.expand(args.document, (".jsonl", ".ndjson") if args.jsonl else (".json",))
    many = len(paths) != 1 or paths != args.document
    schema_label = common.display_name(args.schema)
    labels = {"schema": schema_label}
    try:
        schema_text = common.read_text(args.schema, "schema")
        body = {"schema": schema_text, "format_assert": args.format_assert}
        if args.draft:
            body["draft"] = args.draft
        if args.tool:
            body["tool"] = args.tool
        # the schema read, checked and compiled once; --quiet (and not --json): no warnings looked for
        validation = prepare(body, limits, warnings=args.json or not args.quiet)
    except (common.Unreadable, WorkbenchError) as exc:
        return common.refused(exc, schema_label, args, labels=labels)
    if not paths:
        common.print_error(common.error_body("file_not_found", "no document in "
                                             + ", ".join(args.document), "document"),
                           args.document[0], as_json=args.json)
        return common.EXIT_UNREADABLE
    cases: list = []
    run_one = run_jsonl if args.jsonl else run_document
    status = common.each_file(
        paths, args.jobs, lambda path, got: run_one(args, validation, path, schema_label, many, got),
        cases)
    if args.report:
        reported = common.write_report(args.report, cases, "validate", args.fail_on)
        return common.EXIT_UNREADABLE if status == common.EXIT_UNREADABLE else reported
    return status


def _case(name: str, path: str, result: dict, line: int | None = None):
    """The report case of one document: its errors, then its warnings."""
    from ..report import Case, Finding
    findings = [Finding(e["keyword"], "error", f"{e['pointer'] or '/'}: {e['message']}",
                        line if line is not None else e.get("line"), e.get("column"))
                for e in result["errors"]]
    findings += [Finding(w.get("code") or "warning", "warning", w["message"],
                         line if line is not None else w.get("line"), w.get("column"))
                 for w in result.get("warnings") or []]
    return Case(name, path, findings)


def _status(args, result: dict) -> int:
    if args.fail_on == "never":
        return common.EXIT_OK
    bad = not result["valid"] or (args.fail_on == "warning" and result.get("warnings"))
    return common.EXIT_FOUND if bad else common.EXIT_OK


def run_document(args, validation, path: str, schema_label: str, many: bool, cases: list) -> int:
    from ..errors import WorkbenchError
    doc_label = common.display_name(path)
    from ..runtime import collector_paused
    try:
        text = common.read_text(path, "document")
        with collector_paused():
            result = validation.run(text)
    except common.Unreadable as exc:
        common.print_error(exc.body, doc_label, as_json=args.json and not args.report)
        return common.EXIT_UNREADABLE
    except WorkbenchError as exc:
        common.print_error(exc.to_body(), doc_label, as_json=args.json and not args.report,
                           labels={"schema": schema_label})
        return common.EXIT_UNREADABLE
    if args.report:
        cases.append(_case(path, path, result))
    elif args.json:
        common.write_json({"file": path, **result} if many else result)
    else:
        prefix = f"{doc_label}:" if many else ""
        common.write_text("".join(prefix + line + "\n" for line in error_lines(result)))
        if not args.quiet:
            _warnings(result, doc_label, schema_label)
    return _status(args, result)


def run_jsonl(args, validation, path: str, schema_label: str, many: bool, cases: list) -> int:
    from ..runtime import collector_paused
    doc_label = common.display_name(path)
    labels = {"document": doc_label, "schema": schema_label}
    try:
        f = common.open_binary(path, "document")
    except common.Unreadable as exc:
        common.print_error(exc.body, doc_label, as_json=args.json and not args.report)
        return common.EXIT_UNREADABLE
    worst = common.EXIT_OK
    schema_noted = False
    out = sys.stdout.buffer
    prefix = f"{doc_label}:" if many else ""
    paint = common.painter(sys.stderr)

    def show(n: int, result: dict) -> None:
        nonlocal worst, schema_noted
        worst = max(worst, _status(args, result))
        if args.report:
            cases.append(_case(f"{path}:{n}", path, result, n))
        elif args.json:
            common.write_json({"file": path, "line": n, **result} if many else {"line": n, **result})
        else:
            lines = error_lines(result, n)
            if lines:
                out.write("".join(prefix + line + "\n" for line in lines).encode("utf-8"))
            if not args.quiet:
                _warnings(result, doc_label, schema_label, n, not schema_noted, paint)
                schema_noted = True

    with collector_paused():
        status = common.run_lines(f, path, doc_label, validation.run, show,
                                  as_json=args.json and not args.report, labels=labels)
    return status if status is not None else worst
