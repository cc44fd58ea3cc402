"""The order in which a ``java.util.HashMap`` lists its entries (OpenGotha's player and game
maps iterate in it, and that order decides some values: docs/rules.md §6).

Contract: :func:`iteration_order` takes keys in the order they were ``put`` (a key put
again keeps its place) and returns them in the order ``HashMap.values()`` lists them:
by bucket ``spread(hash) & (capacity − 1)``, then by insertion within a bucket. The
capacity starts at 16 and doubles whenever the map holds more than 0.75 × capacity
entries, or when a bucket reaches 9 entries while the capacity is below 64 (Java 8's
``treeifyBin``); a resize keeps the relative order inside each bucket. Not modelled: the
order inside a bucket of 9 or more entries at capacity 64 and above (Java turns it into
a tree); keys of a tournament (round × 1000 + table, names) practically never collide so.

:func:`string_hash` and :func:`integer_hash` are ``String.hashCode`` and
``Integer.hashCode``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

_MASK = 0xFFFFFFFF
_INITIAL_CAPACITY = 16
_LOAD_FACTOR_NUM, _LOAD_FACTOR_DEN = 3, 4
_TREEIFY_THRESHOLD = 8
_MIN_TREEIFY_CAPACITY = 64


def string_hash(text: str) -> int:
    """``String.hashCode()``: s[0]·31^(n−1) + … over UTF-16 code units, as 32 bits."""
    data = text.encode("utf-16-be", "surrogatepass")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & _MASK
    return h


def integer_hash(value: int) -> int:
    """``Integer.hashCode()``: the value itself, as 32 bits."""
    return value & _MASK


def _spread(h: int) -> int:
    return (h ^ (h >> 16)) & _MASK


def iteration_order(keys: Iterable[K], hash_of: Callable[[K], int]) -> list[K]:
    """``keys`` (in put order, repeats allowed) in the order a HashMap iterates them."""
    capacity = _INITIAL_CAPACITY
    buckets: list[list[K]] = [[] for _ in range(capacity)]
    hashes: dict[K, int] = {}
    size = 0

    def resize() -> None:
        nonlocal capacity, buckets
        capacity *= 2
        grown: list[list[K]] = [[] for _ in range(capacity)]
        for bucket in buckets:
            for key in bucket:
                grown[hashes[key] & (capacity - 1)].append(key)
        buckets = grown

    for key in keys:
        if key in hashes:
            continue  # put on an existing key replaces the value in place
        h = hashes[key] = _spread(hash_of(key))
        bucket = buckets[h & (capacity - 1)]
        bucket.append(key)
        if len(bucket) > _TREEIFY_THRESHOLD and capacity < _MIN_TREEIFY_CAPACITY:
            resize()
        size += 1
        if size * _LOAD_FACTOR_DEN > capacity * _LOAD_FACTOR_NUM:
            resize()
    return [key for bucket in buckets for key in bucket]
