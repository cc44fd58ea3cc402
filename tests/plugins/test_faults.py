"""Plugin faults never take the host down.

Each fault is reported with the plugin's name and the hook; the built-in criteria,
readers and writers keep working in the same host; the CLI prints one line, and a
traceback only with ``--debug``. The faulty plugins live in ``tests/fault_plugins``
and are loaded as config-named modules (``plugins = [...]``).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from builders import SEED_SCHEDULE, seed_games, tournament, values
from conftest import TESTS, builtin_host

from sodos_plugin import ConfigError, Host, PluginError

FAULTS = TESTS / "fault_plugins"
ALL_FAULTY = [
    "sodos_fault_criteria",
    "sodos_fault_unknown_hook",
    "sodos_fault_hooks",
    "sodos_fault_reader_raises",
    "sodos_fault_writers",
    "sodos_fault_not_a_list",
    "sodos_fault_reader",
]

# The seed of tests/criteria/test_sensei_sodos_example.py: hand-checked values (docs/rules.md §2).
SEED_SODOS = {"A": 11, "B": 9, "C": 6, "D": 4}


def seed():
    return tournament("ABCD", 6, seed_games())


@pytest.fixture
def faulty(monkeypatch) -> Host:
    monkeypatch.syspath_prepend(str(FAULTS))
    return builtin_host({"plugins": ALL_FAULTY})


def failure(host: Host, plugin: str) -> PluginError:
    found = [f for f in host.registry.failures if f.plugin == plugin]
    assert len(found) == 1, [str(f) for f in host.registry.failures]
    return found[0]


# -- registration-time faults --------------------------------------------------------


def test_a_named_module_that_cannot_be_imported_is_an_error(make_host, monkeypatch):
    """As pytest's -p: the user asked for it, so the run stops, naming module and error."""
    monkeypatch.syspath_prepend(str(FAULTS))
    config = {"plugins": [*ALL_FAULTY, "sodos_fault_import"]}
    with pytest.raises(ConfigError) as caught:
        make_host(config)
    assert str(caught.value) == (
        "plugin module 'sodos_fault_import' (named in host config) cannot be imported: "
        "RuntimeError: this plugin cannot be imported"
    )
    # sodos plugins lists it as a row instead (raise_plugin_errors=False)
    host = make_host(config, raise_plugin_errors=False)
    error = failure(host, "sodos_fault_import")
    assert error.hook == "import"
    assert "this plugin cannot be imported" in str(error)
    assert host.registry.plugins["sodos_fault_import"].failed == str(error)


def test_unknown_hook_name_is_rejected_by_check_pending(faulty):
    error = failure(faulty, "sodos_fault_unknown_hook")
    assert error.hook == "check_pending"
    assert "sodos_critera" in str(error)
    assert "NEVER" not in faulty.registry.criteria


def test_hook_that_raises_unregisters_only_that_plugin(faulty):
    error = failure(faulty, "sodos_fault_hooks")
    assert error.hook == "sodos_criteria"
    assert "criteria hook exploded" in str(error)


def test_hook_returning_wrong_type(faulty):
    error = failure(faulty, "sodos_fault_not_a_list")
    assert error.hook == "sodos_writers"
    assert "expected a list of Writer" in str(error)


def test_configure_rejection_names_plugin_and_key(monkeypatch):
    monkeypatch.syspath_prepend(str(FAULTS))

    def configured(level):
        section = {"sodos_fault_configure": {"level": level}}
        config = {"plugins": ["sodos_fault_configure"], "plugin": section}
        return builtin_host(config)

    host = configured(3)
    error = failure(host, "sodos_fault_configure")
    assert error.hook == "sodos_configure" and "level" in str(error)
    assert "F-CONF" not in host.registry.criteria
    ok = configured("ok")
    assert not ok.registry.failures and "F-CONF" in ok.registry.criteria


