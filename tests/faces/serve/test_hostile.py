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
import resource
import select
import signal
import socket
import subprocess
import threading
import time

import pytest
from child import sodos_process
from service import FAULTS, Service, command, environment

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
    """``sodos serve`` as a child (a service that wrongly started would block this process)."""
    return sodos_process(
        "serve", "--port", "0", *args, cwd=folder, env={"PYTHONPATH": str(FAULTS)},
        entry_points=True, script=True, timeout=60,
    )  # fmt: skip


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


#: The criteria that make a standings answer long: about 550 bytes a player, 19 bytes of
#: answer per byte of body (a row per player, a value per criterion).
LONG_ROWS = (
    "NBW,MMS,SOSW,SOSM,SOS,SOSW-1,SOSM-1,SOS-1,SOSW-2,SOSM-2,SOS-2,SOSOSW,SOSOSM,SOSOS,"
    "SODOSW,SODOSM,SODOS,SODOMS,CUSSW,CUSSM,CUSS,DC,SDC,RANK,CPS"
)


class SlowReaders:
    """Clients that pipeline requests and read the answers slowly (256 bytes every
    0.5 s, through a 4 KB receive buffer), each reconnecting a second after the service
    closes it: ``gets`` pipeline 1000 ``GET /plugins`` (7 MB of answers per 8 KB the
    server reads, more than the kernel's buffers hold); ``posts`` pipeline a POST whose
    answer is longer than 16 MiB (waitress's high-water mark) and a GET behind it, and
    start again when refused (503: the one worker is busy)."""

    def __init__(self, service: Service, gets: int, posts: int, players: int = 20_000):
        self.service = service
        players = [{"name": str(i), "rank": "1k"} for i in range(players)]
        games = [{"round": 1, "black": 0, "white": 1, "result": "B+"}]
        document = {**SMALL, "players": players, "games": games}
        body = json.dumps(document, separators=(",", ":")).encode()
        self.post = (
            b"POST /standings?criteria=" + LONG_ROWS.encode() + b" HTTP/1.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
            % len(body)
            + body
            + b"GET /plugins HTTP/1.1\r\n\r\n"
        )
        self.get = b"GET /plugins HTTP/1.1\r\n\r\n" * 1000
        self.stop = threading.Event()
        self.answered = 0  # POSTs answered 200: each held a thread in the old service
        self.threads = [
            threading.Thread(target=self._client, args=(self.get,), daemon=True)
            for _ in range(gets)
        ] + [
            threading.Thread(target=self._client, args=(self.post,), daemon=True)
            for _ in range(posts)
        ]
        for thread in self.threads:
            thread.start()

    def _client(self, requests: bytes) -> None:
        while not self.stop.is_set():
            sock = socket.socket()
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.settimeout(10)
                sock.connect((self.service.host, self.service.port))
                sock.sendall(requests)
                head = sock.recv(12)
                if head.startswith(b"HTTP/1.1 200") and requests is self.post:
                    self.answered += 1
                if head.startswith(b"HTTP/1.1 503"):
                    continue  # refused at once: ask again
                while not self.stop.is_set() and sock.recv(256):
                    self.stop.wait(0.5)
            except OSError:
                pass
            finally:
                sock.close()
            self.stop.wait(1)

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(15)


@pytest.mark.slow
def test_health_answers_under_slow_reading_pipelining_clients(folder):
    """20 clients pipeline requests and read the answers slowly, more than
    serve.max_connections, a deadline far away (60 s): a connection whose client owes a
    read is evicted as one waiting for its request is, so GET /health is answered within
    2 s, every time, for 20 s. (Before: only connections waiting for their request were
    evicted — the newcomer itself, before its request was read.)"""
    config = "[serve]\nrequest_timeout = 60\nmax_connections = 16\nconcurrency = 1\n"
    service = Service(folder, config)
    clients = SlowReaders(service, gets=20, posts=0)
    try:
        time.sleep(2)
        slowest, answered = 0.0, 0
        end = time.monotonic() + 20
        while time.monotonic() < end:
            started = time.monotonic()
            try:
                status, _, answer = service.request("GET", "/health", timeout=2)
            except OSError as error:
                raise AssertionError(f"GET /health unanswered: {error!r}") from None
            slowest = max(slowest, time.monotonic() - started)
            assert status == 200 and strict(answer)["status"] == "ok"
            answered += 1
            time.sleep(0.25)
        assert slowest < 2
        assert answered >= 20
    finally:
        clients.close()
        service.stop()


