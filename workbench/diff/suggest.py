"""A match key to offer: when array items that carry ids were not paired by them (they moved,
or were removed and added), the answer suggests matching by that key with the number of changes
it gives (``suggest: {match_key, changes_with, changes_now}``), found by diffing those arrays
again with the key.  Only arrays of at most :data:`MAX_ITEMS` items are tried, so the suggestion
never costs more than a small part of the diff."""

from __future__ import annotations

from ..jsontext import ctext
from .render import Render
from .walk import ADD, ADDS, ARR, DEL, DELS, MVF, OBJ, PAIR, STR, SUB, Differ

KEYS = ("call_id", "id", "item_id", "key")
MAX_ITEMS = 2_000
MAX_ARRAYS = 20


def _arrays(node, out, depth=0):
    if node is None or depth > 50 or len(out) >= MAX_ARRAYS:
        return
    kind = node[0]
    if kind == OBJ:
        for _k, what, payload in node[1]:
            if what == SUB:
                _arrays(payload, out, depth + 1)
    elif kind == ARR:
        out.append(node)
        for e in node[1]:
            if e[3] is not None:
                _arrays(e[3], out, depth + 1)
    elif kind == STR:
        _arrays(node[3], out, depth + 1)


def _candidate(node):
    """A key that every item of both arrays carries, unique on each side, shared by some."""
    _, entries, l, r, _unordered = node
    tags = {{DELS: DEL, ADDS: ADD}.get(e[0], e[0]) for e in entries}
    loose = MVF in tags or (ADD in tags and DEL in tags)
    if not (loose or PAIR in tags):
        return None
    if not l or not r or len(l) + len(r) > MAX_ITEMS:
        return None
    if not all(type(x) is dict for x in l) or not all(type(x) is dict for x in r):
        return None
    for key in KEYS:
        if not all(key in x for x in l) or not all(key in x for x in r):
            continue
        lk = [ctext(x[key]) for x in l]
        rk = [ctext(x[key]) for x in r]
        if not (len(set(lk)) == len(lk) and len(set(rk)) == len(rk) and set(lk) & set(rk)):
            continue
        # paired by content although their keys differ: the key would pair them otherwise
        if loose or any(e[0] == PAIR and lk[e[1]] != rk[e[2]] for e in entries):
            return key
    return None


def suggest_match_key(node, opts, limits, deadline, count: int):
    arrays: list = []
    _arrays(node, arrays)
    for arr in arrays:
        key = _candidate(arr)
        if key is None:
            continue
        l, r = arr[2], arr[3]
        now = Render(view=False, max_changes=0)
        now.render(arr, l, r, "", "", 0, "", "", "", "", None)
        differ = Differ(ignore_order=opts.ignore_order, match_key=key,
                        parse_strings=opts.parse_strings, max_depth=limits.max_depth,
                        deadline=deadline, tolerance=opts.tolerance)
        keyed = Render(view=False, max_changes=0)
        keyed.run(differ.diff(l, r), l, r)
        with_key = count - now.count + keyed.count
        if with_key < count:
            return {"match_key": key, "changes_with": with_key, "changes_now": count}
    return None
