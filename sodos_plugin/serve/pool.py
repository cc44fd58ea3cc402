"""Worker processes that compute requests, each within a time limit.

Contract: :class:`Pool` keeps ``size`` processes, each with its own
:class:`~sodos_plugin.host.Host` built by the same picklable factory (so the same config
and plugins as the parent). :meth:`Pool.run` hands one job to an idle worker and
returns its answer, or raises :class:`Busy` (no worker free within ``wait`` seconds),
:class:`TimeLimit` (no answer within ``timeout``: the worker is killed) or
:class:`WorkerLost` (the worker died), or :class:`Stopped` (:meth:`Pool.close` was
called meanwhile: the service is stopping, which is not a worker's death). A killed or
dead worker is replaced in the background, so no request — however long, however it
fails — takes the service down.

Processes, not threads: a computation in Python cannot be stopped from outside, a
process can; and a crash (a plugin's C extension, memory) stays in its process.
Workers are started with ``spawn`` (no fork of a threaded server) and end when the
parent's end of their pipe closes. A job crosses the pipe as a small pickled header
(route, query options) and the body's bytes as they are (``send_bytes``: no pickling of
the body); the answer comes back the same way.

Requests get workers in the order they asked (:class:`_Idle`): a lock or a queue wakes
any one of its waiters, so under load a request could be passed over again and again
(the p99 latency was three times the median).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from sodos_plugin.serve import jobs
from sodos_plugin.util.workers import start_holding_sigint

#: A worker that has not built its host in this many seconds is given up on.
START_TIMEOUT = 120.0


class Busy(Exception):
    """No worker was free in time."""


class TimeLimit(Exception):
    """The job ran past its time limit; its worker was killed."""


class WorkerLost(Exception):
    """The worker died while computing the job."""


class Stopped(Exception):
    """The pool was closed (the service is stopping) before the job's answer came."""


class StartFailed(Exception):
    """A worker could not build its host (bad config, a plugin that fails to import)."""


def _job(route: str, options: Any, body: bytes) -> bytes:
    """One job as one message: header length (4 bytes), pickled header, body."""
    header = pickle.dumps((route, options), protocol=pickle.HIGHEST_PROTOCOL)
    return b"".join((len(header).to_bytes(4, "little"), header, body))


def _read_job(message: bytes) -> tuple[str, Any, bytes]:
    size = int.from_bytes(message[:4], "little")
    route, options = pickle.loads(message[4 : 4 + size])
    return route, options, message[4 + size :]


def _answer(status: int, body: bytes) -> bytes:
    """One answer as one message: the HTTP status (2 bytes), then the body."""
    return status.to_bytes(2, "little") + body


def _read_answer(message: bytes) -> tuple[int, bytes]:
    return int.from_bytes(message[:2], "little"), message[2:]


def _worker_main(conn: Any, host_factory: Callable[[], Any], handlers: Any) -> None:
    """The worker process: build the host once, then answer jobs until the pipe closes
    (``handlers``: route name → handler, the routes of the table computed in workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        host = host_factory()
    except BaseException as error:  # reported to the parent, which refuses to start
        with contextlib.suppress(OSError):
            conn.send(("failed", f"{type(error).__name__}: {error}"))
        return
    try:
        worker = jobs.Worker(host, handlers)
        conn.send(("ready", os.getpid()))
        while True:
            conn.send_bytes(_answer(*worker.run(*_read_job(conn.recv_bytes()))))
    except (EOFError, OSError):  # the parent is gone (or gave up on us): end quietly
        return


class _Idle:
    """Idle workers, handed to waiting requests first come, first served."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.closed = False
        self.workers: list[_Worker] = []
        #: each waiting request: [a lock it blocks on, the worker handed to it]
        self.waiting: deque[list[Any]] = deque()

    def put(self, worker: _Worker) -> None:
        with self.lock:
            if self.closed:
                worker.kill()
            elif self.waiting:
                waiter = self.waiting.popleft()
                waiter[1] = worker
                waiter[0].release()
            else:
                self.workers.append(worker)

    def get(self, timeout: float) -> _Worker | None:
        """An idle worker, waiting at most ``timeout`` seconds behind earlier requests
        (None: none came)."""
        with self.lock:
            if self.closed:
                return None
            if self.workers and not self.waiting:
                return self.workers.pop()
            waiter = [threading.Lock(), None]
            waiter[0].acquire()
            self.waiting.append(waiter)
        waiter[0].acquire(timeout=max(timeout, 0))
        with self.lock:
            if waiter[1] is None and waiter in self.waiting:  # not handed one in time
                self.waiting.remove(waiter)
            return waiter[1]

    def qsize(self) -> int:
        return len(self.workers)

    def close(self) -> list[_Worker]:
        """No worker handed out from now on; the requests waiting are woken with none.
        Returns the idle workers."""
        with self.lock:
            self.closed = True
            idle, self.workers = self.workers, []
            while self.waiting:
                self.waiting.popleft()[0].release()
        return idle


