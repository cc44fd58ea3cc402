"""Name identity and close names (docs/rules.md §8)."""

from __future__ import annotations

import random
import string
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sodos_plugin.engine.identity import (
    ClosePairs,
    NameIndex,
    close_names,
    distance,
    identity_key,
)


@pytest.mark.parametrize(
    "other",
    [
        "Müller Jörg",  # NFC
        unicodedata.normalize("NFD", "Müller Jörg"),  # NFD
        "MÜLLER JÖRG",  # case
        "müller jörg",
        "Müller\u00a0Jörg",  # non-breaking space
        "Müller\u200b Jörg",  # zero-width space beside a space
        "Mül\u200bler Jörg",  # zero-width space inside a word
        "Müller\u2060Jörg".replace("\u2060", " \u2060"),  # word joiner
        "Müller  Jörg",  # doubled space
        "  Müller Jörg  ",  # leading and trailing spaces
        "Müller\tJörg",  # a tab
        "Müller\u3000Jörg",  # ideographic space
        "\ufeffMüller Jörg",  # BOM
        "Ｍüｌｌｅｒ Ｊöｒｇ",  # full-width forms
    ],
)
def test_one_person_whatever_the_spelling(other):
    assert identity_key(other) == identity_key("Müller Jörg") == "müller jörg"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Muller Jorg", "Müller Jörg"),  # accents are letters
        ("Schmidt Jonas", "Schmidt Jonaz"),
        ("Jonas Schmidt", "Schmidt Jonas"),
        ("Li Wei", "Li  Wen"),
    ],
)
def test_different_letters_are_different_people(a, b):
    assert identity_key(a) != identity_key(b)


def test_ascii_short_way_is_the_general_rule():
    for name in ["Jonas SCHMIDT", " a\t b ", "x\x1cy", "Ab  Cd"]:
        general = " ".join(unicodedata.normalize("NFKC", name.casefold()).split())
        assert identity_key(name) == general


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=20))
def test_key_is_idempotent_and_stable_under_normalisation(name):
    key = identity_key(name)
    assert identity_key(key) == key
    assert identity_key(unicodedata.normalize("NFD", name)) == key
    assert key == key.strip() and "  " not in key


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("kitten", "sitting", 3),
        ("schmidt jonas", "schmidt jonaz", 1),
        ("schmidt jonas", "schmitt jonaz", 2),
        ("abc", "abcde", 2),
        ("abc", "xbcde", 3),  # over the bound: bound + 1
        ("", "ab", 2),
        ("same", "same", 0),
    ],
)
def test_bounded_distance(a, b, expected):
    assert distance(a, b, 2) == min(expected, 3)


def levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


@settings(max_examples=300, deadline=None)
@given(st.text("abc ", max_size=9), st.text("abc ", max_size=9))
def test_bounded_distance_agrees_with_the_full_one(a, b):
    assert distance(a, b, 2) == min(levenshtein(a, b), 3)


def test_close_names_warns_typos_not_merges():
    names = ["Schmidt Jonas", "Schmidt Jonaz", "Weber Anna", "SCHMIDT JONAS", "Bob", "Rob"]
    pairs = close_names(names)
    # same key (SCHMIDT JONAS) is one player, not a pair; 3-letter names are never close
    assert pairs == [("Schmidt Jonas", "Schmidt Jonaz")]
    assert isinstance(pairs, ClosePairs) and pairs.complete


def test_close_names_leaves_out_pairs_that_play_in_one_round():
    names = ["Schmidt Jonas", "Schmidt Jonaz", "Weber Anna", "Weber Anne"]
    rounds = {
        "Schmidt Jonas": {1, 2},
        "Schmidt Jonaz": {3, 4},  # never together: the same player?
        "Weber Anna": {1, 2, 3},
        "Weber Anne": {3, 4},  # both played round 3: two people
    }
    assert close_names(names, rounds=rounds) == [("Schmidt Jonas", "Schmidt Jonaz")]


def test_short_names_are_close_only_at_distance_one():
    assert close_names(["Li Wei", "Li Wen"]) == [("Li Wei", "Li Wen")]
    assert close_names(["Li Wei", "Lu Wen"]) == []  # distance 2 on 6 letters
    assert close_names(["Schmidt Jonas", "Schmitt Jonaz"]) == [("Schmidt Jonas", "Schmitt Jonaz")]


