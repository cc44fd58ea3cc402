"""A game posted to the store: checked member by member, and as the store keeps it.

Contract: :func:`parse_game` takes a :class:`~sodos_plugin.schemas.live.LiveGame` or a
mapping of its members and gives a :class:`Posted` — its day and time of day, both
players' keys (their id on the server when given, else their name by the identity rule
of docs/rules.md §8), Black's score from the SGF ``RE`` text (docs/rules.md §9), and its
content as canonical JSON (the same id posted again with other content is a conflict) —
or raises :class:`~sodos_plugin.errors.InputError` whose ``where`` names the member.
A game that no batch run would rate (self-play, no winner, void, won by default) is
refused the same way: the store rates exactly what ``sodos ratings`` rates.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date as Date
from typing import Any, NamedTuple

import msgspec

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import BLACK_SCORE
from sodos_plugin.errors import InputError
from sodos_plugin.readers.dated import time_of_day
from sodos_plugin.readers.sgf.results import parse_result
from sodos_plugin.schemas.live import LiveGame

__all__ = ["LiveGame", "Posted", "parse_game"]


class Posted(NamedTuple):
    """A game as the store rates and keeps it."""

    id: str
    date: str
    time: str | None
    black: str
    white: str
    black_key: str
    white_key: str
    black_id: str | None
    white_id: str | None
    score: float
    handicap: int
    komi: float | None
    size: int
    content: str
    black_rank: str | None = None
    white_rank: str | None = None


def _fail(where: str, message: str) -> InputError:
    return InputError(f"{where}: {message}", where=where)


def parse_game(game: LiveGame | Mapping[str, Any], where: str = "") -> Posted:
    """The game checked (``where``: its place in the request, ``games[3]``)."""
    at = f"{where}." if where else ""
    if not isinstance(game, LiveGame):
        if not isinstance(game, Mapping):
            raise _fail(where or "game", f"expected a JSON object, got {type(game).__name__}")
        try:
            game = msgspec.convert(dict(game), LiveGame)
        except msgspec.ValidationError as error:
            text = str(error)
            member = text.rpartition("at `$.")[2].rstrip("`") if "at `$." in text else ""
            field = member.split("[")[0].split(".")[0] if member else ""
            if not field and "missing required field" in text:
                field = text.split("`")[1]
            if not field and "unknown field" in text:
                field = text.split("`")[1]
            raise _fail(f"{at}{field}" if field else where or "game", text) from None
    day_text = game.date
    try:
        day = Date.fromisoformat(day_text[:10]).isoformat()
    except ValueError:
        raise _fail(f"{at}date", f"{day_text!r} is not an ISO date (YYYY-MM-DD)") from None
    time = None
    if len(day_text) > 10:
        time = time_of_day(day_text)
        if time is None:
            raise _fail(f"{at}date", f"{day_text!r}: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS]")
    parsed = parse_result(game.result)
    if parsed.how == "contradiction" or parsed.result not in BLACK_SCORE or parsed.by_default:
        why = "won by default" if parsed.by_default else parsed.note or "no winner or no result"
        raise _fail(f"{at}result", f"{game.result!r} is not a rated result ({why})")
    if (game.black_id is None) != (game.white_id is None):
        raise _fail(f"{at}white_id" if game.white_id is None else f"{at}black_id", "give both ids")
    if game.black_id is not None:
        black_key, white_key = f"id:{game.black_id}", f"id:{game.white_id}"
    else:
        black_key, white_key = (
            f"name:{identity_key(game.black)}",
            f"name:{identity_key(game.white)}",
        )
    if black_key == white_key:
        raise _fail(f"{at}white", "Black and White are the same player (self-play is not rated)")
    content = json.dumps(
        msgspec.to_builtins(game), sort_keys=True, ensure_ascii=True, separators=(",", ":")
    )
    return Posted(
        game.id, day, time, game.black, game.white, black_key, white_key, game.black_id,
        game.white_id, BLACK_SCORE[parsed.result], game.handicap, game.komi, game.size, content,
        game.black_rank, game.white_rank,
    )  # fmt: skip


#: The content a game loaded from a history is kept with: none (:func:`row_content`
#: makes it from the game's row when it is read: a history's millions of games are not
#: each written twice).
LOADED = ""

#: Black's score as the SGF ``RE`` text a loaded game's content gives.
_RESULT_TEXT = {1.0: "B+", 0.0: "W+"}

_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def row_content(gid, day, time, black, white, score, handicap, komi, size) -> str:
    """A loaded game's content, from its row: the text :func:`parse_game` gives the same
    game posted with its score as the result (``B+``, ``W+``, ``0``), no player ids and
    no ranks — what a conflict's message shows and a correction starts from."""
    return _canonical(
        dict(id=gid, date=day if time is None else f"{day}T{time}", black=black, white=white,
             result=_RESULT_TEXT.get(score, "0"), handicap=handicap, komi=komi, size=size,
             black_id=None, white_id=None)
    )  # fmt: skip
