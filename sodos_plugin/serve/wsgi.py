"""``sodos_plugin.serve.wsgi:app``: the service for a WSGI server of your own (gunicorn,
uWSGI, mod_wsgi), made from ``./sodos.toml`` (if any) when this module is imported.

Importing it starts the worker processes (``serve.concurrency``); a server that loads
the application once per worker process should name :func:`sodos_plugin.serve.make_app`
in its own factory instead.
"""

from __future__ import annotations

from sodos_plugin.serve import make_app

app = make_app()
