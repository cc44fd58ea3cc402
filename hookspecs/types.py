"""Plain types that cross the plugin contract.

Nothing here depends on the host's internals, so plugins can be written against
``sodos_hookspecs`` alone. The host-side types that plugins receive
(``Context``, ``Tournament``, ``Standings``) live in ``sodos_plugin`` and are named
here only in annotations.

Exact arithmetic: every number is an integer *numerator* over a *denominator*
that belongs to the table or breakdown holding it. Half and quarter points are
therefore exact (e.g. 7/4 with denominator 4), and sorting compares integers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from sodos_plugin.engine.context import Context
    from sodos_plugin.engine.model import Tournament
    from sodos_plugin.engine.standings import Standings


@dataclass(frozen=True)
class RoundTable:
    """Per-round numbers for every player: ``rows[r][p]`` is round ``r + 1``, player ``p``.

    The value is ``rows[r][p] / denominator``.
    """

    denominator: int
    rows: Sequence[Sequence[int]]

    def fraction(self, round_index: int, player: int) -> Fraction:
        """The exact value of one cell."""
        return Fraction(self.rows[round_index][player], self.denominator)


@dataclass(frozen=True)
class Breakdown:
    """A criterion's values for all players, with the parts ``explain`` shows.

    Either ``contributions`` (per-round values whose sum, after dropping the
    ``drop_lowest`` lowest rounds of each player, is the value) or ``totals``
    (one value per player, for criteria that are not sums over rounds) is given.
    ``details`` are labelled per-round tables (opponent's score used, handicap
    correction, virtual opponent...) shown by ``explain``; they are the very
    numbers the contributions were computed from, not a second computation.
    """

    denominator: int
    contributions: Sequence[Sequence[int]] | None = None
    totals: Sequence[int] | None = None
    drop_lowest: int = 0
    details: Mapping[str, RoundTable] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.contributions is None) == (self.totals is None):
            raise ValueError("a Breakdown has either contributions or totals")
        if self.denominator < 1:
            raise ValueError("denominator must be a positive integer")

    def numerators(self) -> list[int]:
        """Each player's value as a numerator over :attr:`denominator`."""
        if self.totals is not None:
            return list(self.totals)
        rows = self.contributions or ()
        if not rows:
            return []
        if self.drop_lowest <= 0:
            return list(map(sum, zip(*rows)))
        k = self.drop_lowest
        return [sum(sorted(col)[k:]) if len(col) > k else 0 for col in zip(*rows)]

    def dropped_rounds(self, player: int) -> list[int]:
        """Round indexes (0-based) whose contribution a cut removed for ``player``.

        Ties are broken towards the earliest round, as OpenGotha does.
        """
        if self.contributions is None or self.drop_lowest <= 0:
            return []
        column = [row[player] for row in self.contributions]
        order = sorted(range(len(column)), key=lambda r: (column[r], r))
        return sorted(order[: self.drop_lowest])

    def value(self, player: int) -> Fraction:
        """One player's exact value (slow path for explain and tests)."""
        return Fraction(self.numerators()[player], self.denominator)


@dataclass(frozen=True)
class Criterion:
    """A placement criterion provided by a plugin.

    :param name: unique name used in config and output (``"SODOS"``).
    :param description: one line for ``sodos plugins`` and the docs.
    :param compute: ``compute(ctx) -> Breakdown`` where ``ctx`` is a
        ``sodos_plugin.engine.context.Context`` (tournament, settings, round, scores).
    :param source: where the rule is written (the docs/rules.md section, EGF/OpenGotha rule).
    :param higher_is_better: ``False`` for criteria where a smaller value ranks first.
    :param uses_ties: ``True`` for criteria decided inside groups of players tied on
        the criteria listed before them (DC, SDC); ``ctx.preceding`` then holds each
        player's tuple of those earlier values.
    """

    name: str
    description: str
    compute: Callable[[Context], Breakdown]
    source: str = ""
    higher_is_better: bool = True
    uses_ties: bool = False


