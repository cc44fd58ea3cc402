"""Fuzzing the readers: every input is a result or a clean error.

* ``RE`` parser: any text gives a :class:`ParsedResult`, never an exception.
* SGF root scanner, differential against sgfmill's full parse: on grammar-generated
  and mutated SGF bytes, whenever the fast scan answers, sgfmill parses the data and
  finds the same root properties; whenever sgfmill rejects the data, the fast scan
  does not answer. ``ingest_bytes`` never raises.
* h9 and OpenGotha XML readers: mutations of the real conformance files and
  generated text end in a Tournament or an :class:`InputError`, nothing else.

Bounded: modest ``max_examples``; the longer runs and the linear-time check are in
``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
from conftest import builtin_host, shared_path
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sodos_plugin.engine.model import Result, Tournament
from sodos_plugin.errors import InputError
from sodos_plugin.readers import h9, opengotha_file
from sodos_plugin.readers.sgf.ingest import FileOutcome, ingest_bytes
from sodos_plugin.readers.sgf.results import ParsedResult, parse_result
from sodos_plugin.readers.sgf.scan import scan_fast, scan_full

#: benchmarks/fuzz.py raises this (SODOS_FUZZ_EXAMPLES) for the long runs.
EXAMPLES = int(os.environ.get("SODOS_FUZZ_EXAMPLES", "200"))
# In the suite the examples are derandomized (a failure reproduces anywhere); the long
# runs of benchmarks/fuzz.py explore new ones.
LONG_RUN = "SODOS_FUZZ_EXAMPLES" in os.environ
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=not LONG_RUN,
)

# -- RE ------------------------------------------------------------------------------------

RE_WORDS = st.sampled_from(
    ["B+", "W+", "b+", "w+", "R", "Resign", "T", "Time", "F", "Forfeit", "0", "0.5", "3.5",
     "12", "?", "Void", "Draw", "Jigo", "0", "=", "黒", "白", "中押し勝ち", "勝", "持碁", " ",
     "+", ".", "-", "999999999999999999", "1e9", "½", "\x00", "\u200b"]
)  # fmt: skip


@FUZZ
@given(st.one_of(st.text(max_size=40), st.lists(RE_WORDS, max_size=6).map("".join)))
@example("B+0")
@example("W+" + "9" * 5000)
@example("B+1." + "5" * 5000)
def test_re_parser_never_raises(text):
    parsed = parse_result(text)
    assert isinstance(parsed, ParsedResult)
    assert isinstance(parsed.result, Result)
    low = " ".join(text.split()).lower()
    if low in ("b+r", "b+resign", "b+t", "b+time"):
        assert parsed.result is Result.BLACK_WINS


# -- SGF -----------------------------------------------------------------------------------

WS = st.sampled_from([b"", b"", b" ", b"\n", b"\r\n", b"\t", b"\x0b"])
VALUE_BYTES = st.binary(max_size=8) | st.sampled_from(
    [b"", b"B+R", b"W+3.5", b"3d", b"aa", b"\\]", b"\\\\", b"a\\", b"]", b"[", b"\xc3\xa9",
     b"\xff\xfe", b"UTF-8", b"GB2312", b"1"]
)  # fmt: skip
IDENT = st.sampled_from(
    [b"PB", b"PW", b"RE", b"RO", b"EV", b"BR", b"WR", b"CA", b"FF", b"GM", b"SZ", b"HA", b"KM",
     b"B", b"W", b"C", b"AB", b"PlayerBlack", b"re", b"Re", b"X" * 65, b"", b"1"]
)  # fmt: skip


@st.composite
def sgf_value(draw) -> bytes:
    raw = draw(VALUE_BYTES)
    if draw(st.booleans()):  # escape it properly most of the time
        raw = raw.replace(b"\\", b"\\\\").replace(b"]", b"\\]")
    return b"[" + raw + b"]"


@st.composite
def sgf_node(draw) -> bytes:
    props = draw(
        st.lists(
            st.tuples(IDENT, WS, st.lists(st.tuples(sgf_value(), WS), min_size=1, max_size=3)),
            max_size=5,
        )
    )
    body = b"".join(ident + ws + b"".join(v + w for v, w in values) for ident, ws, values in props)
    return draw(WS) + b";" + draw(WS) + body


def sgf_tree(depth: int = 3):
    children = st.lists(sgf_tree(depth - 1), max_size=2) if depth > 0 else st.just([])
    return st.builds(
        lambda ws, nodes, kids, tail: ws + b"(" + b"".join(nodes) + b"".join(kids) + tail + b")",
        WS,
        st.lists(sgf_node(), min_size=1, max_size=4),
        children,
        WS,
    )


SGF = st.builds(
    lambda lead, trees, trail: lead + b"".join(trees) + trail,
    st.sampled_from([b"", b"", b"\xef\xbb\xbf", b"junk ", b"\n"]),
    st.lists(sgf_tree(), min_size=1, max_size=3),
    st.sampled_from([b"", b"", b"\n", b" junk", b")", b"(", b"(;"]),
)


@st.composite
def mutated(draw, base) -> bytes:
    data = bytearray(draw(base))
    for _ in range(draw(st.integers(0, 3))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["delete", "insert", "replace"]))
        byte = draw(st.sampled_from(b"[];()\\ \nAZaz\x00\xff"))
        if kind == "delete":
            del data[at]
        elif kind == "insert":
            data.insert(at, byte)
        else:
            data[at] = byte
    return bytes(data)


_VALUES = re.compile(rb"\[((?:[^\\\]]|\\.)*)\]", re.DOTALL)


def as_lists(root) -> dict[str, list[bytes]]:
    """A root map in sgfmill's form, whichever form the scanner returns it in."""
    out = {}
    for ident, values in root.items():
        key = ident.decode("ascii") if isinstance(ident, bytes) else ident
        out[key] = _VALUES.findall(values) if isinstance(values, bytes) else list(values)
    return out


