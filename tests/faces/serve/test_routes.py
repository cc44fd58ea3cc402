"""The route table (serve/routes.py): a route is added by a row, nothing else; what the
service does with a request is read from the rows."""

from __future__ import annotations

import io
import json
from wsgiref.util import setup_testing_defaults

import pytest

from sodos_plugin.readers import json_tournament
from sodos_plugin.schemas import catalog
from sodos_plugin.serve import make_app
from sodos_plugin.serve.jobs import Refused, Stage
from sodos_plugin.serve.routes import ROUTES, Route, Routes, round_number, text

SMALL = {
    "format": "sodos-tournament",
    "version": 1,
    "rounds": 1,
    "players": [{"name": "Ann", "rank": "2d"}, {"name": "Bob", "rank": "1d"}],
    "games": [{"round": 1, "black": "Bob", "white": "Ann", "result": "B+"}],
}


def players_in(worker, options, body: bytes) -> bytes:
    """A route computed in a worker process: it reaches it by pickle, by name."""
    with Stage("body"):
        tournament, _ = json_tournament.parse(body, "request", limits=worker.limits)
    names = [p.name for p in tournament.players][: options.get("first", 99)]
    return json.dumps({"players": names}).encode()


def player(app, request) -> bytes:
    """A route of the parent process with a path parameter (a store's GET)."""
    if request.params["id"] == "0":
        raise Refused(404, "no player 0", field="id")
    return json.dumps({"id": request.params["id"], "query": dict(request.query)}).encode()


MORE = [
    Route("GET", "/players/{id}", player, query={"round": round_number}, answer=""),
    Route(
        "POST",
        "/players",
        players_in,
        query={"first": round_number},
        body="tournament",
        worker=True,
    ),
]


def call(app, method: str, path: str, body: bytes = b"", query: str = ""):
    environ: dict = {}
    setup_testing_defaults(environ)
    environ.update(
        REQUEST_METHOD=method,
        PATH_INFO=path,
        QUERY_STRING=query,
        CONTENT_TYPE="application/json",
        CONTENT_LENGTH=str(len(body)),
        HTTP_HOST="127.0.0.1",
    )
    environ["wsgi.input"] = io.BytesIO(body)
    got = {}

    def start_response(status, headers):
        got["status"], got["headers"] = int(status.split()[0]), dict(headers)

    answer = b"".join(app(environ, start_response))
    return got["status"], got["headers"], answer


@pytest.fixture(scope="module")
def app():
    made = make_app(
        {"serve": {"concurrency": 1}}, config_file=False, entry_points=False, routes=ROUTES + MORE
    )
    yield made
    made.close()


def test_a_route_is_added_by_its_row_alone(app):
    status, _, answer = call(app, "GET", "/players/p7", query="round=2")
    assert status == 200
    assert json.loads(answer) == {"id": "p7", "query": {"round": 2}}
    status, _, answer = call(app, "POST", "/players", json.dumps(SMALL).encode(), "first=1")
    assert (status, json.loads(answer)) == (200, {"players": ["Ann"]})


def test_the_rows_give_the_404_list_the_405_and_the_query_check(app):
    status, _, answer = call(app, "GET", "/nowhere")
    assert status == 404
    message = json.loads(answer)["error"]
    assert "GET /players/{id}, POST /players" in message and "POST /standings" in message
    status, headers, answer = call(app, "DELETE", "/players/p7")
    assert status == 405 and headers["Allow"] == "GET" and json.loads(answer)["field"] == "method"
    status, _, answer = call(app, "GET", "/players/p7", query="colour=red")
    error = json.loads(answer)
    assert status == 400 and error["field"] == "colour" and "known: round" in error["error"]
    status, _, answer = call(app, "GET", "/players/0")
    assert status == 404 and json.loads(answer)["field"] == "id"
    status, _, _ = call(app, "POST", "/players", b"{}", "first=x")
    assert status == 400
    assert call(app, "GET", "/players/")[0] == 404  # a path parameter is never empty
    # the path's bytes as WSGI gives them (Latin-1) are read as UTF-8
    status, _, answer = call(app, "GET", "/players/" + "Zoë".encode().decode("latin-1"))
    assert status == 200 and json.loads(answer)["id"] == "Zoë"
    status, _, answer = call(app, "GET", "/players/\xff")
    assert status == 400 and json.loads(answer)["field"] == "path"


def test_the_built_in_table_answers_as_before(app):
    status, _, answer = call(app, "GET", "/nowhere")
    assert json.loads(answer)["error"].endswith(
        "(routes: GET /health, GET /criteria, GET /plugins, POST /standings, "
        "POST /explain, POST /ratings, GET /players/{id}, POST /players)"
    )
    status, headers, answer = call(app, "GET", "/standings")
    assert (status, headers["Allow"]) == (405, "POST")
    assert json.loads(answer)["error"] == "/standings takes POST"
    status, _, answer = call(app, "HEAD", "/health")
    assert (status, answer) == (200, b"")


def test_a_route_given_twice_is_refused():
    with pytest.raises(ValueError, match="POST /standings given twice"):
        Routes([*ROUTES, Route("POST", "/standings", player, query={"x": text})])


def test_the_schemas_of_the_table_are_documents_of_sodos_schema():
    for route in ROUTES:
        assert route.answer in catalog.NAMES, route.shown
        assert route.body is None or route.body in catalog.NAMES, route.shown
        assert route.body is None or route.method != "GET", route.shown
