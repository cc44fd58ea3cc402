"""The garbage collector's one pause (sodos_plugin.util.gcpause): paused for a step and
restored as it was, around every Host call that builds much, and in worker processes."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from sodos_hookspecs import Reader, ReadResult, hookimpl

from sodos_plugin import Tournament
from sodos_plugin.util.gcpause import paused, paused_gc, worker_start


def test_the_collector_is_paused_for_a_step_and_restored_as_it_was() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():  # nested: the outer step keeps it paused
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()  # a host that runs without it keeps it off
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(KeyError), paused_gc():
        raise KeyError("a failure inside the step")
    assert gc.isenabled()


def test_the_decorator_pauses_its_function_only() -> None:
    seen = []
    step = paused(lambda: seen.append(gc.isenabled()))
    step()
    assert seen == [False] and gc.isenabled()


def test_worker_start_pauses_the_collector_for_the_process() -> None:
    try:
        worker_start()
        assert not gc.isenabled()
    finally:
        gc.enable()


class _Probe:
    """A reader and a writer that note whether the collector runs while they work."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, bool]] = []

    def _read(self, paths, options) -> ReadResult:
        self.seen.append(("read", gc.isenabled()))
        return ReadResult(Tournament("probe", 0, (), ()))

    def _write(self, standings, stream) -> None:
        self.seen.append(("write", gc.isenabled()))
        stream.write("probe\n")

    @hookimpl
    def sodos_readers(self):
        return [Reader("probe", "probe", lambda path, head: path.suffix == ".probe", self._read)]

    @hookimpl
    def sodos_writers(self):
        from sodos_hookspecs import Writer

        return [Writer("probe", "probe", self._write)]


def test_host_calls_run_with_the_collector_paused_and_restore_it(host, tmp_path: Path) -> None:
    probe = _Probe()
    host.register(probe, name="probe")
    path = tmp_path / "t.probe"
    path.write_text("x")
    tournament = host.read([path]).tournament
    standings = host.standings(tournament, criteria=[])
    assert host.render(standings, "probe") == "probe\n"
    assert probe.seen == [("read", False), ("write", False)]
    assert gc.isenabled()
