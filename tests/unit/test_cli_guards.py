"""Issue 21 rows 14 and 15 on the command line: a gate whose worker is killed or whose input or
output fails mid-way says so in one line and exits 2; a file too large for its door (a 2 GB
sparse file: one line, or one document) is refused from its size or at the line bound, with
flat memory, never read whole."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_workbench
from test_cli_gate_jobs import children, peak_kb

ROOT = Path(__file__).resolve().parents[2]
ITEM = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f",
        "arguments": "{\"a\": 1}", "status": "completed"}


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err, err


@pytest.fixture(scope="module")
def big_log(tmp_path_factory) -> Path:
    """About 30 MB of items: long enough to kill a worker while it runs."""
    p = tmp_path_factory.mktemp("guards") / "log.jsonl"
    line = (json.dumps(ITEM) + "\n").encode()
    p.write_bytes(line * (30_000_000 // len(line)))
    return p


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_a_worker_killed_is_one_line_and_exit_2(big_log):
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "gate", "--jsonl", str(big_log),
                             "--jobs", "2"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "WORKBENCH_GATE_PIECE_BYTES": "200000"})
    deadline = time.monotonic() + 60
    workers = []
    while not workers and time.monotonic() < deadline and proc.poll() is None:
        workers = children(proc.pid)
        time.sleep(0.01)
    assert workers, "no worker seen"
    os.kill(workers[0], signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    err = err.decode()
    _no_traceback(err)
    assert proc.returncode == 2, (proc.returncode, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "worker" in lines[0] and lines[0].startswith("workbench gate: "), err
    assert b"blocked" not in out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_input_unreadable_mid_way_is_one_line_and_exit_2(jobs):
    # /proc/self/mem opens, and its first read fails (EIO): the stream breaks after it was opened
    code, out, err = run_workbench("gate", "--jsonl", "/proc/self/mem", "--jobs", jobs)
    _no_traceback(err)
    assert code == 2, err
    assert err.count("\n") == 1 and "/proc/self/mem" in err and "Input/output error" in err, err
    assert out == ""


def test_standard_output_closed_is_one_line_and_exit_2(big_log):
    # `workbench gate --jsonl log --json | head -1`: the reader leaves after one line
    cmd = f"{sys.executable} -m workbench gate --jsonl {big_log} --json --jobs 1 | head -1"
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=ROOT, capture_output=True,
                          timeout=120)
    err = proc.stderr.decode()
    _no_traceback(err)
    assert proc.returncode == 2, err
    assert err.count("\n") == 1 and "standard output" in err, err
    assert proc.stdout.count(b"\n") == 1


# --------------------------------------------------------------------------- row 15

@pytest.fixture(scope="module")
def sparse(tmp_path_factory) -> Path:
    """2 GB of NUL bytes on no disk: one line, one (non-)document."""
    p = tmp_path_factory.mktemp("sparse") / "sparse.json"
    with open(p, "wb") as f:
        f.truncate(2 << 30)
    return p


WHOLE = [["format"], ["extract", "$"], ["validate", "--schema", "{S}"], ["diff", "{F}"],
         ["gate"], ["gate", "--schema", "{F}"], ["transcript"]]
LINES = [["gate", "--jsonl"], ["gate", "--jobs", "2", "--jsonl"], ["validate", "--jsonl", "--schema", "{S}"],
         ["extract", "--jsonl", "$"]]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.parametrize("args", WHOLE + LINES, ids=lambda a: " ".join(a).replace("{S}", "S").replace("{F}", "F"))
def test_a_2_gb_sparse_file_is_refused_with_flat_memory(sparse, tmp_path, args):
    schema = tmp_path / "s.json"
    schema.write_text("{}")
    small = tmp_path / "small.json"
    small.write_text("{}")
    argv = [a.replace("{S}", str(schema)).replace("{F}", str(small)) for a in args]
    if args[0] in ("format", "transcript", "gate") and "--jsonl" not in args:
        argv.insert(1, str(sparse))
    else:
        argv.append(str(sparse)) if args[0] not in ("diff",) else argv.insert(1, str(sparse))
    started = time.monotonic()
    code, peak, err = peak_kb([sys.executable, "-m", "workbench", *argv])
    seconds = time.monotonic() - started
    print(f"{' '.join(args)}: exit {code}, peak {peak:,} kB, {seconds:.2f} s")
    _no_traceback(err)
    assert code == 2, err
    assert err.count("\n") <= 3 and len(err) < 2000, err
    assert "limit" in err or "longer" in err or "larger" in err, err
    assert peak < 400_000, (peak, err)  # kB: far below the 2 GB file, flat
    assert seconds < 60, seconds


def test_the_line_bound_is_a_limit_and_says_its_name(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_bytes((json.dumps(ITEM) + "\n").encode() + b'{"a": "' + b"x" * 5000 + b'"}\n'
                    + (json.dumps(ITEM) + "\n").encode())
    code, out, err = run_workbench("gate", "--jsonl", log, env={"WORKBENCH_MAX_LINE": "1000"})
    _no_traceback(err)
    assert code == 2, err
    assert f"{log}:2:" in err and "WORKBENCH_MAX_LINE" in err and "1,000" in err, err
    code, out, err = run_workbench("validate", "--jsonl", log, "--schema", "-", stdin=b"{}",
                                   env={"WORKBENCH_MAX_LINE": "1000"})
    assert code == 2 and f"{log}:2:" in err and "WORKBENCH_MAX_LINE" in err, err


def test_a_whole_file_over_max_body_is_refused_from_its_size(tmp_path):
    doc = tmp_path / "doc.json"
    doc.write_text("[" + "1," * 2000 + "1]")
    code, out, err = run_workbench("format", doc, env={"WORKBENCH_MAX_BODY": "1000"})
    _no_traceback(err)
    assert code == 2 and out == ""
    assert err.startswith(f"workbench format: {doc}: ") or err.startswith(f"{doc}: "), err
    assert "WORKBENCH_MAX_BODY" in err and "1,000" in err, err
    # standard input has no size: read up to the bound, refused past it
    code, out, err = run_workbench("format", "-", stdin=doc.read_bytes(),
                                   env={"WORKBENCH_MAX_BODY": "1000"})
    assert code == 2 and "WORKBENCH_MAX_BODY" in err, err
    code, out, err = run_workbench("format", doc)
    assert code == 0, err
