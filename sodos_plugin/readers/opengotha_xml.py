"""OpenGotha tournament XML reader (docs/rules.md §6, OpenGotha 3.x ``tournament.dtd``).

Contract: ``read([path])`` returns a :class:`~sodos_plugin.model.Tournament` whose
``settings`` carry the file's own parameters, so that standings computed with no
other option are the ones OpenGotha computes for the file:

* ``system``: ``mcmahon`` when the placement criteria use MMS, else ``swiss``
  (OpenGotha's tournament type follows its main criterion);
* ``criteria``: the ``PlacementCriterion`` list, OpenGotha names mapped to ours
  (``SOSWM1`` → ``SOSW-1``, ``NULL`` dropped; see :data:`CRITERIA`);
* ``mcmahon.bar/floor/zero`` from ``genMMBar/genMMFloor/genMMZero``;
* ``scoring.*`` from ``genNBW2ValueBye`` etc. — OpenGotha stores these *doubled*
  (2 = one point) — and ``genRoundDownNBWMMS``;
* ``unplayed.virtual_opponent``: ``half-point`` when
  ``genCountNotPlayedGamesAsHalfPoint`` is true, else ``egf``;
* ``handicap.reduction`` from ``hdCorrection`` (pairing only; no effect on SOS).

Players: name = ``name firstName``; the key games refer to is ``name + firstName``
upper-cased without spaces (OpenGotha's ``getKeyString``). A ``0`` in
``participating`` marks the round absent unless the player has a game or the bye
(OpenGotha's order: absent < paired < bye). Results keep ``_BYDEF`` as a forfeit.

Safety: the file is parsed with :mod:`defusedxml` (no DTD entities, no external
references) and refused above ``max_bytes`` (option, default 64 MiB) or above
``max_nodes`` elements plus attributes (option, default 1 000 000; counted on the bytes
before parsing): a tree costs ~100 bytes per node, so 60 MB of ``<a/>`` would need 1.4 GB.
A 2 000-player, 10-round event has about 100 000.

Layering: :func:`scan` turns bytes into elements and raw attributes; the
``_interpret_*`` functions turn attribute text into values and report the element
and attribute of any bad value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException
from sodos_hookspecs import FileReport, Reader, ReadResult, hookimpl

from sodos_plugin.errors import InputError
from sodos_plugin.inputfiles import FileRefused, read_regular
from sodos_plugin.model import Game, Player, Result, Tournament
from sodos_plugin.ranks import parse_rank

NAME = "opengotha-xml"
MAX_BYTES = 64 << 20
MAX_NODES = 1_000_000
MAX_ROUNDS = 64

#: OpenGotha placement-criterion names → our criterion names (None: no criterion).
CRITERIA: dict[str, str | None] = {
    "NULL": None,
    "NUL": None,
    "NBW": "NBW",
    "MMS": "MMS",
    "SOSW": "SOSW",
    "SOSM": "SOSM",
    "SOSWM1": "SOSW-1",
    "SOSMM1": "SOSM-1",
    "SOSWM2": "SOSW-2",
    "SOSMM2": "SOSM-2",
    "SOSOSW": "SOSOSW",
    "SOSOSM": "SOSOSM",
    "SODOSW": "SODOSW",
    "SODOSM": "SODOSM",
    "CUSSW": "CUSSW",
    "CUSSM": "CUSSM",
    "EXT": "EXT",
    "EXR": "EXR",
    "DC": "DC",
    "SDC": "SDC",
    # Criteria we do not implement keep their name: the host then stops with
    # "unknown criterion" instead of silently computing different standings.
    "CAT": "CAT",
    "RANK": "RANK",
    "RATING": "RATING",
    "STS": "STS",
    "SOSTS": "SOSTS",
    "CPS": "CPS",
}

RESULTS: dict[str, Result] = {
    "RESULT_WHITEWINS": Result.WHITE_WINS,
    "RESULT_BLACKWINS": Result.BLACK_WINS,
    "RESULT_EQUAL": Result.JIGO,
    "RESULT_BOTHWIN": Result.BOTH_WIN,
    "RESULT_BOTHLOSE": Result.BOTH_LOSE,
    "RESULT_UNKNOWN": Result.UNKNOWN,
}


def player_key(name: str, first_name: str) -> str:
    """OpenGotha's player key: ``name + firstName`` without spaces, upper-cased."""
    return re.sub(r"\s+", "", name + first_name).upper()


def claims(path: Path, head: bytes) -> bool:
    if path.is_dir():
        return False
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text.startswith(b"<") and b"<Tournament" in head


