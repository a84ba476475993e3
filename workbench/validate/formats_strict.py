"""The strict format checkers (see :mod:`workbench.validate.formats`): each takes any value
(non-strings pass: a format applies to strings only) and answers True or False."""

from __future__ import annotations

import ipaddress
import re
import unicodedata

import idna

# --------------------------------------------------------------------------- dates and times

_TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _time_ok(text: str) -> bool:
    m = _TIME.fullmatch(text)
    if m is None:
        return False
    hour, minute, second = int(m[1]), int(m[2]), int(m[3])
    if hour > 23 or minute > 59 or second > 60:
        return False
    if m[6]:
        oh, om = int(m[7]), int(m[8])
        if oh > 23 or om > 59:
            return False
    if second == 60:  # a leap second: 23:59:60 in UTC
        offset = 0 if not m[6] else (1 if m[6] == "+" else -1) * (int(m[7]) * 60 + int(m[8]))
        utc = (hour * 60 + minute - offset) % (24 * 60)
        if utc != 23 * 60 + 59:
            return False
    return True


def _date_ok(text: str) -> bool:
    m = _DATE.fullmatch(text)
    if m is None:
        return False
    year, month, day = int(m[1]), int(m[2]), int(m[3])
    if not 1 <= month <= 12 or day < 1 or day > _DAYS[month - 1]:
        return False
    if month == 2 and day == 29 and not (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)):
        return False
    return True


def date_time(v) -> bool:
    """RFC 3339 ``date-time``: ``2026-01-31T23:59:60Z`` (``T``/``t``, ``Z``/``z``)."""
    if not isinstance(v, str):
        return True
    if len(v) < 20 or v[10] not in "Tt":
        return False
    return _date_ok(v[:10]) and _time_ok(v[11:])


def full_date(v) -> bool:
    return not isinstance(v, str) or _date_ok(v)


def full_time(v) -> bool:
    return not isinstance(v, str) or _time_ok(v)


_D = "[0-9]+"
_DUR_TIME = f"T(?:{_D}H(?:{_D}M(?:{_D}S)?)?|{_D}M(?:{_D}S)?|{_D}S)"
_DUR_DATE = f"(?:{_D}D|{_D}M(?:{_D}D)?|{_D}Y(?:{_D}M(?:{_D}D)?)?)(?:{_DUR_TIME})?"
_DURATION = re.compile(f"P(?:{_DUR_DATE}|{_DUR_TIME}|{_D}W)")


def duration(v) -> bool:
    """RFC 3339 appendix A ``duration``: ``P3Y6M4DT12H30M5S``, ``PT5M``, ``P2W``."""
    return not isinstance(v, str) or _DURATION.fullmatch(v) is not None


# --------------------------------------------------------------------------- host names

_LDH = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def _a_label_ok(label: str) -> bool:
    """An ASCII label: LDH; one with ``--`` in the 3rd and 4th place must be a valid A-label."""
    if _LDH.fullmatch(label) is None:
        return False
    if label[2:4] != "--":
        return True
    if label[:2].lower() != "xn":
        return False
    try:
        u = idna.decode(label.lower())
        return idna.encode(u).decode("ascii") == label.lower()
    except (idna.IDNAError, UnicodeError, ValueError):
        return False


def hostname(v) -> bool:
    """RFC 1123 host name (no trailing dot); ``xn--`` labels checked as IDNA2008 A-labels
    (draft 7 on: RFC 5890)."""
    if not isinstance(v, str):
        return True
    if not v or len(v) > 253 or not v.isascii():
        return False
    return all(_a_label_ok(label) for label in v.split("."))


def hostname_rfc1123(v) -> bool:
    """Draft 4 and 6: RFC 1123 alone (``ab--cd`` is a host name there)."""
    if not isinstance(v, str):
        return True
    if not v or len(v) > 253 or not v.isascii():
        return False
    return all(_LDH.fullmatch(label) is not None for label in v.split("."))


_SEPARATORS = re.compile("[.\u3002\uff0e\uff61]")
_RTL = frozenset({"R", "AL", "AN"})


