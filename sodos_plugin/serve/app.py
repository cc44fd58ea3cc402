"""The WSGI application of ``sodos serve``: routes, limits and error answers.

Contract: :class:`App` is a standard WSGI callable (PEP 3333). The parent process
does only cheap, bounded work — routing, the query, the body's size and type — and
hands each POST to a worker of :class:`~sodos_plugin.serve.pool.Pool`, which computes
it within ``serve.timeout``. At most ``serve.concurrency + serve.max_waiting`` POSTs
are held at once (one more is 503 at once), and only requests whose ``Host`` names the
service are answered (:class:`Hosts`, 421 otherwise). Every answer is strict JSON; every
error answer has the shape of ``sodos schema error`` and names the field or the config
key of the limit that refused the request.

Routes: the one table of :mod:`sodos_plugin.serve.routes` (docs/hosts.md); this module
routes by it and holds nothing about any one route.
"""

from __future__ import annotations

import ipaddress
import sys
import threading
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from sodos_plugin.readers import json_tournament
from sodos_plugin.serve import pool as pools
from sodos_plugin.serve.jobs import Refused, incident
from sodos_plugin.serve.routes import ROUTES, Request, Route, Routes

MAX_QUERY_BYTES = 4096
MAX_QUERY_FIELDS = 16
STATUS = {
    200: "200 OK",
    400: "400 Bad Request",
    404: "404 Not Found",
    405: "405 Method Not Allowed",
    409: "409 Conflict",
    411: "411 Length Required",
    413: "413 Content Too Large",
    414: "414 URI Too Long",
    415: "415 Unsupported Media Type",
    421: "421 Misdirected Request",
    500: "500 Internal Server Error",
    503: "503 Service Unavailable",
    504: "504 Gateway Timeout",
}


@dataclass(frozen=True)
class Limits:
    """What one request may cost: the ``serve.*`` config keys (docs/config.md)."""

    max_request_bytes: int
    timeout: float
    concurrency: int
    queue_timeout: float
    max_waiting: int = 8

    @classmethod
    def from_settings(cls, serve: Mapping[str, Any]) -> Limits:
        return cls(
            max_request_bytes=serve["max_request_bytes"],
            timeout=serve["timeout"],
            concurrency=serve["concurrency"],
            queue_timeout=serve["queue_timeout"],
            max_waiting=serve["max_waiting"],
        )

    @property
    def in_flight(self) -> int:
        """POSTs computing or waiting for a worker at once; one more is 503 at once, so
        that a thread of the server never waits behind them (docs/hosts.md)."""
        return self.concurrency + self.max_waiting


#: Names a loopback service answers besides its address (with its port).
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def _split_host(header: str) -> tuple[str, int | None] | None:
    """``Host`` → (name in lower case, port or None); None if it is not name[:port]."""
    text = header.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        name, rest = text[: end + 1], text[end + 1 :]
    else:
        name, colon, port = text.partition(":")
        rest = colon + port
    name = name.removesuffix(".")
    if not rest:
        return name, None
    digits = rest[1:]
    if rest[0] != ":" or not (digits.isascii() and digits.isdigit()) or len(digits) > 5:
        return None
    return name, int(digits)


def _ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    return True


