"""SGF reader: tournament assembly, accounting, archives, encodings, options, CLI."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from records import folder, make_tgz, make_zip, rec, status

from sodos_plugin import Host
from sodos_plugin.cli import main
from sodos_plugin.engine.model import Participation, Result
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.readers.sgf import claims, read
from sodos_plugin.readers.sgf import walk as walk_module
from sodos_plugin.readers.sgf.assemble import assemble
from sodos_plugin.readers.sgf.ingest import ingest_bytes
from sodos_plugin.readers.sgf.options import parse_options
from sodos_plugin.util import workers as workers_module

# -- assembly ----------------------------------------------------------------------------


def test_a_small_tournament(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "r1/a.sgf": rec("Ann", "Bob", "W+R", "1", "2k", "1d"),
            "r1/b.sgf": rec("Cid", "Dan", "0", "1", "5k", "4k"),
            "r2/a.sgf": rec("Bob", "Cid", "B+F", "2", "1d", "5k"),
            "r2/b.sgf": rec("Dan", "Ann", "W+3.5", "2", "4k", "2k", extra="HA[2]"),
        },
    )
    result = read([root], {"jobs": 1})
    t = result.tournament
    assert t.name == "Cup" and t.rounds == 2
    assert [p.name for p in t.players] == ["Ann", "Bob", "Cid", "Dan"]
    assert [p.rank for p in t.players] == [-2, 0, -5, -4]
    games = {(g.round, t.players[g.black].name): g for g in t.games}
    assert games[(1, "Cid")].result is Result.JIGO
    assert games[(2, "Bob")].by_default and games[(2, "Bob")].result is Result.BLACK_WINS
    assert games[(2, "Dan")].handicap == 2
    assert all(s == "ingested" for s, _ in status(result).values())
    assert not t.byes and not t.absences


def test_same_game_twice_is_counted_once(tmp_path: Path) -> None:
    data = rec("Ann", "Bob")
    root = folder(tmp_path, {"a.sgf": data, "copy.sgf": data, "c.sgf": rec("Cid", "Dan")})
    result = read([root], {"jobs": 1})
    assert len(result.tournament.games) == 2
    got = status(result)
    assert got["copy.sgf"][0] == "duplicate" and "a.sgf" in got["copy.sgf"][1]


def test_two_results_for_one_pairing_name_both_files(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", "B+R"), "b.sgf": rec("Ann", "Bob", "W+R")})
    with pytest.raises(InputError, match=r"two different results.*a\.sgf.*b\.sgf"):
        read([root], {"jobs": 1})


@pytest.mark.parametrize(("pb", "pw"), [("Ann", "Cid"), ("Bob", "Ann")])
def test_a_player_in_two_games_of_a_round_names_both_files(tmp_path, pb, pw) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob"), "b.sgf": rec(pb, pw)})
    with pytest.raises(
        InputError, match=r"round 1: '(Ann|Bob)' is in two games: .*a\.sgf and .*b\.sgf"
    ):
        read([root], {"jobs": 1})


def test_two_events_need_a_choice(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob", ev="Cup"),
            "b.sgf": rec("Cid", "Dan", ev="Open"),
            "c.sgf": rec("Eve", "Fay", ev=None),
        },
    )
    with pytest.raises(InputError, match="records of two events: 'Cup'.*'Open'"):
        read([root], {"jobs": 1})
    result = read([root], {"jobs": 1, "event": "Open"})
    assert status(result)["a.sgf"] == ("excluded", "event 'Cup', not 'Open'")
    assert {p.name for p in result.tournament.players} == {"Cid", "Dan", "Eve", "Fay"}
    assert any("have no EV" in w for w in result.warnings)
    with pytest.raises(InputError, match="event 'Nope' is in no record"):
        read([root], {"jobs": 1, "event": "Nope"})


@pytest.mark.parametrize("chosen", [None, "Nope"])
def test_the_event_error_is_said_before_a_contradiction_met_first(tmp_path, chosen) -> None:
    """Files are assembled as they are read, but the error is the whole run's: two
    events (or a chosen event in no record) is said even when two results for one
    pairing come in files read before."""
    root = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob", "B+R"),
            "b.sgf": rec("Ann", "Bob", "W+R"),
            "c.sgf": rec("Cid", "Dan", ev="Open"),
        },
    )
    said = "records of two events: 'Cup'" if chosen is None else "event 'Nope' is in no record"
    with pytest.raises(InputError, match=said):
        read([root], {"jobs": 1, "event": chosen})
    with pytest.raises(InputError, match="two different results"):
        read([root], {"jobs": 1, "event": "Cup"})


def _outcomes(tmp_path: Path, files: dict[str, bytes], taken: list[str]):
    """The outcomes of ``files`` as a stream that notes each one taken."""
    for name, data in files.items():
        taken.append(name)
        yield ingest_bytes(data, str(tmp_path / name))


def test_the_assembly_takes_each_file_as_it_comes(tmp_path: Path) -> None:
    """A stream is read one file at a time (the workers read the next meanwhile); once
    the event is settled, a contradiction ends the run without reading the rest."""
    files = {
        "a.sgf": rec("Ann", "Bob", "B+R"),
        "b.sgf": rec("Ann", "Bob", "W+R"),
        **{f"c{n}.sgf": rec(f"P{n}", f"Q{n}") for n in range(5)},
    }
    options = parse_options({"event": "Cup"})
    taken: list[str] = []
    with pytest.raises(InputError, match="two different results"):
        assemble(_outcomes(tmp_path, files, taken), options)
    assert taken == ["a.sgf", "b.sgf"]
    taken.clear()  # no event chosen: the files left could hold another event
    with pytest.raises(InputError, match="two different results"):
        assemble(_outcomes(tmp_path, files, taken), parse_options({}))
    assert taken == list(files)
    taken.clear()
    files["b.sgf"] = rec("Ann", "Bob", "B+R")
    tournament, reports, _ = assemble(_outcomes(tmp_path, files, taken), options)
    assert taken == list(files) and len(reports) == len(files) == 7
    assert [r.status for r in reports] == ["ingested", "duplicate"] + ["ingested"] * 5
    assert len(tournament.games) == 6


def test_records_without_an_event_are_counted_once_the_event_is_known(tmp_path) -> None:
    """Records without EV before the first with one are counted in its event too."""
    root = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob", ev=None),
            "b.sgf": rec("Cid", "Dan", ev=None),
            "c.sgf": rec("Eve", "Fay", ev="Open"),
        },
    )
    result = read([root], {"jobs": 1})
    assert result.tournament.name == "Open"
    assert "2 record(s) have no EV; counted in event 'Open'" in result.warnings
    root = folder(tmp_path / "none", {"a.sgf": rec("Ann", "Bob", ev=None)})
    assert not any("EV" in w for w in read([root], {"jobs": 1}).warnings)


def test_aliases_join_renamed_accounts(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {"a.sgf": rec("ann99", "Bob", ro="1"), "b.sgf": rec("Bob", "Ann", ro="2")},
    )
    result = read([root], {"jobs": 1, "aliases": {"ann99": "Ann"}})
    assert sorted(p.name for p in result.tournament.players) == ["Ann", "Bob"]
    assert len(result.tournament.games) == 2


def test_first_rounds_rank_wins_and_changes_are_warned(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "r2.sgf": rec("Ann", "Bob", ro="2", br="2d", wr="NR"),
            "r1.sgf": rec("Bob", "Ann", ro="1", br="12k ", wr="3d"),
        },
    )
    result = read([root], {"jobs": 1})
    ranks = {p.name: p.rank for p in result.tournament.players}
    assert ranks == {"Ann": 2, "Bob": -12}
    assert any("Ann: rank '2d' in round 2" in w and "3d in round 1" in w for w in result.warnings)


def test_unparseable_rank_is_none_and_mcmahon_stops_cleanly(host, tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", br="1524*", wr="NR")})
    result = read([root], {"jobs": 1})
    assert [p.rank for p in result.tournament.players] == [None, None]
    assert any("not a Go rank" in w for w in result.warnings)
    with pytest.raises(InputError, match="unknown rank for Ann, Bob"):
        host.standings(result.tournament, system="mcmahon")
    assert host.standings(result.tournament, system="swiss").order


def test_missing_players_are_absent_unless_the_bye_is_marked(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "r1a.sgf": rec("Ann", "Bob", ro="1"),
            "r1b.sgf": rec("Cid", "Dan", ro="1"),
            "r2a.sgf": rec("Ann", "Cid", ro="2"),
            "r2b.sgf": rec("Eve", "BYE", ro="2"),
        },
    )
    t = read([root], {"jobs": 1, "bye_name": "BYE", "byes": {"1": ["Eve"]}}).tournament
    index = {p.name: i for i, p in enumerate(t.players)}
    assert "BYE" not in index
    assert t.participation(2, index["Eve"]) is Participation.BYE
    assert t.participation(1, index["Eve"]) is Participation.BYE
    assert t.participation(2, index["Bob"]) is Participation.ABSENT
    assert t.participation(2, index["Dan"]) is Participation.ABSENT
    t = read([root], {"jobs": 1}).tournament  # without bye_name, BYE is a player
    assert "BYE" in {p.name for p in t.players}


def test_bye_and_game_in_one_round_is_an_error(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob")})
    with pytest.raises(InputError, match="byes.1: 'Ann' has a game in round 1"):
        read([root], {"jobs": 1, "byes": {"1": ["Ann"]}})


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("bye", "game", r"round 1: 'Ann' has a game here and the bye in .*a\.sgf"),
        ("game", "bye", r"round 1: 'Ann' has the bye here and a game in .*a\.sgf"),
    ],
)
def test_a_bye_record_and_a_game_in_one_round_is_an_error(tmp_path, first, second, message):
    records = {"bye": rec("Ann", "BYE"), "game": rec("Bob", "Ann")}
    root = folder(tmp_path, {"a.sgf": records[first], "b.sgf": records[second]})
    with pytest.raises(InputError, match=message):
        read([root], {"jobs": 1, "bye_name": "BYE"})


@pytest.mark.parametrize(
    ("game", "message"),
    [
        # black is checked whole (two games, then the bye) before white
        (rec("Ann", "Bob"), r"round 1: 'Ann' has a game here and the bye in .*a\.sgf"),
        (rec("Cid", "Ann"), r"round 1: 'Cid' is in two games: .*b\.sgf and .*c\.sgf"),
    ],
)
def test_a_game_with_two_faults_names_black_s_first(tmp_path, game, message) -> None:
    # Ann has the bye (a.sgf) and Bob, Cid a game (b.sgf): c.sgf's game is faulty for
    # both of its players
    records = {"a.sgf": rec("Ann", "BYE"), "b.sgf": rec("Bob", "Cid"), "c.sgf": game}
    with pytest.raises(InputError, match=message):
        read([folder(tmp_path, records)], {"jobs": 1, "bye_name": "BYE"})


def test_the_same_bye_twice_is_a_duplicate(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "BYE"), "b.sgf": rec("BYE", "Ann", re="W+F")})
    result = read([root], {"jobs": 1, "bye_name": "BYE"})
    got = status(result)
    assert got["a.sgf"] == ("ingested", "")
    assert got["b.sgf"][0] == "duplicate" and "same bye as" in got["b.sgf"][1]
    assert result.tournament.byes == {(1, 0)}


def test_an_alias_that_makes_a_player_meet_himself_is_an_error(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("ann99", "Ann")})
    with pytest.raises(InputError, match="PB and PW are both 'Ann' after the aliases"):
        read([root], {"jobs": 1, "aliases": {"ann99": "Ann"}})


def test_a_player_without_any_rank_is_warned(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", br=None, wr="1k")})
    result = read([root], {"jobs": 1})
    assert [p.rank for p in result.tournament.players] == [None, -1]
    assert result.warnings == ["Ann: no rank in BR/WR of any record (rank unknown)"]


def test_rank_warnings_are_per_player_in_round_order(tmp_path: Path) -> None:
    # input order r3, r1, r2: the first round decides, warnings follow round order
    root = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob", ro="3", br="2d", wr="1k"),
            "b.sgf": rec("Ann", "Bob", ro="1", br="3d", wr="1k"),
            "c.sgf": rec("Bob", "Ann", ro="2", br="2k", wr="1d"),
        },
    )
    result = read([root], {"jobs": 1})
    assert [(p.name, p.rank) for p in result.tournament.players] == [("Ann", 2), ("Bob", -1)]
    ann = "round 1 (" + str(root / "b.sgf") + "); the first round's rank is used"
    assert result.warnings == [
        f"Ann: rank '1d' in round 2 ({root / 'c.sgf'}) differs from 3d in {ann}",
        f"Ann: rank '2d' in round 3 ({root / 'a.sgf'}) differs from 3d in {ann}",
        f"Bob: rank '2k' in round 2 ({root / 'c.sgf'}) differs from 1k in round 1 "
        f"({root / 'b.sgf'}); the first round's rank is used",
    ]


def test_a_configured_bye_for_a_name_in_no_record_is_warned(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob"), "b.sgf": rec("Bob", "Ann", ro="2")})
    result = read([root], {"jobs": 1, "byes": {"1": ["Cid"], "2": ["Cid"]}})
    assert [p.name for p in result.tournament.players] == ["Ann", "Bob", "Cid"]
    assert result.warnings == [
        '[plugin."builtin.sgf"] byes.1: '
        "'Cid' is in no record; added as a player who only had byes"
    ]


def test_rounds_option(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", ro="2")})
    t = read([root], {"jobs": 1, "rounds": 3}).tournament
    assert t.rounds == 3 and (1, 0) in t.absences and (3, 1) in t.absences
    with pytest.raises(InputError, match="rounds = 1 but records go up to round 2"):
        read([root], {"jobs": 1, "rounds": 1})


def test_round_from_ogs_game_name_and_missing_round(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "ogs.sgf": rec("Ann", "Bob", ro=None, extra="GN[Club Cup R:3 (Ann vs Bob)]"),
            "none.sgf": rec("Cid", "Dan", ro=None),
            "text.sgf": rec("Eve", "Fay", ro="final"),
        },
    )
    result = read([root], {"jobs": 1})
    assert [g.round for g in result.tournament.games] == [3]
    got = status(result)
    assert got["none.sgf"] == ("rejected", "no round: RO missing and GN has no 'R:n'")
    assert got["text.sgf"] == ("rejected", "RO[final]: no round number in it")


def test_unknown_and_void_results_keep_the_pairing_unscored(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", "Void"), "b.sgf": rec("Cid", "Dan", "?")})
    result = read([root], {"jobs": 1})
    assert [g.result for g in result.tournament.games] == [Result.UNKNOWN, Result.UNKNOWN]
    assert any("RE[Void]" in w for w in result.warnings)
    assert any("RE[?]" in w for w in result.warnings)


def test_bad_handicap_rejects_the_file(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", extra="HA[12]"), "b.sgf": rec("C", "D")})
    got = status(read([root], {"jobs": 1}))
    assert got["a.sgf"] == ("rejected", "HA[12]: expected a handicap 0..9")


def test_a_tournament_rejects_self_play_and_a_missing_name(tmp_path: Path) -> None:
    """Records of a game all the same (a history excludes them, docs/rules.md §9), but a
    pairing needs two players: a tournament rejects them, as before."""
    files = {
        "self.sgf": rec("Ann", "Ann"),
        "nopw.sgf": rec("Cid", ""),
        "none.sgf": b"(;FF[4]AB[dd]C[a diagram])",  # no names, result or date: no record
        "ok.sgf": rec("Eve", "Fay"),
    }
    got = status(read([folder(tmp_path, files)], {"jobs": 1}))
    assert got["self.sgf"] == (
        "rejected",
        "PB 'Ann' and PW 'Ann' are the same player (docs/rules.md §8)",
    )
    assert got["nopw.sgf"] == ("rejected", "no player name: PW missing or empty")
    assert got["none.sgf"] == (
        "rejected",
        "no game record: no PB, PW, RE or DT (a diagram, a problem)",
    )
    assert got["ok.sgf"] == ("ingested", "")


def test_collection_rejected_as_a_whole_with_the_game_named(tmp_path: Path) -> None:
    data = rec("Ann", "Bob") + rec("Cid", "Dan", ro=None)
    got = status(read([folder(tmp_path, {"c.sgf": data, "d.sgf": rec("E", "F")})], {"jobs": 1}))
    assert got["c.sgf"] == ("rejected", "game 2: no round: RO missing and GN has no 'R:n'")


# -- encodings --------------------------------------------------------------------------


def test_encodings() -> None:
    utf16 = rec("Zoë", "Bob").replace(b"CA[UTF-8]", b"").decode().encode("utf-16-le")
    (record,) = ingest_bytes(utf16, "x").records  # no BOM: detected by the zero bytes
    assert record.black == "Zoë"
    latin = "(;PB[Zoë]PW[Bob]RE[B+R]RO[1])".encode("latin-1")
    (record,) = ingest_bytes(latin, "x").records
    assert record.black == "Zoë" and any("ISO-8859-1" in n for n in record.notes)
    gbk = "(;PB[古力]PW[柯洁]RE[B+R]RO[1])".encode("gbk")
    (record,) = ingest_bytes(gbk, "x", "gbk").records
    assert (record.black, record.white) == ("古力", "柯洁")
    utf8 = "(;PB[古力]PW[x]RE[B+R]RO[1])".encode()
    (record,) = ingest_bytes(utf8, "x").records  # no CA but UTF-8: detected, no note
    assert record.black == "古力" and record.notes == ()
    bad = ingest_bytes(b"\xff\xfe(\x00;\x00P\x00B\x00[\x00\x00\xd8]\x00)\x00", "x")
    assert bad.error is not None and "UTF-16" in bad.error


def test_escapes_and_line_breaks_decode_like_sgfmill() -> None:
    (record,) = ingest_bytes(b"(;PB[A\\]B]PW[C\\\nD\nE]RE[B+R]RO[1])", "x").records
    assert (record.black, record.white) == ("A]B", "CD E")


# -- archives and limits ----------------------------------------------------------------


@pytest.mark.parametrize("maker", [make_zip, make_tgz])
def test_archives_are_read_in_memory(tmp_path: Path, maker) -> None:
    suffix = ".zip" if maker is make_zip else ".tar.gz"
    members = {
        "r1/a.sgf": rec("Ann", "Bob"),
        "../escape.sgf": rec("Cid", "Dan"),
        "README.txt": b"hello",
    }
    archive = maker(tmp_path / f"games{suffix}", members)
    result = read([archive], {"jobs": 1})
    assert len(result.tournament.games) == 2
    got = {f.path.split("!", 1)[1]: f.status for f in result.files}
    assert got == {"r1/a.sgf": "ingested", "../escape.sgf": "ingested", "README.txt": "excluded"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"games{suffix}"]  # nothing written
    assert claims(archive, b"")


@pytest.mark.parametrize("maker", [make_zip, make_tgz])
def test_archive_limits(tmp_path: Path, maker) -> None:
    suffix = ".zip" if maker is make_zip else ".tar.gz"
    members = {f"{i}.sgf": rec(f"P{i}", f"Q{i}") for i in range(5)}
    archive = maker(tmp_path / f"g{suffix}", members)
    result = read([archive], {"jobs": 1, "max_archive_members": 3})
    (report,) = [f for f in result.files if f.status == "rejected"]
    assert "more than 3 members" in report.reason
    big = maker(tmp_path / f"big{suffix}", {"a.sgf": rec("A", "B", extra="C[" + "x" * 5000 + "]")})
    result = read([big], {"jobs": 1, "max_file_bytes": 1000})
    assert [f.status for f in result.files] == ["rejected"]
    assert "above the limit of 1000" in result.files[0].reason
    result = read([archive], {"jobs": 1, "max_archive_bytes": 200})
    assert "more than 200 bytes uncompressed" in result.files[0].reason


def test_zip_bomb_member_is_capped(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "bomb.zip", {"a.sgf": rec("A", "B") + b" " * 3_000_000})
    result = read([archive], {"jobs": 1, "max_file_bytes": 100_000})
    assert result.files[0].status == "rejected"


def test_corrupt_archive_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"PK\x03\x04 not really")
    root = folder(tmp_path, {"ok.sgf": rec("A", "B")})
    got = status(read([root], {"jobs": 1}))
    assert got["bad.zip"][0] == "rejected" and "cannot read archive" in got["bad.zip"][1]


def test_large_file_is_refused(tmp_path: Path) -> None:
    root = folder(tmp_path, {"a.sgf": rec("A", "B", extra="C[" + "x" * 5000 + "]")})
    got = status(read([root], {"jobs": 1, "max_file_bytes": 1000}))
    assert got["a.sgf"][0] == "rejected" and "limit of 1000" in got["a.sgf"][1]


# -- options, folder settings, claims ----------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"evnet": "x"}, "evnet: unknown key"),
        ({"rounds": 0}, "expected a positive integer"),
        ({"aliases": ["a"]}, "aliases"),
        ({"byes": {"x": ["A"]}}, "round number"),
        ({"fallback_encoding": "klingon"}, "unknown encoding"),
        ({"max_file_bytes": True}, "positive integer"),
    ],
)
def test_bad_options(tmp_path: Path, options, message) -> None:
    root = folder(tmp_path, {"a.sgf": rec("A", "B")})
    with pytest.raises(ConfigError, match=message):
        read([root], {"jobs": 1, **options})


def test_folder_settings_file(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob"),
            "sodos.toml": b'system = "swiss"\n[plugin."builtin.sgf"]\naliases = {Bob = "Rob"}\n',
        },
    )
    result = read([root], {"jobs": 1})
    assert result.tournament.settings["system"] == "swiss"
    assert {p.name for p in result.tournament.players} == {"Ann", "Rob"}
    assert status(result)["sodos.toml"] == ("settings", "tournament settings")
    (root / "sodos.toml").write_text('[plugin."builtin.sgf"]\nmax_file_bytes = 99999999\n')
    with pytest.raises(ConfigError, match="not in the records folder"):
        read([root], {"jobs": 1})
    (root / "sodos.toml").write_text("sytem = 1\n")
    with pytest.raises(ConfigError, match="unknown config key 'sytem'"):
        read([root], {"jobs": 1})


def test_claims(tmp_path: Path) -> None:
    plain = tmp_path / "game.txt"
    assert claims(tmp_path, b"")
    assert claims(tmp_path / "x.SGF", b"")
    assert claims(plain, b"\xef\xbb\xbf (\n;FF[4]")
    assert claims(plain, "(;FF[4]".encode("utf-16"))
    assert not claims(plain, b'<?xml version="1.0"?><Tournament>')


# -- parallel, progress, CLI ------------------------------------------------------------


def test_parallel_ingest_is_identical_to_serial(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(walk_module, "PARALLEL_MIN_UNITS", 100)
    monkeypatch.setattr(walk_module, "MIN_CHUNK", 16)
    started = []

    class CountedWorker(workers_module._Worker):
        def __init__(self, *args):
            super().__init__(*args)
            started.append(self.process.pid)

    monkeypatch.setattr(workers_module, "_Worker", CountedWorker)
    files = {}
    for r in range(1, 4):
        for board in range(100):
            files[f"r{r}/{board:03d}.sgf"] = rec(f"P{board}", f"Q{(board + r) % 100}", ro=str(r))
    files["bad.sgf"] = b"(;PB[x"
    root = folder(tmp_path, files)
    assert len(files) > walk_module.PARALLEL_MIN_UNITS
    serial = read([root], {"jobs": 1})
    parallel = read([root], {"jobs": 2})
    assert serial == parallel
    assert len(serial.tournament.games) == 300
    assert len(started) == 1  # the parallel run did use a worker beside this process


def test_tasks_are_a_few_per_worker_within_bounds() -> None:
    assert walk_module.chunk_size(100_000, 2) == walk_module.MAX_CHUNK
    assert walk_module.chunk_size(8_000, 2) == 1000
    assert walk_module.chunk_size(300, 8) == walk_module.MIN_CHUNK


def task_sizes(units: int, workers: int) -> list[int]:
    starts = walk_module.task_starts(units, workers)
    return [b - a for a, b in zip(starts, [*starts[1:], units])]


@pytest.mark.parametrize("units", [0, 1, 255, 300, 12_000, 100_000])
@pytest.mark.parametrize("workers", [1, 2, 16])
def test_tasks_cover_the_units(units, workers) -> None:
    sizes = task_sizes(units, workers)
    assert sum(sizes) == units and all(sizes)
    # within the bounds; the last task may hold what a task of MIN_CHUNK would leave
    assert all(s <= walk_module.MAX_CHUNK for s in sizes)
    assert all(s >= walk_module.MIN_CHUNK for s in sizes[:-1])
    assert workers == 1 or len(sizes) < 2 or sizes[-1] >= walk_module.MIN_CHUNK


def test_workers_tasks_shrink_toward_the_end() -> None:
    sizes = task_sizes(12_000, 2)
    assert sizes[0] == 3000  # the units shared among two tasks per worker
    assert all(a >= b for a, b in zip(sizes, sizes[1:-1]))
    assert sizes[-1] < 2 * walk_module.MIN_CHUNK
    one = walk_module.task_starts(12_000, 1)  # one process: equal tasks, as before
    assert one == list(range(0, 12_000, walk_module.chunk_size(12_000, 1)))


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal() -> None:
    quiet = io.StringIO()
    progress = walk_module.Progress(5000, quiet)
    progress.update(5000)
    progress.close()
    assert quiet.getvalue() == ""
    tty = FakeTerminal()
    progress = walk_module.Progress(5000, tty)
    progress.update(5000)
    progress.close()
    assert "ingested 5000/5000 SGF files" in tty.getvalue()


def test_cli_fails_after_listing_rejected_files_unless_skip_bad(tmp_path, capsys) -> None:
    root = folder(
        tmp_path,
        {"a.sgf": rec("Ann", "Bob"), "bad.sgf": b"(;PB[x", "worse.sgf": b"junk"},
    )
    args = ["standings", str(root), "--no-entry-points", "--system", "swiss", "--jobs", "1"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "bad.sgf: not valid SGF" in err and "worse.sgf: not SGF" in err
    assert "2 input file(s) rejected" in err
    assert main([*args, "--skip-bad"]) == 0
    captured = capsys.readouterr()
    assert "bad.sgf" in captured.err and "Ann" in captured.out


@pytest.mark.parametrize(
    ("text", "rank"),
    [("3d", 2), ("12k ", -12), ("14k*", -14), ("13k?", -13), ("11k+", -11), ("15级", -15),
     ("9p", 8), ("P9段", 8), ("P1", 6), ("9段", 8), ("NR", None), ("1680*", None),
     ("", None)],
)  # fmt: skip
def test_real_world_rank_strings(tmp_path: Path, text: str, rank: int | None) -> None:
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", br=text, wr="1d")})
    players = {p.name: p.rank for p in read([root], {"jobs": 1}).tournament.players}
    assert players["Ann"] == rank


def test_plugin_section_in_either_toml_form(tmp_path: Path) -> None:
    """``[plugin.builtin.sgf]`` (nested by TOML) and ``[plugin."builtin.sgf"]`` both work."""
    root = folder(
        tmp_path / "games",
        {"a.sgf": rec("Ann", "Bob", ev="Cup"), "b.sgf": rec("Cid", "Dan", ev="Open")},
    )
    for header in ("[plugin.builtin.sgf]", '[plugin."builtin.sgf"]'):
        config = tmp_path / "sodos.toml"
        config.write_text(f'{header}\nevent = "Open"\n')
        host = Host(config_file=config, entry_points=False)
        assert host.read([root], jobs=1).tournament.name == "Open"
    host = Host(config_file=False, overrides=['plugin.builtin.sgf.event="Cup"'], entry_points=False)
    assert host.read([root], jobs=1).tournament.name == "Cup"


def test_faulty_records_of_another_event_are_only_excluded(tmp_path: Path) -> None:
    root = folder(
        tmp_path,
        {"a.sgf": rec("Ann", "Bob", ev="Cup"), "b.sgf": rec("Cid", "Dan", ev="Open", ro=None)},
    )
    got = status(read([root], {"jobs": 1, "event": "Cup"}))
    assert got["b.sgf"] == ("excluded", "event 'Open', not 'Cup'")
    got = status(read([root], {"jobs": 1}))  # no event chosen: the fault is reported
    assert got["b.sgf"][0] == "rejected"


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_cli_lists_files_not_ingested_and_prints_each_warning_once(tmp_path, capsys, fmt) -> None:
    root = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob"),
            "copy.sgf": rec("Ann", "Bob"),
            "c.sgf": rec("Cid", "Dan", re="?"),
            "notes.txt": b"not a record",
        },
    )
    args = ["standings", str(root), "--no-entry-points", "--system", "swiss", "--jobs", "1"]
    assert main([*args, "--format", fmt]) == 0
    out, err = capsys.readouterr()
    assert f"duplicate: {root / 'copy.sgf'}: same game as {root / 'a.sgf'}" in err
    assert f"excluded: {root / 'notes.txt'}: not an SGF record" in err
    warning = f"warning: {root / 'c.sgf'}: RE[?]: result unknown"
    # once on stderr; a table not on a terminal leaves them there (issue 28), JSON keeps them
    assert err.count(warning) == 1
    assert out.count(warning) == 0


def test_one_reason_one_verdict_in_a_history(make_host, tmp_path: Path) -> None:
    """A record lacking a player's name is excluded from a history ("no player name"),
    and a root with no names, result or date is no game record (rejected): the reason
    "no player name" was also the rejection's, so one reason had two verdicts."""
    files = {
        "nopw.sgf": rec("Cid", ""),
        "none.sgf": b"(;FF[4]AB[dd]C[a diagram])",
        "ok.sgf": rec("Eve", "Fay"),
    }
    host = make_host({"cache": {"enabled": False}})
    history = host.history([folder(tmp_path, files)])
    verdicts: dict[str, set[str]] = {}
    for report in history.files:
        verdicts.setdefault(report.reason.split(":")[0], set()).add(report.status)
    assert verdicts["no player name"] == {"excluded"}
    assert verdicts["no game record"] == {"rejected"}
    assert all(len(statuses) == 1 for statuses in verdicts.values()), verdicts
