"""Every document's JSON Schema is generated from its one definition, is shipped as
generated, and validates every document sodos produces on the real files: standings,
explanations, ratings, rating steps, the plugins report, health, error answers and
converted tournaments (each schema closed: a member it does not name fails)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, SHARED_DATA, TESTS

from sodos_plugin.engine.explain import document as explanation
from sodos_plugin.engine.explain import explain_player
from sodos_plugin.errors import SodosError
from sodos_plugin.plugins.report import plugin_rows
from sodos_plugin.ratings.report import explanation_dict
from sodos_plugin.readers import json_tournament
from sodos_plugin.schemas import catalog, codec, live, service
from sodos_plugin.serve import live as live_routes
from sodos_plugin.serve.jobs import Worker
from sodos_plugin.serve.routes import ROUTES

jsonschema = pytest.importorskip("jsonschema")


def closed(schema):
    """The schema with every object closed: a member the schema does not name fails."""
    if isinstance(schema, dict):
        out = {k: closed(v) for k, v in schema.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [closed(v) for v in schema]
    return schema


VALIDATORS = {
    name: jsonschema.Draft202012Validator(closed(catalog.load(name))) for name in catalog.NAMES
}


def check(name: str, text: bytes | str) -> None:
    errors = list(VALIDATORS[name].iter_errors(json.loads(text)))
    assert not errors, (name, errors[0].message, list(errors[0].absolute_path))


@pytest.mark.parametrize("name", catalog.NAMES)
def test_each_schema_is_generated_shipped_and_valid(name):
    assert catalog.shipped(name).read_text("utf-8") == catalog.text(name)
    schema = catalog.load(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"urn:sodos:schema:{name}:{catalog.DOCUMENTS[name].version}"


def inputs() -> list[Path]:
    found = sorted((TESTS / "data" / "egd").glob("*")) + [TESTS / "data" / "sample_tournament.xml"]
    for folder in ("conformance/go", "conformance/opengotha/xml", "conformance/opengotha/minimal"):
        if (SHARED_DATA / folder).is_dir():
            found += sorted(p for p in (SHARED_DATA / folder).iterdir() if p.suffix != ".txt"
                            or p.name.startswith("h9_"))  # fmt: skip
    return [p for p in found if p.suffix.lower() not in (".md", ".jsonl", ".dtd")]


@pytest.mark.slow
def test_the_documents_of_every_input_match_their_schemas(host):
    checked = {name: 0 for name in catalog.NAMES}
    for number, path in enumerate(inputs()):
        try:
            read = host.read([path])
            standings = host.standings(read.tournament)
        except SodosError:
            continue
        check("standings", host.render(standings, "json"))
        converted = json_tournament.dumps(json_tournament.to_document(read.tournament))
        check("tournament", converted)
        checked["standings"] += 1
        checked["tournament"] += 1
        players = read.tournament.players
        for index in {0, len(players) - 1} if players and number % 4 == 0 else ():
            check("explain", codec.encode(explanation(explain_player(standings, index), ["w"])))
            checked["explain"] += 1
        if number % 25 == 0 and read.tournament.date:
            history = host.history([path])
            for system in ("egf", "glicko2", "ogs", "whr"):
                run = host.ratings(history, rating=system)
                check("ratings", codec.encode(run.as_dict()))
                checked["ratings"] += 1
            run = host.ratings(history, rating="egf", details=True)
            for player in list(run.result.final)[:2]:
                check("rating-steps", codec.encode(explanation_dict(run, player)))
                checked["rating-steps"] += 1
    check("plugins", service.plugins_report(plugin_rows(host.registry)))
    health = service.Health(status="ok", version="1", workers=2, idle=1, restarts=0, served=3)
    check("health", codec.encode(health))
    worker = Worker(host, ROUTES.computed())
    for body in (b"", b"[]", b'{"format": 1}', b'{"a": 1, "a": 2}', "\ufeff{".encode()):
        status, answer = worker.run("standings", {}, body)
        assert status == 400
        check("error", answer)
    checked.update(plugins=1, health=1, error=1)
    checked.update(_live_documents(host))
    assert checked["standings"] >= (300 if SHARED_DATA.is_dir() else 5)
    assert all(checked.values()), checked


def test_the_repository_examples_match_the_tournament_schema():
    for path in sorted((ROOT / "docs" / "json").glob("*.json")):
        check("tournament", path.read_bytes())


def _live_documents(host) -> dict[str, int]:
    """A live store's answers and the game it is posted (docs/ratings.md)."""
    import tempfile

    posted = {"id": "1", "date": "2024-01-01T10:00", "black": "A", "white": "B", "result": "B+R"}
    check("live-game", json.dumps(posted))
    with tempfile.TemporaryDirectory() as folder, host.store(Path(folder) / "s.db") as store:
        rated = store.add(posted)
        games = live.GamesRated(system="ogs", games=[live_routes.game_rated(store, rated)])
        check("live-games", codec.encode(games))
        check("live-player", codec.encode(store.player_answer("A")))
        check("live-history", codec.encode(store.history("A")))
        check("live-leaderboard", codec.encode(store.leaderboard(10)))
        check("live-void", codec.encode(live.Voided(id="1", voided=True, rerated=0)))
    return {name: 1 for name in catalog.NAMES if name.startswith("live-")}
