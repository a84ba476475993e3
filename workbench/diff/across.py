"""The providers preset across dialects (``providers-rules.md``, "Comparing two providers'
answers"): two answers in different dialects (OpenAI Responses, Chat Completions, Anthropic,
Gemini) are compared in their neutral form (:mod:`workbench.dialects.neutral`: text parts and
calls as name + parsed arguments, in order), so the envelope and what each provider mints for
itself are no difference; a changed argument is one change at its pointer in the neutral form.

The answer's ``across`` says which dialect each side is, carries each side's neutral form and
its own text (the page shows either), what the neutral form leaves out, and one sentence per
call that differs ("OpenAI Responses called get_weather {…}; Anthropic called it with {…}");
each change carries ``left_source`` / ``right_source``: the place in that side's own text
(``pointer``, ``inner_pointer`` inside a JSON text, ``line``).
"""

from __future__ import annotations

from ..dialects.neutral import Neutral, dialect_of_answer, reduce
from ..jsontext import dumps_value, locate_many, parse, same_json
from ..limits import DIFF_MAX_TEXT as MAX_TEXT

SAYS_MAX = 20     # call sentences in one answer


class Pair:
    """The two sides' neutral forms, or None from :func:`pair` when the preset compares the
    documents as they are (not two answers, or two of one dialect)."""

    __slots__ = ("left", "right")

    def __init__(self, left: Neutral, right: Neutral):
        self.left, self.right = left, right


def pair(left, right, texts, max_depth: int) -> Pair | None:
    """Both answers in the neutral form when they are answers of two different dialects."""
    dl, dr = dialect_of_answer(left), dialect_of_answer(right)
    if dl is None or dr is None or dl == dr:
        return None

    def args(text: str):
        return texts.parse_string(parse, text, max_depth).value

    nl = reduce(left, parse_arguments=args)
    nr = reduce(right, parse_arguments=args)
    return Pair(nl, nr) if nl is not None and nr is not None else None


def _sources(side: Neutral, pointers: set, text: str, lines) -> dict:
    """``{neutral pointer: {pointer, inner_pointer?, line?}}`` in the side's own text."""
    places = {p: side.source(p) for p in pointers}
    want = set()
    for got in places.values():
        if got is not None:
            p = got[0]
            want.add(p)
            while p:                        # the nearest existing parent, when it is missing
                p = p.rsplit("/", 1)[0]
                want.add(p)
    spans = locate_many(text, want) if want else {}
    out = {}
    for p, got in places.items():
        if got is None:
            continue
        rec = {"pointer": got[0]}
        if got[1] is not None:
            rec["inner_pointer"] = got[1]
        q = got[0]
        while q not in spans and q:
            q = q.rsplit("/", 1)[0]
        if q in spans:
            rec["line"] = lines.line_col(spans[q].start)[0]
        out[p] = rec
    return out


def annotate(changes: list, pr: Pair, lparsed, rparsed) -> None:
    """Each public change (and note) gets the place in each side's own text it stands for."""
    want: dict = {"left": set(), "right": set()}
    for c in changes:
        for side, p in _pointers(c):
            want[side].add(p)
    found = {"left": _sources(pr.left, want["left"], lparsed.text, lparsed.lines),
             "right": _sources(pr.right, want["right"], rparsed.text, rparsed.lines)}
    for c in changes:
        for side, p in _pointers(c):
            src = found[side].get(p)
            if src is not None:
                c[side + "_source"] = src


def _pointers(c: dict):
    op = c.get("op")
    if op == "move":
        yield "left", c["pointer"]
        if c.get("to") is not None and not c.get("in_string"):
            yield "right", c["to"]
        return
    if op != "add":
        yield "left", c["pointer"]
    if op != "remove":
        yield "right", c.get("right_pointer", c["pointer"])


def _compact(value, export) -> str:
    text = dumps_value(export.value(value)).decode("utf-8", "surrogatepass")
    return text if len(text) <= 200 else text[:200] + "…"


def says(pr: Pair, export) -> list[str]:
    """One sentence per call that differs: the calls of each side paired by name, in order."""
    L, R = pr.left, pr.right
    lcalls = [p for p in L.parts if p["type"] == "call"]
    rcalls = [p for p in R.parts if p["type"] == "call"]
    out: list[str] = []
    used: set = set()
    for c in lcalls:
        j = next((j for j, d in enumerate(rcalls) if j not in used and d["name"] == c["name"]),
                 None)
        name = c["name"] if isinstance(c["name"], str) else "(no name)"
        if j is None:
            out.append(f"{L.word} called {name} {_compact(c['arguments'], export)}; "
                       f"{R.word} did not call it.")
            continue
        used.add(j)
        d = rcalls[j]
        if not same_json(c["arguments"], d["arguments"]):
            out.append(f"{L.word} called {name} {_compact(c['arguments'], export)}; "
                       f"{R.word} called it with {_compact(d['arguments'], export)}.")
    for j, d in enumerate(rcalls):
        if j not in used:
            name = d["name"] if isinstance(d["name"], str) else "(no name)"
            out.append(f"{R.word} called {name} {_compact(d['arguments'], export)}; "
                       f"{L.word} did not call it.")
    return out[:SAYS_MAX]


def _side(n: Neutral, parsed, export) -> dict:
    original = parsed.text
    return {"dialect": n.dialect, "word": n.word, "kind": n.kind,
            "neutral": dumps_value(export.value(n.value)).decode("utf-8", "surrogatepass"),
            "left_out": n.left_out[:100], "left_out_count": len(n.left_out),
            "text": original if len(original) <= MAX_TEXT * 64 else None}


def answer(pr: Pair, lparsed, rparsed, export) -> dict:
    """The ``across`` member of the diff's answer."""
    return {"left": _side(pr.left, lparsed, export), "right": _side(pr.right, rparsed, export),
            "says": says(pr, export),
            "message": f"The left answer is {pr.left.word}, the right one {pr.right.word}: both "
                       "are compared in the neutral form (text parts, and calls as name + "
                       "parsed arguments, in order); ids, timestamps, usage and the envelope "
                       "are not compared."}