def idn_hostname(v, nfc: bool = False) -> bool:
    """RFC 5890-5893 internationalized host name: U-labels and A-labels, the Bidi rule for
    every label of a name that holds a right-to-left one."""
    if not isinstance(v, str):
        return True
    if nfc:
        v = unicodedata.normalize("NFC", v)
    labels = _SEPARATORS.split(v)
    if not v or any(not label for label in labels):
        return False
    encoded = []
    for label in labels:
        if label.isascii():
            if not _a_label_ok(label):
                return False
            encoded.append(label)
            continue
        try:
            idna.check_label(label)
            a = idna.alabel(label)
        except (idna.IDNAError, UnicodeError, ValueError):
            return False
        if len(a) > 63:
            return False
        encoded.append(a.decode("ascii"))
    if len(".".join(encoded)) > 253:
        return False
    unicode_labels = [idna.decode(x) if x.lower().startswith("xn--") else x for x in encoded]
    if any(unicodedata.bidirectional(c) in _RTL for label in unicode_labels for c in label):
        try:
            for label in unicode_labels:
                idna.check_bidi(label, check_ltr=True)
        except (idna.IDNAError, ValueError):
            return False
    return True


# --------------------------------------------------------------------------- e-mail

_ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_STRING = re.compile(f"{_ATOM}(?:\\.{_ATOM})*")
_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"')
_U_ATOM = "(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7f])+"
_U_DOT_STRING = re.compile(f"{_U_ATOM}(?:\\.{_U_ATOM})*")
_U_QUOTED = re.compile(r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|[^\x00-\x7f]|\\[\x20-\x7e])*"')
_IPV4 = re.compile(r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}")


def _address_literal(domain: str) -> bool:
    inner = domain[1:-1]
    if inner.startswith("IPv6:"):
        try:
            return "%" not in inner and ipaddress.IPv6Address(inner[5:]) is not None
        except ValueError:
            return False
    return _IPV4.fullmatch(inner) is not None


def _mailbox(v: str, international: bool) -> bool:
    at = v.rfind("@")
    if at <= 0 or at == len(v) - 1:
        return False
    local, domain = v[:at], v[at + 1:]
    if len(local.encode("utf-8")) > 64:
        return False
    if international:
        ok = _U_DOT_STRING.fullmatch(local) or _U_QUOTED.fullmatch(local)
    else:
        ok = _DOT_STRING.fullmatch(local) or _QUOTED.fullmatch(local)
    if not ok:
        return False
    if domain.startswith("[") and domain.endswith("]"):
        return _address_literal(domain)
    return idn_hostname(domain, nfc=True) if international else hostname(domain)


def email(v) -> bool:
    """RFC 5321 ``Mailbox``: dot-string or quoted local part, host name or address literal."""
    return not isinstance(v, str) or _mailbox(v, False)


def idn_email(v) -> bool:
    """RFC 6531: as ``email``, with UTF-8 in the local part and an internationalized domain."""
    return not isinstance(v, str) or _mailbox(v, True)


# --------------------------------------------------------------------------- identifiers and templates

_UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")


def uuid(v) -> bool:
    return not isinstance(v, str) or _UUID.fullmatch(v) is not None


_RJP = re.compile(r"(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^/~]|~[01])*)*)", re.S)
_JP = re.compile(r"(?:/(?:[^/~]|~[01])*)*", re.S)


def relative_json_pointer(v) -> bool:
    return not isinstance(v, str) or _RJP.fullmatch(v) is not None


def json_pointer(v) -> bool:
    return not isinstance(v, str) or _JP.fullmatch(v) is not None


_PCT = "%[0-9A-Fa-f]{2}"
_VARCHAR = f"(?:[A-Za-z0-9_]|{_PCT})"
_VARSPEC = f"{_VARCHAR}+(?:\\.{_VARCHAR}+)*(?::[1-9][0-9]{{0,3}}|\\*)?"
_EXPRESSION = re.compile(f"\\{{[+#./;?&]?{_VARSPEC}(?:,{_VARSPEC})*\\}}")
_LITERAL = re.compile(f"(?:[^\\x00-\\x20\\x7f\"%<>\\\\^`{{|}}]|{_PCT})+")


def uri_template(v) -> bool:
    """RFC 6570 (level 4): literals and ``{op var,var:3,list*}`` expressions."""
    if not isinstance(v, str):
        return True
    i, n = 0, len(v)
    while i < n:
        m = (_EXPRESSION if v[i] == "{" else _LITERAL).match(v, i)
        if m is None or m.end() == i:
            return False
        i = m.end()
    return True


STRICT = {
    "date-time": date_time, "date": full_date, "time": full_time, "duration": duration,
    "hostname": hostname, "idn-hostname": idn_hostname, "email": email, "idn-email": idn_email,
    "uuid": uuid, "relative-json-pointer": relative_json_pointer, "json-pointer": json_pointer,
    "uri-template": uri_template,
}