@dataclass(frozen=True)
class FileReport:
    """What happened to one input file: ``status`` is ingested, duplicate or rejected.

    Readers of folders may also say ``excluded`` (deliberately not read: another event,
    not a record; in a game history, a valid record of a game that is not rated) and
    ``settings`` (a tournament settings file); only ``rejected`` makes the command fail.

    :param reason: why, for this file (names the property, the value, the player).
    :param kind: a short stable key of the reason, the same for every file with that
        reason (``"self-play"``, ``"undated"``): what a summary counts by. Empty when the
        reader gives none (then the reason is the key).
    """

    path: str
    status: str
    reason: str = ""
    kind: str = ""


@dataclass(frozen=True)
class ReadResult:
    """A reader's answer: the tournament, an account of every file, and warnings."""

    tournament: Tournament
    files: Sequence[FileReport] = ()
    warnings: Sequence[str] = ()


@dataclass(frozen=True)
class Reader:
    """A record reader provided by a plugin.

    :param name: format name (``"opengotha-xml"``, ``"h9"``, ``"sgf"``).
    :param description: one line for ``sodos plugins``.
    :param claims: ``claims(path, head) -> bool``: whether this reader reads ``path``;
        ``head`` is the file's first 4 KiB (empty for a directory).
    :param read: ``read(paths, options) -> ReadResult`` for the claimed paths;
        ``options`` is the reader's config mapping (``[plugin.<name>]`` plus run options
        such as ``skip_bad`` and ``jobs``).
    :param history: ``history(paths, section, run) -> GameHistory``: the claimed paths
        read as a game history (dated games of many events: a server's archive, a
        table of games), for ``sodos ratings``; ``None``: each file is read with
        ``read`` as one tournament, dated by ``Tournament.date``. ``section`` is the
        reader's ``[plugin.<name>]`` table; ``run`` the host's run options (see
        :data:`HISTORY_RUN_OPTIONS`). Every path is called once, all of one reader
        together (duplicates across them are the reader's to find); names need not
        be joined across readers (the host joins them by the identity rule). Every
        file is accounted for in :attr:`GameHistory.files`.
    :param stdin: ``stdin(head) -> str | None``: how the reader recognises data read
        from standard input, whose first 4 KiB are ``head``: the file name suffix to
        give it when it is this reader's format (``".sgf"``, ``".zip"``: ``claims``
        may look at the name too), else ``None``; ``None`` (no function): the reader
        does not recognise stdin. Readers are asked in the registry's order
        (third-party first).
    """

    name: str
    description: str
    claims: Callable[[Path, bytes], bool]
    read: Callable[[Sequence[Path], Mapping[str, Any]], ReadResult]
    history: (
        Callable[[Sequence[Path], Mapping[str, Any], Mapping[str, Any]], GameHistory] | None
    ) = None
    stdin: Callable[[bytes], str | None] | None = None


#: What ``run`` holds for :attr:`Reader.history` (a reader uses what it needs):
#:
#: * ``event_gap_days`` — config ``history.event_gap_days``: games of one event name
#:   more than this many days apart are two events;
#: * ``identity`` — ``identity(name) -> key``: the identity rule (docs/rules.md §8),
#:   computed once per name in the run;
#: * ``jobs`` — worker processes the run may use (``None``: the reader chooses);
#: * ``progress`` — ``progress(total)`` gives a progress bar (``None``: none);
#: * ``cache`` — ``cache(options)`` gives the host's ingest cache for a reader with
#:   those options, or ``None`` (``cache.enabled``);
#: * ``arrange`` — ``arrange(columns, previous, saving=True) -> (columns, saved)``: for
#:   a history kept as :class:`GameColumns`, the host's spelling of names and, when
#:   nothing else is in the history, its order (``previous``: the order saved last time,
#:   or ``None``); a reader that calls it may keep ``saved`` with its cache, and one that
#:   keeps nothing says ``saving=False`` (``saved`` is then ``None``, not made).
HISTORY_RUN_OPTIONS = ("event_gap_days", "identity", "jobs", "progress", "cache", "arrange")


