"""The plugin manager: built-ins registered like third parties,
entry points (group ``sodos``), config-named modules, replacement, conflicts and
``[prefer]``, blocking by name, check_pending, faults reported by plugin and hook.

The example third-party distribution in ``tests/example_plugin`` replaces ``SODOS`` with
the sum of defeated opponents' *wins* and adds ``WINS-VS-TOP``; its tests install it in a
temporary folder (conftest.install_temporarily), never in the environment.
"""

from __future__ import annotations

import textwrap

import pytest
from builders import seed_games, tournament, values

from sodos_plugin import Host, PluginError
from sodos_plugin.errors import ConfigError
from sodos_plugin.plugins.manager import builtin_modules


def seed():
    return tournament([(p, "1d") for p in "ABCD"], 6, seed_games())


# McMahon, all 1d (start MMS 30), built-in SODOS = SODOSM: Σ defeated opponents' MMS:
# final MMS A 34, B 34, C 33, D 31.  A beat B, C, C, D: 34 + 33 + 33 + 31 = 131;
# B beat A, C, D, D: 34 + 33 + 31 + 31 = 129; C beat B, D, D: 34 + 31 + 31 = 96; D: 34.
BUILTIN_SODOS_M = {"A": 131, "B": 129, "C": 96, "D": 34}
# the example's SODOS (defeated opponents' NBW): the seed's 11, 9, 6, 4 in every system
EXAMPLE_SODOS = {"A": 11, "B": 9, "C": 6, "D": 4}


def write_module(directory, name, body):
    (directory / f"{name}.py").write_text(textwrap.dedent(body), encoding="utf-8")


CRITERION_MODULE = """
    from sodos_hookspecs import Breakdown, Criterion, hookimpl

    def compute(ctx):
        return Breakdown(denominator=1, totals=[{value}] * ctx.size)

    @hookimpl
    def sodos_criteria():
        return [Criterion({name!r}, "test criterion", compute)]
"""


@pytest.fixture
def modules(tmp_path, monkeypatch):
    """A folder on sys.path for config-named plugin modules."""
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_builtins_are_registered_as_plugins(host):
    names = {name for name, _ in builtin_modules()}
    assert {"builtin.sodos", "builtin.sos", "builtin.nbw", "builtin.mms"} <= names
    for name in names:
        info = host.registry.plugins[name]
        assert info.origin == "builtin" and host.plugin_host.pm.get_plugin(name) is not None
    assert host.registry.criterion_owner["SODOS"] == "builtin.sodos"
    assert host.registry.criterion_owner["SODOMS"] == "builtin.sodoms"


def test_blocking_a_builtin(make_host, host):
    blocked = make_host({"disable": ["builtin.sodos"]})
    assert blocked.registry.plugins["builtin.sodos"].blocked
    assert "SODOSW" not in blocked.registry.criteria
    assert "SOS" in blocked.registry.criteria  # other built-ins untouched
    with pytest.raises(ConfigError, match="SODOSW"):
        blocked.standings(seed(), system="swiss", criteria=["NBW", "SODOSW"])


def test_example_plugin_replaces_sodos_and_adds_a_criterion(example_plugin):
    host = Host(config_file=False)  # entry points on
    info = host.registry.plugins["example"]
    assert info.origin == "entry point" and info.distribution == "sodos-example-plugin"
    assert host.registry.criterion_owner["SODOS"] == "example"
    assert info.replaced == ["SODOS", "SODOSW", "SODOSM", "SODOMS"]
    s = host.standings(seed(), system="mcmahon", criteria=["MMS", "SODOS", "WINS-VS-TOP"])
    assert values(s, "SODOS") == EXAMPLE_SODOS
    # final NBW 4, 4, 3, 1: the top half is NBW ≥ 4 (A, B); A beat B once, B beat A once,
    # C beat B once, D beat A once
    assert values(s, "WINS-VS-TOP") == {"A": 1, "B": 1, "C": 1, "D": 1}
    # the bare family name stands for its W and M forms too
    assert host.registry.criterion_owner["SODOSM"] == "example"


