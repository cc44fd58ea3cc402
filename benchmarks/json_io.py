"""Reading and writing JSON, each beside the json module in the same run (one process).

For each size (default 200 and 2 000 players, 7 rounds: ``serve.py``'s generated McMahon
tournament, with ids, ranks and a bye a round):

* **reading**: ``json_tournament.parse`` (bytes → a checked ``Tournament``) against
  ``json.loads`` of the same bytes (bytes → dicts, nothing checked); also shown: msgspec's
  decode of the same bytes into plain objects, the floor of any decoder. Target: ≤ 2×.
* **writing**: the JSON writer (``host.render(standings, "json")``: the standings
  document built and encoded, the text ``sodos standings --format json`` prints)
  against ``json.dumps`` of the same document (``standings.as_dict()``, compact). Target:
  ≤ 2×. Also shown: the standings themselves (``host.standings``).

Every side is timed in turn, ``--repeat`` rounds, each the best of ``--number`` calls,
with the garbage collector paused as the command and the service pause it; printed: the
best time of each side and the ratio of the best times. Usage::

    python benchmarks/json_io.py
    python benchmarks/json_io.py --sizes 200 --repeat 3      # a smoke run
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve import tournament  # noqa: E402  (the same generated tournament)

from sodos_plugin import Host  # noqa: E402
from sodos_plugin.readers import json_tournament  # noqa: E402


def best(function: Callable[[], object], number: int) -> float:
    """The best time of ``number`` calls, in seconds."""
    times = []
    for _ in range(number):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def measure(sides: dict[str, Callable[[], object]], number: int, repeat: int) -> dict[str, float]:
    """Each side's best time over ``repeat`` interleaved rounds."""
    found = {name: float("inf") for name in sides}
    for _ in range(repeat):
        for name, function in sides.items():
            found[name] = min(found[name], best(function, number))
    return found


def line(label: str, ours: float, baseline_label: str, baseline: float, target: float) -> bool:
    ratio = ours / baseline
    met = ratio <= target
    print(
        f"{label:<34} {ours * 1000:9.3f} ms   {baseline_label:<26} {baseline * 1000:9.3f} ms   "
        f"{ratio:5.2f}x  (target <= {target:g}x: {'met' if met else 'not met'})"
    )
    return met


def one_size(host: Host, players: int, rounds: int, repeat: int) -> list[bool]:
    """Reading and writing one generated tournament; whether each target is met."""
    body = json.dumps(tournament(players, rounds)).encode()
    number = max(3, 20_000 // players)
    read, warnings = json_tournament.parse(body, "bench")
    standings = host.standings(read, warnings=warnings)
    document = standings.as_dict()
    text = host.render(standings, "json")
    assert json.loads(text) == document  # the same document on both sides
    paused = gc.isenabled()
    gc.disable()
    try:
        times = measure(
            {
                "parse": lambda: json_tournament.parse(body, "bench"),
                "loads": lambda: json.loads(body),
                "msgspec": lambda: msgspec.json.decode(body),
                "standings": lambda: host.standings(read, warnings=warnings),
                "write": lambda: host.render(standings, "json"),
                "dumps": lambda: json.dumps(document, ensure_ascii=False),
            },
            number,
            repeat,
        )
    finally:
        if paused:
            gc.enable()
    print(
        f"\n{players} players x {rounds} rounds: {len(body)} bytes in, "
        f"{len(text.encode())} bytes out"
    )
    met = [line("reading: json_tournament.parse", times["parse"], "json.loads", times["loads"], 2)]
    print(f"{'':<34} {'':>12}   {'msgspec decode (no types)':<26} "
          f"{times['msgspec'] * 1000:9.3f} ms")  # fmt: skip
    met.append(line("writing: the JSON writer", times["write"], "json.dumps", times["dumps"], 2))
    print(f"{'standings (host.standings)':<34} {times['standings'] * 1000:9.3f} ms")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 2000])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    host = Host(config_file=False, entry_points=False)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"python {sys.version.split()[0]}, msgspec {msgspec.__version__}, "
        f"{os.cpu_count()} cores, load average {load:.2f}"
    )
    results = []
    for players in args.sizes:
        results += one_size(host, players, args.rounds, args.repeat)
    del results  # met or not, printed: a benchmark reports, it does not fail
    return 0


if __name__ == "__main__":
    sys.exit(main())
