"""The plugin manager: built-ins, entry points, config modules, blocking, replacement.

Built-in criteria, readers and writers are modules registered exactly like a
third-party plugin (under ``builtin.<module>``). Third-party plugins come from the
entry-point group ``sodos`` and from modules named in config (``plugins = [...]``);
hosts may also register plugin objects at run time. Any plugin can be blocked by
name (``disable = [...]``).

Faults never take the host down: a plugin that fails to import, declares unknown
hooks (pluggy's ``check_pending``) or raises in a hook is unregistered and reported
by plugin name and hook in :attr:`Registry.failures`; the others keep working.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pluggy
import sodos_hookspecs
from sodos_hookspecs import Criterion, Reader, Writer

from sodos_plugin.errors import ConfigError, PluginError
from sodos_plugin.settings import Settings

BUILTIN_PACKAGES = {
    "sodos_plugin.criteria": "builtin.",
    "sodos_plugin.readers": "builtin.",
    "sodos_plugin.writers": "builtin.",
}


@dataclass
class PluginInfo:
    """Where a plugin came from and what it provides (``sodos plugins`` prints this)."""

    name: str
    origin: str  # builtin | entry point | config | runtime
    module: str = ""
    distribution: str | None = None
    version: str | None = None
    blocked: bool = False
    failed: str | None = None
    criteria: list[str] = field(default_factory=list)
    readers: list[str] = field(default_factory=list)
    writers: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)

    @property
    def builtin(self) -> bool:
        return self.origin == "builtin"


@dataclass
class Registry:
    """What the registered plugins provide, after replacement rules."""

    criteria: dict[str, Criterion] = field(default_factory=dict)
    criterion_owner: dict[str, str] = field(default_factory=dict)
    readers: list[tuple[Reader, str]] = field(default_factory=list)
    writers: dict[str, tuple[Writer, str]] = field(default_factory=dict)
    plugins: dict[str, PluginInfo] = field(default_factory=dict)
    failures: list[PluginError] = field(default_factory=list)


def builtin_modules() -> list[tuple[str, ModuleType]]:
    """(plugin name, module) of every built-in plugin."""
    from sodos_plugin import criteria, readers, writers

    found = []
    for package in (criteria, readers, writers):
        for short in package.MODULES:
            module = importlib.import_module(f"{package.__name__}.{short}")
            found.append((f"builtin.{short}", module))
    return found


class PluginHost:
    """Owns the pluggy manager and builds the :class:`Registry`.

    :param settings: the run's settings (``plugins``, ``disable``, ``prefer`` and the
        ``[plugin.<name>]`` sections are used here).
    :param entry_points: load third-party plugins from the ``sodos`` entry points.
    """

    def __init__(self, settings: Settings, *, entry_points: bool = True):
        self.settings = settings
        self.pm = pluggy.PluginManager(sodos_hookspecs.PROJECT_NAME)
        self.pm.add_hookspecs(sodos_hookspecs)
        self.infos: dict[str, PluginInfo] = {}
        self.failures: list[PluginError] = []
        for name in settings.disable:
            self.pm.set_blocked(name)
        for name, module in builtin_modules():
            self._register(module, PluginInfo(name, "builtin", module.__name__))
        if entry_points:
            self._load_entry_points()
        for module_name in settings.plugins:
            self._load_module(module_name)
        self._check_pending()
        self._configured: set[str] = set()
        self.registry = self.build()

    # -- registration -----------------------------------------------------------------

    def _fail(self, info: PluginInfo, hook: str, error: BaseException | str) -> None:
        message = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        failure = PluginError(info.name, hook, message)
        failure.__cause__ = error if isinstance(error, BaseException) else None
        info.failed = str(failure)
        self.failures.append(failure)
        plugin = self.pm.get_plugin(info.name)
        if plugin is not None:
            self.pm.unregister(plugin)

    def _register(self, plugin: object, info: PluginInfo) -> None:
        self.infos[info.name] = info
        if self.pm.is_blocked(info.name):
            info.blocked = True
            return
        try:
            self.pm.register(plugin, name=info.name)
        except Exception as error:  # pluggy validation or a duplicate name
            self._fail(info, "register", error)

    def register(self, plugin: object, name: str | None = None) -> PluginInfo:
        """Register a plugin object at run time and rebuild the registry."""
        name = name or getattr(plugin, "__name__", None) or f"runtime-{id(plugin)}"
        info = PluginInfo(name, "runtime", getattr(plugin, "__module__", "") or "")
        self._register(plugin, info)
        self._check_pending()
        self.registry = self.build()
        return info

    def _load_entry_points(self) -> None:
        for ep in importlib.metadata.entry_points(group=sodos_hookspecs.ENTRY_POINT_GROUP):
            dist = getattr(ep, "dist", None)
            info = PluginInfo(
                ep.name,
                "entry point",
                ep.value,
                distribution=dist.metadata["Name"] if dist else None,
                version=dist.version if dist else None,
            )
            if ep.name in self.infos:
                continue  # the same distribution seen twice on sys.path
            if self.pm.is_blocked(ep.name):
                info.blocked = True
                self.infos[ep.name] = info
                continue
            try:
                plugin = ep.load()
            except Exception as error:
                self.infos[ep.name] = info
                self._fail(info, "import", error)
                continue
            self._register(plugin, info)

    def _load_module(self, module_name: str) -> None:
        info = PluginInfo(module_name, "config", module_name)
        if self.pm.is_blocked(module_name):
            info.blocked = True
            self.infos[module_name] = info
            return
        try:
            module = importlib.import_module(module_name)
        except Exception as error:
            self.infos[module_name] = info
            self._fail(info, "import", error)
            return
        self._register(module, info)

    def _check_pending(self) -> None:
        while True:
            try:
                self.pm.check_pending()
                return
            except pluggy.PluginValidationError as error:
                name = self.pm.get_name(error.plugin) or str(error.plugin)
                info = self.infos.setdefault(name, PluginInfo(name, "runtime"))
                self._fail(info, "check_pending", str(error))

    # -- collecting -------------------------------------------------------------------

    def _call_each(self, hook_name: str, kwargs: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
        """Call one hook plugin by plugin, attributing any failure to its plugin."""
        hook = getattr(self.pm.hook, hook_name)
        for impl in list(hook.get_hookimpls()):
            info = self.infos[impl.plugin_name]
            args = {k: v for k, v in kwargs.items() if k in impl.argnames}
            try:
                yield impl.plugin_name, impl.function(**args)
            except Exception as error:
                self._fail(info, hook_name, error)

    def _configure(self) -> None:
        settings = self.settings
        unknown = set(settings.plugin_sections) - set(self.infos)
        if unknown:
            name = sorted(unknown)[0]
            raise ConfigError(f"[plugin.{name}]: no plugin called {name!r} is installed")
        hook = self.pm.hook.sodos_configure
        for impl in list(hook.get_hookimpls()):
            if impl.plugin_name in self._configured:
                continue
            self._configured.add(impl.plugin_name)
            section = dict(settings.plugin_sections.get(impl.plugin_name, {}))
            args = {"config": section, "settings": settings}
            try:
                impl.function(**{k: v for k, v in args.items() if k in impl.argnames})
            except Exception as error:
                self._fail(self.infos[impl.plugin_name], "sodos_configure", error)

    def _collect(
        self, hook_name: str, kind: type, key: Callable[[Any], str]
    ) -> list[tuple[str, Any]]:
        found: list[tuple[str, Any]] = []
        for plugin_name, provided in self._call_each(hook_name, {}):
            if provided is None:
                continue
            items = list(provided) if isinstance(provided, (list, tuple)) else None
            bad = items is None or any(not isinstance(item, kind) for item in items)
            if bad:
                self._fail(
                    self.infos[plugin_name],
                    hook_name,
                    f"expected a list of {kind.__name__}, got {type(provided).__name__}",
                )
                continue
            found.extend((plugin_name, item) for item in items or ())
        return found

    def build(self) -> Registry:
        """Configure new plugins, collect what all plugins provide, apply replacement."""
        self._configure()
        registry = Registry(plugins=self.infos, failures=self.failures)
        for info in self.infos.values():
            info.criteria.clear()
            info.readers.clear()
            info.writers.clear()
            info.replaced.clear()
        criteria = self._collect("sodos_criteria", Criterion, lambda c: c.name)
        readers = self._collect("sodos_readers", Reader, lambda r: r.name)
        writers = self._collect("sodos_writers", Writer, lambda w: w.name)
        # A plugin that failed in any hook contributes nothing, not the part that came
        # before its failure (a half-working plugin would be a silent choice).
        failed = {name for name, info in self.infos.items() if info.failed}
        criteria = [item for item in criteria if item[0] not in failed]
        readers = [item for item in readers if item[0] not in failed]
        writers = [item for item in writers if item[0] not in failed]
        # built-ins first, so that third-party criteria replace them
        criteria.sort(key=lambda item: not self.infos[item[0]].builtin)
        claimed: dict[str, list[str]] = {}
        for plugin_name, criterion in criteria:
            name = criterion.name
            info = self.infos[plugin_name]
            info.criteria.append(name)
            owner = registry.criterion_owner.get(name)
            if owner is not None and not info.builtin:
                if self.infos[owner].builtin:
                    info.replaced.append(name)
                else:
                    claimed.setdefault(name, [owner]).append(plugin_name)
                    preferred = self.settings.prefer.get(name)
                    if preferred != plugin_name:
                        continue
            elif owner is not None:
                raise ConfigError(f"two built-in plugins provide {name!r}")  # pragma: no cover
            registry.criteria[name] = criterion
            registry.criterion_owner[name] = plugin_name
        for name, owners in claimed.items():
            preferred = self.settings.prefer.get(name)
            if preferred not in owners:
                raise ConfigError(
                    f"criterion {name!r} is provided by plugins {', '.join(owners)}; "
                    f'choose one with [prefer] {name} = "<plugin>"'
                )
            registry.criteria[name] = next(
                c for p, c in criteria if p == preferred and c.name == name
            )
            registry.criterion_owner[name] = preferred
        for plugin_name, reader in sorted(readers, key=lambda i: self.infos[i[0]].builtin):
            self.infos[plugin_name].readers.append(reader.name)
            registry.readers.append((reader, plugin_name))
        for plugin_name, writer in sorted(writers, key=lambda i: not self.infos[i[0]].builtin):
            self.infos[plugin_name].writers.append(writer.name)
            registry.writers[writer.name] = (writer, plugin_name)
        return registry