def test_close_names_finds_what_all_pairs_would():
    rng = random.Random(10)
    names = ["".join(rng.choice("abcde") for _ in range(rng.randint(4, 10))) for _ in range(300)]
    keys = list(dict.fromkeys(names))
    expected = set()
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            d = levenshtein(a, b)
            allowed = 2 if min(len(a), len(b)) >= 8 else 1
            if 1 <= d <= allowed:
                expected.add((a, b))
    found = close_names(keys, limit=10**6)
    assert found.complete and set(found) == expected


@pytest.mark.slow
def test_close_names_is_bounded_on_ten_thousand_names():
    rng = random.Random(3)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(7)) for _ in range(20000)]
    names = [f"{words[2 * i]} {words[2 * i + 1]}" for i in range(10000)]
    names.append(names[17][:-1] + ("x" if names[17][-1] != "x" else "y"))
    found = close_names(names)
    assert (names[17], names[-1]) in found


def test_a_pathological_set_stops_at_its_bound_and_says_so():
    names = [f"Player {i:04d}" for i in range(3000)]  # every one a digit from many others
    found = close_names(names, limit=50)
    assert len(found) == 50 and not found.complete


def test_name_index_closest():
    index = NameIndex(["Schmidt Jonas", "Weber Anna", "Weber Annabel"])
    assert index.closest("schmidt  JONAS") == "Schmidt Jonas"  # identical key
    assert index.closest("Schmidt Jonaz") == "Schmidt Jonas"
    assert index.closest("Weber Anne") == "Weber Anna"
    assert index.closest("Nobody Here") is None
    assert "WEBER ANNA" in index and "Weber Anne" not in index


def test_players_registered_apart_with_one_name_are_warned_by_every_reader(
    make_host, host, tmp_path
):
    # JSON with ids (the reader itself is silent then), and h9 rows: said by the host
    import json
    import unicodedata

    from sodos_plugin.engine.identity import shared_names
    from sodos_plugin.errors import StrictError

    assert shared_names(["Ann", "Bob", "ANN ", "Cid", "bob"]) == [[0, 2], [1, 4]]
    assert shared_names(["Ann", "Bob"]) == []
    nfd = unicodedata.normalize("NFD", "DAN WÓJCIK")
    doc = {
        "format": "sodos-tournament",
        "version": 1,
        "name": "Cup",
        "rounds": 1,
        "players": [
            {"name": "Dan Wójcik", "id": "p1", "rank": "3k"},
            {"name": nfd, "id": "p2", "rank": "2k"},
            {"name": "Eve", "id": "p3", "rank": "1k"},
        ],
        "games": [{"round": 1, "black": "p1", "white": "p3", "result": "W+"}],
    }
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(doc), "utf-8")
    warnings = host.read([path]).warnings
    assert warnings == [
        f"{path}: 2 players have one name by the identity rule (docs/rules.md §8): "
        f"'Dan Wójcik' (player 1), {nfd!r} (player 2); one person registered twice, "
        "or different people?"
    ]
    strict = make_host({"strict": True})
    with pytest.raises(StrictError):
        strict.read([path])


def _reference_key(name: str) -> str:
    """docs/rules.md §8's four steps, literally (identity_key takes short ways)."""
    import unicodedata

    from sodos_plugin.engine.identity import _INVISIBLE_EXTRA

    text = unicodedata.normalize("NFKC", name)
    text = "".join(
        c for c in text if unicodedata.category(c) != "Cf" and ord(c) not in _INVISIBLE_EXTRA
    )
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())


@given(st.text(max_size=30))
@example("Ｍüｌｌｅｒ\u200b Zoé\ufe0f")
@example("ﬁ\u00a0Ǆ\u034f")
def test_identity_key_is_the_rule_of_four_steps(name):
    assert identity_key(name) == _reference_key(name)


def test_the_invisible_extras_pattern_is_the_set():
    from sodos_plugin.engine.identity import _EXTRA, _INVISIBLE_EXTRA

    found = {c for c in range(0x110000) if _EXTRA.match(chr(c))}
    assert found == set(_INVISIBLE_EXTRA)
