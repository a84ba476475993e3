"""``workbench diff``: the semantic diff on the command line (the core of ``POST /api/diff``).

    workbench diff LEFT RIGHT [--patch | --merge-patch] [--ignore-order] [--match-key K]
                   [--ignore PATTERN]... [--providers [--keep PATTERN]...] [--tolerance T]
                   [--engine deepdiff] [--json]

Prints the change list (one change per line: ``+`` added, ``-`` removed, ``~`` replaced, ``→``
moved; values as exact JSON), or with ``--patch`` the RFC 6902 JSON Patch and with
``--merge-patch`` the RFC 7386 merge patch that turn LEFT into RIGHT.  Exit status 0 equal,
1 different, 2 when a file cannot be read or is not JSON.
"""

from __future__ import annotations

import sys

from . import common

HELP = "semantic diff: the change list, or an RFC 6902 / RFC 7386 patch"
DESCRIPTION = ("Compare two JSON documents: key order never matters, numbers compare by "
               "exact value, arrays are aligned (or compared as multisets).")
EPILOG = common.examples(
    "workbench diff before.json after.json",
    "workbench diff --patch before.json after.json > change.json-patch",
    "workbench diff --merge-patch before.json after.json",
    "workbench diff --ignore-order --ignore '$..id' --ignore '$..created_at' a.json b.json",
    "workbench diff --match-key call_id left.json right.json",
    "workbench diff --providers openai.json other.json   # ids, timestamps, usage ignored (listed)",
    "workbench diff --tolerance 1% run1.json run2.json",
    "workbench diff --json a.json b.json          # the same object as POST /api/diff",
) + """

--merge-patch (RFC 7386) cannot say everything a JSON Patch can:
  * null means "remove this member", so a member whose new value is null cannot be written:
    it is left out of the merge patch (applying it keeps the old value) and a note on standard
    error names it; an added or replaced object holding a null member loses that member too;
  * arrays are replaced whole: any change inside an array (one item added, moved or changed)
    is written as the whole right-hand array.
  Use --patch when those matter: the JSON Patch is exact.
With --ignore-order, --match-key, --ignore or JSON inside strings compared as JSON (the
default; --no-parse-strings turns it off), a patch turns LEFT into a document equal to RIGHT
under those same options.

exit status: 0 equal, 1 different, 2 unreadable input or not JSON."""


Arg, OneOf = common.Arg, common.OneOf

ARGUMENTS = (
    Arg("left", metavar="LEFT", help="the left document ('-': standard input)"),
    Arg("right", metavar="RIGHT", help="the right document ('-': standard input)"),
    OneOf(Arg("--patch", action="store_true", help="print the RFC 6902 JSON Patch"),
          Arg("--merge-patch", action="store_true",
              help="print the RFC 7386 merge patch (see below for what it cannot say)"),
          common.json_flag("diff")),
    Arg("--ignore-order", action="store_true", help="compare arrays as multisets"),
    Arg("--match-key", metavar="K", help="match array items by this key (call_id, id)"),
    Arg("--ignore", action="append", default=[], metavar="PATTERN",
        help="a JSONPath or JSON Pointer to leave out (repeatable), e.g. '$..id'"),
    Arg("--no-parse-strings", action="store_true",
        help="compare strings as text even when they hold JSON (arguments)"),
    Arg("--providers", action="store_true",
        help="compare two providers' answers: ignore what each mints for itself (ids, call_ids, "
             "timestamps, usage, system_fingerprint, encrypted reasoning), align output items "
             "by type and name; what was ignored goes to standard error"),
    Arg("--keep", action="append", default=[], metavar="PATTERN",
        help="with --providers: compare this preset pattern after all (repeatable)"),
    Arg("--tolerance", metavar="T",
        help="numbers this close are equal: 0.01 (absolute) or 1%% (relative)"),
    Arg("--engine", choices=["workbench", "deepdiff"], default="workbench",
        help="deepdiff: DeepDiff's own report as a second opinion (small documents)"),
    Arg("--max-changes", type=int, metavar="N", help="list at most N changes"),
    "max_depth",
)


def _where(c: dict) -> str:
    """The change's pointer; inside JSON held in a string, the pointer in that string too
    (``/output/0/arguments ▸ /days``)."""
    where = c["pointer"] or "/"
    if c.get("in_string") and c.get("inner_pointer") is not None:
        where += " ▸ " + (c["inner_pointer"] or "/")
    return where