def test_a_client_slow_to_read_its_answers_is_closed_at_the_deadline(folder):
    """The deadline counts the time the client takes to read what was sent, as it
    counts the time it takes to send its request: a client that pipelines 1000
    requests and reads their answers at about 600 KB/s (7 MB each time the server reads
    8 KB of them) is closed at serve.request_timeout, though bytes flow all the time.
    (Before: a connection sending an answer was closed only after the deadline without
    a byte taken.)"""
    service = Service(folder, "[serve]\nrequest_timeout = 2\nconcurrency = 1\n")
    sock = socket.create_connection((service.host, service.port), timeout=10)
    started = time.monotonic()
    read, closed_after = 0, None
    try:
        sock.sendall(b"GET /plugins HTTP/1.1\r\n\r\n" * 1000)
        while time.monotonic() - started < 2 + SLACK + 10:
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                data = b""
            if not data:
                closed_after = time.monotonic() - started
                break
            read += len(data)
            time.sleep(0.1)
        assert closed_after is not None, f"open after {2 + SLACK + 10} s, {read} bytes read"
        assert 1.5 < closed_after < 2 + SLACK, f"closed after {closed_after:.1f} s"
        assert read > 256 << 10  # it was reading, all along
    finally:
        sock.close()
        service.stop()


def read_until_closed(sock: socket.socket, seconds: float) -> tuple[bytes, bool]:
    """What the service sends, and whether it closed the connection within ``seconds``."""
    sock.settimeout(seconds)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except TimeoutError:
        return data, False
    except ConnectionResetError:
        pass
    return data, True


