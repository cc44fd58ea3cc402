"""``sodos serve``: the HTTP service (docs/hosts.md) on waitress, the ``serve`` extra.

waitress: pure Python (no compiler), maintained, a production WSGI server that buffers
each request before the application sees it (a slow client holds no worker) and
bounds connections and body size itself. What it lacks, added here:

* a deadline for unfinished requests (``serve.request_timeout``): waitress closes a
  connection only after ``channel_timeout`` seconds *without a byte*, so a client
  sending one byte every few seconds held its connection for ever, and 100 such
  (``serve.max_connections``) shut everyone out. A connection whose request (head and
  body) is not complete within the deadline, or that stays idle that long, is closed;
  and when the server is full, the connection that has waited longest for its request
  is closed at once to let a new one in, so that ``GET /health`` is answered while
  slow connections are open;
* threads for every request the application may hold at once (``serve.concurrency``
  computing, ``serve.max_waiting`` waiting for a worker) and a few more, so that
  ``/health`` and a refusal never queue behind slow POSTs and a POST is answered within
  ``serve.queue_timeout + serve.timeout``;
* error answers in the service's JSON shape.
"""

from __future__ import annotations

import argparse
import functools
import json
import signal
import sys
import time

from sodos_plugin.cli._common import EXIT_OK, UsageError, common, make_host
from sodos_plugin.config.settings import check_host
from sodos_plugin.serve.app import App, Hosts
from sodos_plugin.serve.jobs import error_body
from sodos_plugin.serve.live import Live
from sodos_plugin.util.textsafe import fit, printable

try:  # the serve extra; without it the command says how to get it
    import waitress
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer
    from waitress.task import ErrorTask
except ImportError:
    waitress = None

EXAMPLES = (
    "sodos serve",
    "sodos serve --host 0.0.0.0 --port 8080 -o serve.concurrency=4",
    "sodos serve --port 8080 --store ratings.db --rating ogs",
)
#: Threads beyond the requests the application may hold: GETs and refusals.
SPARE_THREADS = 4
#: Exit status when stopped while starting (as for Ctrl-C elsewhere).
EXIT_INTERRUPTED = 130


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    p.add_argument("--host", help="address to bind (config serve.host, default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (config serve.port, default 8000; 0: any)")
    p.add_argument(
        "--store",
        metavar="PATH",
        help="serve a server's live ratings from the SQLite store at PATH (created when "
        "absent): POST /games, GET /players/{id}, GET /leaderboard (sodos docs ratings)",
    )
    p.add_argument(
        "--rating",
        metavar="SYSTEM",
        default="ogs",
        help="the store's rating system: ogs (default), glicko2 (-o rating.glicko2.period="
        "game, day, week or month), egf, whr (sodos docs ratings)",
    )


def _channel_class(request_timeout: float):
    """waitress's channel with JSON error answers and the request deadline."""

    class JSONErrorTask(ErrorTask):
        """Errors waitress answers itself (a body over the limit, bad chunking, a
        malformed request line) in the service's JSON error shape, not plain text."""

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

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            #: when the request not yet complete began (its first byte), or when the
            #: connection became idle (opened, or its last answer sent)
            self.waiting_since = time.monotonic()

        def received(self, data) -> bool:
            fresh = self.request is None
            done = super().received(data)
            if fresh and self.request is not None:  # a new request began with these bytes
                self.waiting_since = time.monotonic()
            return done

        def overdue(self, now: float) -> bool:
            """Waiting (for a request, or for the rest of one) past the deadline. Never
            while the application holds its request; an answer being sent is overdue
            only when the client has read none of it for that long."""
            if self.requests:
                self.waiting_since = now
                return False
            if self.total_outbufs_len:
                return time.time() - self.last_activity > request_timeout
            return now - self.waiting_since > request_timeout

    return Channel


