"""Ratings benchmarks: whole processes side by side with a baseline in the
same run, ratio and games/s printed. Timings on a shared machine are noisy.

* **glicko2** — the OGS preset (one game per period) over N generated games (default
  1 000 000) through ``Host.ratings``, against the PyPI ``glicko2`` package
  (``pip install -e '.[bench]'``) rating the same games one after another.
* **gor** — EGF GoR over T generated tournaments (default 10 000, 40 players, 5 rounds)
  through ``Host.ratings``, against a plain per-game Python loop of the same formulas
  written below (every game from the tournament's starting ratings, changes summed).
* **cache** — a game history of an archive of R SGF records (default 100 000) read
  twice, the second time with 1 % new files: the second run's time (best of three, each
  from the first run's cache) as a share of the first's (target ≤ 5 %), beside the
  floor of any cache keyed by path, size and time: a process that starts, walks the
  archive and stats every file, and reads nothing.

    python benchmarks/ratings.py                 # all, full size (several minutes)
    python benchmarks/ratings.py --quick         # small sizes, a smoke run
    python benchmarks/ratings.py glicko2 --games 200000

Each timed step is its own process (``python benchmarks/ratings.py --child ...``), the
game generation included on both sides, so start-up and generation cost the same.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve()


# -- generated data (the same on both sides of a comparison) ---------------------------


def glicko_games(n: int, players: int, seed: int = 14):
    """(black, white, Black's score, day) numpy arrays: random pairings, results by a
    hidden strength (numpy's generator, so that making them costs little on both sides)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1.5, players)
    black = rng.integers(0, players, n)
    white = rng.integers(0, players - 1, n)
    white += white >= black
    p = 1 / (1 + np.exp(strength[white] - strength[black]))
    score = (rng.random(n) < p).astype(float)
    day = np.arange(n) * 365 // max(n, 1)
    return black, white, score, day


def gor_tournaments(t: int, players: int, size: int = 40, rounds: int = 5, seed: int = 15):
    """(black, white, Black's score, tournament) numpy arrays, tournament by tournament
    (players drawn from a pool: the tournaments of each run of ``players // size`` take
    the pool in a random order; random pairings each round, results by a hidden
    strength), and the pool's starting ratings."""
    import numpy as np

    rng = np.random.default_rng(seed)
    strength = rng.uniform(-900, 2700, players)
    per_run = players // size
    runs = -(-t // per_run)
    pool = np.stack([rng.permutation(players)[: per_run * size] for _ in range(runs)])
    field = pool.reshape(runs * per_run, size)[:t]
    seats = rng.permuted(np.repeat(field[:, None, :], rounds, axis=1), axis=2)
    black = seats[:, :, 0::2].reshape(-1)
    white = seats[:, :, 1::2].reshape(-1)
    p = 1 / (1 + np.exp((strength[white] - strength[black]) / 150))
    score = (rng.random(len(black)) < p).astype(float)
    tournament = np.repeat(np.arange(t), rounds * (size // 2))
    return black, white, score, tournament, [1000.0 + 100 * (i % 15) for i in range(players)]


# -- children: each timed as a whole process -------------------------------------------


class GameIds(Sequence):
    """``g0``, ``g1``, ...: a server's game ids, as a host's database would give them."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.n))]
        if not 0 <= i < self.n:
            raise IndexError(i)
        return f"g{i}"


def child_glicko2_ours(n: int, players: int) -> dict:
    """The games as a host holds them in columns (players as integer codes): the
    history's :class:`~sodos_hookspecs.GameColumns`, no object per game."""
    from datetime import date, timedelta

    import numpy as np
    from sodos_hookspecs import Coded, GameColumns, GameHistory

    from sodos_plugin import Host

    start = date(2024, 1, 1)
    days = [(start + timedelta(d)).isoformat() for d in range(366)]
    names = [f"p{i}" for i in range(players)]
    black, white, score, day = glicko_games(n, players)
    ids = GameIds(n)
    games = GameColumns(
        date=Coded(day, days),
        event=ids,
        black=Coded(black, names),
        white=Coded(white, names),
        result=score,
        handicap=np.zeros(n, dtype=np.int64),
        source=ids,
    )
    host = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
    run = host.ratings(GameHistory(games), rating="ogs")
    final = run.result.final
    return {"games": len(games), "checksum": sum(s.rating for s in final.values())}


def child_glicko2_baseline(n: int, players: int) -> dict:
    import glicko2  # the PyPI package (deepy/glicko2)

    people = [glicko2.Player() for _ in range(players)]
    black, white, score, _ = glicko_games(n, players)
    for b, w, s in zip(black.tolist(), white.tolist(), score.tolist()):
        pb, pw = people[b], people[w]
        rb, db, rw, dw = pb.rating, pb.rd, pw.rating, pw.rd
        pb.update_player([rw], [dw], [s])
        pw.update_player([rb], [db], [1.0 - s])
    return {"games": n, "checksum": sum(p.rating for p in people)}


def child_gor_ours(t: int, players: int) -> dict:
    """The games as a host's columns (players and tournaments as integer codes)."""
    host, history, initial = _gor_ready(t, players)
    run = host.ratings(history, rating="egf", initial=initial)
    final = run.result.final  # the players who played; the loop's sum has everyone
    unrated = sum(r.state.rating for name, r in initial.items() if name not in final)
    return {
        "games": len(history.games),
        "checksum": sum(s.rating for s in final.values()) + unrated,
    }


def child_gor_floor(t: int, players: int) -> dict:
    """Everything :func:`child_gor_ours` does but the rating: its fixed cost."""
    _, history, _ = _gor_ready(t, players)
    return {"games": len(history.games), "checksum": 0.0}


def _gor_ready(t: int, players: int):
    """(host, history, initial ratings) of :func:`child_gor_ours`, before it rates."""
    from datetime import date, timedelta

    from sodos_hookspecs import Coded, GameColumns, GameHistory, InitialRating, RatingState

    from sodos_plugin import Host

    black, white, score, tournament, start = gor_tournaments(t, players)
    names = [f"p{i}" for i in range(players)]
    first = date(2000, 1, 1)
    days = [(first + timedelta(k)).isoformat() for k in range(t)]  # one a day, in order
    keys = [f"t{k:05}" for k in range(t)]
    events = Coded(tournament, keys)
    games = GameColumns(
        date=Coded(tournament, days),
        event=events,
        black=Coded(black, names),
        white=Coded(white, names),
        result=score,
        source=events,
    )
    initial = {names[i]: InitialRating(RatingState(r)) for i, r in enumerate(start)}
    host = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
    return host, GameHistory(games), initial


def child_gor_baseline(t: int, players: int) -> dict:
    """The same formulas in a plain per-game loop (docs/rules.md §10.2), tournament by
    tournament: every game from the tournament's starting ratings, changes summed."""
    black, white, score, tournament, start = gor_tournaments(t, players)
    rating = list(start)
    games = 0
    rows = zip(tournament.tolist(), black.tolist(), white.tolist(), score.tolist())
    current, before, change = -1, {}, {}
    for k, b, w, s in rows:
        if k != current:  # the previous tournament ends: store its results
            for p, r in before.items():
                rating[p] = round(max(-900.0, r + change[p]), 3)
            current, before, change = k, {}, {}
        for p in (b, w):
            if p not in before:
                before[p] = rating[p]
                change[p] = 0.0
        for p, o, sa in ((b, w, s), (w, b, 1.0 - s)):
            r, ro = before[p], before[o]
            se = 1 / (1 + math.exp(-7 * math.log(3300 - ro) + 7 * math.log(3300 - r)))
            con = ((3300 - r) / 200) ** 1.6
            x = (2300 - r) / 80
            bonus = (x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))) / 5
            change[p] += con * (sa - se) + bonus
        games += 1
    for p, r in before.items():
        rating[p] = round(max(-900.0, r + change[p]), 3)
    return {"games": games, "checksum": sum(rating)}


def child_history(folder: str, cache: str, jobs: int = 0) -> dict:
    """The history of the archive through the cache (``jobs`` 0: the reader's default,
    all cores)."""
    from sodos_plugin import Host

    host = Host({"cache": {"path": cache}}, config_file=False, entry_points=False)
    history = host.history([folder], jobs=jobs or None)
    return {"games": len(history.games), "files": len(history.files)}


def child_walk(folder: str, cache: str) -> dict:
    """The floor of any run keyed by path, size and time: start-up, the walk and one
    ``stat`` per file, nothing read or assembled."""
    from sodos_plugin import Host
    from sodos_plugin.readers.sgf.options import parse_options
    from sodos_plugin.readers.sgf.walk import collect

    Host({"cache": {"path": cache}}, config_file=False, entry_points=False)
    units, _, _ = collect([Path(folder)], parse_options({}).limits)
    stats = [os.stat(unit) for unit in units]
    return {"games": 0, "files": len(stats)}


CHILDREN = {
    "glicko2-ours": child_glicko2_ours,
    "glicko2-baseline": child_glicko2_baseline,
    "gor-ours": child_gor_ours,
    "gor-baseline": child_gor_baseline,
    "gor-floor": child_gor_floor,
    "history": child_history,
    "walk": child_walk,
}


# -- the parent -----------------------------------------------------------------------


def compiled() -> None:
    """Byte-compile the project first, as ``pip install`` does: a run with
    PYTHONDONTWRITEBYTECODE set would otherwise compile ~80 modules in every process
    (~0.4 s), which no installed copy does."""
    root = HERE.parent.parent
    folders = [str(root / "sodos_plugin"), str(root / "hookspecs")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=True)


def timed(name: str, *args, env=None) -> tuple[float, dict]:
    command = [sys.executable, str(HERE), "--child", name, *map(str, args)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stderr}")
    return elapsed, json.loads(done.stdout.strip().splitlines()[-1])


def compare(
    label: str, ours: str, base: str, args, games_key="games", repeat=1, floor=None
) -> None:
    """``floor``: a child doing all that ``ours`` does but the work compared (printed)."""
    best_ours = best_base = best_floor = math.inf
    for _ in range(repeat):
        t_base, r_base = timed(base, *args)
        t_ours, r_ours = timed(ours, *args)
        best_base, best_ours = min(best_base, t_base), min(best_ours, t_ours)
        if floor is not None:
            best_floor = min(best_floor, timed(floor, *args)[0])
    games = r_ours[games_key]
    shown = "" if floor is None else f", floor (everything but rating) {best_floor:.2f} s"
    print(
        f"{label}: ours {best_ours:.2f} s ({games / best_ours:,.0f} games/s), "
        f"baseline {best_base:.2f} s ({games / best_base:,.0f} games/s), "
        f"ratio {best_base / best_ours:.1f}x (target >= 10x); sum of final ratings "
        f"ours {r_ours['checksum']:.3f}, baseline {r_base['checksum']:.3f}{shown}"
    )


RECORD = (
    "(;GM[1]FF[4]SZ[19]KM[6.5]PB[{b}]PW[{w}]BR[{br}k]WR[{wr}k]DT[{dt}]EV[{ev}]RE[{re}]{moves})\n"
)


def make_archive(folder: Path, start: int, count: int, players: int, seed: int) -> None:
    rng = random.Random(seed)
    coords = "abcdefghijklmnopqrs"
    for n in range(start, start + count):
        sub = folder / f"{n // 1000:04}"
        sub.mkdir(parents=True, exist_ok=True)
        b, w = rng.sample(range(players), 2)
        moves = "".join(
            f";{'BW'[k % 2]}[{rng.choice(coords)}{rng.choice(coords)}]" for k in range(120)
        )
        day = 1 + n % 28
        (sub / f"game{n:06}.sgf").write_text(
            RECORD.format(
                b=f"p{b}", w=f"p{w}", br=1 + b % 20, wr=1 + w % 20,
                dt=f"2024-{1 + n % 12:02}-{day:02}", ev=f"Server {n % 50}",
                re=rng.choice(["B+R", "W+R", "B+3.5", "W+T"]), moves=moves,
            ),
            "utf-8",
        )  # fmt: skip


def bench_cache(records: int, repeat: int = 3, jobs: int = 0) -> None:
    work = Path(tempfile.mkdtemp(prefix="sodos-cache-bench-"))
    try:
        folder, cache = work / "archive", work / "cache.sqlite3"
        make_archive(folder, 0, records, 2000, 1)
        first, r1 = timed("history", folder, cache, jobs)
        make_archive(folder, records, records // 100, 2000, 2)
        saved = work / "after-first"
        saved.mkdir()
        files = [Path(f"{cache}{suffix}") for suffix in ("", "-wal", "-shm")]
        for path in files:  # each second run starts from the first run's cache
            if path.exists():
                shutil.copy(path, saved)
        second = floor = math.inf
        for _ in range(repeat):
            for path in files:
                path.unlink(missing_ok=True)
                if (saved / path.name).exists():
                    shutil.copy(saved / path.name, path)
            elapsed, r2 = timed("history", folder, cache, jobs)
            second = min(second, elapsed)
            floor = min(floor, timed("walk", folder, cache)[0])
        print(
            f"cache (--jobs {jobs or 'all cores'}): first run {first:.2f} s "
            f"({r1['games']} games), second run with 1 % new "
            f"files {second:.2f} s ({r2['games']} games): {100 * second / first:.1f} % "
            f"of the first (target <= 5 %); floor (start-up, walk, one stat per file, "
            f"nothing read) {floor:.2f} s: {100 * floor / first:.1f} %"
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("which", nargs="*", default=["glicko2", "gor", "cache"])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument("--games", type=int, default=None, help="Glicko-2 games")
    parser.add_argument("--tournaments", type=int, default=None, help="GoR tournaments")
    parser.add_argument("--records", type=int, default=None, help="cache: SGF records")
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=0, help="cache: workers (0: all cores)")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        name, *rest = args.child
        values = [int(x) if x.isdigit() else x for x in rest]
        print(json.dumps(CHILDREN[name](*values)))
        return 0
    games = args.games or (20_000 if args.quick else 1_000_000)
    tournaments = args.tournaments or (200 if args.quick else 10_000)
    records = args.records or (2_000 if args.quick else 100_000)
    version = sys.version.split()[0]
    print(f"python {version}, {os.cpu_count()} cores; timings are noisy on a shared machine")
    compiled()
    if "glicko2" in args.which:
        compare(
            f"glicko2 (OGS preset), {games:,} games",
            "glicko2-ours",
            "glicko2-baseline",
            (games, args.players),
        )
    if "gor" in args.which:
        compare(
            f"gor, {tournaments:,} tournaments",
            "gor-ours",
            "gor-baseline",
            (tournaments, args.players),
            floor="gor-floor",
        )
    if "cache" in args.which:
        bench_cache(records, jobs=args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
