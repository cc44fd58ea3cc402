"""SGF ingest speed against sgfmill's full parse, measured in one run.

Generates a corpus of game records (default 2,000 records of 250 moves; a
400-player, 10-round tournament so the reader assembles a real tournament) in a
temporary directory, then times, on the same files:

(a) sgfmill baseline: read the file, ``Sgf_game.from_bytes``, read the root's
    game information (PB PW BR WR RE RO EV DT HA KM) with ``node.get``;
(b) this ingester, one process: walk the folder, read each file, scan, decode
    and interpret its game information into records with the per-file account —
    the same work as (a), plus the proof that the rest of each record is valid;
(b+) the whole reader, one process: ``read([folder], jobs=1)`` — (b) plus
    assembling the tournament (players, ranks, rounds, duplicate/conflict checks);
(c) the whole reader with ``--jobs`` worker processes (default: all cores);
(d) just reading the files (open + read), the floor for any ingester.

Each is the best of ``--repeat`` runs (page cache warm). Prints records/s and
the ratios; the target is (b) ≥ 30 × (a). Also checks that (b+) and (c) give
the same tournament.

Usage: ``python benchmarks/ingest.py [--records 2000] [--moves 250] [--jobs N]
[--min-parallel N]`` (``--min-parallel 0`` makes (c) use workers at any size, to find
where they start to pay).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from sgfmill import sgf

from sodos_plugin.readers.sgf import read as sgf_read
from sodos_plugin.readers.sgf import walk
from sodos_plugin.readers.sgf.walk import PARALLEL_MIN_UNITS, Limits, collect, ingest_units

INFO = ("PB", "PW", "BR", "WR", "RE", "RO", "EV", "DT", "HA", "KM")


def generate(folder: Path, records: int, moves: int, seed: int = 7) -> list[Path]:
    """A tournament's worth of sgfmill-serialised records (moves are random points)."""
    rng = random.Random(seed)
    rounds = 10
    per_round = max(1, records // rounds)
    players = [f"Player {i:04d}" for i in range(2 * per_round)]
    ranks = {p: rng.randrange(-20, 5) for p in players}
    paths = []
    for r in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        for board in range(per_round):
            if len(paths) == records:
                break
            black, white = order[2 * board], order[2 * board + 1]
            game = sgf.Sgf_game(19)
            root = game.get_root()
            root.set("EV", "Benchmark Open")
            root.set("RO", str(r))
            root.set("DT", "2026-01-01")
            root.set("PB", black)
            root.set("PW", white)
            for key, player in (("BR", black), ("WR", white)):
                rank = ranks[player]
                root.set(key, f"{-rank}k" if rank < 0 else f"{rank + 1}d")
            root.set("KM", 6.5)
            root.set("RE", rng.choice(["B+R", "W+R", "B+3.5", "W+12.5", "W+T"]))
            node = root
            for i in range(moves):
                node = node.new_child()
                node.set_move("bw"[i % 2], (rng.randrange(19), rng.randrange(19)))
            path = folder / f"round-{r:02d}" / f"{board:04d}.sgf"
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(game.serialise())
            paths.append(path)
    return paths


def plain_read(paths: list[Path]) -> None:
    for path in paths:
        with open(path, "rb") as handle:
            handle.read()


def sgfmill_baseline(paths: list[Path]) -> None:
    for path in paths:
        with open(path, "rb") as handle:
            game = sgf.Sgf_game.from_bytes(handle.read())
        root = game.get_root()
        for key in INFO:
            if root.has_property(key):
                root.get(key)


def ingest_only(folder: Path) -> list:
    units, _, _ = collect([folder], Limits())
    return ingest_units(units, jobs=1, fallback="ISO-8859-1", limits=Limits())


def best(repeat: int, function, *args) -> tuple[float, object]:
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function(*args)
        times.append(time.perf_counter() - start)
    return min(times), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=250)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--min-parallel",
        type=int,
        default=PARALLEL_MIN_UNITS,
        help="files from which (c) starts workers (the reader's threshold by default)",
    )
    args = parser.parse_args(argv)
    walk.PARALLEL_MIN_UNITS = args.min_parallel
    with tempfile.TemporaryDirectory(prefix="sodos-ingest-") as tmp:
        folder = Path(tmp)
        paths = generate(folder, args.records, args.moves)
        n = len(paths)
        size = sum(p.stat().st_size for p in paths)
        print(f"corpus: {n} records of {args.moves} moves, {size / n:.0f} bytes each, in {tmp}")
        plain_read(paths)  # warm the page cache
        t_d, _ = best(args.repeat, plain_read, paths)
        t_a, _ = best(args.repeat, sgfmill_baseline, paths)
        t_b, outcomes = best(args.repeat, ingest_only, folder)
        t_bb, serial = best(args.repeat, sgf_read, [folder], {"jobs": 1})
        t_c, parallel = best(args.repeat, sgf_read, [folder], {"jobs": args.jobs})
    same = serial.tournament == parallel.tournament and serial.files == parallel.files
    rejected = [f for f in serial.files if f.status != "ingested"]
    rejected += [o for o in outcomes if o.error is not None]
    serial_note = " (1 process: too few)" if n < args.min_parallel else ""
    rows = [
        ("(a) sgfmill from_bytes + root properties", t_a),
        ("(b) sodos SGF ingest, 1 process", t_b),
        ("(b+) sodos SGF reader incl. assembly, 1 proc.", t_bb),
        (f"(c) sodos SGF reader, --jobs {args.jobs}{serial_note}", t_c),
        ("(d) read the files only", t_d),
    ]
    for label, seconds in rows:
        print(f"{label:<44} {n / seconds:>10,.0f} records/s  ({seconds * 1000:8.1f} ms)")
    print(f"ratio (b)/(a) = {t_a / t_b:.1f}x   (target >= 30x)")
    print(f"ratio (b+)/(a) = {t_a / t_bb:.1f}x")
    print(f"ratio (c)/(a) = {t_a / t_c:.1f}x")
    print(f"ratio (b)/(d) = {t_d / t_b:.2f}   (share of the plain-read speed)")
    print(
        f"players {len(serial.tournament.players)}, games {len(serial.tournament.games)}, "
        f"files not ingested {len(rejected)}, (b) and (c) identical: {same}"
    )
    return 0 if same and not rejected else 1


if __name__ == "__main__":
    sys.exit(main())
