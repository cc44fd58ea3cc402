"""The command line's grammar: the parser, the options every command shares, and what
they mean once parsed (plugin control, the criteria list).

Only :mod:`argparse` and the standard library: ``sodos --help`` and each command's
``--help`` build their parser from this module and the chosen command's own, and import
nothing that reads, ranks or rates.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from sodos_plugin.errors import SodosError
from sodos_plugin.util.suggest import closest

#: An example line a command's --help shows under "examples:" (``EXAMPLES`` of its module).
Examples = tuple[str, ...]


class UsageError(SodosError):
    """A wrong option or argument."""


#: The core names the field an error is about (its ``where``: ``round``, ``rating``); the
#: command line names the option that gives it: field -> (option, its dest). Only a field
#: the command line gave is named so (a criteria list from a config file is not
#: ``--criteria``).
FIELDS: dict[str, tuple[str, str]] = {
    "round": ("--round", "round"),
    "criteria": ("--criteria", "criteria"),
    "format": ("--format", "format"),
    "rating": ("--rating", "rating_system"),
    "jobs": ("--jobs", "jobs"),
}


def error_text(error: SodosError, args: argparse.Namespace | None) -> str:
    """An error as the command line says it: ``--round: round 9 outside 0..5`` where the
    core said ``round`` (:data:`FIELDS`); an error that names its file says it as it is."""
    option, dest = FIELDS.get(error.where or "", ("", ""))
    if not option or error.source or args is None or getattr(args, dest, None) is None:
        return str(error)
    return f"{option}: {error}"


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
                close = closest(word.split("=", 1)[0], options)
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
            "help": "override a config entry, the value read as TOML: -o mcmahon.bar=3d, "
            '-o \'criteria=["MMS","SOS"]\' (the keys: sodos docs config); repeatable',
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
            '(config: compat = "opengotha"; sodos docs rules 7)',
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
    p.add_argument(
        "--system",
        choices=["swiss", "mcmahon"],
        help="swiss (ranked on wins, NBW) or mcmahon (on the McMahon score, MMS); "
        "default: the config's, else the file's own, else mcmahon",
    )
    p.add_argument(
        "--criteria",
        metavar="LIST",
        help="comma-separated criteria, any case, e.g. MMS,SOS,SODOS (default: the config's, "
        "else the file's own, else the system's preset; sodos plugins --all --kind criterion "
        "lists them)",
    )


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
    p.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="standings after round N (default: the last round with a result)",
    )
    reading_options(p)


def criteria_option(args: argparse.Namespace) -> list[str] | None:
    if not args.criteria:
        return None
    names = [c.strip() for c in args.criteria.split(",") if c.strip()]
    if not names:
        raise UsageError("--criteria: give at least one criterion name, e.g. MMS,SOS")
    return names


class VersionAction(argparse.Action):
    """``--version`` anywhere on the line: the version and plugins, then exit 0."""

    def __init__(self, option_strings, dest, version_text, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="show the version and plugins")
        self.version_text = version_text

    def __call__(self, parser, namespace, values, option_string=None):
        print(self.version_text())
        parser.exit()


def with_examples(summary: str, examples: Examples) -> dict[str, Any]:
    """A command parser's description and ``examples:`` epilogue, for its ``--help``."""
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in examples) if examples else None
    return {
        "description": summary[0].upper() + summary[1:] + ".",
        "epilog": epilog,
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }


def takes_value(word: str) -> bool:
    """Whether a global option written as ``word`` is followed by its value (``--config``,
    its abbreviations ``--conf``, ``-o``, ``-p``; not ``-ofoo``, ``--config=x``)."""
    if "=" in word:
        return False
    for option in GLOBAL_OPTIONS:
        if option.kwargs.get("action") in ("store_true",):
            continue
        for flag in option.flags:
            if word == flag or (word.startswith("--") and len(word) > 2 and flag.startswith(word)):
                return True
    return False


# -- rating options (ratings, explain --ratings, standings --rating) ----------------------


def rating_options(p: argparse.ArgumentParser, *, command: str = "ratings") -> None:
    """``--rating``, ``--initial``, ``--param``, ``--state``: the same in ``ratings``,
    ``explain --ratings`` and ``standings``. One word each: ``--system`` is the pairing
    system (swiss, mcmahon), ``--rating`` the rating system; ``ratings`` still takes
    ``--system SYSTEM``, the old spelling of ``--rating``, with a note saying so."""
    what = {
        "ratings": "the rating system: egf (default), glicko2, ogs, whr ...",
        "explain": "with --ratings: the rating system (default egf)",
        "standings": "also rate the tournament: each player's rating change with SYSTEM",
    }[command]
    p.add_argument(
        "--rating",
        dest="rating_system",
        default=None,
        metavar="SYSTEM",
        help=f"{what} (sodos plugins --all --kind rating lists them; sodos docs ratings)",
    )
    if command == "ratings":  # the old spelling: a note says so (cli/ratings.py)
        p.add_argument("--system", dest="old_rating_system", help=argparse.SUPPRESS)
    p.add_argument(
        "--initial",
        metavar="FILE",
        help="starting ratings: a CSV (name, rating[, deviation]), 'files' (the ratings the "
        "files carry) or 'ranks'; default: the files' ratings for egf, else ranks",
    )
    p.add_argument(
        "--param",
        dest="params",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the rating system, e.g. --param period=month (config: "
        "[rating.<system>]; sodos docs ratings lists them); repeatable",
    )
    p.add_argument(
        "--state",
        type=Path,
        metavar="FILE",
        help="go on from the state a run saved (ratings --save-state FILE)",
    )


def parse_params(items: list[str]) -> dict[str, str]:
    params = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--param {item!r}: expected KEY=VALUE")
        params[key.strip()] = value.strip()
    return params


def reading_options(p: argparse.ArgumentParser) -> None:
    """``--skip-bad`` and ``--jobs``: how input files are read (every reading command)."""
    p.add_argument(
        "--skip-bad",
        action="store_true",
        help="continue when some input files are rejected (still listed)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="ingest processes for 1 000+ SGF files (default: the cores)",
    )


def history_options(p: argparse.ArgumentParser) -> None:
    reading_options(p)
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the SGF ingest cache (config: cache.enabled)",
    )


def history_options_for_explain(p: argparse.ArgumentParser) -> None:
    """explain's ``reading`` already has --skip-bad and --jobs; only --no-cache is new."""
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the SGF ingest cache (config: cache.enabled)",
    )