@dataclass(frozen=True)
class Writer:
    """An output format provided by a plugin.

    :param name: format name used by ``--format`` (``"json"``).
    :param description: one line for ``sodos plugins``.
    :param write: ``write(standings, stream)`` writes text to ``stream``.
    """

    name: str
    description: str
    write: Callable[[Standings, TextIO], None]


# -- rating systems ---------------------------------------------------------------------
#
# Ratings are real-valued (GoR 2674.564, Glicko-2 floats): unlike criteria they are
# floats, computed with the rounding each system's source prints.


@dataclass(frozen=True)
class Parameter:
    """One parameter of a rating system, settable in ``[rating.<system>]`` or ``--param``.

    :param name: the key (``"tau"``, ``"formula"``).
    :param default: the value when nothing sets it; its type is the parameter's type
        (``bool``, ``int``, ``float`` or ``str``; an ``int`` default also accepts floats
        only when ``choices`` is empty and the default is a float).
    :param help: one line for ``sodos plugins`` and the docs.
    :param choices: the allowed values of a ``str`` parameter (empty: any string).
    :param kind: the parameter's type (``float``, ``int``, ``bool``, ``str``) when
        ``default`` is ``None``: a value the system chooses from the other parameters
        unless it is set (EGF GoR's ``floor``: −900 with the 2021 formula, 100 before
        it). ``help`` says how it chooses; ``rate`` receives ``None`` when nothing set it,
        and reports what it chose in :attr:`RatingResult.parameters`.
    :param minimum: the smallest value a number may take (``None``: no bound below);
        ``minimum_excluded``: the bound itself is refused too (a variance above 0).
    :param maximum: the largest value a number may take (``None``: no bound above);
        ``maximum_excluded``: the bound itself is refused too. The host refuses a value
        outside these bounds, naming the parameter and the bounds, before ``rate`` runs:
        a system never sees a value its formulas are not defined for.
    """

    name: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    kind: type | None = None
    minimum: float | None = None
    maximum: float | None = None
    minimum_excluded: bool = False
    maximum_excluded: bool = False

    def out_of_range(self, value: Any) -> str | None:
        """Why a number is outside this parameter's bounds (``"must be above 0"``), else
        ``None`` (and ``None`` for what is not a number: its type is checked apart)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        low, high = self.minimum, self.maximum
        if low is not None and (value <= low if self.minimum_excluded else value < low):
            return f"must be {'above' if self.minimum_excluded else 'at least'} {low:g}"
        if high is not None and (value >= high if self.maximum_excluded else value > high):
            return f"must be {'below' if self.maximum_excluded else 'at most'} {high:g}"
        return None

    def bounds(self) -> str:
        """The bounds as the docs and ``sodos plugins`` show them (``"0 < w2"``), or ``""``."""
        parts = []
        if self.minimum is not None:
            parts.append(f"{self.minimum:g} {'<' if self.minimum_excluded else '≤'} ")
        parts.append(self.name)
        if self.maximum is not None:
            parts.append(f" {'<' if self.maximum_excluded else '≤'} {self.maximum:g}")
        return "".join(parts) if len(parts) > 1 else ""


class HistoryGame(NamedTuple):
    """One rated game of a game history, from the readers or a host (a named tuple:
    a server's archive has millions).

    :param date: the day it was played, ISO ``YYYY-MM-DD`` (sorts as a string).
    :param event: the key of its tournament in :attr:`GameHistory.events`; every game
        belongs to one (a server's game without an event is its own).
    :param black: Black's name, as the history's players are keyed.
    :param white: White's name.
    :param result: Black's score: ``1.0`` win, ``0.5`` jigo, ``0.0`` loss.
    :param handicap: stones Black received (0 even game, 1 no komi, 2..9 stones).
    :param komi: komi as the record gives it, ``None`` when not given.
    :param size: board size (19 when not given).
    :param round: the round number within the event, ``None`` when not given.
    :param source: the file (``archive.zip!r1.sgf``, ``results.h9:12``) for messages.
    :param time: the time of day it ended, ``HH:MM:SS``, ``None`` when not given (games
        of one day are ordered by it: docs/rules.md §10.1).
    :param id: the server's game id, ``None`` when not given (games of one day and time
        are ordered by it, compared as a number when it is one: ``g9`` before ``g10``).
    """

    date: str
    event: str
    black: str
    white: str
    result: float
    handicap: int = 0
    komi: float | None = None
    size: int = 19
    round: int | None = None
    source: str = ""
    time: str | None = None
    id: str | None = None


def _plain(column: Sequence) -> Sequence:
    """A column as Python values: numpy arrays and ``array.array`` s give ``tolist()``."""
    tolist = getattr(column, "tolist", None)
    return tolist() if tolist is not None else column


class Coded(Sequence):
    """A column of few distinct values kept as integer codes: item ``i`` is
    ``values[codes[i]]`` (a million games have a few thousand names, dates, events).

    ``codes`` is any sequence of integers (a list, ``array.array``, a numpy array);
    ``values`` a sequence of the distinct values (repeats are allowed: readers of a
    column compare values, never codes).
    """

    __slots__ = ("codes", "values")

    def __init__(self, codes: Sequence[int], values: Sequence[Any]):
        self.codes = codes
        self.values = values

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Coded(self.codes[i], self.values)
        return self.values[self.codes[i]]

    def __iter__(self):
        return map(self.values.__getitem__, _plain(self.codes))

    def __repr__(self) -> str:
        return f"Coded({len(self)} items, {len(self.values)} values)"


class GameColumns(Sequence):
    """The games of a history as columns: a ``Sequence[HistoryGame]`` whose games are
    built when read, for histories of millions of games (a server's archive, a host's
    database rows). Systems may read the columns directly (:attr:`columns`).

    Each column holds one field of :class:`HistoryGame` per *row*: ``date``, ``event``,
    ``black``, ``white`` (sequences of ``str``, usually :class:`Coded`: players as integer
    codes into a table of names), ``result`` (floats), and optionally ``handicap``
    (ints, default 0), ``komi`` (float or ``None``), ``size`` (ints, default 19),
    ``round`` (int or ``None``), ``source`` (``str``, default ``""``), ``time`` and
    ``id`` (``str`` or ``None``). Any sequence
    works (lists, ``array.array``, numpy arrays, :class:`Coded`, a host's own lazy
    sequence). ``order``, when given, lists rows in the games' order (game ``k`` is row
    ``order[k]``): a history that grows appends rows and re-orders only the index.

    Games compare equal to any sequence of the same :class:`HistoryGame` s.
    """

    __slots__ = ("columns", "order", "_n")

    def __init__(
        self,
        date: Sequence[str],
        event: Sequence[str],
        black: Sequence[str],
        white: Sequence[str],
        result: Sequence[float],
        handicap: Sequence[int] | None = None,
        komi: Sequence[float | None] | None = None,
        size: Sequence[int] | None = None,
        round: Sequence[int | None] | None = None,
        source: Sequence[str] | None = None,
        time: Sequence[str | None] | None = None,
        id: Sequence[str | None] | None = None,
        *,
        order: Sequence[int] | None = None,
    ):
        n = len(result)
        rows = len(order) if order is not None else n
        defaults = {
            "handicap": 0, "komi": None, "size": 19, "round": None, "source": "", "time": None,
            "id": None,
        }  # fmt: skip
        given = dict(
            date=date, event=event, black=black, white=white, result=result,
            handicap=handicap, komi=komi, size=size, round=round, source=source, time=time, id=id,
        )  # fmt: skip
        columns = {}
        for name in HistoryGame._fields:
            column = given[name]
            if column is None:
                column = Coded(_Repeat(n), (defaults[name],))
            elif len(column) != n:
                raise ValueError(f"GameColumns: column {name} has {len(column)} rows, not {n}")
            columns[name] = column
        self.columns: Mapping[str, Sequence[Any]] = MappingProxyType(columns)
        self.order = order
        self._n = rows

    def __len__(self) -> int:
        return self._n

    def row(self, r: int) -> HistoryGame:
        """The game in row ``r`` (rows are in the columns' order, not :attr:`order`)."""
        c = self.columns
        return HistoryGame._make(
            c[name][r] if name not in _CONVERT else _CONVERT[name](c[name][r])
            for name in HistoryGame._fields
        )

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._n))]
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(k)
        return self.row(int(self.order[k]) if self.order is not None else k)

    def field(self, name: str) -> Iterator[Any]:
        """One field of every game in the games' order (``name`` one of
        :class:`HistoryGame`'s), as the game has it (numbers as Python numbers), without
        building the games: for readers of a few fields of millions of games."""
        column = _plain(self.columns[name])
        convert = _CONVERT.get(name)
        values = column if convert is None else map(convert, column)
        if self.order is None:
            return iter(values)
        return map(list(values).__getitem__, _plain(self.order))

    def __iter__(self):
        if self.order is None:
            return map(HistoryGame._make, zip(*map(self.field, HistoryGame._fields)))
        lists = [list(self.field(name)) for name in HistoryGame._fields]
        return map(HistoryGame._make, zip(*lists))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (GameColumns, tuple, list)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GameColumns({self._n} games)"


