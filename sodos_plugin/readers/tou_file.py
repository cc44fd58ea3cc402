"""Reading an FFG ``.tou`` results file into a Tournament (docs/rules.md §13).

Format, as OpenGotha 3.42-3.51 and pairgoth write it (``generateTouFile``; pairgoth
``StandingsHandler.exportToFFGFormat``), ISO-8859-15 (UTF-8 is read too):

* header lines ``;key=value``: ``name`` (short name), ``date`` (``dd/mm/yyyy``),
  ``vill`` (town), ``comm`` (the event's name), ``prog``, ``size`` (board), ``time``,
  ``ta`` (adjusted time, minutes), ``komi``; other ``;`` lines are comments; the
  column line ``;Num Nom Prenom Niv Licence Club``;
* rows in fixed columns: place (columns 1-4, blank for a tie), name and first name
  (6-30), rank (31-33, ``2D``, ``28K``), FFG licence (35-41, blank when none), club
  (43-46; ``xxxx``, OpenGotha's mark of none, is read as unknown, as in h9); then one
  token per round, separated by spaces;
* round tokens ``opp{+|-|=|?}[/|!][b|w|?][h]``: the opponent is the **row number in
  the file** (rows are in standings order; not the place), ``!`` marks a game won or
  lost by default (OpenGotha 3.51; 3.49 drops the ``/`` and the ``!``: ``2+w0``),
  ``?`` an unknown colour; ``0+`` the bye, ``0=`` an absence worth ½, ``0-`` a round
  without a game worth nothing. Games are checked from both sides as in h9
  (:func:`sodos_plugin.readers.h9._games`).

A ``.tou`` carries no placement criteria nor system: standings use the config or the
defaults, and the reader says so.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sodos_hookspecs import FileReport, ReadResult

from sodos_plugin.engine.model import NO_IDS, Ids, Player, Tournament
from sodos_plugin.engine.ranks import parse_rank
from sodos_plugin.errors import InputError
from sodos_plugin.readers import h9
from sodos_plugin.readers.choose import one_file
from sodos_plugin.util.textsafe import fit

MAX_BYTES = 16 << 20
#: fixed columns of a row (0-based slices)
PLACE, NAME, RANK, LICENCE, CLUB = slice(0, 4), slice(5, 30), slice(30, 33), slice(34, 41), 42
ROUNDS_AT = 46
_TOKEN = re.compile(r"^([0-9]{1,7})([-+=?])([/!]?)([bwBW?]?)([0-9]{0,2})$")
_RANK = re.compile(r"^[0-9]{1,2}[kdpKDP]$")
#: header keys read; the others are named in a note
KEYS = ("name", "date", "vill", "comm", "size", "ta", "komi")


def read(paths: Sequence[Path], options: Mapping[str, Any]) -> ReadResult:
    source, data = one_file(paths, options, "builtin.tou", ".tou", MAX_BYTES)
    tournament, notes = interpret(h9.decode(data), source)
    return ReadResult(tournament, files=[FileReport(source, "ingested")], warnings=notes)


def token_suffix(token: str, source: str, where: str) -> tuple[int, str]:
    """``2+w0`` → (2, ``+/w0``): the opponent and the rest as h9 writes it."""
    match = _TOKEN.match(token)
    if not match:
        raise InputError(
            f"{fit(token, 16)!r} is not a round token (opp+/w0, 12-b2, 0=, 0-)",
            source=source,
            where=where,
        )
    opponent, outcome, kind, colour, handicap = match.groups()
    rest = (kind or "/") + colour.lower() + handicap if (kind or colour or handicap) else ""
    return int(opponent), outcome + rest


def scan(text: str, source: str) -> tuple[dict[str, str], list[h9.H9Row], list[str]]:
    """Header properties, rows (as h9 rows: opponents and suffixes) and their licences."""
    header: dict[str, str] = {}
    rows: list[h9.H9Row] = []
    licences: list[str] = []
    columns = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        where = f"line {number}"
        if line.startswith(";"):
            key, equals, value = line[1:].partition("=")
            if equals and re.fullmatch(r"[a-z]{1,8}", key.strip()):
                header.setdefault(key.strip(), value.strip())
            elif re.match(r"^;\s*Num\s+Nom\s+Prenom\b", line):
                columns = True
            continue
        if not columns:
            raise InputError("result row before the column line ';Num Nom Prenom ...'",
                             source=source, where=where)  # fmt: skip
        if len(line) < CLUB + 1 or line[4:5] not in (" ", ""):
            raise InputError("a row is place, name, rank, licence, club in fixed columns",
                             source=source, where=where)  # fmt: skip
        place_text = line[PLACE].strip()
        if place_text and not (place_text.isascii() and place_text.isdigit()):
            raise InputError(f"place {fit(place_text, 8)!r} is not a number",
                             source=source, where=where)  # fmt: skip
        rank_text = line[RANK].strip()
        if not _RANK.match(rank_text):
            raise InputError(f"no rank (2D, 28K) in columns 31-33: {fit(rank_text, 8)!r}",
                             source=source, where=where)  # fmt: skip
        try:
            rank = parse_rank(rank_text)
        except ValueError as error:
            raise InputError(str(error), source=source, where=where) from None
        name = " ".join(line[NAME].split())
        if not name:
            raise InputError("a row needs a name (columns 6-30)", source=source, where=where)
        opponents: list[int] = []
        suffixes: list[str] = []
        for r, token in enumerate(line[ROUNDS_AT:].split(), start=1):
            opponent, suffix = token_suffix(token, source, f"{where}, round {r}")
            opponents.append(opponent)
            suffixes.append(suffix)
        if len(opponents) > h9.MAX_ROUNDS:
            raise InputError(f"more than {h9.MAX_ROUNDS} rounds", source=source, where=where)
        rows.append(
            h9.H9Row(
                number, int(place_text) if place_text else None, name, rank, "",
                h9._known(" ".join(line[CLUB:ROUNDS_AT].split()), h9.UNKNOWN_CLUB), {},
                opponents, suffixes,
            )
        )  # fmt: skip
        licences.append(line[LICENCE].strip())
    if not columns:
        raise InputError("no column line ';Num Nom Prenom ...' found", source=source)
    if not rows:
        raise InputError("no result rows", source=source)
    first = rows[0]
    odd = next((r for r in rows if len(r.opponents) != len(first.opponents)), None)
    if odd is not None:
        raise InputError(
            f"{len(odd.opponents)} round tokens, but line {first.line} has {len(first.opponents)}",
            source=source,
            where=f"line {odd.line}",
        )
    return header, rows, licences


def interpret(text: str, source: str) -> tuple[Tournament, list[str]]:
    header, rows, licences = scan(text, source)
    parsed = h9.H9File(source=source, properties={}, columns=[], rows=rows)
    games, byes, absences, _ = h9._games(parsed)  # raises the first error where it stands
    players = tuple(
        Player(row.name, row.rank, None, row.club, "", 0, None, None,
               Ids({"ffg": licence}) if licence else NO_IDS)
        for row, licence in zip(rows, licences)
    )  # fmt: skip
    info: dict[str, str] = {}
    day = _day(header.get("date", ""))
    if header.get("vill"):
        info["PC"] = f",{header['vill']}"
    if day:
        info["DT"] = day
    for key, as_key in (("komi", "KM"), ("ta", "TM")):
        if header.get(key):
            info[as_key] = header[key]
    size = header.get("size", "")
    notes = [
        f"{source}: a .tou file carries no placement criteria nor system: standings from it use "
        "the config's or the defaults"
    ]
    unused = sorted(k for k in header if k not in KEYS)
    if unused:
        notes.append(f"{source}: not used by sodos: {', '.join(fit(k, 12) for k in unused)}")
    try:
        tournament = Tournament(
            name=header.get("comm") or header.get("name") or Path(source).stem,
            rounds=len(rows[0].opponents),
            players=players,
            games=tuple(games),
            byes=frozenset(byes),
            absences=frozenset(absences),
            source=source,
            date=day,
            info=info,
            size=int(size) if size.isascii() and size.isdigit() and 2 <= int(size) <= 52 else None,
        )
    except ValueError as error:
        raise InputError(str(error), source=source) from None
    return tournament, notes


def _day(text: str) -> str:
    """``04/07/2021`` → ``2021-07-04``; ``""`` when not a real day."""
    match = re.fullmatch(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})", text.strip())
    if not match:
        return ""
    day, month, year = map(int, match.groups())
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return ""