def scan(path: Path, max_bytes: int, max_nodes: int = MAX_NODES) -> Element:
    """The root element of the file, parsed safely within ``max_bytes`` and ``max_nodes``."""
    source = str(path)
    try:  # a regular file only, within max_bytes (sodos_plugin.inputfiles)
        data = read_regular(path, max_bytes, "option [plugin.builtin.opengotha_xml] max_bytes")
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    # every element has a "<", every attribute a "=": an upper bound, at C speed
    nodes = data.count(b"<") + data.count(b"=")
    if nodes > max_nodes:
        raise InputError(
            f"more than {max_nodes} elements and attributes "
            "(option [plugin.builtin.opengotha_xml] max_nodes)",
            source=source,
        )
    try:
        root = SafeET.fromstring(data)
    except DefusedXmlException as error:
        raise InputError(f"refused unsafe XML: {error}", source=source) from None
    except ParseError as error:
        line, column = getattr(error, "position", (0, 0))
        raise InputError(
            f"not well-formed XML: {error}", source=source, where=f"line {line}:{column}"
        ) from None
    except (LookupError, ValueError) as error:  # e.g. <?xml encoding="TF-8"?> (fuzzing)
        raise InputError(f"cannot decode the XML: {error}", source=source) from None
    if root.tag != "Tournament":
        raise InputError(
            f"root element is <{root.tag}>, expected an OpenGotha <Tournament>", source=source
        )
    return root


