"""The ``sodos`` command: a thin face over :class:`~sodos_plugin.host.Host`.

It parses options, calls the host API, formats, and turns errors into one line on
stderr with exit status 2 (``--debug`` shows the traceback).

Each command is its own module here with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> exit status``; :data:`COMMANDS` lists them in ``--help`` order. A
command module imports what only it needs inside ``run``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from sodos_plugin import __version__

# The option parser, the command modules and what they import load only after the
# usual ``sodos --version`` is answered (``main``): start-up is most of that command.
EXIT_OK, EXIT_ERROR = 0, 2

#: command name -> module under sodos_plugin.cli
COMMANDS: dict[str, str] = {
    "standings": "standings",
    "explain": "explain",
    "plugins": "plugins",
    "check": "check",
    "config": "config",
    "ratings": "ratings",
    "schema": "schema",
    "convert": "convert",
    "serve": "serve",
}


def _command(name: str):
    return importlib.import_module(f"sodos_plugin.cli.{COMMANDS[name]}")


def version_text() -> str:
    """``sodos --version``: the version, then every third-party plugin installed through
    an entry point with its distribution and version (as ``pytest -VV``), without
    importing any plugin."""
    from sodos_plugin.plugins.discover import entry_points

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


def build_parser():
    import argparse

    from sodos_plugin.cli._common import Parser, global_options

    class VersionAction(argparse.Action):
        def __init__(self, option_strings, dest, **kwargs):
            super().__init__(option_strings, dest, nargs=0, help="show the version and plugins")

        def __call__(self, parser, namespace, values, option_string=None):
            sys.stdout.write(version_text() + "\n")
            parser.exit()

    parser = Parser(prog="sodos", description="Go tournament standings and tiebreaks.")
    parser.add_argument("--version", "-V", action=VersionAction)
    global_options(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name in COMMANDS:
        module = _command(name)
        module.add_arguments(sub.add_parser(name, help=module.HELP))
    return parser


def _run(args) -> int:
    """The command, with the cyclic garbage collector paused (but for ``serve``, a
    long-running service): one command is one short process, and the collector's
    passes over the modules, plugins, model and rows it keeps alive find nothing to
    free (the readers already pause it while they build the model) — 81 passes, ~10 %
    of an h9 run's CPU at 5 000 players. Reference counting still frees the rest."""
    import gc

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
    from sodos_plugin.cli._streams import discard_stdout

    discard_stdout()
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every message line on stderr is escaped (``_streams.say``) and
    standard output's own failures are reported as such (``_streams.StdoutGuard``)."""
    from sodos_plugin.cli._streams import StdoutGuard, discard_stdout, say
    from sodos_plugin.errors import OutputError, SodosError, StrictError

    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv or bool(os.environ.get("SODOS_DEBUG"))
    with StdoutGuard() as guard:
        try:
            if argv in (["--version"], ["-V"]):  # as the parser's action does, without it
                sys.stdout.write(version_text() + "\n")
                guard.finish()
                return EXIT_OK
            from sodos_plugin.cli._common import merge_global_options

            args = merge_global_options(build_parser().parse_args(argv))
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
                import traceback

                traceback.print_exc()
            say(f"sodos: error: {error}")
            return EXIT_ERROR
        except BrokenPipeError:
            return broken_pipe()
        except OSError as error:  # a write to standard output outside Host.write
            discard_stdout()
            say(f"sodos: error: cannot write: {error.strerror or error}")
            return EXIT_ERROR
        except KeyboardInterrupt:
            say("sodos: interrupted")
            return 130
        except Exception as error:  # a bug: still one line unless --debug
            if debug:
                import traceback

                traceback.print_exc()
            say(f"sodos: internal error: {type(error).__name__}: {error} (use --debug)")
            return EXIT_ERROR
