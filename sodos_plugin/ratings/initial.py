"""Starting ratings: a CSV file, the ratings the files carry, or none (ranks), matched
to a history's players by identity (docs/rules.md §8, §10.1).

Contract: :func:`read_initial` reads ``name, rating[, deviation]`` rows (a header row
is skipped), bounded and checked line by line; :func:`given_ratings` turns what a host
or the command line gives (``None``: the default start, ``"ranks"``, ``"files"``, a path,
a mapping) into ratings keyed by the history's spelling of each name, with a warning for
names that play in no game. Every value is checked against :data:`MAX_RATING` and
:data:`MAX_DEVIATION` (a CSV's errors name the line, a host's the player).

The default start (docs/rules.md §10.1): the ratings the files carry (OpenGotha XML
``rating``) are on the EGF's GoR scale (OpenGotha keeps every rating on it, −900…2949),
so a system that declares that scale (:attr:`~sodos_hookspecs.RatingSystem.file_scale`)
starts from them where a file gives them; every other system starts from ranks, whose
mapping each system has. The run says which (:func:`default_start`).
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Mapping
from operator import attrgetter
from pathlib import Path
from typing import Any

from sodos_hookspecs import GameHistory, InitialRating, RatingState, RatingSystem

from sodos_plugin.engine.identity import identity_key
from sodos_plugin.errors import InputError
from sodos_plugin.ratings.names import history_names
from sodos_plugin.util.inputfiles import FileRefused, TooLarge, read_regular

MAX_INITIAL_BYTES = 64 << 20
MAX_INITIAL_ROWS = 1_000_000
#: The limit of a starting rating, ±: every scale in use (GoR −900…3000, Glicko 100…6000,
#: Elo) lies well inside, and every built-in system's formulas stay finite there.
MAX_RATING = 10_000.0
#: The limit of a starting deviation (0 up to this) and volatility (above 0 up to this).
MAX_DEVIATION = 10_000.0
#: What ``initial`` may name besides a path or a mapping.
KEYWORDS = ("ranks", "files")


def out_of_range(state: RatingState) -> str | None:
    """Why a starting state is refused (not finite, beyond the limits), else ``None``."""
    checks = (
        ("rating", state.rating, -MAX_RATING, MAX_RATING),
        ("deviation", state.deviation, 0.0, MAX_DEVIATION),
        ("volatility", state.volatility, 0.0, MAX_DEVIATION),
    )
    for what, value, low, high in checks:
        if value is None and what != "rating":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{what} {value!r} is not a number"
        if not math.isfinite(value):
            return f"{what} {value!r} is not a finite number"
        if what == "volatility" and value <= 0:
            return f"volatility {value:g} is not positive"
        if not low <= value <= high:
            return f"{what} {value:g} is outside the limit of starting ratings, {low:g}..{high:g}"
    return None


def _within(initial: Mapping[str, Any]) -> bool:
    """Whether every value is certainly an :class:`InitialRating` within the limits, at C
    speed (a host's million players); ``False`` sends the caller to the check of each."""
    given = list(initial.values())
    if not given:
        return True
    if set(map(type, given)) != {InitialRating}:
        return False
    states = list(map(attrgetter("state"), given))
    if set(map(type, states)) != {RatingState}:
        return False
    ratings, deviations, volatilities = zip(*states)
    limits = (
        (ratings, -MAX_RATING, MAX_RATING),
        (deviations, 0.0, MAX_DEVIATION),
        (volatilities, 0.0, MAX_DEVIATION),
    )
    for k, (column, low, high) in enumerate(limits):
        known = column if k == 0 else [v for v in column if v is not None]
        if not known:
            continue
        if not set(map(type, known)) <= {float, int} or not math.isfinite(sum(known)):
            return False
        if not low <= min(known) <= max(known) <= high or (k == 2 and min(known) <= 0):
            return False
    return True


def check_given(initial: Mapping[str, Any]) -> dict[str, InitialRating]:
    """A host's mapping name → :class:`InitialRating`, each checked (the error names the
    player)."""
    if _within(initial):
        return dict(initial)
    out = {}
    for name, given in initial.items():
        if not isinstance(given, InitialRating) or not isinstance(given.state, RatingState):
            raise InputError(f"initial rating of {name!r}: expected an InitialRating")
        why = out_of_range(given.state)
        if why is not None:
            raise InputError(f"initial rating of {name!r}: {why}")
        out[name] = given
    return out


def default_start(rating: RatingSystem, history: GameHistory) -> tuple[str, str]:
    """The start a run uses when none is named: ``("files", note)`` for a system on the
    files' scale (:attr:`~sodos_hookspecs.RatingSystem.file_scale`) when some file carries
    ratings, else ``("ranks", note)``; the note says which and why (``note`` is ``""``
    when no file carries a rating)."""
    carried = sum(1 for p in history.players.values() if p.rating is not None)
    if not carried:
        return "ranks", ""
    system = rating.name
    if rating.file_scale:
        return "files", (
            f"{system} starts from the ratings the files carry ({carried} player(s); "
            "--initial ranks: from ranks)"
        )
    return "ranks", (
        f"{system} starts from ranks: the ratings the files carry ({carried} player(s)) "
        "are GoR, not its scale"
    )


def given_ratings(initial: Any, history: GameHistory) -> tuple[dict[str, InitialRating], list[str]]:
    """The starting ratings ``initial`` names, keyed by the history's players, and the
    warnings about them: ``None`` or ``"ranks"`` (none: the system seeds from ranks),
    ``"files"`` (the ratings the files carry, e.g. OpenGotha XML), a CSV path, or a
    mapping name → :class:`~sodos_hookspecs.InitialRating` (each checked)."""
    if initial is None or (isinstance(initial, str) and initial == "ranks"):
        return {}, []
    if isinstance(initial, str) and initial == "files":
        given = file_ratings(history)
    elif isinstance(initial, (str, Path)):
        given = read_initial(initial)
    else:
        given = check_given(initial)
    if not given:
        return {}, []
    return match_initial(given, history)


def read_initial(path: Path | str) -> dict[str, InitialRating]:
    """Starting ratings from CSV: ``name, rating[, deviation]`` (a header row is skipped).

    Names are matched by identity (docs/rules.md §8); a name twice, a rating that is not
    a finite number or an empty name is an error naming the line.
    """
    path = Path(path)
    source = str(path)
    try:  # a regular file only, bounded (sodos_plugin.util.inputfiles)
        text = read_regular(path, MAX_INITIAL_BYTES).decode("utf-8-sig")
    except TooLarge:
        raise InputError(f"larger than {MAX_INITIAL_BYTES} bytes", source=source) from None
    except FileRefused as error:
        raise InputError(str(error), source=source) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", source=source) from None
    found: dict[str, InitialRating] = {}
    keys: dict[str, int] = {}
    for number, row in enumerate(csv.reader(io.StringIO(text)), 1):
        if number > MAX_INITIAL_ROWS:
            raise InputError(f"more than {MAX_INITIAL_ROWS} rows", source=source)
        cells = [c.strip() for c in row]
        if not cells or not any(cells) or cells[0].startswith("#"):
            continue
        if len(cells) < 2 or len(cells) > 3:
            raise InputError(f"line {number}: expected name, rating[, deviation]", source=source)
        try:
            values = [float(c) for c in cells[1:]]
        except ValueError:
            if number == 1 and not found:
                continue  # a header
            raise InputError(
                f"line {number}: {cells[1:]!r} is not a number", source=source
            ) from None
        if not cells[0]:
            raise InputError(f"line {number}: empty name", source=source)
        state = RatingState(values[0], values[1] if len(values) > 1 else None)
        why = out_of_range(state)
        if why is not None:
            raise InputError(f"line {number}: {why}", source=source)
        key = identity_key(cells[0])
        if key in keys:
            raise InputError(
                f"line {number}: {cells[0]!r} is also on line {keys[key]}", source=source
            )
        keys[key] = number
        found[cells[0]] = InitialRating(state, f"{path.name}:{number}")
    return found


#: Whitespace other than the space (an ASCII name with one is not its own identity key).
_OTHER_SPACE = re.compile(r"[\t\n\x0b\x0c\r\x1c-\x1f]")


def _own_keys(names: list[str]) -> bool:
    """Whether each name is its own ``identity_key`` (the usual table of a host: ASCII,
    lower case, single inner spaces), checked on all of them at once."""
    joined = "\x00".join(names)  # NUL: neither a space nor changed by lower()
    return (
        joined.isascii()
        and joined == joined.lower()
        and not _OTHER_SPACE.search(joined)
        and "  " not in joined
        and "\x00 " not in joined
        and " \x00" not in joined
        and not joined.startswith(" ")
        and not joined.endswith(" ")
    )


def _identity_keys(names: list[str]) -> list[str]:
    """``identity_key`` of each name (the names themselves when :func:`_own_keys`)."""
    return names if _own_keys(names) else list(map(identity_key, names))


def match_initial(
    initial: Mapping[str, InitialRating], history: GameHistory
) -> tuple[dict[str, InitialRating], list[str]]:
    """Initial ratings keyed by the history's spelling of each name (identity), and a
    warning for names in the file that play in no game."""
    names = history_names(history)
    keys = _identity_keys(names)
    by_key = dict(zip(keys, names))  # the last of one key wins
    given = list(initial)
    given_keys = _identity_keys(given)
    if keys is names and given_keys is given and all(map(by_key.__contains__, given)):
        return dict(initial), []  # every name its own key and in a game: each is its target
    out: dict[str, InitialRating] = {}
    unused = []
    for (name, rating), key in zip(initial.items(), given_keys):
        target = by_key.get(key)
        if target is None:
            unused.append(name)
        else:
            out[target] = rating
    warnings = []
    if unused:
        shown = ", ".join(repr(n) for n in unused[:5]) + (" ..." if len(unused) > 5 else "")
        warnings.append(f"initial ratings: {len(unused)} name(s) play in no game: {shown}")
    return out, warnings


def file_ratings(history: GameHistory) -> dict[str, InitialRating]:
    """The ratings the files carry themselves (OpenGotha XML ``rating``)."""
    return {
        name: InitialRating(RatingState(float(p.rating)), f"{Path(p.source).name} rating")
        for name, p in history.players.items()
        if p.rating is not None
    }
