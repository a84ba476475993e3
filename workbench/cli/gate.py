"""``workbench gate``: the replay gate on the command line.

    workbench gate ITEM [--schema FILE] [--original FILE] [--dialect D] [--json]
    workbench gate --jsonl LOG|DIR… [--schema FILE] [--original FILE] [--dialect D]
                   [--json | --json-summary | --format github|junit|sarif] [--fail-on F]

``--dialect`` is ``auto`` (default: an item with ``turn_id`` is an Agents API action, answered
with the host's report and the ``tool_result`` to send), ``open_responses`` or ``agents_api``.

ITEM is a file or ``-`` for standard input.  Exit status: 0 when the verdict is ``ok`` (with
``--jsonl``: every line ok), 1 when it blocks (any line blocked), 2 when the input cannot be
read or parsed (a missing file, not JSON, an invalid schema, a line over the max_line
limit, a worker killed, an I/O error), 64 for a usage error.  ``--fail-on never`` makes a
blocked verdict exit 0.

With ``--jsonl`` standard output is the same bytes for the same logs, whatever ``--jobs``:
the summary (text), or with ``--json`` one object per line (``file``, ``line``, ``verdict``,
``call_id``, ``name``), or the CI report; the timing (and with ``--json`` or ``--format`` the
summary) goes to standard error.

The JSON Lines path (built for big logs) is :mod:`workbench.gate.batch` and
:mod:`workbench.gate.jobs`; this module parses the arguments and prints.
"""

from __future__ import annotations

import os
import sys
import time

from . import common

EXIT_OK, EXIT_BLOCKED, EXIT_UNREADABLE = common.EXIT_OK, common.EXIT_FOUND, common.EXIT_UNREADABLE
SHOW_BLOCKED = 20
PROGRESS_MIN_BYTES = 8 * 1024 * 1024


HELP = "may this tool call be replayed? format → schema → diff, one verdict"
DESCRIPTION = ("Run the replay gate (docs: replay-rules) on one Open Responses item, or on every\n"
               "line of a JSON Lines log.")
EPILOG = common.examples(
    "workbench gate item.json --schema tool.json",
    "workbench gate item.json --schema tools.json --original first.json --json",
    "workbench gate --jsonl log.jsonl --schema tools.json --jobs 4",
    "workbench gate --jsonl logs/ --json | jq -c 'select(.verdict != \"ok\")'",
    "workbench gate --jsonl logs/ --format sarif > gate.sarif",
) + ("\n\nexit status: 0 ok (with --jsonl: every line), 1 blocked (any line), 2 unreadable "
     "input, 64 usage error.")

Arg = common.Arg

ARGUMENTS = (
    Arg("item", nargs="?", metavar="ITEM",
        help="file holding one item as JSON ('-' reads standard input)"),
    Arg("--schema", metavar="FILE",
        help="the tool's parameters schema, one function tool definition, or a list of them "
             "(the tool is then chosen by the item's name)"),
    Arg("--original", metavar="FILE",
        help="the item as the first provider sent it (rule 9 compares type, call_id and name)"),
    common.json_flag("gate", "one JSON object per line of the log, JSON Lines: file, line, "
                             "verdict, call_id, name"),
    Arg("--jsonl", metavar="FILE", nargs="+", action="extend",
        help="gate every line of JSON Lines logs: files ('-' reads standard input) or folders "
             "(their *.jsonl and *.ndjson files, recursively)"),
    Arg("--json-summary", action="store_true",
        help="with --jsonl: print each log's summary as one JSON object"),
    "report",
    "fail_on",
    Arg("--show", type=int, default=SHOW_BLOCKED, metavar="N",
        help=f"with --jsonl: list the first N blocked line numbers (default {SHOW_BLOCKED})"),
    Arg("--jobs", type=int, default=None, metavar="N",
        help="with --jsonl: gate on N processes, same output in the same order (default: every "
             "core for a log of 8 MB or more; see gate/jobs.py)"),
    Arg("--dialect", choices=("auto", "open_responses", "agents_api"), default="auto",
        help="which rules: auto (an item with turn_id is an Agents API action, answered with a "
             "report and a tool_result), open_responses or agents_api"),
    "max_depth",
    "regex_timeout",
)


# --------------------------------------------------------------------------- input

Unreadable, _error_body, _read_text = common.Unreadable, common.error_body, common.read_text


def _schema_and_original(args) -> tuple[str | None, str | None]:
    return (_read_text(args.schema, "schema") if args.schema else None,
            _read_text(args.original, "original") if args.original else None)


