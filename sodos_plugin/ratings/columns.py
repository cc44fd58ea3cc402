"""Columns for histories of millions of games: games in, steps out, no object per game.

Contract:

* :func:`game_arrays` turns ``history.games`` (tuples, or
  :class:`~sodos_hookspecs.GameColumns`) into numpy arrays in game order, players as
  integer ids numbered by first appearance (Black before White, game by game: the order
  in which systems seed and report them), or, asked so, ids of any order (a system
  that finds the order itself);
* :func:`levels` schedules items (games, tournaments) that depend on each player's
  previous item: an item's level is one more than the highest level among the previous
  items of its players, so the items of one level share no player and can be rated at
  once, each from the states its players had after their previous item;
* :class:`StepColumns` is a read-only ``Sequence[RatingStep]`` over arrays (who, which
  period, before and after); a step is built when it is read. Built-in systems return
  it when no details are asked for (``params["details"]`` false);
* :class:`StepTotals` stands for steps that were not kept (``params["steps"]`` false:
  the answer shows final ratings only): each player's games and the date of their last
  step, and whether every step's numbers were finite: memory per player, not per game;
* :class:`Lazy` is a sequence whose items are computed when read (period labels).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sodos_hookspecs import Coded, GameColumns, RatingState, RatingStep

from sodos_plugin.util.lazy import LazyModule

np = LazyModule("numpy", globals(), "np")

_NONE = RatingStep._field_defaults["summary"]
#: Games handled at once where a run goes through a history in pieces (the OGS preset's
#: waves, the players' first appearances): its arrays are per chunk, not per game.
CHUNK = 1 << 20


class Lazy(Sequence):
    """``n`` items, item ``k`` being ``get(k)`` (computed each time it is read)."""

    __slots__ = ("n", "get")

    def __init__(self, n: int, get: Callable[[int], Any]):
        self.n = n
        self.get = get

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.get(i) for i in range(*k.indices(self.n))]
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError(k)
        return self.get(k)

    def __iter__(self) -> Iterator[Any]:
        return map(self.get, range(self.n))


# -- games in -------------------------------------------------------------------------------


@dataclass
class GameArrays:
    """A history's games as arrays, in game order (see :func:`game_arrays`)."""

    games: Sequence[Any]  # the history's own sequence (details read games from it)
    names: list[str]  # player id -> name, ids by first appearance
    black: Any  # int64 player ids
    white: Any
    result: Any  # float64, Black's score
    handicap: Any  # int64
    size: Any  # int64
    komi: Any  # float64, NaN where the record gives none
    source: Sequence[str]  # per game, in game order (as given: not copied)
    date_column: Sequence[str]
    event_column: Sequence[str]
    date: Any = None  # int64 codes into dates (``events=True``)
    dates: list[str] | None = None
    event: Any = None  # int64 codes into events (distinct keys)
    events: list[str] | None = None

    def __len__(self) -> int:
        return len(self.result)


def _intern(values) -> tuple[Sequence[int], list[Any]]:
    """(each value's code, the distinct values): codes by first appearance; a ``range``
    when the values are distinct already (the usual table of a :class:`Coded`)."""
    values = list(values)
    if len(set(values)) == len(values):
        return range(len(values)), values
    table: dict[Any, int] = {}
    codes = [table.setdefault(v, len(table)) for v in values]
    return codes, list(table)


def _recode(remap: Sequence[int], column: Coded):
    """The column's codes through ``remap`` (its values' codes): the codes themselves,
    not copied, when ``remap`` changes none of them."""
    codes = _codes_of(column)
    if isinstance(remap, range) and (
        not len(codes) or (codes.min() >= 0 and codes.max() < len(remap))
    ):
        return codes
    return np.asarray(remap, dtype=np.int64)[codes]


def _coded(column, order):
    """(int64 codes in game order, distinct values) of a column of repeated values."""
    if isinstance(column, Coded):
        remap, values = _intern(column.values)
        codes = _recode(remap, column)
    else:
        raw = column.tolist() if hasattr(column, "tolist") else column
        plain, values = _intern(raw)
        codes = np.asarray(plain, dtype=np.int64)
    return (codes if order is None else codes[order]), values


def _codes_of(column: Coded):
    codes = column.codes
    if len(column.values) == 1:  # one value repeated (a default column)
        return np.zeros(len(codes), dtype=np.int64)
    if hasattr(codes, "__array__") or hasattr(codes, "buffer_info"):
        return np.asarray(codes, dtype=np.int64)
    return np.fromiter(codes, dtype=np.int64, count=len(codes))


