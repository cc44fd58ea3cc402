"""OpenGotha tournament XML reader: every file OpenGotha opens, with its meaning
(docs/rules.md §6; OpenGotha 3.51 ``ExternalDocument.importTournamentFromXMLFile``).

Contract: ``read([path])`` returns a :class:`~sodos_hookspecs.ReadResult` whose
tournament carries the file's own settings, so that standings computed with no other
option are the ones the file means, and whose warnings say every place where the file
is odd or where OpenGotha would print something else:

* **settings** (``Tournament.settings``): ``criteria`` from ``PlacementCriterion``
  (OpenGotha's long names, exact case; by their ``number``; a name OpenGotha does not
  know is NULL, with a warning; all NULL → ``["NULL"]``, every player tied);
  ``mcmahon.bar/floor/zero``, ``scoring.*`` (OpenGotha stores points doubled),
  ``scoring.round_down``, ``unplayed.virtual_opponent`` (``half-point`` for
  OpenGotha's virtual SOS), ``categories.lower_limits``, ``handicap.reduction``; a
  missing attribute takes OpenGotha's import default (its DTD's when the file names
  ``tournament.dtd``);
* **players**: ranks read as OpenGotha reads them (``99K`` → 30K, unreadable → −99,
  with a warning); ratings clamped to −900…2949 (+2050 first in an old-format file);
  a second player with the same key is refused, with a warning;
* **games and byes** name players by OpenGotha's keys (:mod:`.opengotha_keys`),
  matched as OpenGotha matches them in the locale the file was written in; a key
  OpenGotha cannot match is matched by sodos's identity rule (``identity_key``) when
  that finds exactly one player, with a warning; otherwise the game or bye is skipped,
  with a warning. Games that share a round and a table (files other programs write
  without ``tableNumber``) are all kept, with one warning counting the games OpenGotha
  would lose (it keeps the last game of each table: defect V8); two
  games of one player in a round, a player playing himself and a bye player with a
  game are kept as OpenGotha keeps them, with a warning naming the games; the games
  are then listed in OpenGotha's ``HashMap`` order, whose last game counts (see
  :mod:`sodos_plugin.engine.model`); ``numberOfRounds`` rises to the last round with a game
  or bye.
* **compat view** (``Tournament.compat["opengotha"]``, only when it differs): the
  tournament as OpenGotha 3.51.02 itself reads the file — a file it saved without
  ``dataVersion`` read as an old one (games of players with non-letters in their keys
  dropped, ratings + 2050), one bye per round, games whose key it cannot match
  dropped, one game per round and table (docs/rules.md §7).
* refused by name: the MacMahon program's files, ``<TournamentData>`` or (some of its
  versions) ``<Tournament typeversion=...>`` with ``IndividualParticipant`` and
  ``TournamentRound`` children, never read as OpenGotha's. An empty file is
  an empty tournament (as OpenGotha opens it), with a warning; bytes that are not
  UTF-8 in a file that says it is are replaced (U+FFFD), with a warning.

Safety: the file is parsed with :mod:`defusedxml`'s guarantees (no DTD entities, no
external references; :mod:`.safe_xml`) and refused above ``max_bytes`` (option, default
64 MiB) or above ``max_nodes`` elements plus attributes (option, default 1 000 000;
counted on the bytes before parsing): a tree costs ~100 bytes per node, so 60 MB of
``<a/>`` would need 1.4 GB. A 2 000-player, 10-round event has about 100 000.

Layering: :func:`scan` turns bytes into elements;
:class:`~sodos_plugin.readers.opengotha_values.Attributes` reads attribute text as
OpenGotha does (defaults, Java's integer and boolean parsing, ranks) and names the
element of any bad value; :mod:`.opengotha_keys` matches player keys as OpenGotha does;
the ``_players``/``_settings``/``_game_records``/``_bye_records`` functions interpret;
:func:`_resolve` makes each reading (ours, OpenGotha's) and :func:`read_file` the
tournament with its compat view.

The plugin module is :mod:`.opengotha_xml` (name, ``claims``, the hook); this module is
imported on the first read, so a run on another format never loads the XML parser.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from sodos_hookspecs import FileReport, ReadResult

from sodos_plugin.config.options import positive_integer
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.engine.model import (
    NO_IDS,
    CompatView,
    Game,
    Ids,
    Player,
    Result,
    Tournament,
    iso_day,
)
from sodos_plugin.engine.ranks import format_rank
from sodos_plugin.errors import InputError
from sodos_plugin.readers import opengotha_event, opengotha_keys, safe_xml
from sodos_plugin.readers.java_hashmap import integer_hash, iteration_order
from sodos_plugin.readers.opengotha_values import (
    DEFAULTS,
    NO_RANK,
    Attributes,
    convert_kdp,
    java_int,
    rank_note,
    shown_rank,
)
from sodos_plugin.util.inputfiles import FileRefused, read_regular

MAX_BYTES = 64 << 20
MAX_NODES = 1_000_000
MAX_ROUNDS = 64
#: OpenGotha's placement criteria slots (``PlacementParameterSet.PLA_MAX_NUMBER_OF_CRITERIA``).
CRITERIA_SLOTS = 6
#: Game keys in OpenGotha's map: (round − 1) × this + (table − 1) (``MAX_NUMBER_OF_TABLES``).
TABLES = 1000
MIN_RATING, MAX_RATING = -900, 2949
#: The ``dataVersion`` of current files; older files name players by canonical names.
DATA_VERSION = 201

#: OpenGotha's placement criteria by their XML (long) name → sodos criterion names
#: (``PlacementParameterSet.allPlacementCriteria``). Case-sensitive, as OpenGotha reads them.
CRITERIA: dict[str, str | None] = {
    "NULL": None,
    "CAT": "CAT",
    "NBW": "NBW",
    "CPS": "CPS",
    "MMS": "MMS",
    "STS": "STS",
    "Rank": "RANK",
    "Rating": "RATING",
    "CUSSW": "CUSSW",
    "CUSSM": "CUSSM",
    "SOSW": "SOSW",
    "SOSW-1": "SOSW-1",
    "SOSW-2": "SOSW-2",
    "SODOSW": "SODOSW",
    "SOSM": "SOSM",
    "SOSM-1": "SOSM-1",
    "SOSM-2": "SOSM-2",
    "SODOSM": "SODOSM",
    "SOSTS": "SOSTS",
    "SOSOSW": "SOSOSW",
    "SOSOSM": "SOSOSM",
    "EXT": "EXT",
    "EXR": "EXR",
    "DC": "DC",
    "SDC": "SDC",
}
#: Names seen in files that OpenGotha reads as NULL, with the name meant (for the warning).
_MEANT = {
    "SOSWM1": "SOSW-1",
    "SOSWM2": "SOSW-2",
    "SOSMM1": "SOSM-1",
    "SOSMM2": "SOSM-2",
    "RANK": "Rank",
    "RATING": "Rating",
    "NUL": "NULL",
}

RESULTS: dict[str, Result] = {
    "RESULT_WHITEWINS": Result.WHITE_WINS,
    "RESULT_BLACKWINS": Result.BLACK_WINS,
    "RESULT_EQUAL": Result.JIGO,
    "RESULT_BOTHWIN": Result.BOTH_WIN,
    "RESULT_BOTHLOSE": Result.BOTH_LOSE,
    "RESULT_UNKNOWN": Result.UNKNOWN,
}

_DOCTYPE = re.compile(rb"<!DOCTYPE\s+Tournament\s+SYSTEM\s+[\"'][^\"']*tournament\.dtd[\"']")
_ON_MMS = {"MMS", "STS", "SOSTS", "SOSM", "SOSM-1", "SOSM-2", "SODOSM", "SOSOSM", "CUSSM"}
_ON_WINS = {"NBW", "CPS", "SOSW", "SOSW-1", "SOSW-2", "SODOSW", "SOSOSW", "CUSSW", "EXT", "EXR"}


# -- bytes to elements ------------------------------------------------------------------


@dataclass
class _Scanned:
    root: Element | None
    dtd: bool = False
    warnings: list[str] = field(default_factory=list)


def _declared_encoding(data: bytes) -> str:
    match = re.match(rb"\s*<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']", data)
    return match.group(1).decode("ascii") if match else "utf-8"


def _utf8_repaired(data: bytes) -> tuple[bytes, str] | None:
    """``data`` with bytes that are not UTF-8 replaced by U+FFFD, and where the first was,
    when the file says (or implies) it is UTF-8; else None."""
    try:
        if codecs.lookup(_declared_encoding(data)).name != "utf-8":
            return None
    except LookupError:
        return None
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        repaired = data.decode("utf-8", errors="replace").encode("utf-8")
        return repaired, f"line {line}"


def scan(path: Path, max_bytes: int, max_nodes: int = MAX_NODES) -> Element:
    """The root element of the file, parsed safely within ``max_bytes`` and ``max_nodes``
    (an empty ``<Tournament>`` for an empty file)."""
    root = scan_file(path, max_bytes, max_nodes).root
    return Element("Tournament") if root is None else root


def scan_file(path: Path, max_bytes: int, max_nodes: int = MAX_NODES) -> _Scanned:
    """:func:`scan` with what the reader needs besides: whether the file names OpenGotha's
    DTD, and warnings (empty file, bytes that are not UTF-8)."""
    source = str(path)
    try:  # a regular file only, within max_bytes (sodos_plugin.util.inputfiles)
        data = read_regular(path, max_bytes, "option [plugin.builtin.opengotha_xml] max_bytes")
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    if not data.strip(b"\xef\xbb\xbf \t\r\n"):
        return _Scanned(
            None,
            warnings=[
                f"{source}: the file is empty: a tournament without players or games "
                "(OpenGotha opens it so too)"
            ],
        )
    # every element has a "<", every attribute a "=": an upper bound, at C speed
    nodes = data.count(b"<") + data.count(b"=")
    if nodes > max_nodes:
        raise InputError(
            f"more than {max_nodes} elements and attributes "
            "(option [plugin.builtin.opengotha_xml] max_nodes)",
            source=source,
        )
    warnings = []
    try:
        root = safe_xml.fromstring(data)
    except DefusedXmlException as error:
        raise InputError(
            f"refused unsafe XML: {safe_xml.refusal_text(error)}", source=source
        ) from None
    except ParseError as error:
        repaired = _utf8_repaired(data)
        if repaired is None:
            line, column = getattr(error, "position", (0, 0))
            raise InputError(
                f"not well-formed XML: {safe_xml.parse_error_text(error)}",
                source=source,
                where=f"line {line}:{column}",
            ) from None
        data, where = repaired
        try:
            root = safe_xml.fromstring(data)
        except (ParseError, DefusedXmlException) as again:
            raise InputError(f"not well-formed XML: {again}", source=source) from None
        warnings.append(
            f"{source}: {where}: bytes that are not UTF-8 in a UTF-8 file, read as U+FFFD "
            "(OpenGotha cannot open this file: it shows an empty tournament)"
        )
    except (LookupError, ValueError) as error:  # e.g. <?xml encoding="TF-8"?> (fuzzing)
        raise InputError(f"cannot decode the XML: {error}", source=source) from None
    macmahon = _macmahon_mark(root)
    if macmahon:
        raise InputError(
            f"this is a MacMahon program file ({macmahon}), not an OpenGotha "
            "tournament: sodos does not read it; export the results from MacMahon as an "
            "EGD h9 file (sodos reads those)",
            source=source,
        )
    if root.tag != "Tournament":
        raise InputError(
            f"root element is <{root.tag}>, expected an OpenGotha <Tournament>", source=source
        )
    return _Scanned(root, bool(_DOCTYPE.search(data[:4096])), warnings)


#: children of the MacMahon program's ``<Tournament typeversion=...>`` (OpenGotha has none)
MACMAHON_CHILDREN = ("IndividualParticipant", "TournamentRound")


def _macmahon_mark(root: Element) -> str:
    """What shows a MacMahon program file (``""`` for none): its ``<TournamentData>``
    root, or a ``<Tournament>`` with a ``typeversion`` attribute or
    ``IndividualParticipant``/``TournamentRound`` children (some MacMahon versions)."""
    if root.tag == "TournamentData":
        return "<TournamentData>"
    if root.tag != "Tournament":
        return ""
    if root.get("typeversion") is not None:
        return "<Tournament typeversion=...>"
    for child in root:
        if child.tag in MACMAHON_CHILDREN:
            return f"<Tournament> with <{child.tag}>"
    return ""


# -- attribute text as OpenGotha reads it -----------------------------------------------


# -- interpretation ---------------------------------------------------------------------


@dataclass
class _Player:
    element: Element
    name: str
    first: str
    rank: int
    rating: int  # as written (clamped only by the view)
    smms_correction: int
    participating: str
    club: str
    country: str
    ids: Mapping[str, str] = NO_IDS


#: Player attributes that are identifiers → their scheme in ``Player.ids`` (an empty
#: attribute is none; docs/rules.md §6).
ID_ATTRIBUTES = (("egfPin", "egd"), ("ffgLicence", "ffg"), ("agaId", "aga"))


def _ids(element: Element) -> Mapping[str, str]:
    """The player's identifiers the file gives (``egfPin``, ``ffgLicence``, ``agaId``)."""
    found = {}
    for attribute, scheme in ID_ATTRIBUTES:
        value = (element.get(attribute) or "").strip()
        if value:
            found[scheme] = value
    return Ids(found) if found else NO_IDS


