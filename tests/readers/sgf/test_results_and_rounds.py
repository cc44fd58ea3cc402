"""Results and rounds read from SGF (docs/rules.md §9), and one bad file never taking
the run down: each case a record of our own, the exact outcome."""

from __future__ import annotations

from pathlib import Path

import pytest
from records import folder, rec, status

from sodos_plugin.engine.model import Result
from sodos_plugin.readers.sgf import read
from sodos_plugin.readers.sgf.ingest import ingest_bytes, round_number
from sodos_plugin.readers.sgf.results import parse_result

B, W, U = Result.BLACK_WINS, Result.WHITE_WINS, Result.UNKNOWN


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("B+Jigo", "says Black won and says jigo"),
        ("W+Draw", "says White won and says jigo"),
        ("B+Void", "says Black won and says void (no result)"),
        ("B+?", "says Black won and says unknown"),
        ("W+ tie", "says White won and says jigo"),
    ],
)
def test_a_winner_and_no_winner_rejects_the_record(tmp_path, text, why):
    parsed = parse_result(text)
    assert (parsed.result, parsed.how) == (U, "contradiction")
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob"), "b.sgf": rec("Cid", "Dan", re=text)})
    result = read([root], {"jobs": 1})
    assert status(result)["b.sgf"] == ("rejected", f"RE[{text}]: {why}: contradictory")
    assert len(result.tournament.players) == 2


@pytest.mark.parametrize(
    ("text", "result", "how", "by_default"),
    [
        ("W+Forfeit", W, "forfeit", True),
        ("B+forfeit win", B, "forfeit", True),
        ("W+Time Over", W, "time", False),
        ("B+bye", B, "forfeit", True),
        ("B+lost on time", B, "time", False),
        ("B+Illegal move", B, "illegal", False),
        ("W+3.5 points", W, "score", False),
        ("RE", U, "unrecognised", False),
        ("W", W, "unspecified", False),
        ("B", B, "unspecified", False),
        ("White resigns.", B, "resign", False),
        ("Black resigns. W 133.5 B 81.0", W, "resign", False),
        ("Black wins by resignation", B, "resign", False),
        ("White wins on time", W, "time", False),
        ("white wins by 2.5", W, "score", False),
        ("White forfeits", B, "forfeit", True),
        ("Black loses on time", W, "time", False),
        ("Black wins, white resigns", B, "unspecified", False),  # the first clause decides
        ("Black and White", U, "unrecognised", False),  # both colours: not guessed
    ],
)
def test_spelled_out_and_sentence_results(text, result, how, by_default):
    parsed = parse_result(text)
    assert (parsed.result, parsed.how, parsed.by_default) == (result, how, by_default)


def test_a_sentence_result_is_scored_as_a_decisive_game(tmp_path):
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob", re="Black resigns. W 133.5 B 81.0")})
    (game,) = read([root], {"jobs": 1}).tournament.games
    assert game.result is W and not game.by_default


@pytest.mark.parametrize(
    ("ro", "expected"),
    [
        ("3", 3),
        ("11 (playoff)", 11),
        ("Round 3", 3),
        ("round:4", 4),
        ("R5", 5),
        ("2nd Preliminary, Round 3", 3),
        ("Day 2 Round 5", 5),
        ("3rd Preliminary", None),
        ("1/19", None),
        ("Round 1/2", None),
        ("Final", None),
        ("1234567", None),  # more than 6 digits
        ("5" * 5000, None),
        ("9" * 5000 + " Round 2", 2),
        ("-1", -1),  # negative: outside 1..99, rejected, never round 1
        ("Round -2", -2),
        ("(-3)", -3),
        ("\u22124", -4),  # the minus sign
        ("R-1", 1),  # a dash after a word is no sign
        ("1-2", 1),
        ("\u0663", None),  # digits are 0-9 (int() reads Arabic-Indic digits)
        ("Round \u0665", None),
    ],
)
def test_round_numbers(ro, expected):
    assert round_number(ro, None)[0] == expected


