"""``sodos explain PLAYER PATH...``: one player's criteria, round by round."""

from __future__ import annotations

import argparse
import sys

from sodos_plugin.cli._common import (
    EXIT_OK,
    announce_plugins,
    check_options,
    common,
    make_host,
    read_and_rank,
    reading,
)
from sodos_plugin.cli._streams import say
from sodos_plugin.cli.ratings import explain_ratings, history_options_for_explain, rating_options
from sodos_plugin.engine.explain import document, explain_player, render, with_opengotha
from sodos_plugin.schemas import codec

EXAMPLES = (
    'sodos explain "Minieri Davide" results.xml',
    "sodos explain Minieri results.xml --round 3 --format json",
    'sodos explain --ratings "Minieri Davide" results.h9 --rating egf',
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("player", help="player name (or a unique part of it)")
    reading(p)
    p.add_argument("--format", type=str.lower, choices=["table", "json"], default="table")
    # explain --ratings PLAYER PATH...: the player's rating steps (cli/ratings.py)
    p.add_argument("--ratings", action="store_true", help="explain the player's ratings")
    rating_options(p, flag="--rating")
    history_options_for_explain(p)


def run(args: argparse.Namespace) -> int:
    if args.ratings:
        return explain_ratings(args)
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
