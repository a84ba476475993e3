"""Conversion benchmark: a 20 MB Open Responses transcript (bench_transcript's seeded generator,
without the shared fixtures' calls a conversion refuses: ``common.convertible``) converted to
each other dialect in-process, against ``json.loads`` of the same text, in the same run.

    python bench/bench_convert.py                 # 20 MB
    python bench/bench_convert.py --size-mb 2     # smaller

Timed (best of ``--repeat``): the conversion itself (read into the neutral conversation, every
arguments text parsed exactly, written in the target) and the whole answer (with the target's
transcript check of the converted text, which is most of it).  ``main()`` returns the rows.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import arguments, best, print_table, realistic_transcript, rel  # noqa: E402


def convert_only(text: str, to: str):
    """The conversion without the target's check: read, write."""
    from workbench.convert.core import DIALECTS, _Budget, _source
    from workbench.dialects.conversation import Reading, write_text
    from workbench.limits import Limits
    limits = Limits(work_timeout=0)
    t0 = time.perf_counter()
    kind, value, _r = _source(text, None, _Budget(limits), limits)
    reading = Reading("open_responses", limits.max_depth)
    conv = DIALECTS["open_responses"].read_conversation(value, reading)
    out = write_text(DIALECTS[to].write_conversation(conv, reading))
    return time.perf_counter() - t0, len(out)


def whole(text: str, to: str):
    from workbench.convert import convert
    from workbench.limits import Limits
    t0 = time.perf_counter()
    r = convert(text, to, limits=Limits(work_timeout=0))
    return time.perf_counter() - t0, r["summary"]


def main(argv=None) -> list:
    args = arguments(__doc__, repeat=1, size="size of the generated transcript").parse_args(argv)
    path = realistic_transcript(args.size_mb, for_conversion=True)
    text = path.read_text(encoding="utf-8")
    t0 = time.perf_counter()
    json.loads(text)
    ref = time.perf_counter() - t0
    rows = []
    for to in ("anthropic", "gemini", "chat"):
        t_conv, n = best(lambda to=to: convert_only(text, to), args.repeat)
        t_all, summary = best(lambda to=to: whole(text, to), args.repeat)
        rows.append([to, f"{len(text) / 1e6:.1f} MB", f"{summary['calls']:,}", f"{ref:.2f} s",
                     f"{t_conv:.2f} s ({t_conv / ref:.1f}×)", f"{t_all:.2f} s ({t_all / ref:.1f}×)"])
    print(f"{rel(path)}")
    print_table(["to", "size", "calls", "json.loads", "conversion", "with the target's check"], rows)
    return rows


if __name__ == "__main__":
    main()
