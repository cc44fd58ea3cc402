"""``sodos explain PLAYER PATH...``: one player's criteria, round by round."""

from __future__ import annotations

import argparse
import sys

from sodos_plugin.cli._common import (
    EXIT_OK,
    UsageError,
    announce_plugins,
    check_options,
    common,
    make_host,
    read_and_rank,
    reading,
)
from sodos_plugin.cli._options import history_options_for_explain, rating_options
from sodos_plugin.cli._streams import say
from sodos_plugin.engine.explain import document, explain_player, render, with_opengotha
from sodos_plugin.schemas import codec
from sodos_plugin.util.lazy import LazyModule

# the ratings command's module, for --ratings only (sodos_plugin.util.lazy)
rated = LazyModule("sodos_plugin.cli.ratings", globals(), "rated")

#: explain's options that only --ratings uses -> their dest
RATINGS_ONLY = {
    "--rating": "rating_system",
    "--initial": "initial",
    "--param": "params",
    "--no-cache": "no_cache",
    "--state": "state",
}

EXAMPLES = (
    'sodos explain "Minieri Davide" results.xml',
    "sodos explain Minieri results.xml --round 3 --format json",
    "sodos explain Minieri results.xml --criteria MMS,SOSM-1,CUSSM",
    'sodos explain --ratings "Minieri Davide" results.h9 --rating egf',
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("player", help="player name (or a unique part of it)")
    reading(p)
    p.add_argument(
        "--format",
        type=str.lower,
        choices=["table", "json"],
        default="table",
        help="table: for people (default); json: for programs (sodos schema explain)",
    )
    # explain --ratings PLAYER PATH...: the player's rating steps (cli/ratings.py)
    p.add_argument(
        "--ratings",
        action="store_true",
        help="explain the player's ratings instead: every game's part of each change "
        "(with --rating, --initial, --param)",
    )
    rating_options(p, command="explain")
    history_options_for_explain(p)


def run(args: argparse.Namespace) -> int:
    if args.ratings:
        return rated.explain_ratings(args)
    given = [flag for flag, value in RATINGS_ONLY.items() if getattr(args, value)]
    if given:  # never ignored in silence
        raise UsageError(f"{', '.join(given)}: for a rating explanation; add --ratings")
    host = make_host(args)
    check_options(host, args)
    standings = read_and_rank(host, args)
    announce_plugins(host, standings, sys.stderr, reader=args.reader_used)
    explanation = with_opengotha(explain_player(standings, args.player), host.standings, standings)
    if args.format == "json":
        sys.stdout.write(codec.encode_text(document(explanation, standings.warnings)) + "\n")
    else:
        sys.stdout.write(render(explanation))  # names escaped line by line in render
    for warning in standings.warnings:
        say(f"warning: {warning}")
    return EXIT_OK
