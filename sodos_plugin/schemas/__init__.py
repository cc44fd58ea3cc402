"""The JSON Schema files this package ships (package data), by name.

* ``tournament``: the JSON tournament a host hands over (read by
  :mod:`sodos_plugin.readers.json_tournament`, printed by ``sodos schema``);
* ``standings``: what ``sodos standings --format json`` and ``POST /standings`` return;
* ``explain``: what ``sodos explain --format json`` and ``POST /explain`` return;
* ``error``: the body of every error answer of ``sodos serve``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

NAMES: tuple[str, ...] = ("tournament", "standings", "explain", "error")


def text(name: str) -> str:
    """The schema file's text, exactly as shipped."""
    if name not in NAMES:
        raise KeyError(f"no schema {name!r} (known: {', '.join(NAMES)})")
    from importlib import resources  # here: it costs more than the rest of a reader's start

    return resources.files(__name__).joinpath(f"{name}.schema.json").read_text("utf-8")


@cache
def load(name: str) -> dict[str, Any]:
    """The schema as a decoded object (do not modify it: it is shared)."""
    import json

    return json.loads(text(name))
