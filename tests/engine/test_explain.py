"""``sodos explain``: the sum shown equals the standings value, for every player and criterion.

Hand-built tournaments cover byes, absences, not-assigned rounds, handicaps, jigo,
by-default games and cuts; the conformance files are checked once a reader claims them.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from builders import B, mixed, seed, tournament
from conftest import builtin_host, shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import Game, InputError, Player, Result, Tournament
from sodos_plugin.engine.explain import as_dict, explain_player, render
from sodos_plugin.engine.numbers import format_value

ALL = [
    "MMS", "NBW", "SOS", "SOSW", "SOSM", "SOSW-1", "SOSM-1", "SOSW-2", "SOSM-2",
    "SOSOS", "SOSOSW", "SOSOSM", "SODOS", "SODOSW", "SODOSM", "SODOMS", "CUSSW", "CUSSM",
    "EXT", "EXR", "SDC", "DC",
]  # fmt: skip


def check_all(standings) -> None:
    """explain_player for everyone: shown sum == value, and render prints that value."""
    for index, player in enumerate(standings.tournament.players):
        explanation = explain_player(standings, index)
        assert [c.name for c in explanation.criteria] == list(standings.criteria)
        for line in explanation.criteria:
            assert line.shown_sum == standings.value(line.name, index), (player.name, line.name)
            if line.kind == "sum":
                kept = [r.contribution for r in line.rounds if not r.dropped]
                assert sum(kept, Fraction(0)) == line.value
                assert sum(r.dropped for r in line.rounds) == min(line.drop_lowest, standings.round)
        text = render(explanation)
        for line in explanation.criteria:
            shown = format_value(line.value)
            assert re.search(rf"^{re.escape(line.name)} = {re.escape(shown)} ", text, re.M)
            ending = "total" if line.kind == "total" else "sum"
            assert re.search(rf"^  {ending}: .*{re.escape(shown)}", text, re.M)


@pytest.mark.parametrize("system", ["mcmahon", "swiss"])
@pytest.mark.parametrize("round_number", [0, 1, 2, 3])
def test_sum_equals_value_hand_built(host, system, round_number):
    standings = host.standings(mixed(), system=system, criteria=ALL, round=round_number)
    check_all(standings)


def test_rounds_show_game_data_and_parts(host):
    standings = host.standings(mixed(), system="mcmahon", criteria=["SOSM", "SOSM-1", "SODOSM"])
    e = explain_player(standings, "e")  # case-insensitive
    assert e.name == "E"
    r1, r2, r3 = e.games
    assert (r1.paired, r1.situation) == (False, "bye")
    assert (r2.opponent_name, r2.colour, r2.handicap, r2.situation, r2.by_default) == (
        "D",
        "W",
        3,
        "loss",
        True,
    )
    assert (r3.opponent_name, r3.colour, r3.situation) == ("A", "W", "loss")
    sos = e.criteria[0]
    # bye: the virtual opponent (own start MMS: 1k = 29); game: opponent MMS + h as White
    assert sos.rounds[0].details == {"virtual opponent": 29}
    assert sos.rounds[0].contribution == 29
    assert sos.rounds[1].details["handicap correction"] == 3
    d_mms = standings.breakdowns["SOSM"].details["opponent score"].fraction(1, 4)
    assert sos.rounds[1].contribution == d_mms + 3
    cut = e.criteria[1]
    assert [r.dropped for r in cut.rounds] == [True, False, False]  # 29 is the lowest
    text = render(e)
    assert "cut removed round 1" in text
    assert "(by default)" in text
    b = explain_player(standings, "B")
    assert b.games[1].situation == "absent"
    f = explain_player(standings, "F")
    assert [g.situation for g in f.games] == ["not assigned", "not assigned", "win"]
    assert f.games[2].colour == "W" and f.games[2].handicap == 5


def test_seed_sodos_round_by_round(host):
    standings = host.standings(seed(), system="swiss", criteria=["NBW", "SOS", "SODOS"])
    a = explain_player(standings, "A")
    sodos = a.criteria[2]
    assert [r.contribution for r in sodos.rounds] == [4, 3, 1, 0, 3, 0]
    assert "sum: 4 + 3 + 1 + 0 + 3 + 0 = 11" in render(a)


def test_json_form_is_the_same_explanation(host, tmp_path, capsys):
    from sodos_plugin.cli import main
    from sodos_plugin.writers.h9_writer import write as write_h9

    standings = host.standings(mixed(), system="mcmahon", criteria=["MMS", "SOSM-1", "SODOSM"])
    data = as_dict(explain_player(standings, "E"), ["a warning"])
    assert (
        data["player"]["name"] == "E"
        and data["place"] == standings.places[standings.order.index(4)]
    )
    assert [g["situation"] for g in data["games"]] == ["bye", "loss", "loss"]
    assert data["games"][1] == {
        "round": 2,
        "situation": "loss",
        "opponent": "D",
        "colour": "W",
        "handicap": 3,
        "by_default": True,
    }
    sos = data["criteria"][1]
    assert sos["name"] == "SOSM-1" and sos["drop_lowest"] == 1
    assert [r["cut"] for r in sos["rounds"]] == [True, False, False]
    kept = sum(Fraction(r["adds"]) for r in sos["rounds"] if not r["cut"])
    assert kept == sos["value"] == standings.value("SOSM-1", 4)
    assert sos["rounds"][0]["details"] == {"virtual opponent": 29}
    assert "adds" not in data["criteria"][0]["rounds"][0]  # MMS is a total
    assert data["warnings"] == ["a warning"]
    # the command: the same dict, as JSON
    path = tmp_path / "mixed.h9"
    with path.open("w", encoding="utf-8") as stream:
        write_h9(standings, stream)
    args = ["explain", "E", str(path), "--format", "json", "--no-entry-points"]
    assert main([*args, "--criteria", "MMS,SOSM-1,SODOSM"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["criteria"] == data["criteria"] and printed["games"] == data["games"]


def test_unknown_and_ambiguous_player(host):
    names = ["Minieri Davide", "Minieri Carlo"]
    t = tournament(names, 1, [(1, *names, B)])
    standings = host.standings(t, system="swiss", criteria=["NBW"])
    with pytest.raises(InputError, match="did you mean Minieri Davide"):
        explain_player(standings, "Minieri Davdie")
    with pytest.raises(InputError, match="several players"):
        explain_player(standings, "minieri")
    assert explain_player(standings, "davide").name == "Minieri Davide"
    assert explain_player(standings, "  minieri   carlo ").name == "Minieri Carlo"


@st.composite
def random_tournaments(draw):
    n = draw(st.integers(2, 7))
    rounds = draw(st.integers(1, 4))
    players = tuple(
        Player(f"P{i}", rank=draw(st.integers(-20, 5)), smms_correction=draw(st.integers(-1, 1)))
        for i in range(n)
    )
    games, byes, absences = [], set(), set()
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(n)))
        pairs = draw(st.integers(0, n // 2))
        for k in range(pairs):
            b, w = order[2 * k], order[2 * k + 1]
            result = draw(st.sampled_from(list(Result)))
            games.append(Game(r, b, w, result, draw(st.integers(0, 9)), draw(st.booleans())))
        for p in order[2 * pairs :]:
            kind = draw(st.sampled_from(["bye", "absent", "none"]))
            if kind == "bye":
                byes.add((r, p))
            elif kind == "absent":
                absences.add((r, p))
    return Tournament("random", rounds, players, tuple(games), frozenset(byes), frozenset(absences))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_tournaments(), st.sampled_from(["swiss", "mcmahon"]))
def test_sum_equals_value_random(t, system):
    host = builtin_host()
    check_all(host.standings(t, system=system, criteria=ALL))


CONFORMANCE = [
    "opengotha_Tournoi_de_Juvisy.xml",
    "opengotha_Tournoi_de_Juvisy.h9",
    "opengotha_TournoiChinois.xml",
    "opengotha_TournoiChinois.h9",
    "h9_wagc2025_opengotha.txt",
    "h9_mpj2022_opengotha_sodos.txt",
]


@pytest.mark.parametrize("name", CONFORMANCE)
def test_sum_equals_value_conformance(host, name):
    path = shared_path("conformance", "go", name)
    try:
        read = host.read([path])
    except InputError as error:
        if "no reader recognises" in str(error):
            pytest.skip(f"no reader installed for {name} yet: {error}")
        raise
    tournament_ = read.tournament
    criteria = list(host.settings_for(tournament_).criteria)
    for extra in ("SOS", "SOSOS", "SODOS", "SOSW-1", "SOSM-2", "CUSSM"):
        if extra not in criteria:
            criteria.append(extra)
    try:
        standings = host.standings(tournament_, criteria=criteria)
    except InputError as error:  # e.g. an h9 file without ranks: MMS criteria need them
        if "McMahon scores need a rank" not in str(error):
            raise
        standings = host.standings(tournament_, criteria=["NBW", "SOSW", "SODOSW", "SOSW-1"])
    check_all(standings)
