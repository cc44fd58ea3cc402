"""Every file of ``../shared/data/sgf/``: what it gives, file by file.

Two levels: :func:`ingest_file` (one record file → game records or a rejection
reason) and the reader on the whole folder (the account of every file, with the
tournament-level rules: a round is needed, one event).
"""

from __future__ import annotations

import pytest
from conftest import shared_path

from sodos_plugin.errors import InputError
from sodos_plugin.readers.sgf import read
from sodos_plugin.readers.sgf.ingest import ingest_file

NO_SGF = "not SGF: no game found (no '(;')"

#: file → (black, white, result, how, round, BR, WR, HA) of each game, or the rejection reason.
INGEST = {
    "encoding/chinese.sgf": [("古力", "柯洁", "?", "unknown", None, None, None, 0)],
    "encoding/japanese.sgf": [("井山 裕太", "山下 敬吾", "?", "unknown", None, None, None, 0)],
    "encoding/japanese_bad.sgf": "PB cannot be decoded as CP932 (CA[MS_KANJI])",
    "encoding/korean.sgf": [("이세돌", "박정환", "?", "unknown", None, None, None, 0)],
    "encoding/nihon-kiin.sgf": NO_SGF,
    "encoding/no-ca.sgf": "no game record: no PB, PW, RE or DT (a diagram, a problem)",
    "encoding/utf16le.sgf": [("Kitani Minoru", "Go Seigen", "?", "unknown", None, "9p", "9p", 0)],
    "encoding/utf8bom.sgf": [("Kitani Minoru", "Go Seigen", "?", "unknown", None, "9p", "9p", 0)],
    "malformed/RE_in_second_node.sgf": [("a", "b", "B+", "score", None, None, None, 0)],
    "malformed/RE_twice.sgf": "RE given 2 times (B+R, W+T): expected one value",
    "malformed/SZ_too_big.sgf": "SZ[37]: board size outside 1..26",
    "malformed/bad_CA.sgf": "CA[no-such-codec]: unknown encoding",
    "malformed/bad_SZ.sgf": "SZ[nineteen]: expected a board size 1..26",
    "malformed/bad_utf8_PB.sgf": "PB cannot be decoded as UTF-8 (CA[UTF-8])",
    "malformed/empty.sgf": NO_SGF,
    "malformed/empty_sequence.sgf": "not valid SGF: game 1: empty sequence",
    "malformed/junk.sgf": NO_SGF,
    "malformed/no_node.sgf": NO_SGF,
    "malformed/prop_no_value.sgf": "not valid SGF: game 1: property with no values",
    "malformed/trailing_junk.sgf": "not valid SGF: game 2: unexpected end of SGF data",
    "malformed/truncated.sgf": "not valid SGF: game 1: unexpected end of SGF data",
    "malformed/unexpected_node.sgf": "not valid SGF: game 1: unexpected node",
    "malformed/value_no_ident.sgf": "not valid SGF: game 1: unexpected value",
    "odd/collection_3_kgs_tourn9.sgf": [
        ("GNU", "Dar51", "B+", "score", 4, "13k", "16k", 0),
        ("GNU", "indigoBot", "B+", "score", 1, "13k", "17k", 0),
        ("GNU", "gopp", "W+", "score", 3, "13k", "12k", 0),
    ],
    "odd/ff1_longnames_xmgt97.sgf": [("hi", "ka", "?", "unknown", None, None, None, 0)],
    "odd/tygem_gib_not_sgf.gib": NO_SGF,
    "server/cgos_B+Illegal_elo_ranks.sgf": [
        ("ControlBoy", "gnugo_3.7.4", "B+", "illegal", None, "1524*", "1680*", 0)
    ],
    "server/foxwq_B+R_chinese_ranks.sgf": [
        ("whatiskale", "注号用名", "B+", "resign", None, "15级", "15级", 0)
    ],
    "server/foxwq_W+R_dup_AP.sgf": [
        ("whatiskale", "V259081699", "W+", "resign", None, "15级", "14级", 1)
    ],
    "server/igs_pandanet_W+34.5.sgf": [
        ("player2", "player1", "W+", "score", None, "12k ", "11k+", 2)
    ],
    "server/kgs_cgoban3_W+Resign.sgf": [("azlan", "stakeout", "W+", "resign", None, "1d", "9d", 2)],
    "server/nngs_14kstar.sgf": [
        ("AdaGeek", "GnuGo (GNU Go 3.1.18)", "W+", "score", None, "14k*", "14k*", 2)
    ],
    "server/ogs_nested_RE-question.sgf": [("bbb", "aaa", "?", "unknown", None, "4k", "5k", 0)],
    "tournament/kgs_comp_tourn8_EV_RO6.sgf": [
        ("GNU", "CrazyStone", "W+", "score", 6, "13k", None, 0)
    ],
    "tournament/meijin27_g5_pro_9p.sgf": [
        ("Cho Chikun", "Yoda Norimoto", "W+", "resign", 5, "9p", "9p", 0)
    ],
    "tournament/olympiad2006_RO-11playoff_RE-B+.sgf": [
        ("GNU Go", "Go Intellect", "B+", "unspecified", 11, None, None, 0)
    ],
    "tournament/olympiad2006_RO4_RE-W+.sgf": [
        ("GNU Go", "Aya", "W+", "unspecified", 4, None, None, 0)
    ],
}


