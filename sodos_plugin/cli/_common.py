"""What every ``sodos`` command shares: the parser class, common options, the host,
reading inputs, reporting files and writing output.

Heavy modules (the host, readers, writers) are imported inside the functions that
need them, so that ``sodos --help`` and ``sodos --version`` stay light.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from sodos_plugin.cli import EXIT_ERROR, EXIT_OK
from sodos_plugin.cli._streams import atomic_file, say
from sodos_plugin.errors import SodosError

if TYPE_CHECKING:
    from sodos_plugin.host import Host

EXIT_FAILED_CHECK = 1
__all__ = ["EXIT_ERROR", "EXIT_FAILED_CHECK", "EXIT_OK"]  # the others are public too


class UsageError(SodosError):
    """A wrong option or argument."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        raise UsageError(f"{message}{self._hint(message)} (see {self.prog} --help)")

    def _hint(self, message: str) -> str:
        """'did you mean --format?' for a mistyped option."""
        if "unrecognized arguments:" not in message:
            return ""
        words = message.split("unrecognized arguments:", 1)[1].split()
        options = sorted(set(option_strings(self)))
        for word in words:
            if word.startswith("--"):
                close = difflib.get_close_matches(word.split("=", 1)[0], options, n=1)
                if close:
                    return f"; did you mean {close[0]}?"
        return ""


def option_strings(parser: argparse.ArgumentParser) -> Iterator[str]:
    """Every option of a parser and of its subcommands."""
    for action in parser._actions:
        yield from action.option_strings
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from option_strings(sub)


class GlobalOption(NamedTuple):
    """An option every command takes, before or after the command name.

    ``sodos --no-entry-points plugins`` and ``sodos plugins --no-entry-points`` are the
    same. ``kwargs`` are argparse's (``dest`` is required); add an option to every
    command by adding one entry to :data:`GLOBAL_OPTIONS`.
    """

    flags: tuple[str, ...]
    kwargs: dict[str, Any]

    @property
    def dest(self) -> str:
        return self.kwargs["dest"]

    @property
    def default(self) -> Any:
        action = self.kwargs.get("action")
        if action == "append":
            return list(self.kwargs.get("default", []))
        if action == "store_true":
            return False
        return self.kwargs.get("default")


GLOBAL_OPTIONS: list[GlobalOption] = [
    GlobalOption(
        ("--config",),
        {
            "dest": "config",
            "type": Path,
            "metavar": "FILE",
            "help": "TOML config (default: ./sodos.toml, or [tool.sodos] in ./pyproject.toml)",
        },
    ),
    GlobalOption(
        ("-o",),
        {
            "dest": "overrides",
            "action": "append",
            "metavar": "KEY=VALUE",
            "help": "override a config entry (see docs/config.md); repeatable",
        },
    ),
    GlobalOption(
        ("-p",),
        {
            "dest": "plugin_args",
            "action": "append",
            "metavar": "MODULE | no:NAME",
            "help": "load a plugin module (or an entry point by name), or block the plugin "
            "NAME (built-in or not); repeatable",
        },
    ),
    GlobalOption(
        ("--no-entry-points",),
        {
            "dest": "no_entry_points",
            "action": "store_true",
            "help": "do not load third-party plugins from entry points "
            "(also SODOS_DISABLE_PLUGIN_AUTOLOAD=1)",
        },
    ),
    GlobalOption(
        ("--trace-config",),
        {
            "dest": "trace_config",
            "action": "store_true",
            "help": "print on stderr which config files were read and where each setting came from",
        },
    ),
    GlobalOption(
        ("--debug",), {"dest": "debug", "action": "store_true", "help": "show tracebacks"}
    ),
    GlobalOption(
        ("--strict",),
        {
            "dest": "strict",
            "action": "store_true",
            "help": "every warning is an error: exit 2 listing them (config: strict = true)",
        },
    ),
    GlobalOption(
        ("--compat",),
        {
            "dest": "compat",
            "choices": ["none", "opengotha"],
            "help": "opengotha: print OpenGotha 3.51's numbers, its defects included "
            '(config: compat = "opengotha"; docs/rules.md §7)',
        },
    ),
]

_TOP = "_global_"


def global_options(p: argparse.ArgumentParser, *, top: bool = False) -> None:
    """Add every :data:`GLOBAL_OPTIONS` entry to ``p`` (the main parser or a command's).

    Both get ``default=None`` under their own ``dest`` so that neither hides the
    other; :func:`merge_global_options` combines them after parsing.
    """
    group = p.add_argument_group("global options (before or after the command)")
    for option in GLOBAL_OPTIONS:
        kwargs = dict(option.kwargs, default=None)
        if top:
            kwargs["dest"] = _TOP + option.dest
        group.add_argument(*option.flags, **kwargs)


