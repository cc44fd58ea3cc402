"""An example sodos plugin: one criterion, one writer, one reader, one rating system.

* ``BWG`` — games won with Black over the board (FIDE C.07 "BWG"); by-default wins
  do not count, nor games whose colours the source does not give (an unknown colour
  is not Black).
* ``markdown`` — standings as a Markdown table.
* ``pairs`` — reads a small text format (``*.pairs``)::

      sodos-pairs
      rounds 2
      player | Ann | 3d
      player | Bob | 1k
      game | 1 | Ann | Bob | B+ | 0
      bye | 2 | Ann

* ``elo`` — plain Elo: each game rated at once, ``K·(S − E)``, ``E = 1/(1 + 10^(Δ/400))``.
"""

from __future__ import annotations

from sodos_hookspecs import (
    Breakdown,
    Criterion,
    Parameter,
    RatingResult,
    RatingState,
    RatingStep,
    RatingSystem,
    Reader,
    ReadResult,
    RoundTable,
    Writer,
    hookimpl,
)

from sodos_plugin import (
    Game,
    InputError,
    Player,
    Result,
    Tournament,
    format_rank,
    format_value,
    parse_rank,
)

# -- criterion ---------------------------------------------------------------------------


def black_wins(ctx) -> Breakdown:
    """Per round: 1 if the player won with Black over the board, else 0."""
    rows = [[0] * ctx.size for _ in range(ctx.round)]
    black = [[0] * ctx.size for _ in range(ctx.round)]
    for game in ctx.tournament.games:
        if game.round > ctx.round or not game.colours_known:
            continue  # later games do not count; nor a game without colours: none was Black
        black[game.round - 1][game.black] = 1
        won = game.result in (Result.BLACK_WINS, Result.BOTH_WIN)
        if won and not game.by_default:
            rows[game.round - 1][game.black] = 1
    # details are shown by `sodos explain`, next to each round's contribution
    return Breakdown(denominator=1, contributions=rows, details={"black": RoundTable(1, black)})


@hookimpl
def sodos_criteria() -> list[Criterion]:
    return [
        Criterion(
            name="BWG",
            description="games won with Black over the board",
            compute=black_wins,
            source="FIDE Handbook C.07 (BWG)",
        )
    ]


# -- writer ------------------------------------------------------------------------------


def write_markdown(standings, stream) -> None:
    header = ["Pl", "Name", "Rank", *standings.criteria]
    stream.write("| " + " | ".join(header) + " |\n")
    stream.write("|" + "---|" * len(header) + "\n")
    for row in standings.rows():
        rank = "" if row.player.rank is None else format_rank(row.player.rank)
        values = [format_value(row.values[c]) for c in standings.criteria]
        place = f"{row.place}{'=' if row.tied else ''}"
        stream.write("| " + " | ".join([place, row.player.name, rank, *values]) + " |\n")


@hookimpl
def sodos_writers() -> list[Writer]:
    return [Writer("markdown", "standings as a Markdown table", write_markdown)]


# -- reader ------------------------------------------------------------------------------

MAGIC = b"sodos-pairs"
MAX_BYTES = 1 << 20
RESULTS = {"B+": Result.BLACK_WINS, "W+": Result.WHITE_WINS, "=": Result.JIGO, "?": Result.UNKNOWN}


def claims(path, head: bytes) -> bool:
    return path.suffix == ".pairs" and head.startswith(MAGIC)


def read_pairs(paths, options) -> ReadResult:
    if len(paths) != 1:
        raise InputError("give one .pairs file per tournament", source=str(paths[1]))
    path = paths[0]
    players, games, byes, rounds = [], [], set(), 0
    index: dict[str, int] = {}
    if path.stat().st_size > MAX_BYTES:  # bounded memory on any input
        raise InputError(f"larger than {MAX_BYTES} bytes", source=str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines[1:], start=2):
        fields = [f.strip() for f in line.split("|")]
        where = f"line {number}"
        try:
            if fields[0].startswith("rounds "):
                rounds = int(fields[0].split()[1])
            elif fields[0] == "player" and len(fields) == 3:
                if fields[1] in index:
                    raise ValueError(f"player {fields[1]!r} is listed twice")
                index[fields[1]] = len(players)
                players.append(Player(fields[1], rank=parse_rank(fields[2])))
            elif fields[0] == "game" and len(fields) == 6:
                black, white = index[fields[2]], index[fields[3]]
                result = RESULTS[fields[4]]
                games.append(Game(int(fields[1]), black, white, result, int(fields[5])))
            elif fields[0] == "bye" and len(fields) == 3:
                byes.add((int(fields[1]), index[fields[2]]))
            elif fields[0]:
                raise ValueError("expected 'rounds N', 'player', 'game' or 'bye'")
        except KeyError as error:
            message = f"unknown player or result {error}"
            raise InputError(message, source=str(path), where=where) from None
        except ValueError as error:
            raise InputError(str(error), source=str(path), where=where) from None
    try:
        tournament = Tournament(
            path.stem, rounds, tuple(players), tuple(games), frozenset(byes), source=str(path)
        )
    except ValueError as error:  # the model's own checks: two games in a round...
        raise InputError(str(error), source=str(path)) from None
    return ReadResult(tournament)


@hookimpl
def sodos_readers() -> list[Reader]:
    return [Reader("pairs", "example text format (*.pairs)", claims, read_pairs)]


# -- rating system -----------------------------------------------------------------------


def rate_elo(history, initial, params) -> RatingResult:
    """One game at a time in the history's order (date, event, round...), both players
    from their ratings before the game. ``initial`` maps names to starting ratings."""
    k, start = params["k"], params["start"]
    ratings, steps = {}, []
    for game in history.games:
        for name in (game.black, game.white):
            if name not in ratings:
                given = initial.get(name)
                ratings[name] = given.state.rating if given else start
        black, white = ratings[game.black], ratings[game.white]
        expected = 1 / (1 + 10 ** ((white - black) / 400))  # Black's expected score
        change = k * (game.result - expected)
        for name, before, delta, opponent in (
            (game.black, black, change, game.white),
            (game.white, white, -change, game.black),
        ):
            ratings[name] = before + delta
            after = RatingState(before + delta)
            parts = ((f"vs {opponent}", delta),)  # explain --ratings shows them
            steps.append(
                RatingStep(name, game.source, game.date, RatingState(before), after, 1, parts)
            )
    final = {name: RatingState(r) for name, r in ratings.items()}
    return RatingResult(steps=steps, final=final)


@hookimpl
def sodos_rating_systems() -> list[RatingSystem]:
    return [
        RatingSystem(
            name="elo",
            description="plain Elo, one game at a time",
            rate=rate_elo,
            parameters=(
                Parameter("k", 20.0, "K factor: points moved by a full surprise"),
                Parameter("start", 1500.0, "first rating of a player not in --initial"),
            ),
            source="Elo, The Rating of Chessplayers (1978)",
        )
    ]
