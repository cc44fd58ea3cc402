"""``sodos plugins``: what each plugin provides, where it comes from, what it replaces.

It always works: a plugin that fails, a module that cannot be imported, two plugins
claiming one name — each is a row with its reason. Third-party plugins come first;
built-ins are folded into one line unless ``--all``; ``--kind`` keeps one kind of item.
"""

from __future__ import annotations

import argparse
import sys

from sodos_plugin.cli._common import EXIT_OK, UsageError, common, make_host
from sodos_plugin.errors import ConfigError
from sodos_plugin.plugins.registry import KINDS
from sodos_plugin.plugins.registry import kind as kind_of
from sodos_plugin.plugins.report import plugin_rows
from sodos_plugin.schemas.service import plugins_report

EXAMPLES = (
    "sodos plugins",
    "sodos plugins --all --kind criterion",
    "sodos plugins --all --kind rating",
    "sodos plugins --format json",
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument(
        "--format",
        type=str.lower,
        choices=["table", "json"],
        default="table",
        help="table: for people (default); json: every plugin with all it provides",
    )
    p.add_argument("--all", action="store_true", help="list the built-in plugins too")
    p.add_argument(
        "--kind",
        metavar="KIND",
        help=f"only one kind of item: {', '.join(k.name for k in KINDS)} "
        "(any case; the start of a name is enough: --kind rating)",
    )


def _write_row(row: dict, out) -> None:
    status = "" if row["status"] == "active" else f" [{row['status']}]"
    out.write(f"{row['name']}{status}: {row['where']}\n")
    for item in row["items"]:
        description = f" — {item['description']}" if item["description"] else ""
        out.write(f"    {item['kind']} {item['name']}{description}\n")
        if item["status"] != "in use":
            out.write(f"        {item['status']}\n")
        if item["also_replaces"]:
            forms = ", ".join(item["also_replaces"])
            out.write(f"        also stands for built-in {forms} (family name)\n")
    for conflict in row["conflicts"]:
        out.write(f"    conflict: {conflict}\n")
    if row["failed"]:
        out.write(f"    {row['failed']}\n")


def run(args: argparse.Namespace) -> int:
    host = make_host(args, raise_plugin_errors=False)
    try:
        rows = plugin_rows(host.registry, args.kind)
    except ConfigError as error:
        raise UsageError(f"--kind: {error}") from None
    if args.format == "json":
        sys.stdout.write(plugins_report(rows).decode("utf-8") + "\n")
        return EXIT_OK
    out = sys.stdout
    third = [r for r in rows if r["origin"] != "builtin"]
    builtin = [r for r in rows if r["origin"] == "builtin"]
    if third:
        for row in third:
            _write_row(row, out)
    else:
        out.write("no third-party plugins (install one, or load a module with -p MODULE)\n")
    if args.all:
        for row in builtin:
            _write_row(row, out)
    elif builtin:
        counts: dict[str, int] = {}
        for row in builtin:
            for item in row["items"]:
                plural = kind_of(item["kind"]).plural
                counts[plural] = counts.get(plural, 0) + 1
        provided = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in counts.items())
        out.write(f"built-in: {len(builtin)} plugins ({provided}); --all lists them\n")
        replaced = {n: by for r in builtin for n, by in r["replaced_by"].items()}
        blocked = [r["name"] for r in builtin if r["blocked"]]
        if replaced:
            text = ", ".join(f"{n} by {by}" for n, by in replaced.items())
            out.write(f"    replaced: {text}\n")
        if blocked:
            out.write(f"    blocked: {', '.join(blocked)}\n")
    for warning in host.registry.warnings:
        out.write(f"warning: {warning}\n")
    return EXIT_OK