def full_parse(data: bytes):
    try:
        return scan_full(data)
    except ValueError:
        return None


@pytest.mark.slow
@FUZZ
@given(st.one_of(SGF, mutated(SGF), st.binary(max_size=64)))
@example(b"(;PB[a]\n;B[aa])")
@example(b"(;PB[a] PB[b];B[aa])")
@example(b"(;PB[a][b]  [c];B[aa])")
@example(b"(;RE[B+R]\\;B[aa])")
def test_fast_scan_agrees_with_sgfmill(data):
    fast = scan_fast(data)
    full = full_parse(data)
    if fast is not None:
        assert full is not None, "the fast scan accepted data sgfmill rejects"
        assert [as_lists(root) for root in fast] == [as_lists(root) for root in full]
    outcome = ingest_bytes(data, "fuzz.sgf")
    assert isinstance(outcome, FileOutcome)
    if full is None:
        assert outcome.error, "sgfmill rejects the data, so must the reader"


# -- h9 and OpenGotha XML -------------------------------------------------------------------


def mutations(seed: bytes):
    """A real file with a few bytes deleted, inserted or replaced, or lines shuffled."""
    edit = st.tuples(
        st.integers(0, len(seed)),
        st.sampled_from(["delete", "insert", "replace", "cut"]),
        st.sampled_from(
            [b"x", b"\xff", b"\x00", b" ", b"\n", b"0", b"9", b"+", b"-", b"=", b"?", b"/", b"!",
             b"<", b">", b"\"", b"&", b"&amp;", b"<!ENTITY a 'b'>", b"99999999999", b"-1",
             b"\xc2\xbd", b"\xbd", b"]]>"]
        ),
    )  # fmt: skip

    def apply(edits):
        data = bytearray(seed)
        for at, kind, piece in edits:
            at = min(at, len(data))
            if kind == "delete":
                del data[at : at + len(piece)]
            elif kind == "insert":
                data[at:at] = piece
            elif kind == "replace":
                data[at : at + len(piece)] = piece
            else:
                del data[at:]
        return bytes(data)

    return st.lists(edit, min_size=1, max_size=4).map(apply)


def read_with(reader, data: bytes, suffix: str) -> Tournament | InputError:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / f"fuzz{suffix}"
        path.write_bytes(data)
        try:
            result = reader(path)
        except InputError as error:
            assert str(error)
            return error
    tournament = result[0] if isinstance(result, tuple) else result
    assert isinstance(tournament, Tournament)
    return tournament


