"""The one lazy-import scheme: what start-up does not need is imported on first use.

Start-up is most of a short command (``sodos --version``, ``sodos --help``, ``sodos
standings results.h9``), so three things wait until they are used, and nothing else
does (every other import is at the top of its module):

* the command's own module: the CLI imports only the command it runs, and its option
  parser only when it parses (:mod:`sodos_plugin.cli`; ``--debug``'s traceback module
  only when it prints one);
* a reader's implementation: a reader's plugin module holds its name, ``claims`` and
  hook, and imports the implementation inside ``read`` (:mod:`sodos_plugin.readers.sgf`);
* the ratings machinery, which :class:`~sodos_plugin.host.Host` reaches through
  :class:`LazyModule` when a history or a rating is first asked for: commands that rank
  or list plugins never load it;
* a heavy third-party module, through :class:`LazyModule` (numpy: ~0.1 s).

``tests/faces/cli/test_startup.py`` names what each command may import.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing stays out of sodos --version's start-up
if TYPE_CHECKING:
    from typing import Any


class LazyModule:
    """A module imported by its first attribute read.

    Contract: ``np = LazyModule("numpy", globals(), "np")`` at the top of a module;
    the first ``np.exp`` imports numpy and puts the module itself in that namespace
    under ``np``, so later reads cost what a plain import's would.
    """

    __slots__ = ("_name", "_namespace", "_alias")

    def __init__(self, name: str, namespace: dict[str, Any], alias: str):
        self._name = name
        self._namespace = namespace
        self._alias = alias

    def __getattr__(self, attribute: str) -> Any:
        module = importlib.import_module(self._name)
        self._namespace[self._alias] = module
        return getattr(module, attribute)


def exports(namespace: dict[str, Any], table: dict[str, str]):
    """A package front's ``__getattr__`` (PEP 562): each name of ``table`` (name → module,
    or ``module:attribute`` where the front names it otherwise) is imported from its module
    on first use and kept in ``namespace``."""

    def __getattr__(name: str) -> Any:
        where = table.get(name)
        if where is None:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        module, _, attribute = where.partition(":")
        value = namespace[name] = getattr(importlib.import_module(module), attribute or name)
        return value

    return __getattr__
