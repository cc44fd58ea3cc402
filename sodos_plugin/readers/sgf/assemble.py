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

from collections.abc import Mapping, Sequence
from typing import Any

from sodos_hookspecs import FileReport

from sodos_plugin.errors import InputError
from sodos_plugin.model import Game, Player, Tournament
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


def _choose_event(records: Sequence[Record], options: SgfOptions) -> str | None:
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
    status: dict[str, FileReport] = {}
    warnings: list[str] = []
    usable: list[tuple[FileOutcome, Sequence[Record]]] = []
    for outcome in outcomes:
        if outcome.error is not None:
            status[outcome.source] = FileReport(outcome.source, "rejected", outcome.error)
            continue
        chosen = options.event
        if chosen is not None and all(r.event not in (None, chosen) for r in outcome.records):
            # another event's records are not read, so their faults do not matter
            other = sorted({repr(r.event) for r in outcome.records})
            reason = f"event {', '.join(other)}, not {chosen!r}"
            status[outcome.source] = FileReport(outcome.source, "excluded", reason)
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
            status[outcome.source] = FileReport(outcome.source, "rejected", where + reason)
            continue
        usable.append((outcome, outcome.records))

    event = _choose_event([r for _, records in usable for r in records], options)
    alias = options.aliases
    bye_name = options.bye_name

    def who(name_: str) -> str:
        return alias.get(name_, name_) if alias else name_

    games: dict[tuple[int, str, str], tuple[Record, str]] = {}  # (round, black, white)
    seats: dict[tuple[int, str], str] = {}  # (round, player) → file of the game
    byes: dict[tuple[int, str], str] = {}
    first_seen: dict[str, tuple[int, int]] = {}  # name → (first round, input order)
    ranks: dict[str, list[tuple[int, str, str | None]]] = {}  # name → (round, file, BR/WR)
    no_event = 0
    order = 0
    for outcome, records in usable:
        kinds = []
        for record in records:
            if event is not None and record.event not in (None, event):
                kinds.append(("excluded", f"event {record.event!r}, not {event!r}"))
                continue
            if record.event is None and event is not None:
                no_event += 1
            r = record.round
            assert r is not None
            black, white = record.black, record.white
            if alias:
                black, white = who(black), who(white)
            if black == white:
                raise InputError(
                    f"round {r}: PB and PW are both {black!r} after the aliases",
                    source=record.source,
                )
            if bye_name is not None and bye_name in (black, white):
                player = white if black == bye_name else black
                seat = seats.get((r, player))
                if seat is not None:
                    raise InputError(
                        f"round {r}: {player!r} has the bye here and a game in {seat}",
                        source=record.source,
                    )
                if (r, player) in byes:
                    kinds.append(("duplicate", f"the same bye as {byes[(r, player)]}"))
                    continue
                byes[(r, player)] = record.source
                order += 1
                _seen(first_seen, player, r, order)
                kinds.append(_INGESTED)
                continue
            key = (r, black, white)
            known = games.get(key)
            if known is not None:
                earlier, src = known
                same = (
                    earlier.result.result is record.result.result
                    and earlier.result.by_default == record.result.by_default
                    and earlier.handicap == record.handicap
                )
                if not same:
                    raise InputError(
                        f"round {r}: {black} (B) vs {white} (W) has two different results: "
                        f"RE[{earlier.result_text}] HA[{earlier.handicap}] in {src} and "
                        f"RE[{record.result_text}] HA[{record.handicap}] in {record.source}"
                    )
                kinds.append(("duplicate", f"same game as {src}"))
                continue
            source = record.source
            for player, rank in ((black, record.black_rank), (white, record.white_rank)):
                seat = seats.get((r, player))
                if seat is not None:
                    raise InputError(f"round {r}: {player!r} is in two games: {seat} and {source}")
                if byes and (r, player) in byes:
                    raise InputError(
                        f"round {r}: {player!r} has a game here and the bye in {byes[(r, player)]}",
                        source=source,
                    )
                seats[(r, player)] = source
                order += 1
                seen = first_seen.get(player)
                if seen is None or r < seen[0]:
                    first_seen[player] = (r, order)
                appearances = ranks.get(player)
                if appearances is None:
                    ranks[player] = [(r, source, rank)]
                else:
                    appearances.append((r, source, rank))
            games[key] = (record, source)
            if record.notes:
                warnings.extend(f"{source}: {note}" for note in record.notes)
            kinds.append(_INGESTED)
        if _INGESTED in kinds:
            kind, reason = "ingested", ""
        elif kinds and all(k == "duplicate" for k, _ in kinds):
            kind, reason = "duplicate", kinds[0][1]
        else:
            kind = "excluded" if kinds else "rejected"
            reason = "; ".join(sorted({why for _, why in kinds})) or "no games"
        status[outcome.source] = FileReport(outcome.source, kind, reason)

    if no_event:
        warnings.append(f"{no_event} record(s) have no EV; counted in event {event!r}")
    for r, names in sorted(options.byes.items()):
        for raw_name in names:
            player = who(raw_name)
            if (r, player) in seats:
                raise InputError(
                    f"byes.{r}: {player!r} has a game in round {r} ({seats[(r, player)]})",
                    source=SECTION,
                    where=f"byes.{r}",
                )
            byes.setdefault((r, player), f"{SECTION} byes")
            _seen(first_seen, player, r, 10**9)

    # Players: by first appearance (round, then input order).
    names = sorted(first_seen, key=lambda n: first_seen[n][:2])
    index = {n: i for i, n in enumerate(names)}
    players = []
    for player in names:
        players.append(Player(player, _player_rank(player, ranks.get(player, []), warnings)))

    top = max([r for r, _, _ in games] + [r for r, _ in byes] + [0])
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
        Game(r, index[b], index[w], rec.result.result, rec.handicap, rec.result.by_default)
        for (r, b, w), (rec, _) in sorted(games.items(), key=lambda kv: (kv[0][0], kv[1][1]))
    ]
    bye_set = frozenset((r, index[p]) for r, p in byes)
    paired = {(r, index[p]) for r, p in seats}
    absences = frozenset(
        (r, i)
        for r in range(1, rounds + 1)
        for i in range(len(players))
        if (r, i) not in paired and (r, i) not in bye_set
    )
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
    files.extend(status[o.source] for o in outcomes)
    return tournament, files, warnings


def _seen(first_seen: dict[str, tuple[int, int]], player: str, r: int, order: int) -> None:
    seen = first_seen.get(player)
    if seen is None or r < seen[0]:
        first_seen[player] = (r, order)


def _player_rank(
    player: str, appearances: list[tuple[int, str, str | None]], warnings: list[str]
) -> int | None:
    """Rank of the first round; later different ranks are warnings (issue 4)."""
    rounds = sorted(appearances, key=lambda item: item[0])
    first = next(((r, s, t) for r, s, t in rounds if t and t.strip()), None)
    if first is None:
        if rounds:
            warnings.append(f"{player}: no rank in BR/WR of any record (rank unknown)")
        return None
    r0, source0, text0 = first
    try:
        rank = parse_rank(text0)
    except ValueError as error:
        warnings.append(f"{source0}: {player}: {error}; rank unknown")
        return None
    for r, source, text in rounds:
        if not text or text == text0 or not text.strip():
            continue  # no rank, or the same text (the usual case: no parse needed)
        try:
            other = parse_rank(text)
        except ValueError:
            other = None
        if other != rank:
            warnings.append(
                f"{player}: rank {text.strip()!r} in round {r} ({source}) differs from "
                f"{_rank_text(rank)} in round {r0} ({source0}); the first round's rank is used"
            )
    return rank
