"""``sodos store``: a store made from a games table holds the batch run's ratings (the
numbers of ``sodos ratings``, starts from ranks included); games added then go on from
them; the export and its saved state are those of a batch run over everything."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import ROOT

from sodos_plugin.cli import main

ARCHIVE = """id,date,black,white,result,black rank,white rank,komi,handicap
10,2024-01-01 05:30,Ann,Bob,B+R,3d,1k,6.5,0
9,2024-01-01,Bob,Cid,W+R,,2k,0.5,2
11,2024-01-02 23:00,Cid,Ann,B+3.5,,,6.5,0
12,2024-01-03,Dan,Ann,W+R,5k,,0.5,3
"""
LATER = """id,date,black,white,result
13,2024-01-04 10:00,Ann,Cid,B+R
14,2024-01-04 11:00,Dan,Bob,W+1.5
"""


def table(capsys, *args) -> dict[str, tuple[float, float]]:
    capsys.readouterr()
    assert main([*args, "--format", "csv", "--no-cache"]) == 0
    rows = csv.DictReader(io.StringIO(capsys.readouterr().out))
    return {
        r["name"]: (float(r["rating"]), float(r["deviation"]) if r["deviation"] else None)
        for r in rows
    }


def test_a_store_from_a_games_table_is_the_batch_run_and_goes_on(make_host, tmp_path, capsys):
    archive, later = tmp_path / "archive.csv", tmp_path / "later.csv"
    archive.write_text(ARCHIVE, encoding="utf-8")
    later.write_text(LATER, encoding="utf-8")
    store_path = tmp_path / "ratings.db"
    made = table(capsys, "store", str(store_path), str(archive))
    batch = table(capsys, "ratings", str(archive), "--rating", "ogs")
    assert made == batch  # the same numbers, printed the same
    # a new store from an existing one is refused (it would mix two histories)
    assert main(["store", str(store_path), str(archive), "--no-cache"]) == 2
    host = make_host({"cache": {"enabled": False}})
    with host.store(store_path) as store:
        for row in csv.DictReader(io.StringIO(LATER)):
            store.add({**row, "date": row["date"].replace(" ", "T")})
    state = tmp_path / "state.json"
    exported = table(capsys, "store", str(store_path), "--save-state", str(state))
    everything = table(capsys, "ratings", str(archive), str(later), "--rating", "ogs")
    for name, (rating, deviation) in everything.items():
        assert exported[name][0] == pytest.approx(rating, abs=1e-9)
        assert exported[name][1] == pytest.approx(deviation, abs=1e-9)
    saved = json.loads(state.read_text(encoding="utf-8"))
    assert saved["system"] == "ogs" and saved["last_day"] == "2024-01-04"
    assert saved["system_state"]["last"][:3] == ["2024-01-04", "11:00:00", "0214"]
    # a batch run goes on from the store's state: the game after it is accepted
    after = tmp_path / "after.csv"
    after.write_text("id,date,black,white,result\n15,2024-01-04 12:00,Bob,Ann,B+R\n", "utf-8")
    assert (
        main(["ratings", str(after), "--rating", "ogs", "--state", str(state), "--no-cache"]) == 0
    )


@pytest.mark.parametrize("period", ["day", "week"])
def test_a_store_by_periods_from_a_games_table_goes_on_as_the_batch_run(
    make_host, tmp_path, capsys, period
):
    """Glicko-2 by calendar periods: a store made from a history knows each player's
    open period and its start (as one that rated the games itself), so that games of
    the history's last period and of a later one go on to the batch run's numbers, and
    its export and saved state are a run's."""
    archive, later = tmp_path / "archive.csv", tmp_path / "later.csv"
    archive.write_text(ARCHIVE, encoding="utf-8")
    more = "id,date,black,white,result\n16,2024-01-03 12:00,Bob,Cid,B+R\n" + LATER.split("\n", 1)[1]
    later.write_text(more, encoding="utf-8")
    store_path = tmp_path / "ratings.db"
    params = ["--rating", "glicko2", "--param", f"period={period}"]
    made = table(capsys, "store", str(store_path), str(archive), *params)
    assert made == table(capsys, "ratings", str(archive), *params)
    assert table(capsys, "store", str(store_path), *params) == made  # its export
    host = make_host({"cache": {"enabled": False}})
    with host.store(store_path, rating="glicko2", period=period) as store:
        for row in csv.DictReader(io.StringIO(more)):
            store.add({**row, "date": row["date"].replace(" ", "T")})
    exported = table(capsys, "store", str(store_path), *params)
    everything = table(capsys, "ratings", str(archive), str(later), *params)
    assert set(exported) == set(everything)
    for name, (rating, deviation) in everything.items():
        assert exported[name][0] == pytest.approx(rating, abs=1e-9)
        assert exported[name][1] == pytest.approx(deviation, abs=1e-9)


