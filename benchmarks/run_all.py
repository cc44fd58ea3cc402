"""Every benchmark in one run, one table, ratios against baselines measured in the same run.

Rows (each the best of ``--repeat`` runs unless said otherwise):

* **compute**: standings of a generated 100 000-player × 10-round tournament
  (random pairings, every result kind) with the McMahon preset (MMS, SOSM, SOSOSM),
  with compute.py's MMS, SOS, SOSOS, SODOS, SODOMS, and with NBW, SOS, SOSOS, SODOS in a
  Swiss. Target: ≤ 1 s.
* **tiebreak-core**: a fully played Swiss (2 000 × 11), our NBW/SOSW/SODOSW
  against tiebreak-core's points/Buchholz/Sonneborn-Berger (FIDE 2026 ruleset);
  values checked equal first (:mod:`vs_tiebreak_core`). Target: ≥ 10× faster.
* **ingest**: a folder of SGF records (default 10 000 records of 250 moves, written
  by sgfmill), against sgfmill's full parse + reading the root's game information
  (single process) and against just reading the files. Ours: the ingester in one
  process (files → game records: ingest.py's (b), the like-for-like of sgfmill's
  row; target ≥ 30× sgfmill), and the whole reader (records → tournament with
  every check of the assembly) in one process and with ``--jobs``.
* **memory**: peak resident memory (``VmHWM``) of a child process that ingests
  100 000 records (one process) and computes standings, against a child that only
  imports the package. Target: ≤ 200 MB.

Run: ``python benchmarks/run_all.py`` (about 1 minute on 2 cores; ``--quick``
shrinks every size for a smoke run; ``--details`` then runs the per-area scripts).
Needs the ``bench`` extra (tiebreak-core).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compute import mcmahon_tournament  # noqa: E402  (one generator for both scripts)
from sgfmill import sgf  # noqa: E402

from sodos_plugin import Host  # noqa: E402
from sodos_plugin.readers.sgf.walk import Limits, collect, ingest_units  # noqa: E402

INFO = ("PB", "PW", "BR", "WR", "RE", "RO", "EV", "DT", "HA", "KM")


def best(repeat: int, work):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


# -- compute ----------------------------------------------------------------------------


def bench_compute(players: int, rounds: int, repeat: int) -> list[dict]:
    tournament = mcmahon_tournament(players, rounds)
    host = Host(config_file=False, entry_points=False)
    rows = []
    runs = [
        ("mcmahon", None),  # the preset: MMS, SOSM, SOSOSM
        ("mcmahon", ["MMS", "SOS", "SOSOS", "SODOS", "SODOMS"]),  # benchmarks/compute.py's set
        ("swiss", ["NBW", "SOS", "SOSOS", "SODOS"]),
    ]
    for system, criteria in runs:
        seconds, standings = best(
            repeat, lambda s=system, c=criteria: host.standings(tournament, system=s, criteria=c)
        )
        rows.append(
            {
                "name": f"compute {players // 1000}k x {rounds} {system} "
                f"({', '.join(standings.criteria)})",
                "ours": seconds,
                "unit": "s",
                "target": "<= 1 s",
                "met": seconds <= 1.0,
            }
        )
    return rows


# -- tiebreak-core ------------------------------------------------------------------------


def bench_tiebreak_core(players: int, rounds: int, repeat: int) -> list[dict]:
    try:
        from vs_tiebreak_core import run
    except ImportError as error:  # pragma: no cover
        return [{"name": "tiebreak-core", "skipped": str(error)}]
    try:
        r = run(players, rounds, repeat)
    except ImportError:
        return [{"name": "tiebreak-core", "skipped": "pip install tiebreak-core (bench extra)"}]
    return [
        {
            "name": f"standings vs tiebreak-core, Swiss {players} x {rounds} (values equal)",
            "ours": r["ours_s"],
            "baseline": r["tiebreak_core_s"],
            "baseline_name": "tiebreak-core BH+SB",
            "ratio": r["ratio"],
            "target": ">= 10x",
            "met": r["ratio"] >= 10,
        }
    ]


# -- ingest ---------------------------------------------------------------------------------


def write_records(folder: Path, records: int, moves: int, *, fast: bool, seed: int = 7) -> int:
    """A tournament's worth of records: ``fast`` formats text, else sgfmill serialises."""
    rng = random.Random(seed)
    rounds = 10
    per_round = max(1, -(-records // rounds))
    players = [f"Player {i:05d}" for i in range(2 * per_round)]
    rank = {p: rng.randrange(-20, 5) for p in players}
    points = [f"{a}{b}" for a in "abcdefghijklmnopqrs" for b in "abcdefghijklmnopqrs"]
    written = 0
    for r in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        directory = folder / f"round-{r:02d}"
        directory.mkdir(parents=True, exist_ok=True)
        for board in range(per_round):
            if written == records:
                return written
            black, white = order[2 * board], order[2 * board + 1]
            ranks = [f"{-rank[p]}k" if rank[p] < 0 else f"{rank[p] + 1}d" for p in (black, white)]
            result = rng.choice(["B+R", "W+R", "B+3.5", "W+12.5", "W+T"])
            if fast:
                body = "".join(
                    f";{'BW'[i % 2]}[{rng.choice(points)}]" for i in range(moves)
                )  # fmt: skip
                data = (
                    f"(;FF[4]GM[1]SZ[19]CA[UTF-8]EV[Benchmark Open]RO[{r}]DT[2026-01-01]"
                    f"PB[{black}]PW[{white}]BR[{ranks[0]}]WR[{ranks[1]}]KM[6.5]RE[{result}]"
                    f"{body})\n"
                ).encode()
            else:
                game = sgf.Sgf_game(19)
                root = game.get_root()
                for key, value in (
                    ("EV", "Benchmark Open"),
                    ("RO", str(r)),
                    ("DT", "2026-01-01"),
                    ("PB", black),
                    ("PW", white),
                    ("BR", ranks[0]),
                    ("WR", ranks[1]),
                    ("RE", result),
                ):
                    root.set(key, value)  # fmt: skip
                root.set("KM", 6.5)
                node = root
                for i in range(moves):
                    node = node.new_child()
                    node.set_move("bw"[i % 2], (rng.randrange(19), rng.randrange(19)))
                data = game.serialise()
            (directory / f"{board:05d}.sgf").write_bytes(data)
            written += 1
    return written


def plain_read(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        with open(path, "rb") as handle:
            total += len(handle.read())
    return total


def sgfmill_parse(paths: list[Path]) -> int:
    for path in paths:
        with open(path, "rb") as handle:
            root = sgf.Sgf_game.from_bytes(handle.read()).get_root()
        for key in INFO:
            if root.has_property(key):
                root.get(key)
    return len(paths)


def ingest_records(folder: Path) -> list:
    """(b) of ingest.py: walk the folder, read, scan and interpret every record."""
    units, _, _ = collect([folder], Limits())
    return ingest_units(units, jobs=1, fallback="ISO-8859-1", limits=Limits())


def bench_ingest(records: int, moves: int, repeat: int, jobs: int) -> list[dict]:
    host = Host(config_file=False, entry_points=False)
    with tempfile.TemporaryDirectory(prefix="sodos-bench-") as tmp:
        folder = Path(tmp)
        write_records(folder, records, moves, fast=False)
        paths = sorted(folder.rglob("*.sgf"))
        size = sum(p.stat().st_size for p in paths) / len(paths)
        plain_read(paths)  # warm the page cache
        t_plain, _ = best(repeat, lambda: plain_read(paths))
        t_sgfmill, _ = best(max(1, repeat - 1), lambda: sgfmill_parse(paths))
        t_ingest, outcomes = best(repeat, lambda: ingest_records(folder))
        t_one, serial = best(repeat, lambda: host.read([folder], jobs=1))
        t_jobs, parallel = best(repeat, lambda: host.read([folder], jobs=jobs))
    assert all(o.error is None for o in outcomes), "a generated record was rejected"
    assert serial.tournament == parallel.tournament, "serial and parallel ingest differ"
    assert len(serial.tournament.games) == len(paths), "not every record became a game"
    label = f"{len(paths)} records x {moves} moves ({size / 1024:.1f} KiB)"
    sgfmill_row = {"baseline": t_sgfmill, "baseline_name": "sgfmill full parse"}
    return [
        {
            "name": f"ingest {label} into game records, 1 process",
            "ours": t_ingest,
            **sgfmill_row,
            "ratio": t_sgfmill / t_ingest,
            "target": ">= 30x",
            "met": t_sgfmill / t_ingest >= 30,
        },
        {
            "name": f"whole SGF reader {label} (+ tournament assembly), 1 process",
            "ours": t_one,
            **sgfmill_row,
            "ratio": t_sgfmill / t_one,
            "target": "",
        },
        {
            "name": f"whole SGF reader {label}, --jobs {jobs}",
            "ours": t_jobs,
            **sgfmill_row,
            "ratio": t_sgfmill / t_jobs,
            "target": "",
        },
        {
            "name": f"ingest {label} into game records vs reading the bytes only",
            "ours": t_ingest,
            "baseline": t_plain,
            "baseline_name": "open + read",
            "ratio": t_plain / t_ingest,
            "target": "",
        },
    ]


# -- memory ----------------------------------------------------------------------------------

CHILD = """
import json, resource, sys
from sodos_plugin import Host
host = Host(config_file=False, entry_points=False)
games = 0
if sys.argv[1] != "-":
    read = host.read([sys.argv[1]], jobs=1)
    host.standings(read.tournament, system="mcmahon")
    games = len(read.tournament.games)
# VmHWM is this process's own high-water mark; ru_maxrss can include the parent's
# image copied by fork before exec, so it is only the fallback off Linux.
try:
    status = open("/proc/self/status").read()
    peak = int(status.split("VmHWM:")[1].split()[0])
except (OSError, IndexError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"peak_kib": peak, "games": games}))
"""


def child_peak(folder: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, folder], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def bench_memory(records: int, moves: int) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="sodos-mem-") as tmp:
        write_records(Path(tmp), records, moves, fast=True)
        start = time.perf_counter()
        peak = child_peak(tmp)
        seconds = time.perf_counter() - start
    floor = child_peak("-")
    assert peak["games"] == records, peak
    mib = peak["peak_kib"] / 1024
    return [
        {
            "name": f"peak memory, ingest {records} records + standings, 1 process",
            "ours": mib,
            "unit": "MiB",
            "baseline": floor["peak_kib"] / 1024,
            "baseline_name": "import only",
            "target": "<= 200 MB",
            "met": mib * 1.048576 <= 200,
            "note": f"{seconds:.1f} s wall",
        }
    ]


# -- table -------------------------------------------------------------------------------------


def show(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    if unit == "MiB":
        return f"{value:.0f} MiB = {value * 1.048576:.0f} MB"
    return f"{value:.0f} {unit}"


def table(rows: list[dict]) -> str:
    lines = [
        "| benchmark | ours | baseline (same run) | ratio | target | met |",
        "|---|---:|---|---:|---|---|",
    ]
    for row in rows:
        if "skipped" in row:
            lines.append(f"| {row['name']} | skipped: {row['skipped']} | | | | |")
            continue
        unit = row.get("unit", "s")
        baseline = ""
        if "baseline" in row:
            baseline = f"{row['baseline_name']}: {show(row['baseline'], unit)}"
        ratio = ""
        if "ratio" in row:
            ratio = f"{row['ratio']:.1f}x" if row["ratio"] >= 1 else f"{row['ratio']:.2f}x"
        met = {True: "yes", False: "**no**", None: ""}[row.get("met")]
        ours = show(row["ours"], unit) + (f" ({row['note']})" if row.get("note") else "")
        lines.append(
            f"| {row['name']} | {ours} | {baseline} | {ratio} | {row.get('target', '')} | {met} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    parser.add_argument(
        "--details",
        action="store_true",
        help="then run the per-area scripts (compute.py, ingest.py, fuzz.py's doubling check)",
    )
    args = parser.parse_args(argv)
    q = args.quick
    rows: list[dict] = []
    steps = [
        ("compute", lambda: bench_compute(5_000 if q else 100_000, 10, args.repeat)),
        ("tiebreak-core", lambda: bench_tiebreak_core(200 if q else 2000, 11, args.repeat)),
        ("ingest", lambda: bench_ingest(300 if q else 10_000, 250, args.repeat, args.jobs)),
        ("memory", lambda: bench_memory(2_000 if q else 100_000, 250)),
    ]
    for name, step in steps:
        start = time.perf_counter()
        rows.extend(step())
        print(f"# {name} done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    status = 0
    if args.details:
        scripts = [("compute.py", []), ("ingest.py", []), ("fuzz.py", ["--skip-hypothesis"])]
        for script, extra in scripts:
            if (HERE / script).exists():
                print(f"\n## {script} {' '.join(extra)}".rstrip(), flush=True)
                done = subprocess.run([sys.executable, str(HERE / script), *extra])
                status |= done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
