"""``sodos schema [NAME]``: print a JSON Schema this package ships (default: tournament)."""

from __future__ import annotations

import argparse
import sys

from sodos_plugin.cli._streams import EXIT_OK
from sodos_plugin.schemas import NAMES, text

EXAMPLES = ("sodos schema > tournament.schema.json", "sodos schema standings")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "name",
        nargs="?",
        default="tournament",
        choices=NAMES,
        help="which schema (default: tournament, the input format)",
    )


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(text(args.name))
    return EXIT_OK
