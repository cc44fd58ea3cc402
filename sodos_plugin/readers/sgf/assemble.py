"""Game records → one :class:`~sodos_plugin.model.Tournament`, with an account of every file.

Contract: :func:`assemble` takes the per-file outcomes (in input order) and returns
the tournament, one :class:`FileReport` per file — ``ingested``, ``duplicate``,
``excluded`` (another event, not a record) or ``rejected`` with the reason — and
warnings. It raises :class:`~sodos_plugin.errors.InputError` naming both files when
the records contradict each other (issue 4, "Tournament assembly"):

* two events and none chosen (option ``event``);
* two different results (or handicaps) for one pairing of a round;
* a player in two games of one round (colours swapped counts as two games).

Rules:

* players are identified by name, exact after trimming, after the ``aliases`` map;
* the rank comes from ``BR``/``WR`` of the player's first round (the earliest
  round, then input order); a different rank later is a warning; a rank that is
  not a Go rank (``NR``, Elo ``1680*``) gives rank ``None`` and a warning;
* the round comes from ``RO`` (first integer) or OGS ``GN`` (``R:3``); a record
  with neither is rejected (unless it belongs to another event than the chosen one:
  then the file is only *excluded*);
* the same game twice (same round, players, colours, result, handicap) is counted
  once; the later file is reported as a duplicate of the first;
* a player without a game in a round is absent, unless the bye is marked: a record
  against ``bye_name`` or an entry of ``byes``;
* an unknown or void result keeps the pairing, is not scored, and is a warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sodos_hookspecs import FileReport

from sodos_plugin.errors import InputError
from sodos_plugin.model import Game, Player, Result, Tournament
from sodos_plugin.ranks import format_rank, parse_rank
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record
from sodos_plugin.readers.sgf.options import MAX_ROUNDS, SECTION, SgfOptions

__all__ = ["assemble"]


_INGESTED = ("ingested", "")


def _rank_text(rank: int | None) -> str:
    return "no rank" if rank is None else format_rank(rank)


def _check_record(record: Record) -> str | None:
    if record.round is None:
        if record.round_text:
            return f"{record.round_text}: no round number in it"
        return "no round: RO missing and GN has no 'R:n'"
    if not 1 <= record.round <= MAX_ROUNDS:
        return f"{record.round_text}: round {record.round} outside 1..{MAX_ROUNDS}"
    return None


def _choose_event(records: Iterable[Record], options: SgfOptions) -> str | None:
    first_file: dict[str, str] = {}
    for record in records:
        if record.event is not None:
            first_file.setdefault(record.event, record.source)
    if options.event is not None:
        if options.event not in first_file:
            known = ", ".join(repr(e) for e in first_file) or "none"
            raise InputError(
                f"event {options.event!r} is in no record (events found: {known})",
                source=SECTION,
                where="event",
            )
        return options.event
    if len(first_file) > 1:
        (a, fa), (b, fb) = list(first_file.items())[:2]
        more = f" and {len(first_file) - 2} more" if len(first_file) > 2 else ""
        raise InputError(
            f"records of two events: {a!r} ({fa}) and {b!r} ({fb}){more}; "
            f'choose one with {SECTION} event = "..."'
        )
    return next(iter(first_file), None)


def assemble(
    outcomes: Sequence[FileOutcome],
    options: SgfOptions,
    *,
    settings: Mapping[str, Any] | None = None,
    name: str = "",
    reports: Sequence[FileReport] = (),
) -> tuple[Tournament, list[FileReport], list[str]]:
    """Build the tournament; see the module documentation for the rules."""
    # One report per outcome, by position (no dict keyed by 100 000 file names).
    status: list[FileReport | None] = [None] * len(outcomes)
    warnings: list[str] = []
    usable: list[int] = []
    for position, outcome in enumerate(outcomes):
        if outcome.error is not None:
            status[position] = FileReport(outcome.source, "rejected", outcome.error)
            continue
        chosen = options.event
        if chosen is not None and all(r.event not in (None, chosen) for r in outcome.records):
            # another event's records are not read, so their faults do not matter
            other = sorted({repr(r.event) for r in outcome.records})
            reason = f"event {', '.join(other)}, not {chosen!r}"
            status[position] = FileReport(outcome.source, "excluded", reason)
            continue
        problem = None
        for record in outcome.records:
            if record.round is None or not 1 <= record.round <= MAX_ROUNDS:
                problem = record, _check_record(record)
                break
        if problem is not None:
            record, reason = problem
            where = (
                f"game {record.source.rsplit('#', 1)[1]}: "
                if record.source != outcome.source
                else ""
            )
            status[position] = FileReport(outcome.source, "rejected", where + reason)
            continue
        usable.append(position)

    event = _choose_event((r for p in usable for r in outcomes[p].records), options)
    alias = options.aliases
    bye_name = options.bye_name

    def who(name_: str) -> str:
        return alias.get(name_, name_)

    # Keyed by round, then by name: no tuple per seat (peak memory at 100 000 records).
    # Records are stored under the names after the aliases.
    games: dict[int, dict[str, Record]] = {}  # round → black → record (one game a round)
    seats: dict[int, dict[str, Record]] = {}  # round → player → record of the player's game
    byes: dict[tuple[int, str], str] = {}
    first_seen: dict[str, tuple[int, int]] = {}  # name → (first round, input order)
    no_event = 0
    order = 0
    for position in usable:
        outcome = outcomes[position]
        ingested = False
        others: list[tuple[str, str]] = []  # (status, reason) of records not ingested
        for record in outcome.records:
            source, black, white, _, _, result, _, r, _, record_event, _, handicap, notes = record
            if event is not None and record_event != event:
                if record_event is not None:
                    others.append(("excluded", f"event {record_event!r}, not {event!r}"))
                    continue
                no_event += 1
            if alias and (black in alias or white in alias):
                black, white = who(black), who(white)
                if black == white:
                    raise InputError(
                        f"round {r}: PB and PW are both {black!r} after the aliases",
                        source=source,
                    )
                record = record._replace(black=black, white=white)  # kept under its new names
            round_seats = seats.get(r)
            if round_seats is None:
                round_seats = seats[r] = {}
                games[r] = {}
            if bye_name is not None and bye_name in (black, white):
                player = white if black == bye_name else black
                seat = round_seats.get(player)
                if seat is not None:
                    raise InputError(
                        f"round {r}: {player!r} has the bye here and a game in {seat.source}",
                        source=source,
                    )
                if (r, player) in byes:
                    others.append(("duplicate", f"the same bye as {byes[(r, player)]}"))
                    continue
                byes[(r, player)] = source
                order += 1
                _seen(first_seen, player, r, order)
                ingested = True
                continue
            round_games = games[r]
            known = round_games.get(black)
            if known is not None and known.white == white:
                same = (
                    known.result.result is result.result
                    and known.result.by_default == result.by_default
                    and known.handicap == handicap
                )
                if not same:
                    raise InputError(
                        f"round {r}: {black} (B) vs {white} (W) has two different results: "
                        f"RE[{known.result_text}] HA[{known.handicap}] in {known.source} and "
                        f"RE[{record.result_text}] HA[{handicap}] in {source}"
                    )
                others.append(("duplicate", f"same game as {known.source}"))
                continue
            for player in (black, white):
                seat = round_seats.get(player)
                if seat is not None:
                    raise InputError(
                        f"round {r}: {player!r} is in two games: {seat.source} and {source}"
                    )
                if byes and (r, player) in byes:
                    raise InputError(
                        f"round {r}: {player!r} has a game here and the bye in {byes[(r, player)]}",
                        source=source,
                    )
                round_seats[player] = record
                order += 1
                seen = first_seen.get(player)
                if seen is None or r < seen[0]:
                    first_seen[player] = (r, order)
            round_games[black] = record
            if notes:
                warnings.extend(f"{source}: {note}" for note in notes)
            ingested = True
        if ingested:
            report = FileReport(outcome.source, "ingested")
        elif others and all(k == "duplicate" for k, _ in others):
            report = FileReport(outcome.source, "duplicate", others[0][1])
        else:
            kind = "excluded" if others else "rejected"
            reason = "; ".join(sorted({why for _, why in others})) or "no games"
            report = FileReport(outcome.source, kind, reason)
        status[position] = report

    if no_event:
        warnings.append(f"{no_event} record(s) have no EV; counted in event {event!r}")
    for r, names in sorted(options.byes.items()):
        for raw_name in names:
            player = who(raw_name)
            seat = seats.get(r, {}).get(player)
            if seat is not None:
                raise InputError(
                    f"byes.{r}: {player!r} has a game in round {r} ({seat.source})",
                    source=SECTION,
                    where=f"byes.{r}",
                )
            if player not in first_seen:
                # a typo here would add a player with bye points: said, not silent
                warnings.append(
                    f"{SECTION} byes.{r}: {player!r} is in no record; "
                    "added as a player who only had byes"
                )
            byes.setdefault((r, player), f"{SECTION} byes")
            _seen(first_seen, player, r, 10**9)

    # Players: by first appearance (round, then input order).
    names = sorted(first_seen, key=lambda n: first_seen[n][:2])
    index = {n: i for i, n in enumerate(names)}
    ranks, rank_warnings = _player_ranks(seats)
    players = []
    for player in names:
        warnings.extend(rank_warnings.get(player, ()))
        players.append(Player(player, ranks.get(player)))

    top = max([r for r, round_games in games.items() if round_games] + [r for r, _ in byes] + [0])
    rounds = top
    if options.rounds is not None:
        if options.rounds < top:
            raise InputError(
                f"rounds = {options.rounds} but records go up to round {top}",
                source=SECTION,
                where="rounds",
            )
        rounds = options.rounds
    game_list = [
        Game(r, index[rec.black], index[rec.white], *_outcome(rec))
        for r in sorted(games)
        for rec in sorted(games[r].values(), key=_by_source)
    ]
    bye_set = frozenset((r, index[p]) for r, p in byes)
    absent: list[tuple[int, int]] = []
    for r in range(1, rounds + 1):
        present = set(map(index.__getitem__, seats.get(r, ())))
        absent.extend((r, i) for i in range(len(players)) if i not in present)
    absences = frozenset(pair for pair in absent if pair not in bye_set)
    try:
        tournament = Tournament(
            name=event or name,
            rounds=rounds,
            players=tuple(players),
            games=tuple(game_list),
            byes=bye_set,
            absences=absences,
            settings=dict(settings or {}),
            source=name,
        )
    except ValueError as error:  # pragma: no cover - contradictions are caught above
        raise InputError(str(error)) from None
    files = list(reports)
    files.extend(status)  # type: ignore[arg-type]  # every position was filled above
    return tournament, files, warnings


def _by_source(record: Record) -> str:
    return record.source


def _outcome(record: Record) -> tuple[Result, int, bool]:
    return record.result.result, record.handicap, record.result.by_default


def _seen(first_seen: dict[str, tuple[int, int]], player: str, r: int, order: int) -> None:
    seen = first_seen.get(player)
    if seen is None or r < seen[0]:
        first_seen[player] = (r, order)


def _player_ranks(
    seats: Mapping[int, Mapping[str, Record]],
) -> tuple[dict[str, int | None], dict[str, list[str]]]:
    """Each player's rank from the first round's record, and warnings by player (issue 4).

    Appearances are read in round order, then input order (``seats`` keeps it); the
    first with a rank text decides; a later different rank is a warning.
    """
    first: dict[str, tuple[int, str, str]] = {}  # name → (round, file, rank text)
    ranks: dict[str, int | None] = {}  # parsed when first needed
    notes: dict[str, list[str]] = {}
    parsed: dict[str, int] = {}  # one parse per distinct rank text

    def rank_of(player: str) -> int | None:
        if player not in ranks:
            _, source, text = first[player]
            try:
                if text not in parsed:
                    parsed[text] = parse_rank(text)
                ranks[player] = parsed[text]
            except ValueError as error:
                ranks[player] = None
                notes[player] = [f"{source}: {player}: {error}; rank unknown"]
        return ranks[player]

    for r in sorted(seats):
        for player, record in seats[r].items():
            text = record.black_rank if record.black == player else record.white_rank
            if not text:
                continue
            known = first.get(player)
            if known is None:
                if text.strip():
                    first[player] = (r, record.source, text)
                continue
            if text == known[2] or not text.strip():
                continue  # the same text (the usual case: no parse needed), or blank
            rank = rank_of(player)
            if rank is None and player in notes:
                continue  # the first rank is not a rank: said once, nothing to compare
            try:
                other = parse_rank(text)
            except ValueError:
                other = None
            if other != rank:
                notes.setdefault(player, []).append(
                    f"{player}: rank {text.strip()!r} in round {r} ({record.source}) differs "
                    f"from {_rank_text(rank)} in round {known[0]} ({known[1]}); "
                    "the first round's rank is used"
                )
    for player in first:
        rank_of(player)
    for player in set().union(*seats.values()) - first.keys():
        notes[player] = [f"{player}: no rank in BR/WR of any record (rank unknown)"]
    return ranks, notes