def _reading(work, name: str, as_json: bool):
    """``(work(), None)``, or ``(None, EXIT_UNREADABLE)`` with the input's error printed."""
    from ..errors import WorkbenchError
    try:
        return work(), None
    except Unreadable as exc:
        _print_error(exc.body, name, as_json)
    except WorkbenchError as exc:
        _print_error(exc.to_body(), name, as_json)
    return None, EXIT_UNREADABLE


# --------------------------------------------------------------------------- output

_marks = common.marks
_GATE_LABELS = {"schema": "--schema", "original": "--original"}


def _print_error(body: dict, name: str, as_json: bool) -> None:
    common.print_error(body, name, command="gate", as_json=as_json, labels=_GATE_LABELS)


def _step_line(step: dict, m: dict) -> list[str]:
    mark = m[step["status"]]
    check = step["check"]
    rules = step["rules"]
    span = (f"rule {rules[0]}" if len(rules) == 1 else f"rules {rules[0]}–{rules[-1]}"
            if rules else "door 1, warns only")
    out = []
    if step["status"] == "skipped":
        out.append(f"  {mark} {check:<7} skipped: {step['note']}")
        return out
    if step["status"] == "pass":
        if check == "format" and "turn_id" in (step.get("found") or {}):
            what = "type, turn_id, call_id, name and the arguments object are in order"
        elif check == "format":
            what = "type, status, id, name, call_id and arguments are in order"
        elif check == "review":
            what = step.get("note") or "the tool's parameters are strict"
        elif check == "schema":
            who = f"tool {step['tool']}" if step.get("tool") else "the parameters schema"
            what = step.get("note") or f"the arguments fit {who}"
        else:
            n = len(step.get("differences") or [])
            what = ("same call as the original" +
                    (f" ({n} non-blocking difference{'s' if n != 1 else ''})" if n else ""))
        out.append(f"  {mark} {check:<7} {what} ({span})")
        if check == "diff":
            for d in step.get("differences") or []:
                out.append(f"              {d['field']}: {d['change']} — {d['note']}")
        if check == "review":
            for w in step.get("warnings") or []:
                out.append(f"              {w['pointer'] or '/':<20} {w['code']:<22} {w['message']}")
        return out
    out.append(f"  {mark} {check:<7} {step['reason']}")
    if check == "format" and step.get("code") == "arguments_parse":
        if "parse_error" in step and step["parse_error"].get("snippet"):
            out.append("              in the arguments string:")
            out.extend("              " + line for line in step["parse_error"]["snippet"].split("\n"))
    if check == "schema":
        for f in step.get("fail", []):
            out.append(f"              {f['path'] or '/':<20} {f['reason']:<22} {f.get('message', '')}")
    if check == "diff":
        for d in step.get("differences", []):
            flag = "blocking" if d["blocking"] else "not blocking"
            out.append(f"              {d['field'] or '(item)'}: {d.get('left', 'missing')} "
                       f"{m['arrow']} {d.get('right', 'missing')} ({flag})")
    return out


def format_report(result: dict, name: str, stream=None) -> str:
    m = _marks(stream or sys.stdout)
    lines = [f"gate: {name}"]
    for step in result["steps"]:
        lines.extend(_step_line(step, m))
    from ..jsontext import dumps_value
    if result["execute"]:
        lines.append(f"OK       {result['verdict']} — {result['reason']}")
        if result.get("function_call_output") is not None:
            lines.append("function_call_output to attach after running the tool (fill in output):")
            lines.append("  " + dumps_value(result["function_call_output"]).decode("utf-8"))
    else:
        lines.append(f"BLOCKED  {result['verdict']} — {result['reason']}")
    if result.get("dialect") == "agents_api":
        if result.get("report") is not None:
            lines.append("host validation report (door 2):")
            lines.append("  " + dumps_value(result["report"]).decode("utf-8"))
        if result.get("tool_result") is not None:
            lines.append("tool_result to send" + (" (fill in output):" if result["execute"] else ":"))
            lines.append("  " + dumps_value(result["tool_result"]).decode("utf-8"))
        else:
            lines.append(result.get("tool_result_note") or "no tool_result can be sent")
    env = result.get("envelope")
    if env:
        lines.append("")
        lines.append(env["message"])
        for c in env["calls"]:
            v = f" → {c['verdict']}" if c.get("verdict") else ""
            lines.append(f"  [{c['index']}] {c['pointer'] or '/'}  {c.get('name') or '?'}  "
                         f"call_id {c.get('call_id') or '?'}  ({c['dialect']}){v}")
        if env["calls"]:
            lines.append("  (gate one of them: save its JSON to a file and run workbench gate "
                         "FILE; workbench gate --json shows each call's JSON)")
    for w in result.get("warnings") or []:
        inside = " inside the arguments string" if w.get("in") == "arguments" else ""
        lines.append(f"warning: {w['message']} at {w.get('pointer') or '/'}{inside} "
                     f"(line {w.get('line')}, column {w.get('column')})")
    return "\n".join(lines)


