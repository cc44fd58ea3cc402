"""The ``sodos`` command: a thin face over :class:`~sodos_plugin.host.Host`.

It parses options, calls the host API, formats, and turns errors into one line on
stderr with exit status 2 (``--debug`` shows the traceback). Commands:
``standings``, ``explain``, ``plugins``, ``check``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from sodos_plugin.errors import SodosError
from sodos_plugin.host import Host

EXIT_OK, EXIT_FAILED_CHECK, EXIT_ERROR = 0, 1, 2


class UsageError(SodosError):
    """A wrong option or argument."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> Parser:
    parser = Parser(prog="sodos", description="Go tournament standings and tiebreaks.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", type=Path, help="TOML config (default: ./sodos.toml)")
        p.add_argument(
            "-o",
            dest="overrides",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="override a config entry",
        )
        p.add_argument(
            "--no-entry-points",
            action="store_true",
            help="do not load third-party plugins from entry points",
        )
        p.add_argument("--debug", action="store_true", help="show tracebacks")

    def reading(p: argparse.ArgumentParser) -> None:
        p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
        p.add_argument("--system", choices=["swiss", "mcmahon"])
        p.add_argument("--criteria", help="comma-separated criteria, e.g. MMS,SOS,SODOS")
        p.add_argument("--round", type=int, help="standings after this round (default: last)")
        p.add_argument(
            "--skip-bad",
            action="store_true",
            help="continue when some input files are rejected (still listed)",
        )
        p.add_argument("--jobs", type=int, default=None, help="parallel ingest processes")

    standings = sub.add_parser("standings", help="print standings")
    common(standings)
    reading(standings)
    standings.add_argument("--format", default="table", help="table, csv, json, html, h9 ...")
    standings.add_argument("--output", type=Path, help="write to this file")

    explain = sub.add_parser("explain", help="one player's criteria round by round")
    common(explain)
    explain.add_argument("player")
    reading(explain)

    plugins = sub.add_parser("plugins", help="list plugins and what they provide")
    common(plugins)
    plugins.add_argument("--format", choices=["table", "json"], default="table")

    check = sub.add_parser("check", help="validate config and criteria")
    common(check)
    return parser


def make_host(args: argparse.Namespace) -> Host:
    return Host(
        config_file=args.config,
        overrides=args.overrides,
        entry_points=not args.no_entry_points,
    )


def criteria_option(args: argparse.Namespace) -> list[str] | None:
    if not args.criteria:
        return None
    return [c.strip() for c in args.criteria.split(",") if c.strip()]


def report_files(read_result, stream: TextIO, skip_bad: bool) -> None:
    rejected = [f for f in read_result.files if f.status == "rejected"]
    for report in rejected:
        stream.write(f"rejected: {report.path}: {report.reason}\n")
    for warning in read_result.warnings:
        stream.write(f"warning: {warning}\n")
    if rejected and not skip_bad:
        raise SodosError(f"{len(rejected)} input file(s) rejected (use --skip-bad to continue)")


@contextlib.contextmanager
def output(path: Path | None) -> Iterator[TextIO]:
    if path is None:
        yield sys.stdout
        return
    try:
        with path.open("w", encoding="utf-8", newline="") as handle:
            yield handle
    except OSError as error:
        raise SodosError(f"cannot write: {error.strerror}", source=str(path)) from None


def cmd_standings(args: argparse.Namespace) -> int:
    host = make_host(args)
    read = host.read(args.paths, skip_bad=args.skip_bad, jobs=args.jobs)
    report_files(read, sys.stderr, args.skip_bad)
    standings = host.standings(
        read.tournament,
        round=args.round,
        criteria=criteria_option(args),
        system=args.system,
        files=read.files,
        warnings=read.warnings,
    )
    with output(args.output) as stream:
        host.write(standings, args.format, stream)
    if args.format != "table":
        for warning in standings.warnings:
            sys.stderr.write(f"warning: {warning}\n")
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    from sodos_plugin.explain import explain_player, render

    host = make_host(args)
    read = host.read(args.paths, skip_bad=args.skip_bad, jobs=args.jobs)
    report_files(read, sys.stderr, args.skip_bad)
    standings = host.standings(
        read.tournament, round=args.round, criteria=criteria_option(args), system=args.system
    )
    sys.stdout.write(render(explain_player(standings, args.player)))
    return EXIT_OK


def cmd_plugins(args: argparse.Namespace) -> int:
    host = make_host(args)
    infos = list(host.registry.plugins.values())
    if args.format == "json":
        data = [
            {
                "name": i.name,
                "origin": i.origin,
                "module": i.module,
                "distribution": i.distribution,
                "version": i.version,
                "blocked": i.blocked,
                "failed": i.failed,
                "criteria": i.criteria,
                "readers": i.readers,
                "writers": i.writers,
                "replaces": i.replaced,
            }
            for i in infos
        ]
        json.dump(data, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return EXIT_OK
    for i in infos:
        where = i.origin
        if i.distribution:
            where += f" ({i.distribution} {i.version})"
        status = " [blocked]" if i.blocked else (" [failed]" if i.failed else "")
        provides = ", ".join(
            [
                *(f"criterion {c}" for c in i.criteria),
                *(f"reader {r}" for r in i.readers),
                *(f"writer {w}" for w in i.writers),
            ]
        )
        line = f"{i.name}{status}: {where}"
        if provides:
            line += f" — {provides}"
        if i.replaced:
            line += f" (replaces built-in {', '.join(i.replaced)})"
        sys.stdout.write(line + "\n")
        if i.failed:
            sys.stdout.write(f"    {i.failed}\n")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from sodos_plugin.advice import advice

    host = make_host(args)
    settings = host.settings
    criteria = host.resolve_criteria(settings.criteria)
    problems = [str(f) for f in host.registry.failures]
    warnings = advice(settings.system, [c.name for c in criteria])
    for problem in problems:
        sys.stdout.write(f"error: {problem}\n")
    for warning in warnings:
        sys.stdout.write(f"warning: {warning}\n")
    sys.stdout.write(f"system {settings.system}; criteria {', '.join(c.name for c in criteria)}\n")
    return EXIT_FAILED_CHECK if problems or warnings else EXIT_OK


COMMANDS = {
    "standings": cmd_standings,
    "explain": cmd_explain,
    "plugins": cmd_plugins,
    "check": cmd_check,
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or bool(os.environ.get("SODOS_DEBUG"))
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except SodosError as error:
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"sodos: error: {error}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("sodos: interrupted\n")
        return 130
    except Exception as error:  # a bug: still one line unless --debug
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"sodos: internal error: {type(error).__name__}: {error} (use --debug)\n")
        return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
