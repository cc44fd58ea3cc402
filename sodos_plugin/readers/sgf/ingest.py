"""One SGF file (or archive member) → its game records, or a rejection reason.

Contract: :func:`ingest_bytes` never raises for bad input; it returns a
:class:`FileOutcome` whose ``error`` says why the file cannot be used (naming the
game and property), or whose ``records`` hold one :class:`Record` per game of the
collection. Everything here is per file and picklable, so files can be ingested in
worker processes (:mod:`.walk`) with the same answer as in one process.

Layers: bytes → :mod:`.scan` (raw root maps; the fast path, or sgfmill's full parse)
→ :mod:`.values` (decoded strings) → :mod:`.results` and :func:`round_number`
(interpreted values) → :class:`Record`.

The full parse is used when the fast scan cannot decide, and when a root node has
no ``RE``: game information may then sit in a later node of the main line
(SGF FF[4] "game-info" node); it is taken from there, with a note.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sgfmill import sgf_grammar

from sodos_plugin.engine.model import Result
from sodos_plugin.readers.sgf.results import ParsedResult, parse_result
from sodos_plugin.readers.sgf.scan import (
    RawRoot,
    TooManyGames,
    from_lists,
    scan_fast,
    scan_single,
)
from sodos_plugin.readers.sgf.values import (
    GameInfo,
    RecordError,
    decode_plain,
    decode_root,
    no_jigo,
)
from sodos_plugin.util.inputfiles import FileRefused, read_regular

__all__ = [
    "MAX_GAMES",
    "MAX_PARSE_TOKENS",
    "FileOutcome",
    "Record",
    "ingest_bytes",
    "ingest_file",
    "clear_shared",
    "parse_tokens",
    "round_number",
]

GAME_INFO = ("PB", "PW", "BR", "WR", "RE", "RO", "EV", "DT", "GN", "HA", "KM")
MAX_FILE_BYTES = 16 << 20
#: Games in one file: each costs memory however few bytes it takes (config key
#: ``max_games_per_file``).
MAX_GAMES = 10_000
#: sgfmill's full parse holds every token in memory (~175 bytes each, measured):
#: 500 000 tokens is ~90 MB; a 300-move game with variations has a few thousand
#: (config key ``max_parse_tokens``).
MAX_PARSE_TOKENS = 500_000
_BOM8 = b"\xef\xbb\xbf"
_UTF16_FIRST = (b"\xff", b"\xfe", b"\x00")
#: A number of at most 6 digits (longer runs of digits are no round), neither part of a
#: fraction (``1/19``) nor an ordinal (``3rd``).
_NUMBER = r"(?<![0-9/])(?:(?<![^\s(])([-\u2212]))?([0-9]{1,6})(?![0-9/])"
_ROUND_WORD = re.compile(r"(?<![^\W\d_])(?:round|rnd|r)\s*[:.#]?\s*" + _NUMBER, re.IGNORECASE)
_FIRST_INT = re.compile(_NUMBER + r"(?!\s*(?:st|nd|rd|th)(?![^\W\d_]))", re.IGNORECASE)
#: One object per distinct string for the values that repeat across a folder (names,
#: ranks, results, events, dates), so many records share their strings (peak memory);
#: emptied by the caller when a folder is done.
SHARED: dict[str | None, str | None] = {}
#: ``RO`` text → (round, "RO[text]"), shared the same way.
_ROUNDS: dict[str | None, tuple[int | None, str | None]] = {}


def clear_shared() -> None:
    """Forget the shared strings (a folder is done)."""
    SHARED.clear()
    _ROUNDS.clear()


_NO_RE = ParsedResult(Result.UNKNOWN, how="unknown", note="no RE: result unknown")
#: Fox writes ``draw`` for its result code 0, a jigo and a game without result alike: where
#: its komi makes a jigo impossible, it is no result (docs/rules.md §9).
_FOX_DRAW = "Fox's result code 0 (a jigo or no result) where the komi allows no jigo: no result"
_OGS_ROUND = re.compile(r"(?<![A-Za-z])R\s*:\s*(\d{1,6})(?!\d)")


class Record(NamedTuple):
    """One game's information, interpreted.

    :param source: the file (``archive.zip!member.sgf``), with ``#n`` for game n of a
        collection of several games.
    :param round: from ``RO`` (:func:`round_number`) or ``GN`` (OGS ``R:3``); ``None`` if
        neither.
    :param notes: things to report (result not scored, encoding guessed ...).
    """

    source: str
    black: str
    white: str
    black_rank: str | None
    white_rank: str | None
    result: ParsedResult
    result_text: str | None
    round: int | None
    round_text: str | None
    event: str | None
    date: str | None
    handicap: int
    notes: tuple[str, ...] = ()


class FileOutcome(NamedTuple):
    """What one file gave: records, or the reason it was rejected."""

    source: str
    records: tuple[Record, ...] = ()
    error: str | None = None
    fast: bool = True


def round_number(ro: str | None, gn: str | None) -> tuple[int | None, str | None]:
    """The round of ``RO`` (docs/rules.md §9), else OGS ``GN`` ``R:n``.

    ``RO`` all digits is that number; else the number after a word ``Round``/``Rnd``/``R``
    (``RO[2nd Preliminary, Round 3]`` → 3); else the first number that is neither an
    ordinal nor part of a fraction (``RO[11 (playoff)]`` → 11, ``RO[3rd Preliminary]``
    and ``RO[1/19]`` → none). A number of more than 6 digits is no round. A minus sign
    before the number, at the start or after a space (``RO[-1]``, ``Round -2``), makes
    it negative: a round outside 1..99, rejected with the record's file, never round 1.
    Digits are 0-9 only.
    """
    if ro is not None and ro.isascii() and ro.isdigit():
        if len(ro) <= 6:
            return int(ro), f"RO[{ro}]"
        return None, f"RO[{_cut(ro)}]"
    if ro is not None and ro.strip():
        match = _ROUND_WORD.search(ro) or _FIRST_INT.search(ro)
        if match is None:
            return None, f"RO[{_cut(ro)}]"
        number = int(match.group(2))
        return (-number if match.group(1) else number), f"RO[{_cut(ro)}]"
    if gn:
        match = _OGS_ROUND.search(gn)
        if match:
            return int(match.group(1)), f"GN[{gn}]"
    return None, None


def _cut(text: str, width: int = 60) -> str:
    """A value shown in a message, cut (a 5 000-digit ``RO`` is not repeated whole)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _transcode(data: bytes) -> tuple[bytes, str | None]:
    """UTF-16 (with BOM, or ``(`` with a zero byte beside it) → UTF-8 bytes."""
    codec = None
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        codec = "utf-16"
    elif data[:1] == b"\x00" and data[1:2] not in (b"", b"\x00"):
        codec = "utf-16-be"
    elif data[1:2] == b"\x00" and data[:1] not in (b"", b"\x00"):
        codec = "utf-16-le"
    if codec is None:
        return data, None
    try:
        return data.decode(codec).encode("utf-8"), "UTF-8"
    except UnicodeDecodeError as error:
        raise RecordError(f"looks like UTF-16 but byte {error.start} is not valid UTF-16") from None


