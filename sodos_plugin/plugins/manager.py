"""The plugin manager: built-ins, entry points, named modules, blocking, replacement.

Where plugins come from, in registration order: built-in modules (``builtin.<module>``,
registered exactly like a third party: by name, from the packages listed in
:data:`BUILTIN_PACKAGES`), the entry-point group ``sodos``, modules named in config
(``plugins = [...]``), modules named by the host or the command line (``-p``,
``SODOS_PLUGINS``), and objects a host registers at run time. Any plugin can be blocked
by name (``disable = [...]``, ``-p no:NAME``).

A plugin's name does not depend on how it was loaded: an installed plugin is called by
its entry point's name, whether the entry points were loaded or a module was named
(``-p``, ``plugins``, ``SODOS_PLUGINS``) by the entry point's name or by the module the
entry point loads (:meth:`PluginHost._entry_point_for`); a module no entry point loads
is called by its module name. So one ``[plugin.<name>]`` section, ``disable`` and
``[prefer]`` serve every way of loading it; blocking also takes the module's name. A
name in ``disable``/``-p no:`` or ``[prefer]`` that names no plugin is a warning, with
the closest name (:mod:`sodos_plugin.util.suggest`).

Rules (docs/plugins.md says the same for authors):

* Names are compared case-insensitively (``sosm`` is SOSM). A third-party item with a
  built-in's name *replaces* it and keeps the built-in's spelling in output.
* A criterion family's bare name (``SODOS``) also replaces its built-in W and M forms
  (SODOSW, SODOSM; SODOMS is SODOSM) unless some plugin provides those explicitly; the
  plugin's ``compute`` then sees ``ctx.form`` = ``"W"`` or ``"M"``.
* Two third-party plugins providing one name are a *conflict*: the name is unusable
  (an error naming both when asked for) until ``[prefer] NAME = "plugin"`` chooses.
* Faults never take the host down: every hook runs through
  :func:`sodos_plugin.plugins.call.call`. A plugin that fails to import, declares
  unknown hooks, fails in a registration hook (``SystemExit`` too), returns the wrong
  type or lists one name twice is unregistered — only that plugin — and reported by
  plugin name and hook in :attr:`Registry.failures`. Nothing it provided is used. A
  module the user named that cannot be imported is kept in :attr:`PluginHost.errors`:
  the host turns it into an error.

What the plugins provide, once registered, is a :class:`~.registry.Registry`.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import FunctionType, MethodType, ModuleType
from typing import Any

import pluggy
import sodos_hookspecs

from sodos_plugin.config.settings import Settings
from sodos_plugin.errors import ConfigError, PluginError, SodosError
from sodos_plugin.plugins.call import call, describe
from sodos_plugin.plugins.discover import entry_points
from sodos_plugin.plugins.registry import (
    BUILTIN_PREFIX,
    KINDS,
    Conflict,
    Kind,
    PluginInfo,
    Provided,
    Registry,
    family_members,
)
from sodos_plugin.util.suggest import suggestion

#: The packages whose ``MODULES`` are the built-in plugins, imported by name as entry
#: points are (the built-ins sit above this package).
BUILTIN_PACKAGES = (
    "sodos_plugin.criteria",
    "sodos_plugin.readers",
    "sodos_plugin.writers",
    "sodos_plugin.ratings.systems",
)

_HOOKABLE = (FunctionType, MethodType, staticmethod, classmethod)
_ABSENT = object()


class Manager(pluggy.PluginManager):
    """pluggy's manager, with a cheap first look at the names of a module plugin.

    pluggy looks at every attribute of a plugin with :func:`inspect.getattr_static`;
    the built-in modules carry ~900 (imports, constants, classes), ~20 ms of every run.
    Only a function, bound method, ``staticmethod`` or ``classmethod`` can be a hook
    implementation, so any other value in a module's namespace is passed over before
    pluggy looks: the same hooks are found, for every module plugin alike (built-in or
    third-party), and other plugin objects are left to pluggy whole.
    """

    def parse_hookimpl_opts(self, plugin: object, name: str) -> Any:
        if isinstance(plugin, ModuleType):
            value = plugin.__dict__.get(name, _ABSENT)
            if value is not _ABSENT and not isinstance(value, _HOOKABLE):
                return None
        return super().parse_hookimpl_opts(plugin, name)


def builtin_modules() -> list[tuple[str, ModuleType]]:
    """(plugin name, module) of every built-in plugin."""
    found = []
    for name in BUILTIN_PACKAGES:
        package = importlib.import_module(name)
        for short in package.MODULES:
            module = importlib.import_module(f"{name}.{short}")
            found.append((f"{BUILTIN_PREFIX}{short}", module))
    return found


class PluginHost:
    """Owns the pluggy manager and builds the :class:`Registry`.

    :param settings: the run's settings (``plugins``, ``disable``, ``prefer`` and the
        ``[plugin.<name>]`` sections are used here).
    :param entry_points: load third-party plugins from the ``sodos`` entry points.
    :param modules: more plugin modules to import, each with who named it
        (``{"my_plugin": "-p"}``); a name that is an entry point's loads that entry point.
    :param blocked: more plugin names to block (``-p no:NAME``).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        entry_points: bool = True,
        modules: Mapping[str, str] | None = None,
        blocked: Sequence[str] = (),
    ):
        self.settings = settings
        self.pm = Manager(sodos_hookspecs.PROJECT_NAME)
        self.pm.add_hookspecs(sodos_hookspecs)
        self.infos: dict[str, PluginInfo] = {}
        self.failures: list[PluginError] = []
        #: import failures of modules the user named: the host makes them errors
        self.errors: list[PluginError] = []
        self.warnings: list[str] = []
        self._configured: set[str] = set()
        #: what each plugin that failed in sodos_configure would have provided, by kind
        self._unused: dict[str, dict[str, list[str]]] = {}
        self._listed: list[Any] | None = None  # the entry points, listed once
        self._block = block = [*settings.disable, *blocked]
        for name in block:
            self.pm.set_blocked(name)
        for name, module in builtin_modules():
            self._register(module, PluginInfo(name, "builtin", module.__name__))
        if entry_points:
            self._load_entry_points()
        config_source = settings.origins.get("plugins", "config")
        named = {m: f"named in {config_source}" for m in settings.plugins}
        named.update(modules or {})
        for module_name, named_by in named.items():
            origin = "config" if module_name in settings.plugins else "module"
            self._load_module(module_name, origin, named_by, entry_points)
        self._check_pending()
        known = self._known_names()
        for name in dict.fromkeys(block):
            if name not in known:
                self.warnings.append(
                    f"blocked plugin {name!r}: no plugin has that name"
                    + (suggestion(name, known) or " (sodos plugins --all lists them)")
                )
        self.registry = self.build()
        self._check_prefer()

    # -- registration -----------------------------------------------------------------

    def _fail(self, info: PluginInfo, hook: str, error: BaseException | str) -> PluginError:
        if isinstance(error, PluginError) and (error.plugin, error.hook) == (info.name, hook):
            failure = error  # from call(): already names the plugin and hook
        else:
            failure = PluginError(info.name, hook, describe(error))
            failure.__cause__ = error if isinstance(error, BaseException) else None
        if info.failed is None:
            info.failed = str(failure)
        self.failures.append(failure)
        # Unregister this plugin object only: another plugin may hold its name.
        plugin = info.plugin
        if plugin is not None and self.pm.get_plugin(info.name) is plugin:
            self.pm.unregister(plugin, name=info.name)
        return failure

    def _add_info(self, info: PluginInfo) -> bool:
        """Record ``info``; a second plugin with a taken name is kept as a failed row."""
        if info.name not in self.infos:
            self.infos[info.name] = info
            return True
        first = self.infos[info.name]
        n = 2
        while f"{info.name}#{n}" in self.infos:
            n += 1
        self.infos[f"{info.name}#{n}"] = info
        self._fail(info, "register", f"the name is already taken by {first.where()}")
        return False

    def _register(self, plugin: object, info: PluginInfo) -> None:
        info.plugin = plugin
        if not self._add_info(info):
            return
        if self.pm.is_blocked(info.name):
            info.blocked = True
            return
        try:  # pluggy validation, an object registered twice
            call(info.name, "register", self.pm.register, plugin, name=info.name)
        except SodosError as error:
            self._fail(info, "register", error)

    def register(self, plugin: object, name: str | None = None) -> PluginInfo:
        """Register a plugin object at run time and rebuild the registry."""
        name = name or getattr(plugin, "__name__", None) or f"runtime-{id(plugin)}"
        info = PluginInfo(name, "runtime", getattr(plugin, "__module__", "") or "")
        self._register(plugin, info)
        self._check_pending()
        self.registry = self.build()
        return info

    def _entry_points(self) -> list[Any]:
        if self._listed is not None:
            return self._listed
        try:  # the metadata of any installed distribution: a stranger's files
            found = call("entry points", "list", entry_points, sodos_hookspecs.ENTRY_POINT_GROUP)
        except SodosError as error:
            cause = error.__cause__ if isinstance(error, PluginError) else error
            self.warnings.append(f"cannot list entry points: {describe(cause or error)}")
            found = []
        self._listed = list(found)
        return self._listed

    def _entry_point_for(self, name: str) -> Any | None:
        """The entry point a module name given by a user stands for: the one of that
        name, else the first that loads that module (``name = "module:attr"``)."""
        listed = self._entry_points()
        by_name = next((ep for ep in listed if ep.name == name), None)
        if by_name is not None:
            return by_name
        return next((ep for ep in listed if _module_of(ep.value) == name), None)

    def _known_names(self) -> set[str]:
        """Every name a plugin answers to: its name, and the module an entry point loads."""
        known = set(self.infos)
        known.update(_module_of(i.module) for i in self.infos.values() if i.origin == "entry point")
        return known

    def _blocked(self, name: str, module: str | None = None) -> bool:
        """Blocked by its name, or (an entry point) by the module it loads."""
        if module is not None and module in self._block:
            self.pm.set_blocked(name)
        return self.pm.is_blocked(name)

    def _entry_point_info(self, ep: Any, named_by: str | None = None) -> PluginInfo:
        dist = getattr(ep, "dist", None)
        return PluginInfo(
            ep.name,
            "entry point",
            ep.value,
            distribution=dist.metadata["Name"] if dist else None,
            version=dist.version if dist else None,
            named_by=named_by,
        )

    def _load_entry_point(self, ep: Any, named_by: str | None = None) -> None:
        info = self._entry_point_info(ep, named_by)
        seen = self.infos.get(ep.name)
        if seen is not None and (seen.distribution, seen.module) == (
            info.distribution,
            info.module,
        ):
            return  # the same distribution seen twice on sys.path
        if self._blocked(ep.name, _module_of(ep.value)):
            info.blocked = True
            self._add_info(info)
            return
        try:
            plugin = call(ep.name, "import", ep.load)
        except SodosError as error:
            if self._add_info(info):
                self._fail(info, "import", error)
            return
        self._register(plugin, info)

    def _load_entry_points(self) -> None:
        for ep in self._entry_points():
            self._load_entry_point(ep)

    def _load_module(self, module_name: str, origin: str, named_by: str, autoload: bool) -> None:
        # an installed plugin named by its entry point's name or its module: that entry
        # point, under its name, whether entry points are loaded or not
        ep = self._entry_point_for(module_name)
        if ep is not None:
            seen = self.infos.get(ep.name)
            if seen is not None and seen.origin == "entry point" and seen.module == ep.value:
                seen.named_by = seen.named_by or named_by  # loaded with the entry points
                return
            self._load_entry_point(ep, named_by)
            return
        info = PluginInfo(module_name, origin, module_name, named_by=named_by)
        if self.pm.is_blocked(module_name):
            info.blocked = True
            self._add_info(info)
            return
        try:
            module = call(module_name, "import", importlib.import_module, module_name)
        except SodosError as error:
            if self._add_info(info):
                failure = self._fail(info, "import", error)
                self.errors.append(failure)
            return
        self._register(module, info)

    def _check_pending(self) -> None:
        while True:
            try:
                self.pm.check_pending()
                return
            except pluggy.PluginValidationError as error:
                name = self.pm.get_name(error.plugin) or str(error.plugin)
                info = self.infos.get(name)
                if info is None:
                    info = PluginInfo(name, "runtime", plugin=error.plugin)
                    self.infos[name] = info
                self._fail(info, "check_pending", str(error))

    # -- collecting -------------------------------------------------------------------

    def _call_each(self, hook_name: str, kwargs: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
        """Call one hook plugin by plugin, attributing any failure to its plugin."""
        hook = getattr(self.pm.hook, hook_name, None)
        if hook is None:  # a kind whose hook this contract version lacks
            return
        for impl in list(hook.get_hookimpls()):
            info = self.infos[impl.plugin_name]
            if info.failed:
                continue
            args = {k: v for k, v in kwargs.items() if k in impl.argnames}
            try:
                yield impl.plugin_name, call(impl.plugin_name, hook_name, impl.function, **args)
            except SodosError as error:
                self._fail(info, hook_name, error)

    def _configure(self) -> None:
        settings = self.settings
        unknown = set(settings.plugin_sections) - set(self.infos)
        if unknown:
            name = sorted(unknown)[0]
            called = next(
                (
                    n
                    for n, i in self.infos.items()
                    if i.origin == "entry point" and _module_of(i.module) == name
                ),
                None,
            )
            if called is not None:
                raise ConfigError(
                    f"[plugin.{name}]: the plugin of module {name!r} is called {called!r} "
                    f"(its entry point's name): write [plugin.{called}]"
                )
            raise ConfigError(
                f"[plugin.{name}]: no plugin called {name!r} is installed"
                + suggestion(name, self.infos)
            )
        for impl in list(self.pm.hook.sodos_configure.get_hookimpls()):
            name = impl.plugin_name
            if name in self._configured or self.infos[name].failed:
                continue
            self._configured.add(name)
            args = {"config": dict(settings.plugin_sections.get(name, {})), "settings": settings}
            kwargs = {k: v for k, v in args.items() if k in impl.argnames}
            try:
                call(name, "sodos_configure", impl.function, **kwargs)
            except SodosError as error:
                self._unused[name] = self._offered_by(name, impl.plugin)
                self._fail(self.infos[name], "sodos_configure", error)

    def _offered_by(self, name: str, plugin: object) -> dict[str, list[str]]:
        """What a plugin that failed before the registry was built would have provided,
        by kind (its own hooks asked, under the fault rule), so that its failure says
        what is not used (docs/plugins.md)."""
        offered: dict[str, list[str]] = {}
        for k in KINDS:
            hook = getattr(plugin, k.hook, None)
            if not callable(hook):
                continue
            try:
                items = call(name, k.hook, hook)
            except SodosError:
                continue
            if isinstance(items, (list, tuple)):
                names = [getattr(item, "name", None) for item in items]
                offered[k.plural] = [n for n in names if isinstance(n, str) and n.strip()]
        return offered

    def _collect(self, k: Kind) -> list[tuple[str, Any]]:
        """Every plugin's items of one kind, each plugin's list checked on its own."""
        found: list[tuple[str, Any]] = []
        for plugin_name, provided in self._call_each(k.hook, {}):
            if provided is None:
                continue
            info = self.infos[plugin_name]
            items = list(provided) if isinstance(provided, (list, tuple)) else None
            if items is None or any(not isinstance(item, k.type) for item in items):
                got = type(provided).__name__
                if items is not None:
                    got = ", ".join(sorted({type(i).__name__ for i in items}))
                self._fail(info, k.hook, f"expected a list of {k.type.__name__}, got {got}")
                continue
            names = [getattr(item, "name", None) for item in items]
            bad = [n for n in names if not isinstance(n, str) or not n.strip()]
            if bad:
                self._fail(info, k.hook, f"a {k.name} needs a non-empty name, got {bad[0]!r}")
                continue
            keys = [k.key(n) for n in names]
            twice = sorted({n for n, key in zip(names, keys) if keys.count(key) > 1})
            if twice:
                self._fail(info, k.hook, f"lists {k.name} {twice[0]!r} twice")
                continue
            found.extend((plugin_name, item) for item in items)
        return found

    def build(self) -> Registry:
        """Configure new plugins, collect what all plugins provide, apply replacement."""
        # The call order of pluggy's hook is last registered first; one run's hook
        # calls are repeatable because every kind is collected once here.
        if hasattr(self.pm.hook, "sodos_configure"):
            self._configure()
        for info in self.infos.values():
            info.provides.clear()
            info.replaces.clear()
            info.lost.clear()
        for name, offered in self._unused.items():  # failed in sodos_configure
            for plural, names in offered.items():
                self.infos[name].lost.setdefault(plural, []).extend(names)
        collected = {k.plural: self._collect(k) for k in KINDS}
        registry = Registry(plugins=self.infos, failures=self.failures)
        registry.warnings = list(self.warnings)
        for k in KINDS:
            usable = []
            for plugin_name, item in collected[k.plural]:
                info = self.infos[plugin_name]
                if info.failed:  # failed in another hook: nothing it gave is used
                    info.lost.setdefault(k.plural, []).append(item.name)
                else:
                    info.provides.setdefault(k.plural, []).append(item.name)
                    usable.append((plugin_name, item))
            registry.offered[k.plural] = usable
            registry.provided[k.plural] = self._resolve(k, usable, registry.conflicts)
        self._views(registry)
        return registry

    def _resolve(
        self, k: Kind, items: list[tuple[str, Any]], conflicts: list[Conflict]
    ) -> dict[str, Provided]:
        """Built-ins first, then third-party replacements, conflicts and [prefer]."""
        used: dict[str, Provided] = {}
        for plugin_name, item in items:
            if self.infos[plugin_name].builtin:
                key = k.key(item.name)
                if key in used:  # pragma: no cover - two built-ins, a bug
                    conflicts.append(Conflict(k.plural, item.name, (used[key].plugin, plugin_name)))
                    continue
                used[key] = Provided(k.plural, item.name, item, plugin_name, item.name)
        builtin_keys = list(used)
        explicit: dict[str, list[tuple[str, Any]]] = {}
        implied: dict[str, list[tuple[int, str, Any, str]]] = {}
        for plugin_name, item in items:
            if self.infos[plugin_name].builtin:
                continue
            key = k.key(item.name)
            explicit.setdefault(key, []).append((plugin_name, item))
        for plugin_name, item in items:
            if self.infos[plugin_name].builtin or not k.families:
                continue
            for member, form, rank in family_members(k.key(item.name), builtin_keys):
                if member not in explicit:
                    implied.setdefault(member, []).append((rank, plugin_name, item, form))
        prefer = {k.key(name): plugin for name, plugin in self.settings.prefer.items()}
        for key in [*explicit, *implied]:
            if key in explicit:
                claims = [(p, item, None) for p, item in explicit[key]]
            else:  # only the closest claims count (SODOSM's own alias before SODOS's)
                closest = min(rank for rank, *_ in implied[key])
                claims = [(p, i, f) for rank, p, i, f in implied[key] if rank == closest]
            winner = claims[0] if len(claims) == 1 else None
            if winner is None:
                wanted = prefer.get(key) or prefer.get(k.key(claims[0][1].name))
                winner = next((c for c in claims if c[0] == wanted), None)
            base = used.get(key)
            shown = base.name if base is not None else claims[0][1].name
            if winner is None:
                conflicts.append(Conflict(k.plural, shown, tuple(c[0] for c in claims)))
                used.pop(key, None)  # never fall back to the built-in silently
                continue
            plugin_name, item, form = winner
            if form is not None:
                item = dataclasses.replace(item, compute=_in_form(item.compute, form))
            replaces = base.plugin if base is not None else None
            used[key] = Provided(k.plural, shown, item, plugin_name, winner[1].name, replaces, form)
            if base is not None:
                self.infos[plugin_name].replaces.setdefault(k.plural, []).append(shown)
        return used

    def _check_prefer(self) -> None:
        """A ``[prefer]`` entry naming a plugin that is not installed, or one that does not
        provide that name, is said (it would only repeat "choose one" otherwise)."""
        for name, plugin in self.settings.prefer.items():
            info = self.infos.get(plugin)
            if info is None:
                self.registry.warnings.append(
                    f"[prefer] {name} = {plugin!r}: no plugin called {plugin!r} is installed"
                    + (suggestion(plugin, self.infos) or " (sodos plugins --all lists them)")
                )
                continue
            offered: list[str] = []
            provides = False
            for k in KINDS:
                names = [*info.provides.get(k.plural, ()), *info.lost.get(k.plural, ())]
                offered += names
                key = k.key(name)
                keys = {k.key(n) for n in names}
                if k.families:  # SODOS stands for SODOSW, SODOSM and SODOMS too
                    keys.update(m for n in list(keys) for m, _, _ in family_members(n, [key]))
                provides |= key in keys
            if not provides:
                what = ", ".join(offered) or "nothing"
                self.registry.warnings.append(
                    f"[prefer] {name} = {plugin!r}: {plugin!r} does not provide {name} "
                    f"(it provides {what})"
                )

    def _views(self, registry: Registry) -> None:
        criteria = registry.provided.get("criteria", {})
        registry.criteria = {p.name: p.item for p in criteria.values()}
        registry.criterion_owner = {p.name: p.plugin for p in criteria.values()}
        readers = list(registry.provided.get("readers", {}).values())
        readers.sort(key=lambda p: self.infos[p.plugin].builtin)  # third-party claim first
        registry.readers = [(p.item, p.plugin) for p in readers]
        writers = registry.provided.get("writers", {})
        registry.writers = {p.name: (p.item, p.plugin) for p in writers.values()}


def _in_form(compute: Callable[[Any], Any], form: str) -> Callable[[Any], Any]:
    """A bare name's ``compute`` standing in for its W or M form: ``ctx.form`` is ``form``."""

    def compute_in_form(ctx: Any) -> Any:
        return compute(ctx.in_form(form))

    return compute_in_form


def _module_of(value: str) -> str:
    """The module an entry point's value loads (``pkg.mod:attr [extra]`` → ``pkg.mod``)."""
    return value.partition(":")[0].partition("[")[0].strip()
