"""SGF ingest speed against sgfmill's full parse, measured in one run.

Generates a corpus of game records (default 2,000 records of 250 moves; a
400-player, 10-round tournament so the reader assembles a real tournament; with
``--form server``, a server archive's records of ``benchmarks/generate.py``) in a
temporary directory, then times, on the same files:

(a) sgfmill baseline: read the file, ``Sgf_game.from_bytes``, read the root's
    game information (PB PW BR WR RE RO EV DT HA KM) with ``node.get``;
(b) this ingester, one process: walk the folder, read each file, scan, decode
    and interpret its game information into records with the per-file account —
    the same work as (a), plus the proof that the rest of each record is valid;
(b+) the whole reader, one process: ``read([folder], jobs=1)`` — (b) plus
    assembling the tournament (players, ranks, rounds, duplicate/conflict checks);
(c) the whole reader with worker processes: ``--jobs`` 2, 4 and 16, those the machine
    has cores for (``--jobs-list``), each with its speed-up over (b+);
(h) the game history ``sodos ratings`` reads (``Host.history``: ingest, names,
    duplicates, events, the per-file account) with one process and with each of the
    same jobs, each with its speed-up;
(d) just reading the files (open + read), the floor for any ingester;
(f) what no worker takes, for the reader and the history: the run with workers, tasks
    cut as a ``--floor-cores`` machine cuts them (default 16), each task's result already
    made (pickled as a worker sends it), timed in three parts: before the first task (the
    walk), while the results come (unpickled and merged here, in turn), and after the
    last (what is done over every game); the tasks' own work is one process's time less
    these but its merging (one process unpickles nothing). The speed-up those allow
    with N processes, this one merging while it is not computing tasks, is one process's
    time over ``before + max(while, (tasks + while) / N) + after``: a bound measured on
    this machine for a bigger one (it takes the tasks to share out perfectly, the
    workers' pickling to cost nothing; the run's result is checked equal to one
    process's). The collector is paused, as the ``sodos`` command pauses it.

Each is the best of ``--repeat`` runs (page cache warm). Prints records/s and
the ratios; the target is (b) ≥ 30 × (a). Checks that every jobs count gives the
tournament and the history of one process, file account and warnings included
(exit 1 when not).

The corpus is written as text (no sgfmill per record: 200 000 records are written in
seconds); sgfmill's parse (a) is timed on at most ``--baseline-records`` of them and
scaled to the whole (said in its row).

Usage: ``python benchmarks/ingest.py [--records 2000] [--moves 250] [--jobs-list
1,2,4,16] [--min-parallel N] [--repeat 5] [--floor-cores 16]`` (``--min-parallel 0``
makes the jobs runs use workers at any size, to find where they start to pay).
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from generate import write_server_records
from sgfmill import sgf

from sodos_plugin.readers.sgf import history as history_module
from sodos_plugin.readers.sgf import read as sgf_read
from sodos_plugin.readers.sgf import walk
from sodos_plugin.readers.sgf.walk import PARALLEL_MIN_UNITS, Limits, collect, ingest_units
from sodos_plugin.util import workers
from sodos_plugin.util.gcpause import paused_gc

INFO = ("PB", "PW", "BR", "WR", "RE", "RO", "EV", "DT", "HA", "KM")


def generate(folder: Path, records: int, moves: int, seed: int = 7) -> list[Path]:
    """A tournament's worth of records (moves are random points), as sgfmill writes
    them: ``RO``/``EV``/``DT``, ranks, komi, a result, ``moves`` moves."""
    rng = random.Random(seed)
    rounds = 10
    per_round = max(1, -(-records // rounds))
    players = [f"Player {i:04d}" for i in range(2 * per_round)]
    ranks = {p: rng.randrange(-20, 5) for p in players}
    points = [a + b for a in "abcdefghijklmnopqrs" for b in "abcdefghijklmnopqrs"]
    paths = []
    for r in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        (folder / f"round-{r:02d}").mkdir(exist_ok=True)
        for board in range(per_round):
            if len(paths) == records:
                break
            black, white = order[2 * board], order[2 * board + 1]
            shown = [
                f"{-ranks[p]}k" if ranks[p] < 0 else f"{ranks[p] + 1}d" for p in (black, white)
            ]
            moves_text = "".join(
                f";{'BW'[i % 2]}[{p}]" for i, p in enumerate(rng.choices(points, k=moves))
            )
            text = (
                f"(;FF[4]GM[1]SZ[19]CA[UTF-8]EV[Benchmark Open]RO[{r}]DT[2026-01-01]"
                f"PB[{black}]PW[{white}]BR[{shown[0]}]WR[{shown[1]}]KM[6.5]"
                f"RE[{rng.choice(['B+R', 'W+R', 'B+3.5', 'W+12.5', 'W+T'])}]\n{moves_text})\n"
            )
            path = folder / f"round-{r:02d}" / f"{board:06d}.sgf"
            path.write_bytes(text.encode())
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


def timed(function, *args) -> tuple[float, float, float, object]:
    """(wall, this process's CPU, its workers' CPU, result) of one call (a pool's workers
    are waited for when it closes, so their CPU is counted)."""
    before, wall, cpu = os.times(), time.perf_counter(), time.process_time()
    result = function(*args)
    wall, cpu, after = time.perf_counter() - wall, time.process_time() - cpu, os.times()
    children = after.children_user - before.children_user
    children += after.children_system - before.children_system
    return wall, cpu, children, result


def alternating(repeat: int, runs: dict, label: str) -> dict:
    """Each of ``runs`` (name → (function, args)) once per round, in turn, ``repeat``
    rounds (on a shared machine the load drifts: runs side by side see the same load).
    Gives name → (best wall, median wall, median CPU of the process, of its workers,
    the walls per round, the last result)."""
    walls: dict = {name: [] for name in runs}
    cpus: dict = {name: [] for name in runs}
    kids: dict = {name: [] for name in runs}
    results: dict = {}
    for _ in range(repeat):
        for name, (function, args) in runs.items():
            wall, cpu, children, results[name] = timed(function, *args)
            walls[name].append(wall)
            cpus[name].append(cpu)
            kids[name].append(children)
    load = os.getloadavg()[0]
    shown = ", ".join(f"{name} {statistics.median(walls[name]):.3f} s" for name in runs)
    print(f"  measured {label} (medians of {repeat}, load {load:.1f}): {shown}", flush=True)
    return {
        name: (
            min(walls[name]), statistics.median(walls[name]), statistics.median(cpus[name]),
            statistics.median(kids[name]), walls[name], results[name],
        )
        for name in runs
    }  # fmt: skip


def speed_ups(one: list[float], other: list[float]) -> str:
    """The paired speed-ups (one process's wall / the other's, round by round): median
    and range."""
    ratios = sorted(a / b for a, b in zip(one, other))
    return f"x{statistics.median(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})"


def best(repeat: int, function, *args, label: str = "") -> tuple[float, object]:
    """The best of ``repeat`` runs, said as soon as measured (a run stopped by a time
    limit keeps what it measured)."""
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function(*args)
        times.append(time.perf_counter() - start)
    if label:
        print(f"  measured {label}: {min(times):.3f} s", flush=True)
    return min(times), result


_HOSTS: list = []


def history_of(folder: Path, jobs: int):
    """The history ``sodos ratings`` reads (one host for every run: its start-up, the
    plugins' registration, is not the ingest's)."""
    from sodos_plugin import Host

    if not _HOSTS:
        _HOSTS.append(Host({"cache": {"enabled": False}}, config_file=False, entry_points=False))
    return _HOSTS[0].history([folder], jobs=jobs)


def serial_floor(one, with_workers, same, cores: int, repeat: int) -> tuple[str, bool]:
    """Row (f): ``with_workers()`` run with each task's result made beforehand (see the
    module documentation), against ``one()``; ``same(a, b)`` compares their results."""
    real, store, marks = workers.in_order, [], []

    def made(function, tasks, more=(), processes=1, start=None):
        store.clear()
        for task in tasks:
            result = function(task, *more)
            store.append(pickle.dumps(result, pickle.HIGHEST_PROTOCOL))
            yield result

    def given(function, tasks, more=(), processes=1, start=None):
        if processes <= 1:  # one process: its own tasks, as it runs them
            yield from real(function, tasks, more, processes, start)
            return
        assert len(tasks) == len(store), "the tasks are cut as when they were made"
        marks.append(time.perf_counter())
        unpickling = 0.0
        try:
            for data in store:
                began = time.perf_counter()
                result = pickle.loads(data)
                unpickling += time.perf_counter() - began
                yield result
        finally:
            marks.extend((time.perf_counter(), unpickling))

    saved = os.cpu_count, walk.PARALLEL_MIN_UNITS, history_module.PARALLEL_MIN_UNITS
    # the tasks as a machine of ``cores`` cores cuts them, workers at any size
    os.cpu_count = lambda: cores  # type: ignore[assignment]
    walk.PARALLEL_MIN_UNITS = history_module.PARALLEL_MIN_UNITS = 0
    try:
        workers.in_order = made
        with_workers()
        workers.in_order = given
        alone, parts, equal = [], [], True
        for _ in range(repeat):
            with paused_gc():  # as the sodos command runs (the rows above: the reader not)
                began = time.perf_counter()
                first = one()
                alone.append(time.perf_counter() - began)
                marks.clear()
                began = time.perf_counter()
                result = with_workers()
                ended = time.perf_counter()
            parts.append((marks[0] - began, marks[1] - marks[0], ended - marks[1], marks[2]))
            equal = equal and same(first, result)
    finally:
        workers.in_order = real
        os.cpu_count, walk.PARALLEL_MIN_UNITS, history_module.PARALLEL_MIN_UNITS = saved
    whole = statistics.median(alone)
    before, during, after, unpickling = (statistics.median(p) for p in zip(*parts))
    # one process merges too, but unpickles nothing
    tasks = whole - before - (during - unpickling) - after
    allowed = ", ".join(
        f"x{whole / (before + max(during, (tasks + during) / n) + after):.1f} at {n}"
        for n in sorted({2, 4, 8, 16, cores})
    )
    text = (
        f"1 process {whole:.3f} s: before the tasks {before:.3f} s, while the results come "
        f"{during:.3f} s ({unpickling:.3f} s unpickling), after {after:.3f} s, the tasks "
        f"{tasks:.3f} s; allows {allowed}"
    )
    return text, equal


def same_history(a, b) -> bool:
    return (
        list(a.games) == list(b.games)
        and a.files == b.files
        and a.events == b.events
        and a.players == b.players
        and a.warnings == b.warnings
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=250)
    parser.add_argument("--jobs-list", default="2,4,16", help="worker counts beside 1 process")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline-records", type=int, default=20_000)
    parser.add_argument(
        "--min-parallel",
        type=int,
        default=PARALLEL_MIN_UNITS,
        help="files from which the jobs runs start workers (the reader's threshold)",
    )
    parser.add_argument("--no-history", action="store_true", help="skip the (h) rows")
    parser.add_argument(
        "--form",
        choices=("tournament", "server"),
        default="tournament",
        help="the records: a tournament's, moves alone (default), or a server archive's "
        "(benchmarks/generate.py: KGS, OGS, IGS moves with the time left, Fox's alone)",
    )
    parser.add_argument(
        "--floor-cores", type=int, default=16, help="(f): cut the tasks as this many cores do"
    )
    args = parser.parse_args(argv)
    walk.PARALLEL_MIN_UNITS = args.min_parallel
    history_module.PARALLEL_MIN_UNITS = args.min_parallel
    cores = os.cpu_count() or 1
    jobs_list = [j for j in map(int, args.jobs_list.split(",")) if 1 < j <= cores]
    print(f"python {sys.version.split()[0]}, {cores} cores: jobs {jobs_list or 'none'} beside 1")
    ok = True
    with tempfile.TemporaryDirectory(prefix="sodos-ingest-") as tmp:
        folder = Path(tmp)
        began = time.perf_counter()
        if args.form == "server":
            paths = write_server_records(folder, args.records, moves=args.moves)
        else:
            paths = generate(folder, args.records, args.moves)
        n = len(paths)
        size = sum(p.stat().st_size for p in paths)
        print(
            f"corpus: {n} {args.form} records of about {args.moves} moves, {size / n:.0f} "
            f"bytes each, in {tmp} "
            f"(written in {time.perf_counter() - began:.1f} s)"
        )
        plain_read(paths)  # warm the page cache
        t_d, _ = best(args.repeat, plain_read, paths, label="read only")
        sample = paths[: args.baseline_records]
        t_a, _ = best(min(args.repeat, 3), sgfmill_baseline, sample, label="sgfmill sample")
        t_a *= n / len(sample)
        t_b, outcomes = best(args.repeat, ingest_only, folder, label="ingest")
        readers = alternating(
            args.repeat,
            {jobs: (sgf_read, ([folder], {"jobs": jobs})) for jobs in [1, *jobs_list]},
            "reader by jobs",
        )
        t_bb, serial = readers[1][0], readers[1][-1]
        parallel = []
        for jobs in jobs_list:
            result = readers[jobs][-1]
            same = serial.tournament == result.tournament and serial.files == result.files
            same = same and serial.warnings == result.warnings
            ok = ok and same
            parallel.append((jobs, readers[jobs], same))
        histories = []
        if not args.no_history:
            runs = alternating(
                args.repeat,
                {jobs: (history_of, (folder, jobs)) for jobs in [1, *jobs_list]},
                "history by jobs",
            )
            one = runs[1][-1]
            for jobs in [1, *jobs_list]:
                same = same_history(one, runs[jobs][-1])
                ok = ok and same
                histories.append((jobs, runs[jobs], same))
        floors = [
            (
                "reader",
                serial_floor(
                    lambda: sgf_read([folder], {"jobs": 1}),
                    lambda: sgf_read([folder], {"jobs": args.floor_cores}),
                    lambda a, b: (
                        (a.tournament, a.files, a.warnings) == (b.tournament, b.files, b.warnings)
                    ),
                    args.floor_cores,
                    args.repeat,
                ),
            )
        ]
        if not args.no_history:
            floors.append(
                (
                    "history",
                    serial_floor(
                        lambda: history_of(folder, 1),
                        lambda: history_of(folder, args.floor_cores),
                        same_history,
                        args.floor_cores,
                        args.repeat,
                    ),
                )
            )
        for _, (_, equal) in floors:
            ok = ok and equal
    rejected = [f for f in serial.files if f.status != "ingested"]
    rejected += [o for o in outcomes if o.error is not None]
    sampled = f" (timed on {len(sample)}, scaled)" if len(sample) < n else ""
    rows = [
        (f"(a) sgfmill from_bytes + root properties{sampled}", t_a, ""),
        ("(b) sodos SGF ingest, 1 process", t_b, ""),
        ("(b+) sodos SGF reader incl. assembly, 1 proc.", t_bb, ""),
    ]
    serial_note = " (1 process: too few)" if n < args.min_parallel else ""
    for jobs, run, same in parallel:
        rows.append(
            (
                f"(c) sodos SGF reader, --jobs {jobs}{serial_note}",
                run[0],
                f"{speed_ups(readers[1][4], run[4])} of (b+), identical: {same}",
            )
        )
    for jobs, run, same in histories:
        shown = "" if jobs == 1 else f"{speed_ups(histories[0][1][4], run[4])} of 1 process, "
        shown += f"identical: {same}"
        rows.append((f"(h) history (sodos ratings' read), --jobs {jobs}", run[0], shown))
    rows.append(("(d) read the files only", t_d, ""))
    print("best of each; speed-ups: median (range) of the rounds' paired ratios")
    for label, seconds, note in rows:
        print(f"{label:<50} {n / seconds:>10,.0f} records/s ({seconds * 1000:9.1f} ms) {note}")
    for name, table in (("reader", readers), ("history", {j: r for j, r, _ in histories})):
        for jobs in sorted(table):
            _, wall, cpu, children, _, _ = table[jobs]
            print(
                f"CPU, {name} --jobs {jobs}: this process {cpu:.3f} s, workers {children:.3f} s "
                f"(median wall {wall:.3f} s)"
            )
    for name, (text, equal) in floors:
        print(f"(f) {name}, results made beforehand ({args.floor_cores}-core tasks): {text}")
        print(f"    identical: {equal}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {cores} cores")
    print(f"ratio (b)/(a) = {t_a / t_b:.1f}x   (target >= 30x)")
    print(f"ratio (b+)/(a) = {t_a / t_bb:.1f}x")
    for jobs, run, _ in parallel:
        print(f"ratio (c, --jobs {jobs})/(a) = {t_a / run[0]:.1f}x")
    print(f"ratio (b)/(d) = {t_d / t_b:.2f}   (share of the plain-read speed)")
    print(
        f"players {len(serial.tournament.players)}, games {len(serial.tournament.games)}, "
        f"files not ingested {len(rejected)}, every jobs count identical to 1 process: {ok}"
    )
    return 0 if ok and not rejected else 1


if __name__ == "__main__":
    sys.exit(main())