def _main_line_info(tree: sgf_grammar.Coarse_game_tree) -> tuple[RawRoot, str]:
    """Root merged with the first later main-line node holding game information."""
    root = tree.sequence[0]
    if "RE" in root:  # the root is the game-info node: exactly what the fast path reads
        return from_lists(root), ""
    merged = {k: list(v) for k, v in root.items()}
    for depth, node in enumerate(sgf_grammar.main_sequence_iter(tree)):
        if depth == 0:
            continue
        found = [ident for ident in GAME_INFO if ident in node]
        if found:
            for ident in found:
                merged[ident] = merged.get(ident, []) + list(node[ident])
            return from_lists(
                merged
            ), f"{', '.join(found)} found in node {depth + 1}, not in the root"
    return from_lists(merged), ""


def _record(
    text: tuple[str | None, ...],
    handicap: int | None,
    notes: tuple[str, ...],
    source: str,
    extra: str,
    jigo_impossible: bool = False,
) -> Record:
    # TEXT_PROPERTIES order; interned: names, ranks, events repeat across a folder, so
    # 100 000 records share their strings instead of holding copies (peak memory)
    pb, pw, br, wr, result_text, ro, event, date, gn = text
    share = SHARED.setdefault
    black, white = (pb or "").strip(), (pw or "").strip()
    black, white = share(black, black), share(white, white)
    if not black and not white and result_text is None and not date:
        # no players, no result, no date: not the record of a game (a diagram, a problem,
        # a variation read as a game). A game whose players are unknown or one player
        # (self-play) is a record all the same: the tournament and the history decide.
        # its own reason: "no player name" is an exclusion from a history (docs/rules.md §8)
        raise RecordError("no game record: no PB, PW, RE or DT (a diagram, a problem)")
    parsed = _NO_RE if result_text is None else parse_result(result_text)
    if parsed.how == "contradiction":  # B+Jigo: no reading of it is safe
        raise RecordError(parsed.note)
    if jigo_impossible and parsed.how == "jigo":  # Fox's code 0 (values.no_jigo)
        parsed = ParsedResult(Result.UNKNOWN, how="void", note=f"RE[{result_text}]: {_FOX_DRAW}")
    if extra or parsed.note:
        notes = (*notes, *(n for n in (extra, parsed.note) if n))
    known = _ROUNDS.get(ro) if gn is None else None  # the round text repeats too
    if known is None:
        rnd, round_text = round_number(ro, gn)
        round_text = share(round_text, round_text)
        if gn is None and len(_ROUNDS) < 4096:
            _ROUNDS[ro] = rnd, round_text
    else:
        rnd, round_text = known
    # None shares as None
    br, wr, result_text, date = (
        share(br, br),
        share(wr, wr),
        share(result_text, result_text),
        share(date, date),
    )
    if event is not None:
        event = event.strip() or None
        event = share(event, event)
    return Record(
        source,
        black,
        white,
        br,
        wr,
        parsed,
        result_text,
        rnd,
        round_text,
        event,
        date,
        handicap or 0,
        notes,
    )