def test_a_plugin_failing_in_configure_says_what_is_not_used(make_host, monkeypatch):
    # issue 33: the warning named the plugin and the key, not what the run goes without
    # (a replaced built-in silently came back); docs/plugins.md promises "not used: ..."
    monkeypatch.syspath_prepend(str(FAULTS))
    config = {"plugins": ["sodos_fault_configure"], "plugin": {"sodos_fault_configure": {}}}
    host = make_host(config)
    (warning,) = [w for w in host.plugin_warnings() if "sodos_fault_configure" in w]
    assert "sodos_configure" in warning and warning.endswith("not used: F-CONF")
    assert host.registry.plugins["sodos_fault_configure"].lost == {"criteria": ["F-CONF"]}


def test_a_plugin_failing_in_a_later_hook_contributes_nothing(make_host, monkeypatch):
    monkeypatch.syspath_prepend(str(FAULTS))
    host = make_host({"plugins": ["sodos_fault_later_hook"]})
    error = failure(host, "sodos_fault_later_hook")
    assert error.hook == "sodos_readers" and "readers hook exploded" in str(error)
    # its SODOS replacement was collected before the failure: dropped, the built-in stays
    assert host.registry.criterion_owner["SODOS"] == "builtin.sodos"
    assert host.registry.plugins["sodos_fault_later_hook"].criteria == []
    standings = host.standings(seed(), system="swiss", criteria=["NBW", "SODOS"])
    assert values(standings, "SODOS") == SEED_SODOS


def test_failures_are_exactly_the_faulty_plugins(faulty):
    failed = {f.plugin for f in faulty.registry.failures}
    assert failed == {
        "sodos_fault_unknown_hook",
        "sodos_fault_hooks",
        "sodos_fault_not_a_list",
    }


# -- compute-time faults ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        ("F-RAISES", "ZeroDivisionError: boom in a plugin"),
        ("F-WRONG-TYPE", "returned dict, not a Breakdown"),
        ("F-EXTRA-PLAYER", "gave 5 values for 4 players"),
        ("F-MISSING-PLAYER", "gave 3 values for 4 players"),
        ("F-SHORT-ROWS", "contributions are not 6 rounds × 4 players"),
        ("F-MISSING-ROUND", "contributions are not 6 rounds × 4 players"),
        ("F-FLOAT", "values must be integer numerators, got float"),
        ("F-TEXT", "values are not integers"),
        ("F-NONE", "values must be integer numerators, got NoneType"),
        ("F-DENOMINATOR", "denominator must be a positive integer"),
        ("F-HUGE", "a value of more than 100 digits"),
        ("F-HUGE-NEGATIVE", "a value of more than 100 digits"),
        ("F-HUGE-DENOMINATOR", "the denominator must be an integer of at most 100 digits"),
    ],
)
def test_faulty_criterion_is_reported_with_plugin_and_hook(faulty, criterion, expected):
    with pytest.raises(PluginError) as caught:
        faulty.standings(seed(), system="swiss", criteria=["NBW", criterion])
    error = caught.value
    assert error.plugin == "sodos_fault_criteria"
    assert error.hook == f"compute ({criterion})"
    assert expected in str(error)


def test_builtins_keep_working_beside_faulty_plugins(faulty, host):
    criteria = ["NBW", "SOS", "SOSOS", "SODOS"]
    # a faulty criterion run first must leave nothing behind in the host
    with pytest.raises(PluginError):
        faulty.standings(seed(), system="swiss", criteria=["F-RAISES"])
    broken = faulty.standings(seed(), system="swiss", criteria=criteria)
    clean = host.standings(seed(), system="swiss", criteria=criteria)
    for name in criteria:
        assert values(broken, name) == values(clean, name)
    assert values(broken, "SODOS") == SEED_SODOS
    assert broken.order == clean.order
    # the failures travel with the standings as warnings, naming each plugin
    for plugin in ("sodos_fault_unknown_hook", "sodos_fault_hooks", "sodos_fault_not_a_list"):
        assert any(plugin in w for w in broken.warnings)
    out = io.StringIO()
    faulty.write(broken, "json", out)
    assert json.loads(out.getvalue())


