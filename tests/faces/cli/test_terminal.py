"""What a tournament director sees, through the command: the
table with each round as OpenGotha shows it, empty columns dropped, CJK names aligned,
"after round R of N" and the default round said; --format in any case or from
--output's extension; a tournament from stdin."""

from __future__ import annotations

import json

import pytest
from builders import B, J, W, tournament
from conftest import ROOT, shared_path

from sodos_plugin import Game, Player, Result, Tournament
from sodos_plugin.util.textsafe import display_width
from sodos_plugin.writers import table

JUVISY_H9 = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.h9")
JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")
CHINOIS = ("conformance", "go", "opengotha_TournoiChinois.xml")


def text(done) -> str:
    assert done.status == 0, done.err
    return done.out


def render(standings) -> str:
    import io

    out = io.StringIO()
    table.write(standings, out)
    return out.getvalue()


def test_round_cells_as_opengotha_shows_them(host):
    t = tournament(
        [("Ann", "2d"), ("Bob", "1d"), ("Cid", "1k"), ("Dan", "2k")],
        3,
        [(1, "Cid", "Ann", W, 2), (1, "Dan", "Bob", B, 3), (2, "Ann", "Bob", J),
         (3, "Bob", "Cid", W, 0, True)],
        byes=[(2, "Cid")],
        absences=[(2, "Dan")],
    )  # fmt: skip
    lines = render(host.standings(t, system="mcmahon", criteria=["MMS"])).splitlines()
    assert lines[0] == "test — standings after round 3 of 3 (mcmahon)"
    # no country, no club known: those columns are dropped
    assert lines[1].split() == ["Pl", "Name", "Rank", "R1", "R2", "R3", "MMS"]
    by_name = {line.split()[1]: line.split() for line in lines[2:6]}
    # MMS: Ann 31+1+½ = 32½ (1st), Cid 29+0+1+1 = 31 (2nd), Bob 30+0+½+0 = 30½ (3rd),
    # Dan 28+1+½(absent, floored to 0) = 29 (4th)
    assert by_name["Ann"][3:6] == ["2+/w2", "3=/b", "–"]
    assert by_name["Cid"][3:6] == ["1-/b2", "bye", "3+!/w"]
    assert by_name["Bob"][3:6] == ["4-/w3", "1=/w", "2-!/b"]
    assert by_name["Dan"][3:6] == ["3+/b3", "abs", "–"]


def test_cjk_names_align_and_long_names_are_cut(host):
    names = ["高 传德", "Vannier Remi", "马 超", "X" * 55]
    players = tuple(Player(n, r) for n, r in zip(names, (1, 1, 0, -4)))
    games = (Game(1, 0, 1, Result.WHITE_WINS), Game(1, 2, 3, Result.BLACK_WINS))
    t = Tournament("cjk", 1, players, games)
    lines = render(host.standings(t, system="swiss", criteria=["NBW"])).splitlines()
    header, rows = lines[1], lines[2:6]
    rank_column = display_width(header[: header.index("Rank")])
    for row in rows:  # the rank starts in the same terminal column on every line
        rank = next(w for w in row.split() if w in ("2d", "1d", "4k"))
        assert display_width(row[: row.index("  " + rank) + 2]) == rank_column, row
    cut = "X" * (table.NAME_WIDTH - 1) + "…"
    assert any(cut in row for row in rows) and not any(
        "X" * table.NAME_WIDTH in row for row in rows
    )
    assert lines[-1].startswith("note: names longer than the column are cut with …")


def test_default_round_is_the_last_with_results_and_says_so(sodos):
    path = shared_path(*CHINOIS)  # 5 rounds scheduled, results in round 1 only
    out = text(sodos("standings", path))
    assert out.splitlines()[0] == (
        "Tournoi chinois — standings after round 1 of 5 (mcmahon); the last round with "
        "results (rounds 2-5: none yet; --round to choose)"
    )
    done = sodos("standings", path, "--format", "json")
    data = json.loads(text(done))
    assert data["tournament"]["rounds"] == 1 and data["tournament"]["scheduled_rounds"] == 5
    assert "note: standings after round 1 of 5, the last round with results" in done.err
    asked = text(sodos("standings", path, "--round", "5"))
    assert asked.splitlines()[0] == "Tournoi chinois — standings after round 5 of 5 (mcmahon)"


def test_format_any_case_and_from_the_output_extension(sodos, tmp_path):
    path = shared_path(*JUVISY)
    assert json.loads(text(sodos("standings", path, "--format", "JSON")))
    for name, start in (("s.html", "<!DOCTYPE html>"), ("s.CSV", "place,"), ("s.json", "{"),
                        ("s.h9", "; CL[A]"),  # OpenGotha's header starts with the class
                        ("s.txt", "Tournoi de Juvisy — standings")):  # fmt: skip
        done = sodos("standings", path, "--output", tmp_path / name)
        assert done.status == 0, done.err
        assert (tmp_path / name).read_text("utf-8").startswith(start), name


@pytest.mark.parametrize("parts", [JUVISY_H9, JUVISY])
def test_stdin_with_the_format_found_from_the_content(sodos, parts):
    path = shared_path(*parts)
    from_file = json.loads(text(sodos("standings", path, "--format", "json")))
    done = sodos("standings", "-", "--format", "json", stdin=path.read_bytes())
    from_stdin = json.loads(text(done))
    assert from_stdin["standings"] == from_file["standings"]


def test_stdin_sgf_record_and_errors(sodos):
    record = next((ROOT / "sample_sgf" / "round-1").glob("*.sgf")).read_bytes()
    out = text(sodos("standings", "-", stdin=record))
    assert "standings after round 1 of 1" in out
    empty = sodos("standings", "-", stdin=b"")
    assert empty.status == 2
    assert empty.err == "sodos: error: stdin: nothing to read (empty input)\n"
    mixed = sodos("standings", "-", ROOT / "sample_sgf", stdin=record)
    assert mixed.status == 2 and "stdin is one tournament" in mixed.err


def test_messages_about_stdin_name_it_not_its_temporary_file(sodos):
    document = (
        b'{"format": "sodos-tournament", "version": 1, "name": "x", "rounds": 1,'
        b' "players": [{"name": "A", "rank": "3x"}], "games": []}'
    )
    done = sodos("standings", "-", stdin=document)
    assert done.status == 2
    assert done.err == (
        "sodos: error: stdin:players[0].rank: not a Go rank: '3x' (expected e.g. 5k, 3d, 1p)\n"
    )
