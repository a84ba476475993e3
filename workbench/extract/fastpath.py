"""The fast path: the common query shapes evaluated on the parsed tree.

Names, indices, ``*``, ``..`` and filters whose predicate :func:`.filters.fast_predicate` could
build run as plain loops over ``(value, location)`` pairs instead of the library's node
objects: the same nodes in the same order (RFC 9535's, as the library produces it: descendants
in pre-order, members in document order), checked against the library on random documents and
queries by the tests.  Every step is a generator, so nothing but the kept rows is held in
memory.  Member names are taken from the compiled query (whatever characters the lexer read),
so no name pattern lives here.
"""

from __future__ import annotations

from jsonpath_rfc9535.segments import JSONPathChildSegment, JSONPathRecursiveDescentSegment
from jsonpath_rfc9535.selectors import FilterSelector, IndexSelector, NameSelector, WildcardSelector

_NAME, _INDEX, _WILD, _FILTER = "name", "index", "wild", "filter"


_ABSENT = object()  # a missing member: equal to no string


def fast_plan(query):
    """``query`` as ``[(descendant, ((kind, arg), ...)), ...]`` for :func:`fast_locations`,
    or None when a segment holds a selector it does not know (slices, filters with
    functions...): the library runs those."""
    plan = []
    for segment in query.segments:
        if isinstance(segment, JSONPathRecursiveDescentSegment):
            descendant = True
        elif type(segment) is JSONPathChildSegment:
            descendant = False
        else:
            return None
        selectors = []
        for selector in segment.selectors:
            kind = type(selector)
            if kind is NameSelector:
                selectors.append((_NAME, selector.name))
            elif kind is IndexSelector:
                selectors.append((_INDEX, selector.index))
            elif kind is WildcardSelector:
                selectors.append((_WILD, None))
            elif isinstance(selector, FilterSelector) and getattr(selector, "_pred", None):
                selectors.append((_FILTER, selector._pred))
            else:
                return None
        plan.append((descendant, tuple(selectors)))
    return plan


def fast_locations(plan, value):
    """The locations of every match of a :func:`fast_plan`, in RFC 9535 order (a generator)."""
    nodes = iter(((value, ()),))
    for descendant, selectors in plan:
        if descendant and len(selectors) == 1 and selectors[0][0] is _NAME:
            nodes = _preorder(nodes, selectors[0][1])
        else:
            nodes = _children(_preorder(nodes) if descendant else nodes, selectors, value)
    return (loc for _, loc in nodes)


def _children(nodes, selectors, root):
    """The child segment ``[selectors]`` applied to each node in turn."""
    if len(selectors) != 1:
        for node in nodes:
            single = (node,)
            for selector in selectors:
                yield from _children(single, (selector,), root)
        return
    kind, arg = selectors[0]
    if kind is _NAME:
        for value, loc in nodes:
            if type(value) is dict and arg in value:
                yield value[arg], loc + (arg,)
    elif kind is _INDEX:
        for value, loc in nodes:
            if type(value) is list:
                i = arg if arg >= 0 else len(value) + arg
                if 0 <= i < len(value):
                    yield value[i], loc + (i,)
    elif kind is _WILD:
        for value, loc in nodes:
            if type(value) is dict:
                for key, child in value.items():
                    yield child, loc + (key,)
            elif type(value) is list:
                for i, child in enumerate(value):
                    yield child, loc + (i,)
    elif hasattr(arg, "member_equals"):  # ``[?@.name == 'string']``, the predicate inlined
        name, string = arg.member_equals
        for value, loc in nodes:
            if type(value) is list:
                for i, child in enumerate(value):
                    if type(child) is dict and child.get(name, _ABSENT) == string:
                        yield child, loc + (i,)
            elif type(value) is dict:
                for key, child in value.items():
                    if type(child) is dict and child.get(name, _ABSENT) == string:
                        yield child, loc + (key,)
    else:  # _FILTER
        pred = arg
        for value, loc in nodes:
            if type(value) is dict:
                for key, child in value.items():
                    if pred(child, root):
                        yield child, loc + (key,)
            elif type(value) is list:
                for i, child in enumerate(value):
                    if pred(child, root):
                        yield child, loc + (i,)


def _preorder(nodes, name=None):
    """Each node and then its descendants, containers only (selectors select nothing from
    the others), depth first, parents before children, members and elements in order.
    With a ``name``, ``..name`` in the same loop: instead of the containers, the member
    ``name`` of each object on the way.  The document's depth was proven within the limit,
    so no depth check is needed."""
    every = name is None
    for value, loc in nodes:
        kind = type(value)
        if kind is dict:
            stack = [(iter(value.items()), loc)]
        elif kind is list:
            stack = [(enumerate(value), loc)]
        else:
            continue
        if every:
            yield value, loc
        elif kind is dict and name in value:
            yield value[name], loc + (name,)
        while stack:
            members, base = stack[-1]
            for key, child in members:
                kind = type(child)
                if kind is dict:
                    here = base + (key,)
                    if every:
                        yield child, here
                    elif name in child:
                        yield child[name], here + (name,)
                    stack.append((iter(child.items()), here))
                    break
                if kind is list:
                    here = base + (key,)
                    if every:
                        yield child, here
                    stack.append((enumerate(child), here))
                    break
            else:
                stack.pop()