def _players(root: Element, attrs: Attributes, turkish: bool) -> list[_Player]:
    players: list[_Player] = []
    keys: dict[str, _Player] = {}
    notes: dict[str, list[str]] = {}
    for element in root.iter("Player"):
        name, first = attrs.text(element, "name"), attrs.text(element, "firstName")
        if not name.strip():
            raise attrs.fail(element, "name", "empty player name")
        raw_rank = attrs.text(element, "rank")
        rank = convert_kdp(raw_rank)
        note = rank_note(raw_rank, rank)
        if rank == NO_RANK:
            grade = attrs.text(element, "grade")
            rank = convert_kdp(grade)
            how = (
                f"its grade {grade!r}"
                if rank != NO_RANK
                else "-99 (below 30K: start score at the McMahon floor, last category)"
            )
            note = f"rank {raw_rank!r} is not readable: OpenGotha reads {how}"
            if rank != NO_RANK:
                note += f", {shown_rank(rank)}"
        if note:
            notes.setdefault(note, []).append(f"{name} {first}".strip())
        player = _Player(
            element,
            name,
            first,
            rank,
            attrs.integer(element, "rating"),
            attrs.integer(element, "smmsCorrection"),
            attrs.text(element, "participating"),
            element.get("club", ""),
            element.get("country", ""),
            _ids(element),
        )
        key = opengotha_keys.key_of(name + first, turkish)
        if key in keys:
            other = keys[key]
            attrs.warn(
                f"{attrs.label(element)}: same key {key!r} as the player "
                f"{other.name} {other.first}: refused, as OpenGotha refuses it "
                "(games and byes with this key are the first player's)"
            )
            continue
        keys[key] = player
        players.append(player)
    for note, names in notes.items():
        attrs.warn(f"{_some(names)}: {note}")
    return players


