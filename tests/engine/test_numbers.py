"""How values are printed: halves and quarters alike, never rounded."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from sodos_plugin.engine.numbers import format_value


@pytest.mark.parametrize(
    ("value", "vulgar", "decimal"),
    [
        (F(3), "3", "3"),
        (F(0), "0", "0"),
        (F(1, 2), "½", "0.5"),
        (F(55, 2), "27½", "27.5"),
        (F(189, 4), "47¼", "47.25"),
        (F(3, 4), "¾", "0.75"),
        (F(-1, 2), "-½", "-0.5"),
        (F(-9, 4), "-2¼", "-2.25"),
        (F(1, 8), "0.125", "0.125"),
        (F(1, 3), "1/3", "1/3"),
    ],
)
def test_format_value(value, vulgar, decimal):
    assert format_value(value) == vulgar
    assert format_value(value, half=".5") == decimal
    if "/" not in decimal:
        assert F(decimal) == value  # exact, never rounded
