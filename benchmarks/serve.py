"""``sodos serve`` under load on loopback, beside its HTTP floor and the CLI, in one run.

A generated tournament (default 200 players, 7 rounds) is posted ``--requests`` times
(default 2 000) by ``--clients`` concurrent clients (default 8, one keep-alive
connection each) to ``POST /standings`` of a real ``sodos serve`` on a free loopback
port. Printed: requests/s, p50/p99 latency, errors (any answer that is not 200 with the
expected bytes; must be 0), and the service's peak memory (resident set of the server
and its worker processes, sampled every 20 ms).

Two baselines, in the same run, with the same body and clients:

* **the yardstick**: the same waitress server, with the settings ``sodos serve`` gives it
  (threads, connection limit, body limit, channel timeout), whose application reads the
  body and answers the stored standings document (the same bytes): what serving costs
  with no work at all. The ratio *service / yardstick* is how near sodos comes to its
  own HTTP floor (target: at least 0.2, and p99 at most 50 ms at 8 clients).
* the CLI, ``sodos standings FILE --format json`` as one subprocess per request,
  ``--baseline-requests`` times (default 200; 0 skips it).

Both servers run side by side, loaded in turn in batches of ``--batch`` requests (default
250) until each had ``--requests``: the machine may be shared and its speed change over
seconds, and alternating puts both under the same conditions (read the ratios, not the
absolute figures). ``--cycles N`` does that N times and prints each cycle's ratio.
Bounded: every request has a timeout, the whole run stops after ``--max-seconds``, and
only 127.0.0.1 is contacted. Usage::

    python benchmarks/serve.py                      # the standard run
    python benchmarks/serve.py --requests 200 --baseline-requests 20
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sodos_plugin import Host
from sodos_plugin.cli.serve import SPARE_THREADS

RANKS = [f"{k}k" for k in range(20, 0, -1)] + [f"{d}d" for d in range(1, 8)]


def tournament(players: int, rounds: int, seed: int = 1) -> dict:
    """A McMahon tournament: random pairings, stronger players win more often."""
    rng = random.Random(seed)
    ranks = sorted((rng.randrange(len(RANKS)) for _ in range(players)), reverse=True)
    roster = [
        {"name": f"Player {i:04d}", "id": f"p{i}", "rank": RANKS[r], "country": "XX"}
        for i, r in enumerate(ranks)
    ]
    games, byes = [], []
    for r in range(1, rounds + 1):
        order = list(range(players))
        rng.shuffle(order)
        if len(order) % 2:
            byes.append({"round": r, "player": order.pop()})
        for a, b in zip(order[::2], order[1::2]):
            stronger = a if ranks[a] >= ranks[b] else b
            winner = stronger if rng.random() < 0.65 else (b if stronger == a else a)
            result = "B+" if winner == a else "W+"
            games.append({"round": r, "black": a, "white": b, "result": result})
    return {
        "format": "sodos-tournament",
        "version": 1,
        "name": f"Load test ({players} players, {rounds} rounds)",
        "rounds": rounds,
        "players": roster,
        "games": games,
        "byes": byes,
        "settings": {"system": "mcmahon", "mcmahon": {"bar": "3d"}},
    }


def sodos_command() -> list[str]:
    script = Path(sys.executable).with_name("sodos")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sodos_plugin.cli"]


def descendants(root: int) -> list[int]:
    """A process and all its descendants (Linux /proc): one pass over every process."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += [child for child, parent in parents.items() if parent == pid]
    return found


