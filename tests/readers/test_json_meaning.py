"""The JSON reader's meaning on seeded documents: references, rounds, ranks, start
scores, byes and absences against games, every warning and every error.

Each case's outcome (the Tournament and the warnings, or the error) is compared with its
digest in ``tests/golden/json_meaning.json``, made by the reader's entry-by-entry way
(``build``) before the column-by-column and entry-by-entry ways were folded into one
(commit 359eb67). A deliberate change of what the reader reads updates them:
``SODOS_UPDATE_GOLDEN=1 python -m pytest -q tests/readers/test_json_meaning.py`` (then
say in the commit what changed and why).
"""

from __future__ import annotations

import hashlib
import json
import os
import random

from conftest import TESTS

from sodos_plugin.errors import InputError
from sodos_plugin.readers.json_tournament import parse

GOLDEN = TESTS / "golden" / "json_meaning.json"
UPDATE = os.environ.get("SODOS_UPDATE_GOLDEN") == "1"


def document(rng: random.Random) -> dict:
    """A tournament that is mostly valid, with now and then what is warned about or
    refused: shared names, references by index, id and name (rarely unknown), two games
    of a player in a round, byes and absences on game rounds, bad ranks."""

    def rarely(p: int = 8) -> bool:
        return rng.randint(0, p - 1) == 0

    n = rng.randint(1, 6)
    rounds = rng.randint(1, 3)
    ids = rng.choice(["all", "none", "some"])
    players = []
    for i in range(n):
        name = rng.choice(["Ann", "ann", " ANN"]) if rarely(4) else f"Player {i}"
        entry = {"name": name}
        if ids == "all" or (ids == "some" and (rng.random() < 0.5)):
            entry["id"] = "Ann" if rarely(10) else f"p{i}"
        if rng.random() < 0.5:
            entry["rank"] = "10d" if rarely(20) else rng.choice(["2d", "5k", None])
        if rarely(3):
            entry["ids"] = {"egd": f"1971{i}", **({"ffg": "x"} if rarely() else {})}
        if rarely(4):
            entry["start_score"] = "x" if rarely(10) else rng.choice([30, 30.5, "61/2"])
        players.append(entry)

    def reference(other: int | str | None = None):
        """A player, rarely one that is not there; not ``other`` but now and then."""
        index = rng.randint(0, n - 1)
        if n > 1 and not rarely(10):
            index = rng.choice([i for i in range(n) if i != found.get(other)])
        if rarely(40):
            return rng.choice(["Zed", n])
        way = rng.choice(["index", "id", "name"])
        given: int | str = index
        if way == "id" and "id" in players[index]:
            given = players[index]["id"]
        elif way == "name":
            given = players[index]["name"].upper()
        found[given] = index
        return given

    found: dict[int | str, int] = {}  # each reference given → the player meant

    def round_number():
        return rounds + 1 if rarely(30) else rng.randint(1, rounds)

    games = []
    for _ in range(rng.randint(0, 6)):
        black = reference()
        games.append(
            {
                "round": round_number(),
                "black": black,
                "white": reference(black),
                "result": rng.choice(["B+", "W+", "=", "?"]),
                **({"handicap": 2} if (rng.random() < 0.5) else {}),
                **({"colours_known": False} if rarely(4) else {}),
                **({"komi": rng.choice([0.5, 6.5, 7])} if rarely(4) else {}),
            }
        )
    document = {"format": "sodos-tournament", "version": 1, "name": "T", "rounds": rounds,
                "players": players, "games": games}  # fmt: skip
    for label in ("byes", "absences"):
        if rng.random() < 0.5:
            document[label] = [
                {"round": round_number(), "player": reference()} for _ in range(rng.randint(0, 3))
            ]
    if document.get("byes") and rarely(3):  # the bye and an absence in one round
        document.setdefault("absences", []).append(dict(document["byes"][0]))
    if rng.random() < 0.5:
        document["settings"] = {"system": "x"} if rarely(10) else {"scoring": {"bye": "1/2"}}
    return document


CASES = {f"seed {seed}": json.dumps(document(random.Random(seed))).encode() for seed in range(600)}


def outcome(data: bytes):
    """The Tournament and the warnings read from ``data``, or the error."""
    try:
        return parse(data, "t.json")
    except InputError as error:
        return ("error", str(error))


def digest(data: bytes) -> str:
    return hashlib.sha256(repr(outcome(data)).encode("utf-8")).hexdigest()[:24]


def test_every_case_reads_as_its_digest_says():
    found = {name: digest(data) for name, data in CASES.items()}
    if UPDATE:
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    expected = json.loads(GOLDEN.read_text())
    changed = [name for name in found if expected.get(name) != found[name]]
    assert not changed, f"{len(changed)} case(s) read differently: {changed[:5]}"


def test_the_cases_take_every_kind_of_outcome():
    """Else the digests above would pin only errors, or only documents without warnings."""
    outcomes = [outcome(data) for data in CASES.values()]
    errors = [o for o in outcomes if o[0] == "error"]
    warned = [o for o in outcomes if o[0] != "error" and o[1]]
    kinds = {w.split(": ", 2)[1].split("[")[0] for o in warned for w in o[1]}
    clean = len(outcomes) - len(errors) - len(warned)
    assert len(errors) >= 40 and len(warned) >= 40 and clean >= 40, (len(errors), len(warned))
    assert kinds >= {"players", "games", "byes"}, kinds
