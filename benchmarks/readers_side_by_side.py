"""The h9 and JSON tournament readers of this tree beside those of another checkout, in
one process, interleaved: the CPU time of reading the same big files, before/after.

The other checkout's ``readers/h9.py`` and ``readers/json_tournament.py`` are loaded as
modules of their own (their imports resolve to this tree's package: compare trees whose
other modules agree). Inputs are generated: an h9 of a fully played Swiss
(``generate.py``), the same tournament written as JSON (names as references), and
``serve.py``'s McMahon tournament (indexes as references, ids); then the h9 with a row
of another shape (read row by row) and the JSON with two players of one name (warned
about). Each side must read the
same (``repr`` equal) before it is timed. Printed: each side's best CPU time and the
median of the paired ratios (after/before). Usage::

    git worktree add /tmp/before <commit>     # or: git archive <commit> | tar -x -C /tmp/before
    python benchmarks/readers_side_by_side.py /tmp/before --players 20000 --rounds 7
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import write_h9  # noqa: E402
from serve import tournament  # noqa: E402

from sodos_plugin.readers import h9, json_tournament  # noqa: E402


def load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def cpu(function) -> float:
    gc.collect()
    gc.disable()
    started = time.process_time()
    function()
    spent = time.process_time() - started
    gc.enable()
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout (its repository root)")
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    readers = args.other / "sodos_plugin" / "readers"
    h9_other = load("h9_other", readers / "h9.py")
    json_other = load("json_other", readers / "json_tournament.py")
    with tempfile.TemporaryDirectory() as folder:
        path = write_h9(Path(folder) / "big.h9", args.players, args.rounds)
        text = h9.decode(path.read_bytes())
    document = json_tournament.to_document(h9.interpret(h9.scan(text, "big.h9"))[0])
    by_names = json_tournament.dumps(document).encode("utf-8")
    generated = tournament(args.players, args.rounds)
    by_indexes = json.dumps(generated).encode("utf-8")
    generated["players"][1]["name"] = generated["players"][0]["name"]
    del generated["players"][1]["id"]  # (players with ids may share a name unwarned)
    shared_name = json.dumps(generated).encode("utf-8")  # a warning
    # a name word that reads as a rank: the file is read row by row
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if not line.startswith(";"))
    words = lines[row].split()
    lines[row] = " ".join([*words[:2], "5k", *words[2:]])
    row_by_row = "\n".join(lines) + "\n"
    cases = {
        "h9 (scan + interpret)": [
            lambda m=m: m.interpret(m.scan(text, "big.h9")) for m in (h9_other, h9)
        ],
        "h9, read row by row (a rank-like name word)": [
            lambda m=m: m.interpret(m.scan(row_by_row, "big.h9")) for m in (h9_other, h9)
        ],
        "JSON, names as references": [
            lambda m=m: m.parse(by_names, "big.json") for m in (json_other, json_tournament)
        ],
        "JSON, indexes as references": [
            lambda m=m: m.parse(by_indexes, "big.json") for m in (json_other, json_tournament)
        ],
        "JSON, two players share a name (a warning)": [
            lambda m=m: m.parse(shared_name, "big.json") for m in (json_other, json_tournament)
        ],
    }
    print(f"{args.players} players x {args.rounds} rounds, {args.repeat} interleaved pairs")
    for name, (other, this) in cases.items():
        assert repr(other()) == repr(this()), f"{name}: the two trees read differently"
        times: tuple[list[float], list[float]] = ([], [])
        for i in range(args.repeat):
            order = ((0, other), (1, this)) if i % 2 == 0 else ((1, this), (0, other))
            for side, function in order:
                times[side].append(cpu(function))
        ratios = [after / before for before, after in zip(*times)]
        print(
            f"{name}: before {min(times[0]):.3f} s, after {min(times[1]):.3f} s (best CPU); "
            f"after/before median {statistics.median(ratios):.2f} "
            f"({min(ratios):.2f}-{max(ratios):.2f})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
