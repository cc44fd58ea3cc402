"""Who is the same person: the one definition of name identity, and close names.

Contract (docs/rules.md §8):

* :func:`identity_key` maps a player name to the key that decides identity. Two names
  with the same key are one player; readers merge them and warn, naming both
  spellings and their files. The key is the name with Unicode NFKC compatibility
  normalisation (NFC/NFD alike, full-width forms, ligatures, NBSP and the other
  fixed-width spaces become their plain forms), invisible format characters removed
  (category Cf: zero-width space and joiners, BOM, soft hyphen, bidi marks; and
  variation selectors), case folded, then NFKC again, any run of Unicode whitespace
  as one space, stripped.
* :func:`close_names` finds pairs of *different* keys at edit distance 1 or 2
  (``Schmidt Jonas`` / ``Schmidt Jonaz``) — candidates for a typo, for a warning,
  never merged. Optionally only pairs that never play in the same round (two people
  who both played round 3 are two people). Near-linear: names are bucketed by their
  deletion neighbourhoods (every string left after deleting up to two characters; two
  keys within distance 2 share one), so no name is compared with every other one, and
  the work is bounded (:data:`CLOSE_BUDGET`); see :class:`ClosePairs`.
* :class:`NameIndex` answers "which known name is closest to this one" with the same
  buckets (a roster's "did you mean").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sodos_plugin.engine.model import Tournament

__all__ = [
    "CLOSE_BUDGET",
    "MAX_CLOSE_LENGTH",
    "ClosePairs",
    "NameIndex",
    "close_names",
    "distance",
    "identity_key",
]

#: Keys longer than this are not compared for closeness (no real name is that long;
#: a deletion neighbourhood grows with the square of the length).
MAX_CLOSE_LENGTH = 64
#: Shorter keys are never "close": one letter changes a three-letter name entirely.
MIN_CLOSE_LENGTH = 4
#: From this length a distance of 2 is close, below it only 1.
DISTANCE_TWO_LENGTH = 8
#: Candidate comparisons allowed per name (plus a constant); beyond it the search stops
#: and says so (``ClosePairs.complete`` is False). Real names use a few each.
CLOSE_BUDGET = 200

_INVISIBLE_EXTRA = frozenset(
    [0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0]  # grapheme joiner, Hangul fillers
    + list(range(0xFE00, 0xFE10))  # variation selectors
    + list(range(0xE0100, 0xE01F0))  # variation selectors supplement
)


#: the characters of _INVISIBLE_EXTRA as ranges (a test checks they are the same)
_EXTRA = re.compile("[\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _is_nfkc(text: str) -> bool:
    return unicodedata.is_normalized("NFKC", text)


def _visible(text: str) -> str:
    return "".join(
        c for c in text if unicodedata.category(c) != "Cf" and ord(c) not in _INVISIBLE_EXTRA
    )


def identity_key(name: str) -> str:
    """The key that decides whether two names are one person (docs/rules.md §8).

    >>> identity_key("  Schmidt\\u00a0 JONAS\\u200b ") == identity_key("schmidt jonas")
    True
    """
    if name.isascii():  # the usual name: NFKC and the invisible characters do nothing
        return " ".join(name.lower().split())
    if name.isprintable() and _EXTRA.search(name) is None and _is_nfkc(name):
        text = name  # no Cf character (all are unprintable), already NFKC: steps 1-2 keep it
    else:
        text = _visible(unicodedata.normalize("NFKC", name))
    text = text.casefold()
    if not _is_nfkc(text):
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())


def shared_names(names: Sequence[str]) -> list[list[int]]:
    """Indexes of the names that are one name by :func:`identity_key`, in groups of 2+.

    >>> shared_names(["Ann", "Bob", "ANN ", "Cid"])
    [[0, 2]]
    """
    keys = list(map(identity_key, names))
    if len(set(keys)) == len(keys):  # the usual tournament: nothing to group
        return []
    groups: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        groups.setdefault(key, []).append(index)
    return [group for group in groups.values() if len(group) > 1]


def distance(a: str, b: str, bound: int = 2) -> int:
    """Levenshtein distance of ``a`` and ``b``, or ``bound + 1`` when it exceeds ``bound``.

    A band of width ``2 * bound + 1`` around the diagonal: O(len * bound).
    """
    if a == b:
        return 0
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    if len(a) > len(b):
        a, b = b, a
    over = bound + 1
    previous = [j if j <= bound else over for j in range(len(b) + 1)]
    for i, ca in enumerate(a, 1):
        low, high = max(1, i - bound), min(len(b), i + bound)
        current = [over] * (len(b) + 1)
        if i <= bound:
            current[0] = i
        best = current[0]
        for j in range(low, high + 1):
            cost = previous[j - 1] + (ca != b[j - 1])
            if previous[j] + 1 < cost:
                cost = previous[j] + 1
            if current[j - 1] + 1 < cost:
                cost = current[j - 1] + 1
            current[j] = cost if cost < over else over
            if current[j] < best:
                best = current[j]
        if best > bound:
            return over
        previous = current
    return previous[len(b)] if previous[len(b)] <= bound else over


def _allowed(a: str, b: str) -> int:
    """The largest distance at which keys ``a`` and ``b`` count as close (0: never)."""
    shorter = min(len(a), len(b))
    if shorter < MIN_CLOSE_LENGTH or max(len(a), len(b)) > MAX_CLOSE_LENGTH:
        return 0
    return 2 if shorter >= DISTANCE_TWO_LENGTH else 1


def _neighbourhood(key: str) -> list[str]:
    """Every string left after deleting characters of ``key``: up to two when a distance
    of 2 can be close for it (:data:`DISTANCE_TWO_LENGTH`), else one. Two keys within the
    distance allowed for them share one of these strings."""
    n = len(key)
    found = [key]
    found += [key[:i] + key[i + 1 :] for i in range(n)]
    if n >= DISTANCE_TWO_LENGTH:
        found += [
            key[:i] + key[i + 1 : j] + key[j + 1 :] for i in range(n) for j in range(i + 1, n)
        ]
    return found


class NameIndex:
    """Names bucketed by the deletion neighbourhoods of their keys.

    :param names: the known names (display spellings), in the order that breaks ties.
    """

    def __init__(self, names: Iterable[str]):
        self.names: list[str] = []
        self.keys: list[str] = []
        self.buckets: dict[str, list[int]] = {}
        by_key: dict[str, int] = {}
        for name in names:
            key = identity_key(name)
            if key in by_key:
                continue
            by_key[key] = len(self.names)
            self.names.append(name)
            self.keys.append(key)
        self.by_key = by_key
        for number, key in enumerate(self.keys):
            if MIN_CLOSE_LENGTH <= len(key) <= MAX_CLOSE_LENGTH:
                buckets = self.buckets
                for variant in set(_neighbourhood(key)):
                    bucket = buckets.get(variant)
                    if bucket is None:
                        buckets[variant] = [number]
                    else:
                        bucket.append(number)

    def __contains__(self, name: str) -> bool:
        return identity_key(name) in self.by_key

    def closest(self, name: str, *, budget: int = 10 * CLOSE_BUDGET) -> str | None:
        """The known name closest to ``name`` (distance 1-2, first known on ties), or None."""
        key = identity_key(name)
        if key in self.by_key:
            return self.names[self.by_key[key]]
        if not MIN_CLOSE_LENGTH <= len(key) <= MAX_CLOSE_LENGTH:
            return None
        best: tuple[int, int] | None = None
        seen: set[int] = set()
        for variant in set(_neighbourhood(key)):
            for number in self.buckets.get(variant, ()):
                if number in seen:
                    continue
                seen.add(number)
                budget -= 1
                if budget < 0:
                    break
                other = self.keys[number]
                allowed = _allowed(key, other)
                if not allowed:
                    continue
                found = distance(key, other, allowed)
                if found <= allowed and (best is None or (found, number) < best):
                    best = (found, number)
        return None if best is None else self.names[best[1]]


class ClosePairs(list):
    """The pairs :func:`close_names` found, a plain list of ``(a, b)`` name pairs.

    ``complete`` is False when the search stopped at its bound (``limit`` pairs, or the
    comparison budget on a pathological set of names): then there may be more.
    """

    complete: bool = True


def close_names(
    names: Sequence[str],
    *,
    rounds: Mapping[str, Collection[int]] | None = None,
    limit: int = 1000,
) -> ClosePairs:
    """Pairs of names whose keys differ yet are at edit distance 1-2 (docs/rules.md §8).

    :param names: display names; names with one key are one player (not a pair).
    :param rounds: each name's rounds; when given, pairs that play in a same round are
        two people, not a typo, and are left out.
    :param limit: at most this many pairs (then ``complete`` is False).
    :returns: pairs ``(a, b)`` with ``a`` before ``b`` in ``names``, in that order.
    """
    sets: dict[str, frozenset[int]] = {}
    if rounds is not None:
        sets = {name: frozenset(rounds.get(name, ())) for name in names}
        union = frozenset().union(*sets.values())
        fewest = min(map(len, sets.values()), default=0)
        # two names that never share a round have |Ra| + |Rb| <= |all rounds|: a name
        # playing more rounds than that allows cannot be in a pair (usually most names)
        names = [name for name in names if len(sets[name]) <= len(union) - fewest]
    index = NameIndex(names)
    found = ClosePairs()
    budget = CLOSE_BUDGET * len(index.names) + 10_000
    pairs: set[tuple[int, int]] = set()
    for members in index.buckets.values():
        if len(members) < 2:
            continue
        for position, a in enumerate(members):
            for b in members[position + 1 :]:
                pair = (a, b) if a < b else (b, a)
                if pair in pairs:
                    continue
                pairs.add(pair)
                budget -= 1
                if budget < 0:
                    found.complete = False
                    return _ordered(found, index)
                ka, kb = index.keys[pair[0]], index.keys[pair[1]]
                allowed = _allowed(ka, kb)
                if not allowed or distance(ka, kb, allowed) > allowed:
                    continue
                na, nb = index.names[pair[0]], index.names[pair[1]]
                if rounds is not None and sets[na] & sets[nb]:
                    continue
                found.append(pair)
                if len(found) >= limit:
                    found.complete = False
                    return _ordered(found, index)
    return _ordered(found, index)


def _ordered(found: ClosePairs, index: NameIndex) -> ClosePairs:
    result = ClosePairs((index.names[a], index.names[b]) for a, b in sorted(found))
    result.complete = found.complete
    return result


def shared_name_warnings(tournament: Tournament) -> list[str]:
    """Players registered apart whose names are one name (docs/rules.md §8): said, never
    merged (a file's registrations are its own), whatever the reader."""
    players = tournament.players
    warnings = []
    for group in shared_names([p.name for p in players]):
        shown = ", ".join(f"{players[i].name!r} (player {i + 1})" for i in group[:4])
        more = f" and {len(group) - 4} more" if len(group) > 4 else ""
        where = f"{tournament.source}: " if tournament.source else ""
        warnings.append(
            f"{where}{len(group)} players have one name by the identity rule (docs/rules.md §8): "
            f"{shown}{more}; one person registered twice, or different people?"
        )
    return warnings
