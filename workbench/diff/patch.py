"""Patches from a diff plan: RFC 6902 operations (:func:`patch_ops`) and the RFC 7386 merge
patch (:func:`merge_patch`), with the values exported so numbers keep their text.

Where a merge patch cannot say it
---------------------------------
RFC 7386 reads ``null`` as "remove this member" and replaces arrays whole, so:

* a member whose new value is ``null`` (added as null, or changed to null) cannot be written: the
  member is left out of the merge patch (applying it keeps the old value) and the answer lists it
  in ``merge_patch_notes`` with ``reason: "null_value"``;
* an added or replaced object holding a ``null`` member at any depth reachable through objects
  loses that member when applied (``reason: "null_inside"``);
* any change inside an array — one item added, moved or changed — is written as the whole right
  array (exact, but not small; ``reason`` is not needed for it).

``merge_patch_exact`` is true when applying the merge patch to left gives right (up to the
ignored paths and order, as for the JSON Patch).
"""

from __future__ import annotations

import bisect
from decimal import Decimal

import orjson

from ..jsontext import ctext_fast, escape_token, same_json
from ..limits import DIFF_MERGE_MAX_NOTES as MERGE_MAX_NOTES
from .align import Fenwick
from .walk import ADD, ADDS, DEL, DELS, EQ, MVT, NEAR, NUM, OBJ, PAIR, REP, STR, SUB


def ptr(base: str, part) -> str:
    return base + "/" + escape_token(str(part))


# --------------------------------------------------------------------------- RFC 6902

COMPACT_MIN_OPS = 16    # operations of one value before its patch is weighed against replacing it


class _Over(Exception):
    """The operations for one value outweigh writing the value whole."""


def _size(value) -> int:
    """About how many bytes ``value`` takes in the patch (a container: its canonical write)."""
    t = type(value)
    if t is dict or t is list:
        return len(ctext_fast(value))
    if t is str:
        return len(value) + 2
    if t is int:        # (str() of an int over 4,300 digits is refused)
        return value.bit_length() // 3 + 2
    if t is Decimal:
        return len(str(value))
    return 5


