"""``sodos ratings PATH...``: rate a game history (an SGF archive, h9/XML files) with a
rating system; before, after and the change per tournament or period."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sodos_plugin.cli._common import EXIT_OK, UsageError, common, make_host, output, report_files
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import SodosError
from sodos_plugin.ratings.report import (
    FORMATS,
    decimals,
    explanation_document,
    render_explanation,
    write,
)
from sodos_plugin.schemas import codec
from sodos_plugin.util.progress import Progress
from sodos_plugin.util.textsafe import printable

EXAMPLES = (
    "sodos ratings games/ --system ogs",
    "sodos ratings results/*.h9 --system egf --format csv --output ratings.csv",
    "sodos ratings archive.zip --initial start.csv --format json",
)


def rating_options(p: argparse.ArgumentParser, flag: str = "--system") -> None:
    """``--system``/``--rating``, ``--initial``, ``--param`` (shared with explain, standings)."""
    p.add_argument(
        flag,
        dest="rating_system",
        default="egf" if flag == "--system" else None,
        metavar="SYSTEM",
        help="rating system: egf, glicko2, ogs, whr ... (see sodos plugins)",
    )
    p.add_argument(
        "--initial",
        metavar="FILE",
        help="starting ratings: a CSV (name, rating[, deviation]), or 'files' for the ratings "
        "the files carry (OpenGotha XML); default: from ranks by the system's mapping",
    )
    p.add_argument(
        "--param",
        dest="params",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the rating system (also [rating.<system>] in config)",
    )


def parse_params(items: list[str]) -> dict[str, str]:
    params = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--param {item!r}: expected KEY=VALUE")
        params[key.strip()] = value.strip()
    return params


def history_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="continue when some input files are rejected (still listed)",
    )
    p.add_argument("--jobs", type=int, default=None, help="ingest processes (default: cores)")
    p.add_argument("--no-cache", action="store_true", help="do not use the ingest cache")


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    rating_options(p)
    history_options(p)
    p.add_argument("--format", default="table", help="table, csv, json or html")
    p.add_argument("--output", type=Path, help="write to this file")


def make_rating_host(args: argparse.Namespace):
    if getattr(args, "no_cache", False):
        args.overrides = [*args.overrides, "cache.enabled=false"]
    return make_host(args)


def rate(host, args: argparse.Namespace, details: bool = False):
    """Read the history, report its files, rate it (shared with explain and standings)."""
    history = host.history(args.paths, jobs=args.jobs, progress=Progress)
    report_files(history, sys.stderr, args.skip_bad)
    if len(history.games) >= 100_000 and sys.stderr.isatty():
        sys.stderr.write(f"sodos: rating {len(history.games)} games with {args.rating_system}\n")
    return host.ratings(
        history,
        system=args.rating_system,
        initial=args.initial,
        details=details,
        **parse_params(args.params),
    )


def run(args: argparse.Namespace) -> int:
    fmt = args.format.lower()
    if fmt not in FORMATS:
        raise UsageError(f"--format: expected one of {', '.join(FORMATS)}, got {args.format!r}")
    host = make_rating_host(args)
    host.rating_system(args.rating_system)  # fail fast on an unknown system
    result = rate(host, args)
    with output(args.output) as stream:
        write(result, fmt, stream)
    if fmt != "table" or args.output is not None:
        for warning in result.warnings:
            sys.stderr.write(f"warning: {warning}\n")
    return EXIT_OK


# -- explain --ratings, standings --rating ---------------------------------------------


def find_player(run, wanted: str) -> str:
    """A player of the run by identity, else by a unique part of the name."""
    names = list(run.result.final)
    key = identity_key(wanted)
    exact = [n for n in names if identity_key(n) == key]
    if exact:
        return exact[0]
    partial = [n for n in names if key in identity_key(n)]
    if len(partial) == 1:
        return partial[0]
    if partial:
        shown = ", ".join(sorted(partial)[:5])
        raise SodosError(f"{wanted!r} matches several players: {shown}")
    raise SodosError(f"no rated player called {wanted!r}")


def explain_ratings(args: argparse.Namespace) -> int:
    """``sodos explain --ratings PLAYER PATH...``: every step of one player's ratings."""
    args.rating_system = args.rating_system or "egf"
    host = make_rating_host(args)
    host.rating_system(args.rating_system)
    result = rate(host, args, details=True)
    player = find_player(result, args.player)
    if args.format == "json":
        sys.stdout.write(codec.encode_text(explanation_document(result, player)) + "\n")
    else:
        sys.stdout.write(render_explanation(result, player))
    for warning in result.warnings:
        sys.stderr.write(f"warning: {warning}\n")
    return EXIT_OK


def tournament_changes(host, args: argparse.Namespace, standings):
    """The rating run of the standings' own tournament: the files' ratings (OpenGotha XML)
    as the starting point where they exist, else ranks (``--initial`` overrides)."""
    history = host.history(args.paths, jobs=getattr(args, "jobs", None))
    initial = args.initial
    if initial is None and any(p.rating is not None for p in history.players.values()):
        initial = "files"
    return host.ratings(
        history, system=args.rating_system, initial=initial, **parse_params(args.params)
    )


def write_changes(run, standings, stream) -> None:
    """The table's rating section: each player in standings order, before → after."""
    places = decimals(run)
    total: dict[str, tuple[float, float, int]] = {}
    for step in run.result.steps:
        before, after, games = total.get(step.player, (step.before.rating, 0.0, 0))
        total[step.player] = (before, step.after.rating, games + step.games)
    by_key = {identity_key(n): v for n, v in total.items()}
    stream.write(f"\nRating change ({run.system.name}, {run.system.source})\n")
    players = standings.tournament.players
    for rank, index in enumerate(standings.order):
        name = players[index].name
        row = by_key.get(identity_key(name))
        place = standings.places[rank]
        if row is None:
            stream.write(f"{place:>4}  {printable(name)}  not rated\n")
            continue
        before, after, games = row
        stream.write(
            f"{place:>4}  {printable(name)}  {before:.{places}f} → {after:.{places}f}  "
            f"{after - before:+.{places}f}  ({games} game(s))\n"
        )


def history_options_for_explain(p: argparse.ArgumentParser) -> None:
    """explain's ``reading`` already has --skip-bad and --jobs; only --no-cache is new."""
    p.add_argument("--no-cache", action="store_true", help="do not use the ingest cache")


def check_changes_format(fmt: str) -> None:
    if fmt not in ("table", "json"):
        raise UsageError(f"--rating: shown with --format table or json, not {fmt!r}")


def json_with_changes(host, standings, run, stream) -> None:
    """The standings' JSON (as the json writer plugin wrote it) with one more key,
    ``ratings``: the run's document (``sodos schema standings``)."""
    data = json.loads(host.render(standings, "json"))
    data["ratings"] = run.as_dict()
    stream.write(codec.encode_text(data) + "\n")
