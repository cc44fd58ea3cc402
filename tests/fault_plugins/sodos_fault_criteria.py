"""Faulty criteria, one per way a third-party criterion can go wrong (tests only)."""

from __future__ import annotations

from sodos_hookspecs import Breakdown, Criterion, hookimpl


def raises(ctx):
    raise ZeroDivisionError("boom in a plugin")


def wrong_type(ctx):
    return {"A": 1}


def extra_player(ctx):
    return Breakdown(denominator=1, totals=[0] * (ctx.size + 1))


def missing_player(ctx):
    return Breakdown(denominator=1, totals=[0] * (ctx.size - 1))


def short_rows(ctx):
    return Breakdown(denominator=1, contributions=[[0] * (ctx.size - 1) for _ in range(ctx.round)])


def missing_round(ctx):
    return Breakdown(denominator=1, contributions=[[0] * ctx.size for _ in range(ctx.round - 1)])


def float_values(ctx):
    return Breakdown(denominator=1, totals=[0.5] * ctx.size)


def text_values(ctx):
    return Breakdown(denominator=1, contributions=[["1"] * ctx.size for _ in range(ctx.round)])


def none_value(ctx):
    return Breakdown(denominator=1, totals=[None] * ctx.size)


def bad_denominator(ctx):
    return Breakdown(denominator=0, totals=[0] * ctx.size)


def huge_values(ctx):
    return Breakdown(denominator=1, totals=[10**5000] * ctx.size)


def huge_negative(ctx):
    return Breakdown(denominator=1, contributions=[[-(10**101)] * ctx.size] * ctx.round)


def huge_denominator(ctx):
    return Breakdown(denominator=10**5000, totals=[1] * ctx.size)


FAULTS = {
    "F-RAISES": raises,
    "F-WRONG-TYPE": wrong_type,
    "F-EXTRA-PLAYER": extra_player,
    "F-MISSING-PLAYER": missing_player,
    "F-SHORT-ROWS": short_rows,
    "F-MISSING-ROUND": missing_round,
    "F-FLOAT": float_values,
    "F-TEXT": text_values,
    "F-NONE": none_value,
    "F-DENOMINATOR": bad_denominator,
    "F-HUGE": huge_values,
    "F-HUGE-NEGATIVE": huge_negative,
    "F-HUGE-DENOMINATOR": huge_denominator,
}


@hookimpl
def sodos_criteria():
    return [Criterion(name, "faulty on purpose", compute) for name, compute in FAULTS.items()]
