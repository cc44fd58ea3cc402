"""``sodos serve``: the HTTP service (docs/hosts.md) on waitress, the ``serve`` extra.

waitress: pure Python (no compiler), maintained, a production WSGI server that buffers
each request before the application sees it (a slow client holds no worker) and
bounds connections and body size itself. What it lacks, added here:

* a deadline for the client's part of every exchange (``serve.request_timeout``):
  waitress closes a connection only after ``channel_timeout`` seconds *without a byte*,
  so a client sending (or reading) one byte every few seconds held its connection for
  ever, and 100 such (``serve.max_connections``) shut everyone out. The clock of a
  connection runs whenever it waits on its client — for the rest of a request (head
  and body, from its first byte), for the client to read the answers sent to it, or
  for a next request — and stops only while the application holds a request and owes
  nothing. Past the deadline the connection is closed;
* eviction that counts the same clock: when the server is full, the connection whose
  client has kept it waiting longest — for its request, or to read its answers — is
  closed at once to let a new one in, so that ``GET /health`` is answered while slow
  clients, pipelining or not, hold every connection. A connection is closed from the
  server's loop at once, not when its socket next accepts a byte (a client that reads
  nothing would keep it for ever);
* threads that never wait on a client: an answer the client has not read waits in the
  connection's buffer (spilled to a temporary file past 1 MB), not in a thread, so
  that slow readers cannot take every thread;
* threads for every request the application may hold at once (``serve.concurrency``
  computing, ``serve.max_waiting`` waiting for a worker) and a few more, so that
  ``/health`` and a refusal never queue behind slow POSTs and a POST is answered within
  ``serve.queue_timeout + serve.timeout``;
* a request with both ``Content-Length`` and ``Transfer-Encoding`` (or any
  ``Transfer-Encoding`` in HTTP/1.0) refused with a 400 and the connection closed
  (RFC 9112 §6.1, §6.3): a front proxy that counted the body by ``Content-Length``
  would otherwise see the bytes after the chunked body answered as a request of their
  own (request smuggling);
* a stop that is quick and clean: SIGTERM or Ctrl-C closes the listening sockets, ends
  the workers, answers the POSTs they were computing with 503 (the service is
  stopping), closes the connections and exits with status 0;
* ``poll()`` instead of ``select()`` (waitress's default), which fails on a descriptor
  past 1023: a stranger opening a thousand connections ended the service;
* error answers in the service's JSON shape.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import logging
import signal
import sys
import time

from sodos_plugin.cli._common import EXIT_OK, UsageError, common, make_host
from sodos_plugin.config.settings import check_host
from sodos_plugin.serve import live
from sodos_plugin.serve.app import App, Hosts
from sodos_plugin.serve.jobs import error_body
from sodos_plugin.serve.live import Live
from sodos_plugin.serve.routes import ROUTES
from sodos_plugin.util.textsafe import fit, printable

try:  # the serve extra; without it the command says how to get it
    import waitress
    from waitress import wasyncore
    from waitress.channel import HTTPChannel
    from waitress.parser import HTTPRequestParser
    from waitress.server import BaseWSGIServer
    from waitress.task import ErrorTask
    from waitress.utilities import BadRequest

    class Smuggling(BadRequest):
        """Both Content-Length and Transfer-Encoding (RFC 9112 §6.3)."""
except ImportError:
    waitress = None

EXAMPLES = (
    "sodos serve",
    "sodos serve --host 0.0.0.0 --port 8080 -o serve.concurrency=4",
    "sodos serve --port 8080 --store ratings.db --rating ogs",
)
#: Threads beyond the requests the application may hold: GETs and refusals.
SPARE_THREADS = 4
#: Exit status when stopped while starting (as for Ctrl-C elsewhere); a stop once
#: listening (SIGTERM, Ctrl-C) is EXIT_OK.
EXIT_INTERRUPTED = 130
#: Seconds the stop waits for the server's threads (each ends at once: the workers
#: they wait on are ended first).
STOP_TIMEOUT = 5.0
#: Seconds a thread that wants the GIL waits before the running thread must give it up
#: (Python's default: 0.005). The service's threads give up the GIL for every SQLite
#: call, socket read and write; with the default, the thread writing the live store
#: waited up to 5 ms to get it back after each, behind threads parsing other requests
#: (benchmarks/README.md, live store: p99 latency).
SWITCH_INTERVAL = 0.0005
#: Bytes of unread answers past which waitress makes a thread wait for the client.
NEVER = 1 << 62
SMUGGLING = (
    "a request with both Content-Length and Transfer-Encoding, or Transfer-Encoding in "
    "HTTP/1.0, is refused and its connection closed (RFC 9112 section 6.3)"
)


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
    """waitress's channel with JSON error answers, the request parser that refuses
    smuggling, and the clock of the module docstring."""

    class Parser(HTTPRequestParser):
        def parse_header(self, header_plus) -> None:
            super().parse_header(header_plus)
            both = self.chunked and "CONTENT_LENGTH" in self.headers
            if both or (self.version == "1.0" and "TRANSFER_ENCODING" in self.headers):
                # refused, and the connection is closed after the answer: nothing after
                # this head is read as a request (JSONErrorTask closes on finish)
                self.error = Smuggling(SMUGGLING)
                self.completed = True

    class JSONErrorTask(ErrorTask):
        """Errors waitress answers itself (a body over the limit, bad chunking, a
        malformed request line) in the service's JSON error shape, not plain text."""

        def execute(self) -> None:
            error = self.request.error
            extra = {}
            if error.code == 413:
                extra = {"field": "body", "limit": "serve.max_request_bytes"}
            if isinstance(error, Smuggling):
                extra = {"field": "Transfer-Encoding"}
            body = error_body(error.code, f"{error.reason}: {error.body}", **extra)
            self.status = f"{error.code} {error.reason}"
            self.response_headers.append(("Content-Type", "application/json; charset=utf-8"))
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class Channel(HTTPChannel):
        error_task_class = JSONErrorTask
        parser_class = Parser

        def __init__(self, *args, **kwargs):
            #: closed by the server's loop at its next turn (deadline, eviction)
            self.evicted = False
            super().__init__(*args, **kwargs)
            #: when this connection began to wait on its client: for the rest of a
            #: request (its first byte), to read what was sent (the first byte not yet
            #: taken), or for a next request (opened, or the last answer all sent)
            self.since = time.monotonic()

        def received(self, data) -> bool:
            fresh = self.request is None
            done = super().received(data)
            if fresh and self.request is not None:  # a new request began with these bytes
                self.since = time.monotonic()
            return done

        def write_soon(self, data) -> int:
            if data and not self.total_outbufs_len:  # the client owes a read from now
                self.since = time.monotonic()
            return super().write_soon(data)

        def _flush_some(self, do_close=True) -> bool:
            sent = super()._flush_some(do_close=do_close)
            if sent and not self.total_outbufs_len:  # all taken: its next turn begins
                self.since = time.monotonic()
            return sent

        def held(self) -> bool:
            """The application holds a request and the client owes nothing: the
            service's time, bounded by serve.queue_timeout + serve.timeout."""
            return bool(self.requests) and not self.total_outbufs_len

        def overdue(self, now: float) -> bool:
            """Waiting on the client past the deadline: for a request, or for the
            client to read its answers (whatever it has read meanwhile)."""
            if self.held():
                self.since = now
                return False
            return now - self.since > request_timeout

        def readable(self) -> bool:
            if self.evicted:  # here, before its socket is polled: closed at once
                if self.socket is not None:
                    self.handle_close()
                return False
            return super().readable()

        def writable(self) -> bool:
            return not self.evicted and super().writable()

    return Channel