def info_fields(
    info: GameInfo,
) -> tuple[tuple[str | None, ...], int | None, tuple[str, ...]]:
    """What :func:`_record` reads of a :class:`GameInfo` (then the source, the note of
    where the game information was found, and whether a jigo is impossible)."""
    return info.text, info.handicap, info.notes


def parse_tokens(data: bytes) -> int:
    """An upper bound of the tokens sgfmill's parser makes of ``data`` (ident and value
    per ``[``, one per ``;``, ``(`` and ``)``), counted at C speed before parsing."""
    return 2 * data.count(b"[") + data.count(b";") + data.count(b"(") + data.count(b")")


def ingest_bytes(
    data: bytes,
    source: str,
    fallback: str = "ISO-8859-1",
    *,
    fast_path: bool = True,
    max_games: int = MAX_GAMES,
    max_tokens: int = MAX_PARSE_TOKENS,
    scanned: list | None = None,
) -> FileOutcome:
    """Records of every game in ``data``; ``error`` instead when the file is unusable.

    ``scanned``: a list that receives what :func:`~.scan.scan_single` gave for ``data``
    when it was called on it (a caller that needs the root again need not scan twice).

    ``fast_path=False`` always uses sgfmill's full parse (the differential tests'
    oracle); the answer is the same either way. A file of more than ``max_games``
    games, or one that needs the full parse of more than ``max_tokens`` tokens
    (:func:`parse_tokens`), is rejected before its records are built.

    Never raises for what a file holds: any failure reading one file (a codec's own
    error, a recursion limit, memory) rejects that file with the reason, and the
    other files are read.
    """
    try:
        restored = _restore_opening(data)
        if restored is None:
            return _ingest_bytes(data, source, fallback, fast_path, max_games, max_tokens, scanned)
        outcome = _ingest_bytes(restored, source, fallback, fast_path, max_games, max_tokens)
        noted = tuple(r._replace(notes=(*r.notes, _NO_OPENING)) for r in outcome.records)
        return outcome._replace(records=noted)
    except (RecursionError, MemoryError) as error:
        return FileOutcome(
            source, error=f"too complex to read ({type(error).__name__})", fast=False
        )
    except Exception as error:  # a failure we did not foresee: this file only
        return FileOutcome(
            source, error=f"cannot be read: {type(error).__name__}: {error}", fast=False
        )


_NO_OPENING = (
    "the file lacks the '(' that opens the game (as some Fox exports): read as if it had it"
)
_VALUES = re.compile(rb"\[(?:[^\\\]]|\\.)*\]", re.DOTALL)
_PARENS = re.compile(rb"[()]")


def _restore_opening(data: bytes) -> bytes | None:
    """A file that starts with its root node's ``;`` and whose brackets close one more
    ``(`` than they open — the game's opening ``(`` left out, the rest whole — with the
    ``(`` put back; else None (docs/rules.md §9). Read on such files only: a record
    starts with ``(``."""
    text = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text.startswith(b";"):
        return None
    bare = _VALUES.sub(b"", text)  # brackets in values are no tree
    depth = 1  # the missing "("
    for paren in _PARENS.finditer(bare):
        depth += 1 if paren.group() == b"(" else -1
        if depth == 0:  # the game closed: only whitespace may follow
            return None if bare[paren.end() :].strip() else b"(" + text
    return None


