"""Memory: the garbage-collector pause for building large trees, the glibc allocator settings
and the heap trims that give a large request's memory back (measured in tests/load)."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from _thread import allocate_lock

_gc_lock = allocate_lock()   # (threading.Lock itself, without importing threading: start-up, issue 25)
_gc_pausers = 0


@contextlib.contextmanager
def collector_paused():
    """Pause the cyclic garbage collector while large trees are built (parsing creates
    millions of objects, none of them cyclic: the collector's passes cost about a third of
    the parse).  Safe across threads: it runs again when the last pauser leaves."""
    global _gc_pausers
    with _gc_lock:
        if _gc_pausers == 0 and not gc.isenabled():
            owner = False  # someone else turned it off; leave it as it is
        else:
            owner = True
            _gc_pausers += 1
            gc.disable()
    try:
        yield
    finally:
        if owner:
            with _gc_lock:
                _gc_pausers -= 1
                if _gc_pausers == 0:
                    _age_young_objects()
                    gc.enable()


def _age_young_objects() -> None:
    """Move every object the collector tracks into its oldest generation, in constant time
    (``freeze`` then ``unfreeze``: two list splices).  Everything made while the collector was
    paused is still "young": the first young collection after it walked them all holding the
    GIL (1.8 s for 2 M objects, 3 s under load: ``/api/health`` waited that long at the end of a
    large diff or transcript).  The oldest generation is collected in full only rarely, and
    what a request built is freed by reference counting (its trees hold no cycles)."""
    gc.freeze()
    gc.unfreeze()




_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """This process's resident memory now (Linux; 0 elsewhere): one small read of /proc."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def release_free_memory() -> None:
    """Collect the young garbage and ask glibc to return freed heap pages (no-op elsewhere).

    Only the young generations: a full collection walks every live object holding the GIL
    (1.0 s with 3.6 M objects alive in another request: every other request waited); what a
    finished request leaves is freed by reference counting (its trees hold no cycles), and
    ``malloc_trim`` runs without the GIL (ctypes releases it)."""
    gc.collect(1)
    import ctypes  # (imported where used: start-up, issue 25)
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def tune_malloc() -> None:
    """glibc only: one malloc arena for all threads, so the heap trims after a large request
    give its memory back (measured in tests/load/test_load.py; a fixed mmap threshold was tried
    and cost 7% of parse speed for nothing more).  Elsewhere a no-op."""
    import ctypes
    try:
        ctypes.CDLL("libc.so.6").mallopt(-8, 1)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass


def use_system_malloc() -> None:
    """Restart this very command once with ``PYTHONMALLOC=malloc`` (Linux, unless the user set
    PYTHONMALLOC).  Python's own small-object arenas stay pinned by a few long-lived objects
    made while a 20 MB document was being parsed beside other requests (measured: 47 MB at
    start, 133 MB after); with glibc's malloc and the trims after large requests it returns to
    ~50 MB, for about 10% of parse speed."""
    if sys.platform.startswith("linux") and "PYTHONMALLOC" not in os.environ:
        os.environ["PYTHONMALLOC"] = "malloc"
        try:
            os.execve(sys.executable, sys.orig_argv, os.environ)
        except OSError:
            pass  # run on as we are


def reset_peak() -> None:
    """Linux: start the resident high-water mark (``VmHWM``) afresh, so :func:`peak_bytes`
    measures from here (``/proc/self/clear_refs``; a no-op elsewhere)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_bytes() -> int:
    """Linux: the resident high-water mark since the start or :func:`reset_peak` (0 elsewhere)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0