def _optional(convert):
    return lambda value: None if value is None else convert(value)


#: How a column's values become a HistoryGame's (numpy scalars to Python numbers).
_CONVERT = {
    "result": float,
    "handicap": int,
    "komi": _optional(float),
    "size": int,
    "round": _optional(int),
}


class _Repeat(Sequence):
    """``n`` zeros, as the codes of a column that repeats one value."""

    __slots__ = ("n",)

    def __init__(self, n: int):
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return _Repeat(len(range(*i.indices(self.n))))
        if not -self.n <= i < self.n:
            raise IndexError(i)
        return 0

    def __iter__(self):
        return iter([0] * self.n)


@dataclass(frozen=True)
class HistoryEvent:
    """One tournament (or a server's single game, or a day of one): the unit systems
    such as GoR rate at once.

    :param key: unique key (games refer to it).
    :param name: the event's name (``EV``, the h9 ``EV[...]``, the XML name).
    :param date: its first day, ISO ``YYYY-MM-DD``.
    :param tournament_class: EGD class ``"A"``..``"D"`` when the file gives one, else ``""``.
    :param source: the file(s) it came from.
    """

    key: str
    name: str
    date: str
    tournament_class: str = ""
    source: str = ""


@dataclass(frozen=True)
class HistoryPlayer:
    """What the inputs say about a player, to seed a first rating.

    :param name: the player's name (the key of :attr:`GameHistory.players`).
    :param rank: the first rank given, as text (``"3d"``, ``"15k"``, ``"1p"``), or ``None``.
    :param rating: the rating a file carries (OpenGotha XML ``rating``), or ``None``.
    :param source: where rank or rating were read.
    """

    name: str
    rank: str | None = None
    rating: int | float | None = None
    source: str = ""


