"""Format checkers for ``format_assert``: the library's non-GPL set, with the workbench's own
where the library's are lenient or slow (see each checker), and no network anywhere.
"""

from __future__ import annotations

import copy

from .library import BASES
from jsonschema import validators  # noqa: E402

from .patterns import PatternError, compile_ecma  # noqa: E402


def regex_format(instance) -> bool:
    if not isinstance(instance, str):
        return True
    compile_ecma(instance)
    return True


_UCSCHAR = ((0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF)) + tuple(
    (0x10000 * k, 0x10000 * k + 0xFFFD) for k in range(1, 14)) + ((0xE1000, 0xEFFFD),)
_IPRIVATE = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))


def _in(ranges, cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def iri_check(rule: str):
    """RFC 3987 ``IRI`` / ``IRI-reference`` in linear time: an IRI is a URI whose unreserved
    characters may also be ``ucschar`` (and whose query may hold ``iprivate``), so each of
    those becomes the ASCII ``g`` and RFC 3986's grammar decides.  (The ``rfc3987_syntax``
    parser jsonschema would use takes about a second per 1,500 characters.)"""
    from rfc3986_validator import validate_rfc3986

    uri_rule = "URI" if rule == "iri" else "URI_reference"

    def check(instance) -> bool:
        if not isinstance(instance, str):
            return True
        if instance.isascii():
            return bool(validate_rfc3986(instance, rule=uri_rule))
        stop = next((i for i, c in enumerate(instance) if c in ":/?#"), len(instance))
        if stop < len(instance) and instance[stop] == ":" and not instance[:stop].isascii():
            return False  # a scheme is ASCII only
        query = instance.find("?")
        fragment = instance.find("#")
        out = []
        for i, c in enumerate(instance):
            cp = ord(c)
            if cp < 0x80:
                out.append(c)
            elif _in(_UCSCHAR, cp):
                out.append("g")
            elif _in(_IPRIVATE, cp) and query != -1 and query < i and (fragment == -1 or i < fragment):
                out.append("g")
            else:
                return False
        return bool(validate_rfc3986("".join(out), rule=uri_rule))
    return check


def format_checker_for(base_cls):
    """The draft's format checker (non-GPL set) with ``regex`` checked by the ``regex``
    package in ECMA-262 syntax."""
    fc = copy.copy(base_cls.FORMAT_CHECKER)
    fc.checkers = dict(fc.checkers)
    fc.checkers["regex"] = (regex_format, (PatternError,))
    if base_cls not in (validators.Draft4Validator, validators.Draft6Validator):
        for name in ("iri", "iri-reference"):
            fc.checkers[name] = (iri_check(name), (ValueError,))
    for name in _NO_NEWLINE:
        if name in fc.checkers:
            fn, raises = fc.checkers[name]
            fc.checkers[name] = (_no_newline(fn), raises)
    return fc


# formats whose grammar has no line break; several checkers match with Python's ``$``, which
# lets a trailing newline through ("2026-01-01T00:00:00Z\n", "example.com\n")
_NO_NEWLINE = ("date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
               "ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uuid", "uri-template")


def _no_newline(fn):
    def check(instance):
        if isinstance(instance, str) and ("\n" in instance or "\r" in instance):
            return False
        return fn(instance)
    return check



FORMAT_CHECKERS = {draft: format_checker_for(base) for draft, base in BASES.items()}
