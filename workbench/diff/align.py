"""Array alignment for the diff: which items of the left array correspond to which of the right.

* :func:`lcs_pairs` — ordered alignment of two sequences of item identities (canonical
  hashes, or match-key values): common prefix and suffix first, then patience anchors
  (identities unique on both sides, longest increasing run), recursing between anchors;
  ranges without unique identities fall back to ``difflib.SequenceMatcher`` (exact on small
  ranges, its popularity heuristic on big ones so repeated values never go quadratic).
* :func:`pair_gap` — inside a run of unmatched items, which left item became which right
  item (so a changed object is diffed member by member instead of removed and re-added):
  a small dynamic programme maximising similarity, positional pairing for large runs.
* :func:`pair_unordered` — the same for ``ignore_order``, through an inverted index of
  member hashes so 5,000 × 5,000 leftovers do not cost 25 million comparisons.
* :class:`Fenwick` — prefix counts, used to compute the indices of ``move`` operations.
"""

from __future__ import annotations

from bisect import bisect_left
from difflib import SequenceMatcher
from math import isqrt
from typing import Callable, Hashable, Sequence

EXACT_SM_LIMIT = 40_000     # range product up to which SequenceMatcher runs without autojunk
DP_LIMIT = 2_500            # gap product up to which pairing is optimised


