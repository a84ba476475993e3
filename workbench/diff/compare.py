"""Diff: compare two JSON documents semantically; ``POST /api/diff`` and the ``/diff`` page.

Semantics
---------
* Object key order never matters.  Numbers compare by exact value (``int``/``Decimal`` from
  the exact parser): ``12345678901234567890`` ≠ ``12345678901234567891``; ``1.0`` = ``1``
  (the different spelling is reported as a *note*, not a change).  A type change (``1`` vs
  ``"1"``, ``1`` vs ``true``) is a change.
* Arrays are ordered and aligned like a text diff (an item inserted at the front is one
  ``add``); an item that moved is one ``move``.  ``ignore_order`` compares arrays as
  multisets; ``match_key`` pairs array items that are objects by that member (``call_id``…).
* ``ignore_paths``: JSONPath-like (``$..id``) or pointer-like (``/output/*/id``) patterns
  whose members are not compared (see :mod:`diff_paths`).
* ``parse_strings`` (default on): two strings that both hold a JSON object or array (an
  ``arguments`` field…) are compared as parsed JSON — whitespace inside is no change.  A change
  found inside is reported with ``pointer`` = the string's real location, ``in_string: true``
  and ``inner_pointer`` = the location inside the string's JSON (one level: strings inside
  that JSON compare as strings).  The patch replaces the whole string.

Output
------
``changes`` entries: ``op`` (add/remove/replace/move); ``pointer`` (in right for ``add``, in
left otherwise; for ``move`` the source, with ``from`` = source and ``to`` = destination in
right); ``right_pointer`` when a replaced value sits elsewhere in right; ``left``/``right``:
exact JSON text as written; ``left_line``/``right_line`` in the input text; ``seg``: the view
segment that shows it.  ``patch``: RFC 6902 operations turning left into right exactly (with
``ignore_order``/``ignore_paths``: into a document equal to right under those options).
Numbers written differently and equal JSON-in-strings also get a ``replace`` in the patch
(so it reproduces right's text) but count as notes, not changes.
"""

from __future__ import annotations

from decimal import Decimal

import orjson

from .walk import Differ, patch_ops
from .ignore import Ignore
from .render import Render
from ..errors import WorkbenchError, bad_request
from ..fields import Field, Fields
from ..jsontext import dumps_value
from ..limits import DEFAULT_LIMITS, Limits
from ..jsontext import check_depth, locate_many, parse
from ..runtime import collector_paused

MAX_TEXT = 100_000          # characters of one side's JSON text in a change
LOCATE_LIMIT = 2_000_000    # characters: larger documents give value texts, not spans


def _options(ignore_order, match_key, ignore_paths, parse_strings):
    if not isinstance(ignore_order, bool):
        raise bad_request("'ignore_order' must be true or false", field="ignore_order",
                          code="bad_type")
    if not isinstance(parse_strings, bool):
        raise bad_request("'parse_strings' must be true or false", field="parse_strings",
                          code="bad_type")
    if match_key is not None and not isinstance(match_key, str):
        raise bad_request("'match_key' must be a string (a member name such as call_id)",
                          field="match_key", code="bad_type")
    if match_key is not None:
        match_key = match_key.strip() or None
    if isinstance(ignore_paths, str):      # the plain form: one pattern per line
        ignore_paths = [p for p in ignore_paths.splitlines() if p.strip()]
    if not isinstance(ignore_paths, (list, tuple)) or not all(isinstance(p, str) for p in ignore_paths):
        raise bad_request("'ignore_paths' must be a list of strings (patterns such as $..id or "
                          "/output/*/id)", field="ignore_paths", code="bad_type")
    ignore_paths = [p for p in ignore_paths if p.strip()]
    return ignore_order, match_key, (Ignore(ignore_paths) if ignore_paths else None), parse_strings


def _export(value):
    """A value for the patch: a decimal whose text looks like an integer (``12.3e1`` is
    Decimal('123')) keeps a decimal point so it stays a non-integer number."""
    t = type(value)
    if t is Decimal:
        if value.is_finite() and value.as_tuple().exponent == 0:
            return orjson.Fragment(str(value) + ".0")
        return value
    if t is dict:
        out = None
        for k, v in value.items():
            tv = type(v)
            if tv is dict or tv is list or tv is Decimal:
                nv = _export(v)
                if nv is not v:
                    if out is None:
                        out = dict(value)
                    out[k] = nv
        return value if out is None else out
    if t is list:
        out = None
        for n, v in enumerate(value):
            tv = type(v)
            if tv is dict or tv is list or tv is Decimal:
                nv = _export(v)
                if nv is not v:
                    if out is None:
                        out = list(value)
                    out[n] = nv
        return value if out is None else out
    return value


def _export_patch(ops: list) -> list:
    for op in ops:
        if "value" in op:
            try:
                op["value"] = _export(op["value"])
            except RecursionError:
                pass
    return ops


def _compact(value) -> str:
    text = dumps_value(_safe_export(value)).decode("utf-8", "surrogatepass")
    return text


