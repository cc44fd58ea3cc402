"""A server's live ratings: one finished game in, both players' new ratings out, kept
in a database (docs/ratings.md, "A server's live ratings").

Contract: :class:`~sodos_plugin.store.api.Store` opens (or creates) a store at a path
for one rating system and its parameters and rates each game the moment it is added,
reading and writing the two players only; it answers a player's rating, history and the
leaderboard, and voids or corrects a game so that every rating equals a batch run over
the corrected history. :mod:`.schema` is the database (one schema, its version, the
upgrades), :mod:`.games` what a game posted looks like, :mod:`.incremental` the
per-game form of each system (the system's own formula), :mod:`.api` the store.
"""

from sodos_plugin.store.api import Player, Rated, Store, StoreConflict
from sodos_plugin.store.games import LiveGame, parse_game

__all__ = ["LiveGame", "Player", "Rated", "Store", "StoreConflict", "parse_game"]
