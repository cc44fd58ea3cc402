"""``sodos standings PATH...``: read a tournament, rank it, write it in a format."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from sodos_plugin.cli._common import (
    EXIT_OK,
    announce_plugins,
    check_options,
    common,
    make_host,
    output,
    output_format,
    read_and_rank,
    reading,
)
from sodos_plugin.cli._options import rating_options
from sodos_plugin.cli._streams import say
from sodos_plugin.util.lazy import LazyModule

# the ratings command's module, for --rating only (sodos_plugin.util.lazy)
rated = LazyModule("sodos_plugin.cli.ratings", globals(), "rated")

EXAMPLES = (
    "sodos standings results.xml",
    "sodos standings games/ --criteria MMS,SOS,SODOS --round 4 --format json",
    "sodos standings results.h9 --output standings.html",
    "cat results.h9 | sodos standings -",
    "sodos standings results.xml --rating egf",
    "sodos standings games/ -o mcmahon.bar=2d --criteria MMS,SOSM,SOSM-1",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    reading(p)
    p.add_argument(
        "--format",
        help="table, csv, json, html, h9 ... any case (sodos plugins --all --kind writer); "
        "default: from --output's extension, else table",
    )
    p.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help="write to FILE (replaced only once complete) instead of standard output",
    )
    rating_options(p, command="standings")  # standings --rating egf: each change


def run(args: argparse.Namespace) -> int:
    host = make_host(args)
    check_options(host, args)
    args.format = output_format(host, args)
    standings = read_and_rank(host, args)
    announce_plugins(host, standings, sys.stderr, reader=args.reader_used, writer=args.format)
    changes = None
    if args.rating_system:
        rated.check_changes_format(args.format)
        changes = rated.tournament_changes(host, args, standings)
    # the terminal's table ends with the warnings; a table sent elsewhere (a file, a pipe)
    # leaves them out and they are said on stderr only, once
    on_terminal = args.format == "table" and args.output is None and _is_terminal(sys.stdout)
    table_only = args.format == "table" and not on_terminal
    shown = dataclasses.replace(standings, warnings=[]) if table_only else standings
    with output(args.output) as stream:
        if changes is not None and args.format == "json":
            rated.json_with_changes(host, standings, changes, stream)
        else:
            host.write(shown, args.format, stream)
            if changes is not None:
                rated.write_changes(changes, standings, stream)
        if changes is not None:
            standings.warnings.extend(w for w in changes.warnings if w not in standings.warnings)
    if changes is not None and (args.format != "table" or args.output is not None):
        for note in changes.notes:
            say(f"note: {note}")
    if standings.round_note and (args.format != "table" or args.output is not None):
        say(
            f"note: standings after round {standings.round} of "
            f"{standings.tournament.rounds}, {standings.round_note}"
        )
    if not on_terminal:
        for warning in standings.warnings:
            say(f"warning: {warning}")
    return EXIT_OK


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