class Patch:
    """RFC 6902 operations that turn left into right, from a diff plan.

    Where the operations for one value (an array, an object) would outweigh the value written
    whole (5 million removals against ``[2]``), that value is one ``replace`` instead: the patch
    stays exact and never grows past about the size of right.  ``replaced`` lists those places.
    ``tick`` is the work deadline's check, called per operation."""

    def __init__(self, tick=None):
        self.out: list = []
        self.size = 0
        self.tick = tick or (lambda: None)
        self.replaced: list = []
        self._frames: list = []        # [first op, size before, right value, its size or None]

    def write(self, node, path: str = "", right=None) -> list:
        self.node(node, path, right)
        return self.out

    def op(self, op: dict, weight: int) -> None:
        self.tick()
        self.out.append(op)
        self.size += weight
        if self._frames:
            f = self._frames[-1]
            if len(self.out) - f[0] > COMPACT_MIN_OPS:
                if f[3] is None:
                    f[3] = _size(f[2]) + 40
                if self.size - f[1] > f[3]:
                    raise _Over

    def node(self, node, path, right) -> None:
        kind = node[0]
        if kind in (REP, NUM, STR, NEAR):
            self.op({"op": "replace", "path": path, "value": node[2]}, len(path) + 30 + _size(node[2]))
            return
        frame = [len(self.out), self.size, right, None]
        self._frames.append(frame)
        try:
            if kind == OBJ:
                self._object(node, path)
            elif node[4]:
                self._unordered(node[1], node[2], node[3], path)
            else:
                self._ordered(node[1], node[2], node[3], path)
        except _Over:
            del self.out[frame[0]:]
            self.size = frame[1]
            self._frames.pop()
            if len(self.replaced) < 100:
                self.replaced.append(path)
            self.op({"op": "replace", "path": path, "value": right}, len(path) + 30 + (frame[3] or 0))
            return
        self._frames.pop()

    def _object(self, node, path):
        r = node[3]
        for k, what, payload in node[1]:
            p = ptr(path, k)
            if what == DEL:
                self.op({"op": "remove", "path": p}, len(p) + 28)
            elif what == ADD:
                self.op({"op": "add", "path": p, "value": payload}, len(p) + 30 + _size(payload))
            else:
                self.node(payload, p, r[k])

    def _ordered(self, entries, l, r, path):
        n = len(l)
        # phase 1: removals, highest index first (indices are the left ones; run entries are
        # expanded as they are written, so a patch written whole stops early)
        runs = sorted([(e[1], 1) for e in entries if e[0] == DEL]
                      + [(e[1], e[2]) for e in entries if e[0] == DELS], reverse=True)
        for first, count in runs:
            for i in range(first + count - 1, first - 1, -1):
                p = ptr(path, i)
                self.op({"op": "remove", "path": p}, len(p) + 28)
        # phase 2: moves, in target order; positions from a Fenwick tree over slots
        moves = sorted((e for e in entries if e[0] == MVT), key=lambda e: e[2])
        if moves:       # (an array with moves has no run entries)
            removed = {first for first, _ in runs}
            moved_from = {e[1] for e in moves}
            # target order of the items that stay (anchors/pairs) and the moved ones
            stay = {}          # j -> i for EQ/PAIR
            for e in entries:
                if e[0] in (EQ, PAIR):
                    stay[e[2]] = e[1]
            chain_after: dict = {}   # left index of an anchor (or -1) -> moved items placed after it
            order = sorted(list(stay.items()) + [(e[2], e[1]) for e in moves])
            last_anchor = -1
            for _j, i in order:
                if i in moved_from:
                    chain_after.setdefault(last_anchor, []).append(i)
                else:
                    last_anchor = i
            slot_origin, slot_dest = {}, {}
            s = 0
            for i in chain_after.get(-1, ()):
                slot_dest[i] = s
                s += 1
            for i in range(n):
                if i in removed:
                    continue
                slot_origin[i] = s
                s += 1
                if i not in moved_from:
                    for mi in chain_after.get(i, ()):
                        slot_dest[mi] = s
                        s += 1
            fw = Fenwick(s)
            for _i, slot in slot_origin.items():
                fw.add(slot, 1)
            for e in moves:
                i = e[1]
                src = fw.before(slot_origin[i])
                fw.add(slot_origin[i], -1)
                fw.add(slot_dest[i], 1)
                dst = fw.before(slot_dest[i])
                if src != dst:
                    p, f = ptr(path, dst), ptr(path, src)
                    self.op({"op": "move", "from": f, "path": p}, len(p) + len(f) + 32)
        # phase 3: additions in right order, at their final index
        for e in entries:
            if e[0] == ADD or e[0] == ADDS:
                for j in (range(e[1], e[1] + e[2]) if e[0] == ADDS else (e[2],)):
                    p = ptr(path, j)
                    self.op({"op": "add", "path": p, "value": r[j]}, len(p) + 30 + _size(r[j]))
        # phase 4: changes inside paired items, which now sit at their right index
        for e in entries:
            if e[3] is not None:
                self.node(e[3], ptr(path, e[2]), r[e[2]])

    def _unordered(self, entries, l, r, path):
        dels = sorted((e[1] for e in entries if e[0] == DEL), reverse=True)
        for i in dels:
            p = ptr(path, i)
            self.op({"op": "remove", "path": p}, len(p) + 28)
        dels.reverse()
        for e in entries:
            if e[3] is not None:
                i = e[1]
                self.node(e[3], ptr(path, i - bisect.bisect_left(dels, i)), r[e[2]])
        length = len(l) - len(dels)
        for e in entries:
            if e[0] == ADD:
                p = ptr(path, length)
                self.op({"op": "add", "path": p, "value": r[e[2]]}, len(p) + 30 + _size(r[e[2]]))
                length += 1


def patch_ops(node, path: str, out: list, right=None, tick=None) -> list:
    """RFC 6902 operations that turn the left value at ``path`` into ``right`` (appended to
    ``out``); returns the places written whole instead (see :class:`Patch`)."""
    writer = Patch(tick)
    writer.out = out
    writer.write(node, path, right)
    return writer.replaced


# --------------------------------------------------------------------------- RFC 7386

class Notes(list):
    """The merge patch's notes: the first MERGE_MAX_NOTES kept, ``total`` counts all."""

    def __init__(self, tick=None):
        super().__init__()
        self.total = 0
        self.tick = tick or (lambda: None)

    def add(self, note: dict) -> None:
        self.total += 1
        if len(self) < MERGE_MAX_NOTES:
            self.append(note)


