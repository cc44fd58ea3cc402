"""Embedding sodos in a pairing program: no files, the host's own objects."""

import sys

from sodos_hookspecs import Breakdown, Criterion, hookimpl

from sodos_plugin import Game, Host, Player, Result, Tournament, format_value, parse_rank

# 1. The manager, created from config (the same keys as sodos.toml; docs/config.md).
host = Host(
    {"system": "mcmahon", "mcmahon": {"bar": "1d"}, "criteria": ["MMS", "SOS", "SODOS"]},
    config_file=False,  # read no sodos.toml from the working directory
    entry_points=False,  # only built-ins and what we register below
)

# 2. The host's own data: registrations and results as the pairing program keeps them.
registrations = [("Ann", "2d"), ("Bob", "1d"), ("Cid", "1k"), ("Dan", "3k")]
results = [  # round, black, white, winner, handicap
    (1, "Bob", "Ann", "black", 0),
    (1, "Dan", "Cid", "white", 0),
    (2, "Cid", "Ann", "white", 0),
    (2, "Dan", "Bob", "black", 2),
    (3, "Dan", "Ann", "white", 0),
    (3, "Bob", "Cid", "?", 0),  # still being played
]
WINNER = {"black": Result.BLACK_WINS, "white": Result.WHITE_WINS, "?": Result.UNKNOWN}
index = {name: i for i, (name, _) in enumerate(registrations)}
players = tuple(Player(name, rank=parse_rank(rank)) for name, rank in registrations)
games = tuple(Game(r, index[b], index[w], WINNER[win], h) for r, b, w, win, h in results)
tournament = Tournament("Club league", rounds=3, players=players, games=games)


# 3. A plugin object registered at run time: wins against stronger players.
class Upsets:
    @hookimpl
    def sodos_criteria(self):
        def compute(ctx):
            rank = [p.rank for p in ctx.tournament.players]
            rows = [[0] * ctx.size for _ in range(ctx.round)]
            for r in range(ctx.round):
                for p, opponent in enumerate(ctx.pairings.opponent[r]):
                    won = ctx.pairings.half_points[r][p] == 2
                    if opponent >= 0 and won and rank[opponent] > rank[p]:
                        rows[r][p] = 1
            return Breakdown(denominator=1, contributions=rows)

        return [Criterion("UPSETS", "wins against stronger players", compute)]


host.register(Upsets(), name="upsets")

# 4. Standings after round 2, then after round 3 with the new criterion.
after2 = host.standings(tournament, round=2)
for row in after2.rows():
    values = "  ".join(f"{c} {format_value(row.values[c])}" for c in after2.criteria)
    print(f"{row.place}{'=' if row.tied else ' '} {row.player.name}  {values}")

after3 = host.standings(tournament, criteria=["MMS", "UPSETS", "SOS"])
host.write(after3, "csv", sys.stdout)