def _some(names: Sequence[str], limit: int = 5) -> str:
    """``A, B, C`` or ``7 players (A, B, C, D, E ...)``."""
    shown = ", ".join(names[:limit])
    return (
        shown
        if len(names) == 1
        else f"{len(names)} players ({shown}{' ...' if len(names) > limit else ''})"
    )


@dataclass
class _Settings:
    settings: dict[str, Any]
    rounds: int
    name: str
    date: str
    info: dict[str, str] = field(default_factory=dict)
    size: int | None = None


def _settings(root: Element, attrs: Attributes) -> _Settings:
    general = next(root.iter("GeneralParameterSet"), None)
    if general is None:
        raise InputError("no GeneralParameterSet element", source=attrs.source)
    rounds = attrs.integer(general, "numberOfRounds")
    if not 0 <= rounds <= MAX_ROUNDS:
        raise attrs.fail(general, "numberOfRounds", f"expected 0..{MAX_ROUNDS}, got {rounds}")

    def points(attribute: str) -> str:
        value = attrs.integer(general, attribute)
        if value < 0:
            raise attrs.fail(general, attribute, f"negative points are not allowed, got {value}")
        return str(Fraction(value, 2))

    def rank(attribute: str) -> str:
        raw = attrs.text(general, attribute)
        value = convert_kdp(raw)
        if value == NO_RANK:
            raise attrs.fail(general, attribute, f"not a rank: {raw!r}")
        note = rank_note(raw, value)
        if note:
            attrs.warn(f"{attrs.label(general)} {attribute}: {note}")
        return format_rank(value)

    settings: dict[str, Any] = {
        "mcmahon": {
            "bar": rank("genMMBar"),
            "floor": rank("genMMFloor"),
            "zero": rank("genMMZero"),
        },
        "scoring": {
            "bye": points("genNBW2ValueBye"),
            "bye_mms": points("genMMS2ValueBye"),
            "absent_nbw": points("genNBW2ValueAbsent"),
            "absent_mms": points("genMMS2ValueAbsent"),
            "round_down": attrs.boolean(general, "genRoundDownNBWMMS"),
        },
        "unplayed": {
            "virtual_opponent": "half-point"
            if attrs.boolean(general, "genCountNotPlayedGamesAsHalfPoint")
            else "egf"
        },
    }
    limits = _categories(root, general, attrs)
    if limits:
        settings["categories"] = {"lower_limits": [format_rank(r) for r in limits]}
    criteria = _criteria(root, attrs)
    if criteria is not None:
        settings["criteria"] = criteria
        # the system only names the form of generic criteria (none in a file) and the
        # advice: Swiss when the list is on wins only
        on_mms = any(c in _ON_MMS for c in criteria)
        settings["system"] = (
            "swiss" if not on_mms and any(c in _ON_WINS for c in criteria) else "mcmahon"
        )
    handicap = next(root.iter("HandicapParameterSet"), None)
    if handicap is not None and handicap.get("hdCorrection") is not None:
        settings["handicap"] = {"reduction": attrs.integer(handicap, "hdCorrection")}
    name = (general.get("name") or general.get("shortName") or "").strip()
    return _Settings(
        settings, rounds, name, iso_day(general.get("beginDate")), event_info(general),
        board_size(general.get("size")),
    )  # fmt: skip


