"""The model's fast construction and checks give what the field-by-field ones give.

``Game`` and ``Player`` are frozen Structs that behave as the frozen dataclasses they
were; ``games_from_columns``/``players_from_columns`` make them from a reader's columns (and
keep the columns); the Tournament checks its games (and such players) column by column
and, on any bad one, falls back to the loop that names the first one. Tests compare all.
"""

from __future__ import annotations

import copy
import gc
import pickle
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodos_plugin.engine.model import (
    NO_IDS,
    Game,
    Ids,
    Player,
    Result,
    Tournament,
    games_from_columns,
    players_from_columns,
)
from sodos_plugin.errors import ModelError


def test_games_and_players_behave_as_frozen_records():
    game = Game(3, 1, 0, Result.JIGO, 2, True)
    assert game == Game(round=3, black=1, white=0, result=Result.JIGO, handicap=2, by_default=True)
    assert game != Game(3, 1, 0, Result.JIGO, 2, False)
    assert hash(game) == hash(Game(3, 1, 0, Result.JIGO, 2, True))
    assert repr(game) == (
        "Game(round=3, black=1, white=0, result=<Result.JIGO: '='>, handicap=2, "
        "by_default=True, colours_known=True, komi=None)"
    )
    player = Player("Ann", 2, 1500.5, "Par", "FR", -1, Fraction(7, 2), "x1")
    assert player == Player(
        "Ann", rank=2, rating=1500.5, club="Par", country="FR", smms_correction=-1,
        start_score=Fraction(7, 2), id="x1",
    )  # fmt: skip
    assert repr(player).startswith("Player(name='Ann', rank=2, rating=1500.5, club='Par'")
    for record in (game, player):
        assert pickle.loads(pickle.dumps(record)) == record == copy.deepcopy(record)
        assert not gc.is_tracked(record)  # never scanned by the cyclic collector
    with pytest.raises(AttributeError):
        game.round = 4  # type: ignore[misc]  # frozen
    with pytest.raises(AttributeError):
        player.name = "Bob"  # type: ignore[misc]


def first_error(games, n: int, rounds: int) -> str | None:
    """The message of the game-by-game check, written out here (the reference)."""
    for game in games:
        r, b, w = game.round, game.black, game.white
        if not 1 <= r <= rounds:
            return f"t: games: a game in round {r} outside 1..{rounds}"
        if not (0 <= b < n and 0 <= w < n):
            return f"t: games: round {r}: bad players {b} vs {w} (player indexes are 0..{n - 1})"
        if game.handicap < 0:
            return f"t: games: round {r}: negative handicap {game.handicap}"
    selves = sorted((g.round, g.black) for g in games if g.black == g.white)
    if selves:  # the first in round order, once every game is in range
        r, p = selves[0]
        return (
            f"t: round {r}: P{p} is paired with himself "
            f"(games: players[{p}] is both black and white)"
        )
    return None


games_strategy = st.lists(
    st.builds(
        Game,
        st.integers(-1, 5),
        st.integers(-1, 5),
        st.integers(-1, 5),
        st.sampled_from(list(Result)),
        st.integers(-1, 3),
        st.booleans(),
    ),
    max_size=12,
)


def columns_of(games):
    fields = ("round", "black", "white", "result", "handicap", "by_default", "colours_known",
              "komi")  # fmt: skip
    return [[getattr(g, name) for g in games] for name in fields]


@given(games_strategy, st.integers(1, 5), st.integers(0, 4))
def test_games_are_checked_as_the_reference_checks_them(games, n, rounds):
    players = tuple(Player(f"P{i}") for i in range(n))
    expected = first_error(games, n, rounds)
    built = games_from_columns(*columns_of(games))
    assert built == tuple(games) and all(type(g) is Game for g in built)
    for given_games in (tuple(games), built):  # read from the games, or their columns
        if expected is None:
            t = Tournament("t", rounds, players, given_games)
            assert t.games == tuple(games)
        else:
            with pytest.raises(ModelError) as error:
                Tournament("t", rounds, players, given_games)
            assert str(error.value) == expected


PLAYER_FIELDS = (
    "name",
    "rank",
    "rating",
    "club",
    "country",
    "smms_correction",
    "start_score",
    "id",
)


@pytest.mark.parametrize(
    "bad, field",
    [
        ({"rating": float("nan")}, "players[1].rating"),
        ({"rating": "1500"}, "players[1].rating"),
        ({"rank": 2.0}, "players[1].rank"),
        ({"name": 5}, "players[1].name"),
        ({"club": None}, "players[1].club"),
        ({"smms_correction": True}, "players[1].smms_correction"),
        ({"start_score": 2.5}, "players[1].start_score"),
    ],
)
def test_players_from_columns_are_checked_as_each_player_is(bad, field):
    good = ["Ann", 2, 1500.5, "Par", "FR", -1, Fraction(7, 2), "x1"]
    other = [bad.get(name, value) for name, value in zip(PLAYER_FIELDS, good)]
    players = players_from_columns(*zip(good, other))
    # by repr: a NaN rating is never == itself (fields are compared one by one)
    assert repr(players) == repr((Player(*good), Player(*other)))
    with pytest.raises(ModelError) as error:
        Tournament("t", 1, players, ())
    assert field in str(error.value)
    with pytest.raises(ModelError) as each:
        Tournament("t", 1, tuple(players), ())
    assert str(each.value) == str(error.value)
    assert Tournament("t", 1, players_from_columns(*zip(good, good)), ()).players[1].name == "Ann"