def _guard(server, connection_limit: int) -> None:
    """The deadline and the eviction of the module docstring, on one listening socket
    (the listening sockets of one service share their map of connections)."""

    def channels() -> list:
        return [c for c in server._map.values() if isinstance(c, HTTPChannel) and not c.evicted]

    def maintenance(now: float) -> None:  # waitress calls it every cleanup_interval
        clock = time.monotonic()
        for channel in channels():
            if channel.overdue(clock):
                channel.evicted = True

    def readable() -> bool:
        now = time.time()
        if now >= server.next_channel_cleanup:
            server.next_channel_cleanup = now + server.adj.cleanup_interval
            server.maintenance(now)
        if not server.accepting:
            return False
        if len(server._map) <= connection_limit:  # the listening sockets and trigger too
            return True
        open_now = channels()
        if len(open_now) < connection_limit:
            return True
        # full: the connection whose client has kept it waiting longest is closed
        # below, in this turn of the loop, before the new one is accepted
        waiting = [c for c in open_now if not c.held()]
        if not waiting:  # every one computing: new connections wait in the backlog
            return False
        min(waiting, key=lambda c: c.since).evicted = True
        return True

    server.maintenance = maintenance
    server.readable = readable


def _servers(server) -> list:
    """The listening servers behind what ``create_server`` returned (one per address)."""
    if isinstance(server, BaseWSGIServer):
        return [server]
    return [s for s in server.map.values() if isinstance(s, BaseWSGIServer)]