def test_faulty_writer_is_attributed(faulty):
    standings = faulty.standings(seed(), system="swiss", criteria=["NBW"])
    with pytest.raises(PluginError) as caught:
        faulty.write(standings, "boom", io.StringIO())
    assert caught.value.plugin == "sodos_fault_writers"
    assert caught.value.hook == "write (boom)"
    assert "MemoryError: writer exploded" in str(caught.value)


# -- reader faults -------------------------------------------------------------------


def test_reader_that_raises(faulty, tmp_path):
    path = tmp_path / "t.bad.json"
    path.write_text("{}")
    with pytest.raises(PluginError) as caught:
        faulty.read([path])
    assert caught.value.plugin == "sodos_fault_reader_raises"
    assert caught.value.hook == "read (bad-json)"
    assert "IndexError: reader exploded" in str(caught.value)


def test_reader_whose_claims_raises(faulty, tmp_path):
    path = tmp_path / "t.claims.json"
    path.write_text("{}")
    with pytest.raises(PluginError) as caught:
        faulty.read([path])
    assert caught.value.plugin == "sodos_fault_reader_raises"
    assert caught.value.hook == "claims (claims-raises)"


def test_reader_returning_wrong_type(faulty, tmp_path):
    path = tmp_path / "t.wrong.json"
    path.write_text("{}")
    with pytest.raises(PluginError) as caught:
        faulty.read([path])
    assert caught.value.hook == "read (wrong-json)"
    assert "did not return a ReadResult" in str(caught.value)


def test_good_reader_still_reads_beside_faulty_ones(faulty, tmp_path):
    path = write_tiny(tmp_path)
    result = faulty.read([path])
    standings = faulty.standings(result.tournament, system="swiss", criteria=["NBW", "SODOS"])
    assert values(standings, "SODOS") == SEED_SODOS


# -- the CLI: one line, traceback only with --debug -----------------------------------


def write_tiny(directory: Path) -> Path:
    names = list("ABCD")
    games = [
        [r + 1, names.index(w), names.index(loser), "B+"]
        for r, pairs in enumerate(SEED_SCHEDULE)
        for w, loser in pairs
    ]
    path = directory / "seed.tiny.json"
    path.write_text(json.dumps({"rounds": 6, "players": names, "games": games}))
    return path


@pytest.fixture
def run_cli(sodos, tmp_path):
    """``sodos ARGS`` in this process with every faulty plugin named by a config file."""
    config = tmp_path / "sodos.toml"
    config.write_text(f"plugins = {json.dumps(ALL_FAULTY)}\n")

    def run(*args: str):
        return sodos(*args, "--config", config, env={"PYTHONPATH": str(FAULTS)})

    return run


def test_cli_builtins_work_and_failures_are_warnings(run_cli, tmp_path):
    path = write_tiny(tmp_path)
    done = run_cli("standings", str(path), "--system", "swiss", "--criteria", "NBW,SODOS",
        "--format", "json", )  # fmt: skip
    assert done.status == 0, done.err
    assert "Traceback" not in done.err
    data = json.loads(done.out)
    assert data
    assert "plugin 'sodos_fault_unknown_hook' failed in check_pending" in done.err
    assert "plugin 'sodos_fault_hooks' failed in sodos_criteria" in done.err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["--criteria", "NBW,F-RAISES"],
            "plugin 'sodos_fault_criteria' failed in compute (F-RAISES): ZeroDivisionError",
        ),
        (
            ["--criteria", "NBW,F-EXTRA-PLAYER"],
            "plugin 'sodos_fault_criteria' failed in compute (F-EXTRA-PLAYER): gave 5 values",
        ),
        (
            ["--criteria", "NBW,F-FLOAT"],
            "plugin 'sodos_fault_criteria' failed in compute (F-FLOAT)",
        ),
        (["--format", "boom"], "plugin 'sodos_fault_writers' failed in write (boom)"),
    ],
)
def test_cli_plugin_fault_is_one_line_without_traceback(run_cli, tmp_path, args, expected):
    path = write_tiny(tmp_path)
    common = ["standings", str(path), "--system", "swiss", "--no-entry-points"]
    done = run_cli(*common, *args)
    assert done.status == 2
    assert expected in done.err
    assert "Traceback" not in done.err
    error_lines = [line for line in done.err.splitlines() if line.startswith("sodos: error")]
    assert len(error_lines) == 1
    debug = run_cli(*common, *args, "--debug")
    assert debug.status == 2
    assert "Traceback" in debug.err and expected in debug.err


