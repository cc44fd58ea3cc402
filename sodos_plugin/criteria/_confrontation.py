"""Groups and game matrix shared by DC and SDC (REFERENCE.md §3; OpenGotha
Tournament.fillDirScoringInfo / defineAPairMatrix / defineDirForExAequoGroup).

A *group* is a set of at least two players equal on every criterion listed before
the first DC or SDC of the criteria list. Inside a group, ``pair[i][j]`` is the sum
over rounds 1..R of +1 for each game i won against j and −1 for each game i lost to
j — counting, as OpenGotha does, only games with a plain ``B+``/``W+`` result (jigo,
both-win, both-lose, unknown and by-default results are not direct confrontations).
"""

from __future__ import annotations

from collections.abc import Sequence

from sodos_plugin.context import Context
from sodos_plugin.model import Result

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


def pair_matrix(ctx: Context, members: Sequence[int]) -> list[list[int]]:
    """``pair[i][j]``: net plain wins of ``members[i]`` over ``members[j]`` up to round R."""
    where = {p: i for i, p in enumerate(members)}
    pair = [[0] * len(members) for _ in members]
    for game in ctx.tournament.games:
        if game.round > ctx.round or game.by_default:
            continue
        b, w = where.get(game.black), where.get(game.white)
        if b is None or w is None:
            continue
        if game.result is Result.BLACK_WINS:
            pair[b][w] += 1
            pair[w][b] -= 1
        elif game.result is Result.WHITE_WINS:
            pair[w][b] += 1
            pair[b][w] -= 1
    return pair
