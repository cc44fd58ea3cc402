"""Baseline: tiebreak-core (the PyPI FIDE tie-break library) on the same Swiss tournament.

A fully played Swiss (even number of players, no byes, no forfeits, no jigo) is
generated; tiebreak-core computes Buchholz (FIDE C.07 §8.1) and Sonneborn-Berger
(§9.1) with ``rank_standings_strict(..., ruleset="fide-2026")``, we compute NBW,
SOSW and SODOSW with ``Host.standings``. In a fully played event without draws,
Buchholz is exactly SOSW (sum of the opponents' scores) and Sonneborn-Berger is
exactly SODOSW (sum of the scores of the opponents one beat), docs/rules.md §2; the
script checks every player's values are equal, then prints the time ratio. Both are
timed in this one run (best of ``--repeat``), from their own input models.

Run: ``python benchmarks/vs_tiebreak_core.py --players 2000 --rounds 11``
(needs ``pip install tiebreak-core``, part of the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

from sodos_plugin import Game, Host, Player, Result, Tournament


def swiss(players: int, rounds: int, seed: int = 1) -> Tournament:
    """A fully played Swiss: each round pairs neighbours by score, avoiding rematches."""
    if players % 2:
        raise ValueError("an even number of players, so nobody gets a bye")
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    score = [0] * players
    met: list[set[int]] = [set() for _ in range(players)]
    games = []
    for r in range(1, rounds + 1):
        order = sorted(range(players), key=lambda p: (-score[p], rng.random()))
        # neighbours by score; a rematch swaps with a later player (linear time)
        for i in range(0, players, 2):
            a = order[i]
            for j in range(i + 1, min(i + 20, players)):
                if order[j] not in met[a]:
                    order[i + 1], order[j] = order[j], order[i + 1]
                    break
            b = order[i + 1]
            met[a].add(b)
            met[b].add(a)
            black, white = (a, b) if rng.random() < 0.5 else (b, a)
            p_black = 1 / (1 + 10 ** ((strength[white] - strength[black]) / 1.5))
            black_wins = rng.random() < p_black
            score[black if black_wins else white] += 1
            games.append(
                Game(r, black, white, Result.BLACK_WINS if black_wins else Result.WHITE_WINS)
            )
    named = tuple(Player(f"P{i:05d}", rank=0) for i in range(players))
    return Tournament("swiss benchmark", rounds, named, tuple(games))


def to_tiebreak_core(tournament: Tournament):
    """The same games as tiebreak-core input: one PlayerTiebreakData per player."""
    from tiebreak_core import GameRecord, PlayerTiebreakData

    records: list[list] = [[] for _ in tournament.players]
    points = [0.0] * len(tournament.players)
    for g in tournament.games:
        black_score = 1.0 if g.result is Result.BLACK_WINS else 0.0
        records[g.black].append(
            GameRecord(g.white + 1, 1500, black_score, "black", g.round, kind="played")
        )
        records[g.white].append(
            GameRecord(g.black + 1, 1500, 1.0 - black_score, "white", g.round, kind="played")
        )
        points[g.black] += black_score
        points[g.white] += 1.0 - black_score
    return {
        i + 1: PlayerTiebreakData(i + 1, 1500, points[i], sorted(rs, key=lambda x: x.round_number))
        for i, rs in enumerate(records)
    }


def best_of(repeat: int, work):
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def run(players: int = 2000, rounds: int = 11, repeat: int = 3, seed: int = 1) -> dict:
    """Time both, check equality; returns the numbers (raises AssertionError on a mismatch)."""
    from tiebreak_core import rank_standings_strict

    tournament = swiss(players, rounds, seed)
    theirs_input = to_tiebreak_core(tournament)
    host = Host(config_file=False, entry_points=False)

    ours_s, standings = best_of(
        repeat,
        lambda: host.standings(tournament, system="swiss", criteria=["NBW", "SOSW", "SODOSW"]),
    )
    theirs_s, ranked = best_of(
        repeat,
        lambda: rank_standings_strict(
            theirs_input,
            ["buchholz", "sonneborn_berger"],
            total_rounds=rounds,
            ruleset="fide-2026",
        ),
    )
    by_id = {p.player_id: p.values for p in ranked.players}
    mismatches = 0
    for i in range(players):
        theirs = by_id[i + 1]
        if Fraction(theirs["buchholz"]) != standings.value("SOSW", i):
            mismatches += 1
        if Fraction(theirs["sonneborn_berger"]) != standings.value("SODOSW", i):
            mismatches += 1
    assert mismatches == 0, f"{mismatches} values differ from tiebreak-core"
    return {
        "players": players,
        "rounds": rounds,
        "ours_s": ours_s,
        "tiebreak_core_s": theirs_s,
        "ratio": theirs_s / ours_s,
        "values_checked": 2 * players,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    r = run(args.players, args.rounds, args.repeat)
    print(
        f"{r['players']} players x {r['rounds']} rounds: Buchholz = SOSW and Sonneborn-Berger"
        f" = SODOSW for all {r['players']} players\n"
        f"ours (NBW, SOSW, SODOSW) {r['ours_s'] * 1000:.1f} ms; tiebreak-core (points, BH, SB)"
        f" {r['tiebreak_core_s'] * 1000:.1f} ms; ours is {r['ratio']:.1f}x faster"
    )


if __name__ == "__main__":
    main()
