"""A worker is started with SIGINT ignored and held back in the parent
(sodos_plugin.util.workers.start_holding_sigint: the workers of ``sodos serve`` and of
parallel reads): a Ctrl-C that comes while a worker starts is acted on, not lost, and
the worker ignores it from its start."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys

import pytest

from sodos_plugin.util.workers import start_holding_sigint

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="a blocked, ignored signal kept pending: Linux"
)


class _Interrupted:
    """A process whose start receives a Ctrl-C meanwhile, and records the parent's
    SIGINT disposition and mask as the start saw them."""

    def start(self) -> None:
        self.handler = signal.getsignal(signal.SIGINT)
        self.blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        os.kill(os.getpid(), signal.SIGINT)


def test_a_ctrl_c_while_a_worker_starts_is_acted_on_as_the_start_returns():
    process = _Interrupted()
    with pytest.raises(KeyboardInterrupt):
        start_holding_sigint(process)
    assert process.blocked and process.handler is signal.SIG_IGN
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def _report_sigint(conn) -> None:
    conn.send(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
    conn.close()


def test_a_worker_starts_ignoring_sigint():
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_report_sigint, args=(child,), daemon=True)
    start_holding_sigint(process)
    child.close()
    try:
        assert parent.poll(60), "the worker did not answer"
        assert parent.recv() is True  # ignored from its start: no traceback while importing
    finally:
        process.join(10)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
