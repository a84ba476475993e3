"""The public records of changes and notes, with the exact JSON text of each side.

Texts are sliced from the user's document at the value's span (found in one pass per document,
or per JSON string, with :func:`~workbench.jsontext.locate_many`), so a number, an escape or a
key order is shown exactly as written; the input line of each side comes with it.  In a document
over :data:`LOCATE_LIMIT` characters they are written from the exact parse instead — numbers
still exactly as written (the texts of :mod:`.numtext`), strings with the escapes JSON needs.
"""

from __future__ import annotations

from ..jsontext import dumps_value, locate_many
from ..limits import DIFF_LOCATE_LIMIT as LOCATE_LIMIT
from ..limits import DIFF_MAX_TEXT as MAX_TEXT
from .patch import Export

# A document over LOCATE_LIMIT is not read a second time (locating 2,300 values in 5 MB costs
# 0.2 s, a third of the whole diff): its texts are written from the parse — numbers still as
# written, strings with the escapes JSON needs — without input lines (``exact_text``).


def public(rec: dict, texts) -> dict:
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


class ValueTexts:
    """Texts written from the parsed values (numbers as written)."""

    def __init__(self, export: Export | None = None):
        self.export = export or Export()

    def __call__(self, side: str, rec: dict) -> dict:
        value = rec["_lv"] if side == "left" else rec["_rv"]
        text = dumps_value(self.export.value(value)).decode("utf-8", "surrogatepass")
        if len(text) > MAX_TEXT:
            return {side: text[:MAX_TEXT], side + "_truncated": True}
        return {side: text}


class SourceTexts:
    """Exact JSON text and input line of the values the changes name, sliced from the input."""

    def __init__(self, lparsed, rparsed, records, export: Export | None = None):
        self.docs = {"left": lparsed, "right": rparsed}
        self.written = ValueTexts(export)
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
            out.update(self.written(side, rec))
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
