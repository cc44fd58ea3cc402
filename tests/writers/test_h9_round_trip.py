"""Read → write h9 → read back gives the same facts (docs/rules.md §12), on every real
file of the shared data that reads as a tournament and on generated tournaments.

The facts are what h9 holds: players (names, ranks, countries, clubs, EGD PINs, and
ratings when a Rating column is written), games (rounds, results, handicaps, by-default
marks, colours where known), byes and absences as the tokens ``0+``/``0=`` of the
points they gave, the rounds, the date and the EGD header; then the standings (every
criterion value, the places and the labels), ``explain`` and the ratings of the file
read back equal the original's.

What h9 cannot hold is named, per file, by :func:`refused` (the writer refuses the
tournament, with that reason) and :func:`values_not_held` (the file is written and its
facts read back, but its values need what h9 has no place for: the virtual-opponent
convention, category limits, the McMahon bar of STS, a bye with a game in one round,
round-down off, doubled scores). A komi per game, ids other than the EGD PIN,
start-score corrections and settings are not facts h9 holds either: the facts below
leave them out.
"""

from __future__ import annotations

import collections
import io
import re
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT, SHARED_DATA, builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import Game, Player, Result, Tournament
from sodos_plugin.engine import explain
from sodos_plugin.engine.model import SYMBOLS, Ids
from sodos_plugin.errors import InputError
from sodos_plugin.readers import h9
from sodos_plugin.writers.h9_writer import _property, h9_name, h9_text, unsafe_in_h9

HOST = builtin_host()
TOURNAMENT_FILES = (".xml", ".h9", ".txt")


def real_inputs() -> list[Path]:
    found = []
    for parts in (("conformance", "go"), ("conformance", "opengotha", "xml"),
                  ("conformance", "opengotha", "minimal")):  # fmt: skip
        folder = SHARED_DATA.joinpath(*parts)
        found += [p for p in sorted(folder.glob("*")) if p.suffix in TOURNAMENT_FILES
                  and p.name not in ("SOURCES.txt", "README.md")]  # fmt: skip
    for parent in (SHARED_DATA / "sgf", SHARED_DATA / "server-archives"):
        found += [p for p in sorted(parent.glob("*")) if p.is_dir()]
    return found + [ROOT / "sample_sgf"]


def as_h9(standings) -> str:
    out = io.StringIO()
    HOST.write(standings, "h9", out)
    return out.getvalue()


def read_back(text: str, folder: Path) -> Tournament:
    path = folder / "back.h9"
    path.write_text(text, encoding="utf-8")
    return HOST.read([path]).tournament


# -- what h9 cannot hold ----------------------------------------------------------------


def refused(t: Tournament, round_number: int) -> str | None:
    """The part of the writer's refusal message for what h9 cannot write, or None."""
    if not t.players:
        return "no players"  # no row: the reader refuses a file without rows
    if any(p.rank is None for p in t.players):
        return "h9 needs every player's rank"
    if any(not -30 <= p.rank <= 8 for p in t.players):
        return "h9 ranks are 30k..9d"
    if any(unsafe_in_h9(p) for p in t.players):  # "|", ";", a name read as rank and results
        return "h9 cannot hold a"
    seats = collections.Counter(
        (g.round, p) for g in t.games if g.round <= round_number for p in {g.black, g.white}
    )
    if any(g.black == g.white for g in t.games if g.round <= round_number) or any(
        n > 1 for n in seats.values()
    ):
        return "h9 holds one game per player and round"
    if any(g.handicap and not g.colours_known for g in t.games if g.round <= round_number):
        return "h9 cannot hold a handicap game without colours"
    return None


def form_of(criterion: str) -> str | None:
    """``"W"`` or ``"M"`` for a criterion named in one form (``SOSM-1``), else None."""
    base = criterion.partition("-")[0]
    formed = base.startswith(("SOS", "SODOS", "CUSS")) and base != "SOSTS"
    return base[-1] if formed and base[-1] in "WM" else None