def test_a_system_a_store_does_not_rate_is_refused(tmp_path, capsys):
    archive = tmp_path / "archive.csv"
    archive.write_text(ARCHIVE, encoding="utf-8")
    args = ["store", str(tmp_path / "s.db"), str(archive), "--rating", "glicko2"]
    assert main(args) == 2
    assert "with period = game, day, week or month, not 'event'" in capsys.readouterr().err
    assert not (tmp_path / "s.db").exists()


def test_a_whr_store_from_a_games_table_is_the_batch_fit(tmp_path, capsys):
    archive = tmp_path / "archive.csv"
    archive.write_text(ARCHIVE, encoding="utf-8")
    made = table(capsys, "store", str(tmp_path / "w.db"), str(archive), "--rating", "whr")
    assert made == table(capsys, "ratings", str(archive), "--rating", "whr")
    exported = table(capsys, "store", str(tmp_path / "w.db"), "--rating", "whr")
    assert exported == made


def test_a_history_that_cannot_be_read_leaves_no_store(tmp_path, capsys):
    store = tmp_path / "s.db"
    assert main(["store", str(store), str(tmp_path / "missing.csv"), "--no-cache"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not store.exists() and not (tmp_path / "s.db-wal").exists()


@pytest.mark.parametrize(
    "rating,params",
    [("ogs", []), ("glicko2", ["--param", "period=day"]), ("egf", []), ("whr", [])],
)
def test_a_batch_run_goes_on_from_every_system_s_exported_state(
    make_host, tmp_path, capsys, rating, params
):
    """Games posted to a store, its state exported, one more game rated from it by
    ``sodos ratings --state``: the numbers of one run over every game."""
    host = make_host({"cache": {"enabled": False}})
    extra = dict(p.split("=") for p in params[1::2])
    first = tmp_path / "first.csv"
    rows = [
        {k: row[k] for k in ("id", "date", "black", "white", "result")}
        for row in csv.DictReader(io.StringIO(ARCHIVE.replace(" 05:30", "").replace(" 23:00", "")))
    ]  # no ranks: a store's new players start from the default
    rows.sort(key=lambda r: (r["date"], int(r["id"])))  # posted in the order they ended
    lines = ["id,date,black,white,result", *(",".join(r.values()) for r in rows)]
    first.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with host.store(tmp_path / "s.db", rating=rating, **extra) as store:
        for row in rows:
            store.add(row)
    state = tmp_path / "state.json"
    table(capsys, "store", str(tmp_path / "s.db"), "--rating", rating, *params,
          "--save-state", str(state))  # fmt: skip
    after = tmp_path / "after.csv"
    after.write_text("id,date,black,white,result\n15,2024-01-05,Bob,Ann,B+R\n", "utf-8")
    went_on = table(capsys, "ratings", str(after), "--rating", rating, *params, "--state",
                    str(state))  # fmt: skip
    everything = table(capsys, "ratings", str(first), str(after), "--rating", rating, *params)
    assert set(went_on) == set(everything)
    for name, (rating_, _) in everything.items():
        assert went_on[name][0] == pytest.approx(rating_, abs=1e-6)


def test_a_gor_store_from_tournaments_is_the_batch_run(tmp_path, capsys):
    """GoR: a store made from h9 tournaments (their classes, ranks, files' ratings as the
    batch run starts them) exports the numbers of ``sodos ratings``."""
    files = sorted(str(p) for p in (ROOT / "tests" / "data" / "egd").glob("*.txt"))
    store = str(tmp_path / "gor.db")
    made = table(capsys, "store", store, *files, "--rating", "egf")
    batch = table(capsys, "ratings", *files, "--rating", "egf")
    exported = table(capsys, "store", store, "--rating", "egf")
    assert made == batch
    assert set(exported) == set(batch)
    for name, (rating, _) in batch.items():
        assert exported[name][0] == pytest.approx(rating, abs=1e-9)
