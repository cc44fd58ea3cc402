"""The JSON tournament format: reader, schema, limits, errors by JSON path, convert.

* the shipped schema and the run-time checks (:mod:`sodos_plugin.schemas.shape`) agree with
  the ``jsonschema`` package on valid and mutated documents (hypothesis);
* every error names the JSON path of the bad value;
* ``sodos convert`` writes real XML, h9 and SGF inputs as documents that read back to
  the same tournament and the same standings.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT, shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import Game, Host, Player, Result, schemas
from sodos_plugin.engine.model import NO_IDS
from sodos_plugin.errors import InputError
from sodos_plugin.readers import json_tournament
from sodos_plugin.readers.json_tournament import Limits, dumps, parse, to_document
from sodos_plugin.schemas.shape import ShapeError, compile_schema, json_path

DOC = {
    "format": "sodos-tournament",
    "version": 1,
    "name": "Club league",
    "date": "2026-03-14",
    "rounds": 2,
    "players": [
        {"name": "Ann", "rank": "2d", "rating": 2150.5, "club": "Ber", "country": "DE"},
        {"name": "Bob", "id": "b-7", "rank": "1d", "start_score": "61/2"},
        {"name": "Cid", "rank": "5k", "smms_correction": -1},
    ],
    "games": [
        {"round": 1, "black": "Bob", "white": "Ann", "result": "B+", "komi": 6.5},
        {"round": 2, "black": 2, "white": "b-7", "result": "W+", "handicap": 1},
    ],
    "byes": [{"round": 1, "player": "cid"}],
    "absences": [{"round": 2, "player": "ANN"}],
    "settings": {"system": "mcmahon", "scoring": {"bye": "1/2"}},
}


def encoded(document) -> bytes:
    return json.dumps(document).encode("utf-8")  # escapes: lone surrogates can be sent


def changed(**changes):
    document = copy.deepcopy(DOC)
    for path, value in changes.items():
        node = document
        parts = path.split("__")
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(parts[-1])] = value
        else:
            node[parts[-1]] = value
    return document


def error_at(document, where: str, fragment: str = "", **options) -> InputError:
    data = document if isinstance(document, bytes) else encoded(document)
    with pytest.raises(InputError) as caught:
        parse(data, "t.json", options)
    assert caught.value.where == where, str(caught.value)
    assert fragment in caught.value.message, str(caught.value)
    assert str(caught.value).startswith(f"t.json:{where}: ")
    return caught.value


# -- reading ------------------------------------------------------------------------------


def test_reads_every_field():
    tournament, warnings = parse(encoded(DOC), "t.json")
    assert warnings == []
    ann, bob, cid = tournament.players
    assert (ann.name, ann.rank, ann.rating, ann.club, ann.country) == (
        "Ann",
        1,
        2150.5,
        "Ber",
        "DE",
    )
    assert (bob.id, bob.start_score) == ("b-7", Fraction(61, 2))
    assert (cid.rank, cid.smms_correction) == (-5, -1)
    assert tournament.name == "Club league" and tournament.date == "2026-03-14"
    first, second = tournament.games
    assert (first.black, first.white, first.result) == (1, 0, Result.BLACK_WINS)
    assert (second.black, second.white, second.handicap) == (2, 1, 1)
    assert tournament.byes == {(1, 2)} and tournament.absences == {(2, 0)}
    assert tournament.settings["scoring"] == {"bye": "1/2"}


def test_standings_of_a_hand_computed_tournament(host, tmp_path):
    """Start scores (no bar, 30k = 0): Ann 2d 31, Bob explicit 30.5, Cid 5k 25 - 1 = 24.
    R1 Bob beats Ann, Cid has the bye (½ by the document's settings); R2 Bob beats Cid,
    Ann is absent (½ by default). MMS: Bob 32.5; Ann 31 + ⌊½⌋ = 31; Cid 24 + ⌊½⌋ = 24
    (the running total of bye and absence points is floored)."""
    path = tmp_path / "t.json"
    path.write_bytes(encoded(DOC))
    read = host.read([path])
    standings = host.standings(read.tournament)
    values = {row.player.name: row.values["MMS"] for row in standings.rows()}
    assert values == {"Bob": Fraction(65, 2), "Ann": 31, "Cid": 24}


def test_reference_by_name_follows_the_identity_rule():
    document = changed(games__0__black="  bob ", games__0__white="ＡＮＮ")
    tournament, _ = parse(encoded(document), "t.json")
    assert (tournament.games[0].black, tournament.games[0].white) == (1, 0)


def test_shared_names_are_warned_and_need_an_index():
    document = changed(players__2__name="ann", games__0__white=0)
    document["byes"] = [{"round": 1, "player": 2}]
    document["absences"] = []
    _, warnings = parse(encoded(document), "t.json")
    assert len(warnings) == 1 and "players[0] and players[2] are both called" in warnings[0]
    document["absences"] = [{"round": 2, "player": "Ann"}]
    error_at(document, "absences[0].player", "both called")


def test_two_games_in_one_round_name_both():
    document = changed()
    document["games"].append({"round": 1, "black": "Ann", "white": "Cid", "result": "?"})
    document["byes"] = []
    try:
        _, warnings = parse(encoded(document), "t.json")
    except InputError as error:  # a model that refuses them
        assert "games[0] and games[2]" in str(error) and error.where == "games[2]"
    else:  # a model that accepts them, as OpenGotha does: still said
        assert any("games[0] and games[2]" in warning for warning in warnings)


@pytest.mark.parametrize(
    "document, where, fragment",
    [
        (changed(games__0__white="Zed"), "games[0].white", "no player has the id or name"),
        (changed(games__1__black=7), "games[1].black", "no player at index 7"),
        (changed(games__1__black=-1), "games[1].black", "expected a value in 0.."),
        (changed(games__1__black=1.5), "games[1].black", "expected an integer"),
        (changed(games__1__black=None), "games[1].black", "an integer or a string"),
        (changed(games__1__white=2), "games[1].white", "the same player as black"),
        (changed(games__1__round=3), "games[1].round", "after the last round"),
        (changed(games__1__round=0), "games[1].round", "1..64"),
        (changed(games__1__result="W+R"), "games[1].result", "expected one of"),
        (changed(games__1__handicap=10), "games[1].handicap", "0..9"),
        (changed(games__1__handicap=True), "games[1].handicap", "expected an integer"),
        (changed(games__0__komi="6.5"), "games[0].komi", "expected a number or null"),
        (changed(players__0__rank="2 dan"), "players[0].rank", "not a Go rank"),
        (changed(players__0__rating=1e6), "players[0].rating", "-100000..100000"),
        (changed(players__0__name=""), "players[0].name", "must not be empty"),
        (changed(players__0__name="  "), "players[0].name", "blank"),
        (changed(players__0__name="\ud83d"), "players[0].name", "surrogate"),
        (changed(players__0__nmae="x"), "players[0].nmae", "did you mean name"),
        (changed(players__2__id="b-7"), "players[2].id", "also players[1]'s"),
        (changed(players__1__start_score="1/0"), "players[1].start_score", "denominator 0"),
        (changed(players__1__start_score=0.1), "players[1].start_score", "not an exact"),
        (changed(players__1__start_score="lots"), "players[1].start_score", "fraction"),
        (changed(players__0__smms_correction=1.5), "players[0].smms_correction", "integer"),
        (changed(byes__0__player="Bob"), "byes[0].player", "has a game in round 1"),
        (changed(absences__0__player="Cid", absences__0__round=1), "absences[0].player", "bye"),
        (changed(byes__0__round=3), "byes[0].round", "after the last round"),
        (changed(rounds=65), "rounds", "0..64"),
        (changed(version=2), "version", "newer than this sodos reads"),
        (changed(version="1"), "version", "expected 1"),
        (changed(format="opengotha"), "format", 'expected "sodos-tournament"'),
        (changed(date="14/03/2026"), "date", "YYYY-MM-DD"),
        (changed(date="2026-02-30"), "date", "YYYY-MM-DD"),
        (changed(settings={"system": "league"}), "settings.system", "expected one of"),
        (changed(settings={"scoring": {"bye": "lots"}}), "settings.scoring.bye", "points"),
        (changed(settings={"mcmahon": {"bar": "99d"}}), "settings.mcmahon.bar", "out of range"),
        (changed(settings={"plugins": ["os"]}), "settings.plugins", "unknown field"),
        (changed(settings={"disable": ["x"]}), "settings.disable", "unknown field"),
        (changed(settings={"prefer": {}}), "settings.prefer", "unknown field"),
        (changed(settings={"plugin": {}}), "settings.plugin", "unknown field"),
        (changed(settings={"serve": {}}), "settings.serve", "unknown field"),
        ({k: v for k, v in DOC.items() if k != "games"}, "games", "missing (required)"),
        ([], "$", "expected an object"),
    ],
)
def test_errors_name_the_json_path(document, where, fragment):
    error_at(document, where, fragment)


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b'{"rounds": 1,', "not valid JSON"),
        (b'{"rounds": NaN}', "NaN is not a JSON number"),
        (b'{"rounds": Infinity}', "not a JSON number"),
        (b'{"rounds": ' + b"9" * 5000 + b"}", "not valid JSON"),
        (b"\xef\xbb\xbf\xff", "not UTF-8"),
        (b'{"format": 1, "format": 2}', "given twice"),
    ],
)
def test_text_errors(data, fragment):
    with pytest.raises(InputError) as caught:
        parse(data, "t.json")
    assert fragment in str(caught.value)


def test_syntax_error_names_line_and_column():
    with pytest.raises(InputError) as caught:
        parse(b'{\n "rounds": 1,\n "players": [}\n', "t.json")
    assert caught.value.where == "line 3 column 14"


def test_bom_is_skipped():
    tournament, _ = parse(b"\xef\xbb\xbf" + encoded(DOC), "t.json")
    assert tournament.rounds == 2


# -- limits -------------------------------------------------------------------------------


def test_byte_limit():
    with pytest.raises(InputError, match="above the limit of 100"):
        parse(encoded(DOC), "t.json", {"max_bytes": 100})


def test_value_limit_is_counted_before_decoding():
    data = json.dumps({"players": [0] * 5000}).encode()
    with pytest.raises(InputError, match="more than 1000 values"):
        parse(data, "t.json", {"max_values": 1000})


@pytest.mark.parametrize("depth, refused", [(5, False), (6, True), (2000, True)])
def test_depth_limit(depth, refused):
    data = b'{"a": ' * depth + b'"[[[[ in a string"' + b"}" * depth
    try:
        parse(data, "t.json", {"max_depth": 5})
    except InputError as error:
        assert ("nested deeper than 5" in str(error)) == refused, str(error)
        return
    raise AssertionError("a document of objects is never a tournament")


def test_a_million_nested_arrays_cost_little():
    data = b"[" * 1_000_000 + b"]" * 1_000_000
    with pytest.raises(InputError, match="nested deeper than 32"):
        parse(data, "t.json")


def test_bad_limit_options_are_config_errors():
    from sodos_plugin.errors import ConfigError

    with pytest.raises(ConfigError, match="max_depth must be a positive integer"):
        Limits.from_options({"max_depth": 0})
    with pytest.raises(ConfigError, match="unknown option 'max_byte'"):
        Limits.from_options({"max_byte": 5})


# -- the schema and the checks agree ------------------------------------------------------


def test_schema_uses_only_what_the_checker_supports():
    for name in schemas.NAMES:
        compile_schema(schemas.load(name))  # raises for an unsupported keyword


def test_settings_in_the_schema_are_the_config_keys_a_tournament_may_set():
    from sodos_plugin.config.settings import SCHEMA

    # code to load, plugins to block, files to open, how strict the run is: the
    # operator's choices, never a document's (a stranger's roster path could be any file)
    # (nor the service's, the rating cache's and game histories' keys, nor the work
    # limits: no one tournament decides them)
    not_for_a_tournament = {"plugins", "disable", "strict", "roster"}
    other_faces = ("serve.", "cache.", "history.", "limits.")
    allowed = {
        key for key in SCHEMA if key not in not_for_a_tournament and not key.startswith(other_faces)
    }
    properties = schemas.load("tournament")["$defs"]["settings"]["properties"]
    in_schema = set()
    for key, value in properties.items():
        if "properties" in value:
            in_schema |= {f"{key}.{sub}" for sub in value["properties"]}
        else:
            in_schema.add(key)
    assert in_schema == allowed


def _mutations():
    """Documents near the valid one: each value replaced by a value of another kind."""
    replacement = st.sampled_from(
        [None, True, 0, -1, 1.5, 2.0, "", "x", "B+", [], {}, [0], {"round": 1}, 10**6, "2d"]
    )

    def paths(node, prefix=()):
        yield prefix
        if isinstance(node, dict):
            for key, value in node.items():
                yield from paths(value, (*prefix, key))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from paths(value, (*prefix, index))

    every = list(paths(DOC))[1:]
    extra_keys = st.sampled_from(["extra", "nmae", "$schema", "round"])

    @st.composite
    def mutated(draw):
        document = copy.deepcopy(DOC)
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(every))
            node = document
            try:
                for part in path[:-1]:
                    node = node[part]
                if draw(st.booleans()) or not isinstance(node, dict):
                    node[path[-1]] = draw(replacement)
                else:
                    node[draw(extra_keys)] = draw(replacement)
            except (KeyError, IndexError, TypeError):
                continue
        return document

    return mutated()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutations())
def test_checker_agrees_with_jsonschema(document):
    jsonschema = pytest.importorskip("jsonschema")
    schema = schemas.load("tournament")
    expected = jsonschema.Draft202012Validator(schema).is_valid(document)
    try:
        json_tournament._shape()(document)
        ours = True
    except ShapeError:
        ours = False
    assert ours == expected, document


def test_valid_documents_are_valid_for_jsonschema():
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(DOC, schemas.load("tournament"))
    jsonschema.validate(to_document(parse(encoded(DOC), "t")[0]), schemas.load("tournament"))


def test_json_path_text():
    assert json_path(["games", 12, "white"]) == "games[12].white"
    assert json_path([]) == "$"
    assert json_path(["settings", "a b"]) == 'settings["a b"]'


# -- writing and reading back -------------------------------------------------------------


def test_to_document_reads_back_equal():
    tournament, _ = parse(encoded(DOC), "t.json")
    back, _ = parse(dumps(to_document(tournament)).encode(), "t.json")
    for field in ("name", "date", "rounds", "players", "games", "byes", "absences"):
        assert getattr(back, field) == getattr(tournament, field)
    assert dict(back.settings) == dict(tournament.settings)


def json_held(value):
    """What the JSON format holds today: players without ``ids``, games with their
    colours as if known (JSON has no place for either yet; see
    test_json_does_not_hold_ids_and_unknown_colours_yet)."""
    if isinstance(value, tuple) and value and isinstance(value[0], Player):
        return tuple(dataclasses.replace(p, ids=NO_IDS) for p in value)
    if isinstance(value, tuple) and value and isinstance(value[0], Game):
        return tuple(dataclasses.replace(g, colours_known=True) for g in value)
    return value


def round_trip(host: Host, path: Path) -> tuple[dict, dict]:
    read = host.read([path])
    text = dumps(to_document(read.tournament))
    back, _ = parse(text.encode(), "converted.json")
    for field in ("name", "date", "rounds", "players", "games", "byes", "absences"):
        assert getattr(back, field) == json_held(getattr(read.tournament, field)), (path, field)
    before = host.standings(read.tournament).as_dict()
    after = host.standings(back).as_dict()
    before.pop("warnings"), after.pop("warnings")
    return before, after


CONFORMANCE_GO = [
    "opengotha_Tournoi_de_Juvisy.xml",
    "opengotha_Tournoi_de_Juvisy.h9",
    "opengotha_TournoiChinois.xml",
    "opengotha_TournoiChinois.h9",
    "h9_mpj2022_opengotha_sodos.txt",
    "h9_wagc2025_opengotha.txt",
]


@pytest.mark.xfail(strict=True, reason="the JSON format holds no ids nor unknown colours yet")
def test_json_does_not_hold_ids_and_unknown_colours_yet(host):
    read = host.read([shared_path("conformance", "go", "h9_mpj2022_opengotha_sodos.txt")])
    back, _ = parse(dumps(to_document(read.tournament)).encode(), "converted.json")
    assert (back.players, back.games) == (read.tournament.players, read.tournament.games)


@pytest.mark.parametrize("name", CONFORMANCE_GO)
def test_real_files_read_back_to_the_same_standings(host, name):
    before, after = round_trip(host, shared_path("conformance", "go", name))
    assert before == after


def test_opengotha_user_files_read_back_to_the_same_standings(host):
    folder = shared_path("conformance", "opengotha", "xml")
    files = sorted(folder.glob("*.xml"))[::10]  # every tenth: 35 real user files
    compared = 0
    for path in files:
        try:
            before, after = round_trip(host, path)
        except InputError:
            continue  # files our XML reader refuses are another test's business
        except Exception as error:  # criteria we do not provide (yet): same on both sides
            if "unknown criterion" in str(error):
                continue
            raise
        assert before == after, path
        compared += 1
    assert compared >= 20


def test_sample_sgf_folder_reads_back_to_the_same_standings(host):
    before, after = round_trip(host, ROOT / "sample_sgf")
    assert before == after


# -- the commands -------------------------------------------------------------------------


def sodos(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("sodos")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "sodos_plugin.cli"]
    return subprocess.run([*base, *args], cwd=cwd, input=stdin, capture_output=True, timeout=120)


def test_sodos_schema_prints_the_shipped_file(tmp_path):
    done = sodos("schema", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.decode() == schemas.text("tournament")
    assert json.loads(sodos("schema", "standings", cwd=tmp_path).stdout)["title"]


def test_convert_says_what_json_cannot_hold_yet(tmp_path):
    """Ids are left out with a warning; colours the input does not give are not invented."""
    xml = shared_path("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")  # FFG licences
    done = sodos("convert", str(xml), "--to", "json", cwd=tmp_path)
    assert done.returncode == 0
    assert b"warning: 19 players' identifiers (egd, ffg) are not written" in done.stderr
    h9 = shared_path("conformance", "go", "h9_mpj2022_opengotha_sodos.txt")  # no colours
    done = sodos("convert", str(h9), "--to", "json", cwd=tmp_path)
    assert done.returncode == 2 and b"56 games have no colour in the input" in done.stderr


@pytest.mark.xfail(strict=True, reason="JSON holds no ids yet: its CSV has no id columns")
def test_convert_then_standings_through_the_cli(tmp_path):
    xml = shared_path("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")
    out = tmp_path / "juvisy.json"
    done = sodos("convert", str(xml), "--to", "json", "--output", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    original = sodos("standings", str(xml), "--format", "csv", cwd=tmp_path)
    converted = sodos("standings", str(out), "--format", "csv", cwd=tmp_path)
    assert original.returncode == converted.returncode == 0
    assert converted.stdout == original.stdout
    lines = out.read_text("utf-8").splitlines()
    assert lines[1] == ' "format": "sodos-tournament",'
    assert sum(line.startswith('  {"round"') for line in lines) >= 36  # a game per line


def test_convert_sgf_folder_to_stdout(tmp_path):
    done = sodos("convert", str(ROOT / "sample_sgf"), "--to", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["name"] == "Sodos Spring McMahon 2026" and len(document["players"]) == 24


def test_standings_of_a_bad_json_file_is_one_line(tmp_path):
    path = tmp_path / "t.json"
    path.write_bytes(encoded(changed(games__0__white="Zed")))
    done = sodos("standings", str(path), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.decode().strip() == (
        f'sodos: error: {path}:games[0].white: no player has the id or name "Zed"'
    )


# -- the output schemas document every member -------------------------------------------


def strict(schema):
    """The schema with every object closed: a member the schema does not name fails."""
    if isinstance(schema, dict):
        closed = {k: strict(v) for k, v in schema.items()}
        if "properties" in closed and "additionalProperties" not in closed:
            closed["additionalProperties"] = False
        return closed
    if isinstance(schema, list):
        return [strict(v) for v in schema]
    return schema


def test_standings_and_explain_output_match_their_strict_schemas(host):
    jsonschema = pytest.importorskip("jsonschema")
    from sodos_plugin.engine.explain import as_dict, explain_player

    read = host.read([shared_path("conformance", "go", "opengotha_Tournoi_de_Juvisy.xml")])
    criteria = ["MMS", "SOSM", "SOSM-1", "SODOSM", "CUSSM", "DC"]
    standings = host.standings(read.tournament, criteria=criteria)
    jsonschema.validate(standings.as_dict(), strict(schemas.load("standings")))
    for name in ("Minieri Davide", read.tournament.players[-1].name):
        explained = as_dict(explain_player(standings, name), standings.warnings)
        jsonschema.validate(explained, strict(schemas.load("explain")))
    tournament, _ = parse(encoded(DOC), "t.json")  # ids appear in both
    standings = host.standings(tournament)
    jsonschema.validate(standings.as_dict(), strict(schemas.load("standings")))
    explained = as_dict(explain_player(standings, "Bob"), standings.warnings)
    assert explained["player"]["id"] == "b-7"
    jsonschema.validate(explained, strict(schemas.load("explain")))
