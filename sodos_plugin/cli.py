"""The ``sodos`` command: a thin face over :class:`~sodos_plugin.host.Host`.

It parses options, calls the host API, formats, and turns errors into one line on
stderr with exit status 2 (``--debug`` shows the traceback). Commands:
``standings``, ``explain``, ``plugins``, ``check``.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from sodos_plugin import __version__
from sodos_plugin.errors import SodosError
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


def build_parser() -> Parser:
    parser = Parser(prog="sodos", description="Go tournament standings and tiebreaks.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--version", action="version", version=f"sodos {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    def common(p: argparse.ArgumentParser) -> None:
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

    def selecting(p: argparse.ArgumentParser) -> None:
        p.add_argument("--system", choices=["swiss", "mcmahon"])
        p.add_argument("--criteria", help="comma-separated criteria, e.g. MMS,SOS,SODOS")

    def reading(p: argparse.ArgumentParser) -> None:
        p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
        selecting(p)
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

    standings = sub.add_parser("standings", help="print standings")
    common(standings)
    reading(standings)
    standings.add_argument(
        "--format", default="table", help="table, csv, json, html ... (see sodos plugins)"
    )
    standings.add_argument("--output", type=Path, help="write to this file")

    explain = sub.add_parser("explain", help="one player's criteria round by round")
    common(explain)
    explain.add_argument("player", help="player name (or a unique part of it)")
    reading(explain)
    explain.add_argument("--format", choices=["table", "json"], default="table")

    plugins = sub.add_parser("plugins", help="list plugins and what they provide")
    common(plugins)
    plugins.add_argument("--format", choices=["table", "json"], default="table")

    check = sub.add_parser("check", help="validate config and criteria, print advice")
    common(check)
    selecting(check)
    check.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="optional tournament files: check with their own settings and start scores",
    )
    check.add_argument("--strict", action="store_true", help="advice warnings also fail (1)")
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
    :func:`cmd_standings`), or here when the run stops.
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


def cmd_standings(args: argparse.Namespace) -> int:
    host = make_host(args)
    check_options(host, args)
    standings = read_and_rank(host, args)
    with output(args.output) as stream:
        host.write(standings, args.format, stream)
    if args.format != "table" or args.output is not None:  # else the table ends with them
        for warning in standings.warnings:
            sys.stderr.write(f"warning: {warning}\n")
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    from sodos_plugin.explain import as_dict, explain_player, render

    host = make_host(args)
    check_options(host, args)
    standings = read_and_rank(host, args)
    explanation = explain_player(standings, args.player)
    if args.format == "json":
        json.dump(
            as_dict(explanation, standings.warnings), sys.stdout, ensure_ascii=False, indent=1
        )
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(explanation))
    for warning in standings.warnings:
        sys.stderr.write(f"warning: {warning}\n")
    return EXIT_OK


def origin_text(info) -> str:
    """Where a plugin came from, for people."""
    if info.origin == "builtin":
        return "built-in"
    if info.origin == "entry point":
        dist = f"{info.distribution} {info.version}" if info.distribution else "unknown"
        return f"entry point {info.module} (distribution {dist})"
    if info.origin == "config":
        return f"config module {info.module}"
    return f"registered at run time ({info.module})" if info.module else "registered at run time"


def plugin_rows(host: Host) -> list[dict]:
    """One mapping per plugin: origin, status, what it provides, replacements."""
    registry = host.registry
    rows = []
    for i in registry.plugins.values():
        # built-in criteria that a third-party plugin took over: name -> new owner
        replaced_by = {
            name: registry.criterion_owner[name]
            for name in i.criteria
            if registry.criterion_owner.get(name) not in (None, i.name)
        }
        rows.append(
            {
                "name": i.name,
                "origin": i.origin,
                "where": origin_text(i),
                "module": i.module,
                "distribution": i.distribution,
                "version": i.version,
                "status": "blocked" if i.blocked else ("failed" if i.failed else "active"),
                "blocked": i.blocked,
                "failed": i.failed,
                "criteria": list(i.criteria),
                "readers": list(i.readers),
                "writers": list(i.writers),
                "replaces": list(i.replaced),
                "replaced_by": replaced_by,
            }
        )
    return rows


def cmd_plugins(args: argparse.Namespace) -> int:
    host = make_host(args)
    rows = plugin_rows(host)
    if args.format == "json":
        json.dump(rows, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return EXIT_OK
    for row in rows:
        status = "" if row["status"] == "active" else f" [{row['status']}]"
        sys.stdout.write(f"{row['name']}{status}: {row['where']}\n")
        provides = [
            *(f"criterion {c}" for c in row["criteria"]),
            *(f"reader {r}" for r in row["readers"]),
            *(f"writer {w}" for w in row["writers"]),
        ]
        if provides:
            sys.stdout.write(f"    provides {', '.join(provides)}\n")
        if row["replaces"]:
            sys.stdout.write(f"    replaces built-in {', '.join(row['replaces'])}\n")
        for name, owner in row["replaced_by"].items():
            sys.stdout.write(f"    {name} replaced by {owner}\n")
        if row["failed"]:
            sys.stdout.write(f"    {row['failed']}\n")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    """Exit 0 when config and criteria are valid, 1 otherwise (or on advice with --strict)."""
    from sodos_plugin.advice import advice
    from sodos_plugin.errors import ConfigError, PluginError

    if args.config is not None and not args.config.is_file():
        raise SodosError("cannot read config: no such file", source=str(args.config))
    errors: list[str] = []
    warnings: list[str] = []
    try:
        host = make_host(args)
        errors += [str(f) for f in host.registry.failures]
        names = criteria_option(args)
        if args.paths:
            read = host.read(args.paths)
            standings = host.standings(read.tournament, criteria=names, system=args.system)
            settings = standings.settings
            chosen = [standings.definitions[c] for c in standings.criteria]
            warnings += [w for w in standings.warnings if w not in errors]
        else:
            settings = host.settings_for(None, criteria=names, system=args.system)
            chosen = host.resolve_criteria(settings.criteria)
            warnings += advice(settings.system, [c.name for c in chosen])
        seen: set[str] = set()
        for criterion in chosen:
            if criterion.name in seen:
                errors.append(f"criterion {criterion.name} is listed twice")
            seen.add(criterion.name)
    except (ConfigError, PluginError) as error:
        errors.append(str(error))
        settings, chosen = None, []
    for problem in errors:
        sys.stdout.write(f"error: {problem}\n")
    for warning in warnings:
        sys.stdout.write(f"warning: {warning}\n")
    if settings is not None and not errors:
        names_text = ", ".join(c.name for c in chosen)
        sys.stdout.write(f"ok: system {settings.system}; criteria {names_text}\n")
    failed = bool(errors) or (args.strict and bool(warnings))
    return EXIT_FAILED_CHECK if failed else EXIT_OK


COMMANDS = {
    "standings": cmd_standings,
    "explain": cmd_explain,
    "plugins": cmd_plugins,
    "check": cmd_check,
}


def broken_pipe() -> int:
    """`sodos standings ... | head`: the reader went away; that is not an error."""
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or bool(os.environ.get("SODOS_DEBUG"))
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except SodosError as error:
        if isinstance(error.__cause__, BrokenPipeError):
            return broken_pipe()
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"sodos: error: {error}\n")
        return EXIT_ERROR
    except BrokenPipeError:
        return broken_pipe()
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
