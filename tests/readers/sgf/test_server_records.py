"""Records as servers write them (docs/rules.md §9, §10.1): the real records of
``../shared/data/server-archives/variants/`` (Fox, Wbaduk and AI-tournament records,
one or two of each way they are written), then the Fox conventions no shared record
shows, on records built byte for byte in the same layout.

Each case: what ingest reads (names, result, rank, notes), and what a game history
does with it (rated, or excluded by its reason's key; never rejected).
"""

from __future__ import annotations

import pytest
from conftest import builtin_host, shared_path

from sodos_plugin.engine.model import Result
from sodos_plugin.readers.sgf.history import game_date, game_time, ingest_unit
from sodos_plugin.readers.sgf.ingest import ingest_bytes, ingest_file
from sodos_plugin.readers.sgf.scan import scan_single
from sodos_plugin.readers.sgf.values import FOX, komi, no_jigo, writer
from sodos_plugin.readers.sgf.walk import Limits

B, W, J, U = Result.BLACK_WINS, Result.WHITE_WINS, Result.JIGO, Result.UNKNOWN


def variant(name: str):
    return shared_path("server-archives", "variants", name)


def one(name: str):
    outcome = ingest_file(str(variant(name)))
    assert outcome.error is None, outcome.error
    (record,) = outcome.records
    return record


def history_of(tmp_path, *paths):
    host = builtin_host({"cache": {"enabled": False}})
    return host.history([str(p) for p in paths])


def account(history) -> dict[str, tuple[str, str]]:
    return {f.path.rsplit("/", 1)[-1]: (f.status, f.kind) for f in history.files}


# -- the real records ---------------------------------------------------------------------


def test_dates_with_dots_and_times_are_days(tmp_path) -> None:
    """Wbaduk ``DT[2017.06.21 19:43]``, YuanYu ``DT[2018.04.27]``, a Fox time and an ISO
    timestamp: the first day."""
    assert one("00_1-1_FineArt_VS_BADUKi.sgf").date == "2018.04.27"
    assert game_date("2018.04.27") == "2018-04-27"
    assert game_date(one("21_51-2017.01.04-Master-Zhou_Junxun.sgf").date) == "2017-01-04"
    assert game_date(one("18_Fig5c_Game1.sgf").date) == "2017-04-04"
    h = history_of(tmp_path, variant("00_1-1_FineArt_VS_BADUKi.sgf"))
    assert [(g.date, g.black, g.white, g.result) for g in h.games] == [
        ("2018-04-27", "FineArt", "BADUKi", 1.0)
    ]


def test_a_time_after_the_date_is_the_game_s_time_of_day(tmp_path) -> None:
    """Fox's ``DT[2017-01-04 09:35:00]`` and AlphaGo Zero's ISO timestamp give the time
    of day that orders one day's games (docs/rules.md §10.1); a date alone, a list of
    dates or a range gives none."""
    h = history_of(
        tmp_path,
        variant("21_51-2017.01.04-Master-Zhou_Junxun.sgf"),
        variant("00_1-1_FineArt_VS_BADUKi.sgf"),
    )
    times = {g.source.rsplit("/", 1)[-1]: (g.date, g.time) for g in h.games}
    assert times == {
        "21_51-2017.01.04-Master-Zhou_Junxun.sgf": ("2017-01-04", "09:35:00"),
        "00_1-1_FineArt_VS_BADUKi.sgf": ("2018-04-27", None),
    }
    assert game_time(one("18_Fig5c_Game1.sgf").date) == "09:59:32"  # self-play: not rated
    assert game_time("2017.06.21 19:43") == "19:43:00"  # Wbaduk
    for no_time in ("2018.04.27", "2002-10-23,24", "2016-03-09 ~ 2016-03-15", "2024-01-05 25:00"):
        assert game_time(no_time) is None, no_time


def test_a_property_repeated_with_one_value_is_read_once() -> None:
    """Fox writes ``CA[UTF-8][UTF-8]`` and ``GN[][]``: read once, noted, the game kept."""
    record = one("02_2016.09.28_SSMMD_vs_20_74828133_.SGF")
    assert (record.black, record.white, record.result.result) == ("风吹梦醒", "天下无狗20", B)
    assert "GN[][]: one value given 2 times, read once" in record.notes
    assert "CA[UTF-8][UTF-8]: one value given 2 times, read once" in record.notes
    two = ingest_bytes(b"(;PB[a]PW[b]DT[2024-01-01]RE[B+R]GN[x][y])", "x.sgf")
    assert two.error == "GN given 2 times (x, y): expected one value"  # still a contradiction


