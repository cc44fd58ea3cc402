"""Examples run as written: the docs' and the help's command lines, by the installed
``sodos`` command, in a temporary folder holding the files they name.

An example names files a user has (``results.xml``, ``games/``, ``cup.h9``);
:data:`SAMPLES` says which real file stands for each — the repository's ``sample_sgf/``
and ``docs/``, the shared data (through :func:`conftest.shared_path`, so a test skips
when it is absent) — or how it is made. :func:`prepare` makes only the files an example
names, so that an example never sees another's files (a ``sodos.toml`` is a config for
every command run beside it).

:func:`commands` reads a shell block as a person does: every line a command (``\\``
continues one, ``#`` starts a comment), or, in a console transcript, the lines after
``$ `` with the output shown below each.
"""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from conftest import ROOT, shared_path

Maker = Callable[[Path], None]  # makes the sample at the path given

TIMEOUT = 300  # seconds for one command (ratings over a folder, on a shared machine)


def _copy(source: Path) -> Maker:
    def make(target: Path) -> None:
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copyfile(source, target)

    return make


def _shared(*parts: str) -> Maker:
    return lambda target: _copy(shared_path(*parts))(target)


def _text(content: str) -> Maker:
    return lambda target: target.write_text(content, encoding="utf-8")


def _zipped(source: Path) -> Maker:
    def make(target: Path) -> None:
        with zipfile.ZipFile(target, "w") as archive:
            for path in sorted(source.rglob("*")):
                if path.is_file():
                    archive.write(path, path.relative_to(source.parent).as_posix())

    return make


def _folder(**members: Maker) -> Maker:
    def make(target: Path) -> None:
        target.mkdir()
        for name, member in members.items():
            member(target / name)

    return make


def _league_with_unknown_player(target: Path) -> None:
    document = json.loads((ROOT / "docs" / "json" / "league.json").read_text("utf-8"))
    document["games"][3]["white"] = "p9"  # docs/hosts.md: an id no player has
    target.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")


JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy")
YOUTH = ("conformance", "go", "h9_mpj2022_opengotha_sodos.txt")  # Polish Youth 2022, h9

#: starting ratings for players of the samples (sample_sgf, the youth cup, Juvisy)
RATINGS_CSV = """name,rating,deviation
Nowak Piotr,2250,60
Doruch Cyprian,1650,80
Minieri Davide,2310,50
"""

#: the README's config example, as a user's sodos.toml
CONFIG = """system = "mcmahon"
criteria = ["MMS", "SOS", "SOSOS"]

[mcmahon]
bar = "4d"
floor = "20k"
"""

#: a name an example uses -> how the file or folder standing for it is made
SAMPLES: dict[str, Maker] = {
    "results.xml": _shared(*JUVISY[:-1], JUVISY[-1] + ".xml"),  # OpenGotha XML
    "results.h9": _shared(*JUVISY[:-1], JUVISY[-1] + ".h9"),  # the same event as EGD h9
    "cup.h9": _shared(*YOUTH),
    "games/": _copy(ROOT / "sample_sgf"),  # an SGF folder with its sodos.toml
    "archive/": _copy(ROOT / "sample_sgf"),  # a server's archive: SGF records
    "archive.zip": _zipped(ROOT / "sample_sgf"),
    "results/": _folder(**{"juvisy.h9": _shared(*JUVISY[:-1], JUVISY[-1] + ".h9")}),
    "tournaments/": _folder(
        **{"youth.h9": _shared(*YOUTH), "juvisy.xml": _shared(*JUVISY[:-1], JUVISY[-1] + ".xml")}
    ),
    # two days of a server, the second after the first (a saved state goes on from one)
    "yesterday.h9": _shared(*JUVISY[:-1], JUVISY[-1] + ".h9"),
    "today.h9": _shared(*YOUTH),
    # a server's database export (the games table of docs/ratings.md)
    "games.csv": _text(
        "date,black,white,result,handicap,komi,black rank,white rank,id\n"
        "2024-05-04,Ann Lee,Bob Cho,B+R,0,6.5,3d,2d,981\n"
        "2024-05-04 21:15,Bob Cho,Cid Park,W+3.5,2,0.5,2d,4d,982\n"
    ),
    "ratings.csv": _text(RATINGS_CSV),
    "start.csv": _text(RATINGS_CSV),
    "sodos.toml": _text(CONFIG),
    "league.json": _league_with_unknown_player,
    "docs/": _copy(ROOT / "docs"),  # examples run "from the repository's folder"
}


