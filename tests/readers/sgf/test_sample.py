"""``sample_sgf/``: the sample McMahon tournament as SGF records.

Checks that it is a complete McMahon tournament (24 players, 5 rounds, handicaps, a jigo,
a game won by default, a bye, an absence, full move sequences), that
``sodos standings sample_sgf/``
prints a readable table and the JSON shape, that the generator reproduces the
committed files, and that the SGF records and the OpenGotha XML of the same
tournament give identical standings.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TESTS, builtin_host
from sgfmill import sgf

from sodos_plugin.cli import main
from sodos_plugin.engine.model import Participation, Result

SAMPLE = ROOT / "sample_sgf"
XML = TESTS / "data" / "sample_tournament.xml"


@pytest.fixture(scope="module")
def sample():
    host = builtin_host()
    return host, host.read([SAMPLE], jobs=1)


def test_sample_is_a_complete_mcmahon_tournament(sample) -> None:
    _, result = sample
    t = result.tournament
    # the README's first command reads this folder: nothing in it is reported as excluded
    assert all(f.status in ("ingested", "settings") for f in result.files)
    assert len(t.players) == 24 and t.rounds == 5
    ranks = [p.rank for p in t.players]
    assert max(ranks) == 4 and min(ranks) == -15  # 5d .. 15k
    assert t.settings["system"] == "mcmahon" and t.settings["mcmahon"] == {"bar": "3d"}
    assert any(g.handicap >= 2 for g in t.games)
    assert any(g.result is Result.JIGO for g in t.games)
    assert any(g.by_default for g in t.games)
    participations = {t.participation(r, p) for r in range(1, 6) for p in range(len(t.players))}
    assert {Participation.BYE, Participation.ABSENT} <= participations
    assert not result.warnings


def test_records_carry_full_move_sequences() -> None:
    paths = sorted(SAMPLE.glob("round-*/*.sgf"))
    assert len(paths) == 59
    for path in paths:
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        moves = len(game.get_main_sequence()) - 1
        result = game.get_root().get("RE")
        assert moves >= 150 or result.endswith("+F"), path


def test_table(capsys) -> None:
    assert main(["standings", str(SAMPLE), "--no-entry-points"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Sodos Spring McMahon 2026 — standings after round 5 of 5 (mcmahon)"
    # no country or club in the records: those columns are dropped; one per round
    assert out[1].split() == ["Pl", "Name", "Rank", "R1", "R2", "R3", "R4", "R5", "MMS", "SOSM",
                              "SOSOSM"]  # fmt: skip
    assert len(out) == 2 + 24
    assert out[2].split()[:4] == ["1", "Nowak", "Piotr", "5d"]


def test_json_shape(capsys) -> None:
    assert main(["standings", str(SAMPLE), "--no-entry-points", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tournament"] == {
        "name": "Sodos Spring McMahon 2026",
        "rounds": 5,
        "scheduled_rounds": 5,
        "round_note": "",
        "system": "mcmahon",
    }
    assert data["criteria"] == ["MMS", "SOSM", "SOSOSM"]
    first = data["standings"][0]
    assert set(first) == {"place", "tied", "player", "values"}
    assert first["player"]["name"] == "Nowak Piotr" and first["player"]["rank"] == "5d"
    assert first["values"] == {"MMS": 36, "SOSM": 174, "SOSOSM": 854}
    assert len(data["standings"]) == 24


@pytest.mark.slow
def test_generator_reproduces_the_committed_files(tmp_path: Path) -> None:
    out = tmp_path / "sample"
    xml = tmp_path / "sample.xml"
    subprocess.run(
        [sys.executable, str(TESTS / "make_sample_sgf.py"), str(out), str(xml)],
        check=True,
    )
    assert xml.read_bytes() == XML.read_bytes()
    made = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    kept = sorted(p.relative_to(SAMPLE) for p in SAMPLE.rglob("*") if p.is_file())
    assert made == kept
    for name in made:
        assert (out / name).read_bytes() == (SAMPLE / name).read_bytes(), name


def rows(standings):
    return [
        (row.place, row.player.name, row.player.rank, tuple(row.values.items()))
        for row in standings.rows()
    ]


def test_sgf_and_opengotha_xml_give_identical_standings(sample) -> None:
    host, result = sample
    if not any(reader.name == "opengotha-xml" for reader, _ in host.registry.readers):
        pytest.skip("the OpenGotha XML reader (builtin.opengotha_xml) is not installed")
    xml = host.read([XML]).tournament
    for round_ in range(1, 6):
        from_sgf = host.standings(result.tournament, round=round_)
        from_xml = host.standings(xml, round=round_)
        assert from_sgf.criteria == from_xml.criteria == ("MMS", "SOSM", "SOSOSM")
        assert sorted(rows(from_sgf)) == sorted(rows(from_xml)), f"round {round_}"
    for criteria in (["NBW", "SOSW", "SODOSW"], ["MMS", "SODOSM", "CUSSM"]):
        a = host.standings(result.tournament, criteria=criteria)
        b = host.standings(xml, criteria=criteria)
        assert sorted(rows(a)) == sorted(rows(b)), criteria
