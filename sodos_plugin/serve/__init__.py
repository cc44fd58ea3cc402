"""``sodos serve``: the host API over HTTP, as a standard WSGI application.

Mount it in any WSGI server (waitress, gunicorn, uWSGI, mod_wsgi)::

    from sodos_plugin.serve import make_app
    app = make_app({"system": "mcmahon"}, config_file=False)

or name ``sodos_plugin.serve.wsgi:app``, the application made from ``./sodos.toml`` (if
any) when that module is imported. ``sodos serve`` runs it on waitress (the ``serve``
extra). Routes, limits and error answers: :mod:`sodos_plugin.serve.app`,
docs/hosts.md.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sodos_plugin.config.settings import find_config
from sodos_plugin.host import Host
from sodos_plugin.serve.app import App
from sodos_plugin.serve.routes import ROUTES, Routes


def host_factory(config: Mapping[str, Any] | None = None, **options: Any):
    """A picklable callable that builds the Host (the same in every worker process).

    ``options`` are :class:`~sodos_plugin.host.Host`'s keyword arguments. A
    ``config_file`` of ``None`` is resolved here, once, to the ``sodos.toml`` of the
    current directory (or none), so that every worker reads the same file.
    """
    if options.get("config_file") is None:
        options["config_file"] = find_config(Path.cwd()) or False
    return functools.partial(Host, dict(config or {}), **options)


def make_app(
    config: Mapping[str, Any] | None = None, *, routes: Routes = ROUTES, **options: Any
) -> App:
    """The WSGI application, configured as ``Host(config, **options)`` would be.

    Starts the worker processes (``serve.concurrency``); ``app.close()`` stops them.
    Plugins must be importable by name (config ``plugins``, entry points): objects
    registered on a Host at run time do not reach the worker processes. ``routes``:
    the route table (:mod:`sodos_plugin.serve.routes`), ``ROUTES + [Route(...)]`` for
    more.
    """
    return App(host_factory(config, **options), routes)
