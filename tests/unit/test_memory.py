"""The heap trim after a large request must not stop the server: a full garbage collection walks
every live object while holding the GIL (about 1 s with a 20 MB document parsed by another
request), so the trim collects only the young generations and leaves the rest to refcounting."""

from __future__ import annotations

import json
import time

from workbench.runtime.memory import collector_paused, release_free_memory


def test_the_trim_is_quick_while_a_large_tree_is_alive():
    alive = json.loads(json.dumps([{"id": i, "name": f"item {i}", "tags": ["a", "b", {"k": i}]}
                                   for i in range(200_000)]))  # ~1.2 M objects another request holds
    release_free_memory()  # the first call may collect what building the tree left
    t0 = time.perf_counter()
    release_free_memory()
    took = time.perf_counter() - t0
    assert len(alive) == 200_000
    assert took < 0.05, f"the trim held the interpreter {took:.2f} s"


def test_objects_made_while_the_collector_was_paused_are_not_walked_by_the_next_young_collection():
    # the first young collection after a pause walked every object the pause made (2 M: 1.8 s
    # holding the GIL; /api/health waited 3 s at the end of a diff of 100,000 objects)
    import gc
    with collector_paused():
        alive = [{"id": i, "tags": [i]} for i in range(500_000)]  # 1,000,000 tracked objects
        t0 = time.perf_counter()
    made = [[] for _ in range(5_000)]  # enough new objects for the collector to run
    took = time.perf_counter() - t0
    assert gc.isenabled() and len(alive) == 500_000 and len(made) == 5_000
    assert took < 0.05, f"the first collection after the pause held the interpreter {took:.2f} s"


def test_a_transcript_leaves_no_cycle_for_the_collector():
    # what the collector's pause made is aged past the young collections, so a cycle would keep
    # a whole parse alive until a rare full collection: the spec check held its context (the
    # server kept +38 MB after each 5 MB recording)
    import gc

    from workbench.transcript import analyse
    text = "".join(json.dumps({"type": "function_call", "name": "f", "call_id": f"c{i}",
                               "arguments": "{}", "status": "completed"}) + "\n" for i in range(500))
    analyse(text)
    gc.collect()
    r = analyse(text)
    assert r["summary"]["calls"] == 500
    assert gc.collect() == 0


def test_shared_strings_are_shared_without_warnings_too():
    """``share_strings`` holds on the warnings-free path as well (the transcript parses with
    ``warnings=False``; the hook-free C decoder once skipped the sharing: a call-dense 11 MB
    recording went from 9x back to 11.4x its size through the server)."""
    from workbench.jsontext import parse
    text = "[" + ",".join('{"type": "function_call", "status": "completed"}' for _ in range(50)) + "]"
    for warnings in (True, False):
        items = parse(text, warnings=warnings, share_strings=True).value
        assert all(it["type"] is items[0]["type"] and it["status"] is items[0]["status"]
                   for it in items), warnings
