"""Bad host data: a SodosError naming the field, raised when the
tournament is built — never later, as a failure blamed on a built-in plugin."""

from __future__ import annotations

from fractions import Fraction

import pytest

from sodos_plugin import Game, Player, Result, SodosError, Tournament
from sodos_plugin.errors import ModelError

PLAYERS = (Player("Ann", 1), Player("Bob", 0), Player("Cid", -1))
GAMES = (Game(1, 0, 1, Result.BLACK_WINS), Game(2, 2, 0, Result.WHITE_WINS, 2))


def build(**changes):
    fields = {"name": "cup", "rounds": 2, "players": PLAYERS, "games": GAMES, **changes}
    return Tournament(**fields)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": (Player("Ann", "3d"), *PLAYERS[1:])},
         "cup: players[0].rank: expected an integer rank (30k = -30, 1d = 0, 9d = 8) or None; "
         "sodos_plugin.engine.ranks.parse_rank('3d') == 2, got str '3d'"),
        ({"players": (*PLAYERS[:2], Player("Cid", 1.5))}, "cup: players[2].rank: expected"),
        ({"players": (Player(7),)}, "cup: players[0].name: expected a string, got int 7"),
        ({"players": ({"name": "Ann"},)}, "cup: players[0]: expected a sodos_plugin.Player"),
        ({"players": (Player("Ann", rating="2100"), *PLAYERS[1:])}, "players[0].rating"),
        ({"players": (Player("Ann", club=None), *PLAYERS[1:])}, "players[0].club"),
        ({"players": (Player("Ann", smms_correction=0.5), *PLAYERS[1:])},
         "players[0].smms_correction"),
        ({"byes": [(1, 2)]}, "cup: byes: expected a frozenset of (round, player index) pairs"),
        ({"byes": frozenset({(1, "Cid")})}, "cup: byes: expected (round, player index) pairs"),
        ({"absences": frozenset({(1, 7)})}, "cup: absences: absence (1, 7) out of range"),
        ({"games": (Game(1, 0, 3, Result.BLACK_WINS),)},
         "cup: games: round 1: bad players 0 vs 3 (player indexes are 0..2)"),
        ({"games": (GAMES[0], Game(2, 2, 0, Result.WHITE_WINS, 2.0))},
         "cup: games[1].handicap: expected a handicap (an integer), got float 2.0"),
        ({"games": (Game(1.0, 0, 1, Result.BLACK_WINS),)}, "cup: games[0].round: expected"),
        ({"games": (Game(1, "Ann", 1, Result.BLACK_WINS),)},
         "cup: games[0].black: expected a player index (an integer), got str 'Ann'"),
        ({"games": (Game(1, 0, 1, "B+"),)},
         "cup: games[0].result: expected a sodos_plugin.Result, got str 'B+'"),
        ({"games": (Game(3, 0, 1, Result.BLACK_WINS),)}, "cup: games: a game in round 3"),
        ({"rounds": "2"}, "cup: rounds: expected an integer number of rounds, got str '2'"),
        ({"players": "Ann, Bob"}, "cup: players: expected a tuple of Player"),
    ],
)  # fmt: skip
def test_bad_data_names_the_field_when_built(changes, message):
    with pytest.raises(ModelError) as caught:
        build(**changes)
    text = str(caught.value)
    assert text.startswith(message) or text.startswith(f"cup: {message}"), text
    assert isinstance(caught.value, SodosError) and isinstance(caught.value, ValueError)


def test_good_host_data_and_lists_are_accepted(host):
    t = build(players=list(PLAYERS), games=list(GAMES), byes={(2, 1)})
    assert isinstance(t.players, tuple) and isinstance(t.games, tuple)
    assert t.byes == frozenset({(2, 1)})
    s = host.standings(t, system="swiss", criteria=["NBW", "SOS"])
    assert isinstance(s.rows(), list) and len(s.rows()) == 3
    assert s.rows()[0].player.name == "Ann"
    assert build(players=(Player("Ann", 1, rating=2100.5, start_score=Fraction(61, 2)),
                          *PLAYERS[1:]))  # fmt: skip