def _numbers(column, dtype, order):
    if isinstance(column, Coded) and len(column.values) == 1:  # a default column:
        # one value, read-only, no memory per game
        out = np.broadcast_to(np.asarray(list(column.values), dtype=dtype), (len(column),))
    elif isinstance(column, Coded):
        out = np.asarray(list(column.values), dtype=dtype)[_codes_of(column)]
    elif hasattr(column, "__array__") or hasattr(column, "buffer_info"):
        out = np.asarray(column, dtype=dtype)
    else:
        out = np.fromiter(column, dtype=dtype, count=len(column))
    return out if order is None else out[order]


def first_appearance(black, white, count: int):
    """The ids ``0..count-1`` that play, by first appearance (Black before White, game
    by game)."""
    n = len(black)
    if not n:
        return np.zeros(0, dtype=np.int64)
    # each player's first place (2k: Black in game k, 2k + 1: White), the games read in
    # growing chunks until every player of the table is found (most are, early)
    first = np.full(count, 2 * n, dtype=np.int64)
    # (chunks of at most CHUNK games: memory per player, not per game)
    done, chunk = 0, 1 << 14
    while done < n and (first == 2 * n).any():
        end = min(n, done + chunk)
        place = np.arange(2 * done, 2 * end, 2, dtype=np.int64)
        np.minimum.at(first, black[done:end], place)
        np.minimum.at(first, white[done:end], place + 1)
        done, chunk = end, min(CHUNK, 2 * chunk)
    present = np.flatnonzero(first < 2 * n)
    return present[np.argsort(first[present], kind="stable")]


def game_arrays(
    games: Sequence[Any], *, events: bool = True, by_appearance: bool = True
) -> GameArrays:
    """The games as arrays in game order (see the module documentation); ``events``
    false leaves dates and events uncoded (a system that rates game by game);
    ``by_appearance`` false may leave the players as columns number them (``names``
    may then hold names that play no game)."""
    if isinstance(games, GameColumns):
        out = _from_columns(games, by_appearance)
    else:
        out = _from_tuples(games)
    if events:
        out.date, out.dates = _coded(out.date_column, None)
        out.event, out.events = _coded(out.event_column, None)
    return out


def _from_tuples(games) -> GameArrays:
    ids: dict[str, int] = {}
    names: list[str] = []
    get = ids.get
    blacks, whites = [], []
    for game in games:
        pb = get(game.black)
        if pb is None:
            pb = ids[game.black] = len(names)
            names.append(game.black)
        pw = get(game.white)
        if pw is None:
            pw = ids[game.white] = len(names)
            names.append(game.white)
        blacks.append(pb)
        whites.append(pw)
    n = len(games)
    return GameArrays(
        games=games,
        names=names,
        black=np.asarray(blacks, dtype=np.int64),
        white=np.asarray(whites, dtype=np.int64),
        result=np.fromiter((g.result for g in games), dtype=float, count=n),
        handicap=np.fromiter((g.handicap for g in games), dtype=np.int64, count=n),
        size=np.fromiter((g.size for g in games), dtype=np.int64, count=n),
        komi=np.fromiter(
            (np.nan if g.komi is None else g.komi for g in games), dtype=float, count=n
        ),
        source=Lazy(n, lambda k: games[k].source),
        date_column=Lazy(n, lambda k: games[k].date),
        event_column=Lazy(n, lambda k: games[k].event),
    )


def _in_order(column, rows):
    """A column read in game order: the column itself, or row ``rows[k]`` as item k
    (``rows``: an int64 array, not a Python int per game)."""
    if rows is None:
        return column
    return Lazy(len(rows), lambda k: column[int(rows[k])])


def player_names(games: GameColumns) -> list[str]:
    """The players of columns by first appearance, as :func:`game_arrays` numbers them."""
    order = None if games.order is None else _numbers(games.order, np.int64, None)
    b, w, names = _coded_players(games, order)
    return [names[i] for i in first_appearance(b, w, len(names)).tolist()]


def _players(games: GameColumns, order):
    """(Black's ids, White's ids, names): players numbered by first appearance."""
    b, w, table_names = _coded_players(games, order)
    old = first_appearance(b, w, len(table_names))
    new = np.empty(len(table_names), dtype=np.int64)
    new[old] = np.arange(len(old), dtype=np.int64)
    return new[b], new[w], [table_names[i] for i in old.tolist()]


