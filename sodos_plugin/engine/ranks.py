"""Go ranks as integers, the way OpenGotha counts them (docs/rules.md §1).

``30k`` → −30, ``1k`` → −1, ``1d`` → 0, ``9d`` → 8. Professional ranks count from
``1p`` = 7d (the EGF rating scale places 1p at about 7d), capped at 9d, because
OpenGotha's scale stops at 9d. The start McMahon score then is
``clamp(rank, floor, bar) − zero + correction`` (see :mod:`sodos_plugin.engine.scores`).
"""

from __future__ import annotations

import re

MIN_RANK = -30  # 30k
MAX_RANK = 8  # 9d

# A trailing "*", "?" or "+" is a server's mark of rating certainty (NNGS 14k*, KGS 13k?,
# IGS 11k+), not part of the rank.
_RANK = re.compile(r"^\s*(\d{1,2})\s*([kdpKDP]|级|級|段)\s*[*?+]?\s*$")


def parse_rank(text: str) -> int:
    """Parse ``"3d"``, ``"5K"``, ``"1p"``, ``"14k*"``, ``"13k?"``, ``"11k+"``, ``"15级"``.

    :raises ValueError: for anything else (the caller names the file and field).
    """
    match = _RANK.match(text)
    if not match:
        raise ValueError(f"not a Go rank: {text!r} (expected e.g. 5k, 3d, 1p)")
    number, kind = int(match.group(1)), match.group(2).lower()
    if kind in ("k", "级", "級"):
        if not 1 <= number <= 30:
            raise ValueError(f"kyu rank out of range 1k..30k: {text!r}")
        return -number
    if kind in ("d", "段"):
        if not 1 <= number <= 9:
            raise ValueError(f"dan rank out of range 1d..9d: {text!r}")
        return number - 1
    if not 1 <= number <= 9:
        raise ValueError(f"professional rank out of range 1p..9p: {text!r}")
    return min(MAX_RANK, number + 5)


def format_rank(rank: int) -> str:
    """The inverse of :func:`parse_rank` for amateur ranks: −5 → ``"5k"``, 2 → ``"3d"``."""
    return f"{-rank}k" if rank < 0 else f"{rank + 1}d"