# --------------------------------------------------------------------------- commands

def run(args) -> int:
    if args.jsonl is not None:
        if args.item is not None:
            common.usage_error("workbench gate", "give either ITEM or --jsonl FILE…, not both")
        return run_jsonl(args)
    if args.item is None:
        common.usage_error("workbench gate", "give an ITEM file ('-' for standard input) or "
                                             "--jsonl FILE…")
    from ..gate import Gate
    limits = common.limits(args)
    name = "standard input" if args.item == "-" else args.item
    # the text and a report name commands; --json is the API's object, in the API's words
    words = "api" if args.json else "cli"

    def work():
        item_text = _read_text(args.item, "item")
        schema_text, original_text = _schema_and_original(args)
        if not item_text.strip():
            raise Unreadable(_error_body("parse_error", "The item is empty", "item"))
        return Gate(schema_text, original_text, limits=limits).run(item_text,
                                                                   dialect=args.dialect,
                                                                   words=words)
    result, failed = _reading(work, name, args.json)
    if failed:
        return failed
    if args.report:
        from ..report import Case, Finding
        findings = [] if result["execute"] else [
            Finding(result["verdict"], "error", result["reason"], 1, 1)]  # the item's file
        cases = [Case(args.item, args.item, findings)]
        return common.write_report(args.report, cases, "gate", args.fail_on)
    if args.json:
        common.write_json(result)
    else:
        common.write_text(format_report(result, name) + "\n")
    return common.exit_for(not result["execute"], args.fail_on)


class _Progress:
    """Progress on standard error (a terminal only), for large files."""

    def __init__(self, f, total: int):
        self.f, self.total, self.last = f, total, 0.0

    def __call__(self, n: int) -> None:
        now = time.monotonic()
        if now - self.last < 0.25:
            return
        self.last = now
        try:
            pos = self.f.tell()
        except (OSError, ValueError):
            pos = 0
        pct = f"{100 * pos / self.total:5.1f}% · " if self.total else ""
        sys.stderr.write(f"\rgating… {pct}{n:,} lines")
        sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()


LOG_EXTENSIONS = (".jsonl", ".ndjson")


def run_jsonl(args) -> int:
    from ..gate import Gate
    limits = common.limits(args)
    paths = common.expand(args.jsonl, LOG_EXTENSIONS)
    if not paths:
        common.print_error(_error_body("file_not_found", "no .jsonl or .ndjson file in "
                                       + ", ".join(args.jsonl), "jsonl"), args.jsonl[0],
                           command="gate", as_json=args.json)
        return EXIT_UNREADABLE

    def work():
        schema_text, original_text = _schema_and_original(args)
        return schema_text, original_text, Gate(schema_text, original_text, limits=limits)
    opened, failed = _reading(work, common.display_name(paths[0]), args.json)
    if failed:
        return failed
    status = EXIT_OK
    cases: list | None = [] if args.report else None
    for path in paths:
        one = _gate_one_log(args, path, limits, *opened, cases)
        status = max(status, one)
    if cases is not None:
        reported = common.write_report(args.report, cases, "gate", args.fail_on)
        return EXIT_UNREADABLE if status == EXIT_UNREADABLE else reported
    return status


