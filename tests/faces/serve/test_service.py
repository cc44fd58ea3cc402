"""``sodos serve``: the real service on a free loopback port, driven by a real HTTP client.

Every route, every limit and every error case; the same tournament gives byte-identical
documents through the CLI, the Python API and HTTP; a failing plugin, a dying worker
and a request past its time limit never take the service down.
"""

from __future__ import annotations

import io
import json
import socket
import threading
import time
import urllib.request
import wsgiref.simple_server
import wsgiref.validate
from pathlib import Path

import pytest
from child import sodos_process
from conftest import shared_path
from service import FAULTS, Service

from sodos_plugin import Host
from sodos_plugin.readers import json_tournament
from sodos_plugin.schemas import catalog

pytest.importorskip("waitress", reason="sodos serve needs the serve extra (waitress)")

JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")

SMALL = {
    "format": "sodos-tournament",
    "version": 1,
    "name": "Club league",
    "rounds": 3,
    "players": [
        {"name": "Ann", "id": "p1", "rank": "2d", "club": "Ber", "country": "DE"},
        {"name": "Bob", "id": "p2", "rank": "1d"},
        {"name": "Cid", "id": "p3", "rank": "1k"},
        {"name": "Dan", "id": "p4", "rank": "3k", "smms_correction": 1},
    ],
    "games": [
        {"round": 1, "black": "Bob", "white": "Ann", "result": "B+"},
        {"round": 1, "black": "Dan", "white": "Cid", "result": "W+"},
        {"round": 2, "black": "Cid", "white": "Ann", "result": "W+", "komi": 6.5},
        {"round": 2, "black": "p4", "white": "p2", "result": "B+", "handicap": 2},
        {"round": 3, "black": 3, "white": 0, "result": "W+", "by_default": True},
        {"round": 3, "black": "Bob", "white": "Cid", "result": "="},
    ],
    "settings": {"system": "mcmahon", "mcmahon": {"bar": "1d"}},
}

CONFIG = """\
plugins = ["sodos_fault_serve"]

[serve]
timeout = 3
concurrency = 2
queue_timeout = 20
max_waiting = 16
max_request_bytes = 200000

[plugin.builtin.json_tournament]
max_values = 20000
max_depth = 12
"""


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serve")
    running = Service(folder, CONFIG)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def small_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("doc") / "small.json"
    path.write_text(json.dumps(SMALL), encoding="utf-8")
    return path


@pytest.fixture
def cli(sodos):
    """``cli(service, *args)``: what ``sodos ARGS`` prints (in this process) with the
    service's config and plugins, as bytes."""

    def run(service: Service, *args: str) -> bytes:
        env = {"PYTHONPATH": str(FAULTS)}
        done = sodos(*args, "--config", service.config, env=env, entry_points=True)
        assert done.status == 0, done.err
        return done.out.encode("utf-8")

    return run


def error_of(status: int, body: bytes, expected_status: int, field: str | None = None) -> dict:
    assert status == expected_status, body
    answer = json.loads(body.decode("ascii"))  # error bodies are ASCII
    assert answer["status"] == expected_status
    if field is not None:
        assert answer.get("field") == field, answer
    return answer


# -- the GET routes ------------------------------------------------------------------------


def test_health(service):
    status, headers, body = service.request("GET", "/health")
    assert status == 200
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    health = json.loads(body)
    assert health["status"] == "ok" and health["workers"] == 2


def test_criteria_is_what_the_cli_prints(cli, service):
    status, _, body = service.request("GET", "/criteria")
    assert status == 200
    assert body == cli(service, "plugins", "--kind", "criterion", "--format", "json")
    rows = {row["name"]: row for row in json.loads(body)}
    assert "SODOS" in rows["builtin.sodos"]["criteria"]
    # the service's config loads the fault plugin: its criteria are offered too
    assert {"SLEEP", "CRASH", "BOOM"} <= set(rows["sodos_fault_serve"]["criteria"])


