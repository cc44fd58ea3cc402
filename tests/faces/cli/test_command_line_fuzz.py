"""Fuzzing the command line: any argument list ends with status 0, 1 or 2 and at
most a one-line error; never "internal error" (an exception the CLI did not expect).
"""

from __future__ import annotations

import contextlib
import io
import os

from conftest import ROOT, SHARED_DATA, TESTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin import cli

FUZZ = settings(
    max_examples=int(os.environ.get("SODOS_FUZZ_EXAMPLES", "120")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize="SODOS_FUZZ_EXAMPLES" not in os.environ,
)
INPUTS = [
    str(ROOT / "sample_sgf"),
    str(TESTS / "data" / "sample_tournament.xml"),
    str(SHARED_DATA / "conformance" / "go" / "opengotha_Tournoi_de_Juvisy.h9"),
    str(SHARED_DATA / "sgf" / "malformed"),
    "/nonexistent/x.sgf",
    str(ROOT / "pyproject.toml"),
]
VALUES = st.one_of(
    st.sampled_from(
        ["swiss", "mcmahon", "MMS,SOS", "NBW,SODOS,SOSOS", "SOS,,", "XYZ", "0", "3", "-1",
         "99", "json", "csv", "table", "html", "h9", "nope", "Weber Paul", "", "system=swiss",
         "criteria=[1]", "scoring.bye=1/0", "plugin=1", "mcmahon.bar=99d", "2", "x=y=z"]
    ),
    st.text(max_size=8),
)  # fmt: skip
PAIRS = st.one_of(
    st.tuples(st.just("--system"), st.sampled_from(["swiss", "mcmahon", "x"])),
    st.tuples(
        st.just("--criteria"),
        st.sampled_from(["MMS,SOS", "NBW,SODOS,SOSOS", "SOS,,", "XYZ", "DC", "SDC", "CUSS"]),
    ),
    st.tuples(st.just("--round"), st.sampled_from(["0", "1", "3", "-1", "99", "x"])),
    st.tuples(st.just("--format"), st.sampled_from(["json", "csv", "table", "html", "h9", "x"])),
    st.tuples(st.just("--jobs"), st.sampled_from(["1", "2", "0", "-3"])),
    st.tuples(st.just("-o"), st.one_of(VALUES, st.sampled_from(
        ["system=swiss", "criteria=[1]", "scoring.bye=1/0", "plugin=1", "mcmahon.bar=99d",
         "unplayed.virtual_opponent=dummy", 'plugin.builtin.sgf.bye_name="BYE"', "x=y=z"]))),
    st.tuples(st.sampled_from(["--skip-bad", "--no-entry-points", "--strict"])),
    st.tuples(st.sampled_from(["--config", "-x", "--version"]), st.sampled_from(INPUTS)),
)  # fmt: skip
STRUCTURED = st.builds(
    lambda command, player, paths, pairs, junk: [
        command,
        *player,
        *paths,
        *[a for pair in pairs for a in pair],
        *junk,
    ],
    st.sampled_from(["standings", "standings", "explain", "plugins", "check"]),
    st.lists(st.sampled_from(["Weber Paul", "Nobody", "1", ""]), max_size=1),
    st.lists(st.sampled_from(INPUTS[:3] * 3 + INPUTS[3:]), min_size=1, max_size=2),
    st.lists(PAIRS, max_size=3),
    st.lists(VALUES, max_size=1).filter(lambda junk: not junk or len(junk[0]) % 3 == 0),
)
JUNK = st.lists(st.one_of(VALUES, st.sampled_from(INPUTS)), max_size=5)
ARGV = st.one_of(STRUCTURED, STRUCTURED, STRUCTURED, JUNK)


@FUZZ
@given(ARGV)
def test_any_command_line_ends_cleanly(argv):
    out, err = io.StringIO(), io.StringIO()
    argv = [a for a in argv if a not in ("--output", "--debug")]  # no files written, no tracebacks
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as stop:  # argparse --help/--version
            status = stop.code or 0
    assert status in (0, 1, 2), (argv, status, err.getvalue())
    assert "internal error" not in err.getvalue(), (argv, err.getvalue())
    assert "Traceback" not in err.getvalue()
