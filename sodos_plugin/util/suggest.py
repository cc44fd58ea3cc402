""" "Did you mean": the one rule that finds the name a person meant.

Every message that refuses a name (a criterion, a rating system, an output format, an
option, a player) suggests through :func:`closest`, so one misspelling gets one
answer whatever refused it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable


def closest(
    name: str, candidates: Iterable[str], *, key: Callable[[str], str] = str, n: int = 1
) -> list[str]:
    """Up to ``n`` candidates close to ``name`` (compared under ``key``), closest first."""
    by_key = {key(c): c for c in candidates}
    return [by_key[k] for k in difflib.get_close_matches(key(name), list(by_key), n=n)]


def suggestion(
    name: str,
    candidates: Iterable[str],
    *,
    key: Callable[[str], str] = str,
    n: int = 1,
    known: bool = False,
) -> str:
    """`` (did you mean X?)``, or with ``known`` and no close one `` (known: a, b)``, or ``""``."""
    candidates = list(candidates)
    close = closest(name, candidates, key=key, n=n)
    if close:
        return f" (did you mean {' or '.join(close)}?)"
    return f" (known: {', '.join(sorted(candidates))})" if known and candidates else ""