def _gate_one_log(args, path: str, limits, schema_text, original_text, gate, cases) -> int:
    """Gate one log: its per-line answers (``--json``) or report cases, then its summary
    (standard output as text; standard error with ``--json`` or ``--format``); the exit status."""
    from ..errors import WorkbenchError
    from ..gate import VERDICTS
    from ..gate.jobs import gate_log
    name = common.display_name(path)
    try:
        f = common.open_binary(path, "jsonl")
    except Unreadable as exc:
        _print_error(exc.body, name, args.json)
        return EXIT_UNREADABLE
    progress = None
    try:
        size = os.fstat(f.fileno()).st_size if f is not sys.stdin.buffer else 0
    except (OSError, ValueError):
        size = 0
    if sys.stderr.isatty() and (size >= PROGRESS_MIN_BYTES or f is sys.stdin.buffer):
        progress = _Progress(f, size)
    on_records = None
    if args.json:
        def on_records(records, _file=path):
            common.write_json_lines({"file": _file, **r} for r in records)
    elif cases is not None:
        def on_records(records, _file=path):
            cases.extend(_case(_file, r) for r in records)
    started = time.perf_counter()
    try:
        out = gate_log(f, gate, jobs=args.jobs, size=size, tools_text=schema_text,
                       original_text=original_text, limits=limits, dialect=args.dialect,
                       on_progress=progress, keep=max(10_000, args.show), on_records=on_records)
    except BrokenPipeError:
        raise
    except OSError as exc:  # the log could not be read to its end
        _print_error(common.cannot_open(exc, path, "jsonl").body, name, args.json)
        return EXIT_UNREADABLE
    except WorkbenchError as exc:  # a line over the bound, a worker lost
        _print_error(exc.to_body(), name, args.json)
        return EXIT_UNREADABLE
    finally:
        if progress is not None:
            progress.done()
        if f is not sys.stdin.buffer:
            f.close()
    seconds = time.perf_counter() - started
    counts, not_json, blocked = out["counts"], out["not_json"], out["blocked"]
    unchecked, blank = out["unchecked"], out["blank"]
    items = sum(counts.values())
    ordered = {v: counts[v] for v in VERDICTS if v in counts}
    summary = format_summary(name, ordered, not_json, blocked, blank, args.show, unchecked)
    timing = f"workbench gate: {name}: {out['lines']:,} lines in {seconds:.2f} s"
    if args.json_summary:
        common.write_json({
            "file": path, "lines": out["lines"], "items": items, "counts": ordered,
            "ok": counts.get("ok", 0), "blocked": len(blocked), "blocked_lines": blocked[:10_000],
            "not_json": len(not_json), "not_json_lines": not_json[:10_000],
            "unchecked": len(unchecked),
            "unchecked_lines": [{"line": n, "code": c} for n, c in unchecked[:10_000]],
            "blank_lines": blank})
        print(timing, file=sys.stderr)
    elif args.json or cases is not None:
        print(summary + "\n" + timing, file=sys.stderr)
    else:
        common.write_text(summary + "\n")
        print(timing, file=sys.stderr)
    return common.exit_for(bool(blocked or not_json or unchecked), args.fail_on)


def _case(path: str, record: dict):
    """The report case of one log line: no finding when ``ok``."""
    from ..gate.rules import AGENTS_RULE, RULE
    from ..report import Case, Finding
    from ..report.rules import GATE_LINES
    n, v = record["line"], record["verdict"]
    name = f"{path}:{n}" + (f" {record['call_id']}" if record.get("call_id") else "")
    if v == "ok":
        return Case(name, path)
    rule = RULE.get(v) or AGENTS_RULE.get(v)
    message = rule["text"] if rule else GATE_LINES.get(v, v)
    if record.get("code"):
        message += f" ({record['code']})"
    return Case(name, path, [Finding(v, "error", message, n, 1)])


def _line_list(numbers: list[int], show: int, more: str) -> str:
    shown = ", ".join(str(n) for n in numbers[:show])
    if len(numbers) > show:
        shown += f" {more} and {len(numbers) - show:,} more"
    return shown


def format_summary(name, counts, not_json, blocked, blank, show, unchecked=()) -> str:
    """The summary of one log (no time in it: the same log, the same text)."""
    m = _marks(sys.stdout)
    items = sum(counts.values())
    lines = [f"gate: {name}: {items:,} item{'s' if items != 1 else ''}"]
    width = max([len(v) for v in counts] + [8])
    for v, c in counts.items():
        mark = m["pass"] if v == "ok" else m["fail"]
        lines.append(f"  {mark} {v:<{width}} {c:>10,}")
    if not_json:
        lines.append(f"  {m['fail']} {'not JSON':<{width}} {len(not_json):>10,}   lines "
                     f"{_line_list(not_json, show, m['more'])}")
    if unchecked:
        lines.append(f"  {m['fail']} {'unchecked':<{width}} {len(unchecked):>10,}   lines "
                     f"{_line_list([n for n, _ in unchecked], show, m['more'])} "
                     f"({', '.join(sorted({c for _, c in unchecked}))})")
    if blank:
        lines.append(f"    {'blank':<{width}} {blank:>10,}   (skipped)")
    if blocked:
        lines.append(f"blocked: {len(blocked):,} item{'s' if len(blocked) != 1 else ''} — lines "
                     f"{_line_list(blocked, show, m['more'])}")
    else:
        lines.append("blocked: none" + (" (but some lines are not JSON)" if not_json else ""))
    return "\n".join(lines)