def _safe_export(value):
    try:
        return _export(value)
    except RecursionError:
        return value


def compare(left, right, *, ignore_order=False, match_key=None, ignore=None,
            parse_strings=True, limits: Limits = DEFAULT_LIMITS, view=False, depth_check=None):
    differ = Differ(ignore_order=ignore_order, match_key=match_key, ignore=ignore,
                    parse_strings=parse_strings, max_depth=limits.max_depth,
                    timeout=limits.work_timeout)
    node = differ.diff(left, right)
    # the canonical writes of the whole roots prove a depth of at most 254 (orjson's limit), which
    # settles only limits of 254 or more
    if depth_check is not None and not (differ.root_proven and limits.max_depth >= 254):
        depth_check()
    render = Render(max_changes=limits.max_changes, view=view, reuse_equal_text=ignore is None)
    render.run(node, left, right)
    ops: list = []
    if node is not None:
        patch_ops(node, "", ops)
    return node, render, _export_patch(ops)


def _public(rec: dict, texts) -> dict:
    """The public form of a change or note record (texts: callable giving JSON text)."""
    ctx = rec["_ctx"]
    lp, rp = rec["_lp"], rec["_rp"]
    out = {k: v for k, v in rec.items() if not k.startswith("_")}
    op = rec.get("op")
    if ctx is None:
        out["pointer"] = rp if op == "add" else lp
        if op == "replace" and rp != lp:
            out["right_pointer"] = rp
    else:
        out["pointer"] = ctx.outer_rp if op == "add" else ctx.outer_lp
        out["in_string"] = True
        out["inner_pointer"] = rp if op == "add" else lp
        if op == "replace" and rp != lp:
            out["right_inner_pointer"] = rp
        if op == "move":
            out["from"], out["to"] = lp, rp   # inside the string's JSON
    if op != "add":
        out.update(texts("left", rec))
    if op != "remove":
        out.update(texts("right", rec))
    # keep the documented key order: op, pointer first
    ordered = {"op": out.pop("op")} if "op" in out else {}
    ordered["pointer"] = out.pop("pointer")
    ordered.update(out)
    return ordered


def _value_texts(side: str, rec: dict) -> dict:
    value = rec["_lv"] if side == "left" else rec["_rv"]
    text = _compact(value)
    if len(text) > MAX_TEXT:
        return {side: text[:MAX_TEXT], side + "_truncated": True}
    return {side: text}


def diff_values(left, right, *, ignore_order=False, match_key=None, ignore_paths=(),
                parse_strings=True, limits: Limits = DEFAULT_LIMITS) -> dict:
    """Compare two parsed values (int/Decimal numbers, from :mod:`workbench.parse`).

    Returns ``{"equal", "changes", "patch", "summary", "count", "truncated", "notes"}``;
    each change is ``{op, pointer, left?, right?, ...}`` with ``left``/``right`` the compact
    JSON text of each side (see the module docstring for pointers inside JSON strings)."""
    ignore_order, match_key, ignore, parse_strings = _options(
        ignore_order, match_key, list(ignore_paths or ()), parse_strings)
    try:
        node, render, patch = compare(left, right, ignore_order=ignore_order, match_key=match_key,
                                      ignore=ignore, parse_strings=parse_strings, limits=limits)
    except RecursionError:
        raise WorkbenchError("too_deep", "The documents nest too deeply to compare here",
                             status=422) from None
    changes = [_public(c, _value_texts) for c in render.changes]
    notes = [_public(n, _value_texts) for n in render.notes]
    return {"equal": render.count == 0, "changes": changes, "patch": patch,
            "summary": render.summary, "count": render.count,
            "truncated": render.count > len(changes), "notes": notes}


# --------------------------------------------------------------------------- the endpoint



class _Texts:
    """Exact JSON text and input line of the values the changes name, found in one pass per
    document (or per JSON string) with :func:`locate`.

    A document larger than ``LOCATE_LIMIT`` characters is not read a second time: its values'
    text is written from the exact parse (numbers from their ``int``/``Decimal``, which keeps
    ``1.10`` but writes ``1e2`` as ``1E+2``; strings with only the escapes JSON needs) and
    no input line is given.  The response says which with ``exact_text``."""

    def __init__(self, lparsed, rparsed, records):
        self.docs = {"left": lparsed, "right": rparsed}
        want: dict = {}          # (side, source id) -> set of pointers
        sources: dict = {}
        for rec in records:
            ctx = rec["_ctx"]
            for side, p in (("left", rec["_lp"]), ("right", rec["_rp"])):
                if p is None:
                    continue
                if ctx is None:
                    key = (side, None)
                    sources[key] = self.docs[side].text
                    want.setdefault(key, set()).add(p)
                else:
                    key = (side, id(ctx))
                    sources[key] = (ctx.lparsed if side == "left" else ctx.rparsed).text
                    want.setdefault(key, set()).add(p)
                    outer = ctx.outer_lp if side == "left" else ctx.outer_rp
                    want.setdefault((side, None), set()).add(outer)
                    sources[(side, None)] = self.docs[side].text
        self.exact = {side: len(self.docs[side].text) <= LOCATE_LIMIT for side in ("left", "right")}
        self.spans = {key: locate_many(sources[key], ptrs) for key, ptrs in want.items()
                      if key[1] is not None or self.exact[key[0]]}
        self.sources = sources

    def __call__(self, side: str, rec: dict) -> dict:
        ctx = rec["_ctx"]
        p = rec["_lp"] if side == "left" else rec["_rp"]
        key = (side, None if ctx is None else id(ctx))
        span = self.spans.get(key, {}).get(p)
        out: dict = {}
        if span is None:
            out.update(_value_texts(side, rec))
        else:
            text = self.sources[key][span.start:span.end]
            if len(text) > MAX_TEXT:
                out[side] = text[:MAX_TEXT]
                out[side + "_truncated"] = True
            else:
                out[side] = text
        # the line in the input document
        if ctx is None:
            where = span
        else:
            outer = ctx.outer_lp if side == "left" else ctx.outer_rp
            where = self.spans.get((side, None), {}).get(outer)
        if where is not None:
            out[side + "_line"] = self.docs[side].lines.line_col(where.start)[0]
        return out


