"""The ratings page (``sodos ratings --format html``): self-contained, names escaped, and
drawn by a real browser — headless Chromium (Debian's ``chromium``, which ``.ci/run``
installs) lays out its SVG charts, and a probe added to a copy of the page (the page
itself has no script) reads back what was drawn."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import builtin_host, shared_path
from sodos_hookspecs import GameHistory, HistoryGame

from sodos_plugin.ratings.report import CHART_PLAYERS, write

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HOST = builtin_host({"cache": {"enabled": False}})

PROBE = """
<script>
window.addEventListener("load", () => {
  const box = (e) => { const b = e.getBBox(); return [b.width, b.height]; };
  const out = {
    charts: [...document.querySelectorAll("svg.chart")].map((svg) => ({
      id: svg.id,
      size: [svg.getBoundingClientRect().width, svg.getBoundingClientRect().height],
      lines: [...svg.querySelectorAll("polyline.player")].map((p) => ({
        player: p.dataset.player, length: p.getTotalLength(), box: box(p),
      })),
      bins: [...svg.querySelectorAll("rect.bin")].map((r) => ({
        count: Number(r.dataset.count), height: box(r)[1],
      })),
    })),
    sparks: [...document.querySelectorAll("svg.spark polyline")].map((p) => p.getTotalLength()),
    rows: [...document.querySelectorAll("table#final tbody tr")].map(
      (tr) => tr.cells[1].textContent),
  };
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def page(run, **options) -> str:
    stream = io.StringIO()
    write(run, "html", stream, **options)
    return stream.getvalue()


def rendered(text: str, tmp_path: Path) -> dict:
    html_file = tmp_path / "ratings.html"
    html_file.write_text(text.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    command = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
        html_file.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stdout[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_names_are_escaped_and_nothing_is_fetched():
    nasty = '<script>alert("x")</script> & "Bob"'
    games = GameHistory(
        (
            HistoryGame("2024-01-01", "e", nasty, "Ann", 1.0),
            HistoryGame("2024-01-05", "f", "Ann", nasty, 0.0),
        )
    )
    text = page(HOST.ratings(games, rating="ogs"), history=True)
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "src=" not in text and "href=" not in text and "@import" not in text


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (.ci/run installs it)")
@pytest.mark.parametrize("system", ["egf", "ogs", "whr"])
def test_chromium_draws_each_players_rating_and_the_field(system, tmp_path):
    history = HOST.history([shared_path("sgf", "tournament")])
    run = HOST.ratings(history, rating=system)
    rows = run.standings()
    seen = rendered(page(run), tmp_path)
    over_time, distribution = seen["charts"]
    assert over_time["id"] == "over-time" and distribution["id"] == "distribution"
    assert all(w > 100 and h > 100 for w, h in (over_time["size"], distribution["size"]))
    top = [r.name for r in rows][: min(CHART_PLAYERS, len(rows))]
    assert [line["player"] for line in over_time["lines"]] == top
    assert all(line["length"] > 0 and line["box"][0] > 0 for line in over_time["lines"])
    bins = distribution["bins"]
    assert sum(b["count"] for b in bins) == len(rows)
    assert all((b["height"] > 0) == (b["count"] > 0) for b in bins)
    tallest = max(bins, key=lambda b: b["count"])
    assert all(b["height"] <= tallest["height"] + 1e-6 for b in bins)
    assert seen["rows"] == [r.name for r in rows]
    assert len(seen["sparks"]) == len(rows) and all(length > 0 for length in seen["sparks"])


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (.ci/run installs it)")
def test_chromium_draws_one_players_history(tmp_path):
    run = HOST.ratings(HOST.history([shared_path("sgf", "tournament")]), rating="glicko2")
    name = run.standings()[-1].name
    seen = rendered(page(run, player=name), tmp_path)
    (chart,) = seen["charts"]  # no distribution for one player
    assert [line["player"] for line in chart["lines"]] == [name]
    assert seen["rows"] == [name]