class _Worker:
    def __init__(self, context: Any, host_factory: Callable[[], Any], handlers: Any):
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_worker_main,
            args=(child, host_factory, handlers),
            daemon=True,
            name="sodos-worker",
        )
        start_holding_sigint(self.process)
        child.close()

    def wait_ready(self, timeout: float) -> None:
        if not self.conn.poll(timeout):
            self.kill()
            raise StartFailed(f"a worker did not start within {timeout:.0f} s")
        try:
            kind, detail = self.conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise StartFailed("a worker died while starting") from None
        if kind != "ready":
            self.kill()
            raise StartFailed(str(detail))

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.join(5)
        finally:
            self.conn.close()


class Pool:
    """``size`` worker processes; see the module docstring. ``handlers``: what they
    compute, route name → ``handler(worker, options, body)`` (importable by name: it
    reaches them by pickle)."""

    def __init__(
        self,
        host_factory: Callable[[], Any],
        size: int,
        handlers: Mapping[str, Callable[..., bytes]],
    ):
        self.host_factory = host_factory
        self.handlers = dict(handlers)
        self.size = size
        self.context = multiprocessing.get_context("spawn")
        self.idle = _Idle()
        self.closed = False
        self.lock = threading.Lock()
        self.workers: set[_Worker] = set()
        self.restarts = 0
        started: list[_Worker] = []
        try:
            for _ in range(size):
                started.append(self._new())
            for worker in started:
                worker.wait_ready(START_TIMEOUT)
        except BaseException:  # StartFailed, or stopped while starting (Ctrl-C)
            self.close()
            for worker in started:  # no thread polls them yet
                worker.conn.close()
            raise
        for worker in started:
            self.idle.put(worker)

    def _new(self) -> _Worker:
        worker = _Worker(self.context, self.host_factory, self.handlers)
        with self.lock:
            self.workers.add(worker)
        return worker

    def _drop(self, worker: _Worker) -> None:
        with self.lock:
            self.workers.discard(worker)
        worker.kill()

    def _replace(self) -> None:
        """Start a worker in place of one killed or lost, without making anyone wait."""

        def start() -> None:
            delay = 0.5
            while not self.closed:
                worker = self._new()
                try:
                    worker.wait_ready(START_TIMEOUT)
                except StartFailed as error:
                    self._drop(worker)
                    sys.stderr.write(f"sodos serve: cannot restart a worker: {error}\n")
                    time.sleep(delay)
                    delay = min(delay * 2, 30)
                    continue
                if self.closed:
                    self._drop(worker)
                    return
                self.restarts += 1
                self.idle.put(worker)
                return

        threading.Thread(target=start, name="sodos-worker-restart", daemon=True).start()

    def run(self, job: tuple, *, timeout: float, wait: float) -> tuple[int, bytes]:
        """The worker's ``(status, body)`` for ``job`` = (route, options, body); see the
        module docstring."""
        route, options, body = job
        worker = self.idle.get(wait)
        if worker is None:
            raise Stopped if self.closed else Busy
        try:
            worker.conn.send_bytes(_job(route, options, body))
            if not worker.conn.poll(timeout):
                self._drop(worker)
                if self.closed:
                    raise Stopped
                self._replace()
                raise TimeLimit
            answer = _read_answer(worker.conn.recv_bytes())
        except (EOFError, OSError):
            self._drop(worker)
            if self.closed:  # ended by close(), not dead
                raise Stopped from None
            self._replace()
            raise WorkerLost from None
        self.idle.put(worker)
        return answer

    @property
    def idle_count(self) -> int:
        return self.idle.qsize()

    def close(self) -> None:
        """End every worker at once. A request computing on one, or waiting for one,
        gets :class:`Stopped`; its thread closes that worker's pipe (closing it here,
        under a thread that polls it, could hand its descriptor to another file)."""
        self.closed = True
        idle = self.idle.close()
        with self.lock:
            workers, self.workers = list(self.workers), set()
        for worker in workers:
            with contextlib.suppress(OSError):
                worker.process.kill()
        for worker in workers:
            worker.process.join(5)
        for worker in idle:
            worker.conn.close()