@pytest.mark.parametrize(
    "game, field",
    [
        (Game(1.0, 0, 1), "games[0].round"),  # type: ignore[arg-type]
        (Game(1, "0", 1), "games[0].black"),  # type: ignore[arg-type]
        (Game(1, 0, 1, "B+"), "games[0].result"),  # type: ignore[arg-type]
        ((1, 0, 1), "games[0]"),
    ],
)
def test_a_game_field_of_the_wrong_type_is_named(game, field):
    with pytest.raises(ModelError) as error:
        Tournament("t", 2, (Player("A"), Player("B")), (Game(1, 0, 1), game))  # type: ignore[arg-type]
    assert field.replace("[0]", "[1]") in str(error.value)


def test_bool_fields_pass_as_the_loop_lets_them():
    t = Tournament("t", 2, (Player("A"), Player("B")), (Game(True, False, True),))  # type: ignore[arg-type]
    assert t.games[0].round is True


@pytest.mark.parametrize(
    "game, message",
    [
        (Game(1, 0, 1, Result.BLACK_WINS, -1), "t: games: round 1: negative handicap -1"),
        (Game(2, 0, 1), "t: games: a game in round 2 outside 1..1"),
        (Game(1, 0, 2), "t: games: round 1: bad players 0 vs 2 (player indexes are 0..1)"),
    ],
)
def test_games_from_columns_out_of_range_are_named(game, message):
    for games in ((game,), games_from_columns(*columns_of([game]))):
        with pytest.raises(ModelError) as error:
            Tournament("t", 1, (Player("A"), Player("B")), games)
        assert str(error.value) == message


def test_new_fields_ids_colours_and_komi():
    game = Game(2, 0, 1, Result.BLACK_WINS, 0, False, False, 6.5)
    assert game == Game(2, 0, 1, Result.BLACK_WINS, 0, False, colours_known=False, komi=6.5)
    assert Game(1, 0, 1, Result.JIGO, 0, False) == Game(1, 0, 1, Result.JIGO)  # defaults
    assert Game(1, 0, 1).colours_known is True and Game(1, 0, 1).komi is None
    ids = Ids({"egd": "19713452"})
    player = Player("Ann", 2, None, "", "", 0, None, None, ids)
    assert player == Player("Ann", 2, ids={"egd": "19713452"})  # a dict compares equal
    assert Player("Ann").ids == {} and Player("Ann").ids is NO_IDS
    # ids are not hashed: a host's dict leaves the player hashable
    assert hash(Player("Ann", ids={"egd": "1"})) == hash(Player("Ann"))
    assert hash(ids) == hash(Ids([("egd", "19713452")])) and repr(ids) == "Ids({'egd': '19713452'})"


@pytest.mark.parametrize(
    ("player", "game", "field"),
    [
        (Player("A", ids={"egd": 19713452}), None, "players[0].ids"),
        (Player("A", ids={"": "1"}), None, "players[0].ids"),
        (Player("A", ids={"egd": " "}), None, "players[0].ids"),
        (Player("A", ids=[("egd", "1")]), None, "players[0].ids"),
        (None, Game(1, 0, 1, colours_known=1), "games[0].colours_known"),
        (None, Game(1, 0, 1, komi=float("nan")), "games[0].komi"),
        (None, Game(1, 0, 1, komi="6.5"), "games[0].komi"),
        (None, Game(1, 0, 1, komi=True), "games[0].komi"),
    ],
)  # type: ignore[arg-type]
def test_new_fields_of_the_wrong_type_are_named(player, game, field):
    """Named alike whether the model reads each object or a reader's columns."""
    players = (player or Player("A"), Player("B"))
    as_columns = players_from_columns(
        *zip(*[[getattr(p, name) for name in PLAYER_FIELDS] for p in players]),
        id_maps=[p.ids for p in players],
    )
    games = (game,) if game else ()
    for given_players, given_games in (
        (players, games),
        (as_columns, games_from_columns(*columns_of(games)) if games else ()),
    ):
        with pytest.raises(ModelError, match=field.replace("[", r"\[").replace("]", r"\]")):
            Tournament("t", 1, given_players, given_games)


def test_columns_carry_ids_colours_and_komi():
    games = games_from_columns([1], [0], [1], [Result.JIGO], [0], [False], [False], [6.5])
    assert games == (Game(1, 0, 1, Result.JIGO, colours_known=False, komi=6.5),)
    default = games_from_columns([1], [0], [1], [Result.JIGO], [0], [False])
    assert default == (Game(1, 0, 1, Result.JIGO),)
    ids = Ids({"egd": "1"})
    players = players_from_columns(["A"], [None], [None], [""], [""], [0], [None], [None], [ids])
    assert players[0].ids == {"egd": "1"}
    assert (
        players_from_columns(["A"], [None], [None], [""], [""], [0], [None], [None])[0].ids
        is NO_IDS
    )


def test_komi_may_be_an_int_or_a_float():
    games = (Game(1, 0, 1, komi=6), Game(2, 0, 1, komi=7.5))
    assert Tournament("t", 2, (Player("A"), Player("B")), games).games[0].komi == 6
