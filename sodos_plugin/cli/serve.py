"""``sodos serve``: the HTTP service (docs/hosts.md) on waitress, the ``serve`` extra.

waitress: pure Python (no compiler), maintained, a production WSGI server that buffers
each request before the application sees it (a slow client holds no worker) and
bounds connections and body size itself.
"""

from __future__ import annotations

import argparse
import functools
import json
import signal
import sys

from sodos_plugin.cli._common import EXIT_OK, UsageError, common, make_host
from sodos_plugin.serve.app import App
from sodos_plugin.serve.jobs import error_body

try:  # the serve extra; without it the command says how to get it
    import waitress
    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask
except ImportError:
    waitress = None

EXAMPLES = ("sodos serve", "sodos serve --host 0.0.0.0 --port 8080 -o serve.concurrency=4")


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("--host", help="address to bind (config serve.host, default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (config serve.port, default 8000; 0: any)")


def _json_errors(server) -> None:
    """Errors waitress answers itself (a body over the limit, bad chunking, a malformed
    request line) in the service's JSON error shape instead of plain text."""

    class JSONErrorTask(ErrorTask):
        def execute(self) -> None:
            error = self.request.error
            extra = {}
            if error.code == 413:
                extra = {"field": "body", "limit": "serve.max_request_bytes"}
            body = error_body(error.code, f"{error.reason}: {error.body}", **extra)
            self.status = f"{error.code} {error.reason}"
            self.response_headers.append(("Content-Type", "application/json; charset=utf-8"))
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class Channel(HTTPChannel):
        error_task_class = JSONErrorTask

    server.channel_class = Channel


def _stop(signum, frame):  # SIGTERM: stop as Ctrl-C does, so the workers are ended
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    if waitress is None:
        raise UsageError(
            "sodos serve needs waitress (what the serve extra adds): pip install waitress, "
            "or from the project's folder pip install '.[serve]' "
            "(or mount sodos_plugin.serve.wsgi:app in your own WSGI server)"
        )
    if args.host is not None:
        args.overrides.append(f"serve.host={json.dumps(args.host)}")
    if args.port is not None:
        args.overrides.append(f"serve.port={args.port}")
    # every worker builds its host as this command would: the same config and plugins
    app = App(functools.partial(make_host, args))
    serve = app.host.settings.serve
    try:
        server = waitress.create_server(
            app,
            host=serve["host"],
            port=serve["port"],
            threads=serve["concurrency"] + 4,
            connection_limit=serve["max_connections"],
            max_request_body_size=serve["max_request_bytes"],
            channel_timeout=30,
            clear_untrusted_proxy_headers=True,
            ident="sodos",
        )
    except OSError as error:
        app.close()
        where = f"{serve['host']}:{serve['port']}"
        raise UsageError(f"cannot listen on {where}: {error.strerror}") from None
    _json_errors(server)
    host = serve["host"]
    shown = f"[{host}]" if ":" in host else host
    try:  # from the handler on: a SIGTERM right after the line below still stops cleanly
        signal.signal(signal.SIGTERM, _stop)
        sys.stderr.write(
            f"sodos serve: listening on http://{shown}:{server.effective_port} "
            f"({serve['concurrency']} workers, {serve['timeout']:g} s per request, "
            f"{serve['max_request_bytes']} bytes per body)\n"
        )
        sys.stderr.flush()
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
        app.close()
    sys.stderr.write("sodos serve: stopped\n")
    return EXIT_OK
