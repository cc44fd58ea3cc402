"""Tasks shared by this process and worker processes, their results in task order.

Contract: :func:`in_order` yields ``function(task, *more)`` for each task, in task
order, computed by ``processes`` processes: this one and ``processes - 1`` workers.
Each takes the next task not yet taken when it has none; the results come back in
order whoever computed them, and are the same as one process's. A task's exception is
raised here, where its result would have been given; a worker that dies raises
:class:`WorkerLost`. Either way, and when the caller stops early, the workers are
stopped and nothing more is computed.

Why this process reads too, and why not :mod:`concurrent.futures`. A run's results are
merged here in order, which takes a small part of the time: beside ``N`` workers this
process mostly waited, and on 2 cores two workers and this process shared them, every
task's result pickled, sent and unpickled. So this process computes tasks while it has
nothing to merge. But :mod:`concurrent.futures` moves tasks and results through threads
of this process, and a thread waits for the interpreter lock while this one reads files:
each read gives the lock up and takes it back before the waiting thread is scheduled,
so that thread waited tens of milliseconds (measured: a worker got its first task after
110 ms of a 450 ms run), and the workers with it. Here no thread is involved: this
process sends tasks and takes results itself, whenever it waits and between the units
of its own task (``between``: :func:`in_order` passes it to ``function`` in this
process only; a long task calls it now and then).

A worker holds two tasks at most: the one it computes and the next, sent ahead when the
pipe can hold it without waiting (:data:`PIPE_BYTES`, where the system lets a pipe
grow; else only to an idle worker), so a worker rarely waits for its next task.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import pickle
import signal
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import wait
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: pipes keep their size
    fcntl = None  # type: ignore[assignment]

__all__ = ["WorkerLost", "in_order", "start_holding_sigint"]

T = TypeVar("T")

#: The size asked for each pipe between this process and a worker (Linux lets an
#: unprivileged process grow a pipe to 1 MiB): a task's units and a chunk of 4 096
#: records' results fit, so neither side waits for the other to read.
PIPE_BYTES = 1 << 20
#: What a pipe is taken to hold where its size cannot be read.
SMALL_PIPE = 4096


class WorkerLost(RuntimeError):
    """A worker process ended before giving a result (killed, out of memory)."""


def start_holding_sigint(process: Any) -> None:
    """Start a worker with SIGINT ignored, so that it starts ignoring it (an ignored
    signal stays ignored across exec): Ctrl-C reaches the whole process group, and a
    worker still importing would print its traceback; stopping the workers is the
    parent's. Meanwhile the starting thread also blocks SIGINT: a blocked signal stays
    pending even while ignored (Linux), so a Ctrl-C that comes while a worker starts is
    acted on as the start returns — ignoring alone lost it (``sodos serve`` went on to
    listen). Only the main thread can change a handler: from another thread the worker
    starts as the process is."""
    mask = getattr(signal, "pthread_sigmask", None)
    old_mask = mask(signal.SIG_BLOCK, {signal.SIGINT}) if mask is not None else None
    try:
        try:
            old = signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread
            old = None
        try:
            process.start()
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)
    finally:
        if mask is not None:
            mask(signal.SIG_SETMASK, old_mask)


def _grown(connection: Any) -> int:
    """What the pipe under ``connection`` holds, grown to :data:`PIPE_BYTES` where the
    system allows it."""
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsize is None:
        return SMALL_PIPE
    try:
        return fcntl.fcntl(connection.fileno(), setsize, PIPE_BYTES)
    except OSError:  # a lower system limit (fs.pipe-max-size)
        try:
            return fcntl.fcntl(connection.fileno(), fcntl.F_GETPIPE_SZ)
        except OSError:
            return SMALL_PIPE


def _serve(
    tasks: Any,
    results: Any,
    function: Callable,
    more: Sequence,
    start: Callable | None,
    inherited: Sequence = (),
) -> None:
    """A worker: compute each task received, send back ``(number, ok, result or
    error)``, until told to stop (an empty message) or the pipe of tasks closes.

    ``inherited``: the parent's ends of this worker's pipes, which a forked worker holds
    too; closed, so that the pipe of tasks closes when the parent ends, however it ends
    (a worker holding its own pipe open would wait for a task forever)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for connection in inherited:
        connection.close()
    if start is not None:
        start()
    while True:
        try:
            message = tasks.recv_bytes()
        except EOFError:
            return
        if not message:
            return
        at, task = pickle.loads(message)
        try:
            answer = (at, True, function(task, *more))
        except Exception as error:
            answer = (at, False, error)
        try:
            message = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # what does not pickle is sent as its text
            problem = error if answer[1] else answer[2]
            failed = RuntimeError(f"{type(problem).__name__}: {problem}")
            message = pickle.dumps((at, False, failed), pickle.HIGHEST_PROTOCOL)
        results.send_bytes(message)


