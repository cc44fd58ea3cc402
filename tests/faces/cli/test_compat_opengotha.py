"""``--compat opengotha`` and the notes of ``explain`` and ``check`` (docs/rules.md §7),
through the command as a user runs it."""

from __future__ import annotations

import json

from conftest import shared_path

from sodos_plugin.cli import main

EXAMPLES = ("conformance", "opengotha", "xml")


def run(capsys, *args):
    capsys.readouterr()
    status = main([*args, "--no-entry-points"])
    out = capsys.readouterr()
    return status, out.out, out.err


def sosm1(data: dict) -> dict:
    return {row["player"]["name"]: row["values"]["SOSM-1"] for row in data["standings"]}


def test_compat_option_and_config_print_opengothas_values(capsys, tmp_path):
    path = shared_path(*EXAMPLES, "example__V3_sosm1_round2.xml")
    status, out, _ = run(
        capsys, "standings", str(path), "--criteria", "MMS,SOSM-1", "--format", "json"
    )
    assert status == 0 and sosm1(json.loads(out))["Aa Ann"] == 30
    status, out, _ = run(
        capsys, "standings", str(path), "--criteria", "MMS,SOSM-1", "--format", "json",
        "--compat", "opengotha",
    )  # fmt: skip
    data = json.loads(out)
    assert status == 0 and set(sosm1(data).values()) == {0}
    assert any(w.startswith("compat opengotha (V3,") for w in data["warnings"])
    config = tmp_path / "sodos.toml"
    config.write_text('compat = "opengotha"\n')
    status, out, _ = run(
        capsys, "standings", str(path), "--criteria", "MMS,SOSM-1", "--format", "json",
        "--config", str(config),
    )  # fmt: skip
    assert set(sosm1(json.loads(out)).values()) == {0}


def test_compat_drops_the_games_opengotha_loses(host):
    path = shared_path(*EXAMPLES, "example__V1_missing_dataVersion.xml")
    t = host.read([path]).tournament
    ours = host.standings(t)
    theirs = host.standings(t, compat="opengotha")
    assert len(ours.tournament.games) == 1 and not theirs.tournament.games
    assert ours.value("MMS", 0) != theirs.value("MMS", 0)


def test_explain_says_what_opengotha_would_print_and_why(capsys):
    path = shared_path(*EXAMPLES, "example__V3_sosm1_round2.xml")
    status, out, _ = run(capsys, "explain", "Aa Ann", str(path), "--criteria", "MMS,SOSM-1")
    assert status == 0
    assert "OpenGotha 3.51 would print otherwise" in out
    assert "SOSM-1 = 0 (sodos: 30)" in out and "why: V3" in out
    status, out, _ = run(
        capsys, "explain", "Aa Ann", str(path), "--criteria", "MMS,SOSM-1", "--format", "json"
    )
    data = json.loads(out)
    assert data["opengotha"][0] == "SOSM-1 = 0 (sodos: 30)"
    # with compat there is nothing to say
    status, out, _ = run(
        capsys, "explain", "Aa Ann", str(path), "--criteria", "MMS,SOSM-1", "--compat", "opengotha"
    )
    assert "would print otherwise" not in out


def test_check_names_the_values_and_the_defect(capsys):
    path = shared_path(*EXAMPLES, "example__V2_genMMZero.xml")
    status, out, _ = run(capsys, "check", str(path))
    assert status == 0
    assert "note: OpenGotha 3.51 would print other values: MMS of" in out
    assert "why: V2 genMMZero ignored" in out
    path = shared_path(*EXAMPLES, "example__docs_mcmahon_example.xml")
    status, out, _ = run(capsys, "check", str(path))
    assert status == 0 and "note:" not in out
