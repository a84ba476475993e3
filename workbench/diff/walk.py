"""The diff walk: compare two exactly-parsed JSON values and produce a plan of differences.

Design (why not DeepDiff): equal subtrees are skipped first — Python's ``==`` (C speed,
short-circuits at the first difference) confirmed by a canonical serialization
(:func:`workbench.jsontext.identical`) so ``1`` vs ``true`` and ``1`` vs ``1.0`` are never
confused.  Arrays are aligned by the canonical text of each item (see :mod:`.align`), and only
the paired, differing items are walked.  On two 5 MB documents this takes a few tenths of a
second where DeepDiff takes 15–48 s; DeepDiff is only the second engine (:mod:`.engines`).
Objects are walked in the left document's key order (then right-only members where the right
document has them), so the change list and the view follow the left text.  Time is bounded by
the request's one :class:`~workbench.runtime.Deadline`.

The plan is a tree of tuples (only along differing paths):

* ``(REP, l, r)``   the value changed (other type, other scalar, or too deep to walk)
* ``(NUM, l, r)``   same number written differently (``1.0`` / ``1``): a note, not a change
* ``(NEAR, l, r)``  two numbers within the ``tolerance``: a note, not a change
* ``(OBJ, entries, l, r, ignored, hidden)``  entries ``(key, ADD|DEL|SUB, value-or-node)`` in
  the left key order; ``ignored`` the keys the ignore patterns skipped, ``hidden`` the ones of
  those whose values differ, as ``(key, pattern numbers)`` (the answer counts them)
* ``(ARR, entries, l, r, unordered)`` entries ``(tag, i, j, child)`` in display order, tag one
  of EQ, PAIR, DEL, ADD, MVF (move source), MVT (move target); or ``(DELS|ADDS, first, count,
  None)``: a run of at least RUN_MIN removed (left indices) or added (right indices) items, in
  arrays without moves (5 million removals are one entry, not 5 million tuples)
* ``(STR, l, r, inner, lparsed, rparsed)``  two strings holding JSON, compared parsed
  (``inner`` None: same JSON written differently — a note)
"""

from __future__ import annotations

from collections import deque
from decimal import MAX_EMAX, MIN_EMIN, ROUND_DOWN, ROUND_UP, Context, Decimal, localcontext

from ..errors import WorkbenchError
from ..jsontext import ORJSON_MAX_DEPTH, ctext, ctext_fast, identical, parse, same_json
from ..limits import DIFF_DEPTH_CAP as DEPTH_CAP
from ..runtime import Deadline
from .align import lcs_pairs, pair_gap, pair_unordered
from .ignore import Ignore

REP, NUM, OBJ, ARR, STR, NEAR = range(6)
ADD, DEL, SUB = "add", "del", "sub"
EQ, PAIR, MVF, MVT = "eq", "pair", "mvf", "mvt"
DELS, ADDS = "dels", "adds"     # a run of removed / added items: (tag, first index, count, None)
RUN_MIN = 32                    # removals or additions in a row written as one run entry
# DEPTH_CAP: deeper differing subtrees are one replace (the walk takes up to 5 Python frames per
# level; Python's recursion limit is 1,000)
IGN_ID = b"\x00ignored"
#: the deepest nesting two trees can have when the walk proved their depth (``depth_proven``): the
#: walk descends at most DEPTH_CAP levels, and every subtree it did not descend into was written
#: whole by orjson, which refuses more than ORJSON_MAX_DEPTH levels
PROVEN_DEPTH = DEPTH_CAP + ORJSON_MAX_DEPTH
_CONTAINER = (dict, list)
# arrays of items: the providers preset aligns them by type, name (parts: the neutral form's)
ITEM_LISTS = ("output", "input", "parts")


def item_identity(x):
    """The providers preset's identity of an item: ``(type, name)`` (name may be None)."""
    if type(x) is dict:
        t = x.get("type")
        if type(t) is str:
            n = x.get("name")
            return ("item", t, n if type(n) is str else None)
    return None


def key_order(l: dict, r: dict):
    """The members of two objects in the left document's order, each right-only member after
    the right member it follows there (or first)."""
    if len(r) <= len(l) and r.keys() <= l.keys():
        return l.keys()
    extra: dict = {}
    prev = None
    for k in r:
        if k in l:
            prev = k
        else:
            extra.setdefault(prev, []).append(k)
    out = list(extra.get(None, ()))
    for k in l:
        out.append(k)
        more = extra.get(k)
        if more:
            out.extend(more)
    return out


