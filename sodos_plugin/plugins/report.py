"""The plugins report: what each plugin provides, where it comes from, what it replaces.

``sodos plugins`` prints it and ``GET /plugins`` / ``GET /criteria`` of the service
return it: one mapping per plugin, third-party plugins first. It always works: a plugin
that fails, a module that cannot be imported, two plugins claiming one name — each is a
row with its reason.
"""

from __future__ import annotations

from typing import Any

from sodos_plugin.plugins.registry import KINDS, PluginInfo, Registry, kind_named


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


def _items(registry: Registry, info: PluginInfo, kinds) -> list[dict[str, Any]]:
    """Each item the plugin offers, with its description and what became of it."""
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


def plugin_rows(registry: Registry, kind: str | None = None) -> list[dict]:
    """One mapping per plugin (third-party first): origin, status, items, replacements;
    ``kind`` keeps one kind of item (as a person names it: ``rating system``, ``rating``)."""
    kinds = KINDS if kind is None else (kind_named(kind),)
    rows = []
    infos = sorted(registry.plugins.items(), key=lambda item: item[1].builtin)
    for key, i in infos:
        items = _items(registry, i, kinds)
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
