"""Plugin rules: names compared case-insensitively,
family names standing for their W and M forms, isolation of failing plugins, and the
command line's plugin control (``-p``, ``-p no:``, the environment), through the
command where it is about the CLI.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from builders import seed_games, tournament, values
from conftest import builtin_host, on_path, shared_path
from sodos_hookspecs import Breakdown, Criterion, Reader, Writer, hookimpl

from sodos_plugin import ConfigError, Host, PluginError
from sodos_plugin.plugins.manager import KINDS, family_members

JUVISY = ("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")
# an OpenGotha file whose own criteria are MMS, SOSM, SODOSM
MCMAHON_EXAMPLE = ("conformance", "opengotha", "xml", "example__docs_mcmahon_example.xml")


def seed():
    return tournament([(p, "1d") for p in "ABCD"], 6, seed_games())


def constant(value: int):
    return lambda ctx: Breakdown(denominator=1, totals=[value] * ctx.size)


def form_marker(ctx) -> Breakdown:
    """1 in the W form, 2 in the M form: shows which form the host asked for."""
    return Breakdown(denominator=1, totals=[1 if ctx.form == "W" else 2] * ctx.size)


class Provides:
    """A run-time plugin providing the given criteria."""

    def __init__(self, *criteria: Criterion):
        self.criteria = list(criteria)

    @hookimpl
    def sodos_criteria(self):
        return self.criteria


def host_with(*plugins: tuple[str, object], config: dict | None = None) -> Host:
    host = builtin_host(config or {})
    for name, plugin in plugins:
        host.register(plugin, name=name)
    return host


# -- one rule for names ----------------------------------------------------------------


def test_kinds_table_lists_criteria_readers_writers():
    assert [(k.plural, k.hook, k.type) for k in KINDS][:3] == [
        ("criteria", "sodos_criteria", Criterion),
        ("readers", "sodos_readers", Reader),
        ("writers", "sodos_writers", Writer),
    ]


def test_criterion_names_are_case_insensitive_and_keep_the_builtin_spelling():
    host = host_with(("lower", Provides(Criterion("sosm", "lower-case SOSM", constant(7)))))
    info = host.registry.plugins["lower"]
    assert info.replaced == ["SOSM"]
    assert host.registry.criterion_owner["SOSM"] == "lower"
    assert "sosm" not in host.registry.criteria  # one name, shown as the built-in's
    s = host.standings(seed(), system="mcmahon", criteria=["mms", "SoSm"])
    assert s.criteria == ("MMS", "SOSM")
    assert set(values(s, "SOSM").values()) == {7}
    assert s.providers["SOSM"]["plugin"] == "lower"
    assert s.providers["SOSM"]["provided_as"] == "sosm"
    assert s.providers["SOSM"]["replaces"] == "builtin.sos"
    assert s.providers["MMS"] == {
        "plugin": "builtin.mms",
        "builtin": True,
        "origin": "builtin",
        "distribution": None,
        "version": None,
        "module": "sodos_plugin.criteria.mms",
        "provided_as": "MMS",
        "replaces": None,
    }
    assert s.as_dict()["providers"]["SOSM"]["plugin"] == "lower"


def test_writer_names_are_case_insensitive(host):
    import io

    s = host.standings(seed(), system="swiss", criteria=["NBW"])
    out = io.StringIO()
    host.write(s, "JSON", out)
    assert json.loads(out.getvalue())["criteria"] == ["NBW"]


def test_family_members_table():
    known = ["SODOSW", "SODOSM", "SODOMS", "SOSW-1", "SOSM-1", "SOSW", "SOSM"]
    assert family_members("SODOS", known) == [
        ("SODOSW", "W", 2),
        ("SODOSM", "M", 2),
        ("SODOMS", "M", 3),
    ]
    assert family_members("SOS-1", known) == [("SOSW-1", "W", 2), ("SOSM-1", "M", 2)]
    assert family_members("SODOSM", known) == [("SODOMS", "M", 1)]
    assert family_members("SODOMS", known) == [("SODOSM", "M", 1)]
    assert family_members("SOSW", known) == []  # a form stands only for itself


def test_a_bare_family_name_replaces_its_forms_each_in_its_form():
    host = host_with(("fam", Provides(Criterion("SODOS", "form marker", form_marker))))
    info = host.registry.plugins["fam"]
    assert info.replaced == ["SODOS", "SODOSW", "SODOSM", "SODOMS"]
    for system, generic in (("mcmahon", 2), ("swiss", 1)):
        s = host.standings(
            seed(), system=system, criteria=["NBW", "SODOS", "SODOSW", "SODOSM", "SODOMS"]
        )
        assert set(values(s, "SODOSW").values()) == {1}  # ctx.form == "W"
        assert set(values(s, "SODOSM").values()) == {2}  # ctx.form == "M"
        assert set(values(s, "SODOMS").values()) == {2}  # SODOMS is SODOSM
        assert set(values(s, "SODOS").values()) == {generic}  # the system's form
        assert s.providers["SODOSW"]["provided_as"] == "SODOS"


def test_explicit_forms_win_over_the_family_name():
    bare = Provides(Criterion("SODOS", "bare", constant(1)))
    mform = Provides(Criterion("SODOSM", "explicit M form", constant(5)))
    host = host_with(("bare", bare), ("mform", mform))
    owner = host.registry.criterion_owner
    assert owner["SODOSW"] == "bare" and owner["SODOS"] == "bare"
    assert owner["SODOSM"] == "mform"
    assert owner["SODOMS"] == "mform"  # SODOSM's own other name is closer than SODOS's form
    assert not host.registry.conflicts
    # one plugin giving both: its explicit W form is its own, not its bare name's
    both = Provides(Criterion("SODOS", "bare", constant(1)), Criterion("SODOSW", "w", constant(3)))
    s = host_with(("both", both)).standings(seed(), system="swiss", criteria=["SODOSW", "SODOSM"])
    assert set(values(s, "SODOSW").values()) == {3}
    assert set(values(s, "SODOSM").values()) == {1}


def test_opengotha_file_with_m_form_criteria_uses_the_family_replacement(host):
    path = shared_path(*JUVISY)
    builtin = host.standings(host.read([path]).tournament)
    assert builtin.criteria == ("MMS", "SOSM", "SOSOSM")  # the file's own M-form names
    sos7 = host_with(("sos7", Provides(Criterion("sos", "seven", constant(7)))))
    replaced = sos7.standings(sos7.read([path]).tournament)
    assert replaced.criteria == ("MMS", "SOSM", "SOSOSM")
    assert set(values(replaced, "SOSM").values()) == {7}
    assert values(replaced, "SOSOSM") == values(builtin, "SOSOSM")  # another family: built-in
    assert replaced.providers["SOSM"]["plugin"] == "sos7"
    example = shared_path(*MCMAHON_EXAMPLE)
    marker = host_with(("fam", Provides(Criterion("SODOS", "form marker", form_marker))))
    s = marker.standings(marker.read([example]).tournament)
    assert s.criteria == ("MMS", "SOSM", "SODOSM")
    assert set(values(s, "SODOSM").values()) == {2}


# -- isolation -----------------------------------------------------------------------


class Raises:
    """A plugin whose hook ``hook`` raises ``error``; it offers a criterion and a writer."""

    def __init__(self, hook: str, error: BaseException):
        self.hook, self.error = hook, error

    def _maybe(self, hook: str):
        if self.hook == hook:
            raise self.error

    @hookimpl
    def sodos_configure(self, config):
        self._maybe("sodos_configure")

    @hookimpl
    def sodos_criteria(self):
        self._maybe("sodos_criteria")

        def compute(ctx):
            self._maybe("compute")
            return Breakdown(denominator=1, totals=[0] * ctx.size)

        return [Criterion("RAISING", "raises", compute)]

    @hookimpl
    def sodos_readers(self):
        self._maybe("sodos_readers")

        def claims(path, head):
            self._maybe("claims")
            return path.name.endswith(".raising")

        def read(paths, options):
            self._maybe("read")
            raise AssertionError("unreachable")  # pragma: no cover

        return [Reader("raising", "raises", claims, read)]

    @hookimpl
    def sodos_writers(self):
        self._maybe("sodos_writers")

        def write(standings, stream):
            self._maybe("write")

        return [Writer("raising", "raises", write)]


class Custom(BaseException):
    pass


@pytest.mark.parametrize("error", [SystemExit(3), Custom("odd"), GeneratorExit()])
@pytest.mark.parametrize(
    "hook", ["sodos_configure", "sodos_criteria", "sodos_readers", "sodos_writers"]
)
def test_base_exceptions_in_registry_hooks_are_failures(hook, error):
    host = host_with(("raiser", Raises(hook, error)))
    (failure,) = host.registry.failures
    assert (failure.plugin, failure.hook) == ("raiser", hook)
    assert type(error).__name__ in str(failure)
    assert "RAISING" not in host.registry.criteria  # nothing it gave is used
    assert "raising" not in host.registry.writers
    s = host.standings(seed(), system="swiss", criteria=["NBW", "SODOS"])
    assert values(s, "SODOS") == {"A": 11, "B": 9, "C": 6, "D": 4}


@pytest.mark.parametrize("error", [SystemExit(3), Custom("odd")])
def test_base_exceptions_in_calls_are_plugin_errors(error, tmp_path):
    path = tmp_path / "x.raising"
    path.write_text("x")
    for hook, run in [
        ("compute (RAISING)", lambda h: h.standings(seed(), system="swiss", criteria=["RAISING"])),
        ("claims (raising)", lambda h: h.read([path])),
        ("read (raising)", lambda h: h.read([path])),
        ("write (raising)", lambda h: h.write(h.standings(seed()), "raising", None)),
    ]:
        short = hook.split(" ")[0]
        host = host_with(("raiser", Raises(short, error)))
        with pytest.raises(PluginError) as caught:
            run(host)
        assert (caught.value.plugin, caught.value.hook) == ("raiser", hook)
        assert type(error).__name__ in str(caught.value)


def test_keyboard_interrupt_is_not_swallowed():
    with pytest.raises(KeyboardInterrupt):
        host_with(("raiser", Raises("sodos_criteria", KeyboardInterrupt())))


def test_a_failing_plugin_never_unregisters_another_with_its_name(make_host, tmp_path, monkeypatch):
    (tmp_path / "sodos_named_twice.py").write_text(
        textwrap.dedent(
            """
            from sodos_hookspecs import Breakdown, Criterion, hookimpl

            @hookimpl
            def sodos_criteria():
                return [Criterion("FIRST", "first", lambda c: Breakdown(1, totals=[1] * c.size))]
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    host = make_host({"plugins": ["sodos_named_twice"]})
    first = host.plugin_host.pm.get_plugin("sodos_named_twice")
    host.register(Raises("sodos_criteria", RuntimeError("second")), name="sodos_named_twice")
    assert host.plugin_host.pm.get_plugin("sodos_named_twice") is first
    assert "FIRST" in host.registry.criteria
    assert host.registry.plugins["sodos_named_twice"].failed is None
    second = host.registry.plugins["sodos_named_twice#2"]
    assert "already taken by module sodos_named_twice" in second.failed
    # the same object under a second name: pluggy refuses it; the first stays
    host.register(first, name="another-name")
    assert host.plugin_host.pm.get_plugin("sodos_named_twice") is first
    assert host.registry.plugins["another-name"].failed
    assert "FIRST" in host.registry.criteria