class Hosts:
    """Which ``Host`` headers the service answers (docs/hosts.md: DNS rebinding).

    A page of any web site can make a browser send requests to ``127.0.0.1`` under the
    site's own name (its DNS answer changed to the loopback address), and read the
    answers as its own. The browser still sends that name in ``Host``: the service
    answers only the names it is reached by — the address bound, for a loopback
    address also ``localhost``, ``127.0.0.1`` and ``[::1]``, for ``0.0.0.0`` or ``::``
    any IP address (a rebound name is never one) — and each ``serve.allowed_hosts``
    entry (``name`` on any port, ``name:port``, ``*`` for any). ``port``: the port the
    service listens on, or its ports (``localhost`` binds one per address); None: any,
    when mounted in another server.
    """

    def __init__(self, bound: str, port: int | Iterable[int] | None, allowed: Iterable[str] = ()):
        allowed = [a.strip().lower() for a in allowed if a.strip()]
        self.any = "*" in allowed
        self.ports = None if port is None else {port} if isinstance(port, int) else set(port)
        self.names: set[str] = set()
        self.pairs: set[tuple[str, int | None]] = set()
        for entry in allowed:
            split = _split_host(entry) if entry != "*" else None
            if split is not None:
                self.pairs.add(split)
        bound = bound.strip().lower()
        shown = f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound
        self.wildcard = shown in ("0.0.0.0", "[::]", "")
        self.names.add(shown)
        loopback = shown == "localhost" or (
            _ip_literal(shown) and ipaddress.ip_address(shown.strip("[]")).is_loopback
        )
        if loopback or self.wildcard:
            self.names.update(LOOPBACK_NAMES)
        self.allowed = allowed

    def accepts(self, header: str | None) -> bool:
        if self.any or not header:  # no Host: not a browser (HTTP/1.0 tools)
            return True
        split = _split_host(header)
        if split is None:
            return False
        name, port = split
        if (name, port) in self.pairs or (name, None) in self.pairs:
            return True
        if self.ports is not None and (80 if port is None else port) not in self.ports:
            return False
        return name in self.names or (self.wildcard and _ip_literal(name))

    def refusal(self) -> Refused:
        names = sorted(self.names) if not self.wildcard else ["any IP address", "localhost"]
        ports = ", ".join(map(str, sorted(self.ports or ())))
        port = f" on port {ports}" if ports else ""
        return Refused(
            421,
            f"this service answers requests for {', '.join(names)}{port}, not the Host "
            "given (add it to config serve.allowed_hosts)",
            field="Host",
            limit="serve.allowed_hosts",
        )