def values_not_held(standings) -> list[str]:
    """Why the values of a written file may differ once read back (h9 has no place)."""
    t, s = standings.tournament, standings.settings
    reasons = []
    if s.unplayed.virtual_opponent != "egf":
        reasons.append(f"virtual opponent {s.unplayed.virtual_opponent!r}")
    if "CAT" in standings.criteria and s.categories.lower_limits:
        reasons.append("category limits")
    if {"STS", "SOSTS"} & set(standings.criteria):
        reasons.append("the McMahon bar of STS")
    paired = {(g.round, p) for g in t.games for p in (g.black, g.white)}
    if any(pair in paired for pair in t.byes if pair[0] <= standings.round):
        reasons.append("a bye and a game in one round")
    if not s.scoring.round_down:
        reasons.append("round-down off")
    if s.scoring.doubled:
        reasons.append("doubled scores")
    if not s.handicap.sos_correction:
        reasons.append("no handicap correction of SOS")
    if s.system == "mcmahon" and "MMS" not in standings.criteria:
        reasons.append("an MMS column added for the start scores")
    form = "M" if s.system == "mcmahon" else "W"
    for c in standings.criteria:  # h9 names drop the form: a column takes the event's
        if h9.COLUMNS.get(h9_name(c, form).upper(), "").format(form) != c:
            reasons.append(f"{c} in a {s.system}")
    # a free round's token gives the points of the main score only (0+, 0=, 0-): read
    # back, its points in the other form are the reader's; a criterion of that form
    # sees them (a Swiss absence, 0-, is no longer ½ in MMS)
    other = [c for c in standings.criteria if form_of(c) not in (None, form)]
    mcmahon = s.system == "mcmahon"
    scoring = s.scoring
    for pairs, nbw, mms in ((t.byes, scoring.bye, scoring.bye_mms),
                            (t.absences, scoring.absent_nbw, scoring.absent_mms)):  # fmt: skip
        main, theirs = (mms, nbw) if mcmahon else (nbw, mms)
        # the reader's other-form points of 0+ (1), 0= (McMahon NBW 0, Swiss MMS ½), 0-
        back = 1 if main >= 1 else (0 if mcmahon or not main else Fraction(1, 2))
        if other and pairs and back != theirs:
            reasons.append(f"free rounds of {other[0]} in a {s.system}")
            break
    return reasons


# -- the facts ---------------------------------------------------------------------------


def words(text: str, unknown: str) -> str:
    """A country or club as h9 holds it: ``_`` is a space (the EGD's way), and
    OpenGotha's mark of an unknown one (``XX``, ``xxxx``) is none."""
    text = " ".join(text.replace("_", " ").split())
    return "" if text == unknown else text


def player_facts(t: Tournament, order, rating: bool) -> list[tuple]:
    return [
        (
            h9_text(t.players[p].name) or "?",
            t.players[p].rank,
            words(t.players[p].country, "XX"),
            words(t.players[p].club, "xxxx"),
            dict(t.players[p].ids).get("egd"),
            t.players[p].rating if rating else None,
        )
        for p in order
    ]


def game_facts(t: Tournament, row_of, rounds: int) -> collections.Counter:
    """Games by row numbers; a game without colours by its sides in row order, each
    with its outcome, since neither side is Black."""
    found = collections.Counter()
    for g in t.games:
        if g.round > rounds:
            continue
        b, w = row_of[g.black], row_of[g.white]
        as_black, as_white = SYMBOLS[g.result]
        if g.colours_known:
            found[(g.round, b, w, as_black, as_white, g.handicap, g.by_default, True)] += 1
        else:
            (p, pm), (q, qm) = sorted([(b, as_black), (w, as_white)])
            found[(g.round, p, q, pm, qm, g.handicap, g.by_default, False)] += 1
    return found


def free_facts(t: Tournament, s, rounds: int, row_of) -> set[tuple]:
    """(round, row, points in the main score) of every bye and absence that gave
    points (a round that gave none is ``0-``, as a round not assigned)."""
    mcmahon = s.system == "mcmahon"
    paired = {(g.round, p) for g in t.games for p in (g.black, g.white)}
    found = set()
    bye, absent = (s.scoring.bye_mms, s.scoring.absent_mms) if mcmahon else (
        s.scoring.bye, s.scoring.absent_nbw)  # fmt: skip
    for pairs, points in ((t.byes, bye), (t.absences, absent)):
        for r, p in pairs:
            if r <= rounds and points and (r, p) not in paired:
                found.add((r, row_of[p], points))
    return found


def header_facts(t: Tournament) -> dict[str, str]:
    known = {k: _property(v) for k, v in t.info.items() if k != "HA" and v.strip()}
    if "DT" not in known and t.date:
        known["DT"] = t.date
    return known


def assert_same_facts(first, back: Tournament) -> None:
    t = first.tournament
    order = list(first.order)
    row_of = {p: i for i, p in enumerate(order)}
    rating = "RATING" in first.criteria
    assert player_facts(back, range(len(back.players)), rating) == player_facts(t, order, rating)
    identity = {i: i for i in range(len(back.players))}
    assert game_facts(back, identity, back.rounds) == game_facts(t, row_of, first.round)
    assert free_facts(back, HOST.settings_for(back), back.rounds, identity) == free_facts(
        t, first.settings, first.round, row_of
    )
    assert back.rounds == first.round
    assert back.date == t.date
    assert back.name == (_property(t.name) or back.name)
    assert dict(back.info) == header_facts(t)
    reduction = first.settings.handicap.reduction
    assert back.settings.get("handicap") == ({"reduction": reduction} if reduction else None)