@pytest.mark.parametrize(
    ("name", "result"),
    [
        ("03_2016.09.29_SSMMD_vs_20_74086950_.SGF", W),
        ("11_2017.11.29_BensonDarr_VS_doojeje_010001740_.SGF", B),
        ("12_2018.01.23_GO8_VS_BensonDarr_010001040_.SGF", B),
        ("13_2018.01.24_qxmy_VS_BensonDarr_010001957_.SGF", W),
        ("14_2018.01.25_VS_BensonDarr_010001334_.SGF", W),
    ],
)
def test_a_win_by_zero_is_a_win_without_a_count(name: str, result: Result) -> None:
    """Fox ``RE[B+0.0]``/``RE[W+0.0]``: the winner named, no count (lost on time, left)."""
    record = one(name)
    assert record.result_text in ("B+0.0", "W+0.0")
    assert (record.result.result, record.result.how, record.result.margin) == (
        result,
        "unspecified",
        None,
    )


@pytest.mark.parametrize(
    ("name", "prop", "name_read"),
    [
        ("07_2017.09.23_vs_CGI_65495949_.SGF", "black", "你若有\\xe5\\x9b"),
        ("08_2016.10.25_pooryou01_vs_66460705_.SGF", "black", "小心我捶\\xe4\\xbd"),
        ("09_2018.04.04_VS_010001820_.SGF", "white", "舞\\xe8\\x80"),
        ("10_2016.10.25_vs_pooryou01_65098166_.SGF", "white", "小心我捶\\xe4\\xbd"),
    ],
)
def test_a_name_cut_upstream_is_kept_with_its_bytes_escaped(name, prop, name_read) -> None:
    """``CA[UTF-8]`` and ``PB[你若有\\xe5\\x9b]`` (a name cut at a byte limit): the game
    is kept, the damaged bytes as ``\\xNN``, a note names the property."""
    record = one(name)
    assert getattr(record, prop) == name_read
    ident = "PB" if prop == "black" else "PW"
    assert any(n.startswith(f"{ident}: bytes that are not valid UTF-8") for n in record.notes)


def test_two_cut_names_are_two_players_as_the_server_wrote_them(tmp_path) -> None:
    """One player's cut name is the same in each of his records (08 and 10), so the
    history follows him; the escapes keep every byte, so no two names become one."""
    h = history_of(
        tmp_path,
        variant("08_2016.10.25_pooryou01_vs_66460705_.SGF"),
        variant("10_2016.10.25_vs_pooryou01_65098166_.SGF"),
    )
    assert sorted({g.black for g in h.games} | {g.white for g in h.games}) == sorted(
        ["骊龙", "小心我捶\\xe4\\xbd"]
    )


def test_professional_ranks_seed_as_professionals(make_host, tmp_path) -> None:
    """Fox ``WR[P6段]`` and ``BR[P9p]`` are 6p and 9p: GoR seeds them at the EGD's 2850 and
    2940 (docs/rules.md §10.1), not at the default."""
    h = history_of(
        tmp_path,
        variant("20_2016.08.04_vs_DFS_70431760_.SGF"),
        variant("21_51-2017.01.04-Master-Zhou_Junxun.sgf"),
    )
    ranks = {name: p.rank for name, p in h.players.items()}
    assert ranks["张学斌"] == "6p" and ranks["Zhou Junxun"] == "9p" and ranks["虎虎有生气"] == "9d"
    run = make_host({}).ratings(h, rating="egf")
    start = {p["name"]: p["initial"] for p in run.as_dict()["players"]}
    assert start["张学斌"] == "rank 6p" and start["Zhou Junxun"] == "rank 9p"
    first = {s.player: s.before.rating for s in run.result.steps}
    assert first["张学斌"] == 2850.0 and first["Zhou Junxun"] == 2940.0


def test_komi_written_in_ha_is_no_handicap() -> None:
    """``KM[7.5]HA[7.5]``: the komi written twice; no handicap, noted."""
    record = one("04_3-6_DeepZenGo_VS_Leela.sgf")
    assert record.handicap == 0
    assert "HA[7.5] repeats KM[7.5]: the komi, not stones; no handicap" in record.notes
    assert ingest_bytes(b"(;PB[a]PW[b]RE[B+R]HA[7.5]KM[6.5])", "x").error == (
        "HA[7.5]: expected a handicap 0..9"
    )


