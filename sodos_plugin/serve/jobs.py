"""What a worker computes for one request: the body in, ``(status, JSON bytes)`` out.

Contract: :meth:`Worker.run` never raises. A document the CLI prints for the same input
is returned byte for byte (``sodos standings --format json``, ``sodos explain --format
json``, ``sodos ratings --format json``): the same reader, host calls, documents and
encoder. A problem with the request is a 400 naming the field (``games[12].white``,
``round``, ``player``); a plugin's failure or a bug is a 500 that names the plugin and
hook, or an incident number, and nothing else (the details go to the service's stderr).

A request is decode → compute → encode: what does not depend on the request (the host
with its plugins and settings, the reader's limits) is built once per worker
(:class:`Worker`).
"""

from __future__ import annotations

import io
import sys
import traceback
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sodos_plugin.engine.explain import document as explanation_document
from sodos_plugin.engine.explain import explain_player
from sodos_plugin.errors import InputError, LimitError, PluginError, SodosError
from sodos_plugin.ratings.report import write
from sodos_plugin.readers import json_tournament
from sodos_plugin.schemas import codec, service
from sodos_plugin.util.gcpause import paused_gc
from sodos_plugin.util.textsafe import fit, fit_middle, printable

#: ``source`` of the tournament in a request (shown in the document's warnings).
SOURCE = "request"


#: Most characters of a stranger's text an error answer echoes (in ``field`` and the
#: message): a 20 000-character key is shown by its start, ending with ``…``.
MAX_ECHOED = 200
MAX_MESSAGE = 1000


def _echoed(text: str, width: int, cut: Callable[[str, int], str] = fit) -> str:
    """Stranger's text as an error answer shows it: controls escaped visibly
    (``\\x1b``, :func:`~sodos_plugin.util.textsafe.printable`), cut to ``width``."""
    return cut(printable(text), width)


def error_body(status: int, message: str, **extra: Any) -> bytes:
    """The body of every error answer (``sodos schema error``): strict JSON in ASCII,
    nothing raw, nothing long (:data:`MAX_ECHOED`)."""
    given = {
        key: _echoed(value, MAX_ECHOED) if isinstance(value, str) else value
        for key, value in extra.items()
        if value is not None
    }
    message = _echoed(message, MAX_MESSAGE, fit_middle)
    return codec.encode_ascii(service.Error(error=message, status=status, **given)) + b"\n"


class Refused(Exception):
    """An answer decided without computing (4xx, 503): raised by the parent's routing
    and by a parent route's handler (serve/routes.py)."""

    def __init__(self, status: int, message: str, headers: Iterable[tuple[str, str]] = (), **extra):
        self.status = status
        self.body = error_body(status, message, **extra)
        self.headers = list(headers)


#: The core's field names (an error's ``where``) -> the service's: its query parameters.
#: Any other ``where`` (a path in the body: ``games[12].white``) is the field as it is.
FIELDS = {"round": "round", "criteria": "criteria", "rating": "rating"}


class _BadRequest(Exception):
    def __init__(self, message: str, field: str, status: int = 400, limit: str | None = None):
        self.message = message
        self.field = field
        self.status = status
        self.limit = limit


class Stage:
    """A step of a request: a SodosError (not a plugin's) is a 400 naming the field,
    as the client named it (``fields``: the core's name of a field → the query
    parameter the client sent for it)."""

    def __init__(self, default_field: str, fields: Mapping[str, str] | None = None):
        self.default_field = default_field
        self.fields = {**FIELDS, **(fields or {})}  # a request's own spelling of a field

    def __enter__(self) -> Stage:
        return self

    def __exit__(self, kind: Any, error: Any, tb: Any) -> bool:
        if isinstance(error, LimitError):  # inside the byte limits, too much work: 413
            raise _BadRequest(str(error), "body", 413, error.limit) from error
        if isinstance(error, SodosError) and not isinstance(error, PluginError):
            where, message = error.where or "", error.message
            if where.startswith("line "):  # JSON syntax: the place is in the body
                message, where = f"{message} ({where})", ""
            field = self.fields.get(where, where) or self.default_field
            raise _BadRequest(message, field) from error
        return False


