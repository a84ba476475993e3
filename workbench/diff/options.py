"""The diff's options, read and checked once (the request fields are declared in :mod:`.core`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, InvalidOperation

from ..errors import bad_request
from ..limits import DIFF_TOLERANCE_MAX_CHARS as TOLERANCE_MAX_CHARS
from ..limits import DIFF_TOLERANCE_MAX_EXPONENT as TOLERANCE_MAX_EXPONENT
from .ignore import Ignore
from .presets import PRESETS, preset_patterns

ENGINES = ("workbench", "deepdiff")


@dataclass
class Options:
    ignore_order: bool = False
    match_key: str | None = None
    ignore_paths: list = field(default_factory=list)       # the user's patterns
    parse_strings: bool = True
    preset: str | None = None
    preset_keep: list = field(default_factory=list)
    tolerance: tuple | None = None                          # (absolute, relative) Decimals
    engine: str = "workbench"
    preset_fields: list = field(default_factory=list)      # (pattern, what) the preset ignores

    def ignore(self) -> Ignore | None:
        """The user's patterns, then the preset's (which stay outside JSON strings)."""
        patterns = list(self.ignore_paths) + [p for p, _ in self.preset_fields]
        if not patterns:
            return None
        n = len(self.ignore_paths)
        return Ignore(patterns, outside_strings=range(n, len(patterns)))

    def public(self) -> dict:
        out = {"ignore_order": self.ignore_order, "match_key": self.match_key,
               "ignore_paths": list(self.ignore_paths), "parse_strings": self.parse_strings,
               "engine": self.engine}
        if self.preset:
            out["preset"] = self.preset
            out["preset_keep"] = list(self.preset_keep)
        if self.tolerance is not None:
            a, r = self.tolerance
            out["tolerance"] = {"absolute": None if a is None else str(a),
                                "relative": None if r is None else str(r)}
        return out


def _bool(value, name):
    if not isinstance(value, bool):
        raise bad_request(f"'{name}' must be true or false", field=name, code="bad_type")
    return value


def _patterns(value, name, example):
    if value is None:
        return []
    if isinstance(value, str):      # the plain form: one pattern per line
        value = value.splitlines()
    if not isinstance(value, (list, tuple)) or not all(isinstance(p, str) for p in value):
        raise bad_request(f"'{name}' must be a list of strings ({example})", field=name,
                          code="bad_type")
    return [p.strip() for p in value if p.strip()]


def _number(value, name, percent=False) -> Decimal:
    """A tolerance number: 0 or more, finite, of at most TOLERANCE_MAX_CHARS characters and an
    exponent within ±TOLERANCE_MAX_EXPONENT (``1e9999999%`` says nothing a user means and would
    overflow the arithmetic); ``percent``: the number of a ``"1%"``, returned as a fraction."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise bad_request(f"'{name}' must be a number", field="tolerance", code="bad_type")
    if isinstance(value, int) and value.bit_length() > 4 * TOLERANCE_MAX_CHARS:
        raise _absurd(name)             # (str() of it may be refused: over 4,300 digits)
    text = repr(value) if isinstance(value, float) else str(value).strip()
    if len(text) > TOLERANCE_MAX_CHARS:
        raise _absurd(name)
    try:
        d = Decimal(text)
    except InvalidOperation:
        raise bad_request(f"'{name}' must be a number, not {value!r}", field="tolerance",
                          code="bad_type") from None
    if not d.is_finite() or d < 0:
        raise bad_request(f"'{name}' must be a number of 0 or more", field="tolerance",
                          code="bad_value")
    if d and abs(d.adjusted()) > TOLERANCE_MAX_EXPONENT:
        raise _absurd(name)
    return d.scaleb(-2, _EXACT) if percent else d


_EXACT = Context(prec=2 * TOLERANCE_MAX_CHARS, Emax=MAX_EMAX, Emin=MIN_EMIN)


def _absurd(name):
    return bad_request(f"'{name}' must be a number of at most {TOLERANCE_MAX_CHARS} characters "
                       f"between 1e-{TOLERANCE_MAX_EXPONENT} and 1e{TOLERANCE_MAX_EXPONENT}",
                       field="tolerance", code="bad_value")


def read_tolerance(value) -> tuple | None:
    """``0.01`` (absolute), ``"1%"`` (relative), ``{"absolute": x, "relative": y}`` (either:
    two numbers are equal when within one of them), as jd's ``-precision``; None: exact."""
    if value is None or value == "" or value == 0:
        return None
    if isinstance(value, dict):
        unknown = set(value) - {"absolute", "relative"}
        if unknown:
            raise bad_request(f"'tolerance' takes 'absolute' and 'relative', not {sorted(unknown)}",
                              field="tolerance", code="bad_value")
        a = value.get("absolute")
        r = value.get("relative")
        a = None if a is None else _number(a, "tolerance.absolute")
        r = None if r is None else _number(r, "tolerance.relative")
        return None if a is None and r is None else (a, r)
    if isinstance(value, str) and value.strip().endswith("%"):
        return (None, _number(value.strip()[:-1], "tolerance", percent=True))
    return (_number(value, "tolerance"), None)


def read_options(body: dict) -> Options:
    """The options of a diff request (the API body, or the plain form as one)."""
    o = Options()
    o.ignore_order = _bool(body.get("ignore_order", False), "ignore_order")
    o.parse_strings = _bool(body.get("parse_strings", True), "parse_strings")
    mk = body.get("match_key")
    if mk is not None and not isinstance(mk, str):
        raise bad_request("'match_key' must be a string (a member name such as call_id)",
                          field="match_key", code="bad_type")
    o.match_key = (mk.strip() or None) if mk is not None else None
    o.ignore_paths = _patterns(body.get("ignore_paths"), "ignore_paths",
                               "patterns such as $..id or /output/*/id")
    preset = body.get("preset")
    if preset in ("", None, False, "none"):
        preset = None
    if preset is not None and (not isinstance(preset, str) or preset not in PRESETS):
        raise bad_request(f"'preset' must be one of {', '.join(PRESETS)} (not {preset!r})",
                          field="preset", code="bad_value")
    o.preset = preset
    o.preset_keep = _patterns(body.get("preset_keep"), "preset_keep",
                              "patterns of the preset to compare after all, such as $..usage")
    if preset:
        o.preset_fields = preset_patterns(preset, o.preset_keep)
        o.parse_strings = True          # arguments are compared as parsed JSON
    o.tolerance = read_tolerance(body.get("tolerance"))
    engine = body.get("engine", "workbench") or "workbench"
    if engine not in ENGINES:
        raise bad_request(f"'engine' must be one of {', '.join(ENGINES)} (not {engine!r})",
                          field="engine", code="bad_value")
    o.engine = engine
    return o
