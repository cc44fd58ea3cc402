"""Every writer writes one row per player, whatever the names, countries and clubs
hold (issue 33): a name with a line break, a rank and round tokens, ``;``, ``|``,
markup or a formula start is written safe or refused naming the player, never a second
row. Each writer has one rule for text from the input:

* h9: :func:`~sodos_plugin.writers.h9_writer.unsafe_in_h9` refuses, the row reads back
  as written (:func:`~sodos_plugin.writers.h9_writer.h9_text` and ``h9_word``);
* CSV: :func:`~sodos_plugin.writers.csv_writer.text_cell` (controls escaped, a formula
  start neutralised);
* HTML: :func:`~sodos_plugin.writers.html.escape`;
* the text table: ``textsafe.printable`` on one line.
"""

from __future__ import annotations

import csv
import io
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import Game, Player, Result, Tournament
from sodos_plugin.errors import InputError
from sodos_plugin.util.textsafe import printable
from sodos_plugin.writers.csv_writer import FORMULA_STARTS, text_cell
from sodos_plugin.writers.h9_writer import h9_text

HOST = builtin_host()

#: pieces that mean something to one reader or another
PARTS = [
    "5k", "3D", "12p", "1", "2.5", "½", "2+/w0", "0-", "12=", "3+!", "1+/b2", "|", "|1234",
    ";", "; Pl Name", "=", "+1", "-2", "@x", "=HYPERLINK(\"x\")", "\n", "\r", "\r\n", "\t",
    "\u2028", "\x85", "\x0b", "\x1c", "\x1b[2J", "\u202e", "<b>", "</td></tr><tr><td>",
    "&amp;", '"', "'", "１", "²", " ", "_", "XX", "xxxx", "?",
]  # fmt: skip
TEXT = st.lists(st.one_of(st.sampled_from(PARTS), st.text(max_size=4)), max_size=7).map(
    "".join
) | st.lists(st.sampled_from(PARTS), max_size=7).map(" ".join)


def tournament(name: str, country: str, club: str) -> Tournament:
    players = (
        Player("Bob", rank=-3),
        Player(name, rank=-5, country=country, club=club),
        Player("Cy", rank=-2, club="Go Club"),
        Player("Di", rank=-5),  # tied with the player above: a blank place in h9
    )
    games = (
        Game(1, 0, 1, Result.BLACK_WINS, 0, False, True),
        Game(1, 2, 3, Result.WHITE_WINS, 0, False, True),
        Game(2, 1, 2, Result.JIGO, 0, False, True),
        Game(2, 3, 0, Result.BLACK_WINS, 0, False, True),
    )
    return Tournament("T", 2, players, games)


def written(t: Tournament, form: str) -> str:
    out = io.StringIO()
    HOST.write(HOST.standings(t, system="swiss"), form, out)
    return out.getvalue()


EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@EXAMPLES
@given(name=TEXT, country=TEXT, club=TEXT)
def test_h9_rows_read_back_as_written_or_are_refused_naming_the_player(name, country, club):
    t = tournament(name, country, club)
    try:
        text = written(t, "h9")
    except InputError as error:
        assert "h9 cannot hold" in str(error) and "player '" in str(error)
        assert "\n" not in str(error)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "back.h9"
        path.write_text(text, encoding="utf-8")
        back = HOST.read([path]).tournament
    assert len(back.players) == 4
    assert len(back.games) == 4
    ours = {h9_text(p.name) or "?" for p in t.players}
    assert {p.name for p in back.players} == ours
    mine = next(p for p in back.players if p.name == (h9_text(name) or "?"))
    assert mine.rank == -5

    def word(text: str, unknown: str) -> str:  # a country or club as h9 holds it
        text = " ".join(printable(" ".join(text.split())).replace("_", " ").split())
        return "" if text == unknown else text

    assert (mine.country, mine.club) == (word(country, "XX"), word(club, "xxxx"))


@EXAMPLES
@given(name=TEXT, country=TEXT, club=TEXT)
def test_csv_has_one_line_per_player_and_no_formula_cell(name, country, club):
    text = written(tournament(name, country, club), "csv")
    assert len(text.splitlines()) == 5  # the heading and four players, whatever a name holds
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows) == 5
    by_name = {row[2]: row for row in rows[1:]}
    row = by_name[text_cell(name)]
    assert row[4:6] == [text_cell(country), text_cell(club)]
    for cell in row[2:6]:
        assert not cell.startswith(FORMULA_STARTS)
        assert "\n" not in cell and "\r" not in cell


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.cells: list[str] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "td":
            self.cell = []

    def handle_endtag(self, tag):
        self.tags.append("/" + tag)
        if tag == "td" and self.cell is not None:
            self.cells.append("".join(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def tags(text: str) -> Tags:
    parsed = Tags()
    parsed.feed(text)
    parsed.close()
    return parsed


PLAIN = tags(written(tournament("Ann", "FR", "Paris"), "html")).tags


@EXAMPLES
@given(name=TEXT, country=TEXT, club=TEXT)
def test_html_has_the_same_markup_whatever_the_names(name, country, club):
    page = tags(written(tournament(name, country, club), "html"))
    assert page.tags == PLAIN  # nothing injected: the same elements in the same order
    for text in (name, country, club):
        assert printable(text) in page.cells


PLAIN_TABLE = written(tournament("Ann", "FR", "Paris"), "table").splitlines()


@EXAMPLES
@given(name=TEXT, country=TEXT, club=TEXT)
def test_the_table_has_one_line_per_player(name, country, club):
    lines = written(tournament(name, country, club), "table").splitlines()
    lines = [line for line in lines if not line.startswith("note: ")]  # names cut: said
    assert len(lines) == len(PLAIN_TABLE)
    assert [line.split()[0] for line in lines[2:]] == [line.split()[0] for line in PLAIN_TABLE[2:]]


@pytest.mark.parametrize(
    ("name", "club"),
    [
        ("Ann; x", ""),  # the EGD reads the rest of the row as a comment
        ("Ann", "Go;Club"),
        ("Ann\n3 Eve 5k XX xxxx 1 0 0 0 2+/w0", ""),  # a forged row, one line in h9
        ("Ann 5k XX xxxx 1 2+/w0", ""),
    ],
)
def test_the_h9_probes_are_refused_naming_the_player(name, club):
    with pytest.raises(InputError, match="h9 cannot hold .*: player 'Ann"):
        written(tournament(name, "", club), "h9")