def test_komi_on_fox_s_scale(tmp_path) -> None:
    """Fox ``KM[750]`` is 7.5; Fox's ``KM[0] HA[0]`` is unknown, not 0."""
    h = history_of(
        tmp_path,
        variant("07_2017.09.23_vs_CGI_65495949_.SGF"),
        variant("02_2016.09.28_SSMMD_vs_20_74828133_.SGF"),
        variant("00_1-1_FineArt_VS_BADUKi.sgf"),
    )
    komi_of = {g.source.rsplit("/", 1)[-1][:2]: g.komi for g in h.games}
    assert komi_of == {"07": 7.5, "02": None, "00": 7.5}


def test_valid_records_of_games_not_rated_are_excluded_never_rejected(tmp_path) -> None:
    """Self-play, no date, no players, a result no rule reads: each excluded by its key,
    the run accounts for them and nothing is rejected."""
    names = {
        "05_AG_vs_AG_-_G01_-_English.sgf": "self-play",
        "06_AG_vs_AG_-_G02_-_English.sgf": "self-play",
        "16_1-1_ClearStone_VS_Golaxy.SGF": "undated",
        "17_1-2_Dolbaram_VS_LeelaZero.SGF": "undated",
        "18_Fig5c_Game1.sgf": "no players",
        "19_Fig5c_Game2.sgf": "no players",
        "15_6-Go_Genius-nlp.sgf": "result not understood",
    }
    h = history_of(tmp_path, *(variant(n) for n in names))
    assert account(h) == {name: ("excluded", kind) for name, kind in names.items()}
    assert not h.games


def test_every_variant_is_accounted_for(tmp_path) -> None:
    folder = shared_path("server-archives", "variants")
    h = history_of(tmp_path, folder)
    records = sorted(p.name for p in folder.iterdir() if p.suffix.lower() == ".sgf")
    reported = {f.path.rsplit("/", 1)[-1] for f in h.files}
    assert set(records) <= reported
    assert not [f for f in h.files if f.status == "rejected"]
    assert len(h.games) == 15


# -- Fox conventions, on records laid out as Fox writes them ------------------------------

#: A featurecat Fox header (fox-pro/Pro/9p/*.sgf), the names' bytes damaged as in the
#: archive: the middle byte of a character replaced by '?'.
FOX_RECORD = (
    b"(;GM[1]FF[4]  SZ[19]  GN[]  DT[2013-09-08]  PB[\xe6\x97\xb6\xe8\xb6\x8a]  "
    b"PW[\xe5\x91\xa8\xe7?\xbf\xe7\xbe\x8a]  BR[P9\xe6\xae\xb5]  WR[9\xe6\xae\xb5]  "
    b"KM[{km}]HA[{ha}]RU[Japanese]AP[GNU Go:3.8]RE[{re}]TM[600]TC[3]TT[30]  "
    b";B[dp];W[cd];B[qd])"
)


def fox(re: bytes = b"B+R", km: bytes = b"0", ha: bytes = b"0") -> bytes:
    return FOX_RECORD.replace(b"{re}", re).replace(b"{km}", km).replace(b"{ha}", ha)


def test_a_fox_record_without_ca_is_utf8_with_its_damaged_bytes_escaped() -> None:
    """Not Latin-1 for the whole record (names garbled, ``9段`` no rank): UTF-8 where it is
    valid, each damaged byte ``\\xNN``."""
    (record,) = ingest_bytes(fox(), "fox.sgf").records
    assert record.black == "时越" and record.white == "周\\xe7?\\xbf羊"
    assert record.black_rank == "P9段" and record.white_rank == "9段"
    assert record.notes == (
        "PW: bytes that are not valid UTF-8 (damaged upstream) kept as \\xNN escapes "
        "(docs/rules.md §9)",
    )


def test_gbk_is_not_taken_for_damaged_utf8() -> None:
    """A GBK name read as UTF-8 makes a valid character by chance (``½`` in 柯洁), far
    fewer bytes of them than invalid bytes: the fallback encoding reads it."""
    gbk = "(;PB[古力]PW[柯洁]RE[B+R]RO[1])".encode("gbk")
    (record,) = ingest_bytes(gbk, "x", "gbk").records
    assert (record.black, record.white) == ("古力", "柯洁")
    bad = ingest_bytes(b"(;CA[UTF-8]PB[\xff\xfe]PW[b]RE[B+R])", "x")
    assert bad.error == "PB cannot be decoded as UTF-8 (CA[UTF-8])"  # no evidence of UTF-8


