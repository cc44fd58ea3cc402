"""What the registered plugins provide, and the questions asked of it.

:data:`KINDS` lists each kind of thing plugins provide (criteria, readers, writers,
rating systems) with the hook that provides it, the type each item must have and how
its name is compared. Adding a kind is one :class:`Kind` entry; collection, validation,
replacement, conflicts, ``[prefer]``, failures, ``sodos plugins`` and the messages that
refuse a name then work for it as for criteria.

A :class:`Registry` is built by :class:`~sodos_plugin.plugins.manager.PluginHost` and
never changes afterwards; :meth:`Registry.resolve` is how every face asks for an item
by name (an unknown name suggests the close one, names the plugins that failed or were
blocked and may provide it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sodos_hookspecs import Criterion, RatingSystem, Reader, Writer

from sodos_plugin.errors import ConfigError, PluginError
from sodos_plugin.util.suggest import suggestion

BUILTIN_PREFIX = "builtin."


def criterion_key(name: str) -> str:
    """Criterion names compare upper-cased: ``sosm-1`` is SOSM-1."""
    return name.strip().upper()


def format_key(name: str) -> str:
    """Reader and writer names compare lower-cased: ``JSON`` is json."""
    return name.strip().lower()


@dataclass(frozen=True)
class Kind:
    """One kind of thing plugins provide.

    :param name: singular, for messages and ``sodos plugins --kind`` (``"criterion"``).
    :param plural: the key in :attr:`PluginInfo.provides` and :attr:`Registry.provided`.
    :param hook: the hook that returns a list of items (``"sodos_criteria"``).
    :param type: the type every item must have.
    :param key: the name under which items are compared (case rule).
    :param families: criteria only: a bare name also replaces its W/M forms.
    :param label: what a refused name is called (``unknown output format 'x'``).
    :param where: the field that chooses an item of this kind, named by its errors
        (``rating``); each face shows it in its own spelling (``--rating``, ``?rating=``).
    :param list_known: a refused name with no close match lists the known names.
    """

    name: str
    plural: str
    hook: str
    type: type
    key: Callable[[str], str]
    families: bool = False
    label: str = ""
    where: str = ""
    list_known: bool = False


#: Every kind of thing plugins provide. Rating systems etc. are one more entry.
KINDS: tuple[Kind, ...] = (
    Kind(
        "criterion", "criteria", "sodos_criteria", Criterion, criterion_key,
        families=True, label="criterion", where="criteria",
    ),
    Kind("reader", "readers", "sodos_readers", Reader, format_key, label="reader"),
    Kind(
        "writer", "writers", "sodos_writers", Writer, format_key,
        label="output format", where="format", list_known=True,
    ),
    Kind(
        "rating system", "rating_systems", "sodos_rating_systems", RatingSystem, format_key,
        label="rating system", where="rating", list_known=True,
    ),
)  # fmt: skip


def kind(plural_or_name: str) -> Kind:
    """The :class:`Kind` called ``criteria`` or ``criterion`` (either spelling)."""
    for k in KINDS:
        if plural_or_name in (k.plural, k.name):
            return k
    known = ", ".join(k.name for k in KINDS)
    raise ConfigError(f"unknown kind of plugin item {plural_or_name!r} (known: {known})")


def kind_named(text: str) -> Kind:
    """The kind a person names: ``criterion``, ``criteria``, ``rating system``,
    ``rating-system``, ``rating_systems``, any case, or a word that starts one kind's name
    alone (``rating``)."""
    said = " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())
    for k in KINDS:
        if said in (k.name, k.plural.replace("_", " ")):
            return k
    starting = [k for k in KINDS if said and k.name.startswith(said)]
    if len(starting) == 1:
        return starting[0]
    return kind(text)  # the error, listing the kinds


#: Two names for one built-in criterion: replacing one replaces the other (both M form).
ALIASES: dict[str, str] = {"SODOMS": "SODOSM", "SODOSM": "SODOMS"}


def family_members(key: str, known: Iterable[str]) -> list[tuple[str, str, int]]:
    """``(name, form, rank)`` of the built-in criteria a name also stands for.

    ``SOS`` → SOSW (W), SOSM (M); ``SOS-1`` → SOSW-1, SOSM-1; ``SODOS`` → SODOSW,
    SODOSM and SODOMS; ``SODOSM`` → SODOMS (and back). Only names in ``known``. The
    rank orders claims on one name: another name of the same criterion (1) is closer
    than a W/M form (2), which is closer than another name of a form (3).
    """
    known = set(known)
    found: list[tuple[str, str, int]] = []
    alias = ALIASES.get(key)
    if alias in known:
        found.append((alias, "M", 1))
    base, dash, cut = key.partition("-")
    for form in "WM":
        name = f"{base}{form}{dash}{cut}"
        if name in known and name != key:
            found.append((name, form, 2))
            alias = ALIASES.get(name)
            if alias in known and alias != key:
                found.append((alias, form, 3))
    return found


@dataclass
class PluginInfo:
    """Where a plugin came from and what it provides (``sodos plugins`` prints this)."""

    name: str
    origin: str  # builtin | entry point | config | module | runtime
    module: str = ""
    distribution: str | None = None
    version: str | None = None
    named_by: str | None = None  # who named a module: "-p", "SODOS_PLUGINS", a config file
    blocked: bool = False
    failed: str | None = None
    #: kind plural -> names this plugin provides (as it spells them)
    provides: dict[str, list[str]] = field(default_factory=dict)
    #: kind plural -> built-in names this plugin replaces (in use)
    replaces: dict[str, list[str]] = field(default_factory=dict)
    #: kind plural -> names it had provided when it failed (none of them is used)
    lost: dict[str, list[str]] = field(default_factory=dict)
    plugin: object | None = field(default=None, repr=False, compare=False)

    @property
    def builtin(self) -> bool:
        return self.origin == "builtin"

    @property
    def criteria(self) -> list[str]:
        return self.provides.get("criteria", [])

    @property
    def readers(self) -> list[str]:
        return self.provides.get("readers", [])

    @property
    def writers(self) -> list[str]:
        return self.provides.get("writers", [])

    @property
    def replaced(self) -> list[str]:
        """Built-in criteria this plugin replaces."""
        return self.replaces.get("criteria", [])

    @property
    def status(self) -> str:
        return "blocked" if self.blocked else ("failed" if self.failed else "active")

    def where(self) -> str:
        """Where it came from, for people: ``sodos-foo 1.2``, ``module foo (-p)``."""
        if self.builtin:
            return "built-in"
        if self.origin == "entry point":
            if self.distribution:
                return f"{self.distribution} {self.version or ''}".strip()
            return f"entry point {self.module}"
        if self.origin in ("config", "module"):
            return f"module {self.module}" + (f" ({self.named_by})" if self.named_by else "")
        return f"plugin {self.name!r} registered at run time"


@dataclass(frozen=True)
class Provided:
    """One item in use: which plugin provides it and what it replaced.

    :ivar name: the name shown in output: a built-in's spelling when it replaces one.
    :ivar provided_as: the name the plugin gave (``SODOS`` for an implied SODOSW).
    :ivar form: ``"W"``/``"M"`` when the item stands in for a W/M form, else ``None``.
    """

    kind: str
    name: str
    item: Any
    plugin: str
    provided_as: str
    replaces: str | None = None
    form: str | None = None


@dataclass(frozen=True)
class Conflict:
    """Several third-party plugins provide one name and ``[prefer]`` does not choose."""

    kind: str
    name: str
    plugins: tuple[str, ...]

    def __str__(self) -> str:
        return (
            f"{kind(self.kind).name} {self.name!r} is provided by plugins "
            f'{", ".join(self.plugins)}; choose one with [prefer] {self.name} = "<plugin>"'
        )


@dataclass
class Registry:
    """What the registered plugins provide, after replacement rules."""

    plugins: dict[str, PluginInfo] = field(default_factory=dict)
    failures: list[PluginError] = field(default_factory=list)
    #: kind plural -> name key -> what is used under that name
    provided: dict[str, dict[str, Provided]] = field(default_factory=dict)
    #: kind plural -> every (plugin, item) offered by a working plugin, used or not
    offered: dict[str, list[tuple[str, Any]]] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)
    #: plain warnings about plugin control (a blocked name no plugin has, ...)
    warnings: list[str] = field(default_factory=list)
    # views for the host (built once per registry)
    criteria: dict[str, Criterion] = field(default_factory=dict)
    criterion_owner: dict[str, str] = field(default_factory=dict)
    readers: list[tuple[Reader, str]] = field(default_factory=list)
    writers: dict[str, tuple[Writer, str]] = field(default_factory=dict)

    def lookup(self, kind_name: str, name: str) -> Provided | None:
        """What is used under ``name`` (case rule of the kind), or ``None``."""
        k = kind(kind_name)
        return self.provided.get(k.plural, {}).get(k.key(name))

    def items(self, kind_name: str) -> list[Provided]:
        return list(self.provided.get(kind(kind_name).plural, {}).values())

    def unavailable(self, kind_name: str, name: str) -> str | None:
        """Why ``name`` is not usable although a plugin offered it, or ``None``."""
        k = kind(kind_name)
        key = k.key(name)
        for conflict in self.conflicts:
            if conflict.kind == k.plural and k.key(conflict.name) == key:
                return str(conflict)
        for info in self.plugins.values():
            if info.failed and any(k.key(n) == key for n in info.lost.get(k.plural, ())):
                return f"its plugin {info.name!r} failed to load: {info.failed}"
        return None

    def suspects(self) -> list[PluginInfo]:
        """Plugins that failed before saying what they provide (import, registration)."""
        return [i for i in self.plugins.values() if i.failed and not i.lost and not i.provides]

    def blocked(self) -> list[PluginInfo]:
        """Plugins blocked in this run (``-p no:NAME``, ``disable``): never asked what
        they provide, so any of them may be the provider of a name that is missing."""
        return [i for i in self.plugins.values() if i.blocked]

    def provider(self, kind_name: str, name: str) -> PluginInfo | None:
        found = self.lookup(kind_name, name)
        return None if found is None else self.plugins.get(found.plugin)

    def resolve(self, kind_name: str, names: Sequence[str]) -> list[Provided]:
        """What is used under each name.

        :raises ConfigError: for a name nobody provides (with the close match and any
            plugin that failed before saying what it provides, or was blocked), a name
            two plugins provide (conflict), or one whose plugin failed.
        """
        found = []
        for name in names:
            provided = self.lookup(kind_name, name)
            if provided is None:
                raise ConfigError(self.unknown(kind_name, name), where=kind(kind_name).where)
            found.append(provided)
        return found

    def unknown(self, kind_name: str, name: str) -> str:
        """Why no item is used under ``name``, for people."""
        k = kind(kind_name)
        reason = self.unavailable(kind_name, name)
        if reason is not None:
            return f"{name}: {reason}"
        known = [p.name for p in self.items(kind_name)]
        text = f"unknown {k.label} {name!r}"
        text += suggestion(name, known, key=k.key, known=k.list_known)
        suspects = self.suspects()
        if suspects:
            text += "; plugins that failed to load and may provide it: " + "; ".join(
                f"{i.name!r} ({i.where()}): {i.failed}" for i in suspects
            )
        blocked = self.blocked()
        if blocked:
            text += "; plugins blocked in this run (-p no:NAME, disable) that may provide it: " + (
                ", ".join(repr(i.name) for i in blocked)
            )
        return text

    def describe(self, provided: Provided) -> dict[str, Any]:
        """One provider for machine output: plugin, distribution, what it replaces."""
        info = self.plugins[provided.plugin]
        return {
            "plugin": info.name,
            "builtin": info.builtin,
            "origin": info.origin,
            "distribution": info.distribution,
            "version": info.version,
            "module": info.module,
            "provided_as": provided.provided_as,
            "replaces": provided.replaces,
        }

    def fault_warnings(self) -> list[str]:
        """Failures and plugin-control warnings, each naming the plugin (and what it lost)."""
        out = list(self.warnings)
        for failure in self.failures:
            info = self.plugins.get(failure.plugin)
            text = str(failure)
            if info is not None and info.distribution:
                text += f" (distribution {info.distribution} {info.version or ''})".rstrip()
            lost = [n for names in (info.lost.values() if info else ()) for n in names]
            if lost:
                text += f"; not used: {', '.join(lost)}"
            out.append(text)
        return out


#: What pluggy can take as a hook implementation; any other value is never one.
