"""DeepDiff as a clearly labelled second engine (``engine: "deepdiff"``), the way jsonpath-ng is
in Extract: the same request, DeepDiff's own report — its change types (``values_changed``,
``type_changes``, ``dictionary_item_added``, ``iterable_item_removed``…) and its paths
(``root['output'][1]['arguments']``) — each with our JSON Pointer beside it, for people who know
its output or want a second opinion.  Numbers are compared by value (``1`` = ``1.0``:
``ignore_numeric_type_changes``); ignore patterns and the preset's fields are excluded through
the same matcher as the main engine; JSON inside strings is compared as text.

DeepDiff is slow on large documents (it walks every node in Python and, with ``ignore_order``,
hashes every subtree), so it is refused with a 413 ``too_large`` above a size measured on this
machine (bench's generated item lists, DeepDiff 9.1, ``view="tree"``, 2 shared cores; characters per
side → seconds):

    ordered        25 kB 0.11 s · 50 kB 0.15 s · 100 kB 0.18 s · 200 kB 0.37 s · 400 kB 0.97 s · 800 kB 3.88 s
    ignore_order   25 kB 0.31 s · 50 kB 0.61 s · 100 kB 2.09 s · 200 kB 10.2 s · 400 kB 70.3 s

The limits below are where it passes about 2 s.  It also runs under the request's work deadline
(a :class:`~workbench.runtime.Watchdog`), so it is stopped, never left to hang.
"""

from __future__ import annotations

from ..errors import WorkbenchError
from ..jsontext import dumps_value, pointer_of
from ..limits import DEEPDIFF_MAX_CHARS as MAX_CHARS
from ..limits import DEEPDIFF_MAX_CHARS_UNORDERED as MAX_CHARS_UNORDERED


def deepdiff_report(left, right, opts, limits, deadline, export) -> dict:
    """DeepDiff's report of ``left`` → ``right`` (exact values) as an answer."""
    from deepdiff import DeepDiff, __version__
    from deepdiff.helper import NotPresent

    limit = MAX_CHARS_UNORDERED if opts.ignore_order else MAX_CHARS
    size = max(_size(left), _size(right))
    if size > limit:
        raise WorkbenchError(
            "too_large", f"The DeepDiff engine takes documents of up to {limit:,} bytes "
            f"({limit / 1e6:.1f} MB) per side written as compact JSON"
            f"{' with ignore_order' if opts.ignore_order else ''}; the larger side here is "
            f"{size:,} bytes ({size / 1e6:.2f} MB) written so: it gets slow above that. Use the "
            "default engine for large documents.",
            status=413, field="engine", limit=limit)
    ignore = opts.ignore()
    kwargs = {"ignore_order": opts.ignore_order, "ignore_numeric_type_changes": True,
              "view": "tree", "verbose_level": 2}
    if ignore is not None:
        from deepdiff.path import parse_path

        def excluded(_obj, path):
            try:
                return ignore.match(parse_path(path))
            except Exception:       # a path DeepDiff writes that we cannot read: compared
                return False
        kwargs["exclude_obj_callback"] = excluded
    if opts.tolerance is not None and opts.tolerance[0] is not None:
        kwargs["math_epsilon"] = float(opts.tolerance[0])
    report: list = []
    with deadline.interrupting():       # DeepDiff and the reading of its report
        tree = DeepDiff(left, right, **kwargs)
        for kind in sorted(tree.keys()):
            for level in sorted(tree[kind], key=lambda lv: lv.path()):
                parts = level.path(output_format="list")
                rec = {"type": kind, "path": level.path(), "pointer": pointer_of(parts)}
                if not isinstance(level.t1, NotPresent):
                    rec["left"] = _text(level.t1, export)
                if not isinstance(level.t2, NotPresent):
                    rec["right"] = _text(level.t2, export)
                report.append(rec)
                if len(report) >= limits.max_changes:
                    break
    return {"engine": "deepdiff", "engine_version": __version__, "equal": not report,
            "count": len(report), "deepdiff": report,
            "note": "DeepDiff's own report (a second opinion): its change types and paths, "
                    "with the JSON Pointer of each"}


def _text(value, export) -> str:
    text = dumps_value(export.value(value)).decode("utf-8", "surrogatepass")
    return text if len(text) <= 10_000 else text[:10_000] + "…"


def _size(value) -> int:
    try:
        return len(dumps_value(value))
    except Exception:
        return 0
