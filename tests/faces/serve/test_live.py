"""``sodos serve --store PATH --rating ogs`` (docs/ratings.md, "A server's live
ratings"): the live routes over HTTP, their answers and refusals, games posted over
HTTP equal to a batch run, two services on one store, and a SIGKILL under load."""

from __future__ import annotations

import http.client
import json
import os
import signal
import threading
import time
from datetime import date, timedelta

import pytest
from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service import Service

pytest.importorskip("waitress")
jsonschema = pytest.importorskip("jsonschema")

from sodos_plugin.schemas import catalog  # noqa: E402

CONFIG = """
[serve]
concurrency = 1
"""
HOST = builtin_host({"cache": {"enabled": False}})
RESULTS = ["B+R", "W+R", "B+3.5", "W+0.5", "0"]


def check(name: str, body: bytes) -> dict:
    document = json.loads(body)
    validator = jsonschema.Draft202012Validator(catalog.load(name))
    errors = list(validator.iter_errors(document))
    assert not errors, (name, errors[0].message)
    return document


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    folder = tmp_path_factory.mktemp("live")
    running = Service(folder, CONFIG, "--store", str(folder / "ratings.db"), "--rating", "ogs")
    yield running
    running.stop()


def game(gid: str, k: int, black: str, white: str, result: str, **more) -> dict:
    day = (date(2024, 1, 1) + timedelta(k // 4)).isoformat()
    return {"id": gid, "date": f"{day}T{k % 4 + 8:02d}:00:00", "black": black, "white": white,
            "result": result, **more}  # fmt: skip


def test_one_game_a_batch_a_player_history_leaderboard_void(live):
    status, _, body = live.post("/games", game("a1", 0, "Ann", "Bob", "B+R"))
    assert status == 200, body
    answer = check("live-games", body)
    assert answer["system"] == "ogs"
    assert answer["games"][0]["order"] >= 1
    batch = [game(f"a{k}", k, "Bob", "Ann", RESULTS[k % 5], handicap=k % 3) for k in range(2, 6)]
    status, _, body = live.post("/games", batch)
    assert status == 200, body
    assert [g["id"] for g in check("live-games", body)["games"]] == ["a2", "a3", "a4", "a5"]
    status, _, body = live.request("GET", "/players/Ann")
    player = check("live-player", body)
    assert status == 200 and player["games"] == 5 and player["last_game"] == "2024-01-02"
    assert {"rating", "deviation", "games", "rank"} <= set(player)
    status, _, body = live.request("GET", "/players/Ann/history")
    steps = check("live-history", body)["steps"]
    assert [s["game"] for s in steps] == ["a1", "a2", "a3", "a4", "a5"]
    assert steps[-1]["rating"] == player["rating"]
    status, _, body = live.request("GET", "/leaderboard?limit=1")
    board = check("live-leaderboard", body)
    assert status == 200 and len(board["players"]) == 1 and board["players"][0]["place"] == 1
    status, _, body = live.post("/games/a1/void", b"")
    assert status == 200, body
    assert check("live-void", body) == {"id": "a1", "voided": True, "rerated": 4}
    status, _, body = live.request("GET", "/players/Ann")
    assert json.loads(body)["games"] == 4


@pytest.mark.parametrize(
    "document,field",
    [
        (game("b1", 0, "Ann", "Bob", "B+R", date="yesterday"), "date"),
        ({**game("b1", 0, "Ann", "Bob", "B+R"), "result": "?"}, "result"),
        ({k: v for k, v in game("b1", 0, "Ann", "Bob", "B+R").items() if k != "white"}, "white"),
        ([game("b1", 0, "Ann", "Bob", "B+R"), {**game("b2", 0, "A", "B", "B+R"), "size": 0}],
         "games[1].size"),
        ({**game("b1", 0, "Ann", "Bob", "B+R"), "handicap": "two"}, "handicap"),
        ("a text", "game"),
    ],
)  # fmt: skip
def test_a_malformed_game_is_400_naming_the_field(live, document, field):
    status, _, body = live.post("/games", document)
    answer = check("error", body)
    assert status == 400 and answer["field"] == field, answer


def test_conflict_unknown_player_and_limits(live):
    assert live.post("/games", game("c1", 0, "Cid", "Dan", "B+R"))[0] == 200
    assert live.post("/games", game("c1", 0, "Cid", "Dan", "B+R"))[0] == 200  # the same again
    status, _, body = live.post("/games", game("c1", 0, "Cid", "Dan", "W+R"))
    assert status == 409 and check("error", body)["field"] == "id"
    status, _, body = live.request("GET", "/players/Nobody")
    assert status == 404 and check("error", body)
    status, _, body = live.request("GET", "/leaderboard?limit=5000")
    answer = check("error", body)
    assert status == 413 and answer["limit"] == "store.max_leaderboard"
    status, _, body = live.request("GET", "/games")
    assert status == 405


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_games_posted_over_http_equal_a_batch_run(live, data):
    """Games of players of their own posted one by one and in batches: each player's
    rating is the batch run's over the same games in the same order."""
    tag = f"p{time.monotonic_ns()}"
    names = [f"{tag}-{n}" for n in "ABCD"]
    n = data.draw(st.integers(1, 12))
    games = []
    for k in range(n):
        black, white = data.draw(
            st.lists(st.sampled_from(names), min_size=2, max_size=2, unique=True)
        )
        games.append(game(f"{tag}-{k}", k, black, white, data.draw(st.sampled_from(RESULTS))))
    at = 0
    while at < n:
        size = data.draw(st.integers(1, 4))
        chunk = games[at : at + size]
        status, _, body = live.post("/games", chunk[0] if size == 1 else chunk)
        assert status == 200, body
        at += size
    history = HOST.history(games=[HOST_GAME(g) for g in games])
    batch = HOST.ratings(history, rating="ogs").final()
    for name, state in batch.items():
        status, _, body = live.request("GET", f"/players/{name}")
        answer = json.loads(body)
        assert answer["rating"] == pytest.approx(state.rating, abs=1e-9, rel=0)
        assert answer["deviation"] == pytest.approx(state.deviation, abs=1e-9, rel=0)


def HOST_GAME(g: dict):
    from sodos_hookspecs import HistoryGame

    score = {"B+R": 1.0, "B+3.5": 1.0, "W+R": 0.0, "W+0.5": 0.0, "0": 0.5}[g["result"]]
    return HistoryGame(g["date"][:10], g["id"], g["black"], g["white"], score,
                       time=g["date"][11:], id=g["id"])  # fmt: skip


def _post_all(service: Service, games: list[dict], acknowledged: list[str], errors: list) -> None:
    for g in games:
        try:
            status, _, body = service.post("/games", g, timeout=30)
        except (OSError, http.client.HTTPException) as error:  # killed: not acknowledged
            errors.append(error)
            return
        if status == 200:
            acknowledged.append(g["id"])
        else:
            errors.append((status, body))


def _store_equals_batch(path) -> tuple[list[str], dict]:
    store = HOST.store(path)
    try:
        ids = [g.id for g in store.games().games]
        batch = HOST.ratings(store.games(), rating="ogs").final()
        live = store.ratings()
        assert set(live) == set(batch)
        for name, state in live.items():
            assert state.rating == pytest.approx(batch[name].rating, abs=1e-9, rel=0)
            assert state.deviation == pytest.approx(batch[name].deviation, abs=1e-9, rel=0)
        return ids, live
    finally:
        store.close()


def test_two_services_on_one_store_apply_each_game_once(tmp_path):
    path = tmp_path / "shared.db"
    HOST.store(path).close()
    one = Service(tmp_path, CONFIG, "--store", str(path))
    two = Service(tmp_path, CONFIG, "--store", str(path))
    try:
        names = [f"P{k}" for k in range(6)]
        games = [game(f"t{k}", k, names[k % 6], names[(k * 5 + 1) % 6] if (k * 5 + 1) % 6 != k % 6
                      else names[(k + 2) % 6], RESULTS[k % 5]) for k in range(60)]  # fmt: skip
        done: list[list[str]] = [[], []]
        errors: list = []
        threads = [
            threading.Thread(target=_post_all, args=(s, games, done[i], errors))
            for i, s in enumerate((one, two))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors[:3]
        assert sorted(done[0]) == sorted(done[1]) == sorted(g["id"] for g in games)
    finally:
        one.stop()
        two.stop()
    ids, _ = _store_equals_batch(path)
    assert sorted(ids) == sorted(g["id"] for g in games)  # each game once


def test_sigkill_under_load_loses_no_acknowledged_game(tmp_path):
    path = tmp_path / "killed.db"
    service = Service(tmp_path, CONFIG, "--store", str(path))
    names = [f"K{k}" for k in range(10)]
    streams = [
        [game(f"s{c}-{k}", k, names[(c + k) % 10], names[(c + 2 * k + 1) % 10]
              if (c + 2 * k + 1) % 10 != (c + k) % 10 else names[(c + k + 3) % 10],
              RESULTS[(c + k) % 5]) for k in range(400)]
        for c in range(4)
    ]  # fmt: skip
    acknowledged: list[str] = []
    errors: list = []
    threads = [
        threading.Thread(target=_post_all, args=(service, s, acknowledged, errors)) for s in streams
    ]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < 100 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(service.process.pid, signal.SIGKILL)
    for t in threads:
        t.join()
    service.process.wait()
    assert len(acknowledged) >= 100
    ids, _ = _store_equals_batch(path)
    assert len(ids) == len(set(ids))
    assert set(acknowledged) <= set(ids)
    # a restart goes on
    again = Service(tmp_path, CONFIG, "--store", str(path))
    try:
        status, _, body = again.post("/games", game("after", 999, "K1", "K2", "B+R"))
        assert status == 200, body
    finally:
        again.stop()
    ids, _ = _store_equals_batch(path)
    assert ids[-1] == "after"


SYSTEMS = {
    "glicko2-day": ("glicko2", ["-o", "rating.glicko2.period=day"], {"period": "day"}),
    "egf": ("egf", [], {}),
}


@pytest.fixture(scope="module", params=sorted(SYSTEMS))
def other_live(request, tmp_path_factory):
    rating, options, params = SYSTEMS[request.param]
    folder = tmp_path_factory.mktemp(request.param)
    running = Service(folder, CONFIG, "--store", str(folder / "s.db"), "--rating", rating,
                      *options)  # fmt: skip
    running.rating, running.params, running.examples = rating, params, 0
    yield running
    running.stop()


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_other_systems_over_http_equal_a_batch_run(other_live, data):
    """Glicko-2 by day and GoR (a batch posted = a tournament) over HTTP: each player's
    rating is the batch run's over the same games (tournaments) in the same order."""
    other_live.examples += 1
    tag = f"q{other_live.examples}"
    base = other_live.examples * 40  # later days for each example: no period closed
    names = [f"{tag}-{n}" for n in "ABCD"]
    n = data.draw(st.integers(1, 10))
    posted, history, at = [], [], 0
    for k in range(n):
        black, white = data.draw(
            st.lists(st.sampled_from(names), min_size=2, max_size=2, unique=True)
        )
        posted.append(
            game(f"{tag}-{k}", base * 4 + k, black, white, data.draw(st.sampled_from(RESULTS)))
        )
    while at < n:
        size = data.draw(st.integers(1, 4))
        chunk = posted[at : at + size]
        status, _, body = other_live.post("/games", chunk[0] if size == 1 else chunk)
        assert status == 200, body
        for g in chunk:  # GoR: the batch's first game names its tournament
            history.append(HOST_GAME(g)._replace(event=chunk[0]["id"]))
        at += size
    from sodos_hookspecs import GameHistory

    batch = HOST.ratings(GameHistory(games=history), rating=other_live.rating,
                         **other_live.params).final()  # fmt: skip
    for name, state in batch.items():
        status, _, body = other_live.request("GET", f"/players/{name}")
        answer = json.loads(body)
        assert answer["rating"] == pytest.approx(state.rating, abs=1e-9, rel=0)
