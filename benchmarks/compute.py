"""Standings compute time for synthetic McMahon tournaments: 1k, 10k, 100k players × 10 rounds.

Criteria MMS, SOS, SOSOS, SODOS, SODOMS (McMahon: SOS = SOSM ...). Every situation the
engine handles occurs: jigo, both-lose, by-default games, handicaps, byes and 1 %
absent per round. Tournament generation is timed separately and excluded from the
compute time (``Host.standings`` only: model checks, pairings, scores, criteria, order).

Prints, per size, generation time, best-of-N compute time, µs per game, and the
growth factor t(n) / t(n/10): linear time means a factor near 10 (no per-player scan
of all games). Target: 100k × 10 in ≤ 1 s on a 2-core machine.

The engine's tables are gathers by opponent index (``scores[opponent[p]]``), i.e.
random memory access: once the tables outgrow the CPU caches each access costs more,
so the time per game rises with size although the work per game does not. The
``gather`` column is a reference with no engine code at all — 10 × n random gathers
``[values[o] for o in permutation]`` — whose growth shows that effect alone.

    python benchmarks/compute.py [--sizes 1000 10000 100000] [--rounds 10] [--repeat 3]
    python benchmarks/compute.py --profile 100000     # cProfile of one compute run
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sodos_plugin import Game, Host, Player, Result, Tournament  # noqa: E402

CRITERIA = ["MMS", "SOS", "SOSOS", "SODOS", "SODOMS"]


def mcmahon_tournament(players: int, rounds: int, seed: int = 3) -> Tournament:
    """Random pairings (seeded) with jigo, both-lose, forfeits, handicaps, byes, absences."""
    rng = random.Random(seed)
    results = [Result.BLACK_WINS] * 9 + [Result.WHITE_WINS] * 9 + [Result.JIGO, Result.BOTH_LOSE]
    games, byes, absences = [], set(), set()
    for r in range(1, rounds + 1):
        order = list(range(players))
        rng.shuffle(order)
        absent = players // 100
        for p in order[:absent]:
            absences.add((r, p))
        rest = order[absent:]
        if len(rest) % 2:
            byes.add((r, rest.pop()))
        for i in range(0, len(rest), 2):
            handicap = rng.choice((0, 0, 0, 2))
            forfeit = rng.random() < 0.005
            games.append(Game(r, rest[i], rest[i + 1], rng.choice(results), handicap, forfeit))
    named = tuple(Player(f"P{i:06d}", rank=rng.randrange(-30, 9)) for i in range(players))
    return Tournament(
        "compute benchmark",
        rounds,
        named,
        tuple(games),
        frozenset(byes),
        frozenset(absences),
        {"system": "mcmahon", "mcmahon": {"bar": "3d", "floor": "20k"}},
    )


def compute(host: Host, tournament: Tournament):
    return host.standings(tournament, system="mcmahon", criteria=CRITERIA)


def gather_reference(players: int, rounds: int, repeat: int) -> float:
    """Seconds for ``rounds`` random gathers over ``players`` (best of ``repeat``)."""
    rng = random.Random(5)
    values = [rng.randrange(10**6, 10**7) for _ in range(players)]
    perms = []
    for _ in range(rounds):
        perm = list(range(players))
        rng.shuffle(perm)
        perms.append(perm)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for perm in perms:
            [values[o] for o in perm]
        best = min(best, time.perf_counter() - start)
    return best


def measure(players: int, rounds: int, repeat: int) -> dict:
    start = time.perf_counter()
    tournament = mcmahon_tournament(players, rounds)
    generation = time.perf_counter() - start
    host = Host(config_file=False, entry_points=False)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        standings = compute(host, tournament)
        times.append(time.perf_counter() - start)
    assert list(standings.criteria) == CRITERIA
    return {
        "players": players,
        "games": len(tournament.games),
        "generation": generation,
        "compute": min(times),
        "gather": gather_reference(players, rounds, repeat),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", type=int, metavar="PLAYERS", help="cProfile one run")
    args = parser.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats

        tournament = mcmahon_tournament(args.profile, args.rounds)
        host = Host(config_file=False, entry_points=False)
        compute(host, tournament)  # warm caches (plugin registry)
        profile = cProfile.Profile()
        profile.runcall(compute, host, tournament)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        return 0
    print(f"criteria: {', '.join(CRITERIA)} (McMahon), {args.rounds} rounds, best of {args.repeat}")
    header = ("players", 8), ("games", 8), ("generate", 9), ("compute", 9), ("µs/game", 8)
    print(" ".join(f"{h:>{w}}" for h, w in header), f"{'growth':>10} {'gather':>8} {'growth':>7}")
    previous = None
    for size in args.sizes:
        row = measure(size, args.rounds, args.repeat)
        per_game = row["compute"] / row["games"] * 1e6
        growth = gather_growth = ""
        if previous is not None:
            growth = f"{row['compute'] / previous['compute']:.1f}x"
            growth += f"/{row['games'] / previous['games']:.0f}x"
            gather_growth = f"{row['gather'] / previous['gather']:.1f}x"
        print(
            f"{size:>8} {row['games']:>8} {row['generation']:>8.3f}s {row['compute']:>8.3f}s "
            f"{per_game:>8.2f} {growth:>10} {row['gather'] * 1e3:>6.1f}ms {gather_growth:>7}",
            flush=True,
        )
        previous = row
    print("growth: compute-time ratio / size ratio to the previous row (linear: equal);")
    print("gather: 10 x n random list gathers, no engine code (the cache effect alone)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
