"""The live rating store's targets (issue 29; docs/ratings.md, "A server's live ratings"),
each figure printed with its baseline from the same run:

* Python API, one game per transaction (SQLite, synchronous FULL and NORMAL), with 1,000
  and with 1,000,000 players in the store (the million made in bulk SQL, not through the
  API): games/s, and the time per game at both sizes (flat is the target). Baseline:
  ``Host.rate_game`` (the state copied per game) at 1,000 players.
* A batch ``POST /games`` of 1,000 games: games/s. Baseline: ``Host.ratings`` over the
  same 1,000 games (the batch run, nothing kept).
* Start-up: a store made from a generated games table (the batch run, then its result
  loaded) beside the batch run over it.
* HTTP, one game per request, 8 clients: games/s, p50 and p99 latency, errors.

    python benchmarks/live.py                 # every row
    python benchmarks/live.py --quick         # small sizes (a smoke run)
    python benchmarks/live.py --only http,batch   # some rows (api, batch, startup, http)

The figures of a run are recorded in benchmarks/README.md with the machine's load.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sodos_hookspecs import HistoryGame

from sodos_plugin import Host
from sodos_plugin.store.load import from_run
from sodos_plugin.util.lazy import LazyModule

psycopg = LazyModule("psycopg", globals(), "psycopg")  # the postgres extra: for --postgres

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ["B+R", "W+R", "B+3.5", "W+0.5"]


def host() -> Host:
    return Host({"cache": {"enabled": False}}, config_file=False, entry_points=False)


def games(n: int, players: int, start: int = 0, seed: int = 1) -> list[dict]:
    """``n`` games between random players of ``players``, in time order."""
    rng = random.Random(seed)
    out = []
    for k in range(start, start + n):
        b, w = rng.sample(range(players), 2)
        day, minute = divmod(k, 1440)
        out.append({
            "id": f"g{k}", "date": f"2024-{1 + day // 28 % 12:02d}-{1 + day % 28:02d}T"
            f"{minute // 60:02d}:{minute % 60:02d}", "black": f"p{b}", "white": f"p{w}",
            "result": RESULTS[k % 4], "komi": 6.5,
        })  # fmt: skip
    return out


def bulk_players(store, n: int) -> None:
    """``n`` players as a store made from a history holds them (each has played: a
    rating and deviation of their own, games, a last game), in one INSERT ... SELECT
    (not the API). Players at the bare start (1500 and 350, kept by SQLite as small
    integers, no last game) would grow on their first game and split their page: with
    a million, every game of the run would meet two such players."""
    state, start = store.rater.start()
    db = store.db
    db.execute("BEGIN")
    db.execute(
        "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ?) "
        "INSERT INTO players (key, name, rating, deviation, volatility, start, games, "
        "last_game) SELECT 'name:p' || i, 'p' || i, ? + (CAST(i AS BIGINT) * 7919) % 1000 - 499.5, "
        "? - (i * 31) % 200 - 0.25, ?, ?, 1 + i % 50, '2023-12-31' FROM k",
        (n - 1, *state, start),
    )
    db.execute("COMMIT")


def api_rate(players: int, n: int, synchronous: str, folder: Path | str) -> tuple[float, float]:
    """Seconds per game, each game committed on its own (``folder``: a folder for a
    SQLite file, or a PostgreSQL database's URL): of the clock, and of the process's
    processor time (what the machine's other load moves least)."""
    where = folder if isinstance(folder, str) else folder / f"api-{players}-{synchronous}.db"
    store = host().store(where, synchronous=synchronous)
    bulk_players(store, players)
    todo = games(n, players)
    for g in todo[:20]:  # warm: numpy's first calls, the page cache
        store.add(g)
    began, cpu = time.perf_counter(), time.process_time()
    for g in todo[20:]:
        store.add(g)
    spent, cpu = time.perf_counter() - began, time.process_time() - cpu
    store.close()
    return spent / (n - 20), cpu / (n - 20)


def postgres_database(server: str, name: str) -> str:
    """A new database on the PostgreSQL server at ``server``: its URL."""
    with psycopg.connect(f"{server}/postgres", autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name}")
        db.execute(f"CREATE DATABASE {name}")
    return f"{server}/{name}"


def batch_api(where, n: int) -> float:
    """games/s of one ``add_many`` of ``n`` games (the Python API)."""
    store = host().store(where)
    store.add_many(games(10, 1000, start=10**6))
    todo = games(n, 1000)
    began = time.perf_counter()
    store.add_many(todo)
    spent = time.perf_counter() - began
    store.close()
    return n / spent


def start_up(folder: Path, n: int) -> tuple[float, float, float, float]:
    """Seconds of the batch run over a games table of ``n`` games and of making a store
    from it (the same batch run, then its result loaded), each from the file: of the
    clock, then of the process's processor time."""
    table = folder / f"start-{n}.csv"
    rng = random.Random(3)
    with table.open("w", encoding="utf-8") as f:
        f.write("id,date,black,white,result,komi\n")
        for k in range(n):
            b, w = rng.sample(range(max(100, n // 20)), 2)
            day, minute = divmod(k, 1440)
            hour, minute = divmod(minute, 60)
            when = f"2024-{1 + day // 28 % 12:02d}-{1 + day % 28:02d} {hour:02d}:{minute:02d}"
            f.write(f"{k},{when},p{b},p{w},{'B+R' if k % 2 else 'W+R'},6.5\n")
    size = table.stat().st_size  # a table past the reader's default limit is allowed
    h = Host(
        {"cache": {"enabled": False}, "plugin": {"builtin.games_table": {"max_bytes": size}}},
        config_file=False,
        entry_points=False,
    )
    began, cpu = time.perf_counter(), time.process_time()
    history = h.history([table])
    assert len(history.games) == n, [(f.status, f.reason) for f in history.files]
    h.ratings(history, rating="ogs")
    batch, batch_cpu = time.perf_counter() - began, time.process_time() - cpu
    began, cpu = time.perf_counter(), time.process_time()
    run = h.ratings(h.history([table]), rating="ogs")
    with h.store(folder / f"start-{n}.db") as store:
        from_run(store, run)
    made, made_cpu = time.perf_counter() - began, time.process_time() - cpu
    return batch, made, batch_cpu, made_cpu


def rate_game_baseline(players: int, n: int) -> float:
    """Seconds per game of ``Host.rate_game`` with ``players`` in the state."""
    h = host()
    state = None
    warm = games(players, players, seed=2)  # every player once: the state holds them all
    history = h.history(games=[_history_game(g) for g in warm])
    state = h.ratings(history, rating="ogs").saved_state()
    todo = games(n, players, start=len(warm) + 10_000)
    began = time.perf_counter()
    for g in todo:
        state = h.rate_game(state, _history_game(g), rating="ogs")
    return (time.perf_counter() - began) / n


def _history_game(g: dict) -> HistoryGame:
    score = 1.0 if g["result"].startswith("B") else 0.0
    return HistoryGame(g["date"][:10], g["id"], g["black"], g["white"], score, 0, g["komi"],
                       19, None, g["id"], g["date"][11:], g["id"])  # fmt: skip


class Service:
    def __init__(self, folder: Path, store: Path):
        config = folder / "sodos.toml"
        config.write_text("[serve]\nconcurrency = 1\nmax_waiting = 64\n", encoding="utf-8")
        script = Path(sys.executable).with_name("sodos")
        cmd = [str(script)] if script.exists() else [sys.executable, "-m", "sodos_plugin.cli"]
        self.process = subprocess.Popen(
            [*cmd, "serve", "--port", "0", "--config", str(config), "--store", str(store)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        first = self.process.stderr.readline()
        self.port = int(first.split("listening on http://", 1)[1].split()[0].rsplit(":", 1)[1])

    def post(self, connection, document) -> tuple[int, float]:
        body = json.dumps(document).encode()
        began = time.perf_counter()
        connection.request("POST", "/games", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - began

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def batch_post(folder: Path, n: int, store=None) -> tuple[float, float]:
    """(games/s of one POST of ``n`` games, games/s of Host.ratings over them), the
    service's store a SQLite file in ``folder``, or ``store`` (a PostgreSQL URL)."""
    service = Service(folder, store or folder / "batch.db")
    try:
        connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=120)
        service.post(connection, games(10, 1000, start=10**6))  # warm
        todo = games(n, 1000)
        status, spent = service.post(connection, todo)
        assert status == 200, status
    finally:
        service.stop()
    h = host()
    history = h.history(games=[_history_game(g) for g in todo])
    began = time.perf_counter()
    h.ratings(history, rating="ogs")
    batch = time.perf_counter() - began
    return n / spent, n / batch


def http_one_by_one(folder: Path, clients: int, per_client: int, store=None) -> dict:
    service = Service(folder, store or folder / "http.db")
    latencies: list[float] = []
    errors: list = []
    lock = threading.Lock()

    def client(c: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=60)
        own = games(per_client, 1000, start=c * per_client, seed=c)
        mine = []
        for g in own:
            try:
                status, spent = service.post(connection, g)
            except OSError as error:
                errors.append(error)
                connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=60)
                continue
            if status != 200:
                errors.append(status)
            mine.append(spent)
        with lock:
            latencies.extend(mine)

    try:
        threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
        began = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        spent = time.perf_counter() - began
    finally:
        service.stop()
    latencies.sort()
    return {
        "rate": len(latencies) / spent,
        "p50": latencies[len(latencies) // 2] * 1000,
        "p99": latencies[int(len(latencies) * 0.99)] * 1000,
        "errors": len(errors),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="also the Python API, batch and HTTP rows on this PostgreSQL server "
        "(postgresql://user@host:port)",
    )
    parser.add_argument(
        "--startup-games",
        type=int,
        metavar="N",
        help="the start-up row's history size (default 200,000; 20,000 with --quick)",
    )
    parser.add_argument(
        "--only",
        metavar="ROWS",
        help="only these rows, comma-separated: api (with its baseline), batch, startup, http",
    )
    args = parser.parse_args()
    rows = set(args.only.split(",")) if args.only else {"api", "batch", "startup", "http"}
    unknown = rows - {"api", "batch", "startup", "http"}
    if unknown:
        parser.error(f"--only: unknown rows {', '.join(sorted(unknown))}")
    big = 20_000 if args.quick else 1_000_000
    n = 200 if args.quick else 3000
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        full = None
        for synchronous in ("full", "normal") if "api" in rows else ():
            small, small_cpu = api_rate(1000, n, synchronous, folder)
            full = full or small
            large, large_cpu = api_rate(big, n, synchronous, folder)
            print(f"Python API, synchronous {synchronous}, one commit a game: "
                  f"1,000 players {1 / small:,.0f} games/s ({small * 1e3:.3f} ms/game, "
                  f"processor {small_cpu * 1e3:.3f} ms); {big:,} players "
                  f"{1 / large:,.0f} games/s ({large * 1e3:.3f} ms/game, processor "
                  f"{large_cpu * 1e3:.3f} ms); ratio of the times {large / small:.2f}, "
                  f"of the processor times {large_cpu / small_cpu:.2f}")  # fmt: skip
        if full:
            baseline = rate_game_baseline(1000, 50 if args.quick else 200)
            print(f"baseline Host.rate_game, 1,000 players: {1 / baseline:,.0f} games/s "
                  f"({baseline * 1e3:.3f} ms/game); the store (FULL) is "
                  f"{baseline / full:.1f}x its speed")  # fmt: skip
        if "batch" in rows:
            posted, batch = batch_post(folder, 1000)
            print(
                f"batch POST /games of 1,000 games: {posted:,.0f} games/s; baseline "
                f"Host.ratings over them (nothing kept) {batch:,.0f} games/s; ratio "
                f"{posted / batch:.2f}"
            )
        if args.postgres:
            for players in (1000, big):
                url = postgres_database(args.postgres, f"sodos_bench_{players}")
                spent, _ = api_rate(players, n, "full", url)
                print(f"PostgreSQL, Python API, one commit a game, {players:,} players: "
                      f"{1 / spent:,.0f} games/s ({spent * 1e3:.3f} ms/game)")  # fmt: skip
            sqlite_batch = batch_api(folder / "batch-api.db", 1000)
            pg_batch = batch_api(postgres_database(args.postgres, "sodos_bench_batch"), 1000)
            print(f"Python API add_many of 1,000 games: SQLite {sqlite_batch:,.0f} games/s, "
                  f"PostgreSQL {pg_batch:,.0f} games/s")  # fmt: skip
        if args.postgres and "batch" in rows:
            url = postgres_database(args.postgres, "sodos_bench_post")
            posted, _ = batch_post(folder, 1000, url)
            print(f"PostgreSQL, batch POST /games of 1,000 games: {posted:,.0f} games/s")
        if "startup" in rows:
            size = args.startup_games or (20_000 if args.quick else 200_000)
            batch_s, made_s, batch_cpu, made_cpu = start_up(folder, size)
            print(f"start-up: a store from a {size:,}-game table {made_s:.2f} s (processor "
                  f"{made_cpu:.2f} s); baseline the batch run over it {batch_s:.2f} s "
                  f"(processor {batch_cpu:.2f} s); ratio {made_s / batch_s:.2f}, of the "
                  f"processor times {made_cpu / batch_cpu:.2f}")  # fmt: skip
        if "http" in rows:
            per = 50 if args.quick else 500
            found = http_one_by_one(folder, 8, per)
            print(f"HTTP POST /games one game a request, 8 clients: {found['rate']:,.0f} "
                  f"games/s, p50 {found['p50']:.1f} ms, p99 {found['p99']:.1f} ms, "
                  f"{found['errors']} errors")  # fmt: skip
            if args.postgres:
                url = postgres_database(args.postgres, "sodos_bench_http")
                found = http_one_by_one(folder, 8, per, url)
                print(f"PostgreSQL, HTTP POST /games one game a request, 8 clients: "
                      f"{found['rate']:,.0f} games/s, p50 {found['p50']:.1f} ms, p99 "
                      f"{found['p99']:.1f} ms, {found['errors']} errors")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