H9_LINES = st.lists(
    st.one_of(
        st.sampled_from(
            ["; EV[Fuzz]", "; HA[h9]", "; Pl Name Rk Co Club MMS SOS SOSOS",
             "; Pl Name Rk Co Club NBW SOS", "1 A B 3d FR Par 3 20 40 2+/w 3-/b",
             "2 C D 1k DE Ber 2 18 30 1-/b 0+", "  E F 30k NL Ams 1 10 10 0= 2+!w9",
             "3 G 9p JP Tok 2½ 5 5 1=/b3 ?", ""]
        ),
        st.text(alphabet="0123456789 +-=?/!wbhkdp|;½¼¾.", max_size=30),
    ),
    max_size=8,
).map(lambda lines: "\n".join(lines).encode("utf-8"))  # fmt: skip


@FUZZ
@given(st.data())
def test_h9_reader_result_or_input_error(data):
    name = data.draw(
        st.sampled_from(["opengotha_Tournoi_de_Juvisy.h9", "h9_mpj2022_opengotha_sodos.txt"])
    )
    seed = shared_path("conformance", "go", name).read_bytes()
    text = data.draw(st.one_of(mutations(seed), H9_LINES))
    read_with(h9.read_path, text, ".h9")


@FUZZ
@given(st.data())
def test_opengotha_xml_reader_result_or_input_error(data):
    seed = shared_path("conformance", "go", "opengotha_TournoiChinois.xml").read_bytes()
    read_with(opengotha_file.read_path, data.draw(mutations(seed)), ".xml")


def test_mutation_strategy_keeps_files_readable_sometimes():
    """The fuzz above is not vacuous: the unmutated seeds read as tournaments."""
    for name in ("opengotha_Tournoi_de_Juvisy.h9", "h9_mpj2022_opengotha_sodos.txt"):
        seed = shared_path("conformance", "go", name).read_bytes()
        assert isinstance(read_with(h9.read_path, seed, ".h9"), Tournament)
    seed = shared_path("conformance", "go", "opengotha_TournoiChinois.xml").read_bytes()
    assert isinstance(read_with(opengotha_file.read_path, seed, ".xml"), Tournament)


def test_xml_with_unknown_encoding_is_an_input_error():
    """Found by the fuzz above: expat raised LookupError for encoding="TF-8"."""
    seed = shared_path("conformance", "go", "opengotha_TournoiChinois.xml").read_bytes()
    head, sep, rest = seed.partition(b"?>")
    assert sep
    bad = b'<?xml version="1.0" encoding="TF-8"?>' + rest
    error = read_with(opengotha_file.read_path, bad, ".xml")
    assert isinstance(error, InputError) and "TF-8" in str(error)


def test_h9_rank_out_of_range_is_an_input_error():
    """Found by the long fuzz: parse_rank's ValueError for "93D" escaped the h9 reader."""
    seed = shared_path("conformance", "go", "opengotha_Tournoi_de_Juvisy.h9").read_bytes()
    lines = seed.splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if not line.startswith(b";") and line.strip())
    cells = lines[row].split(b" ")
    rank = next(i for i, c in enumerate(cells) if c[:-1].isdigit() and c[-1:] in b"kdKD")
    cells[rank] = b"93D"
    lines[row] = b" ".join(cells)
    error = read_with(h9.read_path, b"".join(lines), ".h9")
    assert isinstance(error, InputError) and "93D" in str(error)


# -- reader options ----------------------------------------------------------------------------

SGF_OPTION_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 200),
    st.sampled_from([10**30, "rot13", "base64", "utf-16", "latin-1", "nope", "", " ", "BYE"]),
    st.text(max_size=6),
    st.lists(st.sampled_from(["Alice", "Bob", "", 3]), max_size=3),
    st.dictionaries(
        st.sampled_from(["1", "2", "x", "99", "100", "Alice"]),
        st.one_of(st.sampled_from(["Alice", "Bob", "Zed", ""]), st.lists(st.text(max_size=3))),
        max_size=3,
    ),
)
SGF_OPTIONS = st.dictionaries(
    st.sampled_from(
        ["event", "aliases", "bye_name", "byes", "rounds", "fallback_encoding",
         "max_file_bytes", "max_archive_members", "max_archive_bytes", "unknown"]
    ),
    SGF_OPTION_VALUES,
    max_size=3,
)  # fmt: skip


