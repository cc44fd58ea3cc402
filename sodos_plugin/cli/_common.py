"""What the commands that read, rank or rate share: the host, reading inputs (files and
stdin), reporting every file, naming the plugins used, and writing output.

A command module imports this one at its top; ``sodos --help`` does not (it needs only
:mod:`._options`).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from sodos_plugin.cli._options import (
    Parser,
    UsageError,
    common,
    criteria_option,
    plugin_control,
    reading,
    roster_option,
    selecting,
)
from sodos_plugin.cli._streams import (
    EXIT_ERROR,
    EXIT_FAILED_CHECK,
    EXIT_OK,
    SHOWN_AS,
    say,
)
from sodos_plugin.config.trace import trace_lines
from sodos_plugin.errors import SodosError
from sodos_plugin.host import Host
from sodos_plugin.util.lazy import LazyModule
from sodos_plugin.util.suggest import suggestion
from sodos_plugin.writers.output import atomic_file, refuse_overwrite

# stdin's temporary folder only (sodos_plugin.util.lazy)
tempfile = LazyModule("tempfile", globals(), "tempfile")

__all__ = [  # what the command modules take from here
    "EXIT_ERROR",
    "EXIT_FAILED_CHECK",
    "EXIT_OK",
    "Parser",
    "UsageError",
    "announce_plugins",
    "check_options",
    "check_outputs",
    "common",
    "criteria_option",
    "extension_format",
    "lone_rejection",
    "make_host",
    "output",
    "output_format",
    "read_and_rank",
    "reading",
    "report_files",
    "roster_option",
    "selecting",
    "stdin_input",
    "write_trace",
]


def write_trace(host: Host, settings, files, stream: TextIO) -> None:
    """The config trace (``sodos config``, ``--trace-config``), one escaped line each."""
    for line in trace_lines(host.config_files, settings, files):
        say(f"config: {line}" if stream is sys.stderr else line, stream)


#: the options a command reads files from -> how a refusal names them (positional paths:
#: "input"); ``--initial``'s keywords are not files
INPUT_OPTIONS = {
    "paths": "input",
    "config": "--config",
    "roster": "--roster",
    "initial": "--initial",
    "state": "--state",
}
#: the options a command writes files to -> how a refusal names them
OUTPUT_OPTIONS = {"output": "--output", "save_state": "--save-state"}
INITIAL_KEYWORDS = ("files", "ranks")


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before reading anything, a ``--output`` or ``--save-state`` that is one of
    the command's inputs, a file in an input folder, or the other output
    (:func:`sodos_plugin.writers.output.refuse_overwrite`)."""
    outputs = [
        (label, Path(value))
        for dest, label in OUTPUT_OPTIONS.items()
        if (value := getattr(args, dest, None)) is not None
    ]
    if not outputs:
        return
    inputs = []
    for dest, label in INPUT_OPTIONS.items():
        value = getattr(args, dest, None)
        for item in value if isinstance(value, list) else [value]:
            if item is None or str(item) == "-" or str(item) in INITIAL_KEYWORDS:
                continue
            inputs.append((label, Path(item)))
    refuse_overwrite(inputs, outputs)


def make_host(args: argparse.Namespace, *, raise_plugin_errors: bool = True) -> Host:
    """The host for this run: config, overrides and plugin control from the options;
    the outputs checked against the inputs first (:func:`check_outputs`)."""
    check_outputs(args)
    modules, blocked, autoload = plugin_control(args)
    compat = getattr(args, "compat", None)
    host = Host(
        config_file=args.config,
        overrides=[*args.overrides, *([f"compat={compat}"] if compat else [])],
        entry_points=autoload,
        plugins=modules,
        disable=blocked,
        raise_plugin_errors=raise_plugin_errors,
        strict=getattr(args, "strict", None) or None,
        roster=getattr(args, "roster", None),
    )
    if getattr(args, "trace_config", False) and not getattr(args, "paths", None):
        write_trace(host, host.settings, (), sys.stderr)
    return host


#: ``--output`` extensions whose writer is not named like them
EXTENSIONS = {"htm": "html", "txt": "table", "md": "markdown"}


def extension_format(path: Path | None) -> str:
    """The format ``--output``'s extension names (``r.html`` → html, ``.htm`` → html,
    ``.txt`` → table), else "": every command that writes takes its format from it when
    ``--format`` is not given."""
    extension = path.name.rpartition(".")[2].lower() if path and "." in path.name else ""
    return EXTENSIONS.get(extension, extension)


def output_format(host: Host, args: argparse.Namespace) -> str:
    """The writer to use: ``--format`` (any case), else the one ``--output``'s extension
    names (``standings.html`` → html, ``.h9``, ``.csv``, ``.json``...), else ``table``."""
    fmt = getattr(args, "format", None)
    if fmt is None:
        name = extension_format(getattr(args, "output", None))
        if name and host.registry.lookup("writers", name) is not None:
            return host.registry.lookup("writers", name).name  # type: ignore[union-attr]
        return "table"
    found = host.registry.lookup("writers", fmt)
    if found is None:
        reason = host.registry.unavailable("writers", fmt)
        if reason:
            raise UsageError(f"--format: {fmt}: {reason}")
        hint = suggestion(fmt.lower(), host.registry.writers, known=True)
        raise UsageError(f"--format: unknown output format {fmt!r}{hint}")
    return found.name


def check_options(host: Host, args: argparse.Namespace) -> None:
    """Fail fast, before reading any file: unknown criteria, format or round."""
    names = criteria_option(args)
    if names:
        host.resolve_criteria(names)
    if getattr(args, "round", None) is not None and args.round < 0:
        raise UsageError(f"--round: expected a round number >= 0, got {args.round}")


