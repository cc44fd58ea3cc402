"""Memory of reading a saved rating state: the peak resident memory of a process that
reads one state file (``read_state``) over the file's bytes, for the two shapes a state
takes: many players (Glicko-2 with day periods: each player's entry and last period) and
a long game list (WHR keeps every game). This ratio sets ``limits.max_state_bytes``
(sodos_plugin/config/settings.py): the limit times the worst ratio stays under 1 GiB.

    python benchmarks/state_memory.py                    # 200 000 players, 1 000 000 games
    python benchmarks/state_memory.py --players 20000 --games 100000   # quick

Each state is written and read in processes of their own (``--write``, ``--child``; Linux
keeps a process's peak across ``exec``), so the figures are that read's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile


def players_state(n: int) -> dict:
    names = [f"Player number {i}" for i in range(n)]
    entry = {
        "rating": 1500.123456789,
        "deviation": 61.23456789,
        "volatility": 0.0599123,
        "start": "rank 3d",
        "games": 40,
        "last_game": "2024-05-10",
    }
    own = {"period": "day", "last": 739000, "periods": dict.fromkeys(names, 739000)}
    return {"players": {name: entry for name in names}, "system_state": own}


def games_state(n: int) -> dict:
    names = [f"P{i}" for i in range(1000)]
    entry = {"rating": 100.5, "start": "prior (Elo 0)", "games": 1, "last_game": "2024-05-10"}
    games = [[739000 + i % 500, i % 1000, (i + 1) % 1000, 1.0, 0.0] for i in range(n)]
    last = ["2024-05-10", "e", 0, "a", "b", 1.0, 0, ""]
    own = {"names": names, "games": games, "last": last}
    return {"players": dict.fromkeys(names, entry), "system_state": own}


def write(path: str, body: dict) -> None:
    head = {"format": "sodos-rating-state", "version": 1, "sodos": "0", "system": "x"}
    head |= {"provider": "x", "last_day": "2024-05-10", "parameters": {}}
    with open(path, "w", encoding="utf-8") as stream:
        json.dump({**head, **body}, stream, separators=(",", ":"))


def child(path: str) -> None:
    from sodos_plugin.ratings.state import read_state

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    read_state(path, 1 << 31)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"kib": after - before}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--child")
    parser.add_argument("--write", nargs=2)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if args.write:  # in its own process: a peak is inherited by the processes started after
        kind, path = args.write
        body = players_state(args.players) if kind == "players" else games_state(args.games)
        write(path, body)
        return
    print("state                       bytes   read, MiB  memory / bytes")
    with tempfile.TemporaryDirectory() as folder:
        for kind, label in (
            ("players", f"{args.players} players"),
            ("games", f"{args.games} WHR games"),
        ):
            path = os.path.join(folder, "state.json")
            sizes = ["--players", str(args.players), "--games", str(args.games)]
            subprocess.run([sys.executable, __file__, *sizes, "--write", kind, path], check=True)
            size = os.path.getsize(path)
            done = subprocess.run(
                [sys.executable, __file__, "--child", path],
                capture_output=True,
                text=True,
                check=True,
            )
            kib = json.loads(done.stdout)["kib"]
            print(f"{label:22} {size:>11} {kib / 1024:>10.0f} {kib * 1024 / size:>14.1f}")


if __name__ == "__main__":
    main()