def _check_size(text: str, field: str, limits: Limits) -> None:
    limit = limits.diff_max_bytes
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise WorkbenchError("too_large", f"The {field} document is larger than the diff limit of "
                             f"{limit:,} bytes (set WORKBENCH_DIFF_MAX_BYTES to change it)",
                             status=413, field=field, limit=limit)


REQUEST = Fields(
    Field("left", required=True, text=True),
    Field("right", required=True, text=True),
    Field("ignore_order", bool, default=False),
    Field("match_key", doc="match array items by this key (call_id, id)"),
    Field("ignore_paths", object, doc="JSONPath or pointer patterns to ignore",
          schema={"type": "array", "items": {"type": "string"}}),
    Field("parse_strings", bool, default=True, doc="compare JSON inside strings (arguments) as JSON"),
    Field("view", bool, default=True, doc="also return both documents formatted and line-aligned"),
)


def handle(body: dict, limits: Limits) -> dict:
    """``POST /api/diff``: ``left``, ``right`` (JSON text), ``ignore_order`` (false),
    ``match_key``, ``ignore_paths`` (list of patterns), ``parse_strings`` (true),
    ``view`` (true: also return the formatted, line-aligned documents)."""
    # the walk over two large trees allocates much and builds no cycles: the collector is
    # paused for the whole request (see parse.collector_paused)
    with collector_paused():
        try:
            return _handle(body, limits)
        except RecursionError:
            raise WorkbenchError("too_deep", "The documents nest too deeply to compare here",
                                 status=422) from None


def _handle(body: dict, limits: Limits) -> dict:
    v = REQUEST.read(body)
    left_text, right_text = v["left"], v["right"]
    ignore_order, parse_strings, want_view = v["ignore_order"], v["parse_strings"], v["view"]
    ignore_order, match_key, ignore, parse_strings = _options(
        ignore_order, body.get("match_key"), body.get("ignore_paths") or [], parse_strings)
    _check_size(left_text, "left", limits)
    _check_size(right_text, "right", limits)
    lparsed = parse(left_text, field="left", max_depth=limits.max_depth, check_depth=False)
    rparsed = parse(right_text, field="right", max_depth=limits.max_depth, check_depth=False)

    def depth_check():      # skipped when the diff's own canonical writes proved the depth
        check_depth(lparsed, limits.max_depth, "left")
        check_depth(rparsed, limits.max_depth, "right")

    node, render, patch = compare(lparsed.value, rparsed.value, ignore_order=ignore_order,
                                  match_key=match_key, ignore=ignore, parse_strings=parse_strings,
                                  limits=limits, view=want_view, depth_check=depth_check)
    texts = _Texts(lparsed, rparsed, render.changes + render.notes)
    changes = [_public(c, texts) for c in render.changes]
    notes = [_public(n, texts) for n in render.notes]
    for n in notes:
        n["message"] = ("the same number written differently" if n["kind"] == "number"
                        else "the same JSON inside the string, written differently")
    warnings = ([{**w, "field": "left"} for w in lparsed.warnings]
                + [{**w, "field": "right"} for w in rparsed.warnings])
    patch_text = "[\n" + ",\n".join("  " + dumps_value(op).decode("utf-8", "surrogatepass")
                                    for op in patch) + "\n]" if patch else "[]"
    result = {
        "equal": render.count == 0,
        "changes": changes,
        "count": render.count,
        "truncated": render.count > len(changes),
        "summary": render.summary,
        "patch": patch,
        "patch_text": patch_text,
        "notes": notes,
        "note_count": render.note_count,
        "warnings": warnings,
        "exact_text": texts.exact,
        "options": {"ignore_order": ignore_order, "match_key": match_key,
                    "ignore_paths": ignore.sources if ignore else [],
                    "parse_strings": parse_strings},
    }
    if want_view:
        result["view"] = render.view_result()
    return result
