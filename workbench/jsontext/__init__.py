"""JSON text, exactly: strict parsing with positions, the one exact writer, pointers, equality.

Every view reads and writes JSON through this package and nowhere else:

* :mod:`.parse` — strict RFC 8259 parsing into exact values (:func:`parse` → :class:`Parsed`);
* :mod:`.positions` — offset → line/column (:class:`LineIndex`), the caret :func:`snippet`,
  :func:`error_at`, and value spans at pointers (:func:`locate_many`);
* :mod:`.diagnose` — the plain messages for text that is not JSON;
* :mod:`.warnings` — duplicate keys, lone surrogates, unsafe integers;
* :mod:`.pointer` — RFC 6901 pointers and RFC 9535 normalized paths;
* :mod:`.write` — the exact writer used for every answer;
* :mod:`.equal` — JSON equality with exact numbers (``1`` and ``1.0`` equal, ``1`` and ``true`` not),
  and "the same JSON, spelled the same" (:func:`same_json`, :func:`ctext`, :func:`identical`) for the diff.
"""

from ..lazy import lazy_names
from .parse import (
    NOT_QUICK,
    ORJSON_MAX_DEPTH,
    NotQuickArray,
    NumberText,
    Parsed,
    array_elements,
    check_depth,
    parse,
    quick_value,
)
from .write import dumps_tree, dumps_value, encode_string, plain_dumps, scalar_text

# the rest is read from its module when first asked for: formatting a small document needs only
# the parser and the writer (start-up, issue 25)
_LAZY = {
    **dict.fromkeys(("ctext", "ctext_fast", "identical", "json_equal", "same_json"), "equal"),
    **dict.fromkeys(("escape_token", "normalized_path", "pointer_of", "split_pointer", "unescape_token"),
                    "pointer"),
    **dict.fromkeys(("LineIndex", "Span", "element_spans", "error_at", "line_col", "line_cols", "locate_many",
                     "skip_value", "snippet", "walk"), "positions"),
}


__getattr__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "parse", "Parsed", "NumberText", "check_depth", "ORJSON_MAX_DEPTH",
    "quick_value", "NOT_QUICK", "array_elements", "NotQuickArray",
    "LineIndex", "Span", "line_col", "line_cols", "snippet", "error_at", "locate_many", "skip_value", "walk",
    "element_spans",
    "pointer_of", "split_pointer", "escape_token", "unescape_token", "normalized_path",
    "dumps_value", "dumps_tree", "plain_dumps", "scalar_text", "encode_string", "json_equal",
    "ctext", "ctext_fast", "identical", "same_json",
]