def test_plugins_is_what_the_cli_prints(cli, service):
    status, _, body = service.request("GET", "/plugins")
    assert status == 200
    assert body == cli(service, "plugins", "--format", "json")


# -- the same bytes through the CLI, the Python API and HTTP ----------------------------------


def python_api(config: Path, path: Path, **options) -> bytes:
    host = Host(config_file=config)
    read = host.read([path])
    standings = host.standings(read.tournament, warnings=read.warnings, **options)
    stream = io.StringIO()
    host.write(standings, "json", stream)
    return stream.getvalue().encode("utf-8")


def test_standings_byte_identical_cli_api_http(cli, service, small_file, monkeypatch):
    monkeypatch.syspath_prepend(str(FAULTS))  # the config names the fault plugin
    status, _, body = service.post("/standings", small_file.read_bytes())
    assert status == 200
    by_cli = cli(service, "standings", str(small_file), "--format", "json")
    assert body == by_cli == python_api(service.config, small_file)
    document = json.loads(body)
    assert [row["player"]["id"] for row in document["standings"]] == ["p1", "p2", "p3", "p4"]


def test_real_tournament_byte_identical(service, cli, sodos, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(FAULTS))
    xml = shared_path(*JUVISY)
    converted = tmp_path / "juvisy.json"
    done = sodos("convert", xml, "--to", "json", "--output", converted)
    assert done.status == 0, done.err
    status, _, body = service.post("/standings?round=3", converted.read_bytes())
    assert status == 200
    assert body == cli(service, "standings", str(converted), "--format", "json", "--round", "3")
    assert body == python_api(service.config, converted, round=3)
    # and the values are the XML file's own (OpenGotha's)
    by_xml = json.loads(cli(service, "standings", str(xml), "--format", "json", "--round", "3"))
    assert json.loads(body)["standings"] == by_xml["standings"]


def test_query_options_are_the_cli_options(cli, service, small_file):
    query = "/standings?round=2&criteria=mms,sos,sodos&system=swiss"
    status, _, body = service.post(query, small_file.read_bytes())
    assert status == 200
    assert body == cli(
        service,
        "standings",
        str(small_file),
        "--format",
        "json",
        "--round",
        "2",
        "--criteria",
        "mms,sos,sodos",
        "--system",
        "swiss",
    )
    assert json.loads(body)["criteria"] == ["MMS", "SOS", "SODOS"]


def test_explain_byte_identical_and_by_id(cli, service, small_file):
    status, _, body = service.post("/explain?player=Dan", small_file.read_bytes())
    assert status == 200
    assert body == cli(service, "explain", "Dan", str(small_file), "--format", "json")
    status, _, by_id = service.post("/explain?id=p4", small_file.read_bytes())
    assert status == 200 and by_id == body
    assert json.loads(body)["player"] == {
        "name": "Dan",
        "rank": "3k",
        "country": "",
        "club": "",
        "id": "p4",
    }


def test_documents_match_their_schemas(service, small_file):
    jsonschema = pytest.importorskip("jsonschema")
    _, _, standings = service.post("/standings", small_file.read_bytes())
    _, _, explained = service.post("/explain?player=Ann", small_file.read_bytes())
    dated = json.loads(small_file.read_bytes())
    dated["date"] = "2026-03-14"
    _, _, rated = service.post("/ratings", json.dumps(dated).encode())
    _, _, health = service.request("GET", "/health")
    _, _, plugins = service.request("GET", "/plugins")
    for name, answer in [("standings", standings), ("explain", explained), ("ratings", rated),
                         ("health", health), ("plugins", plugins)]:  # fmt: skip
        jsonschema.validate(json.loads(answer), catalog.load(name))


# -- bad requests: 4xx naming the field ---------------------------------------------------------


def bad(document: dict, **changes) -> bytes:
    copy = json.loads(json.dumps(document))
    for path, value in changes.items():
        node = copy
        parts = path.split("__")
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        last = parts[-1]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return json.dumps(copy).encode()