@pytest.mark.parametrize(
    ("km", "ha", "points"),
    [
        (b"650", b"0", 6.5),
        (b"750", b"2", 7.5),
        (b"375", b"0", 7.5),  # 3.75 stones of Chinese counting
        (b"325", b"2", 6.5),
        (b"0", b"0", None),  # Fox's KM[0] HA[0]: a komi was in force, which is not said
        (b"0", b"3", 0.0),  # with handicap stones: no komi, scores are whole points
    ],
)
def test_fox_komi(km: bytes, ha: bytes, points) -> None:
    raw = scan_single(fox(km=km, ha=ha))
    assert writer(raw) == FOX
    assert komi(raw, int(ha)) == points


def test_komi_of_other_writers() -> None:
    def of(text: bytes, ha: int = 0):
        return komi(scan_single(b"(;PB[a]PW[b]RE[B+R]KM[" + text + b"];B[aa])"), ha)

    assert [of(b"6.5"), of(b"0"), of(b"-5"), of(b"7.50"), of(b"0.5", 2)] == [6.5, 0, -5, 7.5, 0.5]
    assert [of(b"x"), of(b""), of(b"nan"), of(b"1e300")] == [None] * 4
    assert of(b"650") == 6.5  # above 150: the ×100 scale, whoever wrote it (Ogatak's rule)


@pytest.mark.parametrize(
    ("km", "ha", "result", "how"),
    [
        (b"650", b"0", U, "void"),  # a half-point komi: no jigo possible
        (b"0", b"0", U, "void"),  # Fox's KM[0] HA[0]: a half-point komi
        (b"0", b"3", J, "jigo"),  # komi 0 with stones: a jigo can be, read at its word
    ],
)
def test_fox_draw_is_no_result_where_no_jigo_can_be(km, ha, result, how) -> None:
    raw = scan_single(fox(b"draw", km, ha))
    assert no_jigo(raw, int(ha)) == (how == "void")
    (record,) = ingest_bytes(fox(b"draw", km, ha), "fox.sgf").records
    assert (record.result.result, record.result.how) == (result, how)


def test_draw_of_other_writers_is_a_jigo() -> None:
    (record,) = ingest_bytes(b"(;PB[a]PW[b]RE[Draw]KM[6.5];B[aa])", "x").records
    assert record.result.result is J


def test_a_fox_draw_is_excluded_as_void_in_a_history(tmp_path) -> None:
    (tmp_path / "d.sgf").write_bytes(fox(b"draw", b"650"))
    (tmp_path / "w.sgf").write_bytes(fox(b"W+0.0", b"750"))
    h = history_of(tmp_path, tmp_path)
    assert account(h) == {"d.sgf": ("excluded", "void"), "w.sgf": ("ingested", "")}
    assert [(g.result, g.komi) for g in h.games] == [(0.0, 7.5)]


def test_a_file_without_its_opening_parenthesis_is_read() -> None:
    """featurecat's Fox Pro archive: 19 files start ``;GM[1]`` (the ``(`` left out) with
    the rest of the tree whole; read with a note. Cut short, it stays rejected."""
    whole = fox()[1:]
    assert whole.startswith(b";GM[1]")
    (record,) = ingest_bytes(whole, "open.sgf").records
    assert record.black == "时越"
    assert any("lacks the '('" in note for note in record.notes)
    variations = b";GM[1]PB[a]PW[b]DT[1992-11-23]RE[B+R];B[pd](;W[ip];B[cn])(;W[dn]))"
    assert ingest_bytes(variations, "v.sgf").records[0].white == "b"
    assert ingest_bytes(whole[:-1], "cut.sgf").error is not None  # truncated: no repair
    more = b";PB[a]PW[b]RE[B+R])(;PB[c]PW[d]RE[W+R])"  # not one tree short of its "("
    (later,) = ingest_bytes(more, "more.sgf").records  # sgfmill's reading: the later tree
    assert (later.black, later.notes) == ("c", ())
    assert ingest_bytes(b";GM[1]PB[a]PW[b]RE[B+R]", "none.sgf").error is not None


def test_a_history_rates_a_fox_record_with_its_pro_rank(tmp_path) -> None:
    outcome = ingest_unit(_save(tmp_path, "f.sgf", fox()), "ISO-8859-1", Limits())
    assert outcome.outcome.error is None
    h = history_of(tmp_path, tmp_path / "f.sgf")
    assert {n: p.rank for n, p in h.players.items()} == {"时越": "9p", "周\\xe7?\\xbf羊": "9d"}


def _save(folder, name: str, data: bytes) -> str:
    path = folder / name
    path.write_bytes(data)
    return str(path)
