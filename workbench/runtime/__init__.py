"""What every request runs under: one work deadline, and memory handling for large documents."""

from .deadline import Deadline, Watchdog, current, timeout_error
from .memory import collector_paused, release_free_memory

__all__ = ["Deadline", "Watchdog", "current", "timeout_error", "collector_paused", "release_free_memory"]
