"""The layers a run's settings are resolved from, lowest first.

Built-in defaults, the settings the tournament file carries (an OpenGotha file's
parameters, a records folder's ``sodos.toml``), the config file (``--config``, else
``./sodos.toml``, else ``[tool.sodos]`` in ``./pyproject.toml``), the mapping a host
passes in, ``-o key=value``, ``--strict`` and ``--roster``, then a call's own options
(``--system``, ``--criteria``...). Each layer is ``(where it came from, mapping)``, so
that :attr:`Settings.origins <sodos_plugin.config.settings.Settings.origins>` can say
where every value came from (``sodos config``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sodos_plugin.config.settings import Settings, find_config, load_file, parse_override, resolve

if TYPE_CHECKING:
    from sodos_hookspecs import FileReport

    from sodos_plugin.engine.model import Tournament

Layer = tuple[str, Mapping[str, Any]]


def user_layers(
    config: Mapping[str, Any] | None,
    config_file: Path | str | None | bool,
    overrides: Sequence[str],
    strict: bool | None,
    roster: Path | str | None,
    cwd: Path | None,
) -> tuple[list[Layer], list[tuple[str, str]]]:
    """The user's layers, and ``(path, what happened)`` for every config file looked at.

    ``config_file``: a TOML file; ``None`` looks for ``sodos.toml`` or a
    ``pyproject.toml`` with ``[tool.sodos]`` in ``cwd``; ``False`` reads none.
    """
    layers: list[Layer] = []
    files: list[tuple[str, str]] = []
    if config_file is None:
        directory = cwd or Path.cwd()
        config_file = find_config(directory)
        if config_file is None:
            for name in ("sodos.toml", "pyproject.toml"):
                candidate = directory / name
                state = "has no [tool.sodos] table" if candidate.is_file() else "absent"
                files.append((str(candidate), state))
        else:
            files.append((str(config_file), "read (found in the directory)"))
    elif config_file:
        files.append((str(config_file), "read (--config)"))
    if config_file:
        path = Path(config_file)
        layers.append((str(path), _roster_beside(load_file(path), path.parent)))
    if config:
        layers.append(("host config", config))
    for text in overrides:
        layers.append((f"-o {text}", parse_override(text)))
    if strict is not None:
        layers.append(("--strict", {"strict": strict}))
    if roster is not None:
        layers.append(("--roster", {"roster": str(roster)}))
    return layers, files


def _roster_beside(data: dict[str, Any], folder: Path) -> dict[str, Any]:
    """A config file's relative ``roster`` path is taken from the file's folder."""
    roster = data.get("roster")
    if isinstance(roster, str) and roster.strip() and not Path(roster).is_absolute():
        data = {**data, "roster": str(folder / roster.strip())}
    return data


def settings_for(
    layers: Sequence[Layer],
    tournament: Tournament | None = None,
    files: Sequence[FileReport] = (),
    options: Mapping[str, Any] | None = None,
) -> Settings:
    """Settings for one tournament: defaults < the file's own < ``layers`` < ``options``.

    ``files`` (the reader's account) names the settings files of a records folder, so
    that ``settings.origins`` says ``sample_sgf/sodos.toml``; options that are ``None``
    are not given.
    """
    stack: list[Layer] = []
    if tournament is not None and tournament.settings:
        named = ", ".join(f.path for f in files if f.status == "settings")
        stack.append((named or tournament.source or tournament.name, tournament.settings))
    stack.extend(layers)
    extra = {k: v for k, v in (options or {}).items() if v is not None}
    if extra:
        stack.append(("options", extra))
    return resolve(stack)
