"""Config entries: sodos.toml, [tool.sodos] in pyproject.toml, host dict, -o overrides.

Precedence, lowest first: the tournament file's own settings < config file < host dict
< ``-o key=value``. Unknown keys and wrong types are ConfigErrors
naming the key and the file.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from sodos_plugin import Host
from sodos_plugin.config.settings import find_config, load_file, parse_override, resolve
from sodos_plugin.errors import ConfigError


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_sodos_toml_is_found_and_read(tmp_path):
    write(tmp_path / "sodos.toml", 'system = "swiss"\n[mcmahon]\nbar = "3d"\n')
    assert find_config(tmp_path) == tmp_path / "sodos.toml"
    host = Host(cwd=tmp_path, entry_points=False)
    assert host.settings.system == "swiss"
    assert host.settings.mcmahon.bar == 2  # 3d
    assert host.settings.origins["system"] == str(tmp_path / "sodos.toml")


def test_pyproject_tool_sodos(tmp_path):
    write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "x"\n[tool.sodos]\ncriteria = ["NBW", "SODOS"]\n'
        "[tool.sodos.scoring]\nbye = 0.5\n",
    )
    assert find_config(tmp_path) == tmp_path / "pyproject.toml"
    settings = Host(cwd=tmp_path, entry_points=False).settings
    assert tuple(settings.criteria) == ("NBW", "SODOS")
    assert settings.scoring.bye == Fraction(1, 2)


def test_sodos_toml_wins_over_pyproject(tmp_path):
    write(tmp_path / "pyproject.toml", '[tool.sodos]\nsystem = "swiss"\n')
    write(tmp_path / "sodos.toml", 'system = "mcmahon"\n')
    assert find_config(tmp_path) == tmp_path / "sodos.toml"


def test_pyproject_without_tool_sodos_is_not_a_config(tmp_path):
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    assert find_config(tmp_path) is None
    assert Host(cwd=tmp_path, entry_points=False).settings.system == "mcmahon"  # default


def test_precedence_file_then_host_dict_then_overrides(tmp_path):
    config = write(
        tmp_path / "sodos.toml",
        'system = "swiss"\n[scoring]\nbye = 0\nabsent_nbw = 0.5\nround_down = false\n',
    )
    host = Host(
        {"scoring": {"bye": 0.5, "absent_nbw": 1}},
        config_file=config,
        overrides=["scoring.absent_nbw=0.25"],
        entry_points=False,
    )
    s = host.settings
    assert s.system == "swiss"  # only in the file
    assert s.scoring.round_down is False  # only in the file
    assert s.scoring.bye == Fraction(1, 2)  # host dict over file
    assert s.scoring.absent_nbw == Fraction(1, 4)  # -o over host dict and file
    assert s.origins["scoring.absent_nbw"] == "-o scoring.absent_nbw=0.25"
    assert s.origins["scoring.bye"] == "host config"


def test_tournament_settings_are_below_user_config(make_host):
    from builders import tournament

    t = tournament([("A", "1d")], 0, [], settings={"system": "swiss", "mcmahon": {"bar": "1d"}})
    host = make_host({"mcmahon": {"bar": "4d"}})
    s = host.settings_for(t)
    assert s.system == "swiss"  # the file's own setting applies when config is silent
    assert s.mcmahon.bar == 3  # user config wins: 4d
    # options of the call win over everything
    assert host.settings_for(t, system="mcmahon").system == "mcmahon"


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("system=swiss", "system", "swiss"),
        ("mcmahon.bar=3d", "mcmahon.bar", 2),
        ("scoring.round_down=false", "scoring.round_down", False),
        ('criteria=["NBW","SOS"]', "criteria", ("NBW", "SOS")),
        ("criteria=NBW,SOS", "criteria", ("NBW", "SOS")),  # comma-separated string
        ("scoring.bye=1/2", "scoring.bye", Fraction(1, 2)),
    ],
)
def test_override_values(text, key, value):
    s = resolve([("-o", parse_override(text))])
    got = {
        "system": s.system,
        "mcmahon.bar": s.mcmahon.bar,
        "scoring.round_down": s.scoring.round_down,
        "criteria": tuple(s.criteria),
        "scoring.bye": s.scoring.bye,
    }[key]
    assert got == value


def test_all_documented_keys_are_accepted():
    layer = {
        "system": "mcmahon",
        "criteria": ["MMS", "SOS"],
        "plugins": [],
        "disable": [],
        "mcmahon": {"bar": "4d", "floor": "20k", "zero": "30k"},
        "scoring": {"bye": 1, "absent_nbw": 0, "absent_mms": 0.5, "round_down": True},
        "unplayed": {"virtual_opponent": "egf"},
        "handicap": {"sos_correction": True},
        "plugin": {"example": {"anything": 1}},
    }
    s = resolve([("host config", layer)])
    assert (s.mcmahon.bar, s.mcmahon.floor, s.mcmahon.zero) == (3, -20, -30)
    assert s.plugin_sections["example"] == {"anything": 1}


def test_defaults():
    s = resolve([])
    assert s.system == "mcmahon"
    assert s.mcmahon.zero == -30  # 30k
    scoring = (s.scoring.bye, s.scoring.bye_mms, s.scoring.absent_nbw, s.scoring.absent_mms)
    assert scoring == (1, 1, 0, Fraction(1, 2))
    assert s.scoring.round_down is True and s.handicap.sos_correction is True
    assert s.unplayed.virtual_opponent == "egf"
    assert list(s.criteria) == ["MMS", "SOSM", "SOSOSM"]  # OpenGotha McMahon preset
    assert list(resolve([("x", {"system": "swiss"})]).criteria) == ["NBW", "SOSW", "SOSOSW"]


def test_unknown_key_names_key_and_file(tmp_path):
    config = write(tmp_path / "sodos.toml", "[scoring]\nbyes = 1\n")
    with pytest.raises(ConfigError) as error:
        Host(config_file=config, entry_points=False)
    message = str(error.value)
    assert "scoring.byes" in message and str(config) in message


@pytest.mark.parametrize(
    "toml, key",
    [
        ('system = "round-robin"', "system"),
        ("system = 3", "system"),
        ("criteria = [1, 2]", "criteria"),
        ('disable = {a = "b"}', "disable"),
        ('[scoring]\nround_down = "yes please"', "scoring.round_down"),
        ('[scoring]\nbye = "lots"', "scoring.bye"),
        ("[scoring]\nbye = 0.3", "scoring.bye"),  # not an exact half/quarter
        ("[scoring]\nabsent_nbw = -1", "scoring.absent_nbw"),  # points are never negative
        ('[scoring]\nabsent_mms = "-1/2"', "scoring.absent_mms"),
        ('[mcmahon]\nbar = "99x"', "mcmahon.bar"),
        ("[handicap]\nsos_correction = 2", "handicap.sos_correction"),
    ],
)
def test_wrong_type_names_key_and_file(tmp_path, toml, key):
    config = write(tmp_path / "sodos.toml", toml + "\n")
    with pytest.raises(ConfigError) as error:
        Host(config_file=config, entry_points=False)
    message = str(error.value)
    assert key in message and str(config) in message


def test_wrong_type_in_host_dict_and_override_names_the_layer(make_host):
    with pytest.raises(ConfigError, match="host config") as error:
        make_host({"mcmahon": {"zero": 5.5}})
    assert "mcmahon.zero" in str(error.value)
    with pytest.raises(ConfigError, match=r"-o scoring\.round_down") as error:
        Host(config_file=False, overrides=["scoring.round_down=7"], entry_points=False)
    with pytest.raises(ConfigError, match="key=value"):
        parse_override("no-equals-sign")


def test_invalid_toml_names_the_file(tmp_path):
    config = write(tmp_path / "sodos.toml", "system = \n")
    with pytest.raises(ConfigError, match="not valid TOML") as error:
        load_file(config)
    assert str(config) in str(error.value)


def test_seconds_beyond_a_float_are_a_config_error_not_an_overflow():
    """A key in seconds given an integer too large for a float (found by the config fuzz
    test on store.busy_timeout) is refused naming the key, as any value out of range."""
    for key in ("serve.timeout", "store.busy_timeout"):
        table, name = key.split(".")
        for value in (10**400, -(10**400)):
            with pytest.raises(ConfigError, match="between 0 and 86400") as error:
                resolve([("t.toml", {table: {name: value}})])
            assert error.value.where == key
