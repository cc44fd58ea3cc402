"""``sodos serve`` against strangers who mean harm: slow clients, slow POSTs, requests
whose work grows past their bytes, rebinding pages, long keys, bad addresses and limits,
and signals while it starts. Each runs the real service in a child process.

Bounds asserted are the configured ones (``serve.request_timeout``,
``serve.queue_timeout + serve.timeout``) with room for a loaded machine, against inputs
that, without the mechanism, hold the service for ever or far past them.
"""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import socket
import subprocess
import threading
import time

import pytest
from service import Service, command, environment

pytest.importorskip("waitress", reason="sodos serve needs the serve extra (waitress)")

SMALL = {
    "format": "sodos-tournament",
    "version": 1,
    "rounds": 1,
    "players": [{"name": "Ann", "rank": "2d"}, {"name": "Bob", "rank": "1d"}],
    "games": [{"round": 1, "black": "Bob", "white": "Ann", "result": "B+"}],
}
#: Seconds a loaded 2-core machine may add to a configured bound (spawning a worker).
SLACK = 6


def strict(answer: bytes):
    """The JSON of an answer, refusing NaN and Infinity as strict JSON does."""

    def refuse(constant: str):
        raise AssertionError(f"not strict JSON: {constant}")

    return json.loads(answer, parse_constant=refuse)


def error_of(status: int, answer: bytes, expected: int) -> dict:
    assert status == expected, answer[:500]
    error = strict(answer)
    assert error["status"] == expected
    return error


class Trickle:
    """Connections that send a request one byte at a time, every ``every`` seconds:
    the head (``head``), or a complete head and then the body, or nothing at all.
    :attr:`closed` holds, per connection, the time the service closed it."""

    HEAD = (
        b"POST /standings HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100000\r\n"
    )

    def __init__(self, service: Service, count: int, kinds=("head", "body", "idle")):
        self.sockets, self.kinds = [], []
        for i in range(count):
            sock = socket.create_connection((service.host, service.port), timeout=10)
            kind = kinds[i % len(kinds)]
            if kind == "body":
                sock.sendall(self.HEAD + b"\r\n")
            self.sockets.append(sock)
            self.kinds.append(kind)
        self.started = time.monotonic()
        self.closed: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        sent = [0] * len(self.sockets)
        while not self.stop.is_set():
            for i, sock in enumerate(self.sockets):
                if i in self.closed:
                    continue
                readable, _, _ = select.select([sock], [], [], 0)
                try:
                    if readable and not sock.recv(4096):
                        raise ConnectionResetError
                    if self.kinds[i] != "idle":
                        text = self.HEAD if self.kinds[i] == "head" else b"{" * 100000
                        sock.send(text[sent[i] % len(text) : sent[i] % len(text) + 1])
                        sent[i] += 1
                except OSError:
                    self.closed[i] = time.monotonic() - self.started
            self.stop.wait(0.5)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        for sock in self.sockets:
            sock.close()


@pytest.fixture
def folder(tmp_path):
    return tmp_path


@pytest.mark.slow
def test_slow_requests_are_closed_at_the_deadline(folder):
    """A byte every 0.5 s keeps a connection active for ever; its request (head, or
    body) must still be complete within serve.request_timeout, and an idle connection
    lasts no longer."""
    service = Service(folder, "[serve]\nrequest_timeout = 2\nconcurrency = 1\n")
    trickle = Trickle(service, 6)
    try:
        deadline = time.monotonic() + 2 + SLACK + 10
        while len(trickle.closed) < 6 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(trickle.closed) == 6, f"open after {2 + SLACK + 10} s: {trickle.closed}"
        # not closed for idling: each was sending a byte every 0.5 s
        assert min(trickle.closed.values()) >= 1.5
        status, _, _ = service.request("GET", "/health", timeout=10)
        assert status == 200
    finally:
        trickle.close()
        service.stop()


