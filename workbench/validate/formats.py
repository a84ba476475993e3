"""Format checkers for ``format_assert``: strict ones written here for every format whose
library checker is lenient (the optional ``format`` tests of the JSON Schema Test Suite pass for
every draft), the library's non-GPL set for the rest, and no network anywhere.

Written here (each to its RFC, ASCII digits only, no trailing newline):

* ``date-time``, ``time`` (RFC 3339, with leap seconds: ``23:59:60`` in UTC, after the offset),
  ``duration`` (RFC 3339 appendix A: ``P1Y2M``, ``PT1H30M``, ``P2W``; no fractions, no sign);
* ``email``/``idn-email`` (RFC 5321 mailbox / RFC 6531), ``hostname`` (RFC 1123 with IDNA2008
  A-labels checked by the ``idna`` package) and ``idn-hostname`` (RFC 5890-5893: U-labels,
  CONTEXTJ/CONTEXTO, the Bidi rule across the name);
* ``uri``, ``uri-reference``, ``iri``, ``iri-reference`` (RFC 3986/3987; an IP literal's IPv6
  and IPvFuture read exactly), ``uri-template`` (RFC 6570 level 4), ``uuid`` (RFC 9562's
  hyphenated hex form), ``relative-json-pointer``, and ``regex`` (ECMA-262, see
  :mod:`workbench.validate.patterns`).
"""

from __future__ import annotations

import copy
import ipaddress
import re

from jsonschema import validators  # noqa: E402

from .library import BASES
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
    uri_rule = "URI" if rule == "iri" else "URI_reference"

    def check(instance) -> bool:
        if not isinstance(instance, str):
            return True
        # imported at the first check (its regular expressions: ~0.1 s of a start-up, issue 25)
        from rfc3986_validator import validate_rfc3986
        if instance.isascii():
            return _uri_with_ip_literal(instance, uri_rule, validate_rfc3986)
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
        return _uri_with_ip_literal("".join(out), uri_rule, validate_rfc3986)
    return check


#: ``http(s)://`` + a host of letters, digits, dots and hyphens + path segments of unreserved
#: characters + an optional empty fragment: a URI by RFC 3986's grammar (scheme, ``//`` reg-name,
#: path-abempty of unreserved pchars, empty fragment) and so a URI-reference -- every dialect's
#: ``$schema``, which each schema's metaschema check asserts, without importing the validator
_PLAIN_HTTP_URI = re.compile(r"https?://[A-Za-z0-9.-]+(?:/[A-Za-z0-9._~-]*)*#?").fullmatch


def uri_check(rule: str):
    """RFC 3986 ``URI`` / ``URI-reference`` (the library's grammar, an IP literal read exactly)."""
    def check(instance) -> bool:
        if not isinstance(instance, str):
            return True
        if _PLAIN_HTTP_URI(instance):   # a metaschema's own $schema / $id: no grammar needed
            return True
        from rfc3986_validator import validate_rfc3986  # (at the first check, as iri_check)
        return instance.isascii() and _uri_with_ip_literal(instance, rule, validate_rfc3986)
    return check


_IPVFUTURE = re.compile(r"[vV][0-9A-Fa-f]+\.[A-Za-z0-9._~!$&'()*+,;=:-]+")


def _uri_with_ip_literal(text: str, rule: str, validate) -> bool:
    """The RFC 3986 grammar decides, but an IP literal (``[…]`` host) is read here: the
    library's IPv6 takes ``::ffff:01.2.3.4`` (a leading zero) and its IPvFuture only a lower
    ``v``; each is checked exactly and then stands in as ``[::1]``."""
    start = text.find("//")
    open_ = text.find("[", start + 2) if start != -1 else -1
    if open_ == -1:
        return bool(validate(text, rule=rule))
    close = text.find("]", open_)
    head = text[:start]
    if close == -1 or any(c in head for c in "/?#") or any(c in text[start + 2:open_] for c in "/?#"):
        return bool(validate(text, rule=rule))
    literal = text[open_ + 1:close]
    if _IPVFUTURE.fullmatch(literal):
        ok = True
    else:
        try:
            ok = "%" not in literal and ipaddress.IPv6Address(literal) is not None
        except ValueError:
            ok = False
    return ok and bool(validate(text[:open_] + "[::1]" + text[close + 1:], rule=rule))


def format_checker_for(base_cls):
    """The draft's format checker: the library's (non-GPL set) for the formats of that draft,
    with the strict checkers of this module in place of its own."""
    from .formats_strict import STRICT, hostname_rfc1123

    fc = copy.copy(base_cls.FORMAT_CHECKER)
    fc.checkers = dict(fc.checkers)
    fc.checkers["regex"] = (regex_format, (PatternError,))
    if base_cls not in (validators.Draft4Validator, validators.Draft6Validator):
        for name in ("iri", "iri-reference"):
            fc.checkers[name] = (iri_check(name), (ValueError,))
    known = _DRAFT_FORMATS[base_cls]
    for name in ("uri", "uri-reference"):   # (jsonschema is imported without its checker: library.py)
        if name in known:
            fc.checkers[name] = (uri_check("URI" if name == "uri" else "URI_reference"), (ValueError,))
    for name, fn in STRICT.items():
        if name in known:
            fc.checkers[name] = (fn, (ValueError,))
    if base_cls in (validators.Draft4Validator, validators.Draft6Validator):
        fc.checkers["hostname"] = (hostname_rfc1123, (ValueError,))
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


_DRAFT4 = {"date-time", "email", "hostname", "ipv4", "ipv6", "uri"}
_DRAFT6 = _DRAFT4 | {"uri-reference", "uri-template", "json-pointer"}
_DRAFT7 = _DRAFT6 | {"date", "time", "idn-email", "idn-hostname", "iri", "iri-reference",
                     "relative-json-pointer", "regex"}
_DRAFT2019 = _DRAFT7 | {"duration", "uuid"}
_DRAFT_FORMATS = {validators.Draft4Validator: _DRAFT4, validators.Draft6Validator: _DRAFT6,
                  validators.Draft7Validator: _DRAFT7, validators.Draft201909Validator: _DRAFT2019,
                  validators.Draft202012Validator: _DRAFT2019}

FORMAT_CHECKERS = {draft: format_checker_for(base) for draft, base in BASES.items()}
