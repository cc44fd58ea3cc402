"""``sodos ratings PATH...``: rate a game history (an SGF archive, h9/XML files) with a
rating system: the final ratings, and on request every period, one player's history,
the saved state to go on from.

One spelling per choice across ``ratings``, ``explain --ratings`` and ``standings``:
``--rating SYSTEM`` (``ratings --system`` is still accepted: its old spelling),
``--initial``, ``--param``, ``--state`` (:func:`rating_options`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sodos_plugin import __version__
from sodos_plugin.cli._common import (
    EXIT_OK,
    UsageError,
    common,
    extension_format,
    lone_rejection,
    make_host,
    report_files,
    stdin_input,
)
from sodos_plugin.cli._options import history_options, parse_params, rating_options
from sodos_plugin.cli._streams import say
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import SodosError
from sodos_plugin.ratings.history import file_summary
from sodos_plugin.ratings.report import (
    FORMATS,
    computed_by,
    decimals,
    explanation_document,
    needs_steps,
    render_explanation,
    write,
)
from sodos_plugin.ratings.state import write_state
from sodos_plugin.schemas import codec
from sodos_plugin.util.progress import Progress
from sodos_plugin.util.textsafe import fit, printable
from sodos_plugin.writers.output import AtomicFiles

EXAMPLES = (
    "sodos ratings games/ --rating ogs",
    "sodos ratings results/*.h9 --rating egf --format csv --output ratings.csv",
    "sodos ratings archive/ --rating ogs --player Nowak --history",
    "sodos ratings yesterday.h9 --rating ogs --save-state state.json",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="the game history: SGF records (files, folders, archives), EGD h9, OpenGotha "
        "XML and JSON tournaments, games tables, any mix, rated in date order; - reads one "
        "file from stdin",
    )
    rating_options(p)
    history_options(p)
    p.add_argument(
        "--format",
        help="table, csv, json or html, any case; default: from --output's extension "
        "(r.html, r.csv), else table",
    )
    p.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help="write to FILE (replaced only once complete) instead of standard output",
    )
    p.add_argument("--history", action="store_true", help="every rating period too")
    p.add_argument("--player", metavar="NAME", help="one player's history")
    p.add_argument(
        "--save-state", type=Path, metavar="FILE", help="save where the run ends, to go on from"
    )


def make_rating_host(args: argparse.Namespace):
    if getattr(args, "no_cache", False):
        args.overrides = [*args.overrides, "cache.enabled=false"]
    return make_host(args)


def system_of(args: argparse.Namespace, host) -> str:
    """The rating system named on the command line, else the config's default."""
    return args.rating_system or host.settings.ratings.default


def rate(host, args: argparse.Namespace, details: bool = False, steps: bool = True):
    """Read the history (``-``: from stdin), report its files, rate it (shared with
    explain); ``steps`` false when the answer shows final ratings only (memory per
    player, not per game)."""
    stdin_input(args, host)
    history = host.history(args.paths, jobs=args.jobs, progress=Progress)
    try:
        report_files(history, sys.stderr, args.skip_bad)
    finally:  # the count by reason, also when rejected files stop the run (but for one)
        if args.skip_bad or lone_rejection(history) is None:
            for line in summary_lines(history):
                say(line, sys.stderr)
    if len(history.games) >= 100_000 and sys.stderr.isatty():
        sys.stderr.write(f"sodos: rating {len(history.games)} games with {system_of(args, host)}\n")
    run = host.ratings(
        history,
        rating=system_of(args, host),
        initial=args.initial,
        details=details,
        steps=steps,
        state=getattr(args, "state", None),
        **parse_params(args.params),
    )
    announce_system(run)
    return run


def announce_system(run, stream=None) -> None:
    """A rating system from a third-party plugin, named on stderr (as criteria are)."""
    by = computed_by(run)
    if by:
        say(f"plugins: rating system {by}", stream or sys.stderr)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def say_after(run, on_terminal: bool) -> None:
    """The run's notes and warnings on stderr, unless the table on the terminal ends
    with them already."""
    if on_terminal:
        return
    for note in run.notes:
        say(f"note: {note}")
    for warning in run.warnings:
        say(f"warning: {warning}")


#: The statuses of a history's account the summary counts, in its order.
SUMMARY_ORDER = ("excluded", "duplicate", "rejected")
#: Reasons listed per status (the others are counted together).
SUMMARY_REASONS = 12


def summary_lines(history) -> list[str]:
    """The account of a history's files counted by status and reason key
    (:func:`~sodos_plugin.ratings.history.file_summary`), for stderr: the games to rate
    and the count per status, then each status's reasons with their counts."""
    counts = file_summary(history.files)
    total = {status: sum(counts.get(status, {}).values()) for status in SUMMARY_ORDER}
    told = ", ".join(f"{total[status]} {status}" for status in SUMMARY_ORDER)
    lines = [f"sodos: {len(history.games)} game(s) to rate; {told} (files, or games of one)"]
    for status in ("excluded", "rejected"):
        found = list(counts.get(status, {}).items())
        if not found:
            continue
        shown = ", ".join(f"{fit(key, 60)} {n}" for key, n in found[:SUMMARY_REASONS])
        rest = found[SUMMARY_REASONS:]
        if rest:
            shown += f", {len(rest)} other reason(s) {sum(n for _, n in rest)}"
        lines.append(f"sodos: {status} {total[status]}: {shown}")
    return lines


