"""``sodos config [PATH...]`` (and ``--trace-config``): which config files were read and
where each setting came from.

The layers, lowest first: built-in defaults, the settings a tournament file carries
(an OpenGotha file's parameters, a records folder's ``sodos.toml``), the config file
(``--config``, else ``./sodos.toml``, else ``[tool.sodos]`` in ``./pyproject.toml``),
``-o key=value``, then command options such as ``--system``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sodos_plugin.cli._common import (
    EXIT_OK,
    Host,
    common,
    criteria_option,
    make_host,
    selecting,
    stdin_input,
    write_trace,
)

if TYPE_CHECKING:
    from sodos_hookspecs import FileReport

EXAMPLES = ("sodos config", "sodos config results.xml", "sodos --trace-config standings games/")


def add_arguments(p: argparse.ArgumentParser) -> None:
    common(p)
    selecting(p)
    p.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="optional tournament files: their own settings are shown as a layer; - reads one "
        "from stdin",
    )


def run(args: argparse.Namespace) -> int:
    host = make_host_quiet(args)
    names = criteria_option(args)
    files: Sequence[FileReport] = ()
    tournament = None
    if args.paths:
        stdin_input(args, host)  # `-`: one tournament from stdin
        read = host.read(args.paths)
        tournament, files = read.tournament, read.files
    settings = host.settings_for(tournament, files=files, system=args.system, criteria=names)
    write_trace(host, settings, files, sys.stdout)
    return EXIT_OK


def make_host_quiet(args: argparse.Namespace) -> Host:
    args.trace_config = False  # this command prints the trace itself, on stdout
    return make_host(args)