def _coded_players(games: GameColumns, order):
    """(Black's ids, White's ids, names) in game order, ids into one table of names."""
    black, white = games.columns["black"], games.columns["white"]
    table: dict[str, int] = {}
    if isinstance(black, Coded) and isinstance(white, Coded):
        if white.values is black.values or (
            type(black.values) is list and black.values == white.values
        ):  # one table of names (a host's): coded once
            remap, table_names = _intern(black.values)
            b, w = _recode(remap, black), _recode(remap, white)
        else:
            remap_b = [table.setdefault(v, len(table)) for v in black.values]
            remap_w = [table.setdefault(v, len(table)) for v in white.values]
            b = np.asarray(remap_b, dtype=np.int64)[_codes_of(black)]
            w = np.asarray(remap_w, dtype=np.int64)[_codes_of(white)]
            table_names = list(table)
    else:
        b = np.asarray([table.setdefault(v, len(table)) for v in _values(black)], dtype=np.int64)
        w = np.asarray([table.setdefault(v, len(table)) for v in _values(white)], dtype=np.int64)
        table_names = list(table)
    if order is not None:
        b, w = b[order], w[order]
    return b, w, table_names


def _from_columns(games: GameColumns, by_appearance: bool = True) -> GameArrays:
    c = games.columns
    order = None if games.order is None else _numbers(games.order, np.int64, None)
    b, w, names = (_players if by_appearance else _coded_players)(games, order)
    rows = order
    return GameArrays(
        games=games,
        names=names,
        black=b,
        white=w,
        result=_numbers(c["result"], float, order),
        handicap=_numbers(c["handicap"], np.int64, order),
        size=_numbers(c["size"], np.int64, order),
        komi=_komi(c["komi"], order),
        source=_in_order(c["source"], rows),
        date_column=_in_order(c["date"], rows),
        event_column=_in_order(c["event"], rows),
    )


def _komi(column, order):
    """The komi column as floats, ``NaN`` for a game without komi (``None``)."""
    if isinstance(column, Coded):
        values = [np.nan if v is None else v for v in column.values]
        column = Coded(column.codes, values)
    elif not (hasattr(column, "__array__") or hasattr(column, "buffer_info")):
        column = [np.nan if v is None else v for v in column]
    return _numbers(column, float, order)


def _values(column) -> list:
    return list(column.tolist() if hasattr(column, "tolist") else column)


# -- scheduling -------------------------------------------------------------------------------


def levels(item, player, count: int, by_player=None):
    """Each item's level: items ``0..count-1``; ``item``/``player`` the pairs (an item's
    players), grouped by item in increasing order, each pair once (a player at most once
    per item). Level 0 for an item whose players have no earlier item, else one more
    than the highest level of their previous items. ``by_player``: the pairs by player,
    then item, when the caller has them (else sorted here).

    Kahn's algorithm one level at a time on arrays: an item is ready when the previous
    items of all its players are done; each level costs the size of the level, not of
    the whole history.
    """
    item = np.asarray(item, dtype=np.int64)
    player = np.asarray(player, dtype=np.int64)
    level = np.full(count, -1, dtype=np.int64)
    if not count:
        return level
    order = argsort_ints(player) if by_player is None else np.asarray(by_player)
    sorted_players = player[order]
    same = sorted_players[1:] == sorted_players[:-1]
    # the pair of each pair's player in its next item (-1: the player's last item)
    after = np.full(len(item), -1, dtype=np.int64)
    successors = order[1:][same]
    after[order[:-1][same]] = successors
    waiting = np.bincount(item[successors], minlength=count)  # previous items not done
    starts = np.searchsorted(item, np.arange(count + 1, dtype=np.int64))
    ready = np.flatnonzero(waiting == 0)
    current = 0
    while len(ready):
        level[ready] = current
        nxt = after[_ranges(starts[ready], starts[ready + 1])]
        nxt = nxt[nxt >= 0]
        if not len(nxt):
            break
        targets = item[nxt]
        np.subtract.at(waiting, targets, 1)
        done = np.sort(targets[waiting[targets] == 0])
        ready = done[np.concatenate(([True], done[1:] != done[:-1]))] if len(done) else done
        current += 1
    return level


def argsort_ints(values):
    """A stable argsort of non-negative integers: one sort of the values packed with
    their positions when both fit in 63 bits (numpy's sort is much faster than its
    argsort), else numpy's stable argsort."""
    values = np.asarray(values, dtype=np.int64)
    n = len(values)
    if not n:
        return np.zeros(0, dtype=np.int64)
    low = max(1, int(n - 1).bit_length())
    high = int(values.max()).bit_length()
    if values.min() < 0 or low + high > 63:
        return np.argsort(values, kind="stable")
    packed = np.sort((values << low) | np.arange(n, dtype=np.int64))
    return packed & ((1 << low) - 1)


