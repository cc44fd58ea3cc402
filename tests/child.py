"""The command in a child process, with an address-space limit (``RLIMIT_AS``) and a
timeout, so that a reader that inflates a bomb or blocks on a pipe fails the test instead
of taking the suite down."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

MEMORY_LIMIT = 1 << 30  # bytes of address space for the child: far below any bomb
TIMEOUT = 120  # seconds


def limit_memory() -> None:  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def cli(*args: str, cwd: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("SODOS_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "sodos_plugin.cli", *args, "--no-entry-points"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit_memory,
    )


def clean(done: subprocess.CompletedProcess) -> str:
    """The run ended normally or with a one-line error; never a traceback or a crash."""
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "internal error" not in done.stderr, done.stderr
    assert "MemoryError" not in done.stderr
    return done.stderr


def players(done: subprocess.CompletedProcess) -> list[str]:
    """Player names in the JSON standings the run printed."""
    return [row["player"]["name"] for row in json.loads(done.stdout)["standings"]]
