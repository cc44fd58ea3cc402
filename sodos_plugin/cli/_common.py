"""What every ``sodos`` command shares: the parser class, common options, the host,
reading inputs, reporting files and writing output.

Heavy modules (the host, readers, writers) are imported inside the functions that
need them, so that ``sodos --help`` and ``sodos --version`` stay light.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from sodos_plugin.errors import SodosError

if TYPE_CHECKING:
    from sodos_plugin.host import Host

EXIT_OK, EXIT_FAILED_CHECK, EXIT_ERROR = 0, 1, 2


class UsageError(SodosError):
    """A wrong option or argument."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(f"{message}{self._hint(message)} (see {self.prog} --help)")

    def _hint(self, message: str) -> str:
        """'did you mean --format?' for a mistyped option."""
        if "unrecognized arguments:" not in message:
            return ""
        words = message.split("unrecognized arguments:", 1)[1].split()
        options = sorted(set(option_strings(self)))
        for word in words:
            if word.startswith("--"):
                close = difflib.get_close_matches(word.split("=", 1)[0], options, n=1)
                if close:
                    return f"; did you mean {close[0]}?"
        return ""


def option_strings(parser: argparse.ArgumentParser) -> Iterator[str]:
    """Every option of a parser and of its subcommands."""
    for action in parser._actions:
        yield from action.option_strings
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from option_strings(sub)


def common(p: argparse.ArgumentParser) -> None:
    """Options every command takes: config, overrides, plugin loading, debug."""
    p.add_argument("--config", type=Path, help="TOML config (default: ./sodos.toml)")
    p.add_argument(
        "-o",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config entry (see docs/config.md)",
    )
    p.add_argument(
        "--no-entry-points",
        action="store_true",
        help="do not load third-party plugins from entry points",
    )
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    p.add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="every warning is an error: exit 2 listing them (config: strict = true)",
    )


def roster_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--roster",
        type=Path,
        metavar="FILE",
        help="players file (CSV with a name column, or a tournament file): "
        "a name not in it is an error (config: roster)",
    )


def selecting(p: argparse.ArgumentParser) -> None:
    p.add_argument("--system", choices=["swiss", "mcmahon"])
    p.add_argument("--criteria", help="comma-separated criteria, e.g. MMS,SOS,SODOS")


def reading(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    selecting(p)
    roster_option(p)
    p.add_argument("--round", type=int, help="standings after this round (default: last)")
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="continue when some input files are rejected (still listed)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="ingest processes for 10 000+ SGF files (default: cores)",
    )


def make_host(args: argparse.Namespace) -> Host:
    from sodos_plugin.host import Host

    return Host(
        config_file=args.config,
        overrides=args.overrides,
        entry_points=not args.no_entry_points,
        strict=getattr(args, "strict", None) or None,
        roster=getattr(args, "roster", None),
    )


def criteria_option(args: argparse.Namespace) -> list[str] | None:
    if not args.criteria:
        return None
    names = [c.strip() for c in args.criteria.split(",") if c.strip()]
    if not names:
        raise UsageError("--criteria: give at least one criterion name, e.g. MMS,SOS")
    return names


def check_options(host: Host, args: argparse.Namespace) -> None:
    """Fail fast, before reading any file: unknown criteria, format or round."""
    names = criteria_option(args)
    if names:
        host.resolve_criteria(names)
    fmt = getattr(args, "format", None)
    if fmt is not None and fmt not in host.registry.writers:
        known = sorted(host.registry.writers)
        close = difflib.get_close_matches(fmt, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else f" (known: {', '.join(known)})"
        raise UsageError(f"--format: unknown output format {fmt!r}{hint}")
    if getattr(args, "round", None) is not None and args.round < 0:
        raise UsageError(f"--round: expected a round number >= 0, got {args.round}")


def report_files(read_result, stream: TextIO, skip_bad: bool) -> None:
    """Every file not ingested, with its reason (nothing silent); stop on rejected files.

    The reader's warnings are printed with the standings' own (once, see
    :func:`sodos_plugin.cli.standings.run`), or here when the run stops.
    """
    rejected = 0
    for report in read_result.files:
        if report.status in ("rejected", "duplicate", "excluded"):
            stream.write(f"{report.status}: {report.path}: {report.reason}\n")
            rejected += report.status == "rejected"
    if rejected and not skip_bad:
        for warning in read_result.warnings:
            stream.write(f"warning: {warning}\n")
        raise SodosError(f"{rejected} input file(s) rejected (use --skip-bad to continue)")


@contextlib.contextmanager
def output(path: Path | None) -> Iterator[TextIO]:
    """stdout, or a file written only when the writer succeeded (no half-written page)."""
    if path is None:
        yield sys.stdout
        return
    buffer = io.StringIO()
    yield buffer
    try:
        with path.open("w", encoding="utf-8", newline="") as handle:
            handle.write(buffer.getvalue())
    except OSError as error:
        raise SodosError(f"cannot write: {error.strerror}", source=str(path)) from None


def read_and_rank(host: Host, args: argparse.Namespace):
    names = criteria_option(args)
    if names:  # as registered: "sosm-1" is shown as SOSM-1
        names = [c.name for c in host.resolve_criteria(names)]
    read = host.read(args.paths, skip_bad=args.skip_bad, jobs=args.jobs)
    report_files(read, sys.stderr, args.skip_bad)
    return host.standings(
        read.tournament,
        round=args.round,
        criteria=names,
        system=args.system,
        files=read.files,
        warnings=read.warnings,
    )
