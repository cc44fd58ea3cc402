"""``sodos convert PATH... --format json``: any readable input as a JSON tournament.

The document carries the tournament as the reader built it: players in order, games
in order, byes, absences and the file's own settings (not the config of this run).
Before writing, it is read back and compared with the tournament it came from, so a
written file always gives the same standings, explanations and ratings as its input:
every fact of :data:`FIELDS` (players with their ids, games with their colours known or
not and their komi, the event's date, class, komi and board size) reads back equal, or
nothing is written and the error names the input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sodos_plugin.cli._common import (
    EXIT_OK,
    UsageError,
    common,
    extension_format,
    make_host,
    output,
    report_files,
    stdin_input,
)
from sodos_plugin.cli._options import reading_options
from sodos_plugin.cli._streams import say
from sodos_plugin.errors import SodosError
from sodos_plugin.readers import json_tournament

#: The tournament's facts a converted file must give back equal.
FIELDS = (
    "name", "date", "rounds", "players", "games", "byes", "absences", "info", "size",
)  # fmt: skip

#: what convert writes
FORMATS = ("json",)

EXAMPLES = (
    "sodos convert results.xml --output results.json",
    "sodos convert games/ --to json",
    "cat results.h9 | sodos convert - --to json",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="one tournament: an OpenGotha XML, EGD h9 or JSON file, or SGF records "
        "(files, folders, archives); - reads it from stdin",
    )
    p.add_argument(
        "--format",
        "--to",
        dest="format",
        type=str.lower,
        choices=FORMATS,
        help="output format: json, the JSON tournament (sodos schema; sodos docs hosts json); "
        "default: from --output's extension, else json (--to is the same option)",
    )
    p.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help="write to FILE (replaced only once complete) instead of standard output",
    )
    reading_options(p)


def convert_format(args: argparse.Namespace) -> str:
    """``--format`` (or ``--to``), else the format ``--output``'s extension names; an
    extension that names no format convert writes is refused (nothing written in JSON
    under a name that says otherwise)."""
    if args.format is not None:
        return args.format
    if args.output is None or "." not in args.output.name:
        return FORMATS[0]
    name = extension_format(args.output)
    if name not in FORMATS:
        raise UsageError(
            f"--output {args.output}: convert writes {', '.join(FORMATS)}, not {name!r}; "
            "give --format json to write JSON under this name"
        )
    return name


def run(args: argparse.Namespace) -> int:
    convert_format(args)
    host = make_host(args)
    stdin_input(args, host)  # `-`: one tournament from stdin, as sodos standings reads it
    read = host.read(args.paths, skip_bad=args.skip_bad, jobs=args.jobs)
    report_files(read, sys.stderr, args.skip_bad)
    tournament = read.tournament
    name = tournament.source or ", ".join(map(str, args.paths))
    text = json_tournament.dumps(json_tournament.to_document(tournament))
    back, _ = json_tournament.parse(text.encode("utf-8"), f"{name} (as JSON)")
    for field in FIELDS:
        if getattr(back, field) != getattr(tournament, field):
            raise SodosError(f"{name}: cannot be written as JSON without changing its {field}")
    if dict(back.settings) != json_tournament._json_ready(tournament.settings):
        raise SodosError(f"{name}: cannot be written as JSON without changing its settings")
    with output(args.output) as stream:
        stream.write(text)
    for warning in read.warnings:  # escaped, and stdin named as such (say)
        say(f"warning: {warning}")
    return EXIT_OK
