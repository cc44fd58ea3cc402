"""``sodos ratings``: every file accounted for, the games not rated counted by reason on
stderr; a valid record that cannot be rated never fails the run (docs/rules.md §10.1)."""

from __future__ import annotations

from conftest import shared_path

from sodos_plugin.cli import main


def test_a_server_folder_exits_0_with_its_record_without_result_excluded(capsys) -> None:
    folder = shared_path("sgf", "server")
    assert main(["ratings", str(folder), "--system", "ogs", "--no-cache"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert (
        f"excluded: {folder}/ogs_nested_RE-question.sgf: RE[?]: result unknown (not rated)" in err
    )
    assert (
        "sodos: 6 game(s) to rate; 1 excluded, 0 duplicate, 0 rejected (files, or games of one)"
        in err
    )
    assert "sodos: excluded 1: unfinished 1" in err
    assert not [line for line in err if line.startswith("rejected")]


def test_broken_files_still_stop_the_run_each_named(capsys) -> None:
    folder = shared_path("sgf", "malformed")
    broken = sorted(p.name for p in folder.iterdir() if p.name not in ("RE_in_second_node.sgf",))
    assert main(["ratings", str(folder), "--no-cache"]) == 2
    err = capsys.readouterr().err.splitlines()
    named = sorted(
        line.split(": ")[1].rsplit("/", 1)[1] for line in err if line.startswith("rejected: ")
    )
    assert named == broken
    assert f"sodos: rejected {len(broken)}: " in "\n".join(err)
    assert (
        err[-1]
        == f"sodos: error: {len(broken)} input file(s) rejected (use --skip-bad to continue)"
    )
    assert main(["ratings", str(folder), "--no-cache", "--skip-bad"]) == 0


def test_the_summary_counts_each_reason(tmp_path, capsys) -> None:
    records = {
        "a.sgf": "PB[Ann]PW[Bob]DT[2024-05-04]RE[B+R]",
        "b.sgf": "PB[Ann]PW[Ann]DT[2024-05-04]RE[B+R]",
        "c.sgf": "PB[Ann]PW[Bob]RE[B+R];B[aa]",
        "d.sgf": "PB[Ann]PW[Cid]DT[2024-05-05]RE[?]",
        "e.sgf": "PB[Cid]PW[Bob]DT[2017.06.21 19:43]RE[W+0.0]",
    }
    for name, props in records.items():
        (tmp_path / name).write_text(f"(;GM[1]{props})", "utf-8")
    assert main(["ratings", str(tmp_path), "--no-cache", "--format", "csv"]) == 0
    err = capsys.readouterr().err
    assert "sodos: 2 game(s) to rate; 3 excluded" in err
    assert "sodos: excluded 3: self-play 1, undated 1, unfinished 1" in err
