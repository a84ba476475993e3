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
