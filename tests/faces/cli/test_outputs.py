"""``--output`` and ``--save-state`` never replace an input of the same command, nor each
other, and are replaced only once the whole run succeeded (issue 33, outputs).

Each refusal is one line naming both paths, exit 2, and every file on disk is as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sodos_plugin.cli import ratings as ratings_command
from sodos_plugin.errors import OutputError
from sodos_plugin.writers import output as written

H9 = """\
; EV[Test cup]
; DT[2024-05-04]
; HA[h9]
; Pl Name Rk Co Club NBW
1 Ann B 3d FR Par 1 2+/w0
2 Bob C 2d FR Par 0 1-/b0
"""
GAMES = "date,black,white,result\n2024-05-04,Ann,Bob,B+R\n2024-05-05,Bob,Ann,W+R\n"
START = "name,rating\nAnn,2100\nBob,2000\n"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }


def refused(done, *paths: str) -> str:
    assert done.status == 2, (done.out, done.err)
    lines = done.err.splitlines()
    assert len(lines) == 1, done.err
    assert "refused, nothing written" in lines[0]
    for path in paths:
        assert path in lines[0]
    return lines[0]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "t.h9").write_text(H9, "utf-8")
    (tmp_path / "games.csv").write_text(GAMES, "utf-8")
    (tmp_path / "start.csv").write_text(START, "utf-8")
    return tmp_path


def test_the_inputs_work_as_given(sodos, files):
    """The fixture's files are good inputs: the refusals below are about the paths."""
    assert sodos("standings", "t.h9").status == 0
    done = sodos("ratings", "games.csv", "--initial", "start.csv", "--rating", "glicko2")
    assert done.status == 0, done.err


def test_standings_output_onto_its_input_is_refused(sodos, files):
    before = snapshot(files)
    line = refused(sodos("standings", "t.h9", "--output", "t.h9"), "--output t.h9", "input t.h9")
    assert line.startswith("sodos: error: ")
    assert snapshot(files) == before


def test_save_state_onto_the_history_is_refused(sodos, files):
    before = snapshot(files)
    done = sodos("ratings", "games.csv", "--rating", "glicko2", "--save-state", "games.csv")
    refused(done, "--save-state games.csv", "input games.csv")
    assert snapshot(files) == before


def test_output_onto_the_initial_ratings_is_refused(sodos, files):
    before = snapshot(files)
    done = sodos("ratings", "games.csv", "--initial", "start.csv", "--output", "start.csv")
    refused(done, "--output start.csv", "--initial start.csv")
    assert snapshot(files) == before


def test_output_and_save_state_onto_each_other_are_refused(sodos, files):
    before = snapshot(files)
    done = sodos(
        "ratings", "games.csv", "--rating", "glicko2", "--save-state", "x", "--output", "x"
    )
    refused(done, "--output x", "--save-state x")
    assert snapshot(files) == before
    assert not (files / "x").exists()


def test_the_same_file_by_another_path_is_refused(sodos, files):
    """A symbolic link, a hard link and a path with ``..`` are the same file."""
    os.symlink(files / "t.h9", files / "link.h9")
    os.link(files / "t.h9", files / "hard.h9")
    (files / "sub").mkdir()
    before = snapshot(files)
    refused(sodos("standings", "t.h9", "--output", "link.h9"), "link.h9", "t.h9")
    refused(sodos("standings", "t.h9", "--output", "hard.h9"), "hard.h9", "t.h9")
    refused(sodos("standings", "t.h9", "--output", "sub/../t.h9"), "sub/../t.h9", "t.h9")
    assert snapshot(files) == before


def test_a_file_of_an_input_folder_is_refused(sodos, files):
    (files / "games").mkdir()
    (files / "games" / "a.csv").write_text(GAMES, "utf-8")
    before = snapshot(files)
    done = sodos("ratings", "games", "--rating", "glicko2", "--output", "games/a.csv")
    refused(done, "--output games/a.csv", "input folder games")
    assert snapshot(files) == before
    # a new file beside the inputs overwrites nothing
    done = sodos("ratings", "games", "--rating", "glicko2", "--output", "games/r.txt")
    assert done.status == 0, done.err
    assert (files / "games" / "r.txt").read_text("utf-8").strip()


def test_config_and_state_are_inputs_too(sodos, files):
    (files / "sodos.toml").write_text("", "utf-8")
    done = sodos("standings", "t.h9", "--config", "sodos.toml", "--output", "sodos.toml")
    refused(done, "--output sodos.toml", "--config sodos.toml")
    assert (files / "sodos.toml").read_text("utf-8") == ""
    assert (
        sodos("ratings", "games.csv", "--rating", "glicko2", "--save-state", "s.json").status == 0
    )
    saved = (files / "s.json").read_bytes()
    done = sodos(
        "ratings", "games.csv", "--rating", "glicko2", "--state", "s.json", "--save-state", "s.json"
    )
    refused(done, "--save-state s.json", "--state s.json")
    assert (files / "s.json").read_bytes() == saved


def test_a_failed_state_leaves_the_old_output(sodos, files, monkeypatch):
    """Both files are moved into place only once both are complete: a state that cannot be
    written leaves the old ``--output`` (it was replaced first before)."""
    (files / "r.txt").write_text("old ratings\n", "utf-8")
    (files / "s.json").write_text("old state\n", "utf-8")

    def broken(*args, **kwargs):
        raise OutputError("cannot write: disk full")

    monkeypatch.setattr(ratings_command, "write_state", broken)
    done = sodos(
        "ratings", "games.csv", "--rating", "glicko2", "--output", "r.txt", "--save-state", "s.json"
    )
    assert done.status == 2
    assert (files / "r.txt").read_text("utf-8") == "old ratings\n"
    assert (files / "s.json").read_text("utf-8") == "old state\n"
    assert sorted(p.name for p in files.iterdir() if p.name.endswith(".tmp")) == []


def test_atomic_files_commit_together_or_not_at_all(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("old a", "utf-8")
    with pytest.raises(RuntimeError), written.AtomicFiles() as out:
        with out.open(a) as handle:
            handle.write("new a")
        raise RuntimeError("the run failed after the first file")
    assert a.read_text("utf-8") == "old a"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]
    with written.AtomicFiles() as out:
        with out.open(a) as handle:
            handle.write("new a")
        with out.open(b) as handle:
            handle.write("new b")
    assert (a.read_text("utf-8"), b.read_text("utf-8")) == ("new a", "new b")


def test_refuse_overwrite_takes_the_faces_labels(tmp_path):
    source = tmp_path / "in.xml"
    source.write_text("x", "utf-8")
    with pytest.raises(OutputError, match=r"^out .*in\.xml would overwrite the tournament "):
        written.refuse_overwrite([("tournament", source)], [("out", source)])
    written.refuse_overwrite([("tournament", source)], [("out", tmp_path / "other.xml")])
