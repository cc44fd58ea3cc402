"""``sodos convert PATH... --to json``: any readable input as a JSON tournament.

The document carries the tournament as the reader built it: players in order, games
in order, byes, absences and the file's own settings (not the config of this run).
Before writing, it is read back and compared with the tournament it came from, so a
written file always gives the same standings as its input. The JSON format holds no
player identifiers yet (``Player.ids``: EGD PINs...): they are left out, and a warning
says how many; it holds no unknown colour either, so a tournament with games whose
colours are unknown is refused rather than given colours it does not have.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from sodos_plugin.cli._common import EXIT_OK, common, make_host, output, report_files
from sodos_plugin.engine.model import NO_IDS, id_schemes
from sodos_plugin.errors import SodosError
from sodos_plugin.readers import json_tournament

EXAMPLES = (
    "sodos convert results.xml --to json --output results.json",
    "sodos convert games/ --to json",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--to", choices=["json"], required=True, help="output format")
    p.add_argument("--output", type=Path, help="write to this file")
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="continue when some input files are rejected (still listed)",
    )
    p.add_argument("--jobs", type=int, default=None, help="ingest processes for SGF folders")


def run(args: argparse.Namespace) -> int:
    host = make_host(args)
    read = host.read(args.paths, skip_bad=args.skip_bad, jobs=args.jobs)
    report_files(read, sys.stderr, args.skip_bad)
    tournament = read.tournament
    text = json_tournament.dumps(json_tournament.to_document(tournament))
    back, _ = json_tournament.parse(text.encode("utf-8"), "<converted>")
    unknown = sum(not g.colours_known for g in tournament.games)
    if unknown:
        raise SodosError(
            f"cannot be written as JSON: {unknown} games have no colour in the input, and "
            "the JSON format would give them one"
        )
    without_ids = tuple(dataclasses.replace(p, ids=NO_IDS) for p in tournament.players)
    for field in ("name", "date", "rounds", "players", "games", "byes", "absences"):
        expected = without_ids if field == "players" else getattr(tournament, field)
        if getattr(back, field) != expected:
            raise SodosError(f"cannot be written as JSON without changing its {field}")
    if dict(back.settings) != json_tournament._json_ready(tournament.settings):
        raise SodosError("cannot be written as JSON without changing its settings")
    with output(args.output) as stream:
        stream.write(text)
    for warning in read.warnings:
        sys.stderr.write(f"warning: {warning}\n")
    with_ids = sum(bool(p.ids) for p in tournament.players)
    if with_ids:
        schemes = ", ".join(id_schemes(tournament.players))
        sys.stderr.write(
            f"warning: {with_ids} players' identifiers ({schemes}) are not written: the "
            "JSON format holds none yet\n"
        )
    return EXIT_OK