def rss_kib(pids: list[int]) -> int:
    """The resident memory of ``pids`` together, in KiB (a process gone counts 0)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError):
            continue
    return total


def tree_rss_kib(root: int) -> int:
    """Resident memory of a process and all its descendants, in KiB."""
    return rss_kib(descendants(root))


class Sampler(threading.Thread):
    """The peak resident memory of a process tree: its members found again every half
    second (a pass over all of /proc costs the client's process milliseconds), their
    memory read every 20 ms (a few small files)."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0, threading.Event()

    def run(self) -> None:
        pids, found_at = descendants(self.pid), time.monotonic()
        while not self.stop.is_set():
            if time.monotonic() - found_at > 0.5:
                pids, found_at = descendants(self.pid), time.monotonic()
            self.peak = max(self.peak, rss_kib(pids))
            self.stop.wait(0.02)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def load(count: int, clients: int, deadline: float, one_request) -> tuple[list[float], int, float]:
    """``count`` calls of ``one_request(state) -> ok`` from ``clients`` threads."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    remaining = [count]

    def client() -> None:
        nonlocal errors
        state: dict = {}
        while time.monotonic() < deadline:
            with lock:
                if remaining[0] == 0:
                    break
                remaining[0] -= 1
            started = time.perf_counter()
            try:
                ok = one_request(state)
            except Exception:
                ok = False
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                errors += not ok
        if state.get("connection"):
            state["connection"].close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors + remaining[0], time.perf_counter() - started


def report(label: str, latencies: list[float], errors: int, wall: float) -> float:
    rate = len(latencies) / wall if wall else 0.0
    print(
        f"{label:<28} {len(latencies):>6} requests  {rate:8.1f} req/s  "
        f"p50 {percentile(latencies, 0.50) * 1000:8.1f} ms  "
        f"p99 {percentile(latencies, 0.99) * 1000:8.1f} ms  errors {errors}"
    )
    return rate


YARDSTICK = """
import sys
import waitress

path, threads, connections, body_limit, timeout = sys.argv[1], *map(int, sys.argv[2:6])
with open(path, "rb") as handle:
    stored = handle.read()
HEADERS = [
    ("Content-Type", "application/json; charset=utf-8"),
    ("Content-Length", str(len(stored))),
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
]


def app(environ, start_response):
    length = int(environ.get("CONTENT_LENGTH") or 0)
    environ["wsgi.input"].read(length)  # the body, read as sodos reads it
    start_response("200 OK", HEADERS)
    return [stored]


server = waitress.create_server(
    app, host="127.0.0.1", port=0, threads=threads, connection_limit=connections,
    max_request_body_size=body_limit, channel_timeout=timeout, cleanup_interval=1,
    clear_untrusted_proxy_headers=True, ident="sodos",
)
sys.stderr.write(f"listening on http://127.0.0.1:{server.effective_port}\\n")
sys.stderr.flush()
server.run()
"""


class Server:
    """A server subprocess on a free loopback port (its first stderr line names it)."""

    def __init__(self, command: list[str], env: dict[str, str]):
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        first = self.process.stderr.readline()
        if "listening on http://127.0.0.1:" not in first:
            self.stop()
            raise RuntimeError(f"the server did not start: {first}")
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        self.port = int(first.split("listening on http://127.0.0.1:", 1)[1].split()[0])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def alternate(requests: int, batch: int, floor, service) -> tuple[tuple, tuple]:
    """``requests`` for each side in alternating batches of ``batch``: the machine's
    speed changes over seconds when it is shared, and both sides see the same."""
    sides: list[tuple[list[float], int, float]] = [([], 0, 0.0), ([], 0, 0.0)]
    done = 0
    while done < requests:
        count = min(batch, requests - done)
        for k, side in enumerate((floor, service)):
            latencies, errors, wall = side(count)
            old = sides[k]
            sides[k] = (old[0] + latencies, old[1] + errors, old[2] + wall)
        done += count
    return sides[0], sides[1]


def poster(port: int, body: bytes, expected: bytes):
    """One client's request: POST /standings on a keep-alive connection, answer checked."""

    def post(state: dict) -> bool:
        connection = state.get("connection")
        if connection is None:
            connection = state["connection"] = http.client.HTTPConnection(
                "127.0.0.1", port, timeout=60
            )
        try:
            connection.request("POST", "/standings", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            answer = response.read()
        except (OSError, http.client.HTTPException):
            connection.close()
            state.pop("connection")
            return False
        return response.status == 200 and answer == expected

    return post


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--baseline-requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--cycles", type=int, default=1)
    parser.add_argument("--batch", type=int, default=250)
    parser.add_argument("--max-seconds", type=float, default=900)
    args = parser.parse_args()
    deadline = time.monotonic() + args.max_seconds

    folder = Path(tempfile.mkdtemp(prefix="sodos-serve-bench-"))
    path = folder / "tournament.json"
    path.write_text(json.dumps(tournament(args.players, args.rounds)), encoding="utf-8")
    body = path.read_bytes()
    config = folder / "sodos.toml"
    config.write_text(
        # every client may wait for a worker (serve.max_waiting): throughput, not 503s
        f"[serve]\nconcurrency = {args.workers}\ntimeout = 60\nqueue_timeout = 60\n"
        f"max_waiting = {max(args.clients, 1)}\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "SODOS_DEBUG"}
    common = ["--config", str(config), "--no-entry-points"]
    expected = subprocess.run(
        [*sodos_command(), "standings", str(path), "--format", "json", *common],
        capture_output=True,
        env=env,
        check=True,
        timeout=120,
    ).stdout
    stored = folder / "answer.json"
    stored.write_bytes(expected)
    serve = Host(config_file=config, entry_points=False).settings.serve  # sodos serve's own
    load_average = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(
        f"tournament: {args.players} players, {args.rounds} rounds, {len(body)} bytes in, "
        f"{len(expected)} bytes out; {args.clients} clients; service: {args.workers} workers; "
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; load average "
        + " ".join(f"{v:.2f}" for v in load_average)
    )
    yardstick_command = [
        sys.executable, "-c", YARDSTICK, str(stored),
        str(serve["concurrency"] + serve["max_waiting"] + SPARE_THREADS),
        str(serve["max_connections"]), str(serve["max_request_bytes"]),
        str(max(1, int(serve["request_timeout"] + 0.999))),
    ]  # fmt: skip
    rows: list[tuple[str, tuple]] = []
    ratios: list[tuple[float, float]] = []
    floor = Server(yardstick_command, env)
    try:
        service = Server([*sodos_command(), "serve", "--port", "0", *common], env)
    except BaseException:
        floor.stop()
        raise
    try:
        idle = tree_rss_kib(service.process.pid)
        sampler = Sampler(service.process.pid)
        sampler.start()
        floor_post = poster(floor.port, body, expected)
        service_post = poster(service.port, body, expected)
        for cycle in range(args.cycles):
            bare, served = alternate(
                args.requests,
                args.batch,
                lambda count: load(count, args.clients, deadline, floor_post),
                lambda count: load(count, args.clients, deadline, service_post),
            )
            suffix = f" #{cycle + 1}" if args.cycles > 1 else ""
            rows += [(f"waitress yardstick{suffix}", bare), (f"sodos serve (HTTP){suffix}", served)]
        sampler.stop.set()
        sampler.join()
        peak = sampler.peak
    finally:
        service.stop()
        floor.stop()

    def run_cli(state: dict) -> bool:
        done = subprocess.run(
            [*sodos_command(), "standings", str(path), "--format", "json", *common],
            capture_output=True,
            env=env,
            timeout=120,
        )
        return done.returncode == 0 and done.stdout == expected

    baseline = None
    if args.baseline_requests:
        baseline = load(args.baseline_requests, args.clients, deadline, run_cli)
        rows.append(("CLI, a subprocess each", baseline))

    print()
    rates = {label: report(label, *measured) for label, measured in rows}
    print(
        f"\nservice memory: {idle / 1024:.0f} MiB idle, {peak / 1024:.0f} MiB peak "
        f"(server and workers, resident)"
    )
    for cycle in range(args.cycles):
        suffix = f" #{cycle + 1}" if args.cycles > 1 else ""
        rate = rates[f"sodos serve (HTTP){suffix}"]
        floor_rate = rates[f"waitress yardstick{suffix}"]
        p99 = percentile(rows[2 * cycle + 1][1][0], 0.99) * 1000
        ratios.append((rate / floor_rate if floor_rate else 0.0, p99))
        print(
            f"throughput ratio{suffix}, service / waitress yardstick: {ratios[-1][0]:.3f} "
            f"(target >= 0.2); service p99 {p99:.1f} ms (target <= 50 ms)"
        )
    if baseline is not None and rates["CLI, a subprocess each"]:
        last = rates[rows[2 * args.cycles - 1][0]]
        print(f"throughput ratio, service / CLI: {last / rates['CLI, a subprocess each']:.1f}x")
    errors = sum(measured[1] for _, measured in rows)
    if errors:
        print(f"ERRORS: {errors}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