def test_rounds_in_records(tmp_path):
    root = folder(
        tmp_path,
        {
            "a.sgf": rec("Ann", "Bob", ro="2nd Preliminary, Round 3"),
            "b.sgf": rec("Cid", "Dan", ro="3rd Preliminary"),
            "c.sgf": rec("Eve", "Fay", ro="1/19"),
            "d.sgf": rec("Gus", "Hal", ro="7" * 5000),
            "e.sgf": rec("Ivy", "Jon", ro="-1"),
        },
    )
    result = read([root], {"jobs": 1})
    assert [g.round for g in result.tournament.games] == [3]
    got = status(result)
    assert got["e.sgf"] == ("rejected", "RO[-1]: round -1 outside 1..99")
    assert [f.path for f in result.files if f.path.endswith("e.sgf")] == [str(root / "e.sgf")]
    assert got["b.sgf"] == ("rejected", "RO[3rd Preliminary]: no round number in it")
    assert got["c.sgf"] == ("rejected", "RO[1/19]: no round number in it")
    assert got["d.sgf"][0] == "rejected" and len(got["d.sgf"][1]) < 200  # a cut text


# -- one bad file, one rejection -------------------------------------------------------


@pytest.mark.parametrize(
    ("ca", "reason"),
    [
        ("rot13", "CA[rot13]: rot-13 is not a character set"),
        ("base64", "CA[base64]: base64 is not a character set"),
        ("zlib", "CA[zlib]: zlib is not a character set"),
        ("undefined", "CA[undefined]: undefined is not a character set"),
        ("idna", "CA[idna]: idna is not a character set"),
        ("unicode_escape", "CA[unicode_escape]: unicode-escape is not a character set"),
        ("utf-32", "PB cannot be decoded as UTF-32 (CA[utf-32])"),
        ("no-such", "CA[no-such]: unknown encoding"),
        ("x" * 100, f"CA[{'x' * 39}…]: unknown encoding"),
    ],
)
def test_odd_ca_encodings_reject_that_file(tmp_path, ca, reason):
    odd = rec("Cid", "Dan").replace(b"CA[UTF-8]", f"CA[{ca}]".encode())
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob"), "b.sgf": odd})
    result = read([root], {"jobs": 1})
    assert status(result)["b.sgf"] == ("rejected", reason)
    assert [p.name for p in result.tournament.players] == ["Ann", "Bob"]


def test_an_unforeseen_failure_rejects_only_that_file(tmp_path, monkeypatch):
    from sodos_plugin.readers.sgf import ingest

    real = ingest._record

    def failing(text, *rest):
        if text[0] == "Cid":
            raise TypeError("an unforeseen bug")
        return real(text, *rest)

    monkeypatch.setattr(ingest, "_record", failing)
    root = folder(tmp_path, {"a.sgf": rec("Ann", "Bob"), "b.sgf": rec("Cid", "Dan")})
    result = read([root], {"jobs": 1})
    assert status(result)["b.sgf"] == ("rejected", "cannot be read: TypeError: an unforeseen bug")
    assert len(result.tournament.games) == 1
    outcome = ingest_bytes(rec("Cid", "Dan"), "x.sgf", fast_path=False)
    assert outcome.error == "cannot be read: TypeError: an unforeseen bug"


def test_recursion_in_one_file_rejects_it(tmp_path, monkeypatch):
    from sodos_plugin.readers.sgf import ingest

    def deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(ingest.sgf_grammar, "parse_sgf_collection", deep)
    data = rec("Cid", "Dan", moves="(;B[aa])(;B[bb])")  # variations: the full parse
    outcome = ingest_bytes(data, "x.sgf")
    assert outcome.error == "too complex to read (RecursionError)"


def test_path_given_is_unchanged(tmp_path: Path):
    assert round_number(None, "Cup R:3 (a vs b)") == (3, "GN[Cup R:3 (a vs b)]")
    assert round_number(None, "R:1234567") == (None, None)
