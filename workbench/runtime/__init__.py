"""What every request runs under: one work deadline, and memory handling for large documents.

The names are read from their modules when first asked for (``from ..runtime.memory import
collector_paused`` costs no deadline machinery and no ``threading``: ``workbench format`` starts
without them, issue 25)."""

_WHERE = {"Deadline": "deadline", "Watchdog": "deadline", "current": "deadline",
          "timeout_error": "deadline", "collector_paused": "memory", "release_free_memory": "memory"}
__all__ = list(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