def _ranges(starts, ends):
    """Concatenated ``arange(s, e)`` for each pair (vectorised)."""
    lengths = ends - starts
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return np.arange(total, dtype=np.int64) + offsets


# -- steps out ----------------------------------------------------------------------------------


class StepColumns(Sequence):
    """Steps i = 0..n−1: ``names[player[i]]``, ``labels[i]``, ``dates[i]``, before and after
    (rating, deviation, volatility; a ``None`` column is absent), ``games[i]``.
    ``labels`` and ``dates`` may be any sequences (:class:`Lazy`, :class:`Coded`)."""

    def __init__(self, names, player, labels, dates, before, after, games):
        self.names = names
        self.player = np.asarray(player, dtype=np.int64)
        self.labels = labels
        self.dates = dates
        self.before = before
        self.after = after
        self.games = np.asarray(games, dtype=np.int64)

    def __len__(self) -> int:
        return len(self.player)

    @staticmethod
    def _state(columns, i) -> RatingState:
        r, rd, vol = columns
        return RatingState(
            float(r[i]),
            None if rd is None else float(rd[i]),
            None if vol is None else float(vol[i]),
        )

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return RatingStep(
            self.names[self.player[i]],
            self.labels[i],
            self.dates[i],
            self._state(self.before, i),
            self._state(self.after, i),
            int(self.games[i]),
            (),
            (),
            _NONE,
        )

    def __iter__(self) -> Iterator[RatingStep]:
        names = self.names
        cols = [c.tolist() if c is not None else None for c in (*self.before, *self.after)]
        br, brd, bv, ar, ard, av = cols
        n = len(self)
        none = [None] * n
        brd, bv, ard, av = (c if c is not None else none for c in (brd, bv, ard, av))
        for k, p, label, day, g in zip(
            range(n), self.player.tolist(), self.labels, self.dates, self.games.tolist()
        ):
            yield RatingStep(
                names[p],
                label,
                day,
                RatingState(br[k], brd[k], bv[k]),
                RatingState(ar[k], ard[k], av[k]),
                g,
                (),
                (),
                _NONE,
            )

    def totals(self) -> tuple[dict[str, int], dict[str, str]]:
        """Each player's games over the steps and the date of their last step, on the
        arrays (no step built)."""
        n = len(self)
        if not n:
            return {}, {}
        games = np.bincount(self.player, weights=self.games, minlength=len(self.names))
        last = np.full(len(self.names), -1, dtype=np.int64)
        np.maximum.at(last, self.player, np.arange(n, dtype=np.int64))
        played = np.flatnonzero(last >= 0).tolist()
        names, dates = self.names, self.dates
        counts, ends = games.tolist(), last.tolist()
        return (
            {names[p]: int(counts[p]) for p in played},
            {names[p]: dates[ends[p]] for p in played},
        )

    def finite(self) -> bool:
        """Whether every number of every step is finite (absent columns aside)."""
        return all(
            bool(np.isfinite(column).all())
            for column in (*self.before, *self.after)
            if column is not None
        )


class StepTotals(Sequence):
    """Steps that were not kept (the answer asked for final ratings only): what the
    host's reports need of them without them — each player's games over the steps and
    the date of their last step (:meth:`totals`, as :meth:`StepColumns.totals` and
    :func:`~sodos_plugin.ratings.run.totals` give them), and whether every number of
    every step was finite (:meth:`finite`). ``len`` is how many steps there were;
    reading a step is an error (the run was made with ``steps`` false: rate again with
    it)."""

    def __init__(self, games: dict[str, int], last: dict[str, str], count: int, finite: bool):
        self.games = games
        self.last = last
        self.count = count
        self.all_finite = finite

    @classmethod
    def of(cls, steps: Sequence[RatingStep]) -> StepTotals:
        """The totals of steps a system made (to be dropped)."""
        if isinstance(steps, (StepColumns, StepTotals)):
            games, last = steps.totals()
            return cls(games, last, len(steps), steps.finite())
        games, last = {}, {}
        finite = True
        for step in steps:
            games[step.player] = games.get(step.player, 0) + step.games
            last[step.player] = step.date
            finite = finite and all(
                isinstance(x, (int, float)) and math.isfinite(x)
                for x in (*step.before, *step.after)
                if x is not None
            )
        return cls(games, last, len(steps), finite)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i):
        raise LookupError("the rating steps were not kept (steps=False): rate with steps")

    def __iter__(self) -> Iterator[RatingStep]:
        raise LookupError("the rating steps were not kept (steps=False): rate with steps")

    def totals(self) -> tuple[dict[str, int], dict[str, str]]:
        return dict(self.games), dict(self.last)

    def finite(self) -> bool:
        return self.all_finite
