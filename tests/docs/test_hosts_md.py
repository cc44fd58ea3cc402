"""docs/hosts.md matches the real signatures: each call in its table
has the parameters, order, kinds and defaults of the code, and a test calls each one."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import io
import json
import re

import msgspec
import pytest
from builders import seed_games, tournament
from conftest import ROOT, TESTS
from sodos_hookspecs import HistoryGame

import sodos_plugin
from sodos_plugin import Host, Tournament
from sodos_plugin.engine import model as module
from sodos_plugin.engine.standings import Standings

DOC = (ROOT / "docs" / "hosts.md").read_text("utf-8")
TABLE = DOC.split("| call | does |\n|---|---|\n", 1)[1].split("\n\n", 1)[0]
CALLS = [re.match(r"\| `([^`]+)`", line).group(1) for line in TABLE.splitlines()]


def target(call: str):
    head = call.split("(", 1)[0]
    if head == "Host":
        return Host.__init__
    if head == "Tournament":
        return Tournament
    owner, _, name = head.rpartition(".")
    return getattr(
        {"host": Host, "standings": Standings, "sodos_plugin": sodos_plugin}[owner], name
    )


def literal(node):
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "frozenset":
        return frozenset()
    return ast.literal_eval(node)


def documented(call: str) -> list[tuple[str, str, object]]:
    """(name, kind, default or Ellipsis) of each documented parameter."""
    args = ast.parse(f"def f({call.split('(', 1)[1][:-1]}): pass").body[0].args
    found = []
    plain = args.posonlyargs + args.args
    defaults = [...] * (len(plain) - len(args.defaults)) + [literal(d) for d in args.defaults]
    found += [(a.arg, "positional", d) for a, d in zip(plain, defaults)]
    kw = [... if d is None else literal(d) for d in args.kw_defaults]
    found += [(a.arg, "keyword", d) for a, d in zip(args.kwonlyargs, kw)]
    if args.kwarg:
        found.append((args.kwarg.arg, "**", ...))
    return found


def actual(function) -> list[tuple[str, str, object]]:
    kinds = {
        inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional",
        inspect.Parameter.POSITIONAL_ONLY: "positional",
        inspect.Parameter.KEYWORD_ONLY: "keyword",
        inspect.Parameter.VAR_KEYWORD: "**",
    }
    found = []
    for p in inspect.signature(function).parameters.values():
        if p.name in ("self",) or p.name.startswith("_"):
            continue
        default = ... if p.default is inspect.Parameter.empty else p.default
        found.append((p.name, kinds[p.kind], default))
    return found


def normal(params):
    return [(n, k, dict(d) if isinstance(d, dict) else d) for n, k, d in params]


@pytest.mark.parametrize("call", [c for c in CALLS if "(" in c])
def test_documented_signature_is_the_real_one(call):
    real = actual(target(call))
    if call.startswith("Tournament("):  # a dataclass: its fields and defaults, in order
        real = []
        for f in dataclasses.fields(Tournament):
            if f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:
                default = ... if f.default is dataclasses.MISSING else f.default
            real.append((f.name, "positional", default))
    assert normal(documented(call)) == normal(real)


def test_every_public_host_call_is_documented():
    names = {c.split("(", 1)[0].removeprefix("host.") for c in CALLS if c.startswith("host.")}
    public = {n for n in dir(Host) if not n.startswith("_")}
    # the rest are documented where their feature is (ratings.md, the CLI's own helpers)
    elsewhere = {"rating_system", "history_cache", "describe", "enforce_strict", "providers",
                 "resolve", "roster", "store"}  # fmt: skip
    assert public - names - elsewhere == set()


def test_each_documented_call_runs(make_host, host):
    t = tournament([(p, "1d") for p in "ABCD"], 6, seed_games())
    path = TESTS / "data" / "sample_tournament.xml"
    standings = host.standings(t, system="swiss", criteria=["NBW", "SOS", "SODOS"])
    stream = io.StringIO()
    dated = dataclasses.replace(host.read([path]).tournament, date="2026-03-01")
    explained = sodos_plugin.explain_player(standings, "A")

    class Plugin:
        pass

    runs = {
        "Host": lambda: make_host({"system": "swiss"}),
        "host.read": lambda: host.read([path]).tournament.players,
        "host.reader_for": lambda: host.reader_for(path).name == "opengotha-xml" or None,
        "Tournament": lambda: Tournament("t", 1, (), ()),
        "host.standings": lambda: host.standings(t, round=3, criteria=["NBW"], system="swiss"),
        "standings.rows": lambda: standings.rows()[0].place == 1 or None,
        "standings.value": lambda: standings.value("SODOS", 0) == 11 or None,
        "standings.as_dict": lambda: json.dumps(standings.as_dict()),
        "host.write": lambda: host.write(standings, "CSV", stream) or stream.getvalue(),
        "host.render": lambda: host.render(standings, "json").startswith("{"),
        "host.register": lambda: host.register(Plugin(), name="empty") or True,
        "host.resolve_criteria": lambda: host.resolve_criteria(["sodos"])[0].name == "SODOS",
        "host.settings_for": lambda: host.settings_for(t, system="swiss").origins["system"],
        "host.plugin_warnings": lambda: host.plugin_warnings() == [] or None,
        "host.registry": lambda: host.registry.lookup("criteria", "SOS"),
        "host.stdin_suffix": lambda: host.stdin_suffix(b"(;GM[1])") == ".sgf" or None,
        "host.history": lambda: host.history(tournaments=[dated]),
        "host.ratings": lambda: host.ratings(host.history(tournaments=[dated])).as_dict(),
        "host.rate_game": lambda: host.rate_game(
            None, HistoryGame("2026-03-01", "g1", "Ann", "Bob", 1.0), rating="ogs"
        ).players["Ann"],
        "sodos_plugin.explain_player": lambda: sodos_plugin.explain_player(standings, "A"),
        "sodos_plugin.explanation_as_dict":
            lambda: sodos_plugin.explanation_as_dict(explained)["player"],
    }  # fmt: skip
    heads = [c.split("(", 1)[0] for c in CALLS]
    assert sorted(heads) == sorted(runs), "a documented call has no test here, or the reverse"
    for head in heads:
        assert runs[head]() not in (None, False), head


def test_tournament_fields_are_all_documented():
    call = next(c for c in CALLS if c.startswith("Tournament("))
    assert [f.name for f in dataclasses.fields(Tournament)] == [n for n, _, _ in documented(call)]


@pytest.mark.parametrize("model", ["Player", "Game"])
def test_model_classes_are_documented_with_their_fields_and_defaults(model):
    (call,) = re.findall(rf"`({model}\([^`]*\))`", " ".join(DOC.split()))
    cls = getattr(module, model)
    namespace = {"Result": module.Result}
    params = ast.parse(f"def f({call.split('(', 1)[1][:-1]}): pass").body[0].args
    defaults = [eval(ast.unparse(d), namespace) for d in params.defaults]  # the doc's text
    shown = [a.arg for a in params.args]
    real = msgspec.structs.fields(cls)
    assert shown == [f.name for f in real]
    with_default = [f for f in real if f.default is not msgspec.NODEFAULT]
    assert defaults == [f.default for f in with_default]
