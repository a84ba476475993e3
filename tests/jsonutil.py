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
