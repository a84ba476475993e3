"""Redaction as a core: typed, equality-preserving placeholders for every value of a JSON text,
JSON Lines or SSE stream (``POST /api/redact``, ``workbench redact``, the page's copy redacted)."""

from .core import KEEP_KEYS, KEEP_SUFFIXES, REQUEST, Redactor, handle, redact

__all__ = ["KEEP_KEYS", "KEEP_SUFFIXES", "REQUEST", "Redactor", "handle", "redact"]
