"""Whole processes as the user runs them, against baseline processes in the same run.

Every row starts ``sodos`` (the installed console script) and a baseline program as
separate processes on the same generated input (:mod:`generate`), in pairs whose
order alternates (ours first, then baseline first, ...), after one warm-up run of
each that also checks the outputs. Wall time is ``time.perf_counter`` around
``Popen`` … ``os.wait4``; CPU time and peak memory come from the child's rusage
(``wait4``: ``ru_utime + ru_stime``, ``ru_maxrss``). Printed per row: min and median
of each side, and the **median of the paired ratios** (and their range), the figure
that survives a noisy, shared machine best. Standard output goes to /dev/null; each
process runs in an empty temporary directory (no ``sodos.toml`` is picked up).

Rows (``python benchmarks/processes.py [GROUP ...]``, groups below; all by default):

``startup``  ``sodos --version``, ``sodos --help``, ``sodos plugins`` vs ``python3 -c pass``
``h9``       ``sodos standings FILE.h9 --format json`` (a fully played Swiss, 9 rounds, at
             1 000, 5 000, 20 000 and 100 000 players) vs tiebreak-core as a whole process
             (:mod:`baselines`: read the same file, rank by Buchholz and Sonneborn-Berger,
             print JSON); the warm-up checks that every player's SOS, SODOS and NBW equal
             tiebreak-core's Buchholz, Sonneborn-Berger and points
``sgf``      ``sodos standings FOLDER --format json`` with ``--jobs 1`` and with every core,
             on 6 000 server-style records (KGS/OGS/Fox/IGS styles, ``BL``/``WL``,
             comments, handicap ``AB``, passes, 9×9 and 19×19, ~250 moves) vs a process
             that only parses them with sgfmill
``xml``      ``sodos standings FILE.xml --format json`` on OpenGotha files of 600 and 5 000
             players × 9 rounds vs a process that only parses the file with ElementTree
``memory``   the peak resident memory (``ru_maxrss``) of the 100 000-player h9 run

Targets: h9 5 000 ≥ 10×, 1 000 ≥ 3×, 100 000 reads and ranks; SGF ≥ 25×;
XML 5 000 ≤ 1.5× the parse; ``--version`` ≤ 2.5× ``python3 -c pass``; 100 000-player
h9 ≤ 300 MB.

Options: ``--runs N`` pairs per row (default 7; 20 000 players: 3; 100 000: 1),
``--quick`` small sizes and 2 runs (a smoke test), ``--data DIR`` keeps the generated
inputs (and the venv) there and reuses them, ``--json FILE`` writes the rows,
``--instructions`` also counts each side's instructions once under valgrind's
callgrind (a ratio the machine's load does not move; rows whose runs take more than
15 s are not counted), ``--in-place`` uses this environment's ``sodos`` instead of a
fresh regular install. Needs the ``bench`` extra (tiebreak-core); a missing baseline
is a skipped row, never a wrong ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

BASELINES = str(HERE / "baselines.py")
MB = 1_000_000


@dataclass
class Run:
    seconds: float
    cpu: float
    peak_kib: int
    status: int
    stderr: str = ""


@dataclass
class Row:
    name: str
    ours: list[Run] = field(default_factory=list)
    base: list[Run] = field(default_factory=list)
    baseline_name: str = ""
    #: "faster": target is baseline / ours >= target; "within": ours / baseline <= target
    mode: str = "faster"
    target: float | None = None
    note: str = ""
    skipped: str = ""
    failed: str = ""
    peak_target_mb: float | None = None
    #: instructions of one run of each side (``--instructions``: callgrind)
    ours_ir: int | None = None
    base_ir: int | None = None
    commands: tuple[list[str], list[str] | None] | None = None

    def ir_ratio(self) -> float | None:
        if not self.ours_ir or not self.base_ir:
            return None
        if self.mode == "faster":
            return self.base_ir / self.ours_ir
        return self.ours_ir / self.base_ir

    def as_dict(self) -> dict:
        d = {"name": self.name, "baseline": self.baseline_name, "mode": self.mode}
        d.update(target=self.target, note=self.note, skipped=self.skipped, failed=self.failed)
        for side, runs in (("ours", self.ours), ("base", self.base)):
            d[side] = [r.seconds for r in runs]
            d[side + "_cpu"] = [r.cpu for r in runs]
            d[side + "_peak_kib"] = [r.peak_kib for r in runs]
        d["ratio"] = self.ratio() if self.ours and self.base else None
        d.update(ours_ir=self.ours_ir, base_ir=self.base_ir, ir_ratio=self.ir_ratio())
        d["met"] = self.met()
        return d

    def ratios(self, cpu: bool = False) -> list[float]:
        """Paired ratios in the row's sense (baseline/ours, or ours/baseline)."""
        pick = (lambda r: r.cpu) if cpu else (lambda r: r.seconds)
        pairs = zip(map(pick, self.ours), map(pick, self.base))
        if self.mode == "faster":
            return [b / o for o, b in pairs]
        return [o / b for o, b in pairs]

    def ratio(self, cpu: bool = False) -> float:
        return statistics.median(self.ratios(cpu))

    def met(self) -> bool | None:
        if self.skipped or self.failed:
            return None if self.skipped else False
        checks = []
        if self.target is not None and self.base:
            r = self.ratio()
            checks.append(r >= self.target if self.mode == "faster" else r <= self.target)
        if self.peak_target_mb is not None:
            checks.append(self.peak_mb() <= self.peak_target_mb)
        return all(checks) if checks else None

    def peak_mb(self) -> float:
        return max(r.peak_kib for r in self.ours) * 1024 / MB


