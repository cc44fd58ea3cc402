"""``sodos store STORE [PATH...]``: a server's live rating store (docs/ratings.md, "A
server's live ratings"). With PATHs: make the store (new) from a game history — the
batch run's result, as ``sodos ratings`` gives it — so that ``sodos serve --store``
starts from the server's archive. Then, or with no PATH, write the store's ratings in
the formats of ``sodos ratings`` (table, csv, json, html) and, on request, the saved
state (``--save-state``) that ``sodos ratings --state`` goes on from.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sodos_plugin import __version__
from sodos_plugin.cli._common import EXIT_OK, UsageError, common
from sodos_plugin.cli._options import history_options, parse_params
from sodos_plugin.cli._streams import say
from sodos_plugin.cli.ratings import (
    _is_terminal,
    find_player,
    make_rating_host,
    rate,
    ratings_format,
    say_after,
)
from sodos_plugin.ratings.report import write
from sodos_plugin.ratings.run import RatingRun
from sodos_plugin.ratings.state import write_state
from sodos_plugin.store.load import as_result, from_run
from sodos_plugin.writers.output import AtomicFiles

EXAMPLES = (
    "sodos store ratings.db games.csv --rating ogs",
    "sodos store ratings.db --format json --history",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument(
        "store",
        metavar="STORE",
        help="the store: a SQLite file, or a postgresql:// URL (the postgres extra)",
    )
    p.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="make the store (new) from this game history: SGF archives, games tables, h9 ...",
    )
    p.add_argument(
        "--rating",
        dest="rating_system",
        default="ogs",
        metavar="SYSTEM",
        help="the store's rating system: ogs (default), glicko2 (--param period=game, day, "
        "week or month), egf (a batch posted is a tournament), whr",
    )
    p.add_argument(
        "--param",
        dest="params",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the rating system (config: [rating.<system>])",
    )
    history_options(p)
    p.add_argument(
        "--format",
        help="table (default), csv, json or html (default: from --output's extension)",
    )
    p.add_argument("--output", type=Path, metavar="FILE", help="write to FILE, not stdout")
    p.add_argument("--history", action="store_true", help="every game's step too")
    p.add_argument("--player", metavar="NAME", help="one player's history")
    p.add_argument("--save-state", type=Path, metavar="FILE", help="save the store's state")


def run(args: argparse.Namespace) -> int:
    fmt = ratings_format(args)
    host = make_rating_host(args)
    system, provider = host.rating_system(args.rating_system)
    params = parse_params(args.params)
    local = not args.store.startswith(("postgresql://", "postgres://"))
    if local:
        args.store = Path(args.store)
    if args.paths and local and args.store.exists() and args.store.stat().st_size:
        raise UsageError(f"{args.store}: the store exists; make a new one from a history")
    # the store first: a system it cannot rate game by game is refused before any work
    new = bool(args.paths)
    store = host.store(args.store, rating=args.rating_system, **params)
    with store:
        if args.paths:
            args.initial, args.state = None, None
            try:
                made = rate(host, args)
                count = from_run(store, made)
            except BaseException:  # nothing half made: the new store goes
                store.close()
                _remove(args.store) if new and local else None
                raise
            say(f"store: {count} games from the history in {args.store}")
        if args.paths:  # the store holds the batch run's numbers: its report is theirs
            done = made
        else:
            history, result = as_result(store)
            done = RatingRun(system, provider, dict(store.parameters), history, result)
        player = find_player(done, args.player) if args.player is not None else None
        state = done.saved_state() if args.save_state is not None else None
        on_terminal = fmt == "table" and args.output is None and _is_terminal(sys.stdout)
        with AtomicFiles() as files:  # both files replaced only once both are complete
            if args.output is None:
                write(
                    done, fmt, sys.stdout, history=args.history, player=player,
                    messages=on_terminal,
                )  # fmt: skip
            else:
                with files.open(args.output) as stream:
                    write(done, fmt, stream, history=args.history, player=player, messages=False)
            if state is not None:
                with files.open(args.save_state) as handle:
                    write_state(state, handle, provider=provider, version=__version__)
        if state is not None:
            players = len(state.players)
            say(f"state: saved ({state.last_day}, {players} players) to {args.save_state}")
        say_after(done, on_terminal)
    sys.stdout.flush()
    return EXIT_OK


def _remove(path: Path) -> None:
    """A store this command made, with SQLite's files beside it."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