def num_id(x):
    """A number's identity for alignment: the number itself (``int`` and ``Decimal`` compare
    and hash by exact value, so ``0``, ``-0.0`` and ``0.0`` are one), so equal values written
    differently are paired where they are, never moved; no other identity is a number (the
    others are canonical bytes or tuples), and a small integer costs no allocation."""
    return x


_WIDE = Context(prec=60, Emax=MAX_EMAX, Emin=MIN_EMIN)
_UP = Context(prec=60, rounding=ROUND_UP, Emax=MAX_EMAX, Emin=MIN_EMIN)
_DOWN = Context(prec=60, rounding=ROUND_DOWN, Emax=MAX_EMAX, Emin=MIN_EMIN)


def within(l: Decimal, r: Decimal, bound: Decimal) -> bool:
    """|l − r| ≤ bound, exactly: decided by the difference rounded away from and towards zero
    at 60 digits; only when those disagree (a pair that close to the boundary) is it computed
    with every digit it needs (as many as the two numbers are written with)."""
    if _UP.subtract(l, r).copy_abs() <= bound:
        return True
    if _DOWN.subtract(l, r).copy_abs() > bound:
        return False
    digits = max(l.adjusted(), r.adjusted()) - min(l.as_tuple().exponent, r.as_tuple().exponent) + 2
    with localcontext(_WIDE) as ctx:
        ctx.prec = max(60, digits)
        return (l - r).copy_abs() <= bound


def _parse_string(text, max_depth):
    return parse(text, field=None, max_depth=max_depth, warnings=False)


# --------------------------------------------------------------------------- the walk