def common(p: argparse.ArgumentParser) -> None:
    """Options every command takes: config, overrides, plugin control, debug."""
    global_options(p)


def roster_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--roster",
        type=Path,
        metavar="FILE",
        help="players file (CSV with a name column, or a tournament file): "
        "a name not in it is an error (config: roster)",
    )


def merge_global_options(args: argparse.Namespace) -> argparse.Namespace:
    """One value per global option: lists joined (before the command first), flags
    or-ed, any other value from after the command if given there."""
    for option in GLOBAL_OPTIONS:
        before = getattr(args, _TOP + option.dest, None)
        after = getattr(args, option.dest, None)
        if hasattr(args, _TOP + option.dest):
            delattr(args, _TOP + option.dest)
        action = option.kwargs.get("action")
        if action == "append":
            value = [*(before or []), *(after or [])] or option.default
        elif action == "store_true":
            value = bool(before) or bool(after)
        else:
            value = after if after is not None else before
            value = option.default if value is None else value
        setattr(args, option.dest, value)
    return args


def _autoload_disabled(environ: Mapping[str, str]) -> bool:
    return environ.get("SODOS_DISABLE_PLUGIN_AUTOLOAD", "").strip() not in ("", "0")


def plugin_control(
    args: argparse.Namespace, environ: Mapping[str, str] | None = None
) -> tuple[dict[str, str], list[str], bool]:
    """``(modules to load with who named them, names to block, load entry points)``
    from ``-p``, ``--no-entry-points`` and the environment (as pytest's ``-p``,
    ``PYTEST_PLUGINS`` and ``PYTEST_DISABLE_PLUGIN_AUTOLOAD``)."""
    environ = os.environ if environ is None else environ
    modules: dict[str, str] = {}
    for name in environ.get("SODOS_PLUGINS", "").split(","):
        if name.strip():
            modules[name.strip()] = "named in SODOS_PLUGINS"
    blocked: list[str] = []
    for value in getattr(args, "plugin_args", None) or []:
        value = value.strip()
        if value.startswith("no:"):
            name = value[3:].strip()
            if not name:
                raise UsageError("-p no:NAME: give the name of a plugin to block")
            blocked.append(name)
        elif value:
            modules[value] = "named by -p"
        else:
            raise UsageError("-p: give a module name, or no:NAME to block a plugin")
    autoload = not getattr(args, "no_entry_points", False) and not _autoload_disabled(environ)
    return modules, blocked, autoload


def selecting(p: argparse.ArgumentParser) -> None:
    p.add_argument("--system", choices=["swiss", "mcmahon"])
    p.add_argument("--criteria", help="comma-separated criteria, e.g. MMS,SOS,SODOS")


def reading(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="tournament files or folders; - reads one tournament from stdin",
    )
    selecting(p)
    roster_option(p)
    p.add_argument("--round", type=int, help="standings after this round (default: last)")
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="continue when some input files are rejected (still listed)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="ingest processes for 10 000+ SGF files (default: cores)",
    )


def make_host(args: argparse.Namespace, *, raise_plugin_errors: bool = True) -> Host:
    """The host for this run: config, overrides and plugin control from the options."""
    from sodos_plugin.host import Host

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
        from sodos_plugin.cli.config import write_trace

        write_trace(host, host.settings, (), sys.stderr)
    return host


def criteria_option(args: argparse.Namespace) -> list[str] | None:
    if not args.criteria:
        return None
    names = [c.strip() for c in args.criteria.split(",") if c.strip()]
    if not names:
        raise UsageError("--criteria: give at least one criterion name, e.g. MMS,SOS")
    return names


#: ``--output`` extensions whose writer is not named like them
EXTENSIONS = {"htm": "html", "txt": "table", "md": "markdown"}


