"""DC and SDC with thousands of players in one tie group (docs/rules.md §3).

* A 2 000-player OpenGotha file with DC first (so every player is in one group) and
  three criteria after it (so nearly every player has a secondary score of its own)
  ranks in a child process with a time and memory limit. The former ranking counted
  keys per key (cubic) and expanded collapsed cycles into per-player win sets
  (quadratic): this file took more than two minutes.
* The ranking on the graph of parts gives the same ranks as the expanded win sets
  (the former code, kept below as the reference) on random win graphs.
"""

from __future__ import annotations

import heapq
import json
import random
import time
from pathlib import Path

from child import clean, cli
from hypothesis import given, settings
from hypothesis import strategies as st

from sodos_plugin.criteria.dc import components, ranks_in_group, secondary_scores

RESULTS = ["RESULT_WHITEWINS", "RESULT_BLACKWINS"] * 2 + ["RESULT_EQUAL"]


def opengotha_xml(n: int, rounds: int, criteria: list[str], seed: int = 1) -> str:
    """``n`` players paired at random each round, random results (a fifth are jigo)."""
    rng = random.Random(seed)
    players = "".join(
        f'<Player club="C" country="FR" firstName="F{i}" name="N{i}" '
        f'participating="{"1" * rounds}" rank="{rng.randint(1, 20)}K" rating="100" '
        'ratingOrigin="INI" registeringStatus="FIN" smmsCorrection="0"/>'
        for i in range(n)
    )
    games = []
    for r in range(1, rounds + 1):
        order = list(range(n))
        rng.shuffle(order)
        for t in range(0, n - 1, 2):
            b, w = order[t], order[t + 1]
            games.append(
                f'<Game blackPlayer="N{b}F{b}" handicap="0" knownColor="true" '
                f'result="{rng.choice(RESULTS)}" roundNumber="{r}" tableNumber="{t // 2 + 1}" '
                f'whitePlayer="N{w}F{w}"/>'
            )
    placement = "".join(
        f'<PlacementCriterion name="{c}" number="{i + 1}"/>' for i, c in enumerate(criteria)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201">'
        f"<Players>{players}</Players><Games>{''.join(games)}</Games><TournamentParameterSet>"
        '<GeneralParameterSet genCountNotPlayedGamesAsHalfPoint="false" genMMBar="9D" '
        'genMMFloor="30K" genMMS2ValueAbsent="1" genMMS2ValueBye="2" genMMZero="30K" '
        'genNBW2ValueAbsent="0" genNBW2ValueBye="2" genRoundDownNBWMMS="true" name="big" '
        f'numberOfRounds="{rounds}" shortName="big"/>'
        f"<PlacementParameterSet><PlacementCriteria>{placement}</PlacementCriteria>"
        "</PlacementParameterSet></TournamentParameterSet></Tournament>\n"
    )


def test_two_thousand_players_with_dc_first_rank_in_seconds(tmp_path: Path):
    path = tmp_path / "big.xml"
    path.write_text(opengotha_xml(2000, 5, ["DC", "SOSW", "SOSOSW", "NBW"]))
    start = time.monotonic()
    done = cli("standings", str(path), "--format", "json", cwd=tmp_path, timeout=90)
    elapsed = time.monotonic() - start
    clean(done)
    assert done.returncode == 0
    rows = json.loads(done.stdout)["standings"]
    assert len(rows) == 2000
    dc = [row["values"]["DC"] for row in rows]
    # one group: DC = worst rank - own rank, so the order is by DC and the last has 0
    assert dc == sorted(dc, reverse=True) and dc[-1] == 0 and dc[0] > 1000
    assert elapsed < 90


# -- the ranking equals the expanded form it replaces -------------------------------------


def expanded_ranks(beats: list[set[int]], secondary: list[int]) -> list[int]:
    """The former ranking: every collapsed cycle expanded into per-player win sets."""
    n = len(beats)
    comp = components(beats)
    parts: dict[int, list[int]] = {}
    for i, c in enumerate(comp):
        parts.setdefault(c, []).append(i)
    merged: list[set[int]] = [set() for _ in range(n)]
    for members in parts.values():
        union = set().union(*(beats[k] for k in members)) - set(members)
        for k in members:
            merged[k] = union
    for i in range(n):
        hit = {comp[j] for j in merged[i]} - {comp[i]}
        merged[i] = merged[i].union(*(parts[c] for c in hit))
    beaten_by: list[list[int]] = [[] for _ in range(n)]
    pending = [len(won) for won in merged]
    for i, won in enumerate(merged):
        for j in won:
            beaten_by[j].append(i)
    free = [(secondary[i], i) for i in range(n) if not pending[i]]
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
            for winner in beaten_by[i]:
                pending[winner] -= 1
                if not pending[winner]:
                    heapq.heappush(free, (secondary[winner], winner))
    return rank


@st.composite
def win_graphs(draw):
    n = draw(st.integers(min_value=1, max_value=14))
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=3 * n)) if pairs else []
    beats: list[set[int]] = [set() for _ in range(n)]
    for i, j in edges:
        if i not in beats[j]:  # a net result is one-sided
            beats[i].add(j)
    secondary = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    return beats, secondary


@settings(max_examples=400, deadline=None)
@given(win_graphs())
def test_ranking_on_parts_equals_the_expanded_ranking(graph):
    beats, secondary = graph
    assert ranks_in_group(beats, secondary) == expanded_ranks(beats, secondary)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=30))
def test_secondary_scores_count_the_better_keys(keys):
    expected = [len(keys) - sum(1 for other in keys if other > key) for key in keys]
    assert secondary_scores(keys) == expected


def test_a_long_cycle_beaten_by_many_ranks_in_linear_steps():
    """One cycle of 3 000 beaten by 3 000 singles: the expanded form had 9 million edges."""
    n = 3000
    beats: list[set[int]] = [{(i + 1) % n} for i in range(n)]  # the cycle 0 -> 1 -> ... -> 0
    beats += [{k - n} for k in range(n, 2 * n)]  # each single beats one member of the cycle
    secondary = [0] * n + [1] * n
    rank = ranks_in_group(beats, secondary)
    assert rank[:n] == [n + 1] * n  # the cycle takes the last ranks, all the same one
    assert rank[n:] == [1] * n  # the singles, who beat it, share the first
