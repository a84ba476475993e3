"""The Diff view: a semantic, line-aligned diff of two documents with an RFC 6902 patch."""

from .compare import REQUEST, diff_values, handle

__all__ = ["REQUEST", "handle", "diff_values"]
