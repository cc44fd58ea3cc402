"""Player.rating holds real-valued ratings exactly."""

from fractions import Fraction

import pytest

from sodos_plugin.engine.model import Player, Tournament, rating_value


def test_integer_rating_stays_an_exact_int():
    assert rating_value(1853) == Fraction(1853)
    assert type(Player("a", rating=1853).rating) is int


def test_float_rating_is_its_printed_decimal():
    assert rating_value(2674.564) == Fraction(2674564, 1000)
    assert rating_value(1465.2197) == Fraction(14652197, 10000)
    # the binary value differs from the printed one: the printed one is used
    assert Fraction(2674.564) != Fraction(2674564, 1000)


def test_ratings_order_exactly_where_floats_are_close():
    a, b = 2674.564, 2674.5640000000003
    assert rating_value(a) < rating_value(b)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "2100", True, None])
def test_rating_value_refuses_what_is_not_a_finite_number(bad):
    with pytest.raises((TypeError, ValueError)):
        rating_value(bad)


def test_tournament_date_defaults_to_unknown():
    t = Tournament("t", 0, (), ())
    assert t.date == ""
    assert Tournament("t", 0, (), (), date="2024-03-02").date == "2024-03-02"