def test_cli_reader_fault_is_one_line(run_cli, tmp_path):
    path = tmp_path / "x.bad.json"
    path.write_text("{}")
    done = run_cli("standings", str(path))
    assert done.status == 2
    assert "plugin 'sodos_fault_reader_raises' failed in read (bad-json)" in done.err
    assert "Traceback" not in done.err


def test_cli_plugins_lists_failures(run_cli):
    done = run_cli("plugins", "--format", "json")
    assert done.status == 0, done.err
    infos = {i["name"]: i for i in json.loads(done.out)}
    assert "check_pending" in infos["sodos_fault_unknown_hook"]["failed"]
    assert infos["builtin.sodos"]["criteria"] and not infos["builtin.sodos"]["failed"]
    check = run_cli("check")
    assert check.status == 1
    assert "error: plugin 'sodos_fault_hooks' failed in sodos_criteria" in check.out
    assert "Traceback" not in check.out + check.err


def test_entry_point_plugins_that_fail_are_reported_by_entry_point_name(monkeypatch, tmp_path):
    """Third-party distributions load through entry points: the same faults, the same reports."""
    dist = tmp_path / "sodos_broken_plugins-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: sodos-broken-plugins\nVersion: 1.0\n"
    )
    (dist / "entry_points.txt").write_text(
        "[sodos]\n"
        "broken-import = sodos_fault_import\n"
        "misspelt-hook = sodos_fault_unknown_hook\n"
        "missing-module = sodos_no_such_module_anywhere\n"
        "faulty-criteria = sodos_fault_criteria\n"
    )
    monkeypatch.syspath_prepend(str(FAULTS))
    monkeypatch.syspath_prepend(str(tmp_path))
    host = Host(config_file=False, entry_points=True)
    failed = {f.plugin: f for f in host.registry.failures}
    assert failed["broken-import"].hook == "import"
    assert failed["missing-module"].hook == "import"
    assert "sodos_no_such_module_anywhere" in str(failed["missing-module"])
    assert failed["misspelt-hook"].hook == "check_pending"
    info = host.registry.plugins["broken-import"]
    assert info.distribution == "sodos-broken-plugins" and info.version == "1.0"
    assert "F-RAISES" in host.registry.criteria
    standings = host.standings(seed(), system="swiss", criteria=["NBW", "SOSW", "SODOSW"])
    assert values(standings, "SODOSW") == SEED_SODOS
    with pytest.raises(PluginError) as caught:
        host.standings(seed(), system="swiss", criteria=["F-RAISES"])
    assert caught.value.plugin == "faulty-criteria"


def test_criterion_mutating_the_context_cannot_change_builtins(make_host, monkeypatch, host):
    monkeypatch.syspath_prepend(str(FAULTS))
    mutating = make_host({"plugins": ["sodos_fault_mutates"]})
    criteria = ["NBW", "SOSW", "SODOSW"]
    clean = host.standings(seed(), system="swiss", criteria=criteria)
    try:
        after = mutating.standings(seed(), system="swiss", criteria=["F-MUTATES", *criteria])
    except PluginError as error:  # refusing the plugin is fine too
        assert error.plugin == "sodos_fault_mutates"
        return
    for name in criteria:
        assert values(after, name) == values(clean, name)
