"""Per-file isolation under random bytes: one damaged file is that file's rejection, nothing more.

Valid records (SGF records of the repository's sample and the shared data, the h9 and
OpenGotha XML conformance files, and generated ones) get random bytes inserted,
overwritten or deleted at random places. Each damaged file is read as a user would:

* **SGF**: in a folder beside three good records of the same event, read with
  ``--skip-bad`` semantics (``Host.read(..., skip_bad=True)``). The good records must
  be ingested; the damaged one ingested, excluded or rejected *with a reason*; a
  run-level error is accepted only when it names the damaged file (a contradiction
  with it).
* **h9, XML**: alone. A tournament, or an ``InputError`` naming the file.

Then the tournament read is ranked and written by every built-in writer; that must not
fail either (an ``InputError``, e.g. a McMahon event without ranks, is an answer).

Anything else is a failure: a ``PluginError`` ("plugin 'builtin.sgf' failed"), any
other exception, ``MemoryError`` under the address-space limit, or a case that takes
longer than ``--case-timeout`` (a hang). Failures are printed with the seed and case
number and their input is kept in ``--keep``. A sample of the cases also runs as the
whole ``sodos`` command in a child process (limits on time and memory), whose stderr
must hold no traceback, no internal error and no plugin failure.

Run: ``python benchmarks/fuzz_isolation.py`` (``--cases``, ``--seconds``, ``--seed``);
``benchmarks/fuzz.py`` runs it as its third part. Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sodos_plugin import Host
from sodos_plugin.errors import ConfigError, InputError, PluginError

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SODOS_SHARED_DATA", ROOT.parent / "shared" / "data"))
MEMORY_LIMIT = 2 << 30
WRITERS = ("table", "csv", "json", "html", "h9")
#: Bytes that matter to the formats, then any byte.
STRUCTURAL = b"[]();\\\n\r\t <>&\"'=+-/!?|.,0123456789wbBWdkp\x00\xff\xc3\xa9\xbd"


class Hang(Exception):
    """The case ran past its time limit."""


@dataclass
class Tally:
    cases: int = 0
    outcomes: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


# -- seeds ----------------------------------------------------------------------------------


def generated_sgf(i: int) -> bytes:
    return (
        f"(;FF[4]GM[1]SZ[19]CA[UTF-8]EV[Fuzz Cup]RO[{1 + i % 5}]PB[Black {i}]PW[White {i}]"
        f"BR[{1 + i % 9}k]WR[{1 + i % 7}d]HA[{i % 3}]KM[6.5]RE[{'BW'[i % 2]}+R]"
        f"DT[2024-05-0{1 + i % 9}];B[pd]BL[300];W[dp]WL[299];B[pp]C[comment {i}];W[]"
        ")\n"
    ).encode()


def generated_h9() -> bytes:
    lines = ["; EV[Fuzz h9]", "; HA[h1]", "; Pl Name Rk Co Club MMS SOS SOSOS"]
    for i in range(12):
        won = i % 2 == 0
        token = f"{(i ^ 1) + 1}{'+' if won else '-'}/{'w' if won else 'b'}{i // 2 % 3}"
        lines.append(f"{i + 1:>4} Player{i} Name{i} {1 + i}k FR Club{i % 3} {20 - i} 30 60 {token}")
    return ("\n".join(lines) + "\n").encode()


def generated_xml() -> bytes:
    players = "".join(
        f'<Player name="N{i}" firstName="F{i}" rank="{1 + i}K" participating="11" '
        f'country="FR" club="C" rating="100" registeringStatus="FIN"/>'
        for i in range(6)
    )
    games = "".join(
        f'<Game blackPlayer="N{b}F{b}" whitePlayer="N{b + 1}F{b + 1}" '
        f'result="RESULT_{"WHITE" if b % 4 else "BLACK"}WINS" roundNumber="{r}" '
        f'handicap="{b % 3}" knownColor="true" tableNumber="1"/>'
        for r in (1, 2)
        for b in (0, 2, 4)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Tournament dataVersion="201">'
        f"<Players>{players}</Players><Games>{games}</Games><TournamentParameterSet>"
        '<GeneralParameterSet genMMBar="9D" genMMFloor="30K" genMMZero="30K" '
        'numberOfRounds="2" name="x" shortName="x"/><PlacementParameterSet>'
        '<PlacementCriteria><PlacementCriterion name="MMS" number="1"/>'
        '<PlacementCriterion name="SOSM" number="2"/><PlacementCriterion name="DC" number="3"/>'
        "</PlacementCriteria></PlacementParameterSet></TournamentParameterSet></Tournament>\n"
    ).encode()


def seeds() -> dict[str, list[tuple[str, bytes]]]:
    """(label, bytes) of valid inputs per format: the repository's, shared data's, made."""
    found: dict[str, list[tuple[str, bytes]]] = {"sgf": [], "h9": [], "xml": []}
    for path in sorted((ROOT / "sample_sgf").rglob("*.sgf")):
        found["sgf"].append((str(path.relative_to(ROOT)), path.read_bytes()))
    if SHARED.is_dir():
        for path in sorted((SHARED / "sgf").rglob("*.sgf")):
            if "malformed" not in path.parts and path.stat().st_size < 1 << 20:
                found["sgf"].append((f"shared/{path.relative_to(SHARED)}", path.read_bytes()))
        go = SHARED / "conformance" / "go"
        for path in sorted(go.glob("*.h9")):
            found["h9"].append((f"shared/{path.relative_to(SHARED)}", path.read_bytes()))
        for path in [*sorted(go.glob("*.xml")), *sorted((SHARED / "conformance" / "opengotha"
                     / "minimal").glob("*.xml"))[:20]]:  # fmt: skip
            found["xml"].append((f"shared/{path.relative_to(SHARED)}", path.read_bytes()))
    found["sgf"] += [(f"generated sgf {i}", generated_sgf(i)) for i in range(5)]
    found["h9"].append(("generated h9", generated_h9()))
    found["xml"].append(("generated xml", generated_xml()))
    return found


# -- mutation ---------------------------------------------------------------------------------


def random_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(
        rng.choice(STRUCTURAL) if rng.random() < 0.6 else rng.randrange(256) for _ in range(n)
    )


def mutate(data: bytes, rng: random.Random) -> bytes:
    """A few edits (mostly one or two, so that most files stay nearly valid and the
    damage reaches deep): insert, overwrite or delete 1-16 bytes at random places."""
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 1, 2, 2, 3, 8))):
        at = rng.randrange(len(out) + 1)
        n = rng.choice((1, 1, 1, 2, 3, 4, 16))
        kind = rng.random()
        if kind < 0.4:
            out[at:at] = random_bytes(rng, n)
        elif kind < 0.8:
            out[at : at + n] = random_bytes(rng, n)
        else:
            del out[at : at + n]
    return bytes(out)


# -- one case ---------------------------------------------------------------------------------


def _alarm(signum, frame):  # noqa: ARG001 - signal handler signature
    raise Hang()


def rank_and_write(host: Host, tournament) -> None:
    """Downstream of a successful read: rank, then render in every built-in format."""
    try:
        standings = host.standings(tournament)
    except (InputError, ConfigError):
        return
    for fmt in WRITERS:
        with contextlib.suppress(InputError, ConfigError):
            host.render(standings, fmt)


def sgf_case(folder: Path, damaged: bytes, event: str | None) -> str:
    """The damaged record among three good ones; returns the outcome, raises on a failure."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    ev = f"EV[{event}]" if event is not None else ""
    for i in range(3):
        (folder / f"good{i}.sgf").write_bytes(
            f"(;GM[1]FF[4]{ev}RO[1]PB[Good B{i}]PW[Good W{i}]BR[3k]WR[3k]RE[B+R];B[pd])".encode()
        )
    bad = folder / "damaged.sgf"
    bad.write_bytes(damaged)
    config = {"plugin": {"builtin.sgf": {"event": event}}} if event is not None else {}
    host = Host(config, config_file=False, entry_points=False)
    try:
        result = host.read([folder], skip_bad=True, jobs=1)
    except (InputError, ConfigError) as error:
        if str(bad) in str(error):
            return "run error naming it"
        raise AssertionError(f"run-level error not naming the damaged file: {error}") from None
    status = {Path(r.path).name: (r.status, r.reason) for r in result.files}
    for i in range(3):
        got = status.get(f"good{i}.sgf")
        if got is None or got[0] != "ingested":
            raise AssertionError(f"good record {i} not ingested: {got}")
    mine = status.get("damaged.sgf")
    if mine is None:
        raise AssertionError("the damaged file has no report")
    if mine[0] != "ingested" and not mine[1]:
        raise AssertionError(f"{mine[0]} without a reason")
    rank_and_write(host, result.tournament)
    return mine[0]


