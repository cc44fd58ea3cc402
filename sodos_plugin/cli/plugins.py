"""``sodos plugins``: what each plugin provides, where it comes from, what it replaces.

It always works: a plugin that fails, a module that cannot be imported, two plugins
claiming one name — each is a row with its reason. Third-party plugins come first;
built-ins are folded into one line unless ``--all``; ``--kind`` keeps one kind of item.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from sodos_plugin.cli._common import EXIT_OK, UsageError, common, make_host

if TYPE_CHECKING:
    from sodos_plugin.host import Host
    from sodos_plugin.plugins.manager import PluginInfo

HELP = "list plugins, what they provide and what they replace"


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("--format", type=str.lower, choices=["table", "json"], default="table")
    p.add_argument("--all", action="store_true", help="list the built-in plugins too")
    p.add_argument(
        "--kind",
        type=str.lower,
        metavar="KIND",
        help="only one kind of item: criterion, reader, writer (see --help of the kinds)",
    )


def origin_text(info: PluginInfo) -> str:
    """Where a plugin came from, for people."""
    if info.builtin:
        return "built-in"
    if info.origin == "entry point":
        dist = f"{info.distribution} {info.version}" if info.distribution else "unknown"
        named = f", {info.named_by}" if info.named_by else ""
        return f"entry point {info.module} (distribution {dist}{named})"
    if info.origin in ("config", "module"):
        return f"module {info.module} ({info.named_by})" if info.named_by else info.module
    return f"registered at run time ({info.module})" if info.module else "registered at run time"


def _items(host: Host, info: PluginInfo, kinds) -> list[dict[str, Any]]:
    """Each item the plugin offers, with its description and what became of it."""
    registry = host.registry
    out = []
    for k in kinds:
        offered = [item for name, item in registry.offered.get(k.plural, ()) if name == info.name]
        for item in offered:
            used = registry.lookup(k.plural, item.name)
            stands_for = [
                p.name
                for p in registry.provided.get(k.plural, {}).values()
                if p.plugin == info.name and p.form is not None and p.provided_as == item.name
            ]
            if used is not None and used.plugin == info.name:
                status = "in use"
                if used.replaces:
                    status = f"replaces built-in {used.name}"
            elif used is not None:
                status = f"replaced by {used.plugin}"
            else:
                reason = registry.unavailable(k.plural, item.name)
                status = reason or "not used"
            out.append(
                {
                    "kind": k.name,
                    "name": item.name,
                    "description": getattr(item, "description", ""),
                    "status": status,
                    "also_replaces": stands_for,
                }
            )
        for name in info.lost.get(k.plural, ()):
            out.append(
                {"kind": k.name, "name": name, "description": "", "status": "not used: "
                 "its plugin failed", "also_replaces": []}
            )  # fmt: skip
    return out


def plugin_rows(host: Host, kind: str | None = None) -> list[dict]:
    """One mapping per plugin (third-party first): origin, status, items, replacements."""
    from sodos_plugin.plugins.manager import KINDS
    from sodos_plugin.plugins.manager import kind as kind_of

    kinds = KINDS if kind is None else (kind_of(kind),)
    registry = host.registry
    rows = []
    infos = sorted(registry.plugins.items(), key=lambda item: item[1].builtin)
    for key, i in infos:
        items = _items(host, i, kinds)
        if kind is not None and not items and not i.failed:
            continue
        replaced_by = {
            item["name"]: item["status"].removeprefix("replaced by ")
            for item in items
            if item["status"].startswith("replaced by ")
        }
        conflicts = [str(c) for c in registry.conflicts if i.name in c.plugins]
        rows.append(
            {
                "name": key,
                "origin": i.origin,
                "where": origin_text(i),
                "module": i.module,
                "distribution": i.distribution,
                "version": i.version,
                "named_by": i.named_by,
                "status": "conflict" if conflicts and i.status == "active" else i.status,
                "blocked": i.blocked,
                "failed": i.failed,
                "conflicts": conflicts,
                "items": items,
                "criteria": list(i.criteria),
                "readers": list(i.readers),
                "writers": list(i.writers),
                "replaces": [n for names in i.replaces.values() for n in names],
                "replaced_by": replaced_by,
                "lost": {k: list(v) for k, v in i.lost.items()},
            }
        )
    return rows


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
    from sodos_plugin.errors import ConfigError

    host = make_host(args, raise_plugin_errors=False)
    try:
        rows = plugin_rows(host, args.kind)
    except ConfigError as error:
        raise UsageError(f"--kind: {error}") from None
    if args.format == "json":
        import json

        json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
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
        from sodos_plugin.plugins.manager import kind as kind_of

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
