"""The ``sodos`` command: a thin face over :class:`~sodos_plugin.host.Host`.

It parses options, calls the host API, formats, and turns errors into one line on
stderr with exit status 2 (``--debug`` shows the traceback).

Each command is its own module here with ``add_arguments(parser)``, ``run(args) ->
exit status`` and ``EXAMPLES`` (its ``--help`` shows them); :data:`COMMANDS` lists them
in ``--help`` order with their one-line summaries. Start-up is most of a short
command, so the CLI imports only what the command it runs needs
(:mod:`sodos_plugin.util.lazy`): ``--version`` answers before the option parser
exists, ``--help`` lists the commands from :data:`COMMANDS` alone, and a command
imports its own module and nothing of the others.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence

from sodos_plugin import __version__
from sodos_plugin.cli._streams import EXIT_ERROR, EXIT_OK, StdoutGuard, discard_stdout, say
from sodos_plugin.errors import OutputError, SodosError, StrictError
from sodos_plugin.plugins.discover import entry_points

#: command name -> (module under sodos_plugin.cli, one-line summary for --help)
COMMANDS: dict[str, tuple[str, str]] = {
    "standings": ("standings", "print standings"),
    "explain": ("explain", "one player's criteria round by round"),
    "plugins": ("plugins", "list plugins, what they provide and what they replace"),
    "check": ("check", "validate config and criteria, print advice"),
    "config": ("config", "show the config files read and where each setting came from"),
    "ratings": ("ratings", "ratings over a game history (EGF GoR, Glicko-2, OGS, WHR ...)"),
    "schema": (
        "schema",
        "print the JSON Schema of the tournament format (or of standings, explain, error)",
    ),
    "convert": ("convert", "write a tournament (XML, h9, SGF folder...) as a JSON tournament"),
    "serve": (
        "serve",
        "serve standings, explanations and ratings over HTTP (JSON; loopback by default)",
    ),
    "store": ("store", "a server's live rating store: make it from an archive, export it"),
    "docs": ("docs", "print a documentation page (config, rules, criteria, plugins, hosts ...)"),
}


def _command(name: str):
    return importlib.import_module(f"sodos_plugin.cli.{COMMANDS[name][0]}")


def version_text() -> str:
    """``sodos --version``: the version, then every third-party plugin installed through
    an entry point with its distribution and version (as ``pytest -VV``), without
    importing any plugin."""
    lines = [f"sodos {__version__} (sodos-plugin, Python {sys.version.split()[0]})"]
    try:
        found = entry_points("sodos")
    except Exception as error:  # broken metadata: say so, still print the version
        return "\n".join([*lines, f"  cannot list plugins: {type(error).__name__}: {error}"])
    if os.environ.get("SODOS_DISABLE_PLUGIN_AUTOLOAD", "").strip() not in ("", "0"):
        lines.append("  (SODOS_DISABLE_PLUGIN_AUTOLOAD is set: these are not loaded)")
    for ep in sorted(found, key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        where = f"{dist.metadata['Name']} {dist.version}" if dist else "unknown distribution"
        lines.append(f"  plugin {ep.name}: {where} ({ep.value})")
    if not found:
        lines.append("  no third-party plugins installed")
    return "\n".join(lines)


def chosen_command(argv: Sequence[str]) -> str | None:
    """The command an argument list runs: its first word that is not an option or the
    value of a global option (``sodos --config x.toml standings ...``, ``--conf`` too)."""
    from sodos_plugin.cli._options import takes_value

    words = iter(argv)
    for word in words:
        if word == "--":
            return None
        if word.startswith("-"):
            if takes_value(word):
                next(words, None)
        else:
            return word if word in COMMANDS else None
    return None


def build_parser(argv: Sequence[str] = ()):
    """The parser: every command listed, the options of the one ``argv`` runs."""
    from sodos_plugin.cli._options import Parser, VersionAction, global_options, with_examples

    parser = Parser(
        prog="sodos",
        description="Go tournament standings, tiebreaks and ratings.",
        epilog="sodos COMMAND --help: a command's options and examples; "
        "sodos docs: the documentation pages (config, rules, criteria, plugins, hosts ...).",
    )
    parser.add_argument("--version", "-V", action=VersionAction, version_text=version_text)
    global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    wanted = chosen_command(argv)
    for name, (_, summary) in COMMANDS.items():
        if name != wanted:
            sub.add_parser(name, help=summary)
            continue
        module = _command(name)
        command = sub.add_parser(name, help=summary, **with_examples(summary, module.EXAMPLES))
        module.add_arguments(command)
    return parser


def _run(args) -> int:
    """The command, with the cyclic garbage collector paused (but for ``serve``, a
    long-running service): one command is one short process, and the collector's
    passes over the modules, plugins, model and rows it keeps alive find nothing to
    free (docs/architecture.md, "Memory"). Reference counting still frees the rest."""
    module = _command(args.command)
    if args.command == "serve" or not gc.isenabled():
        return module.run(args)
    gc.disable()
    try:
        return module.run(args)
    finally:
        gc.enable()


def broken_pipe() -> int:
    """`sodos standings ... | head`: the reader went away; that is not an error."""
    discard_stdout()
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every message line on stderr is escaped (``_streams.say``) and
    standard output's own failures are reported as such (``_streams.StdoutGuard``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or bool(os.environ.get("SODOS_DEBUG"))
    args = None
    with StdoutGuard() as guard:
        try:
            if argv in (["--version"], ["-V"]):  # as the parser's action does, without it
                sys.stdout.write(version_text() + "\n")
                guard.finish()
                return EXIT_OK
            from sodos_plugin.cli._options import merge_global_options

            args = merge_global_options(build_parser(argv).parse_args(argv))
            status = _run(args)
            guard.finish()
            return status
        except StrictError as error:  # every warning listed, each as the error it now is
            for warning in error.warnings:
                say(f"error: {warning}")
            say(f"sodos: error: {len(error.warnings)} warning(s), errors under --strict")
            return EXIT_ERROR
        except SodosError as error:
            if isinstance(error.__cause__, BrokenPipeError):
                return broken_pipe()
            if isinstance(error, OutputError):
                discard_stdout()  # what is still buffered must not fail again at exit
            if debug:
                _traceback()
            if args is not None:  # the field the error names, as this face spells it
                from sodos_plugin.cli._options import error_text

                say(f"sodos: error: {error_text(error, args)}")
            else:
                say(f"sodos: error: {error}")
            return EXIT_ERROR
        except BrokenPipeError:
            return broken_pipe()
        except OSError as error:  # a write to standard output outside Host.write
            discard_stdout()
            if error.filename is not None:  # not standard output: the file is named
                say(f"sodos: error: {error.filename}: {error.strerror or error}")
            else:
                say(f"sodos: error: cannot write: {error.strerror or error}")
            return EXIT_ERROR
        except KeyboardInterrupt:
            say("sodos: interrupted")
            return 130
        except Exception as error:  # a bug: still one line unless --debug
            if debug:
                _traceback()
            say(f"sodos: internal error: {type(error).__name__}: {error} (use --debug)")
            return EXIT_ERROR


def _traceback() -> None:
    """``--debug``: the traceback, with its module imported only then (util/lazy.py)."""
    import traceback

    traceback.print_exc()
