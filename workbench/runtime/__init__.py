"""What every request runs under: one work deadline, and memory handling for large documents.

The names are read from their modules when first asked for (``from ..runtime.memory import
collector_paused`` costs no deadline machinery and no ``threading``: ``workbench format`` starts
without them, issue 25)."""

from ..lazy import lazy_names

_WHERE = {"Deadline": "deadline", "Watchdog": "deadline", "current": "deadline",
          "timeout_error": "deadline", "collector_paused": "memory", "release_free_memory": "memory"}
__all__ = list(_WHERE)


__getattr__ = lazy_names(__name__, _WHERE, globals())