def test_health_answers_while_slow_connections_fill_the_server(folder):
    """serve.max_connections slow connections and a deadline far away (60 s): the one
    that has waited longest is closed to let a new client in, at once."""
    config = "[serve]\nrequest_timeout = 60\nmax_connections = 12\nconcurrency = 1\n"
    service = Service(folder, config)
    trickle = Trickle(service, 14)
    try:
        time.sleep(1.5)
        started = time.monotonic()
        status, _, answer = service.request("GET", "/health", timeout=30)
        assert status == 200 and strict(answer)["status"] == "ok"
        assert time.monotonic() - started < 30 < 60  # before any deadline could help
        assert trickle.closed, "no slow connection was closed to make room"
    finally:
        trickle.close()
        service.stop()


@pytest.mark.slow
def test_slow_posts_hold_neither_health_nor_the_documented_bound(folder):
    """24 POSTs that would compute for 60 s, 1 worker, 2 may wait: each is answered
    (504 past serve.timeout, 503 when none is free or too many wait) within
    serve.queue_timeout + serve.timeout, and /health within that bound too."""
    config = (
        'plugins = ["sodos_fault_serve"]\n[serve]\nconcurrency = 1\nmax_waiting = 2\n'
        "timeout = 3\nqueue_timeout = 2\n"
    )
    service = Service(folder, config)
    bound = 2 + 3
    slow = json.dumps({**SMALL, "name": "sleep 60"}).encode()
    answers: list[tuple[int, dict, float]] = []

    def client() -> None:
        started = time.monotonic()
        status, headers, answer = service.post("/standings?criteria=SLEEP", slow, timeout=120)
        answers.append((status, {"headers": headers, "body": answer}, time.monotonic() - started))

    try:
        threads = [threading.Thread(target=client) for _ in range(24)]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        started = time.monotonic()
        status, _, _ = service.request("GET", "/health", timeout=120)
        health = time.monotonic() - started
        for thread in threads:
            thread.join(120)
        assert status == 200
        assert health < bound + SLACK, f"/health took {health:.1f} s"
        assert len(answers) == 24
        assert {status for status, _, _ in answers} <= {503, 504}
        slowest = max(elapsed for _, _, elapsed in answers)
        assert slowest < bound + SLACK, f"a POST took {slowest:.1f} s"
        refused = [a for s, a, _ in answers if s == 503]
        assert refused and all(a["headers"]["Retry-After"] == "1" for a in refused)
        limits = {strict(a["body"])["limit"] for a in refused}
        assert "serve.max_waiting" in limits
    finally:
        service.stop()


def test_work_past_the_limit_is_413_in_bounded_memory(folder):
    """1.3 MB declaring 64 rounds for 50 000 players (3.2 million player-rounds, ~450 MB
    to compute), under a 1 GiB address space for the service and its workers."""
    document = {
        **SMALL,
        "rounds": 64,
        "players": [{"name": f"p{i}", "rank": "1k"} for i in range(50_000)],
        "games": [{"round": 1, "black": 0, "white": 1, "result": "B+"}],
    }
    service = Service(folder, "[serve]\nconcurrency = 1\n", memory=1 << 30)
    try:
        status, _, answer = service.post("/standings?round=64", document)
        error = error_of(status, answer, 413)
        assert error["limit"] == "limits.max_player_rounds"
        assert "3200000 player-rounds" in error["error"]
        status, _, answer = service.post("/standings", SMALL)
        assert status == 200
    finally:
        service.stop()


def test_host_header_must_name_the_service(folder):
    service = Service(folder, '[serve]\nconcurrency = 1\nallowed_hosts = ["ranks.example"]\n')
    port = service.port
    try:
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
            assert service.request("GET", "/health", headers={"Host": host})[0] == 200, host
        assert service.request("GET", "/health", headers={"Host": "ranks.example"})[0] == 200
        for host in (f"attacker.example:{port}", "localhost:1", f"127.0.0.1.nip.io:{port}"):
            status, _, answer = service.request("GET", "/health", headers={"Host": host})
            error = error_of(status, answer, 421)
            assert error["field"] == "Host" and error["limit"] == "serve.allowed_hosts"
        status, _, answer = service.request(
            "POST",
            "/standings",
            json.dumps(SMALL).encode(),
            {"Content-Type": "application/json", "Host": f"attacker.example:{port}"},
        )
        assert status == 421 and error_of(status, answer, 421)["field"] == "Host"
    finally:
        service.stop()


