"""The live store's routes of ``sodos serve --store PATH`` (docs/ratings.md, "A server's
live ratings").

Contract: :data:`ROUTES` are rows of the service's one route table (serve/routes.py),
added by ``sodos serve --store``; their handlers run in the parent and reach the store
as ``app.live.store`` (:class:`Live`). Every game is written by the service's parent
process, in the order the requests reach the store (the requests that arrive while a
commit runs share the next transaction: store/group.py), so the store's order is the
order of arrival; every answer is strict JSON of a ``sodos schema live-*``
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

from typing import Any

import msgspec

from sodos_plugin.errors import InputError, LimitError
from sodos_plugin.schemas import codec, live
from sodos_plugin.serve.jobs import Refused
from sodos_plugin.serve.routes import Request, Route
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
    """The store the live routes answer from, held by the service's parent process
    (``app.live``)."""

    def __init__(self, store):
        self.store = store


def _answer(document: Any) -> bytes:
    return codec.encode(document) + b"\n"


def post_games(app, request: Request) -> bytes:
    store = app.live.store
    try:
        posted = msgspec.json.decode(request.body or b"")
    except msgspec.DecodeError as error:
        raise Refused(400, f"not JSON: {error}", field="body") from None
    games = posted if isinstance(posted, list) else [posted]
    if not games:
        raise Refused(400, "no game: post one game object or an array of them", field="body")
    try:
        rated = store.add_many(games)
    except InputError as error:
        raise _refused(error) from None
    return _answer(
        live.GamesRated(system=store.system, games=[game_rated(store, r) for r in rated])
    )


def void(app, request: Request) -> bytes:
    game_id = request.params["id"]
    try:
        rerated = app.live.store.void(game_id)
    except InputError as error:
        raise _refused(error) from None
    return _answer(live.Voided(id=game_id, voided=True, rerated=rerated))


def player(app, request: Request) -> bytes:
    try:
        return _answer(app.live.store.player_answer(request.params["id"]))
    except InputError as error:
        raise _refused(error) from None


def history(app, request: Request) -> bytes:
    try:
        return _answer(app.live.store.history(request.params["id"]))
    except InputError as error:
        raise _refused(error) from None


def leaderboard(app, request: Request) -> bytes:
    limit, offset = request.query.get("limit", 100), request.query.get("offset", 0)
    try:
        return _answer(app.live.store.leaderboard(limit, offset))
    except InputError as error:
        raise _refused(error) from None


def whole(key: str, value: str) -> int:
    """A query parameter that is a whole number >= 0."""
    if not value.isascii() or not value.isdigit() or len(value) > 12:
        raise Refused(400, "expected a whole number >= 0", field=key)
    return int(value)


#: The live routes: rows of the service's table (serve/routes.py) when it serves a store.
ROUTES = [
    Route("POST", "/games", post_games, body="live-game", answer="live-games"),
    Route("POST", "/games/{id}/void", void, answer="live-void"),
    Route("GET", "/players/{id}/history", history, answer="live-history"),
    Route("GET", "/players/{id}", player, answer="live-player"),
    Route(
        "GET",
        "/leaderboard",
        leaderboard,
        query={"limit": whole, "offset": whole},
        answer="live-leaderboard",
    ),
]
