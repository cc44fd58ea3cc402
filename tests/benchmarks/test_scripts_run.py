"""The benchmark scripts keep working (no timings asserted: they belong to benchmarks/)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT, shared_path


@pytest.mark.slow
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


@pytest.mark.slow
def test_ratings_benchmark_runs_and_prints_its_ratios():
    """benchmarks/ratings.py at tiny sizes (the Glicko-2 row needs the bench extra)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ratings.py"), "gor", "cache",
         "--tournaments", "20", "--records", "300", "--players", "200"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "gor, 20 tournaments: ours" in done.stdout and "ratio" in done.stdout
    assert "second run with 1 % new files" in done.stdout


@pytest.mark.slow
def test_whole_process_benchmarks_quick_print_every_row(tmp_path):
    """processes.py at smoke sizes, on this environment's sodos: every group runs, the
    h9 rows check every value against tiebreak-core's, nothing fails."""
    pytest.importorskip("tiebreak_core", reason="tiebreak-core (test extra) missing")
    rows_file = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "processes.py"), "--quick", "--in-place",
         "--runs", "1", "--data", str(tmp_path / "data"), "--json", str(rows_file)],
        capture_output=True,
        text=True,
        timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = json.loads(rows_file.read_text())
    names = " ".join(row["name"] for row in rows)
    for part in ("sodos --version", "sodos plugins", "h9 -> JSON", "SGF folder", "OpenGotha XML"):
        assert part in names
    assert not [row for row in rows if row["failed"] or row["skipped"]]
    assert all(row["note"] == "values equal" for row in rows if row["name"].startswith("h9"))
    assert all(row["ratio"] > 0 for row in rows)


def test_archives_account_runs_on_the_shared_server_records(tmp_path):
    """benchmarks/archives.py on the shared server records: every record accounted for,
    the valid ones not rated excluded (never rejected), the run's exit 0."""
    folder = shared_path("server-archives", "variants")
    out = tmp_path / "account.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "archives.py"), str(folder),
         "--sodos", f"{sys.executable} -m sodos_plugin.cli", "--json", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (account,) = json.loads(out.read_text())
    assert (account["records"], account["eligible"], account["rated"]) == (22, 15, 15)
    assert account["eligible_rated"] == 15 and account["exit_without_skip_bad"] == 0
    assert {status for status, *_ in account["not_rated"]} == {"excluded"}
    assert "| variants | 23 | 22 | 15 | 15 | 15 (100.00 %) | 0 |" in done.stdout


def test_json_io_benchmark_prints_both_ratios():
    """benchmarks/json_io.py at one small size: reading and writing, each with its
    json-module baseline and ratio (figures not checked)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "json_io.py"), "--sizes", "20", "--repeat", "1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "reading: json_tournament.parse" in done.stdout and "json.loads" in done.stdout
    assert "writing: the JSON writer" in done.stdout and "json.dumps" in done.stdout
    assert done.stdout.count("x  (target <= 2x") == 2


def test_ingest_benchmark_prints_every_jobs_count_and_checks_them():
    """benchmarks/ingest.py at a tiny size, workers forced: the rows of one process and
    of the jobs the machine has cores for, each checked identical to one process, and
    the part no worker takes."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ingest.py"), "--records", "120",
         "--moves", "20", "--repeat", "1", "--min-parallel", "0", "--baseline-records", "20",
         "--jobs-list", "2,4,16"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "(h) history (sodos ratings' read), --jobs 1" in done.stdout
    assert "every jobs count identical to 1 process: True" in done.stdout
    for part in ("reader", "history"):  # the part no worker takes, and what it allows
        assert f"(f) {part}, results made beforehand (16-core tasks)" in done.stdout
    assert done.stdout.count("allows x") == 2 and "identical: False" not in done.stdout


def test_scale_benchmark_prints_time_and_memory_with_and_without_steps(tmp_path):
    """benchmarks/scale.py at tiny sizes: a line per system, size and mode, the same
    final ratings with and without steps."""
    out = tmp_path / "scale.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "scale.py"), "--sizes", "2000,5000",
         "--players", "300", "--steps", "--json", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert len(figures) == 8 and "peak" in done.stdout and "columns" in done.stdout
    for system in ("ogs", "gor"):
        for n in (2000, 5000):
            pair = [f for f in figures if f["system"] == system and f["games"] == n]
            assert {f["steps"] for f in pair} == {False, True}
            assert pair[0]["checksum"] == pair[1]["checksum"]
            assert all(f["peak"] >= f["held"] > 0 for f in pair)


def test_live_benchmark_quick_prints_every_target():
    """benchmarks/live.py at smoke sizes: each target's figure is printed, no error."""
    pytest.importorskip("waitress", reason="sodos serve needs waitress (the test extra)")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "live.py"), "--quick"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    for part in ("Python API, synchronous full", "20,000 players", "baseline Host.rate_game",
                 "batch POST /games of 1,000 games", "start-up", "8 clients",
                 "0 errors"):  # fmt: skip
        assert part in done.stdout, (part, done.stdout)