def _categories(root: Element, general: Element, attrs: Attributes) -> list[int]:
    """``numberOfCategories`` − 1 lower limits; a missing Category leaves 1D (Java's 0)."""
    count = attrs.integer(general, "numberOfCategories")
    if count < 0:
        raise attrs.fail(general, "numberOfCategories", f"expected 1..9, got {count}")
    limits = [0] * max(count - 1, 0)
    for element in root.iter("Category"):
        number = attrs.integer(element, "number")
        if not 1 <= number <= len(limits):
            raise attrs.fail(
                element,
                "number",
                f"category {number} with numberOfCategories={count}: OpenGotha cannot "
                f"open this file (it expects Category numbers 1..{count - 1})",
            )
        raw = attrs.text(element, "lowerLimit")
        value = convert_kdp(raw)
        if value == NO_RANK:
            raise attrs.fail(element, "lowerLimit", f"not a rank: {raw!r}")
        limits[number - 1] = value
    if limits and len(list(root.iter("Category"))) < len(limits):
        attrs.warn(
            f"{attrs.label(general)}: {count} categories but fewer Category limits: "
            "a missing limit is 1D, as in OpenGotha"
        )
    return limits


def _criteria(root: Element, attrs: Attributes) -> list[str] | None:
    """The criteria list by slot ``number``; None when the file has no placement set."""
    placement = next(root.iter("PlacementParameterSet"), None)
    if placement is None:
        return None
    slots: list[str | None] = [None] * CRITERIA_SLOTS
    for element in placement.iter("PlacementCriterion"):
        number = attrs.integer(element, "number")
        if attrs.text(element, "name") == "NULL":
            continue  # no tie break, whatever its slot (OpenGotha fails on a slot past 6)
        if not 1 <= number <= CRITERIA_SLOTS:
            raise attrs.fail(
                element,
                "number",
                f"expected 1..{CRITERIA_SLOTS}, got {number} (OpenGotha cannot open this file)",
            )
        raw = attrs.text(element, "name")
        if raw not in CRITERIA:
            meant = _MEANT.get(raw) or next((n for n in CRITERIA if n.lower() == raw.lower()), None)
            hint = f" (did you mean {meant}?)" if meant else ""
            attrs.warn(
                f"{attrs.label(element)}: {raw!r} is not an OpenGotha criterion name: "
                f"OpenGotha reads it as NULL (no tie break), and so does sodos{hint}"
            )
            continue  # OpenGotha leaves the slot as it was
        slots[number - 1] = CRITERIA[raw]
    criteria = [name for name in slots if name is not None]
    if not criteria:
        attrs.warn(
            "the placement criteria are all NULL: every player shares place 1, as in "
            "OpenGotha (give --criteria to rank them)"
        )
        return ["NULL"]
    return criteria


@dataclass
class _GameRecord:
    element: Element
    round: int
    table: int
    white_text: str | None  # None: attribute missing (OpenGotha looks "" up)
    black_text: str | None
    result: Result
    by_default: bool
    handicap: int
    colours_known: bool = True  # knownColor="false": the file does not say who had Black


