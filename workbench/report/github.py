"""GitHub Actions workflow commands: one ``::error file=…,line=…,col=…,title=CODE::message``
line per finding (``::warning`` and ``::notice`` for the other severities), escaped as the
runner reads them (``%``, CR and LF in the message; also ``:`` and ``,`` in the properties)."""

from __future__ import annotations

_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def render(cases, *, tool: str, fail_on: str = "error") -> str:
    out = []
    for case in cases:
        for f in case.findings:
            props = [f"file={_prop(case.file)}"]
            if f.line is not None:
                props.append(f"line={f.line}")
                if f.column is not None:
                    props.append(f"col={f.column}")
            props.append(f"title={_prop(f'{tool} {f.code}')}")
            out.append(f"::{_COMMAND[f.severity]} {','.join(props)}::{_data(f.message)}\n")
    return "".join(out)
