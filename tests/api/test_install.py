"""The wheel ships static/ and templates/: built and installed, ``workbench`` serves whole pages."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
import zipfile

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow


def test_wheel_contains_static_and_templates_and_serves_pages(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("workbench/static/css/app.css", "workbench/static/js/app.js",
                   "workbench/templates/base.html", "workbench/templates/home.html"):
        assert needed in names, needed
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    # run the installed copy from an unrelated folder so the repository's files cannot be used
    env = {**os.environ, "PYTHONPATH": str(target)}
    proc = subprocess.Popen([sys.executable, "-c", "from workbench.cli import main; main(['--port', '0'])"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://\S+", proc.stdout.readline()).group().rstrip("/")
        import workbench  # noqa: F401  (the test process's own copy is irrelevant here)
        for path in ("/", "/format", "/extract", "/validate", "/diff", "/gate"):
            html = urllib.request.urlopen(url + path, timeout=30).read().decode()
            for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
                assert urllib.request.urlopen(url + asset, timeout=30).status == 200, asset
    finally:
        proc.terminate()
        proc.wait(10)