def _ingest_bytes(
    data: bytes,
    source: str,
    fallback: str,
    fast_path: bool,
    max_games: int,
    max_tokens: int,
    scanned: list | None = None,
) -> FileOutcome:
    forced = None
    if data[:1] in _UTF16_FIRST or data[1:2] == b"\x00":
        try:
            data, forced = _transcode(data)
        except RecordError as error:
            return FileOutcome(source, error=str(error), fast=False)
    roots = None
    if fast_path and forced is None:  # the usual record, without the general machinery
        raw = scan_single(data)
        if scanned is not None:
            scanned.append(raw)
        plain = None if raw is None or b"RE" not in raw else decode_plain(raw)
        if plain is not None:
            try:
                no_draw = no_jigo(raw, plain[1] or 0)
                record = _record(*plain, (), source, "", no_draw)  # type: ignore[arg-type]
                return FileOutcome(source, (record,), None, True)
            except RecordError as error:
                return FileOutcome(source, (), str(error), True)
        if raw is not None:
            roots = [raw]  # what scan_fast gives for it: not scanned twice
    bom = data[:3] == _BOM8
    try:
        if fast_path and roots is None:
            roots = scan_fast(data, max_games)
    except TooManyGames:
        return FileOutcome(source, error=_too_many_games(max_games), fast=True)
    if roots is not None and len(roots) == 1 and b"RE" in roots[0]:  # one game, RE in its root
        try:
            info = decode_root(roots[0], forced=forced, bom=bom, fallback=fallback)
            no_draw = no_jigo(roots[0], info.handicap or 0)
            record = _record(*info_fields(info), source, "", no_draw)
            return FileOutcome(source, (record,), None, True)
        except RecordError as error:
            return FileOutcome(source, (), str(error), True)
    fast = roots is not None and all(b"RE" in root for root in roots)
    if fast:
        infos = [(root, "") for root in roots]
    else:
        tokens = parse_tokens(data)
        if tokens > max_tokens:
            return FileOutcome(
                source,
                error=f"needs a full parse (variations or unusual syntax) of up to {tokens} "
                f"tokens, above the limit of {max_tokens} (max_parse_tokens)",
                fast=False,
            )
        try:
            trees = sgf_grammar.parse_sgf_collection(data)
        except ValueError as error:
            return FileOutcome(source, error=_parse_reason(str(error)), fast=False)
        if len(trees) > max_games:
            return FileOutcome(
                source,
                error=_too_many_games(max_games),
                fast=False,
            )
        infos = [_main_line_info(tree) for tree in trees]
    several = len(infos) > 1
    records = []
    for number, (raw, extra) in enumerate(infos, 1):
        label = f"{source}#{number}" if several else source
        try:
            info = decode_root(raw, forced=forced, bom=bom, fallback=fallback)
            no_draw = no_jigo(raw, info.handicap or 0)
            records.append(_record(*info_fields(info), label, extra, no_draw))
        except RecordError as error:
            prefix = f"game {number}: " if several else ""
            return FileOutcome(source, error=prefix + str(error), fast=fast)
    return FileOutcome(source, tuple(records), fast=fast)


def _too_many_games(max_games: int) -> str:
    return f"more than {max_games} games in one file (max_games_per_file)"


def _parse_reason(message: str) -> str:
    """sgfmill's parse message, with games counted from 1."""
    match = re.match(r"error parsing game (\d+): (.*)", message)
    if match:
        return f"not valid SGF: game {int(match.group(1)) + 1}: {match.group(2)}"
    if message == "no SGF data found":
        return "not SGF: no game found (no '(;')"
    return f"not valid SGF: {message}"


def ingest_file(
    path: str,
    fallback: str = "ISO-8859-1",
    limit: int = MAX_FILE_BYTES,
    max_games: int = MAX_GAMES,
    max_tokens: int = MAX_PARSE_TOKENS,
) -> FileOutcome:
    """:func:`ingest_bytes` on a file read within ``limit`` bytes."""
    try:
        data = read_regular(path, limit, "max_file_bytes")
    except FileRefused as error:
        return FileOutcome(path, error=str(error), fast=False)
    return ingest_bytes(data, path, fallback, max_games=max_games, max_tokens=max_tokens)
