"""Reading a pairgoth ``.tour`` file into a Tournament (the format: :mod:`.pairgoth`)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from sodos_hookspecs import FileReport, ReadResult

from sodos_plugin.engine.model import NO_IDS, Game, Ids, Player, Result, Tournament, iso_day
from sodos_plugin.engine.ranks import format_rank
from sodos_plugin.errors import InputError
from sodos_plugin.readers.choose import one_file
from sodos_plugin.util.textsafe import fit

MAX_BYTES = 16 << 20
#: pairgoth's result symbols (``Game.Result``) → the result; ``X`` (cancelled) is no game
RESULTS: dict[str, Result | None] = {
    "b": Result.BLACK_WINS,
    "w": Result.WHITE_WINS,
    "=": Result.JIGO,
    "?": Result.UNKNOWN,
    "#": Result.BOTH_WIN,
    "0": Result.BOTH_LOSE,
    "X": None,
}
#: pairgoth's placement criteria (``Placement.kt``) → sodos's; None: nothing to rank by
CRITERIA: dict[str, str | None] = {
    "NONE": None,
    "NULL": None,
    "CATEGORY": "CAT",
    "SOSWM1": "SOSW-1",
    "SOSWM2": "SOSW-2",
    "SOSMM1": "SOSM-1",
    "SOSMM2": "SOSM-2",
    **{
        name: name
        for name in (
            "RANK", "RATING", "NBW", "MMS", "STS", "CPS", "SOSW", "SODOSW", "SOSOSW",
            "CUSSW", "SOSM", "SODOSM", "SOSOSM", "CUSSM", "SOSTS", "EXT", "EXR", "SDC", "DC",
        )
    },
}  # fmt: skip
#: ``pairing.type`` → the system
SYSTEMS = {"MAC_MAHON": "mcmahon", "SWISS": "swiss"}
#: pairgoth's external ids (``DatabaseId``) → Player.ids keys (EGF's PIN is the EGD's)
ID_KEYS = {"egf": "egd", "ffg": "ffg", "aga": "aga", "ext": "ext"}
#: members read; the others are named in a note
PLAYER_KEYS = {"id", "name", "firstname", "rating", "rank", "country", "club", "skip",
               "mmsCorrection", *ID_KEYS}  # fmt: skip
GAME_KEYS = {"id", "w", "b", "h", "r"}
TOURNAMENT_KEYS = {"type", "name", "shortName", "startDate", "endDate", "country",
                   "location", "komi", "gobanSize", "rounds", "pairing", "players",
                   "games", "id"}  # fmt: skip


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    source, data = one_file(paths, options, "builtin.pairgoth", "pairgoth", MAX_BYTES)
    try:
        document = json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError) as error:
        raise InputError(f"not pairgoth JSON: {fit(str(error), 120)}", source=source) from None
    tournament, notes = interpret(document, source)
    return ReadResult(tournament, files=[FileReport(source, "ingested")], warnings=notes)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _Doc:
    """Typed access to members, errors naming the member."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> InputError:
        return InputError(message, source=self.source, where=where)

    def get(self, obj: Mapping, key: str, kind: type | tuple, where: str, default: Any = ...):
        if key not in obj or obj[key] is None:
            if default is ...:
                raise self.fail(where, f"{key} is missing")
            return default
        value = obj[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        wrong_bool = isinstance(value, bool) and bool not in kinds  # JSON true is no number
        if wrong_bool or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(where, f"{key} must be {names}, got {fit(repr(value), 40)}")
        return value


def interpret(document: Any, source: str) -> tuple[Tournament, list[str]]:
    """The JSON document → Tournament and notes (docs/rules.md §13)."""
    doc = _Doc(source)
    if not isinstance(document, dict):
        raise doc.fail("", "a pairgoth file is one JSON object")
    kind = doc.get(document, "type", str, "type", "INDIVIDUAL")
    if kind.upper() != "INDIVIDUAL":
        raise doc.fail("type", f"a {fit(kind, 20)} (team) tournament: sodos ranks players only")
    notes: list[str] = []
    ignored: dict[str, int] = {}
    rounds = doc.get(document, "rounds", int, "rounds")
    if not 1 <= rounds <= 64:
        raise doc.fail("rounds", f"rounds must be 1..64, got {rounds}")
    raw_players = doc.get(document, "players", list, "players", [])
    players: list[Player] = []
    index: dict[int, int] = {}
    skips: list[tuple[int, list[int]]] = []
    for i, raw in enumerate(raw_players):
        where = f"players[{i}]"
        if not isinstance(raw, dict):
            raise doc.fail(where, "a player is a JSON object")
        for key in raw.keys() - PLAYER_KEYS:
            ignored[f"players' {key}"] = ignored.get(f"players' {key}", 0) + 1
        pid = doc.get(raw, "id", int, where, i + 1)
        if pid <= 0 or pid in index:
            raise doc.fail(where, f"id {pid} is not a new positive id")
        index[pid] = len(players)
        name = " ".join(
            " ".join(doc.get(raw, key, str, where, "").split()) for key in ("name", "firstname")
        ).strip()
        if not name:
            raise doc.fail(where, "a player needs a name")
        rank = doc.get(raw, "rank", int, where)
        if not -30 <= rank <= 8:
            raise doc.fail(where, f"rank {rank} is outside -30..8 (30k..9d)")
        rating = doc.get(raw, "rating", int, where, None)
        ids = {}
        for key, as_key in ID_KEYS.items():
            value = doc.get(raw, key, str, where, "").strip()
            if value:
                ids[as_key] = value
        skip = doc.get(raw, "skip", list, where, [])
        if not all(isinstance(r, int) and not isinstance(r, bool) for r in skip):
            raise doc.fail(where, "skip lists round numbers")
        skips.append((len(players), skip))
        players.append(
            Player(
                name, rank, rating,
                " ".join(doc.get(raw, "club", str, where, "").split()),
                doc.get(raw, "country", str, where, "").strip().upper(),
                doc.get(raw, "mmsCorrection", int, where, 0), None, None,
                Ids(ids) if ids else NO_IDS,
            )
        )  # fmt: skip
    raw_rounds = doc.get(document, "games", list, "games", [])
    if len(raw_rounds) > rounds:
        raise doc.fail("games", f"games of {len(raw_rounds)} rounds, but rounds is {rounds}")
    games: list[Game] = []
    byes: set[tuple[int, int]] = set()
    cancelled: list[str] = []
    for r, raw_games in enumerate(raw_rounds, start=1):
        if not isinstance(raw_games, list):
            raise doc.fail(f"games[{r - 1}]", "a round's games are a JSON array")
        for k, raw in enumerate(raw_games):
            where = f"games[{r - 1}][{k}]"
            if not isinstance(raw, dict):
                raise doc.fail(where, "a game is a JSON object")
            for key in raw.keys() - GAME_KEYS:
                ignored[f"games' {key}"] = ignored.get(f"games' {key}", 0) + 1
            ids = [doc.get(raw, key, int, where) for key in ("b", "w")]
            for pid in ids:
                if pid and pid not in index:
                    raise doc.fail(where, f"player {pid} is not in players")
            symbol = doc.get(raw, "r", str, where, "?")
            if symbol not in RESULTS:
                raise doc.fail(where, f"result {fit(symbol, 8)!r} is none of b w = ? # 0 X")
            black, white = ids
            if not black or not white:  # the bye: a game against player 0
                if black or white:
                    byes.add((r, index[black or white]))
                continue
            result = RESULTS[symbol]
            if result is None:
                cancelled.append(f"round {r}: {players[index[black]].name} - "
                                 f"{players[index[white]].name}")  # fmt: skip
                continue
            handicap = doc.get(raw, "h", int, where, 0)
            if not 0 <= handicap <= 9:
                raise doc.fail(where, f"handicap {handicap} outside 0..9")
            games.append(Game(r, index[black], index[white], result, handicap))
    seats: dict[tuple[int, int], int] = {}
    for g in games:
        for p in {g.black, g.white}:
            seats[(g.round, p)] = seats.get((g.round, p), 0) + 1
    for (r, p), count in sorted(seats.items()):
        if count > 1 or (r, p) in byes:
            what = f"{count} games" if count > 1 else "the bye and a game"
            notes.append(
                f"{source}: round {r}: {fit(players[p].name, 40)} has {what}: each scores; "
                "his own SOS-type values count the game listed last (docs/rules.md §6)"
            )
    for g in games:
        if g.black == g.white:
            notes.append(f"{source}: round {g.round}: {fit(players[g.black].name, 40)} "
                         "plays himself")  # fmt: skip
    paired = {(g.round, p) for g in games for p in (g.black, g.white)} | byes
    absences = {
        (r, p) for p, skip in skips for r in skip if 1 <= r <= rounds and (r, p) not in paired
    }
    settings, setting_notes = _settings(document, doc)
    notes += [f"{source}: {n}" for n in setting_notes]
    if cancelled:
        notes.append(
            f"{source}: {len(cancelled)} cancelled game(s) (result X) left out: "
            + "; ".join(fit(c, 60) for c in cancelled[:3])
            + (" ..." if len(cancelled) > 3 else "")
        )
    ignored.update({k: 1 for k in document.keys() - TOURNAMENT_KEYS})
    if ignored:
        notes.append(
            f"{source}: not used by sodos: {', '.join(fit(k, 30) for k in sorted(ignored)[:12])}"
        )
    start, end = (doc.get(document, k, str, k, "") for k in ("startDate", "endDate"))
    komi = doc.get(document, "komi", (int, float), "komi", None)
    info = {}
    if start:
        info["DT"] = f"{start},{end}" if end and end != start else start
    place = " ".join(doc.get(document, "location", str, "location", "").split())
    country = doc.get(document, "country", str, "country", "").strip().upper()
    if place or country:
        info["PC"] = f"{country},{place}"
    if komi is not None and math.isfinite(komi):
        info["KM"] = f"{komi:g}"
    size = doc.get(document, "gobanSize", int, "gobanSize", None)
    name = doc.get(document, "name", str, "name", "") or doc.get(
        document, "shortName", str, "shortName", ""
    )
    try:
        tournament = Tournament(
            name=" ".join(name.split()) or Path(source).stem,
            rounds=rounds,
            players=tuple(players),
            games=tuple(games),
            byes=frozenset(byes),
            absences=frozenset(absences),
            settings=settings,
            source=source,
            date=iso_day(start),
            info=info,
            size=size,
            odd_pairings=True,  # kept as pairgoth keeps them, each said in a note above
        )
    except ValueError as error:
        raise InputError(str(error), source=source) from None
    return tournament, notes


def _settings(document: Mapping, doc: _Doc) -> tuple[dict[str, Any], list[str]]:
    """``pairing`` → the settings the file carries, and notes."""
    notes: list[str] = []
    pairing = doc.get(document, "pairing", dict, "pairing", {})
    kind = doc.get(pairing, "type", str, "pairing", "MAC_MAHON")
    system = SYSTEMS.get(kind.upper())
    settings: dict[str, Any] = {}
    if system is None:
        notes.append(f"pairing type {fit(kind, 20)}: not a system sodos ranks by; "
                     "the config's system is used")  # fmt: skip
    else:
        settings["system"] = system
    if system == "mcmahon":
        bar = doc.get(pairing, "mmBar", int, "pairing.mmBar", 0)
        floor = doc.get(pairing, "mmFloor", int, "pairing.mmFloor", -20)
        for key, value in (("mmBar", bar), ("mmFloor", floor)):
            if not -30 <= value <= 8:
                raise doc.fail(f"pairing.{key}", f"{value} is outside -30..8 (30k..9d)")
        settings["mcmahon"] = {"bar": format_rank(bar), "floor": format_rank(floor)}
    main = doc.get(pairing, "main", dict, "pairing.main", {})
    absent = doc.get(main, "mmsValueAbsent", (int, float), "pairing.main.mmsValueAbsent", 0.5)
    if not (math.isfinite(absent) and 0 <= absent <= 1):
        raise doc.fail("pairing.main.mmsValueAbsent", f"{absent} is outside 0..1")
    settings["scoring"] = {
        "absent_mms": str(Fraction(absent).limit_denominator(4)),
        "round_down": doc.get(main, "roundDownScore", bool, "pairing.main.roundDownScore", True),
    }
    if not doc.get(main, "sosValueAbsentUseBase", bool, "pairing.main", True):
        notes.append(
            "pairing.main.sosValueAbsentUseBase is false: sodos's unplayed.virtual_opponent "
            "(default egf: the player's own start score) is used"
        )
    handicap = doc.get(pairing, "handicap", dict, "pairing.handicap", {})
    correction = doc.get(handicap, "correction", int, "pairing.handicap.correction", None)
    if correction is not None:
        settings["handicap"] = {"reduction": correction}
    criteria: list[str] = []
    for k, raw in enumerate(doc.get(pairing, "placement", list, "pairing.placement", [])):
        if not isinstance(raw, str):
            raise doc.fail(f"pairing.placement[{k}]", "a criterion is a name")
        if raw.upper() not in CRITERIA:
            notes.append(f"placement criterion {fit(raw, 20)}: sodos has no such criterion; "
                         "left out")  # fmt: skip
            continue
        name = CRITERIA[raw.upper()]
        if name is not None and name not in criteria:
            criteria.append(name)
    if criteria:
        settings["criteria"] = criteria
    return settings, notes
