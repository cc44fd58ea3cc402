"""Every JSON document sodos reads or writes, by name, and its JSON Schema generated from
its one definition (``msgspec.json.schema``): what ``sodos schema NAME`` prints.

The package also ships each schema as a file (``sodos_plugin/schemas/NAME.schema.json``,
for tools that read them without running sodos); a test keeps each file equal to the
generated text (``python -m sodos_plugin.schemas.catalog`` writes them again).

Each document has its format's version in its ``$id`` (``urn:sodos:schema:standings:1``);
a change of a document's text that is not an added optional member is a new version.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from sodos_plugin.schemas import codec, explain, live, ratings, service, standings, tournament

DRAFT = "https://json-schema.org/draft/2020-12/schema"


@dataclass(frozen=True)
class Document:
    """One document format: its type, version and title."""

    name: str
    type: Any
    version: int
    title: str

    @property
    def id(self) -> str:
        return f"urn:sodos:schema:{self.name}:{self.version}"


DOCUMENTS: dict[str, Document] = {
    d.name: d
    for d in (
        Document(
            "tournament",
            tournament.Tournament,
            tournament.VERSION,
            f"sodos tournament, version {tournament.VERSION}",
        ),
        Document("standings", standings.Standings, 2, "sodos standings"),
        Document("explain", explain.Explanation, 2, "sodos explanation of one player"),
        Document("ratings", ratings.Ratings, 1, "sodos ratings"),
        Document("rating-steps", ratings.RatingSteps, 1, "sodos rating steps of one player"),
        Document("plugins", service.Plugins, 1, "sodos plugins"),
        Document("health", service.Health, 1, "sodos serve health"),
        Document("error", service.Error, 1, "sodos serve error answer"),
        Document("live-game", live.LiveGame, 1, "sodos live ratings: a game posted"),
        Document("live-games", live.GamesRated, 1, "sodos live ratings: the games rated"),
        Document("live-player", live.Player, 1, "sodos live ratings: a player"),
        Document("live-history", live.History, 1, "sodos live ratings: a player's history"),
        Document("live-leaderboard", live.Leaderboard, 1, "sodos live ratings: the leaderboard"),
        Document("live-void", live.Voided, 1, "sodos live ratings: a game voided"),
    )
}
NAMES: tuple[str, ...] = tuple(DOCUMENTS)


def _tidy(value: Any) -> Any:
    """Descriptions on one line (docstrings wrap), everything else as generated."""
    if isinstance(value, dict):
        return {
            k: " ".join(v.split()) if k == "description" and isinstance(v, str) else _tidy(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_tidy(v) for v in value]
    return value


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of the document called ``name``."""
    if name not in DOCUMENTS:
        raise KeyError(f"no schema {name!r} (known: {', '.join(NAMES)})")
    document = DOCUMENTS[name]
    generated = msgspec.json.schema(document.type)
    definitions = dict(generated.pop("$defs", {}))
    root = generated
    if set(generated) == {"$ref"}:  # the document's own definition: inlined at the top
        root = definitions.pop(generated["$ref"].rsplit("/", 1)[1])
    root = {k: v for k, v in root.items() if k != "title"}
    out: dict[str, Any] = {"$schema": DRAFT, "$id": document.id, "title": document.title}
    out.update(root)
    if definitions:
        out["$defs"] = definitions
    return _tidy(out)


def text(name: str) -> str:
    """The schema as ``sodos schema NAME`` prints it (and as its file is shipped)."""
    return codec.encode_text(schema(name)) + "\n"


def load(name: str) -> dict[str, Any]:
    """The schema as data (a fresh copy)."""
    return schema(name)


def shipped(name: str) -> Path:
    """The schema file the package ships for ``name``."""
    return Path(__file__).with_name(f"{name}.schema.json")


def main() -> int:
    """Write every shipped schema file from the types."""
    for name in NAMES:
        shipped(name).write_text(text(name), encoding="utf-8")
        print(f"wrote {shipped(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