@settings(
    max_examples=max(60, EXAMPLES // 5), deadline=None, suppress_health_check=list(HealthCheck)
)
@given(SGF_OPTIONS)
def test_sgf_reader_options_are_config_or_input_errors(options):
    """Any [plugin."builtin.sgf"] section: standings, or a ConfigError/InputError naming it."""
    from sodos_plugin import ConfigError

    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        (folder / "a.sgf").write_bytes(b"(;EV[E]RO[1]PB[Alice]PW[Bob]BR[3k]WR[2k]RE[B+R])")
        (folder / "b.sgf").write_bytes(b"(;EV[E]RO[2]PB[Bob]PW[Alic\xe9]BR[2k]WR[3k]RE[W+R])")
        host = builtin_host({"plugin": {"builtin.sgf": options}})
        try:
            host.read([folder], skip_bad=True, jobs=1)
        except (ConfigError, InputError) as error:
            assert str(error)


def test_binary_codec_as_fallback_encoding_is_a_config_error(tmp_path):
    """Found by the fuzz above: "rot13" passes codecs.lookup but is not a text encoding."""
    import pytest

    from sodos_plugin import ConfigError, Host

    (tmp_path / "a.sgf").write_bytes(b"(;RO[1]PB[Al\xe9]PW[Bob]BR[3k]WR[2k]RE[B+R])")
    host = Host(
        {"plugin": {"builtin.sgf": {"fallback_encoding": "rot13"}}},
        config_file=False,
        entry_points=False,
    )
    with pytest.raises(ConfigError, match="fallback_encoding"):
        host.read([tmp_path], jobs=1)


# -- the whole SGF reader and the engine on fuzzed records ---------------------------------

RECORD = st.builds(
    lambda ev, ro, pb, pw, br, wr, re_, extra: (
        b"(;FF[4]" + ev + b"RO[" + ro + b"]PB[" + pb + b"]PW[" + pw + b"]BR[" + br + b"]WR["
        + wr + b"]RE[" + re_ + b"]" + extra + b";B[pd])"
    ),
    st.sampled_from([b"", b"EV[Cup]", b"EV[Other]"]),
    st.sampled_from([b"1", b"2", b"3 (playoff)", b"round 2", b"0", b"x", b"", b"99999"]),
    st.sampled_from([b"Alice", b"Bob", b"Carol", b"", b" Alice ", b"\xff\xfe", b"Dave"]),
    st.sampled_from([b"Alice", b"Bob", b"Carol", b"Dave", b"BYE"]),
    st.sampled_from([b"3k", b"1d", b"NR", b"", b"99d", b"1680*", b"15\xe7\xba\xa7"]),
    st.sampled_from([b"3k", b"2k", b"9p", b"30k"]),
    st.sampled_from([b"B+R", b"W+3.5", b"0", b"?", b"Void", b"B+F", b"W+", b"", b"Jigo"]),
    st.sampled_from([b"", b"HA[2]", b"HA[x]", b"KM[x]", b"CA[latin-1]", b"CA[nope]", b"GN[R:2]"]),
)  # fmt: skip


@settings(
    max_examples=max(60, EXAMPLES // 5), deadline=None, suppress_health_check=list(HealthCheck)
)
@given(
    st.lists(st.one_of(RECORD, mutated(RECORD)), min_size=1, max_size=6),
    st.sampled_from(["mcmahon", "swiss"]),
)
def test_reader_and_engine_on_fuzzed_records(blobs, system):
    """Records that contradict each other, lack ranks or rounds: standings or a clean error."""
    from sodos_plugin import ConfigError, Host

    host = Host({"plugin": {"builtin.sgf": {"bye_name": "BYE"}}}, config_file=False,
                entry_points=False)  # fmt: skip
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        for i, blob in enumerate(blobs):
            (folder / f"{i}.sgf").write_bytes(blob)
        try:
            read = host.read([folder], skip_bad=True, jobs=1)
            host.standings(read.tournament, system=system)
        except (InputError, ConfigError) as error:
            assert str(error)


def test_nul_in_ca_is_a_record_error():
    """Found by the fuzz above: codecs.lookup raises ValueError for a NUL in CA."""
    outcome = ingest_bytes(b"(;FF[4]CA[lat\x00in-1]RO[1]PB[A\xe9]PW[B]RE[B+R])", "nul.sgf")
    assert outcome.error and "CA[" in outcome.error