def _game_records(root: Element, attrs: Attributes) -> list[_GameRecord]:
    records = []
    cached = attrs.integers.get  # an attribute's text read before: its value
    for element in root.iter("Game"):
        get = element.get
        r = cached(get("roundNumber"))  # type: ignore[arg-type]
        if r is None:
            r = attrs.integer(element, "roundNumber")
        if not 1 <= r <= MAX_ROUNDS:
            raise attrs.fail(element, "roundNumber", f"expected 1..{MAX_ROUNDS}, got {r}")
        table = cached(get("tableNumber"))  # type: ignore[arg-type]
        if table is None:
            table = attrs.integer(element, "tableNumber")
        raw = attrs.text(element, "result")
        by_default = raw.endswith("_BYDEF")
        base = raw[: -len("_BYDEF")] if by_default else raw
        result = RESULTS.get(base)
        if result is None:
            known = ", ".join(sorted(RESULTS))
            attrs.warn(
                f"{attrs.label(element)}: result {raw!r} is not an OpenGotha result "
                f"({known}, or one of them + _BYDEF): read as no result, as OpenGotha does"
            )
            result, by_default = Result.UNKNOWN, False
        handicap = cached(get("handicap"))  # type: ignore[arg-type]
        if handicap is None:
            handicap = attrs.integer(element, "handicap")
        if not 0 <= handicap <= 9:
            raise attrs.fail(element, "handicap", f"expected 0..9, got {handicap}")
        records.append(
            _GameRecord(
                element,
                r,
                table,
                element.get("whitePlayer"),
                element.get("blackPlayer"),
                result,
                by_default,
                handicap,
                get("knownColor", "true").strip() != "false",
            )
        )
    return records


@dataclass
class _ByeRecord:
    element: Element
    round: int
    text: str | None  # None: attribute missing (OpenGotha looks "" up)
    wrapper: bool  # a <ByePlayer> holding <ByePlayer> elements, with no player of its own


def _bye_records(root: Element, attrs: Attributes) -> list[_ByeRecord]:
    records = []
    for element in root.iter("ByePlayer"):
        r = attrs.integer(element, "roundNumber")
        if not 1 <= r <= MAX_ROUNDS:
            raise attrs.fail(element, "roundNumber", f"expected 1..{MAX_ROUNDS}, got {r}")
        wrapper = element.get("player") is None and element.find("ByePlayer") is not None
        records.append(_ByeRecord(element, r, element.get("player"), wrapper))
    return records


# -- the two views ------------------------------------------------------------------------


@dataclass
class _View:
    """What one reading of the file keeps."""

    games: list[tuple[_GameRecord, int, int]]  # record, black, white (after replacement)
    byes: dict[int, list[tuple[_ByeRecord, int]]]
    lost_games: list[_GameRecord]
    lost_byes: list[_ByeRecord]
    #: games at the round and table of a later one: OpenGotha's reading drops them
    #: (its games are a map by round and table), sodos's keeps them
    same_table: list[_GameRecord]


def _resolve(
    players: Sequence[_Player],
    records: Sequence[_GameRecord],
    bye_records: Sequence[_ByeRecord],
    index: opengotha_keys.KeyIndex,
    recover: Any = None,
    one_bye_per_round: bool = False,
    one_game_per_table: bool = False,
) -> _View:
    """Games and byes as one reading resolves their keys; ``recover(text)`` finds a
    player OpenGotha's lookup missed (None: OpenGotha's lookup). With
    ``one_game_per_table`` (OpenGotha's reading) a game replaces the earlier ones of its
    round and table; else every game is kept, in file order."""

    def look_up(text: str | None) -> int | None:
        if text is None:
            if recover is not None:
                return None  # sodos: no attribute, no player
            text = ""
        found = index.find(text)
        if found is None and recover is not None:
            found = recover(text)
        return found

    # each player is named by many games: each text is looked up once
    texts = {text for record in records for text in (record.white_text, record.black_text)}
    texts.update(record.text for record in bye_records)
    found_for = {text: look_up(text) for text in texts}
    find = found_for.__getitem__
    games: dict[int, list[tuple[_GameRecord, int, int]]] = {}  # by round and table
    lost = []
    for record in records:
        white, black = find(record.white_text), find(record.black_text)
        if white is None or black is None:
            lost.append(record)
            continue
        key = (record.round - 1) * TABLES + (record.table - 1)
        games.setdefault(key, []).append((record, black, white))
    # OpenGotha keeps the last game of a table, where the table's first game was
    same_table = [g[0] for at_table in games.values() for g in at_table[:-1]]
    if one_game_per_table:
        ordered = [at_table[-1] for at_table in games.values()]
    elif same_table:
        position = {id(record): n for n, record in enumerate(records)}
        ordered = sorted(  # every game, in file order
            (g for at_table in games.values() for g in at_table),
            key=lambda g: position[id(g[0])],
        )
    else:
        ordered = [at_table[0] for at_table in games.values()]
    byes: dict[int, list[tuple[_ByeRecord, int]]] = {}
    lost_byes = []
    for record in bye_records:
        if record.wrapper and recover is not None:
            continue  # a container, not a bye (sodos); OpenGotha looks its "" key up
        p = find(record.text)
        if p is None:
            if not record.wrapper:
                lost_byes.append(record)
            continue
        entries = byes.setdefault(record.round, [])
        if one_bye_per_round:
            entries.clear()
        if all(q != p for _, q in entries):
            entries.append((record, p))
    return _View(ordered, byes, lost, lost_byes, same_table)


def _game_text(record: _GameRecord) -> str:
    return (
        f"round {record.round} table {record.table} "
        f"{record.black_text or '(no player)'} - {record.white_text or '(no player)'}"
    )


def _hash_ordered(view: _View, n: int) -> list[tuple[_GameRecord, int, int]]:
    """The view's games in OpenGotha's ``hmGames`` order when it matters: when a player
    has two games in a round or plays himself; file order otherwise."""
    if not _repeats(view):
        return view.games
    by_key: dict[int, list[tuple[_GameRecord, int, int]]] = {}
    for g in view.games:  # several games of one table (sodos's reading): in file order
        by_key.setdefault((g[0].round - 1) * TABLES + (g[0].table - 1), []).append(g)
    order = iteration_order(list(by_key), integer_hash)
    return [g for k in order for g in by_key[k]]


