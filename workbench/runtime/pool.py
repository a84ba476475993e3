"""Work spread over processes with exactly the output of one: :func:`map_ordered` runs
``fn(item)`` for every item on ``jobs`` worker processes and yields the results in the items'
order (so ``--jobs 1`` and ``--jobs 4`` print the same bytes), with at most ``2 × jobs`` items
in flight (memory stays flat over any number of items).  ``jobs <= 1`` runs in this process.
A worker that dies (killed, out of memory) is the WorkbenchError ``worker_lost``, said once.
"""

from __future__ import annotations

import os
from collections import deque

from ..errors import WorkbenchError


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def worker_lost(done: str, field: str | None = None) -> WorkbenchError:
    return WorkbenchError("worker_lost", f"a worker process stopped (killed, or out of memory) "
                          f"after {done}; nothing more is reported", field=field)


def map_ordered(fn, items, jobs: int, *, initializer=None, initargs=(), field=None,
                progress=lambda: "some of the work"):
    """``fn(item)`` for each of ``items``, in order, on ``jobs`` processes (``fork`` where
    there is one, so the workers start warm).  ``progress()`` says how far it got, for the
    ``worker_lost`` message."""
    if jobs <= 1:
        if initializer is not None:
            initializer(*initargs)
        for item in items:
            yield fn(item)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        context = multiprocessing.get_context()
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=initializer,
                               initargs=initargs)
    flight: deque = deque()
    try:
        for item in items:
            flight.append(pool.submit(fn, item))
            while len(flight) >= 2 * jobs:
                yield flight.popleft().result()
        while flight:
            yield flight.popleft().result()
    except BrokenProcessPool:
        raise worker_lost(progress(), field) from None
    finally:
        for fut in flight:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
