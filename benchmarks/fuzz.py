"""Long fuzzing and the linear-time check for every parser that reads untrusted input.

Three parts:

1. ``--examples N`` (default 3000): runs the hypothesis fuzz tests of the suite
   (tests/readers/test_fuzz.py, tests/config/test_config_fuzz.py,
   tests/faces/cli/test_command_line_fuzz.py) with N
   random examples each instead of the suite's bounded, derandomized count.
2. Size doubling: each parser is fed adversarial inputs of size n, 2n, 4n, 8n
   (unterminated values, runs of backslashes, thousands of properties or games,
   deep nesting, huge rows...). The time of the largest over the time of the size
   half as big must stay near 2 (linear); a ratio above 3 is reported as
   SUPER-LINEAR. No thresholds in the test suite: timings belong here.
3. Per-file isolation (``benchmarks/fuzz_isolation.py``): random bytes inside valid SGF,
   h9 and XML records; each damaged file must be a per-file answer (ingested, or
   rejected with its reason), never a plugin failure, a traceback or a hang, with the
   good records beside it still read. ``--isolation-cases N`` per format (0 skips it).

Run: ``python benchmarks/fuzz.py`` (``--skip-hypothesis``, ``--skip-doubling`` to run
fewer parts).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sodos_plugin.config.settings import load_file, parse_override, resolve
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.readers import h9, opengotha_xml
from sodos_plugin.readers.sgf.ingest import ingest_bytes
from sodos_plugin.readers.sgf.results import parse_result

ROOT = Path(__file__).resolve().parent.parent


def _sgf(data: bytes) -> None:
    ingest_bytes(data, "fuzz.sgf")


def _re(text: str) -> None:
    parse_result.__wrapped__(text)  # bypass the cache: time the parse itself


def _file_reader(reader: Callable, suffix: str) -> Callable[[bytes], None]:
    def run(data: bytes) -> None:
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / f"input{suffix}"
            path.write_bytes(data)
            with contextlib.suppress(InputError, ConfigError):
                reader(path)

    return run


def _config(data: bytes) -> None:
    def load(path: Path) -> None:
        resolve([(str(path), load_file(path))])

    _file_reader(load, ".toml")(data)


def _override(text: str) -> None:
    with contextlib.suppress(ConfigError):
        resolve([("-o", parse_override(text))])


def _h9_rows(n: int) -> bytes:
    lines = ["; EV[Big]", "; Pl Name Rk Co Club NBW SOS"]
    for i in range(n):
        opponent = (i ^ 1) + 1
        lines.append(f"{i + 1} P{i} Q 1k FR Par 1 1 {opponent}{'+-'[i % 2]}/{'wb'[i % 2]}")
    return "\n".join(lines).encode()


def _xml_players(n: int) -> bytes:
    players = "".join(
        f'<Player name="N{i}" firstName="F" rank="1k" participating="1" />' for i in range(n)
    )
    return (
        f'<?xml version="1.0"?><Tournament><Players>{players}</Players><Games></Games></Tournament>'
    ).encode()


#: (name, function, input maker for size n, base n)
CASES: list[tuple[str, Callable, Callable[[int], object], int]] = [
    ("SGF unterminated value", _sgf, lambda n: b"(;PB[" + b"a" * n, 250_000),
    ("SGF value of backslashes", _sgf, lambda n: b"(;PB[" + b"\\" * n + b"]RE[B+R])", 250_000),
    ("SGF escaped brackets", _sgf, lambda n: b"(;PB[" + b"\\]" * n + b"RE[B+R])", 125_000),
    ("SGF many root properties", _sgf, lambda n: b"(;" + b"XA[1]" * n + b"RE[B+R])", 50_000),
    ("SGF unclosed properties", _sgf, lambda n: b"(;RE[B+R]" + b"XA[1]" * n, 50_000),
    ("SGF many moves", _sgf, lambda n: b"(;RE[B+R]PB[a]PW[b]" + b";B[aa]" * n + b")", 50_000),
    ("SGF moves, no end", _sgf, lambda n: b"(;RE[B+R]" + b";B[aa]" * n, 50_000),
    ("SGF nested variations", _sgf, lambda n: b"(;RE[B+R]" + b"(;B[aa]" * n + b")" * (n + 1),
     20_000),  # fmt: skip
    ("SGF many games", _sgf, lambda n: b"(;RE[B+R]PB[a]PW[b])" * n, 10_000),
    ("SGF whitespace", _sgf, lambda n: b"(;RE[B+R]" + b" " * n + b";B[aa])", 250_000),
    ("SGF lone parentheses", _sgf, lambda n: b"(" * n, 100_000),
    ("RE long margin", _re, lambda n: "B+" + "1" * n, 100_000),
    ("RE long text", _re, lambda n: "黒中押し勝ち " * n, 20_000),
    ("h9 many rows", _file_reader(h9.read_path, ".h9"), _h9_rows, 1_000),  # opp <= 9999
    ("h9 long row", _file_reader(h9.read_path, ".h9"),
     lambda n: b"; Pl Name Rk Co Club NBW\n1 A" + b" x" * n, 100_000),  # fmt: skip
    ("XML many players", _file_reader(opengotha_xml.read_path, ".xml"), _xml_players, 5_000),
    ("XML deep nesting", _file_reader(opengotha_xml.read_path, ".xml"),
     lambda n: b"<Tournament>" + b"<a>" * n + b"</a>" * n + b"</Tournament>", 20_000),
    ("config long line", _config, lambda n: b'criteria = "' + b"NBW," * n + b'"', 20_000),
    ("config many keys", _config, lambda n: b"".join(b"k%d = 1\n" % i for i in range(n)), 20_000),
    ("-o long value", _override, lambda n: "criteria=" + "[" * n, 20_000),
]  # fmt: skip


def timed(function: Callable, data: object, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function(data)
        best = min(best, time.perf_counter() - start)
    return best


def doubling(factor_limit: float = 3.0) -> bool:
    """Print each case's times at n, 2n, 4n, 8n; True when every case looks linear."""
    print(f"{'case':<28} {'n':>9} {'t(n)':>9} {'t(2n)':>9} {'t(4n)':>9} {'t(8n)':>9}  ratio")
    ok = True
    for name, function, make, n in CASES:
        times = [timed(function, make(n * k)) for k in (1, 2, 4, 8)]
        ratio = times[-1] / max(times[-2], 1e-6)
        verdict = "" if ratio <= factor_limit else "  SUPER-LINEAR"
        ok = ok and not verdict
        cells = " ".join(f"{t * 1000:8.1f}ms" for t in times)
        print(f"{name:<28} {n:>9} {cells}  {ratio:4.2f}{verdict}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--skip-hypothesis", action="store_true")
    parser.add_argument("--skip-doubling", action="store_true")
    parser.add_argument("--isolation-cases", type=int, default=400)
    parser.add_argument("--isolation-seconds", type=float, default=120)
    args = parser.parse_args(argv)
    status = 0
    if not args.skip_hypothesis:
        env = dict(os.environ, SODOS_FUZZ_EXAMPLES=str(args.examples))
        tests = [
            "tests/readers/test_fuzz.py",
            "tests/config/test_config_fuzz.py",
            "tests/faces/cli/test_command_line_fuzz.py",
        ]
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
            cwd=ROOT,
            env=env,
        )
        status |= done.returncode
    if not args.skip_doubling and not doubling():
        status |= 1
    if args.isolation_cases:
        done = subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "fuzz_isolation.py"),
             "--cases", str(args.isolation_cases), "--seconds", str(args.isolation_seconds)],
            cwd=ROOT,
        )  # fmt: skip
        status |= done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
