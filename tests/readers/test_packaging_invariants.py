"""Invariants over ingest: the same games give the same standings however
they are packaged, and a round trip through h9 changes nothing.

* SGF: reordering the files (other names, other folders), putting them in a zip or a
  tar.gz, or splitting the folder between loose files and an archive, give identical
  standings; serial and parallel ingest give the identical tournament and file account.
* h9: standings written as h9 and read back give the same values for every criterion
  of the file (EGD h9 format, docs/rules.md §11: h9 keeps results, colours, handicaps,
  byes and ½-point absences; by-default games are not representable, so none are generated).
"""

from __future__ import annotations

import io
import random
import tarfile
import tempfile
import zipfile
from pathlib import Path

import pytest
from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import Game, Host, Player, Result, Tournament
from sodos_plugin.engine.ranks import format_rank
from sodos_plugin.readers.sgf import walk

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
RE_TEXT = {
    Result.BLACK_WINS: ["B+R", "B+3.5", "B+Time", "b+resign"],
    Result.WHITE_WINS: ["W+R", "W+0.5", "W+T", "W+12"],
    Result.JIGO: ["0", "Draw", "Jigo"],
}


@pytest.fixture(scope="module")
def engine() -> Host:
    return builtin_host()


def random_games(seed: int, players: int, rounds: int) -> tuple[list[Player], list[Game]]:
    """Every player plays round 1 (so each appears in a record); later rounds may skip."""
    rng = random.Random(seed)
    named = [Player(f"Player {i:03d}", rank=rng.randrange(-20, 7)) for i in range(players)]
    games = []
    for r in range(1, rounds + 1):
        order = list(range(players))
        rng.shuffle(order)
        pairs = players // 2 if r == 1 else rng.randrange(1, players // 2 + 1)
        for i in range(pairs):
            result = rng.choice([Result.BLACK_WINS, Result.WHITE_WINS, Result.JIGO])
            handicap = rng.choice([0, 0, 0, 2, 3])
            games.append(Game(r, order[2 * i], order[2 * i + 1], result, handicap))
    return named, games


def sgf_record(players: list[Player], game: Game, rng: random.Random) -> bytes:
    black, white = players[game.black], players[game.white]
    handicap = f"HA[{game.handicap}]KM[0.5]" if game.handicap else "KM[6.5]"
    return (
        f"(;FF[4]GM[1]SZ[19]CA[UTF-8]EV[Invariant Open]RO[{game.round}]"
        f"PB[{black.name}]BR[{format_rank(black.rank)}]"
        f"PW[{white.name}]WR[{format_rank(white.rank)}]{handicap}"
        f"RE[{rng.choice(RE_TEXT[game.result])}];B[pd];W[dp];B[pp])\n"
    ).encode()


def records(seed: int, players: int, rounds: int) -> list[bytes]:
    named, games = random_games(seed, players, rounds)
    rng = random.Random(seed + 1)
    return [sgf_record(named, game, rng) for game in games]


def by_name(engine: Host, read) -> dict[str, tuple]:
    """{player: (place, tied, values)} in the default (McMahon) standings."""
    standings = engine.standings(read.tournament)
    return {row.player.name: (row.place, row.tied, row.values) for row in standings.rows()}


def write_folder(folder: Path, data: list[bytes], names: list[str]) -> None:
    for blob, name in zip(data, names):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(blob)


