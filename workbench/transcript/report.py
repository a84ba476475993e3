"""Findings: the codes and severities of the two rule pages, the places they point at, and the
character-by-character difference of a near-miss id.

A finding is collected with its place as ``(piece, pointer)`` (or a bare line for a bad line);
:meth:`Report.finish` resolves every place to pointer/line/column in one walk per piece, sorts
the findings by place and returns them; objects that refer to a finding (timeline rows, chain
links) hold the finding itself and get its index with :meth:`Report.index_of`.
"""

from __future__ import annotations

from ..dialects.model import Place, key  # noqa: F401  (the places findings point at)
from .read import Places

# code -> severity (transcript-rules.md and agents-rules.md, plus pending_call named there)
SEVERITY = {
    # pairing
    "orphan_output": "error", "output_keyed_by_item_id": "error", "near_miss_id": "error",
    "duplicate_call_id": "error", "duplicate_output": "error", "unanswered_call": "warning",
    "pending_call": "info", "output_before_call": "error", "empty_call_id": "error",
    # state machine
    "incomplete_not_last": "error", "incomplete_response_mismatch": "error",
    "completed_response_open_items": "error", "incomplete_response_all_completed": "warning",
    "portable_core": "info", "namespaced_item": "warning", "mixed_envelopes": "error",
    "duplicate_replay": "error",
    # streams
    "stream_bad_line": "error", "stream_no_terminal": "error", "stream_after_terminal": "error",
    "stream_order": "error", "stream_sequence": "warning", "stream_item_id_changed": "warning",
    "stream_arguments_mismatch": "error", "stream_error_not_failed": "error",
    "chat_stream_name_split": "info",
    # the spec
    "spec_schema": "warning",
    # reading (the refinements of transcript-rules.md)
    "bom": "info", "history_incomplete_executed": "error",  # a warning while in_progress
    "output_for_stored_call": "info", "unrecognised_shape": "warning",
    "result_success_not_boolean": "error", "concatenated_responses": "info",
    "hosted_pair_split": "warning", "output_only_field": "warning",
    "client_incompatible": "warning",
    # agents sessions
    "action_unanswered": "error", "result_without_action": "error",
    "result_pair_mismatch": "error", "history_call_answered": "warning",
    "result_output_not_string": "error", "result_failure_without_error": "error",
    "result_executed_after_failed_check": "error", "handoff_type": "error",
    "subagent_function_call": "error", "tool_not_strict": "warning",
}
CODES = list(SEVERITY)
_RANK = {"error": 0, "warning": 1, "info": 2}


