"""Games tables (docs/ratings.md, docs/rules.md §10.1): what a server exports from its
database, one row per game, read as a game history — every row rated or reported,
errors naming the line and the column."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest
from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sodos_hookspecs import Coded, FileReport, GameColumns, GameHistory, HistoryGame

from sodos_plugin import Host
from sodos_plugin.cli import main
from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import InputError
from sodos_plugin.ratings.periods import game_order
from sodos_plugin.readers import dated, games_table
from sodos_plugin.readers.games_table import claims, parse_table, read_table
from sodos_plugin.util.textsafe import quoted

HEADER = "date,black,white,result"


def table(*rows: str, header: str = HEADER) -> bytes:
    return "\n".join([header, *rows]).encode("utf-8")


def read(data: bytes, source: str = "games.csv"):
    return parse_table(data, source)


def reports(t) -> dict[int, tuple[str, str, str]]:
    """{line: (status, reason, kind)} of the rows not rated."""
    return {int(f.path.rsplit(":", 1)[1]): (f.status, f.reason, f.kind) for f in t.files}


def host() -> Host:
    return builtin_host({"cache": {"enabled": False}})


def test_rows_are_games() -> None:
    t = read(
        table(
            "2024-05-04,Ann,Bob,B+R",
            "2024.05.05 10:00,Bob,Cid,W+3.5",
            "2024/05/06,Cid,Ann,0",
            "2024-5-7,Ann,Cid,White",
        )
    )
    assert [(g.line, g.date, g.black, g.white, g.score) for g in t.games] == [
        (2, "2024-05-04", "Ann", "Bob", 1.0),
        (3, "2024-05-05", "Bob", "Cid", 0.0),
        (4, "2024-05-06", "Cid", "Ann", 0.5),
        (5, "2024-05-07", "Ann", "Cid", 0.0),
    ]
    assert t.files == () and t.warnings == ()


def test_optional_columns_any_spelling_and_order() -> None:
    header = "Game_ID;White Player;Black-Player;Result;Date;HA;Komi;Board Size;Event;Round;BR;WR"
    row = "981;Bob;Ann;B+R;2024-05-04;2;0,5;13;Cup;3;P9段;1k"
    (game,) = read(table(row, header=header)).games
    assert (game.black, game.white, game.handicap, game.komi, game.size) == (
        "Ann",
        "Bob",
        2,
        0.5,
        13,
    )
    assert (game.event, game.round, game.black_rank, game.white_rank, game.id) == (
        "Cup", 3, "P9段", "1k", "981"
    )  # fmt: skip


def test_tab_separated_with_a_bom_and_unread_columns_named() -> None:
    data = "\ufeffdate\tblack\twhite\tresult\tclub\n2024-05-04\tAnn\tBob\tB+R\tParis\n"
    t = read(data.encode(), "games.tsv")
    assert [g.black for g in t.games] == ["Ann"]
    assert t.warnings == ("games.tsv: columns not read: 'club'",)


@pytest.mark.parametrize(
    ("row", "column", "message"),
    [
        ("2024-05-04,Ann,Bob,B+R,x,,,", "handicap", "'x' is not a number 0..9"),
        ("2024-05-04,Ann,Bob,B+R,12,,,", "handicap", "'12' is not a number 0..9"),
        ("2024-05-04,Ann,Bob,B+R,,six,,", "komi", "'six' is not a komi in points"),
        ("2024-05-04,Ann,Bob,B+R,,,37,", "size", "'37' is not a number 1..26"),
        ("2024-05-04,Ann,Bob,B+R,,,,0", "round", "'0' is not a number 1..99"),
        ("2024-05-04,Ann,Bob,B+Jigo,,,,", "result", "RE[B+Jigo]: says Black won and says jigo"),
    ],
)
def test_a_value_that_cannot_be_read_rejects_the_row_naming_line_and_column(
    row, column, message
) -> None:
    header = HEADER + ",handicap,komi,size,round"
    t = read(table("2024-05-03,Cid,Dan,W+R,,,,", row, header=header))
    assert len(t.games) == 1
    ((line, (status, reason, kind)),) = reports(t).items()
    assert (line, status, kind) == (3, "rejected", "")
    assert reason.startswith(f"column {column!r}: {message}")


@pytest.mark.parametrize(
    ("row", "kind"),
    [
        (",Ann,Bob,B+R", dated.UNDATED),
        ("2024-05,Ann,Bob,B+R", dated.UNDATED),
        ("21.06.2024,Ann,Bob,B+R", dated.UNDATED),
        ("2024-05-04,Ann,ann,B+R", dated.SELF_PLAY),
        ("2024-05-04,,Bob,B+R", dated.NO_PLAYERS),
        ("2024-05-04,Ann,Bob,?", dated.UNFINISHED),
        ("2024-05-04,Ann,Bob,", dated.UNFINISHED),
        ("2024-05-04,Ann,Bob,Void", dated.VOID),
        ("2024-05-04,Ann,Bob,W+F", dated.FORFEIT),
        ("2024-05-04,Ann,Bob,nobody knows", dated.NOT_UNDERSTOOD),
    ],
)
def test_a_game_that_cannot_be_rated_is_excluded_by_its_key(row: str, kind: str) -> None:
    t = read(table(row))
    assert not t.games
    assert [(line, status, k) for line, (status, _, k) in reports(t).items()] == [
        (2, "excluded", kind)
    ]


def test_a_game_id_twice_is_a_duplicate() -> None:
    t = read(table("1,2024-05-04,Ann,Bob,B+R", "1,2024-05-04,Ann,Bob,B+R", header="id," + HEADER))
    assert len(t.games) == 1
    assert reports(t) == {3: ("duplicate", "game id '1' as on line 2", "")}


def test_a_duplicate_names_the_first_line_of_its_id_rated_or_not() -> None:
    """The ids met are a set (no line per game); the first line of an id met again is
    found then: of a row not rated, or of a kept game, before and after the first
    duplicate (the kept games' lines by id made once then)."""
    t = read(
        table(
            "a,2024-05-04,Ann,Bob,B+R", "b,,Ann,Bob,B+R", "c,2024-05-04,Cid,Bob,W+R",
            "b,2024-05-05,Ann,Bob,B+R", "c,2024-05-05,Ann,Bob,B+R", "d,2024-05-06,Ann,Cid,0",
            "a,2024-05-05,Ann,Bob,B+R", "d,2024-05-07,Ann,Bob,B+R",
            header="id," + HEADER,
        )
    )  # fmt: skip
    assert [g.id for g in t.games] == ["a", "c", "d"]
    duplicates = {
        line: why for line, (status, why, _) in reports(t).items() if status == "duplicate"
    }
    assert duplicates == {
        5: "game id 'b' as on line 3", 6: "game id 'c' as on line 4",
        8: "game id 'a' as on line 2", 9: "game id 'd' as on line 7",
    }  # fmt: skip


def test_player_ids_keep_players_of_one_name_apart() -> None:
    t = read(
        table(
            "7,8,2024-05-04,Kim,Lee,B+R",
            "9,8,2024-05-05,Kim,Lee,W+R",  # another Kim
            "7,8,2024-05-06,Kim,Lee Sedol,B+R",  # Lee, renamed
            header="black id,white id," + HEADER,
        )
    )
    assert [(g.black, g.white) for g in t.games] == [
        ("Kim [7]", "Lee"),
        ("Kim [9]", "Lee"),
        ("Kim [7]", "Lee"),
    ]
    assert any("'8' is 'Lee Sedol' here and 'Lee' on line 2" in w for w in t.warnings)
    assert any("2 player ids share the name 'Kim'" in w for w in t.warnings)


def test_line_numbers_count_line_breaks_inside_quoted_cells() -> None:
    t = read(table('2024-05-04,"Ann\nLee",Bob,B+R', "2024-05-05,Bob,Bob,B+R"))
    assert t.games[0].black == "Ann\nLee"
    assert list(reports(t)) == [4]  # the self-play row starts on line 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "line 1: no header row naming the columns"),
        (b"date,black,white\n2024-05-04,Ann,Bob\n", "line 1: no result column"),
        (b"date,black,white,result,ha,handicap\n", "columns 'ha' and 'handicap' both give"),
        (b"date,black,white,result\n2024-05-04,Ann,\xff,B+R\n", "line 2: not UTF-8 text"),
        (
            b"date,black,white,result\n2024-05-04,Ann,Bob,B+R\n2024-05-05,"
            + b"x" * 200_000
            + b",Bob,B+R\n",
            "line 3: not valid CSV",
        ),
    ],
)
def test_a_file_that_is_no_table_is_an_error_naming_the_line(data: bytes, message: str) -> None:
    with pytest.raises(InputError, match=message) as error:
        read(data)
    assert str(error.value).startswith("games.csv: ")


