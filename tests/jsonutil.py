"""Helpers shared by the tests."""


def strict_equal(a, b):
    """Exact: same types (int vs float vs bool distinct), same values, keys unordered."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(strict_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b))
    return a == b


def altered(base: dict, over: dict, drop=None) -> dict:
    """A copy of ``base`` with the keys of ``over`` set, or removed where the value is ``drop``."""
    out = dict(base)
    for k, v in over.items():
        if v is drop:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def merge_apply(target, patch):
    """RFC 7386 MergePatch, as the RFC writes it (independent of the code under test): every
    merge-patch test applies the workbench's patches with this."""
    if isinstance(patch, dict):
        target = dict(target) if isinstance(target, dict) else {}
        for k, v in patch.items():
            if v is None:
                target.pop(k, None)
            else:
                target[k] = merge_apply(target.get(k), v)
        return target
    return patch


def log_chunks(items: list, target_bytes: int, seed: int) -> list[str]:
    """JSON texts of the given items (cycled, each with its ``seq`` and a random ``score``)
    until they add up to about ``target_bytes``: the items of a large log."""
    import json
    import random

    rng = random.Random(seed)
    parts, size, n = [], 2, 0
    while size < target_bytes:
        item = dict(items[n % len(items)])
        item["seq"] = n
        item["score"] = round(rng.random(), 6)
        chunk = json.dumps(item, ensure_ascii=False)
        parts.append(chunk)
        size += len(chunk.encode()) + 2
        n += 1
    return parts