def test_blocking_the_example_restores_the_builtin(example_plugin):
    host = Host({"disable": ["example"]}, config_file=False)
    assert host.registry.plugins["example"].blocked
    assert host.registry.criterion_owner["SODOS"] == "builtin.sodos"
    assert "WINS-VS-TOP" not in host.registry.criteria
    s = host.standings(seed(), system="mcmahon", criteria=["MMS", "SODOS"])
    assert values(s, "SODOS") == BUILTIN_SODOS_M


def test_builtin_sodos_on_the_seed_in_mcmahon(host):
    s = host.standings(seed(), system="mcmahon", criteria=["MMS", "SODOS"])
    assert values(s, "SODOS") == BUILTIN_SODOS_M


def test_config_named_module_adds_and_replaces(make_host, modules):
    write_module(modules, "sodos_test_extra", CRITERION_MODULE.format(name="SOS", value=7))
    host = make_host({"plugins": ["sodos_test_extra"]})
    info = host.registry.plugins["sodos_test_extra"]
    # the bare family name stands for its W and M forms too (docs/plugins.md)
    assert info.origin == "config" and info.replaced == ["SOS", "SOSW", "SOSM"]
    s = host.standings(seed(), system="swiss", criteria=["NBW", "SOS"])
    assert set(values(s, "SOS").values()) == {7}
    # blocked by name: the built-in SOS is back (A's SOSW on the seed is 16)
    host = Host(
        {"plugins": ["sodos_test_extra"], "disable": ["sodos_test_extra"]},
        config_file=False,
        entry_points=False,
    )
    s = host.standings(seed(), system="swiss", criteria=["NBW", "SOS"])
    assert values(s, "SOS")["A"] == 16


def test_two_third_party_plugins_claiming_one_name(make_host, modules):
    write_module(modules, "sodos_claim_one", CRITERION_MODULE.format(name="SHARED", value=1))
    write_module(modules, "sodos_claim_two", CRITERION_MODULE.format(name="SHARED", value=2))
    config = {"plugins": ["sodos_claim_one", "sodos_claim_two"]}
    host = make_host(config)  # the host still starts
    (conflict,) = host.registry.conflicts
    assert conflict.plugins == ("sodos_claim_one", "sodos_claim_two")
    with pytest.raises(ConfigError) as error:
        host.standings(seed(), system="swiss", criteria=["NBW", "SHARED"])
    message = str(error.value)
    assert "SHARED" in message and "sodos_claim_one" in message and "sodos_claim_two" in message
    assert "prefer" in message
    for winner, value in (("sodos_claim_one", 1), ("sodos_claim_two", 2)):
        # [prefer] keys are case-insensitive like every criterion name
        host = make_host({**config, "prefer": {"shared": winner}})
        assert host.registry.criterion_owner["SHARED"] == winner
        assert not host.registry.conflicts
        s = host.standings(seed(), system="swiss", criteria=["NBW", "SHARED"])
        assert set(values(s, "SHARED").values()) == {value}


def test_two_third_party_plugins_replacing_a_builtin_conflict(make_host, modules):
    write_module(modules, "sodos_rep_one", CRITERION_MODULE.format(name="SOSOS", value=1))
    write_module(modules, "sodos_rep_two", CRITERION_MODULE.format(name="SOSOS", value=2))
    config = {"plugins": ["sodos_rep_one", "sodos_rep_two"]}
    host = make_host(config)
    # never a silent fall-back to the built-in: the name is unusable until [prefer] chooses
    assert "SOSOS" not in host.registry.criteria
    with pytest.raises(ConfigError, match="SOSOS.*sodos_rep_one, sodos_rep_two.*prefer"):
        host.standings(seed(), system="swiss", criteria=["NBW", "SOSOS"])
    host = make_host({**config, "prefer": {"SOSOS": "sodos_rep_two"}})
    assert host.registry.criterion_owner["SOSOS"] == "sodos_rep_two"
    assert host.registry.criterion_owner["SOSOSW"] == "sodos_rep_two"  # and its forms


