"""How exact values are printed: one function, used by every text writer."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sodos_plugin.engine.standings import Standings

VULGAR = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}


def format_value(value: Fraction, half: str = "½") -> str:
    """``3``, ``2½``, ``47¼`` — or ``2.5``, ``47.25`` with ``half=".5"``.

    With ``half="½"`` halves and quarters (a jigo's half of a half, in SODOS) use the
    vulgar fractions ``½ ¼ ¾``, so one column never mixes ``27½`` and ``47.25``. Any other
    fraction is printed as an exact decimal when it has one, else as ``n/d`` — never
    rounded.
    """
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator in (2, 4) and half == "½":
        whole, rest = divmod(abs(value.numerator), value.denominator)
        symbol = VULGAR[Fraction(rest, value.denominator)]
        return ("-" if value < 0 else "") + (str(whole) if whole else "") + symbol
    denominator = value.denominator
    if all(f in (2, 5) for f in _prime_factors(denominator)):
        return f"{value.numerator / denominator:.{_decimals(denominator)}f}"
    return f"{value.numerator}/{denominator}"


def _prime_factors(n: int) -> list[int]:
    factors, p = [], 2
    while p * p <= n:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    if n > 1:
        factors.append(n)
    return factors


def _decimals(denominator: int) -> int:
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    return max(twos, fives)


def format_column(numerators: Sequence[int], denominator: int, half: str = "½") -> list[str]:
    """:func:`format_value` of ``Fraction(n, denominator)`` for every ``n``, each distinct
    value formatted once (a criterion column has few distinct values: no Fraction per
    player)."""
    memo: dict[int, str] = {}
    out = []
    append = out.append
    for n in numerators:
        text = memo.get(n)
        if text is None:
            text = memo[n] = format_value(Fraction(n, denominator), half)
        append(text)
    return out


def value_texts(standings: Standings, criterion: str, half: str = "½") -> list[str]:
    """Every player's value of ``criterion`` as :func:`format_value` prints it, by index."""
    denominator = standings.breakdowns[criterion].denominator
    return format_column(standings.numerators(criterion), denominator, half)