def change_lines(changes: list[dict], paint) -> list[str]:
    out = []
    for c in changes:
        op = c["op"]
        if op == "add":
            out.append(paint(f"+ {_where(c)}  {c.get('right', '')}", "green"))
        elif op == "remove":
            out.append(paint(f"- {_where(c)}  {c.get('left', '')}", "red"))
        elif op == "move":
            out.append(paint(f"→ {c.get('from', c['pointer']) or '/'} → {c.get('to') or '/'}  "
                             f"{c.get('left', '')}", "cyan"))
        else:
            out.append(paint(f"~ {_where(c)}  {c.get('left', '')} → {c.get('right', '')}",
                             "yellow"))
    return out


def _pretty(value) -> str:
    """A patch as indented JSON, numbers exactly as written (the format core on its text)."""
    from ..jsontext import dumps_value
    return _pretty_text(dumps_value(value).decode("utf-8"))


def _pretty_text(text: str) -> str:
    from ..format import format_text
    return format_text(text, 2)["formatted"]


def merge_patch_of(result: dict):
    """The merge patch's text and its notes from the diff core's answer."""
    if "merge_patch_text" not in result:
        raise RuntimeError("the diff core gives no merge_patch")
    return result["merge_patch_text"], result.get("merge_patch_notes") or []


def run(args) -> int:
    from ..diff import handle
    from ..errors import WorkbenchError
    limits = common.limits(args)
    names = {"left": common.display_name(args.left), "right": common.display_name(args.right)}
    if args.left == common.STDIN and args.right == common.STDIN:
        common.print_error(common.error_body("bad_request", "Only one of LEFT and RIGHT can be "
                                             "standard input", None), "workbench diff")
        return common.EXIT_UNREADABLE
    try:
        left = common.read_text(args.left, "left")
        right = common.read_text(args.right, "right")
        body = {"left": left, "right": right, "ignore_order": args.ignore_order,
                "ignore_paths": args.ignore, "parse_strings": not args.no_parse_strings,
                "view": False}
        if args.match_key:
            body["match_key"] = args.match_key
        if args.providers:
            body["preset"] = "providers"
            body["preset_keep"] = args.keep
        if args.tolerance:
            body["tolerance"] = args.tolerance
        if args.engine != "workbench":
            body["engine"] = args.engine
        if args.merge_patch:
            body["merge_patch"] = True      # only sent when asked (it can be the whole array)
        result = handle(body, limits)
    except common.Unreadable as exc:
        field = exc.body["error"].get("field")
        common.print_error(exc.body, names.get(field, "diff"), as_json=args.json)
        return common.EXIT_UNREADABLE
    except WorkbenchError as exc:
        common.print_error(exc.to_body(), names.get(exc.field, "workbench diff"), as_json=args.json,
                           labels={**names, "ignore_paths": "--ignore", "match_key": "--match-key",
                                   "tolerance": "--tolerance", "preset_keep": "--keep",
                                   "engine": "--engine"})
        return common.EXIT_UNREADABLE
    status = common.EXIT_OK if result["equal"] else common.EXIT_FOUND
    if args.providers and not args.json:
        for ig in [i for i in result.get("ignored") or [] if i.get("count")]:  # nothing hidden silently
            print(f"workbench diff: ignored {ig.get('pattern')} ({ig.get('count', 0)} "
                  f"place{'s' if ig.get('count') != 1 else ''}; --keep '{ig.get('pattern')}' "
                  "compares it)", file=sys.stderr)
    if args.engine == "deepdiff" and not args.json:
        for d in result.get("deepdiff") or []:
            print(f"{d.get('type')}\t{d.get('path')}\t{d.get('pointer')}")
        return status
    if args.json:
        common.write_json(result)
    elif args.patch:
        common.write_text(_pretty(result["patch"]) + "\n")
    elif args.merge_patch:
        text, notes = merge_patch_of(result)
        if text is not None:        # None: too deep to write (a note says so)
            common.write_text(_pretty_text(text) + "\n")
        for n in notes:
            where = n.get("pointer") or "/"
            print(f"workbench diff: note: {where}: {n.get('message') or n.get('reason')}",
                  file=sys.stderr)
    else:
        paint = common.painter(sys.stdout)
        common.write_text("".join(line + "\n" for line in change_lines(result["changes"], paint)))
    return status
