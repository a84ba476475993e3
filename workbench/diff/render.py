"""From a diff plan to what people read: the change list and the line-aligned side-by-side view.

One pass over the plan (:mod:`diff_core`) emits, in display order,

* the **changes** (``add``/``remove``/``replace``/``move``), each with its left and right
  pointers, and **notes** (same value written differently: ``1.0``/``1``, or a JSON string
  whose JSON is equal but whose text is not);
* optionally the **view**: both documents formatted (2-space indent, in the left document's key
  order — right-only members where the right document has them — so both sides line up) and a
  list of segments ``[kind, left_lines, right_lines]`` that align them.  Numbers are written as
  in the input (``1e2`` stays ``1e2``: the texts of :mod:`.numtext`).  Two strings compared as
  JSON are followed by their JSON expanded as a nested block (segments listed in ``nested``).
  ``kind`` is ``eq`` (context; ``[eq, n, n, 1]``: the same text on both sides, sent once), ``chg``, ``add``, ``del``, ``mvf`` (a moved item where it
  was), ``mvt`` (where it went), ``note`` or ``ign`` (an ignored member).  Each change
  carries ``seg``, the index of the segment that shows it (a move also ``seg_to``, the
  segment of its other end).

Unchanged subtrees are written by orjson in one call per run of equal items, so the view of
two 5 MB documents costs tens of milliseconds, not a Python walk over every node.
"""

from __future__ import annotations

import threading
from decimal import Decimal

import orjson

from ..jsontext import encode_string, plain_dumps, scalar_text
from .patch import ptr
from .walk import ADD, ADDS, DEL, DELS, EQ, MVF, MVT, NEAR, NUM, OBJ, PAIR, REP, STR, key_order

_FMT = orjson.OPT_INDENT_2
_local = threading.local()     # .texts: id(Decimal) -> its text as written (the render in progress)
_NO_TEXTS: dict = {}


def _no_tick():
    pass


def _number(obj) -> str:
    return getattr(_local, "texts", _NO_TEXTS).get(id(obj)) or str(obj)


def _fmt_plain(obj):
    if isinstance(obj, Decimal):
        return orjson.Fragment(str(obj))
    raise TypeError


def _fmt_texts(obj):
    if isinstance(obj, Decimal):
        return orjson.Fragment(_number(obj))
    raise TypeError


def _plain(value, level: int = 0) -> str:
    """The plain 2-space writer (keys in their order, numbers as written) for what orjson refuses."""
    text = plain_dumps(value, 2, decimal=_number)
    return text.replace("\n", "\n" + "  " * level) if level else text


def _string(value: str) -> str:
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:      # lone surrogates
        return encode_string(value)


_KEYS: dict[str, str] = {}


def key_text(key: str) -> str:
    text = _KEYS.get(key)
    if text is None:
        text = _string(key)
        if len(_KEYS) < 100_000:
            _KEYS[key] = text
    return text


def fmt(value, level: int) -> str:
    """``value`` formatted; lines after the first indented for nesting ``level``."""
    t = type(value)
    if t is str:
        return _string(value)
    if t is not dict and t is not list:
        return scalar_text(value, _number)
    try:
        text = orjson.dumps(value, default=getattr(_local, "default", _fmt_plain), option=_FMT).decode()
    except (orjson.JSONEncodeError, TypeError):
        return _plain(value, level)
    if level and "\n" in text:
        text = text.replace("\n", "\n" + "  " * level)
    return text


def fmt_items(items, level: int) -> str:
    """Lines of consecutive array items — or, given a dict, object members — with commas
    between them and none after the last, each at nesting ``level``."""
    try:
        text = orjson.dumps(items, default=getattr(_local, "default", _fmt_plain), option=_FMT).decode()
    except (orjson.JSONEncodeError, TypeError):
        text = _plain(items)
    body = text[2:-2]      # drop "[\n" and "\n]"
    if level > 1:
        pad = "  " * (level - 1)
        body = pad + body.replace("\n", "\n" + pad)
    return body