def file_case(path: Path, damaged: bytes) -> str:
    path.write_bytes(damaged)
    host = Host(config_file=False, entry_points=False)
    try:
        result = host.read([path])
    except (InputError, ConfigError) as error:
        if not str(error).startswith(str(path)):
            raise AssertionError(f"error not naming the file: {error}") from None
        return "rejected"
    rank_and_write(host, result.tournament)
    return "ingested"


def run_case(function: Callable[[], str], timeout: float) -> tuple[str, str | None]:
    """(outcome, failure or None)."""
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        return function(), None
    except Hang:
        return "failure", f"no answer within {timeout} s"
    except PluginError as error:
        return "failure", f"plugin failure: {error}"
    except AssertionError as error:
        return "failure", str(error)
    except MemoryError:
        return "failure", "MemoryError"
    except Exception as error:  # noqa: BLE001 - any other exception is the finding
        return "failure", f"{type(error).__name__}: {error}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def whole_process(target: Path, timeout: float) -> str | None:
    """The command on one input; a failure text or None."""

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    try:
        done = subprocess.run(
            [sys.executable, "-m", "sodos_plugin.cli", "standings", str(target), "--skip-bad",
             "--format", "json", "--no-entry-points", "--jobs", "1"],
            capture_output=True, text=True, timeout=timeout, preexec_fn=limits,
            env={k: v for k, v in os.environ.items() if k != "SODOS_DEBUG"},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return f"the command ran past {timeout} s"
    for bad in ("Traceback", "internal error", "failed in", "MemoryError"):
        if bad in done.stderr:
            return f"stderr holds {bad!r}: {done.stderr[-500:]}"
    if done.returncode not in (0, 2):
        return f"exit status {done.returncode}"
    return None


# -- the run ---------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(args.seed)
    found = seeds()
    tallies = {kind: Tally() for kind in found}
    keep = Path(args.keep) if args.keep else None
    deadline = time.monotonic() + args.seconds
    processes = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for case in range(args.cases):
            if time.monotonic() > deadline:
                break
            for kind, seeds_of_kind in found.items():
                label, data = rng.choice(seeds_of_kind)
                damaged = mutate(data, rng)
                tally = tallies[kind]
                tally.cases += 1
                if kind == "sgf":
                    match = re.search(rb"EV\[([^\]\\]*)\]", data)
                    event = match.group(1).decode("utf-8", "replace") if match else None
                    folder = work / "games"
                    outcome, failure = run_case(
                        lambda f=folder, d=damaged, e=event: sgf_case(f, d, e), args.case_timeout
                    )
                    target = folder
                else:
                    target = work / f"input.{kind}"
                    outcome, failure = run_case(
                        lambda t=target, d=damaged: file_case(t, d), args.case_timeout
                    )
                if failure is None and processes < args.processes and rng.random() < 0.1:
                    processes += 1
                    failure = whole_process(target, args.case_timeout * 3)
                    outcome = "failure" if failure else outcome
                tally.outcomes[outcome] += 1
                if failure is not None:
                    text = f"seed {args.seed} case {case} ({kind}, from {label}): {failure}"
                    tally.failures.append(text)
                    if keep is not None:
                        keep.mkdir(parents=True, exist_ok=True)
                        (keep / f"case{case}.{kind}").write_bytes(damaged)
    print(f"{'format':<8} {'cases':>6}  outcomes")
    failed = False
    for kind, tally in tallies.items():
        shown = ", ".join(f"{name} {count}" for name, count in sorted(tally.outcomes.items()))
        print(f"{kind:<8} {tally.cases:>6}  {shown}")
        for text in tally.failures[:20]:
            print(f"  FAILURE {text}")
        failed = failed or bool(tally.failures)
    print(f"whole-process runs: {processes}")
    print("isolation: " + ("FAILED" if failed else "ok (every damaged file answered alone)"))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=400, help="cases per format")
    parser.add_argument("--seconds", type=float, default=120, help="stop after this long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--case-timeout", type=float, default=10)
    parser.add_argument("--processes", type=int, default=12, help="whole-process runs")
    parser.add_argument("--keep", help="folder for the inputs of failing cases")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
