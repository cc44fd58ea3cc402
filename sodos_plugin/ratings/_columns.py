"""Steps kept as columns: a server's archive makes millions of rating steps.

Contract: :class:`StepColumns` is a read-only ``Sequence[RatingStep]`` over arrays (who,
which period, before and after); a step is built when it is read. Built-in systems return
it when no details are asked for (``params["details"]`` false): the same steps, a few
arrays instead of millions of tuples.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
from sodos_hookspecs import RatingState, RatingStep

_NONE = RatingStep._field_defaults["summary"]


class StepColumns(Sequence):
    """Steps i = 0..n−1: ``names[player[i]]``, ``labels[i]``, ``dates[i]``, before and after
    (rating, deviation, volatility; a ``None`` column is absent), ``games[i]``."""

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
        names, labels, dates = self.names, self.labels, self.dates
        cols = [c.tolist() if c is not None else None for c in (*self.before, *self.after)]
        br, brd, bv, ar, ard, av = cols
        n = len(self)
        none = [None] * n
        brd, bv, ard, av = (c if c is not None else none for c in (brd, bv, ard, av))
        for k, p, label, day, g in zip(
            range(n), self.player.tolist(), labels, dates, self.games.tolist()
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


def concat(parts: Sequence[StepColumns]) -> StepColumns | list:
    """One StepColumns of several with the same names (empty: an empty list)."""
    if not parts:
        return []
    names = parts[0].names

    def join(pick):
        cols = [pick(p) for p in parts]
        return None if cols[0] is None else np.concatenate(cols)

    before = tuple(join(lambda p, k=k: p.before[k]) for k in range(3))
    after = tuple(join(lambda p, k=k: p.after[k]) for k in range(3))
    labels = [x for p in parts for x in p.labels]
    dates = [x for p in parts for x in p.dates]
    return StepColumns(
        names,
        np.concatenate([p.player for p in parts]),
        labels,
        dates,
        before,
        after,
        np.concatenate([p.games for p in parts]),
    )