class App:
    """The service: ``App(host_factory)``; see the module docstring.

    :param host_factory: a picklable callable returning a configured
        :class:`~sodos_plugin.host.Host`; called here (for the parent's routes and the
        limits) and once in every worker process.
    :param routes: the route table (:data:`~sodos_plugin.serve.routes.ROUTES`, or more)
    """

    def __init__(self, host_factory: Callable[[], Any], routes: Routes = ROUTES):
        self.host = host_factory()
        self.routes = routes
        settings = self.host.settings
        # a bad reader option is the service's config error, found now, not per request
        section = settings.plugin_sections.get(json_tournament.PLUGIN, {})
        json_tournament.Limits.from_options(section)
        self.limits = Limits.from_settings(settings.serve)
        serve = settings.serve
        #: the Host names answered; ``sodos serve`` sets the port it listens on
        self.hosts = Hosts(serve["host"], None, serve["allowed_hosts"])
        self.lock = threading.Lock()
        self.served = 0
        self.in_flight = 0
        # answers that do not change while the service runs (the plugins do not)
        self.static = {
            route.shown: route.handler(self, Request(route, {}, {}, None))
            for route in routes
            if route.static
        }
        self.pool = pools.Pool(host_factory, self.limits.concurrency, routes.computed())
        #: the live store's answers (serve/live.py), set by ``sodos serve --store``, whose
        #: routes (serve/live.py ROUTES) are then rows of this app's table
        self.live: Any = None

    # -- WSGI -------------------------------------------------------------------------

    def __call__(self, environ: Mapping[str, Any], start_response: Callable) -> list[bytes]:
        try:
            status, body, headers = self.answer(environ)
        except Refused as refused:
            status, body, headers = refused.status, refused.body, refused.headers
        except Exception as error:  # a bug here: one 500, the service goes on
            status, body, headers = 500, incident(error), []
        with self.lock:
            self.served += 1
        start_response(
            STATUS.get(status, f"{status} Error"),
            [
                ("Content-Type", "application/json; charset=utf-8"),
                ("Content-Length", str(len(body))),
                ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
                *headers,
            ],
        )
        return [body]

    def answer(self, environ: Mapping[str, Any]) -> tuple[int, bytes, list[tuple[str, str]]]:
        if not self.hosts.accepts(environ.get("HTTP_HOST")):
            raise self.hosts.refusal()
        method = environ.get("REQUEST_METHOD", "GET")
        path = environ.get("PATH_INFO", "") or "/"
        found = self.routes.find(path)
        if not found:
            raise Refused(404, f"no route {path!r} (routes: {self.routes.known()})", field="path")
        chosen = [(route, params) for route, params in found if method in route.methods()]
        if not chosen:
            allowed = ", ".join(route.method for route, _ in found)
            raise Refused(405, f"{path} takes {allowed}", [("Allow", allowed)], field="method")
        route, params = chosen[0]
        options = self._query(environ, route.query)
        if route.check is not None:
            route.check(options)
        body = self._body(environ) if route.body is not None else None
        if route.worker:
            return self._compute(route, {**params, **options}, body or b"")
        if route.static:
            answer = self.static[route.shown]
        else:
            answer = route.handler(self, Request(route, params, options, body, environ))
        return 200, b"" if method == "HEAD" else answer, []

    # -- parts of a request -------------------------------------------------------------

    def _query(self, environ: Mapping[str, Any], known: Mapping[str, Callable]) -> dict[str, Any]:
        raw = environ.get("QUERY_STRING", "") or ""
        if len(raw) > MAX_QUERY_BYTES:
            raise Refused(414, f"query longer than {MAX_QUERY_BYTES} bytes", field="query")
        fields = raw.count("&") + 1 if raw else 0  # as parse_qsl counts them
        if fields > MAX_QUERY_FIELDS:
            raise Refused(
                400,
                f"{fields} query parameters, more than the {MAX_QUERY_FIELDS} a request may "
                "have (the service's limit of query parameters)",
                field="query",
            )
        try:
            pairs = parse_qsl(raw, keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            raise Refused(
                400, "the query's percent-encoded bytes are not UTF-8", field="query"
            ) from None
        options: dict[str, Any] = {}
        for key, value in pairs:
            convert = known.get(key)
            if convert is None:
                names = ", ".join(known) or "none"
                raise Refused(400, f"unknown query parameter (known: {names})", field=key[:40])
            if key in options:
                raise Refused(400, "given twice", field=key)
            options[key] = convert(key, value)
        return options

    def _body(self, environ: Mapping[str, Any]) -> bytes:
        media = (environ.get("CONTENT_TYPE") or "").split(";")
        if media[0].strip().lower() != "application/json":
            raise Refused(
                415, "send the tournament as Content-Type: application/json", field="Content-Type"
            )
        for parameter in media[1:]:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "charset" and value.strip().strip('"').lower() != "utf-8":
                raise Refused(415, "JSON is read as UTF-8 only", field="Content-Type")
        limit = self.limits.max_request_bytes
        too_large = Refused(
            413,
            f"request body larger than {limit} bytes (config serve.max_request_bytes)",
            field="body",
            limit="serve.max_request_bytes",
        )
        stream = environ["wsgi.input"]
        length_text = (environ.get("CONTENT_LENGTH") or "").strip()
        if length_text:
            if not length_text.isdigit() or len(length_text) > 18:
                raise Refused(400, "not a byte count", field="Content-Length")
            length = int(length_text)
            if length > limit:
                raise too_large
            body = stream.read(length)
            if len(body) != length:
                raise Refused(400, "body shorter than its Content-Length", field="body")
            return body
        if not environ.get("wsgi.input_terminated"):
            raise Refused(411, "send a Content-Length", field="Content-Length")
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise too_large
        return body

    def _compute(self, route: Route, options: dict[str, Any], body: bytes):
        limits = self.limits
        with self.lock:
            full = self.in_flight >= limits.in_flight
            if not full:
                self.in_flight += 1
        if full:
            raise Refused(
                503,
                f"{limits.concurrency} requests computing and {limits.max_waiting} waiting "
                "(config serve.concurrency, serve.max_waiting)",
                [("Retry-After", "1")],
                limit="serve.max_waiting",
            )
        try:
            return self._run(route, options, body)
        finally:
            with self.lock:
                self.in_flight -= 1

    def _run(self, route: Route, options: dict[str, Any], body: bytes):
        limits = self.limits
        try:
            status, answer = self.pool.run(
                (route.name, options, body), timeout=limits.timeout, wait=limits.queue_timeout
            )
        except pools.Busy:
            raise Refused(
                503,
                f"all {limits.concurrency} workers busy for {limits.queue_timeout:g} s "
                "(config serve.concurrency, serve.queue_timeout)",
                [("Retry-After", "1")],
                limit="serve.concurrency",
            ) from None
        except pools.TimeLimit:
            raise Refused(
                504,
                f"the request took longer than {limits.timeout:g} s (config serve.timeout)",
                limit="serve.timeout",
            ) from None
        except pools.Stopped:
            raise Refused(503, "the service is stopping", [("Retry-After", "1")]) from None
        except pools.WorkerLost:
            incident = uuid.uuid4().hex[:12]
            sys.stderr.write(
                f"sodos serve: incident {incident}: a worker died computing {route.name}\n"
            )
            raise Refused(500, "internal error", incident=incident) from None
        return status, answer, []

    def close(self) -> None:
        """Stop the worker processes (also done when the process exits)."""
        self.pool.close()