def announce_plugins(
    host: Host, standings, stream: TextIO, *, reader=None, writer: str | None = None
) -> None:
    """One stderr line naming every third-party plugin that provided something this run
    used: ``plugins: SODOS from sodos-foo 1.2 (replaces the built-in), writer md from ...``."""
    registry = host.registry
    used = [("criteria", name) for name in standings.criteria]
    if writer is not None:
        used.append(("writers", writer))
    parts = []
    if reader is not None and not registry.plugins[reader.plugin].builtin:
        parts.append(f"reader {reader.name} from {registry.plugins[reader.plugin].where()}")
    for kind, name in used:
        provided = registry.lookup(kind, name)
        if provided is None or registry.plugins[provided.plugin].builtin:
            continue
        label = name if kind == "criteria" else f"writer {name}"
        text = f"{label} from {registry.plugins[provided.plugin].where()}"
        if provided.replaces:
            text += " (replaces the built-in)"
        parts.append(text)
    if parts:
        say(f"plugins: {', '.join(parts)}", stream)


#: what a record without a round may be, and what to do with it
ROUNDLESS = (
    "games of a server or of several events are a game history; 'sodos ratings PATH' rates them"
)
#: the statuses of a file report that are said (the others were used as they are)
LISTED = ("rejected", "duplicate", "excluded")


def lone_rejection(read_result):
    """The report of a run whose one file (or record) is rejected, else None: its one
    error line says all (with other files read, the listing and ``--skip-bad`` do)."""
    files = read_result.files
    if len(files) == 1 and files[0].status == "rejected":
        return files[0]
    return None


def report_files(read_result, stream: TextIO, skip_bad: bool) -> None:
    """Every file not ingested, with its reason (nothing silent); stop on rejected files.
    When the one file said about is rejected and the run stops, that is the one error
    line (``sodos: error: a.xml: reason``), not a listing and then a count.

    The reader's warnings are printed with the standings' own (once, see
    :func:`sodos_plugin.cli.standings.run`), or here when the run stops.
    """
    lone = lone_rejection(read_result)
    if lone is not None and not skip_bad:  # one file, one line: the error names it once
        for warning in read_result.warnings:
            say(f"warning: {warning}", stream)
        hint = f" ({ROUNDLESS})" if lone.reason.startswith("no round") else ""
        raise SodosError(lone.reason + hint, source=lone.path)
    rejected = roundless = 0
    for report in read_result.files:
        if report.status in LISTED:  # escaped: one line each
            say(f"{report.status}: {report.path}: {report.reason}", stream)
            rejected += report.status == "rejected"
            roundless += report.status == "rejected" and report.reason.startswith("no round")
    if roundless:  # a server's games are a history, not one tournament's rounds
        say(
            f"hint: {roundless} record(s) without a round: {ROUNDLESS}",
            stream,
        )
    if rejected and not skip_bad:
        for warning in read_result.warnings:
            say(f"warning: {warning}", stream)
        raise SodosError(f"{rejected} input file(s) rejected (use --skip-bad to continue)")


@contextlib.contextmanager
def output(path: Path | None) -> Iterator[TextIO]:
    """stdout, or ``path`` replaced atomically once the writer succeeded
    (:func:`sodos_plugin.writers.output.atomic_file`: a failure leaves the old file)."""
    if path is None:
        yield sys.stdout
        return
    with atomic_file(path) as handle:
        yield handle


#: ``sodos standings -`` reads at most this much from stdin (the XML reader's own limit)
MAX_STDIN_BYTES = 64 << 20
STDIN = Path("-")


def stdin_input(args: argparse.Namespace, host: Host, stream=None) -> None:
    """``-`` among the paths: stdin read (bounded) into a temporary file whose name says
    ``stdin``; the format is found from the content, as the readers declare
    (:meth:`Host.stdin_suffix`). Removed when the run ends."""
    paths = list(getattr(args, "paths", None) or [])
    if STDIN not in paths:
        return
    if len(paths) > 1:
        raise UsageError("-: stdin is one tournament; give no other input with it")
    source = stream if stream is not None else sys.stdin.buffer
    data = source.read(MAX_STDIN_BYTES + 1)
    if len(data) > MAX_STDIN_BYTES:
        raise SodosError(f"more than {MAX_STDIN_BYTES} bytes; give it as a file", source="stdin")
    if not data.strip():
        raise SodosError("nothing to read (empty input)", source="stdin")
    folder = tempfile.TemporaryDirectory(prefix="sodos-stdin-")
    atexit.register(folder.cleanup)
    path = Path(folder.name) / f"stdin{host.stdin_suffix(data[:4096])}"
    path.write_bytes(data)
    args.paths = [path]
    args.stdin_folder = folder
    SHOWN_AS[str(path)] = "stdin"  # messages name what the user gave, not the temporary file


def read_and_rank(host: Host, args: argparse.Namespace):
    """Read the inputs, rank them; report files, the config trace and the reader used
    (kept as ``args.reader_used`` for :func:`announce_plugins`)."""
    stdin_input(args, host)
    names = criteria_option(args)
    if names:  # as registered: "sosm-1" is shown as SOSM-1
        names = [p.name for p in host.resolve("criteria", names)]
    args.reader_used = host.reader_for(args.paths[0])
    read = host.read(args.paths, skip_bad=args.skip_bad, jobs=args.jobs)
    report_files(read, sys.stderr, args.skip_bad)
    standings = host.standings(
        read.tournament,
        round=args.round,
        criteria=names,
        system=args.system,
        files=read.files,
        warnings=read.warnings,
    )
    if getattr(args, "trace_config", False):
        write_trace(host, standings.settings, read.files, sys.stderr)
    return standings
