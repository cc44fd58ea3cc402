"""DC — direct confrontation (docs/rules.md §3; OpenGotha DC, Matthieu Walraet's algorithm).

Inside each group of players tied on the criteria before it (see
:mod:`sodos_plugin.criteria._confrontation`):

1. players are given a *secondary score* from the criteria listed **after** DC
   (DC and SDC themselves excluded): equal values share a score, better ranks higher;
2. ``i`` beat ``j`` when their net plain result is exactly +1 (OpenGotha's test);
3. win cycles are collapsed: players in one strongly connected part of the win
   graph stop counting games among themselves and each inherits every win and loss
   of the part against players outside it;
4. repeatedly, among the players left who beat none of the others left, those with
   the lowest secondary score take the lowest remaining ranks (all the same rank);
5. DC = (worst rank in the group) − (own rank): the best gets the largest value.

Players outside groups get 0.
"""

from __future__ import annotations

import heapq

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin.criteria._confrontation import (
    TIE_CRITERIA,
    first_tie_criterion,
    groups,
    pair_results,
)
from sodos_plugin.engine.context import Context

SOURCE = "docs/rules.md §3 (OpenGotha Tournament.defineDirForExAequoGroup, mw.go.confrontation)"


def secondary_columns(ctx: Context) -> list[list[int]]:
    names = list(ctx.settings.criteria)
    start = first_tie_criterion(ctx)
    dc_at = next((i for i, n in enumerate(names) if n.upper() == "DC"), start)
    later = [n for n in names[dc_at + 1 :] if n.upper() not in TIE_CRITERIA]
    columns = [ctx.criterion(name).numerators() for name in later]
    # A per-round criterion has no numerators before round 1: all equal then.
    return [c if len(c) == ctx.size else [0] * ctx.size for c in columns]


def components(beats: list[set[int]]) -> list[int]:
    """Strongly connected component id of every node (iterative Tarjan)."""
    n = len(beats)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    comp = [-1] * n
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, iter(sorted(beats[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if index[child] < 0:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack[child] = True
                    work.append((child, iter(sorted(beats[child]))))
                    advanced = True
                    break
                if on_stack[child]:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    comp[member] = node
                    if member == node:
                        break
    return comp


def ranks_in_group(beats: list[set[int]], secondary: list[int]) -> list[int]:
    """Steps 3-4 of the module docstring: each member's rank (1 = best).

    ``beats[i]``: members ``i`` beat (net plain result exactly +1).

    Collapsing the cycles means: every member of a part beats every member of each
    part that one of them beat. So a member is free (beats none of the players left)
    exactly when every part its own part beat is wholly ranked. The ranking therefore
    runs on the graph of parts (each edge once), counting per part the members not yet
    ranked and the parts it beat that are not wholly ranked: time O(players + games),
    never the players × players of the expanded win sets.
    """
    n = len(beats)
    comp = components(beats)
    parts: dict[int, list[int]] = {}
    for i, c in enumerate(comp):
        parts.setdefault(c, []).append(i)
    beat_parts: dict[int, set[int]] = {c: set() for c in parts}  # part -> parts it beat
    for i, won in enumerate(beats):
        mine = comp[i]
        for j in won:
            if comp[j] != mine:
                beat_parts[mine].add(comp[j])
    beaten_by: dict[int, list[int]] = {c: [] for c in parts}  # part -> parts that beat it
    waiting = {c: len(beaten) for c, beaten in beat_parts.items()}  # not wholly ranked
    for c, beaten in beat_parts.items():
        for d in beaten:
            beaten_by[d].append(c)
    unranked = {c: len(members) for c, members in parts.items()}
    free = [(secondary[i], i) for c, members in parts.items() if not waiting[c] for i in members]
    heapq.heapify(free)
    remaining = n
    rank = [0] * n
    while free:
        lowest = free[0][0]
        chosen = []
        while free and free[0][0] == lowest:
            chosen.append(heapq.heappop(free)[1])
        for i in chosen:
            rank[i] = 1 + remaining - len(chosen)
        remaining -= len(chosen)
        for i in chosen:
            part = comp[i]
            unranked[part] -= 1
            if unranked[part]:
                continue
            for winner in beaten_by[part]:  # a part it beat is now wholly ranked
                waiting[winner] -= 1
                if not waiting[winner]:
                    for member in parts[winner]:
                        heapq.heappush(free, (secondary[member], member))
    return rank


def secondary_scores(keys: list[tuple]) -> list[int]:
    """Step 1: ``len(keys)`` minus the number of members with a better key (ties share)."""
    count: dict[tuple, int] = {}
    for key in keys:
        count[key] = count.get(key, 0) + 1
    better: dict[tuple, int] = {}
    seen = 0
    for key in sorted(count, reverse=True):
        better[key] = seen
        seen += count[key]
    return [len(keys) - better[key] for key in keys]


def compute(ctx: Context) -> Breakdown:
    totals = [0] * ctx.size
    tied = groups(ctx)
    if not tied:
        return Breakdown(denominator=1, totals=totals)
    columns = secondary_columns(ctx)
    for members in tied:
        secondary = secondary_scores([tuple(column[p] for column in columns) for p in members])
        beats: list[set[int]] = [set() for _ in members]
        for (i, j), net in pair_results(ctx, members).items():
            if net == 1:  # OpenGotha: a net result of exactly one win
                beats[i].add(j)
        rank = ranks_in_group(beats, secondary)
        worst = max(rank)
        for p, r in zip(members, rank):
            totals[p] = worst - r
    return Breakdown(denominator=1, totals=totals)


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            "DC",
            "direct confrontation inside ties (cycles collapsed)",
            compute,
            SOURCE,
            uses_ties=True,
        )
    ]
