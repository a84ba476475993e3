"""Redaction as a core: typed, equality-preserving placeholders for every value of a JSON text,
JSON Lines or SSE stream (``POST /api/redact``, ``workbench redact``, the page's copy redacted)."""

from .core import (
                   INVENTED_ID,
                   KEEP_KEYS,
                   KEEP_SUFFIXES,
                   REQUEST,
                   TOOL_NAME_KEYS,
                   Redactor,
                   handle,
                   redact,
                   type_word_key,
)

__all__ = ["INVENTED_ID", "KEEP_KEYS", "KEEP_SUFFIXES", "REQUEST", "TOOL_NAME_KEYS", "Redactor",
           "handle", "redact", "type_word_key"]
