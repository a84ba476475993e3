"""Issue 21: hostile files to every subcommand's every input door (the document, the schema,
the tools, a log): bad UTF-8, a BOM, a huge line, deep nesting, NUL bytes, huge numbers, lone
surrogates, nothing, a folder, a FIFO, a missing file.  Each run exits 0, 1 or 2 with at most a
short message on standard error — never a traceback, a crash or a hang.

Each case runs the real ``main`` in a forked child of this process (its own exit status,
standard streams and signals: a crash is seen as one), so the ~180 cases take seconds, not the
minutes of as many interpreter starts."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux",
                                reason="forks a child per case")

ITEM = (b'{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", '
        b'"arguments": "{\\"a\\": 1}", "status": "completed"}\n')

HOSTILE = {
    "bad_utf8": b'{"a": "\xff\xfe"}\n' + ITEM,
    "bom": b"\xef\xbb\xbf" + ITEM,
    "huge_line": b"[" + b'"xxxxxxxxxxxxxxxx",' * 120_000 + b"1]\n",
    "deep_arrays": b"[" * 100_000 + b"]" * 100_000,
    "deep_objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "nul_bytes": b'{"a": 1}\x00\n\x00\x00\n' + ITEM,
    "huge_numbers": b'[' + b"1" * 20_000 + b', 1e999999999, -0.0e-99999999, ' + b"9" * 5000 + b'.5]\n',
    "lone_surrogates": b'{"\\ud800": "\\udfff", "arguments": "\\ud83d"}\n',
    "empty": b"",
    "blank_lines": b"\n\r\n   \n\t\n",
    "sse_in_json": b"event: response.created\ndata: {}\n\n",
}
SPECIAL = ("folder", "missing", "fifo")

DOORS = {
    "format": ["format", "{F}"],
    "extract": ["extract", "$..a", "{F}"],
    "extract --jsonl": ["extract", "--jsonl", "$", "{F}"],
    "validate": ["validate", "{F}", "--schema", "{S}"],
    "validate --schema": ["validate", "{J}", "--schema", "{F}"],
    "validate --jsonl": ["validate", "--jsonl", "{F}", "--schema", "{S}"],
    "diff left": ["diff", "{F}", "{J}"],
    "diff right": ["diff", "{J}", "{F}"],
    "gate": ["gate", "{F}"],
    "gate --schema": ["gate", "{J}", "--schema", "{F}"],
    "gate --original": ["gate", "{J}", "--original", "{F}"],
    "gate --jsonl": ["gate", "--jsonl", "{F}", "--jobs", "1"],
    "gate --jsonl --jobs 2": ["gate", "--jsonl", "{F}", "--jobs", "2"],
    "transcript": ["transcript", "{F}"],
    "transcript --tools": ["transcript", "{J}", "--tools", "{F}"],
    "convert": ["convert", "--to", "anthropic", "{F}"],
    "convert --tools": ["convert", "--to", "gemini", "{J}", "--tools", "{F}"],
    "redact": ["redact", "{F}"],
    "redact --numbers": ["redact", "--numbers", "{F}"],
}


def run_forked(argv: list[str], tmp: Path, timeout: float = 60) -> tuple[int, bytes, bytes]:
    """``workbench *argv`` as ``main`` in a forked child: (exit status, or -signal for a crash
    or 99 for an uncaught exception; standard output; standard error)."""
    out, err = tmp / "out", tmp / "err"
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 98
        try:
            fd_in = os.open(os.devnull, os.O_RDONLY)
            fd_out = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            fd_err = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            for fd, target in ((fd_in, 0), (fd_out, 1), (fd_err, 2)):
                os.dup2(fd, target)
            sys.stdin = open(0, "r", closefd=False)
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
            sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.environ.pop("NO_COLOR", None)
            from workbench.cli.main import main
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException:
                import traceback
                traceback.print_exc()
                code = 99
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) else 97)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"{argv}: still running after {timeout} s")
        time.sleep(0.005)
    code = os.waitstatus_to_exitcode(status)
    return code, out.read_bytes(), err.read_bytes()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict:
    import workbench.cli.main  # noqa: F401  (imported once here, not in each child)
    import workbench.convert  # noqa: F401
    import workbench.diff  # noqa: F401
    import workbench.extract  # noqa: F401
    import workbench.format  # noqa: F401
    import workbench.gate  # noqa: F401
    import workbench.transcript  # noqa: F401
    import workbench.validate  # noqa: F401
    d = tmp_path_factory.mktemp("hostile")
    paths = {}
    for name, data in HOSTILE.items():
        p = d / f"{name}.json"
        p.write_bytes(data)
        paths[name] = str(p)
    (d / "folder").mkdir()
    paths["folder"] = str(d / "folder")
    paths["missing"] = str(d / "no-such-file.json")
    (d / "schema.json").write_text("{}")
    (d / "item.json").write_bytes(ITEM)
    paths["{S}"], paths["{J}"] = str(d / "schema.json"), str(d / "item.json")
    return paths


def _fifo(tmp: Path, data: bytes) -> tuple[str, threading.Thread]:
    path = tmp / "fifo"
    os.mkfifo(path)

    def feed():
        with open(path, "wb") as f:  # blocks until the command opens it
            f.write(data)
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    return str(path), t


@pytest.mark.parametrize("door", list(DOORS))
def test_hostile_files_never_crash_a_door(inputs, tmp_path, door):
    seen = {}
    for name in list(HOSTILE) + list(SPECIAL):
        feeder = None
        if name == "fifo":
            path, feeder = _fifo(tmp_path, HOSTILE["bad_utf8"])
        else:
            path = inputs[name]
        argv = [inputs.get(a, path if a == "{F}" else a) for a in DOORS[door]]
        code, out, err = run_forked(argv, tmp_path)
        if feeder is not None:
            feeder.join(5)
            os.unlink(path)
        text = err.decode("utf-8", "replace")
        seen[name] = code
        assert code in (0, 1, 2), (door, name, code, text[-3000:])
        assert "Traceback" not in text, (door, name, text[-3000:])
        lines = text.splitlines()
        assert len(lines) <= 6 and all(len(ln) < 400 for ln in lines), (door, name, text[:3000])
        if code == 2:  # unreadable: a message saying so, first
            first = lines[0] if lines else out.decode("utf-8", "replace")
            assert first.strip(), (door, name)
    # the ones no door can take are refused, and say why
    assert seen["missing"] == seen["folder"] == 2, seen


@pytest.mark.parametrize("command", [["gate", "{F}"], ["diff", "{F}", "{J}"]])
def test_a_lone_surrogate_is_printed_as_its_escape(inputs, command):
    # the real command (its own standard output's encoding): a report naming "\ud800" used to
    # stop with UnicodeEncodeError
    from conftest import run_workbench
    argv = [inputs.get(a, inputs["lone_surrogates"] if a == "{F}" else a) for a in command]
    code, out, err = run_workbench(*argv)
    assert code == 1 and "Traceback" not in err, err
    assert "\\ud800" in out
