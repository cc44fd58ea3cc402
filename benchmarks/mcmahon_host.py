"""Cost of pairing by sodos's order inside `mcmahon` 0.3.0 (docs/adapters/mcmahon_adapter.py).

The same seeded tournament (players, and results drawn from the seed, the round and the
two players) is paired round by round by the host's own ``make_pairing``: once by the
host alone (``mcmahon.tournament.Tournament``), once through the adapter
(``SodosTournament``: sodos's standings once per round state), in turn, in this one run;
best of ``--repeat`` each, and the ratio. ``--naive`` adds the straightforward subclass
that asks sodos on every ``sorted_participants`` call (the host calls it for every
candidate pair), to show what the cache saves.

Runs on Python 3.10 only, with the host installed (it declares ``Requires-Python
<3.11``)::

    pip install --target /tmp/mcmahon-host mcmahon==0.3.0 scipy
    PYTHONPATH=/tmp/mcmahon-host python3.10 benchmarks/mcmahon_host.py --players 30 --rounds 5
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
import warnings
from pathlib import Path

ADAPTER = Path(__file__).resolve().parent.parent / "docs" / "adapters" / "mcmahon_adapter.py"


def load_adapter():
    """The docs' adapter module; exits saying why when the host is not importable."""
    try:
        import mcmahon.tournament  # noqa: F401
    except ImportError as error:
        sys.exit(
            f"benchmarks/mcmahon_host.py needs the mcmahon 0.3.0 pairer (Python 3.10 only): "
            f"{error}; pip install --target DIR mcmahon==0.3.0 scipy, then PYTHONPATH=DIR"
        )
    spec = importlib.util.spec_from_file_location("mcmahon_adapter", ADAPTER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def naive_class(adapter):
    class NaiveTournament(adapter.SodosTournament):
        """sodos's standings on every call: the host's calls, once per candidate pair."""

        def sorted_participants(self, rn):
            self._kept.clear()
            return super().sorted_participants(rn)

    return NaiveTournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive", action="store_true", help="time the uncached subclass too")
    args = parser.parse_args()
    warnings.filterwarnings("ignore", "Changing the sparsity structure")  # the host's scipy use
    adapter = load_adapter()
    sides = {"host alone": adapter.HostTournament, "adapter": adapter.SodosTournament}
    if args.naive:
        sides["uncached subclass"] = naive_class(adapter)
    best = dict.fromkeys(sides, float("inf"))
    calls = {}
    for _ in range(args.repeat):
        for name, cls in sides.items():
            start = time.perf_counter()
            played = adapter.play(cls, args.seed, players=args.players, rounds=args.rounds)
            best[name] = min(best[name], time.perf_counter() - start)
            calls[name] = getattr(played, "standings_computed", 0)
    print(f"mcmahon 0.3.0, {args.players} players x {args.rounds} rounds, seed {args.seed}, "
          f"best of {args.repeat} (Python {sys.version.split()[0]})")  # fmt: skip
    for name in sides:
        ratio = best[name] / best["host alone"]
        print(f"{name:18} {best[name]:7.2f} s  ratio {ratio:4.2f}  sodos standings {calls[name]}")


if __name__ == "__main__":
    main()
