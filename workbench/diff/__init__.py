"""The Diff view: a semantic, line-aligned diff of two documents with RFC 6902 and RFC 7386 patches.

The package face: :func:`handle` (``POST /api/diff`` and the page), :func:`diff_texts` (two JSON
texts, for ``workbench diff``), :func:`diff_values` (two parsed values, for the Gate), and
:data:`REQUEST` (the request's fields).  Inside: :mod:`.core` (the request, the answer),
:mod:`.walk` (the comparison), :mod:`.align` (array alignment), :mod:`.ignore` (ignore patterns),
:mod:`.presets` (``providers``), :mod:`.render` (change list and aligned view), :mod:`.patch`
(the patches), :mod:`.texts` (exact change texts), :mod:`.numtext` (numbers as written),
:mod:`.suggest` (a match key to offer), :mod:`.engines` (DeepDiff as a second engine).
"""

from .core import REQUEST, diff_texts, diff_values, handle

__all__ = ["REQUEST", "handle", "diff_texts", "diff_values"]
