"""The README's two commands: what they are, that ``.ci/run`` runs
the test command exactly as written before anything touches pip, and that the first
command's ``sodos standings sample_sgf/`` prints the standings and nothing else."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import ROOT

README = (ROOT / "README.md").read_text("utf-8")
CI = (ROOT / ".ci" / "run").read_text("utf-8")


def readme_commands() -> list[str]:
    """The first line of each ```sh block, as .ci/run's readme_command reads them."""
    return re.findall(r"^```sh\n(.*)\n", README, re.M)


def test_the_two_commands():
    first, second = readme_commands()[:2]
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert first == venv + "pip install . && sodos standings sample_sgf/"
    assert second == venv + "pip install -e '.[test]' && python -m pytest"
    # no pip upgrade, no plugin installed for good (pip 23 cannot resolve the example
    # plugin's dependency on sodos-plugin from a local path, and it would replace SODOS)
    for command in (first, second):
        assert "upgrade" not in command and "example_plugin" not in command


def test_ci_runs_the_test_command_first_as_written():
    lines = CI.splitlines()
    assert "readme_command 2" in CI and "readme_command 1" in CI
    run_second = lines.index('bash -c "$second"')
    before = "\n".join(line for line in lines[:run_second] if not line.lstrip().startswith("#"))
    assert not re.search(r"\bpip\b", before)  # nothing touches pip before it
    assert "rm -rf .venv" in before  # a fresh venv
    assert "--upgrade pip" not in CI and "example_plugin" not in CI


def test_ci_extracts_the_same_commands(tmp_path):
    script = CI.split("readme_command() {", 1)[1].split("\n}", 1)[0]
    for n, expected in enumerate(readme_commands()[:2], 1):
        done = subprocess.run(
            ["bash", "-c", f"readme_command() {{{script}\n}}; readme_command {n}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        assert done.stdout == expected + "\n"


def test_sample_standings_print_nothing_about_the_samples_own_files(sodos):
    done = sodos("standings", "sample_sgf/", cwd=ROOT)
    assert done.status == 0, done.err
    assert done.err == ""
    assert done.out.startswith("Sodos Spring McMahon 2026")
    assert "Nowak Piotr" in done.out


def test_the_top_level_is_the_layout_the_project_promises():
    # pyproject.toml, sodos_plugin/, hookspecs/, tests/, sample_sgf/ and the usual companions
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if tracked.returncode != 0:
        import pytest

        pytest.skip("not a git checkout")
    top = {line.split("/")[0] for line in tracked.stdout.splitlines()}
    allowed = {"pyproject.toml", "sodos_plugin", "hookspecs", "tests", "sample_sgf"}
    allowed |= {"README.md", "LICENSE", ".ci", "benchmarks", "docs", ".gitignore"}
    assert top <= allowed, sorted(top - allowed)


def test_ci_runs_the_test_command_on_every_admitted_cpython(tmp_path):
    """``.ci/run`` also runs the test command on the system python3 and each other CPython
    that requires-python admits (one release's defect, 3.11.2's regular expressions,
    cannot hide behind another): its ``admitted`` check takes this interpreter and refuses
    one outside requires-python."""
    assert "candidates=(/usr/bin/python3)" in CI
    assert 'command_here=${second/python3 -m venv/\\"$candidate\\" -m venv}' in CI
    script = "admitted() {" + CI.split("admitted() {", 1)[1].split("\n}\n", 1)[0] + "\n}"
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    real = os.path.realpath(sys.executable)
    version = ".".join(map(str, sys.version_info[:3]))

    def admitted(requires: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["bash", "-c", f'{script}\nrequires="{requires}"; admitted "{sys.executable}"'],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    done = admitted(">=3.10")
    assert done.returncode == 0 and done.stdout.split() == [real, version], done.stderr
    assert admitted(">=99").returncode != 0