class _Worker:
    __slots__ = ("process", "tasks", "results", "held", "room")

    def __init__(self, context: Any, function: Callable, more: Sequence, start: Callable | None):
        tasks_in, self.tasks = context.Pipe(duplex=False)
        self.results, results_out = context.Pipe(duplex=False)
        self.room = min(_grown(self.tasks), _grown(self.results))
        forked = context.get_start_method() == "fork"
        inherited = (self.tasks, self.results) if forked else ()
        self.process = context.Process(
            target=_serve,
            args=(tasks_in, results_out, function, more, start, inherited),
            daemon=True,
            name="sodos-reader",
        )
        start_holding_sigint(self.process)
        tasks_in.close()
        results_out.close()
        self.held: collections.deque[int] = collections.deque()  # tasks sent, in order


class _Pool:
    """The workers, the tasks not yet taken and the results not yet given."""

    def __init__(
        self,
        function: Callable,
        tasks: Sequence,
        more: Sequence,
        workers: int,
        start: Callable | None,
    ):
        self.function, self.tasks, self.more = function, tasks, more
        self.taken = 0  # tasks before this one are sent to a worker or computed here
        self.done: dict[int, tuple[bool, Any]] = {}
        self.ahead: tuple[int, bytes] | None = None  # the next task, pickled
        context = multiprocessing.get_context()
        self.workers: list[_Worker] = []
        try:
            for _ in range(workers):
                self.workers.append(_Worker(context, function, more, start))
                self._feed(self.workers[-1])
        except BaseException:
            self.close()
            raise

    def _next_message(self) -> tuple[int, bytes]:
        if self.ahead is None:
            at = self.taken
            self.ahead = at, pickle.dumps((at, self.tasks[at]), pickle.HIGHEST_PROTOCOL)
        return self.ahead

    def _feed(self, worker: _Worker) -> None:
        """Send ``worker`` tasks until it holds two. The second only when the pipe takes
        it without waiting (the worker reads it after its current task), and while more
        tasks are left than processes: toward the end a task held ahead would keep a
        process idle."""
        while self.taken < len(self.tasks) and len(worker.held) < 2:
            at, message = self._next_message()
            if worker.held and (
                len(message) + 4 > worker.room
                or len(self.tasks) - self.taken <= len(self.workers) + 1
            ):
                return
            worker.tasks.send_bytes(message)
            worker.held.append(at)
            self.taken, self.ahead = at + 1, None

    def _receive(self, worker: _Worker) -> None:
        try:
            message = worker.results.recv_bytes()
        except (EOFError, OSError):
            worker.process.join(1)
            raise WorkerLost(
                f"a worker process reading the files ended (exit code "
                f"{worker.process.exitcode}) before giving its result"
            ) from None
        at, ok, value = pickle.loads(message)
        if worker.held and worker.held[0] == at:
            worker.held.popleft()
        self.done[at] = ok, value
        self._feed(worker)

    def between(self) -> None:
        """Take the results the workers have sent, and give them their next tasks."""
        ready = wait([w.results for w in self.workers if w.held], 0)
        if ready:
            for worker in self.workers:
                if worker.results in ready:
                    self._receive(worker)

    def _wait(self) -> None:
        """Block until a worker sends a result, and take it."""
        busy = [w for w in self.workers if w.held]
        ready = wait([w.results for w in busy])
        for worker in busy:
            if worker.results in ready:
                self._receive(worker)

    def results(self) -> Iterator[Any]:
        tasks, function, more = self.tasks, self.function, self.more
        for at in range(len(tasks)):
            while at not in self.done:
                self.between()
                if at in self.done:
                    break
                if self.taken < len(tasks):  # nothing to give yet: compute the next task
                    mine = self.taken
                    self.taken, self.ahead = mine + 1, None
                    try:
                        self.done[mine] = True, function(tasks[mine], *more, between=self.between)
                    except Exception as error:  # raised in its turn, as a worker's would be
                        self.done[mine] = False, error
                else:
                    self._wait()
            ok, value = self.done.pop(at)
            if not ok:
                raise value
            yield value

    def close(self) -> None:
        """Stop the workers: an idle one is told to end; one still computing (after a
        failure, or when the caller stopped early) is ended at once."""
        for worker in self.workers:
            if worker.held:
                worker.process.terminate()
            else:
                with contextlib.suppress(OSError):  # it ended already
                    worker.tasks.send_bytes(b"")
            worker.tasks.close()
        for worker in self.workers:
            worker.process.join()
            worker.results.close()


def in_order(
    function: Callable[..., T],
    tasks: Sequence,
    more: Sequence = (),
    processes: int = 1,
    start: Callable[[], Any] | None = None,
) -> Iterator[T]:
    """``function(task, *more)`` of each task, in task order, by ``processes`` processes
    (this one and its workers; ``start()`` is run first in each worker; in a daemonic
    process, which may start none, this one alone). In this process
    ``function`` is called with ``between=`` a callable it may call between its units,
    so that the workers are served while it computes (see the module's documentation)."""
    workers = min(processes, len(tasks)) - 1
    if multiprocessing.current_process().daemon:
        workers = 0  # a daemonic process may start none (a host's own pool worker)
    if workers < 1:
        for task in tasks:
            yield function(task, *more)
        return
    pool = _Pool(function, tasks, more, workers, start)
    try:
        yield from pool.results()
    finally:
        pool.close()
