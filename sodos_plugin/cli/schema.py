"""``sodos schema [NAME]``: print a JSON Schema this package ships (default: tournament)."""

from __future__ import annotations

import argparse
import sys

from sodos_plugin.cli._common import EXIT_OK

HELP = "print the JSON Schema of the tournament format (or of standings, explain, error)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from sodos_plugin.schemas import NAMES

    p.add_argument(
        "name",
        nargs="?",
        default="tournament",
        choices=NAMES,
        help="which schema (default: tournament, the input format)",
    )


def run(args: argparse.Namespace) -> int:
    from sodos_plugin.schemas import text

    sys.stdout.write(text(args.name))
    return EXIT_OK
