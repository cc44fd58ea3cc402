"""``sodos`` in a child process: the one process runner, for the tests where a process is
the point (signals, a terminal, redirected standard streams, start-up, the installed
entry point, installed plugins, a reader that must not take the suite down). Every other
test runs the command in this process with the ``sodos`` fixture (tests/conftest.py).

With ``limit_memory`` the child has an address-space limit (``RLIMIT_AS``), and it always
has a timeout, so that a reader that inflates a bomb or blocks on a pipe fails the test
instead of taking the suite down."""

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


def command(script: bool = False) -> list[str]:
    """The installed ``sodos`` script (``script``, where there is one) or ``python -m``."""
    installed = Path(sys.executable).with_name("sodos")
    if script and installed.exists():
        return [str(installed)]
    return [sys.executable, "-m", "sodos_plugin.cli"]


def environment(env: dict | None = None) -> dict[str, str]:
    """This process's environment without the ``SODOS_`` settings, plus ``env``."""
    given = {k: v for k, v in os.environ.items() if not k.startswith("SODOS_")}
    given.update(env or {})
    return given


def sodos_process(
    *args,
    cwd: Path,
    env: dict | None = None,
    stdin: bytes | str | None = None,
    entry_points: bool = False,
    script: bool = False,
    memory_limit: bool = False,
    text: bool = True,
    timeout: float = TIMEOUT,
    **popen,
) -> subprocess.CompletedProcess:
    """``sodos ARGS`` as a child in ``cwd``: built-ins only unless ``entry_points``; the
    installed script with ``script``; output as text (UTF-8) or, ``text=False``, bytes.
    ``popen`` goes to :func:`subprocess.run` (``stdout=``, ``preexec_fn=``...)."""
    preexec = popen.pop("preexec_fn", None)

    def before_exec() -> None:
        if memory_limit:
            limit_memory()
        if preexec:
            preexec()

    if "stdout" not in popen and "stderr" not in popen:
        popen["capture_output"] = True
    if text:
        popen.setdefault("encoding", "utf-8")
    return subprocess.run(
        [*command(script), *map(str, args), *([] if entry_points else ["--no-entry-points"])],
        cwd=cwd,
        env=environment(env),
        input=stdin,
        timeout=timeout,
        preexec_fn=before_exec if memory_limit or preexec else None,
        **popen,
    )


def cli(*args: str, cwd: Path, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    """``sodos ARGS`` under the memory limit (the hostile-input tests)."""
    return sodos_process(*args, cwd=cwd, timeout=timeout, memory_limit=True)


def clean(done) -> str:
    """The run (a child's, or the ``sodos`` fixture's) ended normally or with a one-line
    error; never a traceback or a crash. Its stderr."""
    child = isinstance(done, subprocess.CompletedProcess)
    status, err = (done.returncode, done.stderr) if child else (done.status, done.err)
    assert status in (0, 1, 2), err[-2000:]
    assert "Traceback" not in err
    assert "internal error" not in err, err
    assert "MemoryError" not in err
    return err


def players(done: subprocess.CompletedProcess) -> list[str]:
    """Player names in the JSON standings the run printed."""
    return [row["player"]["name"] for row in json.loads(done.stdout)["standings"]]