def merge_patch(node, right, tick=None) -> tuple:
    """``(patch, notes)``: the RFC 7386 merge patch turning left into right (``{}`` when two
    objects are equal) and the places it cannot express (see the module docstring): at most
    MERGE_MAX_NOTES of them, ``notes.total`` counts all.  ``tick``: the work deadline's check."""
    notes = Notes(tick)
    if node is None:
        # nothing to change: {} for an object; any other document is only kept by itself
        # (applying {} to a non-object gives {})
        return ({} if type(right) is dict else right), notes
    return _merge(node, right, "", notes), notes


def _merge(node, right, path, notes):
    if node[0] == OBJ:
        out: dict = {}
        for k, what, payload in node[1]:
            notes.tick()
            p = ptr(path, k)
            if what == DEL:
                out[k] = None
                continue
            value = right[k]
            if value is None:
                notes.add({"pointer": p, "reason": "null_value",
                              "message": "a member set to null cannot be written in a merge "
                                         "patch (null means remove): left out"})
                continue
            if what == SUB and payload[0] == OBJ:
                out[k] = _merge(payload, value, p, notes)
            else:
                _null_inside(value, p, notes)
                out[k] = value
        return out
    if node[0] == REP and type(node[1]) is dict and type(right) is dict:
        # two objects the walk did not go into (too deep): a merge patch merges objects, so
        # they are compared member by member here too
        return _merge_values(node[1], right, path, notes)
    # not two objects: the right value replaces the left one whole
    _null_inside(right, path, notes)
    return right


def _merge_values(left: dict, right: dict, path, notes):
    out: dict = {k: None for k in left if k not in right}
    for k, v in right.items():
        notes.tick()
        p = ptr(path, k)
        if k in left and same_json(left[k], v):
            continue
        if v is None:
            notes.add({"pointer": p, "reason": "null_value",
                          "message": "a member set to null cannot be written in a merge "
                                     "patch (null means remove): left out"})
        elif k in left and type(left[k]) is dict and type(v) is dict:
            out[k] = _merge_values(left[k], v, p, notes)
        else:
            _null_inside(v, p, notes)
            out[k] = v
    return out


def _null_inside(value, path, notes, _depth=0):
    """Note ``null`` members reachable through objects only (a merge drops them)."""
    if type(value) is not dict or _depth > 100:
        return
    for k, v in value.items():
        notes.tick()
        if v is None:
            notes.add({"pointer": ptr(path, k), "reason": "null_inside",
                          "message": "a null member inside an added object is dropped when "
                                     "the merge patch is applied"})
        elif type(v) is dict:
            _null_inside(v, ptr(path, k), notes, _depth + 1)


# --------------------------------------------------------------------------- exported values

class Export:
    """Values for the answer, numbers as written: a decimal is written as its source text
    (``texts``: id → text, see :mod:`.numtext`), and a decimal whose text looks like an integer
    (``12.3e1`` is Decimal('123')) keeps a decimal point so it stays a non-integer number."""

    def __init__(self, texts: dict | None = None, known: bool = True):
        # known: ``texts`` holds every number written otherwise (the source was checked, see
        # numtext); False for values parsed elsewhere, which get the integer-looking rule
        self.texts = texts if texts is not None else {}
        self.known = known

    def number(self, value: Decimal):
        text = self.texts.get(id(value))
        if text is not None:
            return orjson.Fragment(text)
        if value.is_finite() and value.as_tuple().exponent == 0:
            return orjson.Fragment(str(value) + ".0")
        return value

    def value(self, value):
        if self.known and not self.texts:
            # no number was written otherwise: a decimal's text is its str, which has a point
            # or an exponent (never looks like an integer) — nothing to change
            return value
        try:
            return self._value(value)
        except RecursionError:
            return value

    def _value(self, value):
        t = type(value)
        if t is Decimal:
            return self.number(value)
        if t is dict or t is list:
            out = None      # a copy only where something inside changes
            for k, v in (value.items() if t is dict else enumerate(value)):
                tv = type(v)
                if tv is dict or tv is list or tv is Decimal:
                    nv = self._value(v)
                    if nv is not v:
                        if out is None:
                            out = t(value)
                        out[k] = nv
            return value if out is None else out
        return value

    def patch(self, ops: list) -> list:
        for op in ops:
            if "value" in op:
                op["value"] = self.value(op["value"])
        return ops
