"""The in-process CLI runner: ``sodos(*args, stdin=b"...")`` calls
:func:`sodos_plugin.cli.main` in this process (a process is started only where a process
is the point), in a temporary working folder, with built-in plugins only."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass

import pytest

from sodos_plugin.cli import main
from sodos_plugin.cli._streams import SHOWN_AS


@dataclass
class Done:
    """A command's exit status and what it wrote on stdout and stderr."""

    status: int
    out: str
    err: str


@pytest.fixture
def sodos(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SODOS_DEBUG", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))

    def run(*args, stdin: bytes | None = None) -> Done:
        data = io.BytesIO(stdin or b"")
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(data, encoding="utf-8"))
        capsys.readouterr()
        status = main([*map(str, args), "--no-entry-points"])
        out, err = capsys.readouterr()
        SHOWN_AS.clear()
        return Done(status, out, err)

    return run
