"""benchmarks/serve.py runs end to end on a tiny load (its figures are not checked:
timings are never thresholds in tests): the service, the bare waitress yardstick and the
CLI each answer every request with the expected bytes, and the ratio is printed."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import ROOT

pytest.importorskip("waitress", reason="sodos serve needs the serve extra (waitress)")


@pytest.mark.slow
def test_serve_benchmark_smoke():
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "serve.py"),
            *("--players", "12", "--rounds", "3", "--requests", "12"),
            *("--clients", "3", "--baseline-requests", "2", "--workers", "1"),
            *("--max-seconds", "240"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"sodos serve \(HTTP\) +12 requests", done.stdout), done.stdout
    assert re.search(r"CLI, a subprocess each +2 requests", done.stdout), done.stdout
    assert re.search(r"waitress yardstick +12 requests", done.stdout), done.stdout
    assert done.stdout.count("errors 0") == 3
    assert "MiB peak" in done.stdout
    assert re.search(r"service / waitress yardstick: \d+\.\d+", done.stdout), done.stdout