def test_a_plugin_listing_one_criterion_twice_fails_alone():
    twice = Provides(Criterion("DUP", "one", constant(1)), Criterion("dup", "two", constant(2)))
    fine = Provides(Criterion("FINE", "fine", constant(3)))
    host = host_with(("twice", twice), ("fine", fine))
    (failure,) = host.registry.failures
    assert failure.plugin == "twice" and "lists criterion 'DUP' twice" in str(failure)
    assert "DUP" not in host.registry.criteria and "FINE" in host.registry.criteria
    s = host.standings(seed(), system="swiss", criteria=["NBW", "FINE"])
    assert set(values(s, "FINE").values()) == {3}


def test_a_criterion_whose_plugin_failed_says_so():
    class LaterFails(Provides):
        @hookimpl
        def sodos_writers(self):
            raise RuntimeError("writers exploded")

    host = host_with(("later", LaterFails(Criterion("NEWCRIT", "new", constant(1)))))
    with pytest.raises(ConfigError) as caught:
        host.standings(seed(), criteria=["NBW", "newcrit"])
    assert str(caught.value) == (
        "newcrit: its plugin 'later' failed to load: plugin 'later' failed in "
        "sodos_writers: RuntimeError: writers exploded"
    )
    warnings = host.standings(seed(), criteria=["NBW"]).warnings
    assert any("not used: NEWCRIT" in w for w in warnings)