def zip_of(path: Path, data: list[bytes], names: list[str]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for blob, name in zip(data, names):
            archive.writestr(name, blob)


def tar_of(path: Path, data: list[bytes], names: list[str]) -> None:
    with tarfile.open(path, "w:gz") as archive:
        for blob, name in zip(data, names):
            info = tarfile.TarInfo(name)
            info.size = len(blob)
            archive.addfile(info, io.BytesIO(blob))


@PROPERTY
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 6).map(lambda k: 2 * k),  # even: everyone plays round 1
    rounds=st.integers(1, 4),
    shuffle=st.randoms(use_true_random=False),
    split=st.floats(0, 1),
)
def test_packaging_does_not_change_standings(engine, seed, players, rounds, shuffle, split):
    data = records(seed, players, rounds)
    plain = [f"round-{i:04d}.sgf" for i in range(len(data))]
    order = list(range(len(data)))
    shuffle.shuffle(order)
    mixed = [data[i] for i in order]
    # other names, other folders, another order of reading
    renamed = [f"{shuffle.choice('abc')}/{j:03d}-{i}.sgf" for j, i in enumerate(order)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_folder(root / "plain", data, plain)
        expected = by_name(engine, engine.read([root / "plain"], jobs=1))
        assert len(expected) == players

        write_folder(root / "shuffled", mixed, renamed)
        assert by_name(engine, engine.read([root / "shuffled"], jobs=1)) == expected

        zip_of(root / "all.zip", mixed, renamed)
        assert by_name(engine, engine.read([root / "all.zip"], jobs=1)) == expected

        tar_of(root / "all.tar.gz", mixed, renamed)
        assert by_name(engine, engine.read([root / "all.tar.gz"], jobs=1)) == expected

        cut = int(split * len(data))
        (root / "split").mkdir()
        write_folder(root / "split", mixed[:cut], renamed[:cut])
        zip_of(root / "split" / "rest.zip", mixed[cut:], renamed[cut:])
        assert by_name(engine, engine.read([root / "split"], jobs=1)) == expected


def test_packaging_check_is_not_vacuous(engine, tmp_path):
    """A changed result in one record does change the standings compared above."""
    data = records(5, 8, 3)
    write_folder(tmp_path / "a", data, [f"{i}.sgf" for i in range(len(data))])
    changed = list(data)
    changed[0] = changed[0].replace(b"RE[B+", b"RE[W+") if b"RE[B+" in changed[0] else (
        changed[0].replace(b"RE[W+", b"RE[B+")
    )  # fmt: skip
    write_folder(tmp_path / "b", changed, [f"{i}.sgf" for i in range(len(data))])
    a = by_name(engine, engine.read([tmp_path / "a"], jobs=1))
    b = by_name(engine, engine.read([tmp_path / "b"], jobs=1))
    assert a != b


@pytest.mark.slow
def test_serial_and_parallel_ingest_are_identical(engine, tmp_path, monkeypatch):
    # workers from 100 records on, in tasks of 32: several tasks per worker
    monkeypatch.setattr(walk, "PARALLEL_MIN_UNITS", 100)
    monkeypatch.setattr(walk, "MIN_CHUNK", 32)
    data = records(11, 200, 8)
    assert len(data) > 300
    names = [f"r/{i:04d}.sgf" for i in range(len(data))]
    write_folder(tmp_path / "games", data, names)
    (tmp_path / "games" / "broken.sgf").write_bytes(b"(;PB[x]RE[B+R]")  # one rejection too
    zip_of(tmp_path / "games" / "more.zip", data[:50], [f"z/{i}.sgf" for i in range(50)])
    serial = engine.read([tmp_path / "games"], jobs=1, skip_bad=True)
    parallel = engine.read([tmp_path / "games"], jobs=2, skip_bad=True)
    assert serial.tournament == parallel.tournament
    assert list(serial.files) == list(parallel.files)
    assert list(serial.warnings) == list(parallel.warnings)
    assert any(f.status == "rejected" for f in serial.files)
    assert sum(f.status == "duplicate" for f in serial.files) == 50


# -- h9 round trip ----------------------------------------------------------------------------


@st.composite
def h9_tournaments(draw):
    seed = draw(st.integers(0, 2**32))
    players = 2 * draw(st.integers(1, 6))
    rounds = draw(st.integers(1, 5))
    named, games = random_games(seed, players, rounds)
    rng = random.Random(seed)
    paired = {(g.round, p) for g in games for p in (g.black, g.white)}
    byes, absences = set(), set()
    for r in range(1, rounds + 1):
        free = [p for p in range(players) if (r, p) not in paired]
        rng.shuffle(free)
        if free and rng.random() < 0.5:
            byes.add((r, free.pop()))
        for p in free:
            if rng.random() < 0.5:
                absences.add((r, p))
    bar = draw(st.sampled_from(["3d", "1k", "5k"]))
    return Tournament(
        "Round trip", rounds, tuple(named), tuple(games), frozenset(byes), frozenset(absences),
        {"mcmahon": {"bar": bar}},
    )  # fmt: skip


@PROPERTY
@given(h9_tournaments(), st.sampled_from(["mcmahon", "swiss"]))
def test_h9_round_trip(engine, tournament, system):
    criteria = (
        ["MMS", "SOSM", "SOSOSM", "SODOSM"] if system == "mcmahon" else ["NBW", "SOSW", "SODOSW"]
    )
    before = engine.standings(tournament, system=system, criteria=criteria)
    text = io.StringIO()
    engine.write(before, "h9", text)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round-trip.h9"
        path.write_text(text.getvalue(), encoding="utf-8")
        read = engine.read([path])
    after = engine.standings(read.tournament, system=system, criteria=criteria)

    def table(standings):
        return {row.player.name: (row.place, row.tied, row.values) for row in standings.rows()}

    assert table(after) == table(before)