BAD_BODIES = [
    (b'{"format": "sodos-tournament", ', "body", "not valid JSON"),
    (bad(SMALL, games__0__white="Zed"), "games[0].white", "no player has the id or name"),
    (bad(SMALL, games__5__round=4), "games[5].round", "after the last round"),
    (bad(SMALL, games__1__result="B+R"), "games[1].result", "expected one of"),
    (bad(SMALL, players__1__rank="3 stars"), "players[1].rank", "not a Go rank"),
    (bad(SMALL, players__1__rnak="3d"), "players[1].rnak", "did you mean rank"),
    (bad(SMALL, version=3), "version", "newer than this sodos reads"),
    (bad(SMALL, settings={"scoring": {"bye": "lots"}}), "settings.scoring.bye", "points"),
    (bad(SMALL, settings={"plugins": ["evil"]}), "settings.plugins", "unknown field"),
    (bad(SMALL, settings={"serve": {"timeout": 999}}), "settings.serve", "unknown field"),
    (bad(SMALL, players__0__name="\ud800x"), "players[0].name", "surrogate"),
    (b'{"rounds": NaN}', "body", "NaN"),
    (b"[" * 50 + b"]" * 50, "body", "nested deeper than 12"),
    (json.dumps({"a": list(range(30000))}).encode(), "body", "more than 20000 values"),
    (b"\xff\xfe{}", "body", "not UTF-8"),
    (b'{"format": "sodos-tournament", "format": "x"}', "format", "given twice"),
]


@pytest.mark.parametrize("body, field, message", BAD_BODIES)
def test_bad_tournament_is_400_naming_the_field(service, body, field, message):
    status, _, answer = service.post("/standings", body)
    error = error_of(status, answer, 400, field)
    assert message in error["error"], error


BAD_QUERIES = [
    ("/standings?round=9", "round", "outside 0..3"),
    ("/standings?round=two", "round", "round number"),
    ("/standings?criteria=MMS,SODOZ", "criteria", "unknown criterion"),
    ("/standings?system=league", "system", "expected one of"),
    ("/standings?colour=red", "colour", "unknown query parameter"),
    ("/standings?round=1&round=2", "round", "given twice"),
    ("/explain", "player", "give the player"),
    ("/explain?player=Zed", "player", "no player called"),
    ("/explain?id=p9", "id", "no player has the id"),
    # the real reason and the limit, not "not key=value pairs in UTF-8"
    ("/standings?" + "&".join(f"k{i}=1" for i in range(17)), "query", "17 query parameters"),
    ("/standings?" + "&".join(f"k{i}=1" for i in range(17)), "query", "limit of query"),
    ("/standings?round=%ff", "query", "not UTF-8"),
]


@pytest.mark.parametrize("path, field, message", BAD_QUERIES)
def test_bad_query_is_400_naming_the_parameter(service, small_file, path, field, message):
    status, _, answer = service.post(path, small_file.read_bytes())
    error = error_of(status, answer, 400, field)
    assert message in error["error"], error


def test_http_level_errors(service, small_file):
    body = small_file.read_bytes()
    status, _, answer = service.request("POST", "/standings", body, {"Content-Type": "text/plain"})
    error_of(status, answer, 415, "Content-Type")
    status, _, answer = service.request(
        "POST", "/standings", body, {"Content-Type": "application/json; charset=latin-1"}
    )
    error_of(status, answer, 415, "Content-Type")
    status, headers, answer = service.request("GET", "/standings")
    error_of(status, answer, 405, "method")
    assert headers["Allow"] == "POST"
    status, headers, answer = service.request("DELETE", "/health")
    error_of(status, answer, 405, "method")
    status, _, answer = service.request("GET", "/admin")
    error_of(status, answer, 404, "path")
    status, _, answer = service.request("GET", "/health?" + "x=1&" * 2000)
    error_of(status, answer, 414, "query")