class Report:
    def __init__(self, places: Places, max_findings: int):
        self.places = places
        self.max = max_findings
        self.findings: list[dict] = []
        self.left_off = 0
        self.counts = {"error": 0, "warning": 0, "info": 0}

    def add(self, code: str, message: str, place: Place | None, related=(), **extra) -> dict | None:
        severity = extra.pop("severity", None) or SEVERITY[code]  # a code may have two
        self.counts[severity] += 1
        if len(self.findings) >= self.max:
            self.left_off += 1
            return None
        f = {"code": code, "severity": severity, "message": message, "_at": place}
        rel = []
        for r in related:
            if r is None:
                continue
            role, p, more = r[0], r[1], (r[2] if len(r) > 2 else {})
            entry = {"role": role, "_at": p}
            entry.update({k: v for k, v in more.items() if v is not None})
            rel.append(entry)
            if p is not None and p.piece is not None:
                self.places.want(p.piece, p.pointer)
        if rel:
            f["related"] = rel
        f.update({k: v for k, v in extra.items() if v is not None})
        if place is not None and place.piece is not None:
            self.places.want(place.piece, place.pointer)
        self.findings.append(f)
        return f

    def bad_line(self, bad, consequence: str, what: str = "neither an SSE field nor JSON"):
        """``stream_bad_line`` at a :class:`~.read.BadLine`: its line, what it is not, the
        reader's message, and what a client then loses (``consequence``)."""
        return self.add("stream_bad_line",
                        f"Line {bad.line} is {what} ({bad.message}): {consequence}",
                        Place(None, "", bad.line, bad.column), text=bad.text)

    def _resolve(self, d: dict) -> None:
        p = d.pop("_at")
        if p is None:
            d.update(pointer="", line=1, column=1)
        elif p.piece is None:
            d.update(pointer=p.pointer, line=p.line, column=p.column or 1)
        else:
            d.update(self.places.where(p.piece, p.pointer))
            if self.places.src.form != "json" or p.piece.prefix:
                d.setdefault("event", p.piece.index)

    def finish(self, pieces: dict | None = None) -> list[dict]:
        """Resolve every place (with those of ``pieces``, id → piece, wanted by others)."""
        pieces = dict(pieces or {})
        for f in self.findings:
            for d in [f, *f.get("related", ())]:
                p = d["_at"]
                if p is not None and p.piece is not None:
                    pieces[id(p.piece)] = p.piece
        self.places.resolve(pieces)
        for f in self.findings:
            self._resolve(f)
            for r in f.get("related", ()):
                self._resolve(r)
        # order: by place in the text, errors before warnings at one place
        self.findings.sort(key=lambda f: (f["line"], f["column"], _RANK[f["severity"]]))
        self._index = {id(f): i for i, f in enumerate(self.findings)}
        return self.findings

    def index_of(self, finding: dict | None) -> int | None:
        return None if finding is None else self._index.get(id(finding))


# --------------------------------------------------------------------------- near misses

def edit_diff(left: str, right: str, limit: int = 2) -> list[dict] | None:
    """The differing characters of ``left`` (the id written) against ``right`` (the id meant)
    when they are within ``limit`` edits (substitutions, insertions, deletions), else None.

    Each entry is ``{"at": i, "left": c, "right": d}``: ``at`` is the 0-based position in
    ``left``; ``left``/``right`` the characters there (``""`` for an inserted or deleted one).
    Equal strings give ``[]``."""
    if left == right:
        return []
    n, m = len(left), len(right)
    if abs(n - m) > limit:
        return None
    big = limit + 1
    # full DP on short ids (ids are short); rows beyond the band are cut off at `big`
    prev = [min(j, big) for j in range(m + 1)]
    rows = [prev]
    for i in range(1, n + 1):
        cur = [min(i, big)] + [big] * m
        lo, hi = max(1, i - limit), min(m, i + limit)
        a = left[i - 1]
        best = cur[0]
        for j in range(lo, hi + 1):
            cost = prev[j - 1] + (a != right[j - 1])
            v = min(cost, prev[j] + 1, cur[j - 1] + 1)
            cur[j] = v if v < big else big
            if v < best:
                best = v
        if min(cur[lo - 1:hi + 1]) > limit:
            return None
        rows.append(cur)
        prev = cur
    if prev[m] > limit:
        return None
    out: list[dict] = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and rows[i][j] == rows[i - 1][j - 1] + (left[i - 1] != right[j - 1]):
            if left[i - 1] != right[j - 1]:
                out.append({"at": i - 1, "left": left[i - 1], "right": right[j - 1]})
            i, j = i - 1, j - 1
        elif i > 0 and rows[i][j] == rows[i - 1][j] + 1:
            out.append({"at": i - 1, "left": left[i - 1], "right": ""})
            i -= 1
        else:
            out.append({"at": i, "left": "", "right": right[j - 1]})
            j -= 1
    out.reverse()
    return out


def show_diff(diff: list[dict]) -> str:
    """``'l' for '1' at 8`` — a diff in words."""
    parts = []
    for d in diff:
        if d["left"] and d["right"]:
            parts.append(f"'{d['left']}' for '{d['right']}' at {d['at']}")
        elif d["left"]:
            parts.append(f"an extra '{d['left']}' at {d['at']}")
        else:
            parts.append(f"a missing '{d['right']}' at {d['at']}")
    return ", ".join(parts)
