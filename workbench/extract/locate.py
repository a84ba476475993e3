"""Where the matches are in the document text: the ``(start, end)`` of the value at each wanted
location, found by walking the text along those locations only.

Members before a wanted one are passed over with one regex when they hold scalars, other values
are skipped by the C scanner (:func:`workbench.jsontext.skip_value`), an array of wanted items is
walked element by element (:func:`array_run`), and the walk stops once everything wanted is
found.  That takes the first member of a name; a document with duplicate names is located by the
parser's own :func:`workbench.jsontext.locate_many`, where the last one wins as in the tree.
The regexes read member names as the text writes them (any character but a quote, a backslash
or a control character), so names in any script are found in one C call.
"""

from __future__ import annotations

import json
import re

from ..jsontext import locate_many, pointer_of, skip_value

# Regexes over valid JSON text (possessive quantifiers, Python 3.11+: a token never needs
# to give back characters, and not backtracking is a quarter faster)
_WSC = "[ \t\n\r]*+"
_WS = re.compile(_WSC)
_COMMA = re.compile(_WSC + "," + _WSC)
# a member name written without escapes, up to its value: the name is the text between quotes
_PLAIN_NAME = re.compile(r'"([^"\\]*+)"' + _WSC + ":" + _WSC)
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_PLAIN_STRING = r'"[^"\\]*+"'  # a string without escapes
_SCALAR = "(?:" + _STRING + r"|-?[0-9][-+.0-9eE]*+|true|false|null)"
# after a member's value: the members left, when all of them hold scalars, and the '}'
_FLAT_REST = re.compile("(?:" + _WSC + "," + _WSC + _STRING + _WSC + ":" + _WSC + _SCALAR + ")*+"
                        + _WSC + r"\}", re.S)
_FINDABLE = re.compile(r'[^"\\\x00-\x1f]*\Z')
_FINDERS: dict = {}
_scanstring = json.decoder.scanstring


def _finder(names: tuple, budget: list):
    """A regex that, from just inside an object (after '{' or ','), passes over members
    with plain names and scalar values and stops at the value of the first member called
    one of ``names`` (group 1: the name): a member is found in one C call.  None when a
    name could be written in several ways (quotes, backslashes, control characters), for
    more than 4 names, or once ``budget[0]`` regexes were compiled for this walk (a
    document of objects with ever new names is walked member by member, not compiled
    for)."""
    if len(names) > 4:
        return None
    found = _FINDERS.get(names, 0)
    if found == 0:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        found = None
        if all(_FINDABLE.match(n) for n in names):
            either = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
            found = re.compile(_WSC + "(?:" + _PLAIN_STRING + _WSC + ":" + _WSC + _SCALAR + _WSC + ","
                               + _WSC + ')*?"(' + either + ')"' + _WSC + ":" + _WSC, re.S)
        if len(_FINDERS) >= 1000:
            _FINDERS.clear()
        _FINDERS[names] = found
    return found


def locate_rows(text: str, locations: list, early_exit: bool = True) -> list:
    """``(start, end)`` offsets in ``text`` (valid JSON) of the value at each location (a
    tuple of names and indices), or None where there is nothing.

    Walks only along the wanted locations: members before a wanted one are passed over with
    one regex when they hold scalars, other values are skipped with the C scanner, and the
    walk stops as soon as every wanted value is found.  It takes the first member of a name:
    ``early_exit=False`` (for documents with duplicate names, where the parsed tree holds the
    last one) walks every member of the objects on the way instead."""
    if not early_exit:
        return locate_rows_all(text, locations)
    return locate_spans(text, locations, array_run(locations))


def locate_spans(text: str, locations: list, run) -> list:
    """:func:`locate_rows` (first members) for locations whose :func:`array_run` is ``run``."""
    spans: list = [None] * len(locations)
    visit = _visitor(text, spans)
    if run is not None:
        _locate_run(text, locations, run, spans, visit)
        return spans
    root: list = [{}, None]
    for n, loc in enumerate(locations):
        node = root
        for part in loc:
            children = node[0]
            child = children.get(part)
            if child is None:
                child = children[part] = [{}, None]
            node = child
        if node[1] is None:
            node[1] = [n]
        else:
            node[1].append(n)
    if root[0] or root[1] is not None:
        visit(_WS.match(text, 0).end(), root, False)
    return spans


def _visitor(text: str, spans: list):
    """The walk of :func:`locate_rows`: ``visit(offset, node, need_end)`` records in
    ``spans`` the wanted values inside the value at ``offset``, where ``node`` is
    ``[{name or index: node}, [row numbers] or None]``; it returns the value's end offset
    when ``need_end`` (else None once the last wanted value inside is recorded)."""
    ws = _WS.match
    comma = _COMMA.match
    plain_name = _PLAIN_NAME.match
    flat_rest = _FLAT_REST.match
    skip = skip_value
    scanstring = _scanstring
    budget = [50]

    def visit(i: int, node: list, need_end: bool):
        children, rows = node
        if not children:
            end = skip(text, i)
            for n in rows:
                spans[n] = (i, end)
            return end
        if rows is not None:
            need_end = True
        todo = len(children)
        c = text[i]
        if c == "[":
            p = ws(text, i + 1).end()  # the first element
            if text[p] == "]":
                c = None  # an empty array
                end = p + 1
        if c == "{" or c == "[":
            # one loop for both containers: a member's name or an element's index, then the
            # wanted value visited or any other skipped, then the comma or the end
            obj = c == "{"
            if obj:
                finder = _finder(tuple(children), budget) if todo <= 4 else None
                p = i + 1  # after '{' or ','
            else:
                finder = None
                key = -1
            get = children.get
            while True:
                if not obj:
                    key += 1
                    j = p
                else:
                    m = finder.match(text, p) if finder is not None else None
                    if m is not None:
                        key = m.group(1)
                        j = m.end()
                    else:
                        p = ws(text, p).end()
                        if text[p] == "}":
                            end = p + 1
                            break
                        m = plain_name(text, p)
                        if m is not None:
                            key = m.group(1)
                            j = m.end()
                        else:
                            key, j = scanstring(text, p + 1)
                            j = ws(text, ws(text, j).end() + 1).end()
                child = get(key) if todo else None
                if child is not None:
                    todo -= 1
                    if todo == 0:
                        if not need_end:
                            visit(j, child, False)
                            return None
                        j = visit(j, child, True)
                        if obj:
                            finder = None
                            m = flat_rest(text, j)
                            if m is not None:
                                end = m.end()
                                break
                    else:
                        j = visit(j, child, True)
                else:
                    j = skip(text, j)
                m = comma(text, j)
                if m is None:
                    end = ws(text, j).end() + 1
                    break
                p = m.end()
        elif c is not None:
            end = skip(text, i)
        if rows is not None:
            for n in rows:
                spans[n] = (i, end)
        return end

    return visit


