"""``sodos ratings PATH...``: rate a game history (an SGF archive, h9/XML files) with a
rating system; before, after and the change per tournament or period."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sodos_plugin.cli._common import EXIT_OK, UsageError, common, make_host, output, report_files

HELP = "ratings over a game history (EGF GoR, Glicko-2, OGS, WHR ...)"


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
    from sodos_plugin.readers.sgf.history import Progress

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
    from sodos_plugin.rating_report import FORMATS, write

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
