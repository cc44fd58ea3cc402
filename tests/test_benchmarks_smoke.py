"""The benchmark scripts keep working (no timings asserted: they belong to benchmarks/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_run_all_quick_prints_every_row(tmp_path):
    pytest.importorskip("tiebreak_core", reason="tiebreak-core (test extra) missing")
    rows_file = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run_all.py"), "--quick", "--repeat", "1",
         "--jobs", "2", "--json", str(rows_file)],
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(rows_file.read_text())
    names = " ".join(row["name"] for row in rows)
    for part in ("compute", "tiebreak-core", "ingest", "peak memory"):
        assert part in names
    assert all("skipped" not in row for row in rows)
    assert done.stdout.count("\n|") >= len(rows)  # the table: a header line and a row each
