"""Worker processes give the history of one process: the same games, files, events,
players and warnings, and ``sodos ratings --jobs 2`` prints the bytes ``--jobs 1``
prints, on the shared real archives (workers forced at any size: the archives are small)."""

from __future__ import annotations

import pytest

from sodos_plugin.readers.sgf import history, walk
from tests.conftest import shared_path

FOLDERS = ["sgf", "server-archives"]


@pytest.fixture
def workers_at_any_size(monkeypatch):
    monkeypatch.setattr(walk, "PARALLEL_MIN_UNITS", 0)
    monkeypatch.setattr(history, "PARALLEL_MIN_UNITS", 0)
    monkeypatch.setattr(walk, "MIN_CHUNK", 3)
    monkeypatch.setattr(walk, "MAX_CHUNK", 3)


@pytest.mark.parametrize("folder", FOLDERS)
def test_history_with_workers_is_one_process_history(make_host, folder, workers_at_any_size):
    path = shared_path(folder)
    host = make_host({"cache": {"enabled": False}})
    one = host.history([path], jobs=1)
    two = host.history([path], jobs=2)
    assert len(one.files) > 5
    assert list(two.games) == list(one.games)
    assert (two.files, two.events, two.players) == (one.files, one.events, one.players)
    assert two.warnings == one.warnings


@pytest.mark.parametrize("folder", FOLDERS)
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_cli_ratings_jobs_2_prints_the_bytes_of_jobs_1(folder, fmt, capsys, workers_at_any_size):
    from sodos_plugin.cli import main

    path = str(shared_path(folder))
    outputs = []
    for jobs in ("1", "2"):
        argv = ["ratings", path, "--rating", "ogs", "--format", fmt, "--no-cache", "--skip-bad"]
        assert main([*argv, "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr())
    assert outputs[0].out and outputs[1].out == outputs[0].out
    assert outputs[1].err == outputs[0].err
