"""``sodos check [PATH...]``: validate config and criteria, print advice (exit 0/1)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sodos_plugin.cli._common import (
    EXIT_FAILED_CHECK,
    EXIT_OK,
    common,
    criteria_option,
    make_host,
    roster_option,
    selecting,
    stdin_input,
)
from sodos_plugin.cli._streams import say
from sodos_plugin.engine import compat
from sodos_plugin.engine.advice import advice
from sodos_plugin.errors import SodosError, StrictError

EXAMPLES = (
    "sodos check --config sodos.toml",
    "sodos check results.xml --criteria MMS,SOS,SODOS",
    "sodos check games/ --strict",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    selecting(p)
    p.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="optional tournament files: check with their own settings and start scores; "
        "- reads one from stdin",
    )
    roster_option(p)


def run(args: argparse.Namespace) -> int:
    """Exit 0 when config, criteria and inputs are valid; 1 when any is not: an error, a
    rejected input file, or (``--strict``) a warning. Every problem is listed."""
    if args.config is not None and not args.config.exists():  # a pipe: refused when read
        raise SodosError("cannot read config: no such file", source=str(args.config))
    errors: list[str] = []
    warnings: list[str] = []
    notes: list[str] = []
    files: list[str] = []
    rejected = 0
    settings, chosen = None, []
    try:
        host = make_host(args)
        errors += [str(f) for f in host.registry.failures]
        errors += [str(c) for c in host.registry.conflicts]
        names = criteria_option(args)
        if args.paths:
            stdin_input(args, host)  # `-`: one tournament from stdin
            read = host.read(args.paths, skip_bad=True)
            for report in read.files:
                if report.status in ("rejected", "duplicate", "excluded"):
                    files.append(f"{report.status}: {report.path}: {report.reason}")
                    rejected += report.status == "rejected"
            standings = host.standings(
                read.tournament, criteria=names, system=args.system, warnings=read.warnings
            )
            settings = standings.settings
            chosen = [standings.definitions[c] for c in standings.criteria]
            warnings += [w for w in standings.warnings if w not in errors]
            notes += opengotha_notes(host, standings)
        else:
            _ = host.roster  # read now: a bad roster fails the check
            settings = host.settings_for(None, criteria=names, system=args.system)
            chosen = host.resolve_criteria(settings.criteria)
            warnings += advice(settings.system, [c.name for c in chosen])
            host.enforce_strict(warnings)
        seen: set[str] = set()
        for criterion in chosen:
            if criterion.name in seen:
                errors.append(f"criterion {criterion.name} is listed twice")
            seen.add(criterion.name)
    except StrictError as error:  # --strict: the warnings are the errors
        errors += error.warnings
        settings, chosen = None, []
    except SodosError as error:
        errors.append(str(error))
        settings, chosen = None, []
    for line in files:  # say: each escaped, one line
        say(line, sys.stdout)
    for problem in errors:
        say(f"error: {problem}", sys.stdout)
    for warning in warnings:
        say(f"warning: {warning}", sys.stdout)
    for note in notes:
        say(f"note: {note}", sys.stdout)
    if rejected:
        say(f"error: {rejected} input file(s) rejected", sys.stdout)
    if settings is not None and not errors and not rejected:
        names_text = ", ".join(c.name for c in chosen)
        say(f"ok: system {settings.system}; criteria {names_text}", sys.stdout)
    return EXIT_FAILED_CHECK if errors or rejected else EXIT_OK


def opengotha_notes(host, standings) -> list[str]:
    """Where OpenGotha 3.51 would print other values, by criterion, and why
    (docs/rules.md §7); nothing with ``--compat opengotha`` or when it agrees."""
    found, reasons = compat.differences(standings, host.standings)
    if not found:
        return []
    by_criterion: dict[str, int] = {}
    for d in found:
        by_criterion[d.criterion] = by_criterion.get(d.criterion, 0) + 1
    counts = ", ".join(f"{name} of {n} player(s)" for name, n in by_criterion.items())
    lines = [f"OpenGotha 3.51 would print other values: {counts} (--compat opengotha prints them)"]
    return lines + [f"  why: {reason}" for reason in reasons]