class Worker:
    """One worker's state, built once: the host (config, plugins, settings), the JSON
    reader's limits and the handlers of the routes computed in workers (route name →
    ``handler(worker, options, body)``, from the route table, serve/routes.py);
    :meth:`run` answers one job. The handlers of the built-in routes are its methods."""

    def __init__(self, host: Any, handlers: Mapping[str, Callable[..., bytes]]):
        self.host = host
        section = host.settings.plugin_sections.get(json_tournament.PLUGIN, {})
        self.limits = json_tournament.Limits.from_options(section)
        self.handlers = dict(handlers)

    def run(self, route: str, options: Mapping[str, Any], body: bytes) -> tuple[int, bytes]:
        """(status, answer) of one request; never raises. The cyclic collector is paused
        while it computes (a request makes thousands of objects and no cycles), and
        collects between requests (sodos_plugin.util.gcpause)."""
        try:
            with paused_gc():
                return 200, self.handlers[route](self, options, body)
        except _BadRequest as bad:
            return bad.status, error_body(bad.status, bad.message, field=bad.field, limit=bad.limit)
        except Exception as error:  # a plugin's failure or a bug: the service goes on
            return 500, incident(error)

    def _standings(self, options: Mapping[str, Any], body: bytes):
        host = self.host
        with Stage("body"):
            tournament, warnings = json_tournament.parse(body, SOURCE, limits=self.limits)
        with Stage("query"):
            names = options.get("criteria")
            if names:  # as registered: "sosm-1" is shown as SOSM-1 (as the CLI does)
                names = [c.name for c in host.resolve_criteria(names)]
            return host.standings(
                tournament,
                round=options.get("round"),
                criteria=names,
                system=options.get("system"),
                warnings=warnings,
            )

    def standings(self, options: Mapping[str, Any], body: bytes) -> bytes:
        # the json writer plugin (a third party may replace it), as the CLI runs it
        return self.host.render(self._standings(options, body), "json").encode("utf-8")

    def explain(self, options: Mapping[str, Any], body: bytes) -> bytes:
        result = self._standings(options, body)
        with Stage("player"):
            wanted: str | int = options.get("player", "")
            if "id" in options:
                ids = [i for i, p in enumerate(result.tournament.players) if p.id == options["id"]]
                if not ids:
                    raise InputError(f"no player has the id {options['id']!r}", where="id")
                wanted = ids[0]
            explanation = explain_player(result, wanted)
        return codec.encode(explanation_document(explanation, result.warnings)) + b"\n"

    def ratings(self, options: Mapping[str, Any], body: bytes) -> bytes:
        """A tournament, or an array of tournaments (a history, each dated), rated as
        ``sodos ratings FILE... --format json`` rates the same files."""
        host = self.host
        with Stage("body"):
            tournaments, warnings = json_tournament.parse_many(body, SOURCE, limits=self.limits)
        # the rating system is ?rating= (or ?system=, its old spelling): an error about it
        # names the parameter the client sent
        sent = "system" if "system" in options and "rating" not in options else "rating"
        with Stage("query", {"system": sent, "rating": sent}):
            history = host.history(tournaments=tournaments)
            named = [options[k] for k in ("rating", "system") if k in options]
            if len(set(named)) > 1:
                raise InputError("rating and system name one choice: give one", where="rating")
            result = host.ratings(
                history, rating=named[0] if named else None, initial=options.get("initial")
            )
            if "system" in options:  # the old spelling, said in the answer
                result.notes.append(
                    "?system= is the old spelling of ?rating= (the rating system); "
                    "system names the pairing system on /standings and /explain"
                )
        result.warnings[:0] = warnings
        stream = io.StringIO()
        write(result, "json", stream)
        return stream.getvalue().encode("utf-8")


def incident(error: BaseException) -> bytes:
    """The 500 answer to ``error``: an incident number, the plugin and hook if a plugin
    failed, and nothing else; the details go to the service's stderr under that number."""
    number = uuid.uuid4().hex[:12]
    if isinstance(error, PluginError):
        sys.stderr.write(f"sodos serve: incident {number}: {error}\n")
        return error_body(
            500, "a plugin failed", plugin=error.plugin, hook=error.hook, incident=number
        )
    sys.stderr.write(f"sodos serve: incident {number}:\n{traceback.format_exc()}")
    return error_body(500, "internal error", incident=number)
