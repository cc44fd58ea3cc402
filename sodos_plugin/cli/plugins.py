"""``sodos plugins``: where each criterion, reader and writer comes from."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from sodos_plugin.cli._common import EXIT_OK, common, make_host

if TYPE_CHECKING:
    from sodos_plugin.host import Host

HELP = "list plugins and what they provide"


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("--format", choices=["table", "json"], default="table")


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


def run(args: argparse.Namespace) -> int:
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