@dataclass(frozen=True)
class GameHistory:
    """Games of many events in date order, with their players and events.

    :param games: sorted by date, then event date, then input order; games of one
        date in different files do not depend on file order (see docs/rules.md §10).
    :param events: key → event.
    :param players: name → what the inputs said about the player.
    :param files: an account of every input file (``ingested``, ``duplicate``,
        ``excluded``, ``rejected`` with the reason).
    :param warnings: things that change a result, said once each.
    """

    games: Sequence[HistoryGame]
    events: Mapping[str, HistoryEvent] = field(default_factory=dict)
    players: Mapping[str, HistoryPlayer] = field(default_factory=dict)
    files: Sequence[FileReport] = ()
    warnings: Sequence[str] = ()


class RatingState(NamedTuple):
    """A player's rating at one moment: ``deviation`` and ``volatility`` where the system
    has them (Glicko-2), else ``None``. (A named tuple: a history of a million games
    makes millions of them.)"""

    rating: float
    deviation: float | None = None
    volatility: float | None = None


@dataclass(frozen=True)
class InitialRating:
    """A starting rating given to a system, and where it came from (``"ratings.csv:3"``,
    ``"rank 3d"``, ``"results.xml rating"``)."""

    state: RatingState
    source: str = ""


class RatingStep(NamedTuple):
    """One player's update over one rating period (a tournament, a game, a day...).

    :param player: the player's name.
    :param period: the period's label (the event's name, or the game's source).
    :param date: the period's date (ISO).
    :param before: the rating the period started from.
    :param after: the rating after it.
    :param games: games rated in the period.
    :param parts: labelled additive parts of the change, in order: their sum is
        ``after.rating - before.rating`` (per game ``con·(Sa−Se)`` and bonus, the floor,
        the rounding...). Empty when the change is not a sum (WHR), or when ``params``
        asked for no details.
    :param details: per game, what ``explain --ratings`` shows: a mapping of named
        values (opponent, result, expected score, factor ...), in the order to show.
    :param summary: the period's own values (Glicko-2's v, Δ, φ*, σ′; GoR's class weight).

    A named tuple: a server's history makes millions of steps.
    """

    player: str
    period: str
    date: str
    before: RatingState
    after: RatingState
    games: int
    parts: Sequence[tuple[str, float]] = ()
    details: Sequence[Mapping[str, Any]] = ()
    summary: Mapping[str, Any] = MappingProxyType({})

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class RatingResult:
    """What a rating system gives back: every player's steps and final ratings.

    :param steps: in date order, each player's update per period.
    :param final: name → the rating after the whole history. A run that went on from
        a :class:`SavedState` may leave out the state's players it did not rate: the host
        keeps their saved state.
    :param initial: name → where each player's first rating came from (``"default"``,
        ``"rank 3d"``, ``"ratings.csv:4"``, ``"results.xml rating"``); the players of a
        saved state keep the start the state names.
    :param warnings: anything that changed a result (a game not rated, a clamp, a floor).
    :param parameters: the values the system chose for parameters left to it (a
        :class:`Parameter` whose default is ``None``), shown with the run's parameters.
    :param state: for a system that :attr:`~RatingSystem.saves_state`, everything else it
        needs to go on from where this run ended, as JSON-ready data (``str``, ``int``,
        finite ``float``, ``bool``, ``None``, lists and mappings with ``str`` keys): each
        player's last rating period, a game list (WHR). ``None``: nothing to save.
    """

    steps: Sequence[RatingStep]
    final: Mapping[str, RatingState]
    initial: Mapping[str, str] = field(default_factory=dict)
    warnings: Sequence[str] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)
    state: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class SavedState:
    """Where an earlier run ended, for a later run to go on from: what the host saves
    (``sodos ratings --save-state``) and gives back to the system as ``params["state"]``.

    :param system: the system's name.
    :param last_day: the last day the earlier runs rated (ISO); a run from the state
        rates only games of later days.
    :param players: every player's state at the end (rating, deviation, volatility).
    :param starts: where each player's first rating came from.
    :param games: games rated per player so far; :param last_games: the day of each
        player's last rated game (both kept by the host, for its reports).
    :param system_state: the system's own :attr:`RatingResult.state`.
    :param parameters: the parameters of the runs that made it (the host refuses a run
        with other values: it would not give what one run over everything gives).
    """

    system: str
    last_day: str
    players: Mapping[str, RatingState]
    starts: Mapping[str, str] = field(default_factory=dict)
    games: Mapping[str, int] = field(default_factory=dict)
    last_games: Mapping[str, str] = field(default_factory=dict)
    system_state: Mapping[str, Any] = field(default_factory=dict)
    parameters: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RatingSystem:
    """A rating system provided by a plugin.

    :param name: unique name used by ``--system`` and ``[rating.<name>]`` (``"egf"``).
    :param description: one line for ``sodos plugins`` and the docs.
    :param rate: ``rate(history, initial, params) -> RatingResult``: ``history`` a
        :class:`GameHistory`, ``initial`` a mapping name → :class:`InitialRating` (the
        players it does not name are seeded by the system: from
        :attr:`HistoryPlayer.rank` with ``rank_to_rating``, else its default),
        ``params`` every declared parameter with its value (defaults filled in,
        validated by the host) and the host's key ``details`` (``True`` when per-game
        details will be shown, as for ``explain``: with ``False`` a system may leave
        :attr:`RatingStep.parts` and ``details`` empty, which saves time and memory on
        a server's archive) and the host's key ``state``: ``None``, or for a system
        that :attr:`saves_state`, the :class:`SavedState` the run goes on from.
    :param parameters: the parameters ``rate`` accepts, with defaults and help.
    :param rank_to_rating: ``rank_to_rating(rank_text) -> RatingState`` (``"3d"`` →
        2300 for GoR); ``None`` when the system has no rank mapping. Raises
        ``ValueError`` for a text that is not a rank.
    :param label: ``label(state) -> str``: how the system shows a rating as a rank
        (OGS ``"6.3k"``); ``None`` to show the number only.
    :param source: where its rules are written (``docs/rules.md §10``, public sources).
    :param saves_state: whether a run can be saved and a later one go on from it: ``rate``
        then accepts ``params["state"]`` (a :class:`SavedState`: its players' states are
        where they start, before ``initial``) and returns :attr:`RatingResult.state`. The
        promise such a system keeps: rating games A, then games B (of days after A's) from
        A's saved state, gives the ratings and steps that rating A + B in one run gives.
    :param saves: one line saying what :attr:`RatingResult.state` holds (``"the last
        tournament rated"``), for ``sodos plugins`` and the docs.
    :param check_state: ``check_state(system_state) -> str | None``: why the system's own
        part of a saved state (:attr:`SavedState.system_state`, read from a file: data
        from disk) cannot be gone on from, naming the key (``"last: expected [day, key]"``),
        else ``None``. The host calls it before ``rate`` and refuses the state with that
        reason, naming the file; ``None`` (no check) is for a system that saves nothing
        of its own.
    :param file_scale: whether the system's ratings are on the scale of the ratings that
        files carry (OpenGotha XML ``rating``: the EGF's GoR). The default start of such
        a system is those ratings where the files give them; any other starts from ranks
        (docs/rules.md §10.1).
    :param decimals: the decimals its source prints a rating with (the EGD: 3); every
        face shows ratings and deviations with these.
    :param unit: what one rating period is: ``"game"`` (each game on its own),
        ``"event"`` (a tournament at once) or ``"period"`` (a span of time or of games the
        parameters choose: a day, a month ...), for ``sodos plugins`` and the docs.
    """

    name: str
    description: str
    rate: Callable[[GameHistory, Mapping[str, InitialRating], Mapping[str, Any]], RatingResult]
    parameters: Sequence[Parameter] = ()
    rank_to_rating: Callable[[str], RatingState] | None = None
    label: Callable[[RatingState], str] | None = None
    source: str = ""
    saves_state: bool = False
    saves: str = ""
    check_state: Callable[[Mapping[str, Any]], str | None] | None = None
    file_scale: bool = False
    decimals: int = 2
    unit: str = "period"

    def __post_init__(self) -> None:
        if self.unit not in RATING_UNITS:
            raise ValueError(f"unit: expected one of {', '.join(RATING_UNITS)}, got {self.unit!r}")
        if isinstance(self.decimals, bool) or not isinstance(self.decimals, int):
            raise ValueError(f"decimals: expected an integer, got {self.decimals!r}")
        if not 0 <= self.decimals <= MAX_DECIMALS:
            raise ValueError(f"decimals: expected 0..{MAX_DECIMALS}, got {self.decimals}")


#: What one rating period of a :class:`RatingSystem` is (:attr:`RatingSystem.unit`).
RATING_UNITS = ("game", "period", "event")
#: The most decimals a system may ask its ratings to be shown with.
MAX_DECIMALS = 9
