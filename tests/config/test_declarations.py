"""A config key is declared once (``Key`` in ``SCHEMA``): the settings, the check,
``sodos config`` and the docs' table follow from the declaration alone; each key is read
at its own dotted path (``settings.scoring.bye``), and the names before the grouping
still work, with a DeprecationWarning."""

from __future__ import annotations

import pickle
import warnings
from fractions import Fraction

import pytest

from sodos_plugin.cli import main
from sodos_plugin.config import settings as config
from sodos_plugin.config.settings import SCHEMA, Key, Settings, declare, resolve
from sodos_plugin.errors import ConfigError

NEW = Key("mirror.pool_size", config._as_count, 4, "connections the live store keeps open")


@pytest.fixture
def new_key(monkeypatch):
    """``mirror.pool_size`` declared, as one line in SCHEMA would declare it."""
    monkeypatch.setitem(SCHEMA, NEW.name, NEW)
    return NEW


def test_a_key_declared_alone_is_in_the_settings(new_key):
    assert resolve([]).mirror.pool_size == 4  # its default
    settings = resolve([("sodos.toml", {"mirror": {"pool_size": 9}})])
    assert settings.mirror.pool_size == 9 and settings.mirror["pool_size"] == 9
    assert settings.value("mirror.pool_size") == 9
    assert settings.origins["mirror.pool_size"] == "sodos.toml"
    assert dict(settings.mirror) == {"pool_size": 9}


@pytest.mark.parametrize("value", [0, -2, "many", True, 1.5])
def test_a_key_declared_alone_is_validated(new_key, value):
    with pytest.raises(ConfigError) as error:
        resolve([("-o mirror.pool_size=x", {"mirror": {"pool_size": value}})])
    assert error.value.where == "mirror.pool_size"
    assert str(error.value).startswith(
        "-o mirror.pool_size=x:mirror.pool_size: mirror.pool_size: expected a"
    )
    assert "integer" in str(error.value)


def test_a_key_declared_alone_is_in_sodos_config(new_key, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sodos.toml").write_text("[mirror]\npool_size = 12\n", encoding="utf-8")
    assert main(["config", "--no-entry-points"]) == 0
    lines = capsys.readouterr().out.splitlines()
    (line,) = [line for line in lines if line.split()[:1] == ["mirror.pool_size"]]
    assert line.split(None, 2)[1:] == ["=", f"12  ({tmp_path / 'sodos.toml'})"]
    assert lines[-1] == line  # the last key declared, the last shown
    assert main(["config", "--no-entry-points", "-o", "mirror.pool_size=0"]) == 2
    assert "mirror.pool_size: expected a positive integer" in capsys.readouterr().err


def test_every_key_is_at_its_dotted_path():
    settings = resolve([])
    for name in SCHEMA:
        node = settings
        for part in name.split("."):
            node = getattr(node, part)
        assert node == settings.value(name), name


def test_derived_defaults_follow_the_key_they_come_from():
    settings = resolve([("x", {"scoring": {"bye": "1/2"}, "system": "swiss"})])
    assert settings.scoring.bye_mms == Fraction(1, 2)  # scoring.bye_mms follows scoring.bye
    assert settings.criteria == ("NBW", "SOSW", "SOSOSW")  # the swiss preset
    assert Settings().criteria == ("MMS", "SOSM", "SOSOSM")
    assert settings.replace({"scoring.bye": Fraction(0)}).scoring.bye_mms == 0


@pytest.mark.parametrize("key", [key for key in SCHEMA.values() if key.alias])
def test_the_names_before_the_grouping_still_work_with_a_warning(key):
    settings = resolve([])
    with pytest.warns(DeprecationWarning, match=f"settings.{key.alias} is now settings.{key.name}"):
        value = getattr(settings, key.alias)
    assert value == settings.value(key.name)


def test_settings_are_read_only_and_pickle():
    settings = resolve([("x", {"mcmahon": {"bar": "3d"}, "plugin": {"x": {"y": 1}}})])
    with pytest.raises(AttributeError):
        settings.system = "swiss"
    with pytest.raises(AttributeError):
        settings.mcmahon.bar = 5
    with pytest.raises(AttributeError, match="no config key mcmahon.barr"):
        settings.mcmahon.barr  # noqa: B018
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        copy = pickle.loads(pickle.dumps(settings))
    assert copy == settings and copy.mcmahon.bar == 2 and copy.origins == settings.origins
    assert copy.plugin_sections == {"x": {"y": 1}}
    assert settings.serve == {key[6:]: SCHEMA[key].default for key in SCHEMA if "serve." in key}


@pytest.mark.parametrize(
    "name",
    ["origins", "prefer.x", "scoring", "scoring.bye.x", "serve.items", "form"],
)
def test_a_key_that_would_hide_another_name_is_refused(monkeypatch, name):
    monkeypatch.setitem(SCHEMA, name, Key(name, config._as_int, 1, "clash"))
    with pytest.raises(ValueError, match=name.replace(".", r"\.")):
        Settings()


def test_a_key_is_declared_once():
    with pytest.raises(ValueError, match="declared twice"):
        declare(NEW, NEW)