def array_run(locations: list):
    """``(k, suffix)`` when every location is ``prefix + (index,) + suffix``, with one
    ``prefix`` of ``k`` parts, one ``suffix`` of at most one name and increasing indices:
    the shape of big results (``$..call_id`` over a log, ``$.data[?@.status=='done']``),
    located element after element without a tree of the wanted locations.  Else None."""
    if len(locations) < 32:
        return None
    first, last = locations[0], locations[-1]
    size = len(first)
    if len(last) != size:
        return None
    k = next((i for i in range(size) if first[i] != last[i]), None)
    if k is None or type(first[k]) is not int:
        return None
    prefix, suffix = first[:k], first[k + 1:]
    if len(suffix) > 1 or (suffix and type(suffix[0]) is not str):
        return None
    previous = -1
    after = k + 1
    for loc in locations:
        index = loc[k] if len(loc) == size else None
        if type(index) is not int or index <= previous or loc[:k] != prefix or loc[after:] != suffix:
            return None
        previous = index
    return k, suffix


def _element_finder(name: str):
    """A regex matching a whole object whose members before ``name`` and after it hold
    scalars, with the value of ``name`` as group 1; None when ``name`` has no single
    spelling (see :func:`_finder`)."""
    found = _FINDERS.get(("element", name), 0)
    if found == 0:
        found = None
        if len(_FINDERS) >= 1000:
            _FINDERS.clear()
        if _FINDABLE.match(name):
            found = re.compile(r"\{" + _WSC + "(?:" + _PLAIN_STRING + _WSC + ":" + _WSC + _SCALAR + _WSC
                               + "," + _WSC + ')*?"' + re.escape(name) + '"' + _WSC + ":" + _WSC
                               + "(" + _SCALAR + ")" + _FLAT_REST.pattern, re.S)
        _FINDERS[("element", name)] = found
    return found


def _locate_run(text: str, locations: list, run: tuple, spans: list, visit) -> None:
    """:func:`locate_rows` for the locations of an :func:`array_run`: the array's elements
    are passed over in C, a wanted element's member is matched with one regex when the
    element holds scalars (else walked by ``visit``)."""
    k, suffix = run
    comma = _COMMA.match
    skip = skip_value
    i = _value_start(text, locations[0][:k])
    j = _WS.match(text, i + 1).end()  # the first element (the array holds the wanted ones)
    element = _element_finder(suffix[0]) if suffix else None
    total = len(locations)
    n = 0
    target = locations[0][k]
    index = 0
    while True:
        if index == target:
            if not suffix:
                end = skip(text, j)
                spans[n] = (j, end)
            else:
                m = element.match(text, j) if element is not None else None
                if m is not None:
                    spans[n] = m.span(1)
                    end = m.end()
                else:
                    end = visit(j, [{suffix[0]: [{}, [n]]}, None], True)
            n += 1
            if n == total:
                return
            target = locations[n][k]
        else:
            end = skip(text, j)
        m = comma(text, end)
        if m is None:  # cannot happen: the wanted elements are in the array
            return
        j = m.end()
        index += 1


def _value_start(text: str, parts) -> int:
    """The offset where the value at ``parts`` starts (its end is not needed)."""
    ws = _WS.match
    i = ws(text, 0).end()
    for part in parts:
        if type(part) is int:
            j = ws(text, i + 1).end()
            for _ in range(part):
                j = _COMMA.match(text, skip_value(text, j)).end()
            i = j
            continue
        finder = _finder((part,), [1])
        p = i + 1
        while True:
            m = finder.match(text, p) if finder is not None else None
            if m is not None:
                i = m.end()
                break
            p = ws(text, p).end()
            m = _PLAIN_NAME.match(text, p)
            if m is not None:
                name, j = m.group(1), m.end()
            else:
                name, j = _scanstring(text, p + 1)
                j = ws(text, ws(text, j).end() + 1).end()
            if name == part:
                i = j
                break
            p = _COMMA.match(text, skip_value(text, j)).end()
    return i


def locate_rows_all(text: str, locations: list) -> list:
    """:func:`locate_rows` walking every member of the objects on the way, so that the last
    of duplicate names wins (as in the parsed tree): the parser's own locator."""
    pointers = [pointer_of(loc) for loc in locations]
    found = locate_many(text, set(pointers))
    return [(found[p].start, found[p].end) if p in found else None for p in pointers]