# -- the command line ----------------------------------------------------------------

PLUGIN_MODULE = """
from sodos_hookspecs import Breakdown, Criterion, hookimpl

@hookimpl
def sodos_criteria():
    return [Criterion({name!r}, "constant {value} (test)",
                      lambda ctx: Breakdown(1, totals=[{value}] * ctx.size))]
"""


@pytest.fixture
def plugin_dir(tmp_path) -> Path:
    """Plugin modules and a distribution with entry points, on PYTHONPATH only."""
    folder = tmp_path / "site"
    folder.mkdir()
    for name, criterion, value in (
        ("sodos_p_seven", "sos", 7),
        ("sodos_p_eight", "EIGHT", 8),
        ("sodos_p_nine", "NINE", 9),
    ):
        (folder / f"{name}.py").write_text(PLUGIN_MODULE.format(name=criterion, value=value))
    (folder / "sodos_p_broken.py").write_text("raise ImportError('half installed')\n")
    dist = folder / "sodos_foo-1.2.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: sodos-foo\nVersion: 1.2\n")
    (dist / "entry_points.txt").write_text(
        "[sodos]\nfoo = sodos_p_eight\nbroken = sodos_p_broken\n"
    )
    return folder


def env_for(folder: Path, **more: str) -> dict:
    return {"PYTHONPATH": str(folder), **more}


