"""Shared test settings.

Real data is read in place from ``../shared/data`` (override with the environment
variable ``SODOS_SHARED_DATA``); tests that need it skip with the reason when absent.
"""

from __future__ import annotations

import importlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
SHARED_DATA = Path(os.environ.get("SODOS_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared_path(*parts: str) -> Path:
    """A path under the shared data folder; skips the test when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        # at a module's top too (a module of such tests skips whole, with the reason)
        pytest.skip(
            f"shared data not found at {path} (set SODOS_SHARED_DATA)", allow_module_level=True
        )
    return path


#: Checks what the whole suite left behind, so it runs after every other test.
CLEAN_ENVIRONMENT = TESTS / "plugins" / "test_clean_environment.py"


def pytest_collection_modifyitems(session, config, items) -> None:
    """Move the tests of ``tests/plugins/test_clean_environment.py`` to the end.

    They check that the suite left the environment as the user had it (no installed
    plugin replaces a built-in, no example plugin in ``pip list``), so they must run
    after every test that installs a plugin in a temporary folder or puts one on the
    path. Folders are collected in name order, which would run ``plugins/`` before
    ``readers/`` and the rest; ``.ci/run`` also runs the file once more on its own
    after the suite.
    """
    last = [item for item in items if item.path.resolve() == CLEAN_ENVIRONMENT]
    if last:
        items[:] = [item for item in items if item not in last] + last


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA} (set SODOS_SHARED_DATA)")
    return SHARED_DATA


def builtin_host(config=None, **options):
    """A host with built-ins only: no config file, no entry points; ``config`` and
    ``options`` as :class:`~sodos_plugin.Host` takes them (``strict``, ``roster``,
    ``overrides``...). For a module-level constant or a helper; a test takes the fixture
    :func:`host` or :func:`make_host`."""
    from sodos_plugin import Host

    return Host(config, config_file=False, entry_points=False, **options)


@pytest.fixture
def host():
    """A host with built-ins only: no config file, no entry points."""
    return builtin_host()


@pytest.fixture
def make_host():
    """``make_host(config, **options)``: a built-ins-only host with a config or options
    of its own (``{"system": "swiss"}``, ``strict=True``, ``roster=path``)."""
    return builtin_host


def install_temporarily(source: Path, target: Path) -> Path:
    """``pip install --no-deps --target`` a plugin distribution into a temporary folder.

    The plugin is then a real installed distribution (metadata, entry point) on that
    folder only: put it on ``sys.path`` (:func:`on_path`) or ``PYTHONPATH`` for a child
    process. Nothing is installed in the environment running the tests, so no later run
    of ``sodos`` sees it. Skips, saying why, when pip cannot build it.
    """
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-input", "--quiet",
         "--disable-pip-version-check", "--target", str(target), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"pip could not install {source.name}: {done.stderr.strip()[-300:]}")
    return target


@pytest.fixture(scope="session")
def example_plugin_dir(tmp_path_factory) -> Path:
    """tests/example_plugin (replaces SODOS) installed in a temporary folder."""
    target = tmp_path_factory.mktemp("example-plugin")
    return install_temporarily(TESTS / "example_plugin", target)


@pytest.fixture(scope="session")
def docs_example_dir(tmp_path_factory) -> Path:
    """docs/example_plugin (BWG, markdown, pairs) installed in a temporary folder."""
    target = tmp_path_factory.mktemp("docs-example-plugin")
    return install_temporarily(ROOT / "docs" / "example_plugin", target)


def on_path(monkeypatch, folder: Path) -> None:
    """Make the distributions in ``folder`` visible to this process for one test."""
    monkeypatch.syspath_prepend(str(folder))
    importlib.invalidate_caches()


@pytest.fixture
def example_plugin(example_plugin_dir, monkeypatch) -> Path:
    on_path(monkeypatch, example_plugin_dir)
    return example_plugin_dir


class InlineWorkers:
    """A stand-in for :func:`sodos_plugin.util.workers.in_order` that computes every task
    in this process and keeps the ``processes`` and ``start`` it was asked for in
    :attr:`asked` and :attr:`starts` (tests of the cap on processes)."""

    asked: list[int] = []
    starts: list = []

    @staticmethod
    def in_order(function, tasks, more=(), processes=1, start=None):
        InlineWorkers.asked.append(processes)
        InlineWorkers.starts.append(start)  # not run: it is for a worker process
        return (function(task, *more) for task in tasks)


# -- the in-process CLI runner ----------------------------------------------------------


@dataclass
class Done:
    """A command's exit status and what it wrote on stdout and stderr."""

    status: int
    out: str
    err: str

    def __iter__(self):  # ``status, out, err = sodos(...)``
        return iter((self.status, self.out, self.err))


@pytest.fixture
def sodos(capsys, monkeypatch, tmp_path):
    """``sodos(*args, stdin=b"...", cwd=folder, env={...}, entry_points=False)``:
    :func:`sodos_plugin.cli.main` in this process, as ``sodos ARGS`` would run it
    (``--help``'s exit is its status), in a temporary working folder (or ``cwd``) with its
    own cache, built-in plugins only unless ``entry_points``. ``stdin``, ``cwd`` and ``env``
    hold for the one call; ``env``'s ``PYTHONPATH`` goes on ``sys.path``, as a child's
    would. :func:`child.sodos_process` starts a process, for the tests where a process is
    the point."""
    from sodos_plugin.cli import main
    from sodos_plugin.cli._streams import SHOWN_AS

    monkeypatch.chdir(tmp_path)
    for name in [name for name in os.environ if name.startswith("SODOS_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))

    def run(
        *args, stdin: bytes | None = None, cwd=None, env: dict | None = None, entry_points=False
    ) -> Done:
        with monkeypatch.context() as call:  # stdin, cwd and env for this call only
            data = io.BytesIO(stdin or b"")
            call.setattr(sys, "stdin", io.TextIOWrapper(data, encoding="utf-8"))
            if cwd is not None:
                call.chdir(cwd)
            for name, value in (env or {}).items():
                if name != "PYTHONPATH":
                    call.setenv(name, value)
                    continue
                for folder in reversed([f for f in value.split(os.pathsep) if f]):
                    on_path(call, Path(folder))
            capsys.readouterr()
            try:
                status = main([*map(str, args), *([] if entry_points else ["--no-entry-points"])])
            except SystemExit as done:  # argparse's --help and --version
                code = done.code
                status = code if isinstance(code, int) else 0 if code is None else 1
            out, err = capsys.readouterr()
            SHOWN_AS.clear()
        return Done(status, out, err)

    return run