def assert_same_values(first, back: Tournament) -> None:
    """Every value, place and label of the standings of the file read back."""
    again = HOST.standings(back)
    assert again.criteria == first.criteria  # one label per criterion, from any format
    assert again.settings.system == first.settings.system
    order = list(first.order)
    for c in first.criteria:
        assert [again.value(c, i) for i in range(len(order))] == [
            first.value(c, p) for p in order
        ], c
    assert list(again.places) == list(first.places)


# -- every real file --------------------------------------------------------------------


def outcomes(folder: Path) -> dict[str, list[str]]:
    """Each real file's outcome: ``same`` (facts and values), ``facts`` (facts only,
    and why), ``refused`` (and why), ``not a tournament``."""
    found: dict[str, list[str]] = collections.defaultdict(list)
    for path in real_inputs():
        try:
            t = HOST.read([path]).tournament
        except InputError:
            found["not a tournament"].append(path.name)  # rejected, or two events
            continue
        try:
            first = HOST.standings(t)
        except InputError:  # a McMahon needs ranks (SGF archives): a Swiss has none
            assert any(p.rank is None for p in t.players), path.name
            first = HOST.standings(t, system="swiss")
        reason = refused(t, first.round)
        if reason == "no players":  # written, but a file without rows is not read
            with pytest.raises(InputError, match="no result rows"):
                read_back(as_h9(first), folder)
        elif reason is not None:
            with pytest.raises(InputError, match=reason):
                as_h9(first)
        if reason is not None:
            found[f"refused: {reason}"].append(path.name)
            continue
        back = read_back(as_h9(first), folder)
        assert_same_facts(first, back)
        why = values_not_held(first)
        if why:
            found[f"facts: {', '.join(why)}"].append(path.name)
            continue
        assert_same_values(first, back)
        found["same"].append(path.name)
    return found


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    if not (SHARED_DATA / "conformance").exists():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return outcomes(tmp_path_factory.mktemp("h9-round-trip"))


@pytest.mark.slow
def test_every_real_tournament_round_trips_or_says_why(real):
    """Every file is accounted for, and most keep everything (a test that skipped them
    all would pass otherwise)."""
    assert len(real["same"]) >= 330, {k: len(v) for k, v in real.items()}
    assert "sample_sgf" in real["same"] and "odd" in real["same"]  # SGF tournaments
    assert "variants" in real["same"]  # its players' pro ranks (P9段 ...) are read
    for outcome in real:
        assert outcome in ("same", "not a tournament") or outcome.startswith(
            ("refused: ", "facts: ")
        ), outcome
    # the reasons, as met in the shared data
    assert "opengotha_Tournoi_de_Juvisy.xml" in real["same"]
    assert "opengotha_Tournoi_de_Juvisy.h9" in real["same"]
    assert "h9_wagc2025_opengotha.txt" in real["same"]
    assert "h9_mpj2022_opengotha_sodos.txt" in real["same"]
    assert "api-webapp__src__test__resources__opengotha__bosp2024__bosp2024.xml" in real["same"]
    assert "self_equal.xml" in real["refused: h9 holds one game per player and round"]
    assert "ranks.xml" in real["refused: h9 ranks are 30k..9d"]
    assert "virtual_true.xml" in real["facts: virtual opponent 'half-point'"]
    assert "cat3.xml" in real["facts: category limits"]
    assert "bye_and_game.xml" in real["facts: a bye and a game in one round"]


# -- the three files of the EGD, shown ---------------------------------------------------

GO = SHARED_DATA / "conformance" / "go"
BOSP = (SHARED_DATA / "conformance" / "opengotha" / "xml"
        / "api-webapp__src__test__resources__opengotha__bosp2024__bosp2024.xml")  # fmt: skip


@pytest.mark.parametrize(
    ("path", "pins", "first_row"),
    [
        (GO / "h9_wagc2025_opengotha.txt", 52,
         "   1 Ma Tianfang                  8D CN Chin   7  45   319 0 11+/w0 27+/b0 16+/b0 "
         "5+/w0  3-/b0  12+/w0 2+/b0  4+/w0 |19713452"),
        (GO / "h9_mpj2022_opengotha_sodos.txt", 17,
         "   1 Doruch Cyprian       4K PL Wroc   7  31    31   -4 11+ 2+  4+  3+  5+  6+  7+ "
         "|18725927"),
        (BOSP, None, "   1 Kose Dogac                3D TR Ist   32  62   123 0 8+/b0  4+/w0 "
         "|14825052"),
    ],
)  # fmt: skip
def test_the_egd_gets_every_pin_and_no_invented_colour(path, pins, first_row, tmp_path):
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    t = HOST.read([path]).tournament
    first = HOST.standings(t)
    text = as_h9(first)
    rows = [line for line in text.splitlines() if not line.startswith(";")]
    assert rows[0] == first_row
    if pins is None:  # every non-empty egfPin of the XML
        pins = len(re.findall(r'egfPin="\s*[^"\s]', path.read_text("utf-8")))
    assert sum("|" in row for row in rows) == pins == sum(bool(p.ids) for p in t.players)
    if "mpj2022" in path.name:  # the file gives no colour: none is written
        assert not any("/" in row for row in rows)
    back = read_back(text, tmp_path)
    assert [dict(p.ids) for p in back.players] == [dict(t.players[p].ids) for p in first.order]


