"""JUnit XML: one ``<testsuite>`` (the command), one ``<testcase>`` per item or file, and for a
case with failing findings (see :func:`~workbench.report.fails`) one ``<failure>`` whose
``message`` is the first and whose text lists them all as ``line:column: code message``; the
findings that do not fail are listed in ``<system-out>``.  ``tests``, ``failures`` and
``errors`` count cases, as JUnit readers expect; no ``time`` (the output is deterministic)."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .model import fails


def _clean(text: str) -> str:
    """Text XML 1.0 can hold: other control characters and lone surrogates as ``\\uXXXX``."""
    out = []
    for ch in text:
        o = ord(ch)
        if (o < 0x20 and ch not in "\t\n\r") or 0xD800 <= o <= 0xDFFF or o in (0xFFFE, 0xFFFF):
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    return "".join(out)


def _line(f) -> str:
    at = f"{f.line}:{f.column or 1}: " if f.line is not None else ""
    return f"{at}{f.severity} {f.code} {f.message}"


def render(cases, *, tool: str, fail_on: str = "error") -> str:
    body = []
    failed = 0
    for case in cases:
        bad = [f for f in case.findings if fails(f, fail_on)]
        rest = [f for f in case.findings if not fails(f, fail_on)]
        head = (f'    <testcase classname={quoteattr(_clean(f"{tool}.{case.file}"))} '
                f"name={quoteattr(_clean(case.name))}")
        if not bad and not rest:
            body.append(head + "/>")
            continue
        body.append(head + ">")
        if bad:
            failed += 1
            first = bad[0]
            body.append(f"      <failure message={quoteattr(_clean(first.message))} "
                        f"type={quoteattr(first.code)}>"
                        + escape(_clean("\n".join(_line(f) for f in bad))) + "</failure>")
        if rest:
            body.append("      <system-out>" + escape(_clean("\n".join(_line(f) for f in rest)))
                        + "</system-out>")
        body.append("    </testcase>")
    n = len(cases)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuites name="workbench" tests="{n}" failures="{failed}" errors="0">\n'
            f'  <testsuite name={quoteattr(f"workbench {tool}")} tests="{n}" failures="{failed}" '
            'errors="0" skipped="0">\n'
            + "".join(line + "\n" for line in body)
            + "  </testsuite>\n</testsuites>\n")