#: the children's environment: byte-code caches are written (a user's installed package
#: has them; with PYTHONDONTWRITEBYTECODE every run of an editable install would
#: compile every module again)
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(command: list[str], cwd: str, stdout=subprocess.DEVNULL) -> Run:
    """One process: wall time around start and reaping, its rusage from ``wait4``."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, stdout=stdout, stderr=err, env=CHILD_ENV)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped: tell Popen
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, process.returncode, text)


def compare(row: Row, ours: list[str], base: list[str] | None, runs: int, cwd: str) -> Row:
    """Pairs of runs in alternating order (the warm-up was done by the caller)."""
    row.commands = (ours, base)
    for i in range(runs):
        order = [("ours", ours), ("base", base)]
        if i % 2:
            order.reverse()
        for side, command in order:
            if command is None:
                continue
            done = run_once(command, cwd)
            if done.status != 0:
                who = "sodos" if side == "ours" else row.baseline_name
                row.failed = f"{who} exit {done.status}: {done.stderr.strip()[-300:]}"
                return row
            (row.ours if side == "ours" else row.base).append(done)
    return row


def warm_up(command: list[str], cwd: str, out: Path | None = None) -> Run:
    if out is None:
        return run_once(command, cwd)
    with out.open("wb") as handle:
        return run_once(command, cwd, stdout=handle)


REPO = HERE.parent
#: the interpreter whose environment runs both sides (set by :func:`prepare`)
PYTHON = sys.executable


def prepare(data: Path, in_place: bool) -> str:
    """The interpreter to run everything with: by default a venv under ``data`` holding a
    regular (non-editable) install of this working tree, as a user has it.

    An editable install (the developer's venv) adds a finder to every interpreter's
    start-up (it imports pathlib, re, urllib...: ~10 ms on an idle machine), which
    would inflate ``python3 -c pass`` and every process; ``--in-place`` accepts that.
    """
    if in_place:
        return sys.executable
    venv = data / "venv"
    python = venv / "bin" / "python"
    quiet = {"stdout": subprocess.DEVNULL}
    install = [str(python), "-m", "pip", "install", "-q", "--no-build-isolation"]
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q"]
        subprocess.run([*pip, "setuptools>=64", "wheel", "tiebreak-core>=1.2"], check=True, **quiet)
        subprocess.run([*install, str(REPO)], check=True, **quiet)  # with its dependencies
    else:  # the working tree is what is measured: reinstalled every run
        subprocess.run([*install, "--force-reinstall", "--no-deps", str(REPO)], check=True, **quiet)
    return str(python)


def sodos() -> list[str]:
    script = Path(PYTHON).parent / "sodos"
    if not script.exists():
        raise SystemExit(f"no sodos command beside {PYTHON} (pip install -e '.[bench]')")
    return [str(script)]


def has_tiebreak_core() -> bool:
    probe = [PYTHON, "-c", "import tiebreak_core"]
    return subprocess.run(probe, capture_output=True).returncode == 0


def instructions(command: list[str], cwd: str) -> int | None:
    """Instructions one run executes (valgrind's callgrind: the same count on a busy
    machine as on an idle one), or None when valgrind is missing or the run fails."""
    tool = shutil.which("valgrind")
    if tool is None:
        return None
    probe = [tool, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    done = subprocess.run(probe, cwd=cwd, capture_output=True, text=True, env=CHILD_ENV)
    found = [line for line in done.stderr.splitlines() if "Collected :" in line]
    return int(found[-1].split()[-1]) if done.returncode == 0 and found else None


def count_instructions(rows: list[Row], cwd: str, limit: float = 15.0) -> None:
    """``--instructions``: one callgrind run per side of each row whose runs took at
    most ``limit`` seconds (callgrind runs ~50x slower)."""
    for row in rows:
        if row.commands is None or not row.ours or not row.base:
            continue
        if max(r.seconds for r in row.ours + row.base) > limit:
            row.note = (row.note + "; " if row.note else "") + "not counted (too slow)"
            continue
        ours, base = row.commands
        row.ours_ir = instructions(ours, cwd)
        row.base_ir = instructions(base, cwd) if base else None


# -- groups -----------------------------------------------------------------------------


def bench_startup(runs: int, cwd: str) -> list[Row]:
    floor = [PYTHON, "-c", "pass"]
    rows = []
    targets = {"--version": 2.5}
    for args in (["--version"], ["--help"], ["plugins"]):
        row = Row(f"sodos {' '.join(args)}", baseline_name="python3 -c pass", mode="within")
        row.target = targets.get(args[0])
        first = warm_up([*sodos(), *args], cwd)
        warm_up(floor, cwd)
        if first.status != 0:
            row.failed = f"exit {first.status}: {first.stderr.strip()[-300:]}"
        else:
            compare(row, [*sodos(), *args], floor, runs, cwd)
        rows.append(row)
    return rows


def in_child(module: str, function: str, *args: object) -> str:
    """``module.function(*args)`` (a module of benchmarks/) in a child process; its
    printed result. Generating inputs and checking outputs (a 100 000-row JSON document)
    would grow this process, and every later child's ``ru_maxrss`` starts from its
    parent's resident size at ``fork``: the measured processes stay small that way."""
    code = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
        f"import {module} as m; r = m.{function}(*[Path(a) if '/' in a else int(a) "
        "if a.isdigit() else a for a in sys.argv[2:]]); print(r if isinstance(r, str) else '')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(HERE), *map(str, args)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{module}.{function} failed: {done.stderr[-2000:]}")
    return done.stdout.strip()