def named(text: str) -> list[str]:
    """The samples ``text`` names: as a word of its own, not inside another path."""
    return [n for n in SAMPLES if re.search(rf"(?<![\w./-]){re.escape(n)}", text)]


def prepare(text: str, folder: Path) -> list[str]:
    """Make in ``folder`` every sample ``text`` names; their names."""
    names = named(text)
    for name in names:
        target = folder / name.rstrip("/")
        if not target.exists():
            SAMPLES[name](target)
    return names


def sodos_command() -> Path:
    """The installed ``sodos`` script beside this Python (the project's install step)."""
    script = Path(sys.executable).with_name("sodos")
    assert script.exists(), f"{script}: install the package first (README's test command)"
    return script


def environment(folder: Path, python_path: str | None = None) -> dict[str, str]:
    """A user's environment: the installed command first on PATH, no SODOS_* variables,
    the rating cache in ``folder`` (never the user's own)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SODOS_")}
    env.pop("PYTHONPATH", None)
    if python_path:
        env["PYTHONPATH"] = python_path
    env["PATH"] = f"{sodos_command().parent}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_CACHE_HOME"] = str(folder / ".cache")
    return env


class Command(NamedTuple):
    line: str  # the command as a shell reads it (continuations joined)
    shown: str | None  # the output a console transcript shows below it, else None


def commands(block: str) -> list[Command]:
    """The commands of a shell block, with the output shown for each (console style)."""
    lines = block.splitlines()
    console = any(line.startswith("$ ") for line in lines)
    found: list[tuple[str, list[str]]] = []
    pending = ""
    for raw in lines:
        text = raw
        if not pending and console:
            if not raw.startswith("$ "):
                if found:
                    found[-1][1].append(raw)
                continue
            text = raw[2:]
        elif not pending and (not raw.strip() or raw.lstrip().startswith("#")):
            continue
        if text.endswith("\\"):
            pending += text + "\n"  # bash joins the lines as the doc shows them
            continue
        found.append((pending + text, []))
        pending = ""
    return [
        Command(line, "".join(f"{o}\n" for o in output) if console else None)
        for line, output in found
    ]


#: what a command runs: ``sodos ...`` or ``cat FILE | sodos ...``; ``pip install ...``
SODOS = re.compile(r"^(cat [^|]+\| )?sodos( |$)")
PIP = re.compile(r"^pip install ")


def kind(line: str) -> str:
    """``sodos``, ``serve`` (a ``sodos serve`` that runs until stopped), ``pip`` or
    ``other`` (curl, javac, python3 -m venv: run by their own tests)."""
    if SODOS.match(line):
        words = shlex.split(line, comments=True)
        return "serve" if "serve" in words and words[0] == "sodos" else "sodos"
    return "pip" if PIP.match(line) else "other"


def run(line: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """One command line through bash (pipes and globs as a shell runs them)."""
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", line],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=TIMEOUT,
    )


def serve(line: str, folder: Path, env: dict[str, str], seconds: float = 120) -> tuple[int, str]:
    """A ``sodos serve`` line started as written but on loopback and a free port (the
    machine is shared: a fixed port may be taken), stopped once it says it listens.
    The exit status and what it printed on stderr."""
    words = shlex.split(line, comments=True)
    words[0] = str(sodos_command())
    process = subprocess.Popen(
        [*words, "--host", "127.0.0.1", "--port", "0"],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    said = ""
    deadline = time.monotonic() + seconds
    try:
        while "listening on" not in said and process.poll() is None:
            if time.monotonic() > deadline:
                break
            ready, _, _ = select.select([process.stderr], [], [], 1)
            if ready:
                said += process.stderr.readline()
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        said += process.communicate(timeout=60)[1]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if "listening on http://127.0.0.1:" not in said:
        return (process.returncode or 1, said)
    return process.returncode, said
