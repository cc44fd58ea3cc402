"""``sodos serve`` under load on loopback, beside the CLI as a subprocess per request.

A generated tournament (default 200 players, 7 rounds) is posted ``--requests`` times
(default 2 000) by ``--clients`` concurrent clients (default 8, one keep-alive
connection each) to ``POST /standings`` of a real ``sodos serve`` on a free loopback
port. Printed: requests/s, p50/p99 latency, errors (any answer that is not 200 with the
expected bytes; must be 0), and the service's peak memory (resident set of the server
and its worker processes, sampled every 20 ms). The baseline, in the same run, is the
same tournament through ``sodos standings FILE --format json`` as one subprocess per
request, ``--baseline-requests`` times (default 200) with the same number of clients.

Bounded: every request has a timeout, the whole run stops after ``--max-seconds``, and
only 127.0.0.1 is contacted. Usage::

    python benchmarks/serve.py                      # the issue's run
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


def tree_rss_kib(root: int) -> int:
    """Resident memory of a process and all its descendants (Linux /proc), in KiB."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as handle:
                fields = dict(line.split(":", 1) for line in handle if ":" in line)
        except OSError:
            continue
        pid = int(entry)
        parents[pid] = int(fields.get("PPid", "0").strip() or 0)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0] or 0)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


class Sampler(threading.Thread):
    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stop = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            self.peak = max(self.peak, tree_rss_kib(self.pid))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--baseline-requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
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
    print(
        f"tournament: {args.players} players, {args.rounds} rounds, {len(body)} bytes; "
        f"{args.clients} clients; service: {args.workers} workers; "
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores"
    )

    service = subprocess.Popen(
        [*sodos_command(), "serve", "--port", "0", *common],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        first = service.stderr.readline()
        if "listening on http://" not in first:
            print(f"sodos serve did not start: {first}", file=sys.stderr)
            return 2
        threading.Thread(target=service.stderr.read, daemon=True).start()
        port = int(first.split("listening on http://127.0.0.1:", 1)[1].split()[0])
        idle = tree_rss_kib(service.pid)
        sampler = Sampler(service.pid)
        sampler.start()

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

        served = load(args.requests, args.clients, deadline, post)
        sampler.stop.set()
        sampler.join()
    finally:
        service.terminate()
        service.wait(30)

    def run_cli(state: dict) -> bool:
        done = subprocess.run(
            [*sodos_command(), "standings", str(path), "--format", "json", *common],
            capture_output=True,
            env=env,
            timeout=120,
        )
        return done.returncode == 0 and done.stdout == expected

    baseline = load(args.baseline_requests, args.clients, deadline, run_cli)

    print()
    rate = report("sodos serve (HTTP)", *served)
    base = report("CLI, a subprocess each", *baseline)
    print(
        f"\nservice memory: {idle / 1024:.0f} MiB idle, {sampler.peak / 1024:.0f} MiB peak "
        f"(server and workers, resident)"
    )
    if base:
        print(f"throughput ratio, service / CLI: {rate / base:.1f}x")
    errors = served[1] + baseline[1]
    if errors:
        print(f"ERRORS: {errors}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
