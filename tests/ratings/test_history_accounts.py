"""The account of a history's files (docs/rules.md §10.1): each game not rated by the
short key of its reason, whatever input it came from, and the count by status and key."""

from __future__ import annotations

from dataclasses import replace

from sodos_hookspecs import FileReport

from sodos_plugin.engine.model import Game, Player, Result, Tournament
from sodos_plugin.ratings.history import file_summary
from sodos_plugin.ratings.report import summary_lines
from sodos_plugin.ratings.run import SUMMARY_REASONS


def test_the_summary_counts_by_status_then_key_largest_first() -> None:
    files = [
        FileReport("a.sgf", "ingested"),
        FileReport("b.sgf", "ingested"),
        FileReport("c.sgf", "excluded", "no DT: the game's date is unknown (not rated)", "undated"),
        FileReport("d.sgf", "excluded", "DT[2024-05]: not a full date (not rated)", "undated"),
        FileReport("e.sgf", "excluded", "PB and PW are both 'x': self-play", "self-play"),
        FileReport("f.txt", "excluded", "not an SGF record (.sgf) or archive"),  # no key
        FileReport("g.sgf", "rejected", "SZ[37]: board size outside 1..26"),
        FileReport("h.sgf", "duplicate", "same game as a.sgf"),
    ]
    assert file_summary(files) == {
        "ingested": {"": 2},
        "excluded": {"undated": 2, "self-play": 1, "not an SGF record (.sgf) or archive": 1},
        "rejected": {"SZ[37]: board size outside 1..26": 1},
        "duplicate": {"same game as a.sgf": 1},
    }
    assert list(file_summary(files)["excluded"].values()) == [2, 1, 1]


def test_games_of_a_tournament_not_rated_have_keys(make_host) -> None:
    players = tuple(Player(n, rank=0) for n in ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay"))
    games = (
        Game(1, 0, 1, Result.BLACK_WINS),
        Game(1, 2, 3, Result.WHITE_WINS, by_default=True),
        Game(1, 4, 5, Result.UNKNOWN),
        Game(2, 0, 2, Result.BOTH_LOSE),
    )
    t = Tournament("Cup", 2, players, games, date="2024-05-04", source="cup.h9")
    h = make_host({}).history(tournaments=[t])
    assert len(h.games) == 1
    assert [(f.path, f.kind) for f in h.files if f.status == "excluded"] == [
        ("cup.h9: round 1: Cid vs Dan", "forfeit"),
        ("cup.h9: round 1: Eve vs Fay", "unfinished"),
        ("cup.h9: round 2: Ann vs Cid", "no winner"),
    ]


def test_players_of_one_file_sharing_a_name_are_excluded_by_their_key(make_host) -> None:
    t = Tournament(
        "Cup",
        1,
        (Player("? ?", rank=0), Player("? ?", rank=-5), Player("Ann", rank=0), Player("Bob")),
        (Game(1, 0, 2, Result.WHITE_WINS), Game(1, 1, 3, Result.BLACK_WINS)),
        date="2024-05-04",
        source="cup.h9",
    )
    h = make_host({}).history(tournaments=[t])
    assert file_summary(h.files)["excluded"] == {"shared name": 2}


def test_a_rank_in_any_spelling_is_kept_in_its_plain_one(make_host, tmp_path) -> None:
    (tmp_path / "a.sgf").write_text(
        "(;GM[1]PB[Ann]PW[Bob]BR[P9段]WR[NR]DT[2024-05-04]RE[B+R])", "utf-8"
    )
    (tmp_path / "b.sgf").write_text(
        "(;GM[1]PB[Bob]PW[Cid]BR[3 dan]WR[18级]DT[2024-05-05]RE[B+R])", "utf-8"
    )
    host = make_host({"cache": {"enabled": False}})
    h = host.history([tmp_path])
    # Bob's first rank text is no rank (NR): his first Go rank is taken, a day later
    assert {n: p.rank for n, p in h.players.items()} == {"Ann": "9p", "Bob": "3d", "Cid": "18k"}


def _rated_with(host, files: list[FileReport]):
    """A run over one dated game whose account is ``files`` after the game's own file."""
    players = (Player("Ann", rank=0), Player("Bob", rank=0))
    t = Tournament("Cup", 1, players, (Game(1, 0, 1, Result.BLACK_WINS),), date="2024-05-04")
    history = host.history(tournaments=[t])
    return host.ratings(replace(history, files=(*history.files, *files)), rating="egf")


def test_the_document_counts_reasons_whole_from_the_one_count_stderr_counts_keys(host) -> None:
    files = [
        FileReport("z.sgf", "excluded", "zeta: no DT (not rated)", "undated"),
        FileReport("a.sgf", "excluded", "alpha: no DT (not rated)", "undated"),
        FileReport("d.sgf", "duplicate", "same game as a.sgf"),
        FileReport("s.sgf", "settled", "an odd status"),
    ]
    summary = _rated_with(host, files).document().summary
    # statuses in the account's order, any other after; reasons whole, ties by text
    assert [(s.status, s.count) for s in summary] == [
        ("ingested", 1),
        ("duplicate", 1),
        ("excluded", 2),
        ("settled", 1),
    ]
    assert [(r.reason, r.count) for r in summary[2].reasons] == [
        ("alpha: no DT (not rated)", 1),
        ("zeta: no DT (not rated)", 1),
    ]
    # stderr's count of the same files: by the reason's key
    assert file_summary(files)["excluded"] == {"undated": 2}
    assert list(file_summary(files)) == ["duplicate", "excluded", "settled"]


def test_the_table_lists_twenty_reasons_of_a_status_then_counts_the_others(host) -> None:
    files = [
        FileReport(f"{n}.sgf", "excluded", f"reason {n:02d}") for n in range(23) for _ in range(2)
    ]
    files.append(FileReport("x.sgf", "excluded", "reason 99"))
    lines = summary_lines(_rated_with(host, files))
    assert lines[0] == "Files and records: 48 — 1 ingested, 47 excluded"
    assert lines[1:3] == ["  excluded 2: reason 00", "  excluded 2: reason 01"]
    assert len(lines) == 1 + SUMMARY_REASONS + 1
    assert lines[-1] == "  excluded 7: 4 other reasons (JSON lists them)"