class _Where:
    """Names an element and attribute in error messages."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, element: Element, attribute: str, message: str) -> InputError:
        label = element.tag
        for key in ("name", "roundNumber", "tableNumber", "player"):
            if key in element.attrib and key != attribute:
                label += f" {key}={element.attrib[key]!r}"
        return InputError(message, source=self.source, where=f"<{label}> {attribute}")

    def text(self, element: Element, attribute: str, default: str | None = None) -> str:
        value = element.get(attribute)
        if value is None:
            if default is not None:
                return default
            raise self.fail(element, attribute, "attribute missing")
        return value

    def integer(self, element: Element, attribute: str, default: int | None = None) -> int:
        raw = element.get(attribute)
        if raw is None or raw.strip() == "":
            if default is not None:
                return default
            raise self.fail(element, attribute, "attribute missing (expected an integer)")
        try:
            return int(raw.strip())
        except ValueError:
            raise self.fail(element, attribute, f"expected an integer, got {raw!r}") from None

    def boolean(self, element: Element, attribute: str, default: bool) -> bool:
        raw = element.get(attribute)
        if raw is None:
            return default
        if raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        raise self.fail(element, attribute, f"expected true or false, got {raw!r}")

    def rank(self, element: Element, attribute: str) -> int:
        raw = self.text(element, attribute)
        try:
            return parse_rank(raw)
        except ValueError as error:
            raise self.fail(element, attribute, str(error)) from None


def _interpret_settings(root: Element, where: _Where) -> tuple[dict[str, Any], int]:
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    if general is None:
        raise InputError(
            "no TournamentParameterSet/GeneralParameterSet element", source=where.source
        )
    rounds = where.integer(general, "numberOfRounds")
    if not 0 <= rounds <= MAX_ROUNDS:
        raise where.fail(general, "numberOfRounds", f"expected 0..{MAX_ROUNDS}, got {rounds}")

    def half_points(attribute: str, default: int) -> str:
        value = where.integer(general, attribute, default)
        if not 0 <= value <= 2:
            raise where.fail(general, attribute, f"expected 0, 1 or 2 (doubled), got {value}")
        return str(Fraction(value, 2))

    criteria: list[str] = []
    for element in root.findall("TournamentParameterSet/PlacementParameterSet//PlacementCriterion"):
        raw = where.text(element, "name").strip().upper()
        if raw not in CRITERIA:
            raise where.fail(element, "name", f"unknown OpenGotha placement criterion {raw!r}")
        mapped = CRITERIA[raw]
        if mapped is not None:
            criteria.append(mapped)
    system = "mcmahon" if "MMS" in criteria or not criteria else "swiss"
    if criteria and criteria[0] == "NBW":
        system = "swiss"
    mcmahon = {}
    for key, attribute in (("bar", "genMMBar"), ("floor", "genMMFloor"), ("zero", "genMMZero")):
        if general.get(attribute):
            where.rank(general, attribute)  # validated here, converted by settings
            mcmahon[key] = general.get(attribute, "").strip()
    settings: dict[str, Any] = {
        "system": system,
        "mcmahon": mcmahon,
        "scoring": {
            "bye": half_points("genNBW2ValueBye", 2),
            "bye_mms": half_points("genMMS2ValueBye", 2),
            "absent_nbw": half_points("genNBW2ValueAbsent", 0),
            "absent_mms": half_points("genMMS2ValueAbsent", 1),
            "round_down": where.boolean(general, "genRoundDownNBWMMS", True),
        },
        "unplayed": {
            "virtual_opponent": "half-point"
            if where.boolean(general, "genCountNotPlayedGamesAsHalfPoint", False)
            else "egf"
        },
    }
    if criteria:
        settings["criteria"] = criteria
    handicap = root.find("TournamentParameterSet/HandicapParameterSet")
    if handicap is not None and handicap.get("hdCorrection") is not None:
        settings["handicap"] = {"reduction": where.integer(handicap, "hdCorrection")}
    return settings, rounds


def _interpret_players(root: Element, where: _Where, rounds: int):
    players: list[Player] = []
    keys: dict[str, int] = {}
    absent: list[str] = []
    for element in root.iter("Player"):
        name = where.text(element, "name").strip()
        first = where.text(element, "firstName", "").strip()
        key = player_key(name, first)
        if not key:
            raise where.fail(element, "name", "empty player name")
        if key in keys:
            raise where.fail(element, "name", f"two players have the key {key!r}")
        rating_raw = element.get("rating", "").strip()
        rating = where.integer(element, "rating") if rating_raw else None
        participating = element.get("participating", "").strip()
        if participating and not set(participating) <= {"0", "1"}:
            raise where.fail(element, "participating", f"expected 0/1 flags, got {participating!r}")
        keys[key] = len(players)
        absent.append(participating)
        players.append(
            Player(
                name=f"{name} {first}".strip(),
                rank=where.rank(element, "rank"),
                rating=rating,
                club=element.get("club", "").strip(),
                country=element.get("country", "").strip(),
                smms_correction=where.integer(element, "smmsCorrection", 0),
            )
        )
    return players, keys, absent


def _lookup(keys: Mapping[str, int], element: Element, attribute: str, where: _Where) -> int:
    raw = where.text(element, attribute)
    index = keys.get(re.sub(r"\s+", "", raw).upper())
    if index is None:
        raise where.fail(element, attribute, f"no player has the key {raw!r}")
    return index


def _interpret_games(root: Element, where: _Where, keys: Mapping[str, int], rounds: int):
    games: list[Game] = []
    seen: dict[tuple[int, int], Element] = {}
    for element in root.iter("Game"):
        r = where.integer(element, "roundNumber")
        if not 1 <= r <= rounds:
            raise where.fail(element, "roundNumber", f"expected 1..{rounds}, got {r}")
        black = _lookup(keys, element, "blackPlayer", where)
        white = _lookup(keys, element, "whitePlayer", where)
        if black == white:
            raise where.fail(element, "whitePlayer", "a player cannot play himself")
        for p in (black, white):
            if (r, p) in seen:
                raise where.fail(element, "roundNumber", "a player has two games in this round")
            seen[(r, p)] = element
        raw = where.text(element, "result", "RESULT_UNKNOWN").strip().upper()
        by_default = raw.endswith("_BYDEF")
        base = raw[: -len("_BYDEF")] if by_default else raw
        if base not in RESULTS:
            known = ", ".join(sorted(RESULTS))
            raise where.fail(element, "result", f"unknown result {raw!r} (expected {known})")
        handicap = where.integer(element, "handicap", 0)
        if not 0 <= handicap <= 9:
            raise where.fail(element, "handicap", f"expected 0..9, got {handicap}")
        games.append(Game(r, black, white, RESULTS[base], handicap, by_default))
    return games, seen


def read_path(path: Path, max_bytes: int = MAX_BYTES, max_nodes: int = MAX_NODES) -> Tournament:
    """Read one OpenGotha XML file into a Tournament carrying the file's settings."""
    source = str(path)
    root = scan(path, max_bytes, max_nodes)
    where = _Where(source)
    settings, rounds = _interpret_settings(root, where)
    players, keys, participating = _interpret_players(root, where, rounds)
    games, paired = _interpret_games(root, where, keys, rounds)
    byes: set[tuple[int, int]] = set()
    for element in root.iter("ByePlayer"):
        r = where.integer(element, "roundNumber")
        if not 1 <= r <= rounds:
            raise where.fail(element, "roundNumber", f"expected 1..{rounds}, got {r}")
        p = _lookup(keys, element, "player", where)
        if (r, p) in paired:
            raise where.fail(element, "player", "this player has a game and the bye in the round")
        byes.add((r, p))
    absences = {
        (r, p)
        for p, flags in enumerate(participating)
        for r in range(1, rounds + 1)
        if r <= len(flags) and flags[r - 1] == "0" and (r, p) not in paired and (r, p) not in byes
    }
    general = root.find("TournamentParameterSet/GeneralParameterSet")
    name = ""
    if general is not None:
        name = (general.get("name") or general.get("shortName") or "").strip()
    try:
        return Tournament(
            name=name or path.stem,
            rounds=rounds,
            players=tuple(players),
            games=tuple(games),
            byes=frozenset(byes),
            absences=frozenset(absences),
            settings=settings,
            source=source,
        )
    except ValueError as error:
        raise InputError(str(error), source=source) from None


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    if len(paths) != 1:
        raise InputError(f"give one OpenGotha XML file per tournament, got {len(paths)}")
    limits = []
    for key, default in (("max_bytes", MAX_BYTES), ("max_nodes", MAX_NODES)):
        value = options.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise InputError(
                f"{key} must be a positive integer, got {value!r}",
                source="[plugin.builtin.opengotha_xml]",
            )
        limits.append(value)
    tournament = read_path(paths[0], *limits)
    return ReadResult(tournament, files=[FileReport(str(paths[0]), "ingested")])


@hookimpl
def sodos_readers() -> list[Reader]:
    return [Reader(NAME, "OpenGotha tournament file (.xml)", claims, read)]