def test_dash_p_loads_modules_before_or_after_the_command(sodos, plugin_dir):
    juvisy = shared_path(*JUVISY)
    env = env_for(plugin_dir)
    for args in (
        ["-p", "sodos_p_seven", "standings", juvisy, "--format", "json"],
        ["standings", juvisy, "-p", "sodos_p_seven", "--format", "JSON"],
        ["standings", "-p", "sodos_p_seven", juvisy, "--format", "json"],
    ):
        done = sodos(*args, env=env)
        assert done.status == 0, done.err
        data = json.loads(done.out)
        assert {row["values"]["SOSM"] for row in data["standings"]} == {7}
        assert data["providers"]["SOSM"]["plugin"] == "sodos_p_seven"
        assert data["providers"]["SOSM"]["replaces"] == "builtin.sos"
        line = "plugins: SOSM from module sodos_p_seven (named by -p) (replaces the built-in)"
        assert line in done.err.splitlines()


def test_dash_p_is_repeatable_and_blocks_with_no(sodos, plugin_dir):
    juvisy = shared_path(*JUVISY)
    env = env_for(plugin_dir)
    both = sodos(
        "-p", "sodos_p_nine", "standings", juvisy, "-p", "sodos_p_seven",
        "--criteria", "MMS,NINE,SOS", "--format", "json", env=env,
    )  # fmt: skip
    assert both.status == 0, both.err
    data = json.loads(both.out)
    assert data["providers"]["NINE"]["plugin"] == "sodos_p_nine"
    assert data["providers"]["SOS"]["plugin"] == "sodos_p_seven"
    blocked = sodos(
        "-p", "sodos_p_seven", "-p", "no:sodos_p_seven", "-p", "no:builtin.sodoms",
        "plugins", "--format", "json", env=env,
    )  # fmt: skip
    rows = {r["name"]: r for r in json.loads(blocked.out)}
    assert rows["sodos_p_seven"]["status"] == "blocked"
    assert rows["builtin.sodoms"]["status"] == "blocked"
    gone = sodos(
        "-p", "no:builtin.sodoms", "standings", juvisy, "--criteria", "MMS,SODOMS",
        env=env,
    )  # fmt: skip
    assert gone.status == 2 and "unknown criterion 'SODOMS'" in gone.err
    assert "plugins blocked in this run (-p no:NAME, disable) that may provide it: " in gone.err
    assert "'builtin.sodoms'" in gone.err.split("blocked in this run", 1)[1]
    typo = sodos("-p", "no:builtin.sodom", "plugins")
    assert "warning: blocked plugin 'builtin.sodom': no plugin has that name" in typo.out


