"""The cyclic garbage collector paused while a run builds a large model, in one place.

A run makes hundreds of thousands of rows, tokens, games and rating steps and no
reference cycles (reference counting frees them); meanwhile every batch of new objects
would start a collection pass over all those alive so far, finding nothing to free
(benchmarks/README.md: 10-18 % of ingesting 100 000 SGF records). So the collector is
paused at the boundaries of the work, and nowhere inside it:

* :func:`paused` around each :class:`~sodos_plugin.host.Host` call that builds much
  (reading, standings, writing, histories, ratings): every face and host gets it;
* :func:`worker_start` in each worker process of a parallel read (the pool's
  initializer);
* the ``sodos`` command pauses it for its whole run (:mod:`sodos_plugin.cli`), one
  short process; ``sodos serve`` does not: its workers pause it for each request
  (:class:`sodos_plugin.serve.jobs.Worker`) and collect between requests.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Callable, Iterator
from typing import TypeVar

F = TypeVar("F", bound=Callable)


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The collector paused inside the block, then restored as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def paused(function: F) -> F:
    """``function`` run with the collector paused (:func:`paused_gc`)."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with paused_gc():
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def worker_start() -> None:
    """A worker process's start: it only builds (read, parse, return), so it never
    collects."""
    gc.disable()
