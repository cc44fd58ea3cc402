"""How exact values are printed: one function, used by every text writer."""

from __future__ import annotations

from fractions import Fraction

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
