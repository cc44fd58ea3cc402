"""``sodos standings PATH...``: read a tournament, rank it, write it in a format."""

from __future__ import annotations

import argparse
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

HELP = "print standings"


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    reading(p)
    p.add_argument(
        "--format",
        help="table, csv, json, html, h9 ... any case (see sodos plugins); "
        "default: from --output's extension, else table",
    )
    p.add_argument("--output", type=Path, help="write to this file")


def run(args: argparse.Namespace) -> int:
    host = make_host(args)
    check_options(host, args)
    args.format = output_format(host, args)
    standings = read_and_rank(host, args)
    announce_plugins(host, standings, sys.stderr, reader=args.reader_used, writer=args.format)
    with output(args.output) as stream:
        host.write(standings, args.format, stream)
    if args.format != "table" or args.output is not None:  # else the table ends with them
        for warning in standings.warnings:
            sys.stderr.write(f"warning: {warning}\n")
    return EXIT_OK
