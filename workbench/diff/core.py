"""Diff: compare two JSON documents semantically; ``POST /api/diff``, the ``/diff`` page and
``workbench diff`` (through :func:`diff_texts`).

Semantics
---------
* Object key order never matters.  Numbers compare by exact value (``int``/``Decimal`` from
  the exact parser): ``12345678901234567890`` ≠ ``12345678901234567891``; ``1.0`` = ``1``
  (the different spelling is reported as a *note*, not a change).  A type change (``1`` vs
  ``"1"``, ``1`` vs ``true``) is a change.  ``tolerance`` (absolute ``0.01``, relative ``"1%"``
  or ``{"absolute", "relative"}``, as jd's precision) makes numbers that close a note too.
* Arrays are ordered and aligned like a text diff (an item inserted at the front is one
  ``add``); an item that moved is one ``move``; equal values written differently stay paired
  by position (``[0, -0.0]`` / ``[-0.0, 0]``: two notes, no move).  ``ignore_order`` compares
  arrays as multisets; ``match_key`` pairs array items that are objects by that member.
* ``ignore_paths``: JSONPath-like (``$..id``) or pointer-like (``/output/*/id``) patterns
  whose members are not compared (see :mod:`.ignore`); ``preset: "providers"`` adds the
  provider-minted fields and aligns output items by type and name (see :mod:`.presets`);
  over two answers of different dialects it compares their neutral forms (see :mod:`.across`:
  ``across`` in the answer, ``left_source``/``right_source`` on each change).
  ``ignored`` in the answer counts, per pattern, the members it hid because they differed.
* ``parse_strings`` (default on): two strings that both hold a JSON object or array (an
  ``arguments`` field…) are compared as parsed JSON — whitespace inside is no change.  A change
  found inside is reported with ``pointer`` = the string's real location, ``in_string: true``
  and ``inner_pointer`` = the location inside the string's JSON (one level).  The patch
  replaces the whole string.
* ``engine: "deepdiff"``: DeepDiff's own report instead (see :mod:`.engines`).

Output
------
``changes``: ``op`` (add/remove/replace/move); ``pointer`` (in right for ``add``, in left
otherwise; for ``move`` the source, ``from``/``to``); ``right_pointer`` when a replaced value
sits elsewhere in right; ``left``/``right``: exact JSON text as written; ``left_line``/
``right_line`` in the input; ``seg``: the view segment that shows it.  ``patch``: RFC 6902
operations turning left into right exactly (with ``ignore_order``/ignored paths: into a document
equal to right under those options); where the operations for a value would outweigh the value
itself it is one ``replace`` (``patch_replaced`` lists those pointers), so the patch never grows
past about the size of right.  With ``merge_patch: true`` (only then: for a changed array it is
the whole right array) ``merge_patch_text``: the same as an RFC 7386 merge patch, written once,
with ``merge_patch_notes`` where one cannot say it (see :mod:`.patch`).  ``equal`` is true when there
is no change; numbers written differently, values within the tolerance and equal JSON-in-strings
are *notes*: they still get a ``replace`` in the patch (so it reproduces right's text), and
``patch_note`` then says that the patch only rewrites them.  ``suggest``: a ``match_key`` that
would pair reordered items, with the number of changes it gives.  ``warnings``: the first
DIFF_MAX_WARNINGS of each side, ``warning_count`` all.

Bounds: every phase (parse, alignment, walk, view, patches, texts, DeepDiff) runs under the
request's work deadline (cooperative checks, and the watchdog around library loops); the change
list is capped at ``max_changes`` (``truncated``), each change text at DIFF_MAX_TEXT
(``left_truncated``/``right_truncated``), the merge patch's notes at DIFF_MERGE_MAX_NOTES.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import WorkbenchError
from ..fields import Field, Fields
from ..jsontext import check_depth, dumps_value, parse
from ..limits import DEFAULT_LIMITS, Limits
from ..limits import DIFF_MAX_WARNINGS as MAX_WARNINGS
from ..runtime import Deadline, collector_paused
from . import across
from .engines import deepdiff_report
from .numtext import NumberTexts
from .options import Options, read_options
from .patch import Export, merge_patch, patch_ops
from .render import Render
from .suggest import suggest_match_key
from .texts import SourceTexts, ValueTexts, public
from .walk import PROVEN_DEPTH, Differ

REQUEST = Fields(
    Field("left", required=True, text=True),
    Field("right", required=True, text=True),
    Field("ignore_order", bool, default=False),
    Field("match_key", doc="match array items by this key (call_id, id)"),
    Field("ignore_paths", object, doc="JSONPath or pointer patterns to ignore",
          schema={"type": "array", "items": {"type": "string"}}),
    Field("parse_strings", bool, default=True, doc="compare JSON inside strings (arguments) as JSON"),
    Field("preset", object, doc="'providers': ignore provider-minted fields (ids, call_ids, "
          "timestamps, usage, system_fingerprint, encrypted reasoning), align output items by "
          "type and name, compare arguments as JSON", schema={"enum": ["providers", None]}),
    Field("preset_keep", object, doc="patterns of the preset to compare after all",
          schema={"type": "array", "items": {"type": "string"}}),
    Field("tolerance", object, doc="numbers this close are equal (a note): 0.01 (absolute), "
          "\"1%\" (relative) or {absolute, relative}",
          schema={"oneOf": [{"type": "number", "minimum": 0}, {"type": "string"},
                            {"type": "object", "properties": {
                                "absolute": {"type": "number", "minimum": 0},
                                "relative": {"type": "number", "minimum": 0}}}]}),
    Field("engine", default="workbench", doc="'workbench' (default) or 'deepdiff' (DeepDiff's "
          "own report, for a second opinion; refused above its size limit)",
          schema={"enum": ["workbench", "deepdiff"]}),
    Field("view", bool, default=True, doc="also return both documents formatted and line-aligned"),
    Field("merge_patch", bool, default=False, doc="also return the RFC 7386 merge patch "
          "(merge_patch_text, merge_patch_notes, merge_patch_exact); for a changed array it is "
          "the whole right array, so it is sent only when asked"),
)


def _too_deep():
    return WorkbenchError("too_deep", "The documents nest too deeply to compare here", status=422)


def compare(left, right, opts: Options, *, limits: Limits = DEFAULT_LIMITS, view=False,
            depth_check=None, texts: NumberTexts | None = None, deadline: Deadline | None = None,
            export: Export | None = None):
    """The diff of two exact values: ``(node, render, patch ops, ignore)``."""
    texts = texts if texts is not None else NumberTexts()
    export = export or Export(texts)
    ignore = opts.ignore()
    deadline = deadline or Deadline(limits.work_timeout, what="The comparison")
    differ = Differ(ignore_order=opts.ignore_order, match_key=opts.match_key, ignore=ignore,
                    parse_strings=opts.parse_strings, max_depth=limits.max_depth,
                    deadline=deadline,
                    match_items=bool(opts.preset), tolerance=opts.tolerance,
                    parse_string=lambda text, depth: texts.parse_string(parse, text, depth))
    node = differ.diff(left, right)
    # the walk and its canonical writes (orjson refuses more than 254 levels) may have proven the
    # depth already: then a limit of PROVEN_DEPTH or more is settled without a walk of its own
    if depth_check is not None and not (differ.depth_proven and limits.max_depth >= PROVEN_DEPTH):
        depth_check()
    deadline.check_now()
    render = Render(max_changes=limits.max_changes, view=view,
                    reuse_equal_text=ignore is None or ignore.names_only,
                    texts=texts, tick=deadline.check)
    render.run(node, left, right)
    deadline.check_now()
    ops: list = []
    render.patch_replaced = patch_ops(node, "", ops, right, deadline.check) if node is not None else []
    return node, render, export.patch(ops), ignore


def _ignored(render: Render, ignore, opts: Options) -> list:
    if ignore is None:
        return []
    what = dict(opts.preset_fields)
    n_user = len(opts.ignore_paths)
    out = []
    for k, pattern in enumerate(ignore.sources):
        count, pointers = render.hits.get(k, (0, []))
        rec = {"pattern": pattern, "count": count, "pointers": pointers,
               "preset": k >= n_user}
        if k >= n_user:
            rec["what"] = what.get(pattern, "")
        out.append(rec)
    return out


def _result(node, render, patch, ignore, opts, left, right, export, records_texts,
            merge=True, tick=None) -> dict:
    changes = [public(c, records_texts) for c in render.changes]
    notes = [public(n, records_texts) for n in render.notes]
    for n in notes:
        n["message"] = {"number": "the same number written differently",
                        "tolerance": "numbers within the tolerance",
                        }.get(n["kind"], "the same JSON inside the string, written differently")
    out = {"equal": render.count == 0, "changes": changes, "patch": patch}
    if render.patch_replaced:
        out["patch_replaced"] = render.patch_replaced
    if merge:
        patch_value, merge_notes = merge_patch(node, right, tick)
        out.update({"merge_patch": export.value(patch_value), "merge_patch_notes": merge_notes,
                    "merge_patch_exact": not merge_notes})
        if merge_notes.total > len(merge_notes):
            out["merge_patch_note_count"] = merge_notes.total
    out.update({"summary": render.summary, "count": render.count,
                "truncated": render.count > len(changes), "notes": notes,
                "note_count": render.note_count, "ignored": _ignored(render, ignore, opts)})
    if render.count == 0 and patch:
        out["patch_note"] = (f"No changes: the {len(patch)} patch operation"
                             f"{'s' if len(patch) != 1 else ''} only rewrite"
                             f"{'' if len(patch) != 1 else 's'} values written differently "
                             "(see the notes) so that the patch gives right's text exactly")
    return out


def diff_values(left, right, *, ignore_order=False, match_key=None, ignore_paths=(),
                parse_strings=True, limits: Limits = DEFAULT_LIMITS, merge_patch=False,
                **more) -> dict:
    """Compare two parsed values (int/Decimal numbers, from :func:`workbench.jsontext.parse`).

    Returns ``{"equal", "changes", "patch", "summary", "count", "truncated", "notes",
    "ignored"}`` (and the ``merge_patch`` fields with ``merge_patch=True``: for a changed
    array the merge patch is the whole right array, which costs a copy); each change is
    ``{op, pointer, left?, right?, ...}`` with ``left``/``right`` the compact JSON text of each
    side.  ``more``: ``preset``, ``preset_keep``, ``tolerance`` as in the request."""
    opts = read_options({"ignore_order": ignore_order, "match_key": match_key,
                         "ignore_paths": list(ignore_paths or ()), "parse_strings": parse_strings,
                         **more})
    texts = NumberTexts()
    export = Export(texts, known=False)     # values parsed elsewhere: their texts are unknown
    try:
        node, render, patch, ignore = compare(left, right, opts, limits=limits, texts=texts,
                                              export=export)
        return _result(node, render, patch, ignore, opts, left, right, export, ValueTexts(export),
                       merge=merge_patch)
    except RecursionError:
        raise _too_deep() from None


def diff_texts(left_text: str, right_text: str, *, limits: Limits = DEFAULT_LIMITS,
               **options) -> dict:
    """Compare two JSON texts: the answer of ``POST /api/diff`` (for ``workbench diff``).

    ``options`` are the request's fields: ``ignore_order``, ``match_key``, ``ignore_paths``,
    ``parse_strings``, ``preset`` ("providers"), ``preset_keep``, ``tolerance``, ``engine``
    ("workbench" | "deepdiff") and ``view`` (default False here: no side-by-side view).
    With ``merge_patch=True``, ``merge_patch`` is a value here (exact numbers); ``handle``
    sends only its text (``merge_patch_text``)."""
    options.setdefault("view", False)
    out = handle({"left": left_text, "right": right_text, **options}, limits)
    if out.get("merge_patch_text") is not None:      # a value here, not the answer's text
        out["merge_patch"] = parse(out["merge_patch_text"], field=None, warnings=False).value
    return out


# --------------------------------------------------------------------------- the endpoint

def _check_size(text: str, field: str, limits: Limits) -> None:
    limit = limits.diff_max_bytes
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise WorkbenchError("too_large", f"The {field} document is larger than the diff limit of "
                             f"{limit:,} bytes (set WORKBENCH_DIFF_MAX_BYTES to change it)",
                             status=413, field=field, limit=limit)


def handle(body: dict, limits: Limits) -> dict:
    """``POST /api/diff``: ``left``, ``right`` (JSON text) and the options of :data:`REQUEST`."""
    # the walk over two large trees allocates much and builds no cycles: the collector is
    # paused for the whole request (see runtime.collector_paused)
    with collector_paused():
        try:
            return _handle(body, limits)
        except RecursionError:
            raise _too_deep() from None


def _handle(body: dict, limits: Limits) -> dict:
    v = REQUEST.read(body)
    left_text, right_text, want_view = v["left"], v["right"], v["view"]
    opts = read_options(body)
    _check_size(left_text, "left", limits)
    _check_size(right_text, "right", limits)
    deadline = Deadline(limits.work_timeout, what="The comparison")
    texts = NumberTexts()
    with deadline.interrupting():       # the parses and their warnings are library-like loops
        # only the listed warnings are placed (placing is Python work per warning); the count has all
        lparsed = parse(left_text, field="left", max_depth=limits.max_depth, check_depth=False,
                        warning_limit=MAX_WARNINGS)
        rparsed = parse(right_text, field="right", max_depth=limits.max_depth, check_depth=False,
                        warning_limit=MAX_WARNINGS)
        left = texts.decode(left_text, lparsed.value)
        right = texts.decode(right_text, rparsed.value)
    # the first DIFF_MAX_WARNINGS of each side (2,000 distinct 64-bit ids are 2,000 warnings:
    # more of the answer than the changes); warning_count has all
    warnings = ([{**w, "field": "left"} for w in lparsed.warnings[:MAX_WARNINGS]]
                + [{**w, "field": "right"} for w in rparsed.warnings[:MAX_WARNINGS]])
    warning_count = lparsed.warning_count + rparsed.warning_count
    if opts.engine == "deepdiff":
        check_depth(lparsed, limits.max_depth, "left")
        check_depth(rparsed, limits.max_depth, "right")
        out = deepdiff_report(left, right, opts, limits, deadline, Export(texts))
        out["warnings"] = warnings
        out["warning_count"] = warning_count
        out["options"] = opts.public()
        return out

    def depth_check():      # skipped when the diff's own canonical writes proved the depth
        check_depth(lparsed, limits.max_depth, "left")
        check_depth(rparsed, limits.max_depth, "right")

    export = Export(texts)
    deadline.check_now()
    # the providers preset over two answers of different dialects: their neutral forms
    pair = across.pair(left, right, texts, limits.max_depth) if opts.preset else None
    if pair is not None:
        depth_check()
        left, right = pair.left.value, pair.right.value
        # the neutral form holds nothing a provider mints (and arguments are parsed there: the
        # preset's patterns would reach inside them), so only the user's patterns apply
        opts = replace(opts, preset_fields=[])
        depth_check = None
    node, render, patch, ignore = compare(left, right, opts, limits=limits, view=want_view,
                                          depth_check=depth_check, texts=texts, deadline=deadline,
                                          export=export)
    source = SourceTexts(lparsed, rparsed, render.changes + render.notes, export) \
        if pair is None else ValueTexts(export)
    deadline.check_now()
    result = _result(node, render, patch, ignore, opts, left, right, export, source,
                     merge=v["merge_patch"], tick=deadline.check)
    if pair is not None:
        across.annotate(result["changes"] + result["notes"], pair, lparsed, rparsed)
        result["across"] = across.answer(pair, lparsed, rparsed, export)
    result["patch_text"] = _patch_text(patch, deadline)
    if v["merge_patch"]:
        # asked for (``merge_patch: true``) and sent once, as its text: for a changed array the
        # merge patch is the whole right array
        value = result.pop("merge_patch")
        try:
            result["merge_patch_text"] = dumps_value(value).decode("utf-8", "surrogatepass")
        except RecursionError:      # deeper than the writers go: the JSON Patch is the answer
            result["merge_patch_text"] = None
            result["merge_patch_exact"] = False
            result["merge_patch_notes"] = [{"pointer": "", "reason": "too_deep", "message":
                                            "the merge patch nests too deeply to be written"}]
    result["warnings"] = warnings
    result["warning_count"] = warning_count
    result["exact_text"] = source.exact if pair is None else {"left": False, "right": False}
    result["options"] = opts.public()
    if pair is None and ignore is None and opts.match_key is None and node is not None:
        suggestion = suggest_match_key(node, opts, limits, deadline, render.count)
        if suggestion is not None:
            result["suggest"] = suggestion
    if want_view:
        result["view"] = render.view_result()
    deadline.check_now()
    return result


def _patch_text(patch: list, deadline: Deadline) -> str:
    """The JSON Patch as text, one operation per line."""
    if not patch:
        return "[]"
    lines = []
    for op in patch:
        deadline.check()
        lines.append("  " + dumps_value(op).decode("utf-8", "surrogatepass"))
    return "[\n" + ",\n".join(lines) + "\n]"