def parent_peak_mb() -> float:
    """This process's own peak resident memory (a floor of every child's ru_maxrss)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / MB


def check_h9_values(ours: Path, theirs: Path) -> str:
    """'' when every player's NBW/SOS/SODOS equal tiebreak-core's points/BH/SB."""
    mine = {r["player"]["name"]: r["values"] for r in json.loads(ours.read_text())["standings"]}
    rows = json.loads(theirs.read_text())["standings"]
    if len(rows) != len(mine):
        return f"{len(mine)} players in ours, {len(rows)} in tiebreak-core's"
    for r in rows:
        v = mine.get(r["name"])
        expected = (float(r["points"]), float(r["buchholz"]), float(r["sonneborn_berger"]))
        if v is None or (v["NBW"], v["SOSW"], v["SODOSW"]) != expected:  # a Swiss h9
            return f"values differ for {r['name']}: {v} vs {expected}"
    return ""


def bench_h9(sizes: list[int], runs: int, data: Path, cwd: str, memory: bool) -> list[Row]:
    rows = []
    tbc = has_tiebreak_core()
    for players in sizes:
        path = data / f"swiss-{players}x9.h9"
        if not path.exists():
            in_child("generate", "write_h9", path, players, 9)
        n = runs if players <= 5000 else max(1, runs // 3) if players <= 20000 else 1
        row = Row(f"h9 -> JSON, {players:,} x 9 Swiss", baseline_name="tiebreak-core process")
        row.target = {1000: 3.0, 5000: 10.0}.get(players)
        if memory and players == max(sizes):
            row.peak_target_mb = 300
        ours = [*sodos(), "standings", str(path), "--format", "json"]
        base = [PYTHON, BASELINES, "tiebreak-core", str(path)] if tbc else None
        mine = warm_up(ours, cwd, data / "ours.json")
        if mine.status != 0:
            row.failed = f"sodos exit {mine.status}: {mine.stderr.strip()[-300:]}"
            rows.append(row)
            continue
        if base is None:
            row.skipped = "tiebreak-core not installed (bench extra): sodos timed alone"
        else:
            theirs = warm_up(base, cwd, data / "theirs.json")
            outputs = data / "ours.json", data / "theirs.json"
            problem = in_child("processes", "check_h9_values", *outputs)
            if theirs.status != 0 or problem:
                row.failed = problem or f"tiebreak-core exit {theirs.status}: {theirs.stderr}"
                rows.append(row)
                continue
            row.note = "values equal"
        rows.append(compare(row, ours, base, n, cwd))
    return rows


def bench_sgf(records: int, runs: int, data: Path, cwd: str) -> list[Row]:
    """One row with ``--jobs 1``, one as users run it (every core: this process and a
    worker per other core)."""
    folder = data / f"server-sgf-{records}"
    if not folder.exists():
        in_child("generate", "write_server_records", folder, records)
    files = sum(1 for _ in folder.rglob("*.sgf"))
    size = sum(p.stat().st_size for p in folder.rglob("*.sgf")) / files
    base = [PYTHON, BASELINES, "sgfmill", str(folder)]
    warm_up(base, cwd)
    runs = max(1, runs // 2) if records > 1000 else runs  # the baseline takes seconds
    rows = []
    cores = os.cpu_count() or 1
    for jobs, flags in (("--jobs 1", ["--jobs", "1"]), (f"default: {cores} cores", [])):
        row = Row(
            f"SGF folder -> JSON, {files:,} server-style records ({size / 1024:.1f} KiB), {jobs}",
            baseline_name="sgfmill parse-only process",
            target=25.0,
        )
        ours = [*sodos(), "standings", str(folder), "--format", "json", *flags]
        mine = warm_up(ours, cwd)
        if mine.status != 0:
            row.failed = f"sodos exit {mine.status}: {mine.stderr.strip()[-300:]}"
            rows.append(row)
            continue
        if mine.stderr.strip():
            row.note = f"stderr: {mine.stderr.strip()[:120]}"
        rows.append(compare(row, ours, base, runs, cwd))
    return rows


def bench_xml(sizes: list[int], runs: int, data: Path, cwd: str) -> list[Row]:
    rows = []
    for players in sizes:
        path = data / f"opengotha-{players}x9.xml"
        if not path.exists():
            in_child("generate", "write_opengotha_xml", path, players, 9)
        row = Row(
            f"OpenGotha XML -> JSON, {players:,} x 9 McMahon",
            baseline_name="ElementTree parse-only process",
            mode="within",
            target=1.5 if players == 5000 else None,
        )
        ours = [*sodos(), "standings", str(path), "--format", "json"]
        base = [PYTHON, BASELINES, "etree", str(path)]
        mine = warm_up(ours, cwd)
        warm_up(base, cwd)
        if mine.status != 0:
            row.failed = f"sodos exit {mine.status}: {mine.stderr.strip()[-300:]}"
            rows.append(row)
            continue
        rows.append(compare(row, ours, base, runs, cwd))
    return rows


# -- table ------------------------------------------------------------------------------


def show(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def cell(runs: list[Run]) -> str:
    if not runs:
        return ""
    times = [r.seconds for r in runs]
    if len(times) == 1:
        return show(times[0])
    return f"{show(min(times))} / {show(statistics.median(times))}"


def table(rows: list[Row]) -> str:
    counted = any(row.ir_ratio() is not None for row in rows)
    lines = [
        "| what the user runs | sodos min / median | baseline min / median "
        "| ratio: median (range) | CPU ratio | target | met |",
        "|---|---:|---|---:|---:|---|---|",
    ]
    if counted:
        lines[0] = lines[0].replace("| CPU ratio |", "| CPU ratio | instructions ratio |")
        lines[1] = "|---|---:|---|---:|---:|---:|---|---|"
    for row in rows:
        met = {True: "yes", False: "**no**", None: ""}[row.met()]
        if row.failed:
            blank = "| | | | |" + (" |" if counted else "")
            lines.append(f"| {row.name} | failed: {row.failed} {blank} {met} |")
            continue
        base = f"{row.baseline_name}: {cell(row.base)}" if row.base else row.skipped
        ratio = cpu = ""
        if row.ours and row.base:
            rs = row.ratios()
            sign = "" if row.mode == "faster" else "sodos = "
            ratio = f"{sign}{row.ratio():.2f}x ({min(rs):.2f}-{max(rs):.2f})"
            cpu = f"{row.ratio(cpu=True):.2f}x"
        targets = []
        if row.target is not None:
            targets.append(
                f">= {row.target:g}x" if row.mode == "faster" else f"<= {row.target:g}x baseline"
            )
        ours = cell(row.ours)
        if row.peak_target_mb is not None:
            ours += f", peak {row.peak_mb():.0f} MB (this script's own: {parent_peak_mb():.0f} MB)"
            targets.append(f"peak <= {row.peak_target_mb:g} MB")
        if row.note:
            ours += f" ({row.note})"
        if counted:
            ir = row.ir_ratio()
            cpu += " | " + ("" if ir is None else f"{ir:.2f}x")
        lines.append(
            f"| {row.name} | {ours} | {base} | {ratio} | {cpu} | {', '.join(targets)} | {met} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    groups = ["startup", "h9", "sgf", "xml", "memory"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", metavar="GROUP", help=", ".join(groups) + " (all)")
    parser.add_argument("--runs", type=int, help="pairs per row (default 7, --quick 2)")
    parser.add_argument("--quick", action="store_true", help="small sizes, 2 runs (smoke)")
    parser.add_argument("--data", type=Path, help="keep generated inputs here (reused)")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count each side's instructions once with valgrind (callgrind): "
        "a ratio that does not move with the machine's load",
    )
    parser.add_argument(
        "--in-place",
        action="store_true",
        help="use this environment's sodos (e.g. an editable install) instead of a fresh "
        "regular install of the working tree in a venv under --data",
    )
    args = parser.parse_args(argv)
    chosen = args.groups or groups
    unknown = set(chosen) - set(groups)
    if unknown:
        parser.error(f"unknown group(s) {', '.join(sorted(unknown))} (known: {', '.join(groups)})")
    runs = args.runs or (2 if args.quick else 7)
    h9_sizes = [200, 1000] if args.quick else [1000, 5000, 20000, 100000]
    if "memory" in chosen and "h9" not in chosen:
        h9_sizes = h9_sizes[-1:]
    xml_sizes = [100, 600] if args.quick else [600, 5000]
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="sodos-proc-") as tmp:
        data = args.data or Path(tmp) / "data"
        data.mkdir(parents=True, exist_ok=True)
        cwd = Path(tmp) / "cwd"
        cwd.mkdir()
        global PYTHON
        PYTHON = prepare(data, args.in_place)
        print(f"# interpreter: {PYTHON}", file=sys.stderr)
        steps = {
            "startup": lambda: bench_startup(runs * 2, str(cwd)),
            "h9": lambda: bench_h9(h9_sizes, runs, data, str(cwd), "memory" in chosen),
            "sgf": lambda: bench_sgf(300 if args.quick else 6000, runs, data, str(cwd)),
            "xml": lambda: bench_xml(xml_sizes, runs, data, str(cwd)),
        }
        if "memory" in chosen and "h9" not in chosen:
            steps["memory"] = lambda: bench_h9(h9_sizes, 1, data, str(cwd), True)
        for name, step in steps.items():
            if name not in chosen:
                continue
            start = time.perf_counter()
            done = step()
            if args.instructions:
                count_instructions(done, str(cwd))
            rows.extend(done)
            print(f"# {name} done in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps([r.as_dict() for r in rows], indent=1))
    return 0 if all(not r.failed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
