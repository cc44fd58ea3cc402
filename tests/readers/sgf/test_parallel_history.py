"""Worker processes give the history of one process: the same games, files, events,
players and warnings, and ``sodos ratings --jobs 2`` prints the bytes ``--jobs 1``
prints, on the shared real archives (workers forced at any size: the archives are small)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import Result
from sodos_plugin.readers.sgf import history, walk
from sodos_plugin.readers.sgf.history import Assembly, Extra, HistoryOutcome, assemble
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record
from sodos_plugin.readers.sgf.results import ParsedResult
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


# -- chunks merged: the assembly of one pass, cut anywhere ------------------------------

NAMES = ["Ann", "ann", "ANN", "Bob", "Cid", "Lee Sedol", "lee sedol"]
RESULTS = {
    "B+R": ParsedResult(Result.BLACK_WINS),
    "W+R": ParsedResult(Result.WHITE_WINS),
    "B+F": ParsedResult(Result.BLACK_WINS, by_default=True),
    "?": ParsedResult(Result.UNKNOWN),
}
records = st.tuples(
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from(["2024-01-01", "2024-01-05", None]),
    st.sampled_from([None, "Cup"]),
    st.sampled_from(list(RESULTS)),
    st.sampled_from(["a", "b"]),  # few moves: many duplicates, across chunks too
    st.sampled_from([(), ("a note",), ("one", "two")]),
    st.sampled_from([None, "", "3k", "1d", "strong", "?"]),  # Go ranks, other texts
)


def outcomes_of(files):
    out = []
    for n, file in enumerate(files):
        source = f"f{n:03}.sgf"
        if file is None:
            out.append(HistoryOutcome(FileOutcome(source, error="cannot read")))
            continue
        recs, extras = [], []
        for k, (b, w, day, ev, re, move, notes, *rank) in enumerate(file, 1):
            where = source if len(file) == 1 else f"{source}#{k}"
            result, rank = RESULTS[re], (rank or ["3k"])[0]
            recs.append(
                Record(
                    where,
                    b,
                    w,
                    rank,
                    "2d" if k % 2 else None,
                    result,
                    re,
                    None,
                    None,
                    ev,
                    day,
                    0,
                    notes,
                )
            )
            extras.append(Extra(6.5, 19, move))
        out.append(HistoryOutcome(FileOutcome(source, tuple(recs)), tuple(extras)))
    return out


def merged(outcomes, cuts):
    assembly = Assembly()
    bounds = sorted({0, *cuts, len(outcomes)})
    for a, b in zip(bounds, bounds[1:]):
        assembly.merge(assemble(outcomes[a:b], identity_key))
    assert assembly.units == len(outcomes)
    games, events, players, files, warnings = assembly.finish(7, ())
    in_order = (list(games), list(events.items()), list(players.items()), files, warnings)
    return in_order, assembly.state([o.outcome.source for o in outcomes])


@settings(max_examples=300, deadline=None)
@given(
    files=st.lists(st.none() | st.lists(records, min_size=1, max_size=3), max_size=16),
    cuts=st.lists(st.integers(0, 16), max_size=5),
)
def test_chunks_cut_anywhere_merge_into_the_one_pass_assembly(files, cuts):
    outcomes = outcomes_of(files)
    one_pass = merged(outcomes, [])
    assert merged(outcomes, cuts) == one_pass
    assert merged(outcomes, range(len(outcomes))) == one_pass  # a unit at a time


def test_a_game_that_repeats_an_earlier_chunks_game_is_reported_where_its_unit_puts_it():
    game = ("Ann", "Bob", "2024-01-05", "Cup", "B+R", "a", ("kept's note",))
    other = ("Cid", "Bob", "2024-01-05", "Cup", "W+R", "b", ())
    excluded = ("Cid", "Bob", None, "Cup", "W+R", "b", ())
    files = [[game], [excluded, game, other, game], [game], [excluded, game]]
    outcomes = outcomes_of(files)
    (_, _, _, reports, warnings), _ = merged(outcomes, [1, 2, 3])
    said = [(f.path, f.status, f.reason) for f in reports]
    assert said == [
        ("f000.sgf", "ingested", ""),
        ("f001.sgf", "ingested", ""),  # for its third game
        ("f001.sgf#1", "excluded", "no DT: the game's date is unknown (not rated)"),
        ("f001.sgf#2", "duplicate", "same game as f000.sgf"),
        ("f001.sgf#4", "duplicate", "same game as f000.sgf"),
        ("f002.sgf", "duplicate", "same game as f000.sgf"),
        ("f003.sgf#1", "excluded", "no DT: the game's date is unknown (not rated)"),
        ("f003.sgf#2", "duplicate", "same game as f000.sgf"),
    ]
    assert warnings == ["f000.sgf: kept's note"]
    assert merged(outcomes, [1, 2, 3]) == merged(outcomes, [])


RECORD = "(;GM[1]FF[4]SZ[19]PB[{b}]PW[{w}]BR[3k]WR[3d]DT[{dt}]RE[{re}]EV[{ev}]C[{c}];B[{m}])"


def grow(folder, start, count):
    for n in range(start, start + count):
        path = folder / f"{n // 10:03}" / f"g{n:04}.sgf"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = RECORD.format(
            b=("Ann", "ann", "Bob")[n % 3], w=f"Q{n % 5}", dt=f"2024-03-{1 + n % 20:02}",
            ev=f"Club {n % 3}", re=("B+R", "W+2.5", "B+F")[n % 3], c=n, m="abcdefgh"[n % 8] * 2,
        )  # fmt: skip
        path.write_text(text, "utf-8")


def test_workers_with_the_cache_give_one_process_history_as_the_archive_grows(
    make_host, tmp_path, workers_at_any_size
):
    """Parts resumed, per-file entries served to the workers with the units to read, a
    part saved between chunks: each run equals one process without the cache."""
    games = tmp_path / "games"
    cached = {"cache": {"path": str(tmp_path / "cache.sqlite3")}}
    plain = make_host({"cache": {"enabled": False}})
    grow(games, 0, 40)
    for step in range(3):
        with_cache = make_host(cached).history([games], jobs=2)
        alone = plain.history([games], jobs=1)
        assert list(with_cache.games) == list(alone.games)
        assert (with_cache.files, with_cache.events) == (alone.files, alone.events)
        assert (with_cache.players, with_cache.warnings) == (alone.players, alone.warnings)
        assert any("is taken as" in w for w in alone.warnings)
        if step == 0:
            grow(games, 40, 7)  # after the saved part: only these are read
        else:
            (games / f"00{step}" / f"g00{step}3.sgf").unlink()  # per-file entries serve
            grow(games, 47 + 2 * step, 2)