def test_unknown_hook_name_is_reported_by_check_pending(make_host, modules):
    write_module(
        modules,
        "sodos_typo",
        """
        from sodos_hookspecs import hookimpl

        @hookimpl
        def sodos_criterias():
            return []
        """,
    )
    host = make_host({"plugins": ["sodos_typo"]})
    (failure,) = [f for f in host.registry.failures if f.plugin == "sodos_typo"]
    assert failure.hook == "check_pending" and "sodos_criterias" in str(failure)
    assert host.plugin_host.pm.get_plugin("sodos_typo") is None
    assert "SOS" in host.registry.criteria  # the rest keeps working


def test_plugin_that_raises_is_reported_by_name_and_hook(make_host, modules):
    write_module(
        modules,
        "sodos_raises",
        """
        from sodos_hookspecs import Criterion, hookimpl

        def compute(ctx):
            raise ZeroDivisionError("boom")

        @hookimpl
        def sodos_criteria():
            return [Criterion("BOOM", "raises", compute)]

        @hookimpl
        def sodos_writers():
            raise RuntimeError("no writers today")
        """,
    )
    host = make_host({"plugins": ["sodos_raises"]})
    (failure,) = [f for f in host.registry.failures if f.plugin == "sodos_raises"]
    assert failure.hook == "sodos_writers" and "no writers today" in str(failure)
    assert "table" in host.registry.writers  # other plugins' writers still there


def test_criterion_that_raises_names_plugin_and_criterion(make_host, modules):
    write_module(
        modules,
        "sodos_compute_raises",
        """
        from sodos_hookspecs import Criterion, hookimpl

        def compute(ctx):
            raise ZeroDivisionError("boom")

        @hookimpl
        def sodos_criteria():
            return [Criterion("BOOM", "raises", compute)]
        """,
    )
    host = make_host({"plugins": ["sodos_compute_raises"]})
    with pytest.raises(PluginError) as error:
        host.standings(seed(), system="swiss", criteria=["NBW", "BOOM"])
    assert error.value.plugin == "sodos_compute_raises"
    assert "BOOM" in error.value.hook and "ZeroDivisionError: boom" in str(error.value)


def test_missing_config_module_is_an_error_naming_module_and_import_error(make_host):
    with pytest.raises(ConfigError) as error:
        make_host({"plugins": ["sodos_no_such_module"]})
    assert str(error.value) == (
        "plugin module 'sodos_no_such_module' (named in host config) cannot be imported: "
        "ModuleNotFoundError: No module named 'sodos_no_such_module'"
    )
    host = Host(
        {"plugins": ["sodos_no_such_module"]},
        config_file=False,
        entry_points=False,
        raise_plugin_errors=False,
    )
    (failure,) = [f for f in host.registry.failures if f.plugin == "sodos_no_such_module"]
    assert failure.hook == "import"


def test_plugin_section_for_unknown_plugin_is_an_error(make_host):
    with pytest.raises(ConfigError, match="no_such_plugin"):
        make_host({"plugin": {"no_such_plugin": {"x": 1}}})


def test_configure_hands_each_plugin_its_own_section(modules):
    write_module(
        modules,
        "sodos_configured",
        """
        from sodos_hookspecs import hookimpl

        SEEN = []

        @hookimpl
        def sodos_configure(config):
            SEEN.append(dict(config))
        """,
    )
    import importlib

    Host(
        {"plugins": ["sodos_configured"], "plugin": {"sodos_configured": {"depth": 3}}},
        config_file=False,
        entry_points=False,
    )
    module = importlib.import_module("sodos_configured")
    assert module.SEEN[-1] == {"depth": 3}
