"""``sodos serve`` as a child process on a free loopback port, and the command and
environment it runs with (the fault plugins of ``tests/fault_plugins`` importable)."""

from __future__ import annotations

import http.client
import json
import resource
import subprocess
import threading
import time
from pathlib import Path

import child
from conftest import TESTS

FAULTS = TESTS / "fault_plugins"


def command() -> list[str]:
    """The installed ``sodos`` script (:func:`child.command`)."""
    return child.command(script=True)


def environment() -> dict[str, str]:
    """The child's environment (:func:`child.environment`) with the fault plugins
    importable."""
    return child.environment({"PYTHONPATH": str(FAULTS)})


class Service:
    """``sodos serve --port 0`` as a subprocess; the port is read from its first line."""

    def __init__(self, folder: Path, config: str, *args: str, memory: int | None = None):
        """``memory``: bytes of address space (``RLIMIT_AS``) for the service and its
        workers (they inherit it), so that a request that would take gigabytes fails
        the test instead of the machine."""
        self.config = folder / "sodos.toml"
        self.config.write_text(config, encoding="utf-8")

        def limit() -> None:  # in the child, before exec
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

        self.process = subprocess.Popen(
            [*command(), "serve", "--port", "0", "--config", str(self.config), *args],
            cwd=folder,
            env=environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            preexec_fn=limit if memory else None,
        )
        self.log: list[str] = []
        first = self.process.stderr.readline()
        self.log.append(first)
        if "listening on http://" not in first:
            self.process.kill()
            raise AssertionError(f"sodos serve did not start: {first}{self.process.stderr.read()}")
        self.address = first.split("listening on http://", 1)[1].split()[0]
        self.host, port = self.address.rsplit(":", 1)
        self.port = int(port)
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.log.append(line)

    def wait_for_log(self, text: str, seconds: float = 30) -> bool:
        """Whether ``text`` reaches the service's stderr within ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(text in line for line in list(self.log)):
                return True
            time.sleep(0.05)
        return False

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 60,
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def post(self, path: str, document, **kwargs) -> tuple[int, dict[str, str], bytes]:
        body = document if isinstance(document, bytes) else json.dumps(document).encode()
        return self.request("POST", path, body, {"Content-Type": "application/json"}, **kwargs)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
