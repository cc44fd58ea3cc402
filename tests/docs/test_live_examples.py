"""docs/ratings.md's "A server's live ratings" runs as written: a store made from the
games table with ``sodos store``, ``sodos serve --store`` on it, every ``curl`` example
run in order against it and its shown output compared."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from as_written import prepare
from conftest import ROOT
from service import Service

pytest.importorskip("waitress", reason="sodos serve needs the serve extra (waitress)")

SECTION = "## A server's live ratings"
URL = "127.0.0.1:8000"


def examples() -> list[tuple[str, str | None]]:
    """(bash block, the text block right after it or None), in the section's order."""
    text = (ROOT / "docs" / "ratings.md").read_text("utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w*)\n(.*?)```", section, flags=re.S)
    found = []
    for i, (language, body) in enumerate(blocks):
        if language != "bash" or URL not in body:
            continue
        after = blocks[i + 1] if i + 1 < len(blocks) else ("", "")
        found.append((body, after[1] if after[0] == "text" else None))
    return found


def test_every_live_route_has_an_example():
    commands = " ".join(block for block, _ in examples())
    for route in ("/games", "/players/", "/history", "/leaderboard?", "/void"):
        assert route in commands, route


def test_the_examples_run_as_written(sodos, tmp_path):
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    prepare("games.csv", tmp_path)
    made = sodos("store", "ratings.db", "games.csv", "--rating", "ogs", "--no-cache")
    assert made.status == 0, made.err
    service = Service(tmp_path, "", "--store", str(tmp_path / "ratings.db"), "--rating", "ogs")
    try:
        for block, shown in examples():
            done = subprocess.run(
                ["bash", "-e", "-c", block.replace(URL, f"127.0.0.1:{service.port}")],
                capture_output=True,
                text=True,
                encoding="utf-8",
                timeout=120,
            )
            assert done.returncode == 0, (block, done.stderr)
            assert '"status": 5' not in done.stdout, done.stdout
            if shown is not None:
                assert done.stdout.strip() == shown.strip(), block
    finally:
        service.stop()
