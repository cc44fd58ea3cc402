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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from sodos_plugin.context import Context
    from sodos_plugin.model import Tournament
    from sodos_plugin.standings import Standings


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
        ``sodos_plugin.context.Context`` (tournament, settings, round, scores).
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
    not a record) and ``settings`` (a tournament settings file); only ``rejected``
    makes the command fail.
    """

    path: str
    status: str
    reason: str = ""


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
    """

    name: str
    description: str
    claims: Callable[[Path, bytes], bool]
    read: Callable[[Sequence[Path], Mapping[str, Any]], ReadResult]


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