def output_format(host: Host, args: argparse.Namespace) -> str:
    """The writer to use: ``--format`` (any case), else the one ``--output``'s extension
    names (``standings.html`` → html, ``.h9``, ``.csv``, ``.json``...), else ``table``."""
    fmt = getattr(args, "format", None)
    if fmt is None:
        path = getattr(args, "output", None)
        extension = path.name.rpartition(".")[2].lower() if path and "." in path.name else ""
        name = EXTENSIONS.get(extension, extension)
        if name and host.registry.lookup("writers", name) is not None:
            return host.registry.lookup("writers", name).name  # type: ignore[union-attr]
        return "table"
    found = host.registry.lookup("writers", fmt)
    if found is None:
        reason = host.registry.unavailable("writers", fmt)
        if reason:
            raise UsageError(f"--format: {fmt}: {reason}")
        known = sorted(host.registry.writers)
        close = difflib.get_close_matches(fmt.lower(), known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else f" (known: {', '.join(known)})"
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


def report_files(read_result, stream: TextIO, skip_bad: bool) -> None:
    """Every file not ingested, with its reason (nothing silent); stop on rejected files.

    The reader's warnings are printed with the standings' own (once, see
    :func:`sodos_plugin.cli.standings.run`), or here when the run stops.
    """
    rejected = roundless = 0
    for report in read_result.files:
        if report.status in ("rejected", "duplicate", "excluded"):  # escaped: one line each
            say(f"{report.status}: {report.path}: {report.reason}", stream)
            rejected += report.status == "rejected"
            roundless += report.status == "rejected" and report.reason.startswith("no round")
    if roundless:  # a server's games are a history, not one tournament's rounds
        say(
            f"hint: {roundless} record(s) without a round: games of a server or of several"
            " events are a game history; 'sodos ratings PATH' rates them",
            stream,
        )
    if rejected and not skip_bad:
        for warning in read_result.warnings:
            say(f"warning: {warning}", stream)
        raise SodosError(f"{rejected} input file(s) rejected (use --skip-bad to continue)")


@contextlib.contextmanager
def output(path: Path | None) -> Iterator[TextIO]:
    """stdout, or ``path`` replaced atomically once the writer succeeded
    (:func:`sodos_plugin.cli._streams.atomic_file`: a failure leaves the old file)."""
    if path is None:
        yield sys.stdout
        return
    with atomic_file(path) as handle:
        yield handle


#: ``sodos standings -`` reads at most this much from stdin (the XML reader's own limit)
MAX_STDIN_BYTES = 64 << 20
STDIN = Path("-")


def sniff_suffix(head: bytes) -> str:
    """A file name suffix for data read from stdin, from its first bytes: readers claim
    by content, and the suffix helps those that look at the name too."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 (SGF from some editors)
        text = text[2:].replace(b"\x00", b"").lstrip()
    if text.startswith(b"<"):
        return ".xml"
    if text.startswith(b"(") and text[1:].lstrip()[:1] == b";":
        return ".sgf"
    if text[:1] in (b"{", b"["):
        return ".json"
    if head.startswith(b"PK\x03\x04"):
        return ".zip"
    if head.startswith(b"\x1f\x8b"):
        return ".tar.gz"
    if text.startswith(b";") or b"\n;" in text[:4096]:
        return ".h9"
    return ""


def stdin_input(args: argparse.Namespace, stream=None) -> None:
    """``-`` among the paths: stdin read (bounded) into a temporary file whose name says
    ``stdin``; the format is found from the content. Removed when the run ends."""
    paths = list(getattr(args, "paths", None) or [])
    if STDIN not in paths:
        return
    if len(paths) > 1:
        raise UsageError("-: stdin is one tournament; give no other input with it")
    import atexit
    import tempfile

    source = stream if stream is not None else sys.stdin.buffer
    data = source.read(MAX_STDIN_BYTES + 1)
    if len(data) > MAX_STDIN_BYTES:
        raise SodosError(f"more than {MAX_STDIN_BYTES} bytes; give it as a file", source="stdin")
    if not data.strip():
        raise SodosError("nothing to read (empty input)", source="stdin")
    folder = tempfile.TemporaryDirectory(prefix="sodos-stdin-")
    atexit.register(folder.cleanup)
    path = Path(folder.name) / f"stdin{sniff_suffix(data[:4096])}"
    path.write_bytes(data)
    args.paths = [path]
    args.stdin_folder = folder
    from sodos_plugin.cli._streams import SHOWN_AS

    SHOWN_AS[str(path)] = "stdin"  # messages name what the user gave, not the temporary file


def read_and_rank(host: Host, args: argparse.Namespace):
    """Read the inputs, rank them; report files, the config trace and the reader used
    (kept as ``args.reader_used`` for :func:`announce_plugins`)."""
    stdin_input(args)
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
        from sodos_plugin.cli.config import write_trace

        write_trace(host, standings.settings, read.files, sys.stderr)
    return standings
