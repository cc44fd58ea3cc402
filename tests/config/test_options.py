"""A bad plugin option is a ConfigError naming its section and key, whichever reader finds
it (config/options.py): the h9, OpenGotha XML, JSON and SGF readers and the game
history's games tables check ``max_bytes``-like options with the one check."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import TESTS

from sodos_plugin import Host
from sodos_plugin.config.options import positive_integer
from sodos_plugin.errors import ConfigError, InputError
from sodos_plugin.readers import h9, json_tournament, opengotha_file
from sodos_plugin.readers.sgf.options import parse_options

H9 = TESTS / "data" / "egd" / "wagc2015.txt"
XML = TESTS / "data" / "sample_tournament.xml"
BAD = [0, -1, True, False, 1.5, "5", None, -(10**5000)]


@pytest.mark.parametrize("value", BAD, ids=range(len(BAD)))
def test_anything_but_an_integer_above_zero_is_refused(value):
    with pytest.raises(ConfigError) as error:
        positive_integer(value, "max_bytes", "[plugin.x]")
    assert (error.value.source, error.value.where) == ("[plugin.x]", "max_bytes")
    assert str(error.value).startswith("[plugin.x]:max_bytes: expected a positive integer, got ")
    assert len(str(error.value)) < 120  # a huge integer is not printed whole


@pytest.mark.parametrize("value", [1, 7, 1 << 40])
def test_an_integer_above_zero_is_the_value(value):
    assert positive_integer(value, "max_bytes", "[plugin.x]") == value


def games_table(tmp_path: Path) -> Path:
    path = tmp_path / "games.csv"
    path.write_text("date,black,white,result\n2024-01-02,Ann,Bob,B+\n", encoding="utf-8")
    return path


def _h9(tmp_path, value):
    return h9.read([H9], {"max_bytes": value})


def _xml(tmp_path, value):
    return opengotha_file.read([XML], {"max_nodes": value})


def _json(tmp_path, value):
    return json_tournament.Limits.from_options({"max_values": value})


def _sgf(tmp_path, value):
    return parse_options({"max_games_per_file": value})


def _history(tmp_path, value):
    host = Host(
        {"plugin": {"builtin.games_table": {"max_bytes": value}}},
        config_file=False,
        entry_points=False,
    )
    return host.history([games_table(tmp_path)])


#: (reader, its section, the option checked): each was its own check before, two of them
#: raising InputError
SITES = [
    (_h9, "[plugin.builtin.h9]", "max_bytes"),
    (_xml, "[plugin.builtin.opengotha_xml]", "max_nodes"),
    (_json, "[plugin.builtin.json_tournament]", "max_values"),
    (_sgf, '[plugin."builtin.sgf"]', "max_games_per_file"),
    (_history, "[plugin.builtin.games_table]", "max_bytes"),
]


@pytest.mark.parametrize(("read", "section", "key"), SITES)
@pytest.mark.parametrize("value", [0, -3, True, "64"])
def test_every_reader_refuses_a_bad_option_as_a_config_error(tmp_path, read, section, key, value):
    with pytest.raises(ConfigError) as error:
        read(tmp_path, value)
    assert not isinstance(error.value, InputError)
    assert (error.value.source, error.value.where) == (section, key)
    assert f"{section}:{key}: expected a positive integer" in str(error.value)


@pytest.mark.parametrize(("read", "section", "key"), SITES)
def test_every_reader_takes_a_good_option(tmp_path, read, section, key):
    assert read(tmp_path, 1 << 30) is not None


def test_the_jobs_run_option_is_checked_too():
    with pytest.raises(ConfigError, match="expected a positive integer, got 0"):
        parse_options({"jobs": 0})
    assert parse_options({"jobs": 3}).jobs == 3


def test_through_the_host_the_h9_reader_names_the_key(make_host):
    host = make_host({"plugin": {"builtin.h9": {"max_bytes": 0}}})
    with pytest.raises(ConfigError, match=r"\[plugin\.builtin\.h9\]:max_bytes: expected"):
        host.read([H9])