@pytest.mark.slow
def test_environment_names_modules_and_disables_autoload(sodos, plugin_dir):
    juvisy = shared_path(*JUVISY)
    env = env_for(plugin_dir, SODOS_PLUGINS="sodos_p_nine, sodos_p_seven")
    done = sodos(
        "standings",
        juvisy,
        "--criteria",
        "MMS,NINE,SOS",
        "--format",
        "json",
        env={**env, "SODOS_DISABLE_PLUGIN_AUTOLOAD": "1"},
        entry_points=True,
    )
    assert done.status == 0, done.err
    data = json.loads(done.out)
    assert data["providers"]["SOS"]["plugin"] == "sodos_p_seven"
    rows = json.loads(
        sodos(
            "plugins",
            "--format",
            "json",
            env={**env, "SODOS_DISABLE_PLUGIN_AUTOLOAD": "1"},
            entry_points=True,
        ).out  # fmt: skip
    )
    assert "foo" not in {r["name"] for r in rows}  # entry points skipped
    auto = json.loads(sodos("plugins", "--format", "json", env=env, entry_points=True).out)
    foo = {r["name"]: r for r in auto}["foo"]
    assert (foo["distribution"], foo["version"], foo["criteria"]) == ("sodos-foo", "1.2", ["EIGHT"])
    # -p NAME loads one entry point by name when autoload is off, as pytest's -p does
    one = sodos(
        "-p",
        "foo",
        "plugins",
        "--format",
        "json",
        env=env_for(plugin_dir, SODOS_DISABLE_PLUGIN_AUTOLOAD="1"),
        entry_points=True,
    )
    names = {r["name"]: r for r in json.loads(one.out)}
    assert "foo" in names and "broken" not in names
    assert names["foo"]["named_by"] == "named by -p"


def test_a_named_module_that_cannot_be_imported_is_exit_2(sodos, plugin_dir):
    juvisy = shared_path(*JUVISY)
    for args, who in (
        (["-p", "sodos_p_nowhere"], "named by -p"),
        ([], "named in SODOS_PLUGINS"),
    ):
        env = env_for(plugin_dir) if args else env_for(plugin_dir, SODOS_PLUGINS="sodos_p_nowhere")
        done = sodos(*args, "standings", juvisy, env=env)
        assert done.status == 2
        assert done.err == (
            f"sodos: error: plugin module 'sodos_p_nowhere' ({who}) cannot be imported: "
            "ModuleNotFoundError: No module named 'sodos_p_nowhere'\n"
        )
    # `sodos plugins` still works and shows the failure as a row
    listing = sodos("-p", "sodos_p_nowhere", "plugins")
    assert listing.status == 0
    assert "sodos_p_nowhere [failed]: module sodos_p_nowhere (named by -p)" in listing.out
    assert "No module named 'sodos_p_nowhere'" in listing.out


