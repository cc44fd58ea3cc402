"""The rest of a game in a collection, three ways, side by side on the same bytes.

``sodos_plugin.readers.sgf.scan`` proves a collection's game tails with one possessive
pattern where the interpreter's engine gives the known answers (``scan.ENGINE_CASES``),
else node by node (CPython 3.10, and 3.11.0-3.11.4 such as Debian 12's 3.11.2, whose
possessive repeats accept malformed records). The third way, one plain pattern over
every node, is what 3.10 used before: it backtracks over a stack that grows with the
nodes. Prints each way's time and its ratio to the node-by-node form, for a 300-move
tail and a 120 000-move one::

    python benchmarks/scan_forms.py
"""

from __future__ import annotations

import functools
import platform
import random
import re
import timeit

from sodos_plugin.readers.sgf import scan

PLAIN = re.compile(rb"(?:\s*;(?:\s*[A-Za-z]{1,64}(?:\s*" + scan._VALUE + rb")+)*)*\s*\)", re.DOTALL)


def tail(moves: int) -> bytes:
    rng = random.Random(1)
    nodes = (
        b";%s[%c%c]BL[%d.5]C[a comment \\] here]"
        % (b"BW"[i % 2 : i % 2 + 1], 97 + rng.randrange(19), 97 + rng.randrange(19), i)
        for i in range(moves)
    )
    return b"".join(nodes) + b")"


def main() -> None:
    ways = {"node by node": lambda data: scan.tail_by_nodes(data, 0)}
    try:
        possessive = re.compile(scan._POSSESSIVE_TAIL, re.DOTALL).match
        ways["possessive"] = lambda data: possessive(data).end()
    except re.error:
        pass
    ways["one plain pattern"] = lambda data: PLAIN.match(data).end()
    print(f"CPython {platform.python_version()}; possessive used: {scan.POSSESSIVE}")
    for moves, number in ((300, 2000), (120_000, 5)):
        data = tail(moves)
        base = None
        for name, way in ways.items():
            assert way(data) == len(data)
            run = functools.partial(way, data)
            seconds = min(timeit.repeat(run, number=number, repeat=3)) / number
            base = base or seconds
            print(f"{moves:>7} moves  {name:<18} {seconds * 1e3:9.3f} ms  ×{seconds / base:.2f}")


if __name__ == "__main__":
    main()