def test_body_over_the_limit_is_413(service):
    big = json.dumps({"name": "x" * 250_000}).encode()
    status, _, answer = service.post("/standings", big)
    error = error_of(status, answer, 413, "body")  # JSON, though waitress answers it
    assert error["limit"] == "serve.max_request_bytes" and "200000" in error["error"]


def test_body_limit_without_content_length(service):
    """Chunked transfer: the server's own limit (set from serve.max_request_bytes) holds."""
    with socket.create_connection((service.host, service.port), timeout=30) as connection:
        chunk = b"x" * 100_000
        head = (
            b"POST /standings HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        connection.sendall(head)
        try:
            for _ in range(3):
                connection.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            connection.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may close as soon as the limit is passed
        answer = connection.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_error_bodies_match_the_error_schema(service, small_file):
    jsonschema = pytest.importorskip("jsonschema")
    answers = [service.post("/standings", body)[2] for body, _, _ in BAD_BODIES[:4]]
    answers.append(service.request("GET", "/nowhere")[2])
    for answer in answers:
        jsonschema.validate(json.loads(answer), catalog.load("error"))


# -- failures inside: 500, nothing secret, the service goes on ---------------------------------


def test_plugin_failure_is_500_naming_nothing_secret(service, small_file):
    status, _, answer = service.post("/standings?criteria=BOOM", small_file.read_bytes())
    error = error_of(status, answer, 500)
    assert error["plugin"] == "sodos_fault_serve" and "incident" in error
    assert b"secret" not in answer and b"token" not in answer and b"/home" not in answer
    # the details stay in the log (written by a worker: the drain thread may read it later)
    assert service.wait_for_log(error["incident"])
    status, _, _ = service.post("/standings", small_file.read_bytes())
    assert status == 200


def test_a_dying_worker_is_500_and_replaced(service, small_file):
    status, _, answer = service.post("/standings?criteria=CRASH", small_file.read_bytes())
    error = error_of(status, answer, 500)
    assert error["error"] == "internal error" and "incident" in error
    for _ in range(3):  # the other worker, then the replacement, answer
        status, _, _ = service.post("/standings", small_file.read_bytes())
        assert status == 200


@pytest.mark.slow
def test_time_limit_is_504_and_the_worker_is_replaced(service):
    slow = bad(SMALL, name="sleep 60")
    started = time.monotonic()
    status, _, answer = service.post("/standings?criteria=SLEEP", slow)
    elapsed = time.monotonic() - started
    error = error_of(status, answer, 504)
    assert error["limit"] == "serve.timeout"
    assert elapsed < 30  # 3 s configured; generous for a loaded machine
    deadline = time.monotonic() + 60
    while json.loads(service.request("GET", "/health")[2])["restarts"] < 1:
        assert time.monotonic() < deadline, "the killed worker was not replaced"
        time.sleep(0.2)
    status, _, _ = service.post("/standings", json.dumps(SMALL).encode())
    assert status == 200


def test_concurrent_requests_all_answered_alike(service, small_file):
    body = small_file.read_bytes()
    answers: list[tuple[int, bytes]] = []

    def client() -> None:
        status, _, answer = service.post("/standings", body)
        answers.append((status, answer))

    threads = [threading.Thread(target=client) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(answers) == 12
    assert {status for status, _ in answers} == {200}
    assert len({answer for _, answer in answers}) == 1


@pytest.mark.slow
def test_busy_is_503_with_retry_after(tmp_path):
    config = CONFIG.replace("concurrency = 2", "concurrency = 1").replace(
        "queue_timeout = 20", "queue_timeout = 0.3"
    )
    busy = Service(tmp_path, config)
    try:
        slow = bad(SMALL, name="sleep 2")
        first: list[int] = []
        thread = threading.Thread(
            target=lambda: first.append(busy.post("/standings?criteria=SLEEP", slow)[0])
        )
        thread.start()
        time.sleep(0.5)
        status, headers, answer = busy.post("/standings", json.dumps(SMALL).encode())
        error = error_of(status, answer, 503)
        assert error["limit"] == "serve.concurrency" and headers["Retry-After"] == "1"
        thread.join(60)
        assert first == [200]
    finally:
        busy.stop()


def test_binds_loopback_by_default(tmp_path):
    running = Service(tmp_path, "[serve]\nconcurrency = 1\n")
    try:
        assert running.host == "127.0.0.1"
        assert running.request("GET", "/health")[0] == 200
    finally:
        running.stop()
    assert running.process.returncode == 0
    assert running.log[-1].strip() == "sodos serve: stopped"


def test_bad_service_config_is_one_line_exit_2(tmp_path):
    (tmp_path / "sodos.toml").write_text("[serve]\ntimeout = -1\n", encoding="utf-8")
    done = sodos_process(  # a child: a service that wrongly started would block this process
        "serve", "--config", tmp_path / "sodos.toml", cwd=tmp_path,
        env={"PYTHONPATH": str(FAULTS)}, entry_points=True, script=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "serve.timeout" in done.stderr and "Traceback" not in done.stderr


# -- the WSGI application in another server ----------------------------------------------------


def test_wsgi_app_mounts_in_another_server(host, small_file):
    """PEP 3333 checked by wsgiref's validator, served by the standard library's server."""
    from sodos_plugin.serve import make_app

    app = make_app({"serve": {"concurrency": 1}}, config_file=False, entry_points=False)
    server = wsgiref.simple_server.make_server(
        "127.0.0.1", 0, wsgiref.validate.validator(app), handler_class=_QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/standings",
            data=small_file.read_bytes(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            body = response.read()
        tournament, warnings = json_tournament.parse(small_file.read_bytes(), "request")
        stream = io.StringIO()
        host.write(host.standings(tournament, warnings=warnings), "json", stream)
        assert body == stream.getvalue().encode("utf-8")
    finally:
        server.shutdown()
        server.server_close()
        app.close()


class _QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    def log_message(self, *args) -> None:
        pass


# -- ratings --------------------------------------------------------------------------------


def test_ratings_is_the_document_the_cli_prints(cli, service, small_file, tmp_path):
    dated = json.loads(small_file.read_text("utf-8"))
    dated["date"] = "2026-03-14"
    path = tmp_path / "dated.json"
    path.write_text(json.dumps(dated), encoding="utf-8")
    status, _, body = service.post("/ratings", path.read_bytes())
    assert status == 200, body
    by_cli = cli(service, "ratings", str(path), "--format", "json", "--no-cache")
    # the same document; only the input's name differs (a file there, the request here)
    assert body.decode("utf-8").replace('"request', f'"{path}') == by_cli.decode("utf-8")
    document = json.loads(body)
    assert document["system"] == "egf" and document["games"] == 5  # 6 games, 1 forfeit
    status, _, glicko = service.post("/ratings?system=glicko2&initial=ranks", path.read_bytes())
    assert status == 200 and json.loads(glicko)["system"] == "glicko2"


def test_ratings_of_a_history_and_its_errors(service, small_file):
    dated = json.loads(small_file.read_text("utf-8"))
    dated["date"] = "2026-03-14"
    later = dict(dated, name="Club league 2", date="2026-04-11")
    status, _, body = service.post("/ratings", json.dumps([dated, later]).encode())
    assert status == 200, body
    assert json.loads(body)["events"] == 2
    status, _, answer = service.post("/ratings", json.dumps([dated, {"format": 1}]).encode())
    error_of(status, answer, 400, "[1].format")
    status, _, answer = service.post("/ratings?system=elo9", json.dumps(dated).encode())
    error_of(status, answer, 400, "system")
    # the parameter the client sent, not the core's name for it
    status, _, answer = service.post("/ratings?rating=nope", json.dumps(dated).encode())
    assert "unknown rating system" in error_of(status, answer, 400, "rating")["error"]
    status, _, answer = service.post("/ratings?initial=mine", json.dumps(dated).encode())
    error_of(status, answer, 400, "initial")
    status, _, answer = service.post("/ratings", b"[]")
    error_of(status, answer, 400, "body")
