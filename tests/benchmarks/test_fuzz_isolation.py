"""benchmarks/fuzz_isolation.py: its checker catches what it must, and a short run is clean
(random bytes inside valid records are per-file answers). The long runs are the
benchmark's (``python benchmarks/fuzz_isolation.py``)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import fuzz_isolation  # noqa: E402

from sodos_plugin.errors import PluginError  # noqa: E402


@pytest.fixture
def alarm():
    previous = signal.signal(signal.SIGALRM, fuzz_isolation._alarm)
    yield
    signal.signal(signal.SIGALRM, previous)


def test_the_checker_reports_plugin_failures_exceptions_and_hangs(alarm):
    def plugin_failure():
        raise PluginError("builtin.sgf", "read (sgf)", "ValueError: x")

    def crash():
        raise KeyError("x")

    def hang():
        time.sleep(5)
        return "ingested"

    assert fuzz_isolation.run_case(lambda: "rejected", 1) == ("rejected", None)
    outcome, failure = fuzz_isolation.run_case(plugin_failure, 1)
    assert outcome == "failure" and failure.startswith("plugin failure: plugin 'builtin.sgf'")
    assert fuzz_isolation.run_case(crash, 1) == ("failure", "KeyError: 'x'")
    start = time.monotonic()
    assert fuzz_isolation.run_case(hang, 0.2) == ("failure", "no answer within 0.2 s")
    assert time.monotonic() - start < 2


def test_file_cases_answer_for_a_valid_and_a_damaged_file(tmp_path, alarm):
    path = tmp_path / "x.h9"
    assert fuzz_isolation.file_case(path, fuzz_isolation.generated_h9()) == "ingested"
    assert fuzz_isolation.file_case(path, b"; not h9\n") == "rejected"
    folder = tmp_path / "games"
    damaged = fuzz_isolation.generated_sgf(1)[:60]  # cut in a value: not valid SGF
    assert fuzz_isolation.sgf_case(folder, damaged, "Fuzz Cup") == "rejected"


def test_mutations_change_the_bytes_a_little():
    rng = random.Random(3)
    data = fuzz_isolation.generated_sgf(0)
    changed = [fuzz_isolation.mutate(data, rng) for _ in range(50)]
    assert sum(c != data for c in changed) >= 45
    assert all(abs(len(c) - len(data)) <= 8 * 16 for c in changed)


@pytest.mark.slow
def test_a_short_isolation_run_is_clean():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "fuzz_isolation.py"), "--cases", "25",
         "--seconds", "120", "--processes", "2", "--seed", "7"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "isolation: ok" in done.stdout
    for kind in ("sgf", "h9", "xml"):
        assert f"\n{kind:<8}     25  " in done.stdout
