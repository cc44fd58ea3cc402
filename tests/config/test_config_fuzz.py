"""Fuzzing the config loader: every input is Settings or a ConfigError.

Random TOML-ish files, random ``-o key=value`` strings and random host mappings go
through :func:`load_file`, :func:`parse_override` and :func:`resolve`; nothing else
may come out (no AttributeError, ZeroDivisionError, OverflowError, RecursionError),
and no value may make the loader compute for long (``1e999999999`` as a score).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from conftest import builtin_host
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sodos_plugin.config.settings import SCHEMA, Settings, load_file, parse_override, resolve
from sodos_plugin.errors import ConfigError

# derandomized in the suite (a failure reproduces anywhere); benchmarks/fuzz.py's long
# runs (SODOS_FUZZ_EXAMPLES set) explore new examples
FUZZ = settings(
    max_examples=int(os.environ.get("SODOS_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize="SODOS_FUZZ_EXAMPLES" not in os.environ,
)

KEY_PARTS = sorted({part for key in SCHEMA for part in key.split(".")}) + [
    "plugin",
    "prefer",
    "tool",
    "sodos",
    "SOS",
]
DOTTED_KEYS = [*SCHEMA, "plugin", "prefer", "plugin.x", "plugin.x.y", "prefer.SOS", "mcmahon.bar.x"]
# Values that have broken loaders: zero denominators, huge exponents, non-finite floats.
NASTY_TEXT = [
    "1/0",
    "0/0",
    "-1/2",
    "1e999999999",
    "1e-999999999",
    "9" * 5000,
    "nan",
    "inf",
    "-inf",
    "½",
    " 1/2 ",
    "0.5",
    "3d",
    "30k",
    "99d",
    "1p",
    "swiss",
    "McMahon",
    "egf",
    "true",
    "",
    "\x00",
    "NBW,SOS",
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**6000), max_value=10**6000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(),
    st.text(max_size=12),
    st.sampled_from(NASTY_TEXT),
)
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(KEY_PARTS), st.text(max_size=6)), children, max_size=4
        ),
    ),  # fmt: skip
    max_leaves=12,
)


def nest(flat: dict[str, object]) -> dict[str, object]:
    """Dotted keys to nested tables; a key that collides with a value is dropped."""
    root: dict[str, object] = {}
    for dotted, value in flat.items():
        node = root
        *parents, last = dotted.split(".")
        for part in parents:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                break
            node = child
        else:
            node.setdefault(last, value)
    return root


MAPPINGS = st.one_of(
    st.dictionaries(st.sampled_from(DOTTED_KEYS), VALUES, max_size=6).map(nest),
    st.dictionaries(st.one_of(st.sampled_from(KEY_PARTS), st.text(max_size=8)), VALUES,
                    max_size=5),
)  # fmt: skip


def outcome(layers) -> Settings | ConfigError:
    try:
        return resolve(layers)
    except ConfigError as error:
        assert str(error)
        return error


@FUZZ
@given(st.lists(MAPPINGS, min_size=1, max_size=3))
def test_resolve_random_mappings(layers):
    result = outcome([(f"layer {i}", data) for i, data in enumerate(layers)])
    if isinstance(result, Settings):
        assert result.system in ("swiss", "mcmahon")
        assert result.criteria
        scoring = result.scoring
        for points in (scoring.bye, scoring.bye_mms, scoring.absent_nbw, scoring.absent_mms):
            assert points.denominator <= 1024 and points >= 0


OVERRIDE_TEXT = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda key, sep, value: f"{key}{sep}{value}",
        st.one_of(st.sampled_from(DOTTED_KEYS), st.text(max_size=8)),
        st.sampled_from(["=", " = ", "==", ""]),
        st.one_of(
            st.sampled_from(NASTY_TEXT),
            st.text(max_size=20),
            st.sampled_from(["[1, 2]", "{a = 1}", '["NBW"]', "1.5", "[[[", '"x"', "1979-05-27"]),
        ),
    ),
)


@FUZZ
@given(st.lists(OVERRIDE_TEXT, min_size=1, max_size=4))
def test_overrides_random_strings(texts):
    layers = []
    for text in texts:
        try:
            layers.append((f"-o {text}", parse_override(text)))
        except ConfigError:
            continue
    outcome(layers)


TOML_LINES = st.one_of(
    st.builds(
        lambda key, value: f"{key} = {value}",
        st.one_of(st.sampled_from(DOTTED_KEYS), st.text(max_size=8)),
        st.one_of(
            st.sampled_from(
                [
                    '"1/0"',
                    '"1e999999999"',
                    "nan",
                    "inf",
                    "-inf",
                    "1e308",
                    "0.1",
                    '"3d"',
                    "true",
                    '["NBW", "SOS"]',
                    "[1, 2]",
                    "{a = 1}",
                    '"swiss"',
                    "1979-05-27",
                    "9" * 30,
                    "9" * 5000,
                    "[" * 2000,
                    "a" + ".a" * 5000,
                ]
            ),
            st.integers().map(str),
            st.text(max_size=10).map(lambda t: '"' + t.replace("\\", "").replace('"', "") + '"'),
        ),
    ),
    st.sampled_from(
        ["[scoring]", "[mcmahon]", "[plugin.x]", "[prefer]", "[tool.sodos]", "[[criteria]]", "[x"]
    ),
    st.text(max_size=20),
)


@FUZZ
@given(
    st.lists(TOML_LINES, max_size=8),
    st.sampled_from(["sodos.toml", "pyproject.toml"]),
    st.binary(max_size=16),
)
def test_load_file_random_toml(lines, name, garbage):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / name
        path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass") + garbage)
        try:
            data = load_file(path)
        except ConfigError:
            return
        outcome([(str(path), data)])


@settings(max_examples=40, deadline=None)
@given(MAPPINGS)
def test_host_random_config(config):
    # module names to import are not fuzzed: importing arbitrary modules has effects
    config.pop("plugins", None)
    with contextlib.suppress(ConfigError):
        builtin_host(config)


def test_deeply_nested_tables_are_rejected_cleanly(tmp_path):
    path = tmp_path / "sodos.toml"
    path.write_text("a" + ".a" * 50_000 + " = 1\n")
    try:
        data = load_file(path)
    except ConfigError:
        return
    assert isinstance(outcome([(str(path), data)]), ConfigError)


def test_known_nasty_values_are_config_errors():
    for bad in [
        {"plugin": 1},
        {"prefer": 3},
        {"scoring": {"bye": "1/0"}},
        {"scoring": {"bye": float("inf")}},
        {"scoring": {"bye": float("nan")}},
        {"scoring": {"bye": "1e999999999"}},
        {"scoring": {"bye": 10**5000}},
        {"scoring": {"absent_mms": "1/999999937"}},
    ]:
        assert isinstance(outcome([("test", bad)]), ConfigError), bad
