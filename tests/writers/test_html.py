"""The HTML standings page: well-formed, self-contained, and rendered by a real browser.

The browser test opens the page in headless Chromium (Debian's ``chromium``, which
``.ci/run`` installs) and reads the standings rows back from the rendered DOM.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from builders import B, mixed, tournament

from sodos_plugin.engine.numbers import format_value

VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr", "source"}
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


class Rows(HTMLParser):
    """Collects the cells of ``tbody`` rows and checks that tags nest properly."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.in_body = False
        self.doctype = False
        self.external: list[str] = []

    def handle_decl(self, decl: str) -> None:
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.external.append(value)
        if tag == "script":
            self.external.append("script")
        if tag in VOID:
            return
        self.stack.append(tag)
        if tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.rows.append([])
        elif tag == "td" and self.in_body:
            self.cell = []

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag == "tbody":
            self.in_body = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def page(host, standings) -> str:
    stream = io.StringIO()
    host.write(standings, "html", stream)
    return stream.getvalue()


def expected_rows(standings) -> list[list[str]]:
    return [
        [
            row.player.name,
            f"{row.place}{'=' if row.tied else ''}",
            *(format_value(row.values[c]) for c in standings.criteria),
        ]
        for row in standings.rows()
    ]


def seen_rows(parser: Rows, standings) -> list[list[str]]:
    k = len(standings.criteria)
    return [[cells[2], cells[1], *cells[len(cells) - k :]] for cells in parser.rows]


def test_page_is_well_formed_and_self_contained(host):
    standings = host.standings(mixed(), system="mcmahon", criteria=["MMS", "SOS", "SODOS"])
    text = page(host, standings)
    parser = Rows()
    parser.feed(text)
    parser.close()
    assert parser.doctype and not parser.errors and parser.stack == []
    assert parser.external == []
    assert seen_rows(parser, standings) == expected_rows(standings)
    by_name = {cells[2]: cells for cells in parser.rows}
    # per-round cells: opponent number, result, colour, handicap, forfeit marker
    number = {cells[2]: cells[0] for cells in parser.rows}
    e_rounds = by_name["E"][6:9]
    assert e_rounds == ["bye", f"{number['D']}-!/w3", f"{number['A']}-/w"]
    assert by_name["B"][7] == "abs" and by_name["F"][6] == "–"
    assert by_name["C"][6] == f"{number['D']}=/b"


def test_names_are_escaped(host):
    t = tournament(["<b>Bob</b> & Co", "Al"], 1, [(1, "<b>Bob</b> & Co", "Al", B)])
    standings = host.standings(t, system="swiss", criteria=["NBW"])
    text = page(host, standings)
    assert "<b>Bob" not in text and "&lt;b&gt;Bob&lt;/b&gt; &amp; Co" in text


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (.ci/run installs it)")
def test_chromium_renders_standings_rows(host, tmp_path: Path):
    standings = host.standings(mixed(), system="mcmahon", criteria=["MMS", "SOS", "SOSOS"])
    html_file = tmp_path / "standings.html"
    html_file.write_text(page(host, standings), encoding="utf-8")
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        html_file.as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    parser = Rows()
    parser.feed(done.stdout)
    assert len(parser.rows) == len(standings.tournament.players)
    assert seen_rows(parser, standings) == expected_rows(standings)
    assert "Standings after round 3" in done.stdout
