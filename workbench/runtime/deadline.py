"""One deadline for every request's work (``work_timeout``), and the two ways it is enforced.

* :class:`Deadline` is the budget itself: ``check()`` raises the one ``timeout`` error once it is
  spent (cheap enough to call in a loop: it reads the clock every 256th call).  Cooperative code
  — the diff walk, the validator's keywords — calls it.
* ``Deadline.interrupting()`` (a :class:`Watchdog`) bounds code that cannot check: the JSONPath
  engines are plain library loops, so a timer thread raises inside the working thread at its
  next bytecode, without slowing the loop down.
* :func:`current` is the deadline set for this thread by ``with deadline:`` (keywords deep inside a
  library call find it there).
"""

from __future__ import annotations

import threading
import time

from ..errors import WorkbenchError

_local = threading.local()


def timeout_error(seconds: float, what: str = "The work", field: str | None = None) -> WorkbenchError:
    """The one ``timeout`` error of a spent work budget."""
    return WorkbenchError(
        "timeout", f"{what} ran longer than the limit of {seconds:g} s and was stopped (set "
        "--work-timeout or WORKBENCH_WORK_TIMEOUT to change it)", field=field, limit=seconds)


class Deadline:
    """``seconds`` of work from now (``None``: no limit).  ``with deadline:`` makes it the
    thread's :func:`current` deadline."""

    __slots__ = ("seconds", "what", "field", "at", "_ticks", "_saved")

    def __init__(self, seconds: float | None, what: str = "The work", field: str | None = None):
        self.seconds = seconds
        self.what = what
        self.field = field
        self.at = time.monotonic() + seconds if seconds else None
        self._ticks = 0

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() > self.at

    def remaining(self) -> float | None:
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def error(self) -> WorkbenchError:
        return timeout_error(self.seconds or 0, self.what, self.field)

    def check(self) -> None:
        """Raise the timeout error once the budget is spent (reads the clock every 256th call)."""
        self._ticks += 1
        if self.at is not None and not self._ticks & 255 and time.monotonic() > self.at:
            raise self.error()

    def check_now(self) -> None:
        if self.expired():
            raise self.error()

    def interrupting(self) -> "Watchdog":
        """A context that stops non-cooperative work in this thread when the budget is spent."""
        return Watchdog(self.remaining(), self.what, self.field, self.seconds)

    def __enter__(self) -> "Deadline":
        self._saved = getattr(_local, "deadline", None)
        _local.deadline = self
        return self

    def __exit__(self, *exc) -> bool:
        _local.deadline = self._saved
        return False


def current() -> Deadline | None:
    """The deadline this thread works under, if any."""
    return getattr(_local, "deadline", None)


class _WorkTimeout(BaseException):
    """Raised asynchronously in the working thread when the work budget is spent.

    A ``BaseException`` so that no ``except Exception`` inside an engine swallows it."""


def _set_async_exc(thread_id: int, exc) -> None:
    """Raise ``exc`` in thread ``thread_id`` at its next bytecode; ``exc=None`` withdraws an
    exception that is still pending (CPython's PyThreadState_SetAsyncExc)."""
    import ctypes  # (where it is used: a command that is never interrupted starts without it)
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               None if exc is None else ctypes.py_object(exc))


class Watchdog:
    """Bound the time of pure-Python work in the current thread (``with Watchdog(20): ...``).

    A timer thread raises :class:`_WorkTimeout` inside the working thread when the budget is
    spent; the engines are plain Python loops, so this interrupts them at the next bytecode,
    without slowing them down with checks.  Under the lock, finishing withdraws an exception
    that was set but not yet raised, so it can never escape after the work is done."""

    def __init__(self, seconds: float | None, what: str = "The query", field: str | None = "path",
                 limit: float | None = None):
        self.seconds = seconds
        self.what = what
        self.field = field
        self.limit = seconds if limit is None else limit
        self._lock = threading.Lock()
        self._done = False
        self.fired = False

    def _fire(self) -> None:
        with self._lock:
            if not self._done:
                self.fired = True
                _set_async_exc(self._thread_id, _WorkTimeout)

    def __enter__(self) -> "Watchdog":
        self._thread_id = threading.get_ident()
        if self.seconds is None:
            self._timer = None
            return self
        self._timer = threading.Timer(self.seconds, self._fire)
        self._timer.daemon = True
        try:
            self._timer.start()
            return self
        except _WorkTimeout:  # a budget shorter than starting a thread: __exit__ reports it
            return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        try:
            with self._lock:
                self._done = True
                if self.fired:
                    _set_async_exc(self._thread_id, None)
            if self._timer is not None:
                self._timer.cancel()
        except _WorkTimeout:
            exc_type = _WorkTimeout
        if exc_type is _WorkTimeout or self.fired:
            raise timeout_error(self.limit or 0, self.what, self.field) from None
        return False


