"""Ratings at scale: time and peak memory of ``Host.ratings`` over 1M, 10M and 100M
generated games, the OGS preset (one game per period) and EGF GoR (tournaments of 40
players, 5 rounds: 100 games each), final ratings only (``steps=False``, what
``sodos ratings`` asks for the table and the CSV of final ratings), and optionally with
the steps kept (``--steps``: what the JSON, HTML, ``--history`` and ``--player`` answers
need, the only way before).

Each size is its own process (``--child``). The history is a host's columns
(:class:`~sodos_hookspecs.GameColumns`, players, days and events as integer codes: no
object per game), generated first; then the process's peak resident memory is reset
(``/proc/self/clear_refs``) and the rating is timed, so the figures printed are: the
columns' own size (the input), the rating's time, the peak resident memory during the
rating, and that peak beyond what the process held before it (the columns and the
interpreter): the memory the rating itself needs.

    python benchmarks/scale.py                          # 1M, 10M, 100M, ogs and gor
    python benchmarks/scale.py --sizes 100000,1000000   # a small run
    python benchmarks/scale.py --steps --sizes 1000000  # beside the steps kept
    python benchmarks/scale.py --budget 400             # stop before a size would overrun

``--budget`` (seconds, whole script): a size is skipped, and said so, when the time
projected from the size before it (linear in games, with a margin) would pass it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent))

from ratings import glicko_games, gor_tournaments  # noqa: E402  (the same generators)

MIB = 1 << 20


def _status(key: str) -> int:
    """A ``/proc/self/status`` figure in bytes (``VmRSS``, ``VmHWM``); 0 where absent."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _reset_peak() -> bool:
    """Reset the process's peak resident memory to its current one (Linux ≥ 4.0)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _size(column) -> int:
    """A column's own bytes (a coded column: its codes; the values tables are small)."""
    codes = getattr(column, "codes", column)
    return int(getattr(codes, "nbytes", 0))


class GameIds:
    """``g0``, ``g1``, ...: a server's game ids, as a host's database gives them (no
    string per game kept)."""

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


def ogs_history(n: int, players: int):
    from datetime import date, timedelta

    import numpy as np
    from sodos_hookspecs import Coded, GameColumns, GameHistory

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
    return GameHistory(games), None


def gor_history(n: int, players: int):
    from datetime import date, timedelta

    from sodos_hookspecs import Coded, GameColumns, GameHistory, InitialRating, RatingState

    t = max(1, n // 100)  # 40 players x 5 rounds: 100 games a tournament
    black, white, score, tournament, start = gor_tournaments(t, players)
    names = [f"p{i}" for i in range(players)]
    first = date(2000, 1, 1)
    days = [(first + timedelta(k // 10)).isoformat() for k in range(t)]  # ten a day
    keys = [f"t{k:07}" for k in range(t)]
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
    return GameHistory(games), initial


def child(system: str, n: int, players: int, steps: int) -> dict:
    from sodos_plugin import Host

    history, initial = (ogs_history if system == "ogs" else gor_history)(n, players)
    columns = sum(_size(c) for c in history.games.columns.values())
    host = Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)
    gc.collect()
    reset = _reset_peak()
    held = _status("VmRSS")
    begin = time.perf_counter()
    run = host.ratings(
        history,
        system="ogs" if system == "ogs" else "egf",
        initial=initial,
        steps=bool(steps),
    )
    standings = run.standings()  # what the final-ratings answer reads
    elapsed = time.perf_counter() - begin
    peak = _status("VmHWM")
    return {
        "games": len(history.games),
        "players": len(standings),
        "seconds": elapsed,
        "columns": columns,
        "held": held,
        "peak": peak,
        "beyond": peak - held if reset else None,
        "checksum": sum(row.state.rating for row in standings),
    }


def measure(system: str, n: int, players: int, steps: bool, limit=None) -> dict | None:
    """One child's figures; ``None`` when it ran past ``limit`` seconds (killed)."""
    command = [sys.executable, str(HERE), "--child", system, str(n), str(players), str(int(steps))]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{system} {n} failed:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["wall"] = wall
    return out


def shown(r: dict) -> str:
    beyond = "not measured" if r["beyond"] is None else f"{r['beyond'] / MIB:,.0f} MiB"
    return (
        f"{r['seconds']:7.2f} s ({r['games'] / r['seconds']:,.0f} games/s), "
        f"columns {r['columns'] / MIB:,.0f} MiB, peak {r['peak'] / MIB:,.0f} MiB, "
        f"beyond the columns and interpreter {beyond} (process {r['wall']:.1f} s); "
        f"sum of final ratings {r['checksum']:.6f}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000000,10000000,100000000", help="games, commas")
    parser.add_argument("--systems", default="ogs,gor", help="ogs, gor")
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--steps", action="store_true", help="also with the steps kept")
    parser.add_argument("--budget", type=float, default=None, help="seconds for the whole")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        system, n, players, steps = args.child
        print(json.dumps(child(system, int(n), int(players), int(steps))))
        return 0
    sizes = [int(float(s)) for s in args.sizes.split(",") if s]
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.players:,} players; "
        "final ratings only unless said (steps kept: every step, as before)"
    )
    began = time.perf_counter()
    figures = []
    for system in args.systems.split(","):
        previous = None  # (games, process seconds) of the size before
        for n in sizes:
            for steps in (False, True) if args.steps else (False,):
                if args.budget is not None and previous is not None:
                    projected = previous[1] * n / previous[0] * 1.15
                    left = args.budget - (time.perf_counter() - began)
                    if projected > left:
                        print(
                            f"{system} {n:>11,} games: skipped (projected {projected:.0f} s, "
                            f"{left:.0f} s of the budget left)"
                        )
                        figures.append({"system": system, "games": n, "skipped": True})
                        continue
                limit = None
                if args.budget is not None:
                    limit = max(1.0, args.budget - (time.perf_counter() - began))
                r = measure(system, n, args.players, steps, limit)
                if r is None:
                    print(f"{system} {n:>11,} games: stopped at the budget ({limit:.0f} s)")
                    figures.append({"system": system, "games": n, "stopped": True})
                    break
                if not steps:
                    previous = (n, r["wall"])
                what = "steps kept " if steps else "final only "
                print(f"{system} {n:>11,} games, {what}: {shown(r)}", flush=True)
                figures.append({"system": system, "steps": steps, **r})
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
