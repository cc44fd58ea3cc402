"""The live store's routes of ``sodos serve --store PATH`` (docs/ratings.md, "A server's
live ratings").

Contract: :data:`ROUTES` lists each route (method, path pattern, handler); :class:`Live`
answers a request that one of them matches, else None. Every game is written by the
service's parent process, one request after another (the store's lock), so the store's
order is the order of arrival; every answer is strict JSON of a ``sodos schema live-*``
document or ``error``:

* ``POST /games``: one game or an array (``sodos schema live-game``) → ``live-games``;
  a malformed game is 400 naming its member (``games[3].result``), the same id with
  other content 409;
* ``GET /players/{name or id}`` → ``live-player``; ``GET /players/{...}/history`` →
  ``live-history``; 404 when unknown;
* ``GET /leaderboard?limit=&offset=`` → ``live-leaderboard``;
* ``POST /games/{id}/void`` → ``live-void``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from sodos_plugin.errors import InputError, LimitError
from sodos_plugin.schemas import codec, live
from sodos_plugin.serve.app import Refused
from sodos_plugin.store.api import NotFound, Rated, StoreConflict

__all__ = ["ROUTES", "Live", "game_rated"]


def _state(store, name: str, state) -> live.PlayerState:
    return live.PlayerState(
        name=name, rating=state.rating, deviation=state.deviation,
        volatility=state.volatility, rank=store.rater.label(state),
    )  # fmt: skip


def game_rated(store, rated: Rated) -> live.GameRated:
    """A game rated as ``POST /games`` answers it."""
    return live.GameRated(
        id=rated.id, order=rated.order, already=rated.already,
        black=_state(store, *rated.black), white=_state(store, *rated.white),
    )  # fmt: skip


def _refused(error: InputError) -> Refused:
    if isinstance(error, StoreConflict):
        return Refused(409, error.message, field=error.where or "id")
    if isinstance(error, NotFound):
        return Refused(404, error.message, field=error.where or "path")
    if isinstance(error, LimitError):
        return Refused(413, error.message, field="body", limit=error.limit)
    if error.where is None:  # the store cannot be written (locked, full, read-only)
        return Refused(503, str(error), [("Retry-After", "1")])
    return Refused(400, error.message, field=error.where)


class Live:
    """The routes of one store, answered in the service's parent process."""

    def __init__(self, store):
        self.store = store

    def answer(self, app, method: str, path: str, environ: Mapping[str, Any]):
        """``(status, body, headers)`` of a live route, or None: no route matches."""
        for verb, pattern, handler in ROUTES:
            found = pattern.fullmatch(path)
            if found is None:
                continue
            if method != verb:
                raise Refused(405, f"{path} takes {verb}", [("Allow", verb)], field="method")
            try:
                document = handler(self, app, environ, *found.groups())
            except InputError as error:
                raise _refused(error) from None
            return 200, codec.encode(document) + b"\n", []
        return None

    def post_games(self, app, environ) -> live.GamesRated:
        app._query(environ, {})
        body = app._body(environ)
        try:
            posted = msgspec.json.decode(body)
        except msgspec.DecodeError as error:
            raise Refused(400, f"not JSON: {error}", field="body") from None
        games = posted if isinstance(posted, list) else [posted]
        if not games:
            raise Refused(400, "no game: post one game object or an array of them", field="body")
        rated = self.store.add_many(games)
        return live.GamesRated(
            system=self.store.system, games=[game_rated(self.store, r) for r in rated]
        )

    def void(self, app, environ, game_id: str) -> live.Voided:
        app._query(environ, {})
        rerated = self.store.void(_text(game_id))
        return live.Voided(id=_text(game_id), voided=True, rerated=rerated)

    def player(self, app, environ, who: str) -> live.Player:
        app._query(environ, {})
        return self.store.player_answer(_text(who))

    def history(self, app, environ, who: str) -> live.History:
        app._query(environ, {})
        return self.store.history(_text(who))

    def leaderboard(self, app, environ) -> live.Leaderboard:
        options = app._query(environ, {"limit": "text", "offset": "text"})
        numbers = {"limit": 100, "offset": 0}
        for key, text in options.items():
            if not text.isascii() or not text.isdigit() or len(text) > 12:
                raise Refused(400, "expected a whole number >= 0", field=key)
            numbers[key] = int(text)
        return self.store.leaderboard(numbers["limit"], numbers["offset"])


def _text(segment: str) -> str:
    """A path segment as text (WSGI gives the bytes as Latin-1; they are UTF-8)."""
    try:
        return segment.encode("latin-1").decode("utf-8")
    except UnicodeError:
        raise Refused(400, "the path is not UTF-8", field="path") from None


_SEGMENT = r"([^/]{1,200})"
#: (method, path, handler): the live routes, one table.
ROUTES: list[tuple[str, re.Pattern, Callable[..., Any]]] = [
    ("POST", re.compile(r"/games"), Live.post_games),
    ("POST", re.compile(rf"/games/{_SEGMENT}/void"), Live.void),
    ("GET", re.compile(rf"/players/{_SEGMENT}/history"), Live.history),
    ("GET", re.compile(rf"/players/{_SEGMENT}"), Live.player),
    ("GET", re.compile(r"/leaderboard"), Live.leaderboard),
]