@pytest.mark.parametrize("name", sorted(INGEST))
def test_ingest_outcome(name: str) -> None:
    outcome = ingest_file(str(shared_path("sgf", name)))
    expected = INGEST[name]
    if isinstance(expected, str):
        assert outcome.error == expected
        assert outcome.records == ()
        return
    assert outcome.error is None
    got = [
        (r.black, r.white, r.result.result.value, r.result.how, r.round, r.black_rank,
         r.white_rank, r.handicap)
        for r in outcome.records
    ]  # fmt: skip
    assert got == expected


def test_notes_say_what_is_not_scored() -> None:
    (record,) = ingest_file(str(shared_path("sgf", "server/ogs_nested_RE-question.sgf"))).records
    assert "RE[?]: result unknown" in record.notes
    (record,) = ingest_file(str(shared_path("sgf", "malformed/RE_in_second_node.sgf"))).records
    assert "RE found in node 2, not in the root" in record.notes
    assert record.result.margin == 3.5


def test_folder_with_several_events_is_an_error_naming_files() -> None:
    folder = shared_path("sgf")
    with pytest.raises(InputError) as caught:
        read([folder], {"jobs": 1})
    message = str(caught.value)
    assert "records of two events" in message and ".sgf" in message and "event =" in message


NO_ROUND = "no round: RO missing and GN has no 'R:n'"
#: Reader account of the whole folder with event "11th Computer Olympiad" chosen.
ACCOUNT = {
    **{name: ("rejected", reason) for name, reason in INGEST.items() if isinstance(reason, str)},
    **{
        name: ("rejected", NO_ROUND)
        for name, games in INGEST.items()
        if not isinstance(games, str) and games[0][4] is None
    },
    "SOURCES.txt": ("excluded", "not an SGF record (.sgf) or archive"),
    "odd/tygem_gib_not_sgf.gib": ("excluded", "not an SGF record (.sgf) or archive"),
    "odd/collection_3_kgs_tourn9.sgf": (
        "excluded",
        "event 'Ninth KGS Computer Go Tournament - Formal division', not '11th Computer Olympiad'",
    ),
    "tournament/kgs_comp_tourn8_EV_RO6.sgf": (
        "excluded",
        "event 'Eighth KGS Computer Go Tournament - Formal division', not '11th Computer Olympiad'",
    ),
    "server/igs_pandanet_W+34.5.sgf": (
        "excluded",
        "event 'Internet Go Server game: player1 vs player2', not '11th Computer Olympiad'",
    ),
    "tournament/meijin27_g5_pro_9p.sgf": (
        "excluded",
        "event 'Meijin,27,Japan,', not '11th Computer Olympiad'",
    ),
    "tournament/olympiad2006_RO-11playoff_RE-B+.sgf": ("ingested", ""),
    "tournament/olympiad2006_RO4_RE-W+.sgf": ("ingested", ""),
}


def test_reader_accounts_for_every_file() -> None:
    folder = shared_path("sgf")
    result = read([folder], {"jobs": 1, "event": "11th Computer Olympiad"})
    account = {
        str(report.path)[len(str(folder)) + 1 :]: (report.status, report.reason)
        for report in result.files
    }
    assert account == ACCOUNT
    t = result.tournament
    assert t.name == "11th Computer Olympiad" and t.rounds == 11
    assert sorted(p.name for p in t.players) == ["Aya", "GNU Go", "Go Intellect"]
    assert len(t.games) == 2
    assert any("no rank" in w for w in result.warnings)


def test_parallel_account_is_identical(monkeypatch) -> None:
    from sodos_plugin.readers.sgf import walk

    monkeypatch.setattr(walk, "PARALLEL_MIN_UNITS", 1)  # use workers even for 38 files
    monkeypatch.setattr(walk, "MIN_CHUNK", 5)
    folder = shared_path("sgf")
    options = {"event": "11th Computer Olympiad"}
    serial = read([folder], {**options, "jobs": 1})
    parallel = read([folder], {**options, "jobs": 3})
    assert serial == parallel