def _guard(server, connection_limit: int) -> None:
    """The deadline and the eviction of the module docstring, on one listening socket."""

    def maintenance(now: float) -> None:  # waitress calls it every cleanup_interval
        clock = time.monotonic()
        for channel in list(server.active_channels.values()):
            if channel.overdue(clock):
                channel.will_close = True

    def readable() -> bool:
        now = time.time()
        if now >= server.next_channel_cleanup:
            server.next_channel_cleanup = now + server.adj.cleanup_interval
            server.maintenance(now)
        if not server.accepting:
            return False
        if len(server._map) < connection_limit:
            return True
        channels = list(server.active_channels.values())
        if not any(c.will_close for c in channels):  # full: make room for one more
            waiting = [c for c in channels if not (c.requests or c.total_outbufs_len)]
            if waiting:
                min(waiting, key=lambda c: c.waiting_since).will_close = True
        return False

    server.maintenance = maintenance
    server.readable = readable


def _servers(server) -> list:
    """The listening servers behind what ``create_server`` returned (one per address)."""
    if isinstance(server, BaseWSGIServer):
        return [server]
    return [s for s in server.map.values() if isinstance(s, BaseWSGIServer)]


def _stop(signum, frame):  # SIGTERM: stop as Ctrl-C does, so the workers are ended
    raise KeyboardInterrupt


def _checked_host(text: str) -> str:
    try:
        return check_host(text)
    except ValueError as error:
        raise UsageError(f"--host: {error}, got {fit(printable(repr(text)), 60)}") from None


def run(args: argparse.Namespace) -> int:
    if waitress is None:
        raise UsageError(
            "sodos serve needs waitress (what the serve extra adds): pip install waitress, "
            "or from the project's folder pip install '.[serve]' "
            "(or mount sodos_plugin.serve.wsgi:app in your own WSGI server)"
        )
    if args.host is not None:
        args.overrides.append(f"serve.host={json.dumps(_checked_host(args.host))}")
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise UsageError(f"--port: expected 0..65535 (0: any free port), got {args.port}")
        args.overrides.append(f"serve.port={args.port}")
    signal.signal(signal.SIGTERM, _stop)
    try:
        return _serve(args)
    except KeyboardInterrupt:  # stopped while starting (Ctrl-C, SIGTERM): one line
        sys.stderr.write("sodos serve: stopped while starting\n")
        return EXIT_INTERRUPTED


def _serve(args: argparse.Namespace) -> int:
    # every worker builds its host as this command would: the same config and plugins
    app = App(functools.partial(make_host, args))
    try:
        serve = app.host.settings.serve
        if getattr(args, "store", None):
            app.live = Live(app.host.store(args.store, rating=args.rating))
        server = _listen(app, serve)
    except BaseException:
        app.close()
        raise
    host = serve["host"]
    shown = f"[{host}]" if ":" in host else host
    ports = [int(listening.effective_port) for listening in _servers(server)]
    port = ports[0]
    app.hosts = Hosts(host, ports, serve["allowed_hosts"])
    try:  # from the line below on, a stop (SIGTERM, Ctrl-C) is "stopped", not "while starting"
        sys.stderr.write(
            f"sodos serve: listening on http://{shown}:{port} "
            f"({serve['concurrency']} workers, {serve['timeout']:g} s per request, "
            f"{serve['max_request_bytes']} bytes per body)\n"
        )
        sys.stderr.flush()
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        for listening in _servers(server):
            listening.close()
        app.close()
    sys.stderr.write("sodos serve: stopped\n")
    return EXIT_OK


def _listen(app: App, serve):
    where = f"{serve['host']}:{serve['port']}"
    deadline = serve["request_timeout"]
    try:
        server = waitress.create_server(
            app,
            host=serve["host"],
            port=serve["port"],
            threads=app.limits.in_flight + SPARE_THREADS,
            connection_limit=serve["max_connections"],
            max_request_body_size=serve["max_request_bytes"],
            # idle connections: the deadline of _guard, checked every second
            channel_timeout=max(1, int(deadline + 0.999)),
            cleanup_interval=1,
            clear_untrusted_proxy_headers=True,
            ident="sodos",
        )
    except OSError as error:
        raise UsageError(f"cannot listen on {where}: {error.strerror or error}") from None
    except ValueError:  # waitress: an address that does not resolve
        raise UsageError(f"cannot listen on {where}: the address does not resolve") from None
    for listening in _servers(server):
        listening.channel_class = _channel_class(deadline)
        _guard(listening, serve["max_connections"])
    return server
