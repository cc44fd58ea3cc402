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
    selecting,
)
from sodos_plugin.errors import SodosError

HELP = "validate config and criteria, print advice"


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    selecting(p)
    p.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="optional tournament files: check with their own settings and start scores",
    )
    p.add_argument("--strict", action="store_true", help="advice warnings also fail (1)")


def run(args: argparse.Namespace) -> int:
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
