"""Groups and game matrix shared by DC and SDC (docs/rules.md §3; OpenGotha
Tournament.fillDirScoringInfo / defineAPairMatrix / defineDirForExAequoGroup).

A *group* is a set of at least two players equal on every criterion listed before
the first DC or SDC of the criteria list. Inside a group, the net result of i against
j is the sum over rounds 1..R of +1 for each game i won against j and −1 for each game
i lost to j — counting, as OpenGotha does, only games with a plain ``B+``/``W+`` result (jigo,
both-win, both-lose, unknown and by-default results are not direct confrontations).
"""

from __future__ import annotations

from collections.abc import Sequence

from sodos_plugin.engine.context import Context
from sodos_plugin.engine.model import Result

TIE_CRITERIA = ("DC", "SDC")


def first_tie_criterion(ctx: Context) -> int:
    """Index of the first DC/SDC in the criteria list (= number of criteria before it)."""
    names = [c.upper() for c in ctx.settings.criteria]
    found = [i for i, name in enumerate(names) if name in TIE_CRITERIA]
    return found[0] if found else len(names)


def groups(ctx: Context) -> list[list[int]]:
    """Players tied on every criterion before the first DC/SDC, groups of two or more."""
    preceding = ctx.preceding or [()] * ctx.size
    cut = first_tie_criterion(ctx)
    by_key: dict[tuple, list[int]] = {}
    for p, key in enumerate(preceding):
        by_key.setdefault(tuple(key)[:cut], []).append(p)
    return [members for members in by_key.values() if len(members) > 1]


def plain_games(ctx: Context) -> list[list[tuple[int, int]]]:
    """Per player, ``(opponent, +1 won / −1 lost)`` of each plain-result game up to R."""

    def build() -> list[list[tuple[int, int]]]:
        games: list[list[tuple[int, int]]] = [[] for _ in range(ctx.size)]
        for game in ctx.tournament.games:
            if game.round > ctx.round or game.by_default:
                continue
            b, w = game.black, game.white
            if game.result is Result.BLACK_WINS:
                games[b].append((w, 1))
                games[w].append((b, -1))
            elif game.result is Result.WHITE_WINS:
                games[w].append((b, 1))
                games[b].append((w, -1))
        return games

    return ctx.memo("plain games", build)


def pair_results(ctx: Context, members: Sequence[int]) -> dict[tuple[int, int], int]:
    """``{(i, j): net}``: net plain wins of ``members[i]`` over ``members[j]`` up to
    round R, for the pairs that met (indexes into ``members``)."""
    where = {p: i for i, p in enumerate(members)}
    games = plain_games(ctx)
    net: dict[tuple[int, int], int] = {}
    for i, p in enumerate(members):
        for q, sign in games[p]:
            j = where.get(q)
            if j is not None:
                net[(i, j)] = net.get((i, j), 0) + sign
    return net
