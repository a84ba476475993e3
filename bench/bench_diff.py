"""Diff benchmark: this project (through the API and the core) against jsonpatch.make_patch and
DeepDiff on generated pairs, timed in one run, ratios printed.

    python bench/bench_diff.py            # 5 MB pairs (≈9,000 items, ~1% of leaves changed)
    python bench/bench_diff.py --quick    # 0.5 MB pairs, DeepDiff capped at 20 s

The data is seeded and realistic: distinct 64-bit ids (beyond float64), decimals written with
their own digits, non-ASCII text, deep items and a wide map of ids.  ``make_patch`` is timed with
the ``json.loads`` of both texts (the API reads both texts too); the answer's size is printed
against the input's (want ≤ 2×; the merge patch is only sent when asked).

Cases: the 5 MB pair (ordered), the same pair with ``ignore_order``, the same pair with the
``providers`` preset (ids, call_ids, timestamps… ignored), and a 5,000-item list against its
reverse.  DeepDiff runs in a subprocess killed after ``--cap`` seconds (reported
as "> cap s").  Targets: the API on the 5 MB pair at least as fast as ``jsonpatch.make_patch``
and at least 10× faster than DeepDiff defaults; ``ignore_order`` ≤ 3× the ordered time; the
preset at most 10% over the plain diff (``preset / ordered``, api and core, printed).
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing as mp
import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import Server  # noqa: E402

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
         "sigma tau upsilon phi chi psi omega weather paris berlin tokyo lookup search email").split()


NAMES = ("Zoë", "Łukasz", "Søren", "Ηλέκτρα", "Дмитрий", "أحمد", "佐藤", "김민준", "Ngọc", "José")


def make_item(rng: random.Random, n: int, ids: set, wide_ids: bool = True) -> dict:
    """A realistic Open Responses-like function call of about 500 bytes: a distinct 64-bit id
    (beyond float64's exact integers; ``wide_ids=False``: below 2^52), decimals written with
    their own digits (``12.50``), non-ASCII text, a nested (deep) context and a small map.
    Seeded: the same pair per seed."""
    bits, top = (64, 1 << 60) if wide_ids else (52, 0)
    uid = rng.getrandbits(bits) | top
    while uid in ids:
        uid = rng.getrandbits(bits) | top
    ids.add(uid)
    args = {"location": rng.choice(WORDS).title(), "days": rng.randint(1, 14),
            "who": rng.choice(NAMES)}
    cents = rng.randint(0, 10**7)
    return {
        "type": "function_call",
        "id": f"fc_{uid:016x}",
        "call_id": f"call_{rng.getrandbits(48):012x}",
        "user_id": uid,
        "name": rng.choice(["get_weather", "search_docs", "send_email", "lookup_user"]),
        "arguments": json.dumps(args, ensure_ascii=False, separators=(",", ":")),
        "status": "completed",
        "amount": Decimal(f"{cents // 100}.{cents % 100:02d}"),
        "rate": Decimal(f"0.{rng.randint(0, 10**6):06d}"),
        "note": f"{rng.choice(NAMES)} — {rng.choice(WORDS)} {rng.choice(WORDS)} ✓",
        "meta": {"seq": n, "score": round(rng.random() * 100, 2), "ms": rng.randint(5, 900),
                 "tags": rng.sample(WORDS, 2), "cached": rng.random() < 0.3, "parent": None,
                 "trace": {"a": {"b": {"c": {"d": [rng.randint(0, 9), {"e": rng.choice(WORDS)}]}}}}},
    }


def write(doc) -> str:
    """JSON text with the decimals and big integers exactly as made (the reference parses the
    same text with json.loads)."""
    from workbench.jsontext import dumps_value
    return dumps_value(doc).decode("utf-8")


def leaf_places(container, out: list) -> list:
    """(container, key) of every leaf (a value that is neither object nor array) below
    ``container``, depth first, appended to ``out``."""
    for key, v in (container.items() if isinstance(container, dict) else enumerate(container)):
        if isinstance(v, (dict, list)):
            leaf_places(v, out)
        else:
            out.append((container, key))
    return out


def mutate(doc, rng: random.Random, fraction: float):
    """A copy of ``doc`` with ``fraction`` of its leaves changed."""
    out = copy.deepcopy(doc)
    places = leaf_places(out, [])
    for parent, key in rng.sample(places, max(1, int(len(places) * fraction))):
        old = parent[key]
        if isinstance(old, bool):
            new = not old
        elif isinstance(old, int):
            new = old + 1
        elif isinstance(old, Decimal):
            new = old + Decimal("0.01")
        elif isinstance(old, float):
            new = round(old + 0.5, 3)
        elif old is None:
            new = "set"
        else:
            new = old + "-x"
        parent[key] = new
    return out


def make_pair(target_bytes: int, seed: int = 7, fraction: float = 0.01, wide_ids: bool = True):
    """Two documents of about ``target_bytes``: ``{"items": [...], "index": {...}}`` (deep items,
    a wide map of 2,000 ids), the second with ``fraction`` of the leaves changed."""
    rng = random.Random(seed)
    ids: set = set()
    items, size, n = [], 2, 0
    while size < target_bytes * 0.95:
        item = make_item(rng, n, ids, wide_ids)
        items.append(item)
        size += len(write(item)) + 2
        n += 1
    doc = {"items": items, "index": {f"u{item['user_id']}": i for i, item in enumerate(items[:2000])}}
    return doc, mutate(doc, rng, fraction)


def make_reverse(count: int = 5000, seed: int = 11):
    rng = random.Random(seed)
    ids: set = set()
    items = [make_item(rng, n, ids) for n in range(count)]
    return items, list(reversed(items))


# --------------------------------------------------------------------------- runners

def timed(fn, repeat=1):
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def _deepdiff_child(left_text, right_text, ignore_order, queue):
    from deepdiff import DeepDiff
    left, right = json.loads(left_text), json.loads(right_text)
    t0 = time.perf_counter()
    DeepDiff(left, right, ignore_order=ignore_order)
    queue.put(time.perf_counter() - t0)


def deepdiff_time(left_text, right_text, ignore_order, cap):
    """Seconds DeepDiff (defaults) takes, in a subprocess killed after ``cap`` seconds."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_deepdiff_child, args=(left_text, right_text, ignore_order, q))
    p.start()
    p.join(cap)
    if p.is_alive():
        p.kill()
        p.join()
        return None
    return q.get() if not q.empty() else None


def fmt_s(t):
    return "> cap" if t is None else f"{t:.3f} s"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="0.5 MB pairs, DeepDiff capped at 20 s")
    ap.add_argument("--cap", type=float, default=None, help="seconds before DeepDiff is killed (default 120)")
    ap.add_argument("--repeat", type=int, default=None, help="runs per timing (median)")
    ap.add_argument("--no-deepdiff", action="store_true")
    args = ap.parse_args(argv)
    size = 500_000 if args.quick else 5_000_000
    cap = args.cap or (20.0 if args.quick else 120.0)
    repeat = args.repeat or (3 if args.quick else 3)
    reverse_n = 1000 if args.quick else 5000

    import jsonpatch

    from workbench.diff import diff_values
    from workbench.jsontext import parse

    left, right = make_pair(size)
    lt, rt = write(left), write(right)
    rl, rr = make_reverse(reverse_n)
    rlt, rrt = write(rl), write(rr)
    print(f"pair: {len(lt) / 1e6:.2f} MB / {len(rt) / 1e6:.2f} MB, {len(left['items']):,} items; "
          f"reverse: {reverse_n:,} items ({len(rlt) / 1e6:.2f} MB)")

    rows = []
    with Server(env={"WORKBENCH_WORK_TIMEOUT": "0"}) as server:     # timed, not stopped
        def api(l_text, r_text, **opts):
            def run():
                _, status, data = server.post("/api/diff", json.dumps(
                    {"left": l_text, "right": r_text, **opts}).encode())
                body = json.loads(data)
                if status != 200:
                    raise RuntimeError(f"/api/diff answered {status}: {data[:300]!r}")
                body["_bytes"] = len(data)
                return body
            return run

        def core(l_text, r_text, **opts):
            def run():
                lv = parse(l_text, field="left").value
                rv = parse(r_text, field="right").value
                return diff_values(lv, rv, **opts)
            return run

        def make_patch(l_text, r_text):
            # json.loads of both texts and make_patch, as the API reads both texts itself
            return lambda: jsonpatch.make_patch(json.loads(l_text), json.loads(r_text))

        cases = [("5MB ordered" if not args.quick else "0.5MB ordered", lt, rt, {}),
                 ("5MB ignore_order" if not args.quick else "0.5MB ignore_order", lt, rt, {"ignore_order": True}),
                 ("5MB preset providers" if not args.quick else "0.5MB preset providers", lt, rt, {"preset": "providers"}),
                 (f"reverse {reverse_n}", rlt, rrt, {})]
        server.api("diff", b'{"left": "[1]", "right": "[2]"}')   # warm up
        for name, a, b, opts in cases:
            t_api, res = timed(api(a, b, **opts), repeat)
            t_core, core_res = timed(core(a, b, **opts), repeat)
            t_jp, _ = timed(make_patch(a, b), repeat) if not opts else (None, None)
            t_dd = (None if args.no_deepdiff or "preset" in opts
                    else deepdiff_time(a, b, bool(opts.get("ignore_order")), cap))
            row = {"case": name, "api_s": t_api, "core_s": t_core, "make_patch_s": t_jp,
                   "deepdiff_s": t_dd, "deepdiff_cap_s": cap, "changes": res["count"],
                   "patch_ops": len(res["patch"]), "answer_bytes": res["_bytes"],
                   "input_bytes": len(a.encode()) + len(b.encode())}
            rows.append(row)
            print(f"{name:22} api {t_api:7.3f} s  core {t_core:7.3f} s  make_patch "
                  f"{'-' if t_jp is None else f'{t_jp:.3f} s':>9}  deepdiff "
                  f"{'skipped' if args.no_deepdiff or 'preset' in opts else fmt_s(t_dd) if t_dd else f'> {cap:.0f} s':>9}  "
                  f"changes {res['count']:,}  ops {len(res['patch']):,}  "
                  f"answer {row['answer_bytes'] / row['input_bytes']:.2f}x the input")
    ordered, unordered, preset = rows[0], rows[1], rows[2]
    print()
    print(f"make_patch incl. json.loads / api (ordered, want ≥ 1): "
          f"{ordered['make_patch_s'] / ordered['api_s']:.2f}")
    print(f"answer / input (ordered, want ≤ 2): {ordered['answer_bytes'] / ordered['input_bytes']:.2f}")
    if ordered["deepdiff_s"]:
        print(f"deepdiff / api (ordered, want ≥ 10): {ordered['deepdiff_s'] / ordered['api_s']:.1f}")
    elif not args.no_deepdiff:
        print(f"deepdiff / api (ordered, want ≥ 10): > {cap / ordered['api_s']:.1f} (DeepDiff killed at {cap:.0f} s)")
    print(f"ignore_order / ordered (api, want ≤ 3): {unordered['api_s'] / ordered['api_s']:.2f}")
    if not args.no_deepdiff:
        dd, api_u = unordered["deepdiff_s"], unordered["api_s"]
        shown = f"{dd / api_u:.1f}" if dd else f"> {cap / api_u:.0f} (DeepDiff killed at {cap:.0f} s)"
        print(f"deepdiff / api (ignore_order): {shown}")
    print(f"preset / ordered (api, want ≤ 1.10): {preset['api_s'] / ordered['api_s']:.2f}; "
          f"core: {preset['core_s'] / ordered['core_s']:.2f}")
    rev = rows[3]
    if rev["deepdiff_s"]:
        print(f"reverse: deepdiff / api: {rev['deepdiff_s'] / rev['api_s']:.1f}")
    if rev["make_patch_s"]:
        print(f"reverse: make_patch / api: {rev['make_patch_s'] / rev['api_s']:.2f}")
    return rows


if __name__ == "__main__":
    main()