def test_explain_and_ratings_of_the_file_read_back_are_the_original(tmp_path):
    for path in sorted(GO.glob("*")):
        if path.suffix not in TOURNAMENT_FILES or path.name == "SOURCES.txt":
            continue
        t = HOST.read([path]).tournament
        first = HOST.standings(t, round=t.rounds)
        back = read_back(as_h9(first), tmp_path)
        again = HOST.standings(back, round=back.rounds)
        for i, p in enumerate(first.order):
            ours = explain.as_dict(explain.explain_player(first, p))
            theirs = explain.as_dict(explain.explain_player(again, i))
            assert theirs["criteria"] == ours["criteria"], (path.name, t.players[p].name)
            assert [g["colour"] for g in theirs["games"]] == [g["colour"] for g in ours["games"]]
        # h9 carries no rating column unless the criteria print one: both start from ranks
        # (the default start of egf takes an XML's own ratings, docs/rules.md §10.1)
        ratings = [
            HOST.ratings(HOST.history(tournaments=[x]), initial="ranks").as_dict()["players"]
            for x in (t, back)
        ]
        assert ratings[1] == ratings[0], path.name


# -- generated tournaments ---------------------------------------------------------------

NAMES = st.text(st.sampled_from("Ab Cé-Zß'."), min_size=1, max_size=8).filter(str.strip)
WORDS = st.sampled_from(["", "FR", "New York", "0", "3d", "12+", "xx x", "Go_Club"])


@st.composite
def generated(draw) -> Tournament:
    n = draw(st.integers(2, 7))
    rounds = draw(st.integers(1, 4))
    players = []
    for i in range(n):
        pin = draw(st.one_of(st.none(), st.integers(10_000_000, 99_999_999)))
        players.append(Player(
            f"{draw(NAMES)} {i}", rank=draw(st.integers(-30, 8)), club=draw(WORDS),
            country=draw(WORDS), ids=Ids({"egd": str(pin)}) if pin else Ids(),
        ))  # fmt: skip
    games, byes, absences = [], set(), set()
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(n)))
        paired = draw(st.integers(0, n // 2))
        for k in range(paired):
            known = draw(st.booleans())
            games.append(Game(
                r, order[2 * k], order[2 * k + 1], draw(st.sampled_from(list(Result))),
                draw(st.integers(0, 9)) if known else 0, draw(st.booleans()), known,
            ))  # fmt: skip
        for p in order[2 * paired :]:
            kind = draw(st.sampled_from(["bye", "absent", "none"]))
            (byes if kind == "bye" else absences if kind == "absent" else set()).add((r, p))
    info = draw(st.sampled_from([{}, {"PC": ",Juvisy", "CL": "B", "KM": "6.5", "TM": "82"}]))
    return Tournament("Generated", rounds, tuple(players), tuple(games), frozenset(byes),
                      frozenset(absences), date="2024-05-18", info=info)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    t=generated(),
    system=st.sampled_from(["swiss", "mcmahon"]),
    criteria=st.sampled_from(
        [None, ["SOS{}", "SOSOS{}", "SODOS{}"], ["SOS{}-1", "CUSS{}", "RANK"], ["SOSW", "SOSM"]]
    ),
)
def test_generated_tournaments_round_trip(tmp_path_factory, t, system, criteria):
    """Criteria by their full names (a bare SOS is labelled as asked; its h9 column reads
    as the event's SOSW or SOSM), in the event's form and in the other one."""
    main = ["MMS"] if system == "mcmahon" else ["NBW"]
    form = "M" if system == "mcmahon" else "W"
    if criteria is not None:
        criteria = main + [c.format(form) for c in criteria]
    first = HOST.standings(t, system=system, criteria=criteria)
    back = read_back(as_h9(first), tmp_path_factory.mktemp("gen"))
    assert_same_facts(first, back)
    if not values_not_held(first):  # else only: free rounds of the other form's criterion
        assert_same_values(first, back)