def _lis(cands: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest run of ``(i, j)`` (sorted by j) with increasing i."""
    tails: list[int] = []          # smallest i ending a run of each length
    tail_at: list[int] = []        # index into cands of that tail
    prev = [-1] * len(cands)
    for k, (i, _j) in enumerate(cands):
        p = bisect_left(tails, i)
        if p == len(tails):
            tails.append(i)
            tail_at.append(k)
        else:
            tails[p] = i
            tail_at[p] = k
        prev[k] = tail_at[p - 1] if p else -1
    out = []
    k = tail_at[-1] if tail_at else -1
    while k != -1:
        out.append(cands[k])
        k = prev[k]
    out.reverse()
    return out


def lcs_pairs(a: Sequence[Hashable], b: Sequence[Hashable],
              tick: Callable[[], None] | None = None, deadline=None) -> list[tuple[int, int]]:
    """Monotone pairs ``(i, j)`` with ``a[i] == b[j]``, sorted; a long common subsequence.
    ``tick``: the work deadline's check; ``deadline``: that deadline, whose watchdog bounds
    SequenceMatcher (a library loop that cannot check) on large ranges."""
    out: list[tuple[int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        a0, a1, b0, b1 = stack.pop()
        while a0 < a1 and b0 < b1 and a[a0] == b[b0]:
            out.append((a0, b0))
            a0 += 1
            b0 += 1
        while a0 < a1 and b0 < b1 and a[a1 - 1] == b[b1 - 1]:
            a1 -= 1
            b1 -= 1
            out.append((a1, b1))
        if a0 == a1 or b0 == b1:
            continue
        if tick:
            tick()
        seen_a: dict = {}
        for i in range(a0, a1):
            x = a[i]
            seen_a[x] = -1 if x in seen_a else i
        seen_b: dict = {}
        for j in range(b0, b1):
            x = b[j]
            if x in seen_a:
                seen_b[x] = -1 if x in seen_b else j
        if not seen_b:          # nothing in common: no pairs here
            continue
        cands = [(seen_a[x], j) for x, j in seen_b.items() if j >= 0 and seen_a[x] >= 0]
        if cands:
            cands.sort(key=lambda c: c[1])
            anchors = _lis(cands)
            pa, pb = a0, b0
            for i, j in anchors:
                if i > pa and j > pb:
                    stack.append((pa, i, pb, j))
                out.append((i, j))
                pa, pb = i + 1, j + 1
            if pa < a1 and pb < b1:
                stack.append((pa, a1, pb, b1))
            continue
        found = myers(a, b, a0, a1, b0, b1, tick=tick)
        if found is not None:
            out.extend(found)
            continue
        small = (a1 - a0) * (b1 - b0) <= EXACT_SM_LIMIT
        if not small and min(a1 - a0, b1 - b0) <= SHORT_SIDE:
            out.extend(_greedy(a, b, a0, a1, b0, b1))
            continue
        sm = SequenceMatcher(None, a[a0:a1], b[b0:b1], autojunk=not small)
        if small or deadline is None:
            blocks = sm.get_matching_blocks()
        else:
            with deadline.interrupting():
                blocks = sm.get_matching_blocks()
        for blk in blocks:
            for k in range(blk.size):
                out.append((a0 + blk.a + k, b0 + blk.b + k))
    out.sort()
    return out


MYERS_WORK = 2_000_000      # steps before Myers gives up (then SequenceMatcher decides)
SHORT_SIDE = 8              # a range this short against a long one is matched greedily


def _greedy(a, b, a0, a1, b0, b1):
    """Pairs for a short range against a long one (5 million items against ``[2]``): each
    item of the short side at its next occurrence on the long side, found by ``list.index``
    (C speed) — where SequenceMatcher would walk the long side in Python."""
    flip = a1 - a0 > b1 - b0
    if flip:
        a, b, a0, a1, b0, b1 = b, a, b0, b1, a0, a1
    pairs = []
    at = b0
    for i in range(a0, a1):
        try:
            j = b.index(a[i], at, b1)
        except ValueError:
            continue
        pairs.append((j, i) if flip else (i, j))
        at = j + 1
    return pairs


def myers(a, b, a0, a1, b0, b1, budget: int = MYERS_WORK, tick=None):
    """A shortest edit script between ``a[a0:a1]`` and ``b[b0:b1]`` (Myers' greedy
    algorithm): the matched pairs, or None when it needs more than ``budget`` steps.  Used
    where patience finds no anchor (repeated values): cheap when the ranges differ little.
    Step d costs at least 2d + 1, so the budget allows d up to about its square root: the
    diagonals array is sized for that, not for n + m (5 million items against one were
    80 MB of it)."""
    n, m = a1 - a0, b1 - b0
    if abs(n - m) * abs(n - m) > budget:      # needs at least |n - m| steps
        return None
    max_d = min(n + m, isqrt(budget) + 1)
    off = max_d + 1
    v = [0] * (2 * max_d + 3)
    trace: list = []
    work = 0
    for d in range(max_d + 1):
        if tick:
            tick()
        trace.append(v[off - d - 1:off + d + 2])
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[off + k - 1] < v[off + k + 1]):
                x = v[off + k + 1]
            else:
                x = v[off + k - 1] + 1
            y = x - k
            sx = x
            while x < n and y < m and a[a0 + x] == b[b0 + y]:
                x += 1
                y += 1
            work += 1 + x - sx
            v[off + k] = x
            if x >= n and y >= m:
                return _myers_path(trace, d, n, m, a0, b0)
        work += 2 * d + 1
        if work > budget:
            return None
    return None


def _myers_path(trace, dmax, n, m, a0, b0):
    pairs = []
    x, y = n, m
    for d in range(dmax, 0, -1):
        snap = trace[d]               # v[-d-1 .. d+1] as it was before step d
        base = d + 1                  # index of k = 0 in snap
        k = x - y
        if k == -d or (k != d and snap[base + k - 1] < snap[base + k + 1]):
            pk = k + 1
        else:
            pk = k - 1
        px = snap[base + pk]
        py = px - pk
        sx = px if pk == k + 1 else px + 1     # where the snake of step d began
        sy = sx - k
        while x > sx and y > sy:
            x -= 1
            y -= 1
            pairs.append((a0 + x, b0 + y))
        x, y = px, py
    while x > 0 and y > 0:
        x -= 1
        y -= 1
        pairs.append((a0 + x, b0 + y))
    pairs.reverse()
    return pairs


def pair_gap(li: list[int], rj: list[int], sim: Callable[[int, int], float]) -> list[tuple[int, int]]:
    """Monotone pairs between the unmatched left indices ``li`` and right indices ``rj`` of
    one gap, maximising the summed similarity (pairs of similarity 0 are never made)."""
    n, m = len(li), len(rj)
    if not n or not m:
        return []
    if n == 1 and m == 1:
        return [(li[0], rj[0])] if sim(li[0], rj[0]) > 0 else []
    if n * m > DP_LIMIT:
        return [(i, j) for i, j in zip(li, rj) if sim(i, j) > 0]
    s = [[sim(li[x], rj[y]) for y in range(m)] for x in range(n)]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for x in range(1, n + 1):
        row, up, sx = best[x], best[x - 1], s[x - 1]
        for y in range(1, m + 1):
            v = up[y] if up[y] >= row[y - 1] else row[y - 1]
            d = sx[y - 1]
            if d > 0 and up[y - 1] + d > v:
                v = up[y - 1] + d
            row[y] = v
    pairs = []
    x, y = n, m
    while x and y:
        d = s[x - 1][y - 1]
        if d > 0 and best[x][y] == best[x - 1][y - 1] + d:
            pairs.append((li[x - 1], rj[y - 1]))
            x -= 1
            y -= 1
        elif best[x][y] == best[x - 1][y]:
            x -= 1
        else:
            y -= 1
    pairs.reverse()
    return pairs


def pair_unordered(li: list[int], rj: list[int], sim: Callable[[int, int], float],
                   features: Callable[[int, str], list],
                   tick: Callable[[], None] = lambda: None) -> list[tuple[int, int]]:
    """Pairs between unmatched left and right items when order does not matter.

    Small sets: greedy on the best similarities.  Large sets: candidates share a rare
    feature (a member with the same value); what is left is paired in order."""
    n, m = len(li), len(rj)
    if not n or not m:
        return []
    if n * m <= DP_LIMIT:
        scored = sorted(((sim(i, j), x, y) for x, i in enumerate(li) for y, j in enumerate(rj)),
                        key=lambda t: (-t[0], t[1], t[2]))
        used_l, used_r, pairs = set(), set(), []
        for score, x, y in scored:
            if score <= 0 or x in used_l or y in used_r:
                continue
            used_l.add(x)
            used_r.add(y)
            pairs.append((li[x], rj[y]))
        return pairs
    index: dict = {}
    for y, j in enumerate(rj):
        tick()
        for f in features(j, "right"):
            index.setdefault(f, []).append(y)
    rare = {f: ys for f, ys in index.items() if len(ys) <= 64}
    used_r: set[int] = set()
    pairs: list[tuple[int, int]] = []
    rest_l: list[int] = []
    for i in li:
        tick()
        counts: dict[int, int] = {}
        for f in features(i, "left"):
            for y in rare.get(f, ()):
                if y not in used_r:
                    counts[y] = counts.get(y, 0) + 1
        if counts:
            y = max(counts, key=lambda k: (counts[k], -k))
            used_r.add(y)
            pairs.append((i, rj[y]))
        else:
            rest_l.append(i)
    rest_r = [j for y, j in enumerate(rj) if y not in used_r]
    pairs.extend((i, j) for i, j in zip(rest_l, rest_r) if sim(i, j) > 0)
    return pairs


class Fenwick:
    """Prefix sums over ``n`` slots (all 0 at first)."""

    __slots__ = ("n", "tree")

    def __init__(self, n: int):
        self.n = n
        self.tree = [0] * (n + 1)

    def add(self, i: int, delta: int) -> None:
        i += 1
        tree, n = self.tree, self.n
        while i <= n:
            tree[i] += delta
            i += i & -i

    def before(self, i: int) -> int:
        """Sum of slots ``0 .. i-1``."""
        s = 0
        tree = self.tree
        while i > 0:
            s += tree[i]
            i -= i & -i
        return s