def test_a_failing_entry_point_is_a_warning_naming_plugin_and_distribution(sodos, plugin_dir):
    juvisy = shared_path(*JUVISY)
    done = sodos("standings", juvisy, env=env_for(plugin_dir), entry_points=True)
    assert done.status == 0, done.err
    assert (
        "warning: plugin 'broken' failed in import: ImportError: half installed "
        "(distribution sodos-foo 1.2)" in done.out + done.err
    )
    asked = sodos(
        "standings",
        juvisy,
        "--criteria",
        "MMS,WHATEVER",
        env=env_for(plugin_dir),
        entry_points=True,
    )
    assert asked.status == 2
    assert "unknown criterion 'WHATEVER'" in asked.err
    assert "plugins that failed to load and may provide it: 'broken' (sodos-foo 1.2)" in (asked.err)


def test_plugins_always_works_conflicts_and_failures_are_rows(sodos, plugin_dir):
    (plugin_dir / "sodos_p_eight_too.py").write_text(PLUGIN_MODULE.format(name="EIGHT", value=0))
    env = env_for(plugin_dir)
    done = sodos("plugins", "-p", "sodos_p_eight", "-p", "sodos_p_eight_too", env=env)  # fmt: skip
    assert done.status == 0, done.err
    text = done.out
    assert text.index("sodos_p_eight") < text.index("built-in:")  # third-party first
    # sodos_p_eight is the module of the entry point 'foo': the plugin is 'foo' however
    # it is loaded (docs/plugins.md)
    assert (
        "foo [conflict]: entry point sodos_p_eight (distribution sodos-foo 1.2, named by -p)"
        in (text)
    )
    assert "sodos_p_eight_too [conflict]: module sodos_p_eight_too (named by -p)" in text
    assert (
        "    conflict: criterion 'EIGHT' is provided by plugins foo, "
        'sodos_p_eight_too; choose one with [prefer] EIGHT = "<plugin>"' in text
    )
    kinds = sodos("plugins", "--kind", "writer", "--all")
    assert "writer json — JSON standings for programs" in kinds.out
    assert "criterion" not in kinds.out
    bad = sodos("plugins", "--kind", "flavour")
    assert bad.status == 2 and "unknown kind" in bad.err


def test_version_lists_third_party_plugins(sodos, plugin_dir):
    done = sodos("--version", env=env_for(plugin_dir), entry_points=True)
    assert done.status == 0
    lines = done.out.splitlines()
    assert lines[0].startswith("sodos 0.")
    assert "  plugin foo: sodos-foo 1.2 (sodos_p_eight)" in lines
    assert "  plugin broken: sodos-foo 1.2 (sodos_p_broken)" in lines


# -- one name however a plugin is loaded (docs/plugins.md "Loading and blocking") ----------


def named(plugin_dir, monkeypatch, config=None, **options) -> Host:
    on_path(monkeypatch, plugin_dir)
    return Host(config or {}, config_file=False, **options)


LOADINGS = {
    "entry points": dict(entry_points=True),
    "-p by the entry point's name": dict(entry_points=False, plugins={"foo": "-p"}),
    "-p by the module": dict(entry_points=False, plugins={"sodos_p_eight": "-p"}),
    "config, entry point's name": dict(entry_points=True, config={"plugins": ["foo"]}),
    "config, module": dict(entry_points=True, config={"plugins": ["sodos_p_eight"]}),
    "config, module, no entry points": dict(
        entry_points=False, config={"plugins": ["sodos_p_eight"]}
    ),
}


@pytest.mark.parametrize("how", list(LOADINGS))
def test_a_plugin_has_its_entry_points_name_however_it_is_loaded(plugin_dir, monkeypatch, how):
    options = dict(LOADINGS[how])
    config = {**options.pop("config", {}), "plugin": {"foo": {"anything": 1}}}
    host = named(plugin_dir, monkeypatch, config, **options)  # [plugin.foo] is known
    eights = [n for n, i in host.registry.plugins.items() if i.module == "sodos_p_eight"]
    assert eights == ["foo"]
    assert host.registry.criterion_owner["EIGHT"] == "foo"
    assert not [f for f in host.registry.failures if f.plugin == "foo"]
    assert not [w for w in host.registry.warnings if "foo" in w]