def test_claims(tmp_path: Path) -> None:
    assert claims(tmp_path / "g.csv", b"date;Black;White;result\n")
    assert claims(tmp_path / "g.TSV", b"\xef\xbb\xbfblack\twhite\n")
    assert not claims(tmp_path / "roster.csv", b"name,rank,club\n")  # a roster, not games
    assert not claims(tmp_path / "g.txt", b"date,black,white,result\n")


CELLS = {
    "date": ["2024-05-04", "2024.05.05 10:00", "", "2024-05", "yesterday", "2024-02-30"],
    "black": ["Ann", "Bob", "", "ann", "Zoë"],
    "white": ["Ann", "Cid", "", "Dan"],
    "result": ["B+R", "W+3.5", "0", "?", "", "Void", "B+F", "B+Jigo", "what", "W+0.0"],
    "handicap": ["", "0", "2", "9", "10", "x"],
    "id": ["", "1", "2", "3"],
}


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in CELLS.items()}), max_size=30)
)
def test_every_row_is_rated_or_reported(rows) -> None:
    """Any table read: each row that is not blank is a game or has exactly one report,
    on its own line, with a status a history knows and, when excluded, a known key."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(CELLS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    t = read(buffer.getvalue().encode())
    lines = [g.line for g in t.games] + [int(f.path.rsplit(":", 1)[1]) for f in t.files]
    filled = [n for n, row in enumerate(rows, 2) if any(row.values())]
    assert sorted(lines) == filled
    for report in t.files:
        assert report.status in ("rejected", "excluded", "duplicate")
        assert (report.status == "excluded") == (report.kind in dated.KINDS)
    for game in t.games:
        assert game.score in (0.0, 0.5, 1.0) and len(game.date) == 10 and game.black != game.white


def test_a_table_in_a_history_and_its_events_and_ranks(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(
        table(
            "2024-05-04,Ann,Bob,B+R,Cup,P9段,1k",
            "2024-05-05,Bob,Ann,W+R,Cup,,",
            "2024-06-20,Ann,Bob,B+R,Cup,,",  # the same name, weeks later: another event
            "2024-05-06,Ann,Bob,B+R,,,",  # no event: its own
            "2024-05-07,Ann,Ann,B+R,,,",
            header=HEADER + ",event,black rank,white rank",
        )
    )
    h = host().history([path])
    assert [(g.date, g.event) for g in h.games] == [
        ("2024-05-04", "Cup (2024-05-04)"),
        ("2024-05-05", "Cup (2024-05-04)"),
        ("2024-05-06", f"{path}:5"),
        ("2024-06-20", "Cup (2024-06-20)"),
    ]
    assert {n: p.rank for n, p in h.players.items()} == {"Ann": "9p", "Bob": "1k"}
    assert [(f.path, f.status, f.kind) for f in h.files] == [
        (str(path), "ingested", ""),
        (f"{path}:6", "excluded", "self-play"),
    ]


def test_sodos_ratings_rates_a_table_and_counts_what_it_does_not(tmp_path, capsys) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(table("2024-05-04,Ann,Bob,B+R", "2024-05-05,Ann,Ann,B+R", ",Ann,Bob,B+R"))
    assert main(["ratings", str(path), "--no-cache", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert '"games": 1' in captured.out
    assert "sodos: excluded 2: self-play 1, undated 1" in captured.err
    path.write_bytes(table("2024-05-04,Ann,Bob,B+R", "2024-05-05,Ann,Cid,B+Void"))
    assert main(["ratings", str(path), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert f"rejected: {path}:3: column 'result'" in err and "sodos: rejected 1" in err
    assert main(["ratings", str(path), "--no-cache", "--skip-bad"]) == 0


def test_standings_refuse_a_table_and_say_what_rates_it(tmp_path, capsys) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(table("2024-05-04,Ann,Bob,B+R"))
    assert main(["standings", str(path)]) == 2
    assert "'sodos ratings FILE' rates it" in capsys.readouterr().err


# -- issue 33: line ends, strict CSV, encodings, memory, message length --------------------

ROWS = ("2024-05-04,Ann,Bob,B+R", "2024-05-05,Bob,Cid,W+3.5")


def games_of(t) -> list[tuple[str, str, str, float]]:
    return [(g.date, g.black, g.white, g.score) for g in t.games]


def test_a_cr_only_table_is_claimed_and_read(tmp_path: Path) -> None:
    """Excel for Mac ends lines with CR alone: ``claims`` raised csv.Error (and the
    built-in was blamed); the table reads as its LF twin."""
    data = "\r".join([HEADER, *ROWS]).encode()
    path = tmp_path / "mac.csv"
    path.write_bytes(data)
    assert claims(path, data[:4096])
    assert games_of(read(data)) == games_of(read(table(*ROWS))) != []
    report = host().history([path])
    assert [f.status for f in report.files] == ["ingested"] and len(report.games) == 2


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        # the quote opened on line 3 is never closed: the rest of the file was one cell
        ((ROWS[0], '2024-05-05,"Bob,Cid,W+3.5', *ROWS * 3), "line 3: a quote opened in this "
         "row is never closed"),
        ((ROWS[0], '2024-05-05,"Bob"x,Cid,W+3.5'), "line 3: not valid CSV: ',' expected"),
    ],
)  # fmt: skip
def test_a_csv_syntax_error_is_rejected_naming_its_line(rows, message) -> None:
    with pytest.raises(InputError, match=message):
        read(table(*rows))


def test_a_row_longer_than_the_limit_is_an_error_naming_its_first_line() -> None:
    from sodos_plugin.readers.games_table import MAX_ROW_CHARS

    cell = '"' + "x" * 1000 + "\n" + "x" * 1000 + '"'  # each cell within csv's field limit
    cells = ",".join([cell] * (MAX_ROW_CHARS // 2000 + 1))
    with pytest.raises(InputError, match=f"line 3: a row of more than {MAX_ROW_CHARS}"):
        read(table(ROWS[0], f"2024-05-05,Bob,Cid,W+3.5,{cells}"))
    with pytest.raises(InputError, match="lines 3-133: not valid CSV: field larger"):
        read(table(ROWS[0], '2024-05-05,"' + "\n".join(["x" * 1000] * 200) + '",Cid,W+3.5'))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_unicode_tables_are_read_in_their_encoding(tmp_path: Path, encoding: str) -> None:
    """A UTF-16 table with its BOM got "no reader recognises this file"; with a BOM, or
    UTF-16 without one (its zero bytes tell it), it reads as the UTF-8 table."""
    data = "\r\n".join([HEADER, *ROWS, "2024-05-06,Zoë,李,B+R"]).encode(encoding)
    path = tmp_path / "unicode.csv"
    path.write_bytes(data)
    assert claims(path, data[:4096])
    utf8 = read("\n".join([HEADER, *ROWS, "2024-05-06,Zoë,李,B+R"]).encode())
    assert games_of(read(data)) == games_of(utf8) and len(utf8.games) == 3


def test_text_that_is_not_its_encoding_names_line_and_byte() -> None:
    with pytest.raises(InputError, match=r"line 3: not UTF-8 text \(byte 52\)"):
        read(b"date,black,white,result\r2024-05-04,Ann,Bob,B+R\r2024-\xff")
    data = "\n".join([HEADER, ROWS[0], ""]).encode("utf-16") + b"\x00\xdc"  # lone surrogate
    with pytest.raises(InputError, match=r"line 3: not UTF-16 text"):
        read(data)


def test_reading_costs_the_games_kept_not_a_multiple_of_the_text(tmp_path: Path) -> None:
    """The whole text, its decoded copy and its cells were alive at once (a 250 MB table
    ended in MemoryError): now the peak is the games kept plus a few buffers."""
    import tracemalloc

    from sodos_plugin.readers.games_table import read_table

    path = tmp_path / "big.csv"
    names = [f"Player{i:04d}" for i in range(300)]
    with path.open("w", encoding="utf-8") as out:
        out.write(HEADER + ",event,comment\n")
        for i in range(40_000):
            comment = "a long comment that is not read, " * 3
            out.write(f"2024-05-{1 + i % 28:02d},{names[i % 300]},{names[(i * 7 + 1) % 300]},"
                      f"B+R,Club league,{comment}\n")  # fmt: skip
    size = path.stat().st_size
    tracemalloc.start()
    try:
        t = read_table(path)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(t.games) == 40_000
    assert peak - kept < size / 4, (peak, kept, size)  # was several times the file
    # a slotted game, its names, days and events shared: some 180 bytes (was over 400)
    assert kept < 220 * len(t.games), kept


def test_messages_show_input_cells_cut() -> None:
    """An ignored-columns warning echoed a 10.9-million-character header whole: every
    cell a message quotes is cut to a few dozen columns."""
    long = "y" * 100_000  # within csv's field limit
    t = read(table(*ROWS, header=f"{HEADER},{long},{','.join(f'c{i}' for i in range(40))}"))
    assert t.warnings and max(map(len, t.warnings)) < 1000
    assert "and 29 more" in t.warnings[0]
    t = read(table(f"2024-05-04,Ann,Bob,{'B+' + 'z' * 100_000}", f"2024-05-05,{'q' * 100_000},"
                   f"q{'q' * 99_999},B+R", f"2024-05-06,Ann,Bob,B+R,{'x' * 100_000}"))  # fmt: skip
    texts = [f.reason for f in t.files] + list(t.warnings)
    assert texts and max(map(len, texts)) < 1000, sorted(map(len, texts))
    with pytest.raises(InputError) as error:
        read(table(*ROWS, header=f"date,black,{long}"))
    assert len(str(error.value)) < 1000


def test_a_history_of_a_table_shows_its_names_cut(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_bytes(table(f"2024-05-04,{'A' * 100_000},Bob,B+R", f"2024-05-05,{'a' * 100_000},"
                           "Bob,B+R"))  # fmt: skip
    history = host().history([path])
    assert len(history.games) == 2
    assert any("is taken as" in w for w in history.warnings)  # one player by §8
    assert max(map(len, history.warnings)) < 1000


def _history_of_objects(paths: list[Path], gap: int) -> GameHistory:
    """A games table's history as the reader made it before its columns: a
    ``HistoryGame`` and a ``path:line`` text per row (the reference the columns equal)."""
    games, events, players, files, warnings = [], {}, {}, [], []
    names: dict[str, str] = {}
    spelled: dict[str, str] = {}
    for path in paths:
        source = str(path)
        t = read_table(path)
        warnings.extend(t.warnings)
        rows = t.games
        where = [f"{source}:{g.line}" for g in rows]
        days = [g.date for g in rows]
        event_of, found = dated.group_events([g.event for g in rows], days, where, gap)
        events.update(found)
        for game, place in zip(rows, where):
            for raw in (game.black, game.white):
                if raw not in names:
                    first = spelled.setdefault(identity_key(raw), raw)
                    if first != raw:
                        warnings.append(
                            f"{place}: {quoted(raw)} is taken as {quoted(first)}: the same name "
                            "(docs/rules.md §8)"
                        )
                    names[raw] = first
        for game, place, event in zip(rows, where, event_of):
            games.append(
                HistoryGame(
                    game.date,
                    event,
                    names[game.black],
                    names[game.white],
                    game.score,
                    game.handicap,
                    game.komi,
                    game.size,
                    game.round,
                    place,
                    game.time,
                    game.id,
                )  # fmt: skip
            )
        ranks = dated.first_ranks(
            days, [names[g.black] for g in rows], [names[g.white] for g in rows],
            [g.black_rank for g in rows], [g.white_rank for g in rows], where,
        )  # fmt: skip
        for name, player in ranks.items():
            known = players.get(name)
            if known is None or (known.rank is None and player.rank):
                players[name] = player
        files.append(FileReport(source, "ingested"))
        files.extend(t.files)
    return GameHistory(tuple(games), events, players, tuple(files), tuple(warnings))


def _generated_table(path: Path, seed: int, rows: int, ids: bool) -> Path:
    rng = random.Random(seed)
    names = [f"Player {i}" for i in range(30)] + ["ann lee", "Ann Lee", "Bob", "bob"]
    results = ["B+R", "W+3.5", "0", "Black", "White", "Void", "?", "B+F", "W+1.5"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["id", "date", "black", "white", "result", "handicap", "komi", "event", "round"]
    header += ["black rank", "white rank", *(["black id", "white id"] if ids else [])]
    writer.writerow(header)
    for _ in range(rows):
        day = f"2024-{rng.randint(1, 3):02d}-{rng.randint(1, 28):02d}"
        if rng.random() < 0.3:
            day += f" {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
        black, white = rng.choice(names), rng.choice(names)
        row = [
            rng.choice(["", f"g{rng.randint(0, rows)}"]), rng.choice([day, day, day, ""]),
            black, white, rng.choice(results), rng.choice(["", "0", "2", "x"]),
            rng.choice(["", "6.5", "0,5"]), rng.choice(["", "", "Cup", "League"]),
            rng.choice(["", "1", "3"]), rng.choice(["", "3d", "15k", "P9段", "xx"]),
            rng.choice(["", "1k", "2 kyu"]),
        ]  # fmt: skip
        if ids:
            row += [f"p{names.index(black)}{rng.choice(['', '', 'x'])}", f"p{names.index(white)}"]
        writer.writerow(row)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


@pytest.mark.parametrize("ids", [False, True])
def test_the_history_of_tables_is_columns_equal_to_a_game_per_row(tmp_path: Path, ids) -> None:
    """Issue 33: a table's history was a HistoryGame and a source text per row (3.8 GiB
    for a 250 MB table); it is columns — names, days, events coded, sources made when
    read — and equals the per-row history: games, events (in order), players, files and
    warnings, over two tables (one name spelled two ways: joined and said; with player ids,
    two ids of one name)."""
    paths = [
        _generated_table(tmp_path / "a.csv", 1, 1500, ids),
        _generated_table(tmp_path / "b.csv", 2, 700, ids),
    ]
    run = {"event_gap_days": 7, "identity": identity_key}
    found = games_table.history(paths, {}, run)
    expected = _history_of_objects(paths, 7)
    assert isinstance(found.games, GameColumns)
    c = found.games.columns
    assert isinstance(c["black"], Coded) and isinstance(c["date"], Coded)
    assert not isinstance(c["source"], (list, tuple))  # made when read
    assert len(found.games) > 500
    assert list(found.games) == list(expected.games)
    assert list(found.events.items()) == list(expected.events.items())
    assert len(found.events) == len(expected.events)
    some = expected.games[5].event
    assert found.events[some] == expected.events[some] and some in found.events
    assert found.players == expected.players
    assert found.files == expected.files and found.warnings == expected.warnings
    said = "share the name" if ids else "is taken as"
    assert any(said in w for w in found.warnings)
    # the host's history: the same games in game order, as columns
    h = host().history(paths)
    assert isinstance(h.games, GameColumns) and h.games.order is not None
    assert list(h.games) == sorted(expected.games, key=game_order)
    assert dict(h.events) == expected.events