class Differ:
    def __init__(self, *, ignore_order: bool = False, match_key: str | None = None,
                 ignore: Ignore | None = None, parse_strings: bool = True,
                 max_depth: int = 512, deadline: Deadline | None = None,
                 match_items: bool = False, tolerance=None, parse_string=_parse_string):
        self.ignore_order = ignore_order
        self.match_key = match_key
        self.ignore = ignore if ignore else None
        self.parse_strings = parse_strings
        self.max_depth = max_depth
        self.deadline = deadline or Deadline(None)
        self.tick = self.deadline.check
        self.match_items = match_items          # the providers preset: output items by type, name
        self.tolerance = tolerance              # (absolute, relative) Decimals, or None
        self.parse_string = parse_string
        # after diff(): True when every container of both trees was walked (above DEPTH_CAP)
        # or written whole by orjson (ctext_fast), which proves they nest at most PROVEN_DEPTH
        # levels -- the caller's own depth check can be skipped (issue 25)
        self.depth_proven = False

    # ---------------------------------------------------------------- housekeeping
    def _child_state(self, st, part):
        """Ignore states for a child: ``(ignored?, states-or-None, patterns that matched)``."""
        if st is None:
            return False, None, ()
        return self.ignore.child(st, part)

    # ---------------------------------------------------------------- values
    def diff(self, left, right):
        st = self.ignore.start() if self.ignore else None
        self.depth_proven = True
        return self._walk_child(left, right, st, 0)

    def unproven(self, *values) -> None:
        """A container among ``values`` is left without a walk or a write: the depth is not
        proven (no argument: whatever the values)."""
        if not values or any(type(v) in _CONTAINER for v in values):
            self.depth_proven = False

    def walk(self, l, r, st, depth):
        tl, tr = type(l), type(r)
        if tl is dict:
            if tr is dict:
                return self.walk_obj(l, r, st, depth)
        elif tl is list:
            if tr is list:
                return self.walk_arr(l, r, st, depth)
        elif tl is str:
            if tr is str:
                if l == r:
                    return None
                if self.parse_strings:
                    node = self.walk_str(l, r, st, depth)
                    if node is not None:
                        return node
                return (REP, l, r)
        elif tl is int or tl is Decimal:
            if tr is int or tr is Decimal:
                if l == r:
                    if tl is int and tr is int:
                        return None
                    return None if (tl is tr and str(l) == str(r)) else (NUM, l, r)
                if self.tolerance is not None and self.near(l, r):
                    return (NEAR, l, r)
                return (REP, l, r)
        elif tl is tr and l == r:      # true, false, null
            return None
        self.unproven(l, r)            # (a container replaced whole: neither side written)
        return (REP, l, r)

    def near(self, l, r) -> bool:
        """Within the tolerance, exactly: |l − r| ≤ absolute, or ≤ relative × max(|l|, |r|)."""
        absolute, relative = self.tolerance
        try:
            l, r = Decimal(l), Decimal(r)
            if absolute is not None and within(l, r, absolute):
                return True
            if relative is None:
                return False
            top = max(l.copy_abs(), r.copy_abs())
            with localcontext(_WIDE) as ctx:      # the product exactly (digits add up)
                ctx.prec = len(relative.as_tuple().digits) + len(top.as_tuple().digits) + 1
                bound = relative * top
            return within(l, r, bound)
        except (ArithmeticError, ValueError):
            return False

    def _walk_child(self, x, y, st, depth, key=None):
        tx = type(x)
        if tx is type(y) and (tx is dict or tx is list):
            # equal subtrees are skipped, ignore patterns or not (nothing ignored can differ)
            try:
                eq = x == y
            except RecursionError:
                eq = False
                self.unproven()
                if ctext(x) == ctext(y):
                    return None
            if eq and identical(x, y, self._ctf):
                return None
            if tx is dict:
                return self.walk_obj(x, y, st, depth)
            return self.walk_arr(x, y, st, depth, keyed=self.match_items and key in ITEM_LISTS,
                                 pyeq=eq)
        return self.walk(x, y, st, depth)

    def walk_obj(self, l, r, st, depth):
        self.tick()
        if depth >= DEPTH_CAP:
            self.unproven()
            return None if same_json(l, r) else (REP, l, r)
        entries = []
        ignored = []
        hidden = []
        for k in key_order(l, r):
            if st is not None:
                skip, cst, acc = self._child_state(st, k)
                if skip:
                    self.unproven(l.get(k), r.get(k))
                    ignored.append(k)
                    if not (k in l and k in r and same_json(l[k], r[k])):
                        hidden.append((k, acc))
                    continue
            else:
                cst = None
            if k in l:
                if k in r:
                    x, y = l[k], r[k]
                    tx = type(x)
                    if tx is type(y) and (tx is str or tx is int or tx is bool or x is None) and x == y:
                        continue            # the common case, without a call
                    sub = self._walk_child(x, y, cst, depth + 1, k)
                    if sub is not None:
                        entries.append((k, SUB, sub))
                else:
                    self.unproven(l[k])
                    entries.append((k, DEL, l[k]))
            else:
                self.unproven(r[k])
                entries.append((k, ADD, r[k]))
        if entries or hidden:
            return (OBJ, entries, l, r, ignored, hidden)
        return None

    def walk_str(self, l, r, st, depth):
        ls, rs = l.lstrip(" \t\r\n"), r.lstrip(" \t\r\n")
        if not ls or not rs or ls[0] not in "{[" or rs[0] not in "{[":
            return None
        try:
            lp = self.parse_string(l, self.max_depth)
            rp = self.parse_string(r, self.max_depth)
        except (WorkbenchError, RecursionError, ValueError):
            return None
        self.parse_strings = False           # one level: strings inside are compared as strings
        if st is not None:
            st = self.ignore.into_string(st)     # the preset's patterns stay outside
        try:
            inner = self._walk_child(lp.value, rp.value, st, depth + 1)
        finally:
            self.parse_strings = True
        return (STR, l, r, inner, lp, rp)

    # ---------------------------------------------------------------- arrays
    def strip(self, x, st):
        """Copy of ``x`` without the members the ignore patterns name (for identities)."""
        if st is None:
            return x
        try:
            return self._strip(x, st)
        except RecursionError:
            return x

    def _strip(self, x, st):
        t = type(x)
        if t is dict:
            out = {}
            for k, v in x.items():
                skip, cst, _ = self._child_state(st, k)
                if not skip:
                    out[k] = self._strip(v, cst) if cst is not None else v
            return out
        if t is list:
            out = []
            for i, v in enumerate(x):
                skip, cst, _ = self._child_state(st, i)
                out.append(IGN_ID if skip else (self._strip(v, cst) if cst is not None else v))
            return out
        return x

    def ids(self, items, st, keyed=False, base=0):
        """Identities of array items for alignment.  Without ignore paths and match key they
        are :func:`ctext_fast` texts, so a pair matched by identity must also be equal for
        Python (:meth:`verified`).  ``keyed``: the providers preset's ``(type, name)`` of an
        item (repeated identities are aligned in order, then by position); ``base``: the index
        of ``items[0]`` in its array (for index patterns)."""
        mk = self.match_key
        if st is None and mk is None and not keyed:
            ctf = self._ctf
            tick = self.tick
            out = []
            for at in range(0, len(items), 256):
                tick()
                out.extend([x if type(x) is int or type(x) is Decimal else ctf(x)
                            for x in items[at:at + 256]])
            return out
        out = []
        seen: dict = {}
        for idx, x in enumerate(items, base):
            self.tick()
            skip, ist, _ = self._child_state(st, idx)
            if skip:
                out.append(IGN_ID)
                continue
            if keyed:
                key = item_identity(x)
                if key is not None:
                    out.append(key)
                    continue
            tx = type(x)
            if tx is int or tx is Decimal:
                out.append(num_id(x))
                continue
            if mk is not None and tx is dict and mk in x:
                key = ctext(x[mk])
                n = seen.get(key, 0)
                seen[key] = n + 1
                out.append(("key", key, n))
            else:
                out.append(ctext(self.strip(x, ist)))
        return out

    def _ctf(self, value) -> bytes:
        text = ctext_fast(value)
        if text[:1] == b"\x01":     # orjson refused it (deeper than it writes, a big integer…)
            self.depth_proven = False
        return text

    def same_item(self, x, y, fast: bool) -> bool:
        """An aligned pair shown equal without a walk: :meth:`verified`, and for numbers (whose
        identities are by value) the same spelling."""
        tx = type(x)
        if tx is Decimal or type(y) is Decimal:
            return tx is type(y) and str(x) == str(y)
        return self.verified(x, y, fast)

    def verified(self, x, y, fast: bool) -> bool:
        if not fast:
            return True
        try:
            return x == y
        except RecursionError:
            return ctext(x) == ctext(y)

    def sim(self, x, y) -> float:
        tx, ty = type(x), type(y)
        if tx is dict and ty is dict:
            mk = self.match_key
            if mk is not None and mk in x and mk in y:
                return 0.0       # two different keys: two different items, never paired
            if self._keyed and item_identity(x) != item_identity(y):
                return 0.0       # a message never becomes a function call
            if not x and not y:
                return 1.0
            shared = 0
            for k, v in x.items():
                if k in y:
                    try:
                        if y[k] == v:
                            shared += 1
                    except RecursionError:
                        pass
            return 0.1 + 0.9 * shared / max(len(x), len(y))
        if tx is list and ty is list:
            return 0.3
        if tx is dict or tx is list or ty is dict or ty is list:
            return 0.05
        if tx is ty or (tx in (int, Decimal) and ty in (int, Decimal)):
            return 0.3
        return 0.2

    def features(self, x):
        if type(x) is dict:
            out = []
            for k, v in x.items():
                tv = type(v)
                if tv is dict or tv is list:
                    out.append((k, len(v)))
                else:
                    out.append((k, tv.__name__, v if tv is not Decimal else str(v)))
            return out
        return [("type", type(x).__name__)]

    _keyed = False

    def walk_arr(self, l, r, st, depth, keyed=False, pyeq=False):
        self.tick()
        if depth >= DEPTH_CAP:
            self.unproven()
            return None if same_json(l, r) else (REP, l, r)
        if pyeq:
            # equal values item by item, some written differently ([0, -0.0] / [-0.0, 0]):
            # paired by position, never moved
            entries = []
            for i in range(len(l)):
                child = self._pair_child(l, r, i, i, st, depth)
                entries.append((EQ, i, i, None) if child is None else (PAIR, i, i, child))
            return (ARR, entries, l, r, False) if any(e[0] == PAIR for e in entries) else None
        saved = self._keyed
        self._keyed = keyed
        try:
            return self._walk_arr(l, r, st, depth, keyed)
        finally:
            self._keyed = saved

    def _walk_arr(self, l, r, st, depth, keyed):
        n, m = len(l), len(r)
        content_ids = self.match_key is None and not keyed
        fast = st is None and content_ids
        positional = None
        if content_ids and not self.ignore_order and n == m and n >= 32:
            positional = self._positional(l, r, st)
        if positional is not None:
            # (with ignore patterns too, every item is written: content identities, anchors)
            anchors, lid, rid, sure = positional
            entries = self._ordered(l, r, lid, rid, st, depth, content_ids, fast, anchors, sure)
        else:
            if not fast:    # identities from match keys, (type, name) or stripped copies
                self.unproven()
            lid = self.ids(l, st, keyed)
            rid = self.ids(r, st, keyed)
            if self.ignore_order:
                entries = self._unordered(l, r, lid, rid, st, depth, content_ids, fast)
            else:
                entries = self._ordered(l, r, lid, rid, st, depth, content_ids, fast)
        for e in entries:
            if e[0] != EQ and not (e[0] == PAIR and e[3] is None):
                return (ARR, entries, l, r, self.ignore_order)
        return None

    def _positional(self, l, r, st):
        """Fast path for two long arrays of the same length that are mostly equal item by
        item (a document and its edited copy): runs of equal items are anchors, checked with
        one canonical write per run instead of one per item; identities are computed only
        for the items in between, which are aligned among themselves (with the ignore
        patterns, if any: only those items are stripped).  None when fewer than half of the
        positions are equal.  ``sure`` marks the anchors known identical (not only equal
        once ignored members are left out)."""
        n = len(l)
        try:
            eqpos = [a == b for a, b in zip(l, r)]
        except RecursionError:
            return None
        if eqpos.count(True) * 2 < n:
            return None
        anchors: list = []
        lid: list = [None] * n
        rid: list = [None] * n
        sure = bytearray(n)
        i = 0
        while i < n:
            self.tick()
            j = i
            if eqpos[i]:
                while j < n and eqpos[j]:
                    j += 1
                if self._ctf(l[i:j]) == self._ctf(r[i:j]):
                    anchors.extend(zip(range(i, j), range(i, j)))
                    sure[i:j] = b"\x01" * (j - i)
                else:   # a bool against a number, or a number written differently, in there
                    for t in range(i, j):
                        self.tick()
                        if self._ctf(l[t]) == self._ctf(r[t]):
                            anchors.append((t, t))
                            sure[t] = 1
                        else:
                            lid[t], = self.ids(l[t:t + 1], None, base=t)
                            rid[t], = self.ids(r[t:t + 1], None, base=t)
            else:
                while j < n and not eqpos[j]:
                    j += 1
                # content identities (with ignore patterns too: the items of a positional gap
                # that differ only in ignored members are paired in the gap, not stripped first)
                gl = self.ids(l[i:j], None, base=i)
                gr = self.ids(r[i:j], None, base=i)
                lid[i:j] = gl
                rid[i:j] = gr
                for a, b in lcs_pairs(gl, gr):
                    if self.verified(l[i + a], r[i + b], True):
                        anchors.append((i + a, i + b))
                        if self.same_item(l[i + a], r[i + b], True):
                            sure[i + a] = 1
            i = j
        anchors.sort()
        return anchors, lid, rid, sure

    def _pair_child(self, l, r, i, j, st, depth):
        skip, ist, _ = self._child_state(st, i)
        if skip:
            return None
        return self._walk_child(l[i], r[j], ist, depth + 1)

    def _ordered(self, l, r, lid, rid, st, depth, content_ids, fast, anchors=None, sure=None):
        n, m = len(l), len(r)
        # an anchor is shown equal without a walk when it is known identical: marked ``sure``
        # by _positional, or matched by content identity without ignore patterns
        quick = content_ids and st is None
        if anchors is None:
            anchors = lcs_pairs(lid, rid, self.tick, self.deadline)
        in_l = bytearray(n)
        in_r = bytearray(m)
        for i, j in anchors:
            in_l[i] = 1
            in_r[j] = 1
        # moves: an unmatched item whose identity occurs once on each side (a value that is
        # repeated, like the 0s of [0, 1, 0, 1], has no place of its own to move from)
        move_to: dict[int, int] = {}
        move_from: dict[int, int] = {}
        if len(anchors) < n and len(anchors) < m:
            count_l: dict = {}
            for x in lid:
                if x is not None:
                    count_l[x] = count_l.get(x, 0) + 1
            count_r: dict = {}
            for x in rid:
                if x is not None:
                    count_r[x] = count_r.get(x, 0) + 1
            pos: dict = {}
            for i in range(n):
                x = lid[i]
                if not in_l[i] and x is not None and x != IGN_ID and count_l[x] == 1 \
                        and count_r.get(x) == 1:
                    pos[x] = i
            if pos:
                tick = self.tick
                for j in range(m):
                    if not in_r[j]:
                        tick()   # each candidate is verified (an equality and a canonical write)
                        i = pos.get(rid[j])
                        if i is not None and self.verified(l[i], r[j], fast):
                            move_to[i] = j
                            move_from[j] = i
        entries = []
        add = entries.append
        sim = self.sim
        pi = pj = 0
        tick = self.tick
        anchors.append((n, m))
        for ai, aj in anchors:
            tick()
            if ai != pi or aj != pj:           # a gap before this anchor
                # (ranges where nothing moved: 5 million removed items need no list of them)
                li = [i for i in range(pi, ai) if i not in move_to] if move_to else range(pi, ai)
                rj = [j for j in range(pj, aj) if j not in move_from] if move_from else range(pj, aj)
                gap = pair_gap(li, rj, lambda i, j: sim(l[i], r[j])) if li and rj else []
                x, y = pi, pj
                for gi, gj in gap + [(ai, aj)]:
                    if not move_to and gi - x >= RUN_MIN:     # (an array with moves has no runs)
                        add((DELS, x, gi - x, None))
                        x = gi
                    while x < gi:
                        tick()
                        if x in move_to:
                            add((MVF, x, move_to[x], None))
                        else:
                            add((DEL, x, -1, None))
                        x += 1
                    if not move_from and gj - y >= RUN_MIN:
                        add((ADDS, y, gj - y, None))
                        y = gj
                    while y < gj:
                        tick()
                        if y in move_from:
                            i = move_from[y]
                            child = (None if content_ids and self.same_item(l[i], r[y], fast)
                                     else self._pair_child(l, r, i, y, st, depth))
                            add((MVT, i, y, child))
                        else:
                            add((ADD, -1, y, None))
                        y += 1
                    if gi == ai:
                        break
                    add((PAIR, gi, gj, self._pair_child(l, r, gi, gj, st, depth)))
                    x, y = gi + 1, gj + 1
            if ai < n:
                if (sure is not None and sure[ai]) or (quick and self.same_item(l[ai], r[aj], fast)):
                    add((EQ, ai, aj, None))
                else:
                    child = self._pair_child(l, r, ai, aj, st, depth)
                    add((EQ, ai, aj, None) if child is None else (PAIR, ai, aj, child))
            pi, pj = ai + 1, aj + 1
        return entries

    def _unordered(self, l, r, lid, rid, st, depth, content_ids, fast):
        n, m = len(l), len(r)
        pos: dict = {}
        for i in range(n):
            pos.setdefault(lid[i], deque()).append(i)
        match_of_r: dict[int, int] = {}
        used_l = bytearray(n)
        for j in range(m):
            self.tick()
            q = pos.get(rid[j])
            if q and self.verified(l[q[0]], r[j], fast):
                i = q.popleft()
                match_of_r[j] = i
                used_l[i] = 1
        li = [i for i in range(n) if not used_l[i]]
        rj = [j for j in range(m) if j not in match_of_r]
        paired = {}
        if li and rj:
            feats = {}

            def features(k, side):
                key = (side, k)
                if key not in feats:
                    feats[key] = self.features(l[k] if side == "left" else r[k])
                return feats[key]

            for i, j in pair_unordered(li, rj, lambda i, j: self.sim(l[i], r[j]), features,
                                       self.tick):
                paired[j] = i
                used_l[i] = 1
        entries = []
        for j in range(m):
            self.tick()
            if j in match_of_r:
                i = match_of_r[j]
                if content_ids and st is None and self.same_item(l[i], r[j], fast):
                    entries.append((EQ, i, j, None))
                else:
                    child = self._pair_child(l, r, i, j, st, depth)
                    entries.append((EQ, i, j, None) if child is None else (PAIR, i, j, child))
            elif j in paired:
                i = paired[j]
                entries.append((PAIR, i, j, self._pair_child(l, r, i, j, st, depth)))
            else:
                entries.append((ADD, -1, j, None))
        for i in range(n):
            if not used_l[i]:
                entries.append((DEL, i, -1, None))
        return entries