def _repeats(view: _View) -> bool:
    """Whether a player has two games in a round or plays himself (at C speed)."""
    rounds = [record.round for record, _, _ in view.games]
    blacks = [black for _, black, _ in view.games]
    whites = [white for _, _, white in view.games]
    if any(map(int.__eq__, blacks, whites)):
        return True
    seats = set(zip(rounds, blacks))
    seats.update(zip(rounds, whites))
    return len(seats) < 2 * len(view.games)


def _tournament(
    source: str,
    meta: _Settings,
    players: Sequence[_Player],
    view: _View,
    data_version: int,
) -> Tournament:
    games_in_order = _hash_ordered(view, len(players))
    last_round = max(
        [meta.rounds] + [g[0].round for g in view.games] + list(view.byes), default=meta.rounds
    )
    paired = {(g[0].round, p) for g in view.games for p in (g[1], g[2])}
    bye_pairs = {(r, p) for r, entries in view.byes.items() for _, p in entries}
    absences = {
        (r, p)
        for p, player in enumerate(players)
        for r in range(1, last_round + 1)
        if r <= len(player.participating)
        and player.participating[r - 1] == "0"
        and (r, p) not in paired
        and (r, p) not in bye_pairs
    }
    made = [
        Player(
            f"{player.name.strip()} {player.first.strip()}".strip(),
            player.rank,
            _rating(player, data_version),
            player.club.strip(),
            player.country.strip(),
            player.smms_correction,
            None,
            None,
            player.ids,
        )
        for player in players
    ]
    games = tuple(
        Game(
            record.round, black, white, record.result, record.handicap, record.by_default,
            record.colours_known,
        )
        for record, black, white in games_in_order
    )  # fmt: skip
    try:
        return Tournament(
            name=meta.name or Path(source).stem,
            rounds=last_round,
            players=tuple(made),
            games=games,
            byes=frozenset(bye_pairs),
            absences=frozenset(absences),
            settings=meta.settings,
            source=source,
            date=meta.date,
            info=meta.info,
            size=meta.size,
            odd_pairings=True,  # kept as OpenGotha keeps them, each warned (docs/rules.md §6)
        )
    except ValueError as error:
        raise InputError(str(error), source=source) from None


def _recovery(players: Sequence[_Player], index: opengotha_keys.KeyIndex):
    """sodos's second chance for a key OpenGotha cannot match, in this order: the key
    upper-cased in the other locale (Turkish or not); the one player with the same
    :func:`identity_key`; the one player whose key folds to the same ASCII (Latin and
    Turkish letters folded on both sides, as ``forceToASCII`` folds one side)."""
    other = {
        opengotha_keys.key_of(p.name + p.first, not index.turkish): i for i, p in enumerate(players)
    }
    by_identity: dict[str, list[int]] = {}
    by_ascii: dict[str, list[int]] = {}
    for i, p in enumerate(players):
        by_identity.setdefault(_identity(p.name + p.first), []).append(i)
        for turkish in (False, True):
            folded = _ascii(p.name + p.first, turkish)
            if i not in by_ascii.setdefault(folded, []):
                by_ascii[folded].append(i)

    def recover(text: str) -> int | None:
        found = index.by_key.get(opengotha_keys.key_of(text, index.turkish))
        if found is None:
            found = other.get(opengotha_keys.key_of(text, not index.turkish))
        for table, key in ((by_identity, _identity(text)), (by_ascii, _ascii(text, False))):
            if found is None:
                matches = table.get(key, [])
                found = matches[0] if len(matches) == 1 else None
        return found

    return recover


def _identity(text: str) -> str:
    return identity_key(text).replace(" ", "")


def _ascii(text: str, turkish: bool) -> str:
    return opengotha_keys.force_to_ascii(opengotha_keys.key_of(text, turkish)).upper()


def _players_out_of_range(root: Element, attrs: Attributes, version: int) -> list[str]:
    """Warnings for ratings OpenGotha clamps to -900..2949 (after +2050 in old files)."""
    by_note: dict[str, list[str]] = {}
    for element in root.iter("Player"):
        written = element.get("rating")
        if written is None or java_int(written) is None:
            continue
        rating = int(written) + (2050 if version < DATA_VERSION else 0)
        if not MIN_RATING <= rating <= MAX_RATING:
            clamped = min(MAX_RATING, max(MIN_RATING, rating))
            note = (
                f"rating {written} is outside {MIN_RATING}..{MAX_RATING} (OpenGotha's "
                f"range): read as {clamped}, as OpenGotha reads it"
            )
            name = f"{element.get('name', '')} {element.get('firstName', '')}".strip()
            by_note.setdefault(note, []).append(name)
    return [f"{_some(names)}: {note}" for note, names in by_note.items()]


def _describe(players: Sequence[_Player], p: int) -> str:
    return f"{players[p].name} {players[p].first}".strip()


