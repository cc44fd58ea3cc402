"""``sodos schema [NAME]``: print the JSON Schema of a document (default: tournament, the
input format), generated from the document's one definition (:mod:`sodos_plugin.schemas`)."""

from __future__ import annotations

import argparse
import sys

from sodos_plugin.cli._options import common
from sodos_plugin.cli._streams import EXIT_OK
from sodos_plugin.schemas.catalog import NAMES, text

EXAMPLES = ("sodos schema > tournament.schema.json", "sodos schema standings")


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)  # accepted as by every command; the schemas depend on none of them
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