def ratings_format(args: argparse.Namespace) -> str:
    """``--format`` (any case), else the format ``--output``'s extension names when it is
    one of :data:`FORMATS`, else the table (as ``standings`` chooses its writer)."""
    if args.format is None:
        name = extension_format(args.output)
        return name if name in FORMATS else "table"
    fmt = args.format.lower()
    if fmt not in FORMATS:
        raise UsageError(f"--format: expected one of {', '.join(FORMATS)}, got {args.format!r}")
    return fmt


def old_spelling(args: argparse.Namespace) -> None:
    """``ratings --system X``: the old spelling of ``--rating X``, taken with a note."""
    old = getattr(args, "old_rating_system", None)
    if old is None:
        return
    if args.rating_system is not None and args.rating_system.lower() != old.lower():
        raise UsageError(f"--rating {args.rating_system} and --system {old}: give one")
    args.rating_system = old
    say(
        "note: --system is the old spelling of --rating (the rating system); "
        "--system names the pairing system elsewhere"
    )


def run(args: argparse.Namespace) -> int:
    old_spelling(args)
    fmt = ratings_format(args)
    host = make_rating_host(args)
    system, _ = host.rating_system(system_of(args, host))  # fail fast on an unknown system
    if args.save_state is not None and not system.saves_state:
        raise UsageError(f"--save-state: {system.name} cannot save its state")
    result = rate(host, args, steps=needs_steps(fmt, history=args.history, player=args.player))
    player = find_player(result, args.player) if args.player is not None else None
    state = result.saved_state() if args.save_state is not None else None
    # the terminal's table ends with the notes and warnings; elsewhere they go to stderr only
    on_terminal = fmt == "table" and args.output is None and _is_terminal(sys.stdout)
    with AtomicFiles() as files:  # both files replaced only once both are complete
        if args.output is None:
            write(
                result, fmt, sys.stdout, history=args.history, player=player, messages=on_terminal
            )
        else:
            with files.open(args.output) as stream:
                write(result, fmt, stream, history=args.history, player=player, messages=False)
        if state is not None:
            with files.open(args.save_state) as handle:
                write_state(state, handle, provider=result.provider, version=__version__)
    if state is not None:
        say(
            f"state: saved where the run ends ({state.last_day}, {len(state.players)} players)"
            f" to {args.save_state}"
        )
    say_after(result, on_terminal)
    return EXIT_OK


# -- explain --ratings, standings --rating ---------------------------------------------


def find_player(run, wanted: str) -> str:
    """A player of the run by identity, else by a unique part of the name."""
    names = list(run.final())
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
    host = make_rating_host(args)
    host.rating_system(system_of(args, host))
    result = rate(host, args, details=True)
    player = find_player(result, args.player)
    if args.format == "json":
        sys.stdout.write(codec.encode_text(explanation_document(result, player)) + "\n")
    else:
        sys.stdout.write(render_explanation(result, player))
    for warning in result.warnings:
        say(f"warning: {warning}")
    if args.format == "json":
        for note in result.notes:
            say(f"note: {note}")
    return EXIT_OK


def tournament_changes(host, args: argparse.Namespace, standings):
    """The rating run of the standings' own tournament, from the start ``ratings`` uses
    (docs/rules.md §10.1: the files' ratings for egf where they carry them, else ranks;
    ``--initial`` overrides; the run's note says which)."""
    history = host.history(args.paths, jobs=getattr(args, "jobs", None))
    run = host.ratings(
        history,
        rating=args.rating_system,
        initial=args.initial,
        state=getattr(args, "state", None),
        **parse_params(args.params),
    )
    announce_system(run)
    return run


def write_changes(run, standings, stream) -> None:
    """The table's rating section: each player in standings order, before → after."""
    places = decimals(run)
    total: dict[str, tuple[float, float, int]] = {}
    for step in run.result.steps:
        before, after, games = total.get(step.player, (step.before.rating, 0.0, 0))
        total[step.player] = (before, step.after.rating, games + step.games)
    by_key = {identity_key(n): v for n, v in total.items()}
    by = computed_by(run)
    source = f"{run.system.name}, {by}" if by else f"{run.system.name}, {run.system.source}"
    stream.write(f"\nRating change ({printable(source)})\n")
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
    for note in run.notes:
        stream.write(f"note: {printable(note)}\n")


def check_changes_format(fmt: str) -> None:
    if fmt not in ("table", "json"):
        raise UsageError(f"--rating: shown with --format table or json, not {fmt!r}")


def json_with_changes(host, standings, run, stream) -> None:
    """The standings' JSON (as the json writer plugin wrote it) with one more key,
    ``ratings``: the run's document (``sodos schema standings``)."""
    data = json.loads(host.render(standings, "json"))
    data["ratings"] = run.as_dict()
    stream.write(codec.encode_text(data) + "\n")
