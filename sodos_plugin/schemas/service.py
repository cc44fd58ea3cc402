"""The answers of ``sodos serve`` beside the documents, version 1: every error answer
(``sodos schema error``), ``GET /health`` (``sodos schema health``), and the plugins report
of ``GET /plugins``, ``GET /criteria`` and ``sodos plugins --format json`` (``sodos schema
plugins``). Members may be added in later versions: clients ignore members they do not
know.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from sodos_plugin.schemas import codec

Count = Annotated[int, Meta(ge=0)]


class Error(Struct, kw_only=True):
    """The body of every answer of sodos serve whose status is not 200. ASCII only: names
    and values are escaped."""

    error: Annotated[str, Meta(description="what is wrong, for a person")]
    status: Annotated[int, Meta(ge=400, le=599, description="the HTTP status, repeated")]
    field: Annotated[
        str | UnsetType,
        Meta(
            description="what to fix: a JSON path in the body (games[12].white), a query "
            "parameter (round), a header (Content-Type), body, path or method"
        ),
    ] = UNSET
    limit: Annotated[
        str | UnsetType,
        Meta(description="the config key of the limit that refused the request (serve.timeout)"),
    ] = UNSET
    plugin: Annotated[str | UnsetType, Meta(description="500: the plugin that failed")] = UNSET
    hook: Annotated[str | UnsetType, Meta(description="500: the hook it failed in")] = UNSET
    incident: Annotated[
        str | UnsetType,
        Meta(
            description="500: quote it to the service's operator; the details are in the "
            "service's log"
        ),
    ] = UNSET


class Health(Struct, kw_only=True):
    """What GET /health answers: the service is up, and how its workers are."""

    status: Annotated[str, Meta(description='"ok"')]
    version: Annotated[str, Meta(description="the sodos-plugin version")]
    workers: Annotated[Count, Meta(description="worker processes (serve.concurrency)")]
    idle: Annotated[Count, Meta(description="workers free now")]
    restarts: Annotated[Count, Meta(description="workers replaced after a time limit or a crash")]
    served: Annotated[Count, Meta(description="answers given")]


class Item(Struct):
    """One item a plugin offers (a criterion, a reader, a writer, a rating system)."""

    kind: str
    name: str
    description: str
    status: Annotated[
        str, Meta(description="in use, replaces built-in X, replaced by P, not used: why")
    ]
    also_replaces: Annotated[
        list[str], Meta(description="the built-in forms a family name stands for")
    ]


class Plugin(Struct):
    """One plugin: where it comes from, what it offers, what became of it."""

    name: str
    origin: Annotated[str, Meta(description="builtin, entry point, config, module or runtime")]
    where: str
    module: str | None
    distribution: str | None
    version: str | None
    named_by: str | None
    status: str
    blocked: bool
    failed: str | None
    conflicts: list[str]
    items: list[Item]
    criteria: list[str]
    readers: list[str]
    writers: list[str]
    replaces: list[str]
    replaced_by: dict[str, str]
    lost: dict[str, list[str]]


Plugins = Annotated[
    list[Plugin],
    Meta(
        title="sodos plugins",
        description="What 'sodos plugins --format json' prints and GET /plugins returns "
        "(GET /criteria: the plugins that offer criteria): every plugin, third-party ones "
        "first. Members may be added in later versions: clients ignore members they do not "
        "know.",
    ),
]


def plugins_report(rows: list[dict]) -> bytes:
    """The plugins report's rows (:func:`sodos_plugin.plugins.report.plugin_rows`) as the
    document, checked against its definition (a member it does not name is refused)."""
    return codec.encode(msgspec.convert(rows, list[Plugin], strict=True))
