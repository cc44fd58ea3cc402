"""Every built-in rating system through every face and format: ``sodos ratings`` (table,
CSV, JSON, HTML; the final ratings, ``--history``, ``--player``), ``sodos explain
--ratings`` (table, JSON), ``sodos standings --rating`` (table, JSON) and ``POST
/ratings``, on an EGD h9 file and a folder of server SGF records (docs/ratings.md)."""

from __future__ import annotations

import csv
import io
import json
import math
from html.parser import HTMLParser

import pytest
from conftest import ROOT, shared_path
from sodos_hookspecs import RatingResult, RatingState, RatingStep, RatingSystem, hookimpl

from sodos_plugin.ratings.report import explanation_dict, render_explanation
from sodos_plugin.serve import routes

SYSTEMS = ("egf", "glicko2", "ogs", "whr")
H9 = shared_path("conformance", "go", "opengotha_Tournoi_de_Juvisy.h9")
SERVER = shared_path("sgf", "server")
INPUTS = {"h9": [str(H9)], "sgf": [str(SERVER), "--skip-bad"]}
PLAYER = {"h9": "Minieri Davide", "sgf": "whatiskale"}
FINAL = ["place", "name", "rating", "deviation", "volatility", "label", "games", "last_game"]


def strict(text: str):
    """JSON as a strict parser reads it: NaN and Infinity are not JSON."""

    def refuse(name):
        raise AssertionError(f"{name} in the JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def succeed(sodos):
    """``succeed(*args)``: ``sodos ARGS`` (the ``sodos`` fixture), which must succeed
    without an internal error; its (out, err). Ratings and explain run without the cache."""

    def run(*args: str) -> tuple[str, str]:
        cache = ["--no-cache"] if args[0] in ("ratings", "explain") else []
        done = sodos(*args, *cache)
        assert done.status == 0, done.err
        assert "internal error" not in done.err and "Traceback" not in done.err, done.err
        return done.out, done.err

    return run


class Page(HTMLParser):
    """Tags nest, nothing is fetched, no script; what the SVGs hold."""

    VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr", "source"}
    SHORT = {"line", "polyline", "rect", "text"}  # SVG elements may close themselves

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: dict[str, int] = {}
        self.external: list[str] = []
        self.final_rows = 0
        self.table = None

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.external.append(value)
            if name == "id" and tag == "table":
                self.table = value
        if tag == "script":
            self.external.append("script")
        if tag == "tr" and self.table == "final":
            self.final_rows += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()
        if tag == "table":
            self.table = None


def check_html(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    assert not page.errors and page.stack == [] and page.external == [], page.errors
    return page


@pytest.mark.parametrize("source", ["h9", "sgf"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_ratings_in_every_format(succeed, system, source):
    inputs = [*INPUTS[source], "--rating", system]
    document = strict(succeed("ratings", *inputs, "--format", "json")[0])
    players = document["players"]
    assert document["system"] == system and players
    assert [p["place"] for p in players] == sorted(p["place"] for p in players)
    assert all(p["last_game"] and p["games"] > 0 for p in players)
    assert {s["status"] for s in document["summary"]} >= {"ingested"}
    names = {p["name"] for p in players}
    # the table: final ratings by default, with a header
    table = succeed("ratings", *inputs)[0]
    assert "Place  Name" in table and "Rating periods" not in table
    assert all(name in table for name in names if len(name) < 40)
    history = succeed("ratings", *inputs, "--history")[0]
    assert "Rating periods" in history and "Final ratings" in history
    # CSV: the final ratings, or every period
    rows = list(csv.DictReader(io.StringIO(succeed("ratings", *inputs, "--format", "csv")[0])))
    assert list(rows[0])[: len(FINAL)] == FINAL
    assert [r["name"] for r in rows] == [p["name"] for p in players]
    assert all(math.isfinite(float(r["rating"])) for r in rows)
    for row, entry in zip(rows, players):
        assert float(row["rating"]) == entry["final"]["rating"]
    steps = succeed("ratings", *inputs, "--format", "csv", "--history")[0]
    assert len(list(csv.DictReader(io.StringIO(steps)))) == len(document["periods"])
    # one player's history
    player = PLAYER[source]
    own = succeed("ratings", *inputs, "--player", player)[0]
    others = names - {player}
    assert player in own and not any(f"  {n}  " in own for n in others if len(n) > 3)
    mine = strict(succeed("ratings", *inputs, "--player", player, "--format", "json")[0])
    assert [p["name"] for p in mine["players"]] == [player]
    assert mine["periods"] and {p["player"] for p in mine["periods"]} == {player}
    # HTML: a page, its charts drawn as inline SVG
    page = check_html(succeed("ratings", *inputs, "--format", "html")[0])
    assert page.tags.get("svg", 0) >= 2 and page.tags.get("polyline", 0) >= 1
    assert page.tags.get("rect", 0) >= 1  # the distribution's bars
    assert page.final_rows == len(players) + 1  # the header row and one a player
    one = check_html(succeed("ratings", *inputs, "--player", player, "--format", "html")[0])
    assert one.final_rows == 2


@pytest.mark.parametrize("source", ["h9", "sgf"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_explain_ratings_in_every_format(succeed, system, source):
    inputs = [PLAYER[source], *INPUTS[source], "--ratings", "--rating", system]
    text = succeed("explain", *inputs)[0]
    assert text.startswith(PLAYER[source]) and f"— {system} (" in text
    assert "change" in text
    explained = strict(succeed("explain", *inputs, "--format", "json")[0])
    assert explained["player"] == PLAYER[source] and explained["system"] == system
    assert explained["steps"] and explained["final"]["rating"] == pytest.approx(
        explained["steps"][-1]["after"]["rating"]
    )
    for step in explained["steps"]:  # the printed parts add up to the printed change
        if step["parts"]:
            total = sum(float(p["value"]) for p in step["parts"])
            assert f"{total:.3f}" == f"{float(step['change']):.3f}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_standings_with_rating_changes(succeed, system):
    table = succeed("standings", str(H9), "--rating", system)[0]
    assert f"Rating change ({system}," in table
    data = strict(succeed("standings", str(H9), "--rating", system, "--format", "json")[0])
    assert data["ratings"]["system"] == system and data["ratings"]["players"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_post_ratings(make_host, system):
    body = (ROOT / "docs" / "json" / "league.json").read_bytes()
    host = make_host({"cache": {"enabled": False}})
    for key in ("rating", "system"):  # the one spelling, and the old one
        status, answer = routes.run(host, ("ratings", {key: system}, body))
        assert status == 200, answer
        document = strict(answer.decode("utf-8"))
        assert document["system"] == system and len(document["players"]) == 5
    other = "whr" if system != "whr" else "egf"
    status, answer = routes.run(host, ("ratings", {"rating": system, "system": other}, body))
    assert status == 400 and b"one choice" in answer


def _numpy_elo(history, initial, params):
    """A plugin's system computing with numpy: its numbers are numpy floats."""
    import numpy as np

    ratings, steps = {}, []
    for game in history.games:
        b, w = (ratings.setdefault(n, np.float64(1500.0)) for n in (game.black, game.white))
        delta = np.float64(20.0) * (game.result - 1 / (1 + 10 ** ((w - b) / 400)))
        for name, before, change in ((game.black, b, delta), (game.white, w, -delta)):
            ratings[name] = before + change
            steps.append(
                RatingStep(
                    name, game.source, game.date, RatingState(before),
                    RatingState(before + change), 1, ((f"game {game.source}", change),),
                )
            )  # fmt: skip
    return RatingResult(steps=steps, final={n: RatingState(r) for n, r in ratings.items()})


def test_explain_takes_a_plugins_numpy_numbers(make_host):
    module = type("plugin", (), {})()

    @hookimpl
    def sodos_rating_systems():
        return [RatingSystem("np-elo", "Elo in numpy", _numpy_elo)]

    module.sodos_rating_systems = sodos_rating_systems
    host = make_host({"cache": {"enabled": False}})
    host.register(module, "np-plugin")
    run = host.ratings(host.history([H9]), rating="np-elo", details=True)
    text = render_explanation(run, "Minieri Davide")
    assert "= the change" in text
    assert json.dumps(explanation_dict(run, "Minieri Davide"), allow_nan=False)


def test_the_old_spelling_of_the_rating_system_is_still_accepted(succeed):
    new = succeed("ratings", str(H9), "--rating", "ogs", "--format", "json")[0]
    old = succeed("ratings", str(H9), "--system", "ogs", "--format", "json")[0]
    assert strict(old)["system"] == "ogs" and old == new
