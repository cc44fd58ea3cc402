"""The service's routes: one table, :data:`ROUTES`.

A route is one row — method, path (``/players/{id}`` takes a path parameter), query
parameters with their converters, the body's schema, the handler, the answer's schema,
and where the handler runs (a worker process, or the parent) — and everything the
service does with a request is read from the row: the 404 list, the 405 and its
``Allow``, the query's converters and check, whether a body is read, the job a worker
gets, the answers computed once. The schemas are names of ``sodos schema`` documents
(tests/faces/serve/test_routes.py checks them). Adding a route is adding a row
(docs/architecture.md).

Handlers:

* in a worker (``worker=True``): ``handler(worker, options, body) -> bytes``, where
  ``worker`` is the process's :class:`~sodos_plugin.serve.jobs.Worker` (its ``host``),
  ``options`` the converted query and path parameters, ``body`` the request's bytes.
  Computed within ``serve.timeout``; a crash stays in its process. The handler must be
  importable by name (a function at the top of a module, or a method of a class there):
  it reaches the worker processes by pickle. Errors: a ``SodosError`` naming a field is
  a 400 naming it (:class:`~sodos_plugin.serve.jobs.Stage`).
* in the parent (``worker=False``): ``handler(app, request) -> bytes``, ``app`` the
  :class:`~sodos_plugin.serve.app.App` (its ``host``, its ``pool``), ``request`` a
  :class:`Request`. For what is cheap and bounded, or must live in one process (a
  store's connection). Errors: raise :class:`~sodos_plugin.serve.jobs.Refused`.

The answer is 200 with the bytes the handler returns, as ``application/json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sodos_plugin import __version__
from sodos_plugin.plugins.report import plugin_rows
from sodos_plugin.schemas import codec, service
from sodos_plugin.serve.jobs import Refused, Worker

#: Longest text a query or path parameter may hold.
MAX_TEXT = 200


# -- converters of query and path parameters: (name, text) -> value, or Refused ------------


def round_number(key: str, value: str) -> int:
    if not value.isascii() or not value.isdigit() or len(value) > 4:
        raise Refused(400, "expected a round number >= 0", field=key)
    return int(value)


def names(key: str, value: str) -> list[str]:
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if not parts or len(parts) > 64:
        raise Refused(400, "expected 1 to 64 comma-separated names", field=key)
    return parts


def text(key: str, value: str) -> str:
    if len(value) > MAX_TEXT or not value.strip():
        raise Refused(
            400, f"expected a non-empty value of at most {MAX_TEXT} characters", field=key
        )
    return value


def one_of(*choices: str) -> Callable[[str, str], str]:
    shown = " or ".join(f'"{choice}"' for choice in choices)

    def convert(key: str, value: str) -> str:
        if value not in choices:
            raise Refused(400, f"expected {shown}", field=key)
        return value

    return convert


# -- the table's rows ---------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What a parent handler gets: its route, the path parameters, the converted
    query, and the body (None for a route without one)."""

    route: Route
    params: Mapping[str, Any]
    query: Mapping[str, Any]
    body: bytes | None
    environ: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Route:
    """One route; see the module docstring.

    :param method: ``GET`` (which answers ``HEAD`` too, without the body) or ``POST``...
    :param path: ``/standings``; a segment ``{name}`` is a path parameter, given to the
        handler under that name (read as UTF-8, converted by ``params[name]``, else
        :func:`text`)
    :param handler: see the module docstring
    :param query: the query parameters, in the order an error lists them, with their
        converters; any other is a 400
    :param body: the schema of the body (``sodos schema NAME``); None: no body is read
    :param answer: the schema of the answer (``sodos schema NAME``)
    :param worker: computed in a worker process (else in the parent)
    :param check: a rule across the query's parameters: raises Refused
    :param static: the answer does not change while the service runs: computed once,
        when the service starts (a parent route)
    :param params: converters of path parameters
    """

    method: str
    path: str
    handler: Callable[..., bytes]
    query: Mapping[str, Callable[[str, str], Any]] = field(default_factory=dict)
    body: str | None = None
    answer: str = ""
    worker: bool = False
    check: Callable[[Mapping[str, Any]], None] | None = None
    static: bool = False
    params: Mapping[str, Callable[[str, str], Any]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The route's name, as a worker's job and the service's log give it."""
        return self.path.strip("/")

    @property
    def shown(self) -> str:
        return f"{self.method} {self.path}"

    def methods(self) -> tuple[str, ...]:
        return (self.method, "HEAD") if self.method == "GET" else (self.method,)

    def match(self, path: str) -> dict[str, Any] | None:
        """The path parameters if ``path`` is this route's (converted), else None."""
        if "{" not in self.path:
            return {} if path == self.path else None
        wanted, given = self.path.split("/"), path.split("/")
        if len(wanted) != len(given):
            return None
        found: dict[str, Any] = {}
        for pattern, segment in zip(wanted, given, strict=True):
            if pattern.startswith("{") and pattern.endswith("}"):
                if not segment:
                    return None
                name = pattern[1:-1]
                found[name] = self.params.get(name, text)(name, _utf8(segment))
            elif pattern != segment:
                return None
        return found


def _utf8(segment: str) -> str:
    """A path segment as text: WSGI gives the path's bytes as Latin-1; they are UTF-8."""
    try:
        return segment.encode("latin-1").decode("utf-8")
    except UnicodeError:
        raise Refused(400, "the path is not UTF-8", field="path") from None


class Routes:
    """The table: its rows in the order the 404 answer lists them."""

    def __init__(self, routes: tuple[Route, ...] | list[Route]):
        self.routes = tuple(routes)
        #: the order :meth:`find` tries them in: routes without a path parameter first
        self._matched_first = sorted(self.routes, key=lambda r: "{" in r.path)
        seen = set()
        for route in self.routes:
            if (route.method, route.path) in seen:
                raise ValueError(f"route {route.shown} given twice")
            seen.add((route.method, route.path))

    def __iter__(self):
        return iter(self.routes)

    def find(self, path: str) -> list[tuple[Route, dict[str, Any]]]:
        """The routes of ``path`` (one per method) with its path parameters; a route
        without parameters before one with them."""
        found = []
        for route in self._matched_first:
            params = route.match(path)
            if params is not None and all(r.path == route.path for r, _ in found):
                found.append((route, params))
        return found

    def known(self) -> str:
        return ", ".join(route.shown for route in self.routes)

    def computed(self) -> dict[str, Callable[..., bytes]]:
        """What the worker processes compute: route name → handler."""
        return {route.name: route.handler for route in self.routes if route.worker}

    def __add__(self, more: tuple[Route, ...] | list[Route]) -> Routes:
        return Routes((*self.routes, *more))


# -- the parent's handlers ------------------------------------------------------------------


def health(app: Any, request: Request) -> bytes:
    answer = service.Health(
        status="ok",
        version=__version__,
        workers=app.limits.concurrency,
        idle=app.pool.idle_count,
        restarts=app.pool.restarts,
        served=app.served,
    )
    return codec.encode(answer) + b"\n"


def criteria(app: Any, request: Request) -> bytes:
    """What ``sodos plugins --kind criterion --format json`` prints."""
    return service.plugins_report(plugin_rows(app.host.registry, "criterion")) + b"\n"


def plugins(app: Any, request: Request) -> bytes:
    """What ``sodos plugins --format json`` prints."""
    return service.plugins_report(plugin_rows(app.host.registry)) + b"\n"


def one_player(options: Mapping[str, Any]) -> None:
    if ("player" in options) == ("id" in options):
        raise Refused(400, "give the player: ?player=NAME or ?id=ID", field="player")


RANKING = {"round": round_number, "criteria": names, "system": text}

#: Every route of the service (docs/hosts.md).
ROUTES = Routes(
    [
        Route("GET", "/health", health, answer="health"),
        Route("GET", "/criteria", criteria, answer="plugins", static=True),
        Route("GET", "/plugins", plugins, answer="plugins", static=True),
        Route(
            "POST",
            "/standings",
            Worker.standings,
            query=RANKING,
            body="tournament",
            answer="standings",
            worker=True,
        ),
        Route(
            "POST",
            "/explain",
            Worker.explain,
            query={**RANKING, "player": text, "id": text},
            body="tournament",
            answer="explain",
            worker=True,
            check=one_player,
        ),
        Route(
            "POST",
            "/ratings",
            Worker.ratings,
            # ``rating`` names the system as ``--rating`` does; ``system`` is its old spelling
            query={"rating": text, "system": text, "initial": one_of("ranks", "files")},
            body="tournament",
            answer="ratings",
            worker=True,
        ),
    ]
)


def run(host: Any, job: tuple[str, Mapping[str, Any], bytes], routes: Routes = ROUTES):
    """``job`` = (route name, options, body) → (status, body), computed here as a
    worker computes it (tests, benchmarks)."""
    return Worker(host, routes.computed()).run(*job)