def _warn_games(attrs: Attributes, players: Sequence[_Player], view: _View) -> None:
    if view.same_table:
        attrs.warn(
            f"OpenGotha 3.51 would keep one game per table: {len(view.same_table)} game(s) "
            f"lost there (e.g. {_game_text(view.same_table[0])}, at the table of a later "
            "game of its round; the file has no or repeated tableNumber); sodos keeps "
            "every game (--compat opengotha drops them, as OpenGotha does)"
        )
    by_player: dict[tuple[int, int], list[tuple[_GameRecord, int, int]]] = {}
    # (nobody has two games in a round nor plays himself: no warning to look for)
    for record, black, white in _hash_ordered(view, len(players)) if _repeats(view) else ():
        if black == white:
            attrs.warn(
                f"{_game_text(record)}: {_describe(players, black)} plays himself: OpenGotha "
                "gives him both sides' points and counts him as his own opponent (as White)"
            )
        for p in {black, white}:
            by_player.setdefault((record.round, p), []).append((record, black, white))
    for (r, p), games in sorted(by_player.items(), key=lambda item: item[0]):
        if len(games) > 1:

            def game(entry: tuple[_GameRecord, int, int], p: int = p) -> str:
                record, black, white = entry
                other, colour = (white, "Black") if black == p else (black, "White")
                return f"table {record.table} vs {_describe(players, other)} ({colour})"

            shown = ", ".join(game(g) for g in sorted(games, key=lambda g: g[0].table))
            attrs.warn(
                f"round {r}: {_describe(players, p)} has {len(games)} games: {shown}; each "
                f"scores, and his own SOS-type values count table {games[-1][0].table} "
                "(the game OpenGotha lists last), as OpenGotha does"
            )
    seats = {(g.round, p) for g, b, w in view.games for p in (b, w)} if view.byes else set()
    for r, entries in sorted(view.byes.items()):
        for _, p in entries:
            if (r, p) in seats:
                attrs.warn(
                    f"round {r}: {_describe(players, p)} has the bye and a game: both score "
                    "and his own SOS-type values treat the round as unpaired, as in OpenGotha"
                )


def read_file(
    path: Path,
    max_bytes: int = MAX_BYTES,
    max_nodes: int = MAX_NODES,
    *,
    turkish: bool | None = None,
) -> tuple[Tournament, list[str]]:
    """Read one OpenGotha XML file: the tournament (with its compat view) and warnings.

    :param turkish: the locale OpenGotha runs in for the compat view: Turkish or not;
        None (default): Turkish when a key holds ``İ`` (the file was written so).
    """
    return _read_file(path, max_bytes, max_nodes, turkish)


def _read_file(
    path: Path, max_bytes: int, max_nodes: int, turkish: bool | None
) -> tuple[Tournament, list[str]]:
    source = str(path)
    scanned = scan_file(path, max_bytes, max_nodes)
    if scanned.root is None:  # OpenGotha opens it as its defaults, no players: not a result
        raise InputError(
            "the file is empty: no tournament in it (OpenGotha opens it as a new one "
            "without players)",
            source=source,
        )
    root = scanned.root
    attrs = Attributes(source, scanned.dtd)
    attrs.warnings.extend(scanned.warnings)
    raw_version = root.get("dataVersion")
    version_text = (
        raw_version if raw_version is not None else DEFAULTS[("Tournament", "dataVersion")]
    )
    if java_int(version_text.strip()) is None:
        raise attrs.fail(root, "dataVersion", f"expected an integer, got {version_text!r}")
    og_version = int(version_text.strip())
    # OpenGotha 3.51.02 writes fullVersionNumber but (a defect) no dataVersion: such a
    # file is a current one (docs/rules.md §6-7); a file with neither is really old.
    saved_by_3_51 = raw_version is None and root.get("fullVersionNumber") is not None
    version = DATA_VERSION if saved_by_3_51 else og_version
    for player in _players_out_of_range(root, attrs, version):
        attrs.warn(player)
    records = _game_records(root, attrs)
    bye_records = _bye_records(root, attrs)
    if turkish is None:
        turkish = opengotha_keys.turkish_keys(
            [t or "" for g in records for t in (g.white_text, g.black_text)]
            + [b.text or "" for b in bye_records]
        )
    players = _players(root, attrs, turkish)
    meta = _settings(root, attrs)
    names = [(p.name, p.first) for p in players]

    index = opengotha_keys.KeyIndex(names, version, turkish)
    ours = _resolve(players, records, bye_records, index, recover=_recovery(players, index))
    og_index = (  # the same lookup when OpenGotha reads the version as we do
        index if og_version == version else opengotha_keys.KeyIndex(names, og_version, turkish)
    )
    theirs = _resolve(
        players, records, bye_records, og_index, one_bye_per_round=True, one_game_per_table=True
    )
    plain = _resolve(players, records, bye_records, index)  # OpenGotha's lookup, no recovery

    for record in ours.lost_games:
        attrs.warn(
            f"{_game_text(record)}: no player has this key: the game is skipped, "
            "as OpenGotha skips it"
        )
    for record in ours.lost_byes:
        attrs.warn(
            f"{attrs.label(record.element)}: no player has the key {record.text!r}: the bye "
            "is skipped, as OpenGotha skips it"
        )
    recovered = [g for g in plain.lost_games if g not in ours.lost_games]
    recovered_byes = [b for b in plain.lost_byes if b not in ours.lost_byes]
    _warn_games(attrs, players, ours)
    for r, entries in sorted(ours.byes.items()):
        if len(entries) > 1:
            names_shown = ", ".join(_describe(players, p) for _, p in entries)
            attrs.warn(
                f"round {r}: {len(entries)} byes ({names_shown}): each gets the bye; "
                f"OpenGotha 3.51 keeps only the last ({_describe(players, entries[-1][1])}) "
                "and counts the others as not paired"
            )
    lost_by_og = [g for g in theirs.lost_games if g not in ours.lost_games]
    byes_lost_by_og = [b for b in theirs.lost_byes if b not in ours.lost_byes]
    if lost_by_og or byes_lost_by_og or recovered or recovered_byes:
        why = (
            "it has no dataVersion (OpenGotha 3.51.02 does not write it), so OpenGotha "
            "reads it as an old file and looks players up by letters-only names, which "
            "fails for keys with '-', digits, apostrophes or other non-letters"
            if saved_by_3_51
            else "it cannot match their player keys (docs/rules.md §6)"
        )
        byes = f" and {len(byes_lost_by_og)} bye(s)" if byes_lost_by_og else ""
        how = (
            f", matching {len(recovered) + len(recovered_byes)} of them by the name rule "
            "(docs/rules.md §8)"
            if recovered or recovered_byes
            else ""
        )
        example = (lost_by_og or recovered)[:1]
        shown = f" (e.g. {_game_text(example[0])})" if example else ""
        attrs.warn(
            f"OpenGotha would lose {len(lost_by_og)} of {len(records)} games{byes} in this "
            f"file: {why}{shown}; sodos reads them{how} "
            "(--compat opengotha drops them, as OpenGotha does)"
        )
    if turkish:
        en = _resolve(
            players, records, bye_records, opengotha_keys.KeyIndex(names, og_version, False)
        )
        extra = len(en.lost_games) - len(theirs.lost_games)
        if extra > 0:
            attrs.warn(
                f"the player keys were written in a Turkish locale (they hold 'İ'): "
                f"OpenGotha in another locale would lose {extra} game(s) of this file"
            )
    for record in bye_records:
        if record.wrapper:
            p = og_index.find(record.text or "")
            if p is not None:
                attrs.warn(
                    f"{attrs.label(record.element)} wraps other byes: OpenGotha also "
                    f"reads it as a round-{record.round} bye for "
                    f"{_describe(players, p)} (whose key has no letter A-Z)"
                )
    if saved_by_3_51 and any(p.rating != min(MAX_RATING, p.rating + 2050) for p in players):
        attrs.warn(
            "no dataVersion: OpenGotha 3.51.02 reads this file's ratings as old-format "
            "ones (+2050, at most 2949); sodos reads them as written"
        )

    tournament = _tournament(source, meta, players, ours, version)
    # OpenGotha's players differ from ours only by the ratings of another dataVersion
    ratings_differ = any(
        _rating(p, version) != _rating(p, og_version) for p in players if version != og_version
    )
    defects = _defects(ours, theirs, saved_by_3_51, ratings_differ, bye_records, og_index)
    if defects:  # else OpenGotha's reading is not kept: it is not built
        og = _tournament(source, meta, players, theirs, og_version)
        tournament = dataclasses.replace(tournament, compat={"opengotha": CompatView(og, defects)})
    return tournament, attrs.warnings