def test_a_section_under_the_module_name_says_the_plugins_name(plugin_dir, monkeypatch):
    with pytest.raises(ConfigError, match=r"\[plugin.sodos_p_eight\]: the plugin of module "
                       r"'sodos_p_eight' is called 'foo' .*write \[plugin.foo\]"):  # fmt: skip
        assert named(plugin_dir, monkeypatch, {"plugin": {"sodos_p_eight": {}}}).registry


def test_a_misspelt_section_suggests_the_name(plugin_dir, monkeypatch):
    with pytest.raises(ConfigError, match=r"no plugin called 'fooo' .*did you mean foo\?"):
        assert named(plugin_dir, monkeypatch, {"plugin": {"fooo": {}}}).registry


@pytest.mark.parametrize("name", ["foo", "sodos_p_eight"])
def test_blocking_takes_the_plugins_name_or_its_module(plugin_dir, monkeypatch, name):
    host = named(plugin_dir, monkeypatch, disable=[name])
    assert "EIGHT" not in host.registry.criteria
    assert host.registry.plugins["foo"].blocked
    assert not [w for w in host.registry.warnings if "blocked" in w]


@pytest.mark.parametrize(
    "name, said",
    [
        ("fooo", "blocked plugin 'fooo': no plugin has that name (did you mean foo?)"),
        ("builtin.sgff", "no plugin has that name (did you mean builtin.sgf?)"),
        ("zzzz", "blocked plugin 'zzzz': no plugin has that name (sodos plugins --all lists"),
    ],
)
def test_blocking_a_name_no_plugin_has_is_said_once(plugin_dir, monkeypatch, name, said):
    host = named(plugin_dir, monkeypatch, {"disable": [name]}, disable=[name])
    assert [w for w in host.registry.warnings if "blocked" in w] == [
        w for w in host.registry.warnings if said in w
    ]
    assert len([w for w in host.registry.warnings if said in w]) == 1
    assert "EIGHT" in host.registry.criteria  # nothing else blocked


@pytest.mark.parametrize(
    "prefer, said",
    [
        ({"EIGHT": "bar"}, "[prefer] EIGHT = 'bar': no plugin called 'bar' is installed"),
        ({"EIGHT": "fo"}, "no plugin called 'fo' is installed (did you mean foo?)"),
        (
            {"EIGHT": "builtin.sos"},
            "'builtin.sos' does not provide EIGHT (it provides SOSW, SOSM, SOS)",
        ),
        ({"SOSM": "builtin.sodos"}, "'builtin.sodos' does not provide SOSM (it provides SODOS"),
        ({"EIGHT": "foo"}, None),
        ({"eight": "foo"}, None),  # names are case-insensitive
    ],
)
def test_prefer_naming_no_such_plugin_or_name_is_said(plugin_dir, monkeypatch, prefer, said):
    host = named(plugin_dir, monkeypatch, {"prefer": prefer})
    found = [w for w in host.registry.warnings if w.startswith("[prefer]")]
    assert found == ([] if said is None else [next(w for w in found if said in w)])


def test_prefer_a_bare_family_name_for_its_form_is_no_warning(make_host):
    @hookimpl
    def sodos_criteria():
        return [Criterion("SODOS", "x", lambda ctx: Breakdown(1, totals=[0] * ctx.size))]

    host = make_host({"prefer": {"SODOSW": "mine"}})
    host.register(type("P", (), {"sodos_criteria": staticmethod(sodos_criteria)}), name="mine")
    assert not [w for w in host.registry.warnings if w.startswith("[prefer]")]


def test_a_blocked_name_no_plugin_has_is_said_by_ratings_too(make_host, tmp_path):
    record = "(;GM[1]FF[4]PB[Ann]PW[Bob]BR[3k]WR[3k]DT[2024-01-02]RE[B+R];B[pd])"
    (tmp_path / "g.sgf").write_text(record)
    host = make_host({"cache": {"enabled": False}}, disable=["builtin.egff"])
    run = host.ratings(host.history([tmp_path]), rating="egf")
    assert "blocked plugin 'builtin.egff': no plugin has that name (did you mean builtin.egf?)" in (
        run.warnings
    )