def test_long_and_control_keys_are_echoed_short_and_escaped(folder):
    service = Service(folder, "[serve]\nconcurrency = 1\n")
    key = "\x1b[2J" + "k" * 20_000
    try:
        for answer in (
            service.post("/standings", {**SMALL, key: 1}),
            service.post("/standings", {**SMALL, "players": [{"name": "Ann", key: 1}]}),
            service.request("POST", "/standings?" + "q" * 3000 + "=1"),
        ):
            status, _, body = answer
            assert 400 <= status < 500
            error = strict(body)
            for value in error.values():
                if isinstance(value, str):
                    assert len(value) <= 1000
                    assert "\x1b" not in value and all(c >= " " for c in value)
            if "field" in error:
                assert len(error["field"]) <= 200
        status, _, body = service.post("/standings", {**SMALL, key: 1})
        assert "\\x1b" in strict(body)["field"] + strict(body)["error"]
    finally:
        service.stop()


def run_serve(folder, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*command(), "serve", "--port", "0", *args],
        cwd=folder,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "args, named",
    [
        (("--host", "999.1.1.1"), "--host"),
        (("--host", ""), "--host"),
        (("--host", "a b"), "--host"),
        (("-o", 'serve.host="999.1.1.1"'), "serve.host"),
        (("-o", "serve.concurrency=100000"), "serve.concurrency"),
        (("-o", "serve.max_connections=10000000"), "serve.max_connections"),
        (("-o", "serve.request_timeout=0"), "serve.request_timeout"),
    ],
)
def test_bad_address_or_size_is_one_line_naming_it(folder, args, named):
    started = time.monotonic()
    done = run_serve(folder, *args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert time.monotonic() - started < 30  # refused before any worker starts


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("delay", [0.7, 1.5, 3.0])
def test_stopping_while_starting_is_one_line(folder, stop, delay):
    (folder / "sodos.toml").write_text("[serve]\nconcurrency = 4\n", encoding="utf-8")
    process = subprocess.Popen(
        [*command(), "serve", "--port", "0", "--config", str(folder / "sodos.toml")],
        cwd=folder,
        env=environment(),
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own: Ctrl-C reaches every process of it
    )
    time.sleep(delay)
    if stop == signal.SIGINT:
        os.killpg(process.pid, stop)
    else:
        process.send_signal(stop)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) <= 2, err  # "stopped while starting", or listening then stopped
    assert process.returncode in (0, 130, -stop), err


def test_http_client_sees_strict_json_for_every_refusal(folder):
    service = Service(folder, "[serve]\nconcurrency = 1\nmax_request_bytes = 1000\n")
    try:
        connection = http.client.HTTPConnection(service.host, service.port, timeout=30)
        cases = [
            ("GET", "/nowhere", None, {}),
            ("DELETE", "/health", None, {}),
            ("POST", "/standings", b"x" * 2000, {"Content-Type": "application/json"}),
            ("POST", "/standings", b"{", {"Content-Type": "application/json"}),
            ("POST", "/standings", b"{}", {"Content-Type": "text/plain"}),
            ("POST", "/standings?round=NaN", b"{}", {"Content-Type": "application/json"}),
        ]
        for method, path, body, headers in cases:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            answer = response.read()
            assert response.status >= 400
            strict(answer)
            if response.will_close:
                connection.close()
                connection = http.client.HTTPConnection(service.host, service.port, timeout=30)
        connection.close()
    finally:
        service.stop()