def _rating(player: _Player, data_version: int) -> int:
    """The player's rating as OpenGotha reads it from a file of this dataVersion."""
    rating = player.rating + (2050 if data_version < DATA_VERSION else 0)
    return min(MAX_RATING, max(MIN_RATING, rating))


def _defects(
    ours: _View,
    theirs: _View,
    saved_by_3_51: bool,
    ratings_differ: bool,
    bye_records: Sequence[_ByeRecord],
    og_index: opengotha_keys.KeyIndex,
) -> dict[str, str]:
    """Why OpenGotha's reading differs from ours, by defect code (sodos_plugin.engine.compat)."""
    found = {}
    games = len([g for g in theirs.lost_games if g not in ours.lost_games])
    byes = len([b for b in theirs.lost_byes if b not in ours.lost_byes])
    lost = f"{games} game(s) and {byes} bye(s) dropped" if byes else f"{games} game(s) dropped"
    if saved_by_3_51 and (games or byes or ratings_differ):
        found["V1"] = f"{lost}, ratings read +2050 (at most 2949)"
    elif games or byes:
        found["V6"] = lost
    if ours.same_table:
        found["V8"] = f"{len(ours.same_table)} game(s) at the table of a later game dropped"
    doubled = [r for r, entries in sorted(ours.byes.items()) if len(entries) > 1]
    if doubled:
        found["V4"] = f"one bye kept in round(s) {', '.join(map(str, doubled))}"
    wrapped = [b for b in bye_records if b.wrapper and og_index.find(b.text or "") is not None]
    if wrapped:
        found["V7"] = f"{len(wrapped)} <ByePlayer> wrapper(s) read as a round-1 bye"
    return found


def read_path(path: Path, max_bytes: int = MAX_BYTES, max_nodes: int = MAX_NODES) -> Tournament:
    """Read one OpenGotha XML file into a Tournament carrying the file's settings."""
    return read_file(path, max_bytes, max_nodes)[0]


def board_size(text: str | None) -> int | None:
    """``GeneralParameterSet size``: the board size, None when absent or not a number."""
    try:
        return int(text) if text else None
    except ValueError:
        return None


def event_info(general: Element) -> dict[str, str]:
    """What the file says about the event, under EGD h9 names (``Tournament.info``):
    dates, place, komi, adjusted time, class and time system, as OpenGotha's own h9
    export writes them (:func:`sodos_plugin.readers.opengotha_event.h9_header`)."""
    return opengotha_event.h9_header(general)


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    if len(paths) != 1:
        raise InputError(f"give one OpenGotha XML file per tournament, got {len(paths)}")
    limits = []
    for key, default in (("max_bytes", MAX_BYTES), ("max_nodes", MAX_NODES)):
        limits.append(
            positive_integer(options.get(key, default), key, "[plugin.builtin.opengotha_xml]")
        )
    tournament, warnings = read_file(paths[0], *limits)
    return ReadResult(tournament, files=[FileReport(str(paths[0]), "ingested")], warnings=warnings)
