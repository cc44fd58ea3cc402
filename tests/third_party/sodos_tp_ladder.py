"""A third-party reader (tests only): a club ladder's ``.ladder`` file, one game a line
(``2024-05-04 Ann Bob B``: date, Black, White, the winner), read as a game history for
``sodos ratings``. It touches nothing of the core: its descriptor gives the history."""

from __future__ import annotations

from sodos_hookspecs import (
    FileReport,
    GameHistory,
    HistoryEvent,
    HistoryGame,
    HistoryPlayer,
    Reader,
    hookimpl,
)


def claims(path, head):
    return path.suffix == ".ladder"


def read(paths, options):
    raise ValueError("a ladder is a game history: rate it with sodos ratings")


def history(paths, section, run):
    games, events, players, files = [], {}, {}, []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            day, black, white, winner = line.split()
            event = f"ladder {day}"
            events.setdefault(event, HistoryEvent(event, "Club ladder", day))
            score = {"B": 1.0, "W": 0.0}[winner]
            games.append(HistoryGame(day, event, black, white, score, source=f"{path}:{number}"))
            for name in (black, white):
                players.setdefault(name, HistoryPlayer(name, "5k", None, str(path)))
        files.append(FileReport(str(path), "ingested"))
    return GameHistory(games, events, players, files, (f"ladder: {len(games)} game(s)",))


def stdin(head):
    """A ladder from stdin: its first line starts with a date."""
    return ".ladder" if head[:4].isdigit() and head[4:5] == b"-" else None


@hookimpl
def sodos_readers():
    return [
        Reader(
            "ladder",
            "a club ladder (tests only)",
            claims,
            read,
            history=history,
            stdin=stdin,
        )
    ]
