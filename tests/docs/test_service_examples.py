"""docs/hosts.md's service sections run as written: every ``curl`` example against the
real service, its shown output compared, and the Java 17 client compiled and run."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from conftest import ROOT
from service import Service

pytest.importorskip("waitress", reason="sodos serve needs the serve extra (waitress)")

SECTION = "## Hosts in any language"
URL = "127.0.0.1:8000"


def examples() -> list[tuple[str, str | None]]:
    """(bash block, the text block right after it or None) of the service's sections."""
    text = (ROOT / "docs" / "hosts.md").read_text("utf-8")
    assert SECTION in text
    section = text.split(SECTION, 1)[1]
    blocks = re.findall(r"```(\w*)\n(.*?)```", section, flags=re.S)
    found = []
    for i, (language, body) in enumerate(blocks):
        if language != "bash" or URL not in body:
            continue
        after = blocks[i + 1] if i + 1 < len(blocks) else ("", "")
        found.append((body, after[1] if after[0] == "text" else None))
    return found


@pytest.fixture(scope="module")
def docs_service(tmp_path_factory):
    running = Service(tmp_path_factory.mktemp("docs"), "", "--no-entry-points")
    yield running
    running.stop()


def run_block(block: str, port: int) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-e", "-c", block.replace(URL, f"127.0.0.1:{port}")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
    )


def test_there_are_curl_examples_for_every_route():
    commands = " ".join(block for block, _ in examples())
    for route in ("/health", "/criteria", "/plugins", "/standings", "/explain", "/ratings"):
        assert f"{URL}{route}" in commands or f"{URL}{route}?" in commands, route


@pytest.mark.parametrize("index", range(len(examples())))
def test_curl_example_runs_as_written(docs_service, index):
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    block, shown = examples()[index]
    if "javac" in block:
        pytest.skip("the Java client has its own test")
    done = run_block(block, docs_service.port)
    assert done.returncode == 0, (block, done.stdout, done.stderr)
    if shown is not None:
        assert done.stdout == shown, block


@pytest.mark.slow
def test_java_client_compiles_runs_and_prints_the_shown_standings(docs_service, sodos, tmp_path):
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac not found: install a JDK (Debian: default-jdk-headless) to run it")
    (block, shown) = next((b, s) for b, s in examples() if "javac" in b)
    done = run_block(block.replace("/tmp/sodos-java", str(tmp_path)), docs_service.port)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
    # and the client's numbers are the service's
    import json

    standings = sodos("standings", "docs/json/league.json", "--format", "json", cwd=ROOT)
    rows = json.loads(standings.out)["standings"]
    printed = [line.split() for line in done.stdout.splitlines()[2:]]
    assert [row[-3:] for row in printed] == [
        [str(v) for v in row["values"].values()] for row in rows
    ]
