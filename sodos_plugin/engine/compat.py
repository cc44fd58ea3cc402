"""``compat``: print another program's numbers, its defects included (docs/rules.md §7).

With ``compat = "opengotha"`` (``--compat opengotha``) sodos prints what OpenGotha 3.51
prints for the same file, where OpenGotha departs from its own rules. Every such
departure is a :class:`Defect` listed in :data:`DEFECTS`, and this module is the one
place that applies them; criteria and readers never ask which compat is on:

* :func:`prepare` swaps in the tournament as OpenGotha reads the file (the XML reader's
  ``Tournament.compat["opengotha"]``: games it drops from files saved without
  ``dataVersion``, one bye per round, old-format ratings) and the settings it really
  uses (``genMMZero`` ignored: zero at 30k);
* :func:`adjusted` gives the ``compute`` of a built-in criterion OpenGotha computes
  otherwise (SOSM-1 and SOSM-2 at 0 after round 2; SOSTS with virtual SOS on, where it
  reads every opponent's STS as 0).

Without compat nothing changes, and :func:`differences` tells ``explain`` and ``check``
where OpenGotha would print another value, and which defect makes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from sodos_hookspecs import Breakdown

from sodos_plugin.engine import opponents
from sodos_plugin.engine.model import Tournament
from sodos_plugin.errors import SodosError

if TYPE_CHECKING:
    from sodos_plugin.config.settings import Settings
    from sodos_plugin.engine.context import Context
    from sodos_plugin.engine.standings import Standings

OPENGOTHA = "opengotha"
#: OpenGotha's zero rank: start scores count from 30k whatever the file says.
ZERO_30K = -30


@dataclass(frozen=True)
class Defect:
    """One way OpenGotha 3.51 prints something else than its own rules give."""

    code: str
    title: str
    why: str


DEFECTS: dict[str, Defect] = {
    d.code: d
    for d in (
        Defect(
            "V1",
            "games lost from a file saved without dataVersion",
            "OpenGotha 3.51.02 does not write dataVersion, then reads its own file as an "
            "old one: players are looked up by letters-only names (games of keys with "
            "'-', digits or other non-letters are dropped) and ratings get +2050",
        ),
        Defect(
            "V2",
            "genMMZero ignored",
            "OpenGotha's copy of the general parameters resets the McMahon zero to 30K, so "
            "start scores always count 30K as 0",
        ),
        Defect(
            "V3",
            "SOSM-1 and SOSM-2 left at 0 after round 2",
            "OpenGotha stores SOSM-1 and SOSM-2 only from round 3 on (SOSW-1, SOSW-2 are right)",
        ),
        Defect(
            "V4",
            "one bye per round",
            "OpenGotha keeps only the last bye of a round; the other players are counted "
            "as not paired",
        ),
        Defect(
            "V6",
            "player keys OpenGotha cannot match",
            "OpenGotha matches a game's or bye's key only by its own rule: upper case in "
            "the locale it runs in (Turkish: i → İ), letters-only names in old files; a "
            "key written otherwise drops the game or bye",
        ),
        Defect(
            "V7",
            "a <ByePlayer> wrapper read as a bye",
            "OpenGotha reads every <ByePlayer> element, the one wrapping the others too: "
            "its empty key names a player whose name has no letter A-Z, who gets a "
            "round-1 bye",
        ),
        Defect(
            "V8",
            "one game per round and table",
            "OpenGotha keeps a tournament's games in a map by round and table number: of "
            "games that share a round and a table (files written without tableNumber, as "
            "other programs write them) only the last stays",
        ),
        Defect(
            "V5",
            "SOSTS with virtual SOS",
            "With genCountNotPlayedGamesAsHalfPoint OpenGotha reads every opponent's STS "
            "as 0 (its virtual STS is never filled): SOSTS is the handicap corrections "
            "plus the own start score of rounds without a game",
        ),
    )
}

_CUTS_M = ("SOSM-1", "SOSM-2")
_CUTS_ANY = ("SOS-1", "SOS-2")


def is_on(settings: Settings) -> bool:
    return settings.compat == OPENGOTHA


def prepare(tournament: Tournament, settings: Settings) -> tuple[Tournament, Settings, list[str]]:
    """The tournament and settings OpenGotha computes with, and notes on what changed."""
    if not is_on(settings):
        return tournament, settings, []
    notes = []
    view = tournament.compat.get(OPENGOTHA)
    if view is not None:
        notes += [_note(code, detail) for code, detail in view.defects.items()]
        tournament = view.tournament
    if settings.mcmahon.zero != ZERO_30K:
        notes.append(_note("V2", "start scores count from 30K"))
        settings = settings.replace({"mcmahon.zero": ZERO_30K})
    return tournament, settings, notes


def _note(code: str, detail: str) -> str:
    defect = DEFECTS[code]
    return f"compat opengotha ({code}, {defect.title}): {detail}"


def adjusted(name: str, plugin: str, compute: Callable[[Context], Breakdown], settings: Settings):
    """``compute`` of criterion ``name``, as OpenGotha computes it when compat is on."""
    if not is_on(settings) or not plugin.startswith("builtin."):
        return compute
    key = name.upper()
    if key in _CUTS_M or key in _CUTS_ANY:

        def cut_from_round_3(ctx: Context) -> Breakdown:
            breakdown = compute(ctx)
            if ctx.round != 2 or (key in _CUTS_ANY and ctx.form != "M"):
                return breakdown
            return Breakdown(
                denominator=breakdown.denominator,
                totals=[0] * ctx.size,
                details=breakdown.details,
            )

        return cut_from_round_3
    if key == "SOSTS" and settings.unplayed.virtual_opponent == "half-point":

        def sosts_without_virtual_sts(ctx: Context) -> Breakdown:
            return opponents.opponent_table(ctx, "M", [0] * ctx.size, label="opponent STS")

        return sosts_without_virtual_sts
    return compute


def criteria_notes(settings: Settings, criteria: Sequence[str], round_number: int) -> list[str]:
    """Notes on the criteria compat computes otherwise in these standings."""
    if not is_on(settings):
        return []
    return [
        _note(code, detail) for code, detail in _criteria_defects(settings, criteria, round_number)
    ]


def _criteria_defects(
    settings: Settings, criteria: Sequence[str], round_number: int
) -> list[tuple[str, str]]:
    found = []
    names = {c.upper() for c in criteria}
    if round_number == 2 and (
        names & set(_CUTS_M) or (settings.form == "M" and names & set(_CUTS_ANY))
    ):
        found.append(("V3", "these standings are after round 2"))
    if "SOSTS" in names and settings.unplayed.virtual_opponent == "half-point":
        found.append(("V5", "opponents' STS count 0 in SOSTS"))
    return found


def active(
    tournament: Tournament, settings: Settings, criteria: Sequence[str], round_number: int
) -> list[tuple[str, str]]:
    """The defects that may change a value of these standings, with what they change."""
    found: list[tuple[str, str]] = []
    view = tournament.compat.get(OPENGOTHA)
    if view is not None:
        found += list(view.defects.items())
    if settings.mcmahon.zero != ZERO_30K:
        found.append(("V2", "start scores would count from 30K"))
    return found + _criteria_defects(settings, criteria, round_number)


@dataclass(frozen=True)
class Difference:
    """A value OpenGotha would print otherwise."""

    player: int
    criterion: str
    ours: Fraction
    theirs: Fraction


def differences(
    standings: Standings, rank: Callable[..., Standings]
) -> tuple[list[Difference], list[str]]:
    """Where OpenGotha 3.51 would print another value for these standings, and why (the
    active defects' explanations). Computed by ranking them again with compat on:
    ``rank(tournament, round=, criteria=, system=, compat=)`` is how these standings were
    made (``Host.standings``)."""
    settings = standings.settings
    if is_on(settings):
        return [], []
    tournament = standings.tournament
    kinds = active(tournament, settings, standings.criteria, standings.round)
    if not kinds:
        return [], []
    try:
        other = _with_compat(rank, standings)
    except SodosError:  # e.g. --strict and compat's own notes: nothing to compare
        return [], []
    names = {" ".join(p.name.split()): i for i, p in enumerate(other.tournament.players)}
    found = []
    for p, player in enumerate(tournament.players):
        q = names.get(" ".join(player.name.split()))
        if q is None:
            continue
        for criterion in standings.criteria:
            ours, theirs = standings.value(criterion, p), other.value(criterion, q)
            if ours != theirs:
                found.append(Difference(p, criterion, ours, theirs))
    reasons = [
        f"{code} {DEFECTS[code].title}: {detail}. {DEFECTS[code].why}" for code, detail in kinds
    ]
    return found, reasons


def _with_compat(rank: Callable[..., Standings], standings: Standings) -> Standings:
    view = standings.tournament.compat.get(OPENGOTHA)
    seen = view.tournament if view is not None else standings.tournament
    return rank(
        standings.tournament,
        round=min(standings.round, seen.rounds),
        criteria=list(standings.criteria),
        system=standings.settings.system,
        compat=OPENGOTHA,
    )
