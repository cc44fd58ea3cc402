"""Game records → one :class:`~sodos_plugin.engine.model.Tournament`, with an account of every file.

Contract: :func:`assemble` takes the per-file outcomes (in input order; a list, or a
stream placed file by file as it comes) and returns the tournament, one
:class:`FileReport` per file — ``ingested``, ``duplicate``, ``excluded`` (another
event, not a record) or ``rejected`` with the reason — and warnings. It raises
:class:`~sodos_plugin.errors.InputError` naming both files when the records contradict
each other (docs/rules.md §9):

* two events and none chosen (option ``event``);
* two different results (or handicaps) for one pairing of a round;
* a player in two games of one round (colours swapped counts as two games).

Rules:

* players are identified by name after the ``aliases`` map, by
  :func:`~sodos_plugin.engine.identity.identity_key` (docs/rules.md §8): spellings that differ
  only by Unicode normalisation, case or spaces are one player, shown as first met,
  with a warning naming both spellings and files; ``aliases``, ``bye_name`` and
  ``byes`` match names the same way; PB and PW of one name (self-play), or a missing
  PB or PW, reject the file (a pairing needs two players);
* names that are merely close (edit distance 1-2) and never play in one round are a
  warning naming both and their files (:func:`~sodos_plugin.engine.identity.close_names`);
* the rank comes from ``BR``/``WR`` of the player's first round (the earliest
  round, then input order); a different rank later is a warning; a rank that is
  not a Go rank (``NR``, Elo ``1680*``) gives rank ``None`` and a warning;
* the round comes from ``RO`` (first integer) or OGS ``GN`` (``R:3``); a record
  with neither is rejected (unless it belongs to another event than the chosen one:
  then the file is only *excluded*);
* the same game twice (same round, players, colours, result, handicap) is counted
  once; the later file is reported as a duplicate of the first (a game of a collection
  file gets its own report, ``file.sgf#2``, as a loose file would); a duplicate whose
  ``BR``/``WR`` differ is a warning (the first file's rank is used);
* two players with the bye in one round is an error naming both;
* a player without a game in a round is absent, unless the bye is marked: a record
  against ``bye_name`` or an entry of ``byes``;
* an unknown or void result keeps the pairing, is not scored, and is a warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from operator import attrgetter
from typing import Any, NoReturn

from sodos_hookspecs import FileReport

from sodos_plugin.engine.identity import close_names, identity_key
from sodos_plugin.engine.model import (
    Tournament,
    games_from_columns,
    players_from_columns,
)
from sodos_plugin.engine.ranks import format_rank, parse_rank
from sodos_plugin.errors import InputError
from sodos_plugin.readers.sgf.ingest import FileOutcome, Record
from sodos_plugin.readers.sgf.options import MAX_ROUNDS, SECTION, SgfOptions

__all__ = ["assemble"]


_INGESTED = ("ingested", "")


def _rank_text(rank: int | None) -> str:
    return "no rank" if rank is None else format_rank(rank)


def _check_record(record: Record) -> str | None:
    """Why ``record`` cannot be a pairing (a name missing, no round in 1..MAX_ROUNDS), or
    None."""
    if not record.black or not record.white:  # a game of players unknown: no pairing
        missing = " and ".join(p for p, v in (("PB", record.black), ("PW", record.white)) if not v)
        return f"no player name: {missing} missing or empty"
    if record.round is None:
        if record.round_text:
            return f"{record.round_text}: no round number in it"
        return "no round: RO missing and GN has no 'R:n'"
    if not 1 <= record.round <= MAX_ROUNDS:
        return f"{record.round_text}: round {record.round} outside 1..{MAX_ROUNDS}"
    return None


def _choose_event(first_file: Mapping[str, str], options: SgfOptions) -> str | None:
    """The event ranked: the one chosen (it must be in a record), or the records' one
    event; ``first_file``: each event of the usable records → its first file."""
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


def _note_events(events: dict[str, str], records: Iterable[Record]) -> None:
    """Each event of ``records`` not in ``events`` yet, with its first file."""
    for record in records:
        if record.event is not None and record.event not in events:
            events[record.event] = record.source


def _unusable(outcome: FileOutcome, chosen: str | None, key) -> FileReport | None:
    """Why a file is not read at all (its report), or None: unreadable, of another
    event only, or a record that cannot be a pairing (no name, no round; PB and PW one
    player in a collection, checked whole so that its other games do not count)."""
    if outcome.error is not None:
        return FileReport(outcome.source, "rejected", outcome.error)
    records = outcome.records
    if chosen is not None and all(r.event not in (None, chosen) for r in records):
        # another event's records are not read, so their faults do not matter
        other = sorted({repr(r.event) for r in records})
        return FileReport(outcome.source, "excluded", f"event {', '.join(other)}, not {chosen!r}")
    several = len(records) > 1
    for record in records:
        reason = _check_record(record)
        if reason is None and several and key(record.black) == key(record.white):
            # a file of one game is checked when its names are resolved (assemble)
            reason = _same_player(record)
        if reason is None:
            continue
        where = (
            f"game {record.source.rsplit('#', 1)[1]}: " if record.source != outcome.source else ""
        )
        return FileReport(outcome.source, "rejected", where + reason)
    return None


class _Names:
    """Record names → player names: ``aliases``, then identity (docs/rules.md §8).

    A player is shown with the first spelling met (input order); every other spelling
    of the same key is remembered with its first file, for the warning.
    """

    def __init__(self, aliases: Mapping[str, str]):
        self.alias = {identity_key(old): new for old, new in aliases.items()}
        self.resolved: dict[str, str] = {}  # record spelling → player name
        self.keys: dict[str, str] = {}  # record spelling → key, aliases applied
        self.display: dict[str, str] = {}  # key → player name
        self.first: dict[str, str] = {}  # key → file where the player name was met
        self.merged: list[tuple[str, str, str, str]] = []  # (shown, other, its file, file)

    def key(self, raw: str) -> str:
        found = self.keys.get(raw)
        if found is None:
            found = identity_key(raw)
            target = self.alias.get(found)
            if target is not None:
                found = identity_key(target)
            self.keys[raw] = found
        return found

    def plain_key(self, raw: str) -> str:
        """The key without the aliases (a record's own PB and PW)."""
        return identity_key(raw) if self.alias else self.key(raw)

    def name(self, raw: str, source: str) -> str:
        """The player name of a record spelling met in ``source`` (registers it)."""
        shown = self.resolved.get(raw)
        if shown is not None:
            return shown
        key = self.key(raw)
        spelled = self.alias.get(identity_key(raw), raw) if self.alias else raw
        shown = self.display.get(key)
        if shown is None:
            shown = self.display[key] = spelled
            self.first[key] = source
        elif shown != spelled:
            self.merged.append((shown, spelled, self.first[key], source))
        self.resolved[raw] = shown
        return shown

    def lookup(self, raw: str) -> str:
        """The player name for a configured name (``byes``), registering nothing."""
        key = self.key(raw)
        return self.display.get(key, self.alias.get(identity_key(raw), raw))

    def warnings(self) -> list[str]:
        said: set[tuple[str, str]] = set()
        found = []
        for shown, other, first, source in self.merged:
            if (shown, other) in said:
                continue
            said.add((shown, other))
            found.append(
                f"{shown!r} ({first}) and {other!r} ({source}) are one player: the same "
                f"name but for Unicode form, case or spaces (docs/rules.md §8); "
                f"merged as {shown!r}"
            )
        return found


def assemble(
    outcomes: Iterable[FileOutcome],
    options: SgfOptions,
    *,
    settings: Mapping[str, Any] | None = None,
    name: str = "",
    reports: Sequence[FileReport] = (),
) -> tuple[Tournament, list[FileReport], list[str]]:
    """Build the tournament; see the module documentation for the rules.

    ``outcomes`` may be a stream (:func:`~sodos_plugin.readers.sgf.walk.ingest_stream`):
    each file is placed as it comes, while the workers read the next ones. The result,
    and the error when there is one, are those of the whole list at once: the event
    ranked is known only when every record is seen (two events, or a chosen event in
    no record, is the error said first), so a contradiction met before is held until
    the events are known.
    """
    status: list[FileReport] = []  # one report per outcome, in order
    extra: list[FileReport] = []  # games of collection files not ingested
    warnings: list[str] = []
    names = _Names(options.aliases)
    key = names.plain_key
    chosen = options.event
    events: dict[str, str] = {}  # event of a usable file's record → its first file
    event = chosen  # the event ranked, as far as the records so far tell
    bye_key = identity_key(options.bye_name) if options.bye_name is not None else None
    resolved = names.resolved
    player_name = names.name

    # Keyed by round, then by name: no tuple per seat (peak memory at 100 000 records).
    # Records are stored under the player names (aliases and identity applied).
    games: dict[int, dict[str, Record]] = {}  # round → black → record (one game a round)
    seats: dict[int, dict[str, Record]] = {}  # round → player → record of the player's game
    byes: dict[tuple[int, str], str] = {}
    bye_of_round: dict[int, tuple[str, str]] = {}  # round → (player, where)
    first_seen: dict[str, tuple[int, int]] = {}  # name → (first round, input order)
    no_event = 0  # records without EV: counted in the event when there is one
    order = 0
    current = None  # the round of the record placed last, its seats and games
    round_seats: dict[str, Record] = {}
    round_games: dict[str, Record] = {}

    def one_bye(r: int, player: str, where: str) -> None:
        known = bye_of_round.setdefault(r, (player, where))
        if known[0] != player:
            raise InputError(
                f"round {r}: two players have the bye: {known[0]!r} ({known[1]}) "
                f"and {player!r} ({where})"
            )

    stream = iter(outcomes)
    held: InputError | None = None  # a contradiction, raised once the events are known
    try:
        for outcome in stream:
            records = outcome.records
            if outcome.error is None and len(records) == 1:  # the usual file: checked here
                first = records[0]
                record_event = first.event
                if (chosen is not None and record_event not in (None, chosen)) or _check_record(
                    first
                ) is not None:
                    status.append(_unusable(outcome, chosen, key))  # says why
                    continue
                if record_event is not None and record_event not in events:
                    events[record_event] = first.source
            else:
                report = _unusable(outcome, chosen, key)
                if report is not None:
                    status.append(report)
                    continue
                _note_events(events, records)
            if chosen is None and len(events) > (event is not None):
                if len(events) > 1:
                    break  # records of two events: the error is said below
                event = next(iter(events))
            ingested = False
            several = len(records) > 1
            others: list[tuple[str, str, str]] = []  # (status, reason, game) not ingested
            report = None
            for record in records:
                source, black, white, _, _, result, _, r, _, record_event, _, handicap, notes = (
                    record
                )
                if record_event is None:
                    no_event += 1
                elif event is not None and record_event != event:
                    others.append(("excluded", f"event {record_event!r}, not {event!r}", source))
                    continue
                b = resolved.get(black)
                w = resolved.get(white)
                if b is None or w is None or b == w:  # a spelling met for the first time
                    if names.key(black) == names.key(white):
                        if key(black) != key(white):
                            raise InputError(
                                f"round {r}: PB and PW are both {names.lookup(black)!r} after "
                                "the aliases",
                                source=source,
                            )
                        report = FileReport(outcome.source, "rejected", _same_player(record))
                        break  # one game in this file (a collection was checked whole)
                    b, w = player_name(black, source), player_name(white, source)
                if b != black or w != white:
                    black, white = b, w
                    record = record._replace(black=black, white=white)  # kept under its new names
                if r != current:  # consecutive records are mostly of one round
                    round_seats = seats.get(r)
                    if round_seats is None:
                        round_seats = seats[r] = {}
                        games[r] = {}
                    round_games, current = games[r], r
                if bye_key is not None and bye_key in (names.key(black), names.key(white)):
                    player = white if names.key(black) == bye_key else black
                    seat = round_seats.get(player)
                    if seat is not None:
                        raise InputError(
                            f"round {r}: {player!r} has the bye here and a game in {seat.source}",
                            source=source,
                        )
                    if (r, player) in byes:
                        others.append(("duplicate", f"the same bye as {byes[(r, player)]}", source))
                        continue
                    one_bye(r, player, source)
                    byes[(r, player)] = source
                    order += 1
                    _seen(first_seen, player, r, order)
                    ingested = True
                    continue
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
                    warnings.extend(_rank_changes(known, record))
                    others.append(("duplicate", f"same game as {known.source}", source))
                    continue
                # each seat taken in one lookup; a seat held already ends the run, so
                # what was taken before the error does not matter
                if round_seats.setdefault(black, record) is not record:
                    _two_games(r, black, round_seats[black], source)
                if byes and (r, black) in byes:
                    _game_and_bye(r, black, byes[r, black], source)
                if round_seats.setdefault(white, record) is not record:
                    _two_games(r, white, round_seats[white], source)
                if byes and (r, white) in byes:
                    _game_and_bye(r, white, byes[r, white], source)
                seen = first_seen.get(black)
                if seen is None or r < seen[0]:
                    first_seen[black] = (r, order + 1)
                seen = first_seen.get(white)
                if seen is None or r < seen[0]:
                    first_seen[white] = (r, order + 2)
                order += 2
                round_games[black] = record
                if notes:
                    warnings.extend(f"{source}: {note}" for note in notes)
                ingested = True
            if report is None:  # (else rejected above)
                if ingested:
                    report = FileReport(outcome.source, "ingested")
                    if several:  # each game not ingested is reported as a loose file would be
                        extra.extend(FileReport(game, kind, why) for kind, why, game in others)
                elif others and all(k == "duplicate" for k, _, _ in others):
                    report = FileReport(outcome.source, "duplicate", others[0][1])
                else:
                    kind = "excluded" if others else "rejected"
                    reason = "; ".join(sorted({why for _, why, _ in others})) or "no games"
                    report = FileReport(outcome.source, kind, reason)
            status.append(report)
    except InputError as error:
        held = error
    # Here every file is placed, or the run fails (a contradiction, or records of two
    # events). Which error is said depends on the events of the files left; once the
    # chosen event is met, it is the contradiction, and no more files are read.
    settled = held is not None and chosen is not None
    if not (settled and chosen in events):
        for outcome in stream:
            if _unusable(outcome, chosen, key) is None:
                _note_events(events, outcome.records)
                if settled and chosen in events:
                    break
    event = _choose_event(events, options)
    if held is not None:
        raise held

    if no_event and event is not None:
        warnings.append(f"{no_event} record(s) have no EV; counted in event {event!r}")
    for r, configured in sorted(options.byes.items()):
        for raw_name in configured:
            player = names.lookup(raw_name)
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
            if (r, player) not in byes:
                one_bye(r, player, f"{SECTION} byes")
            byes.setdefault((r, player), f"{SECTION} byes")
            _seen(first_seen, player, r, 10**9)
    warnings.extend(names.warnings())
    warnings.extend(_close_name_warnings(list(first_seen), seats, byes))

    # Players: by first appearance (round, then input order).
    ordered = sorted(first_seen, key=lambda n: first_seen[n][:2])
    index = {n: i for i, n in enumerate(ordered)}
    ranks, rank_warnings = _player_ranks(seats)
    if rank_warnings:
        for player in ordered:
            warnings.extend(rank_warnings.get(player, ()))
    n = len(ordered)
    nothing, no_text = (None,) * n, ("",) * n  # what a record does not say of a player
    players = players_from_columns(
        names=ordered,
        ranks=list(map(ranks.get, ordered)),
        ratings=nothing,
        clubs=no_text,
        countries=no_text,
        smms_corrections=(0,) * n,
        start_scores=nothing,
        ids=nothing,
        typed=True,  # names are text, ranks parse_rank's int or None, the rest constants
    )

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
    kept = [rec for r in sorted(games) for rec in sorted(games[r].values(), key=_by_source)]
    results = [rec.result for rec in kept]
    game_list = games_from_columns(
        [rec.round for rec in kept],
        [index[rec.black] for rec in kept],
        [index[rec.white] for rec in kept],
        [parsed.result for parsed in results],
        [rec.handicap for rec in kept],
        [parsed.by_default for parsed in results],
        typed=True,  # rounds, handicaps and indexes are int, results Result, flags bool
    )
    bye_set = frozenset((r, index[p]) for r, p in byes)
    absent: list[tuple[int, int]] = []
    everyone = range(len(players))
    for r in range(1, rounds + 1):
        missing = set(everyone).difference(map(index.__getitem__, seats.get(r, ())))
        absent.extend(zip(repeat(r), missing))
    absences = frozenset(absent).difference(bye_set)
    try:
        tournament = Tournament(
            name=event or name,
            rounds=rounds,
            players=players,
            games=game_list,
            byes=bye_set,
            absences=absences,
            settings=dict(settings or {}),
            source=name,
        )
    except ValueError as error:  # pragma: no cover - contradictions are caught above
        raise InputError(str(error)) from None
    files = list(reports)
    files.extend(status)  # type: ignore[arg-type]  # every position was filled above
    files.extend(extra)
    return tournament, files, warnings


def _two_games(r: int, player: str, seat: Record, source: str) -> NoReturn:
    raise InputError(f"round {r}: {player!r} is in two games: {seat.source} and {source}")


def _game_and_bye(r: int, player: str, where: str, source: str) -> NoReturn:
    raise InputError(f"round {r}: {player!r} has a game here and the bye in {where}", source=source)


def _same_player(record: Record) -> str:
    return f"PB {record.black!r} and PW {record.white!r} are the same player (docs/rules.md §8)"


def _rank_changes(known: Record, record: Record) -> list[str]:
    """A duplicate record's ranks that differ from the first record's (a warning each)."""
    found = []
    for ident, player, first, again in (
        ("BR", known.black, known.black_rank, record.black_rank),
        ("WR", known.white, known.white_rank, record.white_rank),
    ):
        a, b = (first or "").strip(), (again or "").strip()
        if a == b:
            continue
        try:
            if a and b and parse_rank(a) == parse_rank(b):
                continue  # one rank written two ways ("3k", "3 kyu")
        except ValueError:
            pass
        found.append(
            f"{record.source}: the same game as {known.source} but {ident}[{b}] for "
            f"{player!r} where it has {ident}[{a}]; the first file's rank is used"
        )
    return found


def _rounds_text(rounds: Sequence[int]) -> str:
    return f"round {rounds[0]}" if len(rounds) == 1 else f"rounds {', '.join(map(str, rounds))}"


def _close_name_warnings(
    players: Sequence[str],
    seats: Mapping[int, Mapping[str, Record]],
    byes: Mapping[tuple[int, str], str],
) -> list[str]:
    """Close names that never play in one round, each with its rounds and first file."""
    count: dict[str, int] = dict.fromkeys(players, 0)
    for round_seats in seats.values():
        for player in round_seats:
            count[player] += 1
    for _, player in byes:
        count[player] += 1
    every = len({r for r, s in seats.items() if s} | {r for r, _ in byes})
    fewest = min(count.values(), default=0)
    # a pair never in one round has counts summing to at most every round: most
    # players (all rounds played) cannot be in a pair, so only the others are compared
    candidates = [p for p in players if count[p] <= every - fewest]
    if len(candidates) < 2:
        return []
    wanted = set(candidates)
    rounds: dict[str, set[int]] = {p: set() for p in candidates}
    where: dict[str, str] = {}
    for r in sorted(seats):
        for player, record in seats[r].items():
            if player in wanted:
                rounds[player].add(r)
                where.setdefault(player, record.source)
    for (r, player), source in sorted(byes.items()):
        if player in wanted:
            rounds[player].add(r)
            where.setdefault(player, source)
    pairs = close_names(candidates, rounds=rounds)
    found = [
        f"close names {a!r} ({_rounds_text(sorted(rounds[a]))}, {where[a]}) and {b!r} "
        f"({_rounds_text(sorted(rounds[b]))}, {where[b]}) never play in one round: one "
        "player spelt two ways? If so, join them with aliases (docs/rules.md §8)"
        for a, b in pairs
    ]
    if not pairs.complete:
        found.append(f"close names: more pairs than the {len(pairs)} listed (search bounded)")
    return found


_by_source = attrgetter("source")  # a round's games are in their files' order


def _seen(first_seen: dict[str, tuple[int, int]], player: str, r: int, order: int) -> None:
    seen = first_seen.get(player)
    if seen is None or r < seen[0]:
        first_seen[player] = (r, order)


def _player_ranks(
    seats: Mapping[int, Mapping[str, Record]],
) -> tuple[dict[str, int | None], dict[str, list[str]]]:
    """Each player's rank from the first round's record, and warnings by player.

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