@pytest.mark.parametrize(
    "version, framing",
    [
        (b"HTTP/1.1", b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n"),
        (b"HTTP/1.1", b"Transfer-Encoding: chunked\r\nContent-Length: %d\r\n"),
        (b"HTTP/1.0", b"Connection: keep-alive\r\nTransfer-Encoding: chunked\r\n"),
    ],
)
def test_content_length_and_chunked_together_are_refused_and_closed(folder, version, framing):
    """RFC 9112 §6.3: a front proxy that counts the body by Content-Length sends the
    bytes after the chunked body as part of this request; the service must not answer
    them as a request of their own. Refused (400), and the connection closed."""
    service = Service(folder, "[serve]\nconcurrency = 1\n")
    host = service.address.encode()
    smuggled = b"GET /health HTTP/1.1\r\nHost: " + host + b"\r\n\r\n"
    body = b"0\r\n\r\n" + smuggled
    head = (
        b"POST /standings " + version + b"\r\nHost: " + host + b"\r\n"
        b"Content-Type: application/json\r\n" + framing.replace(b"%d", b"%d" % len(body)) + b"\r\n"
    )
    try:
        with socket.create_connection((service.host, service.port), timeout=10) as sock:
            sock.sendall(head + body)
            answer, closed = read_until_closed(sock, 10)
        assert answer.startswith(b"HTTP/1.") and answer[8:13] == b" 400 ", answer[:200]
        head, rest = answer.split(b"\r\n\r\n", 1)
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        assert len(rest) == length, answer  # one answer: none to the smuggled GET
        error = strict(rest)
        assert error["field"] == "Transfer-Encoding" and "RFC 9112" in error["error"]
        assert closed, "the connection stayed open after the refusal"
        assert service.request("GET", "/health")[0] == 200  # the service goes on
    finally:
        service.stop()


def test_sigterm_while_posts_compute_stops_at_once_and_cleanly(folder):
    """SIGTERM while 4 POSTs compute (2 workers, 2 waiting): every POST answered 503
    (the service is stopping), no traceback, no "a worker died" incident, exit 0 with
    "stopped" as the last line, and in well under waitress's 5 s of waiting for
    threads. A second signal during the stop changes nothing."""
    config = 'plugins = ["sodos_fault_serve"]\n[serve]\nconcurrency = 2\n'
    service = Service(folder, config)
    slow = json.dumps({**SMALL, "name": "sleep 60"}).encode()
    answers: list = []

    def client() -> None:
        try:
            answers.append(service.post("/standings?criteria=SLEEP", slow, timeout=60))
        except OSError as error:
            answers.append(error)

    threads = [threading.Thread(target=client) for _ in range(4)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while strict(service.request("GET", "/health")[2])["idle"] and time.monotonic() < deadline:
        time.sleep(0.1)  # until both workers compute
    time.sleep(0.3)
    started = time.monotonic()
    service.process.send_signal(signal.SIGTERM)
    time.sleep(0.05)
    service.process.send_signal(signal.SIGINT)
    try:
        service.process.wait(30)
    finally:
        service.stop()
    elapsed = time.monotonic() - started
    for thread in threads:
        thread.join(30)
    service.reader.join(10)
    log = "".join(service.log)
    assert "Traceback" not in log and "incident" not in log, log
    assert service.process.returncode == 0, log
    assert [line.split(" on ")[0] for line in log.strip().splitlines()] == [
        "sodos serve: listening",
        "sodos serve: stopped",
    ], log
    assert elapsed < 4, f"the stop took {elapsed:.1f} s"
    assert len(answers) == 4
    for answer in answers:
        if isinstance(answer, tuple):  # answered before the connection closed
            status, headers, body = answer
            assert status == 503 and strict(body)["error"] == "the service is stopping"
            assert headers["Retry-After"] == "1"


@pytest.mark.slow
def test_slow_readers_of_long_answers_hold_no_thread(folder):
    """5 clients (as many as the server's threads: 1 computing, 0 waiting, 4 spare) each
    pipeline a POST with a 27 MB answer and a GET, and read slowly: waitress made the
    thread wait while more than 16 MiB of its connection's answers were unread, so all
    five threads waited on clients and GET /health was never answered. No thread waits
    on a client now: /health is answered within 2 s, every time."""
    config = "[serve]\nrequest_timeout = 60\nconcurrency = 1\nmax_waiting = 0\n"
    service = Service(folder, config)
    clients = SlowReaders(service, gets=0, posts=5, players=50_000)
    try:
        deadline = time.monotonic() + 120
        while clients.answered < 5 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert clients.answered >= 5, f"{clients.answered} long answers in 120 s"
        end = time.monotonic() + 5
        while time.monotonic() < end:
            started = time.monotonic()
            try:
                status, _, _ = service.request("GET", "/health", timeout=2)
            except OSError as error:
                raise AssertionError(f"GET /health unanswered: {error!r}") from None
            assert status == 200 and time.monotonic() - started < 2
            time.sleep(0.25)
    finally:
        clients.close()
        service.stop()


def test_a_thousand_connections_do_not_end_the_service(folder):
    """1100 open connections, within serve.max_connections: the server's descriptors
    pass 1023, where select() fails (it ended the service: "internal error: ValueError:
    filedescriptor out of range in select()"); /health is answered."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2500:
        pytest.skip(f"the descriptor limit ({hard}) is too low for 1100 connections")
    wanted = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))  # both sides
    sockets = []
    service = None
    try:
        service = Service(folder, "[serve]\nconcurrency = 1\nmax_connections = 1200\n")
        for _ in range(1100):
            sockets.append(socket.create_connection((service.host, service.port), timeout=10))
        time.sleep(1)
        status, _, answer = service.request("GET", "/health", timeout=30)
        assert status == 200 and strict(answer)["status"] == "ok"
        assert service.process.poll() is None
    finally:
        for sock in sockets:
            sock.close()
        if service is not None:
            service.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
