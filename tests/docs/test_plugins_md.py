"""docs/plugins.md documents everything a criterion receives: a test
fails when a public attribute of the context, a seat, the pairings, the scores, the
settings, the tournament, a player or a game is not in it; its example runs as printed;
the per-game view agrees with the tables."""

from __future__ import annotations

import re
import types
from fractions import Fraction

import pytest
from builders import B, J, W, tournament
from conftest import ROOT, builtin_host

from sodos_plugin import Participation
from sodos_plugin.config.settings import SCHEMA
from sodos_plugin.engine.context import Context, Seat

DOC = (ROOT / "docs" / "plugins.md").read_text("utf-8")


def public(obj) -> set[str]:
    return {name for name in dir(obj) if not name.startswith("_")}


def sample_context() -> Context:
    # Ann 2d, Bob 1d, Cid 1k, Dan 2k; round 1: Cid-Ann h2 W+, Dan-Bob h3 B+; round 2:
    # Ann-Bob jigo, Cid bye, Dan absent; round 3: Bob-Cid W+ by default
    t = tournament(
        [("Ann", "2d"), ("Bob", "1d"), ("Cid", "1k"), ("Dan", "2k")],
        3,
        [
            (1, "Cid", "Ann", W, 2),
            (1, "Dan", "Bob", B, 3),
            (2, "Ann", "Bob", J),
            (3, "Bob", "Cid", W, 0, True),
        ],
        byes=[(2, "Cid")],
        absences=[(2, "Dan")],
    )
    host = builtin_host()
    return Context(t, host.settings_for(t), 3)


@pytest.mark.parametrize(
    ("prefix", "get"),
    [
        ("ctx", lambda c: c),
        ("seat", lambda c: c.seats(1)[0]),
        ("ctx.pairings", lambda c: c.pairings),
        ("ctx.scores", lambda c: c.scores),
        ("ctx.settings", lambda c: c.settings),
        ("ctx.tournament", lambda c: c.tournament),
        ("player", lambda c: c.tournament.players[0]),
        ("game", lambda c: c.tournament.games[0]),
    ],
)
def test_every_public_attribute_is_documented(prefix, get):
    obj = get(sample_context())
    documented = set(re.findall(rf"`{re.escape(prefix)}\.(\w+)", DOC))
    missing = sorted(public(obj) - documented)
    assert not missing, f"docs/plugins.md does not document {prefix}.{missing}"
    if prefix == "ctx.settings":  # and every config key, even one added later
        paths = set(re.findall(r"`ctx\.settings\.([\w.]+)`", DOC))
        missing = [k for k in SCHEMA if k not in paths and k.rpartition(".")[0] not in paths]
        assert not missing, missing  # each key, or its whole table (``ctx.settings.serve``)


def test_the_documented_example_runs_as_printed(host):
    code = DOC.split("<!-- example: wins-against-stronger -->\n```python\n", 1)[1]
    code = code.split("```", 1)[0]
    module = types.ModuleType("docs_example_was")
    exec(compile(code, "docs/plugins.md", "exec"), module.__dict__)
    host.register(module, name="was")
    ctx = sample_context()
    s = host.standings(ctx.tournament, system="mcmahon", criteria=["MMS", "WAS"])
    values = {p.name: s.value("WAS", i) for i, p in enumerate(ctx.tournament.players)}
    # Bob's final MMS = 30 (1d) + 0 + ½ (jigo) + 0 = 30½. Dan (2k) beat Bob (1d) in round
    # 1 and Cid (1k) beat him by default in round 3: both beat a stronger player. Ann (2d)
    # beat Cid: weaker.
    assert values == {"Ann": 0, "Bob": 0, "Cid": Fraction(61, 2), "Dan": Fraction(61, 2)}


def test_seats_agree_with_the_tables():
    ctx = sample_context()
    ann, bob, cid, dan = range(4)
    first = ctx.seats(1)
    assert first[cid] == Seat(1, cid, ann, Participation.PAIRED, "loss", Fraction(0), "B", 2, False)
    assert first[ann].won and first[ann].colour == "W" and first[ann].points == 1
    second = ctx.seats(2)
    assert second[ann].outcome == "jigo" and second[ann].points == Fraction(1, 2)
    assert second[cid].opponent is None and second[cid].participation is Participation.BYE
    assert second[dan].participation is Participation.ABSENT and not second[dan].played
    third = ctx.seats(3)
    assert third[cid].by_default and third[cid].won and third[bob].outcome == "loss"
    assert third[ann].participation is Participation.NOT_ASSIGNED
    for r in range(1, 4):
        for seat in ctx.seats(r):
            o = ctx.pairings.opponent[r - 1][seat.player]
            assert (seat.opponent if seat.played else -1) == o
            assert seat.points * 2 == (
                ctx.pairings.half_points[r - 1][seat.player] if o >= 0 else 0
            )
    with pytest.raises(ValueError, match="outside 1..3"):
        ctx.seats(4)


def test_exact_helpers():
    ctx = sample_context()
    scores = ctx.final_scores("M")
    assert [scores[i] * ctx.scores.unit for i in range(4)] == list(ctx.scores.final_mms)
    b = ctx.breakdown([[Fraction(1, 2), 1, 0, Fraction(1, 4)]] * 3)
    assert b.denominator == 4 and b.numerators() == [6, 12, 0, 3]
    assert ctx.totals([1, Fraction(1, 3), 0, 2]).numerators() == [3, 1, 0, 6]
    with pytest.raises(TypeError, match="not float"):
        ctx.totals([0.5, 0, 0, 0])


def test_the_adapter_excerpt_is_the_adapters_code():
    """The not-run excerpt in "A program without a plugin seam" is the adapter's own
    method, word for word (tests/docs/test_mcmahon_adapter.py runs the adapter)."""
    section = DOC.split("## A program without a plugin seam", 1)[1].split("\n## ", 1)[0]
    (excerpt,) = re.findall(r"^```python\n(.*?)^```$", section, re.S | re.M)
    adapter = (ROOT / "docs" / "adapters" / "mcmahon_adapter.py").read_text("utf-8")
    assert "def sorted_participants(self, rn):" in excerpt
    assert excerpt in adapter