def _stop(signum, frame):  # SIGTERM while starting: stop as Ctrl-C does
    raise KeyboardInterrupt


class _Stopper:
    """The signal handler once the service listens: the first SIGTERM or SIGINT stops
    the server's loop; later ones are ignored, so that nothing interrupts the stop."""

    def __init__(self) -> None:
        self.stopping = False

    def __call__(self, signum, frame) -> None:
        if not self.stopping:
            self.stopping = True
            raise KeyboardInterrupt


def _loop(server) -> None:
    """waitress's loop, until a signal (the stop that follows is :func:`_shutdown`'s;
    waitress's own waits 5 s for threads that wait on workers the stop ends)."""
    listening = _servers(server)[0]
    adj = listening.adj
    wasyncore.loop(
        timeout=adj.asyncore_loop_timeout, map=listening._map, use_poll=adj.asyncore_use_poll
    )


def _ignore_signals() -> None:
    """From the stop on, SIGTERM and SIGINT are ignored, also while Python exits (which
    restores the default action of a handler it set, not of an ignored signal): a second
    Ctrl-C or SIGTERM neither interrupts the stop nor changes the exit status."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)


def _shutdown(server, app: App) -> None:
    """Stop quickly and cleanly: no new connection, no new request; the workers ended
    (the requests they computed answered 503 by their threads); the threads joined;
    then every connection and the server's wake-up pipe closed."""
    listening = _servers(server)
    connections = listening[0]._map
    for one in listening:
        with contextlib.suppress(OSError):
            wasyncore.dispatcher.close(one)  # the socket only: the trigger stays open
    app.close()  # POSTs waiting for or computing on a worker end now, with a 503
    dispatcher = listening[0].task_dispatcher
    with dispatcher.lock:  # requests not begun: not answered (their connections close)
        pending = list(dispatcher.queue)
        dispatcher.queue.clear()
    for task in pending:
        task.cancel()
    dispatcher.shutdown(cancel_pending=True, timeout=STOP_TIMEOUT)
    for channel in list(connections.values()):
        if isinstance(channel, HTTPChannel):
            with contextlib.suppress(OSError):
                channel._flush_some()  # a 503 still in its buffer: one try, no wait
            channel.handle_close()
    for one in listening:
        with contextlib.suppress(OSError):
            one.trigger.close()


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
    stored = bool(getattr(args, "store", None))
    app = App(functools.partial(make_host, args), ROUTES + live.ROUTES if stored else ROUTES)
    try:
        serve = app.host.settings.serve
        if stored:
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
    stopper = _Stopper()
    try:  # from here on, a stop (SIGTERM, Ctrl-C) is "stopped", not "while starting"
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, stopper)
        sys.stderr.write(
            f"sodos serve: listening on http://{shown}:{port} "
            f"({serve['concurrency']} workers, {serve['timeout']:g} s per request, "
            f"{serve['max_request_bytes']} bytes per body)\n"
        )
        sys.stderr.flush()
        sys.setswitchinterval(SWITCH_INTERVAL)  # this process is the service's alone
        _loop(server)
    except KeyboardInterrupt:
        pass
    finally:
        stopper.stopping = True
        _ignore_signals()
        _shutdown(server, app)
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
            # a thread never waits for a client to read (the deadline closes a slow one)
            outbuf_high_watermark=NEVER,
            # poll(), not select(): select() fails on a descriptor past 1023, and that
            # ended the service when max_connections (up to 10 000) let that many in
            asyncore_use_poll=True,
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
    # waitress logs "Task queue depth is N" whenever a request waits for one of its
    # threads; the service bounds what waits itself (serve.max_waiting: 503 beyond) and
    # says so in its answers, so that line on stderr would only be noise (seen under load)
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    return server
