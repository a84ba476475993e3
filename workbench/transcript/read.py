"""Reading the pasted text: one JSON value, JSON Lines, or Server-Sent Events — and which kind
of transcript it is (the kinds table of ``transcript-rules.md``).

A *piece* is one JSON value of the text with its place: the whole text when it is one JSON
value, else one line (JSON Lines) or one event's ``data:`` (SSE).  Every finding and call points
into a piece (a JSON Pointer relative to the piece's value); :class:`Places` turns those into
line and column of the pasted text with one :class:`~workbench.jsontext.LineIndex`.

A stream is text, not JSON: a line that is neither an SSE field nor JSON is kept as a bad line
(reported as ``stream_bad_line`` at its line), never as a whole-text ``parse_error``.
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass
from typing import Any

from ..errors import WorkbenchError
from ..jsontext import LineIndex, NotQuickArray, array_elements, element_spans, locate_many, parse
from ..limits import (
    TRANSCRIPT_CHARS_PER_LINE,
    TRANSCRIPT_CHARS_PER_PIECE,
    TRANSCRIPT_FREE_LINES,
    TRANSCRIPT_FREE_PIECES,
)

SSE_FIELDS = ("data", "event", "id", "retry")
_SSE_LINE = re.compile(r"(?:data|event|id|retry)(?::|$)|:")


class Piece:
    """One JSON value in the text: ``value``, where its JSON starts (``start``) and ends
    (``end``) in the text, its 1-based ``line``; for SSE the ``event:`` name.

    The three positions live in an ``array`` (8 bytes each, not an int object of 32): the
    pieces of one read share one, row ``index`` (``table=``); a piece made alone has its own."""

    __slots__ = ("value", "event_name", "index", "prefix", "_table", "_row")

    def __init__(self, value: Any, start: int = 0, end: int = 0, line: int = 0,
                 event_name: str | None = None, index: int = 0, prefix: str = "", *,
                 table: array | None = None):
        self.value, self.event_name, self.index = value, event_name, index
        self.prefix = prefix  # the piece's pointer inside the pasted value (a JSON array's element)
        if table is None:
            self._table, self._row = array("q", (start, end, line)), 0
        else:
            self._table, self._row = table, index

    @property
    def start(self) -> int:
        return self._table[3 * self._row]

    @property
    def end(self) -> int:
        return self._table[3 * self._row + 1]

    @property
    def line(self) -> int:
        return self._table[3 * self._row + 2]


@dataclass(slots=True, eq=False)
class BadLine:
    line: int
    offset: int
    column: int
    message: str
    text: str


class Source:
    """What was read: ``form`` (``json``, ``json_lines``, ``sse``), the pieces in order, the bad
    lines, ``done`` (the lines of ``data: [DONE]``) and, for one JSON value, ``value``."""

    def __init__(self, text: str, form: str):
        self.text = text
        self.form = form
        self.pieces: list[Piece] = []
        self.bad: list[BadLine] = []
        self.done: list[tuple[int, int]] = []   # (line, offset) of each data: [DONE]
        self.lines = LineIndex(text)
        self.value: Any = None
        self.scan: ArrayScan | None = None   # a JSON array read element by element (no value)
        self.line_count = 0
        self.bom = False    # the pasted text began with a byte-order mark, dropped before reading
        # the text's pieces, bad lines and data: [DONE] lines, in text order: a Piece, a
        # BadLine, a (line, offset) pair, and while reading the index of a text still to parse
        # (its line in todo_lines); ``order`` is the same as (line, what, ref) rows
        self.sequence: list = []
        self.todo_lines = array("q")
        # the JSON texts still to parse (read into pieces by _settle), kept compact
        self.todo_texts: list[str] = []
        self.todo_at = array("q")
        self.todo_end = array("q")
        self.todo_names: dict[int, str] = {}
        self.budget = piece_budget(text)

    @property
    def order(self) -> list[tuple[int, str, Any]]:
        """``(line, "piece" | "done" | "bad", ref)`` for each entry of ``sequence`` (made when
        asked: a transcript of items never asks, a stream's reader does once)."""
        rows = []
        for ref in self.sequence:
            t = type(ref)
            rows.append((ref.line, "piece", ref) if t is Piece else
                        (ref.line, "bad", ref) if t is BadLine else (ref[0], "done", ref))
        return rows


def _load(text: str, limits, field="text"):
    return parse(text, field=field, max_depth=limits.max_depth, warnings=False,
                 share_strings=True).value


_LONE_CR = re.compile(r"\r(?!\n)")


def one_line_ending(text: str) -> str:
    """``text`` with each lone CR (a line ending SSE allows beside LF and CRLF, and old logs
    use) written as LF: the same length, so every offset stays where it was, and every reader
    and the line index see its lines."""
    return _LONE_CR.sub("\n", text) if "\r" in text else text


def read(text: str, limits, deadline, *, scan: bool = False) -> Source:
    """Read ``text`` as one JSON value, JSON Lines or SSE (in that order of preference).  Line
    endings may be LF, CRLF or CR (:func:`one_line_ending`); a byte-order mark before the text
    is dropped first (``bom``: places are in the text after it, as an editor shows it).
    ``scan``: a JSON array is only begun (:class:`ArrayScan`, ``src.scan``; no ``value``) when
    its first elements read quickly; the caller reads it whole (``scan=False``) unless it
    consumes it as a stream."""
    bom = text.startswith("\ufeff")
    text = one_line_ending(text[1:] if bom else text)
    src = _read(text, limits, deadline, scan)
    src.bom = bom
    return src


class ArrayScan:
    """A JSON array read one element at a time (:func:`~workbench.jsontext.array_elements`): its
    first :data:`HEAD` values (which tell the kind), then the rest as a stream consumes them,
    none of those kept -- one C scan per element gives both the values and their places
    (no second scan of the text, and no tree of the whole array in memory).  Each element's
    ``start``/``end`` are kept (16 bytes); a :class:`Piece` is made only for an element
    something points into (:meth:`piece`), lines only where asked (:meth:`lines`).
    Anything the quick reading leaves to the parser raises ``NotQuickArray``: the caller reads
    the text whole then (and reports its fault, at its place, as before)."""

    HEAD = 500   # the values the kind is told from (kinds._list_kind reads the first 500)

    def __init__(self, text: str, limits):
        self.text = text
        self._elements = array_elements(text, limits.max_depth)
        self.budget = piece_budget(text)
        self.starts, self.ends = array("q"), array("q")
        self.head: list = []
        self._pieces: dict[int, Piece] = {}
        self._line_at = (0, 1)   # (offset, its line): pieces are made in text order
        for value, _start, _end in self._take(self.HEAD):
            self.head.append(value)

    def _take(self, n: int | None = None):
        starts, ends = self.starts, self.ends
        budget = self.budget
        for value, start, end in self._elements:
            starts.append(start)
            ends.append(end)
            if len(starts) >= budget:
                raise NotQuickArray   # as many elements as the budget: _read refuses it (413)
            yield value, start, end
            if n is not None and len(starts) >= n:
                return

    def values(self):
        """``(index, value)`` of every element, in order: the head's, then the rest's."""
        yield from enumerate(self.head)
        k = len(self.head)
        for value, _s, _e in self._take():
            yield k, value
            k += 1

    def __len__(self) -> int:
        return len(self.starts)

    def piece(self, k: int, value: Any) -> Piece:
        """The piece of element ``k`` (one per element, made once)."""
        p = self._pieces.get(k)
        if p is None:
            start = self.starts[k]
            at, line = self._line_at
            if start >= at:
                line += self.text.count("\n", at, start)
                self._line_at = (start, line)
            else:
                line = self.text.count("\n", 0, start) + 1
            p = self._pieces[k] = Piece(value, start, self.ends[k], line, None, k, f"/{k}")
        return p

    def pieces(self) -> list[Piece]:
        """The pieces made so far (the first element's among them), in text order."""
        if self.head:
            self.piece(0, self.head[0])
        return [self._pieces[k] for k in sorted(self._pieces)]

    def lines(self, ks) -> dict[int, int]:
        """The line each element of ``ks`` starts on (counted on in one pass)."""
        out, line, at = {}, 1, 0
        count, starts = self.text.count, self.starts
        for k in sorted(set(ks)):
            start = starts[k]
            line += count("\n", at, start)
            at = start
            out[k] = line
        return out


def _read(text: str, limits, deadline, scan: bool = False) -> Source:
    body = text.strip()
    if not body:
        raise WorkbenchError("parse_error", "The text is empty: paste a response, an item list, "
                             "a stream or a session", field="text", line=1, column=1, offset=0)
    first_line = body.split("\n", 1)[0].strip()
    looks_sse = bool(_SSE_LINE.match(first_line)) or "\ndata:" in text or "\nevent:" in text
    if not looks_sse and body[0] in "{[":
        if scan and body[0] == "[":
            try:
                begun = ArrayScan(text, limits)
            except NotQuickArray:
                begun = None   # read whole below: the parser says what is wrong, and where
            if begun is not None:
                src = Source(text, "json")
                src.scan = begun
                src.line_count = text.count("\n") + 1
                return src
        try:
            value = _load(text, limits)
        except WorkbenchError as exc:
            if exc.code != "parse_error" or "\n" not in body:
                raise
            src = _json_lines(text, limits, deadline)
            containers = sum(1 for p in src.pieces if isinstance(p.value, (dict, list)))
            if not containers or containers < len(src.bad) or (
                    len(src.pieces) == 1 and not src.bad):
                raise exc  # a document with a mistake, not JSON Lines
            return src
        src = Source(text, "json")
        widest = len(value) if type(value) is list else max(
            (len(v) for v in value.values() if type(v) is list), default=0) \
            if type(value) is dict else 0
        if widest >= src.budget:
            raise over_budget(src, 1, 0)
        src.value = value
        src.pieces.append(Piece(value, 0, len(text), 1))
        src.sequence.append(src.pieces[0])
        src.line_count = text.count("\n") + 1
        return src
    if looks_sse:
        return _sse(text, limits, deadline)
    # neither JSON nor SSE: JSON Lines with bad lines, else the plain parse error
    src = _json_lines(text, limits, deadline)
    if not src.pieces:
        _load(text, limits)  # raises the parse error with its place
    return src


def split_array(src: Source) -> list[Piece]:
    """The elements of a pasted JSON array as pieces of their own (a JSON array of events):
    their places in one walk; their pointers keep the element's index as prefix."""
    value, text = src.value, src.text
    spans = element_spans(text)
    if len(spans) != len(value):   # pragma: no cover - the text is the value's own
        spans = [(0, len(text))] * len(value)
    pieces = []
    append = pieces.append
    line, at = 1, 0   # the line of each element, counted on from the one before
    count = text.count
    table = array("q")    # one table for all (as _settle's), not an array per piece
    row = table.extend
    for i, (v, (start, end)) in enumerate(zip(value, spans)):
        line += count("\n", at, start)
        at = start
        row((start, end, line))
        append(Piece(v, None, None, None, None, i, f"/{i}", table=table))
    src.pieces = pieces
    src.sequence = list(pieces)
    return pieces


def _lines(text: str):
    """(line number, start offset, end offset without the line break) of every line; past
    :func:`line_budget` lines (blank ones and comments count too), the ``too_large`` refusal."""
    n = 0
    pos = 0
    size = len(text)
    find = text.find
    budget = line_budget(text)
    while pos < size:
        n += 1
        if n > budget:
            raise over_lines(text, n, pos)
        end = find("\n", pos)
        if end == -1:
            end = size
        stop = end
        if stop > pos and text[stop - 1] == "\r":
            stop -= 1
        yield n, pos, stop
        pos = end + 1


def piece_budget(text: str) -> int:
    """How many values (lines, events, array elements) a text may hold: every value costs a
    few hundred bytes of bookkeeping whatever its size, so beyond the first
    ``TRANSCRIPT_FREE_PIECES`` a text must carry ``TRANSCRIPT_CHARS_PER_PIECE`` characters per
    value (real recordings carry 180 or more) — memory stays within 10× the text."""
    return max(TRANSCRIPT_FREE_PIECES, len(text) // TRANSCRIPT_CHARS_PER_PIECE)


def over_budget(src: Source, n: int, offset: int) -> WorkbenchError:
    budget = piece_budget(src.text)
    return WorkbenchError(
        "too_large", f"The text holds more than {budget:,} lines or events ({len(src.text):,} "
        f"characters; beyond the first {TRANSCRIPT_FREE_PIECES:,}, one per "
        f"{TRANSCRIPT_CHARS_PER_PIECE} characters): this many tiny values is not a recording "
        "of a model's calls. The bound was passed here; split the text or remove the filler "
        "lines.", status=413, field="text", line=n, column=1, offset=offset, limit=budget)


def line_budget(text: str) -> int:
    """How many lines a stream or JSON Lines text may have: beyond the first
    ``TRANSCRIPT_FREE_LINES``, one per ``TRANSCRIPT_CHARS_PER_LINE`` characters.  Lines that
    carry no value (blank, ``:`` comments, ``id:``) cost the reading loop as much as the others
    and are not counted by :func:`piece_budget`: millions of them were read for many seconds."""
    return max(TRANSCRIPT_FREE_LINES, len(text) // TRANSCRIPT_CHARS_PER_LINE)


def over_lines(text: str, n: int, offset: int) -> WorkbenchError:
    budget = line_budget(text)
    return WorkbenchError(
        "too_large", f"The text has more than {budget:,} lines ({len(text):,} characters; beyond "
        f"the first {TRANSCRIPT_FREE_LINES:,}, one per {TRANSCRIPT_CHARS_PER_LINE} characters, "
        "blank lines and comments included): this many short lines is not a recording of a "
        "model's stream. The bound was passed here; remove the blank or comment lines.",
        status=413, field="text", line=n, column=1, offset=offset, limit=budget)


def _json_lines(text: str, limits, deadline) -> Source:
    src = Source(text, "json_lines")
    count = 0
    check = deadline.check
    for n, start, stop in _lines(text):
        check()
        count = n
        while start < stop and text[start].isspace():
            start += 1
        if start == stop:
            continue
        while text[stop - 1].isspace():
            stop -= 1
        _piece_or_bad(src, text[start:stop], start, n, None, limits)
    src.line_count = count
    _settle(src, limits, deadline)
    return src


def _piece_or_bad(src: Source, data: str, offset: int, n: int, event_name, limits) -> None:
    """Keep ``data`` (one JSON text) for :func:`_settle`, which parses them all at once.  Kept
    compact: where it is in the text (a line's JSON is not copied; an event of several
    ``data:`` lines is), its line and its name in flat lists, the sequence entry its index;
    counted against :func:`piece_budget`."""
    k = len(src.todo_texts)
    if k + len(src.bad) >= src.budget:
        raise over_budget(src, n, offset)
    src.todo_texts.append(None if src.text.startswith(data, offset) else data)
    src.todo_at.append(offset)
    src.todo_end.append(offset + len(data))
    if event_name is not None:
        src.todo_names[k] = event_name
    src.sequence.append(k)
    src.todo_lines.append(n)


def _todo_text(src: Source, k: int) -> str:
    """The JSON text of kept piece ``k``."""
    t = src.todo_texts[k]
    return src.text[src.todo_at[k]:src.todo_end[k]] if t is None else t


def _bad(src: Source, bad: BadLine) -> None:
    if len(src.todo_texts) + len(src.bad) >= src.budget:
        raise over_budget(src, bad.line, bad.offset)
    src.bad.append(bad)
    src.sequence.append(bad)


MAX_BATCH_RETRIES = 32
PARSE_BATCH = 8192  # texts joined into one parse: the work deadline is checked between two


def _balanced(t: str) -> bool:
    """Whether ``t`` may join the array: it looks like one whole object or array.  (A line that
    only closes what another left open would have to end in a bracket too, and the count of
    the joined array would still have to come out right: real logs cut lines mid-text.)"""
    return (t[0] == "{" and t[-1] == "}") or (t[0] == "[" and t[-1] == "]")


_MISSING = object()


def _parse_all(text_of, len_of, count: int, limits, deadline) -> tuple[list, dict]:
    """The value of each of ``count`` texts (``text_of(k)``, ``len_of(k)`` characters long),
    by index (a list), and the error
    of each text that is not JSON (a dict).  Fast path: the texts joined into one JSON array
    and parsed in one call (each must look like one whole object or array, and the count must
    come out right); a text that breaks the array is parsed on its own (its error is its bad
    line) and the rest joined again.  After many bad lines, or for texts that do not look
    whole, each is parsed on its own, as is one that may nest deeper than ``max_depth``."""
    values: list = [_MISSING] * count
    errors: dict[int, WorkbenchError] = {}
    rest = array("q", (k for k in range(count) if _balanced(text_of(k))))
    deep = limits.max_depth
    retries = at = 0
    while at < len(rest) and retries < MAX_BATCH_RETRIES:
        deadline.check_now()   # between batches: one parse is one C call, it cannot check
        batch = rest[at:at + PARSE_BATCH]
        joined = "[" + ",".join([text_of(k) for k in batch]) + "]"
        try:
            # the depth is checked per text below (the whole array's check writes it out)
            vs = parse(joined, field="text", max_depth=deep + 1, warnings=False,
                       share_strings=True, check_depth=False).value
        except WorkbenchError as exc:
            if exc.code != "parse_error" or exc.offset is None:
                break
            # the text holding the fault: parse it alone, then the others again
            starts, pos = array("q"), 1
            for k in batch:
                starts.append(pos)
                pos += len(text_of(k)) + 1
            del joined
            j = max(0, bisect.bisect_right(starts, exc.offset) - 1)
            k = rest.pop(at + j)
            retries += 1
            try:
                values[k] = _load(text_of(k), limits)
            except WorkbenchError as one:
                errors[k] = one
            continue
        del joined
        if len(vs) != len(batch):
            break
        for k, v in zip(batch, vs):
            t = text_of(k) if len_of(k) > deep else None
            if t is None or t.count("[") + t.count("{") <= deep:
                values[k] = v   # (a text with fewer brackets cannot nest deeper)
        del vs
        at += len(batch)
    for k in range(count):
        if values[k] is not _MISSING or k in errors:
            continue
        deadline.check()
        try:
            values[k] = _load(text_of(k), limits)
        except WorkbenchError as exc:
            errors[k] = exc
    return values, errors


def _settle(src: Source, limits, deadline) -> None:
    """Parse every kept JSON text (jsontext, exact numbers, :func:`_parse_all`) and put its
    piece, or its bad line, in its place in ``sequence``; the texts are let go."""
    at, end, names = src.todo_at, src.todo_end, src.todo_names
    values, errors = _parse_all(lambda k: _todo_text(src, k), lambda k: end[k] - at[k],
                                len(src.todo_texts), limits, deadline)
    sequence, lines = src.sequence, src.todo_lines
    table = array("q")
    count = 0
    check = deadline.check
    for i, k in enumerate(sequence):
        if type(k) is not int:
            continue
        check()
        n, offset = lines[k], at[k]
        if k in errors:
            exc = errors.pop(k)
            where = offset + (exc.offset or 0)
            bad = BadLine(n, where, src.lines.line_col(where)[1], exc.message,
                          _todo_text(src, k)[:200])
            src.bad.append(bad)
            sequence[i] = bad
            continue
        table.extend((offset, end[k], n))
        piece = Piece(values[k], event_name=names.get(k), index=count, table=table)
        values[k] = None
        count += 1
        src.pieces.append(piece)
        sequence[i] = piece
    src.todo_texts, src.todo_names = [], {}
    src.todo_at, src.todo_end, src.todo_lines = array("q"), array("q"), array("q")
    src.bad.sort(key=lambda b: b.line)


def _sse(text: str, limits, deadline) -> Source:
    """Server-Sent Events: blank-line separated events of ``field: value`` lines.  ``data:``
    lines of one event are joined with newlines (its place is its first ``data:`` line); a
    line that is JSON on its own is taken as an event's data too (recordings that dropped the
    ``data:`` prefix); anything else is a bad line."""
    src = Source(text, "sse")
    sequence = src.sequence
    event_name = None
    data: list[str] = []
    data_at = None  # (line, offset) of the first data line

    def dispatch():
        nonlocal event_name, data, data_at
        if data:
            joined = data[0] if len(data) == 1 else "\n".join(data)
            n, off = data_at
            stripped = joined.strip()
            if stripped == "[DONE]":
                src.done.append((n, off))
                sequence.append((n, off))
            elif stripped:
                lead = len(joined) - len(joined.lstrip()) if joined[:1].isspace() else 0
                _piece_or_bad(src, stripped, off + lead, n, event_name, limits)
        event_name = None
        data = []
        data_at = None

    n = 0
    check = deadline.check
    for n, line_start, stop in _lines(text):
        check()
        line = text[line_start:stop]
        if line.startswith("data: "):
            if data_at is None:
                data_at = (n, line_start + 6)
            data.append(line[6:])
            continue
        if not line or line.isspace():
            dispatch()
            continue
        if line.startswith(":"):
            continue  # a comment
        name, colon, value = line.partition(":")
        if colon and name in SSE_FIELDS:
            spaced = value.startswith(" ")
            if spaced:
                value = value[1:]
            off = line_start + len(name) + 1 + spaced
            if name == "data":
                if data_at is None:
                    data_at = (n, off)
                data.append(value)
            elif name == "event":
                if data:  # an event line with data pending: the blank line was lost
                    dispatch()
                event_name = value.strip()
            continue
        if not colon and name in SSE_FIELDS:
            continue  # a field with an empty value
        stripped = line.strip()
        if stripped[:1] in "{[":
            dispatch()
            lead = len(line) - len(line.lstrip())
            _piece_or_bad(src, stripped, line_start + lead, n, None, limits)
            continue
        _bad(src, BadLine(n, line_start, 1, "not an SSE field (data:, event:, id:, retry:), a "
                          "comment or JSON", line[:200]))
    dispatch()
    src.line_count = n
    _settle(src, limits, deadline)
    return src


# --------------------------------------------------------------------------- places

class Places:
    """Line/column of (piece, pointer) places, resolved in one walk per piece."""

    def __init__(self, src: Source):
        self.src = src
        self.wanted: dict[int, set[str]] = {}
        self.spans: dict[int, dict] = {}

    def want(self, piece: Piece, pointer: str) -> None:
        self.wanted.setdefault(id(piece), set()).add(pointer)

    def resolve(self, pieces_by_id: dict[int, Piece]) -> None:
        text = self.src.text
        for pid, pointers in self.wanted.items():
            piece = pieces_by_id[pid]
            # a pointer that names nothing is placed at its nearest existing parent: ask for
            # every prefix too (a prefix of an escaped pointer is an escaped pointer)
            ask = set(pointers)
            for p in pointers:
                k = p.rfind("/")
                while k > 0:
                    p = p[:k]
                    if p in ask:
                        break
                    ask.add(p)
                    k = p.rfind("/")
            ask.add("")
            sub = text if (piece.start == 0 and piece.end == len(text)) else \
                text[piece.start:piece.end]
            try:
                found = locate_many(sub, ask)
            except (ValueError, IndexError, KeyError, TypeError):  # pragma: no cover
                found = {}
            self.spans[pid] = found

    def span(self, piece: Piece, pointer: str):
        """(start, end) offsets in the text of the value at ``pointer`` (or its nearest
        parent), and whether it was found exactly."""
        found = self.spans.get(id(piece), {})
        s = found.get(pointer)
        if s is not None:
            return piece.start + s.start, piece.start + s.end, True
        p = pointer
        while p:
            p = p[:p.rfind("/")]
            s = found.get(p)
            if s is not None:
                return piece.start + s.start, piece.start + s.end, False
        return piece.start, piece.end, False

    def where(self, piece: Piece, pointer: str, with_json: bool = False) -> dict:
        start, end, exact = self.span(piece, pointer)
        line, column = self.src.lines.line_col(start)
        out = {"pointer": piece.prefix + pointer, "line": line, "column": column}
        if with_json and exact:
            out["json"] = self.src.text[start:end]
        return out

    def json_text(self, piece: Piece, pointer: str) -> str | None:
        start, end, exact = self.span(piece, pointer)
        if not exact:
            return None
        return self.src.text[start:end]