class StrCtx:
    """Changes inside a JSON string: where the string is, and its two parses."""

    __slots__ = ("lparsed", "rparsed", "outer_lp", "outer_rp")

    def __init__(self, lparsed, rparsed, outer_lp, outer_rp):
        self.lparsed, self.rparsed = lparsed, rparsed
        self.outer_lp, self.outer_rp = outer_lp, outer_rp


_RUNS = {DEL: DEL, ADD: ADD, DELS: DEL, ADDS: ADD}


def run_at(entries, k):
    """The run of removed (or added) items at entry ``k``: ``(DEL|ADD, first index on its side,
    count, entries it takes)`` — a run entry, or DEL/ADD entries at consecutive indices."""
    tag, i, j, _ = entries[k]
    if tag == DELS or tag == ADDS:
        return _RUNS[tag], i, j, 1
    side = 1 if tag == DEL else 2
    first = entries[k][side]
    end = k + 1
    total = len(entries)
    while end < total and entries[end][0] == tag and entries[end][side] == first + (end - k):
        end += 1
    return tag, first, end - k, end - k


class Render:
    def __init__(self, *, max_changes: int = 10_000, view: bool = True, max_notes: int = 1000,
                 reuse_equal_text: bool = True, texts: dict | None = None, max_pointers: int = 20,
                 tick=None):
        self.tick = tick or _no_tick       # the work deadline's check
        self.max_changes = max_changes
        self.max_notes = max_notes
        self.changes: list[dict] = []
        self.notes: list[dict] = []
        self.count = 0
        self.note_count = 0
        self.summary = {"added": 0, "removed": 0, "changed": 0, "moved": 0}
        self.view = view
        self.reuse = reuse_equal_text
        self.L: list[str] = []
        self.R: list[str] = []
        self.segs: list[list] = []
        self._pending = 0
        self._moves: dict = {}
        self._eq_l: list[str] = []
        self._eq_r: list[str] = []
        self._eq_same = True
        self._second = None
        self.texts = texts or _NO_TEXTS
        self.nested: list[list[int]] = []       # [first, end) segment ranges: JSON in a string
        self.hits: dict[int, list] = {}         # ignore pattern number -> [count, pointers]
        self.patch_replaced: list = []          # places the patch writes whole (set by the core)
        self.max_pointers = max_pointers

    # ---------------------------------------------------------------- records
    def change(self, op, lp, rp, lv, rv, ctx, **extra) -> int:
        self.count += 1
        key = {"add": "added", "remove": "removed", "replace": "changed", "move": "moved"}[op]
        self.summary[key] += 1
        if len(self.changes) >= self.max_changes:
            return -1
        rec = {"op": op, "_lp": lp, "_rp": rp, "_lv": lv, "_rv": rv, "_ctx": ctx, **extra}
        self.changes.append(rec)
        return len(self.changes) - 1

    def changes_run(self, op, base, items, start, cnt, ctx):
        """``cnt`` removed (``op`` remove: ``items`` is the left array at ``base``) or added
        items from index ``start``: a record for each while the list has room, then counted."""
        room = max(0, min(cnt, self.max_changes - len(self.changes)))
        for t in range(start, start + room):
            self.tick()
            if op == "remove":
                self.change(op, ptr(base, t), None, items[t], None, ctx)
            else:
                self.change(op, None, ptr(base, t), None, items[t], ctx)
        rest = cnt - room
        if rest:
            self.count += rest
            self.summary["removed" if op == "remove" else "added"] += rest

    def hit(self, patterns, pointer, ctx):
        """An ignored member whose values differ (or that only one side has)."""
        where = pointer if ctx is None else ctx.outer_lp + " ▸ " + pointer
        for k in patterns:
            h = self.hits.setdefault(k, [0, []])
            h[0] += 1
            if len(h[1]) < self.max_pointers:
                h[1].append(where)

    def note(self, kind, lp, rp, lv, rv, ctx):
        self.note_count += 1
        if len(self.notes) < self.max_notes:
            self.notes.append({"kind": kind, "_lp": lp, "_rp": rp, "_lv": lv, "_rv": rv,
                               "_ctx": ctx})

    def seg(self, kind, ltext, rtext):
        """Append lines to both sides as one segment.  Unchanged ("eq") pieces are gathered
        and written as one segment when something else comes; when both sides' text is the
        same the right text is not repeated (segment ``[eq, n, n, 1]``)."""
        if kind == "eq":
            same = ltext is rtext or ltext == rtext
            if self._eq_l and self._eq_same == same:
                self._eq_l.append(ltext)
                if not same:
                    self._eq_r.append(rtext)
                return
            self._flush()
            self._eq_same = same
            self._eq_l = [ltext]
            self._eq_r = [] if same else [rtext]
            return
        self._flush()
        nl = ltext.count("\n") + 1 if ltext is not None else 0
        nr = rtext.count("\n") + 1 if rtext is not None else 0
        if ltext is not None:
            self.L.append(ltext)
        if rtext is not None:
            self.R.append(rtext)
        segs = self.segs
        index = len(segs)
        segs.append([kind, nl, nr])
        for c in range(self._pending, len(self.changes)):
            self.changes[c]["seg"] = index
        self._pending = len(self.changes)
        if self._second is not None:
            self.changes[self._second]["seg_to"] = index
            self._second = None

    def _flush(self):
        if not self._eq_l:
            return
        lt = "\n".join(self._eq_l)
        nl = lt.count("\n") + 1
        self.L.append(lt)
        if self._eq_same:
            self.segs.append(["eq", nl, nl, 1])
        else:
            rt = "\n".join(self._eq_r)
            self.R.append(rt)
            self.segs.append(["eq", nl, rt.count("\n") + 1])
        self._eq_l = []
        self._eq_r = []

    # ---------------------------------------------------------------- the pass
    def run(self, node, left, right):
        _local.texts = self.texts
        _local.default = _fmt_texts if self.texts else _fmt_plain
        try:
            if node is None:
                if self.view:
                    lt = fmt(left, 0)
                    self.seg("eq", lt, lt if self.reuse else fmt(right, 0))
                return
            self.render(node, left, right, "", "", 0, "", "", "", "", None)
        finally:
            _local.texts = _NO_TEXTS
            _local.default = _fmt_plain

    def render(self, node, lv, rv, lp, rp, level, lpre, rpre, lc, rc, ctx):
        view = self.view
        if node is None:
            if view:
                lt = lpre + fmt(lv, level) + lc
                rt = rpre + fmt(rv, level) + rc
                self.seg("eq", lt, rt)
            return
        kind = node[0]
        if kind == REP:
            self.change("replace", lp, rp, lv, rv, ctx)
            if view:
                self.seg("chg", lpre + fmt(lv, level) + lc, rpre + fmt(rv, level) + rc)
        elif kind == NUM or kind == NEAR:
            self.note("number" if kind == NUM else "tolerance", lp, rp, lv, rv, ctx)
            if view:
                self.seg("note", lpre + fmt(lv, level) + lc, rpre + fmt(rv, level) + rc)
        elif kind == STR:
            self.render_str(node, lv, rv, lp, rp, level, lpre, rpre, lc, rc, ctx)
        elif kind == OBJ:
            self.render_obj(node, lp, rp, level, lpre, rpre, lc, rc, ctx)
        else:
            self.render_arr(node, lp, rp, level, lpre, rpre, lc, rc, ctx)

    def render_str(self, node, lv, rv, lp, rp, level, lpre, rpre, lc, rc, ctx):
        """Two strings compared as JSON: the string line, then (in the view) the JSON inside
        expanded as a nested block, aligned like the rest; the changes found inside point at
        their lines in that block."""
        inner, lparsed, rparsed = node[3], node[4], node[5]
        view = self.view
        before = self.count
        sctx = StrCtx(lparsed, rparsed, lp, rp)
        at = -1
        if view:
            self.seg("chg", lpre + fmt(lv, level) + lc, rpre + fmt(rv, level) + rc)
            at = len(self.segs) - 1
            first = len(self.segs)
            pad = "  " * (level + 1)
            self.render(inner, lparsed.value, rparsed.value, "", "", level + 1, pad, pad, "", "", sctx)
            self._flush()
            self.nested.append([first, len(self.segs)])
        elif inner is not None:
            self.render(inner, lparsed.value, rparsed.value, "", "", 0, "", "", "", "", sctx)
        if self.count == before:
            self.note("json_string", lp, rp, lv, rv, ctx)
            if at >= 0:
                self.segs[at][0] = "note"

    def render_obj(self, node, lp, rp, level, lpre, rpre, lc, rc, ctx):
        _, entries, l, r, ignored, hidden = node
        view = self.view
        ind1 = "  " * (level + 1)
        for k, patterns in hidden:
            self.hit(patterns, ptr(lp, k) if k in l else ptr(rp, k), ctx)
        if not view:
            for k, what, payload in entries:
                self.tick()
                if what == DEL:
                    self.change("remove", ptr(lp, k), None, l[k], None, ctx)
                elif what == ADD:
                    self.change("add", None, ptr(rp, k), None, r[k], ctx)
                else:
                    self.render(payload, l[k], r[k], ptr(lp, k), ptr(rp, k), level + 1,
                                "", "", "", "", ctx)
            return
        self.seg("eq", lpre + "{", rpre + "{")
        by_key = {k: (what, payload) for k, what, payload in entries}
        # grey ("ign") only where an ignored member hid a difference; equal ones stay in the runs
        ign = {k for k, _ in hidden} if hidden else ()
        order = key_order(l, r)
        last_l = next(reversed(l)) if l else None
        last_r = next((k for k in reversed(order) if k in r), None) if r else None
        run: list = []          # equal members present on both sides: written together

        def flush():
            body = fmt_items({k: l[k] for k in run}, level + 1)
            rbody = body if self.reuse else fmt_items({k: r[k] for k in run}, level + 1)
            self.seg("eq", body + ("," if run[-1] != last_l else ""),
                     rbody + ("," if run[-1] != last_r else ""))
            run.clear()

        for k in order:
            self.tick()
            e = by_key.get(k)
            if e is None and k not in ign and k in l and k in r:
                run.append(k)
                continue
            if run:
                flush()
            head = ind1 + key_text(k) + ": "
            lcm = "," if k != last_l else ""
            rcm = "," if k != last_r else ""
            if e is None:
                lt = head + fmt(l[k], level + 1) + lcm if k in l else None
                if k in r:
                    if self.reuse and lt is not None and k not in ign and lcm == rcm:
                        rt = lt
                    else:
                        rt = head + fmt(r[k], level + 1) + rcm
                else:
                    rt = None
                self.seg("ign" if k in ign else "eq", lt, rt)
                continue
            what, payload = e
            if what == DEL:
                self.change("remove", ptr(lp, k), None, l[k], None, ctx)
                self.seg("del", head + fmt(l[k], level + 1) + lcm, None)
            elif what == ADD:
                self.change("add", None, ptr(rp, k), None, r[k], ctx)
                self.seg("add", None, head + fmt(r[k], level + 1) + rcm)
            else:
                self.render(payload, l[k], r[k], ptr(lp, k), ptr(rp, k), level + 1, head, head,
                            lcm, rcm, ctx)
        if run:
            flush()
        ind = "  " * level
        self.seg("eq", ind + "}" + lc, ind + "}" + rc)

    def _move(self, l, r, i, j, lp, rp, ctx):
        key = (id(l), i)
        c = self._moves.get(key)
        if c is None:
            c = self.change("move", ptr(lp, i), ptr(rp, j), l[i], r[j], ctx,
                            **{"from": ptr(lp, i), "to": ptr(rp, j)})
            self._moves[key] = c
        elif c >= 0:
            self._second = c      # the next segment shows the other end of this move
        return c

    def render_arr(self, node, lp, rp, level, lpre, rpre, lc, rc, ctx):
        _, entries, l, r, _unordered = node
        view = self.view
        if not view:
            k, total = 0, len(entries)
            while k < total:
                tag, i, j, child = entries[k]
                self.tick()
                if tag in _RUNS:
                    tag, first, cnt, used = run_at(entries, k)
                    k += used
                    if tag == DEL:
                        self.changes_run("remove", lp, l, first, cnt, ctx)
                    else:
                        self.changes_run("add", rp, r, first, cnt, ctx)
                    continue
                k += 1
                if tag == MVF or tag == MVT:
                    self._move(l, r, i, j, lp, rp, ctx)
                    if tag == MVT and child is not None:
                        self.render(child, l[i], r[j], ptr(lp, i), ptr(rp, j), level + 1,
                                    "", "", "", "", ctx)
                elif child is not None:
                    self.render(child, l[i], r[j], ptr(lp, i), ptr(rp, j), level + 1,
                                "", "", "", "", ctx)
            return
        n, m = len(l), len(r)
        ind1 = "  " * (level + 1)
        self.seg("eq", lpre + "[", rpre + "[")
        seen_l = seen_r = 0
        k, total = 0, len(entries)
        while k < total:
            tag, i, j, child = entries[k]
            self.tick()
            if tag == EQ or (tag == PAIR and child is None):
                # a run of equal items, contiguous on both sides: one orjson call
                k2 = k + 1
                while k2 < total:
                    t2, i2, j2, c2 = entries[k2]
                    if (t2 == EQ or (t2 == PAIR and c2 is None)) and i2 == i + (k2 - k) and j2 == j + (k2 - k):
                        k2 += 1
                    else:
                        break
                cnt = k2 - k
                seen_l += cnt
                seen_r += cnt
                lbody = fmt_items(l[i:i + cnt], level + 1)
                if self.reuse:
                    rbody = lbody
                else:
                    rbody = fmt_items(r[j:j + cnt], level + 1)
                self.seg("eq", lbody + ("," if seen_l < n else ""), rbody + ("," if seen_r < m else ""))
                k = k2
                continue
            if tag in _RUNS:
                # a run of removed (or added) items, contiguous on their side: one segment and
                # one orjson call (5 million removed items are one block of lines, not 5
                # million segments)
                tag, first, cnt, used = run_at(entries, k)
                k += used
                if tag == DEL:
                    seen_l += cnt
                    self.changes_run("remove", lp, l, first, cnt, ctx)
                    self.seg("del", fmt_items(l[first:first + cnt], level + 1)
                             + ("," if seen_l < n else ""), None)
                else:
                    seen_r += cnt
                    self.changes_run("add", rp, r, first, cnt, ctx)
                    self.seg("add", None, fmt_items(r[first:first + cnt], level + 1)
                             + ("," if seen_r < m else ""))
                continue
            k += 1
            if tag == PAIR:
                seen_l += 1
                seen_r += 1
                self.render(child, l[i], r[j], ptr(lp, i), ptr(rp, j), level + 1, ind1, ind1,
                            "," if seen_l < n else "", "," if seen_r < m else "", ctx)
            elif tag == MVF:
                seen_l += 1
                self._move(l, r, i, j, lp, rp, ctx)
                self.seg("mvf", ind1 + fmt(l[i], level + 1) + ("," if seen_l < n else ""), None)
            else:  # MVT
                seen_r += 1
                self._move(l, r, i, j, lp, rp, ctx)
                if child is not None:
                    self.view = False
                    try:
                        self.render(child, l[i], r[j], ptr(lp, i), ptr(rp, j), level + 1,
                                    "", "", "", "", ctx)
                    finally:
                        self.view = True
                self.seg("mvt", None, ind1 + fmt(r[j], level + 1) + ("," if seen_r < m else ""))
        ind = "  " * level
        self.seg("eq", ind + "]" + lc, ind + "]" + rc)

    def view_result(self) -> dict:
        """``left``/``right``: the formatted documents' lines; ``segments``: ``[kind,
        left_lines, right_lines]``, or ``[eq, n, n, 1]`` for lines that are the same on both
        sides, which are sent once (in ``left``) and not repeated in ``right``."""
        self._flush()
        return {"left": "\n".join(self.L), "right": "\n".join(self.R), "segments": self.segs,
                "nested": self.nested}
